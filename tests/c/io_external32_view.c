//go:build ignore

/* gompi-test: np=1,2,4 timeout=90 */
/* external32 with general filetypes: a struct filetype with byte
 * displacements (taken as is in the file), a strided vector of ints and a
 * subarray of MPI_LONG (whose element displacements scale to the 4-byte
 * external32 long). Data read back through the views equals what was
 * written; the subarray's raw bytes are big-endian 4-byte longs where the
 * standard puts them. With a path argument the file is kept there: the Go
 * test TestExternal32MatchesMPICH runs this program under MPICH too and
 * compares the two files byte for byte. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "io_common.h"

struct rec {
    short s;
    long l;
    double d;
};

int main(int argc, char **argv)
{
    int np;
    char tmp[512];
    int rank = io_start(&argc, &argv, &np, tmp, sizeof tmp, "ext32view");
    const char *path = argc > 1 ? argv[1] : tmp;
    MPI_File fh;
    MPI_Status st;
    int amode = MPI_MODE_CREATE | MPI_MODE_RDWR | (argc > 1 ? 0 : MPI_MODE_DELETE_ON_CLOSE);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh));

    /* 1. Struct records: short at byte 0, long at 8, double at 16 of a
     * 32-byte file record (external32 sizes 2, 4, 8). */
    int bl[3] = {1, 1, 1};
    MPI_Aint fd[3] = {0, 8, 16};
    MPI_Datatype ft3[3] = {MPI_SHORT, MPI_LONG, MPI_DOUBLE}, fst, frec, mst, mrec;
    MPI_Type_create_struct(3, bl, fd, ft3, &fst);
    MPI_Type_create_resized(fst, 0, 32, &frec);
    MPI_Type_commit(&frec);
    MPI_Aint md[3] = {offsetof(struct rec, s), offsetof(struct rec, l), offsetof(struct rec, d)};
    MPI_Type_create_struct(3, bl, md, ft3, &mst);
    MPI_Type_create_resized(mst, 0, sizeof(struct rec), &mrec);
    MPI_Type_commit(&mrec);
    struct rec r[2], rb[2];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 2; i++) {
        r[i].s = (short)(-100 * rank - i);
        r[i].l = 70000 + 10 * rank + i;
        r[i].d = 0.5 + rank + i * 0.25;
    }
    /* The MPICH comparison runs only the part where MPICH follows the
     * standard ("common"): Debian's MPICH 4 dies (SIGILL in
     * MPI_Pack_external_size) on a struct memory type in an external32
     * write, and ROMIO lays external32 data into the filetype's native byte
     * displacements without scaling element displacements (a subarray of
     * 8-byte longs keeps 8-byte strides for 4-byte data, get_type_extent
     * says 128 here where the standard's file extent is 64). */
    int all = argc <= 2 || strcmp(argv[2], "common") != 0;
    if (all) {
        CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * 64, MPI_BYTE, frec, "external32", MPI_INFO_NULL));
        CHECK_MPI(MPI_File_write_all(fh, r, 2, mrec, &st));
        int cnt;
        MPI_Get_count(&st, mrec, &cnt);
        CHECK(cnt == 2, "struct write count %d", cnt);
        memset(rb, 0, sizeof rb);
        CHECK_MPI(MPI_File_read_at_all(fh, 0, rb, 2, mrec, &st));
        for (int i = 0; i < 2; i++)
            CHECK(rb[i].s == r[i].s && rb[i].l == r[i].l && rb[i].d == r[i].d, "struct record %d read back %d %ld %g",
                  i, rb[i].s, rb[i].l, rb[i].d);
    }

    /* 2. Interleaved pairs of ints: vector stride in elements. */
    MPI_Datatype vec, fvec;
    MPI_Type_vector(3, 2, 2 * np, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)3 * 2 * np * 4, &fvec);
    MPI_Type_commit(&fvec);
    int iv[12], ib[12];
    for (int i = 0; i < 12; i++)
        iv[i] = 0x01000000 * (rank + 1) + i;
    CHECK_MPI(MPI_File_set_view(fh, 1024 + (MPI_Offset)rank * 8, MPI_INT, fvec, "external32", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_at_all(fh, 0, iv, 12, MPI_INT, &st));
    memset(ib, 0, sizeof ib);
    CHECK_MPI(MPI_File_read_at_all(fh, 0, ib, 12, MPI_INT, &st));
    for (int i = 0; i < 12; i++)
        CHECK(ib[i] == iv[i], "vector int %d read back %#x", i, ib[i]);

    if (all) {
        /* 3. Subarray of longs: a 4 x 2np array, rank r owns columns 2r, 2r+1. */
        int sizes[2] = {4, 2 * np}, subs[2] = {4, 2}, starts[2] = {0, 2 * rank};
        MPI_Datatype sa;
        MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_LONG, &sa);
        MPI_Type_commit(&sa);
        long lv[8], lb[8];
        for (int i = 0; i < 8; i++)
            lv[i] = -(rank * 100 + i);
        CHECK_MPI(MPI_File_set_view(fh, 4096, MPI_LONG, sa, "external32", MPI_INFO_NULL));
        MPI_Aint ext;
        CHECK_MPI(MPI_File_get_type_extent(fh, sa, &ext));
        CHECK(ext == (MPI_Aint)4 * 2 * np * 4, "subarray file extent %ld", (long)ext);
        CHECK_MPI(MPI_File_write_all(fh, lv, 8, MPI_LONG, &st));
        memset(lb, 0, sizeof lb);
        CHECK_MPI(MPI_File_read_at_all(fh, 0, lb, 8, MPI_LONG, &st));
        for (int i = 0; i < 8; i++)
            CHECK(lb[i] == lv[i], "subarray long %d read back %ld", i, lb[i]);
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_File_sync(fh);

        /* Raw bytes of the subarray: row i, column c at 4096 + (i*2np + c)*4. */
        CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
        unsigned char raw[4];
        for (int i = 0; i < 4; i++)
            for (int c = 0; c < 2; c++) {
                MPI_Offset off = 4096 + ((MPI_Offset)i * 2 * np + 2 * rank + c) * 4;
                CHECK_MPI(MPI_File_read_at(fh, off, raw, 4, MPI_BYTE, &st));
                int32_t v = (int32_t)((uint32_t)raw[0] << 24 | raw[1] << 16 | raw[2] << 8 | raw[3]);
                CHECK(v == lv[2 * i + c], "raw long at %lld = %d, want %ld", (long long)off, v, lv[2 * i + c]);
            }
        MPI_Type_free(&sa);
    }
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Type_free(&fvec);
    MPI_Type_free(&vec);
    MPI_Type_free(&frec);
    MPI_Type_free(&fst);
    MPI_Type_free(&mrec);
    MPI_Type_free(&mst);
    MPI_Finalize();
    return check_status();
}
