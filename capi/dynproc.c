/* Process creation and management: spawn, ports, names, join, disconnect. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[])
{
    char *cmds[1] = {(char *)command};
    char **argvs[1] = {argv};
    int mp[1] = {maxprocs};
    MPI_Info infos[1] = {info};
    return gompi_Comm_spawn_multiple(1, cmds, argvs, mp, infos, root, comm, intercomm, array_of_errcodes,
                                     "MPI_Comm_spawn");
}
#pragma weak MPI_Comm_spawn = PMPI_Comm_spawn

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                             MPI_Comm *intercomm, int array_of_errcodes[])
{
    return gompi_Comm_spawn_multiple(count, array_of_commands, array_of_argv, (int *)array_of_maxprocs,
                                     (MPI_Info *)array_of_info, root, comm, intercomm, array_of_errcodes,
                                     "MPI_Comm_spawn_multiple");
}
#pragma weak MPI_Comm_spawn_multiple = PMPI_Comm_spawn_multiple

int PMPI_Comm_get_parent(MPI_Comm *parent) { return gompi_Comm_get_parent(parent); }
#pragma weak MPI_Comm_get_parent = PMPI_Comm_get_parent

int PMPI_Open_port(MPI_Info info, char *port_name) { return gompi_Open_port(info, port_name); }
#pragma weak MPI_Open_port = PMPI_Open_port

int PMPI_Close_port(const char *port_name) { return gompi_Close_port((char *)port_name); }
#pragma weak MPI_Close_port = PMPI_Close_port

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    return gompi_Comm_accept_connect((char *)port_name, info, root, comm, newcomm, 1);
}
#pragma weak MPI_Comm_accept = PMPI_Comm_accept

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    return gompi_Comm_accept_connect((char *)port_name, info, root, comm, newcomm, 0);
}
#pragma weak MPI_Comm_connect = PMPI_Comm_connect

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    return gompi_Name_service((char *)service_name, info, (char *)port_name, 0);
}
#pragma weak MPI_Publish_name = PMPI_Publish_name

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    return gompi_Name_service((char *)service_name, info, (char *)port_name, 1);
}
#pragma weak MPI_Unpublish_name = PMPI_Unpublish_name

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    return gompi_Name_service((char *)service_name, info, port_name, 2);
}
#pragma weak MPI_Lookup_name = PMPI_Lookup_name

int PMPI_Comm_disconnect(MPI_Comm *comm) { return gompi_Comm_disconnect(comm); }
#pragma weak MPI_Comm_disconnect = PMPI_Comm_disconnect

int PMPI_Comm_join(int fd, MPI_Comm *intercomm) { return gompi_Comm_join(fd, intercomm); }
#pragma weak MPI_Comm_join = PMPI_Comm_join
