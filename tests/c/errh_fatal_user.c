//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Comm_call_errhandler" stderr=~"disk on fire" */
/* A user error code raised through MPI_Comm_call_errhandler under
 * MPI_ERRORS_ARE_FATAL ends the job with the user's error string. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int cls, code;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Add_error_string(code, "disk on fire"));
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0) {
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        CHECK(0, "MPI_Comm_call_errhandler returned under MPI_ERRORS_ARE_FATAL");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 1;
}
