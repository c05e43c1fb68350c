package launcher

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Map-by policies: how ranks are laid out over the hosts.
const (
	MapBySlot = "slot" // fill each host's slots in order (the default)
	MapByCore = "core" // as slot: a slot is a core
	MapByNode = "node" // round robin over the hosts, one rank at a time
)

// Host is one host of --host or --hostfile. Slots 0: not given (one for
// --host, as Open MPI; the CPUs it reports for a hostfile line without).
type Host struct {
	Name  string
	Slots int
}

// ParseHostList parses --host's value: a,b:2,c (Open MPI and Hydra spell a
// host's slots name:N). A name given twice adds up its slots.
func ParseHostList(s string) ([]Host, error) {
	var hosts []Host
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("empty host name in %q", s)
		}
		h, err := parseHostSlots(item, 1)
		if err != nil {
			return nil, err
		}
		hosts = addHost(hosts, h)
	}
	return hosts, nil
}

// parseHostSlots reads name or name:N.
func parseHostSlots(item string, def int) (Host, error) {
	name, n, hasN := strings.Cut(item, ":")
	if err := checkHostName(name); err != nil {
		return Host{}, err
	}
	if !hasN {
		return Host{name, def}, nil
	}
	slots, err := strconv.Atoi(n)
	if err != nil || slots < 1 {
		return Host{}, fmt.Errorf("host %q: need a positive number of slots after ':'", item)
	}
	return Host{name, slots}, nil
}

// checkHostName refuses names that could be taken for options or shell
// syntax by the launch agent: letters, digits, '.', '-', '_' only.
func checkHostName(name string) error {
	if name == "" || name[0] == '-' {
		return fmt.Errorf("bad host name %q", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return fmt.Errorf("bad host name %q", name)
		}
	}
	return nil
}

func addHost(hosts []Host, h Host) []Host {
	for i := range hosts {
		if hosts[i].Name == h.Name {
			hosts[i].Slots += h.Slots
			return hosts
		}
	}
	return append(hosts, h)
}

// ParseHostfile reads a hostfile: one host a line, Open MPI's
// `host slots=N [max_slots=M]` or Hydra's `host:N`; '#' starts a comment.
// A line without slots counts one slot.
func ParseHostfile(r io.Reader) ([]Host, error) {
	var hosts []Host
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		h, err := parseHostSlots(f[0], 1)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: %q: expected key=value", n, kv)
			}
			switch k {
			case "slots", "cpu", "cpus":
				s, err := strconv.Atoi(v)
				if err != nil || s < 1 {
					return nil, fmt.Errorf("line %d: %s=%q: need a positive number", n, k, v)
				}
				h.Slots = s
			case "max_slots", "max-slots":
				if s, err := strconv.Atoi(v); err != nil || s < 1 {
					return nil, fmt.Errorf("line %d: %s=%q: need a positive number", n, k, v)
				}
				// Oversubscription is always allowed here; the bound is informational.
			default:
				return nil, fmt.Errorf("line %d: unknown attribute %q", n, k)
			}
		}
		hosts = addHost(hosts, h)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(hosts) == 0 {
		return nil, fmt.Errorf("no hosts")
	}
	return hosts, nil
}

// ReadHostfile is ParseHostfile of a file, with its name in errors.
func ReadHostfile(path string) ([]Host, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hostfile: %v", err)
	}
	defer f.Close()
	hosts, err := ParseHostfile(f)
	if err != nil {
		return nil, fmt.Errorf("hostfile %s: %v", path, err)
	}
	return hosts, nil
}

// TotalSlots is the sum of the hosts' slots.
func TotalSlots(hosts []Host) int {
	n := 0
	for _, h := range hosts {
		n += h.Slots
	}
	return n
}

// Place assigns np ranks to hosts: the host index of every rank. By slot
// (or core), each host's slots fill in order; by node, one rank per host in
// turn, skipping hosts whose slots are full. When np exceeds the slots, the
// layout repeats (oversubscribing every host alike).
func Place(hosts []Host, np int, mapBy string) ([]int, error) {
	if len(hosts) == 0 {
		return nil, fmt.Errorf("no hosts")
	}
	total := TotalSlots(hosts)
	out := make([]int, 0, np)
	switch mapBy {
	case MapBySlot, MapByCore, "":
		for len(out) < np {
			for i, h := range hosts {
				for s := 0; s < h.Slots && len(out) < np; s++ {
					out = append(out, i)
				}
			}
		}
	case MapByNode:
		for len(out) < np {
			used := make([]int, len(hosts))
			for placed := 0; placed < total && len(out) < np; {
				for i, h := range hosts {
					if used[i] < h.Slots && len(out) < np {
						used[i]++
						placed++
						out = append(out, i)
					}
				}
			}
		}
	default:
		return nil, fmt.Errorf("--map-by %q: use slot, core or node", mapBy)
	}
	return out, nil
}

// ProcessMapping is the PMI_process_mapping value (MPICH's node layout) of
// a placement: (vector,(node,count,ranks)...) blocks listed in rank order.
func ProcessMapping(place []int) string {
	type block struct{ node, count, size int }
	var runs []block // consecutive ranks on one node
	for _, h := range place {
		if n := len(runs); n > 0 && runs[n-1].node == h {
			runs[n-1].size++
		} else {
			runs = append(runs, block{h, 1, 1})
		}
	}
	var blocks []block // runs of equal size on consecutive nodes
	for _, r := range runs {
		if n := len(blocks); n > 0 {
			b := &blocks[n-1]
			if b.size == r.size && b.node+b.count == r.node {
				b.count++
				continue
			}
		}
		blocks = append(blocks, r)
	}
	var sb strings.Builder
	sb.WriteString("(vector")
	for _, b := range blocks {
		fmt.Fprintf(&sb, ",(%d,%d,%d)", b.node, b.count, b.size)
	}
	sb.WriteString(")")
	return sb.String()
}
