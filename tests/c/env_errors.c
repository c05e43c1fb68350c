//go:build ignore

/* gompi-test: np=1 timeout=60 */
/* Every standard error class is its own class (MPI_Error_class(c) == c) and
 * has a non-empty message from MPI_Error_string, shorter than
 * MPI_MAX_ERROR_STRING and different from every other class's message.
 * Classes newer than MPI 3.1 are checked when mpi.h defines them. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define C(x) {x, #x}
static const struct {
    int code;
    const char *name;
} classes[] = {
    C(MPI_SUCCESS), C(MPI_ERR_BUFFER), C(MPI_ERR_COUNT), C(MPI_ERR_TYPE), C(MPI_ERR_TAG),
    C(MPI_ERR_COMM), C(MPI_ERR_RANK), C(MPI_ERR_REQUEST), C(MPI_ERR_ROOT), C(MPI_ERR_GROUP),
    C(MPI_ERR_OP), C(MPI_ERR_TOPOLOGY), C(MPI_ERR_DIMS), C(MPI_ERR_ARG), C(MPI_ERR_UNKNOWN),
    C(MPI_ERR_TRUNCATE), C(MPI_ERR_OTHER), C(MPI_ERR_INTERN), C(MPI_ERR_PENDING),
    C(MPI_ERR_IN_STATUS), C(MPI_ERR_ACCESS), C(MPI_ERR_AMODE), C(MPI_ERR_ASSERT),
    C(MPI_ERR_BAD_FILE), C(MPI_ERR_BASE), C(MPI_ERR_CONVERSION), C(MPI_ERR_DISP),
    C(MPI_ERR_DUP_DATAREP), C(MPI_ERR_FILE_EXISTS), C(MPI_ERR_FILE_IN_USE), C(MPI_ERR_FILE),
    C(MPI_ERR_INFO_KEY), C(MPI_ERR_INFO_NOKEY), C(MPI_ERR_INFO_VALUE), C(MPI_ERR_INFO),
    C(MPI_ERR_IO), C(MPI_ERR_KEYVAL), C(MPI_ERR_LOCKTYPE), C(MPI_ERR_NAME), C(MPI_ERR_NO_MEM),
    C(MPI_ERR_NOT_SAME), C(MPI_ERR_NO_SPACE), C(MPI_ERR_NO_SUCH_FILE), C(MPI_ERR_PORT),
    C(MPI_ERR_QUOTA), C(MPI_ERR_READ_ONLY), C(MPI_ERR_RMA_ATTACH), C(MPI_ERR_RMA_CONFLICT),
    C(MPI_ERR_RMA_RANGE), C(MPI_ERR_RMA_SHARED), C(MPI_ERR_RMA_SYNC), C(MPI_ERR_RMA_FLAVOR),
    C(MPI_ERR_SERVICE), C(MPI_ERR_SIZE), C(MPI_ERR_SPAWN), C(MPI_ERR_UNSUPPORTED_DATAREP),
    C(MPI_ERR_UNSUPPORTED_OPERATION), C(MPI_ERR_WIN),
#ifdef MPI_ERR_SESSION
    C(MPI_ERR_SESSION),
#endif
#ifdef MPI_ERR_PROC_ABORTED
    C(MPI_ERR_PROC_ABORTED),
#endif
#ifdef MPI_ERR_VALUE_TOO_LARGE
    C(MPI_ERR_VALUE_TOO_LARGE),
#endif
#ifdef MPI_ERR_ERRHANDLER
    C(MPI_ERR_ERRHANDLER),
#endif
};
#define NCLASSES (sizeof classes / sizeof classes[0])

int main(int argc, char **argv) {
    static char text[NCLASSES][MPI_MAX_ERROR_STRING];
    size_t i, j;

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));

    for (i = 0; i < NCLASSES; i++) {
        int cls = -1, len = -1;
        CHECK(classes[i].code >= 0 && classes[i].code <= MPI_ERR_LASTCODE,
              "%s = %d is outside 0..MPI_ERR_LASTCODE", classes[i].name, classes[i].code);
        CHECK_MPI(MPI_Error_class(classes[i].code, &cls));
        CHECK(cls == classes[i].code, "MPI_Error_class(%s = %d) gave %d", classes[i].name,
              classes[i].code, cls);
        memset(text[i], 0, MPI_MAX_ERROR_STRING);
        CHECK_MPI(MPI_Error_string(classes[i].code, text[i], &len));
        CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (size_t)len == strlen(text[i]),
              "MPI_Error_string(%s): length %d, strlen %zu", classes[i].name, len,
              strlen(text[i]));
        for (j = 0; j < i; j++) {
            CHECK(classes[j].code != classes[i].code, "%s and %s are both %d", classes[j].name,
                  classes[i].name, classes[i].code);
            CHECK(strcmp(text[j], text[i]) != 0, "%s and %s share the message \"%s\"",
                  classes[j].name, classes[i].name, text[i]);
        }
    }

    CHECK_MPI(MPI_Finalize());
    return check_status();
}
