package mpi

import (
	"bufio"
	"os"
	"strings"

	"gompi/mpit"
)

// settings come from GOMPI_* environment variables, then from the tuning file
// named by GOMPI_TUNE_FILE (written by `gompirun --tune`); the environment wins.
type settings map[string]string

func loadSettings() settings {
	s := settings{}
	if f := os.Getenv("GOMPI_TUNE_FILE"); f != "" {
		if fh, err := os.Open(f); err == nil {
			sc := bufio.NewScanner(fh)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" || line[0] == '#' {
					continue
				}
				if k, v, ok := strings.Cut(line, "="); ok {
					s[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			fh.Close()
		}
	}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "GOMPI_") {
			s[k] = v
		}
	}
	return s
}

// size parses a byte count with an optional k/m/g suffix.
func (s settings) size(key string, def int) int {
	n, ok := mpit.ParseSize(s[key])
	if !ok || n < 0 {
		return def
	}
	return n
}

func (s settings) str(key, def string) string {
	if v, ok := s[key]; ok && v != "" {
		return v
	}
	return def
}
