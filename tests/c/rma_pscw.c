//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=180 */
/* Generalized active target (MPI_Win_post/start/complete/wait) in a ring:
 * each rank exposes its window to its left neighbour and accesses its right
 * one, on every window flavour, with put, get, accumulate and get_accumulate
 * for every pair of origin and target layouts (rma_common.h); origin buffers
 * are checked after Win_complete, the window after Win_wait, int by int.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4. Open MPI 4.1.4 (Debian)
 * refuses Win_create on one process and, on create and dynamic windows
 * (osc rdma), returns wrong get_accumulate results when the target type is
 * not contiguous; everything else passes there. */
#include "rma_common.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    rma_matrix(SY_PSCW);
    MPI_Finalize();
    return check_status();
}
