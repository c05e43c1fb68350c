package ctests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gompi/internal/testtime"
)

// leakGrace is how long a job's processes and files may take to disappear
// after the launcher has exited (only a leak waits for all of it).
var leakGrace = testtime.D(15 * time.Second)

// launcherPid matches the launcher's message about a failed rank.
var launcherPid = regexp.MustCompile(`gompirun: rank (\d+) \(pid (\d+)\)`)

// checkNoLeaks fails the test if a process running binary (a rank, or a
// launcher helper with it on its command line) is still alive, if a pid the
// launcher named is still alive, or if a /dev/shm/gompi-* file created since
// start is left with no process using it. Leftovers are then removed so that
// they do not spoil later runs.
func checkNoLeaks(t *testing.T, binary, stderr string, start time.Time) {
	t.Helper()
	deadline := time.Now().Add(leakGrace)
	left := jobProcesses(binary)
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		left = jobProcesses(binary)
	}
	for _, m := range launcherPid.FindAllStringSubmatch(stderr, -1) {
		pid, _ := strconv.Atoi(m[2])
		if cmd, ok := left[pid]; ok {
			t.Errorf("rank %s (pid %d), reported by the launcher, is still running: %s", m[1], pid, cmd)
		}
	}
	if len(left) > 0 {
		t.Errorf("%d process(es) of the job still running %v after the launcher exited:\n%s",
			len(left), leakGrace, formatProcs(left))
		for pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}

	files := strayShmFiles(start)
	for len(files) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		files = strayShmFiles(start)
	}
	if len(files) > 0 {
		t.Errorf("shared-memory files of the job left in /dev/shm: %s", strings.Join(files, " "))
		for _, f := range files {
			os.Remove(f)
		}
	}
}

// jobProcesses maps the pid of every live (not zombie) process, other than
// this one, whose executable or an argument is binary to its command line.
func jobProcesses(binary string) map[int]string {
	found := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		match := strings.TrimSuffix(exe, " (deleted)") == binary
		for _, a := range args {
			match = match || a == binary
		}
		if match && !zombie(pid) {
			found[pid] = strings.Join(args, " ")
		}
	}
	return found
}

func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // gone
	}
	// The state follows the parenthesised command name, which may hold spaces.
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' || stat[i+2] == 'X'
}

func formatProcs(procs map[int]string) string {
	var lines []string
	for pid, cmd := range procs {
		lines = append(lines, fmt.Sprintf("  pid %d: %s", pid, cmd))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// strayShmFiles lists /dev/shm/gompi-* files changed since start that no
// live process has open or mapped. Jobs of other test runs on this machine
// keep theirs open, so they are not counted.
func strayShmFiles(start time.Time) []string {
	entries, _ := os.ReadDir("/dev/shm")
	var recent []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "gompi-") {
			continue
		}
		path := filepath.Join("/dev/shm", e.Name())
		var st syscall.Stat_t
		if syscall.Stat(path, &st) != nil {
			continue
		}
		if !time.Unix(st.Ctim.Sec, st.Ctim.Nsec).Before(start) {
			recent = append(recent, path)
		}
	}
	if len(recent) == 0 {
		return nil
	}
	used := shmInUse()
	var stray []string
	for _, p := range recent {
		if !used[p] {
			stray = append(stray, p)
		}
	}
	return stray
}

// shmInUse is the set of /dev/shm paths some process has open or mapped.
func shmInUse() map[string]bool {
	used := map[string]bool{}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		fds, _ := os.ReadDir(p + "/fd")
		for _, fd := range fds {
			if target, err := os.Readlink(p + "/fd/" + fd.Name()); err == nil && strings.HasPrefix(target, "/dev/shm/") {
				used[strings.TrimSuffix(target, " (deleted)")] = true
			}
		}
		maps, err := os.ReadFile(p + "/maps")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(maps), "\n") {
			if i := strings.Index(line, "/dev/shm/"); i >= 0 {
				used[strings.TrimSuffix(line[i:], " (deleted)")] = true
			}
		}
	}
	return used
}
