package main

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// libColors keeps each library's colour the same in every picture.
var libColors = map[string]color.Color{
	"gompi":   color.RGBA{R: 214, G: 39, B: 40, A: 255},
	"openmpi": color.RGBA{R: 31, G: 119, B: 180, A: 255},
	"mpich":   color.RGBA{R: 44, G: 160, B: 44, A: 255},
}

func colorOf(label string, i int) color.Color {
	if c, ok := libColors[label]; ok {
		return c
	}
	return plotutil.Color(i + 3) // past the three colours above
}

// sizeTicks labels a log axis of byte counts as 1, 32, 1K, 32K, 1M...
type sizeTicks struct{}

func (sizeTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for e := 0; e <= 40; e++ {
		v := math.Ldexp(1, e)
		if v < min || v > max {
			continue
		}
		t := plot.Tick{Value: v}
		if e%5 == 0 || (max/min < 64) {
			t.Label = human(int64(v))
		}
		ts = append(ts, t)
	}
	return ts
}

// DrawGroup draws one group's picture into file (format by extension).
func DrawGroup(g *Group, file string) error {
	p := plot.New()
	p.Title.Text = g.Caption()
	p.Legend.Top = !g.Metric.Higher
	p.Legend.Left = true
	yl := g.Metric.Name
	if g.Metric.Unit != "" {
		yl += " (" + g.Metric.Unit + ")"
	}
	p.Y.Label.Text = yl
	if !g.Sized() {
		return drawBars(p, g, file)
	}
	p.X.Label.Text = "message size (bytes)"
	p.X.Scale = plot.LogScale{}
	p.Y.Scale = plot.LogScale{}
	p.X.Tick.Marker = sizeTicks{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	lines := 0
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, s := range g.Series {
		var xy plotter.XYs
		for _, z := range s.Sizes {
			// Log axes: size 0 (IMB) and zero values have no place.
			if v := s.Median[z]; z > 0 && v > 0 {
				xy = append(xy, plotter.XY{X: float64(z), Y: v})
			}
		}
		if len(xy) == 0 {
			continue
		}
		for _, q := range xy {
			xmin, xmax = math.Min(xmin, q.X), math.Max(xmax, q.X)
			ymin, ymax = math.Min(ymin, q.Y), math.Max(ymax, q.Y)
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		c := colorOf(s.Label, i)
		l.Color, pts.Color = c, c
		l.Width = vg.Points(1.5)
		pts.Shape = draw.CircleGlyph{}
		pts.Radius = vg.Points(2)
		if i > 2 {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l, pts)
		p.Legend.Add(s.Label, l, pts)
		lines++
	}
	if lines == 0 {
		return fmt.Errorf("%s: no positive value at a positive size to draw", g.Key())
	}
	// Explicit ranges: the library pads a one-value range to zero, which
	// has no place on a log axis.
	p.X.Min, p.X.Max = xmin/1.2, xmax*1.2
	p.Y.Min, p.Y.Max = ymin/1.5, ymax*1.5
	return p.Save(6*vg.Inch, 4*vg.Inch, file)
}

// drawBars draws a benchmark without sizes (barriers): one bar per library.
func drawBars(p *plot.Plot, g *Group, file string) error {
	var names []string
	top := 0.0
	for i, s := range g.Series {
		v, ok := s.Single()
		if !ok {
			continue
		}
		top = math.Max(top, v)
		b, err := plotter.NewBarChart(plotter.Values{v}, vg.Points(40))
		if err != nil {
			return err
		}
		b.XMin = float64(len(names))
		b.Color = colorOf(s.Label, i)
		b.LineStyle.Width = 0
		p.Add(b)
		names = append(names, s.Label)
	}
	if len(names) == 0 {
		return fmt.Errorf("%s: nothing to draw", g.Key())
	}
	p.NominalX(names...)
	p.Y.Min, p.Y.Max = 0, top*1.15
	return p.Save(4*vg.Inch, 3*vg.Inch, file)
}

// ratioClip bounds the summary's bars, so one far-off benchmark does not
// squash the others.
const ratioClip = 4.0

// DrawSummary draws gompi/best-peer time ratios per group and size bin as
// horizontal bars (below 1: the subject is faster), with a line at 1.
func DrawSummary(groups []*Group, subject string, peers []string, file string) (int, error) {
	var names []string
	vals := make([]plotter.Values, len(Bins))
	for _, g := range groups {
		row := make([]float64, len(Bins))
		any := false
		for bi, b := range Bins {
			if r, ok := g.BinRatio(subject, peers, b); ok {
				row[bi], any = r, true
			}
		}
		if !any {
			continue
		}
		names = append(names, g.Key())
		for bi := range Bins {
			vals[bi] = append(vals[bi], min(row[bi], ratioClip))
		}
	}
	n := len(names)
	if n == 0 {
		return 0, nil
	}
	// Two empty rows on top hold the legend.
	names = append([]string{"", ""}, names...)
	for bi := range vals {
		vals[bi] = append([]float64{0, 0}, vals[bi]...)
	}
	// Top to bottom in the given order: NominalY counts from the bottom.
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
		for bi := range vals {
			vals[bi][i], vals[bi][j] = vals[bi][j], vals[bi][i]
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s / best of %v (time: below 1, %s is faster)", subject, peers, subject)
	p.X.Label.Text = fmt.Sprintf("time ratio (geometric mean over a size range; bandwidths inverted; cut at %g)", ratioClip)
	w := vg.Points(5)
	for bi, b := range Bins {
		bc, err := plotter.NewBarChart(vals[bi], w)
		if err != nil {
			return 0, err
		}
		bc.Horizontal = true
		bc.Offset = w * vg.Length(bi-1)
		bc.Color = plotutil.Color(bi)
		bc.LineStyle.Width = 0
		p.Add(bc)
		p.Legend.Add("sizes "+b.Name, bc)
	}
	one := plotter.XYs{{X: 1, Y: -0.5}, {X: 1, Y: float64(n) - 0.5}}
	l, err := plotter.NewLine(one)
	if err != nil {
		return 0, err
	}
	l.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(l)
	p.NominalY(names...)
	p.X.Min = 0
	p.Legend.Top = true
	h := vg.Length(len(names))*vg.Points(18) + vg.Inch
	return n, p.Save(7*vg.Inch, h, file)
}

// human writes a byte count as 1, 512, 4K, 1M.
func human(n int64) string {
	switch {
	case n < 0:
		return "-"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "M"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "K"
	}
	return strconv.FormatInt(n, 10)
}
