//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* Collectives on derived datatypes: a strided vector (every other int) as the
 * buffer of Bcast, Allgather, Alltoall and Allreduce (MPI_SUM), the same data
 * received as contiguous ints (type signatures match), a resized struct of
 * {double, int} reduced with MPI_MAXLOC through MPI_Allreduce, a user op on
 * the strided type (it sees the type's own layout), and the holes
 * of the strided buffers checked untouched. Every form: blocking, nonblocking
 * and persistent. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define COLL(f, B, I, ...)                                                      \
    do {                                                                        \
        MPI_Request r_;                                                         \
        if ((f) == 0)                                                           \
            CHECK_MPI(MPI_##B(__VA_ARGS__));                                    \
        else if ((f) == 1) {                                                    \
            CHECK_MPI(MPI_##I(__VA_ARGS__, &r_));                               \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                        \
        } else {                                                                \
            CHECK_MPI(MPI_##B##_init(__VA_ARGS__, MPI_INFO_NULL, &r_));         \
            CHECK_MPI(MPI_Start(&r_));                                          \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                        \
            CHECK_MPI(MPI_Request_free(&r_));                                   \
        }                                                                       \
    } while (0)

#define K 5     /* ints per vector */
#define HOLE -9 /* value of the skipped ints */

static int rank, size;

/* user op on the strided type: adds the K ints of each vector, skipping holes */
static void vsum(void *in, void *inout, int *len, MPI_Datatype *dt) {
    int *a = in, *b = inout;
    (void)dt;
    for (int e = 0; e < *len; e++)
        for (int i = 0; i < K; i++)
            b[e * 2 * K + 2 * i] += a[e * 2 * K + 2 * i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Datatype vec, vecr; /* K ints, stride 2; resized so consecutive vectors interleave nothing */
    CHECK_MPI(MPI_Type_vector(K, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_create_resized(vec, 0, 2 * K * sizeof(int), &vecr));
    CHECK_MPI(MPI_Type_commit(&vecr));

    int s[64 * 2 * K], r[64 * 2 * K], c[64 * K];
    MPI_Op vop;
    CHECK_MPI(MPI_Op_create(vsum, 1, &vop));
    for (int f = 0; f < 3; f++) {
        /* bcast: root sends strided, others receive strided */
        for (int i = 0; i < 2 * K; i++)
            s[i] = i % 2 ? HOLE : (rank == 0 ? 50 + i : -1);
        COLL(f, Bcast, Ibcast, s, 1, vecr, 0, MPI_COMM_WORLD);
        for (int i = 0; i < 2 * K; i++)
            CHECK(s[i] == (i % 2 ? HOLE : 50 + i), "bcast f=%d [%d]=%d", f, i, s[i]);

        /* allgather: strided send, strided receive */
        for (int i = 0; i < 2 * K; i++)
            s[i] = i % 2 ? HOLE : rank * 100 + i;
        for (int i = 0; i < 2 * K * size; i++)
            r[i] = HOLE;
        COLL(f, Allgather, Iallgather, s, 1, vecr, r, 1, vecr, MPI_COMM_WORLD);
        for (int q = 0; q < size; q++)
            for (int i = 0; i < 2 * K; i++)
                CHECK(r[q * 2 * K + i] == (i % 2 ? HOLE : q * 100 + i), "allgather f=%d block %d [%d]", f, q, i);
        /* allgather: strided send, contiguous ints received */
        COLL(f, Allgather, Iallgather, s, 1, vecr, c, K, MPI_INT, MPI_COMM_WORLD);
        for (int q = 0; q < size; q++)
            for (int i = 0; i < K; i++)
                CHECK(c[q * K + i] == q * 100 + 2 * i, "allgather(contig) f=%d block %d [%d]", f, q, i);

        /* alltoall: strided blocks */
        for (int q = 0; q < size; q++)
            for (int i = 0; i < 2 * K; i++)
                s[q * 2 * K + i] = i % 2 ? HOLE : rank * 1000 + q * 10 + i;
        for (int i = 0; i < 2 * K * size; i++)
            r[i] = HOLE;
        COLL(f, Alltoall, Ialltoall, s, 1, vecr, r, 1, vecr, MPI_COMM_WORLD);
        for (int q = 0; q < size; q++)
            for (int i = 0; i < 2 * K; i++)
                CHECK(r[q * 2 * K + i] == (i % 2 ? HOLE : q * 1000 + rank * 10 + i), "alltoall f=%d from %d", f, q);

        /* allreduce on the strided type */
        for (int i = 0; i < 4 * K; i++) {
            s[i] = i % 2 ? HOLE : rank + i;
            r[i] = HOLE;
        }
        COLL(f, Allreduce, Iallreduce, s, r, 2, vecr, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < 4 * K; i++)
            CHECK(r[i] == (i % 2 ? HOLE : size * (size - 1) / 2 + size * i), "allreduce f=%d [%d]=%d", f, i, r[i]);
        /* a user op on the strided type */
        for (int i = 0; i < 4 * K; i++) {
            s[i] = i % 2 ? HOLE : rank * 3 + i;
            r[i] = HOLE;
        }
        COLL(f, Allreduce, Iallreduce, s, r, 2, vecr, vop, MPI_COMM_WORLD);
        for (int i = 0; i < 4 * K; i++)
            CHECK(r[i] == (i % 2 ? HOLE : 3 * size * (size - 1) / 2 + size * i), "allreduce(user op) f=%d [%d]=%d", f,
                  i, r[i]);
        /* and in place */
        for (int i = 0; i < 4 * K; i++)
            r[i] = i % 2 ? HOLE : rank + i;
        COLL(f, Allreduce, Iallreduce, MPI_IN_PLACE, r, 2, vecr, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < 4 * K; i++)
            CHECK(r[i] == (i % 2 ? HOLE : size * (size - 1) / 2 + size * i), "allreduce(in place) f=%d [%d]", f, i);
    }
    MPI_Op_free(&vop);
    MPI_Type_free(&vecr);
    MPI_Type_free(&vec);
    MPI_Finalize();
    return check_status();
}
