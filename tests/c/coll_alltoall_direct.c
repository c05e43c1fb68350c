//go:build ignore

/* gompi-test: np=2,3,4,5 timeout=120 */
/* Alltoalls too big for the shared-memory slots. With more ranks than cores
 * each rank reads its blocks straight from the others' send buffers: from
 * the shared heap (malloc), from memory outside it (static arrays), from a
 * copy (MPI_IN_PLACE) or a packed copy (strided send type on some ranks),
 * on MPI_COMM_WORLD (C fast path first) and on a split communicator. A send
 * buffer is refilled the moment the call returns, so a peer still reading it
 * would see the next round's data. */
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
    MPI_Comm_free(&rev);

    MPI_Finalize();
    return check_status();
}
