package sm

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// cmaWrite copies n bytes from src to remote address addr of process pid
// with process_vm_writev.
func cmaWrite(pid int, src unsafe.Pointer, n int, addr uintptr) error {
	for n > 0 {
		local := [1]unix.Iovec{{Base: (*byte)(src)}}
		local[0].SetLen(n)
		remote := [1]unix.RemoteIovec{{Base: addr, Len: n}}
		got, err := unix.ProcessVMWritev(pid, local[:], remote[:], 0)
		if err != nil {
			return err
		}
		if got <= 0 {
			return unix.EFAULT
		}
		src = unsafe.Add(src, got)
		addr += uintptr(got)
		n -= got
	}
	return nil
}

// cmaRead copies n bytes at remote address addr of process pid into dst with
// process_vm_readv (one kernel copy, no intermediate buffer).
func cmaRead(pid int, dst unsafe.Pointer, n int, addr uintptr) error {
	for n > 0 {
		local := [1]unix.Iovec{{Base: (*byte)(dst)}}
		local[0].SetLen(n)
		remote := [1]unix.RemoteIovec{{Base: addr, Len: n}}
		got, err := unix.ProcessVMReadv(pid, local[:], remote[:], 0)
		if err != nil {
			return err
		}
		if got <= 0 {
			return unix.EFAULT
		}
		dst = unsafe.Add(dst, got)
		addr += uintptr(got)
		n -= got
	}
	return nil
}
