//go:build ignore

/* gompi-test: np=1 timeout=30 */
/* Datatype argument errors under MPI_ERRORS_RETURN: each call returns the
 * standard's class (MPI_ERR_TYPE for invalid, null, predefined-where-derived
 * and uncommitted types, MPI_ERR_COUNT, MPI_ERR_ARG, MPI_ERR_COMM,
 * MPI_ERR_TRUNCATE), has an error string, and leaves outputs alone. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

#define EXPECT(call, cls) expect_(call, cls, #call, __LINE__)
static void expect_(int rc, int want, const char *text, int line) {
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(rc != MPI_SUCCESS && c == want, "line %d: %s returned %d (class %d), want class %d", line, text, rc, c,
          want);
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK(MPI_Error_string(rc, msg, &len) == MPI_SUCCESS && len > 0, "line %d: no error string", line);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    check_rank = 0;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    const MPI_Datatype bad = (MPI_Datatype)0x8c00ffff, forged = (MPI_Datatype)0xcc0fffff;
    MPI_Datatype t = MPI_DATATYPE_NULL, u;
    int bl[2] = {1, -1}, d[2] = {0, 4}, n, i4[4];
    MPI_Aint ad[2] = {0, 8}, lb, ext;
    MPI_Datatype tys[2] = {MPI_INT, bad};

    /* Constructors. */
    EXPECT(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_contiguous(2, bad, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_contiguous(2, forged, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hvector(2, 1, 8, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_indexed(-1, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_indexed(2, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_indexed(2, NULL, d, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_hindexed(2, bl, NULL, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_indexed_block(2, -3, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hindexed_block(1, 1, ad, bad, &t), MPI_ERR_TYPE);
    bl[1] = 1;
    EXPECT(MPI_Type_create_struct(2, bl, ad, tys, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_struct(-1, bl, ad, tys, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_struct(2, bl, ad, NULL, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_resized(bad, 0, 4, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_dup(MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    {
        int sizes[2] = {4, 4}, subs[2] = {5, 1}, starts[2] = {0, 0};
        EXPECT(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
        subs[0] = 2, starts[0] = 3;
        EXPECT(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
        starts[0] = 0;
        EXPECT(MPI_Type_create_subarray(2, sizes, subs, starts, 99, MPI_INT, &t), MPI_ERR_ARG);
        EXPECT(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
        int gs[2] = {8, 8}, di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
            da[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {2, 2};
        EXPECT(MPI_Type_create_darray(3, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
        EXPECT(MPI_Type_create_darray(4, 4, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
        da[0] = 3; /* 3 * 2 < 8 */
        EXPECT(MPI_Type_create_darray(4, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
        di[0] = 777;
        EXPECT(MPI_Type_create_darray(4, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    }
    CHECK(t == MPI_DATATYPE_NULL, "a failed constructor wrote newtype");

    /* Commit, free. */
    EXPECT(MPI_Type_commit(NULL), MPI_ERR_ARG);
    u = MPI_DATATYPE_NULL;
    EXPECT(MPI_Type_commit(&u), MPI_ERR_TYPE);
    u = MPI_INT;
    EXPECT(MPI_Type_free(&u), MPI_ERR_TYPE);
    CHECK(u == MPI_INT, "failed free changed the handle");
    u = MPI_DOUBLE_INT;
    EXPECT(MPI_Type_free(&u), MPI_ERR_TYPE);
    u = MPI_DATATYPE_NULL;
    EXPECT(MPI_Type_free(&u), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_create_f90_real(6, 30, &u));
    EXPECT(MPI_Type_free(&u), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &u));
    MPI_Datatype copy = u;
    CHECK_MPI(MPI_Type_free(&u));
    EXPECT(MPI_Type_free(&copy), MPI_ERR_TYPE); /* freed handle is dead */

    /* Uncommitted types cannot communicate or pack. */
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    int buf[16] = {0}, pos = 0, sz;
    char out[64];
    EXPECT(MPI_Send(buf, 1, t, 0, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
    MPI_Request rq = MPI_REQUEST_NULL;
    EXPECT(MPI_Irecv(buf, 1, t, 0, 0, MPI_COMM_SELF, &rq), MPI_ERR_TYPE);
    CHECK(rq == MPI_REQUEST_NULL, "failed Irecv wrote the request");
    EXPECT(MPI_Pack(buf, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Unpack(out, sizeof out, &pos, buf, 1, t, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_commit(&t));
    EXPECT(MPI_Pack(buf, -1, t, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Pack(buf, 1, t, out, sizeof out, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Pack(buf, 1, bad, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Pack(buf, 1, t, out, sizeof out, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT(MPI_Pack(buf, 3, t, out, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    EXPECT(MPI_Pack_size(-1, t, MPI_COMM_WORLD, &sz), MPI_ERR_COUNT);
    EXPECT(MPI_Pack_size(1, forged, MPI_COMM_WORLD, &sz), MPI_ERR_TYPE);
    MPI_Aint asz;
    EXPECT(MPI_Pack_external_size("big-endian", 1, t, &asz), MPI_ERR_ARG);
    EXPECT(MPI_Pack_external_size("external32", 1, bad, &asz), MPI_ERR_TYPE);

    /* Queries. */
    EXPECT(MPI_Type_size(bad, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Type_size(MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_extent(forged, &lb, &ext), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_true_extent(bad, &lb, &ext), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_envelope(bad, &n, &n, &n, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents(MPI_INT, 0, 0, 0, i4, ad, tys), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents(t, 0, 0, 0, i4, ad, tys), MPI_ERR_ARG);
    EXPECT(MPI_Type_set_name(bad, "x"), MPI_ERR_TYPE);
    EXPECT(MPI_Type_match_size(42, 4, &u), MPI_ERR_ARG);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &u), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_f90_real(40, 5000, &u), MPI_ERR_ARG);
    MPI_Status st;
    memset(&st, 0, sizeof st);
    EXPECT(MPI_Get_count(&st, bad, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT);
    EXPECT(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    EXPECT(MPI_Get_elements(&st, MPI_INT, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);

    /* Everything still works afterwards. */
    pos = 0;
    CHECK_MPI(MPI_Pack(buf, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK(pos == 8, "pack after errors: %d", pos);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
