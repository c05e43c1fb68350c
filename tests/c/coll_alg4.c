//go:build ignore

/* gompi-test: np=2,3,4,8 timeout=120 */
/* gompi-env: GOMPI_COLL_BCAST=binomial GOMPI_COLL_ALLREDUCE=recursive_doubling GOMPI_COLL_GATHER=binomial GOMPI_COLL_SCATTER=binomial GOMPI_COLL_REDUCE_SCATTER=ring */
/* Every collective with the binomial trees and recursive doubling at every size (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) { return coll_main(argc, argv); }
