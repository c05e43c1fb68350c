//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* Callback counts over many communicators: 2000 rounds of dup / split /
 * free of a communicator carrying three attributes run each copy callback
 * once per new communicator and each delete callback once per freed one,
 * with the values each round expects; attributes set and deleted on a
 * communicator chain (a dup of a dup...) stay per communicator. */
#include <mpi.h>
#include <stdint.h>

#include "check.h"

static long copies, deletes, bad;

static int cp(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag) {
    (void)c;
    (void)kv;
    (void)extra;
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1); /* depth of the copy */
    *flag = 1;
    return MPI_SUCCESS;
}

static int del(MPI_Comm c, int kv, void *val, void *extra) {
    (void)c;
    (void)kv;
    if ((intptr_t)val < (intptr_t)extra)
        bad++;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;

    int k[3];
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_create_keyval(cp, del, &k[i], (void *)(intptr_t)0));

    MPI_Comm base;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_set_attr(base, k[i], (void *)(intptr_t)0));

    const int rounds = 2000;
    for (int r = 0; r < rounds; r++) {
        MPI_Comm d;
        if (r % 2)
            CHECK_MPI(MPI_Comm_dup(base, &d));
        else
            CHECK_MPI(MPI_Comm_split(base, 0, rank, &d)); /* split copies no attributes */
        void *v;
        int flag;
        CHECK_MPI(MPI_Comm_get_attr(d, k[1], &v, &flag));
        CHECK(flag == (r % 2) && (!flag || v == (void *)1), "round %d: flag %d value %p", r, flag, v);
        CHECK_MPI(MPI_Comm_free(&d));
    }
    CHECK(copies == 3 * rounds / 2, "copy callbacks %ld, want %d", copies, 3 * rounds / 2);
    CHECK(deletes == 3 * rounds / 2, "delete callbacks %ld, want %d", deletes, 3 * rounds / 2);

    /* A chain: each dup's values are one deeper. */
    MPI_Comm chain[5];
    chain[0] = base;
    for (int i = 1; i < 5; i++) {
        CHECK_MPI(MPI_Comm_dup(chain[i - 1], &chain[i]));
        void *v;
        int flag;
        CHECK_MPI(MPI_Comm_get_attr(chain[i], k[2], &v, &flag));
        CHECK(flag && v == (void *)(intptr_t)i, "chain %d: value %p", i, v);
    }
    CHECK_MPI(MPI_Comm_delete_attr(chain[2], k[0]));
    void *v;
    int flag;
    CHECK_MPI(MPI_Comm_get_attr(chain[3], k[0], &v, &flag));
    CHECK(flag, "deleting on one communicator removed it from another");
    for (int i = 4; i >= 0; i--)
        CHECK_MPI(MPI_Comm_free(&chain[i]));
    CHECK(deletes == 3 * rounds / 2 + 15, "delete callbacks %ld after the chain", deletes);
    CHECK(bad == 0, "%ld deletes saw a wrong value", bad);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_free_keyval(&k[i]));
    MPI_Finalize();
    return check_status();
}
