package launcher

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Errorf prints a gompirun error line even under --quiet (the job never
// started, so no exit status of a rank would explain it).
func (o *Output) Errorf(format string, args ...any) {
	o.message(format, args...)
}

// stampFormat prefixes lines under --timestamp-output.
const stampFormat = "[2006-01-02 15:04:05.000000]"

// rankOutputFile returns the reader Forward should read: r itself, or under
// --output-filename one that also writes what it reads to
// DIR/<job>/rank.<rank>/<stream> (job 1 is the world, k+1 the k-th spawned).
func (j *job) rankOutputFile(sub *subJob, rank int, s Stream, r *os.File) (io.Reader, error) {
	if j.opts.OutputDir == "" {
		return r, nil
	}
	dir := filepath.Join(j.opts.OutputDir, strconv.Itoa(sub.n+1), "rank."+strconv.Itoa(rank))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	f, err := os.Create(filepath.Join(dir, s.String()))
	if err != nil {
		return r, err
	}
	return &teeFile{r: r, f: f}, nil
}

// teeFile copies what is read to f; it keeps the pipe's read deadlines,
// which Forward uses to show partial lines.
type teeFile struct {
	r *os.File
	f *os.File
}

func (t *teeFile) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if n > 0 {
		t.f.Write(b[:n])
	}
	return n, err
}

func (t *teeFile) SetReadDeadline(d time.Time) error { return t.r.SetReadDeadline(d) }

func (t *teeFile) Close() error { return t.f.Close() }

// inWdir makes a relative program path with a slash relative to -wdir, where
// the rank starts (as exec.Cmd resolves it there too).
func inWdir(prog, wdir string) string {
	if wdir == "" || filepath.IsAbs(prog) || !strings.Contains(prog, "/") {
		return prog
	}
	return filepath.Join(wdir, prog)
}
