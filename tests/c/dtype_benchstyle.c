//go:build ignore

/* gompi-test: np=2,4 timeout=30 */
/* Derived types as the benchmark suites use them, ping-ponged between rank
 * pairs at sizes from 1 element to 1 MiB: OSU's contiguous, vector and
 * indexed types (count 1, a whole message per element), and IMB's column
 * type (a vector resized to one element's extent, sent with a large count
 * so consecutive elements interleave). Every byte is checked. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, peer;

/* pingpong sends count elements of st at sbuf and receives into rt at rbuf;
 * the even rank of each pair starts. */
static void pingpong(void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt) {
    MPI_Status s;
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(sbuf, scount, st, peer, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(rbuf, rcount, rt, peer, 1, MPI_COMM_WORLD, &s));
    } else {
        CHECK_MPI(MPI_Recv(rbuf, rcount, rt, peer, 1, MPI_COMM_WORLD, &s));
        CHECK_MPI(MPI_Send(sbuf, scount, st, peer, 1, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    peer = rank ^ 1;
    const int maxn = 1 << 18; /* ints: 1 MiB of data */
    int *s = malloc(sizeof(int) * (2 * maxn + 128)), *r = malloc(sizeof(int) * (2 * maxn + 128));

    for (int n = 1; n <= maxn; n *= 8) {
        /* OSU: one element of a contiguous type holding the message. */
        MPI_Datatype contig;
        CHECK_MPI(MPI_Type_contiguous(n, MPI_INT, &contig));
        CHECK_MPI(MPI_Type_commit(&contig));
        for (int i = 0; i < n; i++) s[i] = rank * 7 + i, r[i] = -1;
        pingpong(s, 1, contig, r, 1, contig);
        int bad = 0;
        for (int i = 0; i < n; i++) bad += r[i] != peer * 7 + i;
        CHECK(bad == 0, "contiguous n=%d: %d wrong", n, bad);

        /* OSU: vector with stride 2 on both sides. */
        MPI_Datatype vec;
        CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
        for (int i = 0; i < 2 * n; i++) s[i] = rank * 5 + i, r[i] = -1;
        pingpong(s, 1, vec, r, 1, vec);
        bad = 0;
        for (int i = 0; i < 2 * n; i++) bad += r[i] != (i % 2 ? -1 : peer * 5 + i);
        CHECK(bad == 0, "vector n=%d: %d wrong", n, bad);

        /* OSU: indexed with blocks of growing length. */
        int nb = 0, total = 0, *bl = malloc(sizeof(int) * 64), *d = malloc(sizeof(int) * 64);
        for (int b = 1; total < n && nb < 64; b *= 2, nb++) {
            bl[nb] = b < n - total ? b : n - total;
            d[nb] = 2 * total + nb;
            total += bl[nb];
        }
        MPI_Datatype idx;
        CHECK_MPI(MPI_Type_indexed(nb, bl, d, MPI_INT, &idx));
        CHECK_MPI(MPI_Type_commit(&idx));
        int span = 2 * total + nb;
        for (int i = 0; i < span; i++) s[i] = rank * 3 + i, r[i] = -1;
        pingpong(s, 1, idx, r, total, MPI_INT);
        int k = 0;
        bad = 0;
        for (int b = 0; b < nb; b++)
            for (int j = 0; j < bl[b]; j++) bad += r[k++] != peer * 3 + d[b] + j;
        CHECK(bad == 0 && k == total, "indexed n=%d: %d wrong", n, bad);
        free(bl);
        free(d);

        /* IMB: a column of a rows x 2 matrix, resized to one int so that
         * count columns interleave. */
        int rows = n < 1024 ? n : 1024, cols = n / rows > 0 ? n / rows : 1;
        MPI_Datatype col, colr;
        CHECK_MPI(MPI_Type_vector(rows, 1, cols * 2, MPI_INT, &col));
        CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(int), &colr));
        CHECK_MPI(MPI_Type_commit(&colr));
        for (int i = 0; i < 2 * rows * cols; i++) s[i] = rank * 11 + i, r[i] = -1;
        pingpong(s, cols, colr, r, cols, colr);
        bad = 0;
        for (int i = 0; i < 2 * rows * cols; i++) {
            int c = i % (2 * cols);
            bad += r[i] != (c < cols ? peer * 11 + i : -1);
        }
        CHECK(bad == 0, "resized columns rows=%d cols=%d: %d wrong", rows, cols, bad);
        MPI_Type_free(&contig);
        MPI_Type_free(&vec);
        MPI_Type_free(&idx);
        MPI_Type_free(&col);
        MPI_Type_free(&colr);
    }
    free(s);
    free(r);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
