//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* gompi-env: GOMPI_SM_SINGLE_COPY=on */
/* p2p_pingpong with single copy forced on (from the shared heap, see capi/heap.c). */
#include "p2p_pingpong.c"
