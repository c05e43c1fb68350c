//go:build ignore

/* gompi-test: np=1,2 timeout=150 */
/* Parents and spawned children talk through shared memory: 1, 2, then 3
 * children are spawned; every parent and every child exchange messages of
 * 1 B to 4 MiB both ways (eager, pipelined and single-copy sizes), checked
 * byte by byte, and the MPI_T counters show that the fragments went
 * through shared-memory pairs and none through sockets. Under
 * GOMPI_SM_PAIR=0 (spawn_sock.c) the same traffic must go through the
 * sockets instead. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const int sizes[] = {1, 8, 1000, 65000, 65536, 65537, 300000, 1 << 20, 4 << 20};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MAXN = 4 << 20 };

static unsigned char pattern(int i, int n, int src, int dst, int down) {
    return (unsigned char)(i * 131 + n + 7 * src + 13 * dst + 29 * down + (i >> 12));
}

static void fill(unsigned char *b, int n, int src, int dst, int down) {
    for (int i = 0; i < n; i++) b[i] = pattern(i, n, src, dst, down);
}

static int bad(const unsigned char *b, int n, int src, int dst, int down) {
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += b[i] != pattern(i, n, src, dst, down);
    return wrong;
}

/* exchange: every process sends a message of each size to every remote
 * process and receives one from each, both directions at once. */
static void exchange(MPI_Comm ic, int parent_side) {
    int rank, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    unsigned char *out = malloc(MAXN), *in = malloc(MAXN);
    CHECK(out && in, "malloc");
    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s];
        for (int r = 0; r < rsize; r++) {
            /* down: the message goes parent -> child */
            int src = rank, dst = r;
            fill(out, n, src, dst, parent_side);
            memset(in, 0, n);
            MPI_Request rq[2];
            CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, r, s, ic, &rq[0]));
            CHECK_MPI(MPI_Isend(out, n, MPI_BYTE, r, s, ic, &rq[1]));
            MPI_Status stv[2];
            CHECK_MPI(MPI_Waitall(2, rq, stv));
            int got = -1;
            MPI_Get_count(&stv[0], MPI_BYTE, &got);
            CHECK(got == n, "%d bytes from remote %d, want %d", got, r, n);
            int w = bad(in, n, r, rank, !parent_side);
            CHECK(w == 0, "%d of %d bytes wrong from remote %d (%s)", w, n, r, parent_side ? "up" : "down");
        }
    }
    free(out);
    free(in);
}

static int pvar_index(const char *name) {
    int idx = -1;
    CHECK_MPI(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx));
    return idx;
}

static unsigned long long pvar(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
    unsigned long long v = 0;
    CHECK_MPI(MPI_T_pvar_read(s, h, &v));
    return v;
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    const char *env = getenv("GOMPI_SM_PAIR");
    int pairs = !(env && strcmp(env, "0") == 0);
    MPI_T_pvar_session s;
    MPI_T_pvar_handle hp, hs;
    int count;
    CHECK_MPI(MPI_T_pvar_session_create(&s));
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar_index("dyn_sm_pair_frags"), NULL, &hp, &count));
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar_index("dyn_sock_frags"), NULL, &hs, &count));
    CHECK_MPI(MPI_T_pvar_start(s, hp));
    CHECK_MPI(MPI_T_pvar_start(s, hs));
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent == MPI_COMM_NULL) {
        check_rank = wrank;
        for (int k = 1; k <= 3; k++) {
            char *args[] = {"child", NULL};
            MPI_Comm ic;
            CHECK_MPI(MPI_Comm_spawn(argv[0], args, k, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE));
            unsigned long long p0 = pvar(s, hp), s0 = pvar(s, hs);
            exchange(ic, 1);
            unsigned long long p1 = pvar(s, hp), s1 = pvar(s, hs);
            if (pairs) {
                CHECK(p1 - p0 >= (unsigned long long)(k * NSIZES), "%llu fragments through pairs", p1 - p0);
                CHECK(s1 == s0, "%llu fragments through sockets", s1 - s0);
            } else {
                CHECK(p1 == p0, "%llu fragments through pairs with GOMPI_SM_PAIR=0", p1 - p0);
                CHECK(s1 - s0 >= (unsigned long long)(k * NSIZES), "%llu fragments through sockets", s1 - s0);
            }
            CHECK_MPI(MPI_Comm_disconnect(&ic));
        }
    } else {
        check_rank = 100 + wrank;
        exchange(parent, 0);
        unsigned long long p1 = pvar(s, hp), s1 = pvar(s, hs);
        if (pairs) {
            CHECK(p1 > 0 && s1 == 0, "child: %llu fragments through pairs, %llu through sockets", p1, s1);
        } else {
            CHECK(p1 == 0 && s1 > 0, "child: %llu fragments through pairs, %llu through sockets", p1, s1);
        }
        CHECK_MPI(MPI_Comm_disconnect(&parent));
    }
    MPI_T_pvar_handle_free(s, &hp);
    MPI_T_pvar_handle_free(s, &hs);
    MPI_T_pvar_session_free(&s);
    MPI_T_finalize();
    MPI_Finalize();
    return check_status();
}
