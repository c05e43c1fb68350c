//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* Nonblocking MPI-IO progressed in the background: several iwrite_all /
 * iwrite_at_all on a strided view (two-phase path) pending at once, a
 * blocking collective on the same file issued while one is pending (must
 * follow it), completion through MPI_Test, MPI_Waitall and MPI_Waitany,
 * split collectives with other MPI traffic in between, MPI_Request_free on
 * a pending write (MPI_File_close still flushes it), and an I/O error
 * (/dev/full) reported when the request completes, as MPI_ERR_NO_SPACE. */
#include <string.h>

#include "check.h"
#include "io_common.h"

#define B 4   /* ints per block of the interleaved view */
#define K 256 /* ints each rank writes per call */

static int val(int rank, int i, int gen) { return gen * 1000000 + rank * 10000 + i; }

int main(int argc, char **argv)
{
    int np;
    char path[512];
    int rank = io_start(&argc, &argv, &np, path, sizeof path, "nonblocking");

    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    /* Rank r owns block r of every np blocks of B ints. */
    MPI_Datatype vec, ftype;
    MPI_Type_vector(1, B, B * np, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)B * np * sizeof(int), &ftype);
    MPI_Type_commit(&ftype);
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * B * sizeof(int), MPI_INT, ftype, "native", MPI_INFO_NULL));

    int *a = malloc(4 * K * sizeof(int)), *in = malloc(4 * K * sizeof(int));
    for (int i = 0; i < 4 * K; i++)
        a[i] = val(rank, i, 1);

    /* 1. Three collective writes pending at once, plus a blocking one issued
     * in between: the file holds all four in the end. */
    MPI_Request r[3];
    CHECK_MPI(MPI_File_iwrite_all(fh, a, K, MPI_INT, &r[0]));          /* etypes [0,K) */
    CHECK_MPI(MPI_File_iwrite_at_all(fh, K, a + K, K, MPI_INT, &r[1])); /* [K,2K) */
    CHECK_MPI(MPI_File_write_at_all(fh, 2 * K, a + 2 * K, K, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_iwrite_at_all(fh, 3 * K, a + 3 * K, K, MPI_INT, &r[2]));
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == K, "individual pointer after iwrite_all: %lld (moves when the access starts)", (long long)pos);
    int sum = 0, one = 1; /* other traffic while the writes run */
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == np, "allreduce %d", sum);
    int flag = 0, polls = 0;
    MPI_Status st;
    while (!flag) {
        CHECK_MPI(MPI_Test(&r[0], &flag, &st));
        polls++;
    }
    CHECK(r[0] == MPI_REQUEST_NULL, "MPI_Test left the request");
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == K, "iwrite_all count %d", cnt);
    MPI_Status sts[3];
    CHECK_MPI(MPI_Waitall(3, r, sts));
    MPI_Get_count(&sts[1], MPI_INT, &cnt);
    CHECK(cnt == K, "iwrite_at_all count %d", cnt);

    /* 2. Read back collectively, nonblocking, through the view. */
    memset(in, 0, 4 * K * sizeof(int));
    int idx;
    CHECK_MPI(MPI_File_iread_at_all(fh, 0, in, 2 * K, MPI_INT, &r[0]));
    CHECK_MPI(MPI_File_iread_at_all(fh, 2 * K, in + 2 * K, 2 * K, MPI_INT, &r[1]));
    CHECK_MPI(MPI_Waitany(2, r, &idx, &st));
    CHECK_MPI(MPI_Wait(&r[1 - idx], &st));
    for (int i = 0; i < 4 * K; i++)
        CHECK(in[i] == val(rank, i, 1), "view read [%d] = %d", i, in[i]);

    /* 3. Independently, with the default view: rank r's ints interleaved. */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    int total = 4 * K * np, *all = malloc(total * sizeof(int));
    CHECK_MPI(MPI_File_iread_at(fh, 0, all, total, MPI_INT, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == total, "iread_at count %d of %d", cnt, total);
    for (int j = 0; j < total; j++) {
        int blk = j / B, owner = blk % np, i = (blk / np) * B + j % B;
        CHECK(all[j] == val(owner, i, 1), "file int %d = %d, want %d", j, all[j], val(owner, i, 1));
    }

    /* 4. Split collectives on the strided view, other traffic in between. */
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * B * sizeof(int), MPI_INT, ftype, "native", MPI_INFO_NULL));
    for (int i = 0; i < 4 * K; i++)
        a[i] = val(rank, i, 2);
    CHECK_MPI(MPI_File_write_all_begin(fh, a, 2 * K, MPI_INT));
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_write_all_end(fh, a, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 2 * K, "write_all_end count %d", cnt);
    memset(in, 0, 4 * K * sizeof(int));
    CHECK_MPI(MPI_File_read_at_all_begin(fh, 0, in, 4 * K, MPI_INT));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_read_at_all_end(fh, in, &st));
    for (int i = 0; i < 4 * K; i++)
        CHECK(in[i] == val(rank, i, i < 2 * K ? 2 : 1), "split read [%d] = %d", i, in[i]);

    /* 5. A freed pending write still lands: close completes it. */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int mark = 4242 + rank;
    MPI_Offset tail = (MPI_Offset)total * sizeof(int) + rank * sizeof(int);
    CHECK_MPI(MPI_File_iwrite_at(fh, tail, &mark, 1, MPI_INT, &r[0]));
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close did not reset the handle");
    /* The file was deleted on close: check the mark with a new file instead. */
    char p2[600];
    snprintf(p2, sizeof p2, "%s.freed", path);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p2, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_iwrite_at(fh, rank * sizeof(int), &mark, 1, MPI_INT, &r[0]));
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_File_sync(fh)); /* collective: completes the queue first */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));
    int got = 0;
    CHECK_MPI(MPI_File_read_at(fh, ((rank + 1) % np) * sizeof(int), &got, 1, MPI_INT, &st));
    CHECK(got == 4242 + (rank + 1) % np, "freed iwrite_at: read %d", got);
    CHECK_MPI(MPI_File_close(&fh));

    /* 6. An error found while the request runs is reported on completion,
     * through the file's handler (MPI_ERRORS_RETURN by default). */
    if (access("/dev/full", W_OK) == 0) {
        MPI_File full;
        CHECK_MPI(MPI_File_open(MPI_COMM_SELF, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &full));
        CHECK_MPI(MPI_File_iwrite_at(full, 0, a, K, MPI_INT, &r[0]));
        int rc = MPI_Wait(&r[0], &st);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_NO_SPACE, "iwrite to /dev/full: class %d, want MPI_ERR_NO_SPACE", cls);
        CHECK(r[0] == MPI_REQUEST_NULL, "failed request not freed");
        CHECK_MPI(MPI_File_close(&full));
    } else if (rank == 0) {
        printf("note: /dev/full not writable, completion-error case not run\n");
    }

    MPI_Type_free(&ftype);
    MPI_Type_free(&vec);
    free(a);
    free(in);
    free(all);
    MPI_Finalize();
    return check_status();
}
