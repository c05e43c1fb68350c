package abi

import "sync"

// FunctionGroup is a titled run of functions, kept together in the header.
type FunctionGroup struct {
	Title string
	Funcs []Function
}

var (
	groupsOnce sync.Once
	groups     []FunctionGroup
)

// dupFnProto is MPICH's predefined attribute copy function, reached through
// MPI_DUP_FN and friends; binaries built against MPICH link to this name.
const dupFnProto = `int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag)`

func deprecated(fs []Function) []Function {
	for i := range fs {
		fs[i].Deprecated = true
	}
	return fs
}

// FunctionGroups returns every C function of the interface by chapter, in
// header order. Each MPI_X also gets a PMPI_X prototype unless NoPMPI.
func FunctionGroups() []FunctionGroup {
	groupsOnce.Do(func() {
		blocking, nonblocking, persistent := collectiveFamilies()
		dup := parseProtos("attribute", dupFnProto)
		dup[0].NoPMPI = true
		groups = []FunctionGroup{
			{"Environment", parseProtos("environment", envProtos)},
			{"Error handling", parseProtos("errhandler", errhandlerProtos)},
			{"Error handling (MPI-1, removed in MPI-3)", deprecated(parseProtos("errhandler", errhandlerDeprecatedProtos))},
			{"Info objects", parseProtos("info", infoProtos)},
			{"Point-to-point communication", parseProtos("p2p", p2pProtos)},
			{"Partitioned communication (MPI-4)", parseProtos("partitioned", partProtos)},
			{"Datatypes", parseProtos("datatype", datatypeProtos)},
			{"Datatypes (MPI-1, removed in MPI-3)", deprecated(parseProtos("datatype", datatypeDeprecatedProtos))},
			{"Collective communication", blocking},
			{"Reduction operations", parseProtos("collective", opProtos)},
			{"Nonblocking collective communication", nonblocking},
			{"Persistent collective communication (MPI-4)", persistent},
			{"Groups, communicators and attributes", parseProtos("communicator", commProtos)},
			{"Predefined attribute copy function", dup},
			{"Process topologies", parseProtos("topology", topoProtos)},
			{"One-sided communication", parseProtos("rma", rmaProtos)},
			{"Generalized requests and status", parseProtos("external", externalProtos)},
			{"Process creation and management", parseProtos("spawn", spawnProtos)},
			{"Parallel I/O", parseProtos("io", ioProtos)},
			{"Tool information interface", parseProtos("tool", toolProtos)},
			{"Language interoperability", append(parseProtos("interop", interopProtos), conversionFunctions()...)},
		}
		var all []Function
		for _, g := range groups {
			all = append(all, g.Funcs...)
		}
		groups = append(groups, FunctionGroup{"Large counts (MPI-4)", largeCountFunctions(all)})
	})
	return groups
}

// Functions returns every C function of the interface in header order.
func Functions() []Function {
	var out []Function
	for _, g := range FunctionGroups() {
		out = append(out, g.Funcs...)
	}
	return out
}
