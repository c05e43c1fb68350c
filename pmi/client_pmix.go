package pmi

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// PMIx (`srun --mpi=pmix`) behind the same Client API. The library speaking
// it lives in gompi/pmi/pmix (cgo, dlopen of libpmix) and registers itself;
// a program that does not import it (gompirun) never uses PMIx.
//
// PMIx data belongs to the process that put it: a get names the rank. Our
// KVS is one flat space, so each Barrier also publishes a manifest of the
// keys this rank put since the last one ("gompi.keys.<epoch>"); a Get of a
// key whose owner is unknown reads the manifests it has not read yet.

// PMIx is a PMIx session as package pmix provides it.
type PMIx interface {
	Rank() int
	Size() int
	Namespace() string
	Put(key, value string) error
	Fence() error                                   // commit, then wait for all
	Get(rank int, key string) (string, bool, error) // ok false: rank put no key
	UniverseSize() int                              // 0 if unknown
	AppNum() int
	Abort(code int, msg string) error
	Finalize() error
}

var openPMIx func() (PMIx, error)

// RegisterPMIx installs the PMIx client (called by package pmix's init).
func RegisterPMIx(open func() (PMIx, error)) { openPMIx = open }

// UsePMIx tells whether the environment asks for PMIx: GOMPI_PMI=pmix, or
// a PMIx server's variables without a PMI one's (GOMPI_PMI=1 or 2 choose
// PMI).
func UsePMIx() bool {
	switch os.Getenv("GOMPI_PMI") {
	case "pmix":
		return true
	case "1", "2", "singleton":
		return false
	}
	_, ns := os.LookupEnv("PMIX_NAMESPACE")
	_, fd := os.LookupEnv("PMI_FD")
	_, port := os.LookupEnv("PMI_PORT")
	return ns && !fd && !port
}

// pmixState is a PMIx client's flat-KVS bookkeeping.
type pmixState struct {
	px    PMIx
	epoch int            // Barriers completed
	mine  []string       // keys put since the last Barrier
	owner map[string]int // key -> the rank that put it last
	read  int            // epochs whose manifests were read
}

func newPMIxClient() (*Client, error) {
	if openPMIx == nil {
		return nil, fmt.Errorf("pmi: PMIx requested but this program has no PMIx support")
	}
	px, err := openPMIx()
	if err != nil {
		return nil, err
	}
	c := &Client{rank: px.Rank(), size: px.Size(), haveApp: true, appnum: px.AppNum(),
		px: &pmixState{px: px, owner: map[string]int{}}}
	c.kvsname = "pmix_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, px.Namespace())
	return c, nil
}

func manifestKey(epoch int) string { return "gompi.keys." + strconv.Itoa(epoch) }

func (p *pmixState) put(key, value string) error {
	if err := p.px.Put(key, value); err != nil {
		return err
	}
	p.mine = append(p.mine, key)
	return nil
}

func (p *pmixState) barrier() error {
	// Keys never hold spaces (checkKey), so a space separates them.
	sort.Strings(p.mine)
	if err := p.px.Put(manifestKey(p.epoch), strings.Join(p.mine, " ")); err != nil {
		return err
	}
	p.mine = p.mine[:0]
	if err := p.px.Fence(); err != nil {
		return err
	}
	p.epoch++
	return nil
}

func (p *pmixState) get(key string) (string, error) {
	if err := p.readManifests(); err != nil {
		return "", err
	}
	r, ok := p.owner[key]
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	v, ok, err := p.px.Get(r, key)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%w: %s (rank %d)", ErrNotFound, key, r)
	}
	return v, nil
}

// readManifests learns the owners of keys published in epochs not read
// yet, oldest first so a later put of a key wins.
func (p *pmixState) readManifests() error {
	for ; p.read < p.epoch; p.read++ {
		e := p.read
		for r := range p.px.Size() {
			m, ok, err := p.px.Get(r, manifestKey(e))
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("pmi: rank %d published no key list for barrier %d", r, e)
			}
			for _, k := range strings.Fields(m) {
				p.owner[k] = r
			}
		}
	}
	return nil
}

func (p *pmixState) universe(size int) int {
	if n := p.px.UniverseSize(); n > 0 {
		return n
	}
	return size
}
