package datatype

import "gompi/abi"

// fastestFirst returns the arrays with the fastest-varying dimension first.
func fastestFirst(order int, arrs ...[]int) [][]int {
	out := make([][]int, len(arrs))
	for i, a := range arrs {
		b := append([]int(nil), a...)
		if order == abi.OrderC {
			for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
				b[l], b[r] = b[r], b[l]
			}
		}
		out[i] = b
	}
	return out
}

func checkOrder(order int) error {
	if order != abi.OrderC && order != abi.OrderFortran {
		return argErr(abi.ErrArg, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order)
	}
	return nil
}

// Subarray is MPI_Type_create_subarray: a block of an n-dimensional array,
// with lower bound 0 and the whole array as extent.
func Subarray(sizes, subsizes, starts []int, order int, old *Type) (*Type, error) {
	n := len(sizes)
	if n <= 0 {
		return nil, argErr(abi.ErrArg, "ndims %d is not positive", n)
	}
	if len(subsizes) < n || len(starts) < n {
		return nil, argErr(abi.ErrArg, "the subsizes and starts arrays are shorter than ndims")
	}
	if err := checkOrder(order); err != nil {
		return nil, err
	}
	if err := checkOld(old); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		switch {
		case sizes[i] <= 0:
			return nil, argErr(abi.ErrArg, "array_of_sizes[%d] = %d is not positive", i, sizes[i])
		case subsizes[i] < 0 || subsizes[i] > sizes[i]:
			return nil, argErr(abi.ErrArg, "array_of_subsizes[%d] = %d is not in [0, %d]", i, subsizes[i], sizes[i])
		case starts[i] < 0 || starts[i] > sizes[i]-subsizes[i]:
			return nil, argErr(abi.ErrArg, "array_of_starts[%d] = %d is not in [0, %d]", i, starts[i], sizes[i]-subsizes[i])
		}
	}
	a := fastestFirst(order, sizes, subsizes, starts)
	sz, sub, st := a[0], a[1], a[2]
	stride := int64(old.Extent)
	t := build([]piece{{t: old, n: int64(sub[0]), reps: 1}}, false)
	disp := int64(st[0]) * stride
	for i := 1; i < n; i++ {
		stride *= int64(sz[i-1])
		t = build([]piece{{t: t, n: 1, reps: int64(sub[i]), repStride: stride}}, false)
		disp += int64(st[i]) * stride
	}
	t = build([]piece{{t: t, off: disp, n: 1, reps: 1}}, false)
	t = resized(t, 0, stride*int64(sz[n-1]))
	ints := append([]int{n}, sizes...)
	ints = append(append(append(ints, subsizes...), starts...), order)
	return finish(t, abi.CombinerSubarray, ints, nil, []*Type{old}), nil
}

// Darray is MPI_Type_create_darray: the part of a distributed array that
// process rank of a size-process grid (row-major) owns, with lower bound 0
// and the whole array as extent.
func Darray(size, rank int, gsizes, distribs, dargs, psizes []int, order int, old *Type) (*Type, error) {
	n := len(gsizes)
	switch {
	case size <= 0:
		return nil, argErr(abi.ErrArg, "size %d is not positive", size)
	case rank < 0 || rank >= size:
		return nil, argErr(abi.ErrArg, "rank %d is not in [0, %d)", rank, size)
	case n <= 0:
		return nil, argErr(abi.ErrArg, "ndims %d is not positive", n)
	case len(distribs) < n || len(dargs) < n || len(psizes) < n:
		return nil, argErr(abi.ErrArg, "the distribs, dargs and psizes arrays are shorter than ndims")
	}
	if err := checkOrder(order); err != nil {
		return nil, err
	}
	if err := checkOld(old); err != nil {
		return nil, err
	}
	procs := 1
	for i := 0; i < n; i++ {
		if gsizes[i] <= 0 || psizes[i] <= 0 {
			return nil, argErr(abi.ErrArg, "gsizes[%d] = %d and psizes[%d] = %d must be positive", i, gsizes[i], i, psizes[i])
		}
		switch distribs[i] {
		case abi.DistributeBlock, abi.DistributeCyclic:
			if dargs[i] != abi.DistributeDfltDarg && dargs[i] <= 0 {
				return nil, argErr(abi.ErrArg, "dargs[%d] = %d is not positive", i, dargs[i])
			}
			if distribs[i] == abi.DistributeBlock && dargs[i] != abi.DistributeDfltDarg && dargs[i]*psizes[i] < gsizes[i] {
				return nil, argErr(abi.ErrArg, "dargs[%d] * psizes[%d] = %d does not cover gsizes[%d] = %d", i, i, dargs[i]*psizes[i], i, gsizes[i])
			}
		case abi.DistributeNone:
			if psizes[i] != 1 {
				return nil, argErr(abi.ErrArg, "dimension %d is not distributed but psizes[%d] = %d", i, i, psizes[i])
			}
		default:
			return nil, argErr(abi.ErrArg, "distribs[%d] = %d is not a distribution", i, distribs[i])
		}
		procs *= psizes[i]
	}
	if procs != size {
		return nil, argErr(abi.ErrArg, "the process grid has %d processes, not size %d", procs, size)
	}
	coords := make([]int, n) // processes are numbered row-major whatever the order
	for i, r := n-1, rank; i >= 0; i-- {
		coords[i], r = r%psizes[i], r/psizes[i]
	}
	a := fastestFirst(order, gsizes, distribs, dargs, psizes, coords)
	g, dist, darg, p, c := a[0], a[1], a[2], a[3], a[4]
	t, stride := old, int64(old.Extent)
	for i := 0; i < n; i++ {
		var ps []piece
		switch dist[i] {
		case abi.DistributeNone:
			ps = []piece{{t: t, n: int64(g[i]), reps: 1}}
		case abi.DistributeBlock:
			b := darg[i]
			if b == abi.DistributeDfltDarg {
				b = (g[i] + p[i] - 1) / p[i]
			}
			start := c[i] * b
			if l := min(b, g[i]-start); l > 0 {
				ps = []piece{{t: t, off: int64(start) * stride, n: int64(l), reps: 1}}
			}
		case abi.DistributeCyclic:
			b := darg[i]
			if b == abi.DistributeDfltDarg {
				b = 1
			}
			start, step := c[i]*b, p[i]*b
			full := 0
			if start < g[i] {
				full = (g[i] - start) / step
				if (g[i]-start)%step >= b {
					full++
				}
			}
			if full > 0 {
				ps = append(ps, piece{t: t, off: int64(start) * stride, n: int64(b), reps: int64(full), repStride: int64(step) * stride})
			}
			if last := start + full*step; last < g[i] {
				ps = append(ps, piece{t: t, off: int64(last) * stride, n: int64(g[i] - last), reps: 1})
			}
		}
		t = resized(build(ps, false), 0, int64(g[i])*stride)
		stride *= int64(g[i])
	}
	ints := append([]int{size, rank, n}, gsizes...)
	ints = append(append(append(append(ints, distribs...), dargs...), psizes...), order)
	return finish(t, abi.CombinerDarray, ints, nil, []*Type{old}), nil
}
