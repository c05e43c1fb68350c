//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} of {np}$" */
/* Rank and size of MPI_COMM_WORLD and MPI_COMM_SELF; the world size must equal
 * GOMPI_TEST_NP (set by every launcher the tests use). The Hydra and
 * MPICH-binary tests reuse this program, so it needs only what gompi's and
 * MPICH's mpi.h share, and it prints the library version line. */
#include <mpi.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank = -1, size = -1, srank = -1, ssize = -1, len = 0;
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    const char *np = getenv("GOMPI_TEST_NP");

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_rank = rank;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 1 && rank >= 0 && rank < size, "rank %d, size %d", rank, size);
    CHECK(np != NULL, "GOMPI_TEST_NP is not set");
    if (np != NULL)
        CHECK(size == atoi(np), "MPI_COMM_WORLD size %d, launched with %s", size, np);

    CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &srank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &ssize));
    CHECK(srank == 0 && ssize == 1, "MPI_COMM_SELF rank %d size %d", srank, ssize);

    CHECK_MPI(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (size_t)len == strlen(lib),
          "library version length %d, strlen %zu", len, strlen(lib));
    CHECK(strstr(lib, "gompi") != NULL, "library version does not name gompi: %.*s", (int)strcspn(lib, "\n"), lib);

    printf("rank %d of %d\n", rank, size);
    printf("rank %d library: %.*s\n", rank, (int)strcspn(lib, "\n"), lib);
    fflush(stdout);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
