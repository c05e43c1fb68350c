//go:build !amd64

package mem

import "unsafe"

// CopyShared copies n bytes between processes' shared memory.
func CopyShared(dst, src unsafe.Pointer, n int) { Copy(dst, src, n) }
