//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* User error classes and codes: MPI_Add_error_class/code/string, then
 * MPI_Error_class and MPI_Error_string on them, values above
 * MPI_ERR_LASTCODE and distinct, and argument errors. */
#include <mpi.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int c1, c2, k1, k2, k3, cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Add_error_class(&c1));
    CHECK_MPI(MPI_Add_error_class(&c2));
    CHECK(c1 > MPI_ERR_LASTCODE && c2 > MPI_ERR_LASTCODE && c1 != c2, "classes %d %d", c1, c2);
    CHECK_MPI(MPI_Add_error_code(c1, &k1));
    CHECK_MPI(MPI_Add_error_code(c1, &k2));
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_TAG, &k3)); /* a code in a predefined class */
    CHECK(k1 != k2 && k1 != c1 && k2 != c2 && k3 != MPI_ERR_TAG, "codes %d %d %d", k1, k2, k3);

    CHECK_MPI(MPI_Error_class(c1, &cls));
    CHECK(cls == c1, "class of a user class is %d", cls);
    CHECK_MPI(MPI_Error_class(k2, &cls));
    CHECK(cls == c1, "class of k2 is %d, want %d", cls, c1);
    CHECK_MPI(MPI_Error_class(k3, &cls));
    CHECK(cls == MPI_ERR_TAG, "class of k3 is %d", cls);

    /* Strings: empty until set, then exactly what was given. */
    CHECK_MPI(MPI_Error_string(k1, s, &len));
    CHECK(len == 0 && s[0] == 0, "unset string: '%s' len %d", s, len);
    CHECK_MPI(MPI_Add_error_string(c1, "my class"));
    CHECK_MPI(MPI_Add_error_string(k1, "my code one"));
    CHECK_MPI(MPI_Add_error_string(k1, "my code one, again"));
    CHECK_MPI(MPI_Error_string(c1, s, &len));
    CHECK(strcmp(s, "my class") == 0 && len == 8, "class string '%s' len %d", s, len);
    CHECK_MPI(MPI_Error_string(k1, s, &len));
    CHECK(strcmp(s, "my code one, again") == 0, "code string '%s'", s);

    /* A user code raised through the handler comes back unchanged. */
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, k2));

    char longs[MPI_MAX_ERROR_STRING + 1];
    memset(longs, 'x', sizeof longs);
    longs[MPI_MAX_ERROR_STRING] = 0;
    EXPECT_CLASS(MPI_Add_error_string(k2, longs), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Add_error_string(MPI_ERR_TAG, "no"), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Add_error_string(0x7654321, "no"), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Add_error_code(k1, &k3), MPI_ERR_ARG); /* a code is not a class */
    EXPECT_CLASS(MPI_Add_error_code(0x7654321, &k3), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Error_class(0x7654321, &cls), MPI_ERR_ARG);

    MPI_Finalize();
    return check_status();
}
