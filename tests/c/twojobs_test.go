package ctests

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestTwoJobs starts two separate gompiruns that meet through the name
// service (a private directory here, GOMPI_NAME_DIR) and MPI_Comm_accept/
// connect, then checks both outcomes and that no name is left published.
func TestTwoJobs(t *testing.T) {
	root := ensureBuild(t)
	bin := gompicc(t, root, filepath.Join(root, "tests/c/dynproc/twojobs.c"), "twojobs")
	names := filepath.Join(t.TempDir(), "names")
	service := fmt.Sprintf("gompi-twojobs-%d", os.Getpid())
	for _, sizes := range [][2]int{{1, 1}, {2, 2}, {1, 3}} {
		t.Run(fmt.Sprintf("server=%d,client=%d", sizes[0], sizes[1]), func(t *testing.T) {
			var wg sync.WaitGroup
			jobs := make([]job, 2)
			results := make([]result, 2)
			starts := make([]time.Time, 2)
			for i, role := range []string{"server", "client"} {
				jobs[i] = job{argv: []string{filepath.Join(root, "build/bin/gompirun"), "-n", fmt.Sprint(sizes[i]),
					"--timeout", "60", bin, role, service},
					env: []string{"GOMPI_NAME_DIR=" + names}, timeout: 60*time.Second + goSideGrace, binary: bin}
				wg.Add(1)
				go func() {
					defer wg.Done()
					starts[i] = time.Now()
					results[i] = run(jobs[i])
				}()
			}
			wg.Wait()
			for i, role := range []string{"server", "client"} {
				want := &spec{exit: "0", stdoutPerRank: []string{`(?m)^` + role + ` rank {rank} done$`}}
				checkRun(t, jobs[i], results[i], starts[i], checkExpect(want, sizes[i], results[i]))
			}
			left, _ := os.ReadDir(names)
			if len(left) > 0 {
				t.Errorf("%d names left published in %s", len(left), names)
			}
		})
	}
}
