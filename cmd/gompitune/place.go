package main

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/hitopo"
	"gompi/launcher/tune"
	"gompi/mpi"
)

const probeValue = 0x676f6d7069747531 // "gompitu1"

// probe is the word rank 0 reads from rank 1 with process_vm_readv; global so
// its address stays valid and fixed.
var probe uint64 = probeValue

// describePlacement records where both ranks run and whether single copy
// can work between them at all: without it both modes measure the same
// path and a crossover means nothing.
func describePlacement(c *mpi.Comm, res *tune.Result) {
	loc, err := hitopo.Self()
	if err != nil {
		loc = hitopo.UnknownLoc
	}
	loc.Node = 0 // one node: the job is on this machine
	mine := []int64{int64(loc.Package), int64(loc.NUMA), int64(loc.L3), int64(loc.Core), int64(loc.CPU),
		int64(os.Getpid()), int64(uintptr(unsafe.Pointer(&probe)))}
	if c.Rank() == 1 {
		must(mpi.SendSlice(c, mine, 0, tagCtl))
		return
	}
	peer := make([]int64, len(mine))
	_, err = mpi.RecvSlice(c, peer, 1, tagCtl)
	must(err)
	other := hitopo.Loc{Node: 0, Package: int(peer[0]), NUMA: int(peer[1]), L3: int(peer[2]), Core: int(peer[3]), CPU: int(peer[4])}
	res.CPUs = [2]int{loc.CPU, other.CPU}
	res.Packages = [2]int{loc.Package, other.Package}
	res.SameSocket = hitopo.SameSocket(loc, other)

	var v uint64
	local := []unix.Iovec{{Base: (*byte)(unsafe.Pointer(&v)), Len: 8}}
	remote := []unix.RemoteIovec{{Base: uintptr(peer[6]), Len: 8}}
	n, err := unix.ProcessVMReadv(int(peer[5]), local, remote, 0)
	switch {
	case err != nil:
		res.CMAError = err.Error()
	case n != 8 || v != probeValue:
		res.CMAError = "read back a wrong value"
	default:
		res.CMA = true
	}
}
