package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"os"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A profile.json of gompirun --profile=DIR (prof/prof.c writes it): per
// rank, the time in each MPI call. gompiplot draws it as one stacked bar
// per rank, one segment per call (the calls taking most time over all
// ranks, the rest as "other").

// Profile is the part of profile.json the picture needs.
type Profile struct {
	Ranks   int           `json:"ranks"`
	PerRank []ProfileRank `json:"per_rank"`
}

// ProfileRank is one rank's record.
type ProfileRank struct {
	Rank   int                    `json:"rank"`
	WallNs *uint64                `json:"wall_ns"`
	MpiNs  *uint64                `json:"mpi_ns"`
	Calls  map[string]ProfileCall `json:"calls"`
}

// ProfileCall is one call's totals on one rank.
type ProfileCall struct {
	Count uint64 `json:"count"`
	Ns    uint64 `json:"ns"`
}

// profileTop is how many calls get their own segment.
const profileTop = 8

// callColors tell profileTop segments apart ("other" is grey).
var callColors = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
	color.RGBA{227, 119, 194, 255}, color.RGBA{188, 189, 34, 255}, color.RGBA{23, 190, 207, 255},
}

// IsProfileJSON says whether b looks like a JSON document rather than OSU
// or IMB text (which never starts with a brace).
func IsProfileJSON(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// ParseProfile reads a profile.json, rejecting anything that is not one
// with a message naming the file and what is wrong.
func ParseProfile(b []byte, name string) (*Profile, error) {
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: not a gompi profile (gompirun --profile=DIR's profile.json): malformed JSON: %v", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: not a gompi profile: text after the JSON object", name)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: not a gompi profile: %s", name, fmt.Sprintf(format, a...))
	}
	if p.Ranks <= 0 {
		return nil, bad("\"ranks\" is %d, want a positive rank count", p.Ranks)
	}
	if len(p.PerRank) != p.Ranks {
		return nil, bad("%d \"per_rank\" records for %d ranks", len(p.PerRank), p.Ranks)
	}
	for i, r := range p.PerRank {
		if r.Rank != i {
			return nil, bad("\"per_rank\"[%d] is rank %d", i, r.Rank)
		}
		if r.WallNs == nil || r.MpiNs == nil || r.Calls == nil {
			return nil, bad("rank %d lacks \"wall_ns\", \"mpi_ns\" or \"calls\"", i)
		}
	}
	return &p, nil
}

// profileSeries splits the time into the top calls (most time over all
// ranks first) and "other": names and, per series, seconds per rank.
func profileSeries(p *Profile, top int) ([]string, []plotter.Values) {
	total := map[string]uint64{}
	for _, r := range p.PerRank {
		for name, c := range r.Calls {
			total[name] += c.Ns
		}
	}
	var names []string
	for name, ns := range total {
		if ns > 0 {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if total[names[i]] != total[names[j]] {
			return total[names[i]] > total[names[j]]
		}
		return names[i] < names[j]
	})
	rest := false
	if len(names) > top {
		names, rest = names[:top], true
	}
	vals := make([]plotter.Values, len(names))
	var other plotter.Values
	for _, r := range p.PerRank {
		in := 0.0
		for i, name := range names {
			s := float64(r.Calls[name].Ns) / 1e9
			vals[i] = append(vals[i], s)
			in += s
		}
		all := 0.0
		for _, c := range r.Calls {
			all += float64(c.Ns) / 1e9
		}
		other = append(other, math.Max(all-in, 0))
	}
	if rest {
		names = append(names, "other")
		vals = append(vals, other)
	}
	return names, vals
}

// DrawProfile draws p into file (format by extension: png or svg).
func DrawProfile(p *Profile, file, format string) error {
	names, vals := profileSeries(p, profileTop)
	if len(names) == 0 {
		return fmt.Errorf("the profile holds no time in any MPI call")
	}
	// Seconds or milliseconds, whichever reads better.
	peak := 0.0
	for r := range p.PerRank {
		sum := 0.0
		for i := range vals {
			sum += vals[i][r]
		}
		peak = math.Max(peak, sum)
	}
	unit, scale := "s", 1.0
	if peak < 1 {
		unit, scale = "ms", 1e3
	}
	wall := 0.0
	for _, r := range p.PerRank {
		wall = math.Max(wall, float64(*r.WallNs)/1e9)
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("gompi profile: %d ranks, %.3g s from MPI_Init to MPI_Finalize", p.Ranks, wall)
	pl.X.Label.Text = "rank"
	pl.Y.Label.Text = "time in MPI calls (" + unit + ")"
	pl.Add(plotter.NewGrid())

	// Canvas: wider with more ranks; the legend in a column on the right.
	n := p.Ranks
	plotW := vg.Length(math.Min(math.Max(5, 1.5+0.35*float64(n)), 24)) * vg.Inch
	legendW := 2.1 * vg.Inch
	w, h := plotW+legendW, 4.5*vg.Inch
	barW := vg.Length(math.Min(math.Max(float64(plotW-vg.Inch)/float64(n)*0.7, 2), 48))
	leg := plot.NewLegend()
	leg.Top = true
	leg.Left = true
	leg.TextStyle.Font.Size = vg.Points(9)
	var below *plotter.BarChart
	bars := make([]*plotter.BarChart, len(names))
	for i := range names {
		v := make(plotter.Values, n)
		for r := range v {
			v[r] = vals[i][r] * scale
		}
		b, err := plotter.NewBarChart(v, barW)
		if err != nil {
			return err
		}
		b.Color = callColors[i%len(callColors)]
		if names[i] == "other" {
			b.Color = color.Gray{Y: 170}
		}
		b.LineStyle.Width = 0
		if below != nil {
			b.StackOn(below)
		}
		below = b
		bars[i] = b
		pl.Add(b)
	}
	// The legend lists the segments top down, as they stack.
	for i := len(names) - 1; i >= 0; i-- {
		leg.Add(names[i], bars[i])
	}
	labels := make([]string, n)
	for r := range labels {
		labels[r] = strconv.Itoa(r)
		if n > 32 && r%(n/16) != 0 {
			labels[r] = "" // every label would overlap
		}
	}
	pl.NominalX(labels...)
	pl.Y.Min, pl.Y.Max = 0, peak*scale*1.08

	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	pl.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	leg.Draw(draw.Crop(dc, plotW+vg.Points(6), 0, 0, -vg.Points(8)))
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := cw.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
