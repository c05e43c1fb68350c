//go:build ignore

/* gompi-test: np=1,2,4 timeout=90 */
/* MPI-4.0/4.1 calls: MPI_Isendrecv and MPI_Isendrecv_replace around a ring,
 * MPI_Request_get_status_any/all/some (requests stay valid), the status
 * accessors and C/Fortran/F08 conversions, MPI_Pcontrol,
 * MPI_Type_get_value_index, MPI_Info_create_env, MPI_Get_hw_resource_info,
 * MPI_Remove_error_class/code/string, MPI_Comm_dup_with_info and
 * MPI_Comm_idup_with_info keeping their hints, the error classes of bad
 * input, and (regression) MPI_Status_set_elements_x keeping bit 62. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int right = (r + 1) % n, left = (r + n - 1) % n;

    /* Isendrecv, contiguous and with a vector type. */
    int out[4] = {r, r * 10, r * 100, -r}, in[4] = {-9, -9, -9, -9};
    MPI_Request req;
    MPI_Status s;
    CHECK_MPI(MPI_Isendrecv(out, 4, MPI_INT, right, 5, in, 4, MPI_INT, left, 5, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, &s));
    CHECK(req == MPI_REQUEST_NULL, "request not freed");
    CHECK(in[0] == left && in[2] == left * 100 && s.MPI_SOURCE == left && s.MPI_TAG == 5, "isendrecv got %d %d src %d tag %d",
          in[0], in[2], s.MPI_SOURCE, s.MPI_TAG);
    int cnt;
    MPI_Get_count(&s, MPI_INT, &cnt);
    CHECK(cnt == 4, "count %d", cnt);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int buf[4] = {r, -1, r + 1000, -1};
    CHECK_MPI(MPI_Isendrecv_replace(buf, 1, vec, right, 6, left, 6, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, &s));
    CHECK(buf[0] == left && buf[2] == left + 1000 && buf[1] == -1 && buf[3] == -1, "replace got %d %d %d %d", buf[0],
          buf[1], buf[2], buf[3]);
    MPI_Type_free(&vec);
    /* MPI_PROC_NULL on both sides completes at once. */
    CHECK_MPI(MPI_Isendrecv(out, 1, MPI_INT, MPI_PROC_NULL, 0, in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, &s));
    CHECK(s.MPI_SOURCE == MPI_PROC_NULL, "proc null source %d", s.MPI_SOURCE);
    EXPECT_CLASS(MPI_Isendrecv(out, 1, MPI_INT, n, 0, in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Isendrecv(out, 1, MPI_DATATYPE_NULL, right, 0, in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req),
                 MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Isendrecv_replace(buf, -1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);

    /* Request_get_status_*: nothing is freed. */
    MPI_Request rs[3];
    int x = r, y[2] = {-1, -1};
    CHECK_MPI(MPI_Irecv(&y[0], 1, MPI_INT, left, 9, MPI_COMM_WORLD, &rs[0]));
    rs[1] = MPI_REQUEST_NULL;
    int flag = -1, idx = -1;
    CHECK_MPI(MPI_Request_get_status_any(2, rs, &idx, &flag, &s)); /* maybe done already */
    CHECK(flag == 0 || idx == 0, "get_status_any early: flag %d index %d", flag, idx);
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, right, 9, MPI_COMM_WORLD));
    do {
        CHECK_MPI(MPI_Request_get_status_any(2, rs, &idx, &flag, &s));
    } while (!flag);
    CHECK(idx == 0 && s.MPI_SOURCE == left && rs[0] != MPI_REQUEST_NULL, "any idx %d src %d", idx, s.MPI_SOURCE);
    MPI_Status ss[3];
    CHECK_MPI(MPI_Request_get_status_all(2, rs, &flag, ss));
    CHECK(flag == 1 && ss[0].MPI_TAG == 9, "all flag %d tag %d", flag, ss[0].MPI_TAG);
    int outc = -1, inds[3];
    CHECK_MPI(MPI_Request_get_status_some(2, rs, &outc, inds, ss));
    CHECK(outc == 1 && inds[0] == 0, "some outcount %d", outc);
    CHECK(rs[0] != MPI_REQUEST_NULL, "get_status freed the request");
    CHECK_MPI(MPI_Wait(&rs[0], MPI_STATUS_IGNORE));
    CHECK(y[0] == left, "received %d", y[0]);
    rs[0] = rs[1] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Request_get_status_some(2, rs, &outc, inds, ss));
    CHECK(outc == MPI_UNDEFINED, "some on null requests: %d", outc);
    CHECK_MPI(MPI_Request_get_status_any(2, rs, &idx, &flag, &s));
    CHECK(flag == 1 && idx == MPI_UNDEFINED, "any on null requests: flag %d idx %d", flag, idx);

    /* Status accessors and conversions. */
    MPI_Status st;
    memset(&st, 0, sizeof st);
    CHECK_MPI(MPI_Status_set_source(&st, 3));
    CHECK_MPI(MPI_Status_set_tag(&st, 77));
    CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TAG));
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 5));
    int v;
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK(v == 3, "source %d", v);
    CHECK_MPI(MPI_Status_get_tag(&st, &v));
    CHECK(v == 77, "tag %d", v);
    CHECK_MPI(MPI_Status_get_error(&st, &v));
    CHECK(v == MPI_ERR_TAG, "error %d", v);
    MPI_Fint fst[MPI_F_STATUS_SIZE];
    MPI_F08_status f08;
    MPI_Status back;
    CHECK_MPI(MPI_Status_c2f(&st, fst));
    CHECK(fst[MPI_F_SOURCE] == 3 && fst[MPI_F_TAG] == 77 && fst[MPI_F_ERROR] == MPI_ERR_TAG, "c2f");
    CHECK_MPI(MPI_Status_f2f08(fst, &f08));
    CHECK(f08.MPI_SOURCE == 3 && f08.MPI_TAG == 77, "f2f08");
    memset(fst, 0, sizeof fst);
    CHECK_MPI(MPI_Status_f082f(&f08, fst));
    CHECK_MPI(MPI_Status_f2c(fst, &back));
    MPI_Get_count(&back, MPI_INT, &cnt);
    CHECK(back.MPI_SOURCE == 3 && back.MPI_TAG == 77 && cnt == 5, "f2c: %d %d %d", back.MPI_SOURCE, back.MPI_TAG, cnt);
    memset(&back, 0, sizeof back);
    CHECK_MPI(MPI_Status_c2f08(&st, &f08));
    CHECK_MPI(MPI_Status_f082c(&f08, &back));
    CHECK(memcmp(&back, &st, sizeof st) == 0, "f08 round trip");
    EXPECT_CLASS(MPI_Status_get_source(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Status_c2f(&st, MPI_F_STATUS_IGNORE), MPI_ERR_ARG);

    /* Regression: bit 62 of a 64-bit count survives set_elements_x/get_elements_x. */
    MPI_Count big = 0x7654321f71234567LL, got = 0;
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &got));
    CHECK(got == big, "elements_x %llx, want %llx", (unsigned long long)got, (unsigned long long)big);
    /* MPI-4.1's MPI_Status_set_elements_c, read back by MPI_Get_elements_c
     * and (in units of a 4-byte type) MPI_Get_count_c. */
    got = 0;
    CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_INT, big / 8));
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &got));
    CHECK(got == big / 8, "elements_c %llx, want %llx", (unsigned long long)got, (unsigned long long)(big / 8));
    got = 0;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &got));
    CHECK(got == big / 8, "count_c %llx", (unsigned long long)got);
    EXPECT_CLASS(MPI_Status_set_elements_c(&st, MPI_INT, -1), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Status_set_elements_c(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);

    CHECK_MPI(MPI_Pcontrol(1));
    CHECK_MPI(MPI_Pcontrol(0, "ignored", 3));

    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
    CHECK(pair == MPI_DOUBLE_INT, "double/int pair %#x", pair);
    CHECK_MPI(MPI_Type_get_value_index(MPI_INT, MPI_INT, &pair));
    CHECK(pair == MPI_2INT, "int/int pair %#x", pair);
    CHECK_MPI(MPI_Type_get_value_index(MPI_CHAR, MPI_DOUBLE, &pair));
    CHECK(pair == MPI_DATATYPE_NULL, "char/double pair %#x", pair);

    /* The MPI-4 optional Fortran types: sizes, names, logical reductions. */
    struct { MPI_Datatype t; int size; const char *name; } opt[] = {
        {MPI_LOGICAL1, 1, "MPI_LOGICAL1"}, {MPI_LOGICAL2, 2, "MPI_LOGICAL2"}, {MPI_LOGICAL4, 4, "MPI_LOGICAL4"},
        {MPI_LOGICAL8, 8, "MPI_LOGICAL8"}, {MPI_REAL2, 2, "MPI_REAL2"},       {MPI_COMPLEX4, 4, "MPI_COMPLEX4"},
    };
    for (size_t k = 0; k < sizeof opt / sizeof opt[0]; k++) {
        int sz = -1, nl;
        char tn[MPI_MAX_OBJECT_NAME];
        CHECK_MPI(MPI_Type_size(opt[k].t, &sz));
        CHECK_MPI(MPI_Type_get_name(opt[k].t, tn, &nl));
        CHECK(sz == opt[k].size && strcmp(tn, opt[k].name) == 0, "%s: size %d name %s", opt[k].name, sz, tn);
    }
    signed char l1 = 1, l1out = 0;
    CHECK_MPI(MPI_Allreduce(&l1, &l1out, 1, MPI_LOGICAL1, MPI_LAND, MPI_COMM_WORLD));
    CHECK(l1out == 1, "LAND on MPI_LOGICAL1 gave %d", l1out);
    EXPECT_CLASS(MPI_Allreduce(&l1, &l1out, 1, MPI_REAL2, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
    char cname[MPI_MAX_OBJECT_NAME];
    int cl;
    CHECK_MPI(MPI_Type_get_name(MPI_C_COMPLEX, cname, &cl));
    CHECK(strcmp(cname, "MPI_C_COMPLEX") == 0, "MPI_C_COMPLEX is named %s", cname); /* regression, as MPICH */

    MPI_Info env, hw;
    char val[MPI_MAX_INFO_VAL + 1];
    CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
    CHECK_MPI(MPI_Info_get(env, "command", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(flag && val[0], "MPI_Info_create_env lacks \"command\"");
    CHECK_MPI(MPI_Info_free(&env));
    CHECK_MPI(MPI_Get_hw_resource_info(&hw));
    CHECK(hw != MPI_INFO_NULL, "no hw info");
    CHECK_MPI(MPI_Info_free(&hw));

    /* Removing user error classes, codes and strings. */
    int cls, code, len;
    char str[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Add_error_string(code, "a user code"));
    EXPECT_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG); /* a code is left */
    EXPECT_CLASS(MPI_Remove_error_code(cls), MPI_ERR_ARG);  /* a class, not a code */
    EXPECT_CLASS(MPI_Remove_error_class(MPI_ERR_TAG), MPI_ERR_ARG);
    CHECK_MPI(MPI_Remove_error_string(code));
    CHECK_MPI(MPI_Error_string(code, str, &len));
    CHECK(len == 0, "string after removal: %s", str);
    CHECK_MPI(MPI_Remove_error_code(code));
    CHECK_MPI(MPI_Remove_error_class(cls));
    EXPECT_CLASS(MPI_Error_class(code, &v), MPI_ERR_ARG);

    /* dup_with_info / idup_with_info keep their hints; bad info is MPI_ERR_INFO. */
    MPI_Info hint, used;
    MPI_Info_create(&hint);
    MPI_Info_set(hint, "mpi_assert_no_any_tag", "true");
    MPI_Comm d1, d2;
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, hint, &d1));
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, hint, &d2, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Info_free(&hint);
    MPI_Comm cs[2] = {d1, d2};
    for (int k = 0; k < 2; k++) {
        CHECK_MPI(MPI_Comm_get_info(cs[k], &used));
        CHECK_MPI(MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, val, &flag));
        CHECK(flag && strcmp(val, "true") == 0, "dup %d hint flag %d", k, flag);
        MPI_Info_free(&used);
        int sum = 0;
        CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, cs[k]));
        CHECK(sum == n * (n - 1) / 2, "dup %d allreduce %d", k, sum);
    }
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    EXPECT_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, (MPI_Info)0x1234, &d1), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &d1, NULL), MPI_ERR_ARG); /* a NULL pointer, not a bad request */

    MPI_Finalize();
    return check_status();
}
