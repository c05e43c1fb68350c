package modex

import (
	"errors"
	"os"
	"strings"
)

const bootIDPath = "/proc/sys/kernel/random/boot_id"

// LocalNodeID identifies this machine for the current boot: a 64-bit FNV-1a
// hash of the hostname and the kernel's boot id. The boot id separates
// containers or cloned machines that share a hostname; 64 bits keep the
// chance of two nodes of a job colliding negligible. Without a readable boot
// id the hostname alone is used.
func LocalNodeID() (uint64, error) {
	host, herr := os.Hostname()
	boot, berr := os.ReadFile(bootIDPath)
	if herr != nil && berr != nil {
		return 0, errors.Join(herr, berr)
	}
	return NodeIDOf(host, strings.TrimSpace(string(boot))), nil
}

// NodeIDOf is the node id of a hostname and boot id.
func NodeIDOf(hostname, bootID string) uint64 {
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
	}
	mix(hostname)
	mix("\x00") // hostname "ab"+boot "c" must differ from "a"+"bc"
	mix(bootID)
	return h
}
