/* MPI-4.0/4.1 calls that need no new machinery: status accessors and
 * conversions, MPI_Pcontrol, MPI_Type_get_value_index, info and error-code
 * additions, MPI_Comm_idup_with_info. Go parts in capi/mpi4.go. */
#include <string.h>
#include "gompi.h"
#include "_cgo_export.h"

MPI_F08_status *MPI_F08_STATUS_IGNORE = 0;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = 0;

/* A profiling hook: with no profiler behind it, nothing to do. */
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
#pragma weak MPI_Pcontrol = PMPI_Pcontrol

#define STATUS_ARG(call, s)                                                                 \
    if (!(s) || GOMPI_STATUS_IGNORED(s))                                                    \
        return gompi_ArgError((char *)call, MPI_ERR_ARG, (char *)"status is NULL or ignored")
#define OUT_ARG(call, p)                                                                    \
    if (!(p)) return gompi_ArgError((char *)call, MPI_ERR_ARG, (char *)"output pointer is NULL")

int PMPI_Status_get_source(MPI_Status *status, int *source)
{
    STATUS_ARG("MPI_Status_get_source", status);
    OUT_ARG("MPI_Status_get_source", source);
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_get_source = PMPI_Status_get_source

int PMPI_Status_get_tag(MPI_Status *status, int *tag)
{
    STATUS_ARG("MPI_Status_get_tag", status);
    OUT_ARG("MPI_Status_get_tag", tag);
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_get_tag = PMPI_Status_get_tag

int PMPI_Status_get_error(MPI_Status *status, int *error)
{
    STATUS_ARG("MPI_Status_get_error", status);
    OUT_ARG("MPI_Status_get_error", error);
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_get_error = PMPI_Status_get_error

int PMPI_Status_set_source(MPI_Status *status, int source)
{
    STATUS_ARG("MPI_Status_set_source", status);
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_set_source = PMPI_Status_set_source

int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    STATUS_ARG("MPI_Status_set_tag", status);
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_set_tag = PMPI_Status_set_tag

int PMPI_Status_set_error(MPI_Status *status, int error)
{
    STATUS_ARG("MPI_Status_set_error", status);
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_set_error = PMPI_Status_set_error

/* The C, Fortran and Fortran 2008 statuses have the same five integers in
 * the same order (MPI_F_STATUS_SIZE 5), so every conversion is a copy. */
static int status_copy(const char *call, const void *in, void *out)
{
    if (!in || !out || GOMPI_STATUS_IGNORED(in) || GOMPI_STATUS_IGNORED(out) ||
        in == (const void *)MPI_F_STATUS_IGNORE || out == (void *)MPI_F_STATUS_IGNORE)
        return gompi_ArgError((char *)call, MPI_ERR_ARG, (char *)"a status argument is NULL or ignored");
    memmove(out, in, 5 * sizeof(int));
    return MPI_SUCCESS;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return status_copy("MPI_Status_c2f", c_status, f_status);
}
#pragma weak MPI_Status_c2f = PMPI_Status_c2f

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return status_copy("MPI_Status_f2c", f_status, c_status);
}
#pragma weak MPI_Status_f2c = PMPI_Status_f2c

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return status_copy("MPI_Status_f082c", f08_status, c_status);
}
#pragma weak MPI_Status_f082c = PMPI_Status_f082c

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return status_copy("MPI_Status_c2f08", c_status, f08_status);
}
#pragma weak MPI_Status_c2f08 = PMPI_Status_c2f08

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return status_copy("MPI_Status_f082f", f08_status, f_status);
}
#pragma weak MPI_Status_f082f = PMPI_Status_f082f

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return status_copy("MPI_Status_f2f08", f_status, f08_status);
}
#pragma weak MPI_Status_f2f08 = PMPI_Status_f2f08

/* The predefined (value, index) pair types of MINLOC/MAXLOC. */
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    static const struct { MPI_Datatype v, i, pair; } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    OUT_ARG("MPI_Type_get_value_index", pair_type);
    if (value_type == MPI_DATATYPE_NULL || index_type == MPI_DATATYPE_NULL)
        return gompi_ArgError((char *)"MPI_Type_get_value_index", MPI_ERR_TYPE, (char *)"a type is MPI_DATATYPE_NULL");
    *pair_type = MPI_DATATYPE_NULL; /* no predefined pair type for these two */
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (pairs[k].v == value_type && pairs[k].i == index_type)
            *pair_type = pairs[k].pair;
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_value_index = PMPI_Type_get_value_index

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    (void)argc; (void)argv; /* MPI_INFO_ENV already knows the command line */
    return gompi_Info_create_env(info);
}
#pragma weak MPI_Info_create_env = PMPI_Info_create_env

int PMPI_Get_hw_resource_info(MPI_Info *hw_info) { return gompi_Get_hw_resource_info(hw_info); }
#pragma weak MPI_Get_hw_resource_info = PMPI_Get_hw_resource_info

int PMPI_Remove_error_class(int errorclass) { return gompi_Remove_error(errorclass, 0); }
#pragma weak MPI_Remove_error_class = PMPI_Remove_error_class

int PMPI_Remove_error_code(int errorcode) { return gompi_Remove_error(errorcode, 1); }
#pragma weak MPI_Remove_error_code = PMPI_Remove_error_code

int PMPI_Remove_error_string(int errorcode) { return gompi_Remove_error(errorcode, 2); }
#pragma weak MPI_Remove_error_string = PMPI_Remove_error_string

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    return gompi_Comm_dup_info(comm, info, newcomm, request, "MPI_Comm_idup_with_info");
}
#pragma weak MPI_Comm_idup_with_info = PMPI_Comm_idup_with_info
