package pmi

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseProcessMapping reads the PMI_process_mapping job attribute that
// Slurm, Hydra and gompirun publish, "(vector,(base,nodes,ppn),...)": each
// block puts ppn consecutive ranks on each of nodes nodes numbered from
// base; the blocks repeat in order until size ranks are placed (so
// "(vector,(0,2,1))" is a cyclic placement over two nodes). It returns the
// node of every rank.
func ParseProcessMapping(s string, size int) ([]int, error) {
	bad := func(why string) ([]int, error) {
		return nil, fmt.Errorf("pmi: PMI_process_mapping %q: %s", s, why)
	}
	if size < 1 {
		return bad("job size < 1")
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(s), "(vector,")
	if !ok || !strings.HasSuffix(body, ")") {
		return bad("not a (vector,...)")
	}
	body = strings.TrimSuffix(body, ")")
	type block struct{ base, nodes, ppn int }
	var blocks []block
	for body != "" {
		if body[0] != '(' {
			return bad("expected '('")
		}
		end := strings.IndexByte(body, ')')
		if end < 0 {
			return bad("unclosed block")
		}
		parts := strings.Split(body[1:end], ",")
		if len(parts) != 3 {
			return bad("a block has three numbers")
		}
		var v [3]int
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 0 || n > size*4+1<<20 {
				return bad("bad number " + strconv.Quote(p))
			}
			v[i] = n
		}
		blocks = append(blocks, block{v[0], v[1], v[2]})
		body = strings.TrimPrefix(body[end+1:], ",")
	}
	placed := 0
	for _, b := range blocks {
		placed += b.nodes * b.ppn
	}
	if len(blocks) == 0 || placed == 0 {
		return bad("places no rank")
	}
	node := make([]int, 0, size)
	for len(node) < size {
		for _, b := range blocks {
			for n := b.base; n < b.base+b.nodes; n++ {
				for k := 0; k < b.ppn && len(node) < size; k++ {
					node = append(node, n)
				}
			}
		}
	}
	return node, nil
}

// ProcessMapping returns the node of every rank as the process manager
// describes it (PMI_process_mapping); ok is false when it does not.
func (c *Client) ProcessMapping() (nodes []int, ok bool, err error) {
	v, ok, err := c.JobAttr("PMI_process_mapping")
	if err != nil || !ok {
		return nil, false, err
	}
	nodes, err = ParseProcessMapping(v, c.size)
	return nodes, err == nil, err
}
