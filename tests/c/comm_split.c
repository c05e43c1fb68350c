//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* Communicator trees: dup and split of MPI_COMM_WORLD, splits of the splits,
 * with traffic on every level checked for isolation (the same tag and peer
 * on two communicators never cross), ranks and sizes by hand, names,
 * Comm_compare results, MPI_UNDEFINED colours, split_type(SHARED), and
 * communicators freed in another order than made. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int wrank, wsize;

/* ring sends this rank's tagged value to the next rank on comm while a
 * different value travels the same way on other; each comes back intact. */
static void ring_isolation(MPI_Comm comm, MPI_Comm other, int salt) {
    int r, n, ro, no;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(other, &ro);
    MPI_Comm_size(other, &no);
    int out = salt * 1000 + r, in = -1, out2 = -salt * 1000 - ro, in2 = 1;
    MPI_Request q[4];
    /* Post the receive on `other` first so a wrong match would steal it. */
    CHECK_MPI(MPI_Irecv(&in2, 1, MPI_INT, (ro + no - 1) % no, 5, other, &q[0]));
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, (r + n - 1) % n, 5, comm, &q[1]));
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, (r + 1) % n, 5, comm, &q[2]));
    CHECK_MPI(MPI_Isend(&out2, 1, MPI_INT, (ro + 1) % no, 5, other, &q[3]));
    MPI_Status sts[4];
    CHECK_MPI(MPI_Waitall(4, q, sts));
    CHECK(in == salt * 1000 + (r + n - 1) % n, "salt %d: got %d on comm", salt, in);
    CHECK(in2 == -salt * 1000 - (ro + no - 1) % no, "salt %d: got %d on other", salt, in2);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;

    MPI_Comm dup, half, quarter, rev, none, shared;
    int r, n, res;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_rank(dup, &r);
    MPI_Comm_size(dup, &n);
    CHECK(r == wrank && n == wsize, "dup rank %d size %d", r, n);
    CHECK_MPI(MPI_Comm_compare(dup, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "compare(dup, world) = %d", res);
    CHECK_MPI(MPI_Comm_compare(dup, dup, &res));
    CHECK(res == MPI_IDENT, "compare(dup, dup) = %d", res);
    ring_isolation(dup, MPI_COMM_WORLD, 1);

    /* Two halves: even and odd world ranks. */
    CHECK_MPI(MPI_Comm_split(dup, wrank % 2, wrank, &half));
    MPI_Comm_rank(half, &r);
    MPI_Comm_size(half, &n);
    CHECK(r == wrank / 2 && n == (wsize + 1 - wrank % 2) / 2, "half rank %d size %d", r, n);
    ring_isolation(half, dup, 2);

    /* Split of a split, keys reversing the order. */
    CHECK_MPI(MPI_Comm_split(half, 0, -r, &quarter));
    {
        int qr, qn;
        MPI_Comm_rank(quarter, &qr);
        MPI_Comm_size(quarter, &qn);
        CHECK(qn == n && qr == n - 1 - r, "quarter rank %d size %d (half %d of %d)", qr, qn, r, n);
        ring_isolation(quarter, half, 3);
        CHECK_MPI(MPI_Comm_compare(quarter, half, &res));
        CHECK(res == (n > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare(quarter, half) = %d", res);
    }

    /* World reversed: same members, other order. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 7, wsize - wrank, &rev));
    MPI_Comm_rank(rev, &r);
    CHECK(r == wsize - 1 - wrank, "rev rank %d", r);
    CHECK_MPI(MPI_Comm_compare(rev, MPI_COMM_WORLD, &res));
    CHECK(res == (wsize > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare(rev, world) = %d", res);
    ring_isolation(rev, quarter, 4);

    /* MPI_UNDEFINED gives MPI_COMM_NULL; the others still get a communicator. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, wrank == 0 ? MPI_UNDEFINED : 1, 0, &none));
    if (wrank == 0) {
        CHECK(none == MPI_COMM_NULL, "rank 0 got a communicator for MPI_UNDEFINED");
    } else {
        MPI_Comm_size(none, &n);
        CHECK(n == wsize - 1, "split without rank 0 has size %d", n);
        ring_isolation(none, MPI_COMM_SELF, 5);
        CHECK_MPI(MPI_Comm_free(&none));
        CHECK(none == MPI_COMM_NULL, "free did not set MPI_COMM_NULL");
    }

    /* One node: split_type(SHARED) holds everyone. */
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, wrank, MPI_INFO_NULL, &shared));
    MPI_Comm_size(shared, &n);
    CHECK(n == wsize, "shared size %d", n);
    CHECK_MPI(MPI_Comm_compare(shared, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "compare(shared, world) = %d", res);

    /* Names: predefined, empty by default, set and read back. */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world name '%s' %d", name, len);
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(len == 0 && name[0] == 0, "dup name '%s'", name);
    CHECK_MPI(MPI_Comm_set_name(dup, "my dup"));
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "my dup") == 0 && len == 6, "dup name '%s'", name);

    int flag = 1;
    CHECK_MPI(MPI_Comm_test_inter(half, &flag));
    CHECK(flag == 0, "half is an intercommunicator");

    /* Free out of creation order; the world still works afterwards. */
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&dup));
    ring_isolation(quarter, rev, 6);
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_free(&quarter));
    CHECK_MPI(MPI_Comm_free(&shared));
    /* Freeing a communicator while a receive is pending on it: the receive
     * still completes, and a communicator made meanwhile stays apart. */
    {
        MPI_Comm tmp, next;
        int pv = -1, sv = 500 + wrank, nv = -1, nsv = 600 + wrank;
        MPI_Request q[2];
        MPI_Status sts[2];
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &tmp));
        CHECK_MPI(MPI_Irecv(&pv, 1, MPI_INT, (wrank + wsize - 1) % wsize, 11, tmp, &q[0]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted before any send */
        CHECK_MPI(MPI_Isend(&sv, 1, MPI_INT, (wrank + 1) % wsize, 11, tmp, &q[1]));
        CHECK_MPI(MPI_Comm_free(&tmp));
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &next));
        CHECK_MPI(MPI_Sendrecv(&nsv, 1, MPI_INT, (wrank + 1) % wsize, 11, &nv, 1, MPI_INT, (wrank + wsize - 1) % wsize,
                               11, next, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Waitall(2, q, sts));
        CHECK(pv == 500 + (wrank + wsize - 1) % wsize, "receive on the freed communicator got %d", pv);
        CHECK(nv == 600 + (wrank + wsize - 1) % wsize, "receive on the next communicator got %d", nv);
        CHECK_MPI(MPI_Comm_free(&next));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return check_status();
}
