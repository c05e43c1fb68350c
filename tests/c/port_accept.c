//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* MPI_Open_port / Publish_name / Lookup_name / Comm_accept / Comm_connect
 * inside one job: the low half accepts on a port published under a name
 * unique to this run, the high half looks it up and connects (through a
 * root that is not rank 0). Traffic both ways, an intercommunicator
 * collective, Intercomm_merge, then disconnect, unpublish and close. A
 * second accept/connect on the same port works too. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    int nlow = wsize / 2, low = wrank < nlow;
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, low, wrank, &half);
    int hrank, hsize;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    char service[64];
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(service, sizeof service, "gompi-test-port-accept-%d", pid);

    char port[MPI_MAX_PORT_NAME] = "";
    if (wrank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME, "port name \"%s\"", port);
        CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int croot = hsize - 1; /* the connecting side's root is its last rank */
    for (int round = 0; round < 2; round++) {
        MPI_Comm ic;
        if (low) {
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &ic));
        } else {
            char found[MPI_MAX_PORT_NAME] = "";
            if (hrank == croot) CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
            CHECK_MPI(MPI_Comm_connect(found, MPI_INFO_NULL, croot, half, &ic));
        }
        int rsize = 0;
        MPI_Comm_remote_size(ic, &rsize);
        CHECK(rsize == (low ? wsize - nlow : nlow), "remote size %d", rsize);
        /* Every process sends its world rank to every remote process. */
        for (int r = 0; r < rsize; r++) CHECK_MPI(MPI_Send(&wrank, 1, MPI_INT, r, 5, ic));
        for (int r = 0; r < rsize; r++) {
            int got = -1;
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, r, 5, ic, MPI_STATUS_IGNORE));
            CHECK(got == (low ? nlow + r : r), "remote %d sent %d", r, got);
        }
        int sum = 0;
        CHECK_MPI(MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic));
        int want = 0;
        for (int r = 0; r < wsize; r++) if ((r < nlow) != low) want += r;
        CHECK(sum == want, "intercomm allreduce %d, want %d", sum, want);
        MPI_Comm m;
        CHECK_MPI(MPI_Intercomm_merge(ic, !low, &m));
        int mrank;
        MPI_Comm_rank(m, &mrank);
        CHECK(mrank == wrank, "merged rank %d, world rank %d", mrank, wrank);
        MPI_Comm_free(&m);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Close_port(port));
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    return check_status();
}
