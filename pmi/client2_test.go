package pmi

import (
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

// v2Server is a fake PMI-2 process manager with Slurm's semantics: puts
// are held per rank until the kvs-fence every rank enters, then published;
// kvs-get sees only published keys; job attributes are fixed.
type v2Server struct {
	size  int
	jobid string
	attrs map[string]string

	mu      sync.Mutex
	kvs     map[string]string
	pending []map[string]string
	fenced  int
	release chan struct{}
	aborts  []string
	reqs    []string // every request body, in arrival order
}

func newV2Server(size int) *v2Server {
	s := &v2Server{size: size, jobid: "7.0", kvs: map[string]string{},
		attrs: map[string]string{
			"PMI_process_mapping": fmt.Sprintf("(vector,(0,1,%d))", size),
			"universeSize":        strconv.Itoa(size + 2),
		},
		release: make(chan struct{})}
	for range size {
		s.pending = append(s.pending, map[string]string{})
	}
	return s
}

func (s *v2Server) reply(conn net.Conn, cmd string, kv ...string) {
	b, err := NewMessage(cmd, kv...).AppendV2(nil)
	if err != nil {
		panic(err)
	}
	conn.Write(b)
}

// serve answers one rank until its connection closes.
func (s *v2Server) serve(rank int, conn net.Conn) {
	defer conn.Close()
	rd := NewReader(conn)
	init, err := rd.ReadMessage()
	if err != nil || init.Cmd != "init" {
		return
	}
	if v, _ := init.Get("pmi_version"); v != "2" {
		conn.Write([]byte("cmd=response_to_init rc=1 pmi_version=2 pmi_subversion=0\n"))
		return
	}
	conn.Write([]byte("cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n"))
	for {
		m, err := rd.ReadV2Message()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, m.String())
		s.mu.Unlock()
		switch m.Cmd {
		case "fullinit":
			_, okj := m.Get("pmijobid")
			_, okr := m.Get("pmirank")
			_, okt := m.Get("threaded")
			rc := "0"
			if !okj || !okr || !okt {
				rc = "3"
			}
			s.reply(conn, "fullinit-response", "rc", rc, "pmi-version", "2", "pmi-subversion", "0",
				"rank", strconv.Itoa(rank), "size", strconv.Itoa(s.size), "appnum", "-1",
				"debugged", "FALSE", "pmiverbose", "FALSE")
		case "job-getid":
			s.reply(conn, "job-getid-response", "rc", "0", "jobid", s.jobid)
		case "kvs-put":
			k, _ := m.Get("key")
			v, _ := m.Get("value")
			s.mu.Lock()
			s.pending[rank][k] = v
			s.mu.Unlock()
			s.reply(conn, "kvs-put-response", "rc", "0")
		case "kvs-fence":
			s.mu.Lock()
			ch := s.release
			s.fenced++
			if s.fenced == s.size {
				for r := range s.pending {
					for k, v := range s.pending[r] {
						s.kvs[k] = v
					}
					s.pending[r] = map[string]string{}
				}
				s.fenced = 0
				s.release = make(chan struct{})
				close(ch)
			}
			s.mu.Unlock()
			<-ch
			s.reply(conn, "kvs-fence-response", "rc", "0")
		case "kvs-get":
			k, _ := m.Get("key")
			s.mu.Lock()
			v, ok := s.kvs[k]
			s.mu.Unlock()
			if ok {
				s.reply(conn, "kvs-get-response", "rc", "0", "found", "TRUE", "value", v)
			} else {
				s.reply(conn, "kvs-get-response", "rc", "0", "found", "FALSE")
			}
		case "info-getjobattr":
			k, _ := m.Get("key")
			if v, ok := s.attrs[k]; ok {
				s.reply(conn, "info-getjobattr-response", "rc", "0", "found", "TRUE", "value", v)
			} else {
				s.reply(conn, "info-getjobattr-response", "rc", "0", "found", "FALSE")
			}
		case "abort":
			s.mu.Lock()
			s.aborts = append(s.aborts, m.String())
			s.mu.Unlock()
		case "finalize":
			s.reply(conn, "finalize-response", "rc", "0")
			return
		default:
			s.reply(conn, m.Cmd+"-response", "rc", "14", "errmsg", "unknown command")
		}
	}
}

// startV2Job connects n PMI-2 clients to a fake server.
func startV2Job(t *testing.T, n int) (*v2Server, []*Client) {
	t.Helper()
	s := newV2Server(n)
	clients := make([]*Client, n)
	var wg sync.WaitGroup
	for r := range n {
		cs, ss := net.Pipe()
		go s.serve(r, ss)
		t.Cleanup(func() { cs.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := NewClientConnV2(cs, "7.0", r)
			assert.NoError(t, err)
			clients[r] = c
		}()
	}
	wg.Wait()
	require.NotContains(t, clients, (*Client)(nil))
	return s, clients
}

func eachClient(cs []*Client, f func(r int, c *Client)) {
	var wg sync.WaitGroup
	for r, c := range cs {
		wg.Add(1)
		go func() { defer wg.Done(); f(r, c) }()
	}
	wg.Wait()
}

func TestV2ModexPattern(t *testing.T) {
	s, cs := startV2Job(t, 4)
	for r, c := range cs {
		assert.Equal(t, r, c.Rank())
		assert.Equal(t, 4, c.Size())
		assert.Equal(t, "pmi2", c.Protocol())
		assert.Equal(t, "pmi2_7_0", c.KVSName())
		assert.Equal(t, 0, c.AppNum(), "appnum -1 means a single program")
	}
	eachClient(cs, func(r int, c *Client) {
		key := fmt.Sprintf("card-%d", r)
		assert.NoError(t, c.Put(key, "v"+strconv.Itoa(r)))
		// PMI-2 publishes at the fence: not even the putter sees it before.
		_, err := c.Get(key)
		assert.ErrorIs(t, err, ErrNotFound)
		assert.NoError(t, c.Barrier())
		for p := range 4 {
			v, err := c.Get(fmt.Sprintf("card-%d", p))
			assert.NoError(t, err)
			assert.Equal(t, "v"+strconv.Itoa(p), v)
		}
		// A second epoch works the same way.
		assert.NoError(t, c.Put(fmt.Sprintf("late-%d", r), "x y"))
		assert.NoError(t, c.Barrier())
		v, err := c.Get(fmt.Sprintf("late-%d", (r+1)%4))
		assert.NoError(t, err)
		assert.Equal(t, "x y", v)
	})
	v, ok, err := cs[0].JobAttr("PMI_process_mapping")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "(vector,(0,1,4))", v)
	_, ok, err = cs[0].JobAttr("no_such_attr")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, 6, cs[1].UniverseSize())
	_, err = cs[2].Spawn(&SpawnRequest{Apps: []SpawnApp{{Command: "x", NP: 1}}})
	assert.ErrorContains(t, err, "cannot spawn")
	assert.ErrorContains(t, cs[0].Put("k", "a;b"), "';'")
	assert.ErrorContains(t, cs[0].Put("k;x", "a"), "';'")
	_, err = cs[0].Get("k;x")
	assert.ErrorContains(t, err, "';'")

	eachClient(cs, func(r int, c *Client) { assert.NoError(t, c.Finalize()) })
	assert.ErrorIs(t, cs[0].Put("k", "v"), ErrFinalized)
	s.mu.Lock()
	defer s.mu.Unlock()
	assert.Contains(t, s.reqs, "cmd=fullinit pmijobid=7.0 pmirank=3 threaded=FALSE")
}

func TestV2Abort(t *testing.T) {
	s, cs := startV2Job(t, 1)
	require.NoError(t, cs[0].Abort(3, "MPI_Abort; called\nby rank 0"))
	require.Eventually(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.aborts) == 1
	}, testtime.D(30*time.Second), time.Millisecond)
	m, err := ParseLine([]byte(s.aborts[0]))
	require.NoError(t, err)
	assert.Equal(t, "abort", m.Cmd)
	w, _ := m.Get("isworld")
	assert.Equal(t, "TRUE", w)
	msg, _ := m.Get("msg")
	assert.Equal(t, "exit code 3: MPI_Abort, called by rank 0", msg)
}

// A server that refuses PMI-2, or answers fullinit with an error, or gives
// an impossible rank, fails the init with a message saying so.
func TestV2HandshakeErrors(t *testing.T) {
	cases := []struct {
		name    string
		replies []string
		want    string
	}{
		{"refused", []string{"cmd=response_to_init rc=1 pmi_version=2 pmi_subversion=0\n"}, "refused PMI version 2"},
		{"v1 only", []string{"cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n"}, "speaks PMI version 1"},
		{"fullinit rc", []string{"cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n",
			frameV2("cmd=fullinit-response;rc=3;errmsg=bad;")}, "rc=3"},
		{"bad rank", []string{"cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n",
			frameV2("cmd=fullinit-response;rc=0;rank=5;size=2;")}, "rank 5 of size 2"},
		{"bad length", []string{"cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n",
			"x9    cmd=fullinit-response;"}, "bad length field"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs, ss := net.Pipe()
			defer cs.Close()
			go func() {
				defer ss.Close()
				buf := make([]byte, 4096)
				for _, r := range tc.replies {
					if _, err := ss.Read(buf); err != nil {
						return
					}
					ss.Write([]byte(r))
				}
			}()
			_, err := NewClientConnV2(cs, "1.0", 0)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func frameV2(body string) string { return fmt.Sprintf("%-6d%s", len(body), body) }

func TestV2Wire(t *testing.T) {
	b, err := NewMessage("kvs-put", "key", "a", "value", "x;y z").AppendV2(nil)
	require.NoError(t, err)
	assert.Equal(t, "31    cmd=kvs-put;key=a;value=x;;y z;", string(b))
	m, err := NewReader(strings.NewReader(string(b))).ReadV2Message()
	require.NoError(t, err)
	v, _ := m.Get("value")
	assert.Equal(t, "x;y z", v)

	// A trailing NUL counted in the length (MPICH's clients) and no final ';'.
	m, err = NewReader(strings.NewReader("16    cmd=finalize;rc=0\x00")).ReadV2Message()
	require.NoError(t, err)
	assert.Equal(t, "finalize", m.Cmd)
	// Repeated keys keep their order (spawn's argv).
	m, err = ParseV2([]byte("cmd=spawn;argv=a;argv=b;"))
	require.NoError(t, err)
	assert.Equal(t, []Arg{{"argv", "a"}, {"argv", "b"}}, m.Args)

	for _, bad := range []string{"", "key=v;", "cmd=;", "cmd=x;=v;", "cmd=x;k;", "cmd=x;cmd=y;", "cmd=x;k=\x01;",
		"cmd=x;" + strings.Repeat("k=v;", v2MaxArgs+1)} {
		_, err := ParseV2([]byte(bad))
		assert.ErrorIs(t, err, ErrV2Syntax, "%q", bad)
	}
	_, err = NewMessage("x", "k", "\n").AppendV2(nil)
	assert.Error(t, err)
	_, err = NewMessage("x", "k;", "v").AppendV2(nil)
	assert.Error(t, err)
	_, err = NewMessage("x", "k", strings.Repeat("v", MaxV2Msg)).AppendV2(nil)
	assert.Error(t, err)
	for _, bad := range []string{"99999999", "-1    ", "70000 " + strings.Repeat("x", 10)} {
		_, err := NewReader(strings.NewReader(bad)).ReadV2Message()
		assert.ErrorContains(t, err, "bad length field", "%q", bad)
	}
	_, err = NewReader(strings.NewReader("20    cmd=x;")).ReadV2Message()
	assert.Error(t, err, "short body")
}

func FuzzParseV2(f *testing.F) {
	for _, s := range []string{"cmd=kvs-get-response;rc=0;found=TRUE;value=a;;b;", "cmd=x", "cmd=x;k=v", ";;;;", "cmd=x;k=;"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseV2(b)
		if err != nil {
			return
		}
		// What we accept we can write back, and it reads the same.
		out, err := m.AppendV2(nil)
		if err != nil {
			return // e.g. a command name with '=' or ';' written raw
		}
		m2, err := NewReader(strings.NewReader(string(out))).ReadV2Message()
		if err != nil {
			t.Fatalf("re-read %q: %v", out, err)
		}
		if m2.String() != m.String() || len(m2.Args) != len(m.Args) {
			t.Fatalf("round trip changed %q into %q", m, m2)
		}
	})
}

func TestUsePMI2(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"PMI_FD": "3", "PMI_JOBID": "1.0"}, true},                      // srun --mpi=pmi2
		{map[string]string{"PMI_FD": "3"}, false},                                         // Hydra
		{map[string]string{"PMI_FD": "3", "PMI_JOBID": "1.0", "GOMPI_JOBID": "j"}, false}, // gompirun under srun
		{map[string]string{"PMI_FD": "3", "GOMPI_PMI": "2"}, true},
		{map[string]string{"PMI_FD": "3", "PMI_JOBID": "1.0", "GOMPI_PMI": "1"}, false},
		{map[string]string{}, false},
	}
	for i, tc := range cases {
		for _, k := range []string{"PMI_FD", "PMI_JOBID", "GOMPI_JOBID", "GOMPI_PMI"} {
			if v, ok := tc.env[k]; ok {
				t.Setenv(k, v)
			} else {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
		}
		assert.Equal(t, tc.want, UsePMI2(), "case %d: %v", i, tc.env)
	}
}

// NewFromEnv picks PMI-2 under Slurm's variables and checks them against
// the server's answer.
func TestV2FromEnv(t *testing.T) {
	for _, tc := range []struct {
		rank, size string
		want       string
	}{{"1", "2", ""}, {"0", "2", "PMI_RANK=0 but"}, {"1", "3", "PMI_SIZE=3 but"}} {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		require.NoError(t, err)
		srvFile := os.NewFile(uintptr(fds[0]), "srv")
		srvConn, err := net.FileConn(srvFile)
		require.NoError(t, err)
		srvFile.Close()
		s := newV2Server(2)
		go s.serve(1, srvConn)
		t.Setenv("PMI_PORT", "")
		t.Setenv("GOMPI_PMI", "")
		os.Unsetenv("GOMPI_JOBID")
		t.Setenv("PMI_FD", strconv.Itoa(fds[1]))
		t.Setenv("PMI_JOBID", "7.0")
		t.Setenv("PMI_RANK", tc.rank)
		t.Setenv("PMI_SIZE", tc.size)
		c, err := NewFromEnv()
		if tc.want != "" {
			assert.ErrorContains(t, err, tc.want)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, "pmi2", c.Protocol())
		assert.Equal(t, 1, c.Rank())
		assert.Equal(t, 2, c.Size())
		require.NoError(t, c.Finalize())
	}
}
