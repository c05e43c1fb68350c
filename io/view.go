// Package io is the arithmetic of MPI-IO: file views that map a rank's
// stream of data bytes onto file offsets, and the schedules built on them.
// It does no I/O and needs no processes, so it is unit-tested directly.
package io

import (
	"errors"
	"sort"
)

// Block is one contiguous run of bytes: Off from some origin, Len long.
type Block struct{ Off, Len int64 }

// View maps data byte positions of a file view onto absolute file offsets:
// the filetype's runs tile the file from Disp, one copy every Extent bytes.
type View struct {
	Disp   int64
	Etype  int64   // etype size in bytes
	Blocks []Block // runs of one filetype copy, in file order, from the copy's origin
	Extent int64   // filetype extent
	Size   int64   // data bytes in one filetype copy
	prefix []int64 // data bytes before Blocks[i]
}

// ErrFiletype reports a filetype that cannot tile a file.
var ErrFiletype = errors.New("filetype runs must not go backwards or overlap, and its extent must be positive")

// NewView checks and builds a view. A filetype's runs must be in
// nondecreasing file order (the standard's rule for filetypes).
func NewView(disp, etype int64, blocks []Block, extent int64) (*View, error) {
	v := &View{Disp: disp, Etype: etype, Blocks: blocks, Extent: extent}
	v.prefix = make([]int64, len(blocks))
	end := int64(-1 << 62)
	for i, b := range blocks {
		if b.Off < end || b.Len <= 0 {
			return nil, ErrFiletype
		}
		v.prefix[i] = v.Size
		v.Size += b.Len
		end = b.Off + b.Len
	}
	if v.Size > 0 && extent <= 0 {
		return nil, ErrFiletype
	}
	return v, nil
}

// Contiguous is the default view: bytes from disp on, in order.
func Contiguous(disp, etype int64) *View {
	v, _ := NewView(disp, etype, []Block{{0, etype}}, etype)
	return v
}

// locate finds the tile, block and offset in the block of data byte pos.
func (v *View) locate(pos int64) (tile int64, blk int, in int64) {
	tile, r := pos/v.Size, pos%v.Size
	blk = sort.Search(len(v.prefix), func(i int) bool { return v.prefix[i] > r }) - 1
	return tile, blk, r - v.prefix[blk]
}

// ByteOffset is the absolute file offset of data byte pos.
func (v *View) ByteOffset(pos int64) int64 {
	if v.Size == 0 {
		return v.Disp
	}
	tile, blk, in := v.locate(pos)
	return v.Disp + tile*v.Extent + v.Blocks[blk].Off + in
}

// Segments appends to dst the file ranges that hold n data bytes from data
// byte pos on, in stream order, touching ranges merged.
func (v *View) Segments(dst []Block, pos, n int64) []Block {
	if n <= 0 || v.Size == 0 {
		return dst
	}
	if len(v.Blocks) == 1 && v.Blocks[0].Len == v.Extent { // tiles that touch: one range
		return append(dst, Block{v.Disp + v.Blocks[0].Off + pos, n})
	}
	tile, blk, in := v.locate(pos)
	for n > 0 {
		b := v.Blocks[blk]
		l := min(b.Len-in, n)
		off := v.Disp + tile*v.Extent + b.Off + in
		if m := len(dst); m > 0 && dst[m-1].Off+dst[m-1].Len == off {
			dst[m-1].Len += l
		} else {
			dst = append(dst, Block{off, l})
		}
		n -= l
		in = 0
		if blk++; blk == len(v.Blocks) {
			blk = 0
			tile++
		}
	}
	return dst
}

// Span is the first and one-past-last file byte of segs (sorted by Off).
func Span(segs []Block) (lo, hi int64) {
	if len(segs) == 0 {
		return 0, 0
	}
	lo, hi = segs[0].Off, segs[0].Off+segs[0].Len
	for _, s := range segs[1:] {
		lo = min(lo, s.Off)
		hi = max(hi, s.Off+s.Len)
	}
	return lo, hi
}

// Sieve reports whether reading segs as one span and picking them out (data
// sieving) beats one call per segment: several segments whose span wastes
// at most as many bytes as it holds, within limit bytes.
func Sieve(segs []Block, limit int64) bool {
	if len(segs) < 2 {
		return false
	}
	lo, hi := Span(segs)
	var data int64
	for _, s := range segs {
		data += s.Len
	}
	return hi-lo <= limit && hi-lo <= 2*data+int64(len(segs))*4096
}

// DataBefore is the number of data bytes of the view in file bytes below off
// (MPI_SEEK_END needs the view position of the end of the file).
func (v *View) DataBefore(off int64) int64 {
	if v.Size == 0 || off <= v.Disp {
		return 0
	}
	rel := off - v.Disp
	tile, r := rel/v.Extent, rel%v.Extent
	data := tile * v.Size
	for _, b := range v.Blocks {
		data += min(max(r-b.Off, 0), b.Len)
	}
	return data
}
