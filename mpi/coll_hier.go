package mpi

import (
	"strconv"

	"gompi/coll"
)

// Node-aware collectives: on a communicator whose members sit on several
// nodes, the collectives run coll's hierarchical schedules (coll/hier.go):
// within a node among its ranks, between nodes among one leader per node.
// The grouping comes from the modex node map (every process derives the
// same one), or, to test the hierarchy on one machine, from
// GOMPI_COLL_FAKE_NODES virtual nodes, which also keep such a
// communicator off the node's shared-memory collectives. A communicator
// inside one node takes none of this: its paths are unchanged.

// nodes is c's members grouped by node, worked out at its first collective;
// nil when c is within one node (or has one member per node, or members of
// other jobs, or GOMPI_COLL_HIER=0).
func (c *Comm) nodes() *coll.Nodes {
	if !c.hierSet {
		c.hierSet = true
		if ids := c.nodeIDs(); ids != nil && st.settings.str("GOMPI_COLL_HIER", "1") != "0" {
			c.hier = coll.GroupNodes(ids)
		}
	}
	return c.hier
}

// hierFor is c's grouping for a collective of kind k, unless a flat
// algorithm is forced for k (GOMPI_COLL_<KIND>).
func (c *Comm) hierFor(k coll.Kind) *coll.Nodes {
	h := c.nodes()
	if h == nil {
		return nil
	}
	if a, ok := st.settings["GOMPI_COLL_"+string(k)]; ok && coll.Valid(k, a) {
		return nil
	}
	return h
}

// nodeIDs is the node of every member of c (nil: unknown).
func (c *Comm) nodeIDs() []int {
	if c.inter || c.spansJobs() || (st.modex == nil && fakeNodes() == 0) {
		return nil
	}
	ids := make([]int, c.size)
	for i, w := range c.group {
		if ids[i] = worldNode(w); ids[i] < 0 {
			return nil
		}
	}
	return ids
}

// fakeNodes is GOMPI_COLL_FAKE_NODES: the number of virtual nodes the world's
// ranks are placed on (by block; cyclically with GOMPI_COLL_FAKE_CYCLIC=1),
// 0 for the real node map.
func fakeNodes() int {
	return min(st.settings.size("GOMPI_COLL_FAKE_NODES", 0), st.size)
}

// worldNode is world rank w's node: virtual (fakeNodes) or from the modex.
func worldNode(w int) int {
	if k := fakeNodes(); k > 0 {
		if st.settings.str("GOMPI_COLL_FAKE_CYCLIC", "0") == "1" {
			return w % k
		}
		return w * k / st.size
	}
	return st.modex.NodeOf(w)
}

// fakeSpansNodes tells whether virtual nodes split c: it then must not
// use the node's shared-memory collectives.
func (c *Comm) fakeSpansNodes() bool {
	if fakeNodes() == 0 {
		return false
	}
	ids := c.nodeIDs()
	for _, id := range ids {
		if id != ids[0] {
			return true
		}
	}
	return false
}

// hierSegment is GOMPI_COLL_HIER_SEGMENT: from four of these a broadcast or
// commutative allreduce across nodes is pipelined down a chain or ring of
// all ranks in node order (0: never).
func hierSegment() int { return st.settings.size("GOMPI_COLL_HIER_SEGMENT", 64<<10) }

// hierVerbose reports a hierarchical choice once (GOMPI_COLL_VERBOSE=1).
func (c *Comm) hierVerbose(k coll.Kind, h *coll.Nodes, bytes int) {
	if st.settings["GOMPI_COLL_VERBOSE"] == "1" {
		// The line shows the flag as algorithm would set it for c, not
		// the previous choice's.
		coll.Oversubscribed = fastInfo.Oversub && !c.spansJobs()
		collVerbose(k, c.size, bytes, "hierarchical over "+strconv.Itoa(h.Count())+" nodes")
	}
}

// sameCounts tells whether every block of a layout has n bytes (a regular
// alltoall whose send and receive signatures agree: mismatches take the
// flat exchange, which reports them as truncation where they occur).
func sameCounts(counts []int, n int) bool {
	for _, k := range counts {
		if k != n {
			return false
		}
	}
	return true
}
