//go:build ignore

/* gompi-test: np=4 timeout=180 */
/* gompi-env: GOMPI_NODE_SPLIT=2 */
/* One-sided communication on windows spanning two "nodes" of two ranks
 * (GOMPI_NODE_SPLIT=2): every target is reached both by its node-mate
 * (shared memory) and by the two ranks of the other node (active messages
 * through the network transport), at once. Checks that accumulates,
 * fetch-and-op and compare-and-swap from both paths are atomic against each
 * other, that exclusive locks exclude across both, PSCW with mixed groups,
 * derived datatypes and large (chunked) transfers, a dynamic window with
 * exchanged addresses, and that a bad range at a remote target is reported
 * (MPI_ERR_RMA_RANGE) at the origin. */
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define ITERS 100

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;

    /* 1. Atomic counters hit from every rank, local and remote. */
    long *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(64 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    memset(mem, 0, 64 * sizeof(long));
    CHECK_MPI(MPI_Win_unlock(me, win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    long one = 1, old;
    for (int i = 0; i < ITERS; i++) {
        for (int t = 0; t < np; t++) {
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, t, 0, 1, MPI_LONG, MPI_SUM, win));
            CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, t, 1, MPI_SUM, win));
            long cur = 0, want, prev;
            for (;;) {
                want = cur + 1;
                CHECK_MPI(MPI_Compare_and_swap(&want, &cur, &prev, MPI_LONG, t, 2, win));
                if (prev == cur)
                    break;
                cur = prev;
            }
        }
        if (i % 16 == 0)
            CHECK_MPI(MPI_Win_flush_all(win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 3; k++)
        CHECK(mem[k] == (long)np * ITERS, "counter %d = %ld, want %ld", k, mem[k], (long)np * ITERS);

    /* 2. Exclusive locks: a read-modify-write by get and put. */
    for (int i = 0; i < ITERS / 4; i++) {
        for (int t = 0; t < np; t++) {
            long v;
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            CHECK_MPI(MPI_Get(&v, 1, MPI_LONG, t, 3, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_flush(t, win));
            v++;
            CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, t, 3, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_unlock(t, win));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    CHECK(mem[3] == (long)np * (ITERS / 4), "locked counter %ld, want %ld", mem[3], (long)np * (ITERS / 4));
    CHECK_MPI(MPI_Win_unlock(me, win));

    /* 3. PSCW with both neighbours (one on this node, one not for np=4). */
    MPI_Group world, nb;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int left = (me + np - 1) % np, right = (me + 1) % np;
    int ranks[2] = {left, right};
    MPI_Group_incl(world, left == right ? 1 : 2, ranks, &nb);
    CHECK_MPI(MPI_Win_post(nb, 0, win));
    CHECK_MPI(MPI_Win_start(nb, 0, win));
    long tag = 1000 + me;
    CHECK_MPI(MPI_Put(&tag, 1, MPI_LONG, right, 4, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Put(&tag, 1, MPI_LONG, left, 5, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK(mem[4] == 1000 + left && mem[5] == 1000 + right, "PSCW got %ld %ld, want %d %d", mem[4], mem[5],
          1000 + left, 1000 + right);
    MPI_Group_free(&nb);
    MPI_Group_free(&world);

    /* 4. Derived datatypes: a vector target, an indexed origin. */
    MPI_Datatype vec, idx;
    MPI_Type_vector(4, 1, 3, MPI_LONG, &vec);
    MPI_Type_commit(&vec);
    int bl[2] = {2, 2}, dis[2] = {4, 0};
    MPI_Type_indexed(2, bl, dis, MPI_LONG, &idx);
    MPI_Type_commit(&idx);
    long src[8], res[8];
    for (int i = 0; i < 8; i++)
        src[i] = 10 * me + i;
    int far = (me + 2) % np;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, 1, idx, far, 16, 1, vec, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int from = (me + np - 2) % np;
    long expect[4] = {10 * from + 4, 10 * from + 5, 10 * from + 0, 10 * from + 1};
    for (int i = 0; i < 4; i++)
        CHECK(mem[16 + 3 * i] == expect[i], "vector put element %d = %ld, want %ld", i, mem[16 + 3 * i], expect[i]);
    MPI_Barrier(MPI_COMM_WORLD); /* checked before anyone accumulates */
    CHECK_MPI(MPI_Get_accumulate(src, 1, idx, res, 1, idx, far, 16, 1, vec, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 8; i++) /* far held my own put: the indexed type's elements come back in place */
        if (i < 2 || (i >= 4 && i < 6))
            CHECK(res[i] == 10 * me + i, "get_accumulate result %d = %ld, want %d", i, res[i], 10 * me + i);
    for (int i = 0; i < 4; i++)
        CHECK(mem[16 + 3 * i] == 2 * expect[i], "vector accumulate element %d = %ld, want %ld", i, mem[16 + 3 * i],
              2 * expect[i]);
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);

    /* 5. Out of range at a remote target: refused at the origin. */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, far, 0, win));
    int rc = MPI_Put(&one, 1, MPI_LONG, far, 64, 1, MPI_LONG, win);
    CHECK(err_class(rc) == MPI_ERR_RMA_RANGE, "put past a remote window: %d", err_class(rc));
    CHECK_MPI(MPI_Win_unlock(far, win));
    CHECK_MPI(MPI_Win_free(&win));

    /* 6. Large transfers (chunked) on a created window. */
    const int big = 300000;
    unsigned char *bw = malloc(big), *bo = malloc(big);
    for (int i = 0; i < big; i++)
        bo[i] = (unsigned char)(i * 7 + me);
    memset(bw, 0, big);
    CHECK_MPI(MPI_Win_create(bw, big, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(bo, big, MPI_BYTE, far, 0, big, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int bad = 0;
    for (int i = 0; i < big; i++)
        bad += bw[i] != (unsigned char)(i * 7 + from);
    CHECK(bad == 0, "large put: %d bytes wrong", bad);
    MPI_Barrier(MPI_COMM_WORLD);
    memset(bo, 0, big);
    CHECK_MPI(MPI_Get(bo, big, MPI_BYTE, far, 0, big, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    bad = 0;
    for (int i = 0; i < big; i++)
        bad += bo[i] != (unsigned char)(i * 7 + me);
    CHECK(bad == 0, "large get: %d bytes wrong", bad);
    /* far holds what I put: XOR it away */
    CHECK_MPI(MPI_Accumulate(bo, big / 4, MPI_INT, far, 0, big / 4, MPI_INT, MPI_BXOR, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    bad = 0;
    for (int i = 0; i < big / 4 * 4; i++)
        bad += bw[i] != 0;
    CHECK(bad == 0, "large accumulate: %d bytes not cleared", bad);
    CHECK_MPI(MPI_Win_free(&win));
    free(bw);
    free(bo);

    /* 7. Dynamic window: addresses exchanged, a local and a remote target. */
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    long *reg = calloc(16, sizeof(long));
    CHECK_MPI(MPI_Win_attach(win, reg, 16 * sizeof(long)));
    MPI_Aint mine, *addrs = malloc(np * sizeof(MPI_Aint));
    MPI_Get_address(reg, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_fence(0, win));
    long v = 500 + me;
    int mate = (me ^ 1) < np ? (me ^ 1) : me;
    CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, far, addrs[far] + 2 * sizeof(long), 1, MPI_LONG, win));
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, mate, addrs[mate], 1, MPI_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, far, addrs[far], 1, MPI_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(reg[2] == 500 + from, "dynamic put %ld", reg[2]);
    CHECK(reg[0] == 2, "dynamic accumulate %ld", reg[0]);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, far, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, far, addrs[far] + 64 * sizeof(long), 1, MPI_LONG, win));
    rc = MPI_Win_flush(far, win);
    CHECK(err_class(rc) == MPI_ERR_RMA_RANGE, "put outside a remote region reported %d at flush", err_class(rc));
    CHECK_MPI(MPI_Win_unlock(far, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_detach(win, reg));
    CHECK_MPI(MPI_Win_free(&win));
    free(reg);
    free(addrs);

    MPI_Finalize();
    return check_failures != 0;
}
