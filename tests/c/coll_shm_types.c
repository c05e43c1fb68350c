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

    MPI_Type_free(&vec);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return check_status();
}
