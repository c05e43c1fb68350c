package modex

import (
	"fmt"
	"os"
	"time"
)

// Stats is what the exchange cost this process.
type Stats struct {
	Rank, Size, Nodes int
	Mode              string // "fetch-all" or "node-map"

	CardBytes  int // this process's card, binary
	CardChars  int // the same as PMI text, all chunks
	CardChunks int

	// This node's card; zero unless this process leads a node with node data.
	NodeCardBytes int
	NodeCardChars int

	Puts, Gets, Barriers int // PMI round trips by kind, lookups included
	CardsFetched         int
	ExchangeTime         time.Duration
}

// RoundTrips is the number of PMI requests made so far.
func (s Stats) RoundTrips() int { return s.Puts + s.Gets + s.Barriers }

func (s Stats) String() string {
	return fmt.Sprintf("modex rank %d/%d: %d nodes, %s; card %d B (%d chars, %d chunks), node card %d B (%d chars); "+
		"%d PMI round trips (%d put, %d get, %d barrier), %d cards fetched; exchange %v",
		s.Rank, s.Size, s.Nodes, s.Mode, s.CardBytes, s.CardChars, s.CardChunks,
		s.NodeCardBytes, s.NodeCardChars, s.RoundTrips(), s.Puts, s.Gets, s.Barriers,
		s.CardsFetched, s.ExchangeTime.Round(time.Microsecond))
}

// Stats returns the costs so far.
func (m *Modex) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

// DebugEnabled reports whether GOMPI_MODEX_DEBUG=1 asks the library to print
// Stats after the exchange.
func DebugEnabled() bool { return os.Getenv("GOMPI_MODEX_DEBUG") == "1" }
