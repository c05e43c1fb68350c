//go:build ignore

/* gompi-test: np=1 timeout=30 */
/* Every datatype constructor: size, extent, true extent, envelope and
 * contents against hand-computed values; MPI-1 forms and MPI_LB/MPI_UB
 * markers; struct padding as MPICH does it; names; addresses; dup, f90 and
 * match_size; handles returned by get_contents keep their type alive. */
#include <mpi.h>
#include <stddef.h>
#include <string.h>

#include "check.h"

static void bounds(MPI_Datatype t, const char *what, int size, MPI_Aint lb, MPI_Aint ext, MPI_Aint tlb,
                   MPI_Aint text) {
    int s = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;
    MPI_Count sx = -1, lx = -1, ex = -1;
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK_MPI(MPI_Type_size_x(t, &sx));
    CHECK_MPI(MPI_Type_get_extent(t, &l, &e));
    CHECK_MPI(MPI_Type_get_extent_x(t, &lx, &ex));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tl, &te));
    CHECK(s == size && sx == size, "%s: size %d (x %lld), want %d", what, s, (long long)sx, size);
    CHECK(l == lb && e == ext && lx == lb && ex == ext, "%s: lb %ld extent %ld, want %ld %ld", what, (long)l, (long)e,
          (long)lb, (long)ext);
    CHECK(tl == tlb && te == text, "%s: true lb %ld extent %ld, want %ld %ld", what, (long)tl, (long)te, (long)tlb,
          (long)text);
}

static void envelope(MPI_Datatype t, const char *what, int ni, int na, int nd, int comb) {
    int a = -1, b = -1, c = -1, d = -1;
    CHECK_MPI(MPI_Type_get_envelope(t, &a, &b, &c, &d));
    CHECK(a == ni && b == na && c == nd && d == comb, "%s: envelope %d %d %d %d, want %d %d %d %d", what, a, b, c, d,
          ni, na, nd, comb);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    check_rank = 0;
    MPI_Datatype t, u, v, w;

    /* Predefined. */
    bounds(MPI_INT, "MPI_INT", 4, 0, 4, 0, 4);
    bounds(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, 0, 16, 0, 12);
    bounds(MPI_SHORT_INT, "MPI_SHORT_INT", 6, 0, 8, 0, 8);
    envelope(MPI_INT, "MPI_INT", 0, 0, 0, MPI_COMBINER_NAMED);
    envelope(MPI_FLOAT_INT, "MPI_FLOAT_INT", 0, 0, 0, MPI_COMBINER_NAMED);

    /* contiguous */
    CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE, &t));
    bounds(t, "contiguous(3,double)", 24, 0, 24, 0, 24);
    envelope(t, "contiguous", 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
    {
        int is[1];
        MPI_Aint as[1];
        MPI_Datatype ds[1];
        CHECK_MPI(MPI_Type_get_contents(t, 1, 0, 1, is, as, ds));
        CHECK(is[0] == 3 && ds[0] == MPI_DOUBLE, "contiguous contents %d %d", is[0], (int)ds[0]);
    }

    /* vector with a negative stride: blocks at -20..-12? no: 3 blocks of 2 ints, stride -5 ints */
    CHECK_MPI(MPI_Type_vector(3, 2, -5, MPI_INT, &u));
    bounds(u, "vector(3,2,-5,int)", 24, -40, 48, -40, 48);
    envelope(u, "vector", 3, 0, 1, MPI_COMBINER_VECTOR);

    /* vector of the contiguous type: nesting two levels */
    CHECK_MPI(MPI_Type_vector(2, 1, 3, t, &v));
    bounds(v, "vector(2,1,3,contig3double)", 48, 0, 96, 0, 96);
    {
        int is[3];
        MPI_Aint as[1];
        MPI_Datatype ds[1];
        CHECK_MPI(MPI_Type_get_contents(v, 3, 0, 1, is, as, ds));
        CHECK(is[0] == 2 && is[1] == 1 && is[2] == 3 && ds[0] == t, "vector contents %d %d %d", is[0], is[1], is[2]);
        /* The returned derived handle is a reference of its own: free it. */
        CHECK_MPI(MPI_Type_free(&ds[0]));
    }

    /* hvector and the MPI-1 hvector */
    CHECK_MPI(MPI_Type_create_hvector(2, 3, 100, MPI_CHAR, &w));
    bounds(w, "hvector(2,3,100,char)", 6, 0, 103, 0, 103);
    envelope(w, "hvector", 2, 1, 1, MPI_COMBINER_HVECTOR);
    CHECK_MPI(MPI_Type_free(&w));
    CHECK(w == MPI_DATATYPE_NULL, "Type_free did not null the handle");
    CHECK_MPI(MPI_Type_hvector(2, 1, -16, MPI_DOUBLE, &w));
    bounds(w, "MPI_Type_hvector(2,1,-16,double)", 16, -16, 24, -16, 24);
    envelope(w, "MPI-1 hvector", 2, 1, 1, MPI_COMBINER_HVECTOR);
    CHECK_MPI(MPI_Type_free(&w));

    /* indexed, hindexed, indexed_block, hindexed_block */
    {
        int bl[3] = {2, 0, 1}, d[3] = {4, 100, -1};
        MPI_Aint hd[3] = {16, 400, -4};
        CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &w));
        bounds(w, "indexed", 12, -4, 28, -4, 28);
        envelope(w, "indexed", 7, 0, 1, MPI_COMBINER_INDEXED);
        int is[7];
        MPI_Aint as[1];
        MPI_Datatype ds[1];
        CHECK_MPI(MPI_Type_get_contents(w, 7, 0, 1, is, as, ds));
        CHECK(is[0] == 3 && is[1] == 2 && is[3] == 1 && is[4] == 4 && is[6] == -1, "indexed contents");
        CHECK_MPI(MPI_Type_free(&w));
        CHECK_MPI(MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &w));
        bounds(w, "hindexed", 12, -4, 28, -4, 28);
        envelope(w, "hindexed", 4, 3, 1, MPI_COMBINER_HINDEXED);
        CHECK_MPI(MPI_Type_free(&w));
        CHECK_MPI(MPI_Type_hindexed(3, bl, hd, MPI_INT, &w));
        envelope(w, "MPI-1 hindexed", 4, 3, 1, MPI_COMBINER_HINDEXED);
        CHECK_MPI(MPI_Type_free(&w));
        CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, MPI_SHORT, &w));
        bounds(w, "indexed_block", 12, -2, 206, -2, 206);
        envelope(w, "indexed_block", 5, 0, 1, MPI_COMBINER_INDEXED_BLOCK);
        CHECK_MPI(MPI_Type_free(&w));
        CHECK_MPI(MPI_Type_create_hindexed_block(3, 1, hd, MPI_DOUBLE, &w));
        bounds(w, "hindexed_block", 24, -4, 412, -4, 412);
        envelope(w, "hindexed_block", 2, 3, 1, MPI_COMBINER_HINDEXED_BLOCK);
        CHECK_MPI(MPI_Type_free(&w));
    }

    /* struct: padding to the largest alignment, as a C compiler (and MPICH) does */
    {
        struct s1 { double d; char c; };
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {offsetof(struct s1, d), offsetof(struct s1, c), 0};
        MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_CHAR, MPI_INT};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &w));
        bounds(w, "struct{double,char}", 9, 0, (MPI_Aint)sizeof(struct s1), 0, 9);
        envelope(w, "struct", 3, 2, 2, MPI_COMBINER_STRUCT);
        CHECK_MPI(MPI_Type_free(&w));
        ty[0] = MPI_CHAR, ty[1] = MPI_SHORT, d[0] = 0, d[1] = 1;
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &w));
        bounds(w, "struct{char,short@1}", 3, 0, 4, 0, 3);
        CHECK_MPI(MPI_Type_free(&w));
        /* MPI-1 markers: an explicit lower bound is not padded. */
        ty[0] = MPI_LB, ty[1] = MPI_CHAR, d[0] = 8, d[1] = 0;
        CHECK_MPI(MPI_Type_struct(2, bl, d, ty, &w));
        bounds(w, "struct{LB@8,char}", 1, 8, -7, 0, 1);
        CHECK_MPI(MPI_Type_free(&w));
        ty[0] = MPI_INT, ty[1] = MPI_UB, d[0] = 0, d[1] = 2;
        CHECK_MPI(MPI_Type_struct(2, bl, d, ty, &w));
        bounds(w, "struct{int,UB@2}", 4, 0, 2, 0, 4);
        MPI_Aint x = -1;
        CHECK_MPI(MPI_Type_ub(w, &x));
        CHECK(x == 2, "MPI_Type_ub %ld", (long)x);
        CHECK_MPI(MPI_Type_lb(w, &x));
        CHECK(x == 0, "MPI_Type_lb %ld", (long)x);
        CHECK_MPI(MPI_Type_extent(w, &x));
        CHECK(x == 2, "MPI_Type_extent %ld", (long)x);
        /* The UB marker is sticky: a contiguous of it keeps stride 2. */
        MPI_Datatype c2;
        CHECK_MPI(MPI_Type_contiguous(3, w, &c2));
        bounds(c2, "contiguous(3,struct{int,UB@2})", 12, 0, 6, 0, 8);
        CHECK_MPI(MPI_Type_free(&c2));
        CHECK_MPI(MPI_Type_free(&w));
        ty[0] = MPI_CHAR, ty[1] = MPI_DOUBLE_INT, d[0] = 0, d[1] = 1;
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &w));
        bounds(w, "struct{char,double_int@1}", 13, 0, 24, 0, 13);
        CHECK_MPI(MPI_Type_free(&w));
    }

    /* resized, and a struct using it */
    {
        CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &w));
        bounds(w, "resized(int,-4,16)", 4, -4, 16, 0, 4);
        envelope(w, "resized", 0, 2, 1, MPI_COMBINER_RESIZED);
        MPI_Datatype c2;
        CHECK_MPI(MPI_Type_contiguous(2, w, &c2));
        bounds(c2, "contiguous(2,resized)", 8, -4, 32, 0, 20);
        CHECK_MPI(MPI_Type_free(&c2));
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 40};
        MPI_Datatype ty[2] = {w, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &c2));
        bounds(c2, "struct{resized,double@40}", 12, -4, 56, 0, 48);
        CHECK_MPI(MPI_Type_free(&c2));
        CHECK_MPI(MPI_Type_free(&w));
    }

    /* subarray: a 2x3 block at (1,2) of a 4x6 array of ints, C and Fortran order */
    {
        int sizes[2] = {4, 6}, subs[2] = {2, 3}, starts[2] = {1, 2};
        CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &w));
        bounds(w, "subarray C", 24, 0, 96, 32, 36);
        envelope(w, "subarray", 8, 0, 1, MPI_COMBINER_SUBARRAY);
        CHECK_MPI(MPI_Type_free(&w));
        CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INT, &w));
        /* Fortran: dimension 0 fastest; start offset 1 + 2*4 = 9 ints, last at (2,4) = 18 ints. */
        bounds(w, "subarray Fortran", 24, 0, 96, 36, 40);
        CHECK_MPI(MPI_Type_free(&w));
    }

    /* darray: block x cyclic(2) over a 2x2 grid, rank 3 */
    {
        int gs[2] = {8, 10}, di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2},
            ps[2] = {2, 2};
        CHECK_MPI(MPI_Type_create_darray(4, 3, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &w));
        /* rows 4..7, columns {2,3,6,7}: 16 ints; first at (4,2) = 42, last at (7,7) = 77 */
        bounds(w, "darray", 64, 0, 320, 168, 144);
        envelope(w, "darray", 4 * 2 + 4, 0, 1, MPI_COMBINER_DARRAY);
        CHECK_MPI(MPI_Type_free(&w));
    }

    /* dup: same layout, own handle, no name, DUP combiner */
    {
        CHECK_MPI(MPI_Type_dup(MPI_INT, &w));
        CHECK(w != MPI_INT, "dup returned the same handle");
        bounds(w, "dup(int)", 4, 0, 4, 0, 4);
        envelope(w, "dup", 0, 0, 1, MPI_COMBINER_DUP);
        char name[MPI_MAX_OBJECT_NAME];
        int len = -1;
        CHECK_MPI(MPI_Type_get_name(w, name, &len));
        CHECK(len == 0 && name[0] == 0, "dup name '%s'", name);
        CHECK_MPI(MPI_Type_set_name(w, "my int"));
        CHECK_MPI(MPI_Type_get_name(w, name, &len));
        CHECK(len == 6 && strcmp(name, "my int") == 0, "name '%s' %d", name, len);
        CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE_INT, name, &len));
        CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0, "predefined name '%s'", name);
        CHECK_MPI(MPI_Type_free(&w));
    }

    /* get_contents handles keep a freed type alive. */
    {
        CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &w));
        MPI_Datatype outer, inner;
        CHECK_MPI(MPI_Type_contiguous(2, w, &outer));
        CHECK_MPI(MPI_Type_free(&w));
        int is[1];
        CHECK_MPI(MPI_Type_get_contents(outer, 1, 0, 1, is, NULL, &inner));
        bounds(inner, "contents of freed type", 8, 0, 8, 0, 8);
        CHECK_MPI(MPI_Type_free(&outer));
        bounds(inner, "contents after outer freed", 8, 0, 8, 0, 8);
        CHECK_MPI(MPI_Type_free(&inner));
    }

    /* f90 and match_size */
    {
        MPI_Datatype r1, r2;
        CHECK_MPI(MPI_Type_create_f90_real(6, 30, &r1));
        CHECK_MPI(MPI_Type_create_f90_real(6, 30, &r2));
        CHECK(r1 == r2, "f90 types are not cached");
        bounds(r1, "f90 real(6,30)", 4, 0, 4, 0, 4);
        envelope(r1, "f90 real", 2, 0, 0, MPI_COMBINER_F90_REAL);
        CHECK_MPI(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &r1));
        bounds(r1, "f90 real(15)", 8, 0, 8, 0, 8);
        CHECK_MPI(MPI_Type_create_f90_complex(15, 300, &r1));
        bounds(r1, "f90 complex(15,300)", 16, 0, 16, 0, 16);
        CHECK_MPI(MPI_Type_create_f90_integer(9, &r1));
        bounds(r1, "f90 integer(9)", 4, 0, 4, 0, 4);
        envelope(r1, "f90 integer", 1, 0, 0, MPI_COMBINER_F90_INTEGER);
        CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &r1));
        CHECK(r1 == MPI_REAL8, "match_size real 8");
        CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &r1));
        CHECK(r1 == MPI_INTEGER4, "match_size integer 4");
        CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &r1));
        CHECK(r1 == MPI_COMPLEX16, "match_size complex 16");
    }

    /* addresses */
    {
        int arr[10];
        MPI_Aint a0, a5, x;
        CHECK_MPI(MPI_Get_address(&arr[0], &a0));
        CHECK_MPI(MPI_Get_address(&arr[5], &a5));
        CHECK(MPI_Aint_diff(a5, a0) == 20, "Aint_diff %ld", (long)MPI_Aint_diff(a5, a0));
        CHECK(MPI_Aint_add(a0, 20) == a5, "Aint_add");
        CHECK_MPI(MPI_Address(&arr[5], &x));
        CHECK(x == a5, "MPI_Address");
    }

    /* Commit of predefined and committed types is allowed. */
    {
        MPI_Datatype p = MPI_INT;
        CHECK_MPI(MPI_Type_commit(&p));
        CHECK_MPI(MPI_Type_commit(&t));
        CHECK_MPI(MPI_Type_commit(&t));
    }
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&u));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
