// Package mpi is gompi's Go API: communicators, point-to-point, requests and
// the runtime (Init/Finalize). The C ABI in capi/ is a thin layer over it.
package mpi

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"time"

	"gompi/abi"
	"gompi/btl"
	"gompi/btl/self"
	"gompi/btl/sm"
	"gompi/hitopo"
	"gompi/modex"
	"gompi/pmi"
	"gompi/pml"
)

// Context ids of the predefined communicators (point-to-point, collective).
const (
	ctxWorld    = 0
	ctxWorldCol = 1
	ctxSelf     = 2
	ctxSelfCol  = 3
	ctxFirstDyn = 4
)

var st struct {
	initialized bool // the world model: MPI_Init was called
	ready       bool // the runtime runs (world model or a session open)
	finalized   bool // the world model: MPI_Finalize completed
	stopped     bool // the runtime was shut down (it never restarts)
	thread      int
	rank, size  int
	pmi         *pmi.Client
	modex       *modex.Modex
	eng         *pml.Engine
	sm          *sm.Module
	selfBTL     *self.Module
	world, self *Comm
	comms       []*Comm
	topo        []hitopo.Loc
	local       []int
	keyPid      modex.Key
	procName    string
	start       time.Time
	settings    settings
	// oversub: waits give the core away (processes outnumber cores, or
	// GOMPI_YIELD=1 asks to behave as if they did).
	oversub bool
}

// Initialized reports whether Init has been called (MPI_Initialized).
func Initialized() bool { return st.initialized }

// Finalized reports whether Finalize has completed (MPI_Finalized).
func Finalized() bool { return st.finalized }

// Stopped reports whether the runtime was shut down: after MPI_Finalize
// with no session open, or at exit after sessions only.
func Stopped() bool { return st.stopped }

// Ready reports whether MPI calls are allowed now.
func Ready() bool { return st.ready }

// Engine exposes the point-to-point engine (for collectives and tests).
func Engine() *pml.Engine { return st.eng }

// ThreadLevel is the level Init provided.
func ThreadLevel() int { return st.thread }

// Init starts MPI with MPI_THREAD_SINGLE.
func Init() error {
	_, err := InitThread(abi.ThreadSingle)
	return err
}

// InitThread starts MPI and returns the thread level provided. Below
// MPI_THREAD_MULTIPLE the caller serialises calls and the hot path takes
// no locks; at MULTIPLE see threads.go.
func InitThread(required int) (int, error) {
	if st.initialized {
		return 0, errf(abi.ErrOther, "MPI_Init", "MPI is already initialized")
	}
	if st.stopped {
		return 0, errf(abi.ErrOther, "MPI_Init", "the runtime was shut down and cannot start again")
	}
	st.initialized = true
	st.thread = providedLevel(required)
	startRuntime("MPI_Init")
	if st.thread == abi.ThreadMultiple {
		enableMultiple()
	}
	return st.thread, nil
}

// providedLevel is the thread level given for required (threads.go).
func providedLevel(required int) int { return grantThread(required) }

// startRuntime brings the runtime up once, for the world model or the
// first session, whichever comes first; a failure ends the job.
func startRuntime(call string) {
	if st.ready {
		return
	}
	st.start = time.Now()
	if err := startup(); err != nil {
		fmt.Fprintf(os.Stderr, "gompi: %s failed: %v\n", call, err)
		if st.pmi != nil {
			st.pmi.Abort(1, call+" failed: "+err.Error())
		}
		os.Exit(1)
	}
	st.ready = true
	if err := connectParent(); err != nil {
		fmt.Fprintf(os.Stderr, "gompi: %s: %v\n", call, err)
		st.pmi.Abort(1, call+": "+err.Error())
		os.Exit(1)
	}
}

// stopRuntime waits for every process, then releases the transports.
func stopRuntime() {
	barrier(st.world)
	finalizeDyn()
	st.ready = false
	st.stopped = true
	closeTransports()
	st.pmi.Finalize()
}

func startup() error {
	st.settings = loadSettings()
	client, err := pmi.NewFromEnv()
	if err != nil {
		return err
	}
	st.pmi = client
	st.rank, st.size = client.Rank(), client.Size()
	host, _ := os.Hostname()
	st.procName = host

	// Business cards: where each process sits.
	reg := modex.NewRegistry()
	keyTopo := reg.MustRegister("hitopo.1")
	st.keyPid = reg.MustRegister("pid.1") // dynamic processes name processes by pid
	keyKernel := reg.MustRegister("kernel.1")
	var opts []modex.Option
	if id, ok, err := nodeSplit(st.settings.str("GOMPI_NODE_SPLIT", ""), st.rank); err != nil {
		return err
	} else if ok {
		opts = append(opts, modex.WithNodeID(id))
	}
	mx := modex.New(client, reg, opts...)
	mx.SetLocal(st.keyPid, binary.LittleEndian.AppendUint64(nil, uint64(os.Getpid())))
	loc, err := hitopo.Self()
	if err != nil {
		loc = hitopo.Loc{Node: -1, Package: -1, NUMA: -1, L3: -1, Core: -1, CPU: -1}
	}
	mx.SetLocal(keyTopo, loc.Encode())
	publishKernel(mx, keyKernel)
	if err := mx.Exchange(); err != nil {
		return fmt.Errorf("modex: %w", err)
	}
	st.modex = mx
	st.local = mx.LocalRanks()
	st.topo = make([]hitopo.Loc, st.size)
	for _, r := range st.local {
		if b, ok, err := mx.Get(r, keyTopo); err == nil && ok {
			if l, err := hitopo.Decode(b); err == nil {
				l.Node = mx.NodeOf(r) // hitopo leaves the node to the job
				st.topo[r] = l
			}
		}
	}
	if os.Getenv("GOMPI_MODEX_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "gompi: rank %d modex: %s\n", st.rank, mx.Stats())
	}

	// Ranks of other nodes on this kernel share its CPUs (kernelshare.go).
	oversub := ranksOnKernel(mx, keyKernel, nodeCPUs()) > nodeCPUs()
	st.oversub = oversub || st.settings.str("GOMPI_YIELD", "") == "1"
	eng := pml.New(pml.Config{Me: st.rank, WorldSize: st.size,
		EagerLimit:     st.settings.size("GOMPI_EAGER_LIMIT", 0),
		FragSize:       st.settings.size("GOMPI_FRAG_SIZE", 0),
		Oversubscribed: st.oversub,
		SplitMin:       splitMin(oversub),
		EagerRoom:      eagerRoom()})
	st.eng = eng

	selfMod := self.New(st.rank, 1<<20, eng.Handler())
	eng.AddTransport(selfMod, []int{st.rank})

	if err := openTransports(eng); err != nil {
		return err
	}

	worldRanks := make([]int, st.size)
	for i := range worldRanks {
		worldRanks[i] = i
	}
	seq, shared, pending, err := worldShared(st.size)
	if err != nil {
		return err
	}
	eng.SetPendingFlag(pending)
	st.world = newComm(abi.CommWorld, pml.NewCommShared(ctxWorld, st.rank, worldRanks, seq, shared),
		pml.NewComm(ctxWorldCol, st.rank, worldRanks), "MPI_COMM_WORLD")
	setupFast(st.oversub)
	setupWorldShm()
	me := []int{st.rank}
	st.self = newComm(abi.CommSelf, pml.NewComm(ctxSelf, 0, me), pml.NewComm(ctxSelfCol, 0, me), "MPI_COMM_SELF")
	st.world.reserve, st.self.reserve = slotWorldIdup+1, slotSelfIdup+1
	for _, c := range []*Comm{st.world, st.self} {
		eng.Register(c.pc)
		eng.Register(c.cc)
	}
	return nil
}

// splitMin is the size from which both processes copy a single-copy
// message; that pays only when each has a core of its own.
func splitMin(oversub bool) int {
	if oversub {
		return 0
	}
	return st.settings.size("GOMPI_SPLIT_MIN", 32<<10)
}

// prepareSM configures the shared-memory transport; the node leader creates
// the segment (cfg.Segment says where it is open, the leader's card).
func prepareSM() (sm.Config, error) {
	jobID := os.Getenv("GOMPI_JOBID")
	if jobID == "" {
		jobID = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
				return r
			}
			return '_'
		}, st.pmi.KVSName())
	}
	mode := sm.SingleCopyAuto
	switch st.settings.str("GOMPI_SM_SINGLE_COPY", "auto") {
	case "on", "1", "yes":
		mode = sm.SingleCopyOn
	case "off", "0", "no":
		mode = sm.SingleCopyOff
	}
	getMin := st.settings.size("GOMPI_SM_GET_MIN", 0)
	cfg := sm.Config{JobID: jobID, Me: st.rank, WorldSize: st.size, LocalRanks: st.local,
		RingSize: st.settings.size("GOMPI_SM_RING", 0), SingleCopy: mode,
		GetMinSameSocket:  st.settings.size("GOMPI_SM_GET_MIN_SAME", max(getMin, 0)),
		GetMinCrossSocket: st.settings.size("GOMPI_SM_GET_MIN_CROSS", max(getMin, 0)),
		SlowGetMin:        st.settings.size("GOMPI_SM_SLOW_GET_MIN", 16<<10),
		SharedGetMin:      st.settings.size("GOMPI_SM_SHARED_GET_MIN", 32<<10),
		Dir:               st.settings.str("GOMPI_SM_DIR", ""),
		SameSocket: func(peer int) bool {
			return hitopo.SameSocket(st.topo[st.rank], st.topo[peer])
		}}
	if cfg.GetMinSameSocket == 0 {
		cfg.GetMinSameSocket = defaultGetMinSame
	}
	if cfg.GetMinCrossSocket == 0 {
		cfg.GetMinCrossSocket = defaultGetMinCross
	}
	err := sm.Prepare(&cfg)
	return cfg, err
}

// openSM attaches to the node's segment and routes the node's other ranks
// through it.
func openSM(eng *pml.Engine, cfg sm.Config) error {
	m, err := sm.Open(cfg, eng.Handler())
	if err != nil {
		return err
	}
	st.sm = m
	peers := make([]int, 0, len(st.local))
	for _, r := range st.local {
		if r != st.rank {
			peers = append(peers, r)
		}
	}
	eng.AddTransport(btl.Module(m), peers)
	return nil
}

// eagerRoom: messages of single-copy size go eager while at most this many
// bytes are in flight to the peer (the C fast path applies the same rule).
func eagerRoom() int { return st.settings.size("GOMPI_SM_EAGER_ROOM", 128<<10) }

// Crossovers where single copy beats copy-in/copy-out, used when no tuning
// file says otherwise (measured with gompirun --tune on the CI machines).
const (
	defaultGetMinSame  = 32 << 10
	defaultGetMinCross = 32 << 10
)

// Finalize ends the world model; the runtime stops with it unless a session
// is still open (the last MPI_Session_finalize stops it then).
func Finalize() error {
	if !st.ready || !st.initialized || st.finalized {
		return notReady("MPI_Finalize")
	}
	// The standard: MPI_COMM_SELF's attributes are deleted first, newest
	// first (libraries hang their exit clean-up there).
	if err := FinalizeAttrs(); err != nil {
		return err
	}
	st.finalized = true
	if openSessions == 0 {
		stopRuntime()
	}
	return nil
}

// Abort ends every process of the job with code.
func Abort(c *Comm, code int) error {
	name := "MPI_COMM_WORLD"
	if c != nil {
		name = c.Name()
	}
	msg := fmt.Sprintf("MPI_Abort(%s, %d) called by rank %d", name, code, st.rank)
	fmt.Fprintf(os.Stderr, "gompi: %s\n", msg)
	if st.pmi != nil {
		st.pmi.Abort(code, msg)
	}
	os.Exit(code)
	return nil
}

// Wtime is seconds since an arbitrary fixed point.
func Wtime() float64 { return time.Since(st.start).Seconds() }

// ProcessorName is the host name.
func ProcessorName() string { return st.procName }

// WorldRank and WorldSize of the calling process.
func WorldRank() int { return st.rank }
func WorldSize() int { return st.size }

func onlineCPUs() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return 1
	}
	n := 0
	for _, part := range strings.Split(strings.TrimSpace(string(b)), ",") {
		var a, z int
		if k, _ := fmt.Sscanf(part, "%d-%d", &a, &z); k == 2 {
			n += z - a + 1
		} else {
			n++
		}
	}
	return max(n, 1)
}
