package coll

// Barrier algorithms.
const (
	BarrierDissemination = "dissemination"
	BarrierLinear        = "linear"
)

// Barrier builds a barrier among n ranks.
func Barrier(n, me int, alg string) *Schedule {
	b := newBuilder(nil)
	barrierSteps(b, n, me, alg)
	return b.done()
}

func barrierSteps(b *builder, n, me int, alg string) {
	keep := b.keepZero
	b.keepZero = true
	defer func() { b.keepZero = keep }()
	switch alg {
	case BarrierLinear: // everyone reports to 0, 0 releases everyone
		if me == 0 {
			for p := 1; p < n; p++ {
				b.recv(p, nil, 0)
			}
			b.round()
			for p := 1; p < n; p++ {
				b.send(p, nil, 0)
			}
		} else {
			b.send(0, nil, 0)
			b.round()
			b.recv(0, nil, 0)
		}
	default: // log2(n) rounds: hear from me-k, tell me+k
		for k := 1; k < n; k <<= 1 {
			b.recv((me-k+n)%n, nil, 0)
			b.send((me+k)%n, nil, 0)
			b.round()
		}
	}
	b.round()
}
