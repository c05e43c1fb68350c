package mpi

import (
	"fmt"
	"os"
	"strings"

	"gompi/abi"
	"gompi/info"
	"gompi/pmi"
)

// SpawnCmd is one command of MPI_Comm_spawn(_multiple), as given at root.
type SpawnCmd struct {
	Command  string
	Argv     []string
	MaxProcs int
	Info     *info.Info // nil for MPI_INFO_NULL
}

// Spawn starts the commands as one new job and returns the
// intercommunicator to it (MPI_Comm_spawn_multiple), with one error code
// per process asked for. Collective over c; cmds matter at root only.
func (c *Comm) Spawn(root int, cmds []SpawnCmd) (*Comm, []int, error) {
	return c.SpawnAs("MPI_Comm_spawn_multiple", root, cmds)
}

// SpawnAs is Spawn reporting errors as call (MPI_Comm_spawn or
// MPI_Comm_spawn_multiple).
func (c *Comm) SpawnAs(call string, root int, cmds []SpawnCmd) (*Comm, []int, error) {
	if e := c.dynRootCheck(call, root); e != nil {
		return nil, nil, c.raise(e)
	}
	total := 0
	var req *pmi.SpawnRequest
	var reqErr *Error
	if c.rank == root {
		req, total, reqErr = spawnRequest(call, cmds)
		if reqErr != nil {
			total = 0
			for _, cmd := range cmds {
				total += max(cmd.MaxProcs, 0)
			}
		}
	}
	// The root opens the port the children connect to in MPI_Init, then
	// asks gompirun for them, then accepts them.
	var portName string
	ic, err := joinGroups(call, c, root, func(out []byte) ([]byte, *Error) {
		if reqErr != nil {
			return nil, reqErr
		}
		name, err := OpenPort()
		if err != nil {
			return nil, errf(abi.ErrSpawn, call, "%v", err)
		}
		portName = name
		req.ParentPort = name
		n, err := st.pmi.Spawn(req)
		if err != nil {
			return nil, errf(abi.ErrSpawn, call, "%v", err)
		}
		if n != total {
			return nil, errf(abi.ErrSpawn, call, "the launcher started %d of %d processes", n, total)
		}
		return acceptPort(call, dyn.ports[name], out)
	})
	if portName != "" {
		if p := dyn.ports[portName]; p != nil {
			p.close()
			delete(dyn.ports, portName)
		}
	}
	if err != nil {
		// Every member got the error from the root; it also says how many
		// processes were asked for, so each can fill its error codes.
		t := []int{total}
		viewOf(c).bcastInts(t, root)
		codes := make([]int, max(t[0], 0))
		for i := range codes {
			codes[i] = abi.ErrSpawn
		}
		return nil, codes, err
	}
	return ic, make([]int, ic.RemoteSize()), nil
}

// spawnRequest checks the commands and turns them into the launcher's
// request.
func spawnRequest(call string, cmds []SpawnCmd) (*pmi.SpawnRequest, int, *Error) {
	req := &pmi.SpawnRequest{}
	total := 0
	for i, cmd := range cmds {
		if cmd.Command == "" {
			return nil, 0, errf(abi.ErrSpawn, call, "command %d is empty", i)
		}
		if cmd.MaxProcs <= 0 {
			return nil, 0, errf(abi.ErrSpawn, call, "maxprocs %d of command %d is not positive", cmd.MaxProcs, i)
		}
		app := pmi.SpawnApp{Command: cmd.Command, Args: cmd.Argv, NP: cmd.MaxProcs}
		if cmd.Info != nil {
			app.Wdir, _ = cmd.Info.Lookup("wdir")
			app.Path, _ = cmd.Info.Lookup("path")
			app.Host, _ = cmd.Info.Lookup("host")
			if h := app.Host; h != "" && !localHost(h) {
				return nil, 0, errf(abi.ErrSpawn, call, "host %q is not this node (gompirun runs one node)", h)
			}
			if s, ok := cmd.Info.Lookup("soft"); ok {
				n, e := softCount(call, s, cmd.MaxProcs)
				if e != nil {
					return nil, 0, e
				}
				app.NP = n
			}
		}
		total += app.NP
		req.Apps = append(req.Apps, app)
	}
	if len(req.Apps) == 0 {
		return nil, 0, errf(abi.ErrSpawn, call, "no command to start")
	}
	return req, total, nil
}

// softCount picks from the soft info value (a,b,c:d,e:f:s as the standard
// writes it) the largest count allowed, at most maxprocs and the universe's
// free slots.
func softCount(call, soft string, maxprocs int) (int, *Error) {
	limit := min(maxprocs, max(universeSize()-st.size, 1))
	best := -1
	for _, part := range strings.Split(soft, ",") {
		var a, b, s int
		k, _ := fmt.Sscanf(strings.ReplaceAll(part, ":", " "), "%d %d %d", &a, &b, &s)
		switch k {
		case 1:
			b, s = a, 1
		case 2:
			s = 1
		case 3:
		default:
			return 0, errf(abi.ErrSpawn, call, "soft value %q is not a list of counts and ranges", soft)
		}
		if a < 0 || s <= 0 || b < a {
			return 0, errf(abi.ErrSpawn, call, "soft value %q has a bad range %q", soft, part)
		}
		for x := a; x <= b; x += s {
			if x <= limit && x > best {
				best = x
			}
		}
	}
	if best <= 0 {
		return 0, errf(abi.ErrSpawn, call, "no count of soft %q fits (at most %d)", soft, limit)
	}
	return best, nil
}

func localHost(h string) bool {
	me, _ := os.Hostname()
	short, _, _ := strings.Cut(me, ".")
	return h == "localhost" || h == "127.0.0.1" || h == me || h == short
}

// universeSize is MPI_UNIVERSE_SIZE: what the launcher says, else the world.
func universeSize() int {
	if st.pmi == nil {
		return st.size
	}
	return max(st.pmi.UniverseSize(), st.size)
}

// appNum is MPI_APPNUM: the command's index in a spawn, else the launcher's.
func appNum() int {
	if v, ok := os.LookupEnv("GOMPI_APPNUM"); ok {
		var n int
		if _, err := fmt.Sscan(v, &n); err == nil {
			return n
		}
	}
	if st.pmi == nil {
		return 0
	}
	return st.pmi.AppNum()
}
