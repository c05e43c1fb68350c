//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* The external32 representation: ints and doubles written through an
 * external32 view are big-endian IEEE in the file (checked byte for byte,
 * as MPICH writes them), read back through the view as native values, and
 * MPI_File_get_type_extent reports the external32 sizes. */
#include <string.h>

#include "check.h"
#include "io_common.h"

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "ext32");
    MPI_File fh;
    MPI_Status st;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    int v[4];
    for (int i = 0; i < 4; i++)
        v[i] = 0x01020300 + rank * 16 + i;
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    MPI_Aint ext;
    CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 4, "external32 int extent %ld", (long)ext);
    CHECK_MPI(MPI_File_write_at_all(fh, rank * 4, v, 4, MPI_INT, &st));
    int back[4] = {0};
    CHECK_MPI(MPI_File_read_at_all(fh, rank * 4, back, 4, MPI_INT, &st));
    for (int i = 0; i < 4; i++)
        CHECK(back[i] == v[i], "external32 read back [%d] = %#x", i, back[i]);

    double d[2] = {1.5, -2.25};
    CHECK_MPI(MPI_File_set_view(fh, 1024, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_at_all(fh, rank * 2, d, 2, MPI_DOUBLE, &st));

    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    unsigned char raw[16];
    CHECK_MPI(MPI_File_read_at(fh, rank * 16, raw, 16, MPI_BYTE, &st));
    for (int i = 0; i < 4; i++) {
        unsigned char want[4] = {1, 2, 3, (unsigned char)(rank * 16 + i)};
        CHECK(memcmp(raw + 4 * i, want, 4) == 0, "int %d bytes %02x %02x %02x %02x", i, raw[4 * i], raw[4 * i + 1],
              raw[4 * i + 2], raw[4 * i + 3]);
    }
    CHECK_MPI(MPI_File_read_at(fh, 1024 + rank * 16, raw, 16, MPI_BYTE, &st));
    unsigned char wantd[16] = {0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xc0, 0x02, 0, 0, 0, 0, 0, 0};
    CHECK(memcmp(raw, wantd, 16) == 0, "double bytes %02x %02x .. %02x %02x", raw[0], raw[1], raw[8], raw[9]);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Finalize();
    return check_status();
}
