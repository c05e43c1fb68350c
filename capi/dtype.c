/* Datatypes: constructors, queries, pack/unpack. Each call crosses into Go
 * once; addresses and predefined sizes are answered in C. */
#include <string.h>
#include "gompi.h"
#include "fastpath.h"
#include "_cgo_export.h"

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_contiguous(count, oldtype, newtype, 0);
}
#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return gompi_Type_vector(count, blocklength, stride, oldtype, newtype, 0);
}
#pragma weak MPI_Type_vector = PMPI_Type_vector

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return gompi_Type_vector(count, blocklength, stride, oldtype, newtype, 1);
}
#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return gompi_Type_vector(count, blocklength, stride, oldtype, newtype, 2);
}
#pragma weak MPI_Type_hvector = PMPI_Type_hvector

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, (int *)array_of_blocklengths, 0,
                              (void *)array_of_displacements, oldtype, newtype, 0);
}
#pragma weak MPI_Type_indexed = PMPI_Type_indexed

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, (int *)array_of_blocklengths, 0,
                              (void *)array_of_displacements, oldtype, newtype, 1);
}
#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, array_of_blocklengths, 0, array_of_displacements, oldtype,
                              newtype, 2);
}
#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, NULL, blocklength, (void *)array_of_displacements, oldtype,
                              newtype, 3);
}
#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, NULL, blocklength, (void *)array_of_displacements, oldtype,
                              newtype, 4);
}
#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return gompi_Type_struct(count, (int *)array_of_blocklengths, (MPI_Aint *)array_of_displacements,
                             (int *)array_of_types, newtype, 0);
}
#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return gompi_Type_struct(count, array_of_blocklengths, array_of_displacements, array_of_types,
                             newtype, 1);
}
#pragma weak MPI_Type_struct = PMPI_Type_struct

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return gompi_Type_create_subarray(ndims, (int *)array_of_sizes, (int *)array_of_subsizes,
                                      (int *)array_of_starts, order, oldtype, newtype, 0);
}
#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    return gompi_Type_create_darray(size, rank, ndims, (int *)array_of_gsizes,
                                    (int *)array_of_distribs, (int *)array_of_dargs,
                                    (int *)array_of_psizes, order, oldtype, newtype, 0);
}
#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    return gompi_Type_create_resized(oldtype, lb, extent, newtype);
}
#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_dup(oldtype, newtype);
}
#pragma weak MPI_Type_dup = PMPI_Type_dup

int PMPI_Type_commit(MPI_Datatype *datatype) { return gompi_Type_commit(datatype); }
#pragma weak MPI_Type_commit = PMPI_Type_commit

int PMPI_Type_free(MPI_Datatype *datatype) { return gompi_Type_free(datatype); }
#pragma weak MPI_Type_free = PMPI_Type_free

/* Sizes and extents: builtin types answer from the handle, in C. */
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    int s = gompi_builtin_size(datatype);
    if (s >= 0 && size && gompi_state == GOMPI_READY) {
        *size = s;
        return MPI_SUCCESS;
    }
    MPI_Count n;
    int rc = gompi_Type_size(datatype, &n, size == NULL, "MPI_Type_size");
    if (rc == MPI_SUCCESS) *size = n > 0x7fffffff ? MPI_UNDEFINED : (int)n;
    return rc;
}
#pragma weak MPI_Type_size = PMPI_Type_size

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    return gompi_Type_size(datatype, size, size == NULL, "MPI_Type_size_x");
}
#pragma weak MPI_Type_size_x = PMPI_Type_size_x

enum { EXT_EXTENT, EXT_TRUE, EXT_MPI1_EXTENT, EXT_MPI1_LB, EXT_MPI1_UB };

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return gompi_Type_extent(datatype, lb, extent, EXT_EXTENT, "MPI_Type_get_extent");
}
#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return gompi_Type_extent(datatype, lb, extent, EXT_EXTENT, "MPI_Type_get_extent_x");
}
#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    return gompi_Type_extent(datatype, true_lb, true_extent, EXT_TRUE, "MPI_Type_get_true_extent");
}
#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return gompi_Type_extent(datatype, true_lb, true_extent, EXT_TRUE,
                             "MPI_Type_get_true_extent_x");
}
#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Aint lb;
    return gompi_Type_extent(datatype, &lb, extent, EXT_MPI1_EXTENT, "MPI_Type_extent");
}
#pragma weak MPI_Type_extent = PMPI_Type_extent

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    MPI_Aint ext;
    return gompi_Type_extent(datatype, displacement, &ext, EXT_MPI1_LB, "MPI_Type_lb");
}
#pragma weak MPI_Type_lb = PMPI_Type_lb

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    MPI_Aint ext;
    return gompi_Type_extent(datatype, displacement, &ext, EXT_MPI1_UB, "MPI_Type_ub");
}
#pragma weak MPI_Type_ub = PMPI_Type_ub

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    return gompi_Type_get_envelope(datatype, num_integers, num_addresses, num_datatypes, combiner);
}
#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    return gompi_Type_get_contents(datatype, max_integers, max_addresses, max_datatypes,
                                   array_of_integers, array_of_addresses, array_of_datatypes);
}
#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    return gompi_Type_set_name(datatype, (char *)type_name);
}
#pragma weak MPI_Type_set_name = PMPI_Type_set_name

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    return gompi_Type_get_name(datatype, type_name, resultlen);
}
#pragma weak MPI_Type_get_name = PMPI_Type_get_name

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    return gompi_Type_match_size(typeclass, size, datatype);
}
#pragma weak MPI_Type_match_size = PMPI_Type_match_size

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return gompi_Type_create_f90(MPI_COMBINER_F90_REAL, p, r, newtype);
}
#pragma weak MPI_Type_create_f90_real = PMPI_Type_create_f90_real

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return gompi_Type_create_f90(MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}
#pragma weak MPI_Type_create_f90_complex = PMPI_Type_create_f90_complex

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return gompi_Type_create_f90(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, newtype);
}
#pragma weak MPI_Type_create_f90_integer = PMPI_Type_create_f90_integer

/* Addresses are plain C: no MPI state involved. */
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    if (!address) return gompi_NullArg("MPI_Get_address", "address is NULL");
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_address = PMPI_Get_address

int PMPI_Address(void *location, MPI_Aint *address)
{
    if (!address) return gompi_NullArg("MPI_Address", "address is NULL");
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}
#pragma weak MPI_Address = PMPI_Address

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return (MPI_Aint)((char *)base + disp); }
#pragma weak MPI_Aint_add = PMPI_Aint_add

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((char *)addr1 - (char *)addr2);
}
#pragma weak MPI_Aint_diff = PMPI_Aint_diff

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    return gompi_Pack((void *)inbuf, incount, datatype, outbuf, outsize, position, comm, 0);
}
#pragma weak MPI_Pack = PMPI_Pack

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    return gompi_Unpack((void *)inbuf, insize, position, outbuf, outcount, datatype, comm, 0);
}
#pragma weak MPI_Unpack = PMPI_Unpack

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    return gompi_Pack_size(incount, datatype, comm, size, 0);
}
#pragma weak MPI_Pack_size = PMPI_Pack_size

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    return gompi_Pack_external((char *)datarep, (void *)inbuf, incount, datatype, outbuf, outsize,
                               position);
}
#pragma weak MPI_Pack_external = PMPI_Pack_external

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    return gompi_Unpack_external((char *)datarep, (void *)inbuf, insize, position, outbuf,
                                 outcount, datatype);
}
#pragma weak MPI_Unpack_external = PMPI_Unpack_external

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    return gompi_Pack_external_size((char *)datarep, incount, datatype, size);
}
#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size

/* Status queries: the byte count lives in the status; only the datatype
 * needs Go. */
#define BAD_STATUS "status is NULL or MPI_STATUS_IGNORE"
static MPI_Count status_bytes(const MPI_Status *s)
{
    /* count_hi holds the top 31 bits above bit 0 (cancelled): shift it as unsigned,
     * or a count with bit 62 set comes back with the sign bit set too. */
    return (MPI_Count)(unsigned)s->count_lo | ((MPI_Count)((unsigned)s->count_hi_and_cancelled >> 1) << 32);
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    if (!status || GOMPI_STATUS_IGNORED(status) || !count)
        return gompi_NullArg("MPI_Get_count", !count ? "count is NULL" : BAD_STATUS);
    return gompi_Get_count((uintptr_t)status, datatype, status_bytes(status), count, NULL, 0);
}
#pragma weak MPI_Get_count = PMPI_Get_count

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    if (!status || GOMPI_STATUS_IGNORED(status) || !count)
        return gompi_NullArg("MPI_Get_elements", !count ? "count is NULL" : BAD_STATUS);
    return gompi_Get_count((uintptr_t)status, datatype, status_bytes(status), count, NULL, 1);
}
#pragma weak MPI_Get_elements = PMPI_Get_elements

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    if (!status || GOMPI_STATUS_IGNORED(status) || !count)
        return gompi_NullArg("MPI_Get_elements_x", !count ? "count is NULL" : BAD_STATUS);
    return gompi_Get_count((uintptr_t)status, datatype, status_bytes(status), NULL, count, 1);
}
#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    if (!status || GOMPI_STATUS_IGNORED(status))
        return gompi_NullArg("MPI_Status_set_elements", BAD_STATUS);
    return gompi_Status_set_elements((uintptr_t)status, datatype, count);
}
#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    if (!status || GOMPI_STATUS_IGNORED(status))
        return gompi_NullArg("MPI_Status_set_elements_x", BAD_STATUS);
    return gompi_Status_set_elements((uintptr_t)status, datatype, count);
}
#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x
