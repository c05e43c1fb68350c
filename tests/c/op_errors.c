//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Error classes of the reduction-op calls under MPI_ERRORS_RETURN: invalid
 * ops, op/type combinations the standard forbids and MPI_REPLACE/MPI_NO_OP
 * outside one-sided calls give MPI_ERR_OP, bad
 * counts MPI_ERR_COUNT, bad types MPI_ERR_TYPE, NULL/aliased/MPI_IN_PLACE
 * buffers MPI_ERR_BUFFER, NULL pointers MPI_ERR_ARG; no failed call changes
 * the data or the handle it was given. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

#define EXPECT(call, cls)                                                                \
    do {                                                                                 \
        int rc_ = (call);                                                                \
        CHECK(err_class(rc_) == (cls), "%s: class %d (rc %d), want %s", #call,          \
              err_class(rc_), rc_, #cls);                                                \
    } while (0)

static void nop(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)in, (void)inout, (void)len, (void)dt;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    int ia[2] = {1, 2}, ib[2] = {3, 4};
    unsigned char ca[2] = {1, 2}, cb[2] = {3, 4};

    /* Invalid ops. */
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_OP_NULL), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, (MPI_Op)0x12345), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, (MPI_Op)MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, (MPI_Op)0x5800000f), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, (MPI_Op)0x98000fff), MPI_ERR_OP);

    /* Forbidden combinations (MPI-3.1 5.9.2). */
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_LAND), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_DOUBLE, MPI_MAXLOC), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ia, ib, 2, MPI_INT, MPI_MINLOC), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ia, ib, 1, MPI_2INT, MPI_SUM), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ia, ib, 2, MPI_INTEGER, MPI_LAND), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ca, cb, 2, MPI_BYTE, MPI_SUM), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ca, cb, 2, MPI_BYTE, MPI_MAX), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ca, cb, 2, MPI_C_BOOL, MPI_SUM), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ia, ib, 2, MPI_LOGICAL, MPI_BOR), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_C_DOUBLE_COMPLEX, MPI_MAX), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ca, cb, 2, MPI_PACKED, MPI_SUM), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ca, cb, 2, MPI_WCHAR, MPI_MAX), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(ca, cb, 1, MPI_REAL16, MPI_BAND), MPI_ERR_OP);
    /* MPI_REPLACE and MPI_NO_OP are for one-sided accumulates only. */
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_REPLACE), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_NO_OP), MPI_ERR_OP);

    /* Counts, types, buffers. */
    EXPECT(MPI_Reduce_local(a, b, -1, MPI_DOUBLE, MPI_SUM), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    EXPECT(MPI_Reduce_local(a, b, 4, (MPI_Datatype)0x4c0001ff, MPI_SUM), MPI_ERR_TYPE);
    EXPECT(MPI_Reduce_local(NULL, b, 4, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    EXPECT(MPI_Reduce_local(a, NULL, 4, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    EXPECT(MPI_Reduce_local(MPI_IN_PLACE, b, 4, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    EXPECT(MPI_Reduce_local(b, b, 4, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    CHECK(b[0] == 5 && b[3] == 8 && ib[0] == 3 && cb[1] == 4, "a failed call changed the data");
    CHECK_MPI(MPI_Reduce_local(NULL, NULL, 0, MPI_DOUBLE, MPI_SUM));

    /* Op_create, Op_free, Op_commutative. */
    MPI_Op op = MPI_SUM;
    EXPECT(MPI_Op_free(&op), MPI_ERR_OP);
    CHECK(op == MPI_SUM, "failed Op_free changed the handle to %#x", op);
    op = MPI_OP_NULL;
    EXPECT(MPI_Op_free(&op), MPI_ERR_OP);
    EXPECT(MPI_Op_free(NULL), MPI_ERR_ARG);
    EXPECT(MPI_Op_create(nop, 1, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG);
    int commute = 7;
    EXPECT(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP);
    CHECK(commute == 7, "failed Op_commutative wrote %d", commute);
    EXPECT(MPI_Op_commutative(MPI_SUM, NULL), MPI_ERR_ARG);

    CHECK_MPI(MPI_Op_create(nop, 0, &op));
    MPI_Op copy = op;
    CHECK_MPI(MPI_Op_free(&op));
    EXPECT(MPI_Op_free(&copy), MPI_ERR_OP);
    EXPECT(MPI_Op_commutative(copy, &commute), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, copy), MPI_ERR_OP);

    /* User ops accept any datatype. */
    CHECK_MPI(MPI_Op_create(nop, 1, &op));
    CHECK_MPI(MPI_Reduce_local(ca, cb, 2, MPI_BYTE, op));
    CHECK_MPI(MPI_Op_free(&op));

    MPI_Finalize();
    return check_status();
}
