// Command pmiprobe is a rank that speaks PMI only (no MPI messages): it
// publishes its hostname, joins a barrier and prints every rank's host, so
// a test sees the PMI exchange across hosts work whatever the transport.
// With "sleep" it then waits, for the fault tests; with "exit N" rank 1
// exits with N without finalizing.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"gompi/pmi"
)

func main() {
	c, err := pmi.NewFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pmiprobe:", err)
		os.Exit(3)
	}
	host, _ := os.Hostname()
	me := c.Rank()
	if err := c.Put("host-"+strconv.Itoa(me), host); err != nil {
		fmt.Fprintln(os.Stderr, "pmiprobe: put:", err)
		os.Exit(3)
	}
	if err := c.Barrier(); err != nil {
		fmt.Fprintln(os.Stderr, "pmiprobe: barrier:", err)
		os.Exit(3)
	}
	hosts := make([]string, c.Size())
	for r := range hosts {
		if hosts[r], err = c.Get("host-" + strconv.Itoa(r)); err != nil {
			fmt.Fprintln(os.Stderr, "pmiprobe: get:", err)
			os.Exit(3)
		}
	}
	fmt.Printf("rank %d on %s local %s/%s sees %s\n", me, host, os.Getenv("GOMPI_LOCAL_RANK"),
		os.Getenv("GOMPI_LOCAL_SIZE"), strings.Join(hosts, " "))
	if len(os.Args) > 2 && os.Args[1] == "exit" && me == 1 {
		n, _ := strconv.Atoi(os.Args[2])
		os.Exit(n)
	}
	if len(os.Args) > 1 && os.Args[1] == "sleep" {
		fmt.Printf("rank %d pid %d sleeping\n", me, os.Getpid())
		time.Sleep(time.Hour)
	}
	if err := c.Barrier(); err != nil {
		fmt.Fprintln(os.Stderr, "pmiprobe: barrier:", err)
		os.Exit(3)
	}
	c.Finalize()
}
