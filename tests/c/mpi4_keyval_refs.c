//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Regression (issue 23): keyvals are reference-counted by the attributes
 * that use them. A keyval freed from inside its own delete callback, then
 * freed again through a copy of the handle while another communicator still
 * holds an attribute with it, must not abort the job (MPICH accepts this);
 * the other communicator's attribute stays readable and its delete callback
 * still runs when that communicator is freed. */
#include <mpi.h>

#include "check.h"

static int deletes;

static int del_fn(MPI_Comm comm, int keyval, void *val, void *extra) {
    (void)comm; (void)val; (void)extra;
    deletes++;
    if (deletes == 1) {
        int k = keyval;
        MPI_Comm_free_keyval(&k); /* free from inside its own callback */
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int key, copy;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &key, NULL));
    copy = key;
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    static int va = 1, vb = 2;
    CHECK_MPI(MPI_Comm_set_attr(a, key, &va));
    CHECK_MPI(MPI_Comm_set_attr(b, key, &vb));
    CHECK_MPI(MPI_Comm_delete_attr(a, key)); /* the callback frees the keyval */
    CHECK(deletes == 1, "deletes %d", deletes);
    int rc = MPI_Comm_free_keyval(&copy); /* again, through the copy */
    CHECK(rc == MPI_SUCCESS, "second free returned %d", rc); /* as MPICH */
    void *got = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(b, key, &got, &flag));
    CHECK(flag && got == &vb, "b's attribute lost: flag %d", flag);
    CHECK_MPI(MPI_Comm_free(&b));
    CHECK(deletes == 2, "b's delete callback: %d deletes", deletes);
    CHECK_MPI(MPI_Comm_free(&a));
    MPI_Finalize();
    return check_status();
}
