/* MPI_T events and event sources (MPI-4.0 15.3.8): registrations are small
 * integers carried in MPI_T_event_registration; each call crosses into Go
 * once (mpit_events.go), which calls the tool's callbacks back through the
 * trampolines here. */
#include <stdint.h>
#include "gompi.h"
#include "_cgo_export.h"

#define H(x) ((uintptr_t)(x))
#define REG(x) ((MPI_T_event_registration)(uintptr_t)(x))

void gompi_t_call_event(void *fn, void *inst, uintptr_t reg, int safety, void *user)
{
    ((MPI_T_event_cb_function *)fn)((MPI_T_event_instance)inst, REG(reg), (MPI_T_cb_safety)safety, user);
}

void gompi_t_call_free(void *fn, uintptr_t reg, int safety, void *user)
{
    ((MPI_T_event_free_cb_function *)fn)(REG(reg), (MPI_T_cb_safety)safety, user);
}

void gompi_t_call_dropped(void *fn, long count, uintptr_t reg, int source, int safety, void *user)
{
    ((MPI_T_event_dropped_cb_function *)fn)(count, REG(reg), source, (MPI_T_cb_safety)safety, user);
}

int PMPI_T_event_get_num(int *num_events) { return gompi_T_event_get_num(0, num_events); }
#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num
int PMPI_T_source_get_num(int *num_sources) { return gompi_T_event_get_num(1, num_sources); }
#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements,
                          MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind)
{
    return gompi_T_event_get_info(event_index, name, name_len, verbosity, array_of_datatypes, array_of_displacements,
                                  num_elements, (uintptr_t *)enumtype, info, desc, desc_len, bind);
}
#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info

int PMPI_T_event_get_index(const char *name, int *event_index)
{
    return gompi_T_event_get_index((char *)name, event_index);
}
#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    return gompi_T_event_handle_alloc(event_index, obj_handle, info, (uintptr_t *)event_registration);
}
#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    return gompi_T_event_handle_info(H(event_registration), info, NULL, 1);
}
#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    return gompi_T_event_handle_info(H(event_registration), MPI_INFO_NULL, info_used, 0);
}
#pragma weak MPI_T_event_handle_get_info = PMPI_T_event_handle_get_info

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info, void *user_data, MPI_T_event_cb_function *event_cb_function)
{
    return gompi_T_event_register_callback(H(event_registration), (int)cb_safety, info, user_data,
                                           (void *)event_cb_function);
}
#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info)
{
    return gompi_T_event_callback_info(H(event_registration), (int)cb_safety, info, NULL, 1);
}
#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    return gompi_T_event_callback_info(H(event_registration), (int)cb_safety, MPI_INFO_NULL, info_used, 0);
}
#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    return gompi_T_event_handle_free(H(event_registration), user_data, (void *)free_cb_function);
}
#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    return gompi_T_event_set_dropped_handler(H(event_registration), (void *)dropped_cb_function);
}
#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    return gompi_T_event_instance_op(event_instance, 0, element_index, buffer);
}
#pragma weak MPI_T_event_read = PMPI_T_event_read

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    return gompi_T_event_instance_op(event_instance, 1, 0, buffer);
}
#pragma weak MPI_T_event_copy = PMPI_T_event_copy

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    return gompi_T_event_instance_op(event_instance, 2, 0, event_timestamp);
}
#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    return gompi_T_event_instance_op(event_instance, 3, 0, source_index);
}
#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    return gompi_T_source_get_info(source_index, name, name_len, desc, desc_len, (int *)ordering, ticks_per_second,
                                   max_ticks, info);
}
#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    return gompi_T_source_get_timestamp(source_index, timestamp);
}
#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    return gompi_T_category_num_events(cat_index, num_events);
}
#pragma weak MPI_T_category_get_num_events = PMPI_T_category_get_num_events

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    return gompi_T_category_list(3, cat_index, len, indices);
}
#pragma weak MPI_T_category_get_events = PMPI_T_category_get_events
