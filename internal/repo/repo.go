// Package repo finds gompi's source tree, for tests and tools that build or
// run what it holds.
package repo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// RootFrom is the directory holding gompi's go.mod, found upwards from dir.
func RootFrom(dir string) (string, error) {
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(mod, []byte("module gompi\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of module gompi above " + dir)
		}
		dir = parent
	}
}

var root = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return RootFrom(dir)
})

// Root is RootFrom the working directory, found once.
func Root() (string, error) { return root() }
