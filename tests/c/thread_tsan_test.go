package ctests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestThreadTSan builds the MPI_THREAD_MULTIPLE programs (thread_*.c) with
// gcc's thread sanitizer and runs them on 2 ranks: TSan instruments the
// program (its threads, their buffers and handles, the hand-over of
// requests between threads), not the library, whose Go code's races the Go
// race detector covers (go test -race ./mpi ./internal/mtlock). Any TSan
// report fails the run.
func TestThreadTSan(t *testing.T) {
	root := ensureBuild(t)
	probe := exec.Command("gcc", "-fsanitize=thread", "-x", "c", "-", "-o", filepath.Join(workDir, "tsan_probe"))
	probe.Stdin = strings.NewReader("int main(void){return 0;}\n")
	if out, err := probe.CombinedOutput(); err != nil {
		msg := "gcc cannot link with -fsanitize=thread (libtsan missing?): " + string(out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// The library is not instrumented, so TSan sees none of its
	// synchronisation (the MULTIPLE lock is a futex word and atomics); it must
	// not see the library's memory accesses either. Its Go code's are
	// invisible anyway, but the C fast path copies messages with libc's
	// memcpy, which TSan intercepts: a receive one thread's poll completed
	// in C and another thread read after its MPI_Wait would look like a race.
	supp := filepath.Join(workDir, "tsan_gompi.supp")
	if err := os.WriteFile(supp, []byte("called_from_lib:libgompi.so\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "tests/c/thread_*.c"))
	if len(files) == 0 {
		t.Fatal("no thread_*.c programs")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		t.Run(name, func(t *testing.T) {
			bin := compile(t, name+"_tsan", f, "gcc", "-fsanitize=thread", "-g", "-O1", "-Wall", "-Werror",
				"-I"+filepath.Join(root, "include"), "-L"+filepath.Join(root, "build/lib"),
				"-Wl,-rpath,"+filepath.Join(root, "build/lib"), "-lgompi")
			const limit = 240 * time.Second
			j := job{argv: []string{filepath.Join(root, "build/bin/gompirun"), "-n", "2",
				"--timeout", launcherTimeout(limit), "-x", "TSAN_OPTIONS=suppressions=" + supp, bin}, timeout: goSideTimeout(limit), binary: bin}
			start := time.Now()
			r := run(j)
			var problems []string
			if strings.Contains(r.stderr, "ThreadSanitizer") {
				problems = append(problems, "ThreadSanitizer reported")
			}
			if r.exitCode != 0 {
				problems = append(problems, "non-zero exit")
			}
			checkRun(t, j, r, start, problems)
		})
	}
}
