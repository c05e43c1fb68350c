// Command pmiinfo is a rank for the Slurm test: it speaks PMI through
// pmi.Client (PMI-1, PMI-2 or PMIx, as the environment says), checks a
// put/barrier/get round across all ranks and prints what the process
// manager told it:
//
//	rank R of N protocol P mapping M universe U appnum A kvs ok
package main

import (
	"fmt"
	"os"
	"strconv"

	"gompi/pmi"
	_ "gompi/pmi/pmix"
)

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pmiinfo: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	c, err := pmi.NewFromEnv()
	if err != nil {
		die("%v", err)
	}
	r, n := c.Rank(), c.Size()
	if err := c.Put("pmiinfo-"+strconv.Itoa(r), fmt.Sprintf("from-%d", r)); err != nil {
		die("put: %v", err)
	}
	if err := c.Barrier(); err != nil {
		die("barrier: %v", err)
	}
	for p := range n {
		v, err := c.Get("pmiinfo-" + strconv.Itoa(p))
		if err != nil || v != fmt.Sprintf("from-%d", p) {
			die("rank %d: get of rank %d's key: %q %v", r, p, v, err)
		}
	}
	mapping := "none"
	if nodes, ok, err := c.ProcessMapping(); err != nil {
		die("process mapping: %v", err)
	} else if ok {
		mapping = fmt.Sprint(nodes)
	}
	fmt.Printf("rank %d of %d protocol %s mapping %s universe %d appnum %d kvs ok\n",
		r, n, c.Protocol(), mapping, c.UniverseSize(), c.AppNum())
	if err := c.Finalize(); err != nil {
		die("finalize: %v", err)
	}
}
