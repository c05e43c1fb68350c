package sm

import (
	"sync/atomic"
	"time"
)

// Bell reads our doorbell: a thread about to release the MULTIPLE lock and
// sleep reads it first, so a ring by a thread that takes the lock after it
// (WakeSelf) is never lost.
func (m *Module) Bell() uint32 { return atomic.LoadUint32(&m.myCtl.doorbell) }

// IdleAfter is Idle from doorbell value v (read by Bell).
func (m *Module) IdleAfter(v uint32, d time.Duration) { m.idleFrom(v, d) }

// WakeSelf rings our own doorbell: another thread of this process completed
// something the sleeping thread may wait for.
func (m *Module) WakeSelf() {
	atomic.AddUint32(&m.myCtl.doorbell, 1)
	futexWake(&m.myCtl.doorbell)
}
