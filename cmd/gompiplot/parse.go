package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Metric is one measured quantity of a benchmark.
type Metric struct {
	Name   string // "latency", "bandwidth", ...
	Unit   string // "us", "MB/s"
	Higher bool   // higher is better (bandwidths, rates)
}

// Section is one benchmark's result block in an output: an OSU program's
// whole output, or one "# Benchmarking X / #processes = N" block of IMB.
type Section struct {
	Bench   string   // file-name-friendly name: osu_latency, imb_pingpong
	Title   string   // as printed: "OSU MPI Latency Test v7.4", "IMB-MPI1 PingPong"
	Variant string   // one-sided window and synchronisation, e.g. "allocate,flush"
	Ranks   int      // 0 when the output does not say (OSU)
	Metrics []Metric // what Rows hold, in order
	Rows    []Row
	lay     layout // where Rows come from in a line
}

// Row is one line of results; Size is -1 for benchmarks without a message
// size (barriers).
type Row struct {
	Size int64
	Vals []float64 // one per metric
}

var (
	osuTitleRE = regexp.MustCompile(`^#\s*(OSU .*?)(\s+v[0-9][0-9.]*)?\s*$`)
	imbBenchRE = regexp.MustCompile(`^#\s*Benchmarking\s+(\S+)`)
	imbProcsRE = regexp.MustCompile(`^#\s*#processes\s*=\s*([0-9]+)`)
	osuWinRE   = regexp.MustCompile(`^#\s*Window creation:\s*(\S+)`)
	osuSyncRE  = regexp.MustCompile(`^#\s*Synchronization:\s*(\S+)`)
	colSplitRE = regexp.MustCompile(`\s{2,}`)
)

// Parse reads an OSU or IMB output (several concatenated outputs too) and
// returns its sections. name prefixes error messages. Lines that are
// neither comments nor rows (launcher chatter) are skipped; a row that
// starts like a result but is not one, a benchmark without rows, or a file
// with no benchmark at all is an error.
func Parse(r io.Reader, name string) ([]Section, error) {
	var (
		out      []Section
		cur      *Section
		imbSuite = "IMB"
		lastHash string // the last '#' line: an OSU table's column header
		inRows   bool   // cur has met its column header and reads rows
		ln       int
	)
	finish := func() error {
		if cur != nil && len(cur.Rows) == 0 {
			return fmt.Errorf("%s:%d: %q has no result rows", name, ln, cur.Title)
		}
		if cur != nil {
			out = append(out, *cur)
		}
		cur, inRows = nil, false
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		ln++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			trimmed := strings.TrimSpace(strings.TrimLeft(line, "#"))
			switch {
			case strings.HasPrefix(line, "#bytes") || strings.HasPrefix(line, "#repetitions"):
				// IMB's column header (printed with leading blanks, trimmed here).
				if cur == nil || !strings.HasPrefix(cur.Bench, "imb_") {
					return nil, fmt.Errorf("%s:%d: IMB column header outside a \"# Benchmarking\" block", name, ln)
				}
				if err := imbColumns(cur, line); err != nil {
					return nil, fmt.Errorf("%s:%d: %v", name, ln, err)
				}
				inRows = true
			case osuTitleRE.MatchString(line) && strings.HasPrefix(trimmed, "OSU "):
				if err := finish(); err != nil {
					return nil, err
				}
				m := osuTitleRE.FindStringSubmatch(line)
				cur = &Section{Bench: osuName(m[1]), Title: strings.TrimSpace(m[1] + m[2])}
			case imbBenchRE.MatchString(line):
				if err := finish(); err != nil {
					return nil, err
				}
				b := imbBenchRE.FindStringSubmatch(line)[1]
				cur = &Section{Bench: "imb_" + strings.ToLower(b), Title: imbSuite + " " + b}
			case cur != nil && imbProcsRE.MatchString(line):
				cur.Ranks, _ = strconv.Atoi(imbProcsRE.FindStringSubmatch(line)[1])
			case cur != nil && osuWinRE.MatchString(line):
				cur.Variant = joinVariant(strings.TrimPrefix(osuWinRE.FindStringSubmatch(line)[1], "MPI_Win_"), cur.Variant)
			case cur != nil && osuSyncRE.MatchString(line):
				cur.Variant = joinVariant(cur.Variant, strings.TrimPrefix(osuSyncRE.FindStringSubmatch(line)[1], "MPI_Win_"))
			case strings.Contains(line, "Intel(R) MPI Benchmarks"):
				imbSuite = "IMB"
			case strings.HasPrefix(trimmed, "IMB-"):
				imbSuite = strings.Fields(trimmed)[0]
			}
			lastHash = line
			continue
		}
		fs := strings.Fields(line)
		if !startsNumeric(fs[0]) {
			continue // launcher or library chatter
		}
		if cur == nil {
			return nil, fmt.Errorf("%s:%d: a result row before any OSU title (\"# OSU ... Test\") or IMB \"# Benchmarking\" line: not OSU or IMB output", name, ln)
		}
		if !inRows {
			if strings.HasPrefix(cur.Bench, "imb_") {
				return nil, fmt.Errorf("%s:%d: a row before IMB's \"#bytes\" column header", name, ln)
			}
			if err := osuColumns(cur, lastHash); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, ln, err)
			}
			inRows = true
		}
		if strings.Contains(line, "time-out") {
			continue // IMB gave up on this size: its time limit (-time) ran out
		}
		row, err := parseRow(cur, fs)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v: %q", name, ln, err, line)
		}
		cur.Rows = append(cur.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: not OSU or IMB output (no \"# OSU ... Test\" title, no IMB \"# Benchmarking\" block)", name)
	}
	return out, nil
}

func joinVariant(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "," + b
}

func startsNumeric(s string) bool {
	c := s[0]
	return c >= '0' && c <= '9' || (c == '-' || c == '.') && len(s) > 1
}

// layout: where a section's size and metric values are in a line.
type layout struct {
	sizeCol int   // -1: no size column
	cols    []int // field index per metric
	nfields int   // minimum fields a row has
}

// osuColumns reads an OSU column header ("# Size   Latency (us)", "# Avg
// Latency(us)", "# Size  MB/s  Messages/s", with Min/Max/Iterations or
// Validation columns): the first value column is the metric.
func osuColumns(s *Section, header string) error {
	h := strings.TrimSpace(strings.TrimLeft(header, "#"))
	cols := colSplitRE.Split(h, -1)
	if h == "" || len(cols) == 0 {
		return fmt.Errorf("no column header (\"# Size  Latency (us)\") above the first row of %q", s.Title)
	}
	lay := layout{sizeCol: -1}
	first := 0
	if strings.EqualFold(cols[0], "Size") {
		lay.sizeCol, first = 0, 1
	}
	if first >= len(cols) {
		return fmt.Errorf("column header %q names no measured value", h)
	}
	m := metricOf(cols[first])
	if m.Unit == "" {
		return fmt.Errorf("column header %q: %q is neither a latency (us) nor a bandwidth (MB/s)", h, cols[first])
	}
	s.Metrics = []Metric{m}
	lay.cols = []int{first}
	lay.nfields = first + 1
	s.lay = lay
	return nil
}

func metricOf(col string) Metric {
	l := strings.ToLower(col)
	switch {
	case strings.Contains(l, "mb/s") || strings.Contains(l, "bandwidth") || strings.Contains(l, "mbytes/sec"):
		return Metric{"bandwidth", "MB/s", true}
	case strings.Contains(l, "messages/s"):
		return Metric{"message rate", "msg/s", true}
	case strings.Contains(l, "(us)") || strings.Contains(l, "usec"):
		return Metric{"latency", "us", false}
	}
	return Metric{Name: col}
}

// imbColumns reads IMB's column header: "#bytes #repetitions t[usec]
// Mbytes/sec" (PingPong), "... t_min[usec] t_max[usec] t_avg[usec]
// [Mbytes/sec]" (the rest), without #bytes for barriers. Metrics: the time
// (t_avg, else t) and the bandwidth when there is one.
func imbColumns(s *Section, header string) error {
	fs := strings.Fields(header)
	lay := layout{sizeCol: -1}
	tcol, bwcol := -1, -1
	for i, f := range fs {
		switch f {
		case "#bytes":
			lay.sizeCol = i
		case "t[usec]":
			if tcol < 0 {
				tcol = i
			}
		case "t_avg[usec]":
			tcol = i
		case "Mbytes/sec":
			bwcol = i
		}
	}
	if tcol < 0 {
		return fmt.Errorf("IMB column header %q has no t[usec] or t_avg[usec]", header)
	}
	s.Metrics = []Metric{{"latency", "us", false}}
	lay.cols = []int{tcol}
	lay.nfields = tcol + 1
	if bwcol >= 0 {
		s.Metrics = append(s.Metrics, Metric{"bandwidth", "MB/s", true})
		lay.cols = append(lay.cols, bwcol)
		lay.nfields = max(lay.nfields, bwcol+1)
	}
	s.lay = lay
	return nil
}

func parseRow(s *Section, fs []string) (Row, error) {
	lay := s.lay
	if len(fs) < lay.nfields {
		return Row{}, fmt.Errorf("%d fields where the column header of %q has %d", len(fs), s.Title, lay.nfields)
	}
	r := Row{Size: -1}
	if lay.sizeCol >= 0 {
		n, err := strconv.ParseInt(fs[lay.sizeCol], 10, 64)
		if err != nil || n < 0 {
			return Row{}, fmt.Errorf("message size %q is not a byte count", fs[lay.sizeCol])
		}
		r.Size = n
	}
	for _, c := range lay.cols {
		v, err := strconv.ParseFloat(fs[c], 64)
		if err != nil || v < 0 {
			return Row{}, fmt.Errorf("value %q in column %d is not a non-negative number", fs[c], c+1)
		}
		r.Vals = append(r.Vals, v)
	}
	return r, nil
}

// osuNames maps OSU titles (without "OSU ", the device marker and " Test",
// lower case) to the program that prints them.
var osuNames = map[string]string{
	"mpi latency":                                   "osu_latency",
	"mpi bandwidth":                                 "osu_bw",
	"mpi bi-directional bandwidth":                  "osu_bibw",
	"mpi multiple bandwidth / message rate":         "osu_mbw_mr",
	"mpi multi latency":                             "osu_multi_lat",
	"mpi multi-threaded latency":                    "osu_latency_mt",
	"mpi multi-process latency":                     "osu_latency_mp",
	"mpi latency persistent":                        "osu_latency_persistent",
	"mpi bandwidth persistent":                      "osu_bw_persistent",
	"mpi bi-directional bandwidth persistent":       "osu_bibw_persistent",
	"mpi all-to-all personalized exchange latency":  "osu_alltoall",
	"mpi all-to-allv personalized exchange latency": "osu_alltoallv",
	"mpi all-to-allw personalized exchange latency": "osu_alltoallw",
	"mpi broadcast latency":                         "osu_bcast",
	"mpi non-blocking broadcast latency":            "osu_ibcast",
	"mpi non-blocking all-to-all latency":           "osu_ialltoall",
	"mpi_put latency":                               "osu_put_latency",
	"mpi_get latency":                               "osu_get_latency",
	"mpi_put bandwidth":                             "osu_put_bw",
	"mpi_get bandwidth":                             "osu_get_bw",
	"mpi_put bi-directional bandwidth":              "osu_put_bibw",
	"mpi_accumulate latency":                        "osu_acc_latency",
	"mpi_get_accumulate latency":                    "osu_get_acc_latency",
	"mpi_fetch_and_op latency":                      "osu_fop_latency",
	"mpi_compare_and_swap latency":                  "osu_cas_latency",
}

var deviceRE = regexp.MustCompile(`(?i)^(mpi(_\w+)?)-(cuda|rocm|openacc|sycl)\b`)

// osuName is the program name for an OSU title: known titles by table,
// collectives ("MPI Allreduce Latency Test") by their operation, anything
// else as a slug of the title.
func osuName(title string) string {
	t := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(title, "OSU ")))
	t = strings.TrimSuffix(t, " test")
	t = deviceRE.ReplaceAllString(t, "$1")
	if n, ok := osuNames[t]; ok {
		return n
	}
	if op, ok := strings.CutPrefix(t, "mpi "); ok {
		op = strings.TrimSuffix(op, " latency")
		blocking := true
		if o, ok := strings.CutPrefix(op, "non-blocking "); ok {
			op, blocking = o, false
		}
		persistent := false
		if o, ok := strings.CutSuffix(op, " persistent"); ok {
			op, persistent = o, true
		}
		if !strings.ContainsAny(op, " /") {
			n := "osu_" + op
			if !blocking {
				n = "osu_i" + op
			}
			if persistent {
				n += "_persistent"
			}
			return n
		}
	}
	return "osu_" + strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(t, "_"), "_")
}
