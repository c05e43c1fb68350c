// Package info implements MPI info objects: an ordered set of (key, value)
// string pairs with the standard's length limits and error classes.
package info

import (
	"slices"

	"gompi/abi"
	"gompi/mpierr"
)

// Error is an argument error with its MPI error class.
type Error = mpierr.Error

var errorf = mpierr.New

// Info is an info object. Keys keep the order of their first Set, which is
// the order MPI_Info_get_nthkey reports.
type Info struct {
	keys []string
	vals map[string]string
}

// New returns an empty info object (MPI_Info_create).
func New() *Info { return &Info{vals: map[string]string{}} }

// CheckKey validates a key: 1..MPI_MAX_INFO_KEY characters (MPI_ERR_INFO_KEY).
func CheckKey(key string) error {
	if len(key) == 0 {
		return errorf(abi.ErrInfoKey, "the key is empty")
	}
	if len(key) > abi.MaxInfoKey {
		return errorf(abi.ErrInfoKey, "the key is %d characters long, more than MPI_MAX_INFO_KEY (%d)", len(key), abi.MaxInfoKey)
	}
	return nil
}

// CheckValue validates a value: at most MPI_MAX_INFO_VAL characters
// (MPI_ERR_INFO_VALUE). An empty value is accepted, as MPICH accepts it.
func CheckValue(val string) error {
	if len(val) > abi.MaxInfoVal {
		return errorf(abi.ErrInfoValue, "the value is %d characters long, more than MPI_MAX_INFO_VAL (%d)", len(val), abi.MaxInfoVal)
	}
	return nil
}

// Set adds key or replaces its value (MPI_Info_set).
func (in *Info) Set(key, val string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if err := CheckValue(val); err != nil {
		return err
	}
	if _, ok := in.vals[key]; !ok {
		in.keys = append(in.keys, key)
	}
	in.vals[key] = val
	return nil
}

// Get returns key's value and whether it is set (MPI_Info_get).
func (in *Info) Get(key string) (string, bool, error) {
	if err := CheckKey(key); err != nil {
		return "", false, err
	}
	v, ok := in.vals[key]
	return v, ok, nil
}

// Lookup is Get for callers that know key is valid.
func (in *Info) Lookup(key string) (string, bool) {
	v, ok := in.vals[key]
	return v, ok
}

// Delete removes key; an absent key is MPI_ERR_INFO_NOKEY (MPI_Info_delete).
func (in *Info) Delete(key string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if _, ok := in.vals[key]; !ok {
		return errorf(abi.ErrInfoNokey, "key %q is not set", key)
	}
	delete(in.vals, key)
	in.keys = slices.DeleteFunc(in.keys, func(k string) bool { return k == key })
	return nil
}

// Nkeys is the number of keys (MPI_Info_get_nkeys).
func (in *Info) Nkeys() int { return len(in.keys) }

// NthKey is the n-th key; n outside 0..Nkeys-1 is MPI_ERR_ARG (MPI_Info_get_nthkey).
func (in *Info) NthKey(n int) (string, error) {
	if n < 0 || n >= len(in.keys) {
		return "", errorf(abi.ErrArg, "n = %d is not in 0..%d (the info has %d keys)", n, len(in.keys)-1, len(in.keys))
	}
	return in.keys[n], nil
}

// Keys lists the keys in order.
func (in *Info) Keys() []string { return slices.Clone(in.keys) }

// Dup copies the object (MPI_Info_dup).
func (in *Info) Dup() *Info {
	d := &Info{keys: slices.Clone(in.keys), vals: make(map[string]string, len(in.vals))}
	for k, v := range in.vals {
		d.vals[k] = v
	}
	return d
}
