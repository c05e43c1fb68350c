//go:build ignore

/* gompi-test: np=1,2 timeout=150 */
/* gompi-env: GOMPI_SM_PAIR=0 */
/* spawn_sm.c with shared-memory pairs turned off: parents and children
 * fall back to sockets, with the same data checks. */
#include "spawn_sm.c"
