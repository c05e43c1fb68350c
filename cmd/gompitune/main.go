// Command gompitune measures, between two ranks, where single copy
// (process_vm_readv) starts to beat copy-in/copy-out for rendezvous messages
// of 16 KiB..8 MiB: a ping-pong (the message there, an empty reply back) and
// windowed bandwidth per size, in both modes, interleaved in one job.
// `gompirun --tune` runs it and writes the tuning file; run by hand it prints
// a table:
//
//	gompirun -n 2 --bind-to core gompitune
//
// Both modes in one job: before MPI_Init each rank sets its own settings
// (the environment wins over any tuning file). The sender picks the protocol
// of a rendezvous message, so rank -get-rank runs with
// GOMPI_SM_SINGLE_COPY=on and every message it sends is read by the receiver
// in one copy, while the other rank never prefers single copy (crossover
// 1 GiB) and every message it sends goes in fragments through shared memory.
// The receive counters of both ranks confirm it at the end.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"gompi/launcher/tune"
	"gompi/mpi"
)

type config struct {
	out     string
	budget  time.Duration
	lo, hi  int
	steps   int
	window  int
	reps    int
	getRank int
	quiet   bool
}

func parseFlags() config {
	var c config
	var lo, hi string
	flag.StringVar(&c.out, "o", "", "write the result as JSON to this file (rank 0)")
	flag.DurationVar(&c.budget, "budget", 10*time.Second, "measuring time of the whole run")
	flag.StringVar(&lo, "min", "16k", "smallest message size")
	flag.StringVar(&hi, "max", envOr("GOMPI_TUNE_MAX", "8m"), "largest message size (default from GOMPI_TUNE_MAX: tests measure less)")
	flag.IntVar(&c.steps, "steps", 2, "sizes per doubling")
	flag.IntVar(&c.window, "window", 16, "messages in flight in the bandwidth test (fewer when they would pass 64 MiB)")
	flag.IntVar(&c.reps, "reps", 5, "least repetitions per size, metric and mode (more when the budget allows); the median counts")
	flag.IntVar(&c.getRank, "get-rank", 0, "the rank whose sends use single copy (0 or 1)")
	flag.BoolVar(&c.quiet, "q", false, "print no table")
	flag.Parse()
	var err error
	if c.lo, err = tune.ParseSize(lo); err == nil {
		c.hi, err = tune.ParseSize(hi)
	}
	switch {
	case err != nil:
	case flag.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", flag.Arg(0))
	case c.lo <= 0 || c.hi < c.lo:
		err = fmt.Errorf("need 0 < -min <= -max")
	case c.steps < 1 || c.window < 1 || c.reps < 1 || c.budget <= 0:
		err = fmt.Errorf("-steps, -window, -reps and -budget must be positive")
	case c.getRank != 0 && c.getRank != 1:
		err = fmt.Errorf("-get-rank must be 0 or 1")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gompitune: %v\n", err)
		os.Exit(2)
	}
	return c
}

// setModes gives this rank its single-copy settings before MPI_Init reads
// them; it returns the rank the launcher gave us.
func setModes(getRank int) int {
	me, err := strconv.Atoi(os.Getenv("PMI_RANK"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gompitune: PMI_RANK is not set; run me under gompirun -n 2")
		os.Exit(2)
	}
	if me == getRank {
		os.Setenv("GOMPI_SM_SINGLE_COPY", "on")
		return me
	}
	never := tune.FormatSize(tune.NeverSize)
	os.Setenv("GOMPI_SM_SINGLE_COPY", "auto") // able to read in one copy, never asking for it
	os.Setenv(tune.KeySame, never)
	os.Setenv(tune.KeyCross, never)
	os.Setenv("GOMPI_SM_SLOW_GET_MIN", "0") // nor when its copies run slow: this rank measures copy-in/copy-out
	return me
}

func main() {
	cfg := parseFlags()
	pmiRank := setModes(cfg.getRank)
	if err := mpi.Init(); err != nil {
		fmt.Fprintf(os.Stderr, "gompitune: %v\n", err)
		os.Exit(1)
	}
	c := mpi.World()
	if c.Size() != 2 || c.Rank() != pmiRank {
		if c.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "gompitune: needs exactly 2 ranks, not %d (gompirun -n 2 --bind-to core gompitune)\n", c.Size())
		}
		mpi.Finalize()
		os.Exit(2)
	}
	start := time.Now()
	res := tune.Result{GetRank: cfg.getRank, Window: cfg.window, EagerLimit: mpi.Engine().EagerLimit(1 - c.Rank())}
	describePlacement(c, &res)

	b := newBench(c, cfg)
	sizes := tune.Sizes(cfg.lo, cfg.hi, cfg.steps)
	per := cfg.budget / time.Duration(2*len(sizes))
	us := func(d time.Duration) float64 { return float64(d) / 1e3 }
	for _, size := range sizes {
		lat := b.measure(latency, size, per)
		bw := b.measure(bandwidth, size, per)
		mbs := func(d time.Duration) float64 { return float64(size*b.window(size)) / d.Seconds() / 1e6 }
		get, copied := cfg.getRank, 1-cfg.getRank
		if c.Rank() == 0 {
			res.On = append(res.On, tune.Point{Size: size, Latency: us(lat[get]), Bandwidth: mbs(bw[get])})
			res.Off = append(res.Off, tune.Point{Size: size, Latency: us(lat[copied]), Bandwidth: mbs(bw[copied])})
		}
	}
	verify(b, &res)
	res.Seconds = time.Since(start).Seconds()
	if c.Rank() == 0 {
		if !cfg.quiet {
			printTable(res)
		}
		if cfg.out != "" {
			js, _ := json.MarshalIndent(res, "", "  ")
			if err := os.WriteFile(cfg.out, append(js, '\n'), 0o644); err != nil {
				fmt.Fprintf(os.Stderr, "gompitune: %v\n", err)
				mpi.Abort(c, 1)
			}
		}
	}
	mpi.Finalize()
}

// verify collects both ranks' receive counters on rank 0: the rank that
// receives single-copy sends must have read every rendezvous message in one
// copy, the other must have received every one in fragments. Anything else
// means the library chose protocols differently than this program assumes
// (or single copy failed), and the numbers would be mislabelled.
func verify(b *bench, res *tune.Result) {
	cnt := mpi.Engine().Counters
	if b.me == 1 {
		b.ctl[0], b.ctl[1] = int64(cnt.RndvGet), int64(cnt.RndvPipe)
		b.send(b.ctl[:2], tagCtl)
		return
	}
	res.Received[0] = tune.Recv{Get: cnt.RndvGet, Pipe: cnt.RndvPipe}
	b.recv(b.ctl[:2], tagCtl)
	res.Received[1] = tune.Recv{Get: uint64(b.ctl[0]), Pipe: uint64(b.ctl[1])}
	getter, copier := res.Received[1-res.GetRank], res.Received[res.GetRank]
	res.Verified = getter.Get > 0 && getter.Pipe == 0 && copier.Pipe > 0 && copier.Get == 0
}

func printTable(res tune.Result) {
	fmt.Printf("# rank 0 on CPU %d (socket %d), rank 1 on CPU %d (socket %d); same socket: %v\n",
		res.CPUs[0], res.Packages[0], res.CPUs[1], res.Packages[1], res.SameSocket)
	fmt.Printf("# process_vm_readv works: %v %s; protocols as intended: %v (received get/pipe: rank 0 %d/%d, rank 1 %d/%d)\n",
		res.CMA, res.CMAError, res.Verified, res.Received[0].Get, res.Received[0].Pipe, res.Received[1].Get, res.Received[1].Pipe)
	fmt.Printf("# eager limit %d bytes; latency: the message there and an empty reply back\n", res.EagerLimit)
	fmt.Printf("%10s %13s %13s %15s %15s\n", "bytes", "copy[us]", "single[us]", "copy[MB/s]", "single[MB/s]")
	for i, p := range res.Off {
		q := res.On[i]
		fmt.Printf("%10d %13.2f %13.2f %15.1f %15.1f\n", p.Size, p.Latency, q.Latency, p.Bandwidth, q.Bandwidth)
	}
}

// envOr is the environment variable k, or def when it is unset or empty.
func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
