//go:build ignore

/* gompi-test: np=1,2 timeout=30 */
/* gompi-expect: exit=nonzero stderr=~"MPI_File_write_at" stderr=~"MPI_ERR_READ_ONLY|read-only" stderr=~"file " maxtime=20 */
/* MPI_ERRORS_ARE_FATAL set on a file: a write on a read-only file ends the
 * job, and the message names the call, the error and the file. */
#include <string.h>

#include "check.h"
#include "io_common.h"

int main(int argc, char **argv)
{
    char path[512];
    io_start(&argc, &argv, NULL, path, sizeof path, "fatal");
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    MPI_File fr;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fr));
    CHECK_MPI(MPI_File_close(&fh)); /* the file is removed; fr still reads it */
    CHECK_MPI(MPI_File_set_errhandler(fr, MPI_ERRORS_ARE_FATAL));
    int x = 1;
    MPI_File_write_at(fr, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    CHECK(0, "survived a fatal file error");
    MPI_Finalize();
    return 1;
}
