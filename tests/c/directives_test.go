package ctests

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// spec is what a test program's directive comments ask for (see README.md).
type spec struct {
	nps     []int
	timeout time.Duration
	args    []string
	env     []string

	exit          string   // "0", "nonzero" or a number
	stderrMatch   []string // patterns, before placeholder expansion
	stderrNot     []string
	stdoutMatch   []string
	stdoutNot     []string
	stdoutPerRank []string
	maxTime       time.Duration // 0: no limit beyond the timeout
}

const defaultTimeout = 60 * time.Second

func parseSpecFile(path string) (*spec, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := parseSpec(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// parseSpec reads the directives from the comments at the top of a program,
// each a one-line /* gompi-KIND: ... */, up to its first line of code.
func parseSpec(text string) (*spec, error) {
	s := &spec{timeout: defaultTimeout, exit: "0"}
	sawTest := false
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		if !strings.HasPrefix(line, "/*") {
			break
		}
		body := strings.TrimSpace(strings.TrimPrefix(line, "/*"))
		oneLine := strings.HasSuffix(line, "*/")
		if !strings.HasPrefix(body, "gompi-") {
			for !oneLine && i+1 < len(lines) && !strings.Contains(lines[i], "*/") {
				i++
			}
			continue
		}
		if !oneLine {
			return nil, fmt.Errorf("line %d: a directive must fit on one line", i+1)
		}
		kind, rest, ok := strings.Cut(strings.TrimSpace(strings.TrimSuffix(body, "*/")), ":")
		if !ok {
			return nil, fmt.Errorf("line %d: directive without a colon", i+1)
		}
		rest = strings.TrimSpace(rest)
		var err error
		switch kind {
		case "gompi-test":
			sawTest = true
			err = s.parseTest(rest)
		case "gompi-expect":
			err = s.parseExpect(rest)
		case "gompi-args":
			s.args = append(s.args, strings.Fields(rest)...)
		case "gompi-env":
			for _, kv := range strings.Fields(rest) {
				if !strings.Contains(kv, "=") {
					err = fmt.Errorf("%q is not VAR=value", kv)
				}
				s.env = append(s.env, kv)
			}
		default:
			err = fmt.Errorf("unknown directive %q", kind)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", i+1, kind, err)
		}
	}
	if !sawTest {
		return nil, fmt.Errorf("no /* gompi-test: np=... */ directive at the top")
	}
	return s, nil
}

func (s *spec) parseTest(body string) error {
	items, err := splitItems(body)
	if err != nil {
		return err
	}
	for _, it := range items {
		switch {
		case it.key == "np" && it.op == "=":
			s.nps = nil
			for _, f := range strings.Split(it.val, ",") {
				n, err := strconv.Atoi(f)
				if err != nil || n < 1 {
					return fmt.Errorf("bad process count %q", f)
				}
				s.nps = append(s.nps, n)
			}
		case it.key == "timeout" && it.op == "=":
			n, err := strconv.Atoi(it.val)
			if err != nil || n < 1 {
				return fmt.Errorf("bad timeout %q", it.val)
			}
			s.timeout = time.Duration(n) * time.Second
		default:
			return fmt.Errorf("unknown item %s%s", it.key, it.op)
		}
	}
	if len(s.nps) == 0 {
		return fmt.Errorf("no np=")
	}
	return nil
}

func (s *spec) parseExpect(body string) error {
	items, err := splitItems(body)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.op != "=" {
			// Check the pattern now, with placeholders filled, so a typo fails at once.
			if _, err := regexp.Compile(expand(it.val, 1, 0)); err != nil {
				return err
			}
		}
		switch it.key + it.op {
		case "exit=":
			if _, err := strconv.Atoi(it.val); err != nil && it.val != "nonzero" {
				return fmt.Errorf("exit must be a number or nonzero, not %q", it.val)
			}
			s.exit = it.val
		case "maxtime=":
			n, err := strconv.ParseFloat(it.val, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("bad maxtime %q", it.val)
			}
			s.maxTime = time.Duration(n * float64(time.Second))
		case "stderr=~":
			s.stderrMatch = append(s.stderrMatch, it.val)
		case "stderr!~":
			s.stderrNot = append(s.stderrNot, it.val)
		case "stdout=~":
			s.stdoutMatch = append(s.stdoutMatch, it.val)
		case "stdout!~":
			s.stdoutNot = append(s.stdoutNot, it.val)
		case "stdout-per-rank=~":
			s.stdoutPerRank = append(s.stdoutPerRank, it.val)
		default:
			return fmt.Errorf("unknown item %s%s", it.key, it.op)
		}
	}
	return nil
}

type item struct{ key, op, val string }

// splitItems splits `key=value key=~"pattern" key!~"pattern"`; a quoted value
// ends at the next unescaped quote and only \" is unescaped, so patterns keep
// their backslashes.
func splitItems(body string) ([]item, error) {
	var items []item
	for body = strings.TrimSpace(body); body != ""; body = strings.TrimSpace(body) {
		k := strings.IndexFunc(body, func(r rune) bool { return r == '=' || r == '!' })
		if k <= 0 {
			return nil, fmt.Errorf("expected key=value at %q", body)
		}
		it := item{key: body[:k]}
		body = body[k:]
		switch {
		case strings.HasPrefix(body, "=~"), strings.HasPrefix(body, "!~"):
			it.op, body = body[:2], body[2:]
		case strings.HasPrefix(body, "="):
			it.op, body = "=", body[1:]
		default:
			return nil, fmt.Errorf("expected =, =~ or !~ after %q", it.key)
		}
		if strings.HasPrefix(body, `"`) {
			end := 1
			for end < len(body) && (body[end] != '"' || body[end-1] == '\\') {
				end++
			}
			if end == len(body) {
				return nil, fmt.Errorf("unterminated quote after %s%s", it.key, it.op)
			}
			it.val, body = strings.ReplaceAll(body[1:end], `\"`, `"`), body[end+1:]
		} else {
			end := strings.IndexAny(body, " \t")
			if end < 0 {
				end = len(body)
			}
			it.val, body = body[:end], body[end:]
		}
		items = append(items, it)
	}
	return items, nil
}

// expand fills the placeholders {np}, {last} (np-1) and {rank}.
func expand(s string, np, rank int) string {
	return strings.NewReplacer("{np}", strconv.Itoa(np), "{last}", strconv.Itoa(np-1),
		"{rank}", strconv.Itoa(rank)).Replace(s)
}
