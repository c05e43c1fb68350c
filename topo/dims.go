package topo

import "gompi/abi"

// DimsCreate fills the zero entries of dims so that the product of all
// entries is nnodes and the filled entries are as close to each other as
// possible, in non-increasing order (MPI_Dims_create). Positive entries are
// kept. A negative entry, nnodes < 1, or fixed entries whose product does not
// divide nnodes is MPI_ERR_DIMS.
func DimsCreate(nnodes int, dims []int) error {
	if nnodes < 0 {
		return errorf(abi.ErrArg, "nnodes = %d is negative", nnodes)
	}
	fixed, free := 1, 0
	for i, d := range dims {
		switch {
		case d < 0:
			return errorf(abi.ErrDims, "dims[%d] = %d is negative", i, d)
		case d == 0:
			free++
		default:
			fixed *= d
		}
	}
	if nnodes == 0 {
		if len(dims) == 0 {
			return nil
		}
		return errorf(abi.ErrDims, "nnodes is 0")
	}
	if nnodes%fixed != 0 {
		return errorf(abi.ErrDims, "nnodes = %d is not a multiple of the product %d of the fixed dims", nnodes, fixed)
	}
	rest := nnodes / fixed
	if free == 0 {
		if rest != 1 {
			return errorf(abi.ErrDims, "the product %d of dims is not nnodes = %d", fixed, nnodes)
		}
		return nil
	}
	fill := balanced(rest, free)
	j := 0
	for i := range dims {
		if dims[i] == 0 {
			dims[i] = fill[j]
			j++
		}
	}
	return nil
}

// balanced splits n into k factors in non-increasing order, as close to
// each other as possible: the smallest spread (largest minus smallest
// factor), and among equal spreads the largest smallest factor. This is the
// exact answer (MPICH gives the same; Open MPI's greedy split can be further
// off, 12x6 for 72), found by a pruned search over divisors that is cheap
// for the sizes MPI programs use.
func balanced(n, k int) []int {
	divs := divisors(n)
	best := make([]int, k)
	cur := make([]int, k)
	bestSpread, bestMin := n, 0
	var rec func(i, rem, cap int)
	rec = func(i, rem, cap int) {
		if i == k-1 {
			if rem > cap {
				return
			}
			cur[i] = rem
			spread := cur[0] - rem
			if spread < bestSpread || (spread == bestSpread && rem > bestMin) {
				bestSpread, bestMin = spread, rem
				copy(best, cur)
			}
			return
		}
		// Factors are non-increasing, so cur[i]^(k-i) >= rem; and the spread
		// is at least cur[0] minus the factor placed here.
		for _, d := range divs {
			if d > cap {
				break
			}
			if rem%d != 0 || !powAtLeast(d, k-i, rem) {
				continue
			}
			if i > 0 && cur[0]-d > bestSpread {
				continue
			}
			cur[i] = d
			rec(i+1, rem/d, d)
		}
	}
	rec(0, n, n)
	return best
}

// powAtLeast reports whether d^e >= v without overflow.
func powAtLeast(d, e, v int) bool {
	p := 1
	for range e {
		p *= d
		if p >= v {
			return true
		}
	}
	return p >= v
}

// divisors of n in increasing order.
func divisors(n int) []int {
	var lo, hi []int
	for d := 1; d*d <= n; d++ {
		if n%d == 0 {
			lo = append(lo, d)
			if d*d != n {
				hi = append(hi, n/d)
			}
		}
	}
	for i := len(hi) - 1; i >= 0; i-- {
		lo = append(lo, hi[i])
	}
	return lo
}
