package launcher

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A daemon with hosts below it in the launch tree (tree.go) starts their
// daemons through the launch agent, as the head starts its own children,
// and relays between them and its parent: their messages up unchanged, the
// head's down by destination, one fence contribution for its whole subtree.
// Each link has its own heartbeats; a child lost is reported up as "lost"
// with the subtree's root, and the daemons below a lost parent end their
// ranks at once (their parent's link closes, or the agent's death signal).

// kidLink is a daemon's view of one child.
type kidLink struct {
	idx      int
	name     string
	agent    *exec.Cmd
	conn     *dconn        // set once it said hello (d.kmu)
	read     chan struct{} // closed when its reader ends
	done     chan struct{} // closed when the agent has exited
	said     chan struct{} // closed when the agent's output has ended
	finished bool          // it said done (its reader only)
}

// up sends a message about this host to the parent.
func (d *daemon) up(m dmsg) error {
	m.Host = d.idx
	return d.conn.send(m)
}

// kidConn is child k's link, nil before its hello.
func (d *daemon) kidConn(k *kidLink) *dconn {
	d.kmu.Lock()
	defer d.kmu.Unlock()
	return k.conn
}

// down sends m toward host m.To.
func (d *daemon) down(m dmsg) {
	if k := d.kids[d.tree.toward(d.idx, m.To)]; k != nil {
		if c := d.kidConn(k); c != nil {
			c.send(m)
		}
	}
}

// toKids sends m to every child.
func (d *daemon) toKids(m dmsg) {
	for _, k := range d.kids {
		if c := d.kidConn(k); c != nil {
			c.send(m)
		}
	}
}

// startKids starts the daemons of this host's children; they connect back
// in the background. A child that cannot start is reported up as lost.
func (d *daemon) startKids() {
	kids := d.tree.children(d.idx)
	if len(kids) == 0 {
		return
	}
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		for _, c := range kids {
			d.conn.send(dmsg{T: "lost", Host: c, Msg: fmt.Sprintf("cannot listen for daemons on %s: %v", d.setup.Hosts[d.idx], err)})
		}
		return
	}
	d.ln = ln
	addrs := strings.Join(daemonAddrs(d.conn.c.LocalAddr(), ln.Addr().(*net.TCPAddr).Port), ",")
	for _, c := range kids {
		d.kids[c] = &kidLink{idx: c, name: d.setup.Hosts[c], read: make(chan struct{}),
			done: make(chan struct{}), said: make(chan struct{})}
	}
	go d.acceptKids(ln)
	for _, c := range kids {
		d.startKid(d.kids[c], addrs)
	}
}

func (d *daemon) startKid(k *kidLink, addrs string) {
	argv := []string{d.cfg.Self, DaemonFlag, addrs, d.token, strconv.Itoa(k.idx)}
	if !isThisHost(k.name) {
		argv = append(append(append([]string{}, d.setup.Agent...), k.name), argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = d.cfg.Environ
	// SIGTERM, not SIGKILL, when this daemon dies: the child's daemon then
	// ends its own ranks and subtree rather than dying with them running.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	pr, pw, err := os.Pipe()
	if err == nil {
		cmd.Stdout, cmd.Stderr = pw, pw
		err = cmd.Start()
		pw.Close()
		if err != nil {
			pr.Close()
		}
	}
	if err != nil {
		close(k.done)
		close(k.said)
		close(k.read)
		d.conn.send(dmsg{T: "lost", Host: k.idx, Msg: fmt.Sprintf("cannot start the launch agent for it on %s (%s): %v",
			d.setup.Hosts[d.idx], argv[0], err)})
		return
	}
	k.agent = cmd
	go func() { // what the agent or the child's daemon says
		defer close(k.said)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			d.conn.send(dmsg{T: "log", Host: k.idx, Msg: sc.Text()})
		}
		pr.Close()
	}()
	go func() {
		cmd.Wait()
		close(k.done)
		if d.kidConn(k) == nil && !d.stopping.Load() {
			select { // its last words first
			case <-k.said:
			case <-time.After(500 * time.Millisecond):
			}
			d.conn.send(dmsg{T: "lost", Host: k.idx, Msg: fmt.Sprintf("the launch agent for it on %s exited (%v) before its daemon connected (%s)",
				d.setup.Hosts[d.idx], cmd.ProcessState, strings.Join(cmd.Args, " "))})
		}
	}()
}

// acceptKids takes the children's hellos until all are in or the listener
// closes.
func (d *daemon) acceptKids(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			dc := newDconn(c, 10*time.Second)
			m, err := dc.recv()
			k := d.kids[m.Host]
			if err != nil || m.T != "hello" || m.Token != d.token || k == nil || d.tree.parent(m.Host) != d.idx {
				c.Close()
				return
			}
			// The plan goes first, under the lock: nothing relayed down
			// (a bye) may overtake it.
			d.kmu.Lock()
			dc.hb = d.conn.hb
			if k.conn != nil || d.stopping.Load() || dc.send(dmsg{T: "tree", Tree: d.setup}) != nil {
				d.kmu.Unlock()
				c.Close()
				return
			}
			k.conn = dc
			all := true
			for _, o := range d.kids {
				all = all && o.conn != nil
			}
			d.kmu.Unlock()
			if all {
				ln.Close()
			}
			d.conn.send(dmsg{T: "hello", Host: m.Host, Kernel: m.Kernel})
			go dc.heartbeat()
			d.readKid(k)
		}()
	}
}

// readKid relays child k's messages until its link ends.
func (d *daemon) readKid(k *kidLink) {
	defer close(k.read)
	for {
		m, err := k.conn.recv()
		if err != nil {
			if !k.finished && !d.stopping.Load() {
				d.conn.send(dmsg{T: "lost", Host: k.idx, Msg: linkLoss(err, k.conn.hb)})
			}
			return
		}
		switch {
		case m.T == "ping":
		case m.T == "done":
			if m.Host == k.idx {
				k.finished = true
			}
		case m.T == "fence":
			if m.Host == k.idx {
				d.contribute(m.KV)
			}
		case d.tree.within(k.idx, m.Host):
			if d.conn.send(m) != nil {
				return
			}
		}
	}
}

// contribute adds one fence contribution (this host's or a child's
// subtree's); the last one sends the merged puts up.
func (d *daemon) contribute(kv map[string]string) {
	d.fmu.Lock()
	defer d.fmu.Unlock()
	if d.fenceKV == nil {
		d.fenceKV = map[string]string{}
	}
	for k, v := range kv {
		d.fenceKV[k] = v
	}
	d.fenceN++
	if d.fenceN < 1+len(d.kids) {
		return
	}
	all := d.fenceKV
	d.fenceN, d.fenceKV = 0, nil
	d.up(dmsg{T: "fence", KV: all})
}

// dropKids closes every child's link: the head is gone, so is the job.
func (d *daemon) dropKids() {
	d.stopping.Store(true)
	if d.ln != nil {
		d.ln.Close()
	}
	d.kmu.Lock()
	defer d.kmu.Unlock()
	for _, k := range d.kids {
		if k.conn != nil {
			k.conn.close()
		}
	}
}

// endKids waits (bounded) for the children to finish after bye, then makes
// sure no agent outlives this daemon.
func (d *daemon) endKids() {
	if len(d.kids) == 0 {
		return
	}
	d.stopping.Store(true)
	if d.ln != nil {
		d.ln.Close()
	}
	deadline := time.After(outputDrain + d.conn.hb)
	for _, k := range d.kids {
		if d.kidConn(k) == nil {
			continue
		}
		select {
		case <-k.read:
		case <-deadline:
		}
	}
	d.dropKids()
	until := time.Now().Add(time.Second)
	for _, k := range d.kids {
		if k.agent == nil || k.agent.Process == nil {
			continue
		}
		select {
		case <-k.done:
		case <-time.After(time.Until(until)):
			unix.Kill(-k.agent.Process.Pid, syscall.SIGKILL)
		}
	}
}

// linkLoss says why a link's read failed.
func linkLoss(err error, hb time.Duration) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("no word from it for %v (host down or link lost)", hb)
	case errors.Is(err, io.EOF):
		return "its connection closed (daemon or host gone)"
	}
	return err.Error()
}

// daemonAddrs lists where this daemon's children may reach it: first the
// address it reaches its parent from (routable where its parent is), then
// every address of the host.
func daemonAddrs(local net.Addr, port int) []string {
	var out []string
	if ta, ok := local.(*net.TCPAddr); ok && !ta.IP.IsLoopback() {
		out = append(out, net.JoinHostPort(ta.IP.String(), strconv.Itoa(port)))
	}
	for _, a := range headAddrs(nil, port) {
		if len(out) == 0 || a != out[0] {
			out = append(out, a)
		}
	}
	return out
}
