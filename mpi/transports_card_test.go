package mpi

import (
	"bytes"
	"strings"
	"testing"
)

// The ofi card crosses every PMI: no ';' (Slurm's PMI-2 splits on it), and
// it reads back to the provider and address it was made of.
func TestOFICard(t *testing.T) {
	addr := []byte{0x02, 0x00, 0x1f, 0x90, 10, 77, 0, 1}
	c := ofiCard("tcp;ofi_rxm", addr)
	if strings.ContainsAny(c, "; =") {
		t.Fatalf("card %q carries a PMI separator", c)
	}
	got, err := parseOFICard(c, "tcp;ofi_rxm")
	if err != nil || !bytes.Equal(got, addr) {
		t.Fatalf("parseOFICard(%q) = %x, %v; want %x", c, got, err, addr)
	}
	if _, err := parseOFICard(c, "verbs;ofi_rxm"); err == nil || !strings.Contains(err.Error(), `"tcp;ofi_rxm"`) {
		t.Fatalf("another provider's card: %v", err)
	}
	if _, err := parseOFICard("tcp", "tcp"); err == nil {
		t.Fatal("a card without an address was accepted")
	}
}
