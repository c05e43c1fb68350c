// Package hitopo says where a process sits: node, package (socket), NUMA
// node, L3 group, core and CPU, read from Linux sysfs and the process's CPU
// affinity, with a distance between two places. The sm transport uses it to
// choose copy-in/copy-out (shared cache) or single copy (across sockets);
// hierarchical collectives and the launcher's binding use it too.
package hitopo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Unknown is the value of a field that could not be read, or differs between
// the CPUs a process may run on.
const Unknown = -1

// Loc is a process's place. Every field is an id, Unknown when unknown.
//
//   - Node: the job's dense node index. Read leaves it Unknown: the caller
//     sets it (from modex.NodeOf) since only the job knows node numbers.
//   - Package: physical_package_id.
//   - NUMA: the NUMA node holding the CPUs.
//   - L3: the lowest CPU sharing the L3 cache (unique on the machine).
//   - Core: core_id, unique only within its package.
//   - CPU: the CPU number, when the process is bound to one CPU.
type Loc struct {
	Node, Package, NUMA, L3, Core, CPU int
}

// UnknownLoc has every field Unknown.
var UnknownLoc = Loc{Unknown, Unknown, Unknown, Unknown, Unknown, Unknown}

func (l Loc) String() string {
	f := func(name string, v int) string {
		if v < 0 {
			return name + " ?"
		}
		return fmt.Sprintf("%s %d", name, v)
	}
	return strings.Join([]string{f("node", l.Node), f("pkg", l.Package), f("numa", l.NUMA),
		f("l3", l.L3), f("core", l.Core), f("cpu", l.CPU)}, " ")
}

// known equality: an unknown field never matches, not even itself.
func eq(a, b int) bool { return a >= 0 && a == b }

// Distance between two places: 0 same CPU, 1 same core, 2 same L3, 3 same
// NUMA node, 4 same package, 5 same node, 6 other node (or node unknown).
// Unknown fields count as different, so the answer is never closer than the
// truth known.
func Distance(a, b Loc) int {
	switch {
	case !eq(a.Node, b.Node):
		return 6
	case eq(a.CPU, b.CPU):
		return 0
	case eq(a.Package, b.Package) && eq(a.Core, b.Core): // core ids repeat per package
		return 1
	case eq(a.L3, b.L3):
		return 2
	case eq(a.NUMA, b.NUMA):
		return 3
	case eq(a.Package, b.Package):
		return 4
	default:
		return 5
	}
}

// SameSocket reports whether a and b are known to share a package of one
// node.
func SameSocket(a, b Loc) bool { return eq(a.Node, b.Node) && eq(a.Package, b.Package) }

// Encoding for the modex: a version byte and six zigzag varints (usually 7
// to 10 bytes).
const encVersion = 1

func (l Loc) fields() [6]int { return [6]int{l.Node, l.Package, l.NUMA, l.L3, l.Core, l.CPU} }

// Encode packs l.
func (l Loc) Encode() []byte {
	b := []byte{encVersion}
	for _, v := range l.fields() {
		b = binary.AppendVarint(b, int64(v))
	}
	return b
}

// Decode unpacks what Encode wrote; anything else is an error.
func Decode(b []byte) (Loc, error) {
	if len(b) == 0 || b[0] != encVersion {
		return UnknownLoc, errors.New("hitopo: bad encoding version")
	}
	b = b[1:]
	var f [6]int
	for i := range f {
		v, n := binary.Varint(b)
		if n <= 0 || n != len(binary.AppendVarint(nil, v)) || v < Unknown || v > 1<<30 {
			return UnknownLoc, fmt.Errorf("hitopo: bad field %d", i)
		}
		f[i] = int(v)
		b = b[n:]
	}
	if len(b) != 0 {
		return UnknownLoc, errors.New("hitopo: trailing bytes")
	}
	return Loc{f[0], f[1], f[2], f[3], f[4], f[5]}, nil
}
