package modex

import (
	"encoding/binary"
)

// nodeMap says which node every rank is on. Nodes are numbered densely in
// the order of their lowest rank, so every process derives the same numbers
// and node n's leader (lowest local rank) is ranks[n][0].
type nodeMap struct {
	ids      []uint64 // node id per dense node index
	nodeData []bool   // the node's leader published a node card
	of       []int    // rank -> dense node index
	ranks    [][]int  // dense node index -> its ranks, ascending
}

// buildNodeMap numbers the nodes from every rank's node id and flags.
func buildNodeMap(ids []uint64, flags []byte) *nodeMap {
	m := &nodeMap{of: make([]int, len(ids))}
	index := make(map[uint64]int)
	for r, id := range ids {
		n, ok := index[id]
		if !ok {
			n = len(m.ids)
			index[id] = n
			m.ids = append(m.ids, id)
			m.nodeData = append(m.nodeData, flags[r]&flagNodeData != 0)
			m.ranks = append(m.ranks, nil)
		}
		m.of[r] = n
		m.ranks[n] = append(m.ranks[n], r)
	}
	return m
}

func (m *nodeMap) leader(n int) int { return m.ranks[n][0] }

func (m *nodeMap) anyNodeData() bool {
	for _, d := range m.nodeData {
		if d {
			return true
		}
	}
	return false
}

// encodeNodeMap writes: tag, uvarint nodes, per node (id uint64 LE, flag
// byte), uvarint runs, per run (uvarint node, uvarint length). Runs make the
// usual block placement a few bytes however many ranks a node has.
func encodeNodeMap(m *nodeMap) []byte {
	b := []byte{tagNodeMap}
	b = binary.AppendUvarint(b, uint64(len(m.ids)))
	for n, id := range m.ids {
		b = binary.LittleEndian.AppendUint64(b, id)
		f := byte(0)
		if m.nodeData[n] {
			f = flagNodeData
		}
		b = append(b, f)
	}
	type run struct{ node, n int }
	var runs []run
	for _, n := range m.of {
		if len(runs) > 0 && runs[len(runs)-1].node == n {
			runs[len(runs)-1].n++
		} else {
			runs = append(runs, run{n, 1})
		}
	}
	b = binary.AppendUvarint(b, uint64(len(runs)))
	for _, r := range runs {
		b = binary.AppendUvarint(b, uint64(r.node))
		b = binary.AppendUvarint(b, uint64(r.n))
	}
	return b
}

// decodeNodeMap checks everything a corrupt map could get wrong: the rank
// count, node indices in range, dense numbering in order of lowest rank,
// distinct ids, every node used.
func decodeNodeMap(b []byte, size int) (*nodeMap, error) {
	if len(b) < 1 || b[0] != tagNodeMap {
		return nil, corrupt("node map tag")
	}
	b = b[1:]
	uv := func(what string) (int, error) {
		v, w := uvarint(b)
		if w <= 0 || v > uint64(size) {
			return 0, corrupt("node map: bad %s", what)
		}
		b = b[w:]
		return int(v), nil
	}
	nodes, err := uv("node count")
	if err != nil {
		return nil, err
	}
	if (nodes == 0) != (size == 0) || len(b) < 9*nodes {
		return nil, corrupt("node map: %d nodes for %d ranks", nodes, size)
	}
	m := &nodeMap{ids: make([]uint64, nodes), nodeData: make([]bool, nodes),
		ranks: make([][]int, nodes), of: make([]int, 0, size)}
	seen := make(map[uint64]bool, nodes)
	for n := range nodes {
		m.ids[n] = binary.LittleEndian.Uint64(b)
		if seen[m.ids[n]] {
			return nil, corrupt("node map: node id repeated")
		}
		seen[m.ids[n]] = true
		f := b[8]
		if f&^knownFlags != 0 {
			return nil, corrupt("node map: flags %#02x", f)
		}
		m.nodeData[n] = f&flagNodeData != 0
		b = b[9:]
	}
	runs, err := uv("run count")
	if err != nil {
		return nil, err
	}
	next := 0 // the next node index allowed to appear for the first time
	for range runs {
		n, err := uv("run node")
		if err != nil {
			return nil, err
		}
		k, err := uv("run length")
		if err != nil {
			return nil, err
		}
		prev := -1
		if len(m.of) > 0 {
			prev = m.of[len(m.of)-1]
		}
		if n >= nodes || n > next || n == prev || k == 0 || k > size-len(m.of) {
			return nil, corrupt("node map: bad run (node %d, %d ranks)", n, k)
		}
		if n == next {
			next++
		}
		for range k {
			m.ranks[n] = append(m.ranks[n], len(m.of))
			m.of = append(m.of, n)
		}
	}
	if len(m.of) != size || next != nodes || len(b) != 0 {
		return nil, corrupt("node map: covers %d of %d ranks, %d of %d nodes", len(m.of), size, next, nodes)
	}
	return m, nil
}
