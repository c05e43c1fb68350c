package launcher

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadLimited(t *testing.T) {
	rd := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\nshort\n"), 16)
	_, err := readLimited(rd, 50)
	assert.Error(t, err, "a line over the bound is refused, not buffered")
	rd = bufio.NewReaderSize(strings.NewReader(strings.Repeat("y", 40)+"\n"), 16)
	line, err := readLimited(rd, 50)
	require.NoError(t, err)
	assert.Len(t, line, 41)
}

func TestHeartbeatSetting(t *testing.T) {
	assert.Equal(t, hbTimeoutDefault, hbTimeout(envList{}))
	assert.Equal(t, 1500*time.Millisecond, hbTimeout(envList{"GOMPI_HEARTBEAT_TIMEOUT=1.5"}))
	assert.Equal(t, hbTimeoutDefault, hbTimeout(envList{"GOMPI_HEARTBEAT_TIMEOUT=-1"}))
}

func TestHeadAddrs(t *testing.T) {
	assert.Equal(t, []string{"10.1.2.3:99"}, headAddrs(envList{"GOMPI_LAUNCH_ADDRESS=10.1.2.3"}, 99))
	a := headAddrs(envList{}, 7)
	assert.Equal(t, "127.0.0.1:7", a[len(a)-1], "loopback last, for a daemon on this host")
}

// TestDconn: messages cross whole; silence past the heartbeat timeout is an
// error on the receiving side.
func TestDconn(t *testing.T) {
	a, b := net.Pipe()
	ca, cb := newDconn(a, time.Second), newDconn(b, 200*time.Millisecond)
	defer ca.close()
	defer cb.close()
	go ca.send(dmsg{T: "out", Rank: 3, Stream: 1, Data: []byte("hi\n"), KV: map[string]string{"k": "v"}})
	m, err := cb.recv()
	require.NoError(t, err)
	assert.Equal(t, dmsg{T: "out", Rank: 3, Stream: 1, Data: []byte("hi\n"), KV: map[string]string{"k": "v"}}, m)
	_, err = cb.recv()
	var ne net.Error
	require.ErrorAs(t, err, &ne)
	assert.True(t, ne.Timeout())
}
