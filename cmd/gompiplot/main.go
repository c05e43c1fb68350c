// Command gompiplot draws OSU micro-benchmark and IMB outputs as pictures:
// latency or bandwidth against message size, log-log, one line per library,
// one picture per benchmark (window and synchronisation for one-sided ones),
// rank count and metric; with several libraries also a summary picture of
// the first library's ratio to the best of the others, and markdown tables.
//
//	gompiplot osu_latency.txt
//	gompiplot -o img -md tables.md gompi@2=lat_g.txt openmpi@2=lat_o.txt mpich@2=lat_m.txt
//
// An argument is [LABEL[@RANKS]=]FILE: LABEL names the library (default:
// the file's name without extension), RANKS the rank count when the output
// does not say (OSU's does not, IMB's does). The same label given several
// files of one benchmark merges them as rounds: each size's median.
//
// A profile.json of gompirun --profile=DIR (recognised by its content) is
// drawn as the time in each MPI call per rank, stacked: DIR/profile.json
// gives profile.png in -o.
//
//	gompiplot -o DIR DIR/profile.json
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gompiplot:", err)
		os.Exit(1)
	}
}

// Options are the command's flags.
type Options struct {
	Out     string // directory of the pictures
	Format  string // png or svg
	MD      string // markdown file ("" none, "-" stdout)
	ImgRef  string // how the markdown refers to Out
	Subject string
	Peers   []string
	Sizes   []int64 // table rows
	Ranks   int
	Summary string // summary picture's base name
}

func run(args []string) error {
	fs := flag.NewFlagSet("gompiplot", flag.ContinueOnError)
	var o Options
	var peers, sizes string
	var skipBad bool
	fs.StringVar(&o.Out, "o", ".", "directory for the pictures")
	fs.StringVar(&o.Format, "format", "png", "picture format: png or svg")
	fs.StringVar(&o.MD, "md", "", "write markdown tables (and picture links) to this file; - for stdout")
	fs.StringVar(&o.ImgRef, "img", "", "path of the pictures as the markdown links them (default: -o)")
	fs.StringVar(&o.Subject, "subject", "", "library the ratios are about (default: the first label)")
	fs.StringVar(&peers, "peers", "", "comma-separated libraries it is compared with (default: all other labels)")
	fs.StringVar(&sizes, "sizes", "1,8,64,512,4096,65536,1048576", "message sizes in the tables")
	fs.IntVar(&o.Ranks, "np", 0, "rank count of outputs that do not say it and have no @RANKS")
	fs.StringVar(&o.Summary, "summary", "summary", "base name of the summary picture")
	fs.BoolVar(&skipBad, "skip-bad", false, "report a file that is not OSU or IMB output (a failed run) and go on without it")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: gompiplot [flags] [LABEL[@RANKS]=]FILE...\n"+
			"Draws OSU or IMB outputs: one picture per benchmark, rank count and metric;\n"+
			"with several labels, also LABEL1/best-of-the-others ratios.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("no output file given")
	}
	if o.Format != "png" && o.Format != "svg" {
		return fmt.Errorf("-format %q: want png or svg", o.Format)
	}
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return fmt.Errorf("-sizes: %q is not a byte count", s)
		}
		o.Sizes = append(o.Sizes, n)
	}
	var d Data
	profiles := 0
	for _, a := range fs.Args() {
		label, ranks, file, err := splitArg(a)
		if err != nil {
			return err
		}
		if ranks == 0 {
			ranks = o.Ranks
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if IsProfileJSON(b) {
			err = drawProfileFile(b, file, o)
			if err != nil && skipBad {
				fmt.Fprintln(os.Stderr, "gompiplot: left out:", err)
				continue
			}
			if err != nil {
				return err
			}
			profiles++
			continue
		}
		secs, err := Parse(bytes.NewReader(b), file)
		if err != nil && skipBad {
			fmt.Fprintln(os.Stderr, "gompiplot: left out:", err)
			continue
		}
		if err != nil {
			return err
		}
		d.Add(label, ranks, secs)
	}
	d.Finish()
	labels := d.Labels()
	if len(labels) == 0 && profiles > 0 {
		return nil
	}
	if len(labels) == 0 {
		return fmt.Errorf("no usable output among the files given")
	}
	if o.Subject == "" {
		o.Subject = labels[0]
	}
	if peers != "" {
		o.Peers = strings.Split(peers, ",")
	} else {
		for _, l := range labels {
			if l != o.Subject {
				o.Peers = append(o.Peers, l)
			}
		}
	}
	return Render(&d, o)
}

// drawProfileFile draws the profile.json b read from file into o.Out,
// named after the file.
func drawProfileFile(b []byte, file string, o Options) error {
	p, err := ParseProfile(b, file)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	base := filepath.Base(file)
	out := filepath.Join(o.Out, strings.TrimSuffix(base, filepath.Ext(base))+"."+o.Format)
	if err := DrawProfile(p, out, o.Format); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	fmt.Fprintln(os.Stderr, out)
	return nil
}

// splitArg splits [LABEL[@RANKS]=]FILE.
func splitArg(a string) (label string, ranks int, file string, err error) {
	spec, f, ok := strings.Cut(a, "=")
	if !ok {
		base := filepath.Base(a)
		return strings.TrimSuffix(base, filepath.Ext(base)), 0, a, nil
	}
	label, r, hasR := strings.Cut(spec, "@")
	if hasR {
		ranks, err = strconv.Atoi(r)
		if err != nil || ranks <= 0 {
			return "", 0, "", fmt.Errorf("%q: @%s is not a rank count", a, r)
		}
	}
	if label == "" || f == "" {
		return "", 0, "", fmt.Errorf("%q: want [LABEL[@RANKS]=]FILE", a)
	}
	return label, ranks, f, nil
}

// Render draws every picture into o.Out and writes the markdown.
func Render(d *Data, o Options) error {
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	var pics []string
	for _, g := range d.Groups {
		name := g.Key() + "." + o.Format
		if err := DrawGroup(g, filepath.Join(o.Out, name)); err != nil {
			return err
		}
		pics = append(pics, name)
		fmt.Fprintln(os.Stderr, filepath.Join(o.Out, name))
	}
	summary := ""
	if len(o.Peers) > 0 {
		name := o.Summary + "." + o.Format
		n, err := DrawSummary(d.Groups, o.Subject, o.Peers, filepath.Join(o.Out, name))
		if err != nil {
			return err
		}
		if n > 0 {
			summary = name
			fmt.Fprintln(os.Stderr, filepath.Join(o.Out, name))
		}
	}
	if o.MD == "" {
		return nil
	}
	ref := o.ImgRef
	if ref == "" {
		ref = o.Out
	}
	md := Markdown(d, o, ref, pics, summary)
	if o.MD == "-" {
		_, err := os.Stdout.WriteString(md)
		return err
	}
	return os.WriteFile(o.MD, []byte(md), 0o644)
}
