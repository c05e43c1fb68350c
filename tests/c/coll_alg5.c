//go:build ignore

/* gompi-test: np=2,3,5,8 timeout=120 */
/* gompi-env: GOMPI_COLL_ALLGATHER=linear GOMPI_COLL_ALLREDUCE=linear GOMPI_COLL_REDUCE_SCATTER=linear GOMPI_COLL_GATHER=linear */
/* Every collective with the one-round (linear) algorithms forced (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) { return coll_main(argc, argv); }
