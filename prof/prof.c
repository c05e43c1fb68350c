/* The runtime of gompirun --profile (see prof.h): send accounting, and at
 * MPI_Finalize the gather of every rank's counts to rank 0, which prints a
 * short table on stderr and, when GOMPI_PROFILE names a directory, writes
 * profile.json there. Only PMPI_ calls here: the profiler never counts
 * itself. */
#include "prof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NCLASS = 6 };
static const uint64_t class_max[NCLASS - 1] = {64, 1024, 16384, 262144, 4194304};
static const char *const class_names[NCLASS] = {"0-64 B", "65 B-1 KiB", "1-16 KiB", "16-256 KiB", "256 KiB-4 MiB", "> 4 MiB"};

/* Calls that only wait: their time is the rank's waiting time. */
static const char *const wait_calls[] = {
    "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Recv", "MPI_Recv_c", "MPI_Mrecv",
    "MPI_Mrecv_c", "MPI_Probe", "MPI_Mprobe", "MPI_Barrier", "MPI_Win_fence", "MPI_Win_wait",
    "MPI_Win_complete", "MPI_Win_unlock", "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all", NULL};

typedef struct {
    uint64_t msgs, bytes;
} traffic;

static int started, world_rank, world_size;
static uint64_t tick0, ns0;
static traffic by_class[NCLASS], other; /* other: peers outside MPI_COMM_WORLD */
static traffic *by_peer;

/* The last communicator's ranks in MPI_COMM_WORLD. */
static MPI_Comm cache_comm = MPI_COMM_NULL;
static int *cache_map, cache_n;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void gompi_prof_before_init(void)
{
    if (!started) {
        ns0 = mono_ns();
        tick0 = prof_now();
    }
}

void gompi_prof_started(void)
{
    int init = 0;
    PMPI_Initialized(&init);
    if (!init || started)
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    by_peer = calloc((size_t)world_size, sizeof *by_peer);
    if (by_peer == NULL)
        return;
    started = 1;
}

void gompi_prof_comm_gone(MPI_Comm c)
{
    if (c == cache_comm)
        cache_comm = MPI_COMM_NULL;
}

static int world_peer(MPI_Comm comm, int dest)
{
    if (comm == MPI_COMM_WORLD)
        return dest < world_size ? dest : -1;
    if (comm != cache_comm) {
        int inter = 0, n = 0;
        MPI_Group g, wg;
        PMPI_Comm_test_inter(comm, &inter);
        if ((inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
            return -1;
        PMPI_Group_size(g, &n);
        int *ranks = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof(int));
        if (ranks == NULL) {
            PMPI_Group_free(&g);
            return -1;
        }
        for (int i = 0; i < n; i++)
            ranks[i] = i;
        PMPI_Comm_group(MPI_COMM_WORLD, &wg);
        PMPI_Group_translate_ranks(g, n, ranks, wg, ranks + n);
        PMPI_Group_free(&g);
        PMPI_Group_free(&wg);
        free(cache_map);
        cache_map = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
        if (cache_map == NULL) {
            free(ranks);
            cache_comm = MPI_COMM_NULL;
            return -1;
        }
        memcpy(cache_map, ranks + n, (size_t)n * sizeof(int));
        free(ranks);
        cache_n = n;
        cache_comm = comm;
    }
    if (dest >= cache_n || cache_map[dest] == MPI_UNDEFINED)
        return -1;
    return cache_map[dest];
}

void gompi_prof_send(MPI_Count count, MPI_Datatype type, int dest, MPI_Comm comm)
{
    if (!started || dest < 0 || count < 0)
        return;
    uint64_t size;
    if ((uint32_t)type >> 30 == 1) { /* builtin: MPICH encodes the size */
        size = (uint32_t)type >> 8 & 0xff;
    } else {
        int s = 0;
        if (PMPI_Type_size(type, &s) != MPI_SUCCESS || s < 0)
            return;
        size = (uint64_t)s;
    }
    uint64_t bytes = (uint64_t)count * size;
    int c = 0;
    while (c < NCLASS - 1 && bytes > class_max[c])
        c++;
    by_class[c].msgs++;
    by_class[c].bytes += bytes;
    int peer = world_peer(comm, dest);
    traffic *t = peer >= 0 ? &by_peer[peer] : &other;
    t->msgs++;
    t->bytes += bytes;
}

/* One rank's record, gathered as uint64s: wall ns, calls and ns per
 * function, then msgs and bytes per class, to other, per peer. */
static size_t record_len(void) { return 1 + 2 * (size_t)gompi_prof_nfuncs + 2 * NCLASS + 2 + 2 * (size_t)world_size; }

typedef struct {
    const uint64_t *r;
} rec;
static uint64_t r_wall(rec x) { return x.r[0]; }
static uint64_t r_calls(rec x, int f) { return x.r[1 + f]; }
static uint64_t r_ns(rec x, int f) { return x.r[1 + gompi_prof_nfuncs + f]; }
static traffic r_class(rec x, int c)
{
    const uint64_t *p = x.r + 1 + 2 * gompi_prof_nfuncs + 2 * c;
    return (traffic){p[0], p[1]};
}
static traffic r_other(rec x) { return r_class(x, NCLASS); }
static traffic r_peer(rec x, int p) { return r_class(x, NCLASS + 1 + p); }

static int is_wait(int f)
{
    for (int i = 0; wait_calls[i]; i++)
        if (strcmp(gompi_prof_names[f], wait_calls[i]) == 0)
            return 1;
    return 0;
}

static double sec(uint64_t ns) { return (double)ns / 1e9; }

static void rank_times(rec x, uint64_t *mpi, uint64_t *wait)
{
    *mpi = *wait = 0;
    for (int f = 0; f < gompi_prof_nfuncs; f++) {
        *mpi += r_ns(x, f);
        if (is_wait(f))
            *wait += r_ns(x, f);
    }
}

static const char *human(uint64_t b, char *buf, size_t n)
{
    const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int i = 0;
    while (v >= 1024 && i < 4) {
        v /= 1024;
        i++;
    }
    snprintf(buf, n, i ? "%.1f %s" : "%.0f %s", v, u[i]);
    return buf;
}

static void print_table(const uint64_t *all, size_t len)
{
    int n = world_size, nf = gompi_prof_nfuncs;
    FILE *o = stderr;
    char b1[32], b2[32];
    uint64_t wall = 0;
    for (int r = 0; r < n; r++)
        if (r_wall((rec){all + r * len}) > wall)
            wall = r_wall((rec){all + r * len});
    fprintf(o, "gompi profile: %d ranks, %.3f s from MPI_Init to MPI_Finalize\n", n, sec(wall));
    fprintf(o, "%6s %10s %10s %6s %10s\n", "rank", "MPI s", "wait s", "MPI %", "sent");
    uint64_t tot_mpi = 0;
    for (int r = 0; r < n; r++) {
        rec x = {all + r * len};
        uint64_t mpi, wait, sent = r_other(x).bytes;
        rank_times(x, &mpi, &wait);
        tot_mpi += mpi;
        for (int p = 0; p < n; p++)
            sent += r_peer(x, p).bytes;
        fprintf(o, "%6d %10.4f %10.4f %6.1f %10s\n", r, sec(mpi), sec(wait),
                r_wall(x) ? 100.0 * (double)mpi / (double)r_wall(x) : 0.0, human(sent, b1, sizeof b1));
    }
    /* The calls, by total time over the ranks, at most 12. */
    int *order = malloc((size_t)nf * sizeof(int));
    uint64_t *tot = calloc((size_t)nf, sizeof(uint64_t)), *cnt = calloc((size_t)nf, sizeof(uint64_t));
    if (order && tot && cnt) {
        int m = 0;
        for (int f = 0; f < nf; f++) {
            for (int r = 0; r < n; r++) {
                tot[f] += r_ns((rec){all + r * len}, f);
                cnt[f] += r_calls((rec){all + r * len}, f);
            }
            if (cnt[f])
                order[m++] = f;
        }
        for (int i = 1; i < m; i++) /* insertion sort, longest first */
            for (int j = i; j > 0 && tot[order[j]] > tot[order[j - 1]]; j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        fprintf(o, "%-24s %10s %10s %10s %7s\n", "call (all ranks)", "calls", "total s", "max rank s", "% MPI");
        for (int i = 0; i < m && i < 12; i++) {
            int f = order[i];
            uint64_t mx = 0;
            for (int r = 0; r < n; r++)
                if (r_ns((rec){all + r * len}, f) > mx)
                    mx = r_ns((rec){all + r * len}, f);
            fprintf(o, "%-24s %10llu %10.4f %10.4f %7.1f\n", gompi_prof_names[f], (unsigned long long)cnt[f],
                    sec(tot[f]), sec(mx), tot_mpi ? 100.0 * (double)tot[f] / (double)tot_mpi : 0.0);
        }
        if (m > 12)
            fprintf(o, "%-24s (%d more)\n", "...", m - 12);
    }
    free(order);
    free(tot);
    free(cnt);
    fprintf(o, "point-to-point sends by size:");
    for (int c = 0; c < NCLASS; c++) {
        traffic t = {0, 0};
        for (int r = 0; r < n; r++) {
            t.msgs += r_class((rec){all + r * len}, c).msgs;
            t.bytes += r_class((rec){all + r * len}, c).bytes;
        }
        if (t.msgs)
            fprintf(o, "  %s: %llu msgs, %s", class_names[c], (unsigned long long)t.msgs, human(t.bytes, b2, sizeof b2));
    }
    fprintf(o, "\n");
    if (n <= 8) {
        fprintf(o, "bytes sent (row: from, column: to):\n%6s", "");
        for (int p = 0; p < n; p++)
            fprintf(o, " %10d", p);
        fprintf(o, "\n");
        for (int r = 0; r < n; r++) {
            fprintf(o, "%6d", r);
            for (int p = 0; p < n; p++)
                fprintf(o, " %10s", human(r_peer((rec){all + r * len}, p).bytes, b1, sizeof b1));
            fprintf(o, "\n");
        }
    }
}

static void write_json(const char *dir, const uint64_t *all, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/profile.json", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "gompi profile: cannot write %s\n", path);
        return;
    }
    fprintf(f, "{\n  \"ranks\": %d,\n  \"size_classes\": [", world_size);
    for (int c = 0; c < NCLASS; c++)
        fprintf(f, "%s\"%s\"", c ? ", " : "", class_names[c]);
    fprintf(f, "],\n  \"wait_calls\": [");
    for (int i = 0; wait_calls[i]; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", wait_calls[i]);
    fprintf(f, "],\n  \"per_rank\": [\n");
    for (int r = 0; r < world_size; r++) {
        rec x = {all + r * len};
        uint64_t mpi, wait;
        rank_times(x, &mpi, &wait);
        fprintf(f, "    {\"rank\": %d, \"wall_ns\": %llu, \"mpi_ns\": %llu, \"wait_ns\": %llu,\n     \"calls\": {", r,
                (unsigned long long)r_wall(x), (unsigned long long)mpi, (unsigned long long)wait);
        int first = 1;
        for (int fn = 0; fn < gompi_prof_nfuncs; fn++) {
            if (!r_calls(x, fn))
                continue;
            fprintf(f, "%s\"%s\": {\"count\": %llu, \"ns\": %llu}", first ? "" : ", ", gompi_prof_names[fn],
                    (unsigned long long)r_calls(x, fn), (unsigned long long)r_ns(x, fn));
            first = 0;
        }
        fprintf(f, "},\n     \"sent_by_class\": [");
        for (int c = 0; c < NCLASS; c++)
            fprintf(f, "%s{\"msgs\": %llu, \"bytes\": %llu}", c ? ", " : "", (unsigned long long)r_class(x, c).msgs,
                    (unsigned long long)r_class(x, c).bytes);
        fprintf(f, "],\n     \"sent_to\": [");
        for (int p = 0; p < world_size; p++)
            fprintf(f, "%s{\"msgs\": %llu, \"bytes\": %llu}", p ? ", " : "", (unsigned long long)r_peer(x, p).msgs,
                    (unsigned long long)r_peer(x, p).bytes);
        fprintf(f, "],\n     \"sent_outside_world\": {\"msgs\": %llu, \"bytes\": %llu}}%s\n",
                (unsigned long long)r_other(x).msgs, (unsigned long long)r_other(x).bytes,
                r + 1 < world_size ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
}

void gompi_prof_finish(void)
{
    if (!started)
        return;
    started = 0;
    uint64_t dns = mono_ns() - ns0, dt = prof_now() - tick0;
    double ns_per_tick = dt ? (double)dns / (double)dt : 1.0;
    size_t len = record_len();
    uint64_t *mine = calloc(len, sizeof(uint64_t)), *all = NULL;
    if (mine == NULL)
        return;
    mine[0] = dns;
    for (int f = 0; f < gompi_prof_nfuncs; f++) {
        mine[1 + f] = gompi_prof_fns[f].calls;
        prof_fn *fn = &gompi_prof_fns[f];
        double ticks = (double)fn->ticks;
        if (fn->calls > PROF_EXACT && fn->stimed)
            ticks += (double)fn->sticks * (double)(fn->calls - PROF_EXACT) / (double)fn->stimed;
        mine[1 + gompi_prof_nfuncs + f] = (uint64_t)(ticks * ns_per_tick);
    }
    uint64_t *t = mine + 1 + 2 * (size_t)gompi_prof_nfuncs;
    for (int c = 0; c < NCLASS; c++, t += 2)
        t[0] = by_class[c].msgs, t[1] = by_class[c].bytes;
    t[0] = other.msgs, t[1] = other.bytes, t += 2;
    for (int p = 0; p < world_size; p++, t += 2)
        t[0] = by_peer[p].msgs, t[1] = by_peer[p].bytes;
    if (world_rank == 0)
        all = malloc(len * (size_t)world_size * sizeof(uint64_t));
    MPI_Comm c;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &c) == MPI_SUCCESS) {
        /* A rank 0 without memory still takes part, receiving nothing. */
        int ok = world_rank != 0 || all != NULL;
        PMPI_Bcast(&ok, 1, MPI_INT, 0, c);
        if (ok && PMPI_Gather(mine, (int)len, MPI_UINT64_T, all, (int)len, MPI_UINT64_T, 0, c) == MPI_SUCCESS &&
            world_rank == 0) {
            print_table(all, len);
            const char *dir = getenv("GOMPI_PROFILE");
            if (dir && strcmp(dir, "1") != 0 && dir[0] != 0)
                write_json(dir, all, len);
        }
        PMPI_Comm_free(&c);
    }
    free(mine);
    free(all);
}
