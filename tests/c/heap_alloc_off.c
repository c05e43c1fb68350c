//go:build ignore

/* gompi-test: np=1,2 timeout=120 */
/* gompi-env: GOMPI_SHARED_HEAP=0 */
/* heap_alloc with the shared heap off: glibc's allocator, process_vm_readv. */
#include "heap_alloc.c"
