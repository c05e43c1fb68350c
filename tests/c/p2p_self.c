//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* Messages to oneself, on MPI_COMM_WORLD and MPI_COMM_SELF, for every size up
 * to 32 MiB: Isend then Recv, Irecv then Send, Issend then Recv, Sendrecv and
 * Sendrecv_replace with oneself, Probe/Mprobe of a self message, and a burst
 * of self messages received in order. Data is checked byte for byte. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define MAXSIZE (32 << 20)

static int rank, size;

static inline unsigned char pat(size_t i, unsigned seed) {
    uint32_t x = (uint32_t)i * 2246822519u + seed * 3266489917u;
    return (unsigned char)(x >> 15 ^ x >> 27);
}

static void fill(unsigned char *b, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        b[i] = pat(i, seed);
}

static void verify(const unsigned char *b, size_t n, unsigned seed, const MPI_Status *st, int src, int tag,
                   const char *what) {
    int count = -1;
    if (st != NULL) {
        MPI_Get_count(st, MPI_BYTE, &count);
        CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && count == (int)n,
              "%s size %zu: status source %d tag %d count %d", what, n, st->MPI_SOURCE, st->MPI_TAG, count);
    }
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(i, seed)) {
            CHECK(0, "%s size %zu: byte %zu is 0x%02x, want 0x%02x", what, n, i, b[i], pat(i, seed));
            break;
        }
    if (check_failures > 20)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    unsigned char *s = malloc(MAXSIZE), *r = malloc(MAXSIZE);

    size_t sizes[80];
    int ns = 0;
    sizes[ns++] = 0;
    for (size_t p = 1; p <= MAXSIZE; p <<= 1) {
        sizes[ns++] = p;
        if (p >= 8)
            sizes[ns++] = p + 3;
    }
    for (int k = 0; k < ns; k++) {
        size_t n = sizes[k] > MAXSIZE ? MAXSIZE - 1 : sizes[k];
        int cn = (int)n;
        for (int ci = 0; ci < 2; ci++) {
            MPI_Comm comm = ci == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF;
            int me = ci == 0 ? rank : 0;
            const char *cname = ci == 0 ? "world" : "self";
            unsigned seed = (unsigned)(k * 100 + ci * 10);
            MPI_Request req;
            MPI_Status st;
            char what[64];

            /* Isend then Recv */
            fill(s, n, seed);
            memset(r, 0, n);
            CHECK_MPI(MPI_Isend(s, cn, MPI_BYTE, me, 1, comm, &req));
            CHECK_MPI(MPI_Recv(r, cn, MPI_BYTE, me, 1, comm, &st));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            snprintf(what, sizeof what, "%s Isend+Recv", cname);
            verify(r, n, seed, &st, me, 1, what);

            /* Irecv (wildcards) then blocking Send */
            fill(s, n, seed + 1);
            memset(r, 0, n);
            CHECK_MPI(MPI_Irecv(r, cn, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req));
            CHECK_MPI(MPI_Send(s, cn, MPI_BYTE, me, 2, comm));
            CHECK_MPI(MPI_Wait(&req, &st));
            snprintf(what, sizeof what, "%s Irecv+Send", cname);
            verify(r, n, seed + 1, &st, me, 2, what);

            /* Issend, probe, then Recv */
            fill(s, n, seed + 2);
            memset(r, 0, n);
            CHECK_MPI(MPI_Issend(s, cn, MPI_BYTE, me, 3, comm, &req));
            int flag = 1;
            CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "%s: Issend to self completed before its receive was posted", cname);
            CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 3, comm, &st));
            int count = -1;
            MPI_Get_count(&st, MPI_BYTE, &count);
            CHECK(st.MPI_SOURCE == me && count == cn, "%s: Probe of a self message: source %d count %d", cname,
                  st.MPI_SOURCE, count);
            if (k % 2 == 0) {
                CHECK_MPI(MPI_Recv(r, cn, MPI_BYTE, me, 3, comm, &st));
            } else {
                MPI_Message msg;
                CHECK_MPI(MPI_Mprobe(me, 3, comm, &msg, &st));
                CHECK_MPI(MPI_Mrecv(r, cn, MPI_BYTE, &msg, &st));
            }
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            snprintf(what, sizeof what, "%s Issend+Recv", cname);
            verify(r, n, seed + 2, &st, me, 3, what);

            /* Sendrecv with oneself */
            fill(s, n, seed + 3);
            memset(r, 0, n);
            CHECK_MPI(MPI_Sendrecv(s, cn, MPI_BYTE, me, 4, r, cn, MPI_BYTE, me, 4, comm, &st));
            snprintf(what, sizeof what, "%s Sendrecv", cname);
            verify(r, n, seed + 3, &st, me, 4, what);

            /* Sendrecv_replace with oneself */
            fill(r, n, seed + 4);
            CHECK_MPI(MPI_Sendrecv_replace(r, cn, MPI_BYTE, me, 5, me, 5, comm, &st));
            snprintf(what, sizeof what, "%s Sendrecv_replace", cname);
            verify(r, n, seed + 4, &st, me, 5, what);
        }
    }

    /* A burst of self messages with one tag comes back in order. */
    {
        enum { N = 500 };
        static int out[N], in[N];
        static MPI_Request rq[N];
        for (int i = 0; i < N; i++) {
            out[i] = i * 3 + rank;
            CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &rq[i]));
        }
        for (int i = 0; i < N; i++) {
            CHECK_MPI(MPI_Recv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(in[i] == i * 3 + rank, "self burst: message %d carries %d", i, in[i]);
        }
        CHECK_MPI(MPI_Waitall(N, rq, MPI_STATUSES_IGNORE));
    }

    free(s);
    free(r);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
