//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* The tools interface: MPI_T_init_thread before MPI_Init (reference
 * counted), every control variable, performance variable and category
 * enumerated with sane names, types and descriptions, a control variable
 * written before MPI_Init taking effect (GOMPI_EAGER_LIMIT: a message above
 * the new limit goes by rendezvous), counters read around a known exchange,
 * the wait timer, queue levels, and the error classes of bad indices,
 * handles and sessions. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* MPI_T calls return the error class itself. */
#define EXPECT_T(call, cls)                                                                \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        CHECK(rc_ == (cls), "%s returned %d, want %s (%d)", #call, rc_, #cls, (int)(cls)); \
    } while (0)

static int pvar(const char *name, int cls) {
    int i = -1;
    CHECK_MPI(MPI_T_pvar_get_index(name, cls, &i));
    return i;
}

static void enumerate(void) {
    int n = 0;
    CHECK_MPI(MPI_T_cvar_get_num(&n));
    CHECK(n >= 30, "only %d cvars", n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int nl = sizeof name, dl = sizeof desc, verb, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum en;
        CHECK_MPI(MPI_T_cvar_get_info(i, name, &nl, &verb, &dt, &en, desc, &dl, &bind, &scope));
        CHECK(strncmp(name, "GOMPI_", 6) == 0 && nl == (int)strlen(name) + 1, "cvar %d name %s len %d", i, name, nl);
        CHECK(dl > 20 && dl == (int)strlen(desc) + 1, "cvar %s desc '%s'", name, desc);
        CHECK(dt == MPI_INT || dt == MPI_CHAR, "cvar %s type", name);
        CHECK(bind == MPI_T_BIND_NO_OBJECT, "cvar %s bind", name);
        CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ, "cvar %s scope %d", name, scope);
        CHECK(verb >= MPI_T_VERBOSITY_USER_BASIC && verb <= MPI_T_VERBOSITY_MPIDEV_ALL, "cvar %s verbosity", name);
        int idx = -1;
        CHECK_MPI(MPI_T_cvar_get_index(name, &idx));
        CHECK(idx == i, "cvar %s index %d, want %d", name, idx, i);
        if (en != MPI_T_ENUM_NULL) {
            int items = 0;
            char ename[256];
            int el = sizeof ename;
            CHECK_MPI(MPI_T_enum_get_info(en, &items, ename, &el));
            CHECK(items >= 2 && strcmp(ename, name) == 0, "enum of %s: %d items, name %s", name, items, ename);
            for (int k = 0; k < items; k++) {
                int v = -1;
                char iname[64];
                int il = sizeof iname;
                CHECK_MPI(MPI_T_enum_get_item(en, k, &v, iname, &il));
                CHECK(v == k && il > 1, "enum %s item %d", name, k);
            }
            EXPECT_T(MPI_T_enum_get_item(en, items, NULL, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
        }
        /* every cvar can be read */
        MPI_T_cvar_handle h;
        int count = 0;
        CHECK_MPI(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        char buf[4096];
        CHECK_MPI(MPI_T_cvar_read(h, buf));
        CHECK_MPI(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar handle not nulled");
    }
    CHECK_MPI(MPI_T_pvar_get_num(&n));
    CHECK(n >= 25, "only %d pvars", n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int nl = sizeof name, dl = sizeof desc, verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum en;
        CHECK_MPI(MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &en, desc, &dl, &bind, &ro, &cont, &atomic));
        CHECK(nl > 3 && dl > 20, "pvar %d: name %s desc %s", i, name, desc);
        CHECK(cls >= MPI_T_PVAR_CLASS_STATE && cls <= MPI_T_PVAR_CLASS_GENERIC, "pvar %s class", name);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG || (dt == MPI_DOUBLE && cls == MPI_T_PVAR_CLASS_TIMER), "pvar %s type", name);
        CHECK(ro == cont, "pvar %s readonly %d continuous %d", name, ro, cont);
        int idx = -1;
        CHECK_MPI(MPI_T_pvar_get_index(name, cls, &idx));
        CHECK(idx == i, "pvar %s index", name);
    }
    CHECK_MPI(MPI_T_category_get_num(&n));
    CHECK(n >= 3, "only %d categories", n);
    int total_cv = 0, total_pv = 0;
    for (int i = 0; i < n; i++) {
        char name[256], desc[256];
        int nl = sizeof name, dl = sizeof desc, ncv, npv, ncat;
        CHECK_MPI(MPI_T_category_get_info(i, name, &nl, desc, &dl, &ncv, &npv, &ncat));
        CHECK(nl > 1 && dl > 5, "category %d", i);
        total_cv += ncv;
        total_pv += npv;
        int *ix = malloc(sizeof(int) * (size_t)(ncv + npv + ncat + 1));
        CHECK_MPI(MPI_T_category_get_cvars(i, ncv, ix));
        CHECK_MPI(MPI_T_category_get_pvars(i, npv, ix));
        CHECK_MPI(MPI_T_category_get_categories(i, ncat, ix));
        for (int k = 0; k < ncat; k++) CHECK(ix[k] >= 0 && ix[k] < n && ix[k] != i, "subcategory %d", ix[k]);
        free(ix);
    }
    int ncv, npv;
    MPI_T_cvar_get_num(&ncv);
    MPI_T_pvar_get_num(&npv);
    CHECK(total_cv == ncv && total_pv == npv, "categories list %d/%d cvars, %d/%d pvars", total_cv, ncv, total_pv, npv);
    int stamp = -1;
    CHECK_MPI(MPI_T_category_changed(&stamp));
}

static void errors(void) {
    int n;
    MPI_T_cvar_get_num(&n);
    char name[64];
    int nl = sizeof name;
    EXPECT_T(MPI_T_cvar_get_info(n, name, &nl, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_T(MPI_T_cvar_get_info(-1, name, &nl, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    MPI_T_pvar_get_num(&n);
    EXPECT_T(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX);
    MPI_T_category_get_num(&n);
    EXPECT_T(MPI_T_category_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    int idx;
    EXPECT_T(MPI_T_cvar_get_index("GOMPI_NO_SUCH", &idx), MPI_T_ERR_INVALID_NAME);
    EXPECT_T(MPI_T_pvar_get_index("pt2pt_eager_msgs", MPI_T_PVAR_CLASS_TIMER, &idx), MPI_T_ERR_INVALID_NAME);
    EXPECT_T(MPI_T_category_get_index("nope", &idx), MPI_T_ERR_INVALID_NAME);
    MPI_T_cvar_handle ch;
    int count;
    EXPECT_T(MPI_T_cvar_handle_alloc(-5, NULL, &ch, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT_T(MPI_T_cvar_read((MPI_T_cvar_handle)(uintptr_t)9999, &count), MPI_T_ERR_INVALID_HANDLE);
    MPI_T_pvar_session s, bad = (MPI_T_pvar_session)(uintptr_t)9999;
    MPI_T_pvar_handle h;
    CHECK_MPI(MPI_T_pvar_session_create(&s));
    EXPECT_T(MPI_T_pvar_handle_alloc(bad, 0, NULL, &h, &count), MPI_T_ERR_INVALID_SESSION);
    EXPECT_T(MPI_T_pvar_handle_alloc(s, 100000, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    unsigned long long v;
    EXPECT_T(MPI_T_pvar_read(s, (MPI_T_pvar_handle)(uintptr_t)9999, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_T(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    /* continuous, read-only level: no start/stop, no write/reset */
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar("queue_unexpected_length", MPI_T_PVAR_CLASS_LEVEL), NULL, &h, &count));
    CHECK(count == 1, "pvar count %d", count);
    EXPECT_T(MPI_T_pvar_start(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT_T(MPI_T_pvar_stop(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT_T(MPI_T_pvar_reset(s, h), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT_T(MPI_T_pvar_write(s, h, &v), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT_T(MPI_T_pvar_readreset(s, h, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_MPI(MPI_T_pvar_read(s, h, &v));
    /* a handle of another session is not this one's */
    MPI_T_pvar_session s2;
    CHECK_MPI(MPI_T_pvar_session_create(&s2));
    EXPECT_T(MPI_T_pvar_read(s2, h, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_MPI(MPI_T_pvar_session_free(&s2));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &h));
    CHECK(h == MPI_T_PVAR_HANDLE_NULL, "pvar handle not nulled");
    EXPECT_T(MPI_T_pvar_handle_free(s, &h), MPI_T_ERR_INVALID_HANDLE);
    CHECK_MPI(MPI_T_pvar_session_free(&s));
    CHECK(s == MPI_T_PVAR_SESSION_NULL, "session not nulled");
    EXPECT_T(MPI_T_pvar_session_free(&bad), MPI_T_ERR_INVALID_SESSION);
    /* settings are read at MPI_Init: no writes after it */
    CHECK_MPI(MPI_T_cvar_get_index("GOMPI_EAGER_LIMIT", &idx));
    CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &ch, &count));
    int x = 1000;
    EXPECT_T(MPI_T_cvar_write(ch, &x), MPI_T_ERR_CVAR_SET_NEVER);
    MPI_T_cvar_handle_free(&ch);
}

/* counters: start a handle per counter, run a known exchange, check the
 * deltas. With GOMPI_EAGER_LIMIT written to 4096 before MPI_Init, 1 KiB
 * messages go immediate and 8 KiB ones (eager by default) by rendezvous. */
static void counters(void) {
    const char *names[] = {"pt2pt_immediate_msgs", "pt2pt_immediate_bytes", "pt2pt_eager_msgs", "pt2pt_eager_bytes",
                           "pt2pt_rndv_get_msgs", "pt2pt_pipelined_msgs", "pt2pt_rndv_get_bytes", "pt2pt_pipelined_bytes",
                           "shm_coll_barrier_slots"};
    enum { N = sizeof names / sizeof names[0] };
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[N], tw;
    unsigned long long v[N];
    int count;
    CHECK_MPI(MPI_T_pvar_session_create(&s));
    for (int i = 0; i < N; i++) CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar(names[i], MPI_T_PVAR_CLASS_COUNTER), NULL, &h[i], &count));
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar("wait_time", MPI_T_PVAR_CLASS_TIMER), NULL, &tw, &count));
    CHECK_MPI(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    enum { SMALL = 1024, BIG = 8192, REPS = 10 }; /* 8 KiB: eager by default */
    char *buf = calloc(1, BIG);
    if (size > 1) {
        if (rank == 0) {
            for (int i = 0; i < REPS; i++) MPI_Send(buf, SMALL, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            for (int i = 0; i < REPS; i++) MPI_Send(buf, BIG, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        } else if (rank == 1) {
            for (int i = 0; i < REPS; i++) MPI_Recv(buf, SMALL, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < REPS; i++) MPI_Recv(buf, BIG, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    for (int i = 0; i < 3; i++) MPI_Barrier(MPI_COMM_WORLD); /* shared-memory barriers (C side) */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(dup); /* and one from Go */
    CHECK_MPI(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_Comm_free(&dup);
    for (int i = 0; i < N; i++) CHECK_MPI(MPI_T_pvar_read(s, h[i], &v[i]));
    if (size > 1) CHECK(v[8] == 4, "shm_coll_barrier_slots counted %llu of 4 barriers", v[8]);
    /* stopped: more traffic does not count */
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned long long again;
    CHECK_MPI(MPI_T_pvar_read(s, h[0], &again));
    CHECK(again == v[0], "stopped counter moved %llu -> %llu", v[0], again);
    if (rank == 0 && size > 1) {
        /* 10 small messages, immediate (C fast path or Go) or eager */
        CHECK(v[0] + v[2] >= REPS, "immediate %llu + eager %llu < %d", v[0], v[2], REPS);
        CHECK(v[1] + v[3] >= (unsigned long long)REPS * SMALL, "immediate/eager bytes %llu + %llu", v[1], v[3]);
        CHECK(v[3] < (unsigned long long)BIG, "8 KiB messages went eager (%llu bytes) past a 4 KiB eager limit", v[3]);
    }
    if (rank == 1) {
        CHECK(v[4] + v[5] == REPS, "rendezvous get %llu + pipelined %llu, want %d", v[4], v[5], REPS);
        CHECK(v[6] + v[7] == (unsigned long long)REPS * BIG, "rendezvous bytes %llu + %llu", v[6], v[7]);
    }
    /* reset and write */
    CHECK_MPI(MPI_T_pvar_reset(s, h[0]));
    CHECK_MPI(MPI_T_pvar_read(s, h[0], &again));
    CHECK(again == 0, "reset counter reads %llu", again);
    unsigned long long w = 42;
    CHECK_MPI(MPI_T_pvar_write(s, h[0], &w));
    CHECK_MPI(MPI_T_pvar_readreset(s, h[0], &again));
    CHECK(again == 42, "written counter reads %llu", again);
    CHECK_MPI(MPI_T_pvar_read(s, h[0], &again));
    CHECK(again == 0, "readreset left %llu", again);
    /* the wait timer: rank 0 waits for rank 1, which spins first (on a
     * duplicate: the C fast path's own polling before it hands a wait to Go
     * is not timed) */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_MPI(MPI_T_pvar_start(s, tw));
    if (size > 1 && rank < 2) {
        if (rank == 1) {
            double t = MPI_Wtime();
            while (MPI_Wtime() - t < 0.05) {
            }
            MPI_Send(buf, 1, MPI_BYTE, 0, 3, dup);
        } else {
            MPI_Recv(buf, 1, MPI_BYTE, 1, 3, dup, MPI_STATUS_IGNORE);
        }
    }
    CHECK_MPI(MPI_T_pvar_stop(s, tw));
    MPI_Comm_free(&dup);
    double secs = -1;
    CHECK_MPI(MPI_T_pvar_read(s, tw, &secs));
    if (size > 1 && rank == 0) CHECK(secs > 0.01 && secs < 30, "wait_time %g s", secs);
    CHECK(secs >= 0, "wait_time %g", secs);
    CHECK_MPI(MPI_T_pvar_session_free(&s));
    free(buf);
}

/* Queue levels: unexpected messages raise the length and the peak. */
static void queues(void) {
    if (size < 2) return;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle len, peak;
    int count;
    MPI_T_pvar_session_create(&s);
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar("queue_unexpected_length", MPI_T_PVAR_CLASS_LEVEL), NULL, &len, &count));
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, pvar("queue_unexpected_peak", MPI_T_PVAR_CLASS_HIGHWATERMARK), NULL, &peak, &count));
    int x[5] = {0};
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* not the C fast path's communicator */
    if (rank == 1)
        for (int i = 0; i < 5; i++) MPI_Send(&x[i], 1, MPI_INT, 0, 7, dup);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        unsigned long long l = 0, p = 0;
        for (int tries = 0; tries < 100000 && l < 5; tries++) {
            int flag;
            MPI_Iprobe(1, 99, dup, &flag, MPI_STATUS_IGNORE); /* progress */
            MPI_T_pvar_read(s, len, &l);
        }
        MPI_T_pvar_read(s, peak, &p);
        CHECK(l >= 5 && p >= l, "unexpected length %llu peak %llu", l, p);
        for (int i = 0; i < 5; i++) MPI_Recv(&x[i], 1, MPI_INT, 1, 7, dup, MPI_STATUS_IGNORE);
        MPI_T_pvar_read(s, len, &l);
        CHECK(l == 0, "unexpected length %llu after the receives", l);
    }
    MPI_Comm_free(&dup);
    MPI_T_pvar_session_free(&s);
}

int main(int argc, char **argv) {
    int provided = -1, idx, count;
    /* before MPI_Init: initialise twice, write a cvar, read it back */
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(provided == MPI_THREAD_SINGLE, "MPI_T provided %d", provided);
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_MPI(MPI_T_cvar_get_index("GOMPI_EAGER_LIMIT", &idx));
    MPI_T_cvar_handle ch;
    CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &ch, &count));
    int v = 0;
    CHECK_MPI(MPI_T_cvar_read(ch, &v));
    CHECK(v == 65536, "GOMPI_EAGER_LIMIT default reads %d", v);
    v = 4096;
    CHECK_MPI(MPI_T_cvar_write(ch, &v));
    v = 0;
    CHECK_MPI(MPI_T_cvar_read(ch, &v));
    CHECK(v == 4096, "GOMPI_EAGER_LIMIT reads %d after a write of 4096", v);
    CHECK_MPI(MPI_T_cvar_handle_free(&ch));
    /* a string and an enum */
    CHECK_MPI(MPI_T_cvar_get_index("GOMPI_COLL_BARRIER", &idx));
    CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &ch, &count));
    CHECK_MPI(MPI_T_cvar_read(ch, &v));
    CHECK(v == 0, "GOMPI_COLL_BARRIER reads %d, want 0 (auto)", v);
    v = 1000;
    EXPECT_T(MPI_T_cvar_write(ch, &v), MPI_T_ERR_INVALID);
    CHECK_MPI(MPI_T_cvar_handle_free(&ch));
    CHECK_MPI(MPI_T_finalize());

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    enumerate();
    errors();
    int cls = -1, len = 0;
    char str[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Error_class(MPI_T_ERR_INVALID_HANDLE, &cls));
    CHECK(cls == MPI_T_ERR_INVALID_HANDLE, "MPI_Error_class(MPI_T_ERR_INVALID_HANDLE) = %d", cls);
    CHECK_MPI(MPI_Error_string(MPI_T_ERR_PVAR_NO_WRITE, str, &len));
    CHECK(len > 5, "MPI_Error_string of an MPI_T class: '%s'", str);
    counters();
    queues();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();

    /* usable after MPI_Finalize; not after the last MPI_T_finalize */
    int n = 0;
    CHECK_MPI(MPI_T_pvar_get_num(&n));
    CHECK_MPI(MPI_T_finalize());
    EXPECT_T(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    return check_status();
}
