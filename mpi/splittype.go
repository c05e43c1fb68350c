package mpi

import (
	"strings"

	"gompi/abi"
	"gompi/hitopo"
	"gompi/info"
)

// HwResourceKey is the info key naming the resource of a guided split
// (MPI_COMM_TYPE_HW_GUIDED, MPI-4.1's MPI_COMM_TYPE_RESOURCE_GUIDED).
const HwResourceKey = "mpi_hw_resource_type"

// SplitTypeInfo is MPI_Comm_split_type with its info argument. The guided
// types split by the resource the info key mpi_hw_resource_type names (the
// same on every process): "mpi_shared_memory" gives the communicators of
// MPI_COMM_TYPE_SHARED; the hwloc names hitopo knows ("Machine",
// "Package"/"Socket", "NUMANode", "L3Cache", "Core", "PU") give one
// communicator per such resource. A process for which the resource is not
// recognised or not known (no key, an unknown name, a process not bound to
// one CPU for "PU") gets MPI_COMM_NULL, as the standard says.
func (c *Comm) SplitTypeInfo(kind, key int, in *info.Info) (*Comm, error) {
	switch kind {
	case abi.CommTypeHwGuided, abi.CommTypeResourceGuided:
		color := abi.Undefined
		if in != nil {
			if v, ok := in.Lookup(HwResourceKey); ok {
				color = ResourceColor(v, st.topo[st.rank])
			}
		}
		return c.Split(color, key)
	}
	return c.SplitType(kind, key)
}

// ResourceColor is the split colour of the resource named res that holds
// the process at l: equal for processes sharing that resource, different
// otherwise, MPI_UNDEFINED when the name is unknown or l does not say.
func ResourceColor(res string, l hitopo.Loc) int {
	var a, b int
	switch strings.ToLower(res) {
	case "mpi_shared_memory", "machine":
	case "package", "socket":
		a = l.Package
	case "numanode", "numa":
		a = l.NUMA
	case "l3cache", "l3":
		a = l.L3
	case "core":
		a, b = l.Package, l.Core // core ids repeat per package
	case "pu":
		a = l.CPU
	default:
		return abi.Undefined
	}
	const lim = 1 << 21
	if l.Node < 0 || a < 0 || b < 0 || l.Node >= lim || a >= lim || b >= lim {
		return abi.Undefined
	}
	return l.Node<<42 | a<<21 | b
}
