package tune

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Result is what one gompitune run reports (as JSON): both modes measured in
// one job, interleaved, for one placement of its two ranks. The sends of
// rank GetRank use single copy; those of the other rank copy in and out.
type Result struct {
	GetRank    int     `json:"get_rank"`
	CPUs       [2]int  `json:"cpus"`        // CPU of rank 0 and 1; -1 when not bound to one
	Packages   [2]int  `json:"packages"`    // their sockets; -1 when unknown
	SameSocket bool    `json:"same_socket"` // as the library sees it (hitopo)
	CMA        bool    `json:"cma"`         // rank 0 could process_vm_readv rank 1
	CMAError   string  `json:"cma_error,omitempty"`
	EagerLimit int     `json:"eager_limit"` // largest eager message; both modes are equal up to it
	Window     int     `json:"window"`      // messages in flight in the bandwidth test
	Received   [2]Recv `json:"received"`    // rendezvous messages each rank received, by protocol
	// Verified: every rendezvous message took the protocol its sender's mode
	// asked for, so Off and On measure what they say.
	Verified bool    `json:"verified"`
	Seconds  float64 `json:"seconds"`
	Off      []Point `json:"off"` // copy-in/copy-out
	On       []Point `json:"on"`  // single copy
}

// Recv counts a rank's received rendezvous messages by protocol.
type Recv struct {
	Get  uint64 `json:"get"`  // single copy
	Pipe uint64 `json:"pipe"` // copy-in/copy-out fragments
}

// Sizes returns the message sizes from lo to hi (both included), steps per
// doubling, each rounded to a multiple of 1 KiB from 1 KiB up.
func Sizes(lo, hi, steps int) []int {
	if lo <= 0 || hi < lo || steps <= 0 {
		return nil
	}
	var out []int
	for base := lo; base <= hi; base *= 2 {
		for k := 0; k < steps; k++ {
			s := base
			if k > 0 {
				s = int(float64(base) * math.Exp2(float64(k)/float64(steps)))
			}
			if s >= 1024 {
				s = s / 1024 * 1024
			}
			if s > hi {
				break
			}
			if len(out) == 0 || s > out[len(out)-1] {
				out = append(out, s)
			}
		}
	}
	return out
}

// ParseSize reads a byte count with an optional k/m/g suffix (powers of
// 1024), as the library's settings do.
func ParseSize(s string) (int, error) {
	v := strings.TrimSpace(s)
	mult := 1
	if v != "" {
		switch v[len(v)-1] {
		case 'k', 'K':
			mult, v = 1<<10, v[:len(v)-1]
		case 'm', 'M':
			mult, v = 1<<20, v[:len(v)-1]
		case 'g', 'G':
			mult, v = 1<<30, v[:len(v)-1]
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("size %q: want a byte count such as 65536, 64k or 8m", s)
	}
	return n * mult, nil
}

// FormatSize writes n with the largest exact k/m/g suffix, as ParseSize reads.
func FormatSize(n int) string {
	switch {
	case n > 0 && n%(1<<30) == 0:
		return strconv.Itoa(n>>30) + "g"
	case n > 0 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "m"
	case n > 0 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "k"
	}
	return strconv.Itoa(n)
}

// HumanSize is n for people, exactly: 16 KiB, 1448 KiB, 8 MiB, 100 B.
func HumanSize(n int) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " B"
}
