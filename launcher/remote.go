package launcher

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gompi/pmi"
)

// A job across hosts: the head (this gompirun) starts one daemon per host
// through the launch agent, each daemon starts and watches its host's ranks
// and serves them PMI; the head joins their PMI barriers (fence), prints
// their output and judges every rank's end with the rules of a one-node job.
// A host whose daemon disconnects or falls silent ends the job. Beyond
// GOMPI_LAUNCH_FANOUT hosts the daemons form a tree (tree.go, dtree.go): the
// head talks to its children only, the daemons below reach it through them.

// remoteExit is a rank's end as its daemon saw it.
type remoteExit struct {
	ws  syscall.WaitStatus
	ok  bool // ws is valid
	pmi pmi.RankState
}

// hostDaemon is the head's view of one host. The link fields are set for
// the head's children in the tree only.
type hostDaemon struct {
	idx    int
	name   string
	ranks  []int
	agent  *exec.Cmd
	conn   *dconn
	queue  chan dmsg     // messages to the daemon, sent in order by one goroutine
	read   chan struct{} // closed when the reader ends
	done   chan struct{} // closed when the agent process has exited
	said   chan struct{} // closed when the agent's output has ended
	run    bool          // its reader and sender run
	up     bool          // the daemon connected (main loop)
	kernel string        // its boot id: hosts sharing one share the CPUs
	gone   bool          // lost or ended (main loop)
	outw   map[int]*[2]*io.PipeWriter
}

// hostJob is the head's state of a job across hosts.
type hostJob struct {
	daemons []*hostDaemon
	ln      net.Listener
	ending  chan struct{} // closed when the head says bye: a closed link is no failure then
	fmu     sync.Mutex    // the fence being gathered
	fenceN  int
	fenceKV map[string]string
	hb      time.Duration
	tree    launchTree
	setup   chan dmsg     // hellos and losses relayed while launching
	started chan struct{} // closed once launched: no more hellos
}

// isThisHost: names that need no launch agent.
func isThisHost(name string) bool {
	if name == "localhost" || name == "127.0.0.1" {
		return true
	}
	h, err := os.Hostname()
	if err != nil {
		return false
	}
	short, _, _ := strings.Cut(h, ".")
	return name == h || name == short
}

func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// post runs f on the supervising loop (dropped once the job has ended).
func (j *job) post(f func()) {
	select {
	case j.events <- f:
	case <-j.done:
	}
}

func (j *job) startHosts() error {
	base, err := BaseEnv(j.cfg.Environ, j.opts.Env, "")
	if err != nil {
		return err
	}
	addTuneFile(&base)
	prog, err := lookPath(j.opts.Prog, base)
	if err != nil {
		return err
	}
	place, err := Place(j.opts.Hosts, j.opts.NP, j.opts.MapBy)
	if err != nil {
		return err
	}
	j.base, j.ncpus = base, TotalSlots(j.opts.Hosts)
	j.world = &subJob{id: j.id}
	hj := &hostJob{ending: make(chan struct{}), hb: hbTimeout(base), setup: make(chan dmsg), started: make(chan struct{})}
	j.hosts = hj
	byHost := map[int]*hostDaemon{}
	for r, h := range place {
		d := byHost[h]
		if d == nil {
			d = &hostDaemon{idx: len(hj.daemons), name: j.opts.Hosts[h].Name, queue: make(chan dmsg, 256),
				read: make(chan struct{}), done: make(chan struct{}), said: make(chan struct{}), outw: map[int]*[2]*io.PipeWriter{}}
			byHost[h] = d
			hj.daemons = append(hj.daemons, d)
		}
		d.ranks = append(d.ranks, r)
		rp := &rankProc{id: r, rank: r, sub: j.world, label: fmt.Sprintf("rank %d on %s", r, d.name),
			pmiDone: make(chan struct{}), host: d}
		close(rp.pmiDone)
		j.ranks = append(j.ranks, rp)
		j.world.procs = append(j.world.procs, rp)
		var w [2]*io.PipeWriter
		for s := range w {
			pr, pw := io.Pipe()
			w[s] = pw
			j.outputs.Add(1)
			go func() {
				defer j.outputs.Done()
				j.out.Forward(pr, r, Stream(s))
			}()
		}
		d.outw[r] = &w
	}
	// From here a failure must leave no rank counted as running.
	err = j.launchDaemons(hj, prog, place)
	if err != nil {
		for _, r := range j.ranks {
			r.exited, r.finished = true, true
		}
	}
	return err
}

// launchDaemons starts the daemons of the head's children and waits until
// every host's daemon has connected (the others through them).
func (j *job) launchDaemons(hj *hostJob, prog string, place []int) error {
	hj.tree = launchTree{n: len(hj.daemons), fanout: launchFanout(j.base)}
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		return fmt.Errorf("cannot listen for daemons: %v", err)
	}
	hj.ln = ln
	token := newToken()
	addrs := strings.Join(headAddrs(j.base, ln.Addr().(*net.TCPAddr).Port), ",")
	agent := strings.Fields(j.opts.LaunchAgent)
	if len(agent) == 0 {
		agent = []string{"ssh"}
	}
	if strings.Contains(agent[0], "/") { // daemons start their children from elsewhere
		if abs, err := filepath.Abs(agent[0]); err == nil {
			agent[0] = abs
		}
	}
	setup := &treeSetup{Fanout: hj.tree.fanout, Agent: agent, HBTimeout: hj.hb}
	for _, d := range hj.daemons {
		setup.Hosts = append(setup.Hosts, d.name)
	}
	died := make(chan *hostDaemon, len(hj.daemons))
	for _, i := range hj.tree.children(-1) {
		d := hj.daemons[i]
		argv := []string{j.cfg.Self, DaemonFlag, addrs, token, strconv.Itoa(d.idx)}
		if !isThisHost(d.name) {
			argv = append(append(append([]string{}, agent...), d.name), argv...)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = j.cfg.Environ
		// Own process group: a terminal's ^C reaches the ranks through us, not
		// the agent. It dies with us.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		pr, pw, err := os.Pipe()
		if err != nil {
			return err
		}
		cmd.Stdout, cmd.Stderr = pw, pw
		err = cmd.Start()
		pw.Close()
		if err != nil {
			pr.Close()
			return fmt.Errorf("cannot start the launch agent for host %s (%s): %v", d.name, argv[0], err)
		}
		d.agent = cmd
		j.outputs.Add(1)
		go func() { // what the agent or daemon says, line by line
			defer j.outputs.Done()
			defer close(d.said)
			sc := bufio.NewScanner(pr)
			for sc.Scan() {
				j.out.Messagef("host %s: %s", d.name, sc.Text())
			}
			pr.Close()
		}()
		go func() {
			cmd.Wait()
			close(d.done)
			died <- d
		}()
	}
	type hello struct {
		d      *hostDaemon
		c      net.Conn
		kernel string
	}
	hellos := make(chan hello)
	stopAccept := make(chan struct{})
	defer close(stopAccept)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				dc := newDconn(c, 10*time.Second)
				m, err := dc.recv()
				if err != nil || m.T != "hello" || m.Token != token || m.Host < 0 || m.Host >= len(hj.daemons) || hj.tree.parent(m.Host) != -1 {
					c.Close()
					return
				}
				select {
				case hellos <- hello{hj.daemons[m.Host], c, m.Kernel}:
				case <-stopAccept:
					c.Close()
				}
			}()
		}
	}()
	timeout := time.NewTimer(daemonStartWait)
	defer timeout.Stop()
	for waiting := len(hj.daemons); waiting > 0; {
		select {
		case h := <-hellos:
			if h.d.up {
				h.c.Close()
				continue
			}
			h.d.conn = newDconn(h.c, hj.hb)
			if err := h.d.conn.send(dmsg{T: "tree", Tree: setup}); err != nil {
				h.d.conn.close()
				return fmt.Errorf("host %s: %v", h.d.name, err)
			}
			h.d.up, h.d.kernel = true, h.kernel
			waiting--
			h.d.run = true
			go h.d.conn.heartbeat()
			go h.d.sender()
			go j.readDaemon(h.d)
		case m := <-hj.setup:
			d := hj.daemons[m.Host]
			if m.T == "lost" {
				return fmt.Errorf("host %s: %s", d.name, m.Msg)
			}
			if !d.up {
				d.up, d.kernel = true, m.Kernel
				waiting--
			}
		case d := <-died:
			if !d.up {
				select { // its last words first
				case <-d.said:
				case <-time.After(500 * time.Millisecond):
				}
				return fmt.Errorf("the launch agent for host %s exited (%v) before its daemon connected (%s)",
					d.name, d.agent.ProcessState, strings.Join(d.agent.Args, " "))
			}
		case <-timeout.C:
			var late []string
			for _, d := range hj.daemons {
				if !d.up {
					late = append(late, d.name)
				}
			}
			return fmt.Errorf("no daemon connected within %v from host(s) %s", daemonStartWait, strings.Join(late, ","))
		}
	}
	ln.Close()
	close(hj.started)
	dir, _ := os.Getwd()
	stdin := j.cfg.Stdin != nil && forwardStdin(j.cfg.Stdin)
	shares := kernelShares(hj.daemons)
	for _, d := range hj.daemons {
		spec := &daemonStart{JobID: j.id, HostName: d.name, Size: j.opts.NP, Ranks: d.ranks,
			Prog: prog, Args: j.opts.Args, Env: j.base, Dir: dir, BindTo: j.opts.BindTo,
			Mapping: ProcessMapping(place), UniverseSize: j.universeSize(),
			Stdin: stdin && d.ranks[0] == 0, HBTimeout: hj.hb, Report: j.opts.ReportBindings,
			KernelRanks: shares[d.idx][0], KernelFirst: shares[d.idx][1]}
		if err := hj.link(d.idx).conn.send(dmsg{T: "start", To: d.idx, Start: spec}); err != nil {
			return fmt.Errorf("host %s: %v", d.name, err)
		}
		if spec.Stdin {
			go j.forwardStdinTo(d)
		}
	}
	return nil
}

// link is the head's child through which host h is reached.
func (hj *hostJob) link(h int) *hostDaemon {
	return hj.daemons[hj.tree.toward(-1, h)]
}

// sendTo queues m for host h (routed down the tree).
func (hj *hostJob) sendTo(h int, m dmsg) {
	m.To = h
	hj.link(h).enqueue(m)
}

// sender sends queued messages in order.
func (d *hostDaemon) sender() {
	for {
		select {
		case m := <-d.queue:
			if d.conn.send(m) != nil {
				return
			}
		case <-d.conn.stop:
			return
		}
	}
}

// enqueue never blocks the supervising loop; a daemon that cannot keep up
// with a handful of control messages is lost anyway.
func (d *hostDaemon) enqueue(m dmsg) {
	select {
	case d.queue <- m:
	default:
	}
}

func (j *job) forwardStdinTo(d *hostDaemon) {
	c := j.hosts.link(d.idx).conn
	buf := make([]byte, 32<<10)
	for {
		n, err := j.cfg.Stdin.Read(buf)
		if n > 0 {
			if c.send(dmsg{T: "in", To: d.idx, Data: append([]byte(nil), buf[:n]...)}) != nil {
				return
			}
		}
		if err != nil {
			c.send(dmsg{T: "in", To: d.idx})
			return
		}
	}
}

// signalHosts forwards a signal to every connected daemon's ranks.
func (j *job) signalHosts(sig syscall.Signal) {
	if j.hosts == nil {
		return
	}
	for _, d := range j.hosts.daemons {
		if d.up && !d.gone {
			j.hosts.sendTo(d.idx, dmsg{T: "sig", Sig: int(sig)})
		}
	}
}

// readDaemon handles the messages of the head's child l, about l's host or
// a host below it, until the link ends.
func (j *job) readDaemon(l *hostDaemon) {
	hj := j.hosts
	defer close(l.read)
	defer func() {
		for _, h := range hj.tree.subtree(l.idx) {
			hj.daemons[h].closeOutput()
		}
	}()
	for {
		m, err := l.conn.recv()
		if err != nil {
			select {
			case <-hj.ending:
				return
			default:
			}
			j.lose(l.idx, linkLoss(err, hj.hb))
			return
		}
		if m.T == "ping" || m.T == "done" || !hj.tree.within(l.idx, m.Host) {
			continue
		}
		d := hj.daemons[m.Host]
		mine := func(r int) bool { _, ok := d.outw[r]; return ok }
		switch m.T {
		case "hello":
			select {
			case hj.setup <- m:
			case <-hj.started:
			case <-hj.ending:
			}
		case "lost":
			for _, h := range hj.tree.subtree(m.Host) {
				hj.daemons[h].closeOutput()
			}
			j.lose(m.Host, m.Msg)
		case "out", "eof":
			if !mine(m.Rank) || m.Stream < 0 || m.Stream > 1 {
				continue
			}
			w := d.outw[m.Rank][m.Stream]
			if m.T == "eof" {
				w.Close()
			} else {
				w.Write(m.Data)
			}
		case "started":
			if mine(m.Rank) {
				j.post(func() { j.ranks[m.Rank].pid = m.Pid })
			}
		case "exit":
			if !mine(m.Rank) {
				continue
			}
			re := &remoteExit{ws: syscall.WaitStatus(m.Status), ok: m.Status >= 0}
			if m.State != nil {
				re.pmi = *m.State
			}
			j.post(func() {
				if r := j.ranks[m.Rank]; !r.exited {
					j.rankExited(exitEvent{rank: m.Rank, remote: re, err: errors.New(m.Msg)})
				}
			})
		case "abort", "violation":
			if mine(m.Rank) {
				j.post(func() {
					j.abort(abortEvent{rank: m.Rank, code: m.Code, msg: m.Msg, violation: m.T == "violation"})
				})
			}
		case "log":
			j.out.Messagef("host %s: %s", d.name, m.Msg)
		case "failed":
			j.post(func() {
				j.out.Messagef("host %s: %s; terminating job", d.name, m.Msg)
				j.fail(1)
				j.terminate()
			})
		case "fence":
			if d == l { // the merged puts of its subtree
				j.fence(m.KV)
			}
		}
	}
}

// closeOutput ends the host's ranks' output streams.
func (d *hostDaemon) closeOutput() {
	for _, w := range d.outw {
		w[0].Close()
		w[1].Close()
	}
}

// lose reports host h and the hosts below it lost: to the launch while it
// waits for hellos, else to the supervising loop.
func (j *job) lose(h int, why string) {
	hj := j.hosts
	select {
	case hj.setup <- dmsg{T: "lost", Host: h, Msg: why}:
	case <-hj.started:
		j.post(func() { j.hostLost(h, why) })
	case <-hj.ending:
	}
}

// fence gathers one PMI barrier's puts of the head's children (each its
// subtree's) and, once all are in, sends the union down to all of them.
func (j *job) fence(kv map[string]string) {
	hj := j.hosts
	hj.fmu.Lock()
	defer hj.fmu.Unlock()
	if hj.fenceKV == nil {
		hj.fenceKV = map[string]string{}
	}
	for k, v := range kv {
		hj.fenceKV[k] = v
	}
	hj.fenceN++
	tops := hj.tree.children(-1)
	if hj.fenceN < len(tops) {
		return
	}
	all := hj.fenceKV
	hj.fenceN, hj.fenceKV = 0, nil
	for _, i := range tops {
		hj.daemons[i].enqueue(dmsg{T: "kvs", KV: all})
	}
}

// hostLost ends the job when the daemon of host h (and so those below it)
// is gone before their ranks are. The message names every host lost that
// still had ranks running, h first.
func (j *job) hostLost(h int, why string) {
	hj := j.hosts
	var parts []string
	for _, i := range hj.tree.subtree(h) {
		d := hj.daemons[i]
		if d.gone {
			continue
		}
		d.gone = true
		var running []string
		for _, r := range d.ranks {
			if rp := j.ranks[r]; !rp.exited {
				rp.exited, rp.finished = true, true
				running = append(running, strconv.Itoa(r))
			}
		}
		if len(running) > 0 {
			parts = append(parts, fmt.Sprintf("host %s (rank %s)", d.name, strings.Join(running, ", ")))
		}
	}
	if len(parts) == 0 || j.terminating {
		return
	}
	msg := "lost contact with " + parts[0]
	if len(parts) > 1 {
		msg += " and through it with " + strings.Join(parts[1:], ", ")
	}
	j.out.Messagef("%s: %s; terminating job", msg, why)
	j.fail(1)
	j.terminate()
}

// stopHosts says bye to every daemon, lets them finish (output sent,
// processes and shared memory gone) and makes sure no agent outlives us.
func (j *job) stopHosts() {
	hj := j.hosts
	if hj == nil {
		return
	}
	select {
	case <-hj.ending:
		return
	default:
	}
	close(hj.ending)
	if hj.ln != nil {
		hj.ln.Close()
	}
	var links []*hostDaemon // the head's children; the others end through them
	for _, i := range hj.tree.children(-1) {
		links = append(links, hj.daemons[i])
	}
	for _, d := range links {
		if d.conn != nil {
			d.enqueue(dmsg{T: "bye"})
		}
	}
	// A tree's daemons wait for their children in turn: allow each level.
	depth := 0
	for h := len(hj.daemons) - 1; h >= 0; h = hj.tree.parent(h) {
		depth++
	}
	deadline := time.After(outputDrain + time.Duration(max(depth, 1))*hj.hb)
	for _, d := range links {
		if !d.run {
			if d.conn != nil {
				d.conn.close()
			}
			for _, h := range hj.tree.subtree(d.idx) {
				hj.daemons[h].closeOutput()
			}
			continue
		}
		select {
		case <-d.read:
		case <-deadline:
		}
		d.conn.close()
	}
	until := time.Now().Add(time.Second)
	for _, d := range links {
		if d.agent == nil || d.agent.Process == nil {
			continue
		}
		select {
		case <-d.done:
		case <-time.After(time.Until(until)):
			unix.Kill(-d.agent.Process.Pid, syscall.SIGKILL)
		}
	}
}
