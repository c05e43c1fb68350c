package modex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// Binary layouts. Each blob starts with its own tag byte so a value read
// under the wrong PMI key (or an older format) is rejected, not misparsed.
//
//	process card: 0xC1, node id (uint64 LE), flags (1 byte), entries
//	node card:    0xD1, entries
//	entries:      repeated key (uint32 LE), uvarint length, bytes;
//	              keys strictly ascending (deterministic, no duplicates)
const (
	tagCard     = 0xC1
	tagNodeCard = 0xD1
	tagNodeMap  = 0xE1

	cardHeaderLen = 1 + 8 + 1

	// flagNodeData: this process had node-level data when it published. Only
	// the node leader's flag matters: it says whether a node card exists.
	flagNodeData = 1 << 0
	knownFlags   = flagNodeData
)

// ErrCorrupt wraps every decoding failure of data read from the KVS.
var ErrCorrupt = errors.New("modex: corrupt data")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// card is one process's decoded business card.
type card struct {
	node  uint64
	flags byte
	data  map[Key][]byte
}

func sortedKeys(m map[Key][]byte) []Key {
	keys := make([]Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

func appendEntries(b []byte, m map[Key][]byte) []byte {
	for _, k := range sortedKeys(m) {
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
		b = binary.AppendUvarint(b, uint64(len(m[k])))
		b = append(b, m[k]...)
	}
	return b
}

// parseEntries decodes entries. The returned values alias b with their
// capacity clipped, so a caller appending to one cannot overwrite the next.
func parseEntries(b []byte) (map[Key][]byte, error) {
	m := make(map[Key][]byte)
	var prev Key
	for i := 0; len(b) > 0; i++ {
		if len(b) < 4 {
			return nil, corrupt("entry %d: truncated key", i)
		}
		k := Key(binary.LittleEndian.Uint32(b))
		if i > 0 && k <= prev {
			return nil, corrupt("entry %d: key %#08x out of order", i, uint32(k))
		}
		prev = k
		b = b[4:]
		n, w := uvarint(b)
		if w <= 0 {
			return nil, corrupt("entry %d: bad length", i)
		}
		b = b[w:]
		if n > uint64(len(b)) {
			return nil, corrupt("entry %d: length %d exceeds the %d bytes left", i, n, len(b))
		}
		m[k] = b[:n:n]
		b = b[n:]
	}
	return m, nil
}

// uvarint is binary.Uvarint accepting only the minimal encoding, so every
// blob has exactly one valid form.
func uvarint(b []byte) (uint64, int) {
	v, w := binary.Uvarint(b)
	if w <= 0 || w != len(binary.AppendUvarint(nil, v)) {
		return 0, -1
	}
	return v, w
}

func encodeCard(c card) []byte {
	b := make([]byte, cardHeaderLen, cardHeaderLen+16*len(c.data))
	b[0] = tagCard
	binary.LittleEndian.PutUint64(b[1:], c.node)
	b[9] = c.flags
	return appendEntries(b, c.data)
}

func decodeCard(b []byte) (card, error) {
	if len(b) < cardHeaderLen {
		return card{}, corrupt("card of %d bytes is shorter than its header", len(b))
	}
	if b[0] != tagCard {
		return card{}, corrupt("card tag %#02x", b[0])
	}
	c := card{node: binary.LittleEndian.Uint64(b[1:]), flags: b[9]}
	if c.flags&^knownFlags != 0 {
		return card{}, corrupt("card flags %#02x", c.flags)
	}
	var err error
	if c.data, err = parseEntries(b[cardHeaderLen:]); err != nil {
		return card{}, err
	}
	return c, nil
}

func encodeNodeCard(m map[Key][]byte) []byte {
	return appendEntries([]byte{tagNodeCard}, m)
}

func decodeNodeCard(b []byte) (map[Key][]byte, error) {
	if len(b) < 1 || b[0] != tagNodeCard {
		return nil, corrupt("node card tag")
	}
	return parseEntries(b[1:])
}
