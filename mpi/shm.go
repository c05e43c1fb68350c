package mpi

import (
	"math"
	"runtime"
	"unsafe"

	"gompi/btl/sm"
	"gompi/coll"
	"gompi/datatype"
	"gompi/hitopo"
	"gompi/internal/mtlock"
	"gompi/op"
	"gompi/pml"
	"gompi/shmcoll"
)

// worldArea is MPI_COMM_WORLD's shared-memory collective area.
const worldArea = 0

// draining holds freed communicators whose collective area may still be
// read by a member that has not freed it yet.
var draining []*Comm

// shmSpins is how long a shared-memory collective polls before yielding
// the core (once when processes outnumber cores).
var shmSpins = 4000

// shmWait is a shared-memory collective's idle step: it keeps point-to-point
// moving and gives the core away after a while. It never sleeps on the
// futex: collective peers write counters, they do not ring doorbells.
func shmWait(spins *int) {
	if mtlock.On {
		d := mtlock.Release() // let other threads in while we wait
		defer mtlock.Reacquire(d)
	}
	*spins++
	if *spins&63 == 0 && st.eng.Progress() > 0 {
		return
	}
	if *spins >= shmSpins {
		pml.YieldCore()
	}
}

// setupShm gives c shared-memory collectives in area (all members call it
// with the same area): when every member is on this node and c has at
// least two ranks. Otherwise the area goes back to the free mask.
func (c *Comm) setupShm(area int) {
	if area < 0 {
		return
	}
	locals := c.shmLocals()
	if locals == nil {
		ctxFree.set(areaBit0 + area)
		return
	}
	a := st.sm.CollArea(area)
	counts := viewOf(c).allgatherInts([]int{int(a.Counter(locals[c.rank]))})
	bases := make([]uint64, len(counts))
	for i, v := range counts {
		bases[i] = uint64(v)
	}
	c.joinShm(a, area, locals, bases)
}

// joinShm makes c's shared-memory group in area a, given every member's
// node-local index and counter when the group forms.
func (c *Comm) joinShm(a *shmcoll.Area, area int, locals []int, bases []uint64) {
	c.shm = shmcoll.NewGroup(a, locals, bases, c.rank, shmWait)
	c.shm.CountInto(&shmCalls)
	c.shm.AllreduceBlocks = shmAllreduceBlocks()
	if c.shm.SpinMax = ShmSpinMax(); c.shm.SpinMax > 0 {
		c.shm.CPU = currentCPU
	}
	c.shmMax = shmLimits(a.Max(), c.size)
	c.area = area
}

// shmLocals returns the node-local index of every member, or nil when c
// cannot use shared-memory collectives.
func (c *Comm) shmLocals() []int {
	if st.sm == nil || c.size < 2 || c.size > shmcoll.MaxGroup || st.settings.str("GOMPI_SHM_COLL", "1") == "0" || c.fakeSpansNodes() {
		return nil
	}
	locals := make([]int, c.size)
	for i, w := range c.group {
		if locals[i] = st.sm.LocalIndex(w); locals[i] < 0 {
			return nil
		}
	}
	return locals
}

// currentCPU names the CPU the caller runs on, for the shared-memory waits
// (shmcoll.Group.CPU): the getcpu system call unless the library's C side
// offers a cheaper one (SetCurrentCPU).
var currentCPU = hitopo.CurrentCPU

// SetCurrentCPU replaces how the shared-memory waits learn the current CPU;
// before Init.
func SetCurrentCPU(f func() int32) { currentCPU = f }

// setupWorldShm gives MPI_COMM_WORLD its area: the segment is new, so every
// counter starts at zero.
func setupWorldShm() {
	decideShmKinds()
	decideDirectFrom()
	if st.oversub {
		shmSpins = 1
	}
	if locals := st.world.shmLocals(); locals != nil {
		st.world.joinShm(st.sm.CollArea(worldArea), worldArea, locals, make([]uint64, len(locals)))
	}
}

// shmAllreduceBlocks is the size from which a shared-memory allreduce folds
// by blocks (shmcoll's Allreduce): only oversubscribed, the only case where
// big allreduces come here. Medians of 5 runs, 4 ranks on 2 cores: 16 KiB
// 10.2 us either way, 24 KiB 14.4 -> 11.9, 32 KiB 18.2 -> 14.3, 64 KiB 38.9
// -> 24.1.
func shmAllreduceBlocks() int {
	if st.oversub {
		return 16 << 10
	}
	return 0
}

// shmLimits gives per kind the largest contribution (bytes per rank; the
// whole vector for reduce_scatter, the whole send buffer for alltoall) run
// through shared memory by a group whose area takes up to max; -1 for a
// kind another algorithm is forced for (GOMPI_COLL_<KIND>).
//   - Broadcasts and reductions to a root take all of it: the root runs
//     ahead of its readers. Medians of 5-7 runs, 2 ranks bound: bcast of
//     16 KiB 1.8 -> 1.6 us, 32 KiB 3.6-4.0 -> 2.2-2.7; reduce of 16 KiB
//     2.5 -> 2.1, 32 KiB 4.9-5.6 -> 4.0-4.3; no change at 64 KiB.
//   - The synchronizing kinds take big data only when processes outnumber
//     cores, where a rendezvous waits for each peer to be scheduled (4 ranks
//     on 2 cores, 16 KiB: allreduce 22.7 -> 10.5 us, allgather 23 -> 11.4;
//     alltoall of 4 KiB blocks 11.5 -> 6.2). With a core each, one single
//     copy per block beats a copy in and a copy out (2 ranks, allgather of
//     16 KiB: 3.4 -> 5.6 us through shared memory). Between two ranks that
//     holds for an allgather from 3 KiB (4 KiB: 1.45-1.68 us exchanged,
//     1.75-2.03 through shared memory; 2 KiB: 1.26-1.33 and 0.96-1.40).
//   - Oversubscribed, with big slots, bcast, reduce, allreduce and
//     reduce_scatter of any size come here, one call per big slot of data
//     (shmcoll): while one rank copies or folds a slot the others fill or
//     empty the next. 4 ranks on 2 cores, medians of 3-5 alternating runs
//     against the point-to-point schedules: bcast 256 KiB 46 -> 35 us, 1 MiB
//     193-217 -> 156-164; reduce 256 KiB 81 -> 60, 1 MiB 460 -> 237;
//     allreduce 256 KiB 156-163 -> 98-110, 1 MiB 543-549 -> 464-485;
//     reduce_scatter of 64 KiB blocks 106 -> 61, 1 MiB blocks 1271 -> 1023.
//     Allgather lost (256 KiB 183 -> 199, 1 MiB 666 -> 806): its linear
//     exchange copies each block once, straight into place.
//   - Reduce takes any size with a core per rank too: the other ranks fill
//     slots while the root folds the last ones, in one pass per slot from
//     two sources (2 ranks bound: 256 KiB 23.0 -> 18.9 us, 1 MiB 82 -> 77;
//     chunks of 16 or 32 KiB were slower). Allreduce lost that way (2 ranks,
//     256 KiB 29 -> 63): its exchange copies each half once.
//   - Except between two ranks with a core each, where a reduce above a
//     slot leaves the slots (by direct access since 25 Nov, shm_direct.go;
//     point to point before): one single copy against a copy into a slot
//     and one out of it. 2-core EPYC guest,
//     whose two cores share a cache at times and not at others
//     (bench/floor/core_rtt.c): with a shared cache reduce 16 KiB 2.0 ->
//     1.5 us, 64 KiB 7.0 -> 7.9, 256 KiB 24-26 -> 23-24, 1 MiB 71-86 ->
//     92-100 (Open MPI 8.3, 27, 112); without, 16 KiB 7.6 -> 4.6, 64 KiB
//     29 -> 10.7, 256 KiB 115 -> 22.5, 1 MiB 455 -> 89: the slots' lines,
//     read by the other core the call before, come back to the root at
//     memory latency. A broadcast up to a big slot, where its root runs
//     ahead, stays here: medians of 13-163 alternating runs per phase
//     (25 Nov), point to point -> slots, shared cache: 4 KiB 0.40 ->
//     0.14 us, 16 KiB 0.72 -> 0.34, 64 KiB 2.5 -> 1.3 (MPICH 0.28, 4.4,
//     6.3); without: 4 KiB 1.14 -> 0.36, 16 KiB 1.60 -> 0.78, 64 KiB 4.1
//     -> 2.9 (MPICH 0.72, 4.9, 6.5). Above it point to point wins (one
//     call per big slot, 256 KiB: 2.6-5.0 us against 5.0-17), and direct
//     access more (directFrom, shm_direct.go).
//   - Oversubscribed, when every rank of the node keeps its large blocks in
//     the shared heap (btl/sm heap.go; a node-wide fact, so all members
//     decide alike), a single copy is a plain memory copy and point to
//     point wins for big data: bcast above a big slot (linear: 4 ranks on
//     2 cores, 256 KiB 27-30 -> 16.5-18 us, 1 MiB 105 -> 55-70; but 64 KiB
//     32-38 through single copies that each wait for their reader, 7-8 in
//     the slot the root fills and runs ahead of) and allreduce above
//     512 KiB (Rabenseifner: 1 MiB 282-326 -> 174-190; 256 KiB 70-76
//     through shared memory, 79-95 not), though past directFrom bcast
//     (64 KiB) and allreduce (64 KiB) take neither but direct access
//     (shm_direct.go).
func shmLimits(max, size int) *[shmKinds]int {
	var l [shmKinds]int
	heaps := st.sm != nil && st.sm.NodeSharesHeaps()
	for k := range l {
		l[k] = min(max, sm.CollSlot)
		switch {
		case shmForced[k]:
			l[k] = -1
		case st.oversub && heaps && k == shmBcast:
			l[k] = max
		case st.oversub && heaps && k == shmAllreduce:
			l[k] = 512 << 10
		case size == 2 && !st.oversub && k == shmReduce:
			// l[k] stays a slot
		case chunked[k] && (st.oversub || k == shmReduce) && max > sm.CollSlot:
			l[k] = math.MaxInt
		case st.oversub || k == shmBcast || k == shmReduce:
			l[k] = max
		case k == shmAllgather && size == 2:
			l[k] = 2 << 10
		}
		if st.oversub && heaps && directFrom[k] > 0 && !shmForced[k] {
			l[k] = min(l[k], directFrom[k]-1)
		}
	}
	return &l
}

// The collectives shmcoll serves, in the order of the C side's enum
// (capi/shmcoll.h).
const (
	shmBarrier = iota
	shmBcast
	shmReduce
	shmAllreduce
	shmAllgather
	shmAlltoall
	shmReduceScatter
	shmKinds
)

// chunked marks the kinds shmcoll runs as one call per slot of data when
// the data is larger than a slot.
var chunked = [shmKinds]bool{shmBcast: true, shmReduce: true, shmAllreduce: true, shmReduceScatter: true}

var shmKindNames = [shmKinds]coll.Kind{coll.KBarrier, coll.KBcast, coll.KReduce, coll.KAllreduce,
	coll.KAllgather, coll.KAlltoall, coll.KReduceScatter}

// shmForced says, per kind, that another algorithm is forced with
// GOMPI_COLL_<KIND> (an unknown name forces nothing; "shm" forces this
// one): decided once at MPI_Init and folded into each group's limits, so a
// call pays no settings lookup.
var shmForced [shmKinds]bool

func decideShmKinds() {
	for i, k := range shmKindNames {
		a, set := st.settings["GOMPI_COLL_"+string(k)]
		shmForced[i] = set && a != "shm" && coll.Valid(k, a)
	}
}

// useShm tells whether a blocking collective of kind k with n bytes per
// rank runs through shared memory: c has an area and n is within the kind's
// limit (shmLimits).
func (c *Comm) useShm(m CollMode, k int, n int) bool {
	return m == Blocking && c.shm != nil && n <= c.shmMax[k]
}

// useShmFold is useShm for a reduction of count elements of dt: contiguous,
// and an element fits one call (a large reduction goes one call per Max
// bytes of whole elements).
func (c *Comm) useShmFold(m CollMode, k int, count int, dt *datatype.Type) bool {
	return dt != nil && dt.Contig && c.useShm(m, k, count*dt.Size) && dt.Size <= c.shm.Max()
}

// WorldShm is MPI_COMM_WORLD's shared-memory collective group (nil when it
// has none), for the C fast path.
func WorldShm() *shmcoll.Group { return st.world.shm }

// WorldShmLimits is, in the C side's order, the largest contribution of
// each kind MPI_COMM_WORLD runs through shared memory, -1 for none (the C
// side must take exactly the calls the Go side would).
func WorldShmLimits() [shmKinds]int { return *st.world.shmMax }

// ShmPolls is how long the C side polls before it waits in Go: briefly when
// processes outnumber cores (Go's wait gives the core away).
func ShmPolls() int {
	if st.oversub {
		return 1
	}
	return 256
}

// ShmSpinMax is how many pauses a C shared-memory wait may spend instead of
// yielding, while every missing rank was last seen on another CPU: 0 unless
// processes outnumber cores (GOMPI_SHM_SPIN_MAX; 0 always yields).
func ShmSpinMax() int {
	if !st.oversub {
		return 0
	}
	return max(st.settings.size("GOMPI_SHM_SPIN_MAX", 4096), 0)
}

// shmReducer is a comm's reduction callback for shmcoll, made once so a
// call only sets the op and type it applies (no closure per call).
type shmReducer struct {
	o    *op.Op
	dt   *datatype.Type
	fold shmcoll.Fold
}

// reducer is o on dt as shmcoll applies it: the two-operand form and the
// one-pass three-operand one.
func (c *Comm) reducer(o *op.Op, dt *datatype.Type) shmcoll.Fold {
	if c.shmRed == nil {
		r := &shmReducer{}
		r.fold = shmcoll.Fold{
			Op:   func(in, inout unsafe.Pointer, n int) { r.o.Apply(in, inout, n, r.dt) },
			Into: func(a, b, out unsafe.Pointer, n int) bool { return r.o.ApplyInto(a, b, out, n, r.dt) },
		}
		c.shmRed = r
	}
	c.shmRed.o, c.shmRed.dt = o, dt
	return c.shmRed.fold
}

// shmAllreduce checks the arguments as the general path does, then reduces
// through shared memory.
func (c *Comm) shmAllreduce(call string, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) (*Request, error) {
	e := firstErr(c.checkIntra(call), checkOp(call, o, dt), c.checkData(call, rbuf, count, dt))
	sp := rbuf
	if !IsInPlace(sbuf) {
		sp = sbuf
		e = firstErr(e, c.checkData(call, sbuf, count, dt), c.checkAlias(call, sbuf, rbuf, count))
	}
	if e != nil {
		return c.fail(e)
	}
	if count*dt.Size > c.shmMax[shmAllreduce] { // past the slots: useDirectContig
		return nil, c.directFailed(call, c.shm.AllreduceDirect(sp, rbuf, count, dt.Size, c.reducer(o, dt), c.direct))
	}
	c.shm.Allreduce(sp, rbuf, count, dt.Size, c.reducer(o, dt))
	return nil, nil
}

// shmReduceScatter runs a blocking MPI_Reduce_scatter(_block) through
// shared memory: every rank posts its vector and folds its own block
// (arguments already checked).
func (c *Comm) shmReduceScatter(sbuf, rbuf unsafe.Pointer, rcounts []int, total int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if total == 0 {
		return nil, nil
	}
	sp := sbuf
	if IsInPlace(sbuf) {
		sp = rbuf
	}
	c.shm.ReduceScatter(sp, rbuf, rcounts, dt.Size, c.reducer(o, dt))
	return nil, nil
}

// shmAllgather runs a blocking MPI_Allgather through shared memory; handled
// is false when the general path must take it.
func (c *Comm) shmAllgather(direct bool, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (handled bool, err error) {
	const call = "MPI_Allgather"
	n, handled, err := c.shmBlockArgs(call, shmAllgather, direct, 1, sbuf, scount, stype, rbuf, rcount, rtype)
	if !handled || err != nil {
		return handled, err
	}
	var sp unsafe.Pointer
	if IsInPlace(sbuf) {
		sp = c.packed(unsafe.Add(rbuf, c.rank*rcount*rtype.Extent), rcount, rtype)
	} else {
		sp = c.packed(sbuf, scount, stype)
	}
	dst, all := c.recvArea(rbuf, rtype, n*c.size)
	if !direct {
		c.shm.Allgather(sp, dst, n)
	} else if err := c.directFailed(call, c.shm.AllgatherDirect(sp, dst, n, c.direct)); err != nil {
		return true, err
	}
	if all != nil {
		rtype.Unpack(rbuf, rcount*c.size, all, 0)
	}
	return true, nil
}

// shmBlockArgs checks an allgather or alltoall (blocks per rank of send:
// 1 or the size) for the shared-memory path, through the slots or, past
// them, by direct access (with a core per rank too: 2 ranks bound, medians
// of 3 alternating runs in the fast phase against the point-to-point
// exchanges, allgather of 16 KiB blocks 1.20 -> 0.63 us, 64 KiB 4.1 ->
// 2.1, 256 KiB 9.7 -> 6.8; alltoall of 16 KiB 1.36 -> 0.77, 64 KiB 4.4 ->
// 2.0, 256 KiB and 1 MiB alike; 4 ranks on 2 cores, allgather of 256 KiB
// 80 -> 70, 1 MiB 259 -> 229), and returns the bytes of one block. Types may
// differ between ranks only in layout: non-contiguous ones are packed.
func (c *Comm) shmBlockArgs(call string, kind int, direct bool, blocks int, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (n int, handled bool, err error) {
	inPlace := IsInPlace(sbuf)
	if rtype == nil || rcount < 0 || (!inPlace && stype == nil) {
		return 0, false, nil
	}
	n = rcount * rtype.Size
	fits := c.useShm(Blocking, kind, n*blocks)
	if direct {
		fits = c.shmMax[kind] >= 0 && n*blocks > c.shmMax[kind] && c.directReads()
	}
	if !fits || (!inPlace && scount*stype.Size != n) {
		return 0, false, nil
	}
	e := firstErr(c.checkIntra(call), c.checkNotInPlace(call, rbuf), c.checkBuf(call, rbuf, rcount*c.size, rtype))
	if !inPlace {
		e = firstErr(e, c.checkData(call, sbuf, scount*blocks, stype))
	}
	if e != nil {
		return 0, true, c.raise(e)
	}
	return n, true, nil
}

// recvArea is where a collective writes n packed bytes for rbuf: rbuf
// itself for a contiguous type, else scratch (returned) to unpack after.
func (c *Comm) recvArea(rbuf unsafe.Pointer, rtype *datatype.Type, n int) (unsafe.Pointer, []byte) {
	if rtype.Contig {
		return rbuf, nil
	}
	all := make([]byte, n)
	return bytePtr(all), all
}

// packed returns count elements of dt at p as contiguous bytes: p itself
// for a contiguous type, else a packed copy.
func (c *Comm) packed(p unsafe.Pointer, count int, dt *datatype.Type) unsafe.Pointer {
	if dt.Contig || count == 0 {
		return p
	}
	tmp := make([]byte, count*dt.Size)
	dt.Pack(tmp, p, count, 0)
	return bytePtr(tmp)
}

// shmBcast broadcasts through shared memory, or past the slots by direct
// access (shm_direct.go), packing a non-contiguous type (another rank may
// describe the same bytes with a contiguous one, and must take the same
// path).
func (c *Comm) shmBcast(direct bool, buf unsafe.Pointer, count int, dt *datatype.Type, root int) error {
	n := count * dt.Size
	p := buf
	var tmp []byte
	if !dt.Contig && n > 0 {
		tmp = make([]byte, n)
		if c.rank == root {
			dt.Pack(tmp, buf, count, 0)
		}
		p = bytePtr(tmp)
	}
	if !direct {
		c.shm.Bcast(p, n, root)
	} else if err := c.directFailed("MPI_Bcast", c.shm.BcastDirect(p, n, root, c.direct)); err != nil {
		return err
	}
	if tmp != nil && c.rank != root {
		dt.Unpack(buf, count, tmp, 0)
	}
	return nil
}

// shmAlltoall runs a blocking MPI_Alltoall through shared memory: through
// a slot when every rank's whole send buffer fits one, or past the slots by
// direct access when direct is set (shm_direct.go); handled is false when
// the general path must take it.
func (c *Comm) shmAlltoall(direct bool, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (handled bool, err error) {
	const call = "MPI_Alltoall"
	n, handled, err := c.shmBlockArgs(call, shmAlltoall, direct, c.size, sbuf, scount, stype, rbuf, rcount, rtype)
	if !handled || err != nil {
		return handled, err
	}
	var sp unsafe.Pointer
	switch {
	case IsInPlace(sbuf) && direct:
		// Peers read the send data while this rank fills rbuf: a copy.
		tmp := make([]byte, n*c.size)
		rtype.Pack(tmp, rbuf, rcount*c.size, 0)
		sp = bytePtr(tmp)
		defer runtime.KeepAlive(tmp)
	case IsInPlace(sbuf):
		sp = c.packed(rbuf, rcount*c.size, rtype)
	default:
		sp = c.packed(sbuf, scount*c.size, stype)
	}
	dst, all := c.recvArea(rbuf, rtype, n*c.size)
	if !direct {
		c.shm.Alltoall(sp, dst, n)
	} else if err := c.directFailed(call, c.shm.AlltoallDirect(sp, dst, n, c.direct)); err != nil {
		return true, err
	}
	if all != nil {
		rtype.Unpack(rbuf, rcount*c.size, all, 0)
	}
	return true, nil
}
