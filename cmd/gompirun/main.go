// Command gompirun starts an MPI job on this node: gompirun -n N prog args.
// Everything but argument handling lives in package launcher.
package main

import (
	"errors"
	"fmt"
	"os"

	"gompi/launcher"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == launcher.DaemonFlag {
		os.Exit(launcher.RunDaemon(os.Args[2:], launcher.Config{Self: self(), Stdout: os.Stdout, Stderr: os.Stderr,
			ShmDir: "/dev/shm", SysCPU: "/sys/devices/system/cpu"}))
	}
	opts, err := launcher.Parse(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "gompirun: %v\n", err)
		if errors.Is(err, launcher.ErrUsage) {
			fmt.Fprintln(os.Stderr, "gompirun: try --help")
		}
		os.Exit(2)
	}
	if opts.Help {
		fmt.Print(launcher.Usage)
		return
	}
	if opts.Version {
		fmt.Print(launcher.VersionText())
		return
	}
	if err := opts.ApplyEnv(os.Getenv); err != nil {
		fmt.Fprintf(os.Stderr, "gompirun: %v\n", err)
		os.Exit(2)
	}
	if opts.ExecBound >= 0 {
		err := launcher.ExecBound(opts.ExecCPUs, opts.Prog, opts.Args)
		fmt.Fprintf(os.Stderr, "gompirun: %v\n", err)
		os.Exit(127)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gompirun: cannot locate own binary: %v\n", err)
		os.Exit(1)
	}
	cfg := launcher.Config{
		Self:    self,
		Stdin:   os.Stdin,
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Environ: os.Environ(),
		ShmDir:  "/dev/shm",
		SysCPU:  "/sys/devices/system/cpu",
	}
	if opts.Tune {
		os.Exit(launcher.RunTune(opts, cfg))
	}
	if opts.Check {
		os.Exit(launcher.CheckForeign(opts, cfg))
	}
	os.Exit(launcher.Run(opts, cfg))
}

// self is our own binary (a daemon re-executes it to pin a rank).
func self() string {
	p, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return p
}
