package sm

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// cmaWrite copies n bytes from src to remote address addr of process pid
// with process_vm_writev.
func cmaWrite(pid int, src unsafe.Pointer, n int, addr uintptr) error {
	return cmaCopy(unix.SYS_PROCESS_VM_WRITEV, pid, src, n, addr)
}

// cmaRead copies n bytes at remote address addr of process pid into dst with
// process_vm_readv (one kernel copy, no intermediate buffer).
func cmaRead(pid int, dst unsafe.Pointer, n int, addr uintptr) error {
	return cmaCopy(unix.SYS_PROCESS_VM_READV, pid, dst, n, addr)
}

// cmaCopy moves n bytes between local and the remote address addr, calling
// again after a partial copy or an interrupted one.
func cmaCopy(trap uintptr, pid int, local unsafe.Pointer, n int, addr uintptr) error {
	for n > 0 {
		l := [1]unix.Iovec{{Base: (*byte)(local)}}
		l[0].SetLen(n)
		r := [1]unix.RemoteIovec{{Base: addr, Len: n}}
		got, err := rawVM(trap, pid, &l[0], &r[0])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if got <= 0 {
			return unix.EFAULT
		}
		if n -= got; n == 0 {
			break // advancing local now would point past its allocation
		}
		local = unsafe.Add(local, got)
		addr += uintptr(got)
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
