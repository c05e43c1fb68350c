//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Small broadcasts and allgathers where ranks describe the same bytes with
 * different datatypes (contiguous ints on some ranks, a strided vector or a
 * struct on others): whatever path one rank takes (C, Go, shared memory,
 * packing), the others must meet it. Also MPI_IN_PLACE allgather with a
 * strided receive type. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Datatype vec, pair;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec); /* 4 ints, every other slot */
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);

    for (int root = 0; root < size; root++) {
        int plain[4] = {-1, -1, -1, -1}, strided[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
        int use_vec = (rank + root) % 2;
        if (rank == root) {
            for (int i = 0; i < 4; i++) {
                plain[i] = 10 * root + i;
                strided[2 * i] = 10 * root + i;
            }
        }
        if (use_vec)
            CHECK_MPI(MPI_Bcast(strided, 1, vec, root, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Bcast(plain, 2, pair, root, MPI_COMM_WORLD));
        for (int i = 0; i < 4; i++) {
            int got = use_vec ? strided[2 * i] : plain[i];
            CHECK(got == 10 * root + i, "root %d (%s): element %d = %d", root, use_vec ? "vector" : "pairs", i, got);
            if (use_vec)
                CHECK(strided[2 * i + 1] == -1, "vector gap %d overwritten", i);
        }
    }

    /* Allgather: each rank gives 4 ints; odd ranks receive into a strided type. */
    int mine[4], flat[64], gaps[128];
    for (int i = 0; i < 4; i++)
        mine[i] = 100 * rank + i;
    for (int i = 0; i < 128; i++)
        gaps[i] = -7;
    if (rank % 2) {
        CHECK_MPI(MPI_Allgather(mine, 4, MPI_INT, gaps, 1, vec, MPI_COMM_WORLD));
        /* vec's extent is 7 ints: block r starts at 7*r. */
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 4; i++)
                CHECK(gaps[7 * r + 2 * i] == 100 * r + i, "strided allgather block %d[%d] = %d", r, i,
                      gaps[7 * r + 2 * i]);
    } else {
        CHECK_MPI(MPI_Allgather(mine, 2, pair, flat, 4, MPI_INT, MPI_COMM_WORLD));
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 4; i++)
                CHECK(flat[4 * r + i] == 100 * r + i, "allgather block %d[%d] = %d", r, i, flat[4 * r + i]);
    }

    /* In place with the strided type on every rank. */
    for (int i = 0; i < 128; i++)
        gaps[i] = -7;
    for (int i = 0; i < 4; i++)
        gaps[7 * rank + 2 * i] = 1000 * rank + i;
    CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gaps, 1, vec, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 4; i++)
            CHECK(gaps[7 * r + 2 * i] == 1000 * r + i, "in-place block %d[%d] = %d", r, i, gaps[7 * r + 2 * i]);

    /* The same with 12,000 bytes, past the small slots (the big ones), and
     * with 160,000, past the big slots too (one call per big slot when
     * oversubscribed; the vector ranks go through Go, the others through C). */
    const int bigs[] = {3000, 40000};
    for (int b = 0; b < 2; b++) {
        const int BIG = bigs[b];
        MPI_Datatype bigvec;
        MPI_Type_vector(BIG, 1, 2, MPI_INT, &bigvec);
        MPI_Type_commit(&bigvec);
        int *bplain = malloc(BIG * sizeof(int)), *bstrided = malloc(2 * BIG * sizeof(int));
        for (int root = 0; root < size; root++) {
            int use_vec = (rank + root) % 2;
            for (int i = 0; i < BIG; i++) {
                bplain[i] = rank == root ? 7 * root + i : -1;
                bstrided[2 * i] = bplain[i];
                bstrided[2 * i + 1] = -1;
            }
            if (use_vec)
                CHECK_MPI(MPI_Bcast(bstrided, 1, bigvec, root, MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Bcast(bplain, BIG, MPI_INT, root, MPI_COMM_WORLD));
            for (int i = 0; i < BIG; i++) {
                int got = use_vec ? bstrided[2 * i] : bplain[i];
                if (got != 7 * root + i || (use_vec && bstrided[2 * i + 1] != -1)) {
                    CHECK(0, "bcast of %d ints, root %d (%s): element %d = %d", BIG, root,
                          use_vec ? "vector" : "plain", i, got);
                    break;
                }
            }
        }
        /* A reduce_scatter_block of BIG ints per rank, in place on odd ranks. */
        int *rs = malloc((size_t)BIG * size * sizeof(int)), *rout = malloc(BIG * sizeof(int));
        for (int i = 0; i < BIG * size; i++)
            rs[i] = rank + i;
        if (rank % 2)
            CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, rs, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Reduce_scatter_block(rs, rout, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        int *res = rank % 2 ? rs : rout;
        for (int i = 0; i < BIG; i++) {
            int want = size * (size - 1) / 2 + size * (rank * BIG + i);
            if (res[i] != want) {
                CHECK(0, "reduce_scatter_block of %d: element %d = %d, want %d", BIG, i, res[i], want);
                break;
            }
        }
        free(rs);
        free(rout);
        free(bplain);
        free(bstrided);
        MPI_Type_free(&bigvec);
    }

    MPI_Type_free(&vec);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return check_status();
}
