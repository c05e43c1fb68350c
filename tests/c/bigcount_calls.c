//go:build ignore

/* gompi-test: np=1,2,4 timeout=120 */
/* The large-count (_c) calls with small counts, each checked against what
 * it must produce: point-to-point (blocking, nonblocking, persistent,
 * buffered, sendrecv, matched probe), collectives with MPI_Count counts and
 * MPI_Aint displacements (Bcast, Allreduce, Gatherv, Alltoallv, Alltoallw,
 * Reduce_scatter, their MPI_I and _init forms), datatype constructors and
 * queries, pack/unpack, a large-count user op, one-sided Put_c/Get_c, the
 * version (4.1), MPI_ERR_VALUE_TOO_LARGE from an int query of a large
 * value, and bad input (negative counts) getting MPI_ERR_COUNT. */
#include <limits.h>
#include <mpi.h>
#include <string.h>

#include "check.h"

static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt) {
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++) ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 1 || n > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    size_t un = (size_t)n;
    int right = (r + 1) % n, left = (r + n - 1) % n;

    int version = 0, subversion = 0;
    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == 4 && subversion == 1, "MPI_Get_version = %d.%d", version, subversion);

    /* Point-to-point around a ring. */
    int out[8], in[8];
    for (int i = 0; i < 8; i++) out[i] = r * 100 + i;
    MPI_Status st;
    MPI_Count cnt = -1;
    CHECK_MPI(MPI_Sendrecv_c(out, 8, MPI_INT, right, 1, in, 8, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &cnt));
    CHECK(cnt == 8 && in[7] == left * 100 + 7, "Sendrecv_c: count %ld, in[7] %d", (long)cnt, in[7]);

    MPI_Request rq[2];
    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_Irecv_c(in, 8, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend_c(out, 5, MPI_INT, right, 2, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(in[4] == left * 100 + 4 && in[5] == 0, "Isend_c/Irecv_c: in[4] %d in[5] %d", in[4], in[5]);

    CHECK_MPI(MPI_Recv_init_c(in, 8, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Ssend_init_c(out, 8, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[1]));
    for (int it = 0; it < 3; it++) {
        memset(in, 0, sizeof in);
        CHECK_MPI(MPI_Startall(2, rq));
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK(in[6] == left * 100 + 6, "persistent _c round %d: in[6] %d", it, in[6]);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);

    /* Buffered mode with an _c buffer. */
    static char bbuf[4096];
    CHECK_MPI(MPI_Buffer_attach_c(bbuf, sizeof bbuf));
    CHECK_MPI(MPI_Bsend_c(out, 8, MPI_INT, right, 4, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv_c(in, 8, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    void *addr = NULL;
    MPI_Count bsize = 0;
    CHECK_MPI(MPI_Buffer_detach_c(&addr, &bsize));
    CHECK(addr == bbuf && bsize == (MPI_Count)sizeof bbuf, "Buffer_detach_c: %p %ld", addr, (long)bsize);

    /* Matched probe and receive. */
    CHECK_MPI(MPI_Send_c(out, 3, MPI_INT, right, 5, MPI_COMM_WORLD) == MPI_SUCCESS ? MPI_SUCCESS : 1);
    {
        MPI_Message msg;
        CHECK_MPI(MPI_Mprobe(left, 5, MPI_COMM_WORLD, &msg, &st));
        CHECK_MPI(MPI_Mrecv_c(in, 8, MPI_INT, &msg, &st));
        CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &cnt));
        CHECK(cnt == 3 && in[2] == left * 100 + 2, "Mrecv_c: %ld elements, in[2] %d", (long)cnt, in[2]);
    }

    /* Collectives. */
    int b[4] = {0, 0, 0, 0};
    if (r == 0) b[0] = 11, b[3] = 44;
    CHECK_MPI(MPI_Bcast_c(b, 4, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(b[0] == 11 && b[3] == 44, "Bcast_c: %d %d", b[0], b[3]);

    int one[3] = {r, 1, 2 * r}, sum[3];
    CHECK_MPI(MPI_Allreduce_c(one, sum, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum[0] == n * (n - 1) / 2 && sum[1] == n && sum[2] == n * (n - 1), "Allreduce_c: %d %d %d", sum[0], sum[1], sum[2]);
    MPI_Request q;
    CHECK_MPI(MPI_Iallreduce_c(one, sum, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q));
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(sum[1] == n, "Iallreduce_c: %d", sum[1]);
    CHECK_MPI(MPI_Allreduce_init_c(one, sum, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    for (int it = 0; it < 2; it++) {
        sum[1] = -1;
        CHECK_MPI(MPI_Start(&q));
        CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
        CHECK(sum[1] == n, "Allreduce_init_c round %d: %d", it, sum[1]);
    }
    MPI_Request_free(&q);

    /* A large-count user op. */
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
    CHECK_MPI(MPI_Allreduce_c(one, sum, 3, MPI_INT, op, MPI_COMM_WORLD));
    CHECK(sum[0] == n * (n - 1) / 2 && sum[1] == n, "Allreduce_c with Op_create_c: %d %d", sum[0], sum[1]);
    int loc[3] = {1, 2, 3};
    CHECK_MPI(MPI_Reduce_local_c(one, loc, 3, MPI_INT, op));
    CHECK(loc[0] == 1 + r && loc[1] == 3, "Reduce_local_c: %d %d", loc[0], loc[1]);
    MPI_Op_free(&op);

    /* Gatherv_c: rank i sends i+1 ints; the root places them in reverse. */
    int *g = calloc(un * (un + 1), sizeof(int));
    MPI_Count *gc = calloc(un, sizeof(MPI_Count));
    MPI_Aint *gd = calloc(un, sizeof(MPI_Aint));
    MPI_Aint off = 0;
    for (int i = n - 1; i >= 0; i--) gc[i] = i + 1, gd[i] = off, off += i + 1;
    int mine[64];
    for (int i = 0; i <= r; i++) mine[i] = r * 10 + i;
    CHECK_MPI(MPI_Gatherv_c(mine, r + 1, MPI_INT, g, gc, gd, MPI_INT, 0, MPI_COMM_WORLD));
    if (r == 0)
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++)
                CHECK(g[gd[i] + j] == i * 10 + j, "Gatherv_c: rank %d item %d = %d", i, j, g[gd[i] + j]);

    /* Alltoallv_c and Alltoallw_c: two ints to every peer. */
    MPI_Count *sc = calloc(un, sizeof(MPI_Count)), *rc = calloc(un, sizeof(MPI_Count));
    MPI_Aint *sd = calloc(un, sizeof(MPI_Aint)), *rd = calloc(un, sizeof(MPI_Aint));
    MPI_Aint *sdb = calloc(un, sizeof(MPI_Aint)), *rdb = calloc(un, sizeof(MPI_Aint));
    MPI_Datatype *ty = calloc(un, sizeof(MPI_Datatype));
    int *sb = calloc(2 * un, sizeof(int)), *rb = calloc(2 * un, sizeof(int));
    for (int i = 0; i < n; i++) {
        sc[i] = rc[i] = 2, sd[i] = rd[i] = 2 * i, sdb[i] = rdb[i] = 2 * i * (MPI_Aint)sizeof(int);
        ty[i] = MPI_INT, sb[2 * i] = r * 1000 + i, sb[2 * i + 1] = -(r * 1000 + i);
    }
    CHECK_MPI(MPI_Alltoallv_c(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        CHECK(rb[2 * i] == i * 1000 + r && rb[2 * i + 1] == -(i * 1000 + r), "Alltoallv_c from %d: %d %d", i,
              rb[2 * i], rb[2 * i + 1]);
    memset(rb, 0, 2 * un * sizeof(int));
    CHECK_MPI(MPI_Ialltoallw_c(sb, sc, sdb, ty, rb, rc, rdb, ty, MPI_COMM_WORLD, &q));
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++) CHECK(rb[2 * i] == i * 1000 + r, "Ialltoallw_c from %d: %d", i, rb[2 * i]);

    /* Reduce_scatter_c: every rank gets two sums. */
    int rs[2];
    for (int i = 0; i < 2 * n; i++) sb[i] = i;
    CHECK_MPI(MPI_Reduce_scatter_c(sb, rs, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(rs[0] == 2 * r * n && rs[1] == (2 * r + 1) * n, "Reduce_scatter_c: %d %d", rs[0], rs[1]);

    /* Datatypes. */
    MPI_Datatype vec, idx, st_t, res;
    CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec));
    MPI_Count tsize = 0, lb = -1, ext = 0;
    CHECK_MPI(MPI_Type_size_c(vec, &tsize));
    CHECK_MPI(MPI_Type_get_extent_c(vec, &lb, &ext));
    CHECK(tsize == 6 * 4 && lb == 0 && ext == 10 * 4, "Type_vector_c: size %ld lb %ld extent %ld", (long)tsize,
          (long)lb, (long)ext);
    MPI_Count bl[2] = {1, 2}, dp[2] = {5, 0};
    CHECK_MPI(MPI_Type_indexed_c(2, bl, dp, MPI_INT, &idx));
    CHECK_MPI(MPI_Type_get_true_extent_c(idx, &lb, &ext));
    CHECK(lb == 0 && ext == 6 * 4, "Type_indexed_c: true lb %ld extent %ld", (long)lb, (long)ext);
    MPI_Count sbl[2] = {1, 1}, sdp[2] = {0, 8};
    MPI_Datatype sty[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct_c(2, sbl, sdp, sty, &st_t));
    CHECK_MPI(MPI_Type_size_c(st_t, &tsize));
    CHECK(tsize == 12, "Type_create_struct_c: size %ld", (long)tsize);
    CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 16, &res));
    CHECK_MPI(MPI_Type_get_extent_c(res, &lb, &ext));
    CHECK(lb == -4 && ext == 16, "Type_create_resized_c: lb %ld extent %ld", (long)lb, (long)ext);
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    int comb = -1;
    CHECK_MPI(MPI_Type_get_envelope_c(vec, &ni, &na, &nl, &nd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && nd == 1 && ni + na + nl >= 3, "Type_get_envelope_c: %ld %ld %ld %ld %d",
          (long)ni, (long)na, (long)nl, (long)nd, comb);

    /* Send a vector, receive contiguous. */
    CHECK_MPI(MPI_Type_commit(&vec));
    int vsrc[12], vdst[6];
    for (int i = 0; i < 12; i++) vsrc[i] = i;
    CHECK_MPI(MPI_Sendrecv_c(vsrc, 1, vec, r, 6, vdst, 6, MPI_INT, r, 6, MPI_COMM_WORLD, &st));
    CHECK(vdst[0] == 0 && vdst[2] == 4 && vdst[5] == 9, "vector via Sendrecv_c: %d %d %d", vdst[0], vdst[2], vdst[5]);
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &cnt));
    CHECK(cnt == 6, "Get_elements_c: %ld", (long)cnt);

    /* Pack and unpack. */
    char pk[256];
    MPI_Count pos = 0, psize = 0;
    CHECK_MPI(MPI_Pack_size_c(1, vec, MPI_COMM_WORLD, &psize));
    CHECK(psize >= 24, "Pack_size_c: %ld", (long)psize);
    CHECK_MPI(MPI_Pack_c(vsrc, 1, vec, pk, sizeof pk, &pos, MPI_COMM_WORLD));
    CHECK(pos == 24, "Pack_c position %ld", (long)pos);
    int upk[6] = {0};
    MPI_Count upos = 0;
    CHECK_MPI(MPI_Unpack_c(pk, pos, &upos, upk, 6, MPI_INT, MPI_COMM_WORLD));
    CHECK(upos == 24 && upk[3] == 5, "Unpack_c: pos %ld upk[3] %d", (long)upos, upk[3]);
    MPI_Count xsize = 0;
    CHECK_MPI(MPI_Pack_external_size_c("external32", 3, MPI_INT, &xsize));
    CHECK(xsize == 12, "Pack_external_size_c: %ld", (long)xsize);

    /* A type of more than INT_MAX bytes (no memory behind it): the int
     * queries cannot say its size, the _c ones can. */
    MPI_Datatype huge;
    CHECK_MPI(MPI_Type_contiguous_c((MPI_Count)3 << 30, MPI_BYTE, &huge));
    CHECK_MPI(MPI_Type_commit(&huge));
    CHECK_MPI(MPI_Type_size_c(huge, &tsize));
    CHECK(tsize == (MPI_Count)3 << 30, "huge size_c %ld", (long)tsize);
    int isz = 0;
    EXPECT_CLASS(MPI_Pack_size(1, huge, MPI_COMM_WORLD, &isz), MPI_ERR_VALUE_TOO_LARGE);
    CHECK_MPI(MPI_Pack_size_c(1, huge, MPI_COMM_WORLD, &psize));
    CHECK(psize >= (MPI_Count)3 << 30, "huge Pack_size_c %ld", (long)psize);
    MPI_Type_free(&huge);

    /* Bad input. */
    EXPECT_CLASS(MPI_Send_c(out, -1, MPI_INT, right, 9, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Bcast_c(b, -5, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MPI_Datatype bad;
    EXPECT_CLASS(MPI_Type_contiguous_c(-2, MPI_INT, &bad), MPI_ERR_COUNT);

    /* One-sided. */
    int *base = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_c(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    for (int i = 0; i < 4; i++) base[i] = -1;
    CHECK_MPI(MPI_Win_fence(0, win));
    int pv[2] = {r, r + 1000};
    CHECK_MPI(MPI_Put_c(pv, 2, MPI_INT, right, 1, 2, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(base[1] == left && base[2] == left + 1000 && base[0] == -1, "Put_c: %d %d %d", base[0], base[1], base[2]);
    int gv[2] = {0, 0};
    CHECK_MPI(MPI_Get_c(gv, 2, MPI_INT, left, 1, 2, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(gv[0] == (left + n - 1) % n, "Get_c: %d", gv[0]);
    MPI_Win_free(&win);

    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Type_free(&st_t);
    MPI_Type_free(&res);
    free(g), free(gc), free(gd), free(sc), free(rc), free(sd), free(rd), free(sdb), free(rdb), free(ty), free(sb),
        free(rb);
    MPI_Finalize();
    return check_status();
}
