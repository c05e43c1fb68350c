package tune

import "fmt"

// Table renders both series side by side, one line per size, with which
// mode is at least as fast at that size: "single" when single copy is, in
// both metrics within tol, else "copy"; "eager" up to the eager limit, where
// both modes send the same way.
func Table(off, on []Point, eagerLimit int, tol float64) []string {
	lines := []string{fmt.Sprintf("%9s %12s %12s %12s %12s  %s",
		"size", "copy[us]", "single[us]", "copy[MB/s]", "single[MB/s]", "faster")}
	for i := range off {
		if i >= len(on) {
			break
		}
		a, b := off[i], on[i]
		win := "copy"
		switch {
		case a.Size <= eagerLimit:
			win = "eager"
		case AsFast(a, b, tol):
			win = "single"
		}
		lines = append(lines, fmt.Sprintf("%9s %12.2f %12.2f %12.0f %12.0f  %s",
			HumanSize(a.Size), a.Latency, b.Latency, a.Bandwidth, b.Bandwidth, win))
	}
	return lines
}

// Describe says what a decision means, for people.
func (d Decision) Describe(largest int) string {
	if d.Never {
		return fmt.Sprintf("single copy is not at least as fast up to %s: never use it", HumanSize(largest))
	}
	return fmt.Sprintf("single copy from %s on", HumanSize(d.Size))
}

// Value is the setting that implements the decision.
func (d Decision) Value() string {
	if d.Never {
		return FormatSize(NeverSize)
	}
	return FormatSize(d.Size)
}
