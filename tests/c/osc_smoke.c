//go:build ignore

/* gompi-test: np=1,2,4 timeout=120 */
/* Every window flavour x every synchronisation mode x put/get/accumulate
 * (contiguous and strided target types), then fetch-and-op and
 * compare-and-swap counters hammered by all ranks, checked. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define K 8         /* ints per origin slot */
#define NSLOT 8     /* slots: one per origin, up to 8 ranks */
#define ACC (K * NSLOT)  /* accumulate area: K ints */
#define CNT (ACC + K)    /* two counters */
#define NINT (CNT + 2)

enum { F_CREATE_SMALL, F_CREATE_BIG, F_ALLOCATE, F_SHARED, F_DYNAMIC, NFLAV };
enum { S_FENCE, S_LOCK, S_LOCKALL, S_PSCW, NSYNC };
static const char *fname[] = {"create(small)", "create(big)", "allocate", "shared", "dynamic"};
static const char *sname[] = {"fence", "lock", "lock_all", "pscw"};

static int me, np;
static MPI_Aint addrs[8];
static MPI_Group world_group;

static MPI_Aint disp(int flav, int t, int idx)
{
    return flav == F_DYNAMIC ? addrs[t] + (MPI_Aint)idx * (MPI_Aint)sizeof(int) : idx;
}

static void open_epoch(int s, int t, MPI_Win win)
{
    switch (s) {
    case S_FENCE: CHECK_MPI(MPI_Win_fence(0, win)); break;
    case S_LOCK: CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win)); break;
    case S_LOCKALL: CHECK_MPI(MPI_Win_lock_all(0, win)); break;
    case S_PSCW:
        CHECK_MPI(MPI_Win_post(world_group, 0, win));
        CHECK_MPI(MPI_Win_start(world_group, 0, win));
        break;
    }
}

static void close_epoch(int s, int t, MPI_Win win)
{
    switch (s) {
    case S_FENCE: CHECK_MPI(MPI_Win_fence(0, win)); break;
    case S_LOCK: CHECK_MPI(MPI_Win_unlock(t, win)); MPI_Barrier(MPI_COMM_WORLD); break;
    case S_LOCKALL: CHECK_MPI(MPI_Win_unlock_all(win)); MPI_Barrier(MPI_COMM_WORLD); break;
    case S_PSCW:
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        break;
    }
}

static int val(int origin, int target, int i, int round) { return 100000 * round + 1000 * origin + 10 * target + i; }

static void run(int flav, int s, int round)
{
    int *mem = NULL, *heap = NULL;
    MPI_Win win;
    size_t bytes = NINT * sizeof(int);
    switch (flav) {
    case F_CREATE_SMALL:
    case F_CREATE_BIG:
        heap = malloc(flav == F_CREATE_BIG ? 1 << 20 : bytes);
        mem = heap;
        CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        break;
    case F_ALLOCATE:
        CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        break;
    case F_SHARED:
        CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        break;
    case F_DYNAMIC:
        heap = malloc(bytes);
        mem = heap;
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        CHECK_MPI(MPI_Win_attach(win, mem, bytes));
        MPI_Aint a;
        MPI_Get_address(mem, &a);
        MPI_Allgather(&a, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
        break;
    }
    memset(mem, 0, bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    int next = (me + 1) % np, prev = (me + np - 1) % np;
    int src[K], got[K];
    for (int i = 0; i < K; i++) src[i] = val(me, next, i, round);

    /* put: slot me of next, first half contiguous, second half strided */
    open_epoch(s, next, win);
    CHECK_MPI(MPI_Put(src, K / 2, MPI_INT, next, disp(flav, next, me * K), K / 2, MPI_INT, win));
    MPI_Datatype vec;
    MPI_Type_vector(K / 4, 1, 2, MPI_INT, &vec); /* every other int */
    MPI_Type_commit(&vec);
    CHECK_MPI(MPI_Put(src + K / 2, K / 4, MPI_INT, next, disp(flav, next, me * K + K / 2), 1, vec, win));
    close_epoch(s, next, win);
    for (int i = 0; i < K / 2; i++)
        CHECK(mem[prev * K + i] == val(prev, me, i, round), "%s/%s: put elem %d = %d, want %d", fname[flav],
              sname[s], i, mem[prev * K + i], val(prev, me, i, round));
    for (int j = 0; j < K / 4; j++)
        CHECK(mem[prev * K + K / 2 + 2 * j] == val(prev, me, K / 2 + j, round), "%s/%s: strided put elem %d",
              fname[flav], sname[s], j);

    /* get it back */
    memset(got, 0xff, sizeof got);
    open_epoch(s, next, win);
    CHECK_MPI(MPI_Get(got, K / 2, MPI_INT, next, disp(flav, next, me * K), K / 2, MPI_INT, win));
    CHECK_MPI(MPI_Get(got + K / 2, K / 4, MPI_INT, next, disp(flav, next, me * K + K / 2), 1, vec, win));
    close_epoch(s, next, win);
    for (int i = 0; i < K / 2 + K / 4; i++)
        CHECK(got[i] == src[i], "%s/%s: get elem %d = %d, want %d", fname[flav], sname[s], i, got[i], src[i]);

    /* accumulate into every target's ACC area: SUM of me+1 (contiguous)
     * and, in the second half, MAX of me through the strided type */
    int ones[K];
    for (int i = 0; i < K; i++) ones[i] = me + 1;
    for (int t = 0; t < np; t++) {
        open_epoch(s == S_FENCE || s == S_PSCW ? s : S_LOCK, t, win);
        if (s == S_FENCE || s == S_PSCW) {
            for (int u = 0; u < np; u++) {
                CHECK_MPI(MPI_Accumulate(ones, K / 2, MPI_INT, u, disp(flav, u, ACC), K / 2, MPI_INT, MPI_SUM, win));
                CHECK_MPI(MPI_Accumulate(&me, 1, MPI_INT, u, disp(flav, u, ACC + K / 2), 1, MPI_INT, MPI_MAX, win));
            }
            close_epoch(s, t, win);
            break;
        }
        CHECK_MPI(MPI_Accumulate(ones, K / 2, MPI_INT, t, disp(flav, t, ACC), K / 2, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&me, 1, MPI_INT, t, disp(flav, t, ACC + K / 2), 1, MPI_INT, MPI_MAX, win));
        CHECK_MPI(MPI_Win_unlock(t, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (s == S_LOCK || s == S_LOCKALL) { /* make the target's view current */
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
        CHECK_MPI(MPI_Win_unlock(me, win));
    }
    for (int i = 0; i < K / 2; i++)
        CHECK(mem[ACC + i] == np * (np + 1) / 2, "%s/%s: acc elem %d = %d, want %d", fname[flav], sname[s], i,
              mem[ACC + i], np * (np + 1) / 2);
    CHECK(mem[ACC + K / 2] == np - 1, "%s/%s: acc max = %d", fname[flav], sname[s], mem[ACC + K / 2]);

    /* get_accumulate with MPI_NO_OP reads the sums back */
    int res[K / 2];
    open_epoch(s, next, win);
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, res, K / 2, MPI_INT, next, disp(flav, next, ACC), K / 2,
                                 MPI_INT, MPI_NO_OP, win));
    close_epoch(s, next, win);
    for (int i = 0; i < K / 2; i++)
        CHECK(res[i] == np * (np + 1) / 2, "%s/%s: get_accumulate elem %d = %d", fname[flav], sname[s], i, res[i]);

    MPI_Type_free(&vec);
    if (flav == F_DYNAMIC) CHECK_MPI(MPI_Win_detach(win, mem));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "win not MPI_WIN_NULL after free");
    free(heap);
}

/* counters on rank 0: fetch-and-op adds 1, compare-and-swap loops */
static void counters(int flav)
{
    long *mem;
    MPI_Win win;
    if (flav == F_ALLOCATE) {
        CHECK_MPI(MPI_Win_allocate(3 * sizeof(long), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    } else {
        mem = malloc(3 * sizeof(long));
        CHECK_MPI(MPI_Win_create(mem, 3 * sizeof(long), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }
    mem[0] = mem[1] = mem[2] = 0;
    unsigned char *bytes = (unsigned char *)&mem[2]; /* byte counters: one per rank, one shared */
    unsigned short *shorts = (unsigned short *)&mem[2] + 3;
    MPI_Barrier(MPI_COMM_WORLD);
    const int iters = 500;
    long one = 1, old, seen_max = -1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < iters; i++) {
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win));
        CHECK(old > seen_max || old >= 0, "fetch_and_op went backwards");
        seen_max = old;
        long cur = 0, want;
        CHECK_MPI(MPI_Fetch_and_op(NULL, &cur, MPI_LONG, 0, 8, MPI_NO_OP, win));
        for (;;) {
            want = cur + 1;
            long prev;
            CHECK_MPI(MPI_Compare_and_swap(&want, &cur, &prev, MPI_LONG, 0, 8, win));
            if (prev == cur) break;
            cur = prev;
        }
        unsigned char b1 = 1, bold;
        CHECK_MPI(MPI_Fetch_and_op(&b1, &bold, MPI_UNSIGNED_CHAR, 0, 16 + me % 4, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&b1, 1, MPI_UNSIGNED_CHAR, 0, 20, 1, MPI_UNSIGNED_CHAR, MPI_SUM, win));
        unsigned short scur = 0;
        for (;;) {
            unsigned short snew = scur + 1, sprev;
            CHECK_MPI(MPI_Compare_and_swap(&snew, &scur, &sprev, MPI_UNSIGNED_SHORT, 0, 22, win));
            if (sprev == scur) break;
            scur = sprev;
        }
        CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        CHECK(mem[0] == (long)np * iters, "%s: fetch_and_op counter %ld, want %ld", fname[flav], mem[0],
              (long)np * iters);
        CHECK(mem[1] == (long)np * iters, "%s: CAS counter %ld, want %ld", fname[flav], mem[1], (long)np * iters);
        for (int r = 0; r < 4; r++) {
            int users = np / 4 + (r < np % 4);
            CHECK(bytes[r] == (unsigned char)(users * iters), "%s: byte counter %d = %d, want %d", fname[flav], r,
                  bytes[r], (unsigned char)(users * iters));
        }
        CHECK(bytes[4] == (unsigned char)(np * iters), "%s: shared byte counter %d", fname[flav], bytes[4]);
        CHECK(shorts[0] == (unsigned short)(np * iters), "%s: short CAS counter %d", fname[flav], shorts[0]);
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (flav != F_ALLOCATE) free(mem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int round = 0;
    for (int f = 0; f < NFLAV; f++)
        for (int s = 0; s < NSYNC; s++) run(f, s, ++round);
    counters(F_ALLOCATE);
    counters(F_CREATE_SMALL);
    MPI_Group_free(&world_group);
    MPI_Finalize();
    return check_status();
}
