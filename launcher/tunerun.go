package launcher

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gompi/launcher/tune"
)

// DefaultTuneTime is the measuring time of a whole --tune run; the jobs
// share it, and each adds about a second of start-up and warm-up.
const DefaultTuneTime = 20 * time.Second

// TuneProgram is the measuring program: gompitune next to gompirun.
func TuneProgram(self string) (string, error) {
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	p := filepath.Join(filepath.Dir(self), "gompitune")
	if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s not found or not executable (gompirun is %s; make build puts gompitune next to it)", p, self)
	}
	return p, nil
}

// Placement is a pair of CPUs for the two ranks of a tuning job and the
// setting it measures.
type Placement struct {
	Name string // "same socket", "other socket"
	Key  string // tune.KeySame or tune.KeyCross
	CPUs []int
	Pkgs []int // their sockets; -1 unknown
}

// TunePlacements picks, from the CPUs we may use, [same, cross]: two CPUs of distinct cores
// in one socket (nil when no socket has two) and two CPUs in different
// sockets (nil on a one-socket machine). sysRoot is normally
// /sys/devices/system/cpu; when it cannot be read the first two CPUs count
// as one socket of unknown number.
func TunePlacements(cpus []int, sysRoot string) [2]*Placement {
	var same, cross *Placement
	if len(cpus) < 2 {
		return [2]*Placement{}
	}
	type cpuAt struct{ cpu, pkg, core int }
	var at []cpuAt
	for _, c := range cpus {
		dir := filepath.Join(sysRoot, "cpu"+strconv.Itoa(c), "topology")
		pkg, err1 := readInt(filepath.Join(dir, "physical_package_id"))
		core, err2 := readInt(filepath.Join(dir, "core_id"))
		if err1 != nil || err2 != nil {
			return [2]*Placement{{Name: "same socket", Key: tune.KeySame, CPUs: cpus[:2], Pkgs: []int{-1, -1}}}
		}
		at = append(at, cpuAt{c, pkg, core})
	}
	// Same socket: the first CPU with another core of its socket, else (only
	// hardware threads of one core) with a sibling.
	for pass := 0; pass < 2 && same == nil; pass++ {
		for i := 0; i < len(at) && same == nil; i++ {
			for k := i + 1; k < len(at); k++ {
				a, b := at[i], at[k]
				if a.pkg == b.pkg && (a.core != b.core || pass == 1) {
					same = &Placement{Name: "same socket", Key: tune.KeySame, CPUs: []int{a.cpu, b.cpu}, Pkgs: []int{a.pkg, b.pkg}}
					break
				}
			}
		}
	}
	for k := 1; k < len(at); k++ {
		if at[k].pkg != at[0].pkg {
			cross = &Placement{Name: "other socket", Key: tune.KeyCross, CPUs: []int{at[0].cpu, at[k].cpu}, Pkgs: []int{at[0].pkg, at[k].pkg}}
			break
		}
	}
	return [2]*Placement{same, cross}
}

// tuneOutcome is what was measured for one placement.
type tuneOutcome struct {
	pl      *Placement
	off, on []tune.Point
	eager   int // the eager limit: points up to it do not count
	dec     tune.Decision
	// unstable says how the runs disagreed, "" when they did not.
	unstable string
}

// disagreement compares the decisions each run alone would give. They differ
// when the machine changed under the measurement (other work started or
// stopped): then the averaged crossover is a compromise worth redoing.
func disagreement(offRuns, onRuns [][]tune.Point, eager int) string {
	var seen []string
	for i := range offRuns {
		d, err := tune.Crossover(tune.Rendezvous(offRuns[i], eager), tune.Rendezvous(onRuns[i], eager), tune.DefaultTolerance)
		if err != nil {
			return ""
		}
		v := tune.HumanSize(d.Size)
		if d.Never {
			v = "never"
		}
		seen = append(seen, v)
	}
	for _, v := range seen[1:] {
		if v != seen[0] {
			return fmt.Sprintf("the runs alone would give %s; the machine was not steady, run --tune again when it is idle", strings.Join(seen, " and "))
		}
	}
	return ""
}

// RunTune is gompirun --tune: it runs gompitune for each placement twice
// (each rank once the single-copy sender, which cancels any asymmetry
// between the two CPUs), averages both runs per size, picks the crossover
// and writes the tuning file. It returns gompirun's exit status.
func RunTune(opts *Options, cfg Config) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(cfg.Stderr, "gompirun --tune: "+format+"\n", args...)
		return 1
	}
	env := envList(cfg.Environ)
	defPath, defErr := tune.DefaultPath(func(k string) string { v, _ := env.get(k); return v })
	path := opts.TuneFile
	if path == "" {
		if defErr != nil {
			return fail("no place for the tuning file: %v; use --tune-file", defErr)
		}
		path = defPath
	}
	path, _ = filepath.Abs(path)
	prog, err := TuneProgram(cfg.Self)
	if err != nil {
		return fail("%v", err)
	}
	cpus, err := AllowedCPUs()
	if err != nil {
		return fail("cannot read CPU affinity: %v", err)
	}
	var pls []*Placement
	for _, pl := range TunePlacements(cpus, cfg.SysCPU) {
		if pl != nil {
			pls = append(pls, pl)
		}
	}
	if len(pls) == 0 {
		return fail("needs two CPUs to place its two ranks on; this process may use %d", len(cpus))
	}
	total := opts.TuneTime
	if total <= 0 {
		total = DefaultTuneTime
	}
	const runsPerPlacement = 2
	budget := total / time.Duration(runsPerPlacement*len(pls))
	dir, err := os.MkdirTemp("", "gompi-tune-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(dir)

	w := cfg.Stdout
	fmt.Fprintf(w, "gompirun --tune: single copy (process_vm_readv) against copy-in/copy-out, 16 KiB..8 MiB, about %v\n",
		(budget+2*time.Second)*time.Duration(runsPerPlacement*len(pls)))
	busy := busyWarning(len(cpus))
	if busy != "" {
		fmt.Fprintf(w, "warning: %s\n", busy)
	}
	var outs []*tuneOutcome
	for _, pl := range pls {
		o := &tuneOutcome{pl: pl}
		var offRuns, onRuns [][]tune.Point
		for getRank := 0; getRank < runsPerPlacement; getRank++ {
			fmt.Fprintf(w, "  %s, CPUs %d and %d: rank %d sends in one copy ...\n", pl.Name, pl.CPUs[0], pl.CPUs[1], getRank)
			res, err := runTuneJob(opts, cfg, prog, pl, getRank, budget, filepath.Join(dir, fmt.Sprintf("%s-%d.json", pl.Key, getRank)))
			if err != nil {
				return fail("%s: %v", pl.Name, err)
			}
			if !res.CMA {
				return fail("single copy does not work between two ranks here (process_vm_readv: %s; see /proc/sys/kernel/yama/ptrace_scope); "+
					"the library copies in and out anyway, so there is nothing to tune", res.CMAError)
			}
			if !res.Verified {
				return fail("the library did not use the protocols gompitune asked for (received single copy/fragments: rank 0 %d/%d, rank 1 %d/%d); "+
					"its numbers would be mislabelled", res.Received[0].Get, res.Received[0].Pipe, res.Received[1].Get, res.Received[1].Pipe)
			}
			if res.SameSocket != (pl.Key == tune.KeySame) && pl.Pkgs[0] >= 0 {
				fmt.Fprintf(w, "warning: the library sees ranks on CPUs %d and %d as same socket = %v\n", res.CPUs[0], res.CPUs[1], res.SameSocket)
			}
			offRuns, onRuns = append(offRuns, res.Off), append(onRuns, res.On)
			o.eager = res.EagerLimit
		}
		if o.off, err = tune.Mean(offRuns...); err == nil {
			o.on, err = tune.Mean(onRuns...)
		}
		if err == nil && len(tune.Rendezvous(o.off, o.eager)) == 0 {
			err = fmt.Errorf("every measured size is at most the eager limit (%d bytes): nothing to decide", o.eager)
		}
		if err == nil {
			o.dec, err = tune.Crossover(tune.Rendezvous(o.off, o.eager), tune.Rendezvous(o.on, o.eager), tune.DefaultTolerance)
		}
		if err != nil {
			return fail("%s: %v", pl.Name, err)
		}
		o.unstable = disagreement(offRuns, onRuns, o.eager)
		if o.unstable != "" {
			fmt.Fprintf(w, "warning: %s: %s\n", pl.Name, o.unstable)
		}
		outs = append(outs, o)
	}

	comments, settings := tuneFileContent(outs, busy)
	fmt.Fprintln(w)
	for _, c := range comments[tuneHeaderLines:] {
		fmt.Fprintln(w, c)
	}
	if err := tune.Write(path, comments, settings); err != nil {
		return fail("writing %s: %v", path, err)
	}
	fmt.Fprintf(w, "\nwrote %s:\n", path)
	for _, s := range settings {
		fmt.Fprintf(w, "  %s=%s\n", s.Key, s.Value)
	}
	if v, ok := env.get(tune.EnvFile); ok && v != path {
		fmt.Fprintf(w, "note: %s=%q is set here, so ranks started from this environment read that file instead\n", tune.EnvFile, v)
	} else if !ok && path != defPath {
		fmt.Fprintf(w, "note: not the default path; run jobs with -x %s=%s to use it\n", tune.EnvFile, path)
	}
	return 0
}

// tuneJobSlack is how much longer than its budget a tuning job may run
// before it counts as hung: start-up, the fixed repetitions of every size,
// and a busy machine (the measurements are then poor, but they end).
const tuneJobSlack = 5 * time.Minute

// runTuneJob runs gompitune once as a job of its own and reads its result.
func runTuneJob(opts *Options, cfg Config, prog string, pl *Placement, getRank int, budget time.Duration, out string) (*tune.Result, error) {
	job := &Options{NP: 2, BindTo: BindCore, CPUSet: pl.CPUs, Env: opts.Env, ExecBound: -1,
		Timeout: 4*budget + tuneJobSlack, Prog: prog,
		Args: []string{"-q", "-o", out, "-budget", budget.String(), "-get-rank", strconv.Itoa(getRank)}}
	jcfg := cfg
	jcfg.Stdin = nil
	if code := Run(job, jcfg); code != 0 {
		return nil, fmt.Errorf("%s exited with status %d", prog, code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var res tune.Result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("%s: %v", out, err)
	}
	return &res, nil
}

// tuneHeaderLines is the part of the file's comments not repeated on stdout.
const tuneHeaderLines = 5

// tuneFileContent is the tuning file: what was measured, as comments, and
// the two settings.
func tuneFileContent(outs []*tuneOutcome, busy string) ([]string, []tune.Setting) {
	host, _ := os.Hostname()
	c := []string{
		fmt.Sprintf("gompi tuning file, written by gompirun --tune on %s at %s.", host, time.Now().UTC().Format(time.RFC3339)),
		"KEY=value lines. The library reads the file named by GOMPI_TUNE_FILE; gompirun sets that",
		"to the default path (~/.config/gompi/tune.conf) when the file exists and the variable is",
		"unset. Variables in the environment win over lines here.",
		"",
		"Single-copy crossover: the smallest rendezvous message from which process_vm_readv is at",
		fmt.Sprintf("least as fast as copy-in/copy-out (within %.0f%%) in latency (message there, empty reply", tune.DefaultTolerance*100),
		"back) and in windowed bandwidth at every larger size measured. Per size: the median of",
		"many interleaved repetitions of both modes, averaged over two runs.",
		"Messages up to the eager limit never use either protocol and do not count.",
	}
	if busy != "" {
		c = append(c, "Warning: "+busy)
	}
	var settings []tune.Setting
	for _, o := range outs {
		largest := o.off[len(o.off)-1].Size
		c = append(c, "", fmt.Sprintf("%s (CPUs %d and %d): %s.", o.pl.Name, o.pl.CPUs[0], o.pl.CPUs[1], o.dec.Describe(largest)))
		if o.unstable != "" {
			c = append(c, "Warning: "+o.unstable+".")
		}
		for _, l := range tune.Table(o.off, o.on, o.eager, tune.DefaultTolerance) {
			c = append(c, "  "+l)
		}
		settings = append(settings, tune.Setting{Key: o.pl.Key, Value: o.dec.Value()})
	}
	if len(outs) == 1 && outs[0].pl.Key == tune.KeySame {
		c = append(c, "", "One socket here: the other-socket setting repeats the same-socket one.")
		settings = append(settings, tune.Setting{Key: tune.KeyCross, Value: outs[0].dec.Value()})
	} else if len(outs) == 1 {
		c = append(c, "", "No two usable CPUs share a socket: the same-socket setting repeats the other-socket one.")
		settings = append([]tune.Setting{{Key: tune.KeySame, Value: outs[0].dec.Value()}}, settings...)
	}
	return c, settings
}

// busyWarning says when other work was running as the measurement started:
// it competes for the CPUs and caches and the numbers say less.
func busyWarning(ncpu int) string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	load, err := strconv.ParseFloat(f[0], 64)
	if err != nil || load < 0.5 {
		return ""
	}
	return fmt.Sprintf("the machine was busy (load average %.2f on %d CPUs); measurements on an idle machine are more reliable", load, ncpu)
}
