// Command gompi_info tells what this gompi is: its version, the MPI version
// and ABI, how it was built, which transports work on this machine (and why
// not), the thread level, and every GOMPI_* setting with its default,
// current value and description (from the registry MPI_T's control
// variables use).
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"gompi/abi"
	"gompi/mpi"
	"gompi/mpit"
)

// Set by make with -ldflags -X: how the library next to us was built.
var (
	ccVersion = "unknown"
	cgoCFlags = "unknown"
	goFlags   = ""
)

const usage = `usage: gompi_info [--all] [--parsable]

  --all        also each setting's description, scope and category, and the
               performance variables
  --parsable   one "section:name:field:value" line per fact, for scripts
  -h, --help   this text
`

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "--probe-target":
			probeTarget()
			return
		case "--probe-read":
			if len(os.Args) == 4 {
				probeRead(os.Args[2], os.Args[3])
			}
			return
		}
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, w, ew io.Writer) int {
	all, parsable := false, false
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "all", "a":
			all = true
		case "parsable", "parseable", "p":
			parsable = true
		case "h", "help":
			fmt.Fprint(w, usage)
			return 0
		default:
			fmt.Fprintf(ew, "gompi_info: unknown option %s\n%s", a, usage)
			return 2
		}
	}
	facts := collect(all)
	if parsable {
		writeParsable(w, facts)
	} else {
		writeHuman(w, facts, all)
	}
	return 0
}

// fact is one line of output: section:name:field = value.
type fact struct {
	section, name, field, value string
}

var threadNames = map[int]string{abi.ThreadSingle: "MPI_THREAD_SINGLE", abi.ThreadFunneled: "MPI_THREAD_FUNNELED",
	abi.ThreadSerialized: "MPI_THREAD_SERIALIZED", abi.ThreadMultiple: "MPI_THREAD_MULTIPLE"}

func collect(all bool) []fact {
	var f []fact
	add := func(section, name, field, value string) { f = append(f, fact{section, name, field, value}) }
	add("package", "gompi", "version", abi.GompiVersion)
	add("mpi", "standard", "version", fmt.Sprintf("%d.%d", abi.Version, abi.Subversion))
	add("mpi", "abi", "name", "MPICH")
	add("mpi", "abi", "detail", "integer handles, MPICH's MPI_Status and constants; MPICH-built programs run via gompirun --mpich-binary")
	add("mpi", "thread", "level", threadNames[mpi.MaxThreadLevel()])
	add("build", "library", "path", libPath("libgompi.so"))
	add("build", "profiler", "path", libPath("libgompi-prof.so"))
	add("build", "go", "version", runtime.Version())
	add("build", "cc", "version", ccVersion)
	add("build", "cgo", "cflags", cgoCFlags)
	add("build", "go", "flags", goFlags)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" || s.Key == "GOAMD64" {
				add("build", "go", s.Key, s.Value)
			}
		}
	}
	add("machine", "cpus", "count", fmt.Sprint(runtime.NumCPU()))
	for _, t := range transports() {
		avail := "no"
		if t.ok {
			avail = "yes"
		}
		add("transport", t.name, "available", avail)
		add("transport", t.name, "what", t.what)
		add("transport", t.name, "reason", t.why)
	}
	for i := 0; i < mpit.NumCvars(); i++ {
		v := mpit.CvarAt(i)
		add("setting", v.Name, "default", v.Default)
		add("setting", v.Name, "value", current(v))
		add("setting", v.Name, "desc", v.Desc)
		if all {
			add("setting", v.Name, "scope", scopeNames[v.Scope])
			add("setting", v.Name, "category", v.Category)
			add("setting", v.Name, "writable", yesNo(v.Set != nil))
			if v.Enum != nil {
				add("setting", v.Name, "values", strings.Join(v.Enum.Items, ","))
			}
		}
	}
	if all {
		for i := 0; i < mpit.NumPvars(); i++ {
			p := mpit.PvarAt(i)
			add("pvar", p.Name, "class", pvarClasses[p.Class])
			add("pvar", p.Name, "desc", p.Desc)
		}
	}
	return f
}

// current is the setting's value in effect for a program started now
// (environment, else tuning file, else the default).
func current(v *mpit.Cvar) string {
	if s := v.Get(); s != "" {
		return s
	}
	return v.Default
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

var scopeNames = map[int]string{abi.TScopeConstant: "constant", abi.TScopeReadonly: "readonly", abi.TScopeLocal: "local",
	abi.TScopeGroup: "group", abi.TScopeGroupEq: "group_eq", abi.TScopeAll: "all", abi.TScopeAllEq: "all_eq"}

var pvarClasses = map[int]string{abi.TPvarClassState: "state", abi.TPvarClassLevel: "level", abi.TPvarClassSize: "size",
	abi.TPvarClassPercentage: "percentage", abi.TPvarClassHighwatermark: "highwatermark", abi.TPvarClassLowwatermark: "lowwatermark",
	abi.TPvarClassCounter: "counter", abi.TPvarClassAggregate: "aggregate", abi.TPvarClassTimer: "timer", abi.TPvarClassGeneric: "generic"}

// libPath is ../lib/name from this binary (the build and install layout).
func libPath(name string) string {
	self, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	lib := filepath.Clean(filepath.Join(filepath.Dir(self), "..", "lib", name))
	if _, err := os.Stat(lib); err != nil {
		return "not found (looked for " + lib + ")"
	}
	return lib
}

// writeParsable escapes newlines so each fact is one line; the value is
// everything after the third colon and may itself contain colons.
func writeParsable(w io.Writer, facts []fact) {
	for _, f := range facts {
		v := strings.ReplaceAll(f.value, "\n", " ")
		fmt.Fprintf(w, "%s:%s:%s:%s\n", f.section, f.name, f.field, v)
	}
}

func writeHuman(w io.Writer, facts []fact, all bool) {
	get := func(section, name, field string) string {
		for _, f := range facts {
			if f.section == section && f.name == name && f.field == field {
				return f.value
			}
		}
		return ""
	}
	p := func(label, v string) { fmt.Fprintf(w, "%22s: %s\n", label, v) }
	p("gompi", get("package", "gompi", "version"))
	p("MPI standard", get("mpi", "standard", "version"))
	p("ABI", get("mpi", "abi", "name")+" ("+get("mpi", "abi", "detail")+")")
	p("Thread support", get("mpi", "thread", "level")+" (highest level MPI_Init_thread provides)")
	p("Library", get("build", "library", "path"))
	p("Profiler (--profile)", get("build", "profiler", "path"))
	p("Go", get("build", "go", "version"))
	p("C compiler", get("build", "cc", "version"))
	p("CGO_CFLAGS", get("build", "cgo", "cflags"))
	if g := get("build", "go", "flags"); g != "" {
		p("Go build flags", g)
	}
	p("CPUs", get("machine", "cpus", "count"))
	fmt.Fprintln(w, "\nTransports:")
	for _, f := range facts {
		if f.section == "transport" && f.field == "available" {
			fmt.Fprintf(w, "  %-12s %-3s  %s\n  %-12s      %s\n", f.name, f.value, get("transport", f.name, "what"), "", get("transport", f.name, "reason"))
		}
	}
	fmt.Fprintln(w, "\nSettings (environment, then GOMPI_TUNE_FILE, then default):")
	for _, f := range facts {
		if f.section != "setting" || f.field != "default" {
			continue
		}
		val, def := get("setting", f.name, "value"), f.value
		mark := ""
		if val != def {
			mark = "  (default " + quote(def) + ")"
		}
		fmt.Fprintf(w, "  %s=%s%s\n", f.name, val, mark)
		fmt.Fprintf(w, "      %s\n", get("setting", f.name, "desc"))
		if all {
			extra := "scope " + get("setting", f.name, "scope") + ", category " + get("setting", f.name, "category") + ", writable through MPI_T: " + get("setting", f.name, "writable")
			if vs := get("setting", f.name, "values"); vs != "" {
				extra += ", values " + vs
			}
			fmt.Fprintf(w, "      %s\n", extra)
		}
	}
	if all {
		fmt.Fprintln(w, "\nPerformance variables (MPI_T):")
		for _, f := range facts {
			if f.section == "pvar" && f.field == "class" {
				fmt.Fprintf(w, "  %-28s %-13s %s\n", f.name, f.value, get("pvar", f.name, "desc"))
			}
		}
	}
}

func quote(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
