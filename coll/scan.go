package coll

// Scan algorithms.
const (
	ScanRecursiveDoubling = "recursive_doubling" // order-preserving
	ScanLinear            = "linear"             // a chain through the ranks
)

// Scan builds an inclusive (exclusive when excl) prefix reduction; Sbuf ==
// Rbuf means in place. With excl, Rbuf at rank 0 is left untouched.
func Scan(size, me int, d Data, excl bool, alg string) *Schedule {
	b := newBuilder(d.Fn)
	n := d.bytes()
	if n == 0 {
		return b.done()
	}
	if alg == ScanLinear {
		// rank r gets the prefix of ranks < r, forwards prefix including r
		tmp := b.scratch(n)
		part := b.scratch(n)
		b.copy(part, d.Sbuf, n)
		if me > 0 {
			b.recv(me-1, tmp, n)
			if excl {
				b.copy(d.Rbuf, tmp, n)
			}
			b.reduce(tmp, part, d.Count)
			b.round()
		}
		if !excl {
			b.copy(d.Rbuf, part, n)
		}
		if me < size-1 {
			b.send(me+1, part, n)
		}
		return b.done()
	}
	// part covers the aligned group of ranks around me seen so far
	part, tmp := b.scratch(n), b.scratch(n)
	b.copy(part, d.Sbuf, n)
	if !excl {
		b.copy(d.Rbuf, d.Sbuf, n)
	}
	have := false // exclusive: Rbuf holds something yet
	for mask := 1; mask < size; mask <<= 1 {
		dst := me ^ mask
		if dst >= size {
			continue
		}
		b.send(dst, part, n)
		b.recv(dst, tmp, n)
		if dst < me {
			if excl {
				if have {
					b.reduce(tmp, d.Rbuf, d.Count)
				} else {
					b.copy(d.Rbuf, tmp, n)
					have = true
				}
			} else {
				b.reduce(tmp, d.Rbuf, d.Count)
			}
			b.reduce(tmp, part, d.Count)
		} else if d.Commute {
			b.reduce(tmp, part, d.Count)
		} else {
			b.reduce(part, tmp, d.Count)
			part, tmp = tmp, part
		}
		b.round()
	}
	return b.done()
}
