package launcher

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gompi/nameserv"
	"gompi/pmi"
)

// Timing of the job's end. A rank that dies takes the job down within about
// termGrace; pmiDrainWait only when a child it left holds its PMI socket.
const (
	pmiDrainWait  = time.Second            // let an abort line arrive before its rank's exit is judged (a busy machine may delay reading it)
	termGrace     = 300 * time.Millisecond // SIGTERM, then SIGKILL
	outputDrain   = 2 * time.Second        // output of escaped processes is not waited for longer
	timeoutStatus = 124                    // like timeout(1)
)

// Config is what Run needs besides the options: the world around the launcher.
type Config struct {
	Self    string // path of the gompirun binary, for the pinning re-exec
	Stdin   *os.File
	Stdout  io.Writer
	Stderr  io.Writer
	Environ []string
	ShmDir  string // normally /dev/shm
	SysCPU  string // normally /sys/devices/system/cpu
}

type rankProc struct {
	id       int     // index in job.ranks
	rank     int     // rank in its own job (the world or a spawned job)
	sub      *subJob // the world or the spawned job it belongs to
	label    string  // "rank 3", "spawned job 1 rank 0"
	cmd      *exec.Cmd
	pid      int
	pmiDone  chan struct{}
	exited   bool
	finished bool        // exited and judged
	host     *hostDaemon // nil: started here
}

type exitEvent struct {
	rank  int
	state *os.ProcessState
	err   error
	// remote: judged from a daemon's report instead of state.
	remote *remoteExit
}

type abortEvent struct {
	rank, code int
	msg        string
	violation  bool // the rank broke the PMI protocol; msg says how
}

// job is one run of gompirun.
type job struct {
	cfg     Config
	opts    *Options
	id      string
	out     *Output
	ranks   []*rankProc
	exits   chan exitEvent
	aborts  chan abortEvent
	spawns  chan spawnCall
	outputs sync.WaitGroup
	done    chan struct{} // closed when the job's PMI service ends
	world   *subJob
	subs    []*subJob // spawned jobs
	base    envList   // environment every process starts from
	ncpus   int
	events  chan func() // work for the supervising loop from other goroutines
	hosts   *hostJob    // the daemons of a job across hosts (nil: this node only)

	status      int  // exit status; first failure wins
	statusSet   bool // a failure has fixed the status
	terminating bool
	killAt      time.Time
	killed      bool
}

// Run runs one job and returns gompirun's exit status.
func Run(opts *Options, cfg Config) int {
	began := time.Now()
	out := NewOutput(cfg.Stdout, cfg.Stderr, opts.TagOutput)
	out.Timestamps, out.Quiet = opts.Timestamp, opts.Quiet
	j := &job{cfg: cfg, opts: opts, id: NewJobID(), out: out,
		exits: make(chan exitEvent, opts.NP), aborts: make(chan abortEvent, 2*opts.NP), spawns: make(chan spawnCall), done: make(chan struct{}),
		events: make(chan func(), 64)}
	if err := j.start(); err != nil {
		out.Errorf("%v", err)
		j.fail(1)
		j.terminate()
		j.wait()
		j.cleanup()
		return 1
	}
	j.wait()
	j.cleanup()
	drawProfile(opts.Profile, cfg, out, began)
	return j.status
}

// fail records the job's exit status if none is recorded yet.
func (j *job) fail(code int) {
	if !j.statusSet {
		j.status, j.statusSet = code, true
	}
}

func (j *job) start() error {
	if len(j.opts.Hosts) > 0 {
		return j.startHosts()
	}
	cpus, err := AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		return fmt.Errorf("cannot read CPU affinity: %v", err)
	}
	if len(j.opts.CPUSet) > 0 {
		if cpus, err = RestrictCPUs(cpus, j.opts.CPUSet); err != nil {
			return err
		}
	}
	binding, err := PlanBindingSets(j.opts.BindTo, j.opts.NP, OrderCPUs(cpus, j.cfg.SysCPU), j.cfg.SysCPU)
	if err != nil {
		return err
	}
	if err := checkWdir(j.opts.Wdir); err != nil {
		return err
	}
	preload := ""
	if j.opts.MPICHBinary {
		if preload, err = LibraryPath(j.cfg.Self); err != nil {
			return err
		}
		// After libgompi.so: MPICH functions gompi lacks abort naming themselves.
		if stubs := stubPreload(preload); stubs != "" {
			preload += ":" + stubs
		}
	}
	base, err := BaseEnv(j.cfg.Environ, j.opts.Env, preload)
	if err != nil {
		return err
	}
	addTuneFile(&base)
	if err := addProfile(&base, j.opts.Profile, j.cfg.Self); err != nil {
		return err
	}
	prog, err := lookPath(inWdir(j.opts.Prog, j.opts.Wdir), base)
	if err != nil {
		return err
	}
	if abs, err := filepath.Abs(prog); err == nil && j.opts.Wdir != "" {
		prog = abs // the rank starts in -wdir
	}
	j.base, j.ncpus = base, len(cpus)
	if j.world, err = j.newSubJob(0, j.id, j.opts.NP); err != nil {
		return err
	}
	for r := 0; r < j.opts.NP; r++ {
		cpu, set := -1, []int(nil)
		if binding != nil {
			set = binding[r]
			if len(set) == 1 {
				cpu = set[0] // GOMPI_BOUND_CPU names one CPU
			}
		}
		if err := j.startRank(j.world, r, prog, j.opts.Args, RankEnv(base, j.id, r, j.opts.NP, len(cpus), cpu), set, j.opts.Wdir); err != nil {
			return fmt.Errorf("cannot start rank %d (%s): %v", r, j.opts.Prog, err)
		}
		if j.opts.ReportBindings {
			if set != nil {
				j.out.Messagef("rank %d (pid %d) bound to %s", r, j.ranks[r].pid, describeBinding(j.opts.BindTo, set))
			} else {
				j.out.Messagef("rank %d (pid %d) not bound", r, j.ranks[r].pid)
			}
		}
	}
	return nil
}

// lookPath resolves prog with the ranks' PATH, so "command not found" is
// reported once, by us, before anything starts.
func lookPath(prog string, env envList) (string, error) {
	if path, ok := env.get("PATH"); ok {
		old, had := os.LookupEnv("PATH")
		os.Setenv("PATH", path)
		defer func() {
			if had {
				os.Setenv("PATH", old)
			} else {
				os.Unsetenv("PATH")
			}
		}()
	}
	p, err := exec.LookPath(prog)
	if err == nil {
		return p, nil
	}
	// Like other mpiruns, accept a bare name of a program in the current
	// directory.
	if !strings.Contains(prog, "/") {
		if p, err2 := exec.LookPath("./" + prog); err2 == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("cannot run %s: %v", prog, errors.Unwrap(err))
}

func (j *job) startRank(sub *subJob, r int, prog string, args []string, env []string, cpus []int, dir string) error {
	conn, theirs, err := pmiPair()
	if err != nil {
		return err
	}
	defer theirs.Close()

	var cmd *exec.Cmd
	if cpus != nil {
		cmd = exec.Command(j.cfg.Self, append([]string{"--exec-bound", formatCPUs(cpus), "--", prog}, args...)...)
	} else {
		cmd = exec.Command(prog, args...)
	}
	cmd.Env = env
	cmd.Dir = dir
	cmd.ExtraFiles = []*os.File{theirs}
	// Own process group: the whole rank, with whatever it forks, can be
	// signalled at once. Pdeathsig: the rank dies if gompirun is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}

	var closeAfter []*os.File
	if sub == j.world && r == 0 && j.cfg.Stdin != nil && forwardStdin(j.cfg.Stdin) {
		pr, pw, err := os.Pipe()
		if err != nil {
			conn.Close()
			return err
		}
		cmd.Stdin = pr
		closeAfter = append(closeAfter, pr)
		go func() {
			io.Copy(pw, j.cfg.Stdin)
			pw.Close()
		}()
	}
	var readers [2]*os.File
	for s := range readers {
		if s == int(Stderr) && j.opts.MergeStderr {
			cmd.Stderr = cmd.Stdout // one pipe keeps the two streams in order
			continue
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			conn.Close()
			if readers[0] != nil {
				readers[0].Close()
			}
			return err
		}
		readers[s] = pr
		closeAfter = append(closeAfter, pw)
		if s == int(Stdout) {
			cmd.Stdout = pw
		} else {
			cmd.Stderr = pw
		}
	}
	err = cmd.Start()
	for _, f := range closeAfter {
		f.Close()
	}
	if err != nil {
		conn.Close()
		for _, pr := range readers {
			if pr != nil {
				pr.Close()
			}
		}
		return err
	}
	id := len(j.ranks)
	rp := &rankProc{id: id, rank: r, sub: sub, label: sub.label(r), cmd: cmd, pid: cmd.Process.Pid, pmiDone: make(chan struct{})}
	j.ranks = append(j.ranks, rp)
	sub.procs = append(sub.procs, rp)
	for s, pr := range readers {
		if pr == nil {
			continue
		}
		src, err := j.rankOutputFile(sub, r, Stream(s), pr)
		if err != nil {
			j.out.Messagef("--output-filename: %v", err)
		}
		j.outputs.Add(1)
		go func() {
			defer j.outputs.Done()
			j.out.Forward(src, r, Stream(s))
			pr.Close()
			if c, ok := src.(io.Closer); ok {
				c.Close()
			}
		}()
	}
	go func() {
		sub.srv.Serve(r, conn)
		close(rp.pmiDone)
	}()
	go func() {
		err := cmd.Wait()
		j.exits <- exitEvent{rank: id, state: cmd.ProcessState, err: err}
	}()
	return nil
}

// forwardStdin: reading a terminal while gompirun runs in the background
// would stop us with SIGTTIN, so then rank 0 gets an empty stdin.
func forwardStdin(f *os.File) bool {
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	if err != nil {
		return true // not a terminal
	}
	return pgrp == unix.Getpgrp()
}

// wait supervises the job until every started rank has been reaped.
func (j *job) wait() {
	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	defer signal.Stop(sigc)
	var timeout <-chan time.Time
	if j.opts.Timeout > 0 {
		t := time.NewTimer(j.opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	signals := 0
	for j.live() > 0 {
		var killc <-chan time.Time
		if j.terminating && !j.killed {
			killc = time.After(time.Until(j.killAt))
		}
		select {
		case ev := <-j.exits:
			j.rankExited(ev)
		case ev := <-j.aborts:
			j.abort(ev)
		case f := <-j.events:
			f()
		case sc := <-j.spawns:
			sc.reply <- j.spawn(sc.req)
		case <-killc:
			j.signalAll(syscall.SIGKILL)
			j.killed = true
		case <-timeout:
			j.out.Messagef("job exceeded --timeout of %v; terminating job", j.opts.Timeout)
			j.fail(timeoutStatus)
			j.terminate()
		case sig := <-sigc:
			if sig == syscall.SIGPIPE {
				continue // a closed stdout of ours; Output drops further lines
			}
			signals++
			s := sig.(syscall.Signal)
			if signals == 1 && !j.terminating {
				// The ranks decide what the signal means; if it kills them, the
				// usual rank-death handling ends the job.
				j.signalAll(s)
				continue
			}
			j.out.Messagef("received %v again; killing job", s)
			j.fail(128 + int(s))
			j.terminate()
			j.signalAll(syscall.SIGKILL)
			j.killed = true
		}
	}
}

func (j *job) live() int {
	n := 0
	for _, r := range j.ranks {
		if !r.exited {
			n++
		}
	}
	return n
}

// terminate starts ending the job: SIGTERM now, SIGKILL after termGrace.
func (j *job) terminate() {
	if j.terminating {
		return
	}
	j.terminating = true
	j.killAt = time.Now().Add(termGrace)
	j.signalAll(syscall.SIGTERM)
}

// signalAll signals every rank's process group, including groups whose leader
// has exited but whose children may linger.
func (j *job) signalAll(sig syscall.Signal) {
	for _, r := range j.ranks {
		if r.host == nil && r.pid > 0 {
			unix.Kill(-r.pid, sig)
		}
	}
	j.signalHosts(sig)
}

func (j *job) abort(ev abortEvent) {
	r := j.ranks[ev.rank]
	if r.finished || j.terminating {
		return
	}
	msg := ""
	if ev.msg != "" {
		msg = ": " + ev.msg
	}
	if ev.violation {
		j.out.Messagef("%s (pid %d) broke the PMI protocol: %s; terminating job", r.label, r.pid, ev.msg)
	} else {
		j.out.Messagef("%s (pid %d) called MPI_Abort with code %d%s; terminating job", r.label, r.pid, ev.code, msg)
	}
	status := ev.code & 0xff
	if status == 0 {
		status = 1
	}
	j.fail(status)
	r.finished = true
	j.terminate()
}

func (j *job) rankExited(ev exitEvent) {
	r := j.ranks[ev.rank]
	r.exited = true
	if j.terminating || r.finished {
		r.finished = true
		return
	}
	var st pmi.RankState
	var ws syscall.WaitStatus
	ok := true
	if ev.remote != nil {
		// The daemon waited for the abort line already.
		st, ws, ok = ev.remote.pmi, ev.remote.ws, ev.remote.ok
	} else {
		// An abort line may still be in flight on the PMI socket.
		select {
		case <-r.pmiDone:
		case <-time.After(pmiDrainWait):
		}
		st = r.sub.srv.State(r.rank)
		ws, ok = ev.state.Sys().(syscall.WaitStatus)
	}
	if st.Aborted {
		j.abort(abortEvent{rank: ev.rank, code: st.AbortCode, msg: st.AbortMsg})
		return
	}
	r.finished = true
	switch {
	case !ok:
		j.out.Messagef("%s (pid %d) ended: %v; terminating job", r.label, r.pid, ev.err)
		j.fail(1)
		j.terminate()
	case ws.Signaled():
		sig := ws.Signal()
		j.out.Messagef("%s (pid %d) killed by signal %d (%s: %v); terminating job", r.label, r.pid, int(sig), unix.SignalName(sig), sig)
		j.fail(128 + int(sig))
		j.terminate()
	case ws.ExitStatus() != 0 && !st.Finalized:
		how := ""
		if st.Initialized {
			how = " before calling MPI_Finalize"
		}
		j.out.Messagef("%s (pid %d) exited with code %d%s; terminating job", r.label, r.pid, ws.ExitStatus(), how)
		j.fail(ws.ExitStatus())
		j.terminate()
	case ws.ExitStatus() != 0:
		// After MPI_Finalize the job is done with this rank; its code is the
		// job's status, but the others may finish.
		j.out.Messagef("%s (pid %d) exited with code %d after MPI_Finalize", r.label, r.pid, ws.ExitStatus())
		j.fail(ws.ExitStatus())
	case st.Initialized && !st.Finalized:
		j.out.Messagef("%s (pid %d) exited without calling MPI_Finalize; terminating job", r.label, r.pid)
		j.fail(1)
		j.terminate()
	}
}

// cleanup removes everything the job may leave behind.
func (j *job) cleanup() {
	j.signalAll(syscall.SIGKILL) // leftovers in the ranks' process groups
	j.stopHosts()
	j.closeServers()
	done := make(chan struct{})
	go func() { j.outputs.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(outputDrain):
	}
	RemoveShm(j.cfg.ShmDir, j.id)
	nameserv.RemoveJob(nameserv.Dir(), j.id)
}

// pmiPair is a rank's PMI connection: our end as a net.Conn for the PMI
// server, theirs for the child to inherit (the caller closes it once the
// child has started).
func pmiPair() (net.Conn, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	ours := os.NewFile(uintptr(fds[0]), "pmi-server")
	theirs := os.NewFile(uintptr(fds[1]), "pmi-client")
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		theirs.Close()
		return nil, nil, err
	}
	return conn, theirs, nil
}
