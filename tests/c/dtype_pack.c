//go:build ignore

/* gompi-test: np=1 timeout=30 */
/* MPI_Pack/Unpack/Pack_size and the external32 calls against hand-computed
 * bytes: strided and structured types, several packs into one buffer with
 * a moving position, unpack into strided memory (gaps untouched), too-small
 * buffers, and external32's big-endian fixed sizes (long is 4 bytes, long
 * double a 16-byte quad) with round trips. */
#include <mpi.h>
#include <stddef.h>
#include <string.h>

#include "check.h"

static void expect_bytes(const unsigned char *got, const unsigned char *want, int n, const char *what) {
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            CHECK(0, "%s: byte %d is %02x, want %02x", what, i, got[i], want[i]);
            return;
        }
}

struct rec {
    char c;
    int i;
    double d;
};

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    check_rank = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    unsigned char buf[512];
    int pos, size;

    /* A vector picks every other int. */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int src[6] = {10, 11, 12, 13, 14, 15};
    CHECK_MPI(MPI_Pack_size(2, vec, MPI_COMM_WORLD, &size));
    CHECK(size == 24, "Pack_size(2, vector) = %d", size);
    pos = 0;
    CHECK_MPI(MPI_Pack(src, 1, vec, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 12, "position after vector %d", pos);
    int got3[3];
    memcpy(got3, buf, 12);
    CHECK(got3[0] == 10 && got3[1] == 12 && got3[2] == 14, "vector packed %d %d %d", got3[0], got3[1], got3[2]);

    /* A struct with padding, two elements, then a double, in one buffer. */
    MPI_Datatype rt;
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(struct rec, c), offsetof(struct rec, i), offsetof(struct rec, d)};
    MPI_Datatype ty[3] = {MPI_CHAR, MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &rt));
    CHECK_MPI(MPI_Type_commit(&rt));
    struct rec rs[2] = {{'a', 1, 1.5}, {'b', -2, 2.5}};
    CHECK_MPI(MPI_Pack(rs, 2, rt, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 12 + 26, "position after structs %d", pos);
    double x = 3.25;
    CHECK_MPI(MPI_Pack(&x, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 46, "position after double %d", pos);
    {
        unsigned char want[13];
        int one = 1;
        double h = 1.5;
        want[0] = 'a';
        memcpy(want + 1, &one, 4);
        memcpy(want + 5, &h, 8);
        expect_bytes(buf + 12, want, 13, "packed struct");
    }

    /* Unpack the same stream: the vector into a strided buffer whose gaps
     * stay untouched, then the structs and the double. */
    int dst[6] = {-1, -1, -1, -1, -1, -1};
    struct rec rd[2];
    memset(rd, 0, sizeof rd);
    double y = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, 46, &pos, dst, 1, vec, MPI_COMM_WORLD));
    CHECK(dst[0] == 10 && dst[1] == -1 && dst[2] == 12 && dst[3] == -1 && dst[4] == 14 && dst[5] == -1,
          "vector unpacked %d %d %d %d %d %d", dst[0], dst[1], dst[2], dst[3], dst[4], dst[5]);
    CHECK_MPI(MPI_Unpack(buf, 46, &pos, rd, 2, rt, MPI_COMM_WORLD));
    CHECK(rd[0].c == 'a' && rd[0].i == 1 && rd[0].d == 1.5 && rd[1].c == 'b' && rd[1].i == -2 && rd[1].d == 2.5,
          "structs unpacked");
    CHECK_MPI(MPI_Unpack(buf, 46, &pos, &y, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK(y == 3.25 && pos == 46, "double unpacked %g at %d", y, pos);

    /* Too small a buffer is an error that leaves the position alone. */
    int cls = -1, rc;
    pos = 2;
    rc = MPI_Pack(src, 1, vec, buf, 12, &pos, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TRUNCATE && pos == 2, "pack overflow: class %d pos %d", cls, pos);
    pos = 40;
    rc = MPI_Unpack(buf, 46, &pos, rd, 1, rt, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TRUNCATE && pos == 40, "unpack underflow: class %d pos %d", cls, pos);

    /* external32: big-endian, standard sizes. */
    {
        int iv[2] = {1, -2};
        long lv = -3;
        short sv = 0x1234;
        double dv = 1.0;
        long double ldv = 1.0L;
        float cv[2] = {1.0f, 2.0f}; /* MPI_C_FLOAT_COMPLEX */
        MPI_Aint p = 0, s;
        unsigned char e[128];
        CHECK_MPI(MPI_Pack_external("external32", iv, 2, MPI_INT, e, sizeof e, &p));
        CHECK_MPI(MPI_Pack_external("external32", &lv, 1, MPI_LONG, e, sizeof e, &p));
        CHECK_MPI(MPI_Pack_external("external32", &sv, 1, MPI_SHORT, e, sizeof e, &p));
        CHECK_MPI(MPI_Pack_external("external32", &dv, 1, MPI_DOUBLE, e, sizeof e, &p));
        CHECK_MPI(MPI_Pack_external("external32", &ldv, 1, MPI_LONG_DOUBLE, e, sizeof e, &p));
        CHECK_MPI(MPI_Pack_external("external32", cv, 1, MPI_C_FLOAT_COMPLEX, e, sizeof e, &p));
        CHECK(p == 8 + 4 + 2 + 8 + 16 + 8, "external32 position %ld", (long)p);
        const unsigned char want[] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xfd, 0x12, 0x34,
                                      0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x3f, 0xff, 0, 0, 0, 0, 0, 0,
                                      0, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
        expect_bytes(e, want, sizeof want, "external32 bytes");
        CHECK_MPI(MPI_Pack_external_size("external32", 3, MPI_LONG, &s));
        CHECK(s == 12, "external size of 3 longs %ld", (long)s);
        CHECK_MPI(MPI_Pack_external_size("external32", 2, MPI_DOUBLE_INT, &s));
        CHECK(s == 24, "external size of 2 double_int %ld", (long)s);
        CHECK_MPI(MPI_Pack_external_size("external32", 1, rt, &s));
        CHECK(s == 13, "external size of struct %ld", (long)s);

        int iv2[2];
        long lv2;
        short sv2;
        double dv2;
        long double ldv2;
        float cv2[2];
        p = 0;
        CHECK_MPI(MPI_Unpack_external("external32", e, sizeof want, &p, iv2, 2, MPI_INT));
        CHECK_MPI(MPI_Unpack_external("external32", e, sizeof want, &p, &lv2, 1, MPI_LONG));
        CHECK_MPI(MPI_Unpack_external("external32", e, sizeof want, &p, &sv2, 1, MPI_SHORT));
        CHECK_MPI(MPI_Unpack_external("external32", e, sizeof want, &p, &dv2, 1, MPI_DOUBLE));
        CHECK_MPI(MPI_Unpack_external("external32", e, sizeof want, &p, &ldv2, 1, MPI_LONG_DOUBLE));
        CHECK_MPI(MPI_Unpack_external("external32", e, sizeof want, &p, cv2, 1, MPI_C_FLOAT_COMPLEX));
        CHECK(iv2[0] == 1 && iv2[1] == -2 && lv2 == -3 && sv2 == 0x1234 && dv2 == 1.0 && ldv2 == 1.0L &&
                  cv2[0] == 1.0f && cv2[1] == 2.0f,
              "external32 round trip");

        /* Structs round trip through external32. */
        struct rec back[2];
        memset(back, 0, sizeof back);
        p = 0;
        CHECK_MPI(MPI_Pack_external("external32", rs, 2, rt, e, sizeof e, &p));
        CHECK(p == 26 && e[0] == 'a' && e[4] == 1 && e[1] == 0, "external32 struct bytes");
        p = 0;
        CHECK_MPI(MPI_Unpack_external("external32", e, 26, &p, back, 2, rt));
        CHECK(back[1].c == 'b' && back[1].i == -2 && back[1].d == 2.5 && back[0].d == 1.5, "external32 struct trip");
        long double lds[3] = {-0.0L, 3.0e-4000L, 12345.678L};
        long double ldb[3];
        p = 0;
        CHECK_MPI(MPI_Pack_external("external32", lds, 3, MPI_LONG_DOUBLE, e, sizeof e, &p));
        p = 0;
        CHECK_MPI(MPI_Unpack_external("external32", e, 48, &p, ldb, 3, MPI_LONG_DOUBLE));
        CHECK(ldb[1] == lds[1] && ldb[2] == lds[2] && ldb[0] == 0, "long double round trip");

        p = 0;
        rc = MPI_Pack_external("native", iv, 2, MPI_INT, e, sizeof e, &p);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ARG, "unknown datarep: class %d", cls);
        rc = MPI_Pack_external("external32", iv, 2, MPI_INT, e, 7, &p);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TRUNCATE, "external32 overflow: class %d", cls);
    }

    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&rt));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
