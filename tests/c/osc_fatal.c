//go:build ignore

/* gompi-test: np=2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Put: .*MPI_ERR_RMA_RANGE.* on my-window" */
/* The default window error handler is fatal, and its message names the
 * call, the error and the window. */
#include "check.h"

int main(int argc, char **argv)
{
    int me, buf[4] = {0}, one = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_name(win, "my-window");
    MPI_Win_fence(0, win);
    if (me == 0) MPI_Put(&one, 1, MPI_INT, 1, 4, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
