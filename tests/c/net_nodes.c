//go:build ignore

/* gompi-test: np=4 timeout=120 */
/* gompi-env: GOMPI_NODE_SPLIT=2 */
/* Two ranks per "node" (GOMPI_NODE_SPLIT=2): shared memory inside a node,
 * the network transport (btl/ofi) between nodes. Checks that the node
 * split is what MPI sees (processor names aside), that traffic crosses
 * the network both ways with every protocol size, that collectives of a
 * communicator spanning nodes and of one inside a node agree, and that
 * windows inside a node and across nodes work (shared_query of a rank on
 * another node is refused with MPI_ERR_RMA_SHARED). */
#include <stdlib.h>
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* The node communicator holds the ranks 2k, 2k+1. */
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    int want = (rank / 2 * 2 + 1 < size) ? 2 : 1;
    CHECK(nsize == want && nrank == rank % 2, "node communicator: rank %d of %d, want %d of %d", nrank, nsize, rank % 2, want);

    /* Every size class across the network, between node 0 and the last node. */
    int peer = (rank + 2) % size; /* the same place on the other node */
    size_t max = 5u << 20;
    unsigned char *s = malloc(max), *r = malloc(max);
    size_t sizes[] = {0, 1, 64, 1000, 65000, 66000, 200000, 3u << 20, max};
    for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) {
        size_t n = sizes[i];
        for (size_t j = 0; j < n; j++) s[j] = (unsigned char)(j * 7 + rank + i);
        memset(r, 0xee, n);
        MPI_Status st;
        CHECK_MPI(MPI_Sendrecv(s, (int)n, MPI_BYTE, peer, i, r, (int)n, MPI_BYTE, peer, i, MPI_COMM_WORLD, &st));
        int cnt;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == (int)n && st.MPI_SOURCE == peer, "size %zu: count %d source %d", n, cnt, st.MPI_SOURCE);
        for (size_t j = 0; j < n; j++)
            if (r[j] != (unsigned char)(j * 7 + peer + i)) {
                CHECK(0, "size %zu: byte %zu is %d", n, j, r[j]);
                break;
            }
        /* Synchronous mode waits for the match across the network. */
        if (rank < peer) CHECK_MPI(MPI_Ssend(s, (int)n, MPI_BYTE, peer, 100 + i, MPI_COMM_WORLD));
        else CHECK_MPI(MPI_Recv(r, (int)n, MPI_BYTE, peer, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (rank > peer) CHECK_MPI(MPI_Ssend(s, (int)n, MPI_BYTE, peer, 100 + i, MPI_COMM_WORLD));
        else CHECK_MPI(MPI_Recv(r, (int)n, MPI_BYTE, peer, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }

    /* Collectives on the world (spans nodes) and on the node. */
    long v = rank + 1, sum = 0, nsum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == (long)size * (size + 1) / 2, "world allreduce %ld", sum);
    CHECK_MPI(MPI_Allreduce(&v, &nsum, 1, MPI_LONG, MPI_SUM, node));
    long nwant = (rank / 2 * 2 + 1) + (nsize == 2 ? rank / 2 * 2 + 2 : 0);
    CHECK(nsum == nwant, "node allreduce %ld, want %ld", nsum, nwant);
    int n = 1 << 20;
    int *big = malloc(sizeof(int) * n);
    for (int j = 0; j < n; j++) big[j] = rank == 0 ? j : -1;
    CHECK_MPI(MPI_Bcast(big, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int j = 0; j < n; j++)
        if (big[j] != j) {
            CHECK(0, "bcast element %d is %d", j, big[j]);
            break;
        }

    /* One-sided: inside a node it works, across nodes it is refused. */
    int buf[4] = {0};
    MPI_Win w;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, node, &w));
    CHECK_MPI(MPI_Win_fence(0, w));
    int one = rank;
    CHECK_MPI(MPI_Put(&one, 1, MPI_INT, (nrank + 1) % nsize, nrank, 1, MPI_INT, w));
    CHECK_MPI(MPI_Win_fence(0, w));
    CHECK(buf[(nrank + nsize - 1) % nsize] == (nsize == 2 ? rank ^ 1 : rank), "node window holds %d", buf[(nrank + nsize - 1) % nsize]);
    CHECK_MPI(MPI_Win_free(&w));
    /* Across nodes: active messages; shared_query of a rank of another node
     * is refused with MPI_ERR_RMA_SHARED. */
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    CHECK_MPI(MPI_Win_fence(0, w));
    int two = rank + 100;
    CHECK_MPI(MPI_Put(&two, 1, MPI_INT, peer, 1, 1, MPI_INT, w));
    CHECK_MPI(MPI_Win_fence(0, w));
    CHECK(buf[1] == (rank + size - 2) % size + 100, "world window holds %d", buf[1]);
    CHECK_MPI(MPI_Win_free(&w));
    int *sm;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &sm, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    MPI_Aint qs;
    int qdu;
    void *qb;
    CHECK_MPI(MPI_Win_shared_query(w, (rank ^ 1) < size ? (rank ^ 1) : rank, &qs, &qdu, &qb));
    if (size > 2) {
        int rc = MPI_Win_shared_query(w, (rank + 2) % size, &qs, &qdu, &qb);
        CHECK(err_class(rc) == MPI_ERR_RMA_SHARED, "shared_query across nodes: %d, want MPI_ERR_RMA_SHARED", err_class(rc));
    }
    CHECK_MPI(MPI_Win_free(&w));

    free(big);
    free(s);
    free(r);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return check_failures != 0;
}
