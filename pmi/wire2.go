package pmi

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PMI-2 wire protocol (what Slurm's mpi/pmi2 plugin and Hydra serve). The
// session opens with one PMI-1 line each way:
//
//	cmd=init pmi_version=2 pmi_subversion=0\n
//	cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n
//
// after which every message, both ways, is a 6-byte decimal length field
// (left-justified, space-padded) and that many bytes of
// `cmd=NAME;key=value;...;`. Keys may repeat (spawn uses that), so order
// is kept. A ';' inside a value is written doubled (MPICH's convention;
// Slurm cannot carry one at all, so Put refuses it).

const (
	v2LenField = 6
	// MaxV2Msg bounds one PMI-2 message (MPICH's client uses the same
	// limit); the length field could say up to 999999.
	MaxV2Msg = 64 << 10
	// v2MaxArgs bounds the attributes of one received message.
	v2MaxArgs = 256
)

// ErrV2Syntax is wrapped by every PMI-2 parse error.
var ErrV2Syntax = errors.New("pmi2: malformed message")

func v2Err(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrV2Syntax, fmt.Sprintf(format, args...))
}

// isV2ValueByte: printable ASCII and space; ';' is handled by the caller.
func isV2ValueByte(c byte) bool { return c >= ' ' && c < 0x7f }

// AppendV2 appends m in PMI-2 framing (length field included).
func (m Message) AppendV2(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, "      "...) // length field, filled in below
	if m.Cmd == "" || strings.ContainsAny(m.Cmd, ";=") {
		return b[:start], fmt.Errorf("pmi2: bad command name %q", m.Cmd)
	}
	b = appendV2Pair(b, "cmd", m.Cmd)
	for _, a := range m.Args {
		if a.Key == "" || a.Key == "cmd" || len(a.Key) > MaxKeyLen {
			return b[:start], fmt.Errorf("pmi2: bad attribute name %q", a.Key)
		}
		for j := 0; j < len(a.Key); j++ {
			if !isKeyByte(a.Key[j]) {
				return b[:start], fmt.Errorf("pmi2: bad attribute name %q", a.Key)
			}
		}
		for j := 0; j < len(a.Value); j++ {
			if !isV2ValueByte(a.Value[j]) {
				return b[:start], fmt.Errorf("pmi2: byte %q not allowed in value of %q", a.Value[j], a.Key)
			}
		}
		b = appendV2Pair(b, a.Key, a.Value)
	}
	n := len(b) - start - v2LenField
	if n > MaxV2Msg {
		return b[:start], fmt.Errorf("pmi2: %s: message of %d bytes exceeds %d", m.Cmd, n, MaxV2Msg)
	}
	copy(b[start:start+v2LenField], fmt.Sprintf("%-6d", n))
	return b, nil
}

func appendV2Pair(b []byte, key, value string) []byte {
	b = append(b, key...)
	b = append(b, '=')
	for j := 0; j < len(value); j++ {
		if value[j] == ';' {
			b = append(b, ';')
		}
		b = append(b, value[j])
	}
	return append(b, ';')
}

// ParseV2 parses one PMI-2 message body (without its length field). The
// final ';' is optional; ";;" inside a value is a literal ';'.
func ParseV2(body []byte) (Message, error) {
	if len(body) > MaxV2Msg {
		return Message{}, v2Err("%d bytes exceeds %d", len(body), MaxV2Msg)
	}
	var m Message
	i := 0
	for i < len(body) {
		ks := i
		for i < len(body) && isKeyByte(body[i]) {
			i++
		}
		key := string(body[ks:i])
		if key == "" || len(key) > MaxKeyLen {
			return Message{}, v2Err("bad attribute name at byte %d", ks)
		}
		if i == len(body) || body[i] != '=' {
			return Message{}, v2Err("attribute %q has no '='", key)
		}
		i++
		var val strings.Builder
		for i < len(body) {
			c := body[i]
			if c == ';' {
				if i+1 < len(body) && body[i+1] == ';' {
					val.WriteByte(';')
					i += 2
					continue
				}
				break
			}
			if !isV2ValueByte(c) {
				return Message{}, v2Err("bad byte %q in value of %q", c, key)
			}
			val.WriteByte(c)
			i++
		}
		i++ // the ';' (or the end)
		if m.Cmd == "" {
			if key != "cmd" || val.Len() == 0 {
				return Message{}, v2Err("message does not start with cmd=")
			}
			m.Cmd = val.String()
			continue
		}
		if key == "cmd" {
			return Message{}, v2Err("second cmd=")
		}
		if len(m.Args) == v2MaxArgs {
			return Message{}, v2Err("more than %d attributes", v2MaxArgs)
		}
		m.Args = append(m.Args, Arg{key, val.String()})
	}
	if m.Cmd == "" {
		return Message{}, v2Err("empty message")
	}
	return m, nil
}

// ReadV2Message reads one length-prefixed PMI-2 message. A bad length field
// is final (the framing is lost); a bad body is reported as an error
// wrapping ErrV2Syntax and the stream stays usable.
func (r *Reader) ReadV2Message() (Message, error) {
	var lf [v2LenField]byte
	if _, err := io.ReadFull(r.br, lf[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return Message{}, err
		}
		return Message{}, io.ErrUnexpectedEOF
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(lf[:])))
	if err != nil || n < 0 || n > MaxV2Msg {
		return Message{}, fmt.Errorf("pmi2: bad length field %q", lf[:])
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.br, body); err != nil {
		return Message{}, io.ErrUnexpectedEOF
	}
	// MPICH's clients count a trailing NUL in the length.
	for len(body) > 0 && body[len(body)-1] == 0 {
		body = body[:len(body)-1]
	}
	return ParseV2(body)
}
