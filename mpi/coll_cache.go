package mpi

import (
	"unsafe"

	"gompi/datatype"
	"gompi/op"
	"gompi/pml"
)

// Collectives called again with the same arguments (the common case in
// loops) reuse their schedule: building one costs about a microsecond of
// allocation, more than a small collective itself. Blocking and nonblocking
// calls share entries; an entry whose nonblocking run is still in flight is
// not reused (a new schedule is built and takes its place), so one schedule
// never runs twice at once. Persistent requests own their schedules, and
// v-variants (argument arrays) are not cached.
type collKey struct {
	cc         *pml.Comm
	kind       uint8
	sbuf, rbuf unsafe.Pointer
	n1, n2     int
	t1, t2     *datatype.Type
	o          *op.Op
	root       int
}

// Cached collective kinds.
const (
	ckBarrier uint8 = iota + 1
	ckBcast
	ckGather
	ckScatter
	ckAllgather
	ckAlltoall
	ckReduce
	ckAllreduce
	ckScan
	ckExscan
	ckReduceScatterBlock
)

// collCacheMax bounds the cache (entries may hold scratch buffers); when it
// is full it starts over.
const collCacheMax = 64

var collCache = map[collKey]*collOp{}

// collRecent holds the last entry of each kind: a loop calling one
// collective compares one key instead of hashing it.
var collRecent [ckReduceScatterBlock + 1]struct {
	k  collKey
	op *collOp
}

func cacheGet(m CollMode, k *collKey) *collOp {
	if m == Persistent || k == nil {
		return nil
	}
	if r := &collRecent[k.kind]; r.op != nil && r.k == *k {
		if r.op.busy {
			return nil
		}
		return r.op
	}
	op := collCache[*k]
	if op == nil || op.busy {
		return nil
	}
	collRecent[k.kind].k, collRecent[k.kind].op = *k, op
	return op
}

func cachePut(m CollMode, k *collKey, op *collOp) {
	if m == Persistent || k == nil {
		return
	}
	if len(collCache) >= collCacheMax {
		clear(collCache)
		collRecent = [len(collRecent)]struct {
			k  collKey
			op *collOp
		}{}
	}
	collCache[*k] = op
	collRecent[k.kind].k, collRecent[k.kind].op = *k, op
}
