//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* Partitioned communication on communicators other than MPI_COMM_WORLD: a
 * duplicate (its own context: a world request with the same tag does not
 * match it), a split, and an intercommunicator between the even and odd
 * ranks; with ordinary point-to-point traffic of the same tags in between;
 * requests freed while active complete by themselves. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int wrank, wsize;

/* ring runs rounds of a partitioned ring exchange on comm (intra), with a
 * plain message of the same tag going the other way each round. */
static void ring(MPI_Comm comm, int rounds, int tag) {
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    enum { P = 5, C = 37 };
    int sb[P * C], rb[P * C];
    MPI_Request rq[2];
    CHECK_MPI(MPI_Psend_init(sb, P, C, MPI_INT, next, tag, comm, MPI_INFO_NULL, &rq[0]));
    CHECK_MPI(MPI_Precv_init(rb, 1, P * C, MPI_INT, prev, tag, comm, MPI_INFO_NULL, &rq[1]));
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < P * C; i++) sb[i] = rank * 100000 + r * 1000 + i;
        CHECK_MPI(MPI_Startall(2, rq));
        int plain = -1, mine = rank + r;
        MPI_Request pr[2];
        MPI_Irecv(&plain, 1, MPI_INT, next, tag, comm, &pr[0]);
        MPI_Isend(&mine, 1, MPI_INT, prev, tag, comm, &pr[1]);
        for (int p = P - 1; p >= 0; p--) CHECK_MPI(MPI_Pready(p, rq[0]));
        CHECK_MPI(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
        CHECK(plain == next + r, "plain message %d, want %d", plain, next + r);
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < P * C; i++)
            if (rb[i] != prev * 100000 + r * 1000 + i) {
                CHECK(0, "round %d: rb[%d] = %d", r, i, rb[i]);
                break;
            }
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
}

static void inter(void) {
    if (wsize < 2) return;
    MPI_Comm half, ic;
    int color = wrank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 5, &ic);
    int rsize, rank;
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &rank);
    int peer = rank % rsize;
    /* everyone sends to remote rank peer; remote ranks receive from each
     * local rank that targets them */
    int lsize;
    MPI_Comm_size(ic, &lsize);
    enum { P = 4, C = 10 };
    int sb[P * C];
    for (int i = 0; i < P * C; i++) sb[i] = wrank * 1000 + i;
    MPI_Request s;
    CHECK_MPI(MPI_Psend_init(sb, P, C, MPI_INT, peer, 8, ic, MPI_INFO_NULL, &s));
    int nsrc = 0, srcs[64];
    for (int r = 0; r < rsize; r++)
        if (r % lsize == rank) srcs[nsrc++] = r;
    int *rb = malloc(sizeof(int) * P * C * (nsrc + 1));
    MPI_Request *rr = malloc(sizeof(MPI_Request) * (nsrc + 1));
    for (int k = 0; k < nsrc; k++)
        CHECK_MPI(MPI_Precv_init(rb + k * P * C, 2, P * C / 2, MPI_INT, srcs[k], 8, ic, MPI_INFO_NULL, &rr[k]));
    for (int round = 0; round < 3; round++) {
        CHECK_MPI(MPI_Start(&s));
        if (nsrc) CHECK_MPI(MPI_Startall(nsrc, rr));
        CHECK_MPI(MPI_Pready_range(0, P - 1, s));
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        for (int k = 0; k < nsrc; k++) {
            MPI_Status st;
            CHECK_MPI(MPI_Wait(&rr[k], &st));
            CHECK(st.MPI_SOURCE == srcs[k], "intercomm source %d, want %d", st.MPI_SOURCE, srcs[k]);
            /* the sender's world rank: remote rank srcs[k] of the other color */
            int src_world = 2 * srcs[k] + (1 - color);
            for (int i = 0; i < P * C; i++)
                if (rb[k * P * C + i] != src_world * 1000 + i) {
                    CHECK(0, "intercomm from %d: [%d] = %d", srcs[k], i, rb[k * P * C + i]);
                    break;
                }
        }
    }
    MPI_Request_free(&s);
    for (int k = 0; k < nsrc; k++) MPI_Request_free(&rr[k]);
    free(rb);
    free(rr);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
}

/* A request freed while active still completes (and its buffer is then
 * filled); a later pair with the same tag matches fresh. */
static void free_active(void) {
    int next = (wrank + 1) % wsize, prev = (wrank + wsize - 1) % wsize;
    int sb[8], rb[8];
    for (int i = 0; i < 8; i++) sb[i] = wrank + i;
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(sb, 2, 4, MPI_INT, next, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(rb, 2, 4, MPI_INT, prev, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Start(&s));
    CHECK_MPI(MPI_Pready_range(0, 1, s));
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 8; i++) CHECK(rb[i] == prev + i, "freed-active pair: rb[%d] = %d", i, rb[i]);
    MPI_Request_free(&r);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    MPI_Comm dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &split);
    /* a world pair with the same tag, started around the dup's rounds,
     * must not take the dup's data */
    int next = (wrank + 1) % wsize, prev = (wrank + wsize - 1) % wsize;
    int ws[3] = {7, 7, 7}, wr[3] = {0};
    MPI_Request wq[2];
    CHECK_MPI(MPI_Psend_init(ws, 3, 1, MPI_INT, next, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &wq[0]));
    CHECK_MPI(MPI_Precv_init(wr, 3, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &wq[1]));
    CHECK_MPI(MPI_Startall(2, wq));
    ring(dup, 50, 1);
    CHECK_MPI(MPI_Pready_range(0, 2, wq[0]));
    CHECK_MPI(MPI_Waitall(2, wq, MPI_STATUSES_IGNORE));
    CHECK(wr[0] == 7 && wr[2] == 7, "world pair got %d %d", wr[0], wr[2]);
    MPI_Request_free(&wq[0]);
    MPI_Request_free(&wq[1]);
    ring(split, 50, 2);
    inter();
    free_active();
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Finalize();
    return check_status();
}
