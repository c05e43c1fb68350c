//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI_Comm_split_type with MPI_COMM_TYPE_RESOURCE_GUIDED (MPI-4.1) and
 * MPI_COMM_TYPE_HW_GUIDED: the info key "mpi_hw_resource_type" names the
 * resource. "mpi_shared_memory" (and hwloc's "Machine") give the
 * communicators of MPI_COMM_TYPE_SHARED; finer resources ("Package",
 * "NUMANode", "L3Cache", "Core") give subsets of it; an unknown resource,
 * or no key, gives MPI_COMM_NULL. */
#include <mpi.h>

#include "check.h"

static MPI_Comm split(int type, const char *res) {
    MPI_Info info = MPI_INFO_NULL;
    MPI_Comm c = MPI_COMM_NULL;
    if (res) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", res);
    }
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, type, check_rank, info, &c));
    if (res) MPI_Info_free(&info);
    return c;
}

static void same_as_shared(MPI_Comm shared, MPI_Comm c, const char *what) {
    int cmp = -1;
    CHECK(c != MPI_COMM_NULL, "%s gave MPI_COMM_NULL", what);
    if (c == MPI_COMM_NULL) return;
    CHECK_MPI(MPI_Comm_compare(shared, c, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "%s: compare with the shared-memory split gave %d", what, cmp);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm shared;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, check_rank, MPI_INFO_NULL, &shared));
    int nshared;
    MPI_Comm_size(shared, &nshared);

    same_as_shared(shared, split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_shared_memory"), "RESOURCE_GUIDED mpi_shared_memory");
    same_as_shared(shared, split(MPI_COMM_TYPE_HW_GUIDED, "mpi_shared_memory"), "HW_GUIDED mpi_shared_memory");
    same_as_shared(shared, split(MPI_COMM_TYPE_RESOURCE_GUIDED, "Machine"), "RESOURCE_GUIDED Machine");

    /* Finer resources: a subset of the node's processes when known (a
     * container may hide the topology: then MPI_COMM_NULL on every rank). */
    const char *finer[] = {"Package", "NUMANode", "L3Cache", "Core"};
    for (int i = 0; i < 4; i++) {
        MPI_Comm c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, finer[i]);
        int got = c != MPI_COMM_NULL, all = 0;
        MPI_Allreduce(&got, &all, 1, MPI_INT, MPI_SUM, shared);
        if (c == MPI_COMM_NULL) continue;
        int n, r;
        MPI_Comm_size(c, &n);
        MPI_Comm_rank(c, &r);
        CHECK(n >= 1 && n <= nshared, "%s: size %d of a node of %d", finer[i], n, nshared);
        MPI_Group gc, gs, gi;
        MPI_Comm_group(c, &gc);
        MPI_Comm_group(shared, &gs);
        MPI_Group_intersection(gc, gs, &gi);
        int ni;
        MPI_Group_size(gi, &ni);
        CHECK(ni == n, "%s: members outside the node", finer[i]);
        MPI_Group_free(&gc), MPI_Group_free(&gs), MPI_Group_free(&gi);
        MPI_Comm_free(&c);
    }

    /* Not recognised, or not given: MPI_COMM_NULL (still collective). */
    MPI_Comm c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "gompi_no_such_resource");
    CHECK(c == MPI_COMM_NULL, "unknown resource gave a communicator");
    c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, NULL);
    CHECK(c == MPI_COMM_NULL, "no mpi_hw_resource_type gave a communicator");
    c = split(MPI_COMM_TYPE_HW_GUIDED, "gompi_no_such_resource");
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED: unknown resource gave a communicator");

    /* MPI_UNDEFINED still opts out. */
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");

    MPI_Comm_free(&shared);
    MPI_Finalize();
    return check_status();
}
