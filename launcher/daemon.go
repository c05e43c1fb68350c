package launcher

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gompi/nameserv"
	"gompi/pmi"
)

// DaemonFlag starts gompirun's hidden daemon mode:
// gompirun --daemon ADDR[,ADDR...] TOKEN HOSTINDEX. The head starts one per
// host through the launch agent; it starts that host's ranks, serves them
// PMI, and relays everything else to the head.
const DaemonFlag = "--daemon"

// daemon is the per-host side of a job across hosts.
type daemon struct {
	cfg    Config
	conn   *dconn // to the parent: the head or a daemon (tree.go)
	idx    int    // this host's index
	token  string
	setup  *treeSetup
	tree   launchTree
	specc  chan *daemonStart // this host's start, from readHead
	spec   *daemonStart
	srv    *pmi.Server
	mu     sync.Mutex
	pgids  []int       // process groups of the ranks started
	stdin  chan []byte // the head's stdin for rank 0, closed at its end (readHead's)
	stdinR *os.File    // rank 0's end of it
	fence  chan map[string]string
	lost   chan struct{} // closed when the head is gone
	bye    chan struct{}
	outs   sync.WaitGroup
	exits  sync.WaitGroup
	// The subtree below (dtree.go).
	kids     map[int]*kidLink // read-only once started
	kmu      sync.Mutex
	ln       net.Listener
	stopping atomic.Bool // bye or lost: a child's link may end
	fmu      sync.Mutex  // the fence being gathered from this subtree
	fenceN   int
	fenceKV  map[string]string
}

// RunDaemon runs daemon mode with args after DaemonFlag; it returns the
// exit status.
func RunDaemon(args []string, cfg Config) int {
	logf := func(f string, a ...any) {
		fmt.Fprintf(cfg.Stderr, "gompirun daemon on %s: "+f+"\n", append([]any{hostnameOr("?")}, a...)...)
	}
	if len(args) != 3 {
		logf("usage: gompirun --daemon ADDRS TOKEN HOSTINDEX")
		return 2
	}
	idx, err := strconv.Atoi(args[2])
	if err != nil {
		logf("bad host index %q", args[2])
		return 2
	}
	c, err := dialHead(strings.Split(args[0], ","), 5*time.Second)
	if err != nil {
		logf("%v", err)
		return 1
	}
	d := &daemon{cfg: cfg, conn: newDconn(c, daemonStartWait), fence: make(chan map[string]string, 1),
		lost: make(chan struct{}), bye: make(chan struct{}), idx: idx, token: args[1],
		specc: make(chan *daemonStart, 1), kids: map[int]*kidLink{}}
	if err := d.conn.send(dmsg{T: "hello", Token: args[1], Host: idx, Kernel: BootID()}); err != nil {
		logf("%v", err)
		return 1
	}
	m, err := d.conn.recv()
	if err != nil || m.T != "tree" || m.Tree == nil || idx < 0 || idx >= len(m.Tree.Hosts) {
		logf("no plan from gompirun: %v", err)
		return 1
	}
	d.setup = m.Tree
	d.tree = launchTree{n: len(m.Tree.Hosts), fanout: max(1, m.Tree.Fanout)}
	d.conn.hb = max(m.Tree.HBTimeout, hbInterval*2)
	// Signalled (an ssh session hung up, an admin's kill): the job on this
	// host ends as when the head is lost, leaving nothing behind.
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		s := <-sigc
		logf("%v; ending this host's ranks", s)
		d.conn.close()
	}()
	go d.conn.heartbeat()
	go d.readHead()
	d.startKids()
	select {
	case d.spec = <-d.specc:
		if err := d.startRanks(); err != nil {
			d.up(dmsg{T: "failed", Msg: err.Error()})
		}
	case <-d.bye:
	case <-d.lost:
	}
	select {
	case <-d.bye:
	case <-d.lost:
	}
	d.finish()
	select {
	case <-d.lost:
		return 1
	default:
		return 0
	}
}

// readHead handles the parent's messages until bye or the link's end.
func (d *daemon) readHead() {
	started := false
	for {
		m, err := d.conn.recv()
		if err != nil {
			// The head is gone (or silent): nothing of the job may stay.
			d.signal(syscall.SIGKILL)
			d.dropKids()
			close(d.lost)
			return
		}
		if (m.T == "start" || m.T == "sig" || m.T == "in") && m.To != d.idx {
			d.down(m)
			continue
		}
		switch m.T {
		case "start":
			if m.Start == nil || started {
				continue
			}
			started = true
			if m.Start.Stdin {
				if err := d.openStdin(); err != nil {
					d.up(dmsg{T: "failed", Msg: err.Error()})
					continue
				}
			}
			d.specc <- m.Start
		case "sig":
			d.signal(syscall.Signal(m.Sig))
		case "in":
			if d.stdin != nil {
				if len(m.Data) == 0 {
					close(d.stdin)
					d.stdin = nil
				} else {
					d.stdin <- m.Data
				}
			}
		case "kvs":
			d.toKids(m)
			d.fence <- m.KV
		case "bye":
			d.stopping.Store(true)
			d.toKids(m)
			close(d.bye)
			return
		}
	}
}

// openStdin readies rank 0's stdin before the head's first chunk can
// arrive. A writer of its own: a rank not reading its stdin must not stall
// the link.
func (d *daemon) openStdin() error {
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	in := make(chan []byte, 1024)
	d.stdinR, d.stdin = pr, in
	go func() {
		for b := range in {
			if _, err := pw.Write(b); err != nil {
				break
			}
		}
		pw.Close()
		for range in { // drain what a closed stdin no longer wants
		}
	}()
	return nil
}

func (d *daemon) signal(sig syscall.Signal) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, pg := range d.pgids {
		unix.Kill(-pg, sig)
	}
}

// finish ends the host's part of the job: output sent, every process gone,
// shared memory removed.
func (d *daemon) finish() {
	waitTimeout(&d.outs, outputDrain)
	d.signal(syscall.SIGKILL)
	waitTimeout(&d.exits, outputDrain)
	if d.srv != nil {
		d.srv.Close()
	}
	if d.spec != nil {
		RemoveShm(d.cfg.ShmDir, d.spec.JobID)
		nameserv.RemoveJob(nameserv.Dir(), d.spec.JobID)
	}
	d.endKids()
	d.up(dmsg{T: "done"})
	d.conn.close()
}

func waitTimeout(wg *sync.WaitGroup, t time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(t):
	}
}

// fenceHead completes a PMI barrier across hosts through the head.
func (d *daemon) fenceHead(puts map[string]string) (map[string]string, error) {
	d.contribute(puts)
	select {
	case kv := <-d.fence:
		return kv, nil
	case <-d.lost:
		return nil, errors.New("lost contact with gompirun")
	case <-d.bye:
		return nil, errors.New("job ended")
	}
}

func (d *daemon) startRanks() error {
	sp := d.spec
	if sp.Dir != "" {
		os.Chdir(sp.Dir) // a host without that directory runs where it started
	}
	srv, err := pmi.NewServer(pmi.ServerConfig{
		Size: sp.Size, KVSName: "kvs_" + sp.JobID, UniverseSize: sp.UniverseSize,
		Preput: map[string]string{"PMI_process_mapping": sp.Mapping},
		Local:  sp.Ranks, Fence: d.fenceHead,
		OnAbort: func(rank, code int, msg string) {
			d.up(dmsg{T: "abort", Rank: rank, Code: code, Msg: msg})
		},
		OnViolation: func(rank int, what string) {
			d.up(dmsg{T: "violation", Rank: rank, Msg: what})
		},
		Logf: func(f string, a ...any) { d.up(dmsg{T: "log", Msg: fmt.Sprintf(f, a...)}) },
	})
	if err != nil {
		return err
	}
	d.srv = srv
	cpus, err := AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		return fmt.Errorf("cannot read CPU affinity: %v", err)
	}
	n := len(sp.Ranks)
	shared, first := n, 0
	if sp.KernelRanks > n {
		shared, first = sp.KernelRanks, sp.KernelFirst
	}
	binding, err := PlanBinding(sp.BindTo, shared, OrderCPUs(cpus, d.cfg.SysCPU))
	if err != nil {
		return err
	}
	if binding != nil {
		binding = binding[first : first+n]
	}
	for i, r := range sp.Ranks {
		cpu := -1
		if binding != nil {
			cpu = binding[i]
		}
		env := envList(RankEnv(envList(sp.Env), sp.JobID, r, sp.Size, len(cpus), cpu))
		it := strconv.Itoa
		env.set("MPI_LOCALRANKID", it(i))
		env.set("MPI_LOCALNRANKS", it(n))
		env.set("GOMPI_LOCAL_RANK", it(i))
		env.set("GOMPI_LOCAL_SIZE", it(n))
		over := "0"
		if shared > len(cpus) {
			over = "1"
		}
		env.set("GOMPI_OVERSUBSCRIBED", over)
		if err := d.startRank(r, cpu, env); err != nil {
			return fmt.Errorf("cannot start rank %d (%s) on %s: %v", r, sp.Prog, sp.HostName, err)
		}
	}
	return nil
}

// startRank starts one rank as job.startRank does, relaying its output and
// its end to the head.
func (d *daemon) startRank(r, cpu int, env []string) error {
	sp := d.spec
	conn, theirs, err := pmiPair()
	if err != nil {
		return err
	}
	defer theirs.Close()
	var cmd *exec.Cmd
	if cpu >= 0 {
		cmd = exec.Command(d.cfg.Self, append([]string{"--exec-bound", strconv.Itoa(cpu), "--", sp.Prog}, sp.Args...)...)
	} else {
		cmd = exec.Command(sp.Prog, sp.Args...)
	}
	cmd.Env = env
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var closeAfter []*os.File
	if r == 0 && d.stdinR != nil {
		cmd.Stdin = d.stdinR
		closeAfter = append(closeAfter, d.stdinR)
	}
	var readers [2]*os.File
	for s := range readers {
		pr, pw, err := os.Pipe()
		if err != nil {
			conn.Close()
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
	d.mu.Lock()
	err = cmd.Start()
	if err == nil {
		d.pgids = append(d.pgids, cmd.Process.Pid)
	}
	d.mu.Unlock()
	for _, f := range closeAfter {
		f.Close()
	}
	if err != nil {
		conn.Close()
		readers[0].Close()
		readers[1].Close()
		return err
	}
	d.up(dmsg{T: "started", Rank: r, Pid: cmd.Process.Pid})
	if sp.Report {
		how := "not bound"
		if cpu >= 0 {
			how = fmt.Sprintf("bound to CPU %d", cpu)
		}
		d.up(dmsg{T: "log", Msg: fmt.Sprintf("rank %d (pid %d) %s", r, cmd.Process.Pid, how)})
	}
	for s, pr := range readers {
		d.outs.Add(1)
		go func() {
			defer d.outs.Done()
			d.relayOutput(pr, r, s)
			pr.Close()
		}()
	}
	pmiDone := make(chan struct{})
	go func() {
		d.srv.Serve(r, conn)
		close(pmiDone)
	}()
	d.exits.Add(1)
	go func() {
		defer d.exits.Done()
		werr := cmd.Wait()
		// An abort line may still be in flight on the PMI socket.
		select {
		case <-pmiDone:
		case <-time.After(pmiDrainWait):
		}
		st := d.srv.State(r)
		m := dmsg{T: "exit", Rank: r, Pid: cmd.Process.Pid, State: &st, Status: -1}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			m.Status = int(ws)
		} else if werr != nil {
			m.Msg = werr.Error()
		}
		d.up(m)
	}()
	return nil
}

// relayOutput sends a rank's stream to the head in chunks as they come.
func (d *daemon) relayOutput(r io.Reader, rank, s int) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if d.up(dmsg{T: "out", Rank: rank, Stream: s, Data: append([]byte(nil), buf[:n]...)}) != nil {
				return
			}
		}
		if err != nil {
			d.up(dmsg{T: "eof", Rank: rank, Stream: s})
			return
		}
	}
}
