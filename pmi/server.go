package pmi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
)

// ServerConfig describes one job.
type ServerConfig struct {
	Size         int               // number of ranks
	KVSName      string            // the job's KVS name; default "kvs_gompi"
	AppNum       int               // answer to get_appnum
	UniverseSize int               // answer to get_universe_size; default Size
	Preput       map[string]string // keys present before any rank starts
	// OnAbort runs (on the rank's serving goroutine) when a rank asks to
	// abort the job.
	OnAbort func(rank, code int, msg string)
	// OnSpawn starts the processes of a spawn request from rank and returns
	// how many started (nil: spawning is not supported).
	OnSpawn func(rank int, req *SpawnRequest) (int, error)
	// OnViolation runs when a rank breaks the protocol in a way that would
	// leave the job hanging or wrong (a request while it waits in a
	// barrier): the job should end. The rank's session ends after it.
	OnViolation func(rank int, what string)
	// KVSLimit and RankKVSLimit bound the store in all and per rank
	// (accounted bytes, see entryCost); 0: maxKVSBytes, maxRankKVSBytes.
	KVSLimit, RankKVSLimit int
	// Logf reports protocol errors; nil discards them.
	Logf func(format string, args ...any)
	// Local lists the ranks this server serves when the job spans several
	// servers (a gompirun daemon per host); nil: all Size ranks.
	Local []int
	// Fence, with Local, completes a barrier across servers: the last local
	// rank to enter calls it with the puts made here since the previous
	// barrier; it returns the other servers' puts, which are merged before
	// the barrier is released. An error fails the barrier (rc=-1).
	Fence func(puts map[string]string) (map[string]string, error)
}

// RankState is what the server knows about one rank.
type RankState struct {
	Connected   bool // Serve is running for it
	Initialized bool // sent cmd=init
	Finalized   bool // sent cmd=finalize
	Aborted     bool
	AbortCode   int
	AbortMsg    string
}

// The KVS is bounded per rank and in all, so a runaway rank cannot exhaust
// the launcher's memory: a put past either bound gets rc=-1 msg=kvs_full.
// Each entry counts its key and value and entryOverhead for the map's own
// memory (a flood of tiny keys costs several times its content). Business
// cards take a few KiB per rank.
const (
	maxRankKVSBytes = 4 << 20
	maxKVSBytes     = 64 << 20
	entryOverhead   = 96
)

// kvsEntry is a value and the rank that put it (-1: preput).
type kvsEntry struct {
	val   string
	owner int
}

func entryCost(key, val string) int { return len(key) + len(val) + entryOverhead }

// maxLoggedErrors per rank: a rank writing garbage gets replies, not a flood.
const maxLoggedErrors = 10

// Server serves one job's ranks, one connection per rank.
type Server struct {
	cfg ServerConfig

	mu       sync.Mutex
	kvs      map[string]kvsEntry
	kvsBytes int   // accounted bytes of all entries
	rankKVS  []int // accounted bytes of each rank's entries
	ranks    []RankState
	conns    []net.Conn
	closed   bool
	done     chan struct{}
	barrierN int               // ranks waiting in the current barrier
	barrierC chan struct{}     // closed when the current barrier completes
	barrierE *error            // the current barrier's outcome, set before barrierC closes
	nLocal   int               // ranks served here
	delta    map[string]string // local puts since the last fence (with Fence)
}

// NewServer creates a job's server.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Size < 1 {
		return nil, fmt.Errorf("pmi: server size %d", cfg.Size)
	}
	if cfg.KVSName == "" {
		cfg.KVSName = "kvs_gompi"
	}
	if err := checkName("kvsname", cfg.KVSName, true); err != nil || len(cfg.KVSName) > MaxKVSNameLen {
		return nil, fmt.Errorf("pmi: bad kvs name %q", cfg.KVSName)
	}
	if cfg.UniverseSize < 1 {
		cfg.UniverseSize = cfg.Size
	}
	if cfg.KVSLimit <= 0 {
		cfg.KVSLimit = maxKVSBytes
	}
	if cfg.RankKVSLimit <= 0 {
		cfg.RankKVSLimit = maxRankKVSBytes
	}
	s := &Server{
		cfg:      cfg,
		kvs:      map[string]kvsEntry{},
		rankKVS:  make([]int, cfg.Size),
		ranks:    make([]RankState, cfg.Size),
		conns:    make([]net.Conn, cfg.Size),
		done:     make(chan struct{}),
		barrierC: make(chan struct{}),
		barrierE: new(error),
		nLocal:   cfg.Size,
	}
	if cfg.Local != nil {
		s.nLocal = len(cfg.Local)
		for _, r := range cfg.Local {
			if r < 0 || r >= cfg.Size {
				return nil, fmt.Errorf("pmi: local rank %d outside job of %d", r, cfg.Size)
			}
		}
		if s.nLocal < 1 {
			return nil, fmt.Errorf("pmi: no local ranks")
		}
	}
	if cfg.Fence != nil {
		s.delta = map[string]string{}
	}
	for k, v := range cfg.Preput {
		if err := checkKey(k); err != nil {
			return nil, err
		}
		if err := checkValue(k, v); err != nil {
			return nil, err
		}
		s.kvs[k] = kvsEntry{v, -1}
		s.kvsBytes += entryCost(k, v)
	}
	return s, nil
}

// KVSName is the job's KVS name.
func (s *Server) KVSName() string { return s.cfg.KVSName }

// State returns what the server knows about rank.
func (s *Server) State(rank int) RankState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ranks[rank]
}

// Close ends every Serve call and releases ranks waiting in a barrier (they
// get no reply: the job is over).
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	close(s.done)
	for _, c := range s.conns {
		if c != nil {
			c.Close()
		}
	}
}

func (s *Server) logf(rank int, format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf("pmi server: rank %d: "+format, append([]any{rank}, args...)...)
	}
}

// Serve answers rank's requests on conn until the peer closes it, a write
// fails or the server is closed. It closes conn when it returns. A malformed
// or oversized line gets `cmd=error rc=-1` and a log line; the session goes on.
func (s *Server) Serve(rank int, conn net.Conn) error {
	if rank < 0 || rank >= s.cfg.Size {
		conn.Close()
		return fmt.Errorf("pmi: rank %d outside job of %d", rank, s.cfg.Size)
	}
	s.mu.Lock()
	if s.closed || s.conns[rank] != nil {
		s.mu.Unlock()
		conn.Close()
		return fmt.Errorf("pmi: rank %d: server closed or rank already connected", rank)
	}
	s.conns[rank] = conn
	s.ranks[rank].Connected = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.conns[rank] = nil
		s.ranks[rank].Connected = false
		s.mu.Unlock()
		conn.Close()
	}()

	rs := &session{s: s, rank: rank, conn: conn, rd: NewReader(conn),
		lines: make(chan readResult), quit: make(chan struct{})}
	defer close(rs.quit)
	go rs.readLoop()
	for {
		err := rs.step()
		if err == nil {
			continue
		}
		select {
		case <-s.done:
			return nil
		default:
		}
		if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
			return nil
		}
		return err
	}
}

// session is one rank's connection state.
type session struct {
	s      *Server
	rank   int
	conn   net.Conn
	rd     *Reader
	wbuf   []byte
	errors int
	spawn  spawnState
	// lines come from readLoop, so that a request arriving while the rank
	// should be waiting in a barrier is seen.
	lines chan readResult
	quit  chan struct{} // closed when Serve returns
}

type readResult struct {
	line []byte
	err  error
}

// readLoop reads the rank's lines for the session until the stream ends.
func (rs *session) readLoop() {
	for {
		line, err := rs.rd.ReadLine()
		select {
		case rs.lines <- readResult{append([]byte(nil), line...), err}:
		case <-rs.quit:
			return
		}
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			return
		}
	}
}

// readLine is the rank's next line.
func (rs *session) readLine() ([]byte, error) {
	select {
	case r := <-rs.lines:
		return r.line, r.err
	case <-rs.s.done:
		return nil, net.ErrClosed
	}
}

// ErrProtocol is what Serve returns for a session ended by a violation.
var ErrProtocol = errors.New("pmi: protocol violation")

func (rs *session) reply(m Message) error {
	b, err := m.AppendLine(rs.wbuf[:0])
	if err != nil {
		// Our own reply does not fit the wire rules: a bug, but never a crash.
		rs.s.logf(rs.rank, "cannot encode reply %q: %v", m.Cmd, err)
		b, _ = NewMessage("error", "rc", "-1", "msg", "internal_error").AppendLine(rs.wbuf[:0])
	}
	rs.wbuf = b
	_, err = rs.conn.Write(b)
	return err
}

func fail(cmd, msg string) Message {
	return NewMessage(cmd, "rc", "-1", "msg", msg)
}

func (rs *session) badLine(err error, line []byte) error {
	rs.errors++
	if rs.errors <= maxLoggedErrors {
		if len(line) > 80 {
			line = line[:80]
		}
		rs.s.logf(rs.rank, "%v (line %q)", err, line)
	}
	msg := "malformed_line"
	if errors.Is(err, ErrLineTooLong) {
		msg = "line_too_long"
	}
	return rs.reply(fail("error", msg))
}

// step reads and answers one request.
func (rs *session) step() error {
	line, err := rs.readLine()
	if errors.Is(err, ErrLineTooLong) {
		return rs.badLine(err, nil)
	}
	if err != nil {
		return err
	}
	if bytes.HasPrefix(line, []byte("mcmd=")) {
		return rs.skipMultiCommand(line)
	}
	m, err := ParseLine(line)
	if err != nil {
		return rs.badLine(err, line)
	}
	return rs.handle(m)
}

// skipMultiCommand consumes a multi-line `mcmd=spawn ... endcmd` request:
// spawning is not supported, but the client deserves a reply it expects.
func (rs *session) skipMultiCommand(first []byte) error {
	line := first
	for n := 0; !bytes.Equal(line, []byte("endcmd")); n++ {
		if n > 1024 {
			return rs.badLine(errors.New("pmi: multi-line command without endcmd"), first)
		}
		var err error
		line, err = rs.readLine()
		if err != nil && !IsLineError(err) {
			return err
		}
	}
	rs.s.logf(rs.rank, "spawn requested; not supported")
	return rs.reply(fail("spawn_result", "spawn_not_supported"))
}

func (rs *session) handle(m Message) error {
	s := rs.s
	switch m.Cmd {
	case "init":
		s.mu.Lock()
		s.ranks[rs.rank].Initialized = true
		s.mu.Unlock()
		if v, _ := m.Get("pmi_version"); v != "1" {
			return rs.reply(NewMessage("response_to_init", "pmi_version", "1", "pmi_subversion", "1",
				"rc", "-1", "msg", "only_pmi_version_1_supported"))
		}
		return rs.reply(NewMessage("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "0"))
	case "initack":
		// PMI_PORT handshake: the rank is known from the connection.
		for _, r := range []Message{
			NewMessage("initack", "rc", "0"),
			NewMessage("set", "size", strconv.Itoa(s.cfg.Size)),
			NewMessage("set", "rank", strconv.Itoa(rs.rank)),
			NewMessage("set", "debug", "0"),
		} {
			if err := rs.reply(r); err != nil {
				return err
			}
		}
		return nil
	case "get_maxes":
		return rs.reply(NewMessage("maxes", "kvsname_max", strconv.Itoa(MaxKVSNameLen),
			"keylen_max", strconv.Itoa(MaxKeyLen), "vallen_max", strconv.Itoa(MaxValueLen), "rc", "0"))
	case "get_appnum":
		return rs.reply(NewMessage("appnum", "appnum", strconv.Itoa(s.cfg.AppNum), "rc", "0"))
	case "get_my_kvsname":
		return rs.reply(NewMessage("my_kvsname", "kvsname", s.cfg.KVSName, "rc", "0"))
	case "get_universe_size":
		return rs.reply(NewMessage("universe_size", "size", strconv.Itoa(s.cfg.UniverseSize), "rc", "0"))
	case "gompi_spawn_part":
		return rs.reply(rs.spawnPart(m))
	case "gompi_spawn":
		return rs.reply(rs.spawnGo())
	case "put":
		return rs.reply(rs.put(m))
	case "get":
		return rs.reply(rs.get(m))
	case "barrier_in":
		if err := rs.barrier(); err != nil {
			var fe fenceError
			if errors.As(err, &fe) {
				s.logf(rs.rank, "barrier across hosts failed: %v", fe.err)
				return rs.reply(fail("barrier_out", "fence_failed"))
			}
			return err
		}
		return rs.reply(NewMessage("barrier_out", "rc", "0"))
	case "finalize":
		s.mu.Lock()
		s.ranks[rs.rank].Finalized = true
		s.mu.Unlock()
		return rs.reply(NewMessage("finalize_ack", "rc", "0"))
	case "abort":
		code := 1
		if v, ok := m.Get("exitcode"); ok {
			if n, err := strconv.Atoi(v); err == nil {
				code = n
			}
		}
		msg, ok := m.Get("message")
		if !ok {
			msg, _ = m.Get("msg")
		}
		s.mu.Lock()
		st := &s.ranks[rs.rank]
		first := !st.Aborted
		st.Aborted, st.AbortCode, st.AbortMsg = true, code, msg
		s.mu.Unlock()
		if first && s.cfg.OnAbort != nil {
			s.cfg.OnAbort(rs.rank, code, msg)
		}
		return nil // no reply: the client exits
	default:
		rs.errors++
		if rs.errors <= maxLoggedErrors {
			rs.s.logf(rs.rank, "unknown command %q", m.Cmd)
		}
		return rs.reply(fail("error", "unknown_command"))
	}
}

func (rs *session) checkKVS(m Message) (key string, reply *Message) {
	if name, ok := m.Get("kvsname"); ok && name != rs.s.cfg.KVSName {
		r := fail(m.Cmd+"_result", "unknown_kvsname")
		return "", &r
	}
	key, ok := m.Get("key")
	if !ok || checkKey(key) != nil {
		r := fail(m.Cmd+"_result", "bad_key")
		return "", &r
	}
	return key, nil
}

func (rs *session) put(m Message) Message {
	key, bad := rs.checkKVS(m)
	if bad != nil {
		return *bad
	}
	val, ok := m.Get("value")
	if !ok {
		return fail("put_result", "missing_value")
	}
	s := rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	// A second put of a key replaces the value, as Hydra does; the
	// replaced entry no longer counts against its owner.
	cost := entryCost(key, val)
	total, mine := s.kvsBytes+cost, s.rankKVS[rs.rank]+cost
	old, dup := s.kvs[key]
	if dup {
		total -= entryCost(key, old.val)
		if old.owner == rs.rank {
			mine -= entryCost(key, old.val)
		}
	}
	if total > s.cfg.KVSLimit || mine > s.cfg.RankKVSLimit {
		rs.errors++
		if rs.errors <= maxLoggedErrors {
			s.logf(rs.rank, "key-value store full (%d bytes of this rank's, %d of the job's); put of %q refused", s.rankKVS[rs.rank], s.kvsBytes, key)
		}
		return fail("put_result", "kvs_full")
	}
	if dup && old.owner >= 0 && old.owner != rs.rank {
		s.rankKVS[old.owner] -= entryCost(key, old.val)
	}
	s.kvs[key] = kvsEntry{val, rs.rank}
	s.kvsBytes, s.rankKVS[rs.rank] = total, mine
	if s.delta != nil {
		s.delta[key] = val
	}
	return NewMessage("put_result", "rc", "0", "msg", "success")
}

func (rs *session) get(m Message) Message {
	key, bad := rs.checkKVS(m)
	if bad != nil {
		return *bad
	}
	s := rs.s
	s.mu.Lock()
	e, ok := s.kvs[key]
	s.mu.Unlock()
	if !ok {
		return fail("get_result", "key_not_found")
	}
	return NewMessage("get_result", "rc", "0", "msg", "success", "value", e.val)
}

// barrier blocks until all ranks entered the current barrier. It returns
// net.ErrClosed when the server closed meanwhile, the stream's error when the
// rank went away, and ErrProtocol when the rank sent anything but an abort
// before its barrier_out (PMI-1 is one request, one reply: a second
// barrier_in would count the rank twice, releasing a later barrier early or
// never).
func (rs *session) barrier() error {
	s := rs.s
	s.mu.Lock()
	c, e := s.barrierC, s.barrierE
	s.barrierN++
	if s.barrierN == s.nLocal {
		s.barrierN = 0
		s.barrierC, s.barrierE = make(chan struct{}), new(error)
		delta := s.delta
		if delta != nil {
			s.delta = map[string]string{}
		}
		s.mu.Unlock()
		if s.cfg.Fence != nil {
			// Every local rank waits here, so none can put meanwhile.
			others, err := s.cfg.Fence(delta)
			if err == nil {
				s.merge(others)
			}
			*e = err
		}
		close(c)
	} else {
		s.mu.Unlock()
	}
	select {
	case <-c:
		if *e != nil {
			return fenceError{*e}
		}
		return nil
	case <-s.done:
		return net.ErrClosed
	case r := <-rs.lines:
		if r.err != nil && !errors.Is(r.err, ErrLineTooLong) {
			return r.err
		}
		m, err := ParseLine(r.line)
		if err == nil && m.Cmd == "abort" {
			rs.handle(m)
			return net.ErrClosed
		}
		what := "a malformed line"
		if err == nil {
			what = "cmd=" + m.Cmd
		}
		rs.s.violation(rs.rank, what+" while waiting in a barrier (PMI-1 allows one request at a time)")
		return ErrProtocol
	}
}

// fenceError is a failed Fence: the rank gets barrier_out rc=-1.
type fenceError struct{ err error }

func (f fenceError) Error() string { return f.err.Error() }

// merge adds the other servers' puts to the store. They count against the
// job's bound only: their owners' bounds were checked where they were put.
func (s *Server) merge(kv map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range kv {
		if old, dup := s.kvs[k]; dup {
			if old.owner >= 0 {
				continue // a local put, already here
			}
			s.kvsBytes -= entryCost(k, old.val)
		}
		s.kvs[k] = kvsEntry{v, -1}
		s.kvsBytes += entryCost(k, v)
	}
}

// violation reports that rank broke the protocol.
func (s *Server) violation(rank int, what string) {
	if s.cfg.OnViolation != nil {
		s.cfg.OnViolation(rank, what)
		return
	}
	s.logf(rank, "protocol violation: %s", what)
}
