package nameserv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPublishLookupUnpublish(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "names")
	me := Entry{Port: "gompi:port-1", JobID: "j1", Pid: os.Getpid()}
	if err := Publish(dir, "svc with spaces/and:colons", me); err != nil {
		t.Fatal(err)
	}
	if err := Publish(dir, "svc with spaces/and:colons", me); err != ErrExists {
		t.Fatalf("second publish: %v", err)
	}
	if p, err := Lookup(dir, "svc with spaces/and:colons"); err != nil || p != me.Port {
		t.Fatalf("lookup: %q %v", p, err)
	}
	if _, err := Lookup(dir, "other"); err != ErrNotFound {
		t.Fatalf("lookup of unknown: %v", err)
	}
	if err := Unpublish(dir, "svc with spaces/and:colons", "gompi:wrong"); err != ErrPort {
		t.Fatalf("unpublish with the wrong port: %v", err)
	}
	if err := Unpublish(dir, "svc with spaces/and:colons", me.Port); err != nil {
		t.Fatal(err)
	}
	if err := Unpublish(dir, "svc with spaces/and:colons", me.Port); err != ErrNotFound {
		t.Fatalf("second unpublish: %v", err)
	}
}

func TestDeadPublisherAndJobCleanup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "names")
	// pid 0x7ffffffe is beyond pid_max: never alive.
	if err := Publish(dir, "dead", Entry{Port: "p", JobID: "j", Pid: 0x7ffffffe}); err != nil {
		t.Fatal(err)
	}
	if _, err := Lookup(dir, "dead"); err != ErrNotFound {
		t.Fatalf("lookup of a dead publisher's name: %v", err)
	}
	if err := Publish(dir, "dead", Entry{Port: "p2", JobID: "j", Pid: os.Getpid()}); err != nil {
		t.Fatalf("publish over a dead entry: %v", err)
	}
	Publish(dir, "child", Entry{Port: "p3", JobID: "j-s1", Pid: os.Getpid()})
	Publish(dir, "other", Entry{Port: "p4", JobID: "jx", Pid: os.Getpid()})
	if n := RemoveJob(dir, "j"); n != 2 {
		t.Fatalf("RemoveJob removed %d entries, want 2", n)
	}
	if _, err := Lookup(dir, "other"); err != nil {
		t.Fatalf("another job's entry went: %v", err)
	}
}
