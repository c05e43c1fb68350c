package coll

// Alltoall algorithms.
const (
	AlltoallLinear   = "linear"   // everything posted at once
	AlltoallPairwise = "pairwise" // size-1 rounds of one exchange each
)

// Alltoall builds an exchange where rank me sends sb's block r to rank r and
// receives rank r's block into rb's block r (the v and w variants included:
// the caller fills the layouts).
func Alltoall(size, me int, sb, rb Blocks, alg string) *Schedule {
	b := newBuilder(nil)
	if alg == AlltoallPairwise {
		for s := 1; s < size; s++ {
			to, from := (me+s)%size, (me-s+size)%size
			if size&(size-1) == 0 {
				to, from = me^s, me^s
			}
			rp, rk := rb.At(from)
			sp, sk := sb.At(to)
			b.recv(from, rp, rk)
			b.send(to, sp, sk)
			b.round()
		}
	} else {
		for s := 1; s < size; s++ {
			from := (me - s + size) % size
			rp, rk := rb.At(from)
			b.recv(from, rp, rk)
		}
		for s := 1; s < size; s++ {
			to := (me + s) % size
			sp, sk := sb.At(to)
			b.send(to, sp, sk)
		}
	}
	sp, sk := sb.At(me)
	rp, _ := rb.At(me)
	b.copyEarly(rp, sp, sk)
	return b.done()
}
