//go:build ignore

/* gompi-test: np=2,3,4,5 timeout=120 */
/* gompi-env: GOMPI_SHM_DIRECT_ALLREDUCE=65536 GOMPI_SHM_DIRECT_REDUCE=65536 GOMPI_SHM_DIRECT_REDUCE_SCATTER=65536 */
/* Alltoalls, allgathers, bcasts, allreduces, reduces and reduce_scatters too big for the
 * shared-memory slots.
 * With more ranks than cores each rank reads (or folds from, or writes) the
 * others' buffers itself: in the shared heap (malloc), outside it (static
 * arrays), a copy (MPI_IN_PLACE) or a packed copy (strided send type on some
 * ranks), on MPI_COMM_WORLD (C fast path first) and on a split
 * communicator. A send buffer is refilled the moment the call returns, so a
 * peer still reading it would see the next round's data. The direct
 * reductions start at 64 KiB here (512 KiB by default) to keep the test
 * short; a non-commutative op checks the rank order. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define BLOCK 6000 /* ints per block: 24 KB, past the slots from 3 ranks */
#define MAXNP 8

static int rank, size;
static int static_send[MAXNP * BLOCK], static_recv[MAXNP * BLOCK];
static int strided_send[2 * MAXNP * BLOCK];

static int value(int from, int to, int i, int round) { return from * 1000003 + to * 7919 + i * 3 + round; }

static void fill(int *send, int stride, int me, int n, int round) {
    for (int to = 0; to < n; to++)
        for (int i = 0; i < BLOCK; i++)
            send[(to * BLOCK + i) * stride] = value(me, to, i, round);
}

static void verify(const int *recv, int me, int n, int round, const char *what) {
    for (int from = 0; from < n; from++)
        for (int i = 0; i < BLOCK; i++) {
            int want = value(from, me, i, round), got = recv[from * BLOCK + i];
            if (got != want) {
                CHECK(0, "%s round %d: block from %d, int %d = %d, want %d", what, round, from, i, got, want);
                return;
            }
        }
}

/* rounds runs alltoalls on comm: send from heap or static memory, the
 * result checked every round. */
static void rounds(MPI_Comm comm, int use_static, const char *what) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *send = use_static ? static_send : malloc(sizeof(int) * n * BLOCK);
    int *recv = use_static ? static_recv : malloc(sizeof(int) * n * BLOCK);
    for (int round = 0; round < 200; round++) {
        fill(send, 1, me, n, round);
        memset(recv, 0xff, sizeof(int) * n * BLOCK);
        CHECK_MPI(MPI_Alltoall(send, BLOCK, MPI_INT, recv, BLOCK, MPI_INT, comm));
        fill(send, 1, me, n, -1 - round); /* at once: nobody may still read it */
        verify(recv, me, n, round, what);
    }
    if (!use_static) {
        free(send);
        free(recv);
    }
}

#define VEC 20000 /* doubles per rank: 160 KB */
static double static_vec[VEC], static_res[VEC];

/* digit is rank r's element i of round k: one decimal digit, so a fold by
 * the op below spells the ranks' order. */
static double digit(int r, int i, int k) { return (double)((r + i + k) % 9 + 1); }

/* concat: inout = in "followed by" inout as decimal digit strings (at most
 * MAXNP digits: exact in a double), so the operands' order shows. */
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)dt;
    double *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        double shift = 10;
        for (double x = b[i]; x >= 10; x /= 10)
            shift *= 10;
        b[i] = a[i] * shift + b[i];
    }
}

static double concat_of(int n, int i, int k) {
    double v = 0;
    for (int r = 0; r < n; r++)
        v = v * 10 + digit(r, i, k);
    return v;
}

static void fill_digits(double *x, int count, int me, int k) {
    for (int i = 0; i < count; i++)
        x[i] = digit(me, i, k);
}

/* poison overwrites a send vector as soon as a call returns. */
static void poison(double *x, int count) {
    for (int i = 0; i < count; i++)
        x[i] = -1;
}

/* expect_concat checks count results against the concatenation over n
 * ranks of elements first.. of round k. */
static void expect_concat(const double *y, int count, int first, int n, int k, const char *what, const char *kind,
                          int in_place) {
    for (int i = 0; i < count; i++)
        if (y[i] != concat_of(n, first + i, k)) {
            CHECK(0, "%s %s round %d%s: [%d] = %.0f, want %.0f", what, kind, k, in_place ? " in place" : "", i, y[i],
                  concat_of(n, first + i, k));
            return;
        }
}

/* reductions: allreduce (in place every third round) and reduce to every
 * root in turn (in place at the root every other round) with a
 * non-commutative op, and sums. */
static void reductions(MPI_Comm comm, int use_static, const char *what) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_Op cat;
    MPI_Op_create(concat, 0, &cat);
    double *x = use_static ? static_vec : malloc(sizeof(double) * VEC);
    double *y = use_static ? static_res : malloc(sizeof(double) * VEC);
    for (int k = 0; k < 40; k++) {
        fill_digits(x, VEC, me, k);
        int in_place = k % 3 == 2;
        if (in_place) {
            memcpy(y, x, sizeof(double) * VEC);
            CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, y, VEC, MPI_DOUBLE, cat, comm));
        } else {
            CHECK_MPI(MPI_Allreduce(x, y, VEC, MPI_DOUBLE, cat, comm));
        }
        poison(x, VEC);
        expect_concat(y, VEC, 0, n, k, what, "allreduce", in_place);

        int root = k % n;
        fill_digits(x, VEC, me, k);
        memset(y, 0, sizeof(double) * VEC);
        in_place = me == root && k % 2;
        if (in_place) {
            memcpy(y, x, sizeof(double) * VEC);
            CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, y, VEC, MPI_DOUBLE, k % 4 < 2 ? cat : MPI_SUM, root, comm));
        } else {
            CHECK_MPI(MPI_Reduce(x, y, VEC, MPI_DOUBLE, k % 4 < 2 ? cat : MPI_SUM, root, comm));
        }
        poison(x, VEC);
        for (int i = 0; me == root && i < VEC; i++) {
            double want = 0;
            if (k % 4 < 2)
                want = concat_of(n, i, k);
            else
                for (int r = 0; r < n; r++)
                    want += digit(r, i, k);
            if (y[i] != want) {
                CHECK(0, "%s reduce to %d round %d%s: [%d] = %.0f, want %.0f", what, root, k, in_place ? " in place" : "",
                      i, y[i], want);
                break;
            }
        }
    }
    /* Reduce_scatter: uneven blocks (one empty), in place every other round,
     * over the whole VEC-element vector. */
    int counts[MAXNP], first[MAXNP], total = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = r == 1 ? 0 : VEC / n - r;
        first[r] = total;
        total += counts[r];
    }
    for (int k = 0; k < 40; k++) {
        fill_digits(x, total, me, k);
        int in_place = k % 2;
        if (in_place) {
            memcpy(y, x, sizeof(double) * total);
            CHECK_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, y, counts, MPI_DOUBLE, cat, comm));
        } else {
            CHECK_MPI(MPI_Reduce_scatter(x, y, counts, MPI_DOUBLE, cat, comm));
        }
        poison(x, total);
        expect_concat(y, counts[me], first[me], n, k, what, "reduce_scatter", in_place);
    }
    if (!use_static) {
        free(x);
        free(y);
    }
    MPI_Op_free(&cat);
}

/* big_blocks: alltoalls and allgathers of blocks that copies through the
 * cache (100 KB) or past it (2.4 MB: 8 MiB or more per call) carry, every
 * result checked and the send buffer refilled as soon as a call returns. */
static void big_blocks(void) {
    const int counts[] = {25000, 600000}; /* ints per block */
    for (int c = 0; c < 2; c++) {
        int b = counts[c];
        int *send = malloc(sizeof(int) * (size_t)b * size), *recv = malloc(sizeof(int) * (size_t)b * size);
        for (int round = 0; round < 4; round++) {
            for (int to = 0; to < size; to++)
                for (int i = 0; i < b; i++)
                    send[(size_t)to * b + i] = value(rank, to, i, round);
            CHECK_MPI(MPI_Alltoall(send, b, MPI_INT, recv, b, MPI_INT, MPI_COMM_WORLD));
            memset(send, 0xff, sizeof(int) * (size_t)b * size);
            for (int from = 0; from < size; from++)
                for (int i = 0; i < b; i++)
                    if (recv[(size_t)from * b + i] != value(from, rank, i, round)) {
                        CHECK(0, "alltoall of %d ints, round %d: from %d [%d] = %d", b, round, from, i,
                              recv[(size_t)from * b + i]);
                        from = size;
                        break;
                    }
            for (int i = 0; i < b; i++)
                send[i] = value(rank, 0, i, round);
            CHECK_MPI(MPI_Allgather(send, b, MPI_INT, recv, b, MPI_INT, MPI_COMM_WORLD));
            memset(send, 0xff, sizeof(int) * (size_t)b);
            for (int from = 0; from < size; from++)
                for (int i = 0; i < b; i++)
                    if (recv[(size_t)from * b + i] != value(from, 0, i, round)) {
                        CHECK(0, "allgather of %d ints, round %d: from %d [%d] = %d", b, round, from, i,
                              recv[(size_t)from * b + i]);
                        from = size;
                        break;
                    }
        }
        free(send);
        free(recv);
    }
}

/* bcasts: every root in turn, data past the big slots (VEC doubles, or an
 * odd number of bytes), the root's buffer overwritten as soon as its call
 * returns and every reader's byte past the count checked untouched. */
static void bcasts(MPI_Comm comm, int use_static, const char *what) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    double *x = use_static ? static_vec : malloc(sizeof(double) * VEC);
    for (int k = 0; k < 40; k++) {
        int root = k % n, bytes = k % 2 ? VEC * (int)sizeof(double) : 100001 + 64 * k;
        unsigned char *b = (unsigned char *)x;
        for (int i = 0; i < VEC * (int)sizeof(double); i++)
            b[i] = me == root ? (unsigned char)(i * 7 + k) : (unsigned char)(me + 1);
        if (k % 2)
            CHECK_MPI(MPI_Bcast(x, VEC, MPI_DOUBLE, root, comm));
        else
            CHECK_MPI(MPI_Bcast(x, bytes, MPI_BYTE, root, comm));
        if (me == root) {
            memset(x, 0xee, sizeof(double) * VEC); /* a late reader would see it */
            continue;
        }
        for (int i = 0; i < VEC * (int)sizeof(double); i++) {
            unsigned char want = i < bytes ? (unsigned char)(i * 7 + k) : (unsigned char)(me + 1);
            if (b[i] != want) {
                CHECK(0, "%s bcast from %d round %d of %d bytes: [%d] = %d, want %d", what, root, k, bytes, i, b[i],
                      want);
                break;
            }
        }
    }
    if (!use_static)
        free(x);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    CHECK(size <= MAXNP, "at most %d ranks", MAXNP);

    rounds(MPI_COMM_WORLD, 0, "world, heap");
    rounds(MPI_COMM_WORLD, 1, "world, static");
    rounds(MPI_COMM_WORLD, rank % 2, "world, heap and static mixed");

    /* In place, from the heap. */
    int *buf = malloc(sizeof(int) * size * BLOCK);
    for (int round = 0; round < 50; round++) {
        fill(buf, 1, rank, size, round);
        CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, BLOCK, MPI_INT, MPI_COMM_WORLD));
        verify(buf, rank, size, round, "in place");
    }
    free(buf);

    /* Odd ranks send from every other int (a vector type), even ranks from
     * plain ints; odd ranks receive into a contiguous type of BLOCK ints. */
    MPI_Datatype strided, vec, blk;
    MPI_Type_vector(BLOCK, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, (MPI_Aint)(2 * BLOCK * sizeof(int)), &vec);
    MPI_Type_free(&strided);
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(BLOCK, MPI_INT, &blk);
    MPI_Type_commit(&blk);
    int *recv = malloc(sizeof(int) * size * BLOCK);
    for (int round = 0; round < 50; round++) {
        memset(recv, 0xff, sizeof(int) * size * BLOCK);
        if (rank % 2) {
            fill(strided_send, 2, rank, size, round);
            CHECK_MPI(MPI_Alltoall(strided_send, 1, vec, recv, 1, blk, MPI_COMM_WORLD));
        } else {
            fill(static_send, 1, rank, size, round);
            CHECK_MPI(MPI_Alltoall(static_send, BLOCK, MPI_INT, recv, BLOCK, MPI_INT, MPI_COMM_WORLD));
        }
        verify(recv, rank, size, round, "derived types");
    }
    free(recv);
    MPI_Type_free(&vec);
    MPI_Type_free(&blk);

    /* A communicator of its own (the Go side's group), in reverse order. */
    MPI_Comm rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    rounds(rev, 0, "reversed communicator");
    bcasts(rev, 0, "reversed communicator");
    reductions(rev, 0, "reversed communicator");
    MPI_Comm_free(&rev);

    big_blocks();
    bcasts(MPI_COMM_WORLD, 0, "world, heap");
    bcasts(MPI_COMM_WORLD, 1, "world, static");
    bcasts(MPI_COMM_WORLD, rank % 2, "world, heap and static mixed");
    reductions(MPI_COMM_WORLD, 0, "world, heap");
    reductions(MPI_COMM_WORLD, 1, "world, static");

    MPI_Finalize();
    return check_status();
}
