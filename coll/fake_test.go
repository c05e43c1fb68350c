package coll

import (
	"fmt"
	"testing"
	"unsafe"
)

// fakeNet matches sends and receives of size in-process ranks by (src, dst,
// tag) in posting order. A send completes only when a receive matches it
// (rendezvous), so schedules that rely on buffering deadlock here, and the
// data is copied at match time, so a sender that reuses its buffer too early
// is caught.
type fakeNet struct {
	size    int
	sends   map[fkey][]*fakeReq
	recvs   map[fkey][]*fakeReq
	matches int
}

type fkey struct{ src, dst, tag int }

type fakeReq struct {
	buf  unsafe.Pointer
	n    int
	done bool
}

func (r *fakeReq) Done() bool { return r.done }

type fakePort struct {
	net *fakeNet
	me  int
}

func newFakeNet(size int) *fakeNet {
	return &fakeNet{size: size, sends: map[fkey][]*fakeReq{}, recvs: map[fkey][]*fakeReq{}}
}

func (p *fakePort) Isend(buf unsafe.Pointer, n, peer, tag int) Req {
	f := p.net
	if peer < 0 || peer >= f.size || peer == p.me {
		panic(fmt.Sprintf("rank %d sends to %d", p.me, peer))
	}
	k := fkey{p.me, peer, tag}
	s := &fakeReq{buf: buf, n: n}
	if q := f.recvs[k]; len(q) > 0 {
		f.recvs[k] = q[1:]
		f.match(s, q[0])
		return s
	}
	f.sends[k] = append(f.sends[k], s)
	return s
}

func (p *fakePort) Irecv(buf unsafe.Pointer, n, peer, tag int, _ bool) Req {
	f := p.net
	if peer < 0 || peer >= f.size || peer == p.me {
		panic(fmt.Sprintf("rank %d receives from %d", p.me, peer))
	}
	k := fkey{peer, p.me, tag}
	r := &fakeReq{buf: buf, n: n}
	if q := f.sends[k]; len(q) > 0 {
		f.sends[k] = q[1:]
		f.match(q[0], r)
		return r
	}
	f.recvs[k] = append(f.recvs[k], r)
	return r
}

func (p *fakePort) Release(Req) {}

func (f *fakeNet) match(s, r *fakeReq) {
	if s.n != r.n {
		panic(fmt.Sprintf("size mismatch: send %d, receive %d", s.n, r.n))
	}
	if s.n > 0 {
		copy(unsafe.Slice((*byte)(r.buf), r.n), unsafe.Slice((*byte)(s.buf), s.n))
	}
	s.done, r.done = true, true
	f.matches++
}

// run starts one schedule per rank and advances them all until done; it
// fails on a deadlock or on messages left over.
func run(t *testing.T, scheds []*Schedule) {
	t.Helper()
	runTag(t, newFakeNet(len(scheds)), scheds, 7)
}

func runTag(t *testing.T, f *fakeNet, scheds []*Schedule, tag int) {
	t.Helper()
	for i, s := range scheds {
		s.Start(&fakePort{net: f, me: i}, tag)
	}
	for {
		before, all := f.matches, true
		for _, s := range scheds {
			if !s.Advance() {
				all = false
			}
		}
		if all {
			break
		}
		if f.matches == before {
			t.Fatalf("deadlock: no rank can progress")
		}
	}
	for k, q := range f.sends {
		if len(q) > 0 {
			t.Fatalf("unmatched send %v", k)
		}
	}
	for k, q := range f.recvs {
		if len(q) > 0 {
			t.Fatalf("unmatched receive %v", k)
		}
	}
}
