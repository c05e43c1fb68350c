package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// transport is one way ranks can talk, and whether it works on this machine.
type transport struct {
	name, what string
	ok         bool
	why        string // the reason when !ok, a note when ok
}

// probeMagic is what the single-copy probe target holds for the reader.
const probeMagic uint64 = 0x676f6d7069696e66

var probeWord = probeMagic

func transports() []transport {
	return []transport{
		{name: "self", what: "a rank to itself", ok: true, why: "always"},
		shmTransport(),
		singleCopyTransport(),
		sockTransport(),
		fabricTransport(),
	}
}

// shmTransport: the node's segment is a memfd unless GOMPI_SM_DIR names a tmpfs.
func shmTransport() transport {
	t := transport{name: "sm", what: "shared-memory rings between ranks of one node"}
	fd, err := unix.MemfdCreate("gompi-info", unix.MFD_CLOEXEC)
	if err != nil {
		t.why = "memfd_create: " + err.Error()
		return t
	}
	unix.Close(fd)
	t.ok, t.why = true, "memfd segment"
	return t
}

// sockTransport: processes of different jobs (spawn, connect/accept) use
// abstract Unix sockets.
func sockTransport() transport {
	t := transport{name: "sock", what: "abstract Unix sockets between jobs on one node (spawn, connect/accept)"}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err == nil {
		err = unix.Bind(fd, &unix.SockaddrUnix{Name: "@gompi-info-" + strconv.Itoa(os.Getpid())})
		unix.Close(fd)
	}
	if err != nil {
		t.why = "abstract socket: " + err.Error()
		return t
	}
	t.ok, t.why = true, "abstract sockets work"
	return t
}

// fabricTransport: this build has no network transport; say what the
// machine would offer one.
func fabricTransport() transport {
	t := transport{name: "fabric", what: "network between nodes"}
	devs, _ := os.ReadDir("/sys/class/infiniband")
	lib := "libfabric not installed"
	for _, p := range []string{"/usr/lib/x86_64-linux-gnu/libfabric.so.1", "/usr/lib64/libfabric.so.1", "/usr/local/lib/libfabric.so.1"} {
		if _, err := os.Stat(p); err == nil {
			lib = "libfabric at " + p
			break
		}
	}
	t.why = fmt.Sprintf("not in this build (no network transport); %s; %d RDMA devices", lib, len(devs))
	return t
}

// singleCopyTransport tries what the sm transport does at MPI_Init: one
// rank reads a sibling's memory with process_vm_readv after the sibling
// named the common parent as its ptracer (the case Yama restricts).
func singleCopyTransport() transport {
	t := transport{name: "single-copy", what: "process_vm_readv between ranks of one node (large messages)"}
	yama := yamaScope()
	if v := strings.ToLower(os.Getenv("GOMPI_SM_SINGLE_COPY")); v == "off" || v == "0" {
		t.why = "turned off by GOMPI_SM_SINGLE_COPY=" + v + "; " + yama
		return t
	}
	err := siblingRead()
	if err == nil {
		t.ok, t.why = true, "sibling read works; "+yama
		return t
	}
	t.why = err.Error() + "; " + yama
	if errors.Is(err, unix.EPERM) {
		t.why += " (refused: Yama ptrace_scope >= 2, a seccomp filter or a container without CAP_SYS_PTRACE)"
	} else if errors.Is(err, unix.ENOSYS) {
		t.why += " (the kernel lacks CONFIG_CROSS_MEMORY_ATTACH)"
	}
	return t
}

func yamaScope() string {
	b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	if err != nil {
		return "no Yama"
	}
	s := strings.TrimSpace(string(b))
	what := map[string]string{"0": "classic", "1": "restricted: gompi names the launcher as ptracer", "2": "admin only", "3": "no attach"}[s]
	return "Yama ptrace_scope " + s + " (" + what + ")"
}

// siblingRead starts a target child and a reader child of this process and
// returns the reader's verdict.
func siblingRead() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	target := exec.Command(self, "--probe-target")
	in, err := target.StdinPipe()
	if err != nil {
		return err
	}
	out, err := target.StdoutPipe()
	if err != nil {
		return err
	}
	if err := target.Start(); err != nil {
		return err
	}
	defer func() { in.Close(); target.Wait() }()
	line, err := readLine(out, 10*time.Second)
	if err != nil {
		return fmt.Errorf("probe target: %v", err)
	}
	f := strings.Fields(line)
	if len(f) != 2 {
		return fmt.Errorf("probe target said %q", line)
	}
	res, err := exec.Command(self, "--probe-read", f[0], f[1]).Output()
	if err != nil {
		return fmt.Errorf("probe reader: %v", err)
	}
	verdict := strings.TrimSpace(string(res))
	if verdict == "ok" {
		return nil
	}
	if n, err := strconv.Atoi(verdict); err == nil {
		return fmt.Errorf("process_vm_readv: %w", unix.Errno(n))
	}
	return errors.New("process_vm_readv: " + verdict)
}

func readLine(r interface{ Read([]byte) (int, error) }, limit time.Duration) (string, error) {
	c := make(chan string, 1)
	e := make(chan error, 1)
	go func() {
		s, err := bufio.NewReader(r).ReadString('\n')
		if err != nil {
			e <- err
			return
		}
		c <- s
	}()
	select {
	case s := <-c:
		return strings.TrimSpace(s), nil
	case err := <-e:
		return "", err
	case <-time.After(limit):
		return "", errors.New("no answer")
	}
}

// probeTarget admits its parent's descendants, prints its pid and the
// address of probeWord, and waits for stdin to close.
func probeTarget() {
	unix.Prctl(unix.PR_SET_PTRACER, uintptr(os.Getppid()), 0, 0, 0)
	fmt.Printf("%d %d\n", os.Getpid(), uintptr(unsafe.Pointer(&probeWord)))
	var b [1]byte
	os.Stdin.Read(b[:])
}

// probeRead prints "ok", an errno number or a complaint.
func probeRead(pidS, addrS string) {
	pid, err1 := strconv.Atoi(pidS)
	addr, err2 := strconv.ParseUint(addrS, 10, 64)
	if err1 != nil || err2 != nil {
		fmt.Println("bad arguments")
		return
	}
	var v uint64
	l := []unix.Iovec{{Base: (*byte)(unsafe.Pointer(&v))}}
	l[0].SetLen(8)
	r := []unix.RemoteIovec{{Base: uintptr(addr), Len: 8}}
	_, err := unix.ProcessVMReadv(pid, l, r, 0)
	switch {
	case err != nil:
		if errno, ok := err.(unix.Errno); ok {
			fmt.Println(int(errno))
		} else {
			fmt.Println(err)
		}
	case v != probeMagic:
		fmt.Println("read the wrong value")
	default:
		fmt.Println("ok")
	}
}
