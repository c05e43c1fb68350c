/* Shared body of the coll_*.c tests: every collective in its blocking,
 * nonblocking (I*) and persistent (*_init) forms, with odd and zero counts,
 * every root, MPI_IN_PLACE (also for the v-variants), and results checked
 * element by element against a serial reference. The including file picks
 * the algorithms through gompi-env settings (GOMPI_COLL_<NAME>=...). */
#ifndef COLL_COMMON_H
#define COLL_COMMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* Run a collective in form f: 0 blocking, 1 I* + Wait, 2 *_init + Start +
 * Wait + Request_free (restarts: coll_persistent.c). */
#define COLL(f, B, I, ...)                                                      \
    do {                                                                        \
        if ((f) == 0) {                                                         \
            CHECK_MPI(MPI_##B(__VA_ARGS__));                                    \
        } else if ((f) == 1) {                                                  \
            MPI_Request r_;                                                     \
            CHECK_MPI(MPI_##I(__VA_ARGS__, &r_));                               \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                        \
            CHECK(r_ == MPI_REQUEST_NULL, "request not freed");                 \
        } else {                                                                \
            MPI_Request r_;                                                     \
            CHECK_MPI(MPI_##B##_init(__VA_ARGS__, MPI_INFO_NULL, &r_));         \
            CHECK_MPI(MPI_Start(&r_));                                          \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                        \
            CHECK(r_ != MPI_REQUEST_NULL, "persistent request freed");          \
            CHECK_MPI(MPI_Request_free(&r_));                                   \
        }                                                                       \
    } while (0)

static const char *form_name[] = {"blocking", "nonblocking", "persistent"};

/* v(r, i): rank r's i-th input value. */
static int v(int r, int i) { return (r + 1) * 1000 + (i % 9973) * 3 + (i & 1); }

static int counts[] = {0, 1, 3, 17, 1000, 3000, 5000, 20000}; /* 3000, 5000 ints: the big shared-memory slots */
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

/* The affine maps x -> m*x + c over unsigned ints, composed in rank order:
 * associative, not commutative. inout = in then inout. */
typedef struct {
    unsigned m, c;
} affine_t;

static void affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
    affine_t *a = in, *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        unsigned m = a[i].m * b[i].m, c = b[i].m * a[i].c + b[i].c;
        b[i].m = m;
        b[i].c = c;
    }
}

static affine_t av(int r, int i) {
    affine_t x = {(unsigned)(2 * r + 3 + 2 * (i % 101)), (unsigned)(r * 7 + i + 1)};
    return x;
}

/* ref_affine folds ranks lo..hi-1. */
static affine_t ref_affine(int lo, int hi, int i) {
    affine_t acc = av(lo, i);
    for (int r = lo + 1; r < hi; r++) {
        affine_t x = av(r, i);
        int one = 1;
        affine_fn(&acc, &x, &one, NULL);
        acc = x;
    }
    return acc;
}

static MPI_Op affine_op;
static MPI_Datatype affine_type; /* MPI_2INT: two ints, contiguous */

static long sum_ranks(int lo, int hi, int i) {
    long s = 0;
    for (int r = lo; r < hi; r++)
        s += v(r, i);
    return s;
}

static void test_barrier(int f) {
    COLL(f, Barrier, Ibarrier, MPI_COMM_WORLD);
}

static void test_bcast(int f, int n, int root) {
    int *b = malloc((n + 1) * sizeof(int));
    for (int i = 0; i <= n; i++)
        b[i] = rank == root ? v(root, i) : -1;
    COLL(f, Bcast, Ibcast, b, n, MPI_INT, root, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        if (b[i] != v(root, i)) {
            CHECK(0, "bcast %s n=%d root=%d: b[%d]=%d", form_name[f], n, root, i, b[i]);
            break;
        }
    CHECK(b[n] == (rank == root ? v(root, n) : -1), "bcast wrote past the end");
    free(b);
}

static void test_gather(int f, int n, int root, int inplace) {
    int *s = malloc((n + 1) * sizeof(int)), *r = malloc(((size_t)n * size + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        s[i] = v(rank, i);
    for (int i = 0; i < n * size; i++)
        r[i] = -1;
    if (inplace && rank == root)
        memcpy(r + rank * n, s, n * sizeof(int));
    const void *sb = inplace && rank == root ? MPI_IN_PLACE : s;
    COLL(f, Gather, Igather, sb, n, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD);
    if (rank == root)
        for (int q = 0; q < size; q++)
            for (int i = 0; i < n; i++)
                if (r[q * n + i] != v(q, i)) {
                    CHECK(0, "gather %s n=%d root=%d inplace=%d: block %d [%d]=%d", form_name[f], n, root,
                          inplace, q, i, r[q * n + i]);
                    q = size;
                    break;
                }
    /* scatter it back */
    int *o = malloc((n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        o[i] = -2;
    if (rank == root)
        for (int q = 0; q < size; q++)
            for (int i = 0; i < n; i++)
                r[q * n + i] = v(q + 7, i);
    void *rb = inplace && rank == root ? MPI_IN_PLACE : o;
    COLL(f, Scatter, Iscatter, r, n, MPI_INT, rb, n, MPI_INT, root, MPI_COMM_WORLD);
    if (!(inplace && rank == root))
        for (int i = 0; i < n; i++)
            if (o[i] != v(rank + 7, i)) {
                CHECK(0, "scatter %s n=%d root=%d: [%d]=%d", form_name[f], n, root, i, o[i]);
                break;
            }
    free(s);
    free(r);
    free(o);
}

/* v-variants: rank q contributes (q*n/size + q%2) elements, placed in
 * reverse rank order with a gap of one element. */
static void vlayout(int n, int *cnt, int *dsp) {
    int off = 0;
    for (int q = size - 1; q >= 0; q--) {
        cnt[q] = q * n / (size > 1 ? size : 1) + q % 2;
        dsp[q] = off;
        off += cnt[q] + 1;
    }
}

static void test_gatherv(int f, int n, int root, int inplace) {
    int cnt[64], dsp[64];
    vlayout(n, cnt, dsp);
    int total = dsp[0] + cnt[0] + 1;
    int *s = malloc((cnt[rank] + 1) * sizeof(int)), *r = malloc(total * sizeof(int));
    for (int i = 0; i < cnt[rank]; i++)
        s[i] = v(rank, i);
    for (int i = 0; i < total; i++)
        r[i] = -1;
    int ip = inplace && rank == root;
    if (ip)
        memcpy(r + dsp[rank], s, cnt[rank] * sizeof(int));
    COLL(f, Gatherv, Igatherv, ip ? MPI_IN_PLACE : s, cnt[rank], MPI_INT, r, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
    if (rank == root)
        for (int q = 0; q < size; q++) {
            for (int i = 0; i < cnt[q]; i++)
                if (r[dsp[q] + i] != v(q, i)) {
                    CHECK(0, "gatherv %s n=%d root=%d: block %d [%d]", form_name[f], n, root, q, i);
                    break;
                }
            CHECK(r[dsp[q] + cnt[q]] == -1, "gatherv wrote into a gap");
        }
    for (int i = 0; i < cnt[rank]; i++)
        s[i] = -2;
    if (rank == root)
        for (int q = 0; q < size; q++)
            for (int i = 0; i < cnt[q]; i++)
                r[dsp[q] + i] = v(q + 3, i);
    COLL(f, Scatterv, Iscatterv, r, cnt, dsp, MPI_INT, ip ? MPI_IN_PLACE : s, cnt[rank], MPI_INT, root,
         MPI_COMM_WORLD);
    for (int i = 0; i < cnt[rank] && !ip; i++)
        if (s[i] != v(rank + 3, i)) {
            CHECK(0, "scatterv %s n=%d root=%d: [%d]=%d", form_name[f], n, root, i, s[i]);
            break;
        }
    free(s);
    free(r);
}

static void test_allgather(int f, int n, int inplace) {
    int *s = malloc((n + 1) * sizeof(int)), *r = malloc(((size_t)n * size + 1) * sizeof(int));
    for (int i = 0; i <= n; i++)
        s[i] = v(rank, i);
    for (int i = 0; i < n * size; i++)
        r[i] = -1;
    if (inplace)
        memcpy(r + rank * n, s, n * sizeof(int));
    COLL(f, Allgather, Iallgather, inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD);
    for (int q = 0; q < size; q++)
        for (int i = 0; i < n; i++)
            if (r[q * n + i] != v(q, i)) {
                CHECK(0, "allgather %s n=%d inplace=%d: block %d [%d]=%d", form_name[f], n, inplace, q, i,
                      r[q * n + i]);
                q = size;
                break;
            }
    /* allgatherv */
    int cnt[64], dsp[64];
    vlayout(n, cnt, dsp);
    int total = dsp[0] + cnt[0] + 1;
    int *rv = malloc(total * sizeof(int));
    for (int i = 0; i < total; i++)
        rv[i] = -1;
    if (inplace)
        memcpy(rv + dsp[rank], s, cnt[rank] * sizeof(int));
    COLL(f, Allgatherv, Iallgatherv, inplace ? MPI_IN_PLACE : s, cnt[rank], MPI_INT, rv, cnt, dsp, MPI_INT,
         MPI_COMM_WORLD);
    for (int q = 0; q < size; q++) {
        for (int i = 0; i < cnt[q]; i++)
            if (rv[dsp[q] + i] != v(q, i)) {
                CHECK(0, "allgatherv %s n=%d inplace=%d: block %d [%d]", form_name[f], n, inplace, q, i);
                break;
            }
        CHECK(rv[dsp[q] + cnt[q]] == -1, "allgatherv wrote into a gap");
    }
    free(s);
    free(r);
    free(rv);
}

/* alltoall value: from rank p to rank q, element i */
static int a2a(int p, int q, int i) { return p * 100000 + q * 1000 + i % 997; }

static void test_alltoall(int f, int n, int inplace) {
    int *s = malloc(((size_t)n * size + 1) * sizeof(int)), *r = malloc(((size_t)n * size + 1) * sizeof(int));
    for (int q = 0; q < size; q++)
        for (int i = 0; i < n; i++) {
            s[q * n + i] = a2a(rank, q, i);
            r[q * n + i] = inplace ? a2a(rank, q, i) : -1;
        }
    COLL(f, Alltoall, Ialltoall, inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD);
    for (int q = 0; q < size; q++)
        for (int i = 0; i < n; i++)
            if (r[q * n + i] != a2a(q, rank, i)) {
                CHECK(0, "alltoall %s n=%d inplace=%d: from %d [%d]=%d", form_name[f], n, inplace, q, i,
                      r[q * n + i]);
                q = size;
                break;
            }
    /* alltoallv and alltoallw: rank p sends (p+q)%3 * n/3 elements to q */
    int sc[64], sd[64], rc[64], rd[64], sdb[64], rdb[64];
    MPI_Datatype ty[64];
    int so = 0, ro = 0;
    for (int q = 0; q < size; q++) {
        sc[q] = (rank + q) % 3 * (n / 3);
        rc[q] = (q + rank) % 3 * (n / 3);
        sd[q] = so;
        rd[q] = ro + 1;
        sdb[q] = sd[q] * (int)sizeof(int);
        rdb[q] = rd[q] * (int)sizeof(int);
        ty[q] = MPI_INT;
        so += sc[q];
        ro += rc[q] + 1;
    }
    int *sv = malloc((so + 1) * sizeof(int)), *rv = malloc((ro + 2) * sizeof(int));
    for (int w = 0; w < 2; w++) {
        for (int q = 0; q < size; q++)
            for (int i = 0; i < sc[q]; i++)
                sv[sd[q] + i] = a2a(rank, q, i + w);
        for (int i = 0; i < ro + 2; i++)
            rv[i] = -1;
        /* in place: the data to send sits in the receive layout (the counts are symmetric) */
        if (inplace)
            for (int q = 0; q < size; q++)
                for (int i = 0; i < rc[q]; i++)
                    rv[rd[q] + i] = a2a(rank, q, i + w);
        const void *svp = inplace ? MPI_IN_PLACE : (const void *)sv;
        if (w == 0)
            COLL(f, Alltoallv, Ialltoallv, svp, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD);
        else
            COLL(f, Alltoallw, Ialltoallw, svp, sc, sdb, ty, rv, rc, rdb, ty, MPI_COMM_WORLD);
        for (int q = 0; q < size; q++) {
            for (int i = 0; i < rc[q]; i++)
                if (rv[rd[q] + i] != a2a(q, rank, i + w)) {
                    CHECK(0, "alltoall%c %s n=%d: from %d [%d]=%d", w ? 'w' : 'v', form_name[f], n, q, i,
                          rv[rd[q] + i]);
                    break;
                }
            CHECK(rv[rd[q] - 1] == -1, "alltoallv wrote into a gap");
        }
    }
    free(s);
    free(r);
    free(sv);
    free(rv);
}

/* Reductions: MPI_INT with MPI_SUM (checked against sum_ranks) and the
 * non-commutative affine op on MPI_2INT. */
static void test_reduce(int f, int n, int root, int inplace) {
    int *s = malloc((n + 1) * sizeof(int)), *r = malloc((n + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        s[i] = v(rank, i);
        r[i] = inplace && rank == root ? s[i] : -1;
    }
    COLL(f, Reduce, Ireduce, inplace && rank == root ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, root,
         MPI_COMM_WORLD);
    if (rank == root)
        for (int i = 0; i < n; i++)
            if (r[i] != sum_ranks(0, size, i)) {
                CHECK(0, "reduce %s n=%d root=%d inplace=%d: [%d]=%d", form_name[f], n, root, inplace, i, r[i]);
                break;
            }
    affine_t *as = malloc((n + 1) * sizeof(affine_t)), *ar = malloc((n + 1) * sizeof(affine_t));
    for (int i = 0; i < n; i++) {
        as[i] = av(rank, i);
        ar[i] = as[i];
    }
    COLL(f, Reduce, Ireduce, inplace && rank == root ? MPI_IN_PLACE : as, ar, n, affine_type, affine_op, root,
         MPI_COMM_WORLD);
    if (rank == root)
        for (int i = 0; i < n; i++) {
            affine_t w = ref_affine(0, size, i);
            if (ar[i].m != w.m || ar[i].c != w.c) {
                CHECK(0, "reduce(affine) %s n=%d root=%d inplace=%d: [%d]", form_name[f], n, root, inplace, i);
                break;
            }
        }
    free(s);
    free(r);
    free(as);
    free(ar);
}

static void test_allreduce(int f, int n, int inplace) {
    int *s = malloc((n + 1) * sizeof(int)), *r = malloc((n + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        s[i] = v(rank, i);
        r[i] = inplace ? s[i] : -1;
    }
    COLL(f, Allreduce, Iallreduce, inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        if (r[i] != sum_ranks(0, size, i)) {
            CHECK(0, "allreduce %s n=%d inplace=%d: [%d]=%d", form_name[f], n, inplace, i, r[i]);
            break;
        }
    affine_t *as = malloc((n + 1) * sizeof(affine_t)), *ar = malloc((n + 1) * sizeof(affine_t));
    for (int i = 0; i < n; i++)
        as[i] = ar[i] = av(rank, i);
    COLL(f, Allreduce, Iallreduce, inplace ? MPI_IN_PLACE : as, ar, n, affine_type, affine_op, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++) {
        affine_t w = ref_affine(0, size, i);
        if (ar[i].m != w.m || ar[i].c != w.c) {
            CHECK(0, "allreduce(affine) %s n=%d inplace=%d: [%d]", form_name[f], n, inplace, i);
            break;
        }
    }
    /* MAXLOC on MPI_DOUBLE_INT (a padded pair type) */
    struct {
        double d;
        int i;
    } *ps = malloc((n + 1) * sizeof *ps), *pr = malloc((n + 1) * sizeof *pr);
    for (int i = 0; i < n; i++) {
        ps[i].d = (double)((rank * 7 + i) % size);
        ps[i].i = rank;
        pr[i] = ps[i];
    }
    COLL(f, Allreduce, Iallreduce, inplace ? MPI_IN_PLACE : (void *)ps, pr, n, MPI_DOUBLE_INT, MPI_MAXLOC,
         MPI_COMM_WORLD);
    for (int i = 0; i < n; i++) {
        /* the largest value, from the lowest rank holding it */
        int best = 0;
        for (int q = 1; q < size; q++)
            if ((q * 7 + i) % size > (best * 7 + i) % size)
                best = q;
        double bd = (best * 7 + i) % size;
        if (pr[i].d != bd || pr[i].i != best) {
            CHECK(0, "allreduce(maxloc) %s n=%d: [%d] = (%g,%d) want (%g,%d)", form_name[f], n, i, pr[i].d,
                  pr[i].i, bd, best);
            break;
        }
    }
    free(s);
    free(r);
    free(as);
    free(ar);
    free(ps);
    free(pr);
}

static void test_reduce_scatter(int f, int n, int inplace) {
    int cnt[64], total = 0;
    for (int q = 0; q < size; q++) {
        cnt[q] = q * n / (size > 1 ? size : 1) + (q + 1) % 2;
        total += cnt[q];
    }
    int off = 0;
    for (int q = 0; q < rank; q++)
        off += cnt[q];
    int *s = malloc((total + 1) * sizeof(int)), *r = malloc((total + 1) * sizeof(int));
    for (int i = 0; i < total; i++) {
        s[i] = v(rank, i);
        r[i] = inplace ? s[i] : -1;
    }
    COLL(f, Reduce_scatter, Ireduce_scatter, inplace ? MPI_IN_PLACE : s, r, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < cnt[rank]; i++)
        if (r[i] != sum_ranks(0, size, off + i)) {
            CHECK(0, "reduce_scatter %s n=%d inplace=%d: [%d]=%d", form_name[f], n, inplace, i, r[i]);
            break;
        }
    /* block variant with the affine op */
    int b = n / 2 + 1;
    affine_t *as = malloc((size_t)b * size * sizeof(affine_t)), *ar = malloc((size_t)b * size * sizeof(affine_t));
    for (int i = 0; i < b * size; i++)
        as[i] = ar[i] = av(rank, i);
    COLL(f, Reduce_scatter_block, Ireduce_scatter_block, inplace ? MPI_IN_PLACE : as, ar, b, affine_type,
         affine_op, MPI_COMM_WORLD);
    for (int i = 0; i < b; i++) {
        affine_t w = ref_affine(0, size, rank * b + i);
        if (ar[i].m != w.m || ar[i].c != w.c) {
            CHECK(0, "reduce_scatter_block(affine) %s n=%d inplace=%d: [%d]", form_name[f], n, inplace, i);
            break;
        }
    }
    free(s);
    free(r);
    free(as);
    free(ar);
}

static void test_scan(int f, int n, int inplace) {
    int *s = malloc((n + 1) * sizeof(int)), *r = malloc((n + 1) * sizeof(int));
    for (int ex = 0; ex < 2; ex++) {
        for (int i = 0; i < n; i++) {
            s[i] = v(rank, i);
            r[i] = inplace ? s[i] : -1;
        }
        if (ex)
            COLL(f, Exscan, Iexscan, inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
            COLL(f, Scan, Iscan, inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (!(ex && rank == 0))
            for (int i = 0; i < n; i++)
                if (r[i] != sum_ranks(0, rank + 1 - ex, i)) {
                    CHECK(0, "%s %s n=%d inplace=%d: [%d]=%d", ex ? "exscan" : "scan", form_name[f], n, inplace, i,
                          r[i]);
                    break;
                }
    }
    affine_t *as = malloc((n + 1) * sizeof(affine_t)), *ar = malloc((n + 1) * sizeof(affine_t));
    for (int ex = 0; ex < 2; ex++) {
        for (int i = 0; i < n; i++)
            as[i] = ar[i] = av(rank, i);
        if (ex)
            COLL(f, Exscan, Iexscan, inplace ? MPI_IN_PLACE : as, ar, n, affine_type, affine_op, MPI_COMM_WORLD);
        else
            COLL(f, Scan, Iscan, inplace ? MPI_IN_PLACE : as, ar, n, affine_type, affine_op, MPI_COMM_WORLD);
        if (!(ex && rank == 0))
            for (int i = 0; i < n; i++) {
                affine_t w = ref_affine(0, rank + 1 - ex, i);
                if (ar[i].m != w.m || ar[i].c != w.c) {
                    CHECK(0, "%s(affine) %s n=%d inplace=%d: [%d]", ex ? "exscan" : "scan", form_name[f], n,
                          inplace, i);
                    break;
                }
            }
    }
    free(s);
    free(r);
    free(as);
    free(ar);
}

/* run_all runs every collective in every form over the counts, every root
 * and both in-place settings. */
static void run_all(void) {
    affine_type = MPI_2INT;
    CHECK_MPI(MPI_Op_create(affine_fn, 0, &affine_op));
    for (int f = 0; f < 3; f++) {
        test_barrier(f);
        for (int k = 0; k < NCOUNTS; k++) {
            int n = counts[k];
            for (int root = 0; root < size; root++) {
                if (n > 1000 && root != size - 1)
                    continue;
                test_bcast(f, n, root);
                for (int ip = 0; ip < 2; ip++) {
                    test_gatherv(f, n, root, ip);
                    test_gather(f, n, root, ip);
                    test_reduce(f, n, root, ip);
                }
            }
            for (int ip = 0; ip < 2; ip++) {
                test_allgather(f, n, ip);
                test_alltoall(f, n, ip);
                test_allreduce(f, n, ip);
                test_reduce_scatter(f, n, ip);
                test_scan(f, n, ip);
            }
        }
    }
    CHECK_MPI(MPI_Op_free(&affine_op));
}

/* coll_main is each test program's main: the programs differ only in the
 * algorithms their gompi-env line forces. */
static int coll_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    run_all();
    MPI_Finalize();
    return check_status();
}

#endif
