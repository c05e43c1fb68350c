//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* Partitioned communication: each rank sends to the next and receives from
 * the previous (itself with one rank). The sides partition the same bytes
 * differently; partitions are readied in a random order (Pready, and runs
 * with Pready_range and Pready_list); the receiver polls Parrived and checks
 * each arrived partition's data before the request completes; every round
 * restarts the requests (Start/Startall) with new data. Also: partitions far
 * larger than a fragment, a non-contiguous datatype, two partitioned pairs
 * with one tag matched in init order though started in the other order,
 * readying from several threads (MPI_THREAD_SERIALIZED, under a lock),
 * MPI_PROC_NULL, zero-size partitions, and bad arguments. */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, next, prev;

static uint32_t rnd_state;
static uint32_t rnd(void) {
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

static void shuffle(int *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rnd() % (uint32_t)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static int val(int src, int round, long i) { return (int)(src * 1000003 + round * 7919 + i); }

/* ready_all readies partitions 0..n-1 of s in a random order, mixing single
 * partitions, lists and ranges of consecutive unready partitions, polling
 * the receive side in between. */
static void ready_all(MPI_Request s, int n, MPI_Request r, int rparts, int *seen) {
    int *ord = malloc(sizeof(int) * n), *done = calloc((size_t)n, sizeof(int)), *list = malloc(sizeof(int) * 3);
    for (int i = 0; i < n; i++) ord[i] = i;
    shuffle(ord, n);
    for (int i = 0; i < n; i++) {
        if (done[ord[i]]) continue;
        int how = (int)(rnd() % 3), lo = ord[i];
        if (how == 0) {
            CHECK_MPI(MPI_Pready(lo, s));
            done[lo] = 1;
        } else if (how == 1) {
            int k = 0;
            for (int j = i; j < n && k < 3; j++)
                if (!done[ord[j]]) {
                    list[k++] = ord[j];
                    done[ord[j]] = 1;
                }
            CHECK_MPI(MPI_Pready_list(k, list, s));
        } else {
            int hi = lo;
            while (hi + 1 < n && !done[hi + 1] && hi - lo < 4) hi++;
            for (int p = lo; p <= hi; p++) done[p] = 1;
            CHECK_MPI(MPI_Pready_range(lo, hi, s));
        }
        for (int p = 0; p < rparts; p++)
            if (!seen[p]) {
                int flag = 0;
                CHECK_MPI(MPI_Parrived(r, p, &flag));
                if (flag) seen[p] = 1;
            }
    }
    free(ord);
    free(done);
    free(list);
}

/* exchange runs rounds of one partitioned pair: sparts partitions of scount
 * ints sent, rparts of rcount received (sparts*scount == rparts*rcount). */
static void exchange(int sparts, long scount, int rparts, long rcount, int rounds, int tag) {
    long total = (long)sparts * scount;
    int *sb = malloc(sizeof(int) * (size_t)total), *rb = malloc(sizeof(int) * (size_t)total);
    int *seen = calloc((size_t)rparts, sizeof(int));
    MPI_Request rq[2];
    CHECK_MPI(MPI_Precv_init(rb, rparts, rcount, MPI_INT, prev, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
    CHECK_MPI(MPI_Psend_init(sb, sparts, scount, MPI_INT, next, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]));
    for (int round = 0; round < rounds; round++) {
        for (long i = 0; i < total; i++) {
            sb[i] = val(rank, round, i);
            rb[i] = -1;
        }
        memset(seen, 0, sizeof(int) * (size_t)rparts);
        if (round % 2)
            CHECK_MPI(MPI_Startall(2, rq));
        else {
            CHECK_MPI(MPI_Start(&rq[1]));
            CHECK_MPI(MPI_Start(&rq[0]));
        }
        ready_all(rq[0], sparts, rq[1], rparts, seen);
        /* poll until every receive partition arrived; check each at once */
        int left = rparts;
        for (int p = 0; p < rparts; p++) left -= seen[p];
        while (left > 0)
            for (int p = 0; p < rparts; p++)
                if (!seen[p]) {
                    int flag = 0;
                    CHECK_MPI(MPI_Parrived(rq[1], p, &flag));
                    if (flag) {
                        seen[p] = 1;
                        left--;
                        for (long i = p * rcount; i < (p + 1) * rcount; i++)
                            if (rb[i] != val(prev, round, i)) {
                                CHECK(0, "round %d partition %d: rb[%ld] = %d, want %d", round, p, i, rb[i],
                                      val(prev, round, i));
                                break;
                            }
                    }
                }
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, rq, st));
        int n = -1;
        MPI_Get_count(&st[1], MPI_INT, &n);
        CHECK(n == (int)total, "received count %d, want %ld", n, total);
        CHECK(st[1].MPI_SOURCE == prev && st[1].MPI_TAG == tag, "status source %d tag %d", st[1].MPI_SOURCE,
              st[1].MPI_TAG);
        for (long i = 0; i < total; i++)
            if (rb[i] != val(prev, round, i)) {
                CHECK(0, "round %d after wait: rb[%ld] = %d, want %d", round, i, rb[i], val(prev, round, i));
                break;
            }
        int flag = 0;
        CHECK_MPI(MPI_Parrived(rq[1], 0, &flag)); /* inactive: arrived */
        CHECK(flag, "Parrived on an inactive request says not arrived");
    }
    CHECK_MPI(MPI_Request_free(&rq[0]));
    CHECK_MPI(MPI_Request_free(&rq[1]));
    CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL, "Request_free left a handle");
    free(sb);
    free(rb);
    free(seen);
}

/* A vector type: every other int of a 2*n array. */
static void strided(int rounds) {
    enum { P = 6, C = 50 };
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(C, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    int *sb = malloc((size_t)ext * P + 64), *rb = malloc((size_t)ext * P + 64);
    int total = (int)(ext / (MPI_Aint)sizeof(int)) * P;
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(sb, P, 1, vec, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(rb, P, 1, vec, prev, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < total; i++) {
            sb[i] = val(rank, round, i);
            rb[i] = -7;
        }
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Start(&s));
        for (int p = P - 1; p >= 0; p--) CHECK_MPI(MPI_Pready(p, s));
        int got = 0;
        while (!got) {
            int flag;
            CHECK_MPI(MPI_Parrived(r, 2, &flag));
            got = flag;
        }
        /* partition 2's elements are in place before the wait */
        int base = (int)(ext / (MPI_Aint)sizeof(int)) * 2;
        for (int i = 0; i < 2 * C - 1; i++) {
            int want = i % 2 ? -7 : val(prev, round, base + i);
            if (rb[base + i] != want) {
                CHECK(0, "strided partition 2 elem %d: %d, want %d", i, rb[base + i], want);
                break;
            }
        }
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < total; i++) {
            int want = (i % (2 * C - 1)) % 2 ? -7 : val(prev, round, i);
            if (rb[i] != want) {
                CHECK(0, "strided round %d: rb[%d] = %d, want %d", round, i, rb[i], want);
                break;
            }
        }
    }
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Type_free(&vec);
    free(sb);
    free(rb);
}

/* Two sends with one tag, inited A then B, are matched by the receives
 * inited A' then B' whatever the order of the starts. */
static void init_order(void) {
    int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, ra[4] = {0}, rbuf[4] = {0};
    for (int i = 0; i < 4; i++) {
        a[i] += rank * 100;
        b[i] += rank * 100;
    }
    MPI_Request s[2], r[2];
    CHECK_MPI(MPI_Psend_init(a, 2, 2, MPI_INT, next, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]));
    CHECK_MPI(MPI_Psend_init(b, 4, 1, MPI_INT, next, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]));
    CHECK_MPI(MPI_Precv_init(ra, 1, 4, MPI_INT, prev, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Precv_init(rbuf, 2, 2, MPI_INT, prev, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Start(&r[1]));
    CHECK_MPI(MPI_Start(&s[1]));
    CHECK_MPI(MPI_Pready_range(0, 3, s[1]));
    CHECK_MPI(MPI_Start(&s[0]));
    CHECK_MPI(MPI_Start(&r[0]));
    CHECK_MPI(MPI_Pready(1, s[0]));
    CHECK_MPI(MPI_Pready(0, s[0]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Waitall(2, s, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 4; i++) {
        CHECK(ra[i] == i + 1 + prev * 100, "init order: A'[%d] = %d", i, ra[i]);
        CHECK(rbuf[i] == i + 5 + prev * 100, "init order: B'[%d] = %d", i, rbuf[i]);
    }
    for (int i = 0; i < 2; i++) {
        MPI_Request_free(&s[i]);
        MPI_Request_free(&r[i]);
    }
}

/* Threads ready partitions of one request, one call at a time. */
enum { NTHREADS = 4, TPARTS = 16 };
static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Request tsend;
static void *readier(void *arg) {
    int t = (int)(intptr_t)arg;
    for (int p = TPARTS - 1 - t; p >= 0; p -= NTHREADS) {
        pthread_mutex_lock(&mpi_lock);
        CHECK_MPI(MPI_Pready(p, tsend));
        pthread_mutex_unlock(&mpi_lock);
    }
    return NULL;
}
static void threads(int rounds) {
    enum { C = 300 };
    int *sb = malloc(sizeof(int) * TPARTS * C), *rb = malloc(sizeof(int) * TPARTS * C);
    MPI_Request r;
    CHECK_MPI(MPI_Psend_init(sb, TPARTS, C, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &tsend));
    CHECK_MPI(MPI_Precv_init(rb, TPARTS / 2, 2 * C, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < TPARTS * C; i++) sb[i] = val(rank, round, i);
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Start(&tsend));
        pthread_t th[NTHREADS];
        for (int t = 0; t < NTHREADS; t++) pthread_create(&th[t], NULL, readier, (void *)(intptr_t)t);
        for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
        CHECK_MPI(MPI_Wait(&tsend, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < TPARTS * C; i++)
            if (rb[i] != val(prev, round, i)) {
                CHECK(0, "threads round %d: rb[%d] = %d", round, i, rb[i]);
                break;
            }
    }
    MPI_Request_free(&tsend);
    MPI_Request_free(&r);
    free(sb);
    free(rb);
}

static void special(void) {
    /* MPI_PROC_NULL: completes at once, partitions count as arrived */
    int x[4];
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(x, 2, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(x, 2, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Startall(1, &s));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Pready(1, s));
        int flag = 0;
        CHECK_MPI(MPI_Parrived(r, 1, &flag));
        CHECK(flag, "PROC_NULL partition not arrived");
        MPI_Status st;
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL status source %d", st.MPI_SOURCE);
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    }
    MPI_Request_free(&s);
    MPI_Request_free(&r);

    /* zero-size partitions */
    CHECK_MPI(MPI_Psend_init(x, 3, 0, MPI_INT, next, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(x, 5, 0, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Start(&s));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Pready_range(0, 2, s));
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void errors(void) {
    int x[8];
    MPI_Request s, r, plain;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Psend_init(x, 0, 1, MPI_INT, next, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Psend_init(x, 2, -1, MPI_INT, next, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Psend_init(x, 2, 1, MPI_INT, size, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Precv_init(x, 2, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Precv_init(x, 2, 1, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TAG);
    EXPECT_CLASS(MPI_Precv_init(x, 2, 1, MPI_DATATYPE_NULL, prev, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Precv_init(x, 2, 1, MPI_INT, prev, 1, MPI_COMM_NULL, MPI_INFO_NULL, &r), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Parrived(MPI_REQUEST_NULL, 0, &x[0]), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Recv_init(x, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, &plain));
    EXPECT_CLASS(MPI_Pready(0, plain), MPI_ERR_REQUEST);
    MPI_Request_free(&plain);

    CHECK_MPI(MPI_Psend_init(x, 4, 2, MPI_INT, next, 77, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(x, 4, 2, MPI_INT, prev, 77, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    EXPECT_CLASS(MPI_Pready(0, s), MPI_ERR_REQUEST); /* not started */
    int flag;
    EXPECT_CLASS(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST); /* a send request */
    EXPECT_CLASS(MPI_Pready(0, r), MPI_ERR_REQUEST);          /* a receive request */
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Start(&s));
    EXPECT_CLASS(MPI_Start(&s), MPI_ERR_REQUEST); /* active */
    EXPECT_CLASS(MPI_Pready(4, s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Pready(-1, s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Pready_range(2, 1, s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Parrived(r, 4, &flag), MPI_ERR_ARG);
    int bad[2] = {1, 9};
    EXPECT_CLASS(MPI_Pready_list(-1, bad, s), MPI_ERR_ARG);
    CHECK_MPI(MPI_Pready_range(0, 3, s));
    EXPECT_CLASS(MPI_Pready(2, s), MPI_ERR_ARG); /* ready already */
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    rnd_state = 12345u + (uint32_t)rank * 7u;

    exchange(8, 1000, 4, 2000, 200, 1);    /* more send partitions */
    exchange(3, 4000, 12, 1000, 200, 2);   /* more receive partitions */
    exchange(64, 16, 64, 16, 300, 3);      /* many small partitions */
    exchange(4, 300000, 2, 600000, 10, 4); /* partitions past a fragment */
    strided(50);
    init_order();
    if (provided >= MPI_THREAD_SERIALIZED) threads(50);
    special();
    errors();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return check_status();
}
