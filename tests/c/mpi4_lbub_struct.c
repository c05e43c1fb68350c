//go:build ignore

/* gompi-test: np=1 timeout=60 */
/* Regression (issue 23): a struct made only of MPI_LB/MPI_UB markers or of
 * zero-length blocks keeps the bounds they set; the extent may be negative.
 * Values as MPICH computes them. */
#include <mpi.h>

#include "check.h"

static void bounds(MPI_Datatype t, const char *what, MPI_Aint want_lb, MPI_Aint want_extent, int want_size) {
    MPI_Aint lb, extent, tlb, textent;
    int size;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &textent));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK(lb == want_lb && extent == want_extent && size == want_size, "%s: lb %ld extent %ld size %d, want %ld %ld %d",
          what, (long)lb, (long)extent, size, (long)want_lb, (long)want_extent, want_size);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    check_rank = 0;
    MPI_Datatype t;

    /* LB at 8, UB at 2: extent -6. */
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {8, 2};
    MPI_Datatype ty[2] = {MPI_LB, MPI_UB};
    CHECK_MPI(MPI_Type_struct(2, bl, d, ty, &t));
    bounds(t, "LB 8, UB 2", 8, -6, 0);
    MPI_Type_free(&t);

    /* Only an UB marker at 16. */
    int bl1[1] = {1};
    MPI_Aint d1[1] = {16};
    MPI_Datatype ty1[1] = {MPI_UB};
    CHECK_MPI(MPI_Type_struct(1, bl1, d1, ty1, &t));
    bounds(t, "UB 16", 0, 16, 0);
    MPI_Type_free(&t);

    /* Only an LB marker at -4. */
    ty1[0] = MPI_LB;
    d1[0] = -4;
    CHECK_MPI(MPI_Type_struct(1, bl1, d1, ty1, &t));
    bounds(t, "LB -4", -4, 4, 0);
    MPI_Type_free(&t);

    /* Zero-length blocks around markers: LB -3, UB 5, an int block of length 0 at 100. */
    int bl3[3] = {1, 0, 1};
    MPI_Aint d3[3] = {-3, 100, 5};
    MPI_Datatype ty3[3] = {MPI_LB, MPI_INT, MPI_UB};
    CHECK_MPI(MPI_Type_create_struct(3, bl3, d3, ty3, &t));
    bounds(t, "LB -3, empty int, UB 5", -3, 8, 0);
    MPI_Type_free(&t);

    MPI_Finalize();
    return check_status();
}
