package topo

import (
	"slices"

	"gompi/abi"
	"gompi/mpierr"
)

// Cart is a Cartesian grid: ranks are laid out in row-major order (the last
// dimension varies fastest), as the standard requires.
type Cart struct {
	Dims    []int
	Periods []bool
}

// NewCart validates a grid for MPI_Cart_create on a communicator of
// commSize processes: ndims >= 0 (MPI_ERR_DIMS), every extent positive
// (MPI_ERR_DIMS), and no more grid points than processes (MPI_ERR_TOPOLOGY).
func NewCart(dims []int, periods []bool, commSize int) (*Cart, error) {
	if len(periods) != len(dims) {
		return nil, errorf(abi.ErrArg, "%d dims but %d periods", len(dims), len(periods))
	}
	n := 1
	for i, d := range dims {
		if d <= 0 {
			return nil, errorf(abi.ErrDims, "dims[%d] = %d is not positive", i, d)
		}
		n *= d
		if n > commSize {
			// MPI_ERR_ARG as MPICH (the standard names no class).
			return nil, errorf(abi.ErrArg, "the grid has more points than the %d processes of the communicator", commSize)
		}
	}
	return &Cart{Dims: slices.Clone(dims), Periods: slices.Clone(periods)}, nil
}

// CheckNdims validates the ndims argument of the Cartesian calls.
func CheckNdims(ndims int) error {
	if ndims < 0 {
		return errorf(abi.ErrDims, "ndims = %d is negative", ndims)
	}
	return nil
}

// Ndims is the number of dimensions.
func (c *Cart) Ndims() int { return len(c.Dims) }

// Size is the number of grid points (processes in the Cartesian communicator).
func (c *Cart) Size() int {
	n := 1
	for _, d := range c.Dims {
		n *= d
	}
	return n
}

// Rank is the rank at coords (MPI_Cart_rank). Periodic dimensions wrap; a
// coordinate outside a non-periodic dimension is MPI_ERR_ARG.
func (c *Cart) Rank(coords []int) (int, error) {
	if len(coords) < len(c.Dims) {
		return 0, errorf(abi.ErrArg, "%d coordinates for %d dimensions", len(coords), len(c.Dims))
	}
	r := 0
	for i, d := range c.Dims {
		x := coords[i]
		if x < 0 || x >= d {
			if !c.Periods[i] {
				return 0, errorf(abi.ErrArg, "coords[%d] = %d is outside the non-periodic dimension of extent %d", i, x, d)
			}
			x = ((x % d) + d) % d
		}
		r = r*d + x
	}
	return r, nil
}

// Coords writes rank's coordinates into coords, which must hold Ndims
// entries (MPI_Cart_coords). A rank outside the grid is MPI_ERR_RANK.
func (c *Cart) Coords(rank int, coords []int) error {
	if rank < 0 || rank >= c.Size() {
		return errorf(abi.ErrRank, "rank %d is not in the grid of %d processes", rank, c.Size())
	}
	for i := len(c.Dims) - 1; i >= 0; i-- {
		coords[i] = rank % c.Dims[i]
		rank /= c.Dims[i]
	}
	return nil
}

// Shift is MPI_Cart_shift: the ranks to receive from and send to for a shift
// of disp along direction. Off a non-periodic edge the answer is
// MPI_PROC_NULL. A direction outside 0..ndims-1 is MPI_ERR_ARG.
func (c *Cart) Shift(rank, direction, disp int) (source, dest int, err error) {
	if direction < 0 || direction >= len(c.Dims) {
		return 0, 0, errorf(abi.ErrArg, "direction = %d is not a dimension (ndims %d)", direction, len(c.Dims))
	}
	coords := make([]int, len(c.Dims))
	if err := c.Coords(rank, coords); err != nil {
		return 0, 0, err
	}
	at := func(delta int) int {
		x := coords[direction] + delta
		d := c.Dims[direction]
		if x < 0 || x >= d {
			if !c.Periods[direction] {
				return abi.ProcNull
			}
			x = ((x % d) + d) % d
		}
		save := coords[direction]
		coords[direction] = x
		r, _ := c.Rank(coords)
		coords[direction] = save
		return r
	}
	return at(-disp), at(disp), nil
}

// Sub describes the partition of MPI_Cart_sub for the process at rank:
// Color names its sub-grid (the coordinates of the dropped dimensions),
// Key is its rank in the sub-grid, and Grid is the sub-grid's shape. The
// caller splits the communicator with (Color, Key). With no dimension kept
// every process gets a 0-dimensional grid of itself.
func (c *Cart) Sub(rank int, remain []bool) (color, key int, grid *Cart, err error) {
	if len(remain) < len(c.Dims) {
		return 0, 0, nil, errorf(abi.ErrArg, "%d remain_dims entries for %d dimensions", len(remain), len(c.Dims))
	}
	coords := make([]int, len(c.Dims))
	if err := c.Coords(rank, coords); err != nil {
		return 0, 0, nil, err
	}
	grid = &Cart{Dims: []int{}, Periods: []bool{}}
	for i, d := range c.Dims {
		if remain[i] {
			key = key*d + coords[i]
			grid.Dims = append(grid.Dims, d)
			grid.Periods = append(grid.Periods, c.Periods[i])
		} else {
			color = color*d + coords[i]
		}
	}
	return color, key, grid, nil
}

// CartMap is MPI_Cart_map without reordering: the calling process of rank
// rank in a communicator of commSize processes keeps its rank if it is in
// the grid, else gets MPI_UNDEFINED.
func CartMap(dims []int, periods []bool, commSize, rank int) (int, error) {
	c, err := NewCart(dims, periods, commSize)
	if e, ok := err.(*mpierr.Error); ok && e.Class == abi.ErrArg && len(dims) == len(periods) {
		e.Class = abi.ErrDims // MPICH's class for a grid too large in MPI_Cart_map
	}
	if err != nil {
		return 0, err
	}
	if rank < c.Size() {
		return rank, nil
	}
	return abi.Undefined, nil
}
