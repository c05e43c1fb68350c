//go:build amd64 || arm64

package mtlock

// getg is the running goroutine's g pointer (assembly): a C thread that
// calls into Go always runs on the same goroutine, nested callbacks too.
func getg() uintptr
