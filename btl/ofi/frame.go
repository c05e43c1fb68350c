package ofi

import (
	"encoding/binary"
	"fmt"
)

// Frame layout (frameHdr bytes, then the pml's header and payload): the
// sender's world rank (uint32, little endian), the btl tag, a magic byte and
// two reserved zero bytes. Eight bytes keep the pml's headers aligned.
const (
	frameHdr   = 8
	frameMagic = 0x4f
	// frameNop carries nothing: Drain's frame that follows injected ones.
	frameNop = 0
)

// decodeFrame checks a frame read from the network and returns its sender,
// tag and body. remote tells which world ranks may send to us through the
// network (ranks of other nodes); everything else is refused, so a corrupt
// or hostile frame is dropped with a reason, never delivered.
func decodeFrame(b []byte, remote []bool) (src int, tag uint8, body []byte, err error) {
	if len(b) < frameHdr {
		return 0, 0, nil, fmt.Errorf("frame of %d bytes is shorter than its %d-byte header", len(b), frameHdr)
	}
	if b[5] != frameMagic || b[6] != 0 || b[7] != 0 {
		return 0, 0, nil, fmt.Errorf("frame header % x is not a gompi frame", b[:frameHdr])
	}
	s := binary.LittleEndian.Uint32(b)
	if uint64(s) >= uint64(len(remote)) || !remote[s] {
		return 0, 0, nil, fmt.Errorf("frame names rank %d, which does not reach us through the network", s)
	}
	return int(s), b[4], b[frameHdr:], nil
}
