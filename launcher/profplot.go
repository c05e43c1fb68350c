package launcher

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// profilePlotTimeout bounds the drawing (a loaded machine; many ranks).
const profilePlotTimeout = 2 * time.Minute

// drawProfile draws the profile.json rank 0 wrote for --profile=DIR during
// this job as DIR/profile.png, with the gompiplot next to gompirun: an
// exec rather than an import keeps the plotting library (and its fonts)
// out of the launcher. A missing or failed picture is reported, never
// changes the job's status.
func drawProfile(profile string, cfg Config, out *Output, began time.Time) {
	if profile == "" || profile == "1" {
		return
	}
	dir, err := filepath.Abs(profile)
	if err != nil {
		return
	}
	js := filepath.Join(dir, "profile.json")
	if st, err := os.Stat(js); err != nil || st.ModTime().Before(began.Add(-time.Second)) {
		return // not written by this job (it failed, or rank 0 is on another host)
	}
	self := cfg.Self
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	plotter := filepath.Join(filepath.Dir(self), "gompiplot")
	if _, err := os.Stat(plotter); err != nil {
		out.Messagef("--profile: no picture: %s not found; profile in %s", plotter, js)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), profilePlotTimeout)
	defer cancel()
	b, err := exec.CommandContext(ctx, plotter, "-o", dir, js).CombinedOutput()
	if err != nil {
		out.Errorf("--profile: drawing %s failed (%v): %s", js, err, strings.TrimSpace(string(b)))
		return
	}
	out.Messagef("profile in %s, picture %s", js, filepath.Join(dir, "profile.png"))
}
