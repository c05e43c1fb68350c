//go:build ignore

/* gompi-test: np=1,2,3,4,5,8 timeout=120 */
/* Every collective with the algorithms chosen by size (see coll_common.h). */
#include "coll_common.h"

int main(int argc, char **argv) { return coll_main(argc, argv); }
