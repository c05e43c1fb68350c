/* Large-count (_c) datatype, pack and status calls: the int calls' Go
 * entries with MPI_Count counts and arrays (capi/bigcount.go). */
#include <limits.h>
#include "gompi.h"
#include "_cgo_export.h"

#define WIDE 256 /* wideBit in bigcount.go */
enum { EXT_EXTENT, EXT_TRUE };

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_contiguous(count, oldtype, newtype, 1);
}
#pragma weak MPI_Type_contiguous_c = PMPI_Type_contiguous_c

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    return gompi_Type_vector(count, blocklength, stride, oldtype, newtype, 0 | WIDE);
}
#pragma weak MPI_Type_vector_c = PMPI_Type_vector_c

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_vector(count, blocklength, stride, oldtype, newtype, 1 | WIDE);
}
#pragma weak MPI_Type_create_hvector_c = PMPI_Type_create_hvector_c

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, (void *)array_of_blocklengths, 0, (void *)array_of_displacements,
                              oldtype, newtype, 0 | WIDE);
}
#pragma weak MPI_Type_indexed_c = PMPI_Type_indexed_c

/* The hindexed forms take byte displacements as MPI_Count: the same width
 * as MPI_Aint here (both long), so they cross unchanged. */
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, (void *)array_of_blocklengths, 0, (void *)array_of_displacements,
                              oldtype, newtype, 1 | WIDE);
}
#pragma weak MPI_Type_create_hindexed_c = PMPI_Type_create_hindexed_c

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, NULL, blocklength, (void *)array_of_displacements, oldtype,
                              newtype, 3 | WIDE);
}
#pragma weak MPI_Type_create_indexed_block_c = PMPI_Type_create_indexed_block_c

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    return gompi_Type_indexed(count, NULL, blocklength, (void *)array_of_displacements, oldtype,
                              newtype, 4 | WIDE);
}
#pragma weak MPI_Type_create_hindexed_block_c = PMPI_Type_create_hindexed_block_c

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return gompi_Type_struct(count, (void *)array_of_blocklengths, (MPI_Aint *)array_of_displacements,
                             (int *)array_of_types, newtype, 0 | WIDE);
}
#pragma weak MPI_Type_create_struct_c = PMPI_Type_create_struct_c

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gompi_Type_create_subarray(ndims, (void *)array_of_sizes, (void *)array_of_subsizes,
                                      (void *)array_of_starts, order, oldtype, newtype, 1);
}
#pragma weak MPI_Type_create_subarray_c = PMPI_Type_create_subarray_c

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return gompi_Type_create_darray(size, rank, ndims, (void *)array_of_gsizes, (int *)array_of_distribs,
                                    (int *)array_of_dargs, (int *)array_of_psizes, order, oldtype,
                                    newtype, 1);
}
#pragma weak MPI_Type_create_darray_c = PMPI_Type_create_darray_c

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return gompi_Type_create_resized(oldtype, lb, extent, newtype);
}
#pragma weak MPI_Type_create_resized_c = PMPI_Type_create_resized_c

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    return gompi_Type_size(datatype, size, size == NULL, "MPI_Type_size_c");
}
#pragma weak MPI_Type_size_c = PMPI_Type_size_c

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return gompi_Type_extent(datatype, lb, extent, EXT_EXTENT, "MPI_Type_get_extent_c");
}
#pragma weak MPI_Type_get_extent_c = PMPI_Type_get_extent_c

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return gompi_Type_extent(datatype, true_lb, true_extent, EXT_TRUE, "MPI_Type_get_true_extent_c");
}
#pragma weak MPI_Type_get_true_extent_c = PMPI_Type_get_true_extent_c

/* Decoding: gompi keeps no separate large-count slots, so every value
 * comes back in the integer and address arrays and num_large_counts is 0. */
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    int ni, na, nd;
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
        return gompi_NullArg("MPI_Type_get_envelope_c", "an output argument is NULL");
    int rc = gompi_Type_get_envelope(datatype, &ni, &na, &nd, combiner);
    if (rc != MPI_SUCCESS) return rc;
    *num_integers = ni, *num_addresses = na, *num_large_counts = 0, *num_datatypes = nd;
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_envelope_c = PMPI_Type_get_envelope_c

static int clamp_int(MPI_Count n) { return n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : (int)n; }

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    (void)max_large_counts, (void)array_of_large_counts;
    return gompi_Type_get_contents(datatype, clamp_int(max_integers), clamp_int(max_addresses),
                                   clamp_int(max_datatypes), array_of_integers, array_of_addresses,
                                   array_of_datatypes);
}
#pragma weak MPI_Type_get_contents_c = PMPI_Type_get_contents_c

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    return gompi_Pack((void *)inbuf, incount, datatype, outbuf, outsize, position, comm, 1);
}
#pragma weak MPI_Pack_c = PMPI_Pack_c

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    return gompi_Unpack((void *)inbuf, insize, position, outbuf, outcount, datatype, comm, 1);
}
#pragma weak MPI_Unpack_c = PMPI_Unpack_c

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    return gompi_Pack_size(incount, datatype, comm, size, 1);
}
#pragma weak MPI_Pack_size_c = PMPI_Pack_size_c

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    return gompi_Pack_external((char *)datarep, (void *)inbuf, incount, datatype, outbuf, outsize, position);
}
#pragma weak MPI_Pack_external_c = PMPI_Pack_external_c

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    return gompi_Unpack_external((char *)datarep, (void *)inbuf, insize, position, outbuf, outcount,
                                 datatype);
}
#pragma weak MPI_Unpack_external_c = PMPI_Unpack_external_c

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size)
{
    return gompi_Pack_external_size((char *)datarep, incount, datatype, size);
}
#pragma weak MPI_Pack_external_size_c = PMPI_Pack_external_size_c

/* The byte count of a status, as dtype.c reads it (63 bits). */
static MPI_Count status_bytes(const MPI_Status *s)
{
    return (MPI_Count)(unsigned)s->count_lo | ((MPI_Count)((unsigned)s->count_hi_and_cancelled >> 1) << 32);
}
#define BAD_STATUS "status is NULL or MPI_STATUS_IGNORE"

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    if (!status || GOMPI_STATUS_IGNORED(status) || !count)
        return gompi_NullArg("MPI_Get_count_c", !count ? "count is NULL" : BAD_STATUS);
    return gompi_Get_count((uintptr_t)status, datatype, status_bytes(status), NULL, count, 0);
}
#pragma weak MPI_Get_count_c = PMPI_Get_count_c

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    if (!status || GOMPI_STATUS_IGNORED(status) || !count)
        return gompi_NullArg("MPI_Get_elements_c", !count ? "count is NULL" : BAD_STATUS);
    return gompi_Get_count((uintptr_t)status, datatype, status_bytes(status), NULL, count, 1);
}
#pragma weak MPI_Get_elements_c = PMPI_Get_elements_c

/* MPI-4.1 added the large-count twin MPI-4.0 left out. */
int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    if (!status || GOMPI_STATUS_IGNORED(status))
        return gompi_NullArg("MPI_Status_set_elements_c", BAD_STATUS);
    return gompi_Status_set_elements((uintptr_t)status, datatype, count);
}
#pragma weak MPI_Status_set_elements_c = PMPI_Status_set_elements_c
