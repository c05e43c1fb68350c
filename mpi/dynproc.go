package mpi

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"gompi/abi"
	"gompi/btl"
	"gompi/btl/sm"
	"gompi/btl/sock"
	"gompi/internal/mtlock"
)

// Dynamic processes. Processes are named universe-wide by their pid (one
// node). Processes of other jobs become new endpoints of the engine, past
// the world's ranks, reached through a shared-memory pair each (btl/sm's
// Pairs) or, where a pair cannot be made, btl/sock; processes of our own
// world keep their endpoint (and the node segment). Every way to join two groups
// (spawn, accept/connect, join) ends in joinGroups: each root swaps its
// group's pids and free context mask with the other root over a byte
// stream, and broadcasts the outcome to its group.

var dyn struct {
	sock   *sock.Module
	pairs  *sm.Pairs      // shared memory with processes of other jobs (btl/sm/pair.go)
	pairM  btl.Module     // pairs as the engine sees them (an Idler without st.sm)
	pids   []uint64       // endpoint -> pid
	byPid  map[uint64]int // pid -> endpoint
	parent *Comm          // MPI_Comm_get_parent
	ports  map[string]*port
	nport  int
}

// dynInit brings up the socket transport and learns the world's pids; it
// is local (no communication) and idempotent.
func dynInit() error {
	if dyn.sock != nil {
		return nil
	}
	dyn.byPid = map[uint64]int{}
	dyn.pids = make([]uint64, st.size)
	for r := range st.size {
		b, ok, err := st.modex.Get(r, st.keyPid)
		if err != nil || !ok || len(b) != 8 {
			return fmt.Errorf("no process id of rank %d in the modex: %v", r, err)
		}
		dyn.pids[r] = binary.LittleEndian.Uint64(b)
		dyn.byPid[dyn.pids[r]] = r
	}
	m, err := sock.New(uint64(os.Getpid()), st.eng.Handler())
	if err != nil {
		return err
	}
	p, err := sm.NewPairs(pairConfig(), st.eng.Handler())
	if err != nil {
		m.Close()
		return err
	}
	dyn.sock, dyn.pairs, dyn.pairM = m, p, sm.PairsIdler{Pairs: p}
	if st.sm != nil && p.UseBell(st.sm) {
		// Pair peers ring the node segment's doorbell our waits sleep on.
		dyn.pairM = p
	}
	return nil
}

// pairConfig: pairs with other jobs' processes follow the node's
// single-copy settings; GOMPI_SM_PAIR=0 leaves them to btl/sock.
func pairConfig() sm.PairConfig {
	c := sm.PairConfig{Pid: uint64(os.Getpid()), RingSize: st.settings.size("GOMPI_SM_PAIR_RING", 0),
		GetMin: st.settings.size("GOMPI_SM_GET_MIN_SAME", max(st.settings.size("GOMPI_SM_GET_MIN", 0), 0)),
		Off:    st.settings.str("GOMPI_SM_PAIR", "1") == "0"}
	if c.GetMin == 0 {
		c.GetMin = defaultGetMinSame
	}
	switch st.settings.str("GOMPI_SM_SINGLE_COPY", "auto") {
	case "off", "0", "no":
		c.GetMin = 0
	case "on", "1", "yes":
		c.GetMin = 1
	}
	return c
}

// pairPatience: how long a process of the other group may take to reach
// its half of the pair setup.
const pairPatience = 60 * time.Second

// endpoints returns the engine's endpoint of every process in pids, adding
// endpoints for new ones: each new process and this one set up a
// shared-memory pair, and use the socket transport where either refuses.
// Every process of both groups runs this for the others at once (the
// join is collective), which the pair setup needs.
func endpoints(pids []uint64) ([]int, error) {
	eps := make([]int, len(pids))
	var fresh []int
	var freshPids []uint64
	for i, p := range pids {
		if ep, ok := dyn.byPid[p]; ok {
			eps[i] = ep
			continue
		}
		ep := st.eng.AddPeers(1)
		dyn.pids = append(dyn.pids, p)
		dyn.byPid[p] = ep
		dyn.sock.AddPeer(ep, p)
		fresh, freshPids = append(fresh, ep), append(freshPids, p)
		eps[i] = ep
	}
	if len(fresh) == 0 {
		return eps, nil
	}
	paired, err := dyn.pairs.Connect(fresh, freshPids, func(fd int) { pollProgress(fd, unix.POLLIN) },
		time.Now().Add(pairPatience))
	var viaPair, viaSock []int
	for i, ep := range fresh {
		if paired[i] {
			viaPair = append(viaPair, ep)
		} else {
			viaSock = append(viaSock, ep)
		}
	}
	if len(viaPair) > 0 {
		st.eng.AddTransport(dyn.pairM, viaPair)
	}
	if len(viaSock) > 0 {
		st.eng.AddTransport(dyn.sock, viaSock)
		if st.sm != nil {
			// Waits sleep on btl/sm's futex, which socket traffic cannot ring.
			st.eng.CapIdle(500 * time.Microsecond)
		}
	}
	return eps, err
}

// procKey orders processes the same way in every job: world ranks between
// members of one world, pids otherwise (Intercomm_merge's tie-break).
func procKey(a, b int) (int, int) {
	if a < st.size && b < st.size || dyn.sock == nil {
		return a, b
	}
	return int(dyn.pids[a]), int(dyn.pids[b])
}

// spansJobs tells whether c has members of another job than ours (all
// members agree: each sees the others' processes past its world).
func (c *Comm) spansJobs() bool {
	if dyn.sock == nil {
		return false
	}
	for _, w := range c.group {
		if w >= st.size {
			return true
		}
	}
	return false
}

// rootWork is the root's half of a join: send out to the other root over
// its stream and return what the other root sent.
type rootWork func(out []byte) ([]byte, *Error)

// joinGroups makes the intercommunicator between local's group and the
// group whose root the local root reaches through work. Collective over
// local; work runs only at root. extra is appended by the root to what its
// group learns (spawn's process count), returned to all.
func joinGroups(call string, local *Comm, root int, work rootWork) (*Comm, error) {
	v := viewOf(local)
	if len(retiring) > 0 || len(draining) > 0 {
		sweepRetiring()
	}
	// Every member listens before the allreduce, so once the root has the
	// mask, every member of its group can be dialled.
	initErr := dynInit()
	m := ctxSnapshot()
	defer ctxClaim(&m)() // other threads' agreements must not offer these
	v.allreduceMask(&m)
	// info: [class, slot0, slot1, remote pids...]; class != 0 is an error.
	var info []int
	var rootErr *Error
	if local.rank == root {
		info, rootErr = joinAtRoot(call, local, &m, work, initErr)
	}
	n := []int{len(info)}
	v.bcastInts(n, root)
	if local.rank != root {
		info = make([]int, n[0])
	}
	v.bcastInts(info, root)
	if info[0] != 0 {
		if rootErr == nil {
			rootErr = errf(info[0], call, "failed at the root (rank %d)", root)
		}
		return nil, local.raise(rootErr)
	}
	if initErr != nil {
		// The root got going, so this member's transport must come up.
		return nil, local.raise(errf(abi.ErrOther, call, "%v", initErr))
	}
	ctxFree.clear(info[1])
	ctxFree.clear(info[2])
	pids := make([]uint64, len(info)-3)
	for i, p := range info[3:] {
		pids[i] = uint64(p)
	}
	eps, err := endpoints(pids)
	if err != nil {
		return nil, local.raise(errf(abi.ErrOther, call, "%v", err))
	}
	return newInter(info[1:3], local.group, local.rank, eps, local), nil
}

func joinAtRoot(call string, local *Comm, m *ctxMask, work rootWork, initErr error) ([]int, *Error) {
	fail := func(e *Error) ([]int, *Error) { return []int{e.Class, 0, 0}, e }
	if initErr != nil {
		return fail(errf(abi.ErrOther, call, "%v", initErr))
	}
	mine := make([]int, len(local.group))
	for i, ep := range local.group {
		mine[i] = int(dyn.pids[ep])
	}
	in, e := work(append(maskBytes(m), intsBytes(mine)...))
	if e != nil {
		return fail(e)
	}
	var other ctxMask
	mb := maskBytes(&other)
	if len(in) < len(mb) || (len(in)-len(mb))%8 != 0 || len(in) == len(mb) {
		return fail(errf(abi.ErrPort, call, "the other side sent a malformed greeting"))
	}
	copy(mb, in)
	m.and(&other)
	remote := bytesInts(in[len(mb):])
	for _, p := range remote {
		if slices.Contains(mine, p) {
			return fail(errf(abi.ErrOther, call, "the two groups overlap (process %d is in both)", p))
		}
	}
	s := m.lowestN(2)
	if len(s) < 2 {
		return fail(errf(abi.ErrOther, call, "no context id free in both groups"))
	}
	return append([]int{0, s[0], s[1]}, remote...), nil
}

// greetMagic starts every root-to-root message.
const greetMagic = 0x49504d47 // "GMPI"

// swapOver sends out and reads the other side's message on the stream fd,
// driving progress while it waits (our group's peers may need us).
func swapOver(fd int, out []byte) ([]byte, error) {
	hdr := make([]byte, 8, 8+len(out))
	binary.LittleEndian.PutUint32(hdr, greetMagic)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(out)))
	if err := streamIO(fd, append(hdr, out...), true); err != nil {
		return nil, err
	}
	var ih [8]byte
	if err := streamIO(fd, ih[:], false); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(ih[:]) != greetMagic {
		return nil, fmt.Errorf("the other side is not a gompi process")
	}
	n := binary.LittleEndian.Uint32(ih[4:])
	if n > 64<<20 {
		return nil, fmt.Errorf("the other side announced %d bytes", n)
	}
	in := make([]byte, n)
	if err := streamIO(fd, in, false); err != nil {
		return nil, err
	}
	return in, nil
}

// streamIO writes or reads all of b on fd (blocking or not), polling and
// driving progress meanwhile.
func streamIO(fd int, b []byte, write bool) error {
	ev := int16(unix.POLLIN)
	if write {
		ev = unix.POLLOUT
	}
	for len(b) > 0 {
		var k int
		var err error
		if write {
			k, err = unix.SendmsgN(fd, b, nil, nil, unix.MSG_NOSIGNAL|unix.MSG_DONTWAIT)
		} else {
			k, _, err = unix.Recvfrom(fd, b, unix.MSG_DONTWAIT)
			if err == nil && k == 0 {
				return fmt.Errorf("the other side closed the connection")
			}
		}
		switch {
		case err == nil:
			b = b[k:]
		case err == unix.EAGAIN || err == unix.EINTR:
			pollProgress(fd, ev)
		case err == unix.ENOTSOCK && !write:
			if k, err = unix.Read(fd, b); err != nil || k == 0 {
				return fmt.Errorf("reading the connection: %v", err)
			}
			b = b[k:]
		case err == unix.ENOTSOCK:
			if k, err = unix.Write(fd, b); err != nil {
				return fmt.Errorf("writing the connection: %v", err)
			}
			b = b[k:]
		default:
			return err
		}
	}
	return nil
}

// pollProgress waits briefly for ev on fd and keeps point-to-point moving.
func pollProgress(fd int, ev int16) {
	st.eng.Progress()
	if mtlock.On {
		d := mtlock.Release() // let other threads in while we wait
		defer mtlock.Reacquire(d)
	}
	p := []unix.PollFd{{Fd: int32(fd), Events: ev}}
	unix.Poll(p, 1)
}

// Parent is MPI_Comm_get_parent: the intercommunicator to the job that
// spawned us, nil when we were not spawned or after disconnecting it.
func Parent() *Comm { return dyn.parent }

// connectParent runs in MPI_Init of a spawned process: the whole world
// connects to the port its parents wait on.
func connectParent() error {
	port := os.Getenv("GOMPI_PARENT_PORT")
	if port == "" {
		return nil
	}
	os.Unsetenv("GOMPI_PARENT_PORT") // not for the programs we start
	c, err := st.world.connect("MPI_Init", port, 0, 30*time.Second)
	if err != nil {
		return fmt.Errorf("cannot reach the parent job: %v", err)
	}
	c.name = "MPI_COMM_PARENT"
	dyn.parent = c
	return nil
}

// Disconnect waits for c's pending traffic and frees it
// (MPI_Comm_disconnect).
func (c *Comm) Disconnect() error {
	const call = "MPI_Comm_disconnect"
	if c == st.world || c == st.self {
		return c.raise(errf(abi.ErrComm, call, "%s cannot be disconnected", c.name))
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if c == dyn.parent {
		dyn.parent = nil
	}
	return c.Free()
}

// finalizeDyn closes ports and the socket transport (its queued bytes are
// written first) and unpublishes our names.
func finalizeDyn() {
	for name, p := range dyn.ports {
		p.close()
		delete(dyn.ports, name)
	}
	unpublishAll()
	if dyn.sock != nil {
		dyn.sock.Close()
	}
	if dyn.pairs != nil {
		dyn.pairs.Close()
	}
}
