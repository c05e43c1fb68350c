package abi

// Typedefs is every type of mpi.h in declaration order: scalar and handle
// types, the status structure, then callback function types.
var Typedefs = []Typedef{
	{Name: "MPI_Aint", Decl: "typedef long MPI_Aint;"},
	{Name: "MPI_Offset", Decl: "typedef long MPI_Offset; // MPICH uses long: same C++ mangling as MPICH builds"},
	{Name: "MPI_Count", Decl: "typedef long MPI_Count;"},
	{Name: "MPI_Fint", Decl: "typedef int MPI_Fint;"},
	{Name: "MPI_Comm", Decl: "typedef int MPI_Comm;"},
	{Name: "MPI_Group", Decl: "typedef int MPI_Group;"},
	{Name: "MPI_Datatype", Decl: "typedef int MPI_Datatype;"},
	{Name: "MPI_Request", Decl: "typedef int MPI_Request;"},
	{Name: "MPI_Message", Decl: "typedef int MPI_Message;"},
	{Name: "MPI_Op", Decl: "typedef int MPI_Op;"},
	{Name: "MPI_Errhandler", Decl: "typedef int MPI_Errhandler;"},
	{Name: "MPI_Win", Decl: "typedef int MPI_Win;"},
	{Name: "MPI_Info", Decl: "typedef int MPI_Info;"},
	{Name: "MPI_Session", Decl: "typedef int MPI_Session;"},
	// MPICH's MPI_File is a pointer to ROMIO's file structure; the same
	// struct tag keeps C++ symbols that mention MPI_File link-compatible.
	{Name: "MPI_File", Decl: "typedef struct ADIOI_FileD *MPI_File;"},
	{Name: "MPI_T_enum", Decl: "typedef struct MPIR_T_enum_s *MPI_T_enum;"},
	{Name: "MPI_T_cvar_handle", Decl: "typedef struct MPIR_T_cvar_handle_s *MPI_T_cvar_handle;"},
	{Name: "MPI_T_pvar_handle", Decl: "typedef struct MPIR_T_pvar_handle_s *MPI_T_pvar_handle;"},
	{Name: "MPI_T_pvar_session", Decl: "typedef struct MPIR_T_pvar_session_s *MPI_T_pvar_session;"},
	{Name: "MPI_T_event_registration", Decl: "typedef struct MPIR_T_event_registration_s *MPI_T_event_registration;"},
	{Name: "MPI_T_event_instance", Decl: "typedef struct MPIR_T_event_instance_s *MPI_T_event_instance;"},
	{Name: "MPI_T_cb_safety", Decl: `typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;`},
	{Name: "MPI_T_source_order", Decl: `typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;`},
	{Name: "MPI_Status", Decl: `typedef struct MPI_Status {
    int count_lo;
    int count_hi_and_cancelled;
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
} MPI_Status;`},
	{Name: "MPI_F08_status", Decl: `typedef struct {
    MPI_Fint count_lo;
    MPI_Fint count_hi_and_cancelled;
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
} MPI_F08_status;`},
}

// StatusFields is the layout of MPI_Status (all int), in order.
var StatusFields = []string{"count_lo", "count_hi_and_cancelled", "MPI_SOURCE", "MPI_TAG", "MPI_ERROR"}

// callbackProtos are the callback function types of the standard, with
// MPI-3 parameter names.
const callbackProtos = `
void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag)
int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state)
int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag)
int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val, void *extra_state)
int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag)
int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state)
int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag)
int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...)
void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...)
void MPI_File_errhandler_function(MPI_File *file, int *error_code, ...)
void MPI_Session_errhandler_function(MPI_Session *session, int *error_code, ...)
void MPI_Handler_function(MPI_Comm *comm, int *error_code, ...)
int MPI_Grequest_query_function(void *extra_state, MPI_Status *status)
int MPI_Grequest_free_function(void *extra_state)
int MPI_Grequest_cancel_function(void *extra_state, int complete)
int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position, void *extra_state)
int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state)
void MPI_T_event_cb_function(MPI_T_event_instance event_instance, MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, void *user_data)
void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, void *user_data)
void MPI_T_event_dropped_cb_function(MPI_Count count, MPI_T_event_registration event_registration, int source_index, MPI_T_cb_safety cb_safety, void *user_data)
void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype)
int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf, MPI_Offset position, void *extra_state)
`

// Callbacks is every callback function type, in declaration order.
var Callbacks = parseProtos("callbacks", callbackProtos)

// aliasTypedefs are the MPI-2 names of the error handler function types.
var aliasTypedefs = []Typedef{
	{Name: "MPI_Comm_errhandler_fn", Decl: "typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;"},
	{Name: "MPI_Win_errhandler_fn", Decl: "typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;"},
	{Name: "MPI_File_errhandler_fn", Decl: "typedef MPI_File_errhandler_function MPI_File_errhandler_fn;"},
	{Name: "MPI_Session_errhandler_fn", Decl: "typedef MPI_Session_errhandler_function MPI_Session_errhandler_fn;"},
}

// AllTypedefs returns scalar, handle and status types, then callbacks and
// their aliases, in the order the header declares them.
func AllTypedefs() []Typedef {
	out := append([]Typedef(nil), Typedefs...)
	for i := range Callbacks {
		out = append(out, Typedef{Name: Callbacks[i].Name, Fn: &Callbacks[i]})
	}
	return append(out, aliasTypedefs...)
}
