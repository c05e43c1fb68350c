package mpi

import (
	"os"
	"strings"

	"gompi/abi"
	"gompi/coll"
	"gompi/mpit"
	"gompi/pml"
	"gompi/shmcoll"
)

// The MPI_T variables of the runtime: every GOMPI_* setting the library
// reads is a control variable, and the pml and shared-memory collective
// counters are performance variables. Settings are read at MPI_Init, so a
// control variable is writable only before it (a write is the same as the
// environment variable set then: it wins over the tuning file); after Init
// it shows the value in effect.

// FastCounters reports what the C side counts itself: messages and bytes
// its fast path sent, receives queued in its own queues, and shared-memory
// collectives per kind (set by capi).
var FastCounters = struct {
	Sends, SendBytes func() uint64
	Posted           func() int64
	ShmCalls         func(kind int) uint64
}{
	func() uint64 { return 0 }, func() uint64 { return 0 },
	func() int64 { return 0 }, func(int) uint64 { return 0 },
}

// setting is the value of a GOMPI_* setting ("" unset): the one in effect
// after MPI_Init, else what Init would read now.
func setting(key string) string {
	if st.initialized {
		return st.settings[key]
	}
	return loadSettings()[key]
}

func setSetting(key string) func(string) int {
	return func(v string) int {
		if st.initialized {
			return abi.TErrCvarSetNever // read once at MPI_Init
		}
		if err := os.Setenv(key, v); err != nil {
			return abi.TErrInvalid
		}
		return 0
	}
}

const (
	catRoot     = "gompi"
	catPt2pt    = "gompi_pt2pt"
	catSM       = "gompi_sm"
	catColl     = "gompi_coll"
	catRuntime  = "gompi_runtime"
	catQueues   = "gompi_queues"
	catProgress = "gompi_progress"
)

type cvarDef struct {
	name, def, desc string
	scope           int
	str             bool
	enum            *mpit.Enum
	cat             string
	fixed           bool // read before MPI_T can act (or set by the launcher)
}

var singleCopyEnum = &mpit.Enum{Name: "GOMPI_SM_SINGLE_COPY", Items: []string{"auto", "on", "off"}}

func init() {
	mpit.AddCategory(catRoot, "gompi, an MPI library in Go", "")
	mpit.AddCategory(catPt2pt, "point-to-point protocols (pml)", catRoot)
	mpit.AddCategory(catSM, "the shared-memory transport (btl/sm)", catRoot)
	mpit.AddCategory(catColl, "collective algorithms and shared-memory collectives", catRoot)
	mpit.AddCategory(catRuntime, "startup, fast paths and diagnostics", catRoot)
	mpit.AddCategory(catQueues, "matching queues", catPt2pt)
	mpit.AddCategory(catProgress, "waiting for completion", catRoot)

	l, a, ro := abi.TScopeLocal, abi.TScopeAllEq, abi.TScopeReadonly
	defs := []cvarDef{
		{name: "GOMPI_EAGER_LIMIT", def: "65536", desc: "largest message payload sent eagerly, in bytes (capped by each transport); k/m/g suffixes", scope: l, cat: catPt2pt},
		{name: "GOMPI_FRAG_SIZE", def: "131072", desc: "payload of one fragment of a pipelined rendezvous, in bytes", scope: l, cat: catPt2pt},
		{name: "GOMPI_SPLIT_MIN", def: "32768", desc: "from this size both processes copy a single-copy message (sender writes half) unless the sender is busy; 0 turns it off", scope: l, cat: catPt2pt},
		{name: "GOMPI_YIELDS", def: "2000", desc: "oversubscribed: yields of the core before a wait sleeps", scope: l, cat: catProgress},
		{name: "GOMPI_YIELD", def: "0", desc: "1: waits give the core away as if processes outnumbered cores", scope: l, cat: catProgress},
		{name: "GOMPI_SM_RING", def: "0", desc: "bytes of each shared-memory ring (0: chosen by the number of local processes)", scope: a, cat: catSM},
		{name: "GOMPI_SM_SINGLE_COPY", def: "auto", desc: "single-copy transfers between processes (process_vm_readv): auto, on or off", scope: l, enum: singleCopyEnum, cat: catSM},
		{name: "GOMPI_SM_GET_MIN", def: "0", desc: "single-copy crossover for both same- and cross-socket peers, in bytes (0: the defaults below)", scope: l, cat: catSM},
		{name: "GOMPI_SM_GET_MIN_SAME", def: "32768", desc: "from this size a message to a peer on the same socket goes by single copy", scope: l, cat: catSM},
		{name: "GOMPI_SM_GET_MIN_CROSS", def: "32768", desc: "from this size a message to a peer on another socket goes by single copy", scope: l, cat: catSM},
		{name: "GOMPI_SM_SLOW_GET_MIN", def: "16384", desc: "from this size copies into a ring are timed and slow ones move messages to single copy; 0 turns the timing off", scope: l, cat: catSM},
		{name: "GOMPI_SM_SHARED_GET_MIN", def: "32768", desc: "a send buffer in the shared heap goes by single copy from this size when other messages are in flight; 0 never", scope: l, cat: catSM},
		{name: "GOMPI_SM_EAGER_ROOM", def: "131072", desc: "a single-copy-sized message still goes eager while at most this many bytes are in flight to its peer; 0 no limit", scope: l, cat: catSM},
		{name: "GOMPI_SM_PAIR", def: "1", desc: "0: processes of other jobs on this node (spawn, accept/connect, join) talk over sockets instead of a shared-memory pair each", scope: l, cat: catSM},
		{name: "GOMPI_SM_PAIR_RING", def: "524288", desc: "bytes of each ring of a shared-memory pair with a process of another job (a power of two)", scope: l, cat: catSM},
		{name: "GOMPI_SHARED_HEAP", def: "1", desc: "0: large allocations come from glibc, not the shared heap peers can read (read when the heap opens, before MPI_T can act)", scope: ro, cat: catSM, fixed: true},
		{name: "GOMPI_SHM_COLL", def: "1", desc: "0: no shared-memory collectives", scope: a, cat: catColl},
		{name: "GOMPI_SHM_SPIN_MAX", def: "4096", desc: "oversubscribed: pauses a shared-memory collective wait may spend while the ranks it waits for run on other CPUs; 0 always yields", scope: l, cat: catColl},
		{name: "GOMPI_COLL_BCAST_SEGMENT", def: "32768", desc: "segment of the pipelined broadcast, in bytes", scope: a, cat: catColl},
		{name: "GOMPI_COLL_HIER", def: "1", desc: "0: no node-aware collectives on communicators that span nodes", scope: a, cat: catColl},
		{name: "GOMPI_COLL_HIER_SEGMENT", def: "65536", desc: "across nodes, a broadcast or commutative allreduce of at least 4 of these goes down a pipeline of all ranks in node order; 0 never", scope: a, cat: catColl},
		{name: "GOMPI_COLL_FAKE_NODES", def: "0", desc: "testing: collectives see the job's ranks on this many virtual nodes (by block), the transport stays as it is; 0 uses the real node map", scope: a, cat: catColl},
		{name: "GOMPI_COLL_FAKE_CYCLIC", def: "0", desc: "testing: 1 places ranks on GOMPI_COLL_FAKE_NODES cyclically (rank r on node r mod K)", scope: a, cat: catColl},
		{name: "GOMPI_COLL_VERBOSE", def: "0", desc: "1: print each collective algorithm choice once", scope: l, cat: catColl},
		{name: "GOMPI_FASTPATH", def: "1", desc: "0: no C fast paths (every call crosses into Go)", scope: l, cat: catRuntime},
		{name: "GOMPI_FASTPATH_NET", def: "1", desc: "0: small blocking sends and receives to ranks of other nodes cross into Go instead of using the network endpoint from C", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_FRESHTICK", def: "1", desc: "0: waits never let Go's scheduler run them afresh (then Go's monitor thread wakes every 20 us for stretches, preempting ranks that spin)", scope: ro, cat: catRuntime, fixed: true},
		{name: "GOMPI_MODEX_DEBUG", def: "0", desc: "1: print the modex statistics of each rank at MPI_Init", scope: l, cat: catRuntime},
		{name: "GOMPI_TUNE_FILE", def: "", desc: "file of KEY=value settings (written by gompirun --tune); the environment wins over it", scope: l, str: true, cat: catRuntime},
		{name: "GOMPI_JOBID", def: "", desc: "job identifier the launcher sets (names the shared-memory segment)", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_SM_DIR", def: "", desc: "directory (a tmpfs such as /dev/shm) for the node's shared segment, bounded by that mount; empty: a memfd", scope: ro, str: true, cat: catSM, fixed: true},
		{name: "GOMPI_CRASH_REPORT", def: "1", desc: "0: no gompi report (signal, address, faulting frame) when a rank crashes", scope: ro, cat: catRuntime, fixed: true},
		{name: "GOMPI_NODE_SPLIT", def: "", desc: "count ranks of this machine as different nodes: \"rank\" one node per rank, a number k ranks per node (the network transport then carries their traffic)", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_PROVIDER", def: "", desc: "libfabric provider of the network transport (e.g. \"tcp;ofi_rxm\"); empty: the first reliable-datagram provider that is not node-local (net in place of tcp;ofi_rxm)", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_DOMAIN", def: "", desc: "libfabric domain of the network transport (the interface for tcp, e.g. eth0); empty: an IPv4 or native address off the loopback (lo when GOMPI_NODE_SPLIT is set)", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_BUFFER", def: "66048", desc: "bytes of each send and receive buffer of the network transport: its largest frame (the eager limit there)", scope: ro, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_READ", def: "1", desc: "0: no receiver-driven reads (fi_read) for large messages on the network: pipelined fragments", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_READ_CHUNK", def: "262144", desc: "bytes of one fi_read: larger network reads are split into chunks of this size", scope: ro, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_READS", def: "64", desc: "read chunks (of all messages) at the network provider at once", scope: ro, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_READ_MIN", def: "65537", desc: "messages from this many bytes go by fi_read on the network where the provider offers RMA", scope: ro, cat: catRuntime, fixed: true},
		{name: "GOMPI_OFI_INJECT", def: "1", desc: "0: no fi_inject for small network frames (each takes a send buffer and a completion)", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_PARENT_PORT", def: "", desc: "port of the parent job the launcher gives spawned processes (MPI_Comm_get_parent)", scope: ro, str: true, cat: catRuntime, fixed: true},
		{name: "GOMPI_APPNUM", def: "", desc: "application number the launcher gives spawned processes (MPI_APPNUM)", scope: ro, str: true, cat: catRuntime, fixed: true},
	}
	for _, k := range []struct{ kind, over, bound string }{
		{"ALLREDUCE", "65536", "4096"}, {"REDUCE", "262144", "4096"},
		{"REDUCE_SCATTER", "262144", "4096"}, {"BCAST", "65537", "65537"},
	} {
		defs = append(defs,
			cvarDef{name: "GOMPI_SHM_DIRECT_" + k.kind, def: k.over, desc: "oversubscribed: from this size a shared-memory " + strings.ToLower(k.kind) + " reads peers' buffers directly; 0 never", scope: a, cat: catColl},
			cvarDef{name: "GOMPI_SHM_DIRECT_" + k.kind + "_BOUND", def: k.bound, desc: "a core per rank: from this size a shared-memory " + strings.ToLower(k.kind) + " reads peers' buffers directly; 0 never", scope: a, cat: catColl})
	}
	for _, k := range []coll.Kind{coll.KBarrier, coll.KBcast, coll.KReduce, coll.KAllreduce, coll.KGather,
		coll.KScatter, coll.KAllgather, coll.KAlltoall, coll.KReduceScatter, coll.KScan} {
		items := append([]string{"auto"}, coll.Algorithms[k]...)
		if k != coll.KGather && k != coll.KScatter && k != coll.KScan {
			items = append(items, "shm")
		}
		name := "GOMPI_COLL_" + string(k)
		defs = append(defs, cvarDef{name: name, def: "auto", desc: "force the algorithm of " + strings.ToLower(string(k)) + " (auto: chosen by size)",
			scope: a, enum: &mpit.Enum{Name: name, Items: items}, cat: catColl})
	}
	for _, d := range defs {
		key := d.name
		v := &mpit.Cvar{Name: d.name, Desc: d.desc, Verbosity: abi.TVerbosityTunerBasic, Scope: d.scope, Str: d.str,
			Enum: d.enum, Default: d.def, Category: d.cat, Get: func() string { return setting(key) }}
		if !d.fixed {
			v.Set = setSetting(key)
		}
		mpit.AddCvar(v)
	}
	addPvars()
}

func counters() *pml.Counters {
	if st.eng == nil {
		return &noCounters
	}
	return &st.eng.Counters
}

var noCounters pml.Counters

// shmCalls gathers the shared-memory collective calls of every communicator.
var shmCalls shmcoll.Calls

func addPvars() {
	cnt, lvl, hwm := abi.TPvarClassCounter, abi.TPvarClassLevel, abi.TPvarClassHighwatermark
	add := func(name, desc string, class int, cat string, read func() uint64) {
		mpit.AddPvar(&mpit.Pvar{Name: name, Desc: desc, Verbosity: abi.TVerbosityTunerBasic, Class: class, Category: cat, Read: read})
	}
	add("pt2pt_immediate_msgs", "messages sent by the immediate protocol (header and data in one transport call, no request; C fast path included)", cnt, catPt2pt,
		func() uint64 { return counters().Immediate + FastCounters.Sends() })
	add("pt2pt_c_fastpath_msgs", "messages sent by the C fast path (no Go call), a part of pt2pt_immediate_msgs", cnt, catPt2pt,
		func() uint64 { return FastCounters.Sends() })
	add("pt2pt_immediate_bytes", "bytes sent by the immediate protocol", cnt, catPt2pt,
		func() uint64 { return counters().ImmediateBytes + FastCounters.SendBytes() })
	add("pt2pt_eager_msgs", "messages sent eagerly with a request (counted by the sender)", cnt, catPt2pt, func() uint64 { return counters().Eager })
	add("pt2pt_eager_bytes", "bytes sent eagerly with a request", cnt, catPt2pt, func() uint64 { return counters().EagerBytes })
	add("pt2pt_rndv_get_msgs", "rendezvous messages received by single copy (get; split copies included)", cnt, catPt2pt, func() uint64 { return counters().RndvGet })
	add("pt2pt_rndv_get_bytes", "bytes received by single copy", cnt, catPt2pt, func() uint64 { return counters().RndvGetBytes })
	add("pt2pt_split_copy_msgs", "single-copy messages whose sender was asked to write half", cnt, catPt2pt, func() uint64 { return counters().SplitAsked })
	add("pt2pt_split_copy_bytes", "bytes of split single-copy messages", cnt, catPt2pt, func() uint64 { return counters().SplitBytes })
	add("pt2pt_pipelined_msgs", "rendezvous messages received as pipelined fragments (copy in, copy out)", cnt, catPt2pt, func() uint64 { return counters().RndvPipe })
	add("pt2pt_pipelined_bytes", "bytes received as pipelined fragments", cnt, catPt2pt, func() uint64 { return counters().RndvPipeBytes })
	add("pt2pt_partitioned_runs", "runs of ready partitions sent (partitioned communication)", cnt, catPt2pt, func() uint64 { return counters().PartRuns })
	add("pt2pt_partitioned_bytes", "bytes of partitioned sends", cnt, catPt2pt, func() uint64 { return counters().PartBytes })
	add("pt2pt_unexpected_msgs", "messages that arrived before a matching receive was posted (Go engine)", cnt, catQueues, func() uint64 { return counters().Unexpected })
	add("pt2pt_out_of_order_msgs", "messages that arrived ahead of their sequence number", cnt, catQueues, func() uint64 { return counters().OutOfOrder })
	add("queue_unexpected_length", "messages waiting in the unexpected queues now", lvl, catQueues, func() uint64 { return uint64(max(counters().Queues.Unexp, 0)) })
	add("queue_unexpected_peak", "the most messages the unexpected queues ever held", hwm, catQueues, func() uint64 { return uint64(max(counters().Queues.UnexpPeak, 0)) })
	add("queue_posted_length", "receives posted and not yet matched now (C fast path queues included)", lvl, catQueues,
		func() uint64 { return uint64(max(counters().Queues.Posted+FastCounters.Posted(), 0)) })
	add("dyn_sm_pair_frags", "fragments sent to processes of other jobs through shared-memory pairs", cnt, catSM, func() uint64 { return dynCount(true, false) })
	add("dyn_sm_pair_bytes", "payload bytes sent to processes of other jobs through shared-memory pairs", cnt, catSM, func() uint64 { return dynCount(true, true) })
	add("dyn_sock_frags", "fragments sent to processes of other jobs through sockets", cnt, catSM, func() uint64 { return dynCount(false, false) })
	add("dyn_sock_bytes", "payload bytes sent to processes of other jobs through sockets", cnt, catSM, func() uint64 { return dynCount(false, true) })
	kinds := []string{"barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "reduce_scatter"}
	for k, name := range kinds {
		add("shm_coll_"+name+"_slots", "blocking "+name+" calls run through shared-memory slots (C side included; a large reduction counts per piece)", cnt, catColl,
			func() uint64 { return shmCalls[shmcoll.AlgSlots][k] + FastCounters.ShmCalls(k) })
		if k != shmBarrier { // a barrier has no data to read
			add("shm_coll_"+name+"_direct", "blocking "+name+" calls run by reading peers' buffers directly", cnt, catColl,
				func() uint64 { return shmCalls[shmcoll.AlgDirect][k] })
		}
	}
	add("shm_coll_c_calls", "blocking collectives the library's C side ran through shared-memory slots without entering Go (every kind)", cnt, catColl,
		func() uint64 {
			var n uint64
			for k := range kinds {
				n += FastCounters.ShmCalls(k)
			}
			return n
		})
	mpit.AddPvar(&mpit.Pvar{Name: "wait_time", Desc: "seconds spent blocked in MPI_Wait and blocking point-to-point calls (measured only while a handle is started)",
		Verbosity: abi.TVerbosityTunerBasic, Class: abi.TPvarClassTimer, Category: catProgress,
		Read:   func() uint64 { return counters().WaitNanos },
		Timing: func(on bool) { pml.TimeWaits = on }})
}

// dynCount reads the dynamic-process transports' counters (0 before any
// spawn, accept, connect or join).
func dynCount(pair, bytes bool) uint64 {
	var frags, n uint64
	if pair && dyn.pairs != nil {
		frags, n = dyn.pairs.Frags, dyn.pairs.Bytes
	} else if !pair && dyn.sock != nil {
		frags, n = dyn.sock.Frags, dyn.sock.Bytes
	}
	if bytes {
		return n
	}
	return frags
}
