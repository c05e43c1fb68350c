package launcher

import (
	"strconv"
	"strings"
)

// The daemons of a job across hosts form a tree under the head, so that no
// one process starts, hears and gathers the fences of every host: the head
// starts its children's daemons, each daemon its own children's through the
// same launch agent. Hosts are numbered in the order of the job's placement;
// with fanout f the head's children are hosts 0..f-1 and host i's are
// f(i+1)..f(i+2)-1 (a heap with the head on top). Up to f hosts the tree is
// flat: every daemon talks to the head, as without a tree.

const fanoutDefault = 8

// launchFanout reads GOMPI_LAUNCH_FANOUT (children per daemon, >= 1).
func launchFanout(env envList) int {
	if v, ok := env.get("GOMPI_LAUNCH_FANOUT"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 1 {
			return n
		}
	}
	return fanoutDefault
}

// launchTree is the plan: n hosts, each with at most fanout children.
type launchTree struct {
	n, fanout int
}

// parent of host i: -1 is the head.
func (t launchTree) parent(i int) int {
	if i < t.fanout {
		return -1
	}
	return (i - t.fanout) / t.fanout
}

// children of host i (-1: the head's).
func (t launchTree) children(i int) []int {
	var out []int
	for c := t.fanout * (i + 1); c < t.fanout*(i+2) && c < t.n; c++ {
		out = append(out, c)
	}
	return out
}

// toward returns the child of host from (-1: the head) whose subtree holds
// host h, or -1 when h is not below from.
func (t launchTree) toward(from, h int) int {
	if h < 0 || h >= t.n || h == from {
		return -1
	}
	for {
		p := t.parent(h)
		if p == from {
			return h
		}
		if p < 0 {
			return -1
		}
		h = p
	}
}

// within: host h is root or below it.
func (t launchTree) within(root, h int) bool {
	return h >= 0 && h < t.n && (h == root || t.toward(root, h) >= 0)
}

// subtree lists root and every host below it, root first, by level.
func (t launchTree) subtree(root int) []int {
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, t.children(out[i])...)
	}
	return out
}
