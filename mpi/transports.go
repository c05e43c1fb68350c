package mpi

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gompi/btl"
	"gompi/btl/ofi"
	"gompi/btl/sm"
	"gompi/modex"
	"gompi/pml"
)

// transport is how the runtime brings up one transport between processes
// (btl/self needs none of this). Every transport has the same shape: after
// the modex, prepare opens it when the job needs it and returns a card to
// publish; one PMI barrier for all of them; then connect reads the peers'
// cards and routes the peers it reaches through the engine. Waiting is the
// engine's: a transport that can sleep until its traffic arrives is an
// Idler (pml/wait.go).
type transport interface {
	name() string
	// prepare opens the transport if this process needs it; card ("" none)
	// is published under the transport's name for the others.
	prepare() (use bool, card string, err error)
	// connect routes the peers the transport reaches; card reads another
	// rank's published card.
	connect(eng *pml.Engine, card func(rank int) (string, error)) error
	// shutdown runs at the end, before the PMI client is finalized.
	shutdown()
}

// transports in the order they take peers: the node's shared memory first,
// the network for every rank of another node.
var transports = []transport{&smTransport{}, &ofiTransport{}}

func cardKey(t transport, rank int) string { return "gompi_" + t.name() + "_" + strconv.Itoa(rank) }

// openTransports runs the transports' shape and checks that every rank is
// reachable.
func openTransports(eng *pml.Engine) error {
	used := make([]bool, len(transports))
	for i, t := range transports {
		use, card, err := t.prepare()
		if err != nil {
			return err
		}
		used[i] = use
		if card != "" {
			if err := st.pmi.Put(cardKey(t, st.rank), card); err != nil {
				return err
			}
		}
	}
	// Every rank takes part, whichever transports it uses itself.
	if st.size > 1 {
		if err := st.pmi.Barrier(); err != nil {
			return err
		}
	}
	for i, t := range transports {
		if !used[i] {
			continue
		}
		t := t
		err := t.connect(eng, func(r int) (string, error) {
			return st.pmi.Get(cardKey(t, r))
		})
		if err != nil {
			return err
		}
	}
	for r := 0; r < st.size; r++ {
		if !eng.Routes(r) {
			return fmt.Errorf("no transport reaches rank %d", r)
		}
	}
	return nil
}

func closeTransports() {
	for i := len(transports) - 1; i >= 0; i-- {
		transports[i].shutdown()
	}
}

// smTransport: one shared segment per node, created by the node's lowest
// rank, whose card says where it is open.
type smTransport struct{ cfg sm.Config }

func (t *smTransport) name() string { return "sm" }

func (t *smTransport) prepare() (bool, string, error) {
	if len(st.local) < 2 {
		return false, "", nil
	}
	cfg, err := prepareSM()
	if err != nil {
		return false, "", err
	}
	t.cfg = cfg
	return true, cfg.Segment, nil
}

func (t *smTransport) connect(eng *pml.Engine, card func(int) (string, error)) error {
	if t.cfg.Segment == "" {
		loc, err := card(st.local[0])
		if err != nil {
			return fmt.Errorf("the node leader's shared-memory segment: %w", err)
		}
		t.cfg.Segment = loc
	}
	return openSM(eng, t.cfg)
}

func (t *smTransport) shutdown() {
	if st.sm != nil {
		st.sm.Close()
	}
}

// ofiTransport: the network, opened only when the job spans nodes; its card
// is the endpoint's address.
type ofiTransport struct{ m *ofi.Module }

func (t *ofiTransport) name() string { return "ofi" }

func (t *ofiTransport) prepare() (bool, string, error) {
	if st.modex.Nodes() < 2 {
		return false, "", nil
	}
	// Nodes split out of one machine talk over its loopback.
	dom := st.settings.str("GOMPI_OFI_DOMAIN", "")
	if dom == "" && st.settings.str("GOMPI_NODE_SPLIT", "") != "" {
		dom = "lo"
	}
	m, err := ofi.Open(ofi.Config{Provider: st.settings.str("GOMPI_OFI_PROVIDER", ""), Domain: dom, Me: st.rank, Size: st.size,
		SlotBytes: st.settings.size("GOMPI_OFI_BUFFER", 0), Check: st.eng.CheckFrag,
		GetMin: st.settings.size("GOMPI_OFI_READ_MIN", 0), NoRead: st.settings.str("GOMPI_OFI_READ", "1") == "0",
		NoInject:  st.settings.str("GOMPI_OFI_INJECT", "1") == "0",
		ReadChunk: st.settings.size("GOMPI_OFI_READ_CHUNK", 0), ReadsInFlight: st.settings.size("GOMPI_OFI_READS", 0)}, st.eng.Handler())
	if err != nil {
		return false, "", fmt.Errorf("the network transport: %w", err)
	}
	addr, err := m.Address()
	if err != nil {
		m.Close()
		return false, "", err
	}
	t.m = m
	return true, ofiCard(m.Provider(), addr), nil
}

func (t *ofiTransport) connect(eng *pml.Engine, card func(int) (string, error)) error {
	me := st.modex.NodeOf(st.rank)
	var peers []int
	for r := 0; r < st.size; r++ {
		if st.modex.NodeOf(r) == me {
			continue
		}
		c, err := card(r)
		if err != nil {
			return fmt.Errorf("rank %d's network address: %w", r, err)
		}
		addr, err := parseOFICard(c, t.m.Provider())
		if err != nil {
			return fmt.Errorf("rank %d's network address: %w", r, err)
		}
		if err := t.m.Connect(r, addr); err != nil {
			return err
		}
		peers = append(peers, r)
	}
	eng.AddTransport(btl.Module(t.m), peers)
	return nil
}

// ofiCard is "provider/hex address". A layered provider's name has a ';'
// ("tcp;ofi_rxm") that Slurm's PMI-2 server would take for a field
// separator (it knows no escape): the card writes it as '+'.
func ofiCard(prov string, addr []byte) string {
	return strings.ReplaceAll(prov, ";", "+") + "/" + hex.EncodeToString(addr)
}

// parseOFICard reads an ofiCard; both ends must use the same provider.
func parseOFICard(c, prov string) ([]byte, error) {
	for i := len(c) - 1; i >= 0; i-- {
		if c[i] == '/' {
			if theirs := strings.ReplaceAll(c[:i], "+", ";"); theirs != prov {
				return nil, fmt.Errorf("it uses provider %q, this process %q (set GOMPI_OFI_PROVIDER)", theirs, prov)
			}
			return hex.DecodeString(c[i+1:])
		}
	}
	return nil, fmt.Errorf("malformed card %q", c)
}

// shutdown: our last frames must leave before the endpoint closes, and the
// peers' must reach us, so every rank drains and meets the others first.
func (t *ofiTransport) shutdown() {
	if t.m == nil {
		return
	}
	t.m.Drain(10 * time.Second)
	st.pmi.Barrier()
	t.m.Close()
	t.m = nil
}

// nodeSplit is the node id GOMPI_NODE_SPLIT gives this rank: "rank" puts
// every rank on a node of its own, a number k puts ranks k at a time on
// one "node", so the network transport carries traffic between ranks of
// one machine (tests and benchmarks without a second host). ok is false
// when unset.
func nodeSplit(v string, rank int) (id uint64, ok bool, err error) {
	if v == "" || v == "0" || v == "off" {
		return 0, false, nil
	}
	k := 1
	if v != "rank" {
		if k, err = strconv.Atoi(v); err != nil || k < 1 {
			return 0, false, fmt.Errorf("GOMPI_NODE_SPLIT=%q: want \"rank\" or a number of ranks per node", v)
		}
	}
	host, err := modex.LocalNodeID()
	if err != nil {
		return 0, false, err
	}
	return modex.NodeIDOf(strconv.FormatUint(host, 16), "split"+strconv.Itoa(rank/k)), true, nil
}
