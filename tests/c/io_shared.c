//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* Shared and ordered file pointers (write_shared, read_shared, iwrite_shared,
 * write/read_ordered and their split forms, seek_shared,
 * get_position_shared), atomic mode with overlapping writes,
 * MPI_MODE_SEQUENTIAL and MPI_MODE_APPEND. (MPICH 4.0 at np=3 reports a stale
 * shared position on ranks other than the writer's; the standard asks for
 * the current value, which is what this checks.) */
#include <string.h>

#include "check.h"
#include "io_common.h"

#define BIG 4096

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "shared");
    MPI_File fh;
    MPI_Status st;
    MPI_Offset pos;
    int cnt;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));

    /* write_shared: every rank's pair lands somewhere, whole and once. */
    int pair[2] = {rank, rank};
    CHECK_MPI(MPI_File_write_shared(fh, pair, 2, MPI_INT, &st));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 2 * np, "shared position %lld", (long long)pos);
    int all[64];
    CHECK_MPI(MPI_File_read_at(fh, 0, all, 2 * np, MPI_INT, &st));
    int seen[16] = {0};
    for (int k = 0; k < np; k++) {
        CHECK(all[2 * k] == all[2 * k + 1] && all[2 * k] >= 0 && all[2 * k] < np, "pair %d = %d,%d", k, all[2 * k], all[2 * k + 1]);
        if (all[2 * k] >= 0 && all[2 * k] < np)
            seen[all[2 * k]]++;
    }
    for (int r = 0; r < np; r++)
        CHECK(seen[r] == 1, "rank %d's pair written %d times", r, seen[r]);

    /* write_ordered: rank r writes r+1 copies of r, in rank order. */
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int mine[16];
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    CHECK_MPI(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == rank + 1, "write_ordered count %d", cnt);
    int total = np * (np + 1) / 2;
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == total, "position after ordered %lld", (long long)pos);
    CHECK_MPI(MPI_File_read_at_all(fh, 0, all, total, MPI_INT, &st));
    for (int r = 0, k = 0; r < np; r++)
        for (int i = 0; i <= r; i++, k++)
            CHECK(all[k] == r, "ordered [%d] = %d want %d", k, all[k], r);
    /* read_ordered reads the same parts back; the split form too */
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    memset(mine, -1, sizeof mine);
    CHECK_MPI(MPI_File_read_ordered(fh, mine, rank + 1, MPI_INT, &st));
    for (int i = 0; i <= rank; i++)
        CHECK(mine[i] == rank, "read_ordered [%d] = %d", i, mine[i]);
    CHECK_MPI(MPI_File_write_ordered_begin(fh, mine, rank + 1, MPI_INT));
    CHECK_MPI(MPI_File_write_ordered_end(fh, mine, &st));
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 2 * total, "position after split ordered %lld", (long long)pos);
    CHECK_MPI(MPI_File_seek_shared(fh, -total, MPI_SEEK_CUR));
    CHECK_MPI(MPI_File_read_ordered_begin(fh, mine, rank + 1, MPI_INT));
    CHECK_MPI(MPI_File_read_ordered_end(fh, mine, &st));
    for (int i = 0; i <= rank; i++)
        CHECK(mine[i] == rank, "split read_ordered [%d] = %d", i, mine[i]);

    /* read_shared: each rank takes one distinct int. */
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    MPI_Barrier(MPI_COMM_WORLD);
    int one = -1;
    MPI_Request req;
    CHECK_MPI(MPI_File_iread_shared(fh, &one, 1, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 1, "iread_shared count %d", cnt);
    int idx = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == np, "position after read_shared %lld", (long long)pos);
    (void)idx;

    /* Atomic mode: overlapping whole-block writes never interleave. */
    CHECK_MPI(MPI_File_set_atomicity(fh, 1));
    int flag = 0;
    CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 1, "atomicity %d", flag);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    static int big[BIG], back[BIG];
    MPI_Datatype every;
    MPI_Type_vector(BIG / 2, 1, 2, MPI_INT, &every);
    MPI_Type_commit(&every);
    for (int rep = 0; rep < 5; rep++) {
        for (int i = 0; i < BIG; i++)
            big[i] = rank * 100 + rep;
        CHECK_MPI(MPI_File_write_at(fh, 0, big, BIG, MPI_INT, &st));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_File_read_at(fh, 0, back, BIG, MPI_INT, &st));
        for (int i = 1; i < BIG; i++)
            if (back[i] != back[0]) {
                CHECK(0, "atomic write interleaved at %d: %d vs %d", i, back[i], back[0]);
                break;
            }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Type_free(&every);
    CHECK_MPI(MPI_File_set_atomicity(fh, 0));
    CHECK_MPI(MPI_File_close(&fh));

    /* APPEND: both pointers start at the end. */
    char apath[600];
    snprintf(apath, sizeof apath, "%s.append", path);
    if (rank == 0) {
        FILE *fp = fopen(apath, "w");
        fwrite("0123456789", 1, 10, fp);
        fclose(fp);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, apath, MPI_MODE_WRONLY | MPI_MODE_APPEND | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == 10, "append position %lld", (long long)pos);
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 10, "append shared position %lld", (long long)pos);
    CHECK_MPI(MPI_File_close(&fh));

    /* SEQUENTIAL: shared pointer only. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, apath, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_SEQUENTIAL |
                            MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_write_at(fh, 0, pair, 2, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION);
    EXPECT_CLASS(MPI_File_write(fh, pair, 2, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_MPI(MPI_File_write_shared(fh, pair, 2, MPI_INT, &st));
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Finalize();
    return check_status();
}
