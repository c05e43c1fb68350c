package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/abi"
)

func find(t *testing.T, name string) abi.Function {
	for _, f := range abi.Functions() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("%s is not in the interface table", name)
	return abi.Function{}
}

func TestWhichCallsAreWrapped(t *testing.T) {
	have := map[string]bool{}
	for _, f := range abi.Functions() {
		have[f.Name], have["P"+f.Name] = true, true
	}
	assert.True(t, Wrapped(find(t, "MPI_Send"), have))
	assert.True(t, Wrapped(find(t, "MPI_Finalize"), have))
	assert.False(t, Wrapped(find(t, "MPI_Wtime"), have), "returns a double")
	assert.False(t, Wrapped(find(t, "MPI_T_init_thread"), have), "tools interface")
	assert.False(t, Wrapped(find(t, "MPI_Pcontrol"), have), "variadic")
	delete(have, "PMPI_Send")
	assert.False(t, Wrapped(find(t, "MPI_Send"), have), "no PMPI twin exported")
}

func TestSendArgs(t *testing.T) {
	for name, want := range map[string][4]string{
		"MPI_Send":             {"count", "datatype", "dest", "comm"},
		"MPI_Isend":            {"count", "datatype", "dest", "comm"},
		"MPI_Sendrecv":         {"sendcount", "sendtype", "dest", "comm"},
		"MPI_Sendrecv_replace": {"count", "datatype", "dest", "comm"},
	} {
		c, d, dst, comm, ok := sendArgs(find(t, name))
		require.True(t, ok, name)
		assert.Equal(t, want, [4]string{c, d, dst, comm}, name)
	}
	for _, name := range []string{"MPI_Recv", "MPI_Send_init", "MPI_Put", "MPI_Bcast"} {
		_, _, _, _, ok := sendArgs(find(t, name))
		assert.False(t, ok, name)
	}
}

func TestSource(t *testing.T) {
	funcs := []abi.Function{find(t, "MPI_Init"), find(t, "MPI_Send"), find(t, "MPI_Comm_free"), find(t, "MPI_Finalize"), find(t, "MPI_Wtime")}
	have := map[string]bool{}
	for _, f := range funcs {
		have[f.Name], have["P"+f.Name] = true, true
	}
	src := string(Source(funcs, have))
	assert.Contains(t, src, "const int gompi_prof_nfuncs = 4;")
	assert.Contains(t, src, "prof_rc_ = PMPI_Send(buf, count, datatype, dest, tag, comm);")
	assert.Contains(t, src, "gompi_prof_send(count, datatype, dest, comm);")
	assert.Contains(t, src, "gompi_prof_comm_gone(*comm);")
	assert.Less(t, strings.Index(src, "gompi_prof_finish();"), strings.Index(src, "PMPI_Finalize()"), "the profile is gathered before MPI_Finalize")
	assert.Less(t, strings.Index(src, "gompi_prof_before_init();"), strings.Index(src, "PMPI_Init("))
	assert.NotContains(t, src, "MPI_Wtime")
	assert.Equal(t, 1, strings.Count(src, "gompi_prof_send("))
}
