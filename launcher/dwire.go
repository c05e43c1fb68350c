package launcher

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"gompi/pmi"
)

// The head gompirun and its per-host daemons talk over one TCP connection
// per daemon, one JSON object a line. The daemon proves it was started by
// this job with the token of its command line; after that both sides trust
// each other (they are the same program of the same user).

// Heartbeats: both sides send a ping every hbInterval; a side that hears
// nothing for the heartbeat timeout (GOMPI_HEARTBEAT_TIMEOUT seconds, default
// hbTimeoutDefault) takes the other as dead: a host whose link went down is
// noticed that late, a killed daemon at once (its socket closes).
const (
	hbInterval       = 250 * time.Millisecond
	hbTimeoutDefault = 2 * time.Second
	daemonStartWait  = 60 * time.Second // for the launch agent to start every daemon
	maxDaemonMsg     = 16 << 20         // bound on one line (a fence may carry many cards)
)

// hbTimeout reads GOMPI_HEARTBEAT_TIMEOUT from env.
func hbTimeout(env envList) time.Duration {
	if v, ok := env.get("GOMPI_HEARTBEAT_TIMEOUT"); ok {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 && s < 3600 {
			return time.Duration(s * float64(time.Second))
		}
	}
	return hbTimeoutDefault
}

// dmsg is every message; T says which fields matter.
//
//	head -> daemon: tree (first: the plan), start, sig, in (stdin data;
//	                empty Data: end), kvs (fence result), bye, ping
//	daemon -> head: hello, started, out, eof, fence, abort, violation, log,
//	                exit, failed (could not start), lost (a daemon below is
//	                gone), done, ping
//
// In a tree (tree.go) a daemon relays: messages up keep Host, the host they
// are about; start, sig and in go down to host To; kvs and bye go to all.
// A fence goes up once per subtree, its puts merged. Pings are per link.
type dmsg struct {
	T      string            `json:"t"`
	Token  string            `json:"tok,omitempty"`
	Host   int               `json:"host,omitempty"`
	To     int               `json:"to,omitempty"`
	Kernel string            `json:"kernel,omitempty"` // hello: the host's boot id
	Rank   int               `json:"r,omitempty"`
	Pid    int               `json:"pid,omitempty"`
	Stream int               `json:"s,omitempty"`
	Data   []byte            `json:"d,omitempty"`
	KV     map[string]string `json:"kv,omitempty"`
	Code   int               `json:"code,omitempty"`
	Msg    string            `json:"msg,omitempty"`
	Status int               `json:"st,omitempty"` // wait status
	State  *pmi.RankState    `json:"pmi,omitempty"`
	Sig    int               `json:"sig,omitempty"`
	Start  *daemonStart      `json:"start,omitempty"`
	Tree   *treeSetup        `json:"tree,omitempty"`
}

// treeSetup is what a daemon learns first: the link's heartbeat timeout and
// what it needs to start the daemons below it.
type treeSetup struct {
	Hosts     []string // every host's name, by index
	Fanout    int
	Agent     []string // the launch agent's words
	HBTimeout time.Duration
}

// daemonStart is what a daemon needs to start its ranks.
type daemonStart struct {
	JobID        string
	HostName     string // as the head calls it, for messages
	Size         int    // ranks in the job
	Ranks        []int  // the ranks on this host
	Prog         string
	Args         []string
	Env          []string
	Dir          string
	BindTo       string
	Mapping      string // PMI_process_mapping
	UniverseSize int
	Stdin        bool // rank 0 is here and gets the head's stdin
	Report       bool // --report-bindings
	HBTimeout    time.Duration
	// Hosts that are namespaces or containers of one machine share its
	// CPUs: the ranks of all of them are bound (and judged oversubscribed)
	// together. KernelRanks counts them (0: this host's alone), KernelFirst
	// is the position of this host's first rank among them.
	KernelRanks int
	KernelFirst int
}

// dconn is one end of a head-daemon connection. Sends are serialized and
// bounded in time, so a dead link cannot block a sender forever.
type dconn struct {
	c    net.Conn
	rd   *bufio.Reader
	wmu  sync.Mutex
	hb   time.Duration
	stop chan struct{}
	once sync.Once
}

func newDconn(c net.Conn, hb time.Duration) *dconn {
	return &dconn{c: c, rd: bufio.NewReaderSize(c, 64<<10), hb: hb, stop: make(chan struct{})}
}

func (d *dconn) send(m dmsg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	d.wmu.Lock()
	defer d.wmu.Unlock()
	d.c.SetWriteDeadline(time.Now().Add(d.hb))
	_, err = d.c.Write(b)
	return err
}

// recv reads the next message; silence longer than the heartbeat timeout
// is an error.
func (d *dconn) recv() (dmsg, error) {
	var m dmsg
	d.c.SetReadDeadline(time.Now().Add(d.hb))
	line, err := readLimited(d.rd, maxDaemonMsg)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("bad message from peer: %v", err)
	}
	return m, nil
}

// readLimited reads one line of at most max bytes.
func readLimited(rd *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("message over %d bytes", max)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// heartbeat pings the peer until close.
func (d *dconn) heartbeat() {
	t := time.NewTicker(hbInterval)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			if d.send(dmsg{T: "ping"}) != nil {
				return
			}
		}
	}
}

func (d *dconn) close() {
	d.once.Do(func() { close(d.stop); d.c.Close() })
}

// headAddrs lists the addresses a daemon may reach the head at: every
// non-loopback IPv4 address of this machine, then loopback (a daemon on
// this host), or GOMPI_LAUNCH_ADDRESS alone when set.
func headAddrs(env envList, port int) []string {
	p := strconv.Itoa(port)
	if v, ok := env.get("GOMPI_LAUNCH_ADDRESS"); ok && v != "" {
		return []string{net.JoinHostPort(v, p)}
	}
	var out []string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() {
				out = append(out, net.JoinHostPort(ipn.IP.String(), p))
			}
		}
	}
	return append(out, net.JoinHostPort("127.0.0.1", p))
}

// dialHead tries every address at once and keeps the first connection.
func dialHead(addrs []string, timeout time.Duration) (net.Conn, error) {
	type res struct {
		c   net.Conn
		err error
	}
	ch := make(chan res, len(addrs))
	for _, a := range addrs {
		go func() {
			c, err := net.DialTimeout("tcp", a, timeout)
			ch <- res{c, err}
		}()
	}
	var first error
	for got := 1; got <= len(addrs); got++ {
		r := <-ch
		if r.err == nil {
			go func(left int) { // close late winners
				for ; left > 0; left-- {
					if r := <-ch; r.c != nil {
						r.c.Close()
					}
				}
			}(len(addrs) - got)
			return r.c, nil
		}
		if first == nil {
			first = r.err
		}
	}
	return nil, fmt.Errorf("cannot reach gompirun at %v: %v", addrs, first)
}

func hostnameOr(def string) string {
	if h, err := os.Hostname(); err == nil {
		return h
	}
	return def
}
