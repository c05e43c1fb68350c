//go:build ignore

/* gompi-test: np=3 timeout=180 */
/* gompi-env: GOMPI_COLL_FAKE_NODES=2 GOMPI_COLL_HIER=0 */
/* Virtual nodes with the node-aware collectives off: the flat algorithms,
 * and no shared-memory collectives across the virtual nodes. */
#include "coll_hier.h"

int main(int argc, char **argv) { return hier_main(argc, argv); }
