package mem

import "unsafe"

//go:noescape
func movsb(dst, src unsafe.Pointer, n uintptr)

// CopyShared copies n bytes between processes' shared memory.
func CopyShared(dst, src unsafe.Pointer, n int) {
	if n > 0 {
		movsb(dst, src, uintptr(n))
	}
}
