// Command suitebuild builds a benchmark suite against one MPI library with
// the recipe and cache the acceptance test uses (internal/suitebuild), and
// prints the build tree on stdout:
//
//	suitebuild -lib gompi osu        # OSU 7.4 under build/osu/gompi/osu
//	suitebuild -lib mpich imb IMB-MPI1   # build/osu/mpich/imb-IMB-MPI1
//
// Exit status 0: built (a partial OSU build, make -k, says so on stderr);
// 2: a prerequisite is absent (sources, compiler: the message says which);
// 1: anything else.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"gompi/internal/suitebuild"
)

func main() {
	name := flag.String("lib", "gompi", "library to build against: gompi, mpich or openmpi")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: suitebuild [-lib gompi|mpich|openmpi] osu | imb SUITE")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || (args[0] == "osu") != (len(args) == 1) || (args[0] != "osu" && args[0] != "imb") {
		flag.Usage()
		os.Exit(1)
	}
	wd, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	root, err := suitebuild.RepoRoot(wd)
	if err != nil {
		fail(err)
	}
	l, err := suitebuild.LibByName(root, *name)
	if err != nil {
		fail(err)
	}
	var r suitebuild.Result
	if args[0] == "osu" {
		r, err = suitebuild.OSU(root, l)
	} else {
		r, err = suitebuild.IMB(root, l, args[1])
	}
	if err != nil {
		fail(err)
	}
	if !r.OK {
		fmt.Fprintf(os.Stderr, "suitebuild: %s against %s did not build cleanly (see %s/build.log)\n", args[0], l.Name, r.Dir)
	}
	fmt.Println(r.Dir)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "suitebuild:", err)
	if errors.Is(err, suitebuild.ErrMissing) {
		os.Exit(2)
	}
	os.Exit(1)
}
