package mpi

// barrier is a dissemination barrier on the collective context: log2(n)
// rounds of zero-byte messages. Collectives proper live in coll/.
func barrier(c *Comm) {
	n, me := c.size, c.rank
	for k := 1; k < n; k <<= 1 {
		r := st.eng.Irecv(c.cc, nil, 0, (me-k+n)%n, 0)
		st.eng.Send(c.cc, nil, 0, (me+k)%n, 0, 0)
		st.eng.Wait(r)
		st.eng.Release(r)
	}
}

// Barrier blocks until every process of c has called it.
func (c *Comm) Barrier() error {
	barrier(c)
	return nil
}
