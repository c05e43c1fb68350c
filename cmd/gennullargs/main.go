// Command gennullargs writes a C program that calls every MPI function a
// library exports with each pointer argument NULL in turn (the others valid)
// and checks that the call returns an error class instead of crashing.
//
// The functions come from the library's dynamic symbol table (nm -D), so
// calls added later are covered once they are exported; their prototypes come
// from the abi table. The expected class is MPI_ERR_ARG, or the class MPICH
// returns for the same call (recorded in -mpich, see scripts/nullargs_mpich.sh).
//
//	go run ./cmd/gennullargs -lib build/lib/libgompi.so -o build/nullargs.c
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	lib := flag.String("lib", "build/lib/libgompi.so", "shared library whose exported MPI_ functions are tested")
	out := flag.String("o", "build/nullargs.c", "C program to write")
	mpich := flag.String("mpich", "tests/c/nullargs_mpich.txt", "classes MPICH returns (\"\": none)")
	list := flag.Bool("list", false, "print the cases instead of the program")
	flag.Parse()
	exported, err := exportedFuncs(*lib)
	if err != nil {
		fail(err)
	}
	var known map[string]string
	if *mpich != "" {
		if known, err = readMPICH(*mpich); err != nil {
			fail(err)
		}
	}
	cases := buildCases(exported, known)
	if *list {
		for _, c := range cases {
			fmt.Printf("%s %s expect %s\n", c.fn.Name, c.param, strings.Join(c.allowed, "|"))
		}
		return
	}
	if err := os.WriteFile(*out, program(cases, exported), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gennullargs:", err)
	os.Exit(1)
}

// exportedFuncs lists the MPI_ functions (not PMPI_) lib defines.
func exportedFuncs(lib string) (map[string]bool, error) {
	out, err := exec.Command("nm", "-D", "--defined-only", lib).Output()
	if err != nil {
		return nil, fmt.Errorf("nm -D %s: %v", lib, err)
	}
	names := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && (f[1] == "T" || f[1] == "W") && strings.HasPrefix(f[2], "MPI_") {
			names[f[2]] = true
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("nm -D %s: no MPI_ functions", lib)
	}
	return names, nil
}

// readMPICH reads "MPI_X param CLASS" lines: what MPICH returned for that
// case (MPI_SUCCESS, an error class name, or CRASH).
func readMPICH(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && !strings.HasPrefix(line, "#") {
			m[f[0]+"."+f[1]] = f[2]
		}
	}
	return m, nil
}
