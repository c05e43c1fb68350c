//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* A receive buffer that is too small, under MPI_ERRORS_RETURN: the call
 * returns an error of class MPI_ERR_TRUNCATE, the status names the source and
 * tag, the buffer holds the message's first bytes and nothing past its end is
 * written; the send still completes normally and later messages flow. Checked
 * for eager and rendezvous sizes through Recv, Wait, Test, Waitany, Mrecv and
 * Sendrecv, and through Waitall/Waitsome/Testall, which return
 * MPI_ERR_IN_STATUS with MPI_ERROR set in each status (MPI_SUCCESS, or
 * MPI_ERR_PENDING for a request left active). */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define GUARD 0x3C

static int rank, size;

static unsigned char pat(int i, int seed) { return (unsigned char)(i * 7 + seed * 31 + (i >> 8)); }

/* check_trunc checks the error, status and buffer of a truncated receive of
 * a len-byte message with seed into cap bytes. */
static void check_trunc(const char *how, int rc, const MPI_Status *st, const unsigned char *buf, int cap, int len,
                        int src, int tag, int seed) {
    CHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_TRUNCATE,
          "%s: %d bytes into %d: returned %d (class %d), want class MPI_ERR_TRUNCATE", how, len, cap, rc,
          err_class(rc));
    if (st != NULL)
        CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag, "%s: %d into %d: status source %d tag %d, want %d %d",
              how, len, cap, st->MPI_SOURCE, st->MPI_TAG, src, tag);
    for (int i = 0; i < cap; i++)
        if (buf[i] != pat(i, seed)) {
            CHECK(0, "%s: %d into %d: byte %d of the delivered part is 0x%02x, want 0x%02x", how, len, cap, i, buf[i],
                  pat(i, seed));
            break;
        }
    for (int i = cap; i < cap + 64; i++)
        if (buf[i] != GUARD) {
            CHECK(0, "%s: %d into %d: byte %d past the buffer was written", how, len, cap, i);
            break;
        }
}

static unsigned char *sbuf, *rbuf;

static void send_pat(int dst, int len, int tag, int seed) {
    for (int i = 0; i < len; i++)
        sbuf[i] = pat(i, seed);
    int rc = MPI_Send(sbuf, len, MPI_BYTE, dst, tag, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "the send of a message truncated at the receiver returned %d (class %d)", rc,
          err_class(rc));
}

/* then_ok checks that a normal message still flows after a truncation. */
static void then_ok(int peer, int sender) {
    int v = -1;
    if (rank == sender) {
        v = 777;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 99, MPI_COMM_WORLD));
    } else {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &st));
        CHECK(v == 777, "message after a truncation: %d", v);
    }
}

static void pair(int peer) {
    const int lens[][2] = {{100, 50}, {1, 0}, {16384, 16383}, {20000, 1000}, {1 << 20, 100000}, {300000, 0}};
    for (int k = 0; k < 6; k++) {
        int len = lens[k][0], cap = lens[k][1];
        for (int how = 0; how < 6; how++) {
            int seed = k * 10 + how, tag = 10 + how;
            if (rank == peer) {
                send_pat(0, len, tag, seed);
                then_ok(0, peer);
                continue;
            }
            MPI_Status st;
            MPI_Request req;
            MPI_Message msg;
            int rc, flag = 0, idx = -1;
            memset(rbuf, GUARD, (size_t)cap + 64);
            switch (how) {
            case 0:
                rc = MPI_Recv(rbuf, cap, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
                check_trunc("MPI_Recv", rc, &st, rbuf, cap, len, peer, tag, seed);
                break;
            case 1:
                CHECK_MPI(MPI_Irecv(rbuf, cap, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
                rc = MPI_Wait(&req, &st);
                check_trunc("MPI_Wait", rc, &st, rbuf, cap, len, peer, tag, seed);
                CHECK(req == MPI_REQUEST_NULL, "MPI_Wait with an error left the request");
                break;
            case 2:
                CHECK_MPI(MPI_Irecv(rbuf, cap, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req));
                rc = MPI_SUCCESS;
                while (!flag && rc == MPI_SUCCESS)
                    rc = MPI_Test(&req, &flag, &st);
                check_trunc("MPI_Test", rc, &st, rbuf, cap, len, peer, tag, seed);
                break;
            case 3:
                CHECK_MPI(MPI_Irecv(rbuf, cap, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req));
                rc = MPI_Waitany(1, &req, &idx, &st);
                check_trunc("MPI_Waitany", rc, &st, rbuf, cap, len, peer, tag, seed);
                CHECK(idx == 0, "MPI_Waitany index %d", idx);
                break;
            case 4:
                CHECK_MPI(MPI_Mprobe(peer, tag, MPI_COMM_WORLD, &msg, &st));
                rc = MPI_Mrecv(rbuf, cap, MPI_BYTE, &msg, &st);
                check_trunc("MPI_Mrecv", rc, &st, rbuf, cap, len, peer, tag, seed);
                break;
            case 5: {
                int zero = 0;
                rc = MPI_Sendrecv(&zero, 0, MPI_INT, MPI_PROC_NULL, 0, rbuf, cap, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                                  &st);
                check_trunc("MPI_Sendrecv", rc, &st, rbuf, cap, len, peer, tag, seed);
                break;
            }
            }
            then_ok(peer, peer);
        }
    }
}

/* in_status: Waitall/Testall/Waitsome over a good receive, a truncated one
 * and a send; MPI_ERR_IN_STATUS and per-status MPI_ERROR. */
static void in_status(int peer) {
    const int lens[][2] = {{64, 8}, {500000, 4000}};
    for (int k = 0; k < 2; k++) {
        int len = lens[k][0], cap = lens[k][1];
        for (int how = 0; how < 3; how++) {
            int seed = 100 + k * 10 + how;
            if (rank == peer) {
                int v = 5, w = -1;
                send_pat(0, 40, 20, seed + 1);
                send_pat(0, len, 21, seed);
                CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(w == 6, "send in a failed Waitall delivered %d", w);
                (void)v;
                then_ok(0, peer);
                continue;
            }
            static unsigned char good[64];
            MPI_Request r[3];
            MPI_Status st[3];
            int six = 6, rc, flag = 0;
            memset(rbuf, GUARD, (size_t)cap + 64);
            for (int i = 0; i < 3; i++) {
                memset(&st[i], 0x55, sizeof st[i]);
                st[i].MPI_ERROR = -12345;
            }
            CHECK_MPI(MPI_Irecv(good, 64, MPI_BYTE, peer, 20, MPI_COMM_WORLD, &r[0]));
            CHECK_MPI(MPI_Irecv(rbuf, cap, MPI_BYTE, peer, 21, MPI_COMM_WORLD, &r[1]));
            CHECK_MPI(MPI_Isend(&six, 1, MPI_INT, peer, 22, MPI_COMM_WORLD, &r[2]));
            const char *name = how == 0 ? "MPI_Waitall" : how == 1 ? "MPI_Testall" : "MPI_Waitsome";
            if (how == 0) {
                rc = MPI_Waitall(3, r, st);
            } else if (how == 1) {
                do
                    rc = MPI_Testall(3, r, &flag, st);
                while (rc == MPI_SUCCESS && !flag);
            } else {
                /* Waitsome until the truncated one shows up; statuses land at outcount positions. */
                int done = 0, seen_err = 0;
                rc = MPI_SUCCESS;
                MPI_Status tmp[3];
                while (done < 3) {
                    int out = 0, idx[3];
                    for (int i = 0; i < 3; i++)
                        tmp[i].MPI_ERROR = -12345;
                    int rc1 = MPI_Waitsome(3, r, &out, idx, tmp);
                    if (rc1 != MPI_SUCCESS) {
                        rc = rc1;
                        CHECK(err_class(rc1) == MPI_ERR_IN_STATUS, "MPI_Waitsome returned class %d, want IN_STATUS",
                              err_class(rc1));
                    }
                    CHECK(out >= 1 && out <= 3, "MPI_Waitsome outcount %d", out);
                    if (out < 1 || out > 3)
                        break;
                    for (int j = 0; j < out; j++) {
                        st[idx[j]] = tmp[j];
                        if (idx[j] == 1)
                            seen_err = 1;
                        else if (rc1 != MPI_SUCCESS)
                            CHECK(tmp[j].MPI_ERROR == MPI_SUCCESS, "MPI_Waitsome: request %d has MPI_ERROR %d", idx[j],
                                  tmp[j].MPI_ERROR);
                    }
                    done += out;
                }
                CHECK(seen_err, "MPI_Waitsome never returned the truncated receive");
            }
            CHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_IN_STATUS, "%s returned %d (class %d), want IN_STATUS",
                  name, rc, err_class(rc));
            check_trunc(name, st[1].MPI_ERROR, &st[1], rbuf, cap, len, peer, 21, seed);
            if (how != 2) {
                CHECK(r[1] == MPI_REQUEST_NULL, "%s: the failed request was not freed", name);
                /* The good ones either completed, or are MPI_ERR_PENDING and still active. */
                for (int i = 0; i < 3; i += 2) {
                    if (st[i].MPI_ERROR == MPI_ERR_PENDING && r[i] != MPI_REQUEST_NULL) {
                        CHECK_MPI(MPI_Wait(&r[i], &st[i]));
                    } else {
                        CHECK(st[i].MPI_ERROR == MPI_SUCCESS && r[i] == MPI_REQUEST_NULL,
                              "%s: good request %d: MPI_ERROR %d, handle %s", name, i, st[i].MPI_ERROR,
                              r[i] == MPI_REQUEST_NULL ? "freed" : "not freed");
                    }
                }
            }
            int count = -1;
            MPI_Get_count(&st[0], MPI_BYTE, &count);
            CHECK(st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 20 && count == 40,
                  "%s: good receive status source %d tag %d count %d", name, st[0].MPI_SOURCE, st[0].MPI_TAG, count);
            for (int i = 0; i < 40; i++)
                if (good[i] != pat(i, seed + 1)) {
                    CHECK(0, "%s: good receive byte %d wrong", name, i);
                    break;
                }
            then_ok(peer, peer);
        }
    }
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    sbuf = malloc(1 << 20);
    rbuf = malloc((1 << 20) + 64);
    for (int p = 1; p < size; p++) {
        if (rank == 0 || rank == p) {
            pair(p);
            in_status(p);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    free(sbuf);
    free(rbuf);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
