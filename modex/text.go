package modex

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// PMI values travel inside "key=value" text lines: no spaces, no '=', at
// most 1024 characters. Blobs are therefore written in unpadded base64 with
// the URL alphabet (A-Z a-z 0-9 - _), split into chunks <prefix>.0,
// <prefix>.1, ...; chunk 0 starts with "<chunks>.<bytes>." so a reader knows
// how many more gets it needs and can check the decoded length.
// Strict decoding refuses non-zero padding bits: one text per blob.
var b64 = base64.RawURLEncoding.Strict()

const (
	// DefaultMaxValue is the default chunk length. The PMI-1 limit is 1024
	// for the value, but some servers (MPICH's simple PMI) cap the whole
	// "cmd=put kvsname=... key=... value=..." line at 1024; 896 leaves room
	// for that line and is a multiple of 4 (whole base64 quanta per chunk).
	DefaultMaxValue = 896
	minMaxValue     = 32
	maxMaxValue     = 1024

	// maxChunks bounds the gets a corrupt header can make us do (and the
	// blob size: 4096 chunks of 1024 characters is 3 MiB).
	maxChunks = 4096
)

func chunkKey(prefix string, i int) string { return prefix + "." + strconv.Itoa(i) }

// encodeText splits blob into PMI-safe chunk values of at most maxValue
// characters.
func encodeText(blob []byte, maxValue int) []string {
	s := b64.EncodeToString(blob)
	// The header length depends on the chunk count, which depends on the
	// header length: iterate until stable (two rounds at most in practice).
	n := 1
	for {
		hdr := fmt.Sprintf("%d.%d.", n, len(blob))
		first := maxValue - len(hdr)
		need := 1
		if len(s) > first {
			need += (len(s) - first + maxValue - 1) / maxValue
		}
		if need == n {
			out := make([]string, 0, n)
			cut := min(first, len(s))
			out = append(out, hdr+s[:cut])
			for s = s[cut:]; len(s) > 0; {
				cut = min(maxValue, len(s))
				out = append(out, s[:cut])
				s = s[cut:]
			}
			return out
		}
		n = need
	}
}

// parseUint reads a canonical decimal number (no sign, no leading zeros).
func parseUint(s string, max int) (int, bool) {
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n <= max
}

// parseHeader splits chunk 0 into the chunk count, the decoded byte count and
// the chunk's own data.
func parseHeader(v string) (chunks, nbytes int, data string, err error) {
	a, rest, ok1 := strings.Cut(v, ".")
	b, data, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 {
		return 0, 0, "", corrupt("chunk header missing")
	}
	chunks, ok1 = parseUint(a, maxChunks)
	nbytes, ok2 = parseUint(b, maxChunks*maxMaxValue)
	if !ok1 || !ok2 || chunks == 0 {
		return 0, 0, "", corrupt("chunk header %q", v[:min(len(v), 24)])
	}
	// The characters the header promises must fit in the chunks it promises.
	if b64.EncodedLen(nbytes) > chunks*maxMaxValue {
		return 0, 0, "", corrupt("%d bytes cannot fit in %d chunks", nbytes, chunks)
	}
	return chunks, nbytes, data, nil
}

// decodeText reassembles and decodes a blob; get returns the value of chunk
// i (i ≥ 1), called only as many times as the header says.
func decodeText(first string, get func(i int) (string, error)) ([]byte, error) {
	chunks, nbytes, data, err := parseHeader(first)
	if err != nil {
		return nil, err
	}
	want := b64.EncodedLen(nbytes)
	var sb strings.Builder
	sb.Grow(want)
	sb.WriteString(data)
	for i := 1; i < chunks; i++ {
		if sb.Len() >= want {
			return nil, corrupt("more chunks than data")
		}
		v, err := get(i)
		if err != nil {
			return nil, err
		}
		sb.WriteString(v)
	}
	if sb.Len() != want {
		return nil, corrupt("%d characters for %d bytes", sb.Len(), nbytes)
	}
	blob, err := b64.DecodeString(sb.String())
	if err != nil {
		return nil, corrupt("base64: %v", err)
	}
	if len(blob) != nbytes { // the decoder skips newlines
		return nil, corrupt("%d bytes decoded, %d announced", len(blob), nbytes)
	}
	return blob, nil
}
