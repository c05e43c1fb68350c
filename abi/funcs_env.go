package abi

// Environment, error handling, info objects, threads, sessions and the
// MPI-4 calls the benchmark suites use (MPI-3.1 chapters 8, 9, 12).
const envProtos = `
int MPI_Init(int *argc, char ***argv)
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
int MPI_Finalize(void)
int MPI_Initialized(int *flag)
int MPI_Finalized(int *flag)
int MPI_Abort(MPI_Comm comm, int errorcode)
int MPI_Query_thread(int *provided)
int MPI_Is_thread_main(int *flag)
int MPI_Get_version(int *version, int *subversion)
int MPI_Get_library_version(char *version, int *resultlen)
int MPI_Get_processor_name(char *name, int *resultlen)
double MPI_Wtime(void)
double MPI_Wtick(void)
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
int MPI_Free_mem(void *base)
int MPI_Pcontrol(const int level, ...)
int MPI_Get_hw_resource_info(MPI_Info *hw_info)
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
int MPI_Session_finalize(MPI_Session *session)
int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
`

const errhandlerProtos = `
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler)
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
int MPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn, MPI_Errhandler *errhandler)
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
int MPI_Errhandler_free(MPI_Errhandler *errhandler)
int MPI_Error_string(int errorcode, char *string, int *resultlen)
int MPI_Error_class(int errorcode, int *errorclass)
int MPI_Add_error_class(int *errorclass)
int MPI_Add_error_code(int errorclass, int *errorcode)
int MPI_Add_error_string(int errorcode, const char *string)
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
int MPI_Remove_error_class(int errorclass)
int MPI_Remove_error_code(int errorcode)
int MPI_Remove_error_string(int errorcode)
int MPI_Win_call_errhandler(MPI_Win win, int errorcode)
int MPI_File_call_errhandler(MPI_File fh, int errorcode)
int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler)
int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
int MPI_Session_call_errhandler(MPI_Session session, int errorcode)
`

// MPI-1 error handler calls removed in MPI-3 that MPICH still exports.
const errhandlerDeprecatedProtos = `
int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
`

const infoProtos = `
int MPI_Info_create(MPI_Info *info)
int MPI_Info_set(MPI_Info info, const char *key, const char *value)
int MPI_Info_delete(MPI_Info info, const char *key)
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
int MPI_Info_free(MPI_Info *info)
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
`

// Generalized requests and status helpers (chapter 12).
const externalProtos = `
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
int MPI_Grequest_complete(MPI_Request request)
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
int MPI_Status_set_cancelled(MPI_Status *status, int flag)
int MPI_Status_get_source(MPI_Status *status, int *source)
int MPI_Status_get_tag(MPI_Status *status, int *tag)
int MPI_Status_get_error(MPI_Status *status, int *error)
int MPI_Status_set_source(MPI_Status *status, int source)
int MPI_Status_set_tag(MPI_Status *status, int tag)
int MPI_Status_set_error(MPI_Status *status, int error)
`

// Process creation and management (chapter 10).
const spawnProtos = `
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
int MPI_Comm_get_parent(MPI_Comm *parent)
int MPI_Open_port(MPI_Info info, char *port_name)
int MPI_Close_port(const char *port_name)
int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
int MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
int MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
int MPI_Comm_disconnect(MPI_Comm *comm)
int MPI_Comm_join(int fd, MPI_Comm *intercomm)
`

// Language interoperability (chapter 17). Handles are integers, so the
// conversions of integer handles are casts, written as macros like MPICH.
const interopProtos = `
int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
MPI_Fint MPI_File_c2f(MPI_File file)
MPI_File MPI_File_f2c(MPI_Fint file)
`

// handleConversions lists the integer handle kinds with c2f/f2c macros.
var handleConversions = []struct{ Kind, CType, Arg string }{
	{"Comm", "MPI_Comm", "comm"},
	{"Type", "MPI_Datatype", "datatype"},
	{"Group", "MPI_Group", "group"},
	{"Info", "MPI_Info", "info"},
	{"Request", "MPI_Request", "request"},
	{"Op", "MPI_Op", "op"},
	{"Errhandler", "MPI_Errhandler", "errhandler"},
	{"Win", "MPI_Win", "win"},
	{"Message", "MPI_Message", "message"},
	{"Session", "MPI_Session", "session"},
}

// conversionFunctions builds MPI_X_c2f/MPI_X_f2c entries whose header form
// is a cast macro.
func conversionFunctions() []Function {
	var out []Function
	for _, h := range handleConversions {
		out = append(out,
			Function{Ret: "MPI_Fint", Name: "MPI_" + h.Kind + "_c2f", Group: "interop",
				Params: []Param{{Type: h.CType, Name: h.Arg}},
				Macro:  "((MPI_Fint)(" + h.Arg + "))"},
			Function{Ret: h.CType, Name: "MPI_" + h.Kind + "_f2c", Group: "interop",
				Params: []Param{{Type: "MPI_Fint", Name: h.Arg}},
				Macro:  "((" + h.CType + ")(" + h.Arg + "))"})
	}
	return out
}
