/* Two separate gompirun jobs meet through the name service: "server"
 * publishes a port under the service name given as argv[2] and accepts;
 * "client" looks the name up (retrying until the server has published) and
 * connects. Both then exchange messages, run collectives over the
 * intercommunicator and its merge, and disconnect; the MPI_T counters show
 * that the traffic between the jobs went through shared-memory pairs, none
 * through sockets. Run by TestTwoJobs. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    const char *names[2] = {"dyn_sm_pair_frags", "dyn_sock_frags"};
    unsigned long long via[2] = {0, 0};
    int provided, idx, count;
    MPI_T_pvar_session ps;
    MPI_T_pvar_handle ph[2];
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_MPI(MPI_T_pvar_session_create(&ps));
    for (int i = 0; i < 2; i++) {
        CHECK_MPI(MPI_T_pvar_get_index(names[i], MPI_T_PVAR_CLASS_COUNTER, &idx));
        CHECK_MPI(MPI_T_pvar_handle_alloc(ps, idx, NULL, &ph[i], &count));
        CHECK_MPI(MPI_T_pvar_start(ps, ph[i]));
    }
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int server = argc > 2 && strcmp(argv[1], "server") == 0;
    check_rank = (server ? 0 : 100) + wrank;
    CHECK(argc > 2, "usage: twojobs server|client SERVICE");
    const char *service = argv[2];
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm ic;
    if (server) {
        if (wrank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
        }
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    } else {
        if (wrank == 0) {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            int rc = MPI_ERR_NAME;
            for (int i = 0; i < 3000 && rc != MPI_SUCCESS; i++) {
                rc = MPI_Lookup_name(service, MPI_INFO_NULL, port);
                if (rc != MPI_SUCCESS) usleep(10000);
            }
            CHECK(rc == MPI_SUCCESS, "lookup of %s never succeeded", service);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        }
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    }
    int rsize = 0;
    MPI_Comm_remote_size(ic, &rsize);
    for (int r = 0; r < rsize; r++) {
        char msg[64];
        snprintf(msg, sizeof msg, "%s %d", server ? "server" : "client", wrank);
        CHECK_MPI(MPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, r, 1, ic));
    }
    for (int r = 0; r < rsize; r++) {
        char msg[64] = "", want[64];
        CHECK_MPI(MPI_Recv(msg, sizeof msg, MPI_CHAR, r, 1, ic, MPI_STATUS_IGNORE));
        snprintf(want, sizeof want, "%s %d", server ? "client" : "server", r);
        CHECK(strcmp(msg, want) == 0, "got \"%s\", want \"%s\"", msg, want);
    }
    for (int i = 0; i < 2; i++) CHECK_MPI(MPI_T_pvar_read(ps, ph[i], &via[i]));
    CHECK(via[0] >= (unsigned long long)rsize && via[1] == 0, "%llu fragments through pairs, %llu through sockets",
          via[0], via[1]);
    for (int i = 0; i < 2; i++) MPI_T_pvar_handle_free(ps, &ph[i]);
    MPI_T_pvar_session_free(&ps);
    MPI_T_finalize();
    int one = 1, n = 0;
    CHECK_MPI(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, ic));
    CHECK(n == rsize, "intercomm allreduce %d, want %d", n, rsize);
    MPI_Comm m;
    CHECK_MPI(MPI_Intercomm_merge(ic, !server, &m));
    int mrank, msize, sum = 0;
    MPI_Comm_rank(m, &mrank);
    MPI_Comm_size(m, &msize);
    CHECK(mrank == (server ? wrank : rsize + wrank), "merged rank %d", mrank);
    CHECK_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, m));
    CHECK(sum == msize * (msize - 1) / 2, "merged allreduce %d", sum);
    MPI_Comm_free(&m);
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    if (server && wrank == 0) {
        CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Close_port(port));
    }
    printf("%s rank %d done\n", server ? "server" : "client", wrank);
    MPI_Finalize();
    return check_status();
}
