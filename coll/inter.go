package coll

import "unsafe"

// Intercommunicator collectives. Steps on net 0 address the remote group
// (the intercommunicator's own context); steps on net 1 run inside the local
// group (its intracommunicator), so a run needs Start2. Local rank 0 of each
// group is its leader.

// Side is a rank's part in a rooted intercommunicator collective.
type Side uint8

const (
	SideRecv Side = iota // in the group without the root; root names a remote rank
	SideRoot             // the root (MPI_ROOT)
	SideIdle             // in the root's group but not the root (MPI_PROC_NULL)
)

// InterBarrier: a local barrier, the leaders swap a message, a second local
// barrier releases everyone once the other group has entered.
func InterBarrier(lsize, lr int) *Schedule {
	b := newBuilder(nil)
	b.net = 1
	barrierSteps(b, lsize, lr, BarrierDissemination)
	if lr == 0 {
		b.net = 0
		b.keepZero = true
		b.recv(0, nil, 0)
		b.send(0, nil, 0)
		b.round()
		b.keepZero = false
		b.net = 1
	}
	barrierSteps(b, lsize, lr, BarrierDissemination)
	return b.done()
}

// InterBcast: the root sends to the remote leader, which broadcasts locally.
func InterBcast(lsize, lr int, side Side, root int, buf unsafe.Pointer, n int) *Schedule {
	b := newBuilder(nil)
	switch side {
	case SideRoot:
		b.send(0, buf, n)
	case SideRecv:
		if lr == 0 {
			b.recv(root, buf, n)
			b.round()
		}
		b.net = 1
		bcastBinomial(b, lsize, lr, 0, buf, n)
	}
	return b.done()
}

// InterGather: every remote rank sends n bytes to the root, which lays them
// out in rb (one block per remote rank).
func InterGather(side Side, root int, sbuf unsafe.Pointer, n int, rb Blocks) *Schedule {
	b := newBuilder(nil)
	switch side {
	case SideRoot:
		for r := range rb.Count {
			p, k := rb.At(r)
			b.recv(r, p, k)
		}
	case SideRecv:
		b.send(root, sbuf, n)
	}
	return b.done()
}

// InterScatter: the root sends block r of sb to remote rank r.
func InterScatter(side Side, root int, sb Blocks, rbuf unsafe.Pointer, n int) *Schedule {
	b := newBuilder(nil)
	switch side {
	case SideRoot:
		for r := range sb.Count {
			p, k := sb.At(r)
			b.send(r, p, k)
		}
	case SideRecv:
		b.recv(root, rbuf, n)
	}
	return b.done()
}

// InterReduce: the group without the root reduces to its leader (in rank
// order), which sends the result to the root.
func InterReduce(lsize, lr int, side Side, root int, d Data) *Schedule {
	b := newBuilder(d.Fn)
	n := d.bytes()
	if n == 0 {
		return b.done()
	}
	switch side {
	case SideRoot:
		b.recv(0, d.Rbuf, n)
	case SideRecv:
		t := localReduce(b, lsize, lr, d)
		if lr == 0 {
			b.net = 0
			b.send(root, t, n)
		}
	}
	return b.done()
}

// localReduce reduces Sbuf over the local group into scratch at the leader
// and returns it (nil elsewhere).
func localReduce(b *builder, lsize, lr int, d Data) unsafe.Pointer {
	var t unsafe.Pointer
	if lr == 0 {
		t = b.scratch(d.bytes())
	}
	dd := d
	dd.Rbuf = t
	b.net = 1
	reduceBinomial(b, lsize, lr, 0, dd)
	b.round()
	return t
}

// InterAllreduce: each group reduces to its leader, the leaders swap, and
// each leader broadcasts the other group's result locally.
func InterAllreduce(lsize, lr int, d Data) *Schedule {
	b := newBuilder(d.Fn)
	n := d.bytes()
	if n == 0 {
		return b.done()
	}
	t := localReduce(b, lsize, lr, d)
	if lr == 0 {
		b.net = 0
		b.send(0, t, n)
		b.recv(0, d.Rbuf, n)
		b.round()
	}
	b.net = 1
	bcastBinomial(b, lsize, lr, 0, d.Rbuf, n)
	return b.done()
}

// InterReduceScatter: each group reduces its vector (d.Count elements) to
// its leader, the leaders swap, and each scatters the other group's result
// over its own group by counts (elements per local rank).
func InterReduceScatter(lsize, lr int, d Data, counts []int) *Schedule {
	b := newBuilder(d.Fn)
	n := d.bytes()
	if n == 0 {
		return b.done()
	}
	t := localReduce(b, lsize, lr, d)
	var u unsafe.Pointer
	if lr == 0 {
		u = b.scratch(n)
		b.net = 0
		b.send(0, t, n)
		b.recv(0, u, n)
		b.round()
	}
	bl := Blocks{Buf: u, Count: make([]int, lsize), Displ: make([]int, lsize)}
	off := 0
	for i, c := range counts {
		bl.Count[i], bl.Displ[i] = c*d.Ext, off
		off += c * d.Ext
	}
	b.net = 1
	scatterLinear(b, lsize, lr, 0, bl, d.Rbuf, bl.Count[lr])
	return b.done()
}
