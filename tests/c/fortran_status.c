//go:build ignore

/* gompi-test: np=1 timeout=60 */
/* gompi-expect: exit=0 stdout=~"PASS" */
/* Fortran statuses from C: MPI_Status_c2f/f2c copy MPICH's layout and
 * refuse the ignore sentinels; MPI_F_STATUS_IGNORE is the address of
 * the Fortran MPI_STATUS_IGNORE (never NULL). */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* the refused conversions below return their class instead of aborting */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Status st, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    st.MPI_SOURCE = 3;
    st.MPI_TAG = 7;
    st.MPI_ERROR = MPI_ERR_TAG;
    MPI_Status_set_elements(&st, MPI_INT, 5);
    CHECK(MPI_Status_c2f(&st, f) == MPI_SUCCESS, "MPI_Status_c2f(&st, f) == MPI_SUCCESS");
    CHECK(f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 7 && f[MPI_F_ERROR] == MPI_ERR_TAG, "f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 7 && f[MPI_F_ERROR] == MPI_ERR_TAG");
    CHECK(MPI_Status_f2c(f, &back) == MPI_SUCCESS, "MPI_Status_f2c(f, &back) == MPI_SUCCESS");
    int n = -1;
    MPI_Get_count(&back, MPI_INT, &n);
    CHECK(n == 5 && back.MPI_SOURCE == 3 && back.MPI_TAG == 7, "n == 5 && back.MPI_SOURCE == 3 && back.MPI_TAG == 7");
    CHECK(MPI_F_STATUS_IGNORE != NULL && MPI_F_STATUSES_IGNORE != NULL, "MPI_F_STATUS_IGNORE != NULL && MPI_F_STATUSES_IGNORE != NULL");
    CHECK(MPI_Status_c2f(MPI_STATUS_IGNORE, f) != MPI_SUCCESS, "MPI_Status_c2f(MPI_STATUS_IGNORE, f) != MPI_SUCCESS");
    CHECK(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back) != MPI_SUCCESS, "MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back) != MPI_SUCCESS");
    MPI_Finalize();
    printf("PASS\n");
    return 0;
}
