// Package launcher is gompirun: it starts the ranks of one job on this node,
// serves them PMI-1, forwards stdio and signals, and ends the whole job with a
// clear message when any rank fails. cmd/gompirun is a thin main around it.
package launcher

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gompi/hitopo"
)

// Binding policies for --bind-to.
const (
	BindAuto   = ""     // core when every rank gets its own CPU, else none
	BindCore   = "core" // one CPU per rank; an error when oversubscribed
	BindNone   = "none"
	BindSocket = "socket" // every CPU of the rank's socket
	BindNUMA   = "numa"   // every CPU of the rank's NUMA node
)

// Options is a parsed gompirun command line.
type Options struct {
	NP             int
	Env            []string // -x values: "VAR" (copy from our environment) or "VAR=value"
	BindTo         string
	ReportBindings bool
	TagOutput      bool
	Timeout        time.Duration // 0: none
	MPICHBinary    bool
	Check          bool  // --check (with --mpich-binary): list missing functions, run nothing
	CPUSet         []int // --cpu-set: bind only to these CPUs
	UniverseSize   int   // --universe-size: MPI_UNIVERSE_SIZE (0: the CPUs, at least -n)
	Help           bool
	Prog           string
	Args           []string

	// --tune: measure the single-copy crossover and write a tuning file
	// (TuneFile, "" for the default path) instead of running a program.
	Tune     bool
	TuneFile string
	TuneTime time.Duration // total measuring time; 0: DefaultTuneTime

	// Across hosts (hostopts.go): ranks go to daemons on these hosts.
	Hosts       []Host
	MapBy       string
	LaunchAgent string // command that runs a command on a host; default ssh

	// ExecBound >= 0 selects the internal re-exec mode: pin this process to
	// that CPU and exec Prog (used between fork and the rank's program).
	ExecBound int

	Habits // options from Open MPI's and Hydra's habits (habits.go)
}

// Usage is the --help text.
const Usage = `usage: gompirun [options] program [args...]
       gompirun --tune [--tune-file PATH] [--tune-time SECONDS] [-x VAR[=value]]

Start N processes of program on this node as one MPI job.

options:
  -n, -np N            number of processes (default 1)
  -x VAR[=value]       export VAR (with value, or as set here) to every rank; repeatable
  --bind-to core|none  pin each rank to one CPU (default: core when N is at most the
                       CPUs this launcher may use, none when oversubscribed)
  --report-bindings    print the CPU each rank is bound to
  --tag-output         prefix every output line with [1,rank]<stdout>: or <stderr>:
  --timeout SECONDS    end the job with an error when it runs longer
  --mpich-binary       run a program built against MPICH on gompi (LD_PRELOAD of
                       ../lib/libgompi.so next to this gompirun); an MPI function
                       gompi does not implement aborts the job naming it
  --check              with --mpich-binary: list the MPI functions the program (and
                       the libraries it loads) needs that gompi lacks; run nothing
  --cpu-set LIST       bind ranks only to these CPUs (e.g. 0,2-3), in topology order
  --universe-size N    MPI_UNIVERSE_SIZE (default: the CPUs this launcher may use,
                       at least -n); MPI_Comm_spawn may start more
  --tune               measure where single copy beats copy-in/copy-out on this
                       machine and write a tuning file (runs gompitune, found next
                       to gompirun, under -n 2 --bind-to core); no program
  --tune-file PATH     where --tune writes (default $XDG_CONFIG_HOME/gompi/tune.conf
                       or ~/.config/gompi/tune.conf)
  --tune-time SECONDS  measuring time of --tune in all (default 20)
  -H, --host a,b:N     run on these hosts (N slots each, default 1) through one
                       daemon per host started by the launch agent; -n defaults
                       to the slots in all
  -f, --hostfile F     hosts from file F: "host slots=N" or "host:N" a line, # comments
  --map-by slot|core|node  fill each host's slots in turn (slot, core; default) or
                       place ranks round robin over the hosts (node)
  --launch-agent CMD   how to run a command on a host: CMD host command... (default
                       ssh); localhost and this host's name need no agent
  -h, --help           this text
` + HabitsUsage + `
Each rank gets GOMPI_TUNE_FILE naming the default tuning file when that file
exists and the variable is not set. Each rank gets PMI_FD, PMI_RANK, PMI_SIZE, GOMPI_JOBID, GOMPI_LOCAL_RANK,
GOMPI_LOCAL_SIZE, GOMPI_NUM_CPUS, GOMPI_OVERSUBSCRIBED and, when pinned,
GOMPI_BOUND_CPU. Standard input goes to rank 0. When a rank dies, aborts or
exits without MPI_Finalize, the whole job is ended.
`

// ErrUsage wraps command-line errors; the caller prints Usage hints.
var ErrUsage = errors.New("usage")

func usageErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}

// Parse reads gompirun's arguments (without argv[0]). Options come first; the
// first non-option word is the program and everything after it is its own.
func Parse(args []string) (*Options, error) {
	o := &Options{NP: 1, ExecBound: -1}
	npSet := false
	i := 0
	// value returns the option's argument, inline (--opt=v) or the next word.
	value := func(name, inline string, hasInline bool) (string, error) {
		if hasInline {
			return inline, nil
		}
		if i+1 >= len(args) {
			return "", usageErr("option %s needs a value", name)
		}
		i++
		return args[i], nil
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name := strings.TrimLeft(a, "-")
		inline, hasInline := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, inline, hasInline = k, v, true
		}
		switch name {
		case "n", "np", "c":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, usageErr("%s %q: need a positive number of processes", name, v)
			}
			o.NP, npSet = n, true
		case "universe-size":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, usageErr("--universe-size %q: need a positive number of processes", v)
			}
			o.UniverseSize = n
		case "x":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			k, _, _ := strings.Cut(v, "=")
			if !validEnvName(k) {
				return nil, usageErr("-x %q: not an environment variable name", v)
			}
			o.Env = append(o.Env, v)
		case "bind-to":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			switch v {
			case "core", "hwthread", "cpu":
				o.BindTo = BindCore
			case "none":
				o.BindTo = BindNone
			case "socket", "package":
				o.BindTo = BindSocket
			case "numa":
				o.BindTo = BindNUMA
			default:
				return nil, usageErr("--bind-to %q: use core, socket, numa or none", v)
			}
		case "report-bindings":
			o.ReportBindings = true
		case "tag-output":
			o.TagOutput = true
		case "timeout":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			s, err := strconv.ParseFloat(v, 64)
			if err != nil || s <= 0 || math.IsInf(s, 0) || s > 1e9 {
				return nil, usageErr("--timeout %q: need a positive number of seconds", v)
			}
			o.Timeout = time.Duration(s * float64(time.Second))
		case "mpich-binary":
			o.MPICHBinary = true
		case "check":
			o.Check = true
		case "cpu-set", "cpu-list":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			cpus, err := hitopo.ParseCPUList(v)
			if err != nil || len(cpus) == 0 {
				return nil, usageErr("--cpu-set %q: need a CPU list such as 0,2-3", v)
			}
			o.CPUSet = cpus
		case "tune":
			o.Tune = true
		case "tune-file":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			if v == "" {
				return nil, usageErr("--tune-file needs a path")
			}
			o.TuneFile = v
		case "tune-time":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			s, err := strconv.ParseFloat(v, 64)
			if err != nil || s <= 0 || s > 3600 {
				return nil, usageErr("--tune-time %q: need a positive number of seconds, at most 3600", v)
			}
			o.TuneTime = time.Duration(s * float64(time.Second))
		case "host", "H", "hosts", "hostfile", "f", "machinefile", "map-by", "launch-agent":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			if err := o.parseHostOption(name, v); err != nil {
				return nil, err
			}
		case "h", "help":
			o.Help = true
			return o, nil
		case "exec-bound":
			v, err := value(a, inline, hasInline)
			if err != nil {
				return nil, err
			}
			if err := o.parseExecCPUs(v); err != nil {
				return nil, err
			}
		default:
			ok, err := o.parseHabit(name, hasInline, func() (string, error) { return value(a, inline, hasInline) })
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, unknownOption(a)
			}
			if o.Version {
				return o, nil
			}
		}
		if hasInline && (name == "report-bindings" || name == "tag-output" || name == "mpich-binary" || name == "tune" || name == "check") {
			return nil, usageErr("option %s takes no value", name)
		}
	}
	o.finishHabits(npSet)
	if o.Tune {
		return o, tuneArgs(o, npSet, i < len(args))
	}
	if o.TuneFile != "" || o.TuneTime != 0 {
		return nil, usageErr("--tune-file and --tune-time go with --tune")
	}
	if i >= len(args) {
		return nil, usageErr("no program to run")
	}
	if o.Check && !o.MPICHBinary {
		return nil, usageErr("--check goes with --mpich-binary")
	}
	o.Prog = args[i]
	o.Args = append([]string{}, args[i+1:]...)
	if err := o.checkHosts(npSet); err != nil {
		return nil, err
	}
	if o.ExecBound >= 0 && (npSet || len(o.Env) > 0) {
		return nil, usageErr("--exec-bound is internal and takes only a program")
	}
	return o, nil
}

// tuneArgs checks a --tune command line: it runs its own program on two
// ranks, so neither a program nor a process count fits.
func tuneArgs(o *Options, npSet, program bool) error {
	switch {
	case program:
		return usageErr("--tune runs gompitune itself and takes no program")
	case npSet && o.NP != 2:
		return usageErr("--tune runs 2 processes")
	case o.BindTo == BindNone || len(o.CPUSet) > 0:
		return usageErr("--tune places its ranks itself (--bind-to core on chosen CPUs)")
	case o.MPICHBinary || o.ExecBound >= 0:
		return usageErr("--tune does not go with --mpich-binary")
	}
	o.NP = 2
	return nil
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
