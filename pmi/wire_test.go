package pmi

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLineValid(t *testing.T) {
	cases := []struct {
		in   string
		want Message
	}{
		{"cmd=init pmi_version=1 pmi_subversion=1\n",
			NewMessage("init", "pmi_version", "1", "pmi_subversion", "1")},
		{"cmd=barrier_in", NewMessage("barrier_in")},
		{"cmd=get_result rc=0 msg=success value=a=b==\n",
			NewMessage("get_result", "rc", "0", "msg", "success", "value", "a=b==")},
		{"cmd=put kvsname=k key=x value=\n", NewMessage("put", "kvsname", "k", "key", "x", "value", "")},
		{"cmd=abort exitcode=3 message=it\\ broke\\\\here  \n",
			NewMessage("abort", "exitcode", "3", "message", `it broke\here`)},
		{"cmd=set   size=4", NewMessage("set", "size", "4")},
		{"cmd=x a/b-c_D=(vector,(0,1,4))", NewMessage("x", "a/b-c_D", "(vector,(0,1,4))")},
	}
	for _, c := range cases {
		m, err := ParseLine([]byte(c.in))
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want.Cmd, m.Cmd, c.in)
		assert.Equal(t, len(c.want.Args), len(m.Args), c.in)
		for _, a := range c.want.Args {
			v, ok := m.Get(a.Key)
			assert.True(t, ok, "%s: %s", c.in, a.Key)
			assert.Equal(t, a.Value, v, c.in)
		}
	}
}

func TestParseLineRejects(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	bad := []string{
		"",
		"\n",
		"   ",
		" cmd=init",
		"cmd=",
		"cmd",
		"mcmd=spawn",
		"key=v cmd=init",
		"cmd=init cmd=put",
		"cmd=init a=1 a=2",
		"cmd=init novalue",
		"cmd=init =v",
		"cmd=init a.b=1",
		"cmd=init a=b\tc",
		"cmd=init a=\x00",
		"cmd=init a=\xff",
		"cmd=init a=b\nc",
		"cmd=init a=b\\",
		"cmd=init a=b\\x",
		"cmd=in\\ it",
		"cmd=init " + long(MaxKeyLen+1) + "=1",
		"cmd=init k=" + long(MaxValueLen+1),
		"cmd=x" + strings.Repeat(" a=b", 1) + strings.Repeat(" ", MaxLineLen),
	}
	for _, s := range bad {
		_, err := ParseLine([]byte(s))
		assert.Error(t, err, "%q", s)
		assert.True(t, IsLineError(err), "%q: %v", s, err)
	}
	var args []string
	for i := 0; i <= maxArgs; i++ {
		args = append(args, fmt.Sprintf("k%d=1", i))
	}
	_, err := ParseLine([]byte("cmd=x " + strings.Join(args, " ")))
	assert.Error(t, err)
}

func TestParseLineLimitsExact(t *testing.T) {
	key := strings.Repeat("k", MaxKeyLen)
	val := strings.Repeat("v", MaxValueLen)
	m, err := ParseLine([]byte("cmd=put " + key + "=" + val))
	require.NoError(t, err)
	v, _ := m.Get(key)
	assert.Equal(t, val, v)

	// A line of exactly MaxLineLen bytes with its newline parses; one more does not.
	pad := MaxLineLen - len("cmd=x\n")
	ok := "cmd=x" + strings.Repeat(" ", pad) + "\n"
	_, err = ParseLine([]byte(ok))
	assert.NoError(t, err)
	_, err = ParseLine([]byte("cmd=x" + strings.Repeat(" ", pad+1) + "\n"))
	assert.ErrorIs(t, err, ErrLineTooLong)
}

func TestAppendLineRoundTrip(t *testing.T) {
	m := NewMessage("abort", "exitcode", "2", "message", `a b\c=d`)
	b, err := m.AppendLine(nil)
	require.NoError(t, err)
	assert.Equal(t, "cmd=abort exitcode=2 message=a\\ b\\\\c=d\n", string(b))
	back, err := ParseLine(b)
	require.NoError(t, err)
	assert.Equal(t, m, back)
	assert.Equal(t, "cmd=abort exitcode=2 message=a\\ b\\\\c=d", m.String())
}

func TestAppendLineRejects(t *testing.T) {
	bad := []Message{
		{Cmd: ""},
		{Cmd: "a b"},
		{Cmd: "x", Args: []Arg{{"cmd", "1"}}},
		{Cmd: "x", Args: []Arg{{"", "1"}}},
		{Cmd: "x", Args: []Arg{{"a=b", "1"}}},
		{Cmd: "x", Args: []Arg{{"a", "1"}, {"a", "2"}}},
		{Cmd: "x", Args: []Arg{{"a", "\n"}}},
		{Cmd: "x", Args: []Arg{{"a", strings.Repeat("v", MaxValueLen+1)}}},
		{Cmd: "x", Args: []Arg{{strings.Repeat("k", MaxKeyLen+1), "1"}}},
	}
	for _, m := range bad {
		b, err := m.AppendLine([]byte("keep"))
		assert.Error(t, err, "%#v", m)
		assert.Equal(t, "keep", string(b), "buffer restored on error")
	}
	// Many long escaped values overflow the line even though each fits.
	var m Message
	m.Cmd = "x"
	for i := 0; i < 5; i++ {
		m.Args = append(m.Args, Arg{string(rune('a' + i)), strings.Repeat(" ", MaxValueLen)})
	}
	_, err := m.AppendLine(nil)
	assert.ErrorIs(t, err, ErrLineTooLong)
}

func TestReaderRecoversAfterBadLines(t *testing.T) {
	in := "cmd=init pmi_version=1\n" +
		strings.Repeat("x", 3*MaxLineLen) + "\n" +
		"garbage\n" +
		"cmd=barrier_in\n" +
		"cmd=partial"
	r := NewReader(strings.NewReader(in))
	m, err := r.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "init", m.Cmd)
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, ErrLineTooLong)
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, ErrSyntax)
	m, err = r.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "barrier_in", m.Cmd)
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.False(t, IsLineError(err))
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, io.EOF)
}

func TestMessageInt(t *testing.T) {
	m := NewMessage("set", "size", "12", "bad", "x")
	n, err := m.Int("size")
	require.NoError(t, err)
	assert.Equal(t, 12, n)
	_, err = m.Int("bad")
	assert.Error(t, err)
	_, err = m.Int("missing")
	assert.Error(t, err)
}

// FuzzParseLine: never panic; whatever parses re-encodes and parses back to
// the same message, within the same limits.
func FuzzParseLine(f *testing.F) {
	seeds := []string{
		"cmd=init pmi_version=1 pmi_subversion=1\n",
		"cmd=put kvsname=kvs_1 key=btl.sm value=abc==\n",
		"cmd=get_result rc=0 msg=success value=x\n",
		"cmd=abort exitcode=3 message=a\\ b\n",
		"cmd=x a=\\\\ b=\n",
		"mcmd=spawn\nendcmd\n",
		"cmd=init  a=1\x00",
		" cmd=x",
		"",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := ParseLine(line)
		if err != nil {
			if !IsLineError(err) {
				t.Fatalf("error not a line error: %v", err)
			}
			return
		}
		b, err := m.AppendLine(nil)
		if err != nil {
			t.Fatalf("parsed %q but cannot encode: %v", line, err)
		}
		if len(b) > MaxLineLen {
			t.Fatalf("encoded line of %d bytes", len(b))
		}
		back, err := ParseLine(b)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", b, err)
		}
		if back.Cmd != m.Cmd || len(back.Args) != len(m.Args) {
			t.Fatalf("round trip changed %q -> %q", line, b)
		}
		for i := range m.Args {
			if back.Args[i] != m.Args[i] {
				t.Fatalf("round trip changed arg %d: %q -> %q", i, m.Args[i], back.Args[i])
			}
		}
		// The stream reader agrees with ParseLine on the same line.
		if !bytes.ContainsAny(line, "\n") {
			rm, err := NewReader(bytes.NewReader(append(append([]byte{}, line...), '\n'))).ReadMessage()
			if err != nil || rm.Cmd != m.Cmd {
				t.Fatalf("reader disagrees on %q: %v", line, err)
			}
		}
	})
}
