package pmi

import (
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func spawnServer(t *testing.T, onSpawn func(int, *SpawnRequest) (int, error)) *Client {
	srv, err := NewServer(ServerConfig{Size: 1, OnSpawn: onSpawn})
	require.NoError(t, err)
	cs, ss := net.Pipe()
	go srv.Serve(0, ss)
	t.Cleanup(srv.Close)
	c, err := NewClientConn(cs, 0, 1)
	require.NoError(t, err)
	return c
}

// A request larger than one value travels in parts and arrives whole.
func TestSpawnRequestRoundTrip(t *testing.T) {
	var got *SpawnRequest
	c := spawnServer(t, func(rank int, req *SpawnRequest) (int, error) {
		got = req
		return req.Apps[0].NP + req.Apps[1].NP, nil
	})
	long := strings.Repeat("arg with spaces and = signs; ", 200)
	req := &SpawnRequest{ParentPort: "gompi:port-1-2-abc", Apps: []SpawnApp{
		{Command: "/bin/prog", Args: []string{"a b", long, ""}, NP: 2, Wdir: "/tmp", Path: "/usr/bin"},
		{Command: "other", NP: 3, Host: "localhost"},
	}}
	n, err := c.Spawn(req)
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	assert.Equal(t, req, got)
}

func TestSpawnErrors(t *testing.T) {
	c := spawnServer(t, func(int, *SpawnRequest) (int, error) {
		return 0, errors.New("cannot run prog: no such file")
	})
	_, err := c.Spawn(&SpawnRequest{Apps: []SpawnApp{{Command: "prog", NP: 1}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot run prog")

	none := spawnServer(t, nil)
	_, err = none.Spawn(&SpawnRequest{Apps: []SpawnApp{{Command: "prog", NP: 1}}})
	assert.ErrorContains(t, err, "spawn_not_supported")

	_, err = NewSingleton().Spawn(&SpawnRequest{})
	assert.ErrorContains(t, err, "without a process manager")
}

// Garbage as a request gets an error reply, not a crash.
func TestSpawnMalformed(t *testing.T) {
	srv, err := NewServer(ServerConfig{Size: 1, OnSpawn: func(int, *SpawnRequest) (int, error) { return 1, nil }})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	conn, br, _ := rawConn(t, srv, 0)
	assert.Equal(t, "cmd=gompi_spawn_part_result rc=0", exchange(t, conn, br, "cmd=gompi_spawn_part data=@@notbase64\n"))
	assert.Equal(t, "cmd=spawn_result rc=-1 msg=malformed_request", exchange(t, conn, br, "cmd=gompi_spawn\n"))
	assert.Equal(t, "cmd=gompi_spawn_part_result rc=-1 msg=missing_data", exchange(t, conn, br, "cmd=gompi_spawn_part\n"))
}
