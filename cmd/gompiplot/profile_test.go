package main

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testdata/profile.json was recorded with gompirun -n 3 --profile=DIR on
// tests/c/profile/pattern.c.

func readProfile(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseProfile(t *testing.T) {
	b := readProfile(t)
	if !IsProfileJSON(b) {
		t.Fatal("profile.json not recognised")
	}
	p, err := ParseProfile(b, "profile.json")
	if err != nil {
		t.Fatal(err)
	}
	if p.Ranks != 3 || len(p.PerRank) != 3 {
		t.Fatalf("ranks %d, records %d", p.Ranks, len(p.PerRank))
	}
	if c := p.PerRank[1].Calls["MPI_Send"]; c.Count != 10 || c.Ns == 0 {
		t.Errorf("rank 1 MPI_Send %+v", c)
	}
	names, vals := profileSeries(p, 4)
	if len(names) != 5 || names[4] != "other" || len(vals) != 5 {
		t.Fatalf("series %v", names)
	}
	// The segments add up to each rank's time in MPI, and the top calls
	// come most time first.
	for r, pr := range p.PerRank {
		sum := 0.0
		for i := range vals {
			sum += vals[i][r]
		}
		if want := float64(*pr.MpiNs) / 1e9; sum < want*0.999 || sum > want*1.001 {
			t.Errorf("rank %d: segments %g s, mpi_ns %g s", r, sum, want)
		}
	}
	tot := func(i int) float64 { return vals[i][0] + vals[i][1] + vals[i][2] }
	for i := 1; i < 4; i++ {
		if tot(i) > tot(i-1) {
			t.Errorf("%s (%g) before %s (%g)", names[i-1], tot(i-1), names[i], tot(i))
		}
	}
	if names[0] != "MPI_Init" {
		t.Errorf("first series %q, want MPI_Init (the recording's largest)", names[0])
	}
	if all, _ := profileSeries(p, 100); slices.Contains(all, "other") {
		t.Errorf("every call fits: no other wanted, got %v", all)
	}
}

// The command draws a profile.json given among its arguments as
// DIR/profile.png (and svg), of the size the ranks ask for.
func TestDrawProfile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in", "profile.json")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, readProfile(t), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := run([]string{"-o", out, src}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, "profile.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	// 5 in of plot (3 ranks) and 2.1 in of legend by 4.5 in, at 96 dpi.
	if w := 7.1 * 96; float64(cfg.Width) < w-1 || float64(cfg.Width) > w+1 || cfg.Height != 432 {
		t.Errorf("picture %dx%d", cfg.Width, cfg.Height)
	}
	if st, _ := f.Stat(); st.Size() < 10000 {
		t.Errorf("picture only %d bytes", st.Size())
	}
	if err := run([]string{"-o", out, "-format", "svg", src}); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(out, "profile.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gompi profile: 3 ranks", "MPI_Init", "MPI_Waitall", "MPI_Recv", "other", "time in MPI calls (ms)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("svg lacks %q", want)
		}
	}
}

func TestMalformedProfile(t *testing.T) {
	good := string(readProfile(t))
	cases := map[string]struct{ text, want string }{
		"truncated":   {good[:len(good)/2], "malformed JSON"},
		"not json":    {"{ranks: 3}", "malformed JSON"},
		"wrong type":  {`{"ranks": "three", "per_rank": []}`, "malformed JSON"},
		"no ranks":    {`{"per_rank": []}`, `"ranks" is 0`},
		"short":       {`{"ranks": 2, "per_rank": [{"rank": 0, "wall_ns": 1, "mpi_ns": 1, "calls": {}}]}`, `1 "per_rank" records for 2 ranks`},
		"order":       {`{"ranks": 1, "per_rank": [{"rank": 3, "wall_ns": 1, "mpi_ns": 1, "calls": {}}]}`, `"per_rank"[0] is rank 3`},
		"no calls":    {`{"ranks": 1, "per_rank": [{"rank": 0, "wall_ns": 1, "mpi_ns": 1}]}`, `rank 0 lacks`},
		"two objects": {good + good, "text after the JSON object"},
		"no time":     {`{"ranks": 1, "per_rank": [{"rank": 0, "wall_ns": 1, "mpi_ns": 0, "calls": {"MPI_Init": {"count": 1, "ns": 0}}}]}`, "no time in any MPI call"},
	}
	dir := t.TempDir()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
			if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			err := run([]string{"-o", dir, file})
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), file) {
				t.Errorf("error %q: want the file and %q", err, c.want)
			}
		})
	}
}
