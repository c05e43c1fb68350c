//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI_Alloc_mem returns writable memory of the asked size (aligned for any
 * basic type, as malloc is) and MPI_Free_mem takes it back, including size 0
 * and many blocks freed out of order. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define NBLOCKS 64

int main(int argc, char **argv) {
    static const MPI_Aint sizes[] = {0, 1, 8, 100, 4096, 1 << 20, 16 << 20};
    void *blocks[NBLOCKS];
    int rank = -1;
    size_t i, j;

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_rank = rank;

    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned char *p = NULL;
        MPI_Aint n = sizes[i];
        CHECK_MPI(MPI_Alloc_mem(n, MPI_INFO_NULL, &p));
        if (n == 0) {
            CHECK_MPI(MPI_Free_mem(p));
            continue;
        }
        CHECK(p != NULL, "MPI_Alloc_mem(%ld) gave NULL", (long)n);
        if (p == NULL)
            continue;
        CHECK((uintptr_t)p % 16 == 0, "MPI_Alloc_mem(%ld) gave %p, not 16-byte aligned",
              (long)n, (void *)p);
        for (j = 0; j < (size_t)n; j++)
            p[j] = (unsigned char)(j * 7 + rank);
        for (j = 0; j < (size_t)n; j++)
            if (p[j] != (unsigned char)(j * 7 + rank)) {
                CHECK(0, "MPI_Alloc_mem(%ld): byte %zu did not keep its value", (long)n, j);
                break;
            }
        CHECK_MPI(MPI_Free_mem(p));
    }

    for (i = 0; i < NBLOCKS; i++) {
        blocks[i] = NULL;
        CHECK_MPI(MPI_Alloc_mem((MPI_Aint)(i + 1) * 24, MPI_INFO_NULL, &blocks[i]));
        if (blocks[i] != NULL)
            memset(blocks[i], (int)i, (i + 1) * 24);
    }
    for (i = 0; i < NBLOCKS; i += 2)
        CHECK_MPI(MPI_Free_mem(blocks[i]));
    for (j = NBLOCKS / 2; j-- > 0;) { /* the odd blocks, last first */
        unsigned char *b = blocks[i = 2 * j + 1];
        CHECK(b != NULL && b[0] == (unsigned char)i && b[(i + 1) * 24 - 1] == (unsigned char)i,
              "block %zu lost its contents", i);
        CHECK_MPI(MPI_Free_mem(blocks[i]));
    }

    CHECK_MPI(MPI_Finalize());
    return check_status();
}
