package modex

import (
	"bytes"
	"testing"
)

// Decoders read what other processes (or a broken PMI server) wrote: they
// must return an error, never panic, and accept only canonical encodings.

func FuzzDecodeCard(f *testing.F) {
	f.Add(encodeCard(card{node: 3, flags: flagNodeData, data: map[Key][]byte{1: []byte("x"), 9: nil}}))
	f.Add(encodeCard(card{}))
	f.Add([]byte{tagCard})
	f.Add([]byte{tagCard, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeCard(b)
		if err != nil {
			return
		}
		if again := encodeCard(c); !bytes.Equal(again, b) {
			t.Fatalf("decoded card re-encodes differently:\n%x\n%x", b, again)
		}
	})
}

func FuzzDecodeText(f *testing.F) {
	for _, c := range encodeText(bytes.Repeat([]byte{1, 2, 3}, 40), 40) {
		f.Add(c, "", "")
	}
	f.Add("1.3.AAAA", "", "")
	f.Add("3.40.AAAA", "BBBB", "CCCC")
	f.Add("2.999999999.", "x", "")
	f.Fuzz(func(t *testing.T, first, second, third string) {
		rest := []string{second, third}
		gets := 0
		blob, err := decodeText(first, func(i int) (string, error) {
			gets++
			if i-1 < len(rest) {
				return rest[i-1], nil
			}
			return "", nil // further chunks empty: must fail on length
		})
		if gets > maxChunks {
			t.Fatalf("%d gets", gets)
		}
		if err != nil {
			return
		}
		chunks, nbytes, _, _ := parseHeader(first)
		if len(blob) != nbytes || gets != chunks-1 {
			t.Fatalf("%d bytes, %d gets for header %d.%d", len(blob), gets, chunks, nbytes)
		}
	})
}

func FuzzDecodeNodeMap(f *testing.F) {
	f.Add(encodeNodeMap(buildNodeMap([]uint64{4, 4, 2, 4}, []byte{1, 0, 0, 0})), 4)
	f.Add(encodeNodeMap(buildNodeMap([]uint64{1}, []byte{0})), 1)
	f.Fuzz(func(t *testing.T, b []byte, size int) {
		if size < 0 || size > 1<<12 {
			return
		}
		m, err := decodeNodeMap(b, size)
		if err != nil {
			return
		}
		if len(m.of) != size {
			t.Fatalf("%d ranks for size %d", len(m.of), size)
		}
		if again := encodeNodeMap(m); !bytes.Equal(again, b) {
			t.Fatalf("node map re-encodes differently:\n%x\n%x", b, again)
		}
	})
}
