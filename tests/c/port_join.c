//go:build ignore

/* gompi-test: np=2,4 timeout=60 */
/* MPI_Comm_join over a TCP loopback connection: ranks pair up (0-1, 2-3);
 * the even rank listens on an ephemeral port it sends to its partner,
 * which connects; both join over their descriptor, exchange messages over
 * the 1+1 intercommunicator, merge it (the accepting side first) and
 * disconnect. The descriptors stay open and usable by the program. */
#include <arpa/inet.h>
#include <mpi.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    int even = wrank % 2 == 0, partner = even ? wrank + 1 : wrank - 1;
    int fd = -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (even) {
        int ls = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(ls >= 0, "socket");
        CHECK(bind(ls, (struct sockaddr *)&a, sizeof a) == 0, "bind");
        CHECK(listen(ls, 1) == 0, "listen");
        socklen_t len = sizeof a;
        getsockname(ls, (struct sockaddr *)&a, &len);
        int portno = ntohs(a.sin_port);
        MPI_Send(&portno, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
        fd = accept(ls, NULL, NULL);
        close(ls);
    } else {
        int portno;
        MPI_Recv(&portno, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        a.sin_port = htons((unsigned short)portno);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect");
    }
    CHECK(fd >= 0, "no connection");
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_join(fd, &ic));
    int inter = 0, size = 0, rsize = 0;
    MPI_Comm_test_inter(ic, &inter);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(inter && size == 1 && rsize == 1, "inter %d size %d remote %d", inter, size, rsize);
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&wrank, 1, MPI_INT, 0, 9, &got, 1, MPI_INT, 0, 9, ic, MPI_STATUS_IGNORE));
    CHECK(got == partner, "joined peer sent %d, want %d", got, partner);
    MPI_Comm m;
    CHECK_MPI(MPI_Intercomm_merge(ic, !even, &m));
    int mrank;
    MPI_Comm_rank(m, &mrank);
    CHECK(mrank == !even, "merged rank %d", mrank);
    MPI_Comm_free(&m);
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    /* The descriptor is still ours. */
    char c = even ? 'e' : 'o', back = 0;
    CHECK(write(fd, &c, 1) == 1, "write after join");
    CHECK(read(fd, &back, 1) == 1 && back == (even ? 'o' : 'e'), "read after join gave %c", back);
    close(fd);
    MPI_Finalize();
    return check_status();
}
