package modex

import (
	"errors"
	"fmt"
	"sync"
)

// Key is the compact name of one business-card entry: a 32-bit FNV-1a hash
// of its canonical name ("btl.sm.1"). Four bytes on the wire instead of the
// name, checked for collisions when the name is registered.
type Key uint32

// HashName returns the key of a canonical name (32-bit FNV-1a).
func HashName(name string) Key {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return Key(h)
}

// ErrCollision is returned by Register when two different names hash to the
// same key.
var ErrCollision = errors.New("modex: key collision")

// Registry maps keys back to the names registered at startup. It is a value,
// not a global, so independent tests (and independent jobs in one process)
// do not see each other's names. Every process of a job must register the
// same names; the registry itself is never sent.
type Registry struct {
	mu    sync.Mutex
	names map[Key]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{names: make(map[Key]string)}
}

// Register returns the key of name. Registering the same name again returns
// the same key; a different name with the same hash is refused, so a
// collision is found at startup, never as silently mixed-up data.
func (r *Registry) Register(name string) (Key, error) {
	if name == "" {
		return 0, errors.New("modex: empty key name")
	}
	k := HashName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.names[k]; ok && old != name {
		return 0, fmt.Errorf("%w: %q and %q both hash to %#08x", ErrCollision, old, name, uint32(k))
	}
	r.names[k] = name
	return k, nil
}

// MustRegister is Register for names fixed in the source; it panics on a
// collision, which is a programming error found by any test run.
func (r *Registry) MustRegister(name string) Key {
	k, err := r.Register(name)
	if err != nil {
		panic(err)
	}
	return k
}

// Name returns the name registered for k.
func (r *Registry) Name(k Key) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.names[k]
	return n, ok
}

// Registered reports whether k was registered.
func (r *Registry) Registered(k Key) bool {
	_, ok := r.Name(k)
	return ok
}
