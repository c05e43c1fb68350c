package pmi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
)

// Spawning (MPI_Comm_spawn) is a gompi extension of PMI-1: the request, a
// JSON SpawnRequest, goes base64-encoded in `cmd=gompi_spawn_part data=...`
// lines and `cmd=gompi_spawn` starts it; the reply is `spawn_result rc=0
// nprocs=N` or rc=-1 with a message. Hydra answers unknown_command, which
// the client reports as spawning not being supported.

// SpawnApp is one command of a spawn.
type SpawnApp struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	NP      int      `json:"np"`
	Wdir    string   `json:"wdir,omitempty"`
	Path    string   `json:"path,omitempty"`
	Host    string   `json:"host,omitempty"`
}

// SpawnRequest starts one new job whose processes run Apps in order (their
// MPI_APPNUM is the index) and connect to ParentPort in MPI_Init.
type SpawnRequest struct {
	Apps       []SpawnApp `json:"apps"`
	ParentPort string     `json:"parent_port"`
}

// maxSpawnBytes bounds one encoded request.
const maxSpawnBytes = 1 << 20

// Spawn asks the process manager to start req; it returns how many
// processes started.
func (c *Client) Spawn(req *SpawnRequest) (int, error) {
	js, err := json.Marshal(req)
	if err != nil {
		return 0, err
	}
	enc := base64.RawURLEncoding.EncodeToString(js)
	if len(enc) > maxSpawnBytes {
		return 0, fmt.Errorf("pmi: spawn request of %d bytes is too large", len(enc))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finalized {
		return 0, ErrFinalized
	}
	if c.px != nil {
		return 0, fmt.Errorf("the process manager (PMIx) cannot spawn gompi processes (use gompirun)")
	}
	if c.conn == nil {
		return 0, fmt.Errorf("started without a process manager (use gompirun)")
	}
	if c.v2 {
		return 0, fmt.Errorf("the process manager (PMI-2) cannot spawn gompi processes (use gompirun)")
	}
	for len(enc) > 0 {
		k := min(len(enc), MaxValueLen)
		if _, err := c.roundTrip(NewMessage("gompi_spawn_part", "data", enc[:k]), "gompi_spawn_part_result"); err != nil {
			return 0, spawnErr(err)
		}
		enc = enc[k:]
	}
	r, err := c.roundTrip(NewMessage("gompi_spawn"), "spawn_result")
	if err != nil {
		return 0, spawnErr(err)
	}
	return r.Int("nprocs")
}

func spawnErr(err error) error {
	if re, ok := err.(*ReplyError); ok {
		if re.Msg == "unknown_command" {
			return fmt.Errorf("the process manager cannot spawn processes (use gompirun)")
		}
		return fmt.Errorf("%s", re.Msg)
	}
	return err
}

// spawnState is a session's request being received.
type spawnState struct {
	data []byte
}

func (rs *session) spawnPart(m Message) Message {
	v, ok := m.Get("data")
	if !ok {
		return fail("gompi_spawn_part_result", "missing_data")
	}
	if len(rs.spawn.data)+len(v) > maxSpawnBytes {
		rs.spawn.data = nil
		return fail("gompi_spawn_part_result", "request_too_large")
	}
	rs.spawn.data = append(rs.spawn.data, v...)
	return NewMessage("gompi_spawn_part_result", "rc", "0")
}

func (rs *session) spawnGo() Message {
	enc := rs.spawn.data
	rs.spawn.data = nil
	if rs.s.cfg.OnSpawn == nil {
		return fail("spawn_result", "spawn_not_supported")
	}
	js, err := base64.RawURLEncoding.DecodeString(string(enc))
	var req SpawnRequest
	if err == nil {
		err = json.Unmarshal(js, &req)
	}
	if err != nil {
		return fail("spawn_result", "malformed_request")
	}
	n, err := rs.s.cfg.OnSpawn(rs.rank, &req)
	if err != nil {
		return fail("spawn_result", sanitize(err.Error()))
	}
	return NewMessage("spawn_result", "rc", "0", "nprocs", strconv.Itoa(n))
}
