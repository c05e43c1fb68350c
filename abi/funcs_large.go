package abi

import "strings"

// Large-count variants (MPI-4.0 section 2.5.8, MPI-4.1 appendix A): each
// MPI_X_c is MPI_X with its counts widened to MPI_Count and, in the v/w
// collectives, its displacements widened to MPI_Aint. Derived from the
// prototypes above by these rules so the two can never disagree.

// largeCountNames lists the base calls that have an _c twin (MPI 4.1).
var largeCountNames = strings.Fields(`
MPI_Send MPI_Recv MPI_Get_count MPI_Bsend MPI_Ssend MPI_Rsend MPI_Buffer_attach MPI_Buffer_detach
MPI_Comm_attach_buffer MPI_Comm_detach_buffer MPI_Session_attach_buffer MPI_Session_detach_buffer
MPI_Isend MPI_Ibsend MPI_Issend MPI_Irsend MPI_Irecv MPI_Isendrecv MPI_Isendrecv_replace
MPI_Mrecv MPI_Imrecv MPI_Send_init MPI_Bsend_init MPI_Ssend_init MPI_Rsend_init MPI_Recv_init
MPI_Sendrecv MPI_Sendrecv_replace
MPI_Type_contiguous MPI_Type_vector MPI_Type_create_hvector MPI_Type_indexed MPI_Type_create_hindexed
MPI_Type_create_indexed_block MPI_Type_create_hindexed_block MPI_Type_create_struct
MPI_Type_create_subarray MPI_Type_create_darray MPI_Type_size MPI_Type_get_extent
MPI_Type_get_true_extent MPI_Type_create_resized MPI_Get_elements MPI_Pack MPI_Unpack MPI_Pack_size
MPI_Pack_external MPI_Unpack_external MPI_Pack_external_size MPI_Type_get_envelope MPI_Type_get_contents
MPI_Op_create MPI_Reduce_local
MPI_Win_create MPI_Win_allocate MPI_Win_allocate_shared MPI_Win_shared_query
MPI_Put MPI_Get MPI_Accumulate MPI_Get_accumulate MPI_Rput MPI_Rget MPI_Raccumulate MPI_Rget_accumulate
MPI_File_read_at MPI_File_read_at_all MPI_File_write_at MPI_File_write_at_all MPI_File_iread_at
MPI_File_iwrite_at MPI_File_iread_at_all MPI_File_iwrite_at_all MPI_File_read MPI_File_read_all
MPI_File_write MPI_File_write_all MPI_File_iread MPI_File_iwrite MPI_File_iread_all MPI_File_iwrite_all
MPI_File_read_shared MPI_File_write_shared MPI_File_iread_shared MPI_File_iwrite_shared
MPI_File_read_ordered MPI_File_write_ordered MPI_File_read_at_all_begin MPI_File_write_at_all_begin
MPI_File_read_all_begin MPI_File_write_all_begin MPI_File_read_ordered_begin MPI_File_write_ordered_begin
MPI_File_get_type_extent MPI_Register_datarep MPI_Status_set_elements
`)

// largeCollectives are the collectives whose blocking, MPI_I* and *_init
// forms all have _c twins.
var largeCollectives = strings.Fields(`
MPI_Bcast MPI_Gather MPI_Gatherv MPI_Scatter MPI_Scatterv MPI_Allgather MPI_Allgatherv MPI_Alltoall
MPI_Alltoallv MPI_Alltoallw MPI_Reduce MPI_Allreduce MPI_Reduce_scatter_block MPI_Reduce_scatter
MPI_Scan MPI_Exscan MPI_Neighbor_allgather MPI_Neighbor_allgatherv MPI_Neighbor_alltoall
MPI_Neighbor_alltoallv MPI_Neighbor_alltoallw
`)

// intStays are int parameters that are not counts (ranks, tags, flags,
// dimensions, modes) and keep their type in the _c form.
var intStays = map[string]bool{
	"dest": true, "source": true, "tag": true, "sendtag": true, "recvtag": true, "root": true,
	"target_rank": true, "rank": true, "flag": true, "commute": true, "ndims": true,
	"order": true, "size": false, "combiner": true, "max_integers": false, "num_integers": false,
	"array_of_distribs": true, "array_of_dargs": true, "array_of_psizes": true, "array_of_integers": true,
}

// largeParam widens one parameter of fn's _c twin.
func largeParam(fn string, p Param) Param {
	base := strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(p.Type, "const ")), "")
	constQ := strings.HasPrefix(p.Type, "const ")
	elem := strings.TrimSpace(strings.TrimRight(base, "* "))
	stars := strings.Count(base, "*")
	isDispl := strings.Contains(p.Name, "displs") || p.Name == "displs"
	isType := strings.HasPrefix(fn, "MPI_Type_")
	var to string
	switch {
	case elem == "int" && !intStays[p.Name]:
		to = "MPI_Count"
		if isDispl && !isType {
			to = "MPI_Aint"
		}
		if fn == "MPI_Type_create_darray" && p.Name == "size" {
			return p
		}
		if p.Name == "disp_unit" {
			to = "MPI_Aint"
		}
		if strings.HasPrefix(fn, "MPI_Type_get_contents") && p.Name != "max_integers" && p.Name != "max_addresses" && p.Name != "max_datatypes" {
			return p
		}
		if strings.HasPrefix(fn, "MPI_Type_get_envelope") && p.Name == "combiner" {
			return p
		}
	case elem == "MPI_Aint" && fn == "MPI_Type_get_contents":
		return p
	case elem == "MPI_Aint" && isType && p.Name != "lb" && p.Name != "extent" || elem == "MPI_Aint" && isType && fn == "MPI_Type_create_resized":
		to = "MPI_Count"
	case elem == "MPI_Aint" && strings.Contains(fn, "ack_external"):
		to = "MPI_Count"
	case elem == "MPI_Aint" && (fn == "MPI_Type_get_extent" || fn == "MPI_Type_get_true_extent" || fn == "MPI_File_get_type_extent"):
		to = "MPI_Count"
	case elem == "MPI_User_function" || elem == "MPI_Datarep_conversion_function":
		to = elem + "_c"
	default:
		return p
	}
	t := to
	if stars > 0 {
		t += " " + strings.Repeat("*", stars)
	}
	if constQ {
		t = "const " + t
	}
	return Param{Type: t, Name: p.Name, Array: p.Array}
}

// largeCountFunctions derives every _c twin from the functions in all.
func largeCountFunctions(all []Function) []Function {
	byName := map[string]Function{}
	for _, f := range all {
		byName[f.Name] = f
	}
	names := append([]string(nil), largeCountNames...)
	for _, b := range largeCollectives {
		rest := strings.TrimPrefix(b, "MPI_")
		names = append(names, b, "MPI_I"+strings.ToLower(rest[:1])+rest[1:], b+"_init")
	}
	var out []Function
	for _, n := range names {
		f, ok := byName[n]
		if !ok {
			panic("abi: no base prototype for large-count " + n + "_c")
		}
		c := f
		c.Name = n + "_c"
		c.Group = "large count"
		c.Deprecated = false
		c.Params = nil
		for _, p := range f.Params {
			c.Params = append(c.Params, largeParam(n, p))
		}
		if n == "MPI_Type_get_envelope" || n == "MPI_Type_get_contents" {
			c.Params = largeEnvelope(n, c.Params)
		}
		out = append(out, c)
	}
	return out
}

// largeEnvelope adds the large-count slots of the decoding calls: a count
// of MPI_Count values and the array that returns them.
func largeEnvelope(n string, ps []Param) []Param {
	var out []Param
	for _, p := range ps {
		out = append(out, p)
		switch {
		case n == "MPI_Type_get_envelope" && p.Name == "num_addresses":
			out = append(out, Param{Type: "MPI_Count *", Name: "num_large_counts"})
		case n == "MPI_Type_get_contents" && p.Name == "max_addresses":
			out = append(out, Param{Type: "MPI_Count", Name: "max_large_counts"})
		case n == "MPI_Type_get_contents" && p.Name == "array_of_addresses":
			out = append(out, Param{Type: "MPI_Count", Name: "array_of_large_counts", Array: "[]"})
		}
	}
	return out
}
