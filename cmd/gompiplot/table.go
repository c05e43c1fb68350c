package main

import (
	"fmt"
	"path"
	"strings"
)

// Markdown is the tables: the summary (ratios per size bin, with its
// picture), then per group its picture and its values at the chosen sizes
// (every size when none of them was measured) with subject/best-peer.
func Markdown(d *Data, o Options, ref string, pics []string, summary string) string {
	var b strings.Builder
	ratios := len(o.Peers) > 0
	if summary != "" {
		fmt.Fprintf(&b, "![%s / best of %s](%s)\n\n", o.Subject, strings.Join(o.Peers, ", "), path.Join(ref, summary))
		fmt.Fprintf(&b, "%s / best of %s, time ratio (bandwidths inverted; below 1: %s faster), geometric mean per size range:\n\n",
			o.Subject, strings.Join(o.Peers, ", "), o.Subject)
		b.WriteString("| benchmark |")
		for _, bin := range Bins {
			fmt.Fprintf(&b, " %s |", bin.Name)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(Bins)) + "\n")
		for _, g := range d.Groups {
			fmt.Fprintf(&b, "| %s |", g.Key())
			for _, bin := range Bins {
				if r, ok := g.BinRatio(o.Subject, o.Peers, bin); ok {
					fmt.Fprintf(&b, " %.2f |", r)
				} else {
					b.WriteString(" - |")
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	labels := d.Labels()
	for gi, g := range d.Groups {
		unit := g.Metric.Name
		if g.Metric.Unit != "" {
			unit += ", " + g.Metric.Unit
		}
		fmt.Fprintf(&b, "#### %s: %s\n\n", g.Key(), unit)
		fmt.Fprintf(&b, "![%s](%s)\n\n", g.Caption(), path.Join(ref, pics[gi]))
		rounds := []string{}
		for _, s := range g.Series {
			rounds = append(rounds, fmt.Sprintf("%s %d", s.Label, s.Rounds))
		}
		fmt.Fprintf(&b, "%s; rounds (median taken): %s.\n\n", g.Caption(), strings.Join(rounds, ", "))
		b.WriteString("| bytes |")
		for _, l := range labels {
			fmt.Fprintf(&b, " %s |", l)
		}
		if ratios {
			fmt.Fprintf(&b, " %s/best |", o.Subject)
		}
		b.WriteString("\n|---:|" + strings.Repeat("---:|", len(labels)))
		if ratios {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for _, z := range tableSizes(g, o.Sizes) {
			fmt.Fprintf(&b, "| %s |", human(z))
			for _, l := range labels {
				s := g.series(l)
				if v, ok := s.get(z); ok {
					fmt.Fprintf(&b, " %s |", num(v))
				} else {
					b.WriteString(" - |")
				}
			}
			if ratios {
				if r, ok := g.Ratio(o.Subject, o.Peers, z); ok {
					fmt.Fprintf(&b, " %.2f |", r)
				} else {
					b.WriteString(" - |")
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (s *Series) get(z int64) (float64, bool) {
	if s == nil {
		return 0, false
	}
	v, ok := s.Median[z]
	return v, ok
}

// tableSizes are the wanted sizes the group has, or all of its sizes
// when it has none of them (and -1 for unsized benchmarks).
func tableSizes(g *Group, want []int64) []int64 {
	have := map[int64]bool{}
	var all []int64
	for _, s := range g.Series {
		for _, z := range s.Sizes {
			if !have[z] {
				have[z] = true
				all = append(all, z)
			}
		}
	}
	var out []int64
	for _, z := range want {
		if have[z] {
			out = append(out, z)
		}
	}
	if len(out) == 0 {
		sortInt64(all)
		return all
	}
	return out
}

func sortInt64(a []int64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// num writes a value with three significant digits at least.
func num(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3f", v)
}
