package launcher

import (
	"debug/elf"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A program built against MPICH may call MPI functions gompi does not define;
// under --mpich-binary those would run MPICH's own, never initialised code.
// The build makes a stub library (StubLibName, next to libgompi.so) whose
// every symbol aborts naming the function; --mpich-binary preloads it after
// libgompi.so, and --check lists such functions before any run.

// StubLibName is the stub library built from libmpich.so.12's exports.
const StubLibName = "libgompi-mpich-stubs.so"

// apiSymbol matches the public names of the MPI interface (C, Fortran,
// MPICH's extensions); MPICH's internal symbols are left alone.
var apiSymbol = regexp.MustCompile(`^(P?MPIX?_[A-Za-z0-9_]+|p?mpix?_[a-z0-9_]+)$`)

// IsAPISymbol reports whether name is a public MPI function name.
func IsAPISymbol(name string) bool { return apiSymbol.MatchString(name) }

// DefinedFuncs lists the functions lib's dynamic symbol table defines.
func DefinedFuncs(lib string) (map[string]bool, error) {
	f, err := elf.Open(lib)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", lib, err)
	}
	out := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			out[s.Name] = true
		}
	}
	return out, nil
}

// importedFuncs lists the undefined dynamic symbols of an ELF file.
func importedFuncs(path string) ([]string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var out []string
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF && s.Name != "" {
			out = append(out, s.Name)
		}
	}
	return out, nil
}

// lddPaths resolves the shared libraries prog loads (ldd's answer).
func lddPaths(prog string) ([]string, error) {
	out, err := exec.Command("ldd", prog).Output()
	if err != nil {
		return nil, fmt.Errorf("ldd %s: %v", prog, err)
	}
	var paths []string
	for _, line := range strings.Split(string(out), "\n") {
		if _, after, ok := strings.Cut(line, "=> "); ok {
			if p, _, _ := strings.Cut(after, " ("); strings.HasPrefix(p, "/") {
				paths = append(paths, p)
			}
		}
	}
	return paths, nil
}

// MissingFuncs lists the MPI functions prog and the libraries it loads
// (other than an MPI library) call that gompiLib does not define, sorted.
func MissingFuncs(prog, gompiLib string) ([]string, error) {
	have, err := DefinedFuncs(gompiLib)
	if err != nil {
		return nil, err
	}
	libs, err := lddPaths(prog)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range append([]string{prog}, libs...) {
		base := filepath.Base(p)
		if strings.HasPrefix(base, "libmpi") || strings.HasPrefix(base, "libgompi") {
			continue // an MPI library itself: its own imports are not the program's
		}
		names, err := importedFuncs(p)
		if err != nil {
			continue // not ELF (a script) or unreadable: nothing to say about it
		}
		for _, n := range names {
			if IsAPISymbol(n) && !have[n] {
				seen[n] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// CheckForeign is gompirun --mpich-binary --check PROGRAM: it prints the MPI
// functions the program needs that gompi lacks and returns the exit status
// (0: none missing, 1: some missing, 2: the check itself failed).
func CheckForeign(opts *Options, cfg Config) int {
	lib, err := LibraryPath(cfg.Self)
	if err == nil {
		var prog string
		if prog, err = exec.LookPath(opts.Prog); err == nil {
			var missing []string
			if missing, err = MissingFuncs(prog, lib); err == nil {
				reportMissing(cfg.Stdout, opts.Prog, missing)
				if len(missing) > 0 {
					return 1
				}
				return 0
			}
		}
	}
	fmt.Fprintf(cfg.Stderr, "gompirun: --check: %v\n", err)
	return 2
}

func reportMissing(w io.Writer, prog string, missing []string) {
	if len(missing) == 0 {
		fmt.Fprintf(w, "gompirun: %s uses only MPI functions gompi implements\n", prog)
		return
	}
	fmt.Fprintf(w, "gompirun: %s uses %d MPI functions gompi does not implement (each aborts the job when called):\n", prog, len(missing))
	for _, n := range missing {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

// stubPreload is the stub library to preload after libgompi.so, or "" when
// the build made none (no MPICH on the build machine).
func stubPreload(gompiLib string) string {
	p := filepath.Join(filepath.Dir(gompiLib), StubLibName)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}
