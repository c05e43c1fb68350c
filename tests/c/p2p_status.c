//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Status queries: MPI_Get_count, MPI_Get_elements and MPI_Get_elements_x on
 * received messages of basic and pair types (a partial element gives
 * MPI_UNDEFINED), MPI_Status_set_elements and
 * _set_elements_x (also past 2^31 elements, where the int queries give
 * MPI_UNDEFINED), and MPI_Status_set_cancelled with MPI_Test_cancelled. Pair
 * types (MPI_2INT, MPI_DOUBLE_INT, MPI_SHORT_INT) also travel as messages. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int rank, size;

static int count_of(const MPI_Status *st, MPI_Datatype dt) {
    int c = -7;
    CHECK_MPI(MPI_Get_count(st, dt, &c));
    return c;
}
static int elems_of(const MPI_Status *st, MPI_Datatype dt) {
    int c = -7;
    CHECK_MPI(MPI_Get_elements(st, dt, &c));
    return c;
}
static MPI_Count elemsx_of(const MPI_Status *st, MPI_Datatype dt) {
    MPI_Count c = -7;
    CHECK_MPI(MPI_Get_elements_x(st, dt, &c));
    return c;
}

#define EXPECT_Q(what, got, want)                                                                                  \
    CHECK((long long)(got) == (long long)(want), "%s = %lld, want %lld", what, (long long)(got), (long long)(want))

/* received: rank 0 sends rank 1 byte messages of several lengths; rank 1
 * checks the queries in several types. */
static void received(void) {
    static char buf[4096];
    const int lens[] = {0, 1, 4, 6, 8, 12, 40, 42, 48, 4096};
    for (int k = 0; k < 10; k++) {
        int n = lens[k];
        if (rank == 0) {
            CHECK_MPI(MPI_Send(buf, n, MPI_BYTE, 1, k, MPI_COMM_WORLD));
        } else if (rank == 1) {
            MPI_Status st, pst;
            CHECK_MPI(MPI_Probe(0, k, MPI_COMM_WORLD, &pst));
            CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, 0, k, MPI_COMM_WORLD, &st));
            for (int pass = 0; pass < 2; pass++) {
                const MPI_Status *s = pass == 0 ? &st : &pst;
                char w[64];
                snprintf(w, sizeof w, "%s of %d bytes: count in MPI_BYTE", pass ? "probe" : "recv", n);
                EXPECT_Q(w, count_of(s, MPI_BYTE), n);
                snprintf(w, sizeof w, "%d bytes: count in MPI_CHAR", n);
                EXPECT_Q(w, count_of(s, MPI_CHAR), n);
                snprintf(w, sizeof w, "%d bytes: count in MPI_INT", n);
                EXPECT_Q(w, count_of(s, MPI_INT), n % 4 ? MPI_UNDEFINED : n / 4);
                snprintf(w, sizeof w, "%d bytes: elements in MPI_INT", n);
                EXPECT_Q(w, elems_of(s, MPI_INT), n % 4 ? MPI_UNDEFINED : n / 4);
                snprintf(w, sizeof w, "%d bytes: elements_x in MPI_INT", n);
                EXPECT_Q(w, elemsx_of(s, MPI_INT), n % 4 ? MPI_UNDEFINED : n / 4);
                snprintf(w, sizeof w, "%d bytes: count in MPI_DOUBLE", n);
                EXPECT_Q(w, count_of(s, MPI_DOUBLE), n % 8 ? MPI_UNDEFINED : n / 8);
                snprintf(w, sizeof w, "%d bytes: elements_x in MPI_BYTE", n);
                EXPECT_Q(w, elemsx_of(s, MPI_BYTE), n);
                /* MPI_2INT is "as if" MPI_Type_contiguous(2, MPI_INT) (MPI-3.1
                 * 5.9.4): whole pairs have two basic elements each. (Partial pairs
                 * are left out: MPICH and Open MPI disagree on them.) */
                snprintf(w, sizeof w, "%d bytes: count in MPI_2INT", n);
                EXPECT_Q(w, count_of(s, MPI_2INT), n % 8 ? MPI_UNDEFINED : n / 8);
                if (n % 8 == 0) {
                    snprintf(w, sizeof w, "%d bytes: elements in MPI_2INT", n);
                    EXPECT_Q(w, elems_of(s, MPI_2INT), n / 4);
                    snprintf(w, sizeof w, "%d bytes: elements_x in MPI_2INT", n);
                    EXPECT_Q(w, elemsx_of(s, MPI_2INT), n / 4);
                }
            }
        }
    }
}

/* pairs: pair types as message types (MPI_DOUBLE_INT and MPI_SHORT_INT have padding). */
static void pairs(void) {
    struct di {
        double d;
        int i;
    } din[5], dout[5];
    struct si {
        short s;
        int i;
    } sin_[7], sout[7];
    int ii[6], io[6];
    for (int i = 0; i < 5; i++)
        dout[i] = (struct di){i * 1.5, -i};
    for (int i = 0; i < 7; i++)
        sout[i] = (struct si){(short)(i * 3), i * 1000};
    for (int i = 0; i < 6; i++)
        io[i] = i * 11;
    if (rank == 0) {
        CHECK_MPI(MPI_Send(dout, 5, MPI_DOUBLE_INT, 1, 20, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(sout, 7, MPI_SHORT_INT, 1, 21, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(io, 3, MPI_2INT, 1, 22, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Status st;
        memset(din, 0, sizeof din);
        CHECK_MPI(MPI_Recv(din, 5, MPI_DOUBLE_INT, 0, 20, MPI_COMM_WORLD, &st));
        EXPECT_Q("MPI_DOUBLE_INT x5: count", count_of(&st, MPI_DOUBLE_INT), 5);
        EXPECT_Q("MPI_DOUBLE_INT x5: elements", elems_of(&st, MPI_DOUBLE_INT), 10);
        EXPECT_Q("MPI_DOUBLE_INT x5: elements_x", elemsx_of(&st, MPI_DOUBLE_INT), 10);
        for (int i = 0; i < 5; i++)
            CHECK(din[i].d == i * 1.5 && din[i].i == -i, "MPI_DOUBLE_INT %d: %g %d", i, din[i].d, din[i].i);
        memset(sin_, 0, sizeof sin_);
        CHECK_MPI(MPI_Recv(sin_, 7, MPI_SHORT_INT, 0, 21, MPI_COMM_WORLD, &st));
        EXPECT_Q("MPI_SHORT_INT x7: count", count_of(&st, MPI_SHORT_INT), 7);
        EXPECT_Q("MPI_SHORT_INT x7: elements", elems_of(&st, MPI_SHORT_INT), 14);
        for (int i = 0; i < 7; i++)
            CHECK(sin_[i].s == i * 3 && sin_[i].i == i * 1000, "MPI_SHORT_INT %d: %d %d", i, sin_[i].s, sin_[i].i);
        memset(ii, 0, sizeof ii);
        CHECK_MPI(MPI_Recv(ii, 3, MPI_2INT, 0, 22, MPI_COMM_WORLD, &st));
        EXPECT_Q("MPI_2INT x3: count", count_of(&st, MPI_2INT), 3);
        EXPECT_Q("MPI_2INT x3: count in MPI_INT", count_of(&st, MPI_INT), 6);
        EXPECT_Q("MPI_2INT x3: elements", elems_of(&st, MPI_2INT), 6);
        for (int i = 0; i < 6; i++)
            CHECK(ii[i] == i * 11, "MPI_2INT int %d: %d", i, ii[i]);
    }
}

/* set: MPI_Status_set_elements(_x) and _set_cancelled on a local status. */
static void set(void) {
    MPI_Status st;
    int flag = -1;
    memset(&st, 0, sizeof st);
    st.MPI_SOURCE = 3;
    st.MPI_TAG = 4;

    CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 7));
    EXPECT_Q("set_elements(MPI_INT, 7): count in MPI_INT", count_of(&st, MPI_INT), 7);
    EXPECT_Q("set_elements(MPI_INT, 7): count in MPI_BYTE", count_of(&st, MPI_BYTE), 28);
    EXPECT_Q("set_elements(MPI_INT, 7): elements in MPI_INT", elems_of(&st, MPI_INT), 7);
    EXPECT_Q("set_elements(MPI_INT, 7): count in MPI_DOUBLE", count_of(&st, MPI_DOUBLE), MPI_UNDEFINED);
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 4, "set_elements changed source/tag: %d %d", st.MPI_SOURCE,
          st.MPI_TAG);

    CHECK_MPI(MPI_Status_set_elements(&st, MPI_BYTE, 0));
    EXPECT_Q("set_elements(MPI_BYTE, 0): count", count_of(&st, MPI_BYTE), 0);

    /* Past what an int can hold. */
    MPI_Count big = (MPI_Count)3 << 30; /* 3 Gi elements */
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
    EXPECT_Q("set_elements_x(MPI_BYTE, 3Gi): elements_x", elemsx_of(&st, MPI_BYTE), big);
    EXPECT_Q("set_elements_x(MPI_BYTE, 3Gi): count", count_of(&st, MPI_BYTE), MPI_UNDEFINED);
    EXPECT_Q("set_elements_x(MPI_BYTE, 3Gi): elements", elems_of(&st, MPI_BYTE), MPI_UNDEFINED);
    EXPECT_Q("set_elements_x(MPI_BYTE, 3Gi): count in MPI_INT", count_of(&st, MPI_INT), (int)(big / 4));
    MPI_Count huge = (MPI_Count)5 << 31;
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_DOUBLE, huge));
    EXPECT_Q("set_elements_x(MPI_DOUBLE, 10Gi): elements_x", elemsx_of(&st, MPI_DOUBLE), huge);
    EXPECT_Q("set_elements_x(MPI_DOUBLE, 10Gi): elements_x in MPI_BYTE", elemsx_of(&st, MPI_BYTE), huge * 8);
    EXPECT_Q("set_elements_x(MPI_DOUBLE, 10Gi): count", count_of(&st, MPI_DOUBLE), MPI_UNDEFINED);
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, 5));
    EXPECT_Q("set_elements_x(MPI_INT, 5): count", count_of(&st, MPI_INT), 5);

    /* Cancelled flag, independent of the count. */
    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1, "Test_cancelled after set_cancelled(1): %d", flag);
    EXPECT_Q("count after set_cancelled", count_of(&st, MPI_INT), 5);
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1, "set_elements_x cleared the cancelled flag");
    EXPECT_Q("elements_x with the cancelled flag set", elemsx_of(&st, MPI_BYTE), big);
    CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 0, "Test_cancelled after set_cancelled(0): %d", flag);
    EXPECT_Q("elements_x after clearing cancelled", elemsx_of(&st, MPI_BYTE), big);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    received();
    pairs();
    set();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
