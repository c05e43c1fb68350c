//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Callbacks may call MPI: a delete callback run by MPI_Comm_free reads the
 * attribute being deleted and the communicator's rank; a copy callback run
 * by MPI_Comm_dup sets another attribute on the old communicator; a delete
 * callback run by an overwrite deletes a different attribute. */
#include <mpi.h>
#include <stdint.h>

#include "check.h"

static int ka, kb, kc, ran_delete, ran_copy, ran_over;

static int del_reads(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)extra;
    void *v = NULL;
    int flag = 0, r = -1;
    MPI_Comm_get_attr(comm, kv, &v, &flag);
    MPI_Comm_rank(comm, &r);
    CHECK(flag && v == val, "get_attr inside the delete callback: flag %d %p vs %p", flag, v, val);
    CHECK(r == check_rank, "rank inside the delete callback %d", r);
    ran_delete++;
    return MPI_SUCCESS;
}

static int copy_sets(MPI_Comm comm, int kv, void *extra, void *in, void *out, int *flag) {
    (void)kv;
    (void)extra;
    CHECK_MPI(MPI_Comm_set_attr(comm, kc, (void *)(intptr_t)77));
    ran_copy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_other(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)kv;
    (void)val;
    (void)extra;
    ran_over++;
    return MPI_Comm_delete_attr(comm, kc);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_reads, &ka, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(copy_sets, del_other, &kb, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kc, NULL));

    MPI_Comm base, d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    CHECK_MPI(MPI_Comm_set_attr(base, ka, (void *)(intptr_t)5));
    CHECK_MPI(MPI_Comm_set_attr(base, kb, (void *)(intptr_t)6));
    CHECK_MPI(MPI_Comm_dup(base, &d));
    CHECK(ran_copy == 1, "copy callback ran %d times", ran_copy);
    void *v;
    int flag;
    CHECK_MPI(MPI_Comm_get_attr(base, kc, &v, &flag));
    CHECK(flag && v == (void *)(intptr_t)77, "attribute set by the copy callback: flag %d", flag);
    CHECK_MPI(MPI_Comm_get_attr(d, kc, &v, &flag));
    CHECK(flag == 0, "kc (NULL copy) reached the dup");

    /* Overwrite kb on base: its delete callback removes kc. */
    CHECK_MPI(MPI_Comm_set_attr(base, kb, (void *)(intptr_t)8));
    CHECK(ran_over == 1, "overwrite ran the delete callback %d times", ran_over);
    CHECK_MPI(MPI_Comm_get_attr(base, kc, &v, &flag));
    CHECK(flag == 0, "kc survived the delete callback that removed it");
    CHECK_MPI(MPI_Comm_get_attr(base, kb, &v, &flag));
    CHECK(flag && v == (void *)(intptr_t)8, "kb after overwrite");

    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(ran_delete == 1 && ran_over == 2, "free of the dup: %d reads, %d others", ran_delete, ran_over);
    CHECK_MPI(MPI_Comm_free(&base));
    CHECK(ran_delete == 2 && ran_over == 3, "free of base: %d reads, %d others", ran_delete, ran_over);
    CHECK_MPI(MPI_Comm_free_keyval(&ka));
    CHECK_MPI(MPI_Comm_free_keyval(&kb));
    CHECK_MPI(MPI_Comm_free_keyval(&kc));
    MPI_Finalize();
    return check_status();
}
