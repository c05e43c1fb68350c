package pml

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"gompi/btl"
)

// fakeNet connects engines inside one process for tests: SendI copies the
// fragment into the destination's inbox, Progress delivers the inbox. It can
// reverse delivery order to exercise out-of-order matching.
type fakeNet struct {
	mu      sync.Mutex
	inbox   [][]frag
	engines []*Engine
	reverse bool // deliver each batch newest first
	get     bool // offer single copy
	room    int  // max queued fragments per inbox (0: unlimited)
	// refusePut makes Put fail (the receiver then reads that part itself).
	refusePut bool
	puts      atomic.Int32 // Put calls (split transfers the sender was asked to write)
}

type frag struct {
	src  int
	tag  uint8
	data []byte
}

type fakeModule struct {
	net *fakeNet
	me  int
}

func newFakeNet(n int, get bool) *fakeNet {
	f := &fakeNet{inbox: make([][]frag, n), get: get}
	for i := 0; i < n; i++ {
		e := New(Config{Me: i, WorldSize: n, EagerLimit: 4096, FragSize: 1000})
		peers := make([]int, n)
		for j := range peers {
			peers[j] = j
		}
		e.AddTransport(&fakeModule{net: f, me: i}, peers)
		f.engines = append(f.engines, e)
	}
	return f
}

func (m *fakeModule) Name() string    { return "fake" }
func (m *fakeModule) EagerLimit() int { return 64 << 10 }
func (m *fakeModule) Close() error    { return nil }
func (m *fakeModule) CanGet(int) bool { return m.net.get }

func (m *fakeModule) PreferredProtocol(int, int) btl.Protocol {
	if m.net.get {
		return btl.ProtoGet
	}
	return btl.ProtoSend
}

func (m *fakeModule) SendI(peer int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool {
	f := m.net
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.room > 0 && len(f.inbox[peer]) >= f.room {
		return false
	}
	d := make([]byte, hdrLen+n)
	copy(d, unsafe.Slice((*byte)(hdr), hdrLen))
	if n > 0 {
		copy(d[hdrLen:], unsafe.Slice((*byte)(payload), n))
	}
	f.inbox[peer] = append(f.inbox[peer], frag{src: m.me, tag: tag, data: d})
	return true
}

func (m *fakeModule) Get(_ int, dst unsafe.Pointer, n int, addr uintptr) error {
	src := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
	return nil
}

// Put writes into the peer's memory (same address space here); it fails
// when the net says puts are refused, to exercise the receiver's fallback.
func (m *fakeModule) Put(_ int, src unsafe.Pointer, n int, addr uintptr) error {
	m.net.puts.Add(1)
	if m.net.refusePut {
		return fmt.Errorf("fake: put refused")
	}
	dst := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
	return nil
}

func (m *fakeModule) Progress() int {
	f := m.net
	f.mu.Lock()
	batch := f.inbox[m.me]
	f.inbox[m.me] = nil
	f.mu.Unlock()
	if f.reverse {
		for i, j := 0, len(batch)-1; i < j; i, j = i+1, j-1 {
			batch[i], batch[j] = batch[j], batch[i]
		}
	}
	h := f.engines[m.me].Handler()
	for _, fr := range batch {
		h(fr.src, fr.tag, fr.data)
	}
	return len(batch)
}

// comms registers one communicator (context 0) on every engine.
func (f *fakeNet) comms() []*Comm {
	n := len(f.engines)
	world := make([]int, n)
	for i := range world {
		world[i] = i
	}
	cs := make([]*Comm, n)
	for i, e := range f.engines {
		cs[i] = NewComm(0, i, world)
		e.Register(cs[i])
	}
	return cs
}

// run executes one function per rank concurrently and waits for all.
func (f *fakeNet) run(fns ...func(e *Engine, c *Comm)) {
	cs := f.comms()
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func(i int, fn func(e *Engine, c *Comm)) {
			defer wg.Done()
			fn(f.engines[i], cs[i])
		}(i, fn)
	}
	wg.Wait()
}
