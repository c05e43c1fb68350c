//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Datatype and window keyvals: attributes on a predefined and a derived
 * type, copy callbacks on MPI_Type_dup (MPI_TYPE_DUP_FN, NULL copy, a user
 * function), delete callbacks on overwrite, delete and MPI_Type_free, keyval
 * kinds checked (MPI_ERR_KEYVAL), window keyvals created and freed. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static char events[512];
static MPI_Datatype seen_type;

static void note(const char *what, void *val) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s%ld ", what, (long)(intptr_t)val);
    strncat(events, buf, sizeof events - strlen(events) - 1);
}

static int tcopy(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag) {
    (void)kv;
    (void)extra;
    seen_type = t;
    note("c", in);
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int tdelete(MPI_Datatype t, int kv, void *val, void *extra) {
    (void)t;
    (void)kv;
    (void)extra;
    note("d", val);
    return MPI_SUCCESS;
}

#define EVENTS(want)                                                              \
    do {                                                                          \
        CHECK(strcmp(events, want) == 0, "events '%s', want '%s'", events, want); \
        events[0] = 0;                                                            \
    } while (0)

#define V(x) ((void *)(intptr_t)(x))

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int k1, k2, k3, flag;
    void *v;
    CHECK_MPI(MPI_Type_create_keyval(tcopy, tdelete, &k1, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, tdelete, &k2, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k3, NULL));

    /* On a predefined type. */
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k1, V(5)));
    CHECK_MPI(MPI_Type_get_attr(MPI_INT, k1, &v, &flag));
    CHECK(flag && v == V(5), "MPI_INT attribute %p", v);
    CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, k1, &v, &flag));
    CHECK(flag == 0, "attribute leaked to MPI_DOUBLE");
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k1));
    EVENTS("d5 ");

    /* On a derived type, through dup and free. */
    MPI_Datatype t, d;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_attr(t, k1, V(10)));
    CHECK_MPI(MPI_Type_set_attr(t, k1, V(11)));
    EVENTS("d10 ");
    CHECK_MPI(MPI_Type_set_attr(t, k2, V(20)));
    CHECK_MPI(MPI_Type_set_attr(t, k3, V(30)));
    CHECK_MPI(MPI_Type_dup(t, &d));
    EVENTS("c11 ");
    CHECK(seen_type == t, "copy callback saw type %x, want %x", (unsigned)seen_type, (unsigned)t);
    CHECK_MPI(MPI_Type_get_attr(d, k1, &v, &flag));
    CHECK(flag && v == V(12), "dup k1 %p", v);
    CHECK_MPI(MPI_Type_get_attr(d, k2, &v, &flag));
    CHECK(flag && v == V(20), "dup k2 (MPI_TYPE_DUP_FN) %p", v);
    CHECK_MPI(MPI_Type_get_attr(d, k3, &v, &flag));
    CHECK(flag == 0, "NULL copy attribute copied");
    CHECK_MPI(MPI_Type_free(&d));
    EVENTS("d20 d12 ");
    CHECK_MPI(MPI_Type_free(&t));
    EVENTS("d20 d11 ");

    /* Kinds and windows. */
    int ck, wk, inv = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL));
    CHECK(wk != ck && wk != k1, "window keyval %x collides", wk);
    EXPECT_CLASS(MPI_Type_set_attr(MPI_INT, ck, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Type_set_attr(MPI_INT, wk, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, wk, V(1)), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Type_set_attr(MPI_DATATYPE_NULL, k1, V(1)), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Type_free_keyval(&wk), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Win_free_keyval(&inv), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Win_free_keyval(&wk));
    CHECK(wk == MPI_KEYVAL_INVALID, "Win_free_keyval did not reset the handle");
    CHECK_MPI(MPI_Comm_free_keyval(&ck));
    CHECK_MPI(MPI_Type_free_keyval(&k1));
    CHECK_MPI(MPI_Type_free_keyval(&k2));
    CHECK_MPI(MPI_Type_free_keyval(&k3));
    MPI_Finalize();
    return check_status();
}
