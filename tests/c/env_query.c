//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* The state and identity queries: Initialized/Finalized through the life
 * cycle, Get_version (4.1, matching mpi.h), Get_library_version (also after
 * Finalize, which the standard allows), Get_processor_name, Is_thread_main
 * and Query_thread after plain MPI_Init. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static void check_library_version(const char *when) {
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    CHECK_MPI(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (size_t)len == strlen(lib),
          "%s: library version length %d, strlen %zu", when, len, strlen(lib));
    CHECK(strstr(lib, "gompi") != NULL, "%s: library version does not name gompi: %.*s", when,
          (int)strcspn(lib, "\n"), lib);
}

int main(int argc, char **argv) {
    int flag = -1, version = -1, subversion = -1, len = -1, level = -1, rank = -1;
    char name[MPI_MAX_PROCESSOR_NAME];

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_rank = rank;

    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 1, "MPI_Initialized after MPI_Init gave %d", flag);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 0, "MPI_Finalized before MPI_Finalize gave %d", flag);

    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == 4 && subversion == 1, "MPI_Get_version gave %d.%d, want 4.1", version,
          subversion);
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION,
          "MPI_Get_version gave %d.%d, mpi.h says %d.%d", version, subversion, MPI_VERSION,
          MPI_SUBVERSION);
    check_library_version("after MPI_Init");

    memset(name, 'x', sizeof name);
    CHECK_MPI(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME, "processor name length %d", len);
    if (len > 0 && len < MPI_MAX_PROCESSOR_NAME)
        CHECK(name[len] == '\0' && (size_t)len == strlen(name),
              "processor name not terminated at its length %d", len);

    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "MPI_Is_thread_main on the thread that called MPI_Init gave %d", flag);
    CHECK_MPI(MPI_Query_thread(&level));
    CHECK(level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED ||
              level == MPI_THREAD_SERIALIZED || level == MPI_THREAD_MULTIPLE,
          "MPI_Query_thread after MPI_Init gave %d", level);

    CHECK_MPI(MPI_Finalize());

    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 1, "MPI_Finalized after MPI_Finalize gave %d", flag);
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 1, "MPI_Initialized after MPI_Finalize gave %d (must stay true)", flag);
    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == 4 && subversion == 1, "MPI_Get_version after Finalize gave %d.%d", version,
          subversion);
    check_library_version("after MPI_Finalize");
    return check_status();
}
