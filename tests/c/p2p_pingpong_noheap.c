//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* gompi-env: GOMPI_SHARED_HEAP=0 GOMPI_SM_SINGLE_COPY=on */
/* p2p_pingpong with the shared heap off, so single copy is process_vm_readv. */
#include "p2p_pingpong.c"
