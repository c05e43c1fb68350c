//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI_Reduce_local on derived datatypes made of one predefined type:
 * contiguous (reduced in place), vector and resized (only the data positions
 * of inoutbuf change), a contiguous type of MPI_DOUBLE_INT (padding inside
 * the type) with MAXLOC; a user op receives the derived handle and the
 * count; a type mixing int and double gives MPI_ERR_OP for MPI_SUM and an
 * uncommitted type MPI_ERR_TYPE. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static MPI_Datatype seen_type;
static int seen_len;

static void count_calls(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)in, (void)inout;
    seen_len = *len;
    seen_type = *dt;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Contiguous: 50 x 4 doubles. */
    MPI_Datatype four;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE, &four));
    CHECK_MPI(MPI_Type_commit(&four));
    static double da[200], db[200];
    for (int i = 0; i < 200; i++) da[i] = i, db[i] = 0.5;
    CHECK_MPI(MPI_Reduce_local(da, db, 50, four, MPI_SUM));
    for (int i = 0; i < 200; i++)
        if (db[i] != i + 0.5) {
            CHECK(0, "contiguous: element %d is %g", i, db[i]);
            break;
        }

    /* Vector: 3 blocks of 2 ints with stride 4, 5 elements (extent 10 ints). */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int ia[60], ib[60];
    for (int i = 0; i < 60; i++) ia[i] = i, ib[i] = 1000 + (i % 3 == 0 ? -2000 : 0);
    int want[60];
    memcpy(want, ib, sizeof want);
    for (int e = 0; e < 5; e++)
        for (int k = 0; k < 10; k++)
            if (k % 4 < 2) {
                int i = e * 10 + k;
                want[i] = ia[i] > ib[i] ? ia[i] : ib[i];
            }
    CHECK_MPI(MPI_Reduce_local(ia, ib, 5, vec, MPI_MAX));
    CHECK(memcmp(ib, want, sizeof want) == 0, "vector MAX wrong (or a gap changed)");
    CHECK_MPI(MPI_Reduce_local(ia, ib, 5, vec, MPI_BXOR));
    for (int e = 0; e < 5; e++)
        for (int k = 0; k < 10; k++)
            if (k % 4 < 2) want[e * 10 + k] ^= ia[e * 10 + k];
    CHECK(memcmp(ib, want, sizeof want) == 0, "vector BXOR wrong (or a gap changed)");

    /* Resized: one int every 8 bytes. */
    MPI_Datatype spaced;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &spaced));
    CHECK_MPI(MPI_Type_commit(&spaced));
    int ra[8] = {1, -1, 2, -1, 3, -1, 4, -1}, rb[8] = {10, 7, 20, 7, 30, 7, 40, 7};
    CHECK_MPI(MPI_Reduce_local(ra, rb, 4, spaced, MPI_SUM));
    CHECK(rb[0] == 11 && rb[2] == 22 && rb[4] == 33 && rb[6] == 44 && rb[1] == 7 && rb[7] == 7,
          "resized SUM: %d %d %d %d gaps %d %d", rb[0], rb[2], rb[4], rb[6], rb[1], rb[7]);

    /* Contiguous of MPI_DOUBLE_INT: 12 bytes of data in each 16. */
    struct { double v; int i; } pa[6] = {{1, 5}, {2, 5}, {3, 5}, {4, 0}, {0, 0}, {9, 9}},
                                pb[6] = {{1, 4}, {3, 1}, {3, 6}, {4, 1}, {-1, 3}, {9, 8}};
    MPI_Datatype tri;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE_INT, &tri));
    CHECK_MPI(MPI_Type_commit(&tri));
    CHECK_MPI(MPI_Reduce_local(pa, pb, 2, tri, MPI_MAXLOC));
    const double wv[6] = {1, 3, 3, 4, 0, 9};
    const int wi[6] = {4, 1, 5, 0, 0, 8};
    for (int i = 0; i < 6; i++)
        CHECK(pb[i].v == wv[i] && pb[i].i == wi[i], "DOUBLE_INT MAXLOC %d: (%g,%d) want (%g,%d)", i,
              pb[i].v, pb[i].i, wv[i], wi[i]);

    /* A user op sees the derived type and the count of its elements. */
    MPI_Op uop;
    CHECK_MPI(MPI_Op_create(count_calls, 1, &uop));
    CHECK_MPI(MPI_Reduce_local(ia, ib, 5, vec, uop));
    CHECK(seen_type == vec && seen_len == 5, "user op saw type %#x len %d", seen_type, seen_len);
    CHECK_MPI(MPI_Op_free(&uop));

    /* Mixed and uncommitted types. */
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, mixed, loose;
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &mixed));
    CHECK_MPI(MPI_Type_commit(&mixed));
    int rc = MPI_Reduce_local(da, db, 1, mixed, MPI_SUM), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "SUM on a mixed struct: class %d", cls);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    rc = MPI_Reduce_local(ia, ib, 1, loose, MPI_SUM);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "uncommitted type: class %d", cls);

    MPI_Type_free(&four);
    MPI_Type_free(&vec);
    MPI_Type_free(&spaced);
    MPI_Type_free(&tri);
    MPI_Type_free(&mixed);
    MPI_Type_free(&loose);
    MPI_Finalize();
    return check_status();
}
