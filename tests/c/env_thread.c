//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI_Init_thread: the provided level is one of the four, Query_thread
 * reports the same level, and Is_thread_main is true only on the thread that
 * initialised MPI (asked from another thread only if MPI_THREAD_MULTIPLE was
 * provided, since lower levels forbid calls from other threads). */
#include <mpi.h>
#include <pthread.h>

#include "check.h"

static void *other_thread(void *arg) {
    int *flag = arg;
    CHECK_MPI(MPI_Is_thread_main(flag));
    return NULL;
}

int main(int argc, char **argv) {
    int provided = -1, queried = -2, flag = -1, rank = -1;
    pthread_t th;

    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_rank = rank;
    CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
              provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread provided invalid level %d", provided);
    CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
              MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
          "thread level constants are not increasing");

    CHECK_MPI(MPI_Query_thread(&queried));
    CHECK(queried == provided, "MPI_Query_thread gave %d, MPI_Init_thread provided %d", queried,
          provided);

    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "MPI_Is_thread_main on the main thread gave %d", flag);

    if (provided == MPI_THREAD_MULTIPLE) {
        flag = -1;
        CHECK(pthread_create(&th, NULL, other_thread, &flag) == 0, "pthread_create failed");
        pthread_join(th, NULL);
        CHECK(flag == 0, "MPI_Is_thread_main on another thread gave %d", flag);
    }

    CHECK_MPI(MPI_Finalize());
    return check_status();
}
