//go:build ignore

/* gompi-test: np=2,3,4 timeout=180 */
/* gompi-env: GOMPI_COLL_FAKE_NODES=2 GOMPI_COLL_FAKE_CYCLIC=1 */
/* Node-aware collectives with ranks placed cyclically on 2 virtual nodes: a
 * node's ranks are not consecutive (non-commutative ops take the ordered
 * flat algorithms); 2 ranks: one per node, the flat algorithms without
 * shared memory. */
#include "coll_hier.h"

int main(int argc, char **argv) { return hier_main(argc, argv); }
