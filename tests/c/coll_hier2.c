//go:build ignore

/* gompi-test: np=3,4 timeout=180 */
/* gompi-env: GOMPI_COLL_FAKE_NODES=2 GOMPI_COLL_VERBOSE=1 */
/* gompi-expect: exit=0 stderr=~"hierarchical over 2 nodes" */
/* Node-aware collectives on 2 virtual nodes by block (3 ranks: 2+1). */
#include "coll_hier.h"

int main(int argc, char **argv) { return hier_main(argc, argv); }
