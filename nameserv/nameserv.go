// Package nameserv is the name service of MPI_Publish_name/Lookup_name: one
// file per published service in a per-user directory that every gompirun
// of the machine shares ($GOMPI_NAME_DIR, else $XDG_RUNTIME_DIR/gompi-names,
// else /tmp/gompi-names-<uid>). A file holds the port, the publishing job
// and process; lookups drop entries whose process is gone, and gompirun
// removes its job's entries when the job ends.
package nameserv

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Errors of the service calls.
var (
	ErrExists   = errors.New("service name already published")
	ErrNotFound = errors.New("service name not published")
	ErrPort     = errors.New("service published with another port")
)

// Dir is the directory of the name service.
func Dir() string {
	if d := os.Getenv("GOMPI_NAME_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return filepath.Join(d, "gompi-names")
		}
	}
	return filepath.Join(os.TempDir(), "gompi-names-"+strconv.Itoa(os.Getuid()))
}

// Entry is one published service.
type Entry struct {
	Port  string
	JobID string
	Pid   int
}

func path(dir, service string) string {
	return filepath.Join(dir, hex.EncodeToString([]byte(service)))
}

func ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("name service directory %s is not a private directory", dir)
	}
	return nil
}

// Publish records service -> e; ErrExists when a live entry has the name.
func Publish(dir, service string, e Entry) error {
	if err := ensure(dir); err != nil {
		return err
	}
	final := path(dir, service)
	if old, err := read(final); err == nil && !alive(old.Pid) {
		os.Remove(final) // its publisher died without unpublishing
	}
	tmp, err := os.CreateTemp(dir, ".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = fmt.Fprintf(tmp, "%s\n%s\n%d\n", e.Port, e.JobID, e.Pid)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), final); err != nil {
		if errors.Is(err, os.ErrExist) {
			return ErrExists
		}
		return err
	}
	return nil
}

func read(p string) (Entry, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return Entry{}, ErrNotFound
	}
	f := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(f) != 3 {
		return Entry{}, ErrNotFound
	}
	pid, _ := strconv.Atoi(f[2])
	return Entry{Port: f[0], JobID: f[1], Pid: pid}, nil
}

func alive(pid int) bool {
	return pid > 0 && unix.Kill(pid, 0) != unix.ESRCH
}

// Lookup returns the port published under service.
func Lookup(dir, service string) (string, error) {
	p := path(dir, service)
	e, err := read(p)
	if err != nil {
		return "", err
	}
	if !alive(e.Pid) {
		os.Remove(p)
		return "", ErrNotFound
	}
	return e.Port, nil
}

// Unpublish removes service, which must be published with port.
func Unpublish(dir, service, port string) error {
	p := path(dir, service)
	e, err := read(p)
	if err != nil {
		return err
	}
	if e.Port != port {
		return ErrPort
	}
	return os.Remove(p)
}

// RemoveJob removes the entries of job jobID and of jobs it spawned
// (their ids extend it); it returns how many.
func RemoveJob(dir, jobID string) int {
	ents, err := os.ReadDir(dir)
	if err != nil || jobID == "" {
		return 0
	}
	n := 0
	for _, d := range ents {
		p := filepath.Join(dir, d.Name())
		e, err := read(p)
		if err == nil && (e.JobID == jobID || strings.HasPrefix(e.JobID, jobID+"-")) && os.Remove(p) == nil {
			n++
		}
	}
	return n
}
