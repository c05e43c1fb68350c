// Package tune holds what `gompirun --tune` and the gompitune measuring
// program share: the measured series, the crossover decision and the tuning
// file (path, format, writing).
package tune

import (
	"errors"
	"fmt"
)

// Point is one message size measured in one single-copy mode.
type Point struct {
	Size      int     `json:"size"`          // bytes
	Latency   float64 `json:"latency_us"`    // the message there and an empty reply back, µs (lower is better)
	Bandwidth float64 `json:"bandwidth_mbs"` // windowed streaming, MB/s (higher is better)
}

// Decision is the outcome of Crossover.
type Decision struct {
	// Size is the smallest measured size from which single copy is at least
	// as fast in both metrics at every larger measured size; 0 when Never.
	Size int
	// Never: single copy does not hold at the largest measured size.
	Never bool
}

// DefaultTolerance is the relative slack under which two measurements count
// as equally fast: run-to-run noise on a busy machine is about that large,
// and a crossover must not hinge on it.
const DefaultTolerance = 0.03

// Crossover picks the single-copy crossover from the copy-in/copy-out series
// (off) and the single-copy series (on), both ascending by size and measured
// at the same sizes. Single copy counts as at least as fast at a size when
// its latency is at most off's times (1+tol) and its bandwidth at least off's
// times (1-tol).
func Crossover(off, on []Point, tol float64) (Decision, error) {
	if len(off) == 0 || len(off) != len(on) {
		return Decision{}, fmt.Errorf("tune: series of %d and %d points; need the same non-zero number", len(off), len(on))
	}
	if tol < 0 || tol >= 1 {
		return Decision{}, fmt.Errorf("tune: tolerance %v not in [0, 1)", tol)
	}
	for i := range off {
		a, b := off[i], on[i]
		if a.Size != b.Size {
			return Decision{}, fmt.Errorf("tune: point %d measured at %d and %d bytes", i, a.Size, b.Size)
		}
		if a.Size <= 0 || i > 0 && a.Size <= off[i-1].Size {
			return Decision{}, errors.New("tune: sizes must be positive and strictly ascending")
		}
		if !(a.Latency > 0 && b.Latency > 0 && a.Bandwidth > 0 && b.Bandwidth > 0) {
			return Decision{}, fmt.Errorf("tune: point %d (%d bytes) has a non-positive measurement", i, a.Size)
		}
	}
	// Walk down from the largest size while single copy keeps up.
	from := len(off)
	for i := len(off) - 1; i >= 0; i-- {
		if !AsFast(off[i], on[i], tol) {
			break
		}
		from = i
	}
	if from == len(off) {
		return Decision{Never: true}, nil
	}
	return Decision{Size: off[from].Size}, nil
}

// AsFast reports whether single copy (on) is at least as fast as
// copy-in/copy-out (off) in both metrics, within tol.
func AsFast(off, on Point, tol float64) bool {
	return on.Latency <= off.Latency*(1+tol) && on.Bandwidth >= off.Bandwidth*(1-tol)
}

// Rendezvous drops the points up to the eager limit: messages that small go
// eagerly whatever the single-copy setting, so they say nothing about it.
func Rendezvous(p []Point, eagerLimit int) []Point {
	for i, q := range p {
		if q.Size > eagerLimit {
			return p[i:]
		}
	}
	return nil
}

// Mean merges repeated runs of one series point by point: the mean latency
// and the mean bandwidth. The runs must have the same sizes.
func Mean(runs ...[]Point) ([]Point, error) {
	if len(runs) == 0 {
		return nil, errors.New("tune: no runs")
	}
	out := append([]Point(nil), runs[0]...)
	for _, r := range runs[1:] {
		if len(r) != len(out) {
			return nil, fmt.Errorf("tune: runs of %d and %d points", len(out), len(r))
		}
		for i, p := range r {
			if p.Size != out[i].Size {
				return nil, fmt.Errorf("tune: point %d measured at %d and %d bytes", i, out[i].Size, p.Size)
			}
			out[i].Latency += p.Latency
			out[i].Bandwidth += p.Bandwidth
		}
	}
	for i := range out {
		out[i].Latency /= float64(len(runs))
		out[i].Bandwidth /= float64(len(runs))
	}
	return out, nil
}
