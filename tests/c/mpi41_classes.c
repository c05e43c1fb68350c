//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI-4.1 classes: MPI_ERR_ERRHANDLER for an invalid errhandler argument
 * (a handler of the wrong kind, MPI_ERRHANDLER_NULL, a freed one) on
 * communicators, windows and sessions, and MPI_T_ERR_NOT_ACCESSIBLE for
 * writing a control variable of read-only scope; both are error classes
 * MPI_Error_class and MPI_Error_string know. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static void comm_handler(MPI_Comm *c, int *code, ...) { (void)c, (void)code; }
static void file_handler(MPI_File *f, int *code, ...) { (void)f, (void)code; }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* The classes are known, with their names in the strings. */
    int cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Error_class(MPI_ERR_ERRHANDLER, &cls));
    CHECK(cls == MPI_ERR_ERRHANDLER, "class of MPI_ERR_ERRHANDLER is %d", cls);
    CHECK_MPI(MPI_Error_string(MPI_ERR_ERRHANDLER, text, &len));
    CHECK(strstr(text, "MPI_ERR_ERRHANDLER") != NULL, "string: %s", text);
    CHECK_MPI(MPI_Error_class(MPI_T_ERR_NOT_ACCESSIBLE, &cls));
    CHECK(cls == MPI_T_ERR_NOT_ACCESSIBLE, "class of MPI_T_ERR_NOT_ACCESSIBLE is %d", cls);
    CHECK_MPI(MPI_Error_string(MPI_T_ERR_NOT_ACCESSIBLE, text, &len));
    CHECK(strstr(text, "MPI_T_ERR_NOT_ACCESSIBLE") != NULL, "string: %s", text);
    CHECK(MPI_ERR_ERRHANDLER <= MPI_ERR_LASTCODE && MPI_T_ERR_NOT_ACCESSIBLE <= MPI_ERR_LASTCODE,
          "classes above MPI_ERR_LASTCODE");

    /* MPI_ERR_ERRHANDLER: wrong kind, null, freed. */
    MPI_Errhandler feh, ceh, stale;
    CHECK_MPI(MPI_File_create_errhandler(file_handler, &feh));
    CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &ceh));
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, feh), MPI_ERR_ERRHANDLER);
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER);
    stale = ceh;
    CHECK_MPI(MPI_Errhandler_free(&ceh));
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, stale), MPI_ERR_ERRHANDLER);
    EXPECT_CLASS(MPI_Errhandler_free(&stale), MPI_ERR_ERRHANDLER);

    MPI_Win win;
    int cell = 0;
    CHECK_MPI(MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Win_set_errhandler(win, feh), MPI_ERR_ERRHANDLER);
    CHECK_MPI(MPI_Win_free(&win));

    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    EXPECT_CLASS(MPI_Session_set_errhandler(s, feh), MPI_ERR_ERRHANDLER);
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK_MPI(MPI_Errhandler_free(&feh));

    /* MPI_T_ERR_NOT_ACCESSIBLE: GOMPI_JOBID is read-only (the launcher sets
     * it); a settable variable after MPI_Init is still CVAR_SET_NEVER. */
    int provided, idx = -1, count, scope = -1, verbosity, bind, nlen = 0, dlen = 0;
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_handle h;
    char name[256], value[256] = "x";
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_MPI(MPI_T_cvar_get_index("GOMPI_JOBID", &idx));
    CHECK_MPI(MPI_T_cvar_get_info(idx, name, &nlen, &verbosity, &dt, &en, NULL, &dlen, &bind, &scope));
    CHECK(scope == MPI_T_SCOPE_READONLY, "GOMPI_JOBID scope %d", scope);
    CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    int rc = MPI_T_cvar_write(h, value);
    CHECK(rc == MPI_T_ERR_NOT_ACCESSIBLE, "write of a read-only cvar returned %d", rc);
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    CHECK_MPI(MPI_T_cvar_get_index("GOMPI_EAGER_LIMIT", &idx));
    CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    int limit = 1024;
    rc = MPI_T_cvar_write(h, &limit);
    CHECK(rc == MPI_T_ERR_CVAR_SET_NEVER, "write after MPI_Init returned %d", rc);
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    CHECK_MPI(MPI_T_finalize());

    MPI_Finalize();
    return check_status();
}
