package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"gompi/pmi"
)

// Dynamic processes: the launcher is the universe's only process manager.
// MPI_Comm_spawn reaches it as a PMI request from the spawning root; it
// starts the children as a new job (own PMI server and KVS, own job id
// "<world id>-s<k>" so the world's clean-up covers its shared memory) under
// the same supervision as the world: a child that dies ends everything.

// subJob is the world or one spawned job.
type subJob struct {
	n     int // 0 for the world, k for the k-th spawned job
	id    string
	srv   *pmi.Server
	base  int // index in job.ranks of its rank 0
	procs []*rankProc
}

func (s *subJob) label(rank int) string {
	if s.n == 0 {
		return "rank " + strconv.Itoa(rank)
	}
	return fmt.Sprintf("spawned job %d rank %d", s.n, rank)
}

type spawnCall struct {
	req   *pmi.SpawnRequest
	reply chan spawnResult
}

type spawnResult struct {
	n   int
	err error
}

// universeSize is MPI_UNIVERSE_SIZE: --universe-size, else the CPUs we may
// use (the slots), at least the world.
func (j *job) universeSize() int {
	if j.opts.UniverseSize > 0 {
		return j.opts.UniverseSize
	}
	return max(j.ncpus, j.opts.NP)
}

// newSubJob makes the PMI server of a job of size processes whose ranks
// will be job.ranks[len(job.ranks):][:size].
func (j *job) newSubJob(n int, id string, size int) (*subJob, error) {
	sub := &subJob{n: n, id: id, base: len(j.ranks)}
	srv, err := pmi.NewServer(pmi.ServerConfig{
		Size:         size,
		KVSName:      "kvs_" + id,
		UniverseSize: j.universeSize(),
		Preput: map[string]string{
			// MPICH reads the node layout from this key: all ranks on node 0.
			"PMI_process_mapping": fmt.Sprintf("(vector,(0,1,%d))", size),
		},
		OnAbort: func(rank, code int, msg string) { j.aborts <- abortEvent{rank: sub.base + rank, code: code, msg: msg} },
		OnViolation: func(rank int, what string) {
			j.aborts <- abortEvent{rank: sub.base + rank, code: 1, msg: what, violation: true}
		},
		OnSpawn: j.requestSpawn,
		Logf:    func(f string, a ...any) { j.out.Messagef(f, a...) },
	})
	if err != nil {
		return nil, err
	}
	sub.srv = srv
	return sub, nil
}

// requestSpawn runs on a PMI serving goroutine: the supervising loop owns
// the processes, so it does the work.
func (j *job) requestSpawn(rank int, req *pmi.SpawnRequest) (int, error) {
	c := spawnCall{req: req, reply: make(chan spawnResult, 1)}
	select {
	case j.spawns <- c:
	case <-j.srvDone():
		return 0, fmt.Errorf("the job is ending")
	}
	r := <-c.reply
	return r.n, r.err
}

func (j *job) srvDone() <-chan struct{} { return j.done }

// spawn starts a spawn request's processes as one new job (on the
// supervising loop).
func (j *job) spawn(req *pmi.SpawnRequest) spawnResult {
	if j.terminating {
		return spawnResult{0, fmt.Errorf("the job is ending")}
	}
	total := 0
	progs := make([]string, len(req.Apps))
	for i, app := range req.Apps {
		if app.NP <= 0 {
			return spawnResult{0, fmt.Errorf("command %d: %d processes", i, app.NP)}
		}
		total += app.NP
		env := j.base
		if app.Path != "" {
			env = append(envList{}, j.base...)
			old, _ := env.get("PATH")
			env.set("PATH", app.Path+string(os.PathListSeparator)+old)
		}
		prog := app.Command
		if app.Wdir != "" {
			if fi, err := os.Stat(app.Wdir); err != nil || !fi.IsDir() {
				return spawnResult{0, fmt.Errorf("wdir %q is not a directory", app.Wdir)}
			}
			if !filepath.IsAbs(prog) && filepath.Base(prog) != prog {
				prog = filepath.Join(app.Wdir, prog) // relative to the new working directory
			}
		}
		p, err := lookPath(prog, env)
		if err != nil {
			return spawnResult{0, err}
		}
		progs[i] = p
	}
	if req.ParentPort == "" {
		return spawnResult{0, fmt.Errorf("no parent port")}
	}
	k := len(j.subs) + 1
	sub, err := j.newSubJob(k, j.id+"-s"+strconv.Itoa(k), total)
	if err != nil {
		return spawnResult{0, err}
	}
	j.subs = append(j.subs, sub)
	r := 0
	for i, app := range req.Apps {
		for range app.NP {
			env := envList(RankEnv(j.base, sub.id, r, total, j.ncpus, -1))
			if app.Path != "" {
				old, _ := env.get("PATH")
				env.set("PATH", app.Path+string(os.PathListSeparator)+old)
			}
			env.set("GOMPI_PARENT_PORT", req.ParentPort)
			env.set("GOMPI_APPNUM", strconv.Itoa(i))
			if err := j.startRank(sub, r, progs[i], app.Args, env, nil, app.Wdir); err != nil {
				// Those started wait for their parents in MPI_Init; the
				// spawning root reports the error and the job decides.
				j.out.Messagef("cannot start %s (%s): %v", sub.label(r), app.Command, err)
				return spawnResult{r, fmt.Errorf("cannot start %s: %v", app.Command, err)}
			}
			r++
		}
	}
	return spawnResult{total, nil}
}

// closeServers ends every job's PMI service.
func (j *job) closeServers() {
	if j.world != nil && j.world.srv != nil {
		j.world.srv.Close()
	}
	for _, s := range j.subs {
		s.srv.Close()
	}
	if j.done != nil {
		select {
		case <-j.done:
		default:
			close(j.done)
		}
	}
}
