//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* The MPI-4 sessions model alone, as OSU 7.4's startup benchmarks use it:
 * MPI_Session_init (thread_level hint) / get_info / psets / pset info,
 * MPI_Group_from_session_pset for mpi://WORLD and mpi://SELF,
 * MPI_Comm_create_from_group, communication on the new communicators, and
 * the whole cycle repeated three times. MPI_Initialized stays false
 * throughout (MPI-4 11.2.2); the runtime stops at exit. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void cycle(int round) {
    MPI_Info hints;
    CHECK_MPI(MPI_Info_create(&hints));
    CHECK_MPI(MPI_Info_set(hints, "thread_level", "MPI_THREAD_FUNNELED"));
    MPI_Session s = MPI_SESSION_NULL;
    CHECK_MPI(MPI_Session_init(hints, MPI_ERRORS_RETURN, &s));
    CHECK(s != MPI_SESSION_NULL, "no session");
    CHECK_MPI(MPI_Info_free(&hints));

    int flag = -1;
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized is %d with only a session open", flag);

    MPI_Info used;
    char val[MPI_MAX_INFO_VAL + 1];
    CHECK_MPI(MPI_Session_get_info(s, &used));
    CHECK_MPI(MPI_Info_get(used, "thread_level", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(flag && strcmp(val, "MPI_THREAD_FUNNELED") == 0, "thread_level flag %d %s", flag, val);
    CHECK_MPI(MPI_Info_free(&used));

    int np = -1;
    CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &np));
    CHECK(np >= 2, "%d psets", np);
    int seen_world = 0, seen_self = 0;
    for (int i = 0; i < np; i++) {
        int len = 0;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "pset %d length %d", i, len);
        char *name = malloc(len);
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK((int)strlen(name) == len - 1, "pset %d: %s length %d", i, name, len);
        seen_world |= strcmp(name, "mpi://WORLD") == 0;
        seen_self |= strcmp(name, "mpi://SELF") == 0;
        free(name);
    }
    CHECK(seen_world && seen_self, "psets lack mpi://WORLD (%d) or mpi://SELF (%d)", seen_world, seen_self);

    /* A short buffer gets a truncated, terminated name. */
    char small[5];
    int len = sizeof small;
    CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, small));
    CHECK(strlen(small) == 4, "truncated name %s", small);

    MPI_Info pinfo;
    CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &pinfo));
    CHECK_MPI(MPI_Info_get(pinfo, "mpi_size", MPI_MAX_INFO_VAL, val, &flag));
    int wsize = flag ? atoi(val) : -1;
    CHECK(wsize == atoi(getenv("GOMPI_TEST_NP")), "mpi://WORLD mpi_size %s", val);
    CHECK_MPI(MPI_Info_free(&pinfo));
    CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://SELF", &pinfo));
    CHECK_MPI(MPI_Info_get(pinfo, "mpi_size", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(flag && strcmp(val, "1") == 0, "mpi://SELF mpi_size %s", val);
    CHECK_MPI(MPI_Info_free(&pinfo));

    MPI_Group wg, sg;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &wg));
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &sg));
    int gsize, grank;
    MPI_Group_size(wg, &gsize);
    MPI_Group_rank(wg, &grank);
    check_rank = grank;
    CHECK(gsize == wsize, "world group size %d", gsize);
    MPI_Group_size(sg, &gsize);
    CHECK(gsize == 1, "self group size %d", gsize);

    MPI_Comm wc, sc;
    CHECK_MPI(MPI_Comm_create_from_group(wg, "org.gompi.test.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &wc));
    CHECK_MPI(MPI_Comm_create_from_group(sg, "org.gompi.test.self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    int r, n;
    MPI_Comm_rank(wc, &r);
    MPI_Comm_size(wc, &n);
    CHECK(r == grank && n == wsize, "world comm rank %d size %d", r, n);
    int ns;
    MPI_Comm_size(sc, &ns);
    CHECK(ns == 1, "self comm size %d", ns);
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(wc, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "errhandler %#x", eh);

    /* Traffic: a ring and an allreduce. */
    int sum = 0, mine = r + round;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, wc));
    CHECK(sum == n * (n - 1) / 2 + n * round, "allreduce %d", sum);
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 7, &got, 1, MPI_INT, (r + n - 1) % n, 7, wc,
                           MPI_STATUS_IGNORE));
    CHECK(got == (r + n - 1) % n, "ring got %d", got);

    /* Error classes under MPI_ERRORS_RETURN. */
    EXPECT_CLASS(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &sg), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, np, &len, small), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Session_get_pset_info(s, "bogus", &pinfo), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc),
                 MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc),
                 MPI_ERR_GROUP);

    CHECK_MPI(MPI_Comm_free(&wc));
    CHECK_MPI(MPI_Comm_free(&sc));
    CHECK_MPI(MPI_Group_free(&wg));
    CHECK_MPI(MPI_Group_free(&sg));
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "session not reset");
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized is %d after the session", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 0, "MPI_Finalized is %d after the session", flag);
}

int main(void) {
    for (int round = 0; round < 3; round++)
        cycle(round);
    return check_status();
}
