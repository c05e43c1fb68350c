package launcher

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// drawProfile draws only a profile.json this job wrote, says so when
// gompiplot is missing, and reports a failed drawing without panicking.
func TestDrawProfile(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "prof")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "profile.json")
	if err := os.WriteFile(js, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Self: filepath.Join(bin, "gompirun")}
	draw := func(profile string, began time.Time) string {
		var stderr bytes.Buffer
		drawProfile(profile, cfg, NewOutput(&bytes.Buffer{}, &stderr, false), began)
		return stderr.String()
	}
	now := time.Now()
	if s := draw("", now); s != "" {
		t.Errorf("no --profile: %q", s)
	}
	if s := draw("1", now); s != "" {
		t.Errorf("--profile without DIR: %q", s)
	}
	if s := draw(dir, now.Add(time.Hour)); s != "" {
		t.Errorf("a profile.json older than the job: %q", s)
	}
	if s := draw(dir, now); !strings.Contains(s, "no picture") || !strings.Contains(s, "gompiplot not found") {
		t.Errorf("without gompiplot: %q", s)
	}
	// A gompiplot that fails: its words reach the user.
	script := "#!/bin/sh\necho 'bad profile' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "gompiplot"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if s := draw(dir, now); !strings.Contains(s, "drawing "+js+" failed") || !strings.Contains(s, "bad profile") {
		t.Errorf("failing gompiplot: %q", s)
	}
}
