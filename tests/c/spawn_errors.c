//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Bad input to the dynamic-process calls gets the standard's error classes
 * (MPI_ERRORS_RETURN): a command that does not exist, a non-positive
 * maxprocs, a foreign host, a missing wdir and an unusable soft value give
 * MPI_ERR_SPAWN (with every error code set); a bad root MPI_ERR_ROOT; ports
 * that are not ours, closed or malformed MPI_ERR_PORT; an unknown service
 * MPI_ERR_NAME on lookup and MPI_ERR_SERVICE on unpublish, a second publish
 * MPI_ERR_SERVICE; a bad info handle MPI_ERR_INFO, a too long info key
 * MPI_ERR_INFO_KEY; disconnecting MPI_COMM_WORLD MPI_ERR_COMM; joining over
 * a bad descriptor MPI_ERR_ARG. The job still works afterwards. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static void spawn_fails(const char *cmd, int np, MPI_Info info, const char *what) {
    MPI_Comm ic = MPI_COMM_WORLD;
    int codes[4] = {0, 0, 0, 0};
    int rc = MPI_Comm_spawn(cmd, MPI_ARGV_NULL, np, info, 0, MPI_COMM_WORLD, &ic, codes);
    CHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_SPAWN, "%s: rc %d class %d", what, rc, err_class(rc));
    CHECK(ic == MPI_COMM_NULL, "%s: intercomm not MPI_COMM_NULL", what);
    for (int i = 0; i < np && i < 4; i++) CHECK(codes[i] == MPI_ERR_SPAWN, "%s: errcode %d is %d", what, i, codes[i]);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    spawn_fails("/nonexistent/gompi-no-such-program", 2, MPI_INFO_NULL, "missing command");
    spawn_fails(argv[0], 0, MPI_INFO_NULL, "maxprocs 0");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", "no-such-host.invalid");
    spawn_fails(argv[0], 1, info, "foreign host");
    MPI_Info_delete(info, "host");
    MPI_Info_set(info, "wdir", "/nonexistent/gompi-no-such-dir");
    spawn_fails(argv[0], 1, info, "missing wdir");
    MPI_Info_delete(info, "wdir");
    MPI_Info_set(info, "soft", "a:b");
    spawn_fails(argv[0], 1, info, "bad soft");
    MPI_Info_free(&info);
    MPI_Comm ic;
    EXPECT_CLASS(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, wsize, MPI_COMM_WORLD, &ic,
                                MPI_ERRCODES_IGNORE),
                 MPI_ERR_ROOT);

    char port[MPI_MAX_PORT_NAME], bogus[MPI_MAX_PORT_NAME];
    snprintf(bogus, sizeof bogus, "gompi:port-%d-999-000000000000", (int)getpid());
    EXPECT_CLASS(MPI_Close_port(bogus), MPI_ERR_PORT);
    EXPECT_CLASS(MPI_Comm_connect(bogus, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT);
    EXPECT_CLASS(MPI_Comm_connect("not a port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT);
    EXPECT_CLASS(MPI_Comm_accept(bogus, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT);
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Close_port(port));
    EXPECT_CLASS(MPI_Close_port(port), MPI_ERR_PORT);
    EXPECT_CLASS(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT);
    EXPECT_CLASS(MPI_Open_port((MPI_Info)0x12345, port), MPI_ERR_INFO);

    char service[64], found[MPI_MAX_PORT_NAME];
    snprintf(service, sizeof service, "gompi-test-spawn-errors-%d", (int)getpid());
    EXPECT_CLASS(MPI_Lookup_name(service, MPI_INFO_NULL, found), MPI_ERR_NAME);
    EXPECT_CLASS(MPI_Unpublish_name(service, MPI_INFO_NULL, "gompi:port-x"), MPI_ERR_SERVICE);
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    EXPECT_CLASS(MPI_Publish_name(service, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    CHECK(strcmp(found, port) == 0, "lookup gave \"%s\", published \"%s\"", found, port);
    CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    EXPECT_CLASS(MPI_Lookup_name(service, MPI_INFO_NULL, found), MPI_ERR_NAME);
    CHECK_MPI(MPI_Close_port(port));

    char longkey[MPI_MAX_INFO_KEY + 8];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = 0;
    MPI_Info_create(&info);
    EXPECT_CLASS(MPI_Info_set(info, longkey, "v"), MPI_ERR_INFO_KEY);
    MPI_Info_free(&info);

    MPI_Comm world = MPI_COMM_WORLD;
    EXPECT_CLASS(MPI_Comm_disconnect(&world), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_join(-1, &ic), MPI_ERR_ARG);

    int one = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == wsize, "allreduce after the errors: %d", sum);
    MPI_Finalize();
    return check_status();
}
