package launcher

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/testtime"
)

// lockedBuf records each Write separately.
type lockedBuf struct {
	mu     sync.Mutex
	writes []string
}

func (b *lockedBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes = append(b.writes, string(p))
	return len(p), nil
}

func (b *lockedBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.writes, "")
}

func TestTag(t *testing.T) {
	assert.Equal(t, "[1,0]<stdout>:", Tag(0, Stdout))
	assert.Equal(t, "[1,12]<stderr>:", Tag(12, Stderr))
}

func TestForwardTagsWholeLines(t *testing.T) {
	var out, errb lockedBuf
	o := NewOutput(&out, &errb, true)
	o.Forward(strings.NewReader("a\nbb\n\nlast"), 3, Stdout)
	o.Forward(strings.NewReader("e1\n"), 1, Stderr)
	assert.Equal(t, []string{"[1,3]<stdout>:a\n[1,3]<stdout>:bb\n[1,3]<stdout>:\n", "[1,3]<stdout>:last\n"}, out.writes,
		"complete lines of one read go out in one write")
	assert.Equal(t, []string{"[1,1]<stderr>:e1\n"}, errb.writes)
}

func TestForwardUntagged(t *testing.T) {
	var out lockedBuf
	o := NewOutput(&out, io.Discard, false)
	o.Forward(strings.NewReader("x\ny"), 0, Stdout)
	assert.Equal(t, []string{"x\n", "y"}, out.writes, "no newline invented without tags")
}

// slowReader returns its chunks one Read at a time.
type slowReader struct{ chunks []string }

func (s *slowReader) Read(p []byte) (int, error) {
	if len(s.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.chunks[0])
	s.chunks = s.chunks[1:]
	return n, nil
}

func TestForwardJoinsSplitLines(t *testing.T) {
	var out lockedBuf
	o := NewOutput(&out, io.Discard, true)
	o.Forward(&slowReader{[]string{"hel", "lo\nwor", "ld\n"}}, 0, Stdout)
	assert.Equal(t, []string{"[1,0]<stdout>:hello\n", "[1,0]<stdout>:world\n"}, out.writes)
	out.writes = nil
	o.Forward(&slowReader{[]string{"a", "b\nc\nd", "\n"}}, 1, Stdout)
	assert.Equal(t, []string{"[1,1]<stdout>:ab\n[1,1]<stdout>:c\n", "[1,1]<stdout>:d\n"}, out.writes)
}

func TestForwardLongLineInPieces(t *testing.T) {
	var out lockedBuf
	o := NewOutput(&out, io.Discard, true)
	long := strings.Repeat("z", maxLine+10)
	o.Forward(strings.NewReader(long+"\nnext\n"), 0, Stdout)
	require.Len(t, out.writes, 2)
	assert.True(t, out.writes[0] == "[1,0]<stdout>:"+long[:maxLine], "first piece tagged")
	assert.True(t, out.writes[1] == long[maxLine:]+"\n[1,0]<stdout>:next\n", "continuation untagged")
}

func TestForwardFlushesPromptAfterSilence(t *testing.T) {
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	var out lockedBuf
	o := NewOutput(&out, io.Discard, true)
	done := make(chan struct{})
	go func() { o.Forward(pr, 2, Stdout); close(done) }()
	pw.Write([]byte("Enter value: "))
	assert.Eventually(t, func() bool { return out.String() == "[1,2]<stdout>:Enter value: " },
		testtime.D(30*time.Second), 10*time.Millisecond)
	pw.Write([]byte("42\n"))
	pw.Close()
	<-done
	assert.Equal(t, "[1,2]<stdout>:Enter value: 42\n", out.String())
}

func TestConcurrentRanksNeverInterleaveLines(t *testing.T) {
	var out bytes.Buffer
	o := NewOutput(&out, io.Discard, true)
	var wg sync.WaitGroup
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := strings.Repeat(string(rune('a'+r)), 1000) + "\n"
			var chunks []string
			s := strings.Repeat(line, 200)
			for len(s) > 0 { // awkward chunk sizes split lines everywhere
				n := min(len(s), 777)
				chunks = append(chunks, s[:n])
				s = s[n:]
			}
			o.Forward(&slowReader{chunks}, r, Stdout)
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	assert.Len(t, lines, 800)
	for _, l := range lines {
		require.Len(t, l, len("[1,0]<stdout>:")+1000)
		r := l[3] - '0'
		assert.Equal(t, strings.Repeat(string(rune('a'+r)), 1000), l[len("[1,0]<stdout>:"):])
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("broken pipe")
}

func TestBrokenDestinationIsDropped(t *testing.T) {
	fw := &failWriter{}
	o := NewOutput(fw, io.Discard, false)
	o.Forward(strings.NewReader("a\nb\nc\n"), 0, Stdout)
	assert.Equal(t, 1, fw.n, "after the first failure lines are dropped, the rank is still drained")
}

func TestMessagef(t *testing.T) {
	var errb lockedBuf
	o := NewOutput(io.Discard, &errb, true)
	o.Messagef("rank %d died", 3)
	assert.Equal(t, []string{"gompirun: rank 3 died\n"}, errb.writes)
}
