// Package pmi speaks PMI-1, the "simple" line protocol that MPICH's Hydra
// (mpiexec) and our gompirun serve: one request line, one reply line, each
// `cmd=NAME key=value ...\n`. It has a client (what an MPI process uses to
// exchange business cards) and a server (what gompirun runs per job). The
// client also speaks PMI-2 (wire2.go, client2.go: srun --mpi=pmi2) and,
// through gompi/pmi/pmix, PMIx (client_pmix.go: srun --mpi=pmix).
package pmi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Wire limits. They bound memory per connection and match what we announce in
// the `maxes` reply; anything larger is rejected, never truncated.
const (
	MaxKeyLen     = 64   // one attribute name, and one KVS key
	MaxValueLen   = 1024 // one attribute value, and one KVS value
	MaxLineLen    = 4096 // one line including the trailing newline
	MaxKVSNameLen = 256
	maxArgs       = 64 // attributes per line; PMI-1 commands use at most a handful
)

// Arg is one key=value attribute of a line.
type Arg struct {
	Key, Value string
}

// Message is one parsed line: the command and its attributes in wire order.
type Message struct {
	Cmd  string
	Args []Arg
}

// NewMessage builds a message from alternating key, value strings.
func NewMessage(cmd string, kv ...string) Message {
	m := Message{Cmd: cmd}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Args = append(m.Args, Arg{kv[i], kv[i+1]})
	}
	return m
}

// Get returns the value of key.
func (m Message) Get(key string) (string, bool) {
	for _, a := range m.Args {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// Int returns the value of key as a decimal integer.
func (m Message) Int(key string) (int, error) {
	v, ok := m.Get(key)
	if !ok {
		return 0, fmt.Errorf("pmi: %s: missing %s", m.Cmd, key)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("pmi: %s: %s=%q is not an integer", m.Cmd, key, v)
	}
	return n, nil
}

// String renders the message as it goes on the wire, without the newline.
func (m Message) String() string {
	b, err := m.AppendLine(nil)
	if err != nil {
		return fmt.Sprintf("<invalid pmi message %q: %v>", m.Cmd, err)
	}
	return string(b[:len(b)-1])
}

// ErrSyntax is wrapped by every parse error.
var ErrSyntax = errors.New("pmi: malformed line")

// ErrLineTooLong reports a line over MaxLineLen; the reader skips its rest.
var ErrLineTooLong = errors.New("pmi: line too long")

func syntaxErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrSyntax, fmt.Sprintf(format, args...))
}

// isKeyByte is MPICH's attribute-name alphabet; a stricter one would refuse
// Hydra's lines, a looser one would let us send lines Hydra refuses.
func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '/'
}

// isValueByte: printable ASCII. A space ends a value unless escaped with '\'.
func isValueByte(c byte) bool { return c > ' ' && c < 0x7f }

// ParseLine parses one line (the trailing newline is optional). Values may
// contain `\ ` and `\\` escapes (newer MPICH escapes spaces that way).
func ParseLine(line []byte) (Message, error) {
	if len(line) > 0 && line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	if len(line)+1 > MaxLineLen {
		return Message{}, ErrLineTooLong
	}
	var m Message
	i := 0
	first := true
	for {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) {
			break
		}
		if first && i != 0 {
			return Message{}, syntaxErr("leading space")
		}
		ks := i
		for i < len(line) && isKeyByte(line[i]) {
			i++
		}
		key := string(line[ks:i])
		if key == "" {
			return Message{}, syntaxErr("bad byte %q at %d", line[i], i)
		}
		if len(key) > MaxKeyLen {
			return Message{}, syntaxErr("attribute name longer than %d", MaxKeyLen)
		}
		if i == len(line) || line[i] != '=' {
			return Message{}, syntaxErr("attribute %q has no '='", key)
		}
		i++
		var val strings.Builder
		for i < len(line) && line[i] != ' ' {
			c := line[i]
			if c == '\\' {
				if i+1 == len(line) || (line[i+1] != ' ' && line[i+1] != '\\') {
					return Message{}, syntaxErr("bad escape in %q", key)
				}
				c = line[i+1]
				i++
			} else if !isValueByte(c) {
				return Message{}, syntaxErr("bad byte %q in value of %q", c, key)
			}
			if val.Len() == MaxValueLen {
				return Message{}, syntaxErr("value of %q longer than %d", key, MaxValueLen)
			}
			val.WriteByte(c)
			i++
		}
		if first {
			if key != "cmd" {
				return Message{}, syntaxErr("line does not start with cmd=")
			}
			if val.Len() == 0 {
				return Message{}, syntaxErr("empty command")
			}
			m.Cmd = val.String()
			first = false
			continue
		}
		if key == "cmd" {
			return Message{}, syntaxErr("second cmd=")
		}
		if _, dup := m.Get(key); dup {
			return Message{}, syntaxErr("attribute %q repeated", key)
		}
		if len(m.Args) == maxArgs {
			return Message{}, syntaxErr("more than %d attributes", maxArgs)
		}
		m.Args = append(m.Args, Arg{key, val.String()})
	}
	if first {
		return Message{}, syntaxErr("empty line")
	}
	for _, c := range []byte(m.Cmd) {
		if c == ' ' || c == '\\' {
			return Message{}, syntaxErr("bad command name %q", m.Cmd)
		}
	}
	return m, nil
}

// AppendLine appends the wire form of m, newline included, after checking
// every limit ParseLine enforces, so whatever we send, we could also read.
func (m Message) AppendLine(b []byte) ([]byte, error) {
	start := len(b)
	if err := checkName("command", m.Cmd, true); err != nil {
		return b, err
	}
	b = append(b, "cmd="...)
	b = append(b, m.Cmd...)
	for i, a := range m.Args {
		if i == maxArgs {
			return b[:start], fmt.Errorf("pmi: more than %d attributes", maxArgs)
		}
		if a.Key == "cmd" || a.Key == "" || len(a.Key) > MaxKeyLen {
			return b[:start], fmt.Errorf("pmi: bad attribute name %q", a.Key)
		}
		for j := 0; j < len(a.Key); j++ {
			if !isKeyByte(a.Key[j]) {
				return b[:start], fmt.Errorf("pmi: bad attribute name %q", a.Key)
			}
		}
		for _, prev := range m.Args[:i] {
			if prev.Key == a.Key {
				return b[:start], fmt.Errorf("pmi: attribute %q repeated", a.Key)
			}
		}
		if len(a.Value) > MaxValueLen {
			return b[:start], fmt.Errorf("pmi: value of %q longer than %d", a.Key, MaxValueLen)
		}
		b = append(b, ' ')
		b = append(b, a.Key...)
		b = append(b, '=')
		for j := 0; j < len(a.Value); j++ {
			c := a.Value[j]
			switch {
			case c == ' ' || c == '\\':
				b = append(b, '\\', c)
			case isValueByte(c):
				b = append(b, c)
			default:
				return b[:start], fmt.Errorf("pmi: byte %q not allowed in value of %q", c, a.Key)
			}
		}
	}
	b = append(b, '\n')
	if len(b)-start > MaxLineLen {
		return b[:start], ErrLineTooLong
	}
	return b, nil
}

func checkName(what, s string, nonEmpty bool) error {
	if nonEmpty && s == "" {
		return fmt.Errorf("pmi: empty %s", what)
	}
	if len(s) > MaxValueLen {
		return fmt.Errorf("pmi: %s longer than %d", what, MaxValueLen)
	}
	for j := 0; j < len(s); j++ {
		if !isValueByte(s[j]) || s[j] == '\\' {
			return fmt.Errorf("pmi: byte %q not allowed in %s %q", s[j], what, s)
		}
	}
	return nil
}

// Reader reads bounded lines from a stream. A malformed or oversized line is
// reported as an error wrapping ErrSyntax or ErrLineTooLong and the stream
// stays usable; any other error comes from the stream itself and is final.
type Reader struct {
	br *bufio.Reader
}

// NewReader wraps r. The buffer holds one maximal line.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, MaxLineLen)}
}

// ReadLine returns one line without its newline.
func (r *Reader) ReadLine() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
		return line[:len(line)-1], nil
	case errors.Is(err, bufio.ErrBufferFull):
		// Skip to the end of the oversized line so the next one parses.
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = r.br.ReadSlice('\n')
		}
		if err != nil {
			return nil, err
		}
		return nil, ErrLineTooLong
	case errors.Is(err, io.EOF) && len(line) > 0:
		return nil, io.ErrUnexpectedEOF
	default:
		return nil, err
	}
}

// ReadMessage reads and parses one line.
func (r *Reader) ReadMessage() (Message, error) {
	line, err := r.ReadLine()
	if err != nil {
		return Message{}, err
	}
	return ParseLine(line)
}

// IsLineError tells whether err concerns one bad line (the stream goes on).
func IsLineError(err error) bool {
	return errors.Is(err, ErrSyntax) || errors.Is(err, ErrLineTooLong)
}
