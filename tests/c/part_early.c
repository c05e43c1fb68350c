//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* Partitions move as they become ready, not at the end: each rank sends to
 * the next and receives from the previous, and readies partition p+1 only
 * once its own receive's partition p has arrived (MPI_Parrived), which the
 * previous rank readied at the same step. If partitions were sent only when
 * all are ready every rank would wait forever at partition 0. Small
 * partitions and ones far above the eager size, in order and in reverse
 * order of partition index. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int rank, size, next, prev;

static int val(int src, int round, long i) { return (int)((src * 7919 + round * 131 + i) & 0x7fffffff); }

static void run(int P, int count, int reverse, int round) {
    long total = (long)P * count;
    int *sb = malloc(sizeof(int) * total), *rb = malloc(sizeof(int) * total);
    for (long i = 0; i < total; i++) {
        sb[i] = val(rank, round, i);
        rb[i] = -1;
    }
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(sb, P, count, MPI_INT, next, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(rb, P, count, MPI_INT, prev, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Start(&s));
    for (int k = 0; k < P; k++) {
        int p = reverse ? P - 1 - k : k;
        CHECK_MPI(MPI_Pready(p, s));
        int flag = 0;
        double t0 = MPI_Wtime();
        while (!flag) {
            CHECK_MPI(MPI_Parrived(r, p, &flag));
            if (!flag && MPI_Wtime() - t0 > 60) {
                CHECK(0, "partition %d (of %d x %d ints) never arrived before the next was readied", p, P,
                      count);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        /* The arrived partition is in place (later ones may be too: the
         * previous rank may be a step ahead). */
        long base = (long)p * count;
        CHECK(rb[base] == val(prev, round, base) && rb[base + count - 1] == val(prev, round, base + count - 1),
              "partition %d arrived with wrong data", p);
    }
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (long i = 0; i < total; i++)
        if (rb[i] != val(prev, round, i)) {
            CHECK(0, "round %d: rb[%ld] = %d", round, i, rb[i]);
            break;
        }
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    free(sb);
    free(rb);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    run(8, 16, 0, 0);
    run(8, 16, 1, 1);
    run(4, 256 * 1024, 0, 2); /* 1 MiB partitions */
    run(4, 256 * 1024, 1, 3);
    MPI_Finalize();
    return check_status();
}
