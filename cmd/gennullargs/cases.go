package main

import (
	"strings"

	"gompi/abi"
)

// testCase is one call with one pointer argument NULL.
type testCase struct {
	fn      abi.Function
	param   string   // the argument passed as NULL
	args    []string // C expressions, in order
	pre     string   // statements before the call
	allowed []string // classes accepted (MPI_SUCCESS when NULL is legal)
	note    string   // where the expectation comes from
}

// skipFuncs are not called at all: they start or end the library, or end
// the job.
var skipFuncs = map[string]string{
	"MPI_Init":        "NULL argc/argv are legal; called once by the program",
	"MPI_Init_thread": "NULL argc/argv are legal; called once by the program",
	"MPI_Finalize":    "no pointer argument; ends the library",
	"MPI_Abort":       "no pointer argument; ends the job",
	"MPIR_Dup_fn":     "a callback, not an MPI call",
}

// legalNull says why NULL is a legal value of parameter p of f, or "".
func legalNull(f abi.Function, p abi.Param) string {
	t := strings.TrimPrefix(cType(p), "const ")
	switch {
	case strings.HasSuffix(t, "_copy_attr_function *"), strings.HasSuffix(t, "_delete_attr_function *"),
		t == "MPI_Copy_function *", t == "MPI_Delete_function *":
		return "MPI_*_NULL_COPY_FN / NULL_DELETE_FN are NULL"
	case t == "MPI_Datarep_conversion_function *", t == "MPI_Datarep_conversion_function_c *":
		return "MPI_CONVERSION_FN_NULL is NULL"
	case strings.HasPrefix(t, "MPI_T_event_") && strings.HasSuffix(t, "_cb_function *"):
		return "a NULL event callback removes one (register_callback, set_dropped_handler) or asks for none (handle_free)"
	case t == "char * *" && p.Name == "argv", t == "char ** *":
		return "MPI_ARGV_NULL / MPI_ARGVS_NULL are NULL"
	case f.Name == "MPI_Session_get_nth_pset" && p.Name == "pset_name":
		// MPI-4.1 11.3.2: with *pset_len 0 (as here) the call only returns
		// the length and does not touch pset_name.
		return "MPI_Session_get_nth_pset with pset_len 0 only queries the length"
	case p.Name == "array_of_errcodes":
		return "MPI_ERRCODES_IGNORE is NULL"
	case strings.HasPrefix(f.Name, "MPI_T_") && strings.HasSuffix(f.Name, "_get_info") && !strings.HasPrefix(f.Name, "MPI_T_enum_"):
		// MPI-4.1 15.3.7, 15.3.8, 15.3.9: a NULL OUT argument of
		// MPI_T_{cvar,pvar,category}_get_info is ignored (not returned).
		return "MPI_T_*_get_info ignores NULL OUT arguments"
	case t == "void *" && outPointer[f.Name+"."+p.Name]:
		return ""
	case t == "void *" && (p.Name == "extra_state" || p.Name == "attribute_val" || p.Name == "location"):
		return "an opaque value, any address is legal"
	case t == "void *" && p.Name == "buffer" && f.Name == "MPI_Buffer_attach":
		return ""
	case t == "void *":
		return "a buffer: NULL is MPI_BOTTOM"
	}
	return ""
}

// outPointer marks void * parameters that are really pointers to a pointer
// the call writes.
var outPointer = map[string]bool{
	"MPI_Alloc_mem.baseptr":           true,
	"MPI_Buffer_detach.buffer_addr":   true,
	"MPI_Comm_get_attr.attribute_val": true,
	"MPI_Type_get_attr.attribute_val": true,
	"MPI_Win_get_attr.attribute_val":  true,
	"MPI_Attr_get.attribute_val":      true,
	"MPI_Win_allocate.baseptr":        true,
	"MPI_Win_allocate_shared.baseptr": true,
	"MPI_Win_shared_query.baseptr":    true,
}

// cType is the type of parameter p as a C cast: an array declarator T x[]
// decays to T *, and T x[][N] to T (*)[N].
func cType(p abi.Param) string {
	switch {
	case p.Array == "":
		return p.Type
	case p.Array == "[]":
		return p.Type + " *"
	case strings.HasPrefix(p.Array, "[]"):
		return p.Type + " (*)" + strings.TrimPrefix(p.Array, "[]")
	}
	return p.Type + " *"
}

func isPointer(p abi.Param) bool { return strings.HasSuffix(p.Type, "*") || p.Array != "" }

// commFor is the communicator a function is called on: topology queries
// need a communicator with that topology, the rest run on a duplicate of
// MPI_COMM_SELF (no rank waits for another, whatever the rank count).
func commFor(f abi.Function) string {
	n := f.Name
	switch {
	case strings.HasPrefix(n, "MPI_Cart_") && n != "MPI_Cart_create" && n != "MPI_Cart_map",
		n == "MPI_Cartdim_get", n == "MPI_Topo_test",
		strings.HasPrefix(n, "MPI_Neighbor_"), strings.HasPrefix(n, "MPI_Ineighbor_"):
		return "g_cart"
	case strings.HasPrefix(n, "MPI_Graph") && n != "MPI_Graph_create" && n != "MPI_Graph_map":
		return "g_graph"
	case strings.HasPrefix(n, "MPI_Dist_graph_neighbors"):
		return "g_dgraph"
	case f.Group == "p2p":
		return "g_p2p"
	}
	return "g_self"
}

// intValue is the value of a plain int argument, by name.
var intValue = map[string]string{
	"root": "0", "dest": "0", "source": "0", "rank": "0", "tag": "0", "sendtag": "0", "recvtag": "0",
	"color": "0", "key": "0", "reorder": "0", "local_leader": "0", "remote_leader": "0", "high": "0",
	"direction": "0", "disp": "1", "commute": "1", "flag": "0", "n": "1", "index": "0",
	"order": "MPI_ORDER_C", "split_type": "MPI_COMM_TYPE_SHARED", "typeclass": "MPI_TYPECLASS_INTEGER",
	"required": "MPI_THREAD_SINGLE", "errorcode": "MPI_ERR_ARG", "errorclass": "MPI_ERR_ARG",
	"outsize": "64", "insize": "64", "size": "4", "stride": "1", "valuelen": "64",
	"max_integers": "8", "max_addresses": "8", "max_datatypes": "8", "assert": "0",
	"target_rank": "0",
}

// special holds per-function argument values ("MPI_X.param") where the
// defaults by type and name do not make a valid call.
var special = map[string]string{
	"MPI_Buffer_attach.size":                   "sizeof g_attach",
	"MPI_Add_error_string.errorcode":           "g_errcode",
	"MPI_Add_error_code.errorclass":            "g_errclass",
	"MPI_Type_create_f90_integer.r":            "4",
	"MPI_Type_create_f90_real.p":               "6",
	"MPI_Type_create_f90_real.r":               "MPI_UNDEFINED",
	"MPI_Type_create_f90_complex.p":            "6",
	"MPI_Type_create_f90_complex.r":            "MPI_UNDEFINED",
	"MPI_Type_create_darray.size":              "1",
	"MPI_Type_create_darray.array_of_distribs": "g_distribs",
	"MPI_Type_create_darray.array_of_dargs":    "g_dargs",
	"MPI_Type_create_resized.extent":           "4",
	"MPI_Graph_create.index":                   "g_ones",
	"MPI_Graph_map.index":                      "g_ones",
	"MPI_Group_range_incl.ranges":              "g_range",
	"MPI_Group_range_excl.ranges":              "g_range",
	"MPI_Intercomm_create.peer_comm":           "MPI_COMM_WORLD",
	"MPI_Comm_create.group":                    "g_group",
	"MPI_Type_get_contents.datatype":           "g_vtype",
	"MPI_Type_get_envelope.datatype":           "g_vtype",
	"MPI_Type_set_name.datatype":               "g_vtype",
	"MPI_Type_get_name.datatype":               "g_vtype",
	"MPI_Type_get_attr.datatype":               "g_vtype",
	"MPI_Type_set_attr.datatype":               "g_vtype",
	"MPI_Type_get_attr.type_keyval":            "g_tkeyval",
	"MPI_Type_set_attr.type_keyval":            "g_tkeyval",
	"MPI_Comm_get_attr.comm_keyval":            "g_keyval",
	"MPI_Comm_set_attr.comm_keyval":            "g_keyval",
	"MPI_Attr_get.keyval":                      "g_keyval",
	"MPI_Attr_put.keyval":                      "g_keyval",
	"MPI_Type_match_size.size":                 "4",
	"MPI_Info_get_nthkey.n":                    "0",
	"MPI_Alloc_mem.size":                       "64",
	"MPI_Free_mem.base":                        "o_ptr",
	"MPI_Buffer_attach.buffer":                 "g_attach",
	"MPI_Request_get_status.request":           "g_reqs[0]",
	"MPI_Comm_dup_with_info.info":              "g_info",
	"MPI_Comm_set_info.info":                   "g_info",
	"MPI_Status_set_cancelled.flag":            "0",
	"MPI_Comm_spawn_multiple.array_of_info":    "g_infos",
}

// pre holds statements run before the call so that the object it needs
// exists (a message to receive, a request to wait for, an object to free).
var pre = map[string]string{
	"MPI_Recv":                "send_self();",
	"MPI_Probe":               "send_self();",
	"MPI_Iprobe":              "send_self();",
	"MPI_Mprobe":              "send_self();",
	"MPI_Improbe":             "send_self();",
	"MPI_Mrecv":               "send_self(); MPI_Mprobe(0, 0, g_p2p, &o_msg, MPI_STATUS_IGNORE);",
	"MPI_Imrecv":              "send_self(); MPI_Mprobe(0, 0, g_p2p, &o_msg, MPI_STATUS_IGNORE);",
	"MPI_Wait":                "done_req();",
	"MPI_Test":                "done_req();",
	"MPI_Waitany":             "done_req();",
	"MPI_Testany":             "done_req();",
	"MPI_Waitall":             "done_req();",
	"MPI_Testall":             "done_req();",
	"MPI_Waitsome":            "done_req();",
	"MPI_Testsome":            "done_req();",
	"MPI_Request_get_status":  "done_req();",
	"MPI_Request_free":        "done_req();",
	"MPI_Cancel":              "MPI_Irecv(g_buf2, 1, MPI_INT, 0, 1, g_p2p, &g_reqs[0]);",
	"MPI_Start":               "MPI_Recv_init(g_buf2, 1, MPI_INT, 0, 1, g_p2p, &g_reqs[0]);",
	"MPI_Startall":            "MPI_Recv_init(g_buf2, 1, MPI_INT, 0, 1, g_p2p, &g_reqs[0]);",
	"MPI_Comm_free":           "MPI_Comm_dup(g_self, &o_comm);",
	"MPI_Group_free":          "MPI_Comm_group(g_self, &o_group);",
	"MPI_Type_commit":         "MPI_Type_contiguous(2, MPI_INT, &o_type[0]);",
	"MPI_Type_free":           "MPI_Type_contiguous(2, MPI_INT, &o_type[0]);",
	"MPI_Info_free":           "MPI_Info_create(&o_info);",
	"MPI_Op_free":             "MPI_Op_create(g_ufn, 1, &o_op);",
	"MPI_Errhandler_free":     "MPI_Comm_create_errhandler(g_efn, &o_errh);",
	"MPI_Comm_free_keyval":    "MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &o_int[0], NULL);",
	"MPI_Type_free_keyval":    "MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &o_int[0], NULL);",
	"MPI_Keyval_free":         "MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &o_int[0], NULL);",
	"MPI_Win_free_keyval":     "MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &o_int[0], NULL);",
	"MPI_Free_mem":            "MPI_Alloc_mem(64, MPI_INFO_NULL, &o_ptr);",
	"MPI_Buffer_detach":       "MPI_Buffer_attach(g_attach, sizeof g_attach);",
	"MPI_Info_delete":         "MPI_Info_set(g_info, g_key, g_val);",
	"MPI_Info_get_string":     "o_int[0] = 64;",
	"MPI_Status_set_elements": "",
	"MPI_Pready_list":         "MPI_Psend_init(g_buf, 1, 1, MPI_INT, 0, 3, g_p2p, MPI_INFO_NULL, &g_reqs[0]);",
	"MPI_Parrived":            "MPI_Precv_init(g_buf2, 1, 1, MPI_INT, 0, 3, g_p2p, MPI_INFO_NULL, &g_reqs[0]);",
}

// baseName is the int-count call of a large-count MPI_X_c (MPI_X): both
// need the same valid arguments and set-up.
func baseName(name string) string {
	return strings.TrimSuffix(name, "_c")
}

// argFor is the valid C expression passed for parameter p of f.
func argFor(f abi.Function, p abi.Param) string {
	if v, ok := special[f.Name+"."+p.Name]; ok {
		return v
	}
	if v, ok := special[baseName(f.Name)+"."+p.Name]; ok {
		return v
	}
	t := strings.TrimPrefix(p.Type, "const ")
	name := p.Name
	arr := p.Array != ""
	if arr {
		t += " *"
	}
	switch t {
	case "int":
		if v, ok := intValue[name]; ok {
			return v
		}
		return "1"
	case "MPI_Aint", "MPI_Count", "MPI_Offset":
		switch name {
		case "size", "outsize", "insize":
			return "64"
		case "extent", "stride":
			return "4"
		case "lb", "displacement", "target_disp":
			return "0"
		}
		return "1"
	case "MPI_Comm":
		return commFor(f)
	case "MPI_Datatype":
		return "MPI_INT"
	case "MPI_Op":
		return "MPI_SUM"
	case "MPI_Group":
		return "g_group"
	case "MPI_Info":
		if strings.HasPrefix(f.Name, "MPI_Info_") {
			return "g_info"
		}
		return "MPI_INFO_NULL"
	case "MPI_Errhandler":
		return "MPI_ERRORS_RETURN"
	case "MPI_Request":
		return "g_reqs[0]"
	case "MPI_Win":
		return "g_win"
	case "MPI_File":
		return "g_file"
	case "MPI_Session":
		return "g_session"
	case "MPI_Fint":
		return "0"
	case "void *":
		switch {
		case outPointer[f.Name+"."+name]:
			return "&o_ptr"
		case name == "recvbuf" || name == "inoutbuf" || name == "outbuf" || name == "result_addr":
			return "g_buf2"
		}
		return "g_buf"
	case "int *":
		if !strings.HasPrefix(p.Type, "const") && !arr {
			return "o_int"
		}
		switch {
		case strings.Contains(name, "displs") || strings.Contains(name, "displacements"):
			return "g_iota"
		case strings.Contains(name, "count") || strings.Contains(name, "blocklength") ||
			name == "dims" || name == "periods" || name == "remain_dims" || name == "degrees" ||
			strings.Contains(name, "sizes") || name == "array_of_psizes":
			return "g_ones"
		case strings.Contains(name, "weights"):
			return "MPI_UNWEIGHTED"
		}
		if !strings.HasPrefix(p.Type, "const") {
			return "o_int"
		}
		return "g_zeros"
	case "int (*)[3] *", "int [][3] *":
		return "g_range"
	case "MPI_Aint *":
		if strings.HasPrefix(p.Type, "const") {
			return "g_aints"
		}
		return "o_aint"
	case "MPI_Count *":
		return "o_count"
	case "MPI_Offset *":
		return "o_offset"
	case "MPI_Status *":
		return "g_status"
	case "MPI_Request *":
		return "g_reqs"
	case "MPI_Comm *":
		return "&o_comm"
	case "MPI_Group *":
		return "&o_group"
	case "MPI_Datatype *":
		if strings.HasPrefix(p.Type, "const") {
			return "g_types"
		}
		return "o_type"
	case "MPI_Info *":
		return "&o_info"
	case "MPI_Errhandler *":
		return "&o_errh"
	case "MPI_Op *":
		return "&o_op"
	case "MPI_Message *":
		return "&o_msg"
	case "MPI_Win *":
		return "&o_win"
	case "MPI_File *":
		return "&o_file"
	case "MPI_Session *":
		return "&o_session"
	case "MPI_Fint *":
		return "o_fint"
	case "char *":
		switch {
		case strings.HasPrefix(p.Type, "const") && name == "datarep":
			return `"external32"`
		case strings.HasPrefix(p.Type, "const") && name == "key":
			return "g_key"
		case strings.HasPrefix(p.Type, "const"):
			return "g_val"
		}
		return "o_str"
	case "MPI_User_function *":
		return "g_ufn"
	case "MPI_Comm_errhandler_function *", "MPI_Handler_function *":
		return "g_efn"
	case "MPI_Win_errhandler_function *":
		return "g_wefn"
	case "MPI_File_errhandler_function *":
		return "g_fefn"
	case "char * *":
		// char *argv[] / char *array_of_commands[]: NULL-terminated or
		// count-long lists of strings.
		return "g_strs"
	case "char ** *":
		// char **array_of_argv[]: one empty argv per command.
		return "g_argvs"
	}
	if strings.HasSuffix(t, "*") {
		// A type this generator does not know: scratch memory, zeroed. An
		// array declarator (T x[]) is a T *, so the cast is to t, not p.Type.
		return "(" + cType(p) + ")(void *)o_scratch"
	}
	return "(" + t + ")0"
}

// buildCases makes one case per pointer parameter of every exported function
// whose NULL is not legal.
func buildCases(exported map[string]bool, mpich map[string]string) []testCase {
	var cases []testCase
	for _, f := range abi.Functions() {
		if !exported[f.Name] || f.Macro != "" {
			continue
		}
		if _, skip := skipFuncs[f.Name]; skip {
			continue
		}
		for i, p := range f.Params {
			if !isPointer(p) || legalNull(f, p) != "" {
				continue
			}
			c := testCase{fn: f, param: p.Name, pre: pre[baseName(f.Name)]}
			for j, q := range f.Params {
				a := argFor(f, q)
				if j == i {
					a = "NULL"
				}
				c.args = append(c.args, a)
			}
			c.allowed, c.note = expected(f.Name+"."+p.Name, mpich)
			cases = append(cases, c)
		}
	}
	return cases
}

// gompiChoice records where gompi deliberately differs from MPICH: the class
// it returns and why.
var gompiChoice = map[string]string{}

// expected is the set of classes accepted for a case: MPI_ERR_ARG, the
// standard's class for a NULL pointer argument, and whatever error class
// MPICH returns for the same call. When MPICH accepts the NULL (returns
// MPI_SUCCESS), gompi may accept it too.
func expected(key string, mpich map[string]string) ([]string, string) {
	allowed := []string{"MPI_ERR_ARG"}
	if strings.HasPrefix(key, "MPI_T_") {
		// MPI_T calls return MPI_T classes, no handler: a bad argument is
		// MPI_T_ERR_INVALID. The generator has no valid enumeration handle,
		// so the enum calls may report that first.
		allowed = []string{"MPI_T_ERR_INVALID"}
		if strings.HasPrefix(key, "MPI_T_enum_") {
			allowed = append(allowed, "MPI_T_ERR_INVALID_HANDLE")
		}
	}
	if c, ok := gompiChoice[key]; ok {
		return []string{c}, "gompi's choice"
	}
	m, ok := mpich[key]
	switch {
	case !ok:
		return allowed, "no MPICH record"
	case m == "CRASH" || m == "HANG":
		return allowed, "MPICH: " + m
	case m != "MPI_ERR_ARG":
		allowed = append(allowed, m)
	}
	return allowed, "MPICH: " + m
}
