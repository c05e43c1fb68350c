//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* MPI-IO error classes under the files' default handler (MPI_ERRORS_RETURN,
 * also MPI_FILE_NULL's, which failed opens use): MPI_ERR_NO_SUCH_FILE,
 * MPI_ERR_AMODE, MPI_ERR_FILE_EXISTS, MPI_ERR_NOT_SAME, MPI_ERR_READ_ONLY,
 * MPI_ERR_ACCESS, MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_FILE, MPI_ERR_COUNT,
 * MPI_ERR_ARG, MPI_ERR_TYPE, MPI_ERR_DUP_DATAREP; a user file error handler
 * gets the file and the code; File_c2f/f2c round trip. (MPICH 4.0 lets
 * MPI_Register_datarep redefine "native"; the standard says MPI_ERR_DUP_DATAREP.) */
#include <string.h>

#include "check.h"
#include "io_common.h"

static int calls;
static MPI_File seen_fh;
static int seen_code;
static void on_file_error(MPI_File *fh, int *code, ...)
{
    calls++;
    seen_fh = *fh;
    seen_code = *code;
}

static int extent_fn(MPI_Datatype dt, MPI_Aint *ext, void *extra)
{
    (void)extra;
    MPI_Aint lb;
    return MPI_Type_get_extent(dt, &lb, ext);
}

int main(int argc, char **argv)
{
    int np;
    char path[512], missing[600];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "errors");
    snprintf(missing, sizeof missing, "%s.missing", path);
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    int x[4] = {1, 2, 3, 4};

    MPI_Errhandler eh;
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_FILE_NULL's default handler is not MPI_ERRORS_RETURN");

    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE);
    CHECK(fh == MPI_FILE_NULL, "failed open set a handle");
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);

    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_read_at(fh, 0, x, 1, MPI_INT, &st), MPI_ERR_ACCESS);
    EXPECT_CLASS(MPI_File_write_at(fh, 0, x, -1, MPI_INT, &st), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_Datatype uncommitted;
    MPI_Type_vector(2, 1, 2, MPI_INT, &uncommitted);
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, uncommitted, "native", MPI_INFO_NULL), MPI_ERR_TYPE);
    MPI_Type_free(&uncommitted);
    MPI_Info used;
    int flag = 0;
    char val[MPI_MAX_INFO_VAL];
    CHECK_MPI(MPI_File_get_info(fh, &used));
    MPI_Info_get(used, "cb_nodes", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && atoi(val) >= 1, "hints in use lack cb_nodes");
    MPI_Info_free(&used);
    MPI_Fint f = MPI_File_c2f(fh);
    CHECK(MPI_File_f2c(f) == fh, "c2f/f2c round trip");
    CHECK_MPI(MPI_File_write_at(fh, rank * sizeof x, x, 4, MPI_INT, &st));
    CHECK_MPI(MPI_File_close(&fh));
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
                 MPI_ERR_FILE_EXISTS);
    if (np > 1)
        EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, rank ? MPI_MODE_RDONLY : MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
                     MPI_ERR_NOT_SAME);

    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_write_at(fh, 0, x, 1, MPI_INT, &st), MPI_ERR_READ_ONLY);
    int y[4] = {0};
    CHECK_MPI(MPI_File_read_at(fh, rank * sizeof y, y, 4, MPI_INT, &st));
    CHECK(y[3] == 4, "read back %d", y[3]);

    /* A user handler on the file sees the file and the code. */
    MPI_Errhandler mine;
    CHECK_MPI(MPI_File_create_errhandler(on_file_error, &mine));
    CHECK_MPI(MPI_File_set_errhandler(fh, mine));
    int rc = MPI_File_write_at(fh, 0, x, 1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_READ_ONLY, "write on read-only under a user handler: class %d", err_class(rc));
    CHECK(calls == 1 && seen_fh == fh && err_class(seen_code) == MPI_ERR_READ_ONLY,
          "user handler: calls %d code %d", calls, seen_code);
    CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    CHECK(calls == 2 && seen_code == MPI_ERR_IO, "call_errhandler: calls %d code %d", calls, seen_code);
    MPI_Errhandler got;
    CHECK_MPI(MPI_File_get_errhandler(fh, &got));
    CHECK(got == mine, "get_errhandler");
    MPI_Errhandler_free(&got);
    CHECK_MPI(MPI_File_close(&fh));
    /* on MPI_FILE_NULL it handles failed opens */
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, mine));
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(err_class(rc) == MPI_ERR_NO_SUCH_FILE && calls == 3 && seen_fh == MPI_FILE_NULL, "FILE_NULL handler: calls %d", calls);
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&mine);

    MPI_Offset size;
    EXPECT_CLASS(MPI_File_get_size(MPI_FILE_NULL, &size), MPI_ERR_FILE);
    EXPECT_CLASS(MPI_Register_datarep("native", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, NULL), MPI_ERR_DUP_DATAREP);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    MPI_Finalize();
    return check_status();
}
