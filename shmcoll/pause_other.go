//go:build !amd64

package shmcoll

// pause is a no-op where no spin-wait hint is wired up.
func pause() {}
