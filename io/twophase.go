package io

import "sort"

// Two-phase collective I/O: the union of all ranks' file ranges is cut into
// file domains, one per aggregator; ranks ship their pieces to the owning
// aggregator, which does one large access per domain.

// Domains cuts [lo, hi) into at most n consecutive domains whose boundaries
// fall on multiples of align (the file system's block or stripe size), so
// no two aggregators write the same block.
func Domains(lo, hi int64, n int, align int64) []Block {
	if hi <= lo || n <= 0 {
		return nil
	}
	if align <= 0 {
		align = 1
	}
	size := (hi - lo + int64(n) - 1) / int64(n)
	size = (size + align - 1) / align * align
	var out []Block
	start := lo
	for len(out) < n && start < hi {
		end := (start/align + size/align) * align // next boundary at least size on
		if end <= start {
			end = start + size
		}
		end = min(end, hi)
		out = append(out, Block{start, end - start})
		start = end
	}
	return out
}

// Piece is a part of one rank's access inside one domain: the file range,
// and Pos, where its bytes sit in the rank's packed data stream.
type Piece struct{ Off, Len, Pos int64 }

// Split assigns segs (the rank's file ranges in stream order) to the
// domains, cutting ranges that cross a boundary: out[d] is domain d's list.
func Split(segs []Block, doms []Block) [][]Piece {
	out := make([][]Piece, len(doms))
	var pos int64
	for _, s := range segs {
		off, l := s.Off, s.Len
		for l > 0 {
			d := sort.Search(len(doms), func(i int) bool { return doms[i].Off+doms[i].Len > off })
			if d == len(doms) || doms[d].Off > off {
				panic("io.Split: range outside the domains")
			}
			n := min(l, doms[d].Off+doms[d].Len-off)
			out[d] = append(out[d], Piece{off, n, pos})
			off, l, pos = off+n, l-n, pos+n
		}
	}
	return out
}

// Covered reports whether pieces (any order) cover [lo, hi) without a gap;
// an aggregator must read a domain's span before writing it otherwise.
func Covered(pieces []Piece, lo, hi int64) bool {
	p := append([]Piece(nil), pieces...)
	sort.Slice(p, func(i, j int) bool { return p[i].Off < p[j].Off })
	at := lo
	for _, x := range p {
		if x.Off > at {
			return false
		}
		at = max(at, x.Off+x.Len)
	}
	return at >= hi
}

// Chunks cuts every domain into consecutive chunks of at most cb bytes (an
// aggregator's buffer, ROMIO's cb_buffer_size): round k of a two-phase
// access moves chunk k of every domain. It returns the chunks in file order
// with each one's round and domain, and the number of rounds.
func Chunks(doms []Block, cb int64) (chunks []Block, round, dom []int, rounds int) {
	if cb <= 0 {
		cb = 1 << 62
	}
	for d, b := range doms {
		k := 0
		for off := b.Off; off < b.Off+b.Len; off += cb {
			chunks = append(chunks, Block{off, min(cb, b.Off+b.Len-off)})
			round, dom = append(round, k), append(dom, d)
			k++
		}
		rounds = max(rounds, k)
	}
	return chunks, round, dom, rounds
}
