package pmi

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gompi/internal/testtime"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// job starts a server of size n and one client per rank over net.Pipe.
type job struct {
	srv     *Server
	clients []*Client
	served  sync.WaitGroup
	mu      sync.Mutex
	logs    []string
	aborts  []string
}

func startJob(t *testing.T, n int) *job {
	t.Helper()
	return startJobConfig(t, ServerConfig{Size: n})
}

// startJobConfig is startJob with cfg's size and limits.
func startJobConfig(t *testing.T, cfg ServerConfig) *job {
	t.Helper()
	j := &job{}
	n := cfg.Size
	cfg.KVSName = "kvs_test"
	cfg.Preput = map[string]string{"PMI_process_mapping": fmt.Sprintf("(vector,(0,1,%d))", n)}
	cfg.OnAbort = func(rank, code int, msg string) {
		j.mu.Lock()
		j.aborts = append(j.aborts, fmt.Sprintf("%d:%d:%s", rank, code, msg))
		j.mu.Unlock()
	}
	cfg.Logf = func(f string, a ...any) {
		j.mu.Lock()
		j.logs = append(j.logs, fmt.Sprintf(f, a...))
		j.mu.Unlock()
	}
	srv, err := NewServer(cfg)
	require.NoError(t, err)
	j.srv = srv
	j.clients = make([]*Client, n)
	var wg sync.WaitGroup
	for r := 0; r < n; r++ {
		cs, ss := net.Pipe()
		j.served.Add(1)
		go func() { defer j.served.Done(); srv.Serve(r, ss) }()
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := NewClientConn(cs, r, n)
			assert.NoError(t, err)
			j.clients[r] = c
		}()
	}
	wg.Wait()
	t.Cleanup(func() { srv.Close(); j.served.Wait() })
	return j
}

// each runs f for every rank concurrently.
func (j *job) each(t *testing.T, f func(r int, c *Client)) {
	t.Helper()
	var wg sync.WaitGroup
	for r, c := range j.clients {
		wg.Add(1)
		go func() { defer wg.Done(); f(r, c) }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(testtime.D(60 * time.Second)):
		t.Fatal("ranks did not finish")
	}
}

func TestModexPattern(t *testing.T) {
	const n = 4
	j := startJob(t, n)
	j.each(t, func(r int, c *Client) {
		assert.Equal(t, r, c.Rank())
		assert.Equal(t, n, c.Size())
		assert.Equal(t, "kvs_test", c.KVSName())
		assert.False(t, c.Singleton())
		require.NoError(t, c.Put("card-"+strconv.Itoa(r), fmt.Sprintf("addr=%d;x y\\z", r*10)))
		require.NoError(t, c.Barrier())
		for p := 0; p < n; p++ {
			v, err := c.Get("card-" + strconv.Itoa(p))
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("addr=%d;x y\\z", p*10), v)
		}
		v, err := c.Get("PMI_process_mapping")
		require.NoError(t, err)
		assert.Equal(t, "(vector,(0,1,4))", v)
		_, err = c.Get("nope")
		assert.ErrorIs(t, err, ErrNotFound)
		require.NoError(t, c.Barrier()) // barriers are reusable
		assert.Equal(t, 0, c.AppNum())
		assert.Equal(t, n, c.UniverseSize())
		// init, kvsname, put, barrier, n+2 gets, barrier, appnum, universe
		assert.Equal(t, 2+1+1+n+2+1+2, c.RoundTrips())
		require.NoError(t, c.Finalize())
		require.NoError(t, c.Finalize())
		assert.ErrorIs(t, c.Put("late", "x"), ErrFinalized)
	})
	for r := 0; r < n; r++ {
		st := j.srv.State(r)
		assert.True(t, st.Initialized && st.Finalized && !st.Aborted, "rank %d: %+v", r, st)
	}
	j.served.Wait() // every Serve returns once its client closed
	assert.Empty(t, j.logs)
}

func TestPutRules(t *testing.T) {
	j := startJob(t, 1)
	c := j.clients[0]
	require.NoError(t, c.Put("k", "v"))
	require.NoError(t, c.Put("k", "other"), "a second put replaces, as in Hydra")
	v, err := c.Get("k")
	require.NoError(t, err)
	assert.Equal(t, "other", v)
	j.srv.mu.Lock()
	assert.Equal(t, len("PMI_process_mapping")+len("(vector,(0,1,1))")+len("k")+len("other")+2*entryOverhead, j.srv.kvsBytes)
	assert.Equal(t, len("k")+len("other")+entryOverhead, j.srv.rankKVS[0])
	j.srv.mu.Unlock()
	require.NoError(t, c.Put("empty", ""))
	v, err = c.Get("empty")
	require.NoError(t, err)
	assert.Equal(t, "", v)
	assert.Error(t, c.Put(strings.Repeat("k", MaxKeyLen+1), "v"))
	assert.Error(t, c.Put("k2", strings.Repeat("v", MaxValueLen+1)))
	assert.Error(t, c.Put("k3", "tab\there"))
	assert.Error(t, c.Put("", "v"))
	require.NoError(t, c.Put("big", strings.Repeat(" ", MaxValueLen)))
	v, err = c.Get("big")
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat(" ", MaxValueLen), v)
}

func TestBarrierWaitsForAll(t *testing.T) {
	j := startJob(t, 3)
	var mu sync.Mutex
	released := 0
	for r := 0; r < 2; r++ {
		go func() {
			if j.clients[r].Barrier() == nil {
				mu.Lock()
				released++
				mu.Unlock()
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	assert.Equal(t, 0, released, "barrier released before the last rank arrived")
	mu.Unlock()
	require.NoError(t, j.clients[2].Barrier())
	assert.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return released == 2 },
		testtime.D(30*time.Second), 5*time.Millisecond)
}

func TestAbortCallback(t *testing.T) {
	j := startJob(t, 2)
	require.NoError(t, j.clients[1].Abort(3, "bad\tthing\nhappened é"))
	assert.Eventually(t, func() bool { return j.srv.State(1).Aborted }, testtime.D(30*time.Second), 5*time.Millisecond)
	st := j.srv.State(1)
	assert.Equal(t, 3, st.AbortCode)
	assert.Equal(t, "bad thing happened ??", st.AbortMsg)
	j.mu.Lock()
	assert.Equal(t, []string{"1:3:bad thing happened ??"}, j.aborts)
	j.mu.Unlock()
}

func TestCloseReleasesBarrier(t *testing.T) {
	j := startJob(t, 2)
	errc := make(chan error, 1)
	go func() { errc <- j.clients[0].Barrier() }()
	time.Sleep(50 * time.Millisecond)
	j.srv.Close()
	select {
	case err := <-errc:
		assert.Error(t, err)
	case <-time.After(testtime.D(30 * time.Second)):
		t.Fatal("barrier not released by Close")
	}
}

// rawConn talks to a server rank directly, bypassing the client.
func rawConn(t *testing.T, srv *Server, rank int) (net.Conn, *bufio.Reader, chan error) {
	cs, ss := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(rank, ss) }()
	t.Cleanup(func() { cs.Close() })
	return cs, bufio.NewReader(cs), done
}

func exchange(t *testing.T, c net.Conn, br *bufio.Reader, line string) string {
	t.Helper()
	go c.Write([]byte(line))
	c.SetReadDeadline(time.Now().Add(testtime.D(30 * time.Second)))
	reply, err := br.ReadString('\n')
	require.NoError(t, err, "after %q", line)
	return strings.TrimSuffix(reply, "\n")
}

func TestServerRawProtocol(t *testing.T) {
	var logs []string
	var mu sync.Mutex
	srv, err := NewServer(ServerConfig{Size: 1, KVSName: "kvs_raw", UniverseSize: 8, AppNum: 2,
		Logf: func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }})
	require.NoError(t, err)
	defer srv.Close()
	c, br, done := rawConn(t, srv, 0)
	cases := []struct{ in, want string }{
		{"cmd=init pmi_version=1 pmi_subversion=1\n", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0"},
		{"cmd=get_maxes\n", "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=0"},
		{"cmd=get_appnum\n", "cmd=appnum appnum=2 rc=0"},
		{"cmd=get_my_kvsname\n", "cmd=my_kvsname kvsname=kvs_raw rc=0"},
		{"cmd=get_universe_size\n", "cmd=universe_size size=8 rc=0"},
		{"cmd=put kvsname=kvs_raw key=a value=1\n", "cmd=put_result rc=0 msg=success"},
		{"cmd=get kvsname=kvs_raw key=a\n", "cmd=get_result rc=0 msg=success value=1"},
		{"cmd=get kvsname=kvs_raw key=b\n", "cmd=get_result rc=-1 msg=key_not_found"},
		{"cmd=get kvsname=other key=a\n", "cmd=get_result rc=-1 msg=unknown_kvsname"},
		{"cmd=put kvsname=kvs_raw key=" + strings.Repeat("k", 65) + " value=1\n", "cmd=put_result rc=-1 msg=bad_key"},
		{"cmd=put kvsname=kvs_raw key=z\n", "cmd=put_result rc=-1 msg=missing_value"},
		{"garbage\n", "cmd=error rc=-1 msg=malformed_line"},
		{strings.Repeat("x", 10000) + "\n", "cmd=error rc=-1 msg=line_too_long"},
		{"cmd=frobnicate\n", "cmd=error rc=-1 msg=unknown_command"},
		{"mcmd=spawn\nnprocs=2\nexecname=a.out\nendcmd\n", "cmd=spawn_result rc=-1 msg=spawn_not_supported"},
		{"cmd=initack pmiid=0\n", "cmd=initack rc=0"},
	}
	for _, cs := range cases {
		assert.Equal(t, cs.want, exchange(t, c, br, cs.in))
	}
	for _, want := range []string{"cmd=set size=1", "cmd=set rank=0", "cmd=set debug=0"} {
		line, err := br.ReadString('\n')
		require.NoError(t, err)
		assert.Equal(t, want, strings.TrimSuffix(line, "\n"))
	}
	assert.Equal(t, "cmd=barrier_out rc=0", exchange(t, c, br, "cmd=barrier_in\n"))
	assert.Equal(t, "cmd=finalize_ack rc=0", exchange(t, c, br, "cmd=finalize\n"))
	c.Close()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(testtime.D(30 * time.Second)):
		t.Fatal("Serve did not return after the client closed")
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, logs, 4, "malformed, too long, unknown, spawn are logged: %q", logs)
	st := srv.State(0)
	assert.True(t, st.Initialized && st.Finalized && !st.Connected)
}

func TestServerLogFloodBounded(t *testing.T) {
	n := 0
	srv, err := NewServer(ServerConfig{Size: 1, Logf: func(string, ...any) { n++ }})
	require.NoError(t, err)
	defer srv.Close()
	c, br, _ := rawConn(t, srv, 0)
	for i := 0; i < 50; i++ {
		exchange(t, c, br, "!!!\n")
	}
	assert.Equal(t, maxLoggedErrors, n)
}

func TestServerRejectsBadUse(t *testing.T) {
	_, err := NewServer(ServerConfig{Size: 0})
	assert.Error(t, err)
	_, err = NewServer(ServerConfig{Size: 1, KVSName: "a b"})
	assert.Error(t, err)
	_, err = NewServer(ServerConfig{Size: 1, Preput: map[string]string{"k": "\n"}})
	assert.Error(t, err)
	srv, err := NewServer(ServerConfig{Size: 1})
	require.NoError(t, err)
	a, b := net.Pipe()
	defer a.Close()
	assert.Error(t, srv.Serve(1, b))
	_, _, _ = rawConn(t, srv, 0)
	require.Eventually(t, func() bool { return srv.State(0).Connected }, testtime.D(30*time.Second), time.Millisecond)
	c, d := net.Pipe()
	defer c.Close()
	assert.Error(t, srv.Serve(0, d), "a rank is served once")
	srv.Close()
}

func TestNewClientConnValidates(t *testing.T) {
	a, _ := net.Pipe()
	defer a.Close()
	_, err := NewClientConn(a, 2, 2)
	assert.Error(t, err)
}

func TestSingleton(t *testing.T) {
	for _, v := range []string{"PMI_FD", "PMI_PORT", "PMI_RANK", "PMI_SIZE", "PMI_ID"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	c, err := NewFromEnv()
	require.NoError(t, err)
	assert.True(t, c.Singleton())
	assert.Equal(t, 0, c.Rank())
	assert.Equal(t, 1, c.Size())
	assert.Equal(t, 1, c.UniverseSize())
	assert.Equal(t, 0, c.AppNum())
	require.NoError(t, c.Put("a", "b"))
	require.NoError(t, c.Barrier())
	v, err := c.Get("a")
	require.NoError(t, err)
	assert.Equal(t, "b", v)
	_, err = c.Get("zz")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.NoError(t, c.Abort(1, "x"))
	assert.NoError(t, c.Finalize())
	assert.Equal(t, 0, c.RoundTrips())
}

func TestFromEnvFD(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	require.NoError(t, err)
	srvFile := os.NewFile(uintptr(fds[0]), "srv")
	srvConn, err := net.FileConn(srvFile)
	require.NoError(t, err)
	srvFile.Close()
	srv, err := NewServer(ServerConfig{Size: 2, KVSName: "kvs_fd"})
	require.NoError(t, err)
	defer srv.Close()
	go srv.Serve(1, srvConn)

	t.Setenv("PMI_PORT", "")
	t.Setenv("PMI_FD", strconv.Itoa(fds[1]))
	t.Setenv("PMI_RANK", "1")
	t.Setenv("PMI_SIZE", "2")
	c, err := NewFromEnv()
	require.NoError(t, err)
	assert.Equal(t, 1, c.Rank())
	assert.Equal(t, 2, c.Size())
	assert.Equal(t, "kvs_fd", c.KVSName())
	// The inherited descriptor is closed; the client uses a close-on-exec dup.
	_, err = unix.FcntlInt(uintptr(fds[1]), unix.F_GETFD, 0)
	assert.Error(t, err)
	require.NoError(t, c.Put("x", "1"))
	require.NoError(t, c.Finalize())
	assert.Eventually(t, func() bool { return srv.State(1).Finalized }, testtime.D(30*time.Second), time.Millisecond)
}

func TestFromEnvErrors(t *testing.T) {
	t.Setenv("PMI_PORT", "")
	t.Setenv("PMI_FD", "notanumber")
	_, err := NewFromEnv()
	assert.Error(t, err)
	t.Setenv("PMI_FD", "0")
	t.Setenv("PMI_RANK", "3")
	t.Setenv("PMI_SIZE", "2")
	_, err = NewFromEnv()
	assert.Error(t, err)
	os.Unsetenv("PMI_RANK")
	_, err = NewFromEnv()
	assert.Error(t, err)
}

func TestFromEnvPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	srv, err := NewServer(ServerConfig{Size: 3, KVSName: "kvs_port"})
	require.NoError(t, err)
	defer srv.Close()
	go func() {
		conn, err := ln.Accept()
		if err == nil {
			srv.Serve(2, conn)
		}
	}()
	t.Setenv("PMI_FD", "")
	t.Setenv("PMI_PORT", ln.Addr().String())
	t.Setenv("PMI_ID", "2")
	os.Unsetenv("PMI_RANK")
	os.Unsetenv("PMI_SIZE")
	c, err := NewFromEnv()
	require.NoError(t, err)
	assert.Equal(t, 2, c.Rank(), "rank comes from the initack handshake")
	assert.Equal(t, 3, c.Size())
	assert.Equal(t, "kvs_port", c.KVSName())
	require.NoError(t, c.Finalize())
}

// fakeServer answers the client's handshake and then the given replies, one
// per request, as another process manager might phrase them.
func fakeServer(t *testing.T, replies ...string) *Client {
	cs, ss := net.Pipe()
	t.Cleanup(func() { cs.Close(); ss.Close() })
	go func() {
		rd := NewReader(ss)
		all := append([]string{"cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0", "cmd=my_kvsname kvsname=k"}, replies...)
		for _, r := range all {
			if _, err := rd.ReadLine(); err != nil {
				return
			}
			ss.Write([]byte(r + "\n"))
		}
	}()
	c, err := NewClientConn(cs, 0, 2)
	require.NoError(t, err)
	return c
}

func TestClientReadsOtherServers(t *testing.T) {
	c := fakeServer(t,
		"cmd=get_result rc=-1 msg=key_nokey_not_found value=unknown", // Hydra 4.0
		"cmd=get_result rc=0 found=FALSE value=",                     // newer MPICH wire
		"cmd=get_result rc=0 value=v",                                // no msg
		"cmd=universe_size size=-1",                                  // Hydra: unknown
		"cmd=barrier_out",                                            // no rc
		"cmd=appnum appnum=1",
		"cmd=put_result rc=0 msg=success",
		"cmd=something_else",
	)
	_, err := c.Get("nokey")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = c.Get("x")
	assert.ErrorIs(t, err, ErrNotFound)
	v, err := c.Get("y")
	require.NoError(t, err)
	assert.Equal(t, "v", v)
	assert.Equal(t, 2, c.UniverseSize(), "unknown universe: the job size")
	assert.NoError(t, c.Barrier())
	assert.Equal(t, 1, c.AppNum())
	assert.NoError(t, c.Put("a", "b"))
	err = c.Barrier()
	assert.ErrorContains(t, err, "expected cmd=barrier_out")
}

// A rank flooding the store is refused past its share, with an error reply
// and one log line per refusal (at most maxLoggedErrors); the others still
// put, until the job's total is reached.
func TestKVSBounds(t *testing.T) {
	const rankLimit, limit = 64 << 10, 1 << 20
	j := startJobConfig(t, ServerConfig{Size: 32, RankKVSLimit: rankLimit, KVSLimit: limit})
	val := strings.Repeat("v", MaxValueLen)
	per := rankLimit / entryCost("flood-0000000", val)
	flood := func(c *Client, prefix string) (n int, err error) {
		for ; ; n++ {
			if err = c.Put(fmt.Sprintf("%s-%07d", prefix, n), val); err != nil {
				return n, err
			}
		}
	}
	n, err := flood(j.clients[0], "flood")
	require.ErrorContains(t, err, "kvs_full")
	assert.Equal(t, per, n, "a rank gets its share")
	require.NoError(t, j.clients[0].Put("flood-0000000", "short"), "replacing its own entry shrinks it")
	require.NoError(t, j.clients[1].Put("card", "x"), "another rank still puts")

	total := 0
	for r := 1; r < 32; r++ {
		n, err := flood(j.clients[r], fmt.Sprintf("r%02d", r))
		require.ErrorContains(t, err, "kvs_full")
		total += n
	}
	j.srv.mu.Lock()
	defer j.srv.mu.Unlock()
	assert.LessOrEqual(t, j.srv.kvsBytes, limit)
	assert.Greater(t, j.srv.kvsBytes, limit-32*entryCost("r00-0000000", val), "the job's bound, not the ranks', stopped them")
	assert.LessOrEqual(t, len(j.logs), 32*maxLoggedErrors)
}

// A request while the rank waits in a barrier (here barrier_in twice) ends
// its session and is reported; an abort there is honoured instead.
func TestBarrierViolation(t *testing.T) {
	var got []string
	var mu sync.Mutex
	srv, err := NewServer(ServerConfig{Size: 2, OnViolation: func(rank int, what string) {
		mu.Lock()
		got = append(got, fmt.Sprintf("%d: %s", rank, what))
		mu.Unlock()
	}})
	require.NoError(t, err)
	defer srv.Close()
	c, _, done := rawConn(t, srv, 1)
	go c.Write([]byte("cmd=barrier_in\ncmd=barrier_in\n"))
	select {
	case err := <-done:
		assert.ErrorIs(t, err, ErrProtocol)
	case <-time.After(testtime.D(30 * time.Second)):
		t.Fatal("a second barrier_in did not end the session")
	}
	mu.Lock()
	assert.Equal(t, []string{"1: cmd=barrier_in while waiting in a barrier (PMI-1 allows one request at a time)"}, got)
	mu.Unlock()

	var aborted []int
	srv2, err := NewServer(ServerConfig{Size: 2, OnAbort: func(rank, code int, msg string) { aborted = append(aborted, rank, code) },
		OnViolation: func(rank int, what string) { t.Errorf("violation %d %s", rank, what) }})
	require.NoError(t, err)
	defer srv2.Close()
	c, _, done = rawConn(t, srv2, 0)
	go c.Write([]byte("cmd=barrier_in\ncmd=abort exitcode=4\n"))
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(testtime.D(30 * time.Second)):
		t.Fatal("an abort in a barrier did not end the session")
	}
	assert.Equal(t, []int{0, 4}, aborted)
}
