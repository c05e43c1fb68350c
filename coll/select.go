package coll

// Kind names a collective for algorithm selection (GOMPI_COLL_<Kind>).
type Kind string

const (
	KBarrier       Kind = "BARRIER"
	KBcast         Kind = "BCAST"
	KReduce        Kind = "REDUCE"
	KAllreduce     Kind = "ALLREDUCE"
	KGather        Kind = "GATHER"
	KScatter       Kind = "SCATTER"
	KAllgather     Kind = "ALLGATHER"
	KAlltoall      Kind = "ALLTOALL"
	KReduceScatter Kind = "REDUCE_SCATTER"
	KScan          Kind = "SCAN"
)

// Algorithms lists the algorithms of each collective (the first is a safe
// default); a forced setting outside the list is ignored.
var Algorithms = map[Kind][]string{
	KBarrier:       {BarrierDissemination, BarrierLinear},
	KBcast:         {BcastBinomial, BcastPipeline, BcastLinear, BcastScatterAllgather},
	KReduce:        {ReduceBinomial, ReduceLinear},
	KAllreduce:     {AllreduceRecursiveDoubling, AllreduceRabenseifner, AllreduceRing, AllreduceReduceBcast, AllreduceLinear},
	KGather:        {GatherLinear, GatherBinomial},
	KScatter:       {GatherLinear, GatherBinomial},
	KAllgather:     {AllgatherRing, AllgatherBruck, AllgatherRecursiveDoubling, AllgatherLinear},
	KAlltoall:      {AlltoallLinear, AlltoallPairwise},
	KReduceScatter: {ReduceScatterReduceScatterv, ReduceScatterRing, ReduceScatterLinear},
	KScan:          {ScanRecursiveDoubling, ScanLinear},
}

// Valid reports whether alg is an algorithm of k.
func Valid(k Kind, alg string) bool {
	for _, a := range Algorithms[k] {
		if a == alg {
			return true
		}
	}
	return false
}

// Oversubscribed is set when ranks outnumber cores: every round of a
// schedule then waits for the peers to be scheduled, so small collectives
// prefer one round of direct exchanges to log(size) dependent rounds.
var Oversubscribed bool

// Choose picks an algorithm by communicator size and message size (bytes per
// rank's contribution, or the whole vector for reductions).
func Choose(k Kind, size, bytes int, commute bool) string {
	if Oversubscribed && size > 2 && size <= 8 {
		switch k {
		case KAllgather:
			// medians of 5 runs, 4 ranks on 2 cores, 256 KiB / 1 MiB blocks:
			// linear 169 / 664 us, ring 259 / 933, recursive doubling 300 / 1032
			return AllgatherLinear
		case KReduceScatter:
			if bytes <= 16<<10*size {
				return ReduceScatterLinear
			}
		case KGather, KScatter:
			return GatherLinear
		case KBcast:
			// the root's readers copy at once, whoever is scheduled (medians
			// of 5 runs, 4 ranks, 64 KiB / 1 MiB: linear 20 / 194 us,
			// binomial 22 / 227, pipeline 31 / 426; 8 ranks 54 / 542 against
			// binomial 68 / 613)
			return BcastLinear
		case KAllreduce:
			if bytes <= 8<<10 { // measured no better than Rabenseifner at 16-64 KiB
				return AllreduceLinear
			}
		case KReduce:
			if bytes <= 8<<10 {
				return ReduceLinear
			}
		}
	}
	switch k {
	case KBcast:
		switch {
		case size <= 2 || bytes <= 32<<10:
			return BcastBinomial
		case size >= 4 && bytes >= 256<<10:
			return BcastScatterAllgather
		}
		return BcastPipeline
	case KAllreduce:
		if commute && bytes > 16<<10 {
			return AllreduceRabenseifner // half the data and half the reduction of recursive doubling, even at 2 ranks
		}
		return AllreduceRecursiveDoubling
	case KGather, KScatter:
		if size > 2 && bytes <= 4<<10 {
			return GatherBinomial
		}
		return GatherLinear
	case KAllgather:
		switch {
		case size&(size-1) == 0 && bytes*size <= 64<<10:
			return AllgatherRecursiveDoubling
		case bytes*size <= 32<<10:
			return AllgatherBruck
		}
		return AllgatherRing
	case KAlltoall:
		if size > 8 && bytes >= 4<<10 {
			return AlltoallPairwise
		}
		return AlltoallLinear
	case KReduceScatter:
		switch {
		case size <= 8 && bytes <= 4<<10*size:
			return ReduceScatterLinear // one round instead of a reduce then a scatter
		case commute && bytes > 16<<10:
			return ReduceScatterRing
		}
		return ReduceScatterReduceScatterv
	}
	return Algorithms[k][0]
}
