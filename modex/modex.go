package modex

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// KVS is the part of a PMI-1 client the modex uses. Values must be PMI-safe
// text; Get of a key nobody put is an error; after Barrier returns every
// Put made by any rank before its Barrier is visible.
type KVS interface {
	Rank() int
	Size() int
	Put(key, value string) error
	Get(key string) (string, error)
	Barrier() error
}

// DefaultFetchAllMax is the largest job that fetches every card during
// Exchange. Up to here the N² gets the server answers cost less than the
// node map's extra barrier and the later one-get-per-peer lookups.
const DefaultFetchAllMax = 32

type config struct {
	nodeID      uint64
	nodeIDSet   bool
	fetchAllMax int
	maxValue    int
}

// Option changes a Modex. Every rank of a job must pass the same options,
// except WithNodeID.
type Option func(*config)

// WithNodeID replaces the machine's node id (tests fake several nodes in one
// process with it).
func WithNodeID(id uint64) Option {
	return func(c *config) { c.nodeID, c.nodeIDSet = id, true }
}

// WithFetchAllMax sets the largest job size that fetches all cards at
// Exchange; larger jobs use the node map and lazy fetches. 0 always uses the
// node map (for jobs of more than one process).
func WithFetchAllMax(n int) Option { return func(c *config) { c.fetchAllMax = n } }

// WithMaxValue sets the longest PMI value written (32..1024).
func WithMaxValue(n int) Option {
	return func(c *config) { c.maxValue = min(max(n, minMaxValue), maxMaxValue) }
}

// Modex is one process's view of the exchange. Its methods are safe for
// concurrent use; lookups that need the KVS are serialised.
type Modex struct {
	kvs        KVS
	reg        *Registry
	cfg        config
	rank, size int
	nodeErr    error // LocalNodeID failure, reported by Exchange

	mu        sync.Mutex
	local     map[Key][]byte
	node      map[Key][]byte
	exchanged bool
	cards     []map[Key][]byte // by rank; nil until fetched
	nodeCards []map[Key][]byte // by dense node; nil until fetched
	nmap      *nodeMap
	stats     Stats
}

// New returns a Modex publishing through kvs, with keys from reg.
func New(kvs KVS, reg *Registry, opts ...Option) *Modex {
	cfg := config{fetchAllMax: DefaultFetchAllMax, maxValue: DefaultMaxValue}
	for _, o := range opts {
		o(&cfg)
	}
	m := &Modex{kvs: kvs, reg: reg, cfg: cfg, rank: kvs.Rank(), size: kvs.Size(),
		local: make(map[Key][]byte), node: make(map[Key][]byte)}
	if !cfg.nodeIDSet {
		m.cfg.nodeID, m.nodeErr = LocalNodeID()
	}
	m.stats.Rank, m.stats.Size = m.rank, m.size
	return m
}

// ErrExchanged is returned when data is set after Exchange, or Exchange is
// called twice.
var ErrExchanged = errors.New("modex: already exchanged")

// ErrNotExchanged is returned by lookups before Exchange.
var ErrNotExchanged = errors.New("modex: Exchange not called yet")

func (m *Modex) set(dst map[Key][]byte, k Key, v []byte) error {
	if !m.reg.Registered(k) {
		return fmt.Errorf("modex: key %#08x not registered", uint32(k))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exchanged {
		return ErrExchanged
	}
	dst[k] = append([]byte(nil), v...)
	return nil
}

// SetLocal puts this process's value for k on its card. Must precede
// Exchange; k must be registered.
func (m *Modex) SetLocal(k Key, v []byte) error { return m.set(m.local, k, v) }

// SetNode sets node-level data for k. Every process of a node may call it
// with the same value; only the node leader's values are published, the
// others' are dropped at Exchange.
func (m *Modex) SetNode(k Key, v []byte) error { return m.set(m.node, k, v) }

// KVS bookkeeping: every call is one round trip to the PMI server.
func (m *Modex) put(k, v string) error {
	m.stats.Puts++
	return m.kvs.Put(k, v)
}

func (m *Modex) get(k string) (string, error) {
	m.stats.Gets++
	return m.kvs.Get(k)
}

func (m *Modex) barrier() error {
	m.stats.Barriers++
	return m.kvs.Barrier()
}

// putBlob publishes blob under prefix.0, prefix.1, ...; returns the number
// of characters written.
func (m *Modex) putBlob(prefix string, blob []byte) (int, int, error) {
	chunks := encodeText(blob, m.cfg.maxValue)
	if len(chunks) > maxChunks {
		return 0, 0, fmt.Errorf("modex: %s: %d bytes is too large to publish", prefix, len(blob))
	}
	chars := 0
	for i, c := range chunks {
		if err := m.put(chunkKey(prefix, i), c); err != nil {
			return 0, 0, fmt.Errorf("modex: put %s: %w", chunkKey(prefix, i), err)
		}
		chars += len(c)
	}
	return chars, len(chunks), nil
}

func (m *Modex) getBlob(prefix string) ([]byte, error) {
	getChunk := func(i int) (string, error) {
		v, err := m.get(chunkKey(prefix, i))
		if err != nil {
			return "", fmt.Errorf("modex: get %s: %w", chunkKey(prefix, i), err)
		}
		return v, nil
	}
	first, err := getChunk(0)
	if err != nil {
		return nil, err
	}
	b, err := decodeText(first, getChunk)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	return b, nil
}

func cardPrefix(rank int) string  { return "card." + strconv.Itoa(rank) }
func nodePrefix(id uint64) string { return fmt.Sprintf("nodecard.%016x", id) }

const mapPrefix = "nodemap"

func (m *Modex) fetchCard(r int) (card, error) {
	b, err := m.getBlob(cardPrefix(r))
	if err != nil {
		return card{}, err
	}
	c, err := decodeCard(b)
	if err != nil {
		return card{}, fmt.Errorf("card of rank %d: %w", r, err)
	}
	m.stats.CardsFetched++
	return c, nil
}

// Exchange publishes this process's card, waits for everyone's, and learns
// the node map (see the package comment for the cost). Collective: every
// rank calls it once.
func (m *Modex) Exchange() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exchanged {
		return ErrExchanged
	}
	if m.nodeErr != nil {
		return fmt.Errorf("modex: node id: %w", m.nodeErr)
	}
	if m.rank < 0 || m.rank >= m.size {
		return fmt.Errorf("modex: rank %d of %d", m.rank, m.size)
	}
	m.exchanged = true
	start := time.Now()
	defer func() { m.stats.ExchangeTime = time.Since(start) }()

	me := card{node: m.cfg.nodeID, data: m.local}
	if len(m.node) > 0 {
		me.flags |= flagNodeData
	}
	blob := encodeCard(me)
	m.stats.CardBytes = len(blob)
	var err error
	if m.stats.CardChars, m.stats.CardChunks, err = m.putBlob(cardPrefix(m.rank), blob); err != nil {
		return err
	}
	if err := m.barrier(); err != nil {
		return fmt.Errorf("modex: barrier: %w", err)
	}

	m.cards = make([]map[Key][]byte, m.size)
	m.cards[m.rank] = m.local
	fetchAll := m.size <= m.cfg.fetchAllMax || m.size == 1
	if fetchAll {
		m.stats.Mode = "fetch-all"
		if m.nmap, err = m.gatherNodeMap(me); err != nil {
			return err
		}
	} else {
		m.stats.Mode = "node-map"
		if m.rank == 0 {
			if m.nmap, err = m.gatherNodeMap(me); err != nil {
				return err
			}
			if _, _, err := m.putBlob(mapPrefix, encodeNodeMap(m.nmap)); err != nil {
				return err
			}
		}
		if err := m.barrier(); err != nil {
			return fmt.Errorf("modex: barrier: %w", err)
		}
		if m.rank != 0 {
			b, err := m.getBlob(mapPrefix)
			if err != nil {
				return err
			}
			if m.nmap, err = decodeNodeMap(b, m.size); err != nil {
				return fmt.Errorf("modex: %w", err)
			}
		}
	}
	mine := m.nmap.of[m.rank]
	if m.nmap.ids[mine] != m.cfg.nodeID {
		return fmt.Errorf("%w: node map puts rank %d on another node", ErrCorrupt, m.rank)
	}
	m.stats.Nodes = len(m.nmap.ids)
	m.nodeCards = make([]map[Key][]byte, len(m.nmap.ids))

	if m.nmap.leader(mine) == m.rank {
		if len(m.node) > 0 {
			blob := encodeNodeCard(m.node)
			m.stats.NodeCardBytes = len(blob)
			if m.stats.NodeCardChars, _, err = m.putBlob(nodePrefix(m.cfg.nodeID), blob); err != nil {
				return err
			}
		}
		m.nodeCards[mine] = m.node
	}
	m.node = nil // a non-leader's node data is not honoured
	if m.nmap.anyNodeData() {
		if err := m.barrier(); err != nil {
			return fmt.Errorf("modex: barrier: %w", err)
		}
	}
	return nil
}

// gatherNodeMap fetches every other card (keeping them) and numbers nodes.
func (m *Modex) gatherNodeMap(me card) (*nodeMap, error) {
	ids := make([]uint64, m.size)
	flags := make([]byte, m.size)
	for r := range m.size {
		c := me
		if r != m.rank {
			var err error
			if c, err = m.fetchCard(r); err != nil {
				return nil, err
			}
			m.cards[r] = c.data
		}
		ids[r], flags[r] = c.node, c.flags
	}
	return buildNodeMap(ids, flags), nil
}

func (m *Modex) checkRank(r int) error {
	if !m.exchanged {
		return ErrNotExchanged
	}
	if r < 0 || r >= m.size {
		return fmt.Errorf("modex: rank %d out of range 0..%d", r, m.size-1)
	}
	return nil
}

func lookup(d map[Key][]byte, k Key) ([]byte, bool) {
	v, ok := d[k]
	if !ok {
		return nil, false
	}
	return append([]byte(nil), v...), true
}

// Get returns rank's value for k (a copy). The first lookup of a peer's card
// in node-map mode fetches it: one get per card chunk.
func (m *Modex) Get(rank int, k Key) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkRank(rank); err != nil {
		return nil, false, err
	}
	if m.cards[rank] == nil {
		c, err := m.fetchCard(rank)
		if err != nil {
			return nil, false, err
		}
		if c.node != m.nmap.ids[m.nmap.of[rank]] {
			return nil, false, fmt.Errorf("%w: card of rank %d names another node than the node map", ErrCorrupt, rank)
		}
		m.cards[rank] = c.data
	}
	v, ok := lookup(m.cards[rank], k)
	return v, ok, nil
}

// GetNode returns the node-level value for k of rank's node, as published by
// that node's leader (a copy). Not found when the leader set no node data.
func (m *Modex) GetNode(rank int, k Key) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkRank(rank); err != nil {
		return nil, false, err
	}
	n := m.nmap.of[rank]
	if !m.nmap.nodeData[n] {
		return nil, false, nil
	}
	if m.nodeCards[n] == nil {
		b, err := m.getBlob(nodePrefix(m.nmap.ids[n]))
		if err != nil {
			return nil, false, err
		}
		d, err := decodeNodeCard(b)
		if err != nil {
			return nil, false, fmt.Errorf("node card of node %d: %w", n, err)
		}
		m.nodeCards[n] = d
	}
	v, ok := lookup(m.nodeCards[n], k)
	return v, ok, nil
}

// Rank and Size are this process's rank and the job size.
func (m *Modex) Rank() int { return m.rank }
func (m *Modex) Size() int { return m.size }

// NodeID is this machine's node id (hash of hostname and boot id, or the
// WithNodeID value).
func (m *Modex) NodeID() uint64 { return m.cfg.nodeID }

func (m *Modex) ready() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.nmap != nil
}

// NodeOf returns rank's dense node index (nodes numbered by their lowest
// rank), or -1 before Exchange or for a rank out of range.
func (m *Modex) NodeOf(rank int) int {
	if !m.ready() || rank < 0 || rank >= m.size {
		return -1
	}
	return m.nmap.of[rank]
}

// Nodes returns the number of nodes in the job (0 before Exchange).
func (m *Modex) Nodes() int {
	if !m.ready() {
		return 0
	}
	return len(m.nmap.ids)
}

// NodeRanks returns the ranks on node n, ascending (nil if n is unknown).
func (m *Modex) NodeRanks(n int) []int {
	if !m.ready() || n < 0 || n >= len(m.nmap.ranks) {
		return nil
	}
	return append([]int(nil), m.nmap.ranks[n]...)
}

// LocalRanks returns the ranks on this process's node, ascending, itself
// included (nil before Exchange).
func (m *Modex) LocalRanks() []int { return m.NodeRanks(m.NodeOf(m.rank)) }

// LocalRank returns this process's index among LocalRanks (-1 before
// Exchange).
func (m *Modex) LocalRank() int {
	for i, r := range m.LocalRanks() {
		if r == m.rank {
			return i
		}
	}
	return -1
}

// Leader returns the lowest rank on node n (-1 if n is unknown).
func (m *Modex) Leader(n int) int {
	if r := m.NodeRanks(n); len(r) > 0 {
		return r[0]
	}
	return -1
}

// IsLeader reports whether this process leads its node (after Exchange).
func (m *Modex) IsLeader() bool { return m.Leader(m.NodeOf(m.rank)) == m.rank }
