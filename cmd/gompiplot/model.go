package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Group is what one picture shows: one benchmark (variant, rank count)
// and one metric, a series per library.
type Group struct {
	Bench, Title, Variant string
	Ranks                 int
	Metric                Metric
	Multi                 bool      // the benchmark has several metrics (names carry the metric)
	Series                []*Series // in the order the libraries first appear
}

// Series is one library's median per message size over its rounds.
type Series struct {
	Label  string
	Rounds int // how many outputs were merged
	vals   map[int64][]float64
	Sizes  []int64 // ascending
	Median map[int64]float64
}

// Key names the group in file names: bench[_variant][_npN][_metric].
func (g *Group) Key() string {
	k := g.Bench
	if g.Variant != "" {
		k += "_" + strings.ReplaceAll(g.Variant, ",", "_")
	}
	if g.Ranks > 0 {
		k += fmt.Sprintf("_np%d", g.Ranks)
	}
	if g.Multi {
		k += "_" + strings.ReplaceAll(g.Metric.Name, " ", "_")
	}
	return k
}

// Caption is the group's human title.
func (g *Group) Caption() string {
	c := g.Title
	if g.Variant != "" {
		c += " (" + g.Variant + ")"
	}
	if g.Ranks > 0 {
		c += fmt.Sprintf(", %d ranks", g.Ranks)
	}
	return c
}

// Sized says whether the group has a message-size axis worth drawing: two
// or more positive sizes (a single size, as fetch-and-op's, draws as bars).
func (g *Group) Sized() bool {
	seen := map[int64]bool{}
	for _, s := range g.Series {
		for _, z := range s.Sizes {
			if z > 0 {
				seen[z] = true
			}
		}
	}
	return len(seen) > 1
}

// Single is a series' one value when the group is not Sized: the unsized
// row, else the first size's.
func (s *Series) Single() (float64, bool) {
	if v, ok := s.Median[-1]; ok {
		return v, true
	}
	for _, z := range s.Sizes {
		if z > 0 {
			return s.Median[z], true
		}
	}
	return 0, false
}

// Data collects parsed sections into groups.
type Data struct {
	Groups []*Group
	index  map[string]*Group
	labels []string
}

// Add merges one output's sections under a library label; ranks applies
// to sections whose output does not say (OSU).
func (d *Data) Add(label string, ranks int, secs []Section) {
	if d.index == nil {
		d.index = map[string]*Group{}
	}
	if !contains(d.labels, label) {
		d.labels = append(d.labels, label)
	}
	for _, sec := range secs {
		r := sec.Ranks
		if r == 0 {
			r = ranks
		}
		for mi, m := range sec.Metrics {
			g := &Group{Bench: sec.Bench, Title: sec.Title, Variant: sec.Variant, Ranks: r, Metric: m, Multi: len(sec.Metrics) > 1}
			k := g.Key()
			if old, ok := d.index[k]; ok {
				g = old
			} else {
				d.index[k] = g
				d.Groups = append(d.Groups, g)
			}
			var s *Series
			for _, x := range g.Series {
				if x.Label == label {
					s = x
				}
			}
			if s == nil {
				s = &Series{Label: label, vals: map[int64][]float64{}}
				g.Series = append(g.Series, s)
			}
			s.Rounds++
			for _, row := range sec.Rows {
				s.vals[row.Size] = append(s.vals[row.Size], row.Vals[mi])
			}
		}
	}
}

// Finish computes the medians (the median, not the best, of the rounds:
// scripts/median_rows.awk says why).
func (d *Data) Finish() {
	for _, g := range d.Groups {
		for _, s := range g.Series {
			s.Median = map[int64]float64{}
			s.Sizes = s.Sizes[:0]
			for z, vs := range s.vals {
				v := append([]float64(nil), vs...)
				sort.Float64s(v)
				s.Median[z] = v[(len(v)-1)/2]
				s.Sizes = append(s.Sizes, z)
			}
			sort.Slice(s.Sizes, func(i, j int) bool { return s.Sizes[i] < s.Sizes[j] })
		}
	}
}

// Labels are the libraries in the order first seen.
func (d *Data) Labels() []string { return d.labels }

// series returns the group's series of a label, or nil.
func (g *Group) series(label string) *Series {
	for _, s := range g.Series {
		if s.Label == label {
			return s
		}
	}
	return nil
}

// Ratio is subject/best peer at one size, as values (below 1 better for
// times, above 1 for bandwidths), and whether both exist.
func (g *Group) Ratio(subject string, peers []string, size int64) (float64, bool) {
	s := g.series(subject)
	if s == nil {
		return 0, false
	}
	v, ok := s.Median[size]
	if !ok {
		return 0, false
	}
	best, have := 0.0, false
	for _, p := range peers {
		ps := g.series(p)
		if ps == nil {
			continue
		}
		pv, ok := ps.Median[size]
		if !ok || pv <= 0 {
			continue
		}
		if !have || (g.Metric.Higher && pv > best) || (!g.Metric.Higher && pv < best) {
			best, have = pv, true
		}
	}
	if !have || v <= 0 {
		return 0, false
	}
	return v / best, true
}

// TimeRatio is the ratio turned so that below 1 is always better for the
// subject (bandwidths inverted).
func (g *Group) TimeRatio(subject string, peers []string, size int64) (float64, bool) {
	r, ok := g.Ratio(subject, peers, size)
	if ok && g.Metric.Higher {
		r = 1 / r
	}
	return r, ok
}

// Bin is a range of message sizes the summary averages over.
type Bin struct {
	Name     string
	Min, Max int64 // inclusive
}

// Bins: the summary picture's three bars per benchmark. Unsized
// benchmarks (barriers) fall into the first.
var Bins = []Bin{{"<= 1 KiB", -1, 1024}, {"2-32 KiB", 1025, 32768}, {">= 64 KiB", 32769, math.MaxInt64}}

// BinRatio is the geometric mean of the time ratios at the sizes in b.
func (g *Group) BinRatio(subject string, peers []string, b Bin) (float64, bool) {
	s := g.series(subject)
	if s == nil {
		return 0, false
	}
	sum, n := 0.0, 0
	for _, z := range s.Sizes {
		if z < b.Min || z > b.Max {
			continue
		}
		if r, ok := g.TimeRatio(subject, peers, z); ok {
			sum += math.Log(r)
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return math.Exp(sum / float64(n)), true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
