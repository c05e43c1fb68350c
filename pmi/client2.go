package pmi

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// The PMI-2 side of Client: the same Put/Barrier/Get/... API over the PMI-2
// wire protocol (wire2.go), which is what `srun --mpi=pmi2` serves. Barrier
// is PMI-2's kvs-fence: puts made before it are visible to gets after it.

// UsePMI2 tells whether the environment asks for PMI-2: GOMPI_PMI=2 or 1
// decides; otherwise PMI_JOBID beside PMI_FD (Slurm's mpi/pmi2 plugin sets
// it, Hydra and gompirun do not; gompirun drops an inherited one).
func UsePMI2() bool {
	switch os.Getenv("GOMPI_PMI") {
	case "2":
		return true
	case "1":
		return false
	}
	_, fd := os.LookupEnv("PMI_FD")
	_, jobid := os.LookupEnv("PMI_JOBID")
	_, ours := os.LookupEnv("GOMPI_JOBID")
	return fd && jobid && !ours
}

// NewClientConnV2 runs the PMI-2 handshake over conn for the process of the
// given rank (PMI_RANK) in job jobid (PMI_JOBID; may be empty). The server's
// rank and size are authoritative.
func NewClientConnV2(conn net.Conn, jobid string, rank int) (*Client, error) {
	c := newClient(conn, rank, -1)
	c.v2 = true
	if err := c.handshakeV2(jobid); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Client) handshakeV2(jobid string) error {
	if err := c.send(NewMessage("init", "pmi_version", "2", "pmi_subversion", "0")); err != nil {
		return err
	}
	r, err := c.rd.ReadMessage()
	if err != nil {
		return fmt.Errorf("pmi2: init: reading reply: %w", err)
	}
	if r.Cmd != "response_to_init" {
		return fmt.Errorf("pmi2: init: expected cmd=response_to_init, got %s", r)
	}
	if rc, ok := r.Get("rc"); ok && rc != "0" {
		return fmt.Errorf("pmi2: the process manager refused PMI version 2 (rc=%s)", rc)
	}
	if v, ok := r.Get("pmi_version"); ok && v != "2" {
		return fmt.Errorf("pmi2: the process manager speaks PMI version %s", v)
	}
	// Slurm reads pmijobid and pmirank as integers and requires both and
	// threaded; it answers with the real rank and size.
	pj := jobid
	if pj == "" {
		pj = "0"
	}
	f, err := c.roundTripV2(NewMessage("fullinit", "pmijobid", pj, "pmirank", strconv.Itoa(max(c.rank, 0)),
		"threaded", "FALSE"), "fullinit-response")
	if err != nil {
		return err
	}
	if c.rank, err = f.Int("rank"); err != nil {
		return err
	}
	if c.size, err = f.Int("size"); err != nil {
		return err
	}
	if c.size < 1 || c.rank < 0 || c.rank >= c.size {
		return fmt.Errorf("pmi2: fullinit gave rank %d of size %d", c.rank, c.size)
	}
	if n, err := f.Int("appnum"); err == nil && n > 0 {
		c.appnum = n
	}
	c.haveApp = true
	if jobid == "" {
		g, err := c.roundTripV2(NewMessage("job-getid"), "job-getid-response")
		if err != nil {
			return err
		}
		jobid, _ = g.Get("jobid")
	}
	c.v2jobid = jobid
	c.kvsname = "pmi2_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, jobid)
	return nil
}

// newV2FromFD connects to the PMI-2 server on the inherited descriptor.
func newV2FromFD(conn net.Conn) (*Client, error) {
	rank := -1
	if s, ok := os.LookupEnv("PMI_RANK"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("pmi2: PMI_RANK=%q is not a rank", s)
		}
		rank = n
	}
	c, err := NewClientConnV2(conn, os.Getenv("PMI_JOBID"), rank)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if rank >= 0 && rank != c.rank {
		c.conn.Close()
		return nil, fmt.Errorf("pmi2: PMI_RANK=%d but the process manager says rank %d", rank, c.rank)
	}
	if s, ok := os.LookupEnv("PMI_SIZE"); ok && s != strconv.Itoa(c.size) {
		c.conn.Close()
		return nil, fmt.Errorf("pmi2: PMI_SIZE=%s but the process manager says %d processes", s, c.size)
	}
	return c, nil
}

// roundTripV2 is roundTrip over PMI-2 framing; a non-zero rc is a
// ReplyError carrying errmsg.
func (c *Client) roundTripV2(req Message, want string) (Message, error) {
	if err := c.sendV2(req); err != nil {
		return Message{}, err
	}
	c.trips++
	r, err := c.rd.ReadV2Message()
	if err != nil {
		return Message{}, fmt.Errorf("pmi2: %s: reading reply: %w", req.Cmd, err)
	}
	if r.Cmd != want {
		return r, fmt.Errorf("pmi2: %s: expected cmd=%s, got cmd=%s", req.Cmd, want, r.Cmd)
	}
	if rc, ok := r.Get("rc"); ok && rc != "0" {
		msg, _ := r.Get("errmsg")
		return r, &ReplyError{Cmd: req.Cmd, RC: rc, Msg: msg}
	}
	return r, nil
}

func (c *Client) sendV2(m Message) error {
	b, err := m.AppendV2(c.wbuf[:0])
	if err != nil {
		return err
	}
	c.wbuf = b
	if _, err := c.conn.Write(b); err != nil {
		return fmt.Errorf("pmi2: %s: %w", m.Cmd, err)
	}
	return nil
}

// Callers of the *V2 methods hold c.mu and have checked finalized.

// noSemicolon: Slurm's PMI-2 server splits on ';' and knows no escape.
func noSemicolon(what, key, s string) error {
	if strings.IndexByte(s, ';') >= 0 {
		return fmt.Errorf("pmi2: %s %q: ';' cannot be carried by PMI-2", what, key)
	}
	return nil
}

func (c *Client) putV2(key, value string) error {
	if err := noSemicolon("key", key, key); err != nil {
		return err
	}
	if err := noSemicolon("value of", key, value); err != nil {
		return err
	}
	_, err := c.roundTripV2(NewMessage("kvs-put", "key", key, "value", value), "kvs-put-response")
	return err
}

func (c *Client) getV2(key string) (string, error) {
	if err := noSemicolon("key", key, key); err != nil {
		return "", err
	}
	r, err := c.roundTripV2(NewMessage("kvs-get", "jobid", c.v2jobid, "srcid", "-1", "key", key), "kvs-get-response")
	var re *ReplyError
	if errors.As(err, &re) {
		return "", fmt.Errorf("%w: %s (%s)", ErrNotFound, key, re.Msg)
	}
	if err != nil {
		return "", err
	}
	if found, _ := r.Get("found"); !strings.EqualFold(found, "TRUE") {
		return "", fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	v, ok := r.Get("value")
	if !ok {
		return "", fmt.Errorf("pmi2: kvs-get-response without value for %s", key)
	}
	return v, nil
}

func (c *Client) fenceV2() error {
	_, err := c.roundTripV2(NewMessage("kvs-fence"), "kvs-fence-response")
	return err
}

// jobAttrV2 asks for a job attribute (PMI_process_mapping, universeSize).
func (c *Client) jobAttrV2(key string) (string, bool, error) {
	r, err := c.roundTripV2(NewMessage("info-getjobattr", "key", key), "info-getjobattr-response")
	if err != nil {
		return "", false, err
	}
	if found, _ := r.Get("found"); !strings.EqualFold(found, "TRUE") {
		return "", false, nil
	}
	v, ok := r.Get("value")
	return v, ok, nil
}

// JobAttr returns a job attribute of the process manager: under PMI-2 its
// info-getjobattr, under PMI-1 a preput key (PMI_process_mapping is both).
// ok is false when the process manager does not know the attribute.
func (c *Client) JobAttr(key string) (string, bool, error) {
	if err := checkKey(key); err != nil {
		return "", false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.finalized:
		return "", false, ErrFinalized
	case c.px != nil:
		return "", false, nil // PMIx names job attributes its own way
	case c.conn == nil:
		return "", false, nil
	case c.v2:
		return c.jobAttrV2(key)
	}
	r, err := c.roundTrip(NewMessage("get", "kvsname", c.kvsname, "key", key), "get_result")
	var re *ReplyError
	if errors.As(err, &re) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if found, ok := r.Get("found"); ok && !strings.EqualFold(found, "TRUE") && found != "1" {
		return "", false, nil
	}
	v, ok := r.Get("value")
	return v, ok, nil
}

// Protocol names what the client speaks: "pmi1", "pmi2", "pmix" or
// "singleton".
func (c *Client) Protocol() string {
	switch {
	case c.px != nil:
		return "pmix"
	case c.conn == nil:
		return "singleton"
	case c.v2:
		return "pmi2"
	}
	return "pmi1"
}

func (c *Client) universeV2() int {
	if v, ok, err := c.jobAttrV2("universeSize"); err == nil && ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return n
		}
	}
	return c.size
}

func (c *Client) finalizeV2() error {
	_, err := c.roundTripV2(NewMessage("finalize"), "finalize-response")
	return err
}

// abortV2 ends the whole job; PMI-2 has no exit code on the wire (Slurm
// kills the step), and no reply.
func (c *Client) abortV2(code int, msg string) error {
	m := strings.ReplaceAll(sanitize(fmt.Sprintf("exit code %d: %s", code, msg)), ";", ",")
	return c.sendV2(NewMessage("abort", "isworld", "TRUE", "msg", m))
}
