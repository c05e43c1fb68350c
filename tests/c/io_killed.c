//go:build ignore

/* gompi-test: np=2,3 timeout=40 */
/* gompi-expect: exit=nonzero stdout!~"survived" maxtime=30 */
/* A rank dies (_exit) in the middle of a series of collective writes: the
 * job ends instead of hanging in the next collective, and the file never
 * holds anything but the ranks' own data or zeros. */
#include <string.h>

#include "check.h"
#include "io_common.h"

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "killed");
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(path); /* the open file lives on; nothing is left after the job dies */
    MPI_Datatype v, ft;
    MPI_Type_vector(1, 1, np, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, np * sizeof(int), &ft);
    MPI_Type_commit(&ft);
    CHECK_MPI(MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, ft, "native", MPI_INFO_NULL));
    int buf[1024];
    for (int i = 0; i < 1024; i++)
        buf[i] = rank + 1;
    for (int it = 0; it < 1000; it++) {
        if (it == 20 && rank == np - 1)
            _exit(3);
        MPI_File_write_at_all(fh, 0, buf, 1024, MPI_INT, MPI_STATUS_IGNORE);
    }
    printf("survived\n");
    MPI_Finalize();
    return 0;
}
