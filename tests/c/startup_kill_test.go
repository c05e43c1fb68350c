package ctests

import (
	"io"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// startupKills is how many times TestStartupKill kills the launcher.
const startupKills = 50

// TestStartupKill sends SIGKILL to gompirun at random moments of a 4-rank
// job's start-up (spread over the time a whole run of the tiny env_basic
// takes, which is mostly start-up), 50 times: no rank and no
// /dev/shm/gompi-* file may be left (the ranks die with the launcher; the
// node's segment has no name to leave).
func TestStartupKill(t *testing.T) {
	root := ensureBuild(t)
	bin := gompicc(t, root, filepath.Join(root, "tests/c/env_basic.c"), "env_basic")
	gompirun := filepath.Join(root, "build/bin/gompirun")
	start := func() (*exec.Cmd, error) {
		cmd := exec.Command(gompirun, "-n", "4", "-x", "GOMPI_TEST_NP=4", bin)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd, cmd.Start()
	}
	// A whole run, to learn how long start-up takes here and now.
	t0 := time.Now()
	cmd, err := start()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("a whole run failed: %v", err)
	}
	whole := time.Since(t0)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 27))
	t.Logf("a whole run takes %v; killing at random moments within it (seed %d)", whole, seed)
	for i := 0; i < startupKills && !t.Failed(); i++ {
		at := time.Duration(rng.Int64N(int64(whole)))
		begin := time.Now()
		cmd, err := start()
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(at)
		cmd.Process.Kill()
		cmd.Wait()
		checkNoLeaks(t, bin, "", begin)
		if t.Failed() {
			t.Logf("kill %d at %v after start left the above", i, at)
		}
	}
}
