//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* Every MPI_Group_* call on groups built from MPI_COMM_WORLD's group: size,
 * rank (MPI_UNDEFINED outside), translate_ranks (MPI_PROC_NULL,
 * MPI_UNDEFINED), compare (IDENT, SIMILAR, UNEQUAL), union/intersection/
 * difference order rules, incl/excl, range_incl/range_excl with negative
 * strides, MPI_GROUP_EMPTY results, free, and every argument error class
 * under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

static int rank, size;

/* members lists g's members as world ranks. */
static int members(MPI_Group g, MPI_Group world, int *out) {
    int n, in[64];
    CHECK_MPI(MPI_Group_size(g, &n));
    for (int i = 0; i < n; i++)
        in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, in, world, out));
    return n;
}

static void expect_members(MPI_Group g, MPI_Group world, const int *want, int n, const char *what) {
    int got[64];
    int m = members(g, world, got);
    CHECK(m == n, "%s: size %d, want %d", what, m, n);
    for (int i = 0; i < n && i < m; i++)
        CHECK(got[i] == want[i], "%s: member %d is %d, want %d", what, i, got[i], want[i]);
}

static void free_group(MPI_Group *g) {
    CHECK_MPI(MPI_Group_free(g));
    CHECK(*g == MPI_GROUP_NULL, "free did not reset the handle");
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Group world, rev, evens, odds, g, h;
    int n, r, res, all[64], want[64];
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_size(world, &n));
    CHECK(n == size, "world group size %d", n);
    CHECK_MPI(MPI_Group_rank(world, &r));
    CHECK(r == rank, "world group rank %d", r);
    for (int i = 0; i < size; i++)
        all[i] = i;

    /* Reverse order: similar, ranks mirrored. */
    for (int i = 0; i < size; i++)
        want[i] = size - 1 - i;
    CHECK_MPI(MPI_Group_incl(world, size, want, &rev));
    expect_members(rev, world, want, size, "reverse");
    CHECK_MPI(MPI_Group_rank(rev, &r));
    CHECK(r == size - 1 - rank, "rank in reversed group %d", r);
    CHECK_MPI(MPI_Group_compare(world, rev, &res));
    CHECK(res == (size == 1 ? MPI_IDENT : MPI_SIMILAR), "compare(world, reverse) = %d", res);
    CHECK_MPI(MPI_Group_compare(world, world, &res));
    CHECK(res == MPI_IDENT, "compare(world, world) = %d", res);

    /* Evens by range_incl, odds by range_excl. */
    int ev[][3] = {{0, size - 1, 2}}, ne = (size + 1) / 2, no = size / 2;
    CHECK_MPI(MPI_Group_range_incl(world, 1, ev, &evens));
    for (int i = 0; i < ne; i++)
        want[i] = 2 * i;
    expect_members(evens, world, want, ne, "evens");
    CHECK_MPI(MPI_Group_range_excl(world, 1, ev, &odds));
    for (int i = 0; i < no; i++)
        want[i] = 2 * i + 1;
    expect_members(odds, world, want, no, "odds");
    CHECK_MPI(MPI_Group_rank(odds, &r));
    CHECK(r == (rank % 2 ? rank / 2 : MPI_UNDEFINED), "rank in odds %d", r);
    CHECK_MPI(MPI_Group_compare(evens, odds, &res));
    CHECK(res == MPI_UNEQUAL, "compare(evens, odds) = %d", res);

    /* Negative stride: (last, 0, -1) reverses. */
    int down[][3] = {{size - 1, 0, -1}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, down, &g));
    CHECK_MPI(MPI_Group_compare(g, rev, &res));
    CHECK(res == MPI_IDENT, "range (last,0,-1) vs reverse: %d", res);
    free_group(&g);

    /* Set operations keep the first group's order, then the second's. */
    CHECK_MPI(MPI_Group_union(odds, evens, &g));
    int m = 0;
    for (int i = 1; i < size; i += 2)
        want[m++] = i;
    for (int i = 0; i < size; i += 2)
        want[m++] = i;
    expect_members(g, world, want, size, "union(odds, evens)");
    free_group(&g);
    CHECK_MPI(MPI_Group_union(rev, world, &g));
    CHECK_MPI(MPI_Group_compare(g, rev, &res));
    CHECK(res == MPI_IDENT, "union(rev, world) is not rev: %d", res);
    free_group(&g);
    CHECK_MPI(MPI_Group_intersection(rev, evens, &g));
    m = 0;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2 == 0)
            want[m++] = i;
    expect_members(g, world, want, m, "intersection(rev, evens)");
    free_group(&g);
    CHECK_MPI(MPI_Group_difference(rev, evens, &g));
    m = 0;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2)
            want[m++] = i;
    expect_members(g, world, want, m, "difference(rev, evens)");
    free_group(&g);

    /* Empty results are MPI_GROUP_EMPTY. */
    CHECK_MPI(MPI_Group_intersection(evens, odds, &g));
    CHECK(g == MPI_GROUP_EMPTY, "empty intersection is %x", (unsigned)g);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_difference(world, world, &g));
    CHECK(g == MPI_GROUP_EMPTY, "empty difference is %x", (unsigned)g);
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &g));
    CHECK(g == MPI_GROUP_EMPTY, "incl of nothing is %x", (unsigned)g);
    CHECK_MPI(MPI_Group_excl(world, size, all, &g));
    CHECK(g == MPI_GROUP_EMPTY, "excl of everything is %x", (unsigned)g);
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK(n == 0, "MPI_GROUP_EMPTY size %d", n);
    CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK(r == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY %d", r);
    CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, world, &g));
    CHECK_MPI(MPI_Group_compare(g, world, &res));
    CHECK(res == MPI_IDENT, "union(empty, world) vs world: %d", res);
    free_group(&g);

    /* Excl keeps order. */
    int drop[] = {0};
    CHECK_MPI(MPI_Group_excl(rev, 1, drop, &g)); /* drops world rank size-1 */
    for (int i = 0; i < size - 1; i++)
        want[i] = size - 2 - i;
    expect_members(g, world, want, size - 1, "excl(rev, {0})");
    free_group(&g);

    /* Translate with MPI_PROC_NULL and non-members. */
    int in[] = {0, MPI_PROC_NULL}, out[2];
    CHECK_MPI(MPI_Group_translate_ranks(world, 2, in, odds, out));
    CHECK(out[0] == MPI_UNDEFINED && out[1] == MPI_PROC_NULL, "translate: %d %d", out[0], out[1]);

    /* Errors. */
    int badr[] = {size}, dup2[] = {0, 0}, neg[] = {-1};
    int zero_stride[][3] = {{0, 0, 0}}, out_of[][3] = {{0, size, 1}}, wrong_way[][3] = {{size - 1, 0, 1}};
    int overlap[][3] = {{0, size - 1, 1}, {0, 0, 1}};
    EXPECT_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_rank((MPI_Group)0x88001234, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_size(world, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Group_incl(world, 1, badr, &g), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_incl(world, 1, neg, &g), MPI_ERR_RANK);
    if (size > 0)
        EXPECT_CLASS(MPI_Group_incl(world, 2, dup2, &g), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_incl(world, -1, all, &g), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Group_excl(world, 1, badr, &g), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_excl(world, 2, dup2, &g), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_range_incl(world, 1, zero_stride, &g), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Group_range_incl(world, 1, out_of, &g), MPI_ERR_ARG); /* MPICH: triplet errors are MPI_ERR_ARG */
    if (size > 1) {
        EXPECT_CLASS(MPI_Group_range_incl(world, 1, wrong_way, &g), MPI_ERR_ARG);
        EXPECT_CLASS(MPI_Group_range_excl(world, 2, overlap, &g), MPI_ERR_ARG);
    }
    EXPECT_CLASS(MPI_Group_range_excl(world, 1, out_of, &g), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Group_translate_ranks(world, 1, badr, rev, out), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_translate_ranks(world, -1, in, rev, out), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, in, rev, out), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_compare(world, MPI_GROUP_NULL, &res), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_union(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_intersection(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_difference(world, world, NULL), MPI_ERR_ARG);
    MPI_Group null = MPI_GROUP_NULL, stale;
    EXPECT_CLASS(MPI_Group_free(&null), MPI_ERR_GROUP);
    CHECK_MPI(MPI_Group_incl(world, 1, all, &h));
    stale = h;
    free_group(&h);
    EXPECT_CLASS(MPI_Group_size(stale, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_free(&stale), MPI_ERR_GROUP);

    free_group(&rev);
    free_group(&evens);
    free_group(&odds);
    free_group(&world);
    MPI_Finalize();
    return check_status();
}
