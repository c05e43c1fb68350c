// Command dtypes uses derived datatypes through the Go API: a strided column
// of a float64 matrix goes around the ring into a contiguous slice, a
// struct array comes back as two separate slices, and Pack/Unpack and
// external32 round-trip a vector; types are freed while a receive using one
// is still pending.
package main

import (
	"unsafe"

	"gompi/abi"
	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

type rec struct {
	ID int32
	X  float64
}

func main() {
	c := check.Init()
	me, size := c.Rank(), c.Size()
	right, left := (me+1)%size, (me-1+size)%size
	f64, i32 := mpi.TypeOf[float64](), mpi.TypeOf[int32]()

	// Column 2 of a 50x4 matrix, received contiguous.
	const rows, cols = 50, 4
	m := make([]float64, rows*cols)
	for i := range m {
		m[i] = float64(me*10000 + i)
	}
	col, err := mpi.TypeVector(rows, 1, cols, f64)
	check.NoErr(err, "TypeVector")
	check.NoErr(mpi.TypeCommit(col), "TypeCommit")
	in := make([]float64, rows)
	r, err := c.Irecv(unsafe.Pointer(&in[0]), rows, f64, left, 1)
	check.NoErr(err, "Irecv")
	check.NoErr(c.Send(unsafe.Pointer(&m[2]), 1, col, right, 1), "Send column")
	_, err = c.Wait(r)
	check.NoErr(err, "Wait")
	for i, v := range in {
		check.True(v == float64(left*10000+i*cols+2), "column element %d is %v", i, v)
	}

	// A struct array sent with a struct type, received as ids then values.
	recs := make([]rec, 8)
	for i := range recs {
		recs[i] = rec{int32(me*100 + i), float64(me) + float64(i)/8}
	}
	st, err := mpi.TypeStruct([]int{1, 1}, []int64{int64(unsafe.Offsetof(rec{}.ID)), int64(unsafe.Offsetof(rec{}.X))},
		[]*mpi.Datatype{i32, f64})
	check.NoErr(err, "TypeStruct")
	check.NoErr(mpi.TypeCommit(st), "TypeCommit")
	check.True(st.Extent == int(unsafe.Sizeof(rec{})), "struct extent %d, want %d", st.Extent, unsafe.Sizeof(rec{}))
	// Both arrays in one allocation: Go forbids pointer arithmetic from one
	// allocation into another (checkptr, the race detector's, rejects it).
	var apart struct {
		ids [8]int32
		pad [24]byte
		xs  [8]float64
	}
	ids, xs := apart.ids[:], apart.xs[:]
	ab := [2]uintptr{uintptr(unsafe.Pointer(&ids[0])), uintptr(unsafe.Pointer(&xs[0]))}
	lens := make([]int, 16)
	disps := make([]int64, 16)
	types := make([]*mpi.Datatype, 16)
	for i := 0; i < 8; i++ {
		lens[2*i], lens[2*i+1] = 1, 1
		disps[2*i], disps[2*i+1] = int64(i*4), int64(ab[1]-ab[0])+int64(i*8)
		types[2*i], types[2*i+1] = i32, f64
	}
	split, err := mpi.TypeStruct(lens, disps, types)
	check.NoErr(err, "TypeStruct split")
	check.NoErr(mpi.TypeCommit(split), "TypeCommit")
	r, err = c.Irecv(unsafe.Pointer(&ids[0]), 1, split, left, 2)
	check.NoErr(err, "Irecv split")
	check.NoErr(mpi.TypeFree(split), "TypeFree while pending")
	check.NoErr(c.Send(unsafe.Pointer(&recs[0]), 8, st, right, 2), "Send structs")
	s, err := c.Wait(r)
	check.NoErr(err, "Wait split")
	check.True(s.Count == 8*12, "received %d bytes", s.Count)
	for i := 0; i < 8; i++ {
		check.True(ids[i] == int32(left*100+i) && xs[i] == float64(left)+float64(i)/8, "pair %d: %d %v", i, ids[i], xs[i])
	}

	// Pack, Unpack and external32 of the column.
	buf := make([]byte, rows*8)
	pos := 0
	check.NoErr(mpi.Pack(unsafe.Pointer(&m[1]), 1, col, buf, &pos), "Pack")
	check.True(pos == rows*8, "packed %d bytes", pos)
	back := make([]float64, rows*cols)
	pos = 0
	check.NoErr(mpi.Unpack(buf, &pos, unsafe.Pointer(&back[1]), 1, col), "Unpack")
	for i := range back {
		want := 0.0
		if i%cols == 1 {
			want = m[i]
		}
		check.True(back[i] == want, "unpacked element %d is %v", i, back[i])
	}
	ext := make([]byte, col.ExternalSize(1))
	var epos int64
	check.NoErr(mpi.PackExternal("external32", unsafe.Pointer(&m[3]), 1, col, ext, &epos), "PackExternal")
	check.True(ext[0]&0x80 == 0 && epos == int64(rows*8), "external32 size %d", epos)
	c.SetErrhandler(mpi.ErrorsReturn)
	err = mpi.PackExternal("native", unsafe.Pointer(&m[3]), 1, col, ext, &epos)
	check.True(mpi.Code(err) == abi.ErrArg, "unknown datarep: %v", err)
	c.SetErrhandler(mpi.ErrorsAreFatal)

	check.NoErr(mpi.TypeFree(col), "TypeFree")
	check.NoErr(mpi.TypeFree(st), "TypeFree")
	check.Done(c, "dtypes")
}
