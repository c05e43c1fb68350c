package pml

import "unsafe"

// unexpPool recycles unexpected-message records and their payload buffers
// (by power-of-two size class) so a steady stream of early arrivals does not
// allocate.
type unexpPool struct {
	recs []*unexp
	bufs [24][][]byte
}

func sizeClass(n int) int {
	c := 6 // 64 bytes minimum
	for 1<<c < n {
		c++
	}
	return c
}

func (p *unexpPool) fromFrag(src int, tag uint8, data []byte) *unexp {
	var u *unexp
	if n := len(p.recs); n > 0 {
		u = p.recs[n-1]
		p.recs = p.recs[:n-1]
	} else {
		u = new(unexp)
	}
	h := (*matchHdr)(unsafe.Pointer(&data[0]))
	u.hdr, u.srcWorld, u.rndv = *h, src, tag == tagRndv
	if u.rndv {
		rh := (*rndvHdr)(unsafe.Pointer(&data[0]))
		u.size, u.addr, u.key, u.data = int(rh.size), rh.addr, rh.key, nil
		return u
	}
	payload := data[matchHdrLen:]
	u.size = len(payload)
	c := sizeClass(len(payload))
	if k := len(p.bufs[c]); k > 0 {
		u.data = p.bufs[c][k-1][:len(payload)]
		p.bufs[c] = p.bufs[c][:k-1]
	} else {
		u.data = make([]byte, len(payload), 1<<c)
	}
	copy(u.data, payload)
	return u
}

func (p *unexpPool) put(u *unexp) {
	if u.data != nil {
		c := sizeClass(cap(u.data))
		p.bufs[c] = append(p.bufs[c], u.data[:0])
		u.data = nil
	}
	p.recs = append(p.recs, u)
}
