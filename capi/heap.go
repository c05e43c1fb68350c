package main

// #include "heap.h"
import "C"

import "gompi/btl/sm"

// The shared heap (heap.c) is opened when the library loads so the sm
// transport can publish it to the node's other ranks at MPI_Init.
func init() {
	var fd C.int
	var base C.uintptr_t
	var size C.size_t
	if C.gompi_heap_info(&fd, &base, &size) != 0 {
		sm.SetSharedHeap(int(fd), uintptr(base), uintptr(size))
	}
}
