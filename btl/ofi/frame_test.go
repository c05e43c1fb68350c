package ofi

import (
	"encoding/binary"
	"testing"
)

func frame(src uint32, tag byte, body ...byte) []byte {
	b := make([]byte, frameHdr, frameHdr+len(body))
	binary.LittleEndian.PutUint32(b, src)
	b[4], b[5] = tag, frameMagic
	return append(b, body...)
}

func TestDecodeFrame(t *testing.T) {
	remote := []bool{false, true, true}
	src, tag, body, err := decodeFrame(frame(2, 7, 1, 2, 3), remote)
	if err != nil || src != 2 || tag != 7 || len(body) != 3 {
		t.Fatalf("good frame: %d %d %v %v", src, tag, body, err)
	}
	bad := [][]byte{
		nil, {1, 2, 3},
		frame(0, 1),                      // a rank of our own node
		frame(3, 1),                      // beyond the job
		frame(1<<31, 1),                  // negative as int32
		append(frame(1, 1)[:5], 0, 0, 0), // no magic
		func() []byte { f := frame(1, 1); f[7] = 1; return f }(),
	}
	for i, b := range bad {
		if _, _, _, err := decodeFrame(b, remote); err == nil {
			t.Errorf("bad frame %d accepted", i)
		}
	}
}

// FuzzDecodeFrame: whatever arrives, the decoder returns an error or a body
// inside the frame from a rank allowed to send.
func FuzzDecodeFrame(f *testing.F) {
	f.Add(frame(1, 1, 1, 2, 3))
	f.Add(frame(0, 2))
	f.Add([]byte{})
	f.Add(frame(0xffffffff, 4, 0))
	remote := []bool{true, true, false, true}
	f.Fuzz(func(t *testing.T, b []byte) {
		src, _, body, err := decodeFrame(b, remote)
		if err != nil {
			return
		}
		if src < 0 || src >= len(remote) || !remote[src] || len(body) != len(b)-frameHdr {
			t.Fatalf("accepted src %d body %d of frame %d", src, len(body), len(b))
		}
	})
}
