//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* cb_buffer_size bounds what an aggregator stages per two-phase round: the
 * same noncontiguous collective write (a 2-D subarray per rank, with holes
 * between ranks' rows kept by read-modify-write) through a 16 MiB buffer
 * and through tiny, odd-sized ones gives byte-identical files, and
 * collective reads through each size return the data; get_info reports the
 * size in use. */
#include <string.h>

#include "check.h"
#include "io_common.h"

#define ROWS 24
#define COLS 40 /* ints per rank's row piece */

static void write_file(const char *path, const char *cb, int rank, int np, MPI_Datatype ftype, const int *data)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", cb);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    /* Old bytes everywhere first: the holes must keep them. */
    if (rank == 0) {
        int n = ROWS * (COLS * np + 3);
        int *old = malloc(n * sizeof(int));
        for (int i = 0; i < n; i++)
            old[i] = -i;
        CHECK_MPI(MPI_File_write_at(fh, 0, old, n, MPI_INT, MPI_STATUS_IGNORE));
        free(old);
    }
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, ftype, "native", info));
    MPI_Status st;
    CHECK_MPI(MPI_File_write_all(fh, data, ROWS * COLS, MPI_INT, &st));
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == ROWS * COLS, "write_all count %d (cb %s)", cnt, cb);
    MPI_Info used;
    CHECK_MPI(MPI_File_get_info(fh, &used));
    char v[64];
    int flag = 0;
    MPI_Info_get(used, "cb_buffer_size", sizeof v - 1, v, &flag);
    CHECK(flag && strcmp(v, cb) == 0, "get_info cb_buffer_size %s, want %s", flag ? v : "(unset)", cb);
    MPI_Info_free(&used);
    int *in = calloc(ROWS * COLS, sizeof(int));
    CHECK_MPI(MPI_File_read_at_all(fh, 0, in, ROWS * COLS, MPI_INT, &st));
    for (int i = 0; i < ROWS * COLS; i++)
        CHECK(in[i] == data[i], "cb %s: read [%d] = %d, want %d", cb, i, in[i], data[i]);
    free(in);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "cbbuffer");

    /* Rank r owns columns [r*COLS, (r+1)*COLS) of a ROWS x (np*COLS+3)
     * array; the last 3 columns belong to nobody (holes). */
    int sizes[2] = {ROWS, np * COLS + 3}, subs[2] = {ROWS, COLS}, starts[2] = {0, rank * COLS};
    MPI_Datatype ftype;
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &ftype);
    MPI_Type_commit(&ftype);
    int *data = malloc(ROWS * COLS * sizeof(int));
    for (int i = 0; i < ROWS * COLS; i++)
        data[i] = rank * 100000 + i;

    const char *cbs[] = {"16777216", "37", "4096", "1"};
    int ncb = 4;
    char paths[4][600];
    for (int k = 0; k < ncb; k++) {
        snprintf(paths[k], sizeof paths[k], "%s.%s", path, cbs[k]);
        write_file(paths[k], cbs[k], rank, np, ftype, data);
    }
    if (rank == 0) {
        long n = (long)ROWS * (np * COLS + 3) * sizeof(int);
        char *ref = malloc(n), *other = malloc(n);
        FILE *fp = fopen(paths[0], "rb");
        CHECK(fp != NULL && fread(ref, 1, n, fp) == (size_t)n, "read %s", paths[0]);
        if (fp)
            fclose(fp);
        for (int k = 1; k < ncb; k++) {
            fp = fopen(paths[k], "rb");
            CHECK(fp != NULL && fread(other, 1, n, fp) == (size_t)n, "read %s", paths[k]);
            if (fp)
                fclose(fp);
            CHECK(memcmp(ref, other, n) == 0, "file written with cb_buffer_size %s differs from 16 MiB's", cbs[k]);
        }
        free(ref);
        free(other);
        for (int k = 0; k < ncb; k++)
            MPI_File_delete(paths[k], MPI_INFO_NULL);
    }
    MPI_Type_free(&ftype);
    free(data);
    MPI_Finalize();
    return check_status();
}
