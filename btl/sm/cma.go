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
		got, err := rawVM(unix.SYS_PROCESS_VM_WRITEV, pid, &local[0], &remote[0])
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
		got, err := rawVM(unix.SYS_PROCESS_VM_READV, pid, &local[0], &remote[0])
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

// rawVM issues process_vm_readv/writev without telling the Go scheduler it
// entered a system call. A copy of a few hundred KiB outlasts sysmon's 20 us
// limit, so an ordinary syscall gets its P handed to another thread, and
// sysmon then keeps waking every 20 us on the core this rank is bound to:
// 2.5 context switches per 1 MiB exchange, 20-30% of its time. The copy
// never blocks on anything but page faults, so nothing is lost by keeping
// the P.
func rawVM(trap uintptr, pid int, local *unix.Iovec, remote *unix.RemoteIovec) (int, error) {
	n, _, errno := unix.RawSyscall6(trap, uintptr(pid), uintptr(unsafe.Pointer(local)), 1,
		uintptr(unsafe.Pointer(remote)), 1, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
