package tune

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Keys of the tuning file that --tune writes.
const (
	KeySame  = "GOMPI_SM_GET_MIN_SAME"
	KeyCross = "GOMPI_SM_GET_MIN_CROSS"
	// EnvFile names the tuning file the library reads.
	EnvFile = "GOMPI_TUNE_FILE"
)

// NeverSize is written when single copy never wins: no message reaches it,
// so the library always copies in and out. (0 would mean "default".)
const NeverSize = 1 << 30

// DefaultPath is $XDG_CONFIG_HOME/gompi/tune.conf, or
// $HOME/.config/gompi/tune.conf when XDG_CONFIG_HOME is unset or relative
// (the XDG rule).
func DefaultPath(getenv func(string) string) (string, error) {
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "gompi", "tune.conf"), nil
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "gompi", "tune.conf"), nil
	}
	return "", errors.New("neither XDG_CONFIG_HOME nor HOME is an absolute path")
}

// Setting is one KEY=value line.
type Setting struct{ Key, Value string }

// Parse reads a tuning file as the library does: KEY=value lines, blanks and
// '#' comments ignored, spaces around key and value trimmed. Lines without
// '=' are an error here (the library skips them) so --tune notices a damaged
// file instead of silently dropping it.
func Parse(b []byte) ([]Setting, error) {
	var out []Setting
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("line %d: %q is not KEY=value", n, line)
		}
		out = append(out, Setting{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	return out, sc.Err()
}

// Render writes a tuning file: comment lines (each prefixed "# "), then the
// settings.
func Render(comments []string, settings []Setting) []byte {
	var b bytes.Buffer
	for _, c := range comments {
		if c == "" {
			b.WriteString("#\n")
			continue
		}
		b.WriteString("# " + c + "\n")
	}
	for _, s := range settings {
		fmt.Fprintf(&b, "%s=%s\n", s.Key, s.Value)
	}
	return b.Bytes()
}

// Merge returns settings followed by the old file's settings whose keys
// settings does not set, so hand-written lines (GOMPI_EAGER_LIMIT=...)
// survive a new --tune. Old comments are dropped: they described the old
// measurement.
func Merge(old, settings []Setting) []Setting {
	set := map[string]bool{}
	for _, s := range settings {
		set[s.Key] = true
	}
	out := append([]Setting(nil), settings...)
	for _, s := range old {
		if !set[s.Key] {
			set[s.Key] = true
			out = append(out, s)
		}
	}
	return out
}

// Write replaces the tuning file at path (creating its directory), keeping
// settings of an existing file that the new ones do not override. The file
// is written to a temporary name and renamed, so a rank starting meanwhile
// reads the old or the new file, never half of one.
func Write(path string, comments []string, settings []Setting) error {
	if old, err := os.ReadFile(path); err == nil {
		prev, err := Parse(old)
		if err != nil {
			return fmt.Errorf("existing %s: %v (fix or remove it)", path, err)
		}
		kept := Merge(prev, settings)
		if len(kept) > len(settings) {
			comments = append(comments, "", "Settings after the measured ones were kept from the previous file.")
		}
		settings = kept
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tune.conf-*")
	if err != nil {
		return err
	}
	_, err = f.Write(Render(comments, settings))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
