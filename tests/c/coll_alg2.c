//go:build ignore

/* gompi-test: np=2,3,4,5 timeout=120 */
/* gompi-env: GOMPI_COLL_BARRIER=dissemination GOMPI_COLL_BCAST=scatter_allgather GOMPI_COLL_REDUCE=binomial GOMPI_COLL_ALLREDUCE=ring GOMPI_COLL_GATHER=linear GOMPI_COLL_SCATTER=linear GOMPI_COLL_ALLGATHER=recursive_doubling GOMPI_COLL_ALLTOALL=linear GOMPI_COLL_REDUCE_SCATTER=reduce_scatterv GOMPI_COLL_SCAN=recursive_doubling */
/* Every collective with the first or third algorithm of each forced (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) { return coll_main(argc, argv); }
