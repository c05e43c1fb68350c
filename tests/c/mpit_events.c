//go:build ignore

/* gompi-test: np=1,2,4 timeout=90 */
/* MPI_T events (MPI-4.0 15.3.8): enumerate the event types, their elements
 * and category, the event source and its clock; register callbacks for
 * communicator creation, unexpected messages and rendezvous sends, cause
 * each, and read the instances inside the callbacks (read, copy,
 * timestamp, source). A registration without a callback the library can
 * call drops events and its dropped handler hears of it; a freed
 * registration hears nothing more; bad input gets the MPI_T classes. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

struct seen {
    int count;
    int a, b;          /* first two elements of the last instance */
    MPI_Count bytes;   /* third element (an MPI_COUNT) where there is one */
    MPI_Count ts;
    int source;
    MPI_T_event_instance last;
};

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user) {
    (void)reg;
    struct seen *s = user;
    CHECK(safety >= MPI_T_CB_REQUIRE_MPI_RESTRICTED, "callback called with safety %d", (int)safety);
    s->count++;
    CHECK_MPI(MPI_T_event_read(ev, 0, &s->a));
    CHECK_MPI(MPI_T_event_read(ev, 1, &s->b));
    unsigned char all[64];
    CHECK_MPI(MPI_T_event_copy(ev, all));
    int a2;
    memcpy(&a2, all, sizeof a2);
    CHECK(a2 == s->a, "event_copy's first element %d, event_read's %d", a2, s->a);
    CHECK_MPI(MPI_T_event_get_timestamp(ev, &s->ts));
    CHECK_MPI(MPI_T_event_get_source(ev, &s->source));
    s->last = ev;
}

static void on_event_count(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety safety,
                           void *user) {
    (void)reg, (void)safety;
    struct seen *s = user;
    s->count++;
    CHECK_MPI(MPI_T_event_read(ev, 0, &s->a));
    CHECK_MPI(MPI_T_event_read(ev, 1, &s->b));
    CHECK_MPI(MPI_T_event_read(ev, 2, &s->bytes));
}

static int dropped_total, freed;
static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source, MPI_T_cb_safety safety, void *user) {
    (void)reg, (void)source, (void)safety, (void)user;
    dropped_total += (int)count;
}
static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user) {
    (void)reg, (void)safety;
    freed += *(int *)user;
}

static int event_index(const char *name) {
    int i = -1;
    CHECK_MPI(MPI_T_event_get_index(name, &i));
    return i;
}

int main(int argc, char **argv) {
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* Enumeration. */
    int nev = 0;
    CHECK_MPI(MPI_T_event_get_num(&nev));
    CHECK(nev >= 3, "MPI_T_event_get_num = %d", nev);
    for (int i = 0; i < nev; i++) {
        char name[128], desc[512];
        int nl = sizeof name, dl = sizeof desc, verb, nel = 4, bind;
        MPI_Datatype types[4];
        MPI_Aint displs[4];
        MPI_T_enum en;
        MPI_Info info;
        CHECK_MPI(MPI_T_event_get_info(i, name, &nl, &verb, types, displs, &nel, &en, &info, desc, &dl, &bind));
        CHECK(nel >= 1 && nel <= 4 && strlen(name) > 0 && bind == MPI_T_BIND_NO_OBJECT, "event %d: %s, %d elements", i,
              name, nel);
        int j = -1;
        CHECK_MPI(MPI_T_event_get_index(name, &j));
        CHECK(j == i, "event %s: index %d, want %d", name, j, i);
        MPI_Info_free(&info);
    }
    int ns = 0;
    CHECK_MPI(MPI_T_source_get_num(&ns));
    CHECK(ns == 1, "MPI_T_source_get_num = %d", ns);
    {
        char name[64], desc[256];
        int nl = sizeof name, dl = sizeof desc;
        MPI_T_source_order ord;
        MPI_Count tps = 0, maxt = 0, t0 = 0, t1 = 0;
        MPI_Info info;
        CHECK_MPI(MPI_T_source_get_info(0, name, &nl, desc, &dl, &ord, &tps, &maxt, &info));
        CHECK(ord == MPI_T_SOURCE_ORDERED && tps == 1000000000 && maxt > 0, "source: %s order %d tps %ld", name,
              (int)ord, (long)tps);
        MPI_Info_free(&info);
        CHECK_MPI(MPI_T_source_get_timestamp(0, &t0));
        CHECK_MPI(MPI_T_source_get_timestamp(0, &t1));
        CHECK(t1 >= t0 && t0 > 0, "timestamps %ld then %ld", (long)t0, (long)t1);
    }
    int cat = -1, ncat_ev = 0;
    CHECK_MPI(MPI_T_category_get_index("gompi_events", &cat));
    CHECK_MPI(MPI_T_category_get_num_events(cat, &ncat_ev));
    CHECK(ncat_ev == nev, "category gompi_events lists %d events of %d", ncat_ev, nev);
    int idx[8] = {-1};
    CHECK_MPI(MPI_T_category_get_events(cat, 8, idx));
    CHECK(idx[0] == 0, "first event of the category: %d", idx[0]);

    int ev_comm = event_index("gompi_comm_created");
    int ev_unexp = event_index("gompi_unexpected_message");
    int ev_rndv = event_index("gompi_rendezvous_start");

    /* Communicator creation. */
    struct seen sc = {0}, su = {0}, sr = {0};
    MPI_T_event_registration rc_, ru, rr, rd;
    CHECK_MPI(MPI_T_event_handle_alloc(ev_comm, NULL, MPI_INFO_NULL, &rc_));
    CHECK_MPI(MPI_T_event_register_callback(rc_, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL, &sc, on_event));
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(sc.count == 1, "comm_created seen %d times after MPI_Comm_dup", sc.count);
    CHECK(sc.a == (int)dup && sc.b == n, "comm_created: handle %#x (dup %#x), size %d", sc.a, (unsigned)dup, sc.b);
    CHECK(sc.ts > 0 && sc.source == 0, "comm_created: ts %ld source %d", (long)sc.ts, sc.source);
    /* An instance is valid only inside its callback. */
    int junk;
    CHECK(MPI_T_event_read(sc.last, 0, &junk) == MPI_T_ERR_INVALID_HANDLE, "a stale instance was readable");

    /* A registration with no callback the library can call drops events. */
    CHECK_MPI(MPI_T_event_handle_alloc(ev_comm, NULL, MPI_INFO_NULL, &rd));
    CHECK_MPI(MPI_T_event_register_callback(rd, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &sc, on_event));
    CHECK_MPI(MPI_T_event_set_dropped_handler(rd, on_dropped));
    MPI_Comm dup2;
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK(sc.count == 2 && dropped_total == 1, "after a second dup: %d seen, %d dropped", sc.count, dropped_total);
    int token = 5;
    CHECK_MPI(MPI_T_event_handle_free(rd, &token, on_free));
    CHECK_MPI(MPI_T_event_handle_free(rc_, &token, on_free));
    CHECK(freed == 10, "free callbacks: %d", freed);
    MPI_Comm_free(&dup2);
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK(sc.count == 2, "a freed registration still hears events (%d)", sc.count);
    MPI_Comm_free(&dup2);

    /* Unexpected messages and rendezvous sends (1 MiB, through a peer). */
    CHECK_MPI(MPI_T_event_handle_alloc(ev_unexp, NULL, MPI_INFO_NULL, &ru));
    CHECK_MPI(MPI_T_event_register_callback(ru, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, &su, on_event_count));
    CHECK_MPI(MPI_T_event_handle_alloc(ev_rndv, NULL, MPI_INFO_NULL, &rr));
    CHECK_MPI(MPI_T_event_register_callback(rr, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL, &sr, on_event_count));
    MPI_Info got;
    CHECK_MPI(MPI_T_event_handle_get_info(ru, &got));
    MPI_Info_free(&got);
    CHECK_MPI(MPI_T_event_callback_get_info(ru, MPI_T_CB_REQUIRE_THREAD_SAFE, &got));
    MPI_Info_free(&got);
    MPI_Barrier(dup); /* every rank listens before any sends */
    if (n > 1) {
        const int big = 1 << 20;
        char *buf = calloc(1, big);
        if (r == 0) {
            MPI_Request q;
            CHECK_MPI(MPI_Isend(buf, big, MPI_BYTE, 1, 77, dup, &q));
            MPI_Barrier(dup);
            CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
            CHECK(sr.count >= 1 && sr.a == 1 && sr.b == 77 && sr.bytes == big,
                  "rendezvous_start: %d seen, dest %d tag %d bytes %ld", sr.count, sr.a, sr.b, (long)sr.bytes);
        } else if (r == 1) {
            MPI_Barrier(dup);
            /* No receive is posted until the message is seen: it is queued
             * as unexpected when it arrives. */
            int flag = 0;
            while (!flag) CHECK_MPI(MPI_Iprobe(0, 77, dup, &flag, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(buf, big, MPI_BYTE, 0, 77, dup, MPI_STATUS_IGNORE));
            CHECK(su.count >= 1 && su.a == 0 && su.b == 77 && su.bytes == big,
                  "unexpected_message: %d seen, source %d tag %d bytes %ld", su.count, su.a, su.b, (long)su.bytes);
        } else {
            MPI_Barrier(dup);
        }
        free(buf);
    }
    CHECK_MPI(MPI_T_event_handle_free(ru, NULL, NULL));
    CHECK_MPI(MPI_T_event_handle_free(rr, NULL, NULL));

    /* Bad input. */
    MPI_T_event_registration bad;
    CHECK(MPI_T_event_handle_alloc(nev + 5, NULL, MPI_INFO_NULL, &bad) == MPI_T_ERR_INVALID_INDEX, "bad index");
    int j;
    CHECK(MPI_T_event_get_index("no_such_event", &j) == MPI_T_ERR_INVALID_NAME, "bad name");
    CHECK(MPI_T_event_handle_free(ru, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE, "double free");
    CHECK(MPI_T_source_get_timestamp(3, (MPI_Count *)&j) == MPI_T_ERR_INVALID_INDEX, "bad source");

    MPI_Comm_free(&dup);
    MPI_Finalize();
    MPI_T_finalize();
    return check_status();
}
