//go:build ignore

/* gompi-test: np=2 timeout=300 */
/* Messages above 2 GiB end to end (MPI-4 large counts): rank 0 sends
 * 2.5 GiB with MPI_Send_c as MPI_BYTEs, then the same buffer as one element
 * of a contiguous type of 2.5 Gi MPI_BYTEs (MPI_Type_contiguous_c); rank 1
 * receives both with MPI_Recv_c and checks MPI_Get_count_c,
 * MPI_Get_elements_c, the int MPI_Get_count (MPI_UNDEFINED) and the data.
 * One buffer per rank: 5 GiB in all, run at np=2 only. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define N ((MPI_Count)5 << 29) /* 2.5 GiB */

static unsigned char pattern(MPI_Count i, int round) { return (unsigned char)((i * 131u) ^ (i >> 20) ^ round); }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    unsigned char *buf = malloc((size_t)N);
    CHECK(buf != NULL, "cannot allocate %ld bytes", (long)N);
    if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);

    MPI_Datatype big;
    CHECK_MPI(MPI_Type_contiguous_c(N, MPI_BYTE, &big));
    CHECK_MPI(MPI_Type_commit(&big));
    MPI_Count size = 0, lb = -1, extent = 0;
    CHECK_MPI(MPI_Type_size_c(big, &size));
    CHECK(size == N, "MPI_Type_size_c = %ld", (long)size);
    CHECK_MPI(MPI_Type_get_extent_c(big, &lb, &extent));
    CHECK(lb == 0 && extent == N, "extent_c lb %ld extent %ld", (long)lb, (long)extent);
    int isize = 0;
    CHECK_MPI(MPI_Type_size(big, &isize));
    CHECK(isize == MPI_UNDEFINED, "int MPI_Type_size of a 2.5 GiB type = %d", isize);

    for (int round = 0; round < 2; round++) {
        if (check_rank == 0) {
            for (MPI_Count i = 0; i < N; i++) buf[i] = pattern(i, round);
            if (round == 0)
                CHECK_MPI(MPI_Send_c(buf, N, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Send_c(buf, 1, big, 1, 7, MPI_COMM_WORLD));
        } else {
            memset(buf, 0, (size_t)N);
            MPI_Status st;
            CHECK_MPI(MPI_Recv_c(buf, N, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st));
            MPI_Count cnt = -1, elems = -1;
            CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &cnt));
            CHECK(cnt == N, "round %d: MPI_Get_count_c = %ld, want %ld", round, (long)cnt, (long)N);
            CHECK_MPI(MPI_Get_count_c(&st, big, &cnt));
            CHECK(cnt == 1, "round %d: MPI_Get_count_c(big) = %ld", round, (long)cnt);
            CHECK_MPI(MPI_Get_elements_c(&st, big, &elems));
            CHECK(elems == N, "round %d: MPI_Get_elements_c(big) = %ld", round, (long)elems);
            int icnt = 0;
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &icnt));
            CHECK(icnt == MPI_UNDEFINED, "round %d: int MPI_Get_count = %d", round, icnt);
            MPI_Count bad = -1;
            for (MPI_Count i = 0; i < N; i++)
                if (buf[i] != pattern(i, round)) {
                    bad = i;
                    break;
                }
            CHECK(bad < 0, "round %d: byte %ld is %d, want %d", round, (long)bad, bad < 0 ? 0 : buf[bad],
                  bad < 0 ? 0 : pattern(bad, round));
        }
    }
    MPI_Type_free(&big);
    free(buf);
    MPI_Finalize();
    return check_status();
}
