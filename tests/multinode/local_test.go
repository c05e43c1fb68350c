package multinode

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLocalhostDaemon: --host localhost starts its daemon without an agent;
// MPI works through it as under a plain gompirun. Needs no rig.
func TestLocalhostDaemon(t *testing.T) {
	root := ensureBuild(t)
	hello := program(t, root, "tests/multinode/testdata/hello.c")
	r := gompirun(t, root, "", "", []string{"--host", "localhost:3", "--timeout", "60", hello}, nil, nil)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr)
	assert.Contains(t, r.stdout, "ring and allreduce done on 3 ranks")
	checkClean(t, r, hello)

	r = gompirun(t, root, "", "", []string{"--host", "localhost:2", "--bind-to", "none", "--report-bindings", "true"}, nil, nil)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Regexp(t, `(?m)^gompirun: host localhost: rank 0 \(pid \d+\) not bound$`, r.stderr)
	assert.Regexp(t, `(?m)^gompirun: host localhost: rank 1 \(pid \d+\) not bound$`, r.stderr)
}

// TestAgentFails: an agent that cannot reach its host ends the job at once
// with a message naming the host, the agent's own words passed on.
func TestAgentFails(t *testing.T) {
	root := ensureBuild(t)
	agent := filepath.Join(t.TempDir(), "agent")
	require.NoError(t, os.WriteFile(agent, []byte("#!/bin/sh\necho no route to $2 >&2\nexit 255\n"), 0o755))
	r := gompirun(t, root, "", "", []string{"--host", "nowhere1,nowhere2", "--launch-agent", agent + " -x",
		"--timeout", "60", "true"}, nil, nil)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Regexp(t, `gompirun: host nowhere[12]: no route to nowhere[12]`, r.stderr)
	assert.Regexp(t, `gompirun: the launch agent for host nowhere[12] exited \(exit status 255\) before its daemon connected`, r.stderr)
	assert.Less(t, r.elapsed, 30*time.Second)
}
