package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gompi/abi"
	"gompi/hitopo"
)

// Habits are the options people type from Open MPI's mpirun and Hydra's
// mpiexec, with the meaning those give them.
type Habits struct {
	PerNode     int    // -N, -ppn, --npernode: processes per node (-n defaults to it)
	Wdir        string // -wdir, --wdir: the ranks' working directory
	OutputDir   string // --output-filename: also write DIR/<job>/rank.<r>/stdout|stderr
	MergeStderr bool   // --merge-stderr-to-stdout
	Timestamp   bool   // --timestamp-output
	Quiet       bool   // -q, --quiet: no gompirun messages about the job's end
	Version     bool   // --version
	ExecCPUs    []int  // internal: the CPUs --exec-bound pins to

	// Profile is --profile: "1" for the table on stderr, or the directory
	// --profile=DIR writes profile.json to ("" off).
	Profile string
}

// knownOptions are the names an unknown option is compared with.
var knownOptions = []string{
	"-n", "-np", "-c", "-x", "--bind-to", "--report-bindings", "--tag-output", "--timeout",
	"--mpich-binary", "--check", "--cpu-set", "--cpu-list", "--universe-size", "--tune", "--tune-file", "--tune-time", "--help",
	"-N", "-ppn", "--npernode", "--oversubscribe", "--allow-run-as-root", "-wdir", "--wdir",
	"-genv", "-env", "-genvlist", "-genvall", "--output-filename", "--merge-stderr-to-stdout",
	"--timestamp-output", "-q", "--quiet", "--version", "--profile",
	"-H", "--host", "--hostfile", "-f", "--machinefile", "--map-by", "--launch-agent",
}

// HabitsUsage is the part of --help about these options.
const HabitsUsage = `
options as Open MPI's mpirun and Hydra's mpiexec take them:
  -N, -ppn, --npernode N      processes per node (-n defaults to N times the hosts)
  --bind-to socket|numa       bind each rank to every CPU of the socket (NUMA node)
                              of the core --bind-to core would give it
  --oversubscribe             accepted: more ranks than CPUs is always allowed
  --allow-run-as-root         accepted: gompirun does not refuse root
  -wdir, --wdir DIR           the ranks' working directory
  -genv VAR VALUE, -env VAR VALUE
                              like -x VAR=VALUE (also -genv VAR=VALUE)
  -genvlist VAR1,VAR2         like -x VAR1 -x VAR2; -genvall is the default
  --output-filename DIR       also write each rank's output to
                              DIR/<job>/rank.<r>/stdout and stderr (job 1 is the world)
  --merge-stderr-to-stdout    the ranks' stderr goes to stdout, in order
  --timestamp-output          prefix each line with the time it was forwarded
  -q, --quiet                 no gompirun messages about the job's end (the exit
                              status still says how it ended)
  --version                   print gompirun's version

  --profile[=DIR]             at MPI_Finalize rank 0 prints each rank's time in
                              MPI and waiting, the calls by time and the bytes sent
                              by size and peer; =DIR also writes DIR/profile.json
                              and draws it as DIR/profile.png (time per call per rank)
                              (preloads ../lib/libgompi-prof.so: no cost without it)
  MPIEXEC_TIMEOUT=SECONDS     in the environment: as --timeout (the option wins)
`

// parseHabit handles the options of Habits; false: not one of them.
func (o *Options) parseHabit(name string, hasInline bool, value func() (string, error)) (bool, error) {
	flag := func() error {
		if hasInline {
			return usageErr("option %s takes no value", name)
		}
		return nil
	}
	switch name {
	case "N", "ppn", "npernode":
		v, err := value()
		if err != nil {
			return true, err
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return true, usageErr("-%s %q: need a positive number of processes per node", name, v)
		}
		o.PerNode = n
	case "oversubscribe", "allow-run-as-root", "genvall":
		return true, flag()
	case "wdir":
		v, err := value()
		if err != nil {
			return true, err
		}
		if v == "" {
			return true, usageErr("-wdir needs a directory")
		}
		o.Wdir = v
	case "genv", "env":
		v, err := value()
		if err != nil {
			return true, err
		}
		if !strings.Contains(v, "=") { // Hydra's form: -genv VAR VALUE
			val, err := value()
			if err != nil {
				return true, err
			}
			v += "=" + val
		}
		k, _, _ := strings.Cut(v, "=")
		if !validEnvName(k) {
			return true, usageErr("-%s %q: not an environment variable name", name, k)
		}
		o.Env = append(o.Env, v)
	case "genvlist", "envlist":
		v, err := value()
		if err != nil {
			return true, err
		}
		for _, k := range strings.Split(v, ",") {
			if !validEnvName(k) {
				return true, usageErr("-%s %q: not a list of environment variable names", name, v)
			}
			o.Env = append(o.Env, k)
		}
	case "output-filename":
		v, err := value()
		if err != nil {
			return true, err
		}
		if v == "" {
			return true, usageErr("--output-filename needs a directory")
		}
		o.OutputDir = v
	case "merge-stderr-to-stdout":
		o.MergeStderr = true
		return true, flag()
	case "timestamp-output":
		o.Timestamp = true
		return true, flag()
	case "q", "quiet":
		o.Quiet = true
		return true, flag()
	case "profile":
		o.Profile = "1"
		if hasInline {
			if inline, _ := value(); inline != "" {
				o.Profile = inline
			}
		}
	case "version", "V":
		o.Version = true
		return true, flag()
	default:
		return false, nil
	}
	return true, nil
}

// parseExecCPUs reads --exec-bound's CPU list.
func (o *Options) parseExecCPUs(v string) error {
	cpus, err := hitopo.ParseCPUList(v)
	if err != nil || len(cpus) == 0 {
		return usageErr("--exec-bound %q: need a CPU list", v)
	}
	o.ExecBound, o.ExecCPUs = cpus[0], cpus
	return nil
}

// finishHabits applies what depends on other options.
func (o *Options) finishHabits(npSet bool) {
	if o.PerNode > 0 && !npSet && len(o.Hosts) == 0 {
		o.NP = o.PerNode // one node: -N alone sets the job's size
	}
}

// unknownOption names the closest known option.
func unknownOption(a string) error {
	name, _, _ := strings.Cut(a, "=")
	best, bestD := "", 1<<30
	for _, k := range knownOptions {
		d := editDistance(strings.TrimLeft(name, "-"), strings.TrimLeft(k, "-"))
		if d < bestD {
			best, bestD = k, d
		}
	}
	return usageErr("unknown option %s (closest: %s)", name, best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ApplyEnv reads MPIEXEC_TIMEOUT (Hydra's convention, which test suites use
// to bound a job) as --timeout when the option is not given.
func (o *Options) ApplyEnv(getenv func(string) string) error {
	v := getenv("MPIEXEC_TIMEOUT")
	if v == "" || o.Timeout > 0 || o.ExecBound >= 0 || o.Help || o.Version {
		return nil
	}
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || s <= 0 || s > 1e9 {
		return usageErr("MPIEXEC_TIMEOUT=%q: need a positive number of seconds", v)
	}
	o.Timeout = time.Duration(s * float64(time.Second))
	return nil
}

// VersionText is what --version prints.
func VersionText() string {
	return fmt.Sprintf("gompirun (gompi) %s\nMPI %d.%d, MPICH ABI\n", abi.GompiVersion, abi.Version, abi.Subversion)
}

// addProfile preloads the profiling library for --profile (before any
// other preload, so its MPI_ functions come first) and tells it where to
// write.
func addProfile(env *envList, profile, self string) error {
	if profile == "" {
		return nil
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	lib := filepath.Clean(filepath.Join(filepath.Dir(self), "..", "lib", "libgompi-prof.so"))
	if _, err := os.Stat(lib); err != nil {
		return fmt.Errorf("--profile: %s not found (gompirun is %s)", lib, self)
	}
	if profile != "1" {
		dir, err := filepath.Abs(profile)
		if err == nil {
			err = os.MkdirAll(dir, 0o755)
		}
		if err != nil {
			return fmt.Errorf("--profile=%s: %v", profile, err)
		}
		profile = dir
	}
	if old, ok := env.get("LD_PRELOAD"); ok && old != "" {
		lib += ":" + old
	}
	env.set("LD_PRELOAD", lib)
	env.set("GOMPI_PROFILE", profile)
	return nil
}

// checkWdir makes sure -wdir names a directory before anything starts.
func checkWdir(dir string) error {
	if dir == "" {
		return nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("-wdir: %v", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("-wdir %s: not a directory", dir)
	}
	return nil
}
