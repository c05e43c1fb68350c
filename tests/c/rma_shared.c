//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* MPI_Win_allocate_shared + MPI_Win_shared_query, on MPI_COMM_WORLD and on
 * the communicator of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED):
 * - default (contiguous) layout: rank r's segment ((r+1)*1000+r*8 bytes,
 *   rank 1's empty, disp_unit r+1) starts where rank r-1's ends; the query
 *   gives every rank's size, disp_unit and base; MPI_PROC_NULL gives the
 *   lowest rank with a non-empty segment;
 * - alloc_shared_noncontig=true: sizes and disp_units right, segments
 *   disjoint;
 * - each rank stores its pattern into its segment directly, Win_sync +
 *   barrier + Win_sync (inside lock_all), then loads every other rank's
 *   segment through the queried pointers; then MPI_Put into the right
 *   neighbour's segment and a direct load of it by the neighbour.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4; Open MPI 4.1.4 passes but
 * for alloc_shared_noncontig, where its shared_query gives sizes rounded up
 * to the page (the standard: the size the rank asked for). */
#include <stdint.h>
#include <string.h>

#include "check.h"

static MPI_Aint seg_size(int r) { return r == 1 ? 0 : (MPI_Aint)(r + 1) * 1000 + r * 8; }
static unsigned char pat(int r, MPI_Aint i) { return (unsigned char)(r * 37 + i * 11 + 1); }

static void run(MPI_Comm comm, int noncontig) {
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    unsigned char *mine = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(seg_size(me), me + 1, info, comm, &mine, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    unsigned char **base = calloc(np, sizeof *base);
    for (int r = 0; r < np; r++) {
        MPI_Aint size;
        int du;
        CHECK_MPI(MPI_Win_shared_query(win, r, &size, &du, &base[r]));
        CHECK(size == seg_size(r), "shared_query(%d) size %ld, want %ld", r, (long)size, (long)seg_size(r));
        CHECK(du == r + 1, "shared_query(%d) disp_unit %d", r, du);
        if (r == me && size > 0)
            CHECK(base[r] == mine, "shared_query(me) base %p, allocate gave %p", (void *)base[r], (void *)mine);
        if (!noncontig && r > 0 && size > 0 && seg_size(r - 1) > 0)
            CHECK(base[r] == base[r - 1] + seg_size(r - 1), "segment %d does not follow segment %d", r, r - 1);
        if (!noncontig && r > 1 && size > 0 && seg_size(r - 1) == 0)
            CHECK(base[r] == base[r - 2] + seg_size(r - 2), "segment %d does not follow segment %d", r, r - 2);
    }
    if (noncontig)
        for (int a = 0; a < np; a++)
            for (int b = a + 1; b < np; b++)
                if (seg_size(a) && seg_size(b))
                    CHECK(base[a] + seg_size(a) <= base[b] || base[b] + seg_size(b) <= base[a],
                          "segments %d and %d overlap", a, b);
    {
        MPI_Aint size;
        int du;
        unsigned char *p;
        CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &du, &p));
        CHECK(size == seg_size(0) && du == 1 && p == base[0], "shared_query(MPI_PROC_NULL) is not rank 0's");
    }

    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (MPI_Aint i = 0; i < seg_size(me); i++)
        mine[i] = pat(me, i);
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Barrier(comm);
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < np; r++) {
        int bad = 0;
        for (MPI_Aint i = 0; i < seg_size(r); i++)
            bad += base[r][i] != pat(r, i);
        CHECK(bad == 0, "%d bytes of rank %d's segment wrong by direct load", bad, r);
    }
    MPI_Barrier(comm);
    /* Put into the right neighbour's segment (displacement in its units),
     * read directly there. */
    int t = (me + 1) % np, s = (me + np - 1) % np;
    if (seg_size(t) >= 8 * (t + 1)) {
        int64_t v = 0x0102030405060708LL * (me + 1);
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT64_T, t, 1, 1, MPI_INT64_T, win));
        CHECK_MPI(MPI_Win_flush(t, win));
    }
    MPI_Barrier(comm);
    CHECK_MPI(MPI_Win_sync(win));
    if (seg_size(me) >= 8 * (me + 1)) {
        int64_t got;
        memcpy(&got, mine + (me + 1), 8);
        CHECK(got == 0x0102030405060708LL * (s + 1), "put from %d read directly: %llx", s, (long long)got);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
    free(base);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    check_rank = me;
    run(MPI_COMM_WORLD, 0);
    run(MPI_COMM_WORLD, 1);
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    run(node, 0);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return check_status();
}
