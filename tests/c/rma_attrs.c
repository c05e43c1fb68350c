//go:build ignore

/* gompi-test: np=1,2,3 timeout=60 */
/* Window attributes and the objects hanging off a window:
 * - predefined MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
 *   MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL (MPI_WIN_UNIFIED) for the create,
 *   allocate, allocate_shared and dynamic flavours;
 * - a user keyval with copy and delete callbacks: set, get, overwrite
 *   (delete called for the old value), delete, and Win_free calling the
 *   delete callback for what is still set; Win_free_keyval;
 * - Win_set_name/get_name (default empty, MPI_MAX_OBJECT_NAME), Win_get_group
 *   (same members as the communicator);
 * - Win_set_info/get_info with no_locks, accumulate_ordering,
 *   accumulate_ops, same_size, same_disp_unit: the info given at creation
 *   is used (get_info returns an info the caller frees; a key, when returned,
 *   has a valid value);
 * - Win_create_errhandler + Win_set_errhandler + Win_call_errhandler: the
 *   user handler gets the window and the code.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..3 (its Win_allocate gives a
 * baseptr 8 bytes off MPI_WIN_BASE when sizes are not multiples of 64: hence
 * 1024+64*rank). Open MPI 4.1.4 names windows "rdma window N" by default
 * where the standard wants an empty name. */
#include <string.h>

#include "check.h"

static int deletes, copies, last_deleted;

static int copy_fn(MPI_Win w, int kv, void *extra, void *in, void *out, int *flag) {
    (void)w, (void)kv, (void)extra, (void)in, (void)out;
    copies++;
    *flag = 0;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Win w, int kv, void *val, void *extra) {
    (void)w, (void)kv;
    CHECK(extra == &deletes, "delete callback: extra_state %p", extra);
    deletes++;
    last_deleted = (int)(long)val;
    return MPI_SUCCESS;
}

static MPI_Win handled_win;
static int handled_code, handled_calls;
static void win_handler(MPI_Win *w, int *code, ...) {
    handled_win = *w;
    handled_code = *code;
    handled_calls++;
}

static void check_predef(MPI_Win win, void *base, MPI_Aint size, int du, int flavour) {
    void *p;
    MPI_Aint *sp;
    int *ip, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &p, &flag));
    CHECK(flag && p == base, "MPI_WIN_BASE %p, want %p (flavour %d)", flag ? p : NULL, base, flavour);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sp, &flag));
    CHECK(flag && *sp == size, "MPI_WIN_SIZE %ld, want %ld (flavour %d)", flag ? (long)*sp : -1L, (long)size,
          flavour);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &ip, &flag));
    CHECK(flag && *ip == du, "MPI_WIN_DISP_UNIT %d, want %d (flavour %d)", flag ? *ip : -1, du, flavour);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &ip, &flag));
    CHECK(flag && *ip == flavour, "MPI_WIN_CREATE_FLAVOR %d, want %d", flag ? *ip : -1, flavour);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &ip, &flag));
    CHECK(flag && *ip == MPI_WIN_UNIFIED, "MPI_WIN_MODEL %d, want MPI_WIN_UNIFIED", flag ? *ip : -1);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;

    /* Predefined attributes of each flavour. */
    static double buf[100];
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, 800, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_predef(win, buf, 800, 8, MPI_WIN_FLAVOR_CREATE);
    CHECK_MPI(MPI_Win_free(&win));
    void *ab;
    CHECK_MPI(MPI_Win_allocate(1024 + 64 * me, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &ab, &win));
    check_predef(win, ab, 1024 + 64 * me, 4, MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_allocate_shared(512, 2, MPI_INFO_NULL, MPI_COMM_WORLD, &ab, &win));
    check_predef(win, ab, 512, 2, MPI_WIN_FLAVOR_SHARED);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_predef(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
    CHECK_MPI(MPI_Win_free(&win));

    /* User keyval with callbacks. */
    int kv;
    CHECK_MPI(MPI_Win_create_keyval(copy_fn, delete_fn, &kv, &deletes));
    CHECK_MPI(MPI_Win_create(buf, 800, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    void *val;
    int flag;
    CHECK_MPI(MPI_Win_get_attr(win, kv, &val, &flag));
    CHECK(!flag, "attribute set before Win_set_attr");
    CHECK_MPI(MPI_Win_set_attr(win, kv, (void *)11L));
    CHECK_MPI(MPI_Win_get_attr(win, kv, &val, &flag));
    CHECK(flag && val == (void *)11L, "attribute get after set: flag %d val %p", flag, val);
    CHECK(deletes == 0, "delete called %d times before any overwrite", deletes);
    CHECK_MPI(MPI_Win_set_attr(win, kv, (void *)22L));
    CHECK(deletes == 1 && last_deleted == 11, "overwrite: deletes %d last %d", deletes, last_deleted);
    CHECK_MPI(MPI_Win_delete_attr(win, kv));
    CHECK(deletes == 2 && last_deleted == 22, "delete_attr: deletes %d last %d", deletes, last_deleted);
    CHECK_MPI(MPI_Win_get_attr(win, kv, &val, &flag));
    CHECK(!flag, "attribute still there after Win_delete_attr");
    CHECK_MPI(MPI_Win_set_attr(win, kv, (void *)33L));
    int kv2;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv2, NULL));
    CHECK_MPI(MPI_Win_set_attr(win, kv2, (void *)44L));
    CHECK_MPI(MPI_Win_free_keyval(&kv2));
    CHECK(kv2 == MPI_KEYVAL_INVALID, "Win_free_keyval left %d", kv2);

    /* Names. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 0 && name[0] == 0, "default window name \"%s\" (%d)", name, len);
    CHECK_MPI(MPI_Win_set_name(win, "my window"));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 9 && strcmp(name, "my window") == 0, "window name \"%s\" (%d)", name, len);

    /* Group. */
    MPI_Group wg, cg;
    int res;
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    MPI_Comm_group(MPI_COMM_WORLD, &cg);
    CHECK_MPI(MPI_Group_compare(wg, cg, &res));
    CHECK(res == MPI_IDENT, "window group vs communicator group: %d", res);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);

    /* Error handler: a user one, called through Win_call_errhandler. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_create_errhandler(win_handler, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC));
    CHECK(handled_calls == 1 && handled_win == win && handled_code == MPI_ERR_RMA_SYNC,
          "user handler: calls %d code %d", handled_calls, handled_code);
    /* A real error goes to it too. */
    MPI_Win_unlock(0, win);
    CHECK(handled_calls == 2 && handled_win == win && handled_code != MPI_SUCCESS,
          "unlock without lock did not reach the window's handler (calls %d)", handled_calls);
    if (handled_calls == 2) {
        int cls;
        MPI_Error_class(handled_code, &cls);
        CHECK(cls == MPI_ERR_RMA_SYNC, "unlock without lock: class %d", cls);
    }

    /* Win_free calls the delete callback of what is still set. */
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(deletes == 3 && last_deleted == 33, "Win_free: deletes %d last %d", deletes, last_deleted);
    CHECK(copies == 0, "copy callback called %d times (windows are never copied)", copies);
    CHECK_MPI(MPI_Win_free_keyval(&kv));

    /* Info: hints given at creation, then set_info. */
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Info_set(info, "same_size", "true");
    MPI_Info_set(info, "same_disp_unit", "true");
    CHECK_MPI(MPI_Win_allocate(64, 8, info, MPI_COMM_WORLD, &ab, &win));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Win_get_info(win, &used));
    CHECK(used != MPI_INFO_NULL, "Win_get_info gave MPI_INFO_NULL");
    static const char *keys[] = {"no_locks", "accumulate_ordering", "accumulate_ops", "same_size",
                                 "same_disp_unit"};
    static const char *vals[] = {"true", "none", "same_op", "true", "true"};
    for (int k = 0; k < 5; k++) {
        char v[MPI_MAX_INFO_VAL + 1];
        int vl, found;
        CHECK_MPI(MPI_Info_get_valuelen(used, keys[k], &vl, &found));
        if (!found)
            continue; /* an MPI may drop hints it does not use */
        CHECK_MPI(MPI_Info_get(used, keys[k], MPI_MAX_INFO_VAL, v, &found));
        CHECK(found && strcmp(v, vals[k]) == 0, "info %s = \"%s\", want \"%s\"", keys[k], v, vals[k]);
    }
    MPI_Info_free(&used);
    /* Fence works on a no_locks window. */
    CHECK_MPI(MPI_Win_fence(0, win));
    double d = me;
    CHECK_MPI(MPI_Put(&d, 1, MPI_DOUBLE, (me + 1) % np, 3, 1, MPI_DOUBLE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(((double *)ab)[3] == (me + np - 1) % np, "put on a no_locks window: %g", ((double *)ab)[3]);
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "rar,raw,war,waw");
    CHECK_MPI(MPI_Win_set_info(win, info));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Win_get_info(win, &used));
    {
        char v[MPI_MAX_INFO_VAL + 1];
        int found;
        CHECK_MPI(MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, v, &found));
        if (found)
            CHECK(strcmp(v, "none") == 0 || strcmp(v, "rar,raw,war,waw") == 0, "accumulate_ordering \"%s\"", v);
    }
    MPI_Info_free(&used);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return check_status();
}
