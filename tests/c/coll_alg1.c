//go:build ignore

/* gompi-test: np=1,2,3,4,8 timeout=120 */
/* gompi-env: GOMPI_COLL_BARRIER=linear GOMPI_COLL_BCAST=pipeline GOMPI_COLL_BCAST_SEGMENT=1000 GOMPI_COLL_REDUCE=linear GOMPI_COLL_ALLREDUCE=rabenseifner GOMPI_COLL_GATHER=binomial GOMPI_COLL_SCATTER=binomial GOMPI_COLL_ALLGATHER=bruck GOMPI_COLL_ALLTOALL=pairwise GOMPI_COLL_REDUCE_SCATTER=ring GOMPI_COLL_SCAN=linear */
/* Every collective with the second algorithm of each forced (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) { return coll_main(argc, argv); }
