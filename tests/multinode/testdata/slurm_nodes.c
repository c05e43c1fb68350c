/* A rank started by srun across nodes checks that gompi's idea of nodes is
 * Slurm's: MPI_Get_processor_name is SLURMD_NODENAME, the shared-memory
 * communicator (MPI_COMM_TYPE_SHARED) holds exactly the ranks of the same
 * SLURM_NODEID, and a rank's place in it is its SLURM_LOCALID. Then every
 * rank sends to every other at sizes from one byte to rendezvous (shared
 * memory inside a node, the network between nodes), with a synchronous send
 * across a node boundary. Prints one line per rank; failures start with
 * TEST-FAIL. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, me;

#define CHECK(cond, ...)                                        \
    do {                                                        \
        if (!(cond)) {                                          \
            failures++;                                         \
            fprintf(stderr, "TEST-FAIL: rank %d: ", me);        \
            fprintf(stderr, __VA_ARGS__);                       \
            fputc('\n', stderr);                                \
        }                                                       \
    } while (0)

static int env_int(const char *name) {
    const char *v = getenv(name);
    CHECK(v != NULL, "%s is not set", name);
    return v ? atoi(v) : -1;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const char *slurm_name = getenv("SLURMD_NODENAME");
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    CHECK(slurm_name && strcmp(name, slurm_name) == 0, "processor name %s, SLURMD_NODENAME %s", name,
          slurm_name ? slurm_name : "(unset)");

    int node = env_int("SLURM_NODEID"), localid = env_int("SLURM_LOCALID");
    int *nodes = malloc(sizeof(int) * size);
    MPI_Allgather(&node, 1, MPI_INT, nodes, 1, MPI_INT, MPI_COMM_WORLD);
    int want_size = 0, want_rank = 0;
    for (int r = 0; r < size; r++)
        if (nodes[r] == node) {
            want_size++;
            if (r < me) want_rank++;
        }
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    int srank, ssize;
    MPI_Comm_rank(shared, &srank);
    MPI_Comm_size(shared, &ssize);
    CHECK(ssize == want_size && srank == want_rank, "shared communicator: rank %d of %d, Slurm's node %d: %d of %d",
          srank, ssize, node, want_rank, want_size);
    CHECK(localid == srank, "SLURM_LOCALID %d, rank %d in the shared communicator", localid, srank);

    /* every pair, both ways, every protocol size */
    const int sizes[] = {1, 4000, 200000, 3 << 20};
    unsigned char *s = malloc(3 << 20), *r = malloc(3 << 20);
    for (int i = 0; i < 4; i++) {
        int n = sizes[i];
        for (int shift = 1; shift < size; shift++) {
            int to = (me + shift) % size, from = (me + size - shift) % size;
            for (int j = 0; j < n; j++) s[j] = (unsigned char)(j * 3 + me + shift);
            memset(r, 0, n);
            MPI_Status st;
            MPI_Sendrecv(s, n, MPI_BYTE, to, shift, r, n, MPI_BYTE, from, shift, MPI_COMM_WORLD, &st);
            int cnt;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            CHECK(cnt == n && st.MPI_SOURCE == from, "%d bytes from %d: count %d source %d", n, from, cnt,
                  st.MPI_SOURCE);
            for (int j = 0; j < n; j++)
                if (r[j] != (unsigned char)(j * 3 + from + shift)) {
                    CHECK(0, "%d bytes from %d (node %d): byte %d is %d", n, from, nodes[from], j, r[j]);
                    break;
                }
        }
    }
    /* the first rank of each node sends synchronously to the first of the
     * next node (Slurm numbers a step's nodes 0..nodes-1) */
    int nnodes = 0;
    for (int k = 0; k < size; k++)
        if (nodes[k] + 1 > nnodes) nnodes = nodes[k] + 1;
    if (srank == 0 && nnodes > 1) {
        int next = -1, prev = -1, token = me, got = -1;
        for (int k = size - 1; k >= 0; k--) {
            if (nodes[k] == (node + 1) % nnodes) next = k;
            if (nodes[k] == (node + nnodes - 1) % nnodes) prev = k;
        }
        MPI_Request rq;
        MPI_Irecv(&got, 1, MPI_INT, prev, 99, MPI_COMM_WORLD, &rq);
        MPI_Ssend(&token, 1, MPI_INT, next, 99, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHECK(got == prev, "synchronous send from %d brought %d", prev, got);
    }
    int bad = 0;
    MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d on %s node %d local %d of %d: %s\n", me, size, name, node, srank, ssize,
           bad ? "failed" : "ok");
    free(s);
    free(r);
    free(nodes);
    MPI_Comm_free(&shared);
    MPI_Finalize();
    return failures != 0;
}
