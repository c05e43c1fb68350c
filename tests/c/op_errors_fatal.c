//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Reduce_local.*MPI_SUM.*MPI_BYTE.*MPI_ERR_OP" */
/* Under the default handler (MPI_ERRORS_ARE_FATAL) a forbidden op/type pair
 * in MPI_Reduce_local ends the job with a message naming the call, the op,
 * the type and the class. */
#include <mpi.h>

int main(int argc, char **argv) {
    unsigned char a[2] = {1, 2}, b[2] = {3, 4};
    MPI_Init(&argc, &argv);
    MPI_Reduce_local(a, b, 2, MPI_BYTE, MPI_SUM);
    MPI_Finalize();
    return 0;
}
