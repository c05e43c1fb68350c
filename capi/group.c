/* MPI_Group_*: groups live on the Go side (group/, mpi/group.go). */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Group_size(MPI_Group group, int *size) { return gompi_Group_size(group, size); }
#pragma weak MPI_Group_size = PMPI_Group_size

int PMPI_Group_rank(MPI_Group group, int *rank) { return gompi_Group_rank(group, rank); }
#pragma weak MPI_Group_rank = PMPI_Group_rank

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    return gompi_Group_translate_ranks(group1, n, (int *)ranks1, group2, ranks2);
}
#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    return gompi_Group_compare(group1, group2, result);
}
#pragma weak MPI_Group_compare = PMPI_Group_compare

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return gompi_Group_union(group1, group2, newgroup);
}
#pragma weak MPI_Group_union = PMPI_Group_union

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return gompi_Group_intersection(group1, group2, newgroup);
}
#pragma weak MPI_Group_intersection = PMPI_Group_intersection

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return gompi_Group_difference(group1, group2, newgroup);
}
#pragma weak MPI_Group_difference = PMPI_Group_difference

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return gompi_Group_incl(group, n, (int *)ranks, newgroup);
}
#pragma weak MPI_Group_incl = PMPI_Group_incl

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return gompi_Group_excl(group, n, (int *)ranks, newgroup);
}
#pragma weak MPI_Group_excl = PMPI_Group_excl

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return gompi_Group_range_incl(group, n, (int *)ranges, newgroup);
}
#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return gompi_Group_range_excl(group, n, (int *)ranges, newgroup);
}
#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl

int PMPI_Group_free(MPI_Group *group) { return gompi_Group_free(group); }
#pragma weak MPI_Group_free = PMPI_Group_free
