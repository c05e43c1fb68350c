#ifndef GOMPI_HEAP_H
#define GOMPI_HEAP_H
#include <stddef.h>
#include <stdint.h>

/* gompi_heap_info opens the shared heap if it is not yet open and describes
 * it; it returns 0 when the heap is off. */
int gompi_heap_info(int *fd, uintptr_t *base, size_t *size);

#endif
