//go:build ignore

/* gompi-test: np=1,2,3 timeout=60 */
/* Communicator attributes: set/get/delete with the MPI-2 and MPI-1 names,
 * delete callbacks on overwrite, delete and free (most recent first), copy
 * callbacks on MPI_Comm_dup with their flag and extra state (MPI_COMM_DUP_FN,
 * MPI_COMM_NULL_COPY_FN, a user function), keyvals freed while in use, a
 * failing callback failing the call with its code, and the argument errors
 * under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

static char events[1024];
static int copy_rc, delete_rc, extra_seen;

static void note(const char *what, void *val) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s%ld ", what, (long)(intptr_t)val);
    strncat(events, buf, sizeof events - strlen(events) - 1);
}

static int my_copy(MPI_Comm comm, int kv, void *extra, void *in, void *out, int *flag) {
    (void)comm;
    (void)kv;
    extra_seen = *(int *)extra;
    note("c", in);
    if (copy_rc)
        return copy_rc;
    *(void **)out = (void *)((intptr_t)in + 100);
    *flag = 1;
    return MPI_SUCCESS;
}

static int no_keep(MPI_Comm comm, int kv, void *extra, void *in, void *out, int *flag) {
    (void)comm;
    (void)kv;
    (void)extra;
    (void)out;
    note("n", in);
    *flag = 0;
    return MPI_SUCCESS;
}

static int my_delete(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)comm;
    (void)kv;
    (void)extra;
    note("d", val);
    return delete_rc;
}

#define EVENTS(want)                                                                   \
    do {                                                                               \
        CHECK(strcmp(events, want) == 0, "events '%s', want '%s'", events, want);      \
        events[0] = 0;                                                                 \
    } while (0)

#define V(x) ((void *)(intptr_t)(x))

static void *get(MPI_Comm comm, int kv, int *flag) {
    void *v = V(-1);
    CHECK_MPI(MPI_Comm_get_attr(comm, kv, &v, flag));
    return v;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int extra = 4242, k1, k2, k3, k4, flag;
    CHECK_MPI(MPI_Comm_create_keyval(my_copy, my_delete, &k1, &extra));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, my_delete, &k2, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
    CHECK_MPI(MPI_Keyval_create(no_keep, my_delete, &k4, NULL));
    CHECK(k1 != k2 && k2 != k3 && k3 != k4 && k1 != MPI_KEYVAL_INVALID, "keyvals %x %x %x %x", k1, k2, k3, k4);

    /* Set, get, overwrite, delete. */
    get(MPI_COMM_WORLD, k1, &flag);
    CHECK(flag == 0, "unset attribute has flag %d", flag);
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, V(1)));
    void *v = get(MPI_COMM_WORLD, k1, &flag);
    CHECK(flag == 1 && v == V(1), "get: flag %d value %p", flag, v);
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, V(2)));
    EVENTS("d1 ");
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag));
    CHECK(flag && v == V(2), "Attr_get %p", v);
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k1));
    EVENTS("d2 ");
    get(MPI_COMM_WORLD, k1, &flag);
    CHECK(flag == 0, "deleted attribute still set");
    CHECK_MPI(MPI_Attr_put(MPI_COMM_SELF, k1, V(3)));
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_SELF, k1));
    EVENTS("d3 ");
    get(MPI_COMM_WORLD, k1, &flag);

    /* Attributes are per communicator. */
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k2, V(7)));
    get(MPI_COMM_WORLD, k2, &flag);
    CHECK(flag == 0, "self's attribute visible on world");
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, k2));
    EVENTS("d7 ");

    /* Dup: copy callbacks in order of setting, then free deletes newest first. */
    MPI_Comm dup, dup2;
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, V(10)));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k2, V(20)));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k3, V(30)));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k4, V(40)));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    EVENTS("c10 n40 ");
    CHECK(extra_seen == 4242, "extra state %d", extra_seen);
    v = get(dup, k1, &flag);
    CHECK(flag && v == V(110), "copied k1: flag %d value %p", flag, v);
    get(dup, k2, &flag);
    CHECK(flag == 0, "MPI_COMM_NULL_COPY_FN attribute was copied");
    v = get(dup, k3, &flag);
    CHECK(flag && v == V(30), "MPI_COMM_DUP_FN copy: flag %d value %p", flag, v);
    get(dup, k4, &flag);
    CHECK(flag == 0, "copy with flag 0 was attached");

    /* A keyval freed while in use keeps working for existing attributes. */
    int k1saved = k1;
    CHECK_MPI(MPI_Comm_free_keyval(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID, "free_keyval did not reset the handle");
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    EVENTS("c110 ");
    v = get(dup2, k1saved, &flag);
    CHECK(flag && v == V(210), "copy through a freed keyval: %p", v);
    CHECK_MPI(MPI_Comm_free(&dup2));
    EVENTS("d210 ");
    CHECK_MPI(MPI_Comm_free(&dup));
    EVENTS("d110 ");
    CHECK(dup == MPI_COMM_NULL, "free did not reset the handle");

    /* A failing copy callback fails the dup with its code. */
    int ucls, ucode;
    CHECK_MPI(MPI_Add_error_class(&ucls));
    CHECK_MPI(MPI_Add_error_code(ucls, &ucode));
    copy_rc = ucode;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(rc == ucode, "dup with a failing copy returned %d, want %d", rc, ucode);
    CHECK(err_class(rc) == ucls, "class %d", err_class(rc));
    copy_rc = 0;
    EVENTS("c10 ");

    /* A failing delete callback fails delete and free; the attribute stays. */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    EVENTS("c10 n40 ");
    delete_rc = MPI_ERR_OTHER;
    rc = MPI_Comm_delete_attr(dup, k1saved);
    CHECK(err_class(rc) == MPI_ERR_OTHER, "failing delete returned %d", rc);
    get(dup, k1saved, &flag);
    CHECK(flag == 1, "attribute gone after a failing delete");
    rc = MPI_Comm_free(&dup);
    CHECK(err_class(rc) == MPI_ERR_OTHER, "free with a failing delete returned %d", rc);
    delete_rc = 0;
    events[0] = 0;
    if (dup != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_free(&dup));
        EVENTS("d110 ");
    }

    /* Argument errors. */
    int bad = 0x12345, inv = MPI_KEYVAL_INVALID, tag = MPI_TAG_UB, tk;
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, bad, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, bad, &v, &flag), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, bad), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_NULL, k2, V(1)), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_NULL, k2, &v, &flag), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, k2, NULL, &flag), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_free_keyval(&tag), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_free_keyval(&inv), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, tk, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_free_keyval(&tk), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Type_free_keyval(&tk));
    int k2copy = k2;
    CHECK_MPI(MPI_Comm_free_keyval(&k2));
    CHECK_MPI(MPI_Comm_free_keyval(&k2copy)); /* world still holds k2: accepted, as MPICH */

    /* Finalize deletes what is left on world (k1 10, k2 20, k4 40). */
    CHECK_MPI(MPI_Comm_free_keyval(&k3));
    CHECK_MPI(MPI_Keyval_free(&k4));
    MPI_Finalize();
    return check_status();
}
