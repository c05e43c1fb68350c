//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* MPI_Comm_idup agrees on context ids without blocking, however many are
 * outstanding: several idups on one parent then Waitall; idups on two
 * parents started in crossed orders on even and odd ranks; idups
 * overlapped with point-to-point traffic on the parent (the parent's
 * messages complete while the idups are outstanding); a blocking
 * MPI_Comm_dup on another communicator while idups are outstanding; a
 * request tested until done. Every new communicator works (allreduce) and
 * has a context of its own: the same message sent on every one of them
 * arrives on the right one. */
#include <stdlib.h>

#include "check.h"

#define K 5

static int r, n;

/* works checks an allreduce on c and that messages on the communicators
 * cs[0..m) do not cross: each rank sends its right neighbour, on every
 * communicator, the communicator's index with one tag, then receives in
 * reverse order with that tag. */
static void works(MPI_Comm *cs, int m, const char *what) {
    for (int i = 0; i < m; i++) {
        int sum = -1, size = -1, me = -1;
        CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, cs[i]));
        CHECK(sum == n * (n - 1) / 2, "%s %d: allreduce %d", what, i, sum);
        MPI_Comm_size(cs[i], &size);
        MPI_Comm_rank(cs[i], &me);
        CHECK(size == n && me == r, "%s %d: size %d rank %d", what, i, size, me);
    }
    int right = (r + 1) % n, left = (r + n - 1) % n;
    int *sb = malloc(sizeof(int) * m), *rb = malloc(sizeof(int) * m);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * m);
    for (int i = 0; i < m; i++) {
        sb[i] = 1000 * i + left;
        CHECK_MPI(MPI_Isend(&sb[i], 1, MPI_INT, right, 7, cs[i], &rq[i]));
    }
    for (int i = m - 1; i >= 0; i--) {
        rb[i] = -1;
        CHECK_MPI(MPI_Recv(&rb[i], 1, MPI_INT, left, 7, cs[i], MPI_STATUS_IGNORE));
        CHECK(rb[i] == 1000 * i + (left + n - 1) % n, "%s %d: got %d", what, i, rb[i]);
    }
    CHECK_MPI(MPI_Waitall(m, rq, MPI_STATUSES_IGNORE));
    free(sb);
    free(rb);
    free(rq);
}

static void free_all(MPI_Comm *cs, int m) {
    for (int i = 0; i < m; i++)
        CHECK_MPI(MPI_Comm_free(&cs[i]));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    r = check_rank;
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* Several outstanding on one parent (the first takes the reserve). */
    for (int round = 0; round < 3; round++) {
        MPI_Comm p, kids[K];
        MPI_Request rq[K];
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &p));
        for (int i = 0; i < K; i++) {
            if (i % 2)
                CHECK_MPI(MPI_Comm_idup_with_info(p, MPI_INFO_NULL, &kids[i], &rq[i]));
            else
                CHECK_MPI(MPI_Comm_idup(p, &kids[i], &rq[i]));
        }
        CHECK_MPI(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
        MPI_Comm all[K + 1];
        for (int i = 0; i < K; i++)
            all[i] = kids[i];
        all[K] = p;
        works(all, K + 1, "one parent");
        free_all(all, K + 1);
    }

    /* Two parents, crossed order on odd ranks, each several times. */
    for (int round = 0; round < 3; round++) {
        MPI_Comm a, b, ka[3], kb[3];
        MPI_Request rq[6];
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, &b));
        MPI_Comm tmp; /* take a's and b's reserves: the rest must agree */
        MPI_Request t;
        CHECK_MPI(MPI_Comm_idup(a, &tmp, &t));
        CHECK_MPI(MPI_Wait(&t, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_free(&tmp));
        CHECK_MPI(MPI_Comm_idup(b, &tmp, &t));
        CHECK_MPI(MPI_Wait(&t, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_free(&tmp));
        for (int i = 0; i < 3; i++) {
            if (r % 2) {
                CHECK_MPI(MPI_Comm_idup(b, &kb[i], &rq[3 + i]));
                CHECK_MPI(MPI_Comm_idup(a, &ka[i], &rq[i]));
            } else {
                CHECK_MPI(MPI_Comm_idup(a, &ka[i], &rq[i]));
                CHECK_MPI(MPI_Comm_idup(b, &kb[i], &rq[3 + i]));
            }
        }
        /* Wait in another crossed order: b's on even ranks first. */
        if (r % 2 == 0)
            CHECK_MPI(MPI_Waitall(3, &rq[3], MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Waitall(6, rq, MPI_STATUSES_IGNORE));
        MPI_Comm all[8] = {ka[0], ka[1], ka[2], a, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
        works(all, 4, "crossed a");
        for (int i = 0; i < 3; i++) {
            int cmp = -1;
            MPI_Comm_compare(kb[i], b, &cmp);
            CHECK(cmp == MPI_CONGRUENT, "crossed b %d: compare %d", i, cmp);
            int sum = -1;
            CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, kb[i]));
            CHECK(sum == n * (n - 1) / 2, "crossed b %d: allreduce %d", i, sum);
        }
        free_all(ka, 3);
        free_all(kb, 3);
        CHECK_MPI(MPI_Comm_free(&a));
        CHECK_MPI(MPI_Comm_free(&b));
    }

    /* Overlapped with point-to-point on the parent, and a blocking dup of
     * another communicator while the idups are outstanding. */
    {
        MPI_Comm p, q, kids[K], qd;
        MPI_Request rq[K], pr[2];
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &p));
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &q));
        int right = (r + 1) % n, left = (r + n - 1) % n, in = -1;
        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, left, 3, p, &pr[0]));
        for (int i = 0; i < K; i++)
            CHECK_MPI(MPI_Comm_idup(p, &kids[i], &rq[i]));
        CHECK_MPI(MPI_Isend(&r, 1, MPI_INT, right, 3, p, &pr[1]));
        CHECK_MPI(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
        CHECK(in == left, "p2p under idups: got %d", in);
        CHECK_MPI(MPI_Comm_dup(q, &qd));
        int done = 0;
        for (long spins = 0; !done; spins++)
            CHECK_MPI(MPI_Testall(K, rq, &done, MPI_STATUSES_IGNORE));
        MPI_Comm all[K + 3];
        for (int i = 0; i < K; i++)
            all[i] = kids[i];
        all[K] = p;
        all[K + 1] = q;
        all[K + 2] = qd;
        works(all, K + 3, "overlapped");
        free_all(all, K + 3);
    }

    /* MPI_Comm_create_group (blocking) on some ranks before their idups,
     * after them on others: the idups outstanding on the first ranks must
     * not hold the ids the create_groups need. */
    for (int round = 0; round < 3; round++) {
        MPI_Comm a, ka[3], all, ev = MPI_COMM_NULL, tmp;
        MPI_Request rq[3], t;
        MPI_Group world, evens;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int ranges[1][3] = {{0, n - 1, 2}};
        MPI_Group_range_incl(world, 1, ranges, &evens);
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
        CHECK_MPI(MPI_Comm_idup(a, &tmp, &t)); /* the reserve */
        CHECK_MPI(MPI_Wait(&t, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_free(&tmp));
        if (r % 2 == 0) {
            for (int i = 0; i < 3; i++)
                CHECK_MPI(MPI_Comm_idup(a, &ka[i], &rq[i]));
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 30 + round, &ev));
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, world, 40 + round, &all));
        } else {
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, world, 40 + round, &all));
            for (int i = 0; i < 3; i++)
                CHECK_MPI(MPI_Comm_idup(a, &ka[i], &rq[i]));
        }
        CHECK_MPI(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
        MPI_Comm cs[5] = {ka[0], ka[1], ka[2], a, all};
        works(cs, 5, "create_group");
        if (ev != MPI_COMM_NULL) {
            int sum = -1;
            CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, ev));
            CHECK(sum == ((n + 1) / 2) * ((n + 1) / 2 - 1), "evens allreduce %d", sum);
            CHECK_MPI(MPI_Comm_free(&ev));
        }
        free_all(cs, 5);
        MPI_Group_free(&evens);
        MPI_Group_free(&world);
    }

    /* A blocking dup between idups and their wait on odd ranks, after the
     * wait on even ranks: the dup must not hold what the idups need. */
    for (int round = 0; round < 3; round++) {
        MPI_Comm p, d, dd, kids[K], tmp;
        MPI_Request rq[K], t;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &p));
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        CHECK_MPI(MPI_Comm_idup(p, &tmp, &t)); /* the reserve */
        CHECK_MPI(MPI_Wait(&t, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_free(&tmp));
        for (int i = 0; i < K; i++)
            CHECK_MPI(MPI_Comm_idup(p, &kids[i], &rq[i]));
        if (r % 2)
            CHECK_MPI(MPI_Comm_dup(d, &dd));
        CHECK_MPI(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
        if (r % 2 == 0)
            CHECK_MPI(MPI_Comm_dup(d, &dd));
        MPI_Comm all[K + 3];
        for (int i = 0; i < K; i++)
            all[i] = kids[i];
        all[K] = p;
        all[K + 1] = d;
        all[K + 2] = dd;
        works(all, K + 3, "dup between");
        free_all(all, K + 3);
    }

    /* MPI_COMM_SELF and MPI_COMM_WORLD, many at once. */
    {
        MPI_Comm kids[2 * K];
        MPI_Request rq[2 * K];
        for (int i = 0; i < K; i++) {
            CHECK_MPI(MPI_Comm_idup(MPI_COMM_SELF, &kids[K + i], &rq[K + i]));
            CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &kids[i], &rq[i]));
        }
        CHECK_MPI(MPI_Waitall(2 * K, rq, MPI_STATUSES_IGNORE));
        works(kids, K, "world");
        for (int i = K; i < 2 * K; i++) {
            int size = -1;
            MPI_Comm_size(kids[i], &size);
            CHECK(size == 1, "self %d: size %d", i, size);
        }
        free_all(kids, 2 * K);
    }
    MPI_Finalize();
    return check_status();
}
