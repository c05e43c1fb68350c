package modex

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCardRoundTrip(t *testing.T) {
	c := card{node: 0x0123456789abcdef, flags: flagNodeData, data: map[Key][]byte{
		7: []byte("seven"), 1: {}, 0xffffffff: bytes.Repeat([]byte{0xaa}, 300)}}
	b := encodeCard(c)
	// 10-byte header, 3 keys of 4 bytes, lengths 1+1+2, payload 5+0+300.
	assert.Equal(t, 10+12+4+305, len(b))
	got, err := decodeCard(b)
	require.NoError(t, err)
	assert.Equal(t, c, got)
	assert.Equal(t, b, encodeCard(got), "one encoding per card")
}

func TestCardRejectsCorruption(t *testing.T) {
	good := encodeCard(card{node: 1, data: map[Key][]byte{1: []byte("ab"), 2: []byte("cd")}})
	cases := map[string][]byte{
		"empty":          {},
		"short header":   good[:5],
		"bad tag":        append([]byte{tagNodeCard}, good[1:]...),
		"unknown flag":   func() []byte { b := bytes.Clone(good); b[9] = 0x80; return b }(),
		"truncated key":  good[:12],
		"truncated data": good[:len(good)-1],
		"length too big": func() []byte { b := bytes.Clone(good); b[14] = 100; return b }(),
		"keys unordered": encodeCardRaw(1, []Key{2, 1}),
		"duplicate key":  encodeCardRaw(1, []Key{3, 3}),
		"long varint":    append(bytes.Clone(good[:10]), 5, 0, 0, 0, 0x81, 0x00, 'x'),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := decodeCard(b)
			assert.ErrorIs(t, err, ErrCorrupt)
		})
	}
}

// encodeCardRaw writes entries in the given order (empty values), bypassing
// the sorted encoder.
func encodeCardRaw(node uint64, keys []Key) []byte {
	b := encodeCard(card{node: node})
	for _, k := range keys {
		b = append(b, byte(k), byte(k>>8), byte(k>>16), byte(k>>24), 0)
	}
	return b
}

func TestNodeCardRoundTrip(t *testing.T) {
	m := map[Key][]byte{9: []byte("seg"), 3: []byte("10.0.0.1")}
	got, err := decodeNodeCard(encodeNodeCard(m))
	require.NoError(t, err)
	assert.Equal(t, m, got)
	_, err = decodeNodeCard(encodeCard(card{}))
	assert.ErrorIs(t, err, ErrCorrupt)
}

func chunksGetter(chunks []string) func(int) (string, error) {
	return func(i int) (string, error) { return chunks[i], nil }
}

func TestTextChunking(t *testing.T) {
	for _, maxValue := range []int{32, 100, DefaultMaxValue, 1024} {
		for _, n := range []int{0, 1, 2, 3, 10, 23, 24, 25, 700, 3000, 20000} {
			blob := make([]byte, n)
			for i := range blob {
				blob[i] = byte(i*7 + n)
			}
			chunks := encodeText(blob, maxValue)
			want := 1 + (len(b64.EncodeToString(blob))+len(strconv.Itoa(n))+8)/maxValue
			assert.LessOrEqual(t, len(chunks), want, "chunk count for %d bytes", n)
			assert.True(t, strings.HasPrefix(chunks[0], strconv.Itoa(len(chunks))+"."+strconv.Itoa(n)+"."))
			for _, c := range chunks {
				require.LessOrEqual(t, len(c), maxValue)
				require.NotContains(t, c, "=")
				require.NotContains(t, c, " ")
				require.NotEmpty(t, c)
			}
			got, err := decodeText(chunks[0], chunksGetter(chunks))
			require.NoError(t, err, "max %d, %d bytes", maxValue, n)
			assert.Equal(t, blob, got)
		}
	}
}

func TestTextRejectsCorruption(t *testing.T) {
	blob := bytes.Repeat([]byte("0123456789"), 30)
	good := encodeText(blob, 100)
	require.Len(t, good, 5)
	with := func(i int, v string) []string {
		c := append([]string(nil), good...)
		c[i] = v
		return c
	}
	cases := map[string][]string{
		"no header":       {b64.EncodeToString(blob)},
		"zero chunks":     with(0, "0"+good[0][1:]),
		"leading zero":    with(0, "05"+good[0][1:]),
		"huge count":      with(0, "99999"+good[0][1:]),
		"short chunk":     with(2, good[2][:50]),
		"long chunk":      with(2, good[2]+"AAAA"),
		"bad character":   with(3, "!"+good[3][1:]),
		"newline":         with(3, "\n"+good[3][1:]),
		"fewer chunks":    with(0, "4"+good[0][1:]),
		"bytes too large": with(0, strings.Replace(good[0], ".300.", ".301.", 1)),
		"bytes too small": with(0, strings.Replace(good[0], ".300.", ".299.", 1)),
	}
	for name, chunks := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := decodeText(chunks[0], func(i int) (string, error) {
				if i >= len(chunks) {
					return "", assert.AnError
				}
				return chunks[i], nil
			})
			assert.Error(t, err)
			if err != assert.AnError {
				assert.ErrorIs(t, err, ErrCorrupt)
			}
		})
	}
}

func TestNodeMapEncoding(t *testing.T) {
	ids := []uint64{5, 5, 9, 9, 5, 7, 7, 7}
	flags := []byte{flagNodeData, 0, 0, flagNodeData, 0, flagNodeData, 0, 0}
	m := buildNodeMap(ids, flags)
	assert.Equal(t, []uint64{5, 9, 7}, m.ids)
	assert.Equal(t, []bool{true, false, true}, m.nodeData, "the leader's flag counts")
	assert.Equal(t, []int{0, 0, 1, 1, 0, 2, 2, 2}, m.of)
	assert.Equal(t, [][]int{{0, 1, 4}, {2, 3}, {5, 6, 7}}, m.ranks)

	b := encodeNodeMap(m)
	got, err := decodeNodeMap(b, len(ids))
	require.NoError(t, err)
	assert.Equal(t, m, got)

	_, err = decodeNodeMap(b, len(ids)+1)
	assert.ErrorIs(t, err, ErrCorrupt, "wrong size")
	_, err = decodeNodeMap(b[:len(b)-1], len(ids))
	assert.ErrorIs(t, err, ErrCorrupt, "truncated")

	// Block placement is a few bytes whatever the rank count.
	big := make([]uint64, 4096)
	for r := range big {
		big[r] = uint64(r / 64)
	}
	assert.Less(t, len(encodeNodeMap(buildNodeMap(big, make([]byte, len(big))))), 64*9+64*4)
}

func TestNodeMapRejectsBadNumbering(t *testing.T) {
	// Node 1 appears before node 0: not dense in order of lowest rank.
	b := []byte{tagNodeMap, 2}
	b = append(b, 1, 0, 0, 0, 0, 0, 0, 0, 0)
	b = append(b, 2, 0, 0, 0, 0, 0, 0, 0, 0)
	b = append(b, 2, 1, 1, 0, 1)
	_, err := decodeNodeMap(b, 2)
	assert.ErrorIs(t, err, ErrCorrupt)
	b[len(b)-4], b[len(b)-2] = 0, 1 // fixed order decodes
	_, err = decodeNodeMap(b, 2)
	assert.NoError(t, err)
	b[len(b)-2] = 0 // two runs of node 0 in a row: not canonical
	_, err = decodeNodeMap(b, 2)
	assert.ErrorIs(t, err, ErrCorrupt)
}
