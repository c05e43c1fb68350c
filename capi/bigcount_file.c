/* Large-count (_c) MPI-IO data access: gompi_File_access takes its count
 * as MPI_Count for the int and _c forms alike (see file.c). */
#include <stdint.h>
#include "gompi.h"
#include "_cgo_export.h"

#define FH(f) ((int)(intptr_t)(f))
enum { W = 1, COLL = 2, INDIV = 4, SHARED = 8, NB = 16, BEGIN = 32, ORDERED = 64 };

#define ACC(name, flags, off, buf, st, req) \
    gompi_File_access("MPI_File_" name "_c", FH(fh), (flags), (off), (void *)(buf), count, datatype, (uintptr_t)(st), (req))

#define BLOCKING(fn, name, flags, CONST)                                                                       \
    int PMPI_File_##fn##_c(MPI_File fh, CONST void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status) \
    {                                                                                                          \
        return ACC(name, flags, 0, buf, status, NULL);                                                         \
    }
#define BLOCKING_AT(fn, name, flags, CONST)                                                                \
    int PMPI_File_##fn##_c(MPI_File fh, MPI_Offset offset, CONST void *buf, MPI_Count count,              \
                           MPI_Datatype datatype, MPI_Status *status)                                      \
    {                                                                                                      \
        return ACC(name, flags, offset, buf, status, NULL);                                                \
    }
#define NONBLOCKING(fn, name, flags, CONST)                                                                      \
    int PMPI_File_##fn##_c(MPI_File fh, CONST void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request) \
    {                                                                                                            \
        return ACC(name, (flags) | NB, 0, buf, 0, request);                                                      \
    }
#define NONBLOCKING_AT(fn, name, flags, CONST)                                                             \
    int PMPI_File_##fn##_c(MPI_File fh, MPI_Offset offset, CONST void *buf, MPI_Count count,              \
                           MPI_Datatype datatype, MPI_Request *request)                                    \
    {                                                                                                      \
        return ACC(name, (flags) | NB, offset, buf, 0, request);                                           \
    }
#define BEGIN_(fn, name, flags, CONST)                                                             \
    int PMPI_File_##fn##_c(MPI_File fh, CONST void *buf, MPI_Count count, MPI_Datatype datatype)   \
    {                                                                                              \
        return ACC(name, (flags) | BEGIN, 0, buf, 0, NULL);                                        \
    }
#define BEGIN_AT(fn, name, flags, CONST)                                                                        \
    int PMPI_File_##fn##_c(MPI_File fh, MPI_Offset offset, CONST void *buf, MPI_Count count, MPI_Datatype datatype) \
    {                                                                                                           \
        return ACC(name, (flags) | BEGIN, offset, buf, 0, NULL);                                                \
    }

#define NOCONST
BLOCKING_AT(read_at, "read_at", 0, NOCONST)
BLOCKING_AT(read_at_all, "read_at_all", COLL, NOCONST)
BLOCKING_AT(write_at, "write_at", W, const)
BLOCKING_AT(write_at_all, "write_at_all", W | COLL, const)
NONBLOCKING_AT(iread_at, "iread_at", 0, NOCONST)
NONBLOCKING_AT(iwrite_at, "iwrite_at", W, const)
NONBLOCKING_AT(iread_at_all, "iread_at_all", COLL, NOCONST)
NONBLOCKING_AT(iwrite_at_all, "iwrite_at_all", W | COLL, const)
BLOCKING(read, "read", INDIV, NOCONST)
BLOCKING(read_all, "read_all", INDIV | COLL, NOCONST)
BLOCKING(write, "write", INDIV | W, const)
BLOCKING(write_all, "write_all", INDIV | W | COLL, const)
NONBLOCKING(iread, "iread", INDIV, NOCONST)
NONBLOCKING(iwrite, "iwrite", INDIV | W, const)
NONBLOCKING(iread_all, "iread_all", INDIV | COLL, NOCONST)
NONBLOCKING(iwrite_all, "iwrite_all", INDIV | W | COLL, const)
BLOCKING(read_shared, "read_shared", SHARED, NOCONST)
BLOCKING(write_shared, "write_shared", SHARED | W, const)
NONBLOCKING(iread_shared, "iread_shared", SHARED, NOCONST)
NONBLOCKING(iwrite_shared, "iwrite_shared", SHARED | W, const)
BLOCKING(read_ordered, "read_ordered", ORDERED, NOCONST)
BLOCKING(write_ordered, "write_ordered", ORDERED | W, const)
BEGIN_AT(read_at_all_begin, "read_at_all_begin", COLL, NOCONST)
BEGIN_AT(write_at_all_begin, "write_at_all_begin", W | COLL, const)
BEGIN_(read_all_begin, "read_all_begin", INDIV | COLL, NOCONST)
BEGIN_(write_all_begin, "write_all_begin", INDIV | W | COLL, const)
BEGIN_(read_ordered_begin, "read_ordered_begin", ORDERED, NOCONST)
BEGIN_(write_ordered_begin, "write_ordered_begin", ORDERED | W, const)

#pragma weak MPI_File_read_at_c = PMPI_File_read_at_c
#pragma weak MPI_File_read_at_all_c = PMPI_File_read_at_all_c
#pragma weak MPI_File_write_at_c = PMPI_File_write_at_c
#pragma weak MPI_File_write_at_all_c = PMPI_File_write_at_all_c
#pragma weak MPI_File_iread_at_c = PMPI_File_iread_at_c
#pragma weak MPI_File_iwrite_at_c = PMPI_File_iwrite_at_c
#pragma weak MPI_File_iread_at_all_c = PMPI_File_iread_at_all_c
#pragma weak MPI_File_iwrite_at_all_c = PMPI_File_iwrite_at_all_c
#pragma weak MPI_File_read_c = PMPI_File_read_c
#pragma weak MPI_File_read_all_c = PMPI_File_read_all_c
#pragma weak MPI_File_write_c = PMPI_File_write_c
#pragma weak MPI_File_write_all_c = PMPI_File_write_all_c
#pragma weak MPI_File_iread_c = PMPI_File_iread_c
#pragma weak MPI_File_iwrite_c = PMPI_File_iwrite_c
#pragma weak MPI_File_iread_all_c = PMPI_File_iread_all_c
#pragma weak MPI_File_iwrite_all_c = PMPI_File_iwrite_all_c
#pragma weak MPI_File_read_shared_c = PMPI_File_read_shared_c
#pragma weak MPI_File_write_shared_c = PMPI_File_write_shared_c
#pragma weak MPI_File_iread_shared_c = PMPI_File_iread_shared_c
#pragma weak MPI_File_iwrite_shared_c = PMPI_File_iwrite_shared_c
#pragma weak MPI_File_read_ordered_c = PMPI_File_read_ordered_c
#pragma weak MPI_File_write_ordered_c = PMPI_File_write_ordered_c
#pragma weak MPI_File_read_at_all_begin_c = PMPI_File_read_at_all_begin_c
#pragma weak MPI_File_write_at_all_begin_c = PMPI_File_write_at_all_begin_c
#pragma weak MPI_File_read_all_begin_c = PMPI_File_read_all_begin_c
#pragma weak MPI_File_write_all_begin_c = PMPI_File_write_all_begin_c
#pragma weak MPI_File_read_ordered_begin_c = PMPI_File_read_ordered_begin_c
#pragma weak MPI_File_write_ordered_begin_c = PMPI_File_write_ordered_begin_c

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    return gompi_File_get_type_extent(FH(fh), datatype, extent);
}
#pragma weak MPI_File_get_type_extent_c = PMPI_File_get_type_extent_c

/* As MPI_Register_datarep, with conversions that take an MPI_Count count
 * (convention 2 in datarep.c). */
int PMPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    if (!dtype_file_extent_fn)
        return gompi_ArgError((char *)"MPI_Register_datarep_c", MPI_ERR_ARG, (char *)"dtype_file_extent_fn is NULL");
    return gompi_Register_datarep((char *)datarep, (void *)read_conversion_fn, (void *)write_conversion_fn,
                                  (void *)dtype_file_extent_fn, extra_state, 2);
}
#pragma weak MPI_Register_datarep_c = PMPI_Register_datarep_c
