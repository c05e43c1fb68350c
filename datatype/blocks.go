package datatype

// Block is one contiguous run of data bytes of a type, Off bytes from the
// type's origin.
type Block struct{ Off, Len int64 }

// Blocks lists the runs of one element of t in typemap order, touching runs
// merged. File views use it to map a filetype onto file offsets.
func (t *Type) Blocks() []Block {
	if t.Contig {
		if t.Size == 0 {
			return nil
		}
		return []Block{{0, int64(t.Size)}}
	}
	return appendBlocks(nil, 0, t.layout())
}

func appendBlocks(out []Block, off int64, nodes []node) []Block {
	for i := range nodes {
		n := &nodes[i]
		o := off + n.Off
		for k := int64(0); k < n.Count; k++ {
			if n.leaf() {
				if n.Len > 0 {
					if m := len(out); m > 0 && out[m-1].Off+out[m-1].Len == o {
						out[m-1].Len += n.Len
					} else {
						out = append(out, Block{o, n.Len})
					}
				}
			} else {
				out = appendBlocks(out, o, n.Kids)
			}
			o += n.Stride
		}
	}
	return out
}
