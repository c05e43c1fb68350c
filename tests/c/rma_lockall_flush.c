//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=180 */
/* Passive target with MPI_Win_lock_all held for a window's whole life:
 * put, get, accumulate and get_accumulate for every pair of origin and
 * target layouts (rma_common.h) on every window flavour, completed with
 * MPI_Win_flush; the target reads its window after a barrier and Win_sync
 * (the unified model's handoff), the origin its get results after the flush.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4. Open MPI 4.1.4 (Debian)
 * refuses Win_create on one process and, on create and dynamic windows
 * (osc rdma), returns wrong get_accumulate results when the target type is
 * not contiguous; everything else passes there. */
#include "rma_common.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    rma_matrix(SY_LOCKALL_FLUSH);
    MPI_Finalize();
    return check_status();
}
