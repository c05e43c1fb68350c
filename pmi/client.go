package pmi

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// ErrNotFound is wrapped by Get when the key is not in the job's KVS.
var ErrNotFound = errors.New("pmi: key not found")

// ErrFinalized is returned by calls made after Finalize.
var ErrFinalized = errors.New("pmi: client finalized")

// Client is one process's PMI session, PMI-1 or PMI-2 (client2.go). All methods are safe for concurrent
// use; PMI-1 is strictly request/reply, so calls are serialised.
type Client struct {
	mu        sync.Mutex
	conn      net.Conn // nil: singleton, no process manager
	rd        *Reader
	wbuf      []byte
	rank      int
	size      int
	kvsname   string
	local     map[string]string // singleton KVS
	trips     int
	appnum    int
	universe  int
	haveApp   bool
	haveUniv  bool
	finalized bool
	v2        bool       // PMI-2 wire protocol (client2.go)
	v2jobid   string     // PMI-2 job id, as the server names it
	px        *pmixState // PMIx (client_pmix.go)
}

// connectTimeout bounds the dial for PMI_PORT; the PMI server is local or
// on the job's network, so seconds mean it is not there.
const connectTimeout = 10 * time.Second

// NewFromEnv connects to the process manager described by the environment:
// PMI_FD (an inherited socket, as gompirun and Hydra provide) or PMI_PORT
// (host:port, with PMI_ID for the initack handshake), plus PMI_RANK and
// PMI_SIZE. Without any of them the process is a singleton: rank 0 of 1 with
// an in-memory KVS, so a program started without a launcher still runs.
func NewFromEnv() (*Client, error) {
	if UsePMIx() {
		return newPMIxClient()
	}
	fdStr, haveFD := os.LookupEnv("PMI_FD")
	port, havePort := os.LookupEnv("PMI_PORT")
	switch {
	case haveFD && fdStr != "":
		fd, err := strconv.Atoi(fdStr)
		if err != nil || fd < 0 {
			return nil, fmt.Errorf("pmi: PMI_FD=%q is not a file descriptor", fdStr)
		}
		v2 := UsePMI2()
		var rank, size int
		if !v2 {
			var err error
			if rank, size, err = rankSizeFromEnv(); err != nil {
				return nil, err
			}
		}
		f := os.NewFile(uintptr(fd), "pmi")
		if f == nil {
			return nil, fmt.Errorf("pmi: PMI_FD=%d is not open", fd)
		}
		// FileConn dups the descriptor with close-on-exec; close the inherited
		// one so children the application forks do not hold the job's socket.
		conn, err := net.FileConn(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("pmi: PMI_FD=%d: %w", fd, err)
		}
		if v2 {
			return newV2FromFD(conn)
		}
		return NewClientConn(conn, rank, size)
	case havePort && port != "":
		conn, err := net.DialTimeout("tcp", port, connectTimeout)
		if err != nil {
			return nil, fmt.Errorf("pmi: PMI_PORT=%s: %w", port, err)
		}
		c := newClient(conn, -1, -1)
		if id, ok := os.LookupEnv("PMI_ID"); ok {
			if err := c.initack(id); err != nil {
				conn.Close()
				return nil, err
			}
		}
		if c.rank < 0 {
			c.rank, c.size, err = rankSizeFromEnv()
			if err != nil {
				conn.Close()
				return nil, err
			}
		}
		if err := c.handshake(); err != nil {
			conn.Close()
			return nil, err
		}
		return c, nil
	default:
		if err := srunWithoutPMI(); err != nil {
			return nil, err
		}
		return NewSingleton(), nil
	}
}

// NewSingleton returns a client for a process started without a launcher.
func NewSingleton() *Client {
	return &Client{
		rank: 0, size: 1,
		kvsname:  "singleton_kvs_" + strconv.Itoa(os.Getpid()),
		local:    map[string]string{},
		haveApp:  true,
		haveUniv: true,
		universe: 1,
	}
}

// NewClientConn runs the init handshake over an open connection for a process
// that already knows its rank and size (tests use net.Pipe with a Server).
func NewClientConn(conn net.Conn, rank, size int) (*Client, error) {
	if size < 1 || rank < 0 || rank >= size {
		return nil, fmt.Errorf("pmi: bad rank %d of size %d", rank, size)
	}
	c := newClient(conn, rank, size)
	if err := c.handshake(); err != nil {
		return nil, err
	}
	return c, nil
}

func newClient(conn net.Conn, rank, size int) *Client {
	return &Client{conn: conn, rd: NewReader(conn), rank: rank, size: size}
}

func rankSizeFromEnv() (rank, size int, err error) {
	rank, err = envInt("PMI_RANK")
	if err != nil {
		return 0, 0, err
	}
	size, err = envInt("PMI_SIZE")
	if err != nil {
		return 0, 0, err
	}
	if size < 1 || rank < 0 || rank >= size {
		return 0, 0, fmt.Errorf("pmi: PMI_RANK=%d outside PMI_SIZE=%d", rank, size)
	}
	return rank, size, nil
}

func envInt(name string) (int, error) {
	s, ok := os.LookupEnv(name)
	if !ok {
		return 0, fmt.Errorf("pmi: %s is not set", name)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("pmi: %s=%q is not an integer", name, s)
	}
	return n, nil
}

// initack is the PMI_PORT handshake: the server answers with set lines
// carrying size, rank and debug.
func (c *Client) initack(id string) error {
	if _, err := c.roundTrip(NewMessage("initack", "pmiid", id), "initack"); err != nil {
		return err
	}
	for _, want := range []string{"size", "rank", "debug"} {
		m, err := c.rd.ReadMessage()
		if err != nil {
			return fmt.Errorf("pmi: initack: %w", err)
		}
		if m.Cmd != "set" {
			return fmt.Errorf("pmi: initack: expected cmd=set, got %s", m)
		}
		if want == "debug" {
			continue
		}
		n, err := m.Int(want)
		if err != nil {
			return err
		}
		if want == "size" {
			c.size = n
		} else {
			c.rank = n
		}
	}
	if c.size < 1 || c.rank < 0 || c.rank >= c.size {
		return fmt.Errorf("pmi: initack gave rank %d of size %d", c.rank, c.size)
	}
	return nil
}

func (c *Client) handshake() error {
	r, err := c.roundTrip(NewMessage("init", "pmi_version", "1", "pmi_subversion", "1"), "response_to_init")
	if err != nil {
		return err
	}
	if v, ok := r.Get("pmi_version"); ok && v != "1" {
		return fmt.Errorf("pmi: server speaks PMI version %s", v)
	}
	r, err = c.roundTrip(NewMessage("get_my_kvsname"), "my_kvsname")
	if err != nil {
		return err
	}
	name, ok := r.Get("kvsname")
	if !ok || name == "" {
		return fmt.Errorf("pmi: my_kvsname reply without kvsname: %s", r)
	}
	c.kvsname = name
	return nil
}

// roundTrip sends req and reads the reply, which must be cmd=want with rc=0
// (or no rc). Callers hold c.mu, except during construction.
func (c *Client) roundTrip(req Message, want string) (Message, error) {
	if err := c.send(req); err != nil {
		return Message{}, err
	}
	c.trips++
	r, err := c.rd.ReadMessage()
	if err != nil {
		return Message{}, fmt.Errorf("pmi: %s: reading reply: %w", req.Cmd, err)
	}
	if r.Cmd != want {
		return r, fmt.Errorf("pmi: %s: expected cmd=%s, got %s", req.Cmd, want, r)
	}
	if rc, ok := r.Get("rc"); ok && rc != "0" {
		msg, _ := r.Get("msg")
		return r, &ReplyError{Cmd: req.Cmd, RC: rc, Msg: msg}
	}
	return r, nil
}

func (c *Client) send(m Message) error {
	b, err := m.AppendLine(c.wbuf[:0])
	if err != nil {
		return err
	}
	c.wbuf = b
	if _, err := c.conn.Write(b); err != nil {
		return fmt.Errorf("pmi: %s: %w", m.Cmd, err)
	}
	return nil
}

// ReplyError is a reply with a non-zero rc.
type ReplyError struct {
	Cmd, RC, Msg string
}

func (e *ReplyError) Error() string {
	return fmt.Sprintf("pmi: %s failed: rc=%s %s", e.Cmd, e.RC, e.Msg)
}

// Rank is this process's rank in the job.
func (c *Client) Rank() int { return c.rank }

// Size is the number of processes in the job.
func (c *Client) Size() int { return c.size }

// KVSName is the name of the job's key-value space.
func (c *Client) KVSName() string { return c.kvsname }

// Singleton tells whether the process runs without a process manager.
func (c *Client) Singleton() bool { return c.conn == nil && c.px == nil }

// RoundTrips counts request/reply exchanges with the server so far.
func (c *Client) RoundTrips() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.trips
}

func checkKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("pmi: key %q: length must be 1..%d", key, MaxKeyLen)
	}
	return checkName("key", key, true)
}

func checkValue(key, value string) error {
	if len(value) > MaxValueLen {
		return fmt.Errorf("pmi: value of %q: %d bytes, limit %d", key, len(value), MaxValueLen)
	}
	for j := 0; j < len(value); j++ {
		if !isValueByte(value[j]) && value[j] != ' ' {
			return fmt.Errorf("pmi: value of %q: byte %q not allowed (printable ASCII only)", key, value[j])
		}
	}
	return nil
}

// Put stores key=value in the job's KVS (a second Put of a key replaces the
// value). Other ranks see it after a Barrier. Values are printable ASCII;
// spaces and backslashes survive only between our own client and server
// (Hydra 4.0 does not unescape them).
func (c *Client) Put(key, value string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := checkValue(key, value); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finalized {
		return ErrFinalized
	}
	if c.px != nil {
		return c.px.put(key, value)
	}
	if c.conn == nil {
		c.local[key] = value
		return nil
	}
	if c.v2 {
		return c.putV2(key, value)
	}
	_, err := c.roundTrip(NewMessage("put", "kvsname", c.kvsname, "key", key, "value", value), "put_result")
	return err
}

// Get fetches key from the job's KVS; a missing key gives an error wrapping
// ErrNotFound.
func (c *Client) Get(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finalized {
		return "", ErrFinalized
	}
	if c.px != nil {
		return c.px.get(key)
	}
	if c.conn == nil {
		v, ok := c.local[key]
		if !ok {
			return "", fmt.Errorf("%w: %s", ErrNotFound, key)
		}
		return v, nil
	}
	if c.v2 {
		return c.getV2(key)
	}
	r, err := c.roundTrip(NewMessage("get", "kvsname", c.kvsname, "key", key), "get_result")
	var re *ReplyError
	if errors.As(err, &re) {
		return "", fmt.Errorf("%w: %s (%s)", ErrNotFound, key, re.Msg)
	}
	if err != nil {
		return "", err
	}
	if found, ok := r.Get("found"); ok && (found == "FALSE" || found == "false" || found == "0") {
		return "", fmt.Errorf("%w: %s", ErrNotFound, key) // newer MPICH servers say so this way
	}
	v, ok := r.Get("value")
	if !ok {
		return "", fmt.Errorf("pmi: get_result without value: %s", r)
	}
	return v, nil
}

// Barrier waits until every rank has entered it; puts made before it are
// visible to gets made after it (PMI-1 has no separate commit).
func (c *Client) Barrier() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finalized {
		return ErrFinalized
	}
	if c.px != nil {
		return c.px.barrier()
	}
	if c.conn == nil {
		return nil
	}
	if c.v2 {
		return c.fenceV2()
	}
	_, err := c.roundTrip(NewMessage("barrier_in"), "barrier_out")
	return err
}

// AppNum is the application number (0 unless the job runs several programs).
func (c *Client) AppNum() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.haveApp && !c.finalized {
		if r, err := c.roundTrip(NewMessage("get_appnum"), "appnum"); err == nil {
			if n, err := r.Int("appnum"); err == nil {
				c.appnum = n
			}
		}
		c.haveApp = true
	}
	return c.appnum
}

// UniverseSize is the number of processes the job may hold (MPI_UNIVERSE_SIZE);
// the job size when the server does not say.
func (c *Client) UniverseSize() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.haveUniv && !c.finalized {
		c.universe = c.size
		if c.px != nil {
			c.universe = c.px.universe(c.size)
		} else if c.v2 {
			c.universe = c.universeV2()
		} else if r, err := c.roundTrip(NewMessage("get_universe_size"), "universe_size"); err == nil {
			if n, err := r.Int("size"); err == nil && n > 0 {
				c.universe = n
			}
		}
		c.haveUniv = true
	}
	if c.universe == 0 {
		return c.size
	}
	return c.universe
}

// Finalize tells the server this rank ends cleanly and closes the connection.
// A second call does nothing.
func (c *Client) Finalize() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finalized {
		return nil
	}
	c.finalized = true
	if c.px != nil {
		return c.px.px.Finalize()
	}
	if c.conn == nil {
		return nil
	}
	var err error
	if c.v2 {
		err = c.finalizeV2()
	} else {
		_, err = c.roundTrip(NewMessage("finalize"), "finalize_ack")
	}
	c.conn.Close()
	return err
}

// Abort asks the process manager to end the whole job with exit code code.
// There is no reply: the caller exits right after (as MPICH's PMI_Abort).
// msg is sent for the launcher's report, reduced to printable ASCII.
func (c *Client) Abort(code int, msg string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.px != nil && !c.finalized {
		return c.px.px.Abort(code, msg)
	}
	if c.conn == nil || c.finalized {
		return nil
	}
	if c.v2 {
		return c.abortV2(code, msg)
	}
	return c.send(NewMessage("abort", "exitcode", strconv.Itoa(code), "message", sanitize(msg)))
}

// sanitize maps msg into the value alphabet (spaces kept, escaped on the wire)
// and cuts it to the value limit.
func sanitize(msg string) string {
	b := make([]byte, 0, min(len(msg), MaxValueLen))
	for i := 0; i < len(msg) && len(b) < MaxValueLen; i++ {
		c := msg[i]
		switch {
		case isValueByte(c) || c == ' ':
		case c == '\n' || c == '\t' || c == '\r':
			c = ' '
		default:
			c = '?'
		}
		b = append(b, c)
	}
	return string(b)
}
