//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* MPI-IO data access with correct data: explicit offsets, individual file
 * pointers, collective (_all) writes read back independently and the other
 * way, strided (vector) and subarray filetypes, a noncontiguous memory type,
 * nonblocking and split collective forms, reads past the end of the file
 * (short counts), get_size/set_size/preallocate, seek/get_position/
 * get_byte_offset, get_view, get_amode/get_group, DELETE_ON_CLOSE. */
#include <string.h>

#include "check.h"
#include "io_common.h"

#define N 16 /* ints per rank */

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "basic");

    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    int amode;
    CHECK_MPI(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode %d", amode);
    MPI_Group g, wg;
    int cmp;
    CHECK_MPI(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT, "group compare %d", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* 1. Explicit offsets: each rank writes its block, reads its neighbour's. */
    int buf[N], in[N];
    for (int i = 0; i < N; i++)
        buf[i] = rank * 1000 + i;
    MPI_Status st;
    int cnt;
    CHECK_MPI(MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N, "write_at count %d", cnt);
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));
    int peer = (rank + 1) % np;
    CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), in, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N, "read_at count %d", cnt);
    for (int i = 0; i < N; i++)
        CHECK(in[i] == peer * 1000 + i, "read_at [%d] = %d", i, in[i]);
    MPI_Offset size;
    CHECK_MPI(MPI_File_get_size(fh, &size));
    CHECK(size == (MPI_Offset)np * N * sizeof(int), "size %lld", (long long)size);

    /* Past the end: a short count, not an error. */
    CHECK_MPI(MPI_File_read_at(fh, size - 2 * sizeof(int), in, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 2, "read past EOF count %d", cnt);

    /* 2. Strided view: blocks of 2 ints, rank r owns block r of every np. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_set_size(fh, 0));
    MPI_Datatype vec, ftype;
    MPI_Type_vector(1, 2, 2 * np, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 2 * np * sizeof(int), &ftype);
    MPI_Type_commit(&ftype);
    MPI_Offset disp = 64;
    CHECK_MPI(MPI_File_set_view(fh, disp + rank * 2 * sizeof(int), MPI_INT, ftype, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_all(fh, buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N, "write_all count %d", cnt);
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == N, "position %lld", (long long)pos);
    MPI_Offset boff;
    CHECK_MPI(MPI_File_get_byte_offset(fh, 3, &boff));
    CHECK(boff == disp + rank * 8 + 2 * np * 4 + 4, "byte offset %lld", (long long)boff);
    MPI_Offset gd;
    MPI_Datatype ge, gf;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_MPI(MPI_File_get_view(fh, &gd, &ge, &gf, rep));
    CHECK(gd == disp + rank * 8 && ge == MPI_INT && strcmp(rep, "native") == 0, "get_view %lld %s", (long long)gd, rep);
    /* a new type with the filetype's size and extent (its constructor is the library's choice) */
    int gsize;
    MPI_Aint glb, gext;
    MPI_Type_size(gf, &gsize);
    MPI_Type_get_extent(gf, &glb, &gext);
    CHECK(gsize == 8 && gext == (MPI_Aint)(2 * np * sizeof(int)), "get_view filetype size %d extent %ld", gsize, (long)gext);
    MPI_Type_free(&gf);

    /* read back collectively through the view, after a seek */
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_File_read_all(fh, in, N, MPI_INT, &st));
    for (int i = 0; i < N; i++)
        CHECK(in[i] == buf[i], "read_all [%d] = %d", i, in[i]);
    /* read back independently with the default view: the interleave */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int all[4 * N];
    CHECK_MPI(MPI_File_read_at(fh, disp, all, np * N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == np * N, "interleave count %d", cnt);
    for (int k = 0; k < np * N; k++) {
        int r = (k / 2) % np, i = (k / (2 * np)) * 2 + k % 2;
        CHECK(all[k] == r * 1000 + i, "interleave [%d] = %d want %d", k, all[k], r * 1000 + i);
    }
    MPI_Type_free(&ftype);
    MPI_Type_free(&vec);

    /* 3. Subarray filetype (rows of an np x N int matrix... as columns):
     * each rank owns a column block of width W of a R x (np*W) matrix; the
     * memory side is a strided type (every other int of a larger buffer). */
    enum { R = 4, W = 4 };
    int gsz[2] = {R, np * W}, lsz[2] = {R, W}, start[2] = {0, rank * W};
    MPI_Datatype sub, mem;
    MPI_Type_create_subarray(2, gsz, lsz, start, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_commit(&sub);
    MPI_Type_vector(R * W, 1, 2, MPI_INT, &mem);
    MPI_Type_commit(&mem);
    int wide[2 * R * W];
    for (int i = 0; i < 2 * R * W; i++)
        wide[i] = i % 2 ? -1 : rank * 100 + i / 2;
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_at_all(fh, 0, wide, 1, mem, &st));
    MPI_Get_count(&st, mem, &cnt);
    CHECK(cnt == 1, "subarray count %d", cnt);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int mat[R * 4 * W];
    CHECK_MPI(MPI_File_read_at_all(fh, 0, mat, R * np * W, MPI_INT, &st));
    for (int y = 0; y < R; y++)
        for (int x = 0; x < np * W; x++) {
            int want = (x / W) * 100 + y * W + x % W;
            CHECK(mat[y * np * W + x] == want, "matrix (%d,%d) = %d want %d", y, x, mat[y * np * W + x], want);
        }
    /* and the other way: a contiguous write, a subarray read into the strided memory type */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (int i = 0; i < R * np * W; i++)
            mat[i] = 7 * i;
        CHECK_MPI(MPI_File_write_at(fh, 0, mat, R * np * W, MPI_INT, &st));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL));
    for (int i = 0; i < 2 * R * W; i++)
        wide[i] = -5;
    CHECK_MPI(MPI_File_read_all(fh, wide, 1, mem, &st));
    for (int y = 0; y < R; y++)
        for (int x = 0; x < W; x++) {
            int want = 7 * (y * np * W + rank * W + x);
            CHECK(wide[2 * (y * W + x)] == want, "subarray read (%d,%d) = %d want %d", y, x, wide[2 * (y * W + x)], want);
            CHECK(wide[2 * (y * W + x) + 1] == -5, "memory hole written");
        }
    MPI_Type_free(&sub);
    MPI_Type_free(&mem);

    /* 4. Nonblocking and split collectives, individual pointer. */
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * N * sizeof(int), MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    MPI_Request req;
    CHECK_MPI(MPI_File_iwrite(fh, buf, N / 2, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N / 2, "iwrite count %d", cnt);
    CHECK_MPI(MPI_File_iwrite_at_all(fh, N / 2, buf + N / 2, N / 2, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    MPI_Barrier(MPI_COMM_WORLD);
    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_File_read_at_all_begin(fh, 0, in, N, MPI_INT));
    CHECK_MPI(MPI_File_read_at_all_end(fh, in, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N, "split read count %d", cnt);
    for (int i = 0; i < N; i++)
        CHECK(in[i] == buf[i], "split read [%d] = %d", i, in[i]);
    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_File_iread_at(fh, 0, in, N, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    for (int i = 0; i < N; i++)
        CHECK(in[i] == buf[i], "iread_at [%d] = %d", i, in[i]);
    CHECK_MPI(MPI_File_seek(fh, -2, MPI_SEEK_CUR));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == N / 2 - 2, "seek_cur position %lld", (long long)pos);

    /* 5. Sizes. */
    CHECK_MPI(MPI_File_preallocate(fh, 4096));
    CHECK_MPI(MPI_File_get_size(fh, &size));
    CHECK(size == 4096, "preallocated size %lld", (long long)size);
    CHECK_MPI(MPI_File_set_size(fh, 100));
    CHECK_MPI(MPI_File_get_size(fh, &size));
    CHECK(size == 100, "set_size %lld", (long long)size);
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close did not reset the handle");

    /* DELETE_ON_CLOSE removes the file. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(access(path, F_OK) != 0, "file still there after DELETE_ON_CLOSE");
    MPI_Finalize();
    return check_status();
}
