// Command benchtable merges the output of bench programs run under several
// MPI implementations ("<metric> <size> <value>" lines) into one table with
// gompi/best-peer ratios. Usage: benchtable name=file [name=file...]; the
// first column is gompi, the rest are peers.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

type key struct {
	metric string
	size   int
}

// higherIsBetter lists bandwidth-like metrics; everything else is a time.
var higherIsBetter = map[string]bool{"bw": true, "bibw": true}

var units = map[string]string{"bw": "MB/s", "bibw": "MB/s"}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchtable name=file [name=file...]")
		os.Exit(2)
	}
	var names []string
	data := map[string]map[key]float64{}
	var order []key
	seen := map[key]bool{}
	for _, arg := range os.Args[1:] {
		name, file, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "benchtable: bad argument %q\n", arg)
			os.Exit(2)
		}
		names = append(names, name)
		data[name] = map[key]float64{}
		f, err := os.Open(file)
		if err != nil {
			continue // a missing run shows as "-"
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) != 3 {
				continue
			}
			size, err1 := strconv.Atoi(fs[1])
			v, err2 := strconv.ParseFloat(fs[2], 64)
			if err1 != nil || err2 != nil {
				continue
			}
			k := key{fs[0], size}
			data[name][k] = v
			if !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
		}
		f.Close()
	}
	sort.SliceStable(order, func(i, j int) bool { return metricRank(order[i].metric) < metricRank(order[j].metric) })
	fmt.Printf("| %-9s | %8s |", "metric", "bytes")
	for _, n := range names {
		fmt.Printf(" %10s |", n)
	}
	if len(names) > 1 {
		fmt.Printf(" %s/best |", names[0])
	}
	fmt.Println()
	fmt.Print("|-----------|----------|")
	for range names {
		fmt.Print("------------|")
	}
	if len(names) > 1 {
		fmt.Print("------------|")
	}
	fmt.Println()
	for _, k := range order {
		unit := units[k.metric]
		if unit == "" {
			unit = "us"
		}
		fmt.Printf("| %-9s | %8s |", k.metric+" "+unit, human(k.size))
		for _, n := range names {
			if v, ok := data[n][k]; ok {
				fmt.Printf(" %10.3f |", v)
			} else {
				fmt.Printf(" %10s |", "-")
			}
		}
		if len(names) > 1 {
			fmt.Printf(" %10s |", ratio(k, names, data))
		}
		fmt.Println()
	}
}

func metricRank(m string) int {
	for i, x := range []string{"lat1_p50", "lat1_p99", "lat", "bw", "bibw"} {
		if m == x {
			return i
		}
	}
	return 100
}

func ratio(k key, names []string, data map[string]map[key]float64) string {
	g, ok := data[names[0]][k]
	if !ok {
		return "-"
	}
	best, have := 0.0, false
	for _, n := range names[1:] {
		v, ok := data[n][k]
		if !ok {
			continue
		}
		if !have || (higherIsBetter[k.metric] && v > best) || (!higherIsBetter[k.metric] && v < best) {
			best, have = v, true
		}
	}
	if !have || best == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", g/best)
}

func human(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return strconv.Itoa(n)
}
