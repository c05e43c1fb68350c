package mpi

import (
	"errors"
	"io"
	"strconv"
	"syscall"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	fio "gompi/io"
)

// Two-phase collective buffering for _all accesses. When some rank's access
// is noncontiguous in the file, the union of all ranks' ranges is cut into
// block-aligned file domains, one per aggregator (ranks 0..cb_nodes-1);
// every rank ships its pieces to the owning aggregator (Alltoallv), and each
// aggregator makes one large access for its domain, reading it first only
// when the pieces leave holes, in rounds of at most cb_buffer_size bytes
// per aggregator. Hints, under ROMIO's names or gompi_*: cb_nodes,
// cb_buffer_size, romio_cb_write/romio_cb_read (enable|disable|automatic),
// striping_unit (domain alignment; default the file system's block size).

func (f *File) hint(keys ...string) (string, bool) {
	for _, k := range keys {
		if v, ok := f.info.Lookup(k); ok {
			return v, true
		}
	}
	return "", false
}

// cbMode is "enable", "disable" or "automatic" for this direction.
func (f *File) cbMode(write bool) string {
	keys := []string{"romio_cb_read", "gompi_cb_read"}
	if write {
		keys = []string{"romio_cb_write", "gompi_cb_write"}
	}
	if v, ok := f.hint(keys...); ok && (v == "enable" || v == "disable") {
		return v
	}
	return "automatic"
}

// dsMode is the data-sieving setting (romio_ds_read/romio_ds_write).
func (f *File) dsMode(write bool) string {
	keys := []string{"romio_ds_read", "gompi_ds_read"}
	if write {
		keys = []string{"romio_ds_write", "gompi_ds_write"}
	}
	if v, ok := f.hint(keys...); ok && (v == "enable" || v == "disable") {
		return v
	}
	return "automatic"
}

func (f *File) cbNodes() int {
	n := f.comm.Size()
	if v, ok := f.hint("cb_nodes", "gompi_cb_nodes"); ok {
		if k, err := strconv.Atoi(v); err == nil && k > 0 && k < n {
			n = k
		}
	}
	return n
}

func (f *File) align() int64 {
	if v, ok := f.hint("striping_unit", "gompi_cb_align"); ok {
		if k, err := strconv.ParseInt(v, 10, 64); err == nil && k > 0 {
			return k
		}
	}
	var st syscall.Stat_t
	if syscall.Fstat(int(f.fd.Fd()), &st) == nil && st.Blksize > 0 {
		return int64(st.Blksize)
	}
	return 4096
}

var byteType = datatype.Predefined(abi.Byte)

func bptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return unsafe.Pointer(&ioZeroByte)
	}
	return unsafe.Pointer(&b[0])
}

func iptr(b []int64) unsafe.Pointer {
	if len(b) == 0 {
		return unsafe.Pointer(&ioZeroI64)
	}
	return unsafe.Pointer(&b[0])
}

var (
	ioZeroByte byte
	ioZeroI64  int64
)

// exscan turns counts into displacements.
func displs(counts []int) []int {
	d := make([]int, len(counts))
	for i := 1; i < len(counts); i++ {
		d[i] = d[i-1] + counts[i-1]
	}
	return d
}

// twoPhase runs the collective part of an _all access on every rank (segs
// empty on a rank with nothing to do or a local error). done is false when
// no rank is noncontiguous and the caller should do independent I/O.
func (f *File) twoPhase(x *ioExec, call string, write bool, data []byte, segs []fio.Block) (got int64, done bool, err error) {
	np := f.comm.Size()
	lo, hi := fio.Span(segs)
	me := [3]int64{lo, hi, int64(len(segs))}
	all := make([]int64, 3*np)
	if err := x.coll(func(m CollMode) (*Request, error) {
		return f.comm.AllgatherAs(m, unsafe.Pointer(&me[0]), 3, i64, unsafe.Pointer(&all[0]), 3, i64)
	}); err != nil {
		return 0, true, err
	}
	gmin, gmax, multi, any := int64(1<<62), int64(-1), false, false
	for r := 0; r < np; r++ {
		if all[3*r+2] > 0 {
			gmin, gmax, any = min(gmin, all[3*r]), max(gmax, all[3*r+1]), true
		}
		multi = multi || all[3*r+2] > 1
	}
	mode := f.cbMode(write)
	if !any || mode == "disable" || (!multi && mode != "enable") {
		return 0, false, nil
	}
	doms := fio.Domains(gmin, gmax, f.cbNodes(), f.align())
	// Each aggregator stages at most cb_buffer_size bytes at a time: round k
	// moves chunk k of every domain (every rank knows the domains, so all
	// agree on the number of rounds).
	chunks, round, dom, rounds := fio.Chunks(doms, f.cbBuffer())
	split := fio.Split(segs, chunks)
	byRound := make([][][]fio.Piece, rounds)
	for k := range byRound {
		byRound[k] = make([][]fio.Piece, len(doms))
	}
	for c, ps := range split {
		byRound[round[c]][dom[c]] = ps
	}
	var class int64
	for _, pieces := range byRound {
		cl, err := f.twoPhaseRound(x, write, data, pieces)
		if err != nil {
			return 0, true, err
		}
		if class == 0 {
			class = cl
		}
	}
	if write {
		got = int64(len(data))
	} else {
		// The count stops at the end of the file, as an independent read's does.
		size := f.size()
		for _, s := range segs {
			if s.Off+s.Len <= size {
				got += s.Len
				continue
			}
			got += max(0, size-s.Off)
			break
		}
	}
	classes, err := f.allInts(x, class)
	if err != nil {
		return got, true, err
	}
	if cl := firstNonzero(classes); cl != 0 {
		return 0, true, x.raise(f, errf(int(cl), call, "collective buffering: I/O failed on an aggregator"))
	}
	return got, true, nil
}

// cbBuffer is the most bytes an aggregator stages per round (cb_buffer_size,
// ROMIO's default 16 MiB).
func (f *File) cbBuffer() int64 {
	if v, ok := f.hint("cb_buffer_size", "gompi_cb_buffer_size"); ok {
		if k, err := strconv.ParseInt(v, 10, 64); err == nil && k > 0 {
			return k
		}
	}
	return 16 << 20
}

// twoPhaseRound ships every rank's pieces (pieces[d]: those in aggregator
// d's chunk of this round) to their aggregators, which access their chunk
// with one call, and for reads ships the bytes back. It returns the error
// class of this rank's own file access (0 if none).
func (f *File) twoPhaseRound(x *ioExec, write bool, data []byte, pieces [][]fio.Piece) (int64, error) {
	np := f.comm.Size()
	// Piece counts and byte counts per aggregator, then the descriptors.
	sc := make([]int64, 2*np)
	for d, ps := range pieces {
		sc[2*d] = int64(len(ps))
		for _, p := range ps {
			sc[2*d+1] += p.Len
		}
	}
	rc := make([]int64, 2*np)
	if err := x.coll(func(m CollMode) (*Request, error) {
		return f.comm.AlltoallAs(m, unsafe.Pointer(&sc[0]), 2, i64, unsafe.Pointer(&rc[0]), 2, i64)
	}); err != nil {
		return 0, err
	}
	scnt, rcnt, sbytes, rbytes := make([]int, np), make([]int, np), make([]int, np), make([]int, np)
	var sdesc []int64
	var sdata []byte
	for r := 0; r < np; r++ {
		scnt[r], rcnt[r] = int(2*sc[2*r]), int(2*rc[2*r])
		sbytes[r], rbytes[r] = int(sc[2*r+1]), int(rc[2*r+1])
		if r < len(pieces) {
			for _, p := range pieces[r] {
				sdesc = append(sdesc, p.Off, p.Len)
				if write {
					sdata = append(sdata, data[p.Pos:p.Pos+p.Len]...)
				}
			}
		}
	}
	rdesc := make([]int64, sum(rcnt))
	if err := x.coll(func(m CollMode) (*Request, error) {
		return f.comm.AlltoallvAs(m, iptr(sdesc), scnt, displs(scnt), i64, iptr(rdesc), rcnt, displs(rcnt), i64)
	}); err != nil {
		return 0, err
	}
	var rp []fio.Piece // what this aggregator serves, in source-rank order
	var pos int64
	for i := 0; i+1 < len(rdesc); i += 2 {
		rp = append(rp, fio.Piece{Off: rdesc[i], Len: rdesc[i+1], Pos: pos})
		pos += rdesc[i+1]
	}
	plo, phi := spanPieces(rp)
	var class int64
	if write {
		rdata := make([]byte, sum(rbytes))
		if err := x.coll(func(m CollMode) (*Request, error) {
			return f.comm.AlltoallvAs(m, bptr(sdata), sbytes, displs(sbytes), byteType, bptr(rdata), rbytes, displs(rbytes), byteType)
		}); err != nil {
			return 0, err
		}
		if len(rp) > 0 {
			buf := make([]byte, phi-plo)
			if !fio.Covered(rp, plo, phi) { // read-modify-write keeps the holes' bytes
				if _, err := f.fd.ReadAt(buf, plo); err != nil && !errors.Is(err, io.EOF) {
					class = int64(ioClass(err))
				}
			}
			for _, p := range rp {
				copy(buf[p.Off-plo:p.Off-plo+p.Len], rdata[p.Pos:p.Pos+p.Len])
			}
			if _, err := f.fd.WriteAt(buf, plo); err != nil && class == 0 {
				class = int64(ioClass(err))
			}
		}
		return class, nil
	}
	reply := make([]byte, pos)
	if len(rp) > 0 {
		buf := make([]byte, phi-plo)
		if _, err := f.fd.ReadAt(buf, plo); err != nil && !errors.Is(err, io.EOF) {
			class = int64(ioClass(err))
		}
		for _, p := range rp {
			copy(reply[p.Pos:p.Pos+p.Len], buf[p.Off-plo:])
		}
	}
	back := make([]byte, sum(sbytes))
	if err := x.coll(func(m CollMode) (*Request, error) {
		return f.comm.AlltoallvAs(m, bptr(reply), rbytes, displs(rbytes), byteType, bptr(back), sbytes, displs(sbytes), byteType)
	}); err != nil {
		return 0, err
	}
	var q int64
	for _, ps := range pieces {
		for _, p := range ps {
			copy(data[p.Pos:p.Pos+p.Len], back[q:q+p.Len])
			q += p.Len
		}
	}
	return class, nil
}

func spanPieces(ps []fio.Piece) (lo, hi int64) {
	if len(ps) == 0 {
		return 0, 0
	}
	lo, hi = ps[0].Off, ps[0].Off+ps[0].Len
	for _, p := range ps[1:] {
		lo, hi = min(lo, p.Off), max(hi, p.Off+p.Len)
	}
	return lo, hi
}

func sum(v []int) int {
	t := 0
	for _, x := range v {
		t += x
	}
	return t
}
