//go:build ignore

/* gompi-test: np=1,2,3,4,5,8 timeout=120 */
/* Every collective with the algorithms chosen by size (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    run_all(1 << 30);
    MPI_Finalize();
    return check_status();
}
