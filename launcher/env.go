package launcher

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gompi/launcher/tune"
)

// pmiFD is the descriptor number of the PMI socket in every rank: the first
// of exec.Cmd.ExtraFiles.
const pmiFD = 3

// NewJobID returns a job id without '-' or glob characters, so that
// /dev/shm/gompi-<jobid>-* matches exactly this job's files.
func NewJobID() string {
	var b [4]byte
	rand.Read(b[:])
	return strconv.Itoa(os.Getpid()) + "x" + hex.EncodeToString(b[:])
}

// inheritedDrop are variables of an enclosing launcher (Hydra, Slurm, an outer
// gompirun) that would make a rank talk to the wrong process manager.
var inheritedDrop = []string{
	"PMI_FD", "PMI_PORT", "PMI_ID", "PMI_RANK", "PMI_SIZE", "PMI_SPAWNED", "PMI_JOBID",
	"HYDI_CONTROL_FD", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
	"GOMPI_JOBID", "GOMPI_LOCAL_RANK", "GOMPI_LOCAL_SIZE", "GOMPI_NUM_CPUS",
	"GOMPI_OVERSUBSCRIBED", "GOMPI_BOUND_CPU", execPreloadVar,
}

// envList is an ordered environment with set-by-name.
type envList []string

func (e *envList) set(k, v string) {
	prefix := k + "="
	for i, kv := range *e {
		if strings.HasPrefix(kv, prefix) {
			(*e)[i] = prefix + v
			return
		}
	}
	*e = append(*e, prefix+v)
}

func (e *envList) unset(k string) {
	prefix := k + "="
	out := (*e)[:0]
	for _, kv := range *e {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	*e = out
}

func (e envList) get(k string) (string, bool) {
	prefix := k + "="
	for _, kv := range e {
		if strings.HasPrefix(kv, prefix) {
			return kv[len(prefix):], true
		}
	}
	return "", false
}

// BaseEnv is the environment common to all ranks: ours, minus an enclosing
// launcher's variables, plus -x settings and --mpich-binary's preload.
// preload is the library path for --mpich-binary ("" for none).
func BaseEnv(parent []string, x []string, preload string) (envList, error) {
	env := envList(append([]string{}, parent...))
	for _, k := range inheritedDrop {
		env.unset(k)
	}
	for _, spec := range x {
		k, v, hasValue := strings.Cut(spec, "=")
		if !hasValue {
			var ok bool
			v, ok = os.LookupEnv(k)
			if !ok {
				return nil, fmt.Errorf("-x %s: not set in gompirun's environment", k)
			}
		}
		env.set(k, v)
	}
	if preload != "" {
		if old, ok := env.get("LD_PRELOAD"); ok && old != "" {
			preload += ":" + old
		}
		env.set("LD_PRELOAD", preload)
	}
	return env, nil
}

// addTuneFile names the default tuning file (written by gompirun --tune) to
// the ranks when it exists and their environment does not set
// GOMPI_TUNE_FILE. An empty GOMPI_TUNE_FILE counts as set: it is how to run
// without the file.
func addTuneFile(env *envList) {
	if _, set := env.get(tune.EnvFile); set {
		return
	}
	path, err := tune.DefaultPath(func(k string) string { v, _ := env.get(k); return v })
	if err != nil {
		return
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		env.set(tune.EnvFile, path)
	}
}

// RankEnv adds one rank's variables. cpu < 0: not bound.
func RankEnv(base envList, jobID string, rank, np, numCPUs, cpu int) []string {
	env := append(envList{}, base...)
	it := strconv.Itoa
	env.set("PMI_FD", it(pmiFD))
	env.set("PMI_RANK", it(rank))
	env.set("PMI_SIZE", it(np))
	// Hydra's names, read by MPICH and by many tools.
	env.set("MPI_LOCALRANKID", it(rank))
	env.set("MPI_LOCALNRANKS", it(np))
	env.set("GOMPI_JOBID", jobID)
	env.set("GOMPI_LOCAL_RANK", it(rank))
	env.set("GOMPI_LOCAL_SIZE", it(np))
	env.set("GOMPI_NUM_CPUS", it(numCPUs))
	over := "0"
	if np > numCPUs {
		over = "1"
	}
	env.set("GOMPI_OVERSUBSCRIBED", over)
	if cpu >= 0 {
		env.set("GOMPI_BOUND_CPU", it(cpu))
		// The pinning re-exec is a gompirun: keep LD_PRELOAD away from it.
		if v, ok := env.get("LD_PRELOAD"); ok {
			env.unset("LD_PRELOAD")
			env.set(execPreloadVar, v)
		}
	}
	return env
}

// LibraryPath is libgompi.so relative to the gompirun binary: ../lib/.
func LibraryPath(self string) (string, error) {
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	lib := filepath.Join(filepath.Dir(self), "..", "lib", "libgompi.so")
	lib = filepath.Clean(lib)
	if _, err := os.Stat(lib); err != nil {
		return "", fmt.Errorf("--mpich-binary: %s not found (gompirun is %s)", lib, self)
	}
	return lib, nil
}

// ShmFiles lists the job's shared-memory files.
func ShmFiles(dir, jobID string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "gompi-"+jobID+"-*"))
	return m
}

// RemoveShm removes the job's shared-memory files; it returns how many.
func RemoveShm(dir, jobID string) int {
	n := 0
	for _, f := range ShmFiles(dir, jobID) {
		if os.RemoveAll(f) == nil {
			n++
		}
	}
	return n
}
