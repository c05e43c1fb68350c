//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=180 */
/* Active target with MPI_Win_fence: on every window flavour (create on small
 * and large malloc'd, static and stack buffers, allocate, allocate_shared,
 * dynamic + attach), put, get, accumulate (SUM) and get_accumulate (SUM) of
 * 24 ints for every pair of origin and target layouts (contiguous, vector,
 * indexed out of address order, struct with gaps, resized), plus one 64 KiB
 * contiguous transfer on the large windows; every int of the target window
 * and of the origin buffers is checked after the closing fence.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4. Open MPI 4.1.4 (Debian)
 * refuses Win_create on one process and, on create and dynamic windows
 * (osc rdma), returns wrong get_accumulate results when the target type is
 * not contiguous; everything else passes there. */
#include "rma_common.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    rma_matrix(SY_FENCE);
    MPI_Finalize();
    return check_status();
}
