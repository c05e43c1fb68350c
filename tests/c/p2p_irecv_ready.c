//go:build ignore

/* gompi-test: np=2,3 timeout=60 */
/* Receives posted after their messages arrived (MPI_Irecv may finish them at
 * once): every completion call must handle such requests: Wait, Test,
 * Waitall, Testall, Waitany, Testany, Waitsome, Testsome, Request_get_status
 * (which leaves the request), Request_free, Cancel (a no-op on a finished
 * receive), mixed with requests still pending; statuses give source, tag
 * and count; payloads arrive intact and in order. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define N 64

static int rank, size;

static void check_msg(const int *buf, int len, int k, const MPI_Status *st, int src, const char *how) {
    CHECK(buf[0] == k && buf[len - 1] == k * 7, "%s: message %d holds %d..%d", how, k, buf[0], buf[len - 1]);
    if (st) {
        int cnt = -1;
        MPI_Get_count(st, MPI_INT, &cnt);
        CHECK(st->MPI_SOURCE == src && st->MPI_TAG == k % 5 && cnt == len, "%s: message %d status %d/%d/%d", how, k,
              st->MPI_SOURCE, st->MPI_TAG, cnt);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    int len = 3 + rank % 2, buf[N][4];
    if (rank == 0) {
        for (int k = 0; k < N; k++) {
            int msg[4] = {k, k * 7, k * 7, k * 7};
            for (int d = 1; d < size; d++)
                CHECK_MPI(MPI_Send(msg, 3 + d % 2, MPI_INT, d, k % 5, MPI_COMM_WORLD));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        /* a last one after the receiver posted its receive */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        int late[4] = {N, N * 7, N * 7, N * 7};
        for (int d = 1; d < size; d++)
            CHECK_MPI(MPI_Send(late, 3 + d % 2, MPI_INT, d, N % 5, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every message is in the ring now */
        MPI_Request q[N + 1];
        MPI_Status st[N + 1];
        memset(buf, 0, sizeof buf);
        for (int k = 0; k < N; k++)
            CHECK_MPI(MPI_Irecv(buf[k], len, MPI_INT, 0, k % 5, MPI_COMM_WORLD, &q[k]));
        int late[4] = {0};
        CHECK_MPI(MPI_Irecv(late, len, MPI_INT, 0, N % 5, MPI_COMM_WORLD, &q[N]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        int flag = 0, idx = -1, out = -1, ids[N + 1];
        /* get_status leaves the request; cancel on a finished receive does nothing */
        CHECK_MPI(MPI_Request_get_status(q[0], &flag, &st[0]));
        CHECK(flag == 1 && q[0] != MPI_REQUEST_NULL, "get_status: flag %d", flag);
        CHECK_MPI(MPI_Cancel(&q[0]));
        CHECK_MPI(MPI_Wait(&q[0], &st[0]));
        check_msg(buf[0], len, 0, &st[0], 0, "wait");
        int cancelled = 1;
        MPI_Test_cancelled(&st[0], &cancelled);
        CHECK(!cancelled, "a finished receive reads as cancelled");
        CHECK_MPI(MPI_Test(&q[1], &flag, &st[1]));
        CHECK(flag && q[1] == MPI_REQUEST_NULL, "test: flag %d", flag);
        check_msg(buf[1], len, 1, &st[1], 0, "test");
        CHECK_MPI(MPI_Waitany(3, &q[2], &idx, &st[2]));
        CHECK(idx >= 0, "waitany index %d", idx);
        check_msg(buf[2 + idx], len, 2 + idx, &st[2], 0, "waitany");
        CHECK_MPI(MPI_Testany(3, &q[2], &idx, &flag, &st[2]));
        CHECK(flag && idx >= 0, "testany flag %d index %d", flag, idx);
        check_msg(buf[2 + idx], len, 2 + idx, &st[2], 0, "testany");
        CHECK_MPI(MPI_Request_free(&q[5]));
        CHECK(q[5] == MPI_REQUEST_NULL, "request_free left a handle");
        CHECK_MPI(MPI_Waitsome(4, &q[6], &out, ids, st));
        CHECK(out >= 1, "waitsome completed %d", out);
        for (int i = 0; i < out; i++)
            check_msg(buf[6 + ids[i]], len, 6 + ids[i], &st[i], 0, "waitsome");
        CHECK_MPI(MPI_Testsome(4, &q[6], &out, ids, st));
        for (int i = 0; i < out; i++)
            check_msg(buf[6 + ids[i]], len, 6 + ids[i], &st[i], 0, "testsome");
        MPI_Status st2[N + 1];
        CHECK_MPI(MPI_Testall(N + 1 - 10, &q[10], &flag, st2));
        CHECK_MPI(MPI_Waitall(N + 1, q, st));
        for (int k = 10; k < N; k++)
            if (flag == 0)
                check_msg(buf[k], len, k, &st[k], 0, "waitall");
            else
                check_msg(buf[k], len, k, NULL, 0, "testall");
        check_msg(late, len, N, flag ? NULL : &st[N], 0, "late");
        /* the remaining pairs of Waitany/Testany and Waitsome/Testsome were finished */
        for (int k = 2; k < 10; k++)
            if (k != 5)
                check_msg(buf[k], len, k, NULL, 0, "any/some");
    }
    MPI_Finalize();
    return check_status();
}
