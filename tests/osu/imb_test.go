package osu

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// imbSuites are the IMB programs of the one-sided issue: each built by its
// own make target in its own tree (cached) and run with 2 and 4 ranks.
var imbSuites = []string{"IMB-RMA", "IMB-EXT"}

func TestIMB(t *testing.T) {
	root := repoRoot(t)
	l := testLib(t, root)
	if l.name == "gompi" {
		ensureGompi(t, root)
	}
	for _, suite := range imbSuites {
		t.Run(suite, func(t *testing.T) {
			bin := buildIMB(t, root, l, suite)
			if _, err := os.Stat(bin); err != nil {
				t.Fatalf("%s was not built against %s (see %s/build.log)", suite, l.name, filepath.Dir(bin))
			}
			for _, np := range []int{2, 4} {
				t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
					args := []string{"-npmin", fmt.Sprint(np), "-msglog", "0:10", "-iter", "10", "-time", "1"}
					r := runJob(l, np, bin, args, 300*time.Second)
					var problems []string
					if r.timedOut {
						problems = append(problems, "no end within 300 s; killed")
					}
					if r.code != 0 {
						problems = append(problems, fmt.Sprintf("exit status %d", r.code))
					}
					if !strings.Contains(r.out, "All processes entering MPI_Finalize") {
						problems = append(problems, "no \"All processes entering MPI_Finalize\" line")
					}
					if m := failRE.FindString(r.out); m != "" {
						problems = append(problems, fmt.Sprintf("output reports %q", m))
					}
					if len(problems) > 0 {
						t.Errorf("%s\n$ %s\n%s", strings.Join(problems, "; "), strings.Join(r.argv, " "), tail([]byte(r.out), 4000))
					}
				})
			}
		})
	}
}
