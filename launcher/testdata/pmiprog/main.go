// Command pmiprog is a rank for the launcher's integration tests: it speaks
// PMI through pmi.Client and misbehaves on request.
//
//	pmiprog MODE [ARG...]
//
// modes: ok, abort RANK CODE MSG, kill9 RANK, nofinalize RANK, exit RANK CODE,
// hang (after init, wait forever), shm (create a /dev/shm file, then hang),
// sigterm (print on SIGTERM, then finalize and exit 0), child (fork a sleeping
// grandchild, print its pid, then hang; RANK kills itself), lines COUNT LEN,
// finalize-exit RANK CODE (RANK exits CODE after finalize), spawn N MODE...
// (rank 0 spawns N processes of pmiprog MODE..., which print
// GOMPI_PARENT_PORT and GOMPI_APPNUM first).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gompi/pmi"
)

func die(err error) {
	fmt.Fprintln(os.Stderr, "pmiprog:", err)
	os.Exit(99)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		die(err)
	}
	return n
}

func main() {
	// barrier2 RANK: that rank sends barrier_in twice on the raw PMI
	// socket (a protocol violation); the others wait forever.
	if os.Args[1] == "barrier2" {
		if os.Getenv("PMI_RANK") == os.Args[2] {
			fd, _ := strconv.Atoi(os.Getenv("PMI_FD"))
			os.NewFile(uintptr(fd), "pmi").Write([]byte("cmd=barrier_in\ncmd=barrier_in\n"))
		}
		select {}
	}
	c, err := pmi.NewFromEnv()
	if err != nil {
		die(err)
	}
	r, n := c.Rank(), c.Size()
	fmt.Printf("rank=%d size=%d pid=%d\n", r, n, os.Getpid())
	mode := os.Args[1]
	args := os.Args[2:]
	if p := os.Getenv("GOMPI_PARENT_PORT"); p != "" {
		fmt.Printf("rank %d of %d: parent %s appnum %s\n", r, n, p, os.Getenv("GOMPI_APPNUM"))
	}
	switch mode {
	case "spawn-missing":
		_, err := c.Spawn(&pmi.SpawnRequest{ParentPort: "p", Apps: []pmi.SpawnApp{{Command: "/nonexistent/gompi-no-such-program", NP: 1}}})
		fmt.Printf("spawn failed: %v\n", err)
	case "spawn":
		if r == 0 {
			self, _ := os.Executable()
			got, err := c.Spawn(&pmi.SpawnRequest{ParentPort: "test-port", Apps: []pmi.SpawnApp{{Command: self, Args: args[1:], NP: atoi(args[0])}}})
			if err != nil {
				die(err)
			}
			fmt.Printf("spawned %d\n", got)
		}
		c.Barrier()
	case "ok":
		if err := c.Put(fmt.Sprintf("card%d", r), fmt.Sprintf("hello-from-%d", r)); err != nil {
			die(err)
		}
		if err := c.Barrier(); err != nil {
			die(err)
		}
		peer := (r + 1) % n
		v, err := c.Get(fmt.Sprintf("card%d", peer))
		if err != nil {
			die(err)
		}
		fmt.Printf("rank %d got %s universe=%d appnum=%d\n", r, v, c.UniverseSize(), c.AppNum())
	case "abort":
		if r == atoi(args[0]) {
			time.Sleep(100 * time.Millisecond)
			c.Abort(atoi(args[1]), args[2])
			os.Exit(atoi(args[1]))
		}
		c.Barrier() // never completes
		select {}
	case "kill9":
		if r == atoi(args[0]) {
			time.Sleep(200 * time.Millisecond)
			fmt.Printf("dying at %d\n", time.Now().UnixNano())
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		select {}
	case "nofinalize":
		if r == atoi(args[0]) {
			os.Exit(0)
		}
		select {}
	case "exit":
		if r == atoi(args[0]) {
			os.Exit(atoi(args[1]))
		}
		select {}
	case "hang":
		select {}
	case "shm":
		name := fmt.Sprintf("/dev/shm/gompi-%s-test-%d", os.Getenv("GOMPI_JOBID"), r)
		if err := os.WriteFile(name, []byte("x"), 0o600); err != nil {
			die(err)
		}
		fmt.Printf("shm=%s\n", name)
		if len(args) > 0 && r == atoi(args[0]) {
			time.Sleep(200 * time.Millisecond)
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		if len(args) == 0 {
			break
		}
		select {}
	case "sigterm":
		sigc := make(chan os.Signal, 1)
		signal.Notify(sigc, syscall.SIGTERM)
		fmt.Println("ready")
		<-sigc
		fmt.Printf("rank %d got SIGTERM\n", r)
	case "child":
		cmd := exec.Command("sleep", "300")
		if err := cmd.Start(); err != nil {
			die(err)
		}
		fmt.Printf("child=%d\n", cmd.Process.Pid)
		if len(args) > 0 && r == atoi(args[0]) {
			time.Sleep(300 * time.Millisecond)
			fmt.Printf("dying at %d\n", time.Now().UnixNano())
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		select {}
	case "lines":
		// Each line goes out in many small writes; only the launcher's line
		// assembly keeps ranks' lines apart.
		count, length := atoi(args[0]), atoi(args[1])
		body := []byte(strings.Repeat(strconv.Itoa(r), length))
		for i := 0; i < count; i++ {
			fmt.Printf("<%d:", r)
			for off := 0; off < len(body); off += 50 {
				os.Stdout.Write(body[off:min(off+50, len(body))])
			}
			fmt.Printf(":%d>\n", r)
		}
	case "finalize-exit":
		c.Barrier()
		if err := c.Finalize(); err != nil {
			die(err)
		}
		if r == atoi(args[0]) {
			os.Exit(atoi(args[1]))
		}
		time.Sleep(300 * time.Millisecond)
		fmt.Printf("rank %d finished\n", r)
		os.Exit(0)
	default:
		die(fmt.Errorf("unknown mode %q", mode))
	}
	if err := c.Finalize(); err != nil {
		die(err)
	}
}
