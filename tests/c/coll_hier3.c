//go:build ignore

/* gompi-test: np=4 timeout=180 */
/* gompi-env: GOMPI_COLL_FAKE_NODES=3 GOMPI_COLL_VERBOSE=1 */
/* gompi-expect: exit=0 stderr=~"hierarchical over 3 nodes" */
/* Node-aware collectives on 3 virtual nodes (2+1+1 ranks). */
#include "coll_hier.h"

int main(int argc, char **argv) { return hier_main(argc, argv); }
