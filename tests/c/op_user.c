//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* User-defined ops through MPI_Op_create: the function gets the count and the
 * datatype handle of the call, MPI_Reduce_local applies it as in op inout (a
 * non-commutative op shows the order), MPI_Op_commutative reports the flag
 * given at creation and 1 for predefined ops, MPI_Op_free sets the handle to
 * MPI_OP_NULL, and creating and freeing many ops works (handles are distinct
 * while alive; more ops than the C-side function table holds). */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int calls, last_len;
static MPI_Datatype last_type;

/* Commutative: elementwise maximum of absolute values. */
static void absmax(void *in, void *inout, int *len, MPI_Datatype *dt) {
    int *a = in, *b = inout;
    calls++;
    last_len = *len;
    last_type = *dt;
    for (int i = 0; i < *len; i++) {
        int x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
        b[i] = x > y ? x : y;
    }
}

/* Non-commutative: 2x2 matrix product, inout = in x inout, on each group of
 * four doubles. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt) {
    double *a = in, *b = inout;
    CHECK(*dt == MPI_DOUBLE, "matmul got datatype %#x", *dt);
    for (int k = 0; k < *len / 4; k++, a += 4, b += 4) {
        double c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                       a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

/* A user op may call MPI (here MPI_Comm_rank) from inside the callback. */
static void rank_add(void *in, void *inout, int *len, MPI_Datatype *dt) {
    int r;
    (void)dt;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    for (int i = 0; i < *len; i++) ((long *)inout)[i] += ((long *)in)[i] + r;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);

    MPI_Op op_abs = MPI_OP_NULL, op_mat = MPI_OP_NULL, op_rank = MPI_OP_NULL;
    CHECK_MPI(MPI_Op_create(absmax, 1, &op_abs));
    CHECK_MPI(MPI_Op_create(matmul, 0, &op_mat));
    CHECK_MPI(MPI_Op_create(rank_add, 1, &op_rank));
    CHECK(op_abs != MPI_OP_NULL && op_mat != MPI_OP_NULL && op_abs != op_mat && op_mat != op_rank,
          "handles %#x %#x %#x", op_abs, op_mat, op_rank);

    int commute = -1;
    CHECK_MPI(MPI_Op_commutative(op_abs, &commute));
    CHECK(commute == 1, "absmax commute %d", commute);
    CHECK_MPI(MPI_Op_commutative(op_mat, &commute));
    CHECK(commute == 0, "matmul commute %d", commute);
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_SUM commute %d", commute);
    CHECK_MPI(MPI_Op_commutative(MPI_MAXLOC, &commute));
    CHECK(commute == 1, "MPI_MAXLOC commute %d", commute);

    int a[5] = {-7, 2, -3, 0, 9}, b[5] = {1, -5, 3, -1, -10};
    CHECK_MPI(MPI_Reduce_local(a, b, 5, MPI_INT, op_abs));
    CHECK(calls == 1 && last_len == 5 && last_type == MPI_INT, "calls %d len %d type %#x", calls,
          last_len, last_type);
    CHECK(b[0] == 7 && b[1] == 5 && b[2] == 3 && b[3] == 1 && b[4] == 10, "absmax result %d %d %d %d %d",
          b[0], b[1], b[2], b[3], b[4]);
    /* count 0 may call the function or not, but must not change anything. */
    CHECK_MPI(MPI_Reduce_local(a, b, 0, MPI_INT, op_abs));
    CHECK(b[0] == 7, "count 0 changed data");

    /* Order: in x inout, not inout x in. */
    double m1[8] = {1, 2, 3, 4, 0, 1, 1, 0}, m2[8] = {5, 6, 7, 8, 2, 0, 0, 3};
    CHECK_MPI(MPI_Reduce_local(m1, m2, 8, MPI_DOUBLE, op_mat));
    CHECK(m2[0] == 19 && m2[1] == 22 && m2[2] == 43 && m2[3] == 50, "matmul (1) %g %g %g %g", m2[0],
          m2[1], m2[2], m2[3]);
    CHECK(m2[4] == 0 && m2[5] == 3 && m2[6] == 2 && m2[7] == 0, "matmul (2) %g %g %g %g", m2[4], m2[5],
          m2[6], m2[7]);

    long la[3] = {1, 2, 3}, lb[3] = {10, 20, 30};
    CHECK_MPI(MPI_Reduce_local(la, lb, 3, MPI_LONG, op_rank));
    CHECK(lb[0] == 11 + check_rank && lb[2] == 33 + check_rank, "rank_add %ld %ld", lb[0], lb[2]);

    MPI_Op freed = op_abs;
    CHECK_MPI(MPI_Op_free(&op_abs));
    CHECK(op_abs == MPI_OP_NULL, "Op_free left handle %#x", op_abs);
    (void)freed;
    CHECK_MPI(MPI_Op_free(&op_mat));
    CHECK_MPI(MPI_Op_free(&op_rank));
    CHECK(op_mat == MPI_OP_NULL && op_rank == MPI_OP_NULL, "handles not reset");

    /* Many ops alive at once have distinct handles and each runs its own
     * function; then all are freed. */
    /* More than the C side's table of 1024 functions: the ops past it take
     * the Go path. */
    enum { MANY = 1100 };
    static MPI_Op many[MANY];
    for (int i = 0; i < MANY; i++) {
        CHECK_MPI(MPI_Op_create(i % 2 ? absmax : rank_add, i % 3 == 0, &many[i]));
        for (int j = 0; j < i; j++)
            if (many[j] == many[i]) {
                CHECK(0, "ops %d and %d share handle %#x", j, i, many[i]);
                break;
            }
    }
    for (int i = 0; i < MANY; i++) {
        CHECK_MPI(MPI_Op_commutative(many[i], &commute));
        CHECK(commute == (i % 3 == 0), "op %d commute %d", i, commute);
    }
    calls = 0;
    CHECK_MPI(MPI_Reduce_local(a, b, 5, MPI_INT, many[101]));
    CHECK(calls == 1, "op 101 did not call absmax");
    CHECK_MPI(MPI_Reduce_local(a, b, 5, MPI_INT, many[1051]));
    CHECK(calls == 2 && last_len == 5 && last_type == MPI_INT, "op 1051 did not call absmax");
    long la2[1] = {1}, lb2[1] = {2};
    CHECK_MPI(MPI_Reduce_local(la2, lb2, 1, MPI_LONG, many[1050]));
    CHECK(lb2[0] == 3 + check_rank, "op 1050 (rank_add) gave %ld", lb2[0]);
    for (int i = 0; i < MANY; i++) CHECK_MPI(MPI_Op_free(&many[i]));

    MPI_Finalize();
    return check_status();
}
