/* MPI_File_*: MPI-IO. MPI_File is a pointer in MPICH's ABI; gompi's file
 * handles are small integers carried in it (MPI_FILE_NULL stays NULL). Every
 * data access goes through one Go entry, gompi_File_access, with flags
 * saying which of the 30-odd access routines it is. */
#include <stdint.h>
#include "gompi.h"
#include "_cgo_export.h"

#define FH(f) ((int)(intptr_t)(f))
#define FILE_OF(h) ((MPI_File)(uintptr_t)(unsigned)(h))

enum { W = 1, COLL = 2, INDIV = 4, SHARED = 8, NB = 16, BEGIN = 32, ORDERED = 64 };

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    int h = 0;
    int rc = gompi_File_open(comm, (char *)filename, amode, info, &h, fh != NULL);
    if (fh != NULL)
        *fh = rc == MPI_SUCCESS ? FILE_OF(h) : MPI_FILE_NULL;
    return rc;
}
#pragma weak MPI_File_open = PMPI_File_open

int PMPI_File_close(MPI_File *fh)
{
    if (fh == NULL)
        return gompi_File_close(0, 0);
    int rc = gompi_File_close(FH(*fh), 1);
    if (rc == MPI_SUCCESS)
        *fh = MPI_FILE_NULL;
    return rc;
}
#pragma weak MPI_File_close = PMPI_File_close

int PMPI_File_delete(const char *filename, MPI_Info info) { return gompi_File_delete((char *)filename, info); }
#pragma weak MPI_File_delete = PMPI_File_delete

int PMPI_File_set_size(MPI_File fh, MPI_Offset size) { return gompi_File_set_size(FH(fh), size, 0); }
#pragma weak MPI_File_set_size = PMPI_File_set_size

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) { return gompi_File_set_size(FH(fh), size, 1); }
#pragma weak MPI_File_preallocate = PMPI_File_preallocate

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size) { return gompi_File_get_offset(FH(fh), size, 0, 0); }
#pragma weak MPI_File_get_size = PMPI_File_get_size

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset) { return gompi_File_get_offset(FH(fh), offset, 1, 0); }
#pragma weak MPI_File_get_position = PMPI_File_get_position

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset) { return gompi_File_get_offset(FH(fh), offset, 2, 0); }
#pragma weak MPI_File_get_position_shared = PMPI_File_get_position_shared

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    return gompi_File_get_offset(FH(fh), disp, 3, offset);
}
#pragma weak MPI_File_get_byte_offset = PMPI_File_get_byte_offset

int PMPI_File_get_group(MPI_File fh, MPI_Group *group) { return gompi_File_get_int(FH(fh), group, 0); }
#pragma weak MPI_File_get_group = PMPI_File_get_group

int PMPI_File_get_amode(MPI_File fh, int *amode) { return gompi_File_get_int(FH(fh), amode, 1); }
#pragma weak MPI_File_get_amode = PMPI_File_get_amode

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used) { return gompi_File_get_int(FH(fh), info_used, 2); }
#pragma weak MPI_File_get_info = PMPI_File_get_info

int PMPI_File_get_atomicity(MPI_File fh, int *flag) { return gompi_File_get_int(FH(fh), flag, 3); }
#pragma weak MPI_File_get_atomicity = PMPI_File_get_atomicity

int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *errhandler) { return gompi_File_get_int(FH(fh), errhandler, 4); }
#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler

int PMPI_File_set_info(MPI_File fh, MPI_Info info) { return gompi_File_set_int(FH(fh), info, 0); }
#pragma weak MPI_File_set_info = PMPI_File_set_info

int PMPI_File_set_atomicity(MPI_File fh, int flag) { return gompi_File_set_int(FH(fh), flag, 1); }
#pragma weak MPI_File_set_atomicity = PMPI_File_set_atomicity

int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler errhandler) { return gompi_File_set_int(FH(fh), errhandler, 2); }
#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler

int PMPI_File_call_errhandler(MPI_File fh, int errorcode) { return gompi_File_set_int(FH(fh), errorcode, 3); }
#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler

int PMPI_File_sync(MPI_File fh) { return gompi_File_set_int(FH(fh), 0, 4); }
#pragma weak MPI_File_sync = PMPI_File_sync

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) { return gompi_File_seek(FH(fh), offset, whence, 0); }
#pragma weak MPI_File_seek = PMPI_File_seek

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) { return gompi_File_seek(FH(fh), offset, whence, 1); }
#pragma weak MPI_File_seek_shared = PMPI_File_seek_shared

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    return gompi_File_set_view(FH(fh), disp, etype, filetype, (char *)datarep, info);
}
#pragma weak MPI_File_set_view = PMPI_File_set_view

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    return gompi_File_get_view(FH(fh), disp, etype, filetype, datarep);
}
#pragma weak MPI_File_get_view = PMPI_File_get_view

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    return gompi_File_get_type_extent(FH(fh), datatype, extent);
}
#pragma weak MPI_File_get_type_extent = PMPI_File_get_type_extent

int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    if (!dtype_file_extent_fn) /* the conversions may be MPI_CONVERSION_FN_NULL; the extent may not */
        return gompi_ArgError((char *)"MPI_Register_datarep", MPI_ERR_ARG, (char *)"dtype_file_extent_fn is NULL");
    return gompi_Register_datarep((char *)datarep, (void *)read_conversion_fn, (void *)write_conversion_fn,
                                  (void *)dtype_file_extent_fn, extra_state, 0);
}
#pragma weak MPI_Register_datarep = PMPI_Register_datarep

MPI_Fint PMPI_File_c2f(MPI_File file) { return FH(file); }
#pragma weak MPI_File_c2f = PMPI_File_c2f

MPI_File PMPI_File_f2c(MPI_Fint file) { return FILE_OF(file); }
#pragma weak MPI_File_f2c = PMPI_File_f2c

/* Data access. */
#define ACC(name, flags, off, buf, st, req) \
    gompi_File_access("MPI_File_" name, FH(fh), (flags), (off), (void *)(buf), count, datatype, (uintptr_t)(st), (req))

#define BLOCKING(fn, name, flags, CONST)                                                              \
    int PMPI_File_##fn(MPI_File fh, CONST void *buf, int count, MPI_Datatype datatype, MPI_Status *status) \
    {                                                                                                 \
        return ACC(name, flags, 0, buf, status, NULL);                                                \
    }
#define BLOCKING_AT(fn, name, flags, CONST)                                                       \
    int PMPI_File_##fn(MPI_File fh, MPI_Offset offset, CONST void *buf, int count, MPI_Datatype datatype, \
                       MPI_Status *status)                                                        \
    {                                                                                             \
        return ACC(name, flags, offset, buf, status, NULL);                                       \
    }
#define NONBLOCKING(fn, name, flags, CONST)                                                              \
    int PMPI_File_##fn(MPI_File fh, CONST void *buf, int count, MPI_Datatype datatype, MPI_Request *request) \
    {                                                                                                    \
        return ACC(name, (flags) | NB, 0, buf, 0, request);                                              \
    }
#define NONBLOCKING_AT(fn, name, flags, CONST)                                                    \
    int PMPI_File_##fn(MPI_File fh, MPI_Offset offset, CONST void *buf, int count, MPI_Datatype datatype, \
                       MPI_Request *request)                                                      \
    {                                                                                             \
        return ACC(name, (flags) | NB, offset, buf, 0, request);                                  \
    }
#define BEGIN_(fn, name, flags, CONST)                                                      \
    int PMPI_File_##fn(MPI_File fh, CONST void *buf, int count, MPI_Datatype datatype)       \
    {                                                                                        \
        return ACC(name, (flags) | BEGIN, 0, buf, 0, NULL);                                  \
    }
#define BEGIN_AT(fn, name, flags, CONST)                                                                    \
    int PMPI_File_##fn(MPI_File fh, MPI_Offset offset, CONST void *buf, int count, MPI_Datatype datatype) \
    {                                                                                                       \
        return ACC(name, (flags) | BEGIN, offset, buf, 0, NULL);                                            \
    }
#define END_(fn, name, CONST)                                                    \
    int PMPI_File_##fn(MPI_File fh, CONST void *buf, MPI_Status *status)         \
    {                                                                            \
        (void)buf;                                                               \
        return gompi_File_split_end("MPI_File_" name, FH(fh), (uintptr_t)status); \
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
END_(read_at_all_end, "read_at_all_end", NOCONST)
BEGIN_AT(write_at_all_begin, "write_at_all_begin", W | COLL, const)
END_(write_at_all_end, "write_at_all_end", const)
BEGIN_(read_all_begin, "read_all_begin", INDIV | COLL, NOCONST)
END_(read_all_end, "read_all_end", NOCONST)
BEGIN_(write_all_begin, "write_all_begin", INDIV | W | COLL, const)
END_(write_all_end, "write_all_end", const)
BEGIN_(read_ordered_begin, "read_ordered_begin", ORDERED, NOCONST)
END_(read_ordered_end, "read_ordered_end", NOCONST)
BEGIN_(write_ordered_begin, "write_ordered_begin", ORDERED | W, const)
END_(write_ordered_end, "write_ordered_end", const)

/* Spelled out, not made by the macros: cmd/genfortran finds the calls to
 * bind by these lines. */
#pragma weak MPI_File_read_at = PMPI_File_read_at
#pragma weak MPI_File_read_at_all = PMPI_File_read_at_all
#pragma weak MPI_File_write_at = PMPI_File_write_at
#pragma weak MPI_File_write_at_all = PMPI_File_write_at_all
#pragma weak MPI_File_iread_at = PMPI_File_iread_at
#pragma weak MPI_File_iwrite_at = PMPI_File_iwrite_at
#pragma weak MPI_File_iread_at_all = PMPI_File_iread_at_all
#pragma weak MPI_File_iwrite_at_all = PMPI_File_iwrite_at_all
#pragma weak MPI_File_read = PMPI_File_read
#pragma weak MPI_File_read_all = PMPI_File_read_all
#pragma weak MPI_File_write = PMPI_File_write
#pragma weak MPI_File_write_all = PMPI_File_write_all
#pragma weak MPI_File_iread = PMPI_File_iread
#pragma weak MPI_File_iwrite = PMPI_File_iwrite
#pragma weak MPI_File_iread_all = PMPI_File_iread_all
#pragma weak MPI_File_iwrite_all = PMPI_File_iwrite_all
#pragma weak MPI_File_read_shared = PMPI_File_read_shared
#pragma weak MPI_File_write_shared = PMPI_File_write_shared
#pragma weak MPI_File_iread_shared = PMPI_File_iread_shared
#pragma weak MPI_File_iwrite_shared = PMPI_File_iwrite_shared
#pragma weak MPI_File_read_ordered = PMPI_File_read_ordered
#pragma weak MPI_File_write_ordered = PMPI_File_write_ordered
#pragma weak MPI_File_read_at_all_begin = PMPI_File_read_at_all_begin
#pragma weak MPI_File_read_at_all_end = PMPI_File_read_at_all_end
#pragma weak MPI_File_write_at_all_begin = PMPI_File_write_at_all_begin
#pragma weak MPI_File_write_at_all_end = PMPI_File_write_at_all_end
#pragma weak MPI_File_read_all_begin = PMPI_File_read_all_begin
#pragma weak MPI_File_read_all_end = PMPI_File_read_all_end
#pragma weak MPI_File_write_all_begin = PMPI_File_write_all_begin
#pragma weak MPI_File_write_all_end = PMPI_File_write_all_end
#pragma weak MPI_File_read_ordered_begin = PMPI_File_read_ordered_begin
#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end
#pragma weak MPI_File_write_ordered_begin = PMPI_File_write_ordered_begin
#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
