//go:build ignore

/* gompi-test: np=1,2 timeout=30 */
/* Every constructor nested three deep (each constructor at each level), over
 * an int array holding its own indices. A reference flattener written here
 * walks MPI_Type_get_envelope/get_contents and the standard's definition of
 * each combiner to list the ints a type covers, in typemap order; MPI_Pack
 * must produce exactly that list, MPI_Unpack must put it back there, and
 * with two ranks the type crosses the wire against plain MPI_INT on the
 * other side, both ways. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MEM 200000
#define ORIGIN 100000 /* ints before the buffer origin: negative displacements */
static int mem[MEM];
static int *list;
static int nlist, caplist;

static void emit(long byteoff) {
    if (nlist == caplist) {
        caplist = caplist ? 2 * caplist : 1024;
        list = realloc(list, sizeof(int) * caplist);
    }
    list[nlist++] = (int)(byteoff / 4);
}

static MPI_Aint extent_of(MPI_Datatype t) {
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* owned lists the global indices of one darray dimension owned by coord c. */
static int owned(int g, int dist, int darg, int p, int c, int *out) {
    int n = 0;
    if (dist == MPI_DISTRIBUTE_NONE) {
        for (int k = 0; k < g; k++) out[n++] = k;
    } else if (dist == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        for (int k = c * b; k < g && k < c * b + b; k++) out[n++] = k;
    } else {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        for (int k = 0; k < g; k++)
            if ((k / b) % p == c) out[n++] = k;
    }
    return n;
}

/* flatten appends the int offsets (in bytes from the origin) of t placed at disp. */
static void flatten(MPI_Datatype t, long disp) {
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        CHECK(t == MPI_INT, "unexpected predefined type");
        emit(disp);
        return;
    }
    int *is = malloc(sizeof(int) * (ni + 1));
    MPI_Aint *as = malloc(sizeof(MPI_Aint) * (na + 1));
    MPI_Datatype *ds = malloc(sizeof(MPI_Datatype) * (nd + 1));
    MPI_Type_get_contents(t, ni, na, nd, is, as, ds);
    MPI_Aint e = extent_of(ds[0]);
    switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        flatten(ds[0], disp);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < is[0]; i++) flatten(ds[0], disp + i * e);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < is[0]; i++)
            for (int j = 0; j < is[1]; j++) flatten(ds[0], disp + ((long)i * is[2] + j) * e);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < is[0]; i++)
            for (int j = 0; j < is[1]; j++) flatten(ds[0], disp + i * as[0] + j * e);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < is[0]; i++)
            for (int j = 0; j < is[1 + i]; j++) flatten(ds[0], disp + ((long)is[1 + is[0] + i] + j) * e);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < is[0]; i++)
            for (int j = 0; j < is[1 + i]; j++) flatten(ds[0], disp + as[i] + j * e);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < is[0]; i++)
            for (int j = 0; j < is[1]; j++) flatten(ds[0], disp + ((long)is[2 + i] + j) * e);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < is[0]; i++)
            for (int j = 0; j < is[1]; j++) flatten(ds[0], disp + as[i] + j * e);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < is[0]; i++) {
            MPI_Aint ei = extent_of(ds[i]);
            for (int j = 0; j < is[1 + i]; j++) flatten(ds[i], disp + as[i] + j * ei);
        }
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = is[0], *sz = is + 1, *sub = is + 1 + n, *st = is + 1 + 2 * n, order = is[1 + 3 * n];
        int idx[8] = {0};
        long total = 1;
        for (int k = 0; k < n; k++) total *= sub[k];
        for (long c = 0; c < total; c++) {
            long rem = c, off = 0, mul = 1;
            for (int k = 0; k < n; k++) {
                int dd = order == MPI_ORDER_C ? n - 1 - k : k;
                idx[dd] = st[dd] + rem % sub[dd];
                rem /= sub[dd];
            }
            for (int k = 0; k < n; k++) {
                int dd = order == MPI_ORDER_C ? n - 1 - k : k;
                off += idx[dd] * mul;
                mul *= sz[dd];
            }
            flatten(ds[0], disp + off * e);
        }
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int size = is[0], rank = is[1], n = is[2], *g = is + 3, *di = is + 3 + n, *da = is + 3 + 2 * n,
            *ps = is + 3 + 3 * n, order = is[3 + 4 * n];
        (void)size;
        int coords[8], own[8][64], cnt[8];
        for (int k = n - 1, r = rank; k >= 0; k--) coords[k] = r % ps[k], r /= ps[k];
        long total = 1;
        for (int k = 0; k < n; k++) total *= (cnt[k] = owned(g[k], di[k], da[k], ps[k], coords[k], own[k]));
        for (long c = 0; c < total; c++) {
            long rem = c, off = 0, mul = 1;
            int idx[8];
            for (int k = 0; k < n; k++) {
                int dd = order == MPI_ORDER_C ? n - 1 - k : k;
                idx[dd] = own[dd][rem % cnt[dd]];
                rem /= cnt[dd];
            }
            for (int k = 0; k < n; k++) {
                int dd = order == MPI_ORDER_C ? n - 1 - k : k;
                off += idx[dd] * mul;
                mul *= g[dd];
            }
            flatten(ds[0], disp + off * e);
        }
        break;
    }
    default:
        CHECK(0, "unexpected combiner %d", comb);
    }
    for (int i = 0; i < nd; i++) {
        int a, b, c, k;
        MPI_Type_get_envelope(ds[i], &a, &b, &c, &k);
        if (k != MPI_COMBINER_NAMED) MPI_Type_free(&ds[i]);
    }
    free(is);
    free(as);
    free(ds);
}

enum { NCONS = 12 };
static const char *cons_name[NCONS] = {"contiguous", "vector",   "hvector",   "indexed",  "hindexed", "indexed_block",
                                       "hindexed_block", "struct", "resized", "dup", "subarray", "darray"};

/* make builds constructor k over old (extent e). */
static MPI_Datatype make(int k, MPI_Datatype old) {
    MPI_Datatype t;
    MPI_Aint e = extent_of(old);
    switch (k) {
    case 0:
        MPI_Type_contiguous(2, old, &t);
        break;
    case 1:
        MPI_Type_vector(2, 2, -3, old, &t);
        break;
    case 2:
        MPI_Type_create_hvector(3, 1, 2 * e + 4, old, &t);
        break;
    case 3: {
        int bl[3] = {1, 0, 2}, d[3] = {4, 1, -2};
        MPI_Type_indexed(3, bl, d, old, &t);
        break;
    }
    case 4: {
        int bl[2] = {2, 1};
        MPI_Aint d[2] = {3 * e + 8, -e};
        MPI_Type_create_hindexed(2, bl, d, old, &t);
        break;
    }
    case 5: {
        int d[2] = {3, 0};
        MPI_Type_create_indexed_block(2, 2, d, old, &t);
        break;
    }
    case 6: {
        MPI_Aint d[3] = {0, 5 * e + 4, 2 * e};
        MPI_Type_create_hindexed_block(3, 1, d, old, &t);
        break;
    }
    case 7: {
        int bl[2] = {1, 2};
        MPI_Aint d[2] = {e * 4, 0};
        MPI_Datatype ty[2] = {old, MPI_INT};
        MPI_Type_create_struct(2, bl, d, ty, &t);
        break;
    }
    case 8:
        MPI_Type_create_resized(old, -4, e + 12, &t);
        break;
    case 9:
        MPI_Type_dup(old, &t);
        break;
    case 10: {
        int sizes[2] = {3, 4}, subs[2] = {2, 2}, starts[2] = {1, 1};
        MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, old, &t);
        break;
    }
    default: {
        int gs[2] = {5, 4}, di[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK}, da[2] = {2, MPI_DISTRIBUTE_DFLT_DARG},
            ps[2] = {2, 2};
        MPI_Type_create_darray(4, 1, 2, gs, di, da, ps, MPI_ORDER_C, old, &t);
        break;
    }
    }
    return t;
}

int main(int argc, char **argv) {
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    int *packed = malloc(sizeof(int) * MEM), *recv = malloc(sizeof(int) * MEM);
    for (int k = 0; k < NCONS; k++) {
        for (int i = 0; i < MEM; i++) mem[i] = i - ORIGIN;
        MPI_Datatype l1 = make(k, MPI_INT), l2 = make((k + 5) % NCONS, l1), l3 = make((k + 7) % NCONS, l2);
        CHECK_MPI(MPI_Type_commit(&l3));
        char what[128];
        snprintf(what, sizeof what, "%s(%s(%s(int)))", cons_name[(k + 7) % NCONS], cons_name[(k + 5) % NCONS],
                 cons_name[k]);
        const int count = 2;
        nlist = 0;
        MPI_Aint e3 = extent_of(l3);
        for (int c = 0; c < count; c++) flatten(l3, c * e3);
        int sz;
        CHECK_MPI(MPI_Type_size(l3, &sz));
        CHECK(sz * count == 4 * nlist, "%s: size %d but the reference lists %d ints", what, sz, nlist);
        for (int i = 0; i < nlist; i++)
            CHECK(list[i] > -ORIGIN && list[i] < MEM - ORIGIN, "%s: reference outside the buffer", what);
        int pos = 0;
        CHECK_MPI(MPI_Pack(mem + ORIGIN, count, l3, packed, 4 * MEM, &pos, MPI_COMM_WORLD));
        CHECK(pos == 4 * nlist, "%s: packed %d bytes, want %d", what, pos, 4 * nlist);
        int bad = 0;
        for (int i = 0; i < nlist && i < pos / 4; i++) bad += packed[i] != list[i];
        CHECK(bad == 0, "%s: %d packed ints differ from the reference", what, bad);

        /* Unpack into a cleared buffer: exactly the listed ints come back. */
        for (int i = 0; i < MEM; i++) mem[i] = 0x7fffffff;
        pos = 0;
        CHECK_MPI(MPI_Unpack(packed, 4 * nlist, &pos, mem + ORIGIN, count, l3, MPI_COMM_WORLD));
        bad = 0;
        for (int i = 0; i < nlist; i++) bad += mem[ORIGIN + list[i]] != list[i];
        int touched = 0;
        for (int i = 0; i < MEM; i++) touched += mem[i] != 0x7fffffff;
        CHECK(bad == 0, "%s: %d ints unpacked to the wrong place", what, bad);
        CHECK(touched <= nlist, "%s: unpack wrote %d ints for %d entries", what, touched, nlist);

        if (size >= 2 && rank < 2) {
            for (int i = 0; i < MEM; i++) mem[i] = i - ORIGIN;
            MPI_Status st;
            if (rank == 0) {
                CHECK_MPI(MPI_Send(mem + ORIGIN, count, l3, 1, k, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Send(list, nlist, MPI_INT, 1, k, MPI_COMM_WORLD));
            } else {
                CHECK_MPI(MPI_Recv(recv, MEM, MPI_INT, 0, k, MPI_COMM_WORLD, &st));
                int n;
                MPI_Get_count(&st, MPI_INT, &n);
                CHECK(n == nlist, "%s: received %d ints, want %d", what, n, nlist);
                bad = 0;
                for (int i = 0; i < nlist; i++) bad += recv[i] != list[i];
                CHECK(bad == 0, "%s: %d ints differ on the wire", what, bad);
                for (int i = 0; i < MEM; i++) mem[i] = 0x7fffffff;
                CHECK_MPI(MPI_Recv(mem + ORIGIN, count, l3, 0, k, MPI_COMM_WORLD, &st));
                bad = 0;
                for (int i = 0; i < nlist; i++) bad += mem[ORIGIN + list[i]] != list[i];
                CHECK(bad == 0, "%s: %d ints received into the wrong place", what, bad);
                MPI_Get_elements(&st, l3, &n);
                CHECK(n == nlist, "%s: Get_elements %d, want %d", what, n, nlist);
            }
        }
        MPI_Type_free(&l1);
        MPI_Type_free(&l2);
        MPI_Type_free(&l3);
    }
    free(list);
    free(packed);
    free(recv);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
