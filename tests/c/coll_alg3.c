//go:build ignore

/* gompi-test: np=2,3,4,5 timeout=120 */
/* gompi-env: GOMPI_COLL_BCAST=linear GOMPI_COLL_ALLREDUCE=reduce_bcast GOMPI_COLL_ALLGATHER=ring GOMPI_COLL_BARRIER=linear */
/* Every collective with the fourth algorithms forced (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) { return coll_main(argc, argv); }
