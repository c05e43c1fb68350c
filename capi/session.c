/* MPI-4 sessions (chapter 11.3): each entry forwards to capi/session.go. */
#include <stdlib.h>
#include "gompi.h"
#include "_cgo_export.h"

/* The world model's state for MPI_Initialized/MPI_Finalized: 0 before
 * MPI_Init, 1 after, 2 after MPI_Finalize. Sessions leave it alone. */
int gompi_world_model;

void gompi_call_session_errh(void *fn, int session, int code)
{
    MPI_Session s = session;
    int e = code;
    ((MPI_Session_errhandler_function *)fn)(&s, &e);
}

static void session_atexit(void) { gompi_Session_atexit(); }

/* A runtime only sessions used stops at exit (see mpi.SessionsAtExit). */
void gompi_session_register_atexit(void)
{
    static int done;
    if (!done) {
        done = 1;
        atexit(session_atexit);
    }
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    return gompi_Session_init(info, errhandler, session);
}
#pragma weak MPI_Session_init = PMPI_Session_init

int PMPI_Session_finalize(MPI_Session *session) { return gompi_Session_finalize(session); }
#pragma weak MPI_Session_finalize = PMPI_Session_finalize

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    return gompi_Session_get_num_psets(session, info, npset_names);
}
#pragma weak MPI_Session_get_num_psets = PMPI_Session_get_num_psets

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    return gompi_Session_get_nth_pset(session, info, n, pset_len, pset_name);
}
#pragma weak MPI_Session_get_nth_pset = PMPI_Session_get_nth_pset

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    return gompi_Session_get_pset_info(session, (char *)pset_name, info);
}
#pragma weak MPI_Session_get_pset_info = PMPI_Session_get_pset_info

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    return gompi_Session_get_info(session, info_used);
}
#pragma weak MPI_Session_get_info = PMPI_Session_get_info

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    return gompi_Group_from_session_pset(session, (char *)pset_name, newgroup);
}
#pragma weak MPI_Group_from_session_pset = PMPI_Group_from_session_pset

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    return gompi_Comm_create_from_group(group, (char *)stringtag, info, errhandler, newcomm);
}
#pragma weak MPI_Comm_create_from_group = PMPI_Comm_create_from_group

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return gompi_Session_create_errhandler((void *)fn, errhandler);
}
#pragma weak MPI_Session_create_errhandler = PMPI_Session_create_errhandler

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    return gompi_Session_errhandler(session, &errhandler, 1);
}
#pragma weak MPI_Session_set_errhandler = PMPI_Session_set_errhandler

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    return gompi_Session_errhandler(session, errhandler, 0);
}
#pragma weak MPI_Session_get_errhandler = PMPI_Session_get_errhandler

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    return gompi_Session_call_errhandler(session, errorcode);
}
#pragma weak MPI_Session_call_errhandler = PMPI_Session_call_errhandler
