//go:build ignore

/* gompi-test: np=1,2,4 timeout=120 */
/* Creating and freeing communicators in a loop keeps memory flat: 100,000
 * dup/free pairs (20,000 with 4 oversubscribed ranks), with a message and an
 * allreduce on every tenth duplicate; after a warm-up of half as many, the resident set
 * may not grow by 4 MiB or more in each of two such rounds, and handles are recycled. Also MPI_Comm_create over
 * groups and MPI_Comm_create_group by only the group's members. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

static long rss_kib(void) {
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static void dup_free(int iters, int rank, int size) {
    for (int i = 0; i < iters; i++) {
        MPI_Comm d;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        if (i % 10 == 0 && size > 1) {
            int v = i, got = -1;
            CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
                                   d, MPI_STATUS_IGNORE));
            CHECK(got == i, "iteration %d got %d", i, got);
            long sum = 0, one = 1;
            CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, d));
            CHECK(sum == size, "iteration %d: allreduce %ld", i, sum);
        }
        CHECK_MPI(MPI_Comm_free(&d));
        if (check_failures)
            return;
    }
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    int iters = size > 2 ? 20000 : 100000;

    dup_free(iters / 2, rank, size); /* the Go heap reaches its steady size */
    long before = rss_kib();
    MPI_Comm first, again;
    MPI_Comm_dup(MPI_COMM_WORLD, &first);
    MPI_Comm_free(&first);
    MPI_Comm_dup(MPI_COMM_WORLD, &first);
    dup_free(iters, rank, size);
    long mid = rss_kib();
    dup_free(iters, rank, size);
    MPI_Comm_dup(MPI_COMM_WORLD, &again);
    long after = rss_kib();
    /* A leak grows in both halves; a one-off rise (the Go collector falling
     * behind while a loaded machine starves it) does not. */
    CHECK(mid - before < 4096 || after - mid < 4096,
          "resident set grew from %ld KiB to %ld KiB and to %ld KiB over two rounds of %d dup/free", before, mid,
          after, iters);
    CHECK(again != first, "a live handle was reused");
    MPI_Comm_free(&again);
    MPI_Comm_free(&first);

    /* MPI_Comm_create with the even ranks; odd ranks get MPI_COMM_NULL. */
    MPI_Group wg, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int ranges[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_incl(wg, 1, ranges, &evens));
    MPI_Comm ec;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &ec));
    if (rank % 2) {
        CHECK(ec == MPI_COMM_NULL, "odd rank got a communicator");
    } else {
        int r, n;
        MPI_Comm_rank(ec, &r);
        MPI_Comm_size(ec, &n);
        CHECK(r == rank / 2 && n == (size + 1) / 2, "evens: rank %d size %d", r, n);
        MPI_Comm_free(&ec);
        /* Only the members call MPI_Comm_create_group. */
        MPI_Comm cg;
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &cg));
        MPI_Comm_rank(cg, &r);
        CHECK(r == rank / 2, "create_group rank %d", r);
        if (n > 1) {
            int v = r, got = -1;
            CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, (r + 1) % n, 1, &got, 1, MPI_INT, (r + n - 1) % n, 1, cg,
                                   MPI_STATUS_IGNORE));
            CHECK(got == (r + n - 1) % n, "create_group ring got %d", got);
        }
        MPI_Comm_free(&cg);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&wg);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return check_status();
}
