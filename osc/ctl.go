package osc

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"gompi/abi"
)

// MaxRegions is how many memory regions one rank may attach to a dynamic
// window at a time.
const MaxRegions = 256

// Region is one attached range of a dynamic window.
type Region struct{ Base, Size uint64 }

// Ctl is a rank's control block in the window segment. Fields written by
// other ranks sit on their own cache lines. The PSCW post counters, one per
// window rank, follow the struct.
type Ctl struct {
	lock uint64 // readers | writer bit | waiting writers << 32
	_    [56]byte
	mu   uint32 // accumulate mutex for what CPU atomics cannot do
	_    [60]byte
	done uint32 // Win_complete calls received (as a PSCW target)
	_    [60]byte
	gen  uint32 // region table seqlock: odd while the owner writes it
	nreg uint32
	_    [56]byte
	reg  [MaxRegions]Region
}

// CtlSize is the bytes of one control block for a window of n ranks.
func CtlSize(n int) int { return roundUp(int(unsafe.Sizeof(Ctl{}))+4*n, 64) }

// post is the counter target t bumps when it posts to this origin.
func (c *Ctl) post(t int) *uint32 {
	return (*uint32)(unsafe.Add(unsafe.Pointer(c), unsafe.Sizeof(Ctl{})+4*uintptr(t)))
}

// Idle is one step of a wait loop: given the steps so far, it waits a
// little and returns the new count (a value, so wait loops allocate nothing).
type Idle func(spins int) int

// DefaultIdle yields the thread after a short spin (for tests).
func DefaultIdle(spins int) int {
	if spins > 100 {
		runtime.Gosched()
	}
	return spins + 1
}

const (
	readers  = 1<<31 - 1
	writer   = 1 << 31
	waitOne  = 1 << 32
	blockers = ^uint64(readers) // a writer holds or waits
)

// LockShared takes the lock as a reader. Readers wait while a writer holds
// the lock or waits for it, so writers are not starved.
func (c *Ctl) LockShared(idle Idle) {
	for spins := 0; ; spins = idle(spins) {
		v := atomic.LoadUint64(&c.lock)
		if v&blockers == 0 && atomic.CompareAndSwapUint64(&c.lock, v, v+1) {
			return
		}
	}
}

// UnlockShared releases a reader's hold.
func (c *Ctl) UnlockShared() { atomic.AddUint64(&c.lock, ^uint64(0)) }

// LockExclusive takes the lock as the only writer; announcing itself first
// keeps new readers out while the current ones finish.
func (c *Ctl) LockExclusive(idle Idle) {
	atomic.AddUint64(&c.lock, waitOne)
	for spins := 0; ; spins = idle(spins) {
		v := atomic.LoadUint64(&c.lock)
		if v&(writer|readers) == 0 && atomic.CompareAndSwapUint64(&c.lock, v, v-waitOne+writer) {
			return
		}
	}
}

// UnlockExclusive releases the writer's hold.
func (c *Ctl) UnlockExclusive() { atomic.AddUint64(&c.lock, ^uint64(writer-1)) }

// Lock takes the accumulate mutex.
func (c *Ctl) Lock(idle Idle) {
	for spins := 0; !atomic.CompareAndSwapUint32(&c.mu, 0, 1); spins = idle(spins) {
	}
}

// Unlock releases the accumulate mutex.
func (c *Ctl) Unlock() { atomic.StoreUint32(&c.mu, 0) }

// Attach records [base, base+size) in the owner's region table.
func (c *Ctl) Attach(base, size uint64) *Error {
	n := atomic.LoadUint32(&c.nreg)
	for i := uint32(0); i < n; i++ {
		r := c.reg[i]
		if base < r.Base+r.Size && r.Base < base+size {
			return errf(abi.ErrRmaAttach, "the region overlaps one already attached")
		}
	}
	if n == MaxRegions {
		return errf(abi.ErrRmaAttach, "too many regions attached (the limit is 256)")
	}
	atomic.AddUint32(&c.gen, 1)
	atomic.StoreUint64(&c.reg[n].Base, base)
	atomic.StoreUint64(&c.reg[n].Size, size)
	atomic.StoreUint32(&c.nreg, n+1)
	atomic.AddUint32(&c.gen, 1)
	return nil
}

// Detach removes the region starting at base.
func (c *Ctl) Detach(base uint64) *Error {
	n := atomic.LoadUint32(&c.nreg)
	for i := uint32(0); i < n; i++ {
		if c.reg[i].Base == base {
			atomic.AddUint32(&c.gen, 1)
			last := c.reg[n-1]
			atomic.StoreUint64(&c.reg[i].Base, last.Base)
			atomic.StoreUint64(&c.reg[i].Size, last.Size)
			atomic.StoreUint32(&c.nreg, n-1)
			atomic.AddUint32(&c.gen, 1)
			return nil
		}
	}
	return errf(abi.ErrRmaAttach, "no region is attached at this address")
}

// Regions is the number of attached regions.
func (c *Ctl) Regions() int { return int(atomic.LoadUint32(&c.nreg)) }

// Covers reports whether [addr, addr+n) lies in one attached region, read
// consistently while the owner may be changing the table.
func (c *Ctl) Covers(addr, n uint64, idle Idle) bool {
	for spins := 0; ; spins = idle(spins) {
		g := atomic.LoadUint32(&c.gen)
		if g&1 != 0 {
			continue
		}
		found := false
		m := atomic.LoadUint32(&c.nreg)
		for i := uint32(0); i < m && i < MaxRegions; i++ {
			b, s := atomic.LoadUint64(&c.reg[i].Base), atomic.LoadUint64(&c.reg[i].Size)
			if addr >= b && addr-b <= s && n <= s-(addr-b) {
				found = true
				break
			}
		}
		if atomic.LoadUint32(&c.gen) == g {
			return found
		}
	}
}
