//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* Collective buffering: noncontiguous collective writes that leave holes
 * keep the holes' old bytes (read-modify-write on the aggregators), with
 * every aggregator count (cb_nodes 1 and default), with collective
 * buffering forced off (romio_cb_write=disable), and with a small domain
 * alignment (striping_unit); collective reads of the same pattern, a read
 * past the end of the file (count stops at the end), and ranks with nothing
 * to access taking part; the same pattern written by independent calls
 * from all ranks at once (data sieving: read-modify-write under a lock). (MPICH 4.0 reports the full count for the
 * collective read past the end; the standard counts what was read.) */
#include <string.h>

#include "check.h"
#include "io_common.h"

#define K 64 /* blocks per rank */

static void round_trip(const char *path, MPI_Info info, int rank, int np, const char *what, int indep)
{
    MPI_File fh;
    MPI_Status st;
    int cnt;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    /* background: every int is -7 */
    int total = 3 * np * K;
    if (rank == 0) {
        int *bg = malloc(total * sizeof(int));
        for (int i = 0; i < total; i++)
            bg[i] = -7;
        CHECK_MPI(MPI_File_write_at(fh, 0, bg, total, MPI_INT, &st));
        free(bg);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* rank r writes int r of every group of 3*np: 2*np ints of each group stay holes */
    MPI_Datatype v, ft;
    MPI_Type_vector(1, 1, 3 * np, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 3 * np * sizeof(int), &ft);
    MPI_Type_commit(&ft);
    CHECK_MPI(MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, ft, "native", info));
    int mine[K];
    for (int i = 0; i < K; i++)
        mine[i] = rank * 10000 + i;
    /* the last rank contributes nothing, but still calls */
    int n = (np > 1 && rank == np - 1) ? 0 : K;
    if (indep) /* independent strided writes at once: data sieving under a lock */
        CHECK_MPI(MPI_File_write(fh, mine, n, MPI_INT, &st));
    else
        CHECK_MPI(MPI_File_write_all(fh, mine, n, MPI_INT, &st));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == n, "%s: write_all count %d", what, cnt);
    int back[K];
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_File_read_at_all(fh, 0, back, n, MPI_INT, &st));
    for (int i = 0; i < n; i++)
        CHECK(back[i] == mine[i], "%s: read_at_all [%d] = %d", what, i, back[i]);
    /* reading beyond the end: K+5 ints asked, K available through the view
     * (the file ends after the last group) */
    int more[K + 5];
    CHECK_MPI(MPI_File_read_at_all(fh, 0, more, K + 5, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == K, "%s: read past the end count %d", what, cnt);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    if (rank == 0) {
        int *all = malloc(total * sizeof(int));
        CHECK_MPI(MPI_File_read_at(fh, 0, all, total, MPI_INT, &st));
        for (int i = 0; i < total; i++) {
            int g = i / (3 * np), r = i % (3 * np);
            int wrote = r < np && !(np > 1 && r == np - 1);
            int want = wrote ? r * 10000 + g : -7;
            if (all[i] != want) {
                CHECK(0, "%s: file int %d = %d want %d", what, i, all[i], want);
                break;
            }
        }
        free(all);
    }
    MPI_Type_free(&ft);
    MPI_Type_free(&v);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "coll");
    round_trip(path, MPI_INFO_NULL, rank, np, "default", 0);
    round_trip(path, MPI_INFO_NULL, rank, np, "independent", 1);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "1");
    round_trip(path, info, rank, np, "cb_nodes=1", 0);
    MPI_Info_set(info, "striping_unit", "8");
    MPI_Info_set(info, "cb_nodes", "2");
    round_trip(path, info, rank, np, "striping_unit=8", 0);
    MPI_Info_set(info, "romio_cb_write", "disable");
    MPI_Info_set(info, "romio_cb_read", "disable");
    round_trip(path, info, rank, np, "cb disabled", 0);
    MPI_Info_free(&info);
    MPI_Finalize();
    return check_status();
}
