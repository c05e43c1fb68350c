#ifndef GOMPI_HEAP_H
#define GOMPI_HEAP_H
#include <stddef.h>
#include <stdint.h>

/* gompi_heap_info opens the shared heap if it is not yet open and describes
 * it; it returns 0 when the heap is off. */
int gompi_heap_info(int *fd, uintptr_t *base, size_t *size);

/* The heap's range: gompi_heap_size is 0 while it is off. */
extern char *gompi_heap_base;
extern size_t gompi_heap_size;

/* gompi_heap_holds reports that the n bytes at p lie in the shared heap. */
static inline int gompi_heap_holds(const void *p, size_t n)
{
    uintptr_t off = (uintptr_t)p - (uintptr_t)gompi_heap_base;
    return off < gompi_heap_size && n <= gompi_heap_size - off;
}

#endif
