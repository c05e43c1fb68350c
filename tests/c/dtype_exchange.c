//go:build ignore

/* gompi-test: np=2,3,4 timeout=30 */
/* Derived datatypes on the wire: every rank sends to the next and receives
 * from the previous one with different, signature-compatible types on the
 * two sides (vector vs contiguous, struct vs indexed, subarray vs subarray
 * elsewhere, resized vectors as IMB and OSU use them), eager and rendezvous
 * sizes, blocking, nonblocking (type freed while pending), persistent,
 * Sendrecv_replace, matched probe, buffered, MPI_BOTTOM with absolute
 * addresses, short receives (Get_count/Get_elements) and truncation. */
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, next, prev;

static double val(int from, int i) { return from * 1000000.0 + i; }

/* Vector on the send side, contiguous on the receive side, and back. */
static void vector_vs_contig(int n, int tag) {
    double *s = malloc(sizeof(double) * 2 * n), *r = malloc(sizeof(double) * 3 * n);
    for (int i = 0; i < 2 * n; i++) s[i] = (i % 2) ? -1 : val(rank, i / 2);
    MPI_Datatype vec, wide;
    CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(s, 1, vec, next, tag, r, n, MPI_DOUBLE, prev, tag, MPI_COMM_WORLD, &st));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += r[i] != val(prev, i);
    CHECK(bad == 0, "vector->contiguous n=%d: %d wrong", n, bad);
    int cnt = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &cnt));
    CHECK(cnt == n, "count %d want %d", cnt, n);

    /* Contiguous send, receive into every third double: gaps untouched. */
    for (int i = 0; i < n; i++) s[i] = val(rank, i);
    for (int i = 0; i < 3 * n; i++) r[i] = -7;
    CHECK_MPI(MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &wide));
    CHECK_MPI(MPI_Type_commit(&wide));
    CHECK_MPI(MPI_Sendrecv(s, n, MPI_DOUBLE, next, tag, r, 1, wide, prev, tag, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, wide, &cnt));
    CHECK(cnt == 1, "count of wide %d", cnt);
    CHECK_MPI(MPI_Get_elements(&st, wide, &cnt));
    CHECK(cnt == n, "elements of wide %d", cnt);
    bad = 0;
    for (int i = 0; i < 3 * n; i++) bad += r[i] != (i % 3 ? -7 : val(prev, i / 3));
    CHECK(bad == 0, "contiguous->vector n=%d: %d wrong", n, bad);
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&wide));
    free(s);
    free(r);
}

struct pt {
    int id;
    double x;
};

/* A struct array on one side; on the other, ids and values in two separate
 * arrays described by one struct type. Signature: (int, double) repeated. */
static void struct_vs_indexed(void) {
    enum { N = 5 };
    struct pt s[N];
    for (int i = 0; i < N; i++) s[i].id = rank * 10 + i, s[i].x = val(rank, i);
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {offsetof(struct pt, id), offsetof(struct pt, x)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, pt, mix;
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &pt));
    CHECK_MPI(MPI_Type_commit(&pt));
    int ids[N];
    double xs[N];
    MPI_Aint base, a2;
    MPI_Get_address(ids, &base);
    MPI_Get_address(xs, &a2);
    int lens[2 * N];
    MPI_Aint disp[2 * N];
    MPI_Datatype tys[2 * N];
    for (int i = 0; i < N; i++) {
        lens[2 * i] = lens[2 * i + 1] = 1;
        disp[2 * i] = i * (MPI_Aint)sizeof(int);
        disp[2 * i + 1] = a2 - base + i * (MPI_Aint)sizeof(double);
        tys[2 * i] = MPI_INT;
        tys[2 * i + 1] = MPI_DOUBLE;
    }
    CHECK_MPI(MPI_Type_create_struct(2 * N, lens, disp, tys, &mix));
    CHECK_MPI(MPI_Type_commit(&mix));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(s, N, pt, next, 3, ids, 1, mix, prev, 3, MPI_COMM_WORLD, &st));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += ids[i] != prev * 10 + i || xs[i] != val(prev, i);
    CHECK(bad == 0, "struct->split arrays: %d wrong", bad);
    int cnt;
    CHECK_MPI(MPI_Get_elements(&st, mix, &cnt));
    CHECK(cnt == 2 * N, "elements %d", cnt);
    CHECK_MPI(MPI_Type_free(&mix));
    CHECK_MPI(MPI_Type_free(&pt));
}

/* Short receives: 3 basic elements into 2 elements of {int, double}. */
static void partial(void) {
    struct pt s[2] = {{rank, val(rank, 0)}, {rank + 100, 0}}, r[2];
    memset(r, 0, sizeof r);
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {0, 8, 16};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, three, pt;
    CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &three));
    CHECK_MPI(MPI_Type_commit(&three));
    MPI_Aint d2[2] = {offsetof(struct pt, id), offsetof(struct pt, x)};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d2, ty, &pt));
    CHECK_MPI(MPI_Type_commit(&pt));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(s, 1, three, next, 4, r, 2, pt, prev, 4, MPI_COMM_WORLD, &st));
    int cnt = 0;
    CHECK_MPI(MPI_Get_count(&st, pt, &cnt));
    CHECK(cnt == MPI_UNDEFINED, "count of 1.5 elements: %d", cnt);
    CHECK_MPI(MPI_Get_elements(&st, pt, &cnt));
    CHECK(cnt == 3, "elements of 1.5 elements: %d", cnt);
    MPI_Count cx = 0;
    CHECK_MPI(MPI_Get_elements_x(&st, pt, &cx));
    CHECK(cx == 3, "elements_x %lld", (long long)cx);
    CHECK(r[0].id == prev && r[0].x == val(prev, 0) && r[1].id == prev + 100 && r[1].x == 0, "partial data");

    /* Status_set_elements then Get_elements agree, Get_count sees the half. */
    CHECK_MPI(MPI_Status_set_elements(&st, pt, 5));
    CHECK_MPI(MPI_Get_elements(&st, pt, &cnt));
    CHECK(cnt == 5, "set_elements 5 -> %d", cnt);
    CHECK_MPI(MPI_Get_count(&st, pt, &cnt));
    CHECK(cnt == MPI_UNDEFINED, "count after set_elements 5: %d", cnt);
    CHECK_MPI(MPI_Status_set_elements(&st, pt, 4));
    CHECK_MPI(MPI_Get_count(&st, pt, &cnt));
    CHECK(cnt == 2, "count after set_elements 4: %d", cnt);

    CHECK_MPI(MPI_Type_free(&three));
    CHECK_MPI(MPI_Type_free(&pt));
}

/* Nonblocking with types freed while the operations are pending, plus a
 * rendezvous-size message (above the 64 KiB eager limit). */
static void nonblocking(int n) {
    int *s = malloc(sizeof(int) * 4 * n), *r = malloc(sizeof(int) * 4 * n);
    for (int i = 0; i < 4 * n; i++) s[i] = rank * 7 + i, r[i] = -1;
    int bl[2] = {3, 1}, d[2] = {0, 3};
    MPI_Datatype idx, blk;
    CHECK_MPI(MPI_Type_indexed(2, bl, d, MPI_INT, &idx)); /* 4 contiguous ints, described in two blocks */
    CHECK_MPI(MPI_Type_create_resized(idx, 0, 16, &blk));
    CHECK_MPI(MPI_Type_commit(&blk));
    MPI_Datatype evens;
    CHECK_MPI(MPI_Type_vector(2 * n, 1, 2, MPI_INT, &evens));
    CHECK_MPI(MPI_Type_commit(&evens));
    MPI_Request q[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(r, 1, evens, prev, 6, MPI_COMM_WORLD, &q[0]));
    CHECK_MPI(MPI_Isend(s, n / 2, blk, next, 6, MPI_COMM_WORLD, &q[1]));
    CHECK_MPI(MPI_Type_free(&evens));
    CHECK_MPI(MPI_Type_free(&blk));
    CHECK_MPI(MPI_Type_free(&idx));
    CHECK_MPI(MPI_Waitall(2, q, sts));
    int bad = 0;
    for (int i = 0; i < 4 * n; i++) bad += r[i] != ((i % 2 == 0) ? prev * 7 + i / 2 : -1);
    CHECK(bad == 0, "nonblocking n=%d: %d wrong", n, bad);
    free(s);
    free(r);
}

/* Persistent requests on vectors, restarted with new data each time. */
static void persistent(void) {
    enum { N = 100 };
    double s[2 * N], r[2 * N];
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    MPI_Request q[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Recv_init(r + 1, 1, vec, prev, 7, MPI_COMM_WORLD, &q[0]));
    CHECK_MPI(MPI_Send_init(s, 1, vec, next, 7, MPI_COMM_WORLD, &q[1]));
    for (int it = 0; it < 10; it++) {
        for (int i = 0; i < 2 * N; i++) s[i] = val(rank, i) + it, r[i] = -1;
        CHECK_MPI(MPI_Startall(2, q));
        CHECK_MPI(MPI_Waitall(2, q, sts));
        int bad = 0;
        for (int i = 0; i < 2 * N; i++) bad += r[i] != (i % 2 ? val(prev, i - 1) + it : -1);
        CHECK(bad == 0, "persistent iteration %d: %d wrong", it, bad);
    }
    CHECK_MPI(MPI_Request_free(&q[0]));
    CHECK_MPI(MPI_Request_free(&q[1]));

    /* Sendrecv_replace with the same vector (and a lower bound below 0). */
    MPI_Datatype shifted;
    CHECK_MPI(MPI_Type_create_resized(vec, -8, 16 * N, &shifted));
    CHECK_MPI(MPI_Type_commit(&shifted));
    for (int i = 0; i < 2 * N; i++) s[i] = val(rank, i);
    CHECK_MPI(MPI_Sendrecv_replace(s, 1, shifted, next, 8, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < 2 * N; i++) bad += s[i] != (i % 2 ? val(rank, i) : val(prev, i));
    CHECK(bad == 0, "Sendrecv_replace: %d wrong", bad);
    CHECK_MPI(MPI_Type_free(&shifted));
    CHECK_MPI(MPI_Type_free(&vec));
}

/* Matched probe, buffered send, MPI_BOTTOM and truncation. */
static void misc(void) {
    int a = rank + 1;
    double b = val(rank, 3);
    MPI_Aint addr[2];
    MPI_Get_address(&a, &addr[0]);
    MPI_Get_address(&b, &addr[1]);
    int bl[2] = {1, 1};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, abs_t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, addr, ty, &abs_t));
    CHECK_MPI(MPI_Type_commit(&abs_t));
    int ra;
    double rb;
    MPI_Aint raddr[2];
    MPI_Get_address(&ra, &raddr[0]);
    MPI_Get_address(&rb, &raddr[1]);
    MPI_Datatype rabs;
    CHECK_MPI(MPI_Type_create_struct(2, bl, raddr, ty, &rabs));
    CHECK_MPI(MPI_Type_commit(&rabs));
    CHECK_MPI(MPI_Sendrecv(MPI_BOTTOM, 1, abs_t, next, 9, MPI_BOTTOM, 1, rabs, prev, 9, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(ra == prev + 1 && rb == val(prev, 3), "MPI_BOTTOM exchange: %d %g", ra, rb);

    /* Matched probe into a vector. */
    int s[8], r[16];
    for (int i = 0; i < 8; i++) s[i] = rank * 100 + i;
    for (int i = 0; i < 16; i++) r[i] = -1;
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(8, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    MPI_Request q;
    CHECK_MPI(MPI_Isend(s, 8, MPI_INT, next, 10, MPI_COMM_WORLD, &q));
    MPI_Message m;
    MPI_Status st;
    CHECK_MPI(MPI_Mprobe(prev, 10, MPI_COMM_WORLD, &m, &st));
    CHECK_MPI(MPI_Mrecv(r, 1, v, &m, &st));
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < 16; i++) bad += r[i] != (i % 2 ? -1 : prev * 100 + i / 2);
    CHECK(bad == 0, "Mrecv into vector: %d wrong", bad);

    /* Buffered send of a vector. */
    static char bbuf[4096];
    CHECK_MPI(MPI_Buffer_attach(bbuf, sizeof bbuf));
    int s2[16];
    for (int i = 0; i < 16; i++) s2[i] = rank * 1000 + i;
    CHECK_MPI(MPI_Bsend(s2, 1, v, next, 11, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(r, 8, MPI_INT, prev, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    void *p;
    int psz;
    CHECK_MPI(MPI_Buffer_detach(&p, &psz));
    bad = 0;
    for (int i = 0; i < 8; i++) bad += r[i] != prev * 1000 + 2 * i;
    CHECK(bad == 0, "Bsend of vector: %d wrong", bad);

    /* Truncation: 8 ints into a vector of 3: the prefix arrives. */
    MPI_Datatype v3;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &v3));
    CHECK_MPI(MPI_Type_commit(&v3));
    for (int i = 0; i < 16; i++) r[i] = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request rq;
    CHECK_MPI(MPI_Irecv(r, 1, v3, prev, 12, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Send(s, 8, MPI_INT, next, 12, MPI_COMM_WORLD));
    int rc = MPI_Wait(&rq, &st), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "truncation class %d", cls);
    CHECK(r[0] == prev * 100 && r[2] == prev * 100 + 1 && r[4] == prev * 100 + 2 && r[1] == -1 && r[6] == -1,
          "truncated prefix %d %d %d %d", r[0], r[2], r[4], r[6]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_MPI(MPI_Type_free(&v3));
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&abs_t));
    CHECK_MPI(MPI_Type_free(&rabs));
}

/* A 2x3 block of a 4x6 int array goes to another place of the peer's array. */
static void subarrays(void) {
    int a[4][6], b[4][6];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) a[i][j] = rank * 100 + i * 10 + j, b[i][j] = -1;
    int sizes[2] = {4, 6}, subs[2] = {2, 3}, s1[2] = {1, 2}, s2[2] = {2, 0};
    MPI_Datatype from, to;
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, s1, MPI_ORDER_C, MPI_INT, &from));
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, s2, MPI_ORDER_C, MPI_INT, &to));
    CHECK_MPI(MPI_Type_commit(&from));
    CHECK_MPI(MPI_Type_commit(&to));
    CHECK_MPI(MPI_Sendrecv(a, 1, from, next, 13, b, 1, to, prev, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) {
            int in = i >= 2 && i < 4 && j < 3;
            int want = in ? prev * 100 + (i - 1) * 10 + (j + 2) : -1;
            bad += b[i][j] != want;
        }
    CHECK(bad == 0, "subarray exchange: %d wrong", bad);
    CHECK_MPI(MPI_Type_free(&from));
    CHECK_MPI(MPI_Type_free(&to));
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    vector_vs_contig(10, 1);
    vector_vs_contig(100000, 2); /* 800 KB on the wire: rendezvous */
    struct_vs_indexed();
    partial();
    nonblocking(16);
    nonblocking(40000); /* 160 KB */
    persistent();
    misc();
    subarrays();
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
