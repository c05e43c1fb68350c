package mpi

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"gompi/abi"
)

// Ports (MPI_Open_port) are abstract Unix sockets: the name is
// "gompi:port-<pid>-<n>-<random>", the socket "@port-<pid>-<n>-<random>".
// Any process of the node reaches it, in this job or in another gompirun's,
// and nothing remains in the file system when the process ends.

const portPrefix = "gompi:"

type port struct {
	name string
	fd   int
}

func (p *port) close() { unix.Close(p.fd) }

func portAddr(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, portPrefix)
	if !ok || rest == "" || len(rest) > 100 || strings.ContainsAny(rest, "\x00 \t\n") {
		return "", false
	}
	return "@" + rest, true
}

// OpenPort opens a new port (MPI_Open_port).
func OpenPort() (string, error) {
	const call = "MPI_Open_port"
	var rnd [6]byte
	rand.Read(rnd[:])
	dyn.nport++
	name := fmt.Sprintf("%sport-%d-%d-%s", portPrefix, os.Getpid(), dyn.nport, hex.EncodeToString(rnd[:]))
	addr, _ := portAddr(name)
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err == nil {
		if err = unix.Bind(fd, &unix.SockaddrUnix{Name: addr}); err == nil {
			err = unix.Listen(fd, 64)
		}
		if err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		return "", Raise(nil, abi.ErrPort, call, fmt.Sprintf("cannot listen: %v", err))
	}
	if dyn.ports == nil {
		dyn.ports = map[string]*port{}
	}
	dyn.ports[name] = &port{name: name, fd: fd}
	return name, nil
}

// ClosePort closes a port this process opened (MPI_Close_port).
func ClosePort(name string) error {
	p := dyn.ports[name]
	if p == nil {
		return Raise(nil, abi.ErrPort, "MPI_Close_port", fmt.Sprintf("port %q was not opened by this process (or is closed)", name))
	}
	p.close()
	delete(dyn.ports, name)
	return nil
}

// Accept waits at root for a connection on port (opened there) and joins
// c's group with the connecting group (MPI_Comm_accept).
func (c *Comm) Accept(name string, root int) (*Comm, error) {
	const call = "MPI_Comm_accept"
	if e := c.dynRootCheck(call, root); e != nil {
		return nil, c.raise(e)
	}
	return joinGroups(call, c, root, func(out []byte) ([]byte, *Error) {
		return acceptPort(call, dyn.ports[name], out)
	})
}

// acceptPort waits for one connection on p and greets it.
func acceptPort(call string, p *port, out []byte) ([]byte, *Error) {
	if p == nil {
		return nil, errf(abi.ErrPort, call, "the port was not opened by this process (or is closed)")
	}
	var fd int
	for {
		var err error
		fd, _, err = unix.Accept4(p.fd, unix.SOCK_CLOEXEC)
		if err == nil {
			break
		}
		if err != unix.EAGAIN && err != unix.EINTR {
			return nil, errf(abi.ErrPort, call, "accept on %q: %v", p.name, err)
		}
		pollProgress(p.fd, unix.POLLIN)
	}
	defer unix.Close(fd)
	in, err := swapOver(fd, out)
	if err != nil {
		return nil, errf(abi.ErrPort, call, "greeting on %q: %v", p.name, err)
	}
	return in, nil
}

// Connect joins c's group with the group accepting on port
// (MPI_Comm_connect).
func (c *Comm) Connect(name string, root int) (*Comm, error) {
	const call = "MPI_Comm_connect"
	if e := c.dynRootCheck(call, root); e != nil {
		return nil, c.raise(e)
	}
	return c.connect(call, name, root, 0)
}

// connect dials port at root; a port that does not exist yet is retried
// for patience (spawned children may race their parent's port).
func (c *Comm) connect(call, name string, root int, patience time.Duration) (*Comm, error) {
	return joinGroups(call, c, root, func(out []byte) ([]byte, *Error) {
		addr, ok := portAddr(name)
		if !ok {
			return nil, errf(abi.ErrPort, call, "%q is not a port name of this library", name)
		}
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, errf(abi.ErrOther, call, "socket: %v", err)
		}
		defer unix.Close(fd)
		deadline := time.Now().Add(patience)
		for {
			err = unix.Connect(fd, &unix.SockaddrUnix{Name: addr})
			if err == nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			return nil, errf(abi.ErrPort, call, "no port %q: %v", name, err)
		}
		in, err := swapOver(fd, out)
		if err != nil {
			return nil, errf(abi.ErrPort, call, "greeting on %q: %v", name, err)
		}
		return in, nil
	})
}

// Join makes an intercommunicator of this process and the one at the other
// end of the connected socket fd (MPI_Comm_join).
func Join(fd int) (*Comm, error) {
	const call = "MPI_Comm_join"
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); fd < 0 || err != nil {
		return nil, Raise(st.self, abi.ErrArg, call, fmt.Sprintf("fd %d is not an open descriptor", fd))
	}
	return joinGroups(call, st.self, 0, func(out []byte) ([]byte, *Error) {
		in, err := swapOver(fd, out)
		if err != nil {
			return nil, errf(abi.ErrArg, call, "exchange over fd %d: %v", fd, err)
		}
		return in, nil
	})
}

func (c *Comm) dynRootCheck(call string, root int) *Error {
	if c.inter {
		return errf(abi.ErrComm, call, "the communicator is an intercommunicator")
	}
	if root < 0 || root >= c.size {
		return errf(abi.ErrRoot, call, "root %d is not in [0, %d)", root, c.size)
	}
	return nil
}
