package abi

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed headers must be what the table generates today.
func TestCommittedHeadersAreCurrent(t *testing.T) {
	for path, want := range map[string][]byte{
		"../include/mpi.h":  Header(),
		"../include/mpif.h": FortranHeader(),
	} {
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		if string(got) != string(want) {
			t.Errorf("%s is stale: run `go run ./cmd/genheader -o include/mpi.h`", path)
		}
	}
}

func TestNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Constants() {
		assert.False(t, seen[c.Name], "constant %s defined twice", c.Name)
		seen[c.Name] = true
	}
	for _, td := range AllTypedefs() {
		assert.False(t, seen[td.Name], "type %s defined twice", td.Name)
		seen[td.Name] = true
	}
	for _, f := range Functions() {
		assert.False(t, seen[f.Name], "function %s defined twice", f.Name)
		seen[f.Name] = true
	}
	assert.Greater(t, len(Functions()), 420)
}

func TestPrototypesAreComplete(t *testing.T) {
	for _, f := range append(Functions(), Callbacks...) {
		assert.NotEmpty(t, f.Ret, f.Name)
		for _, p := range f.Params {
			assert.NotEmpty(t, p.Name, "%s: unnamed parameter", f.Name)
			assert.NotEmpty(t, p.Type, "%s: untyped parameter %s", f.Name, p.Name)
		}
		assert.NotContains(t, f.Prototype(""), "  ", f.Name)
	}
}

func TestParsePrototype(t *testing.T) {
	f, err := parseProto("int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)")
	require.NoError(t, err)
	assert.Equal(t, "MPI_Group_range_incl", f.Name)
	assert.Equal(t, []Param{
		{Type: "MPI_Group", Name: "group"}, {Type: "int", Name: "n"},
		{Type: "int", Name: "ranges", Array: "[][3]"}, {Type: "MPI_Group *", Name: "newgroup"},
	}, f.Params)
	assert.Equal(t, "int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)", f.Prototype(""))

	f, err = parseProto("int MPI_Comm_spawn_multiple(int count, char **array_of_argv[], const int a[])")
	require.NoError(t, err)
	assert.Equal(t, Param{Type: "char **", Name: "array_of_argv", Array: "[]"}, f.Params[1])

	f, err = parseProto("double MPI_Wtime(void)")
	require.NoError(t, err)
	assert.Empty(t, f.Params)
	assert.Equal(t, "double PMPI_Wtime(void)", f.Prototype("P"))

	f, err = parseProto("int MPI_Pcontrol(const int level, ...)")
	require.NoError(t, err)
	assert.True(t, f.Variadic)
	assert.Equal(t, "int MPI_Pcontrol(const int level, ...)", f.Prototype(""))

	_, err = parseProto("int MPI_Bad(int)")
	assert.Error(t, err)
}

// The derived nonblocking and persistent collectives follow the standard.
func TestCollectiveFamilies(t *testing.T) {
	byName := map[string]Function{}
	for _, f := range Functions() {
		byName[f.Name] = f
	}
	for name, want := range map[string]string{
		"MPI_Ibarrier":                  "int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)",
		"MPI_Barrier_init":              "int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)",
		"MPI_Ineighbor_alltoallw":       "int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)",
		"MPI_Reduce_scatter_block_init": "int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)",
	} {
		f, ok := byName[name]
		require.True(t, ok, name)
		assert.Equal(t, want, f.Prototype(""))
	}
	for _, name := range []string{"MPI_Neighbor_allgather_init", "MPI_Alltoallw_init", "MPI_Exscan_init", "MPI_Iexscan", "MPI_Ireduce_scatter"} {
		assert.Contains(t, byName, name)
	}
}

// Handle constants must decode as the object they name.
func TestHandleEncodings(t *testing.T) {
	objOf := map[string]uint32{
		"MPI_Comm": ObjComm, "MPI_Group": ObjGroup, "MPI_Datatype": ObjDatatype,
		"MPI_Errhandler": ObjErrhandler, "MPI_Op": ObjOp, "MPI_Info": ObjInfo,
		"MPI_Win": ObjWin, "MPI_Request": ObjRequest, "MPI_Message": ObjRequest,
		"MPI_Session": ObjSession,
	}
	for _, c := range Constants() {
		if c.Kind != KHandle || c.Name == "MPI_INTEGER16" {
			continue
		}
		want, ok := objOf[c.CType]
		require.True(t, ok, c.Name)
		assert.Equal(t, want, HandleObj(int32(c.Value)), c.Name)
	}
	for _, c := range Constants() { // builtin datatypes carry their size in bits 8..15
		if c.CType == "MPI_Datatype" && c.Kind == KHandle && HandleKind(int32(c.Value)) == KindBuiltin && c.Name != "MPI_LB" && c.Name != "MPI_UB" {
			assert.NotZero(t, BuiltinSize(int32(c.Value)), c.Name)
		}
	}
}

func TestHeaderShape(t *testing.T) {
	h := string(Header())
	for _, want := range []string{
		"#define GOMPI_VERSION \"0.1.0\"",
		"#define MPI_VERSION    4",
		"extern \"C\" {",
		"#define MPI_IN_PLACE                    ((void *)-1)",
		"#define MPI_STATUS_IGNORE               ((MPI_Status *)1)",
		"#define MPI_FLOAT_INT                   ((MPI_Datatype)0x8c000000)",
		"#define MPI_TAG_UB                      0x64400001",
		"int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);",
		"#define PMPI_Comm_f2c(comm) ((MPI_Comm)(comm))",
		"extern int * const MPI_UNWEIGHTED;",
	} {
		assert.Contains(t, h, want)
	}
	assert.NotContains(t, h, "#define MPICH ")
	assert.NotContains(t, h, "OPEN_MPI")
	assert.NotContains(t, h, "PMPIR_Dup_fn")
	assert.False(t, strings.Contains(h, "\t"))
}
