//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* MPI_Register_datarep with user conversion functions: a representation
 * "gompi-be64" stores each int as an 8-byte big-endian integer. A strided
 * filetype (vector, whose stride is in elements and so scales with the
 * file's 8-byte ints; resized with a byte extent taken as is) interleaves
 * the ranks. Collective and nonblocking writes and reads go through the
 * conversions; the raw bytes are checked; get_type_extent reports the
 * callback's extent; registering a name twice (or a predefined one) is
 * MPI_ERR_DUP_DATAREP; an unknown name is MPI_ERR_UNSUPPORTED_DATAREP. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "io_common.h"

#define K 6 /* ints per rank */

static int extent_calls, state_ok = 1;
static int marker;

static int be64_extent(MPI_Datatype dt, MPI_Aint *ext, void *extra)
{
    if (extra != &marker)
        state_ok = 0;
    extent_calls++;
    if (dt != MPI_INT)
        return MPI_ERR_TYPE;
    *ext = 8;
    return MPI_SUCCESS;
}

static int be64_write(void *user, MPI_Datatype dt, int count, void *file, MPI_Offset pos, void *extra)
{
    if (dt != MPI_INT || extra != &marker)
        return MPI_ERR_CONVERSION;
    const int *u = (const int *)user + pos;
    unsigned char *f = file;
    for (int i = 0; i < count; i++) {
        int64_t v = u[i];
        for (int b = 0; b < 8; b++)
            f[8 * i + b] = (unsigned char)((uint64_t)v >> (56 - 8 * b));
    }
    return MPI_SUCCESS;
}

static int be64_read(void *user, MPI_Datatype dt, int count, void *file, MPI_Offset pos, void *extra)
{
    if (dt != MPI_INT || extra != &marker)
        return MPI_ERR_CONVERSION;
    int *u = (int *)user + pos;
    const unsigned char *f = file;
    for (int i = 0; i < count; i++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++)
            v = v << 8 | f[8 * i + b];
        u[i] = (int)(int64_t)v;
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "datarep");

    CHECK_MPI(MPI_Register_datarep("gompi-be64", be64_read, be64_write, be64_extent, &marker));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Register_datarep("gompi-be64", be64_read, be64_write, be64_extent, &marker), MPI_ERR_DUP_DATAREP);
    EXPECT_CLASS(MPI_Register_datarep("external32", be64_read, be64_write, be64_extent, NULL), MPI_ERR_DUP_DATAREP);

    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP);

    /* Rank r owns int r of every np: stride np elements (np*8 file bytes). */
    MPI_Datatype vec, ftype;
    MPI_Type_vector(1, 1, np, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)np * 8, &ftype);
    MPI_Type_commit(&ftype);
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * 8, MPI_INT, ftype, "gompi-be64", MPI_INFO_NULL));
    CHECK(extent_calls > 0 && state_ok, "extent callback: %d calls, extra_state ok %d", extent_calls, state_ok);
    MPI_Aint ext;
    CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 8, "get_type_extent %ld, want 8", (long)ext);
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype et, ft;
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "gompi-be64") == 0, "get_view datarep %s", rep);
    if (ft != MPI_INT)
        MPI_Type_free(&ft);

    int v[K], back[K];
    for (int i = 0; i < K; i++)
        v[i] = (rank % 2 ? -1 : 1) * (rank * 1000 + i + 1);
    MPI_Status st;
    CHECK_MPI(MPI_File_write_all(fh, v, K / 2, MPI_INT, &st));
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == K / 2, "write_all count %d", cnt);
    MPI_Request req;
    CHECK_MPI(MPI_File_iwrite(fh, v + K / 2, K - K / 2, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == K - K / 2, "iwrite count %d", cnt);
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));

    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_File_read_at_all(fh, 0, back, K, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == K, "read_at_all count %d", cnt);
    for (int i = 0; i < K; i++)
        CHECK(back[i] == v[i], "read back [%d] = %d, want %d", i, back[i], v[i]);
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_File_iread_at(fh, 1, back, K - 1, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    for (int i = 0; i < K - 1; i++)
        CHECK(back[i] == v[i + 1], "iread_at [%d] = %d, want %d", i, back[i], v[i + 1]);

    /* The raw file: np*K 8-byte big-endian ints, rank r's i-th at slot i*np+r. */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int n = 8 * K * np;
    unsigned char *raw = malloc(n);
    CHECK_MPI(MPI_File_read_at(fh, 0, raw, n, MPI_BYTE, &st));
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == n, "file size %d, want %d", cnt, n);
    for (int r = 0; r < np; r++)
        for (int i = 0; i < K; i++) {
            int64_t want = (r % 2 ? -1 : 1) * (r * 1000 + i + 1);
            uint64_t got = 0;
            for (int b = 0; b < 8; b++)
                got = got << 8 | raw[8 * (i * np + r) + b];
            CHECK((int64_t)got == want, "raw slot of rank %d int %d: %lld, want %lld", r, i, (long long)got,
                  (long long)want);
        }
    free(raw);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ftype);
    MPI_Type_free(&vec);
    MPI_Finalize();
    return check_status();
}
