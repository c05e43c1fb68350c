package launcher

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Stream identifies a rank's output stream.
type Stream int

const (
	Stdout Stream = iota
	Stderr
)

func (s Stream) String() string {
	if s == Stdout {
		return "stdout"
	}
	return "stderr"
}

// Output merges the ranks' output into the launcher's own stdout and stderr
// in whole lines, so lines of different ranks never interleave.
type Output struct {
	mu     sync.Mutex
	out    [2]io.Writer
	tag    bool
	broken [2]bool // write failed (e.g. reader of our stdout went away): drop

	Timestamps bool // --timestamp-output: each line starts with the time
	Quiet      bool // --quiet: Messagef prints nothing
}

// NewOutput writes to stdout and stderr; tag adds [1,rank]<stream>: prefixes.
func NewOutput(stdout, stderr io.Writer, tag bool) *Output {
	return &Output{out: [2]io.Writer{stdout, stderr}, tag: tag}
}

// Tag is the prefix for rank's lines on stream s (Open MPI's format).
func Tag(rank int, s Stream) string {
	return fmt.Sprintf("[1,%d]<%s>:", rank, s)
}

func (o *Output) write(s Stream, parts ...[]byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken[s] {
		return
	}
	// One Write per line keeps it whole even if the destination is shared.
	var line []byte
	if len(parts) == 1 {
		line = parts[0]
	} else {
		line = bytes.Join(parts, nil)
	}
	if _, err := o.out[s].Write(line); err != nil {
		o.broken[s] = true
	}
}

// Messagef prints one gompirun message line on stderr.
func (o *Output) Messagef(format string, args ...any) {
	if !o.Quiet {
		o.message(format, args...)
	}
}

func (o *Output) message(format string, args ...any) {
	msg := fmt.Sprintf("gompirun: "+format, args...)
	if msg == "" || msg[len(msg)-1] != '\n' {
		msg += "\n"
	}
	o.write(Stderr, []byte(msg))
}

// partialFlushDelay: a line without its newline (a prompt) is shown after
// this much silence rather than held back forever.
const partialFlushDelay = 200 * time.Millisecond

// maxLine: longer lines are passed on in pieces of this size.
const maxLine = 64 << 10

type deadliner interface {
	SetReadDeadline(time.Time) error
}

// Forward copies r (one rank's stream) line by line until EOF or a read error.
func (o *Output) Forward(r io.Reader, rank int, s Stream) {
	tag := []byte(Tag(rank, s))
	if !o.tag {
		tag = nil
	}
	prefixed := o.tag || o.Timestamps
	var stamp []byte
	prefix := func() []byte {
		if !o.Timestamps {
			return tag
		}
		stamp = append(time.Now().AppendFormat(stamp[:0], stampFormat), tag...)
		return stamp
	}
	buf := make([]byte, 0, maxLine)
	midLine := false // we already printed the start of the current line
	var tagged []byte
	dl, canWait := r.(deadliner)
	emit := func(chunk []byte, complete bool) {
		if prefixed && !midLine {
			o.write(s, prefix(), chunk)
		} else {
			o.write(s, chunk)
		}
		midLine = !complete
	}
	for {
		if canWait {
			if len(buf) > 0 {
				dl.SetReadDeadline(time.Now().Add(partialFlushDelay))
			} else {
				dl.SetReadDeadline(time.Time{})
			}
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		// Emit every complete line, all in one write.
		if last := bytes.LastIndexByte(buf, '\n'); last >= 0 {
			lines := buf[:last+1]
			if prefixed {
				tagged = tagged[:0]
				if midLine {
					i := bytes.IndexByte(lines, '\n')
					tagged = append(tagged, lines[:i+1]...)
					lines = lines[i+1:]
				}
				for len(lines) > 0 {
					i := bytes.IndexByte(lines, '\n')
					tagged = append(tagged, prefix()...)
					tagged = append(tagged, lines[:i+1]...)
					lines = lines[i+1:]
				}
				o.write(s, tagged)
			} else {
				o.write(s, lines)
			}
			midLine = false
			buf = append(buf[:0], buf[last+1:]...)
		}
		if len(buf) == cap(buf) {
			emit(buf, false)
			buf = buf[:0]
		}
		if err == nil {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if len(buf) > 0 {
				emit(buf, false)
				buf = buf[:0]
			}
			continue
		}
		// EOF or error: flush the unterminated rest; tagged lines get their
		// newline so the next rank's tag starts a line.
		if len(buf) > 0 {
			if prefixed {
				buf = append(buf, '\n')
			}
			emit(buf, true)
		} else if midLine && prefixed {
			o.write(s, []byte("\n"))
		}
		return
	}
}
