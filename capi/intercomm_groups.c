/* MPI_Intercomm_create_from_groups (MPI-4.0, sessions): forwards to
 * capi/intercomm_groups.go. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    return gompi_Intercomm_create_from_groups(local_group, local_leader, remote_group, remote_leader,
                                              (char *)stringtag, info, errhandler, newintercomm);
}
#pragma weak MPI_Intercomm_create_from_groups = PMPI_Intercomm_create_from_groups
