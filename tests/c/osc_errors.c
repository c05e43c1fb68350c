//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Every one-sided error class, provoked with MPI_ERRORS_RETURN on the
 * window, and a user window error handler that receives the window. */
#include <string.h>
#include "check.h"

static int handler_calls;
static MPI_Win handler_win;

static void on_error(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_win = *win;
    (void)code;
}

int main(int argc, char **argv)
{
    int me, np, buf[16];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int one = 1, res;

    /* synchronisation */
    EXPECT_CLASS(MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_lock(12345, 0, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 77, win), MPI_ERR_ASSERT);
    EXPECT_CLASS(MPI_Win_fence(1, win), MPI_ERR_ASSERT);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);

    /* arguments, inside an epoch */
    EXPECT_CLASS(MPI_Put(&one, 1, MPI_INT, 0, 16, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    int two[2];
    EXPECT_CLASS(MPI_Get(two, 2, MPI_INT, 0, 15, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Get(&res, 1, MPI_INT, 0, 0, 2, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Put(&one, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_DISP);
    EXPECT_CLASS(MPI_Put(&one, 1, MPI_INT, np, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Put(&one, -1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Put(&one, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
    MPI_Op user;
    MPI_Op_create((MPI_User_function *)on_error, 1, &user);
    EXPECT_CLASS(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, user, win), MPI_ERR_OP);
    MPI_Op_free(&user);
    EXPECT_CLASS(MPI_Fetch_and_op(&one, &res, MPI_INT, 0, 99, MPI_SUM, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Compare_and_swap(&one, &one, &res, MPI_INT, 0, 16, win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Put(&one, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));

    /* flavour-specific */
    EXPECT_CLASS(MPI_Win_attach(win, buf, sizeof buf), MPI_ERR_RMA_FLAVOR);
    MPI_Aint sz;
    int du;
    void *p;
    EXPECT_CLASS(MPI_Win_shared_query(win, 0, &sz, &du, &p), MPI_ERR_RMA_FLAVOR);

    /* a user handler gets the window */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_create_errhandler(on_error, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    CHECK(handler_calls == 1 && handler_win == win, "handler calls %d, window %d (want %d)", handler_calls,
          handler_win, win);
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK(handler_calls == 2, "call_errhandler did not call the handler");
    MPI_Errhandler got;
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == eh, "get_errhandler returned another handler");
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&eh);
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_free(&win));

    /* dynamic windows: attachments */
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_attach(win, buf, sizeof buf));
    EXPECT_CLASS(MPI_Win_attach(win, buf + 2, 4), MPI_ERR_RMA_ATTACH);
    EXPECT_CLASS(MPI_Win_detach(win, buf + 1), MPI_ERR_RMA_ATTACH);
    MPI_Aint a;
    MPI_Get_address(buf, &a);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    CHECK_MPI(MPI_Put(&one, 1, MPI_INT, me, a + 4, 1, MPI_INT, win));
    EXPECT_CLASS(MPI_Put(&one, 1, MPI_INT, me, a + sizeof buf, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_unlock(me, win));
    CHECK(buf[1] == 1, "dynamic put to self: %d", buf[1]);
    CHECK_MPI(MPI_Win_detach(win, buf));
    CHECK_MPI(MPI_Win_free(&win));

    /* no_locks */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    CHECK_MPI(MPI_Win_allocate(64, 1, info, MPI_COMM_WORLD, &p, &win));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC);
    MPI_Info used;
    CHECK_MPI(MPI_Win_get_info(win, &used));
    char v[64];
    int flag;
    MPI_Info_get(used, "no_locks", sizeof v - 1, v, &flag);
    CHECK(flag && strcmp(v, "true") == 0, "no_locks hint not reported");
    MPI_Info_free(&used);
    /* attributes */
    void *base;
    MPI_Aint *size;
    int *model, *flavor;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
    CHECK(flag && base == p, "MPI_WIN_BASE");
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag));
    CHECK(flag && *size == 64, "MPI_WIN_SIZE");
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED, "MPI_WIN_MODEL");
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "MPI_WIN_CREATE_FLAVOR");
    CHECK_MPI(MPI_Win_set_name(win, "osc-errors"));
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(strcmp(name, "osc-errors") == 0 && len == 10, "name %s", name);
    CHECK_MPI(MPI_Win_free(&win));

    /* a bad handle goes to MPI_COMM_WORLD's handler */
    EXPECT_CLASS(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    EXPECT_CLASS(MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE);
    EXPECT_CLASS(MPI_Win_create(buf, 4, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
    MPI_Finalize();
    return check_status();
}
