package main

/*
#include <stdint.h>
#include <stdlib.h>
#include "gompi.h"

// One raised event, in C memory: the MPI_T_event_instance a callback gets.
typedef struct {
	int event;
	int source;
	long long ts;
	unsigned char data[32];
} gompi_t_instance;

void gompi_t_call_event(void *fn, void *inst, uintptr_t reg, int safety, void *user);
void gompi_t_call_free(void *fn, uintptr_t reg, int safety, void *user);
void gompi_t_call_dropped(void *fn, long count, uintptr_t reg, int source, int safety, void *user);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/mpit"
)

// MPI_T events (MPI-4.0 15.3.8). A registration is a small integer carried
// in MPI_T_event_registration; callbacks run in the thread that raises the
// event, inside the library, so the safety level they are called with is
// MPI_T_CB_REQUIRE_MPI_RESTRICTED. A registration without a callback of at
// least that level drops the event (its dropped handler hears of it).

const (
	cbNone = iota
	cbRestricted
	cbThreadSafe
	cbAsyncSafe
	cbLevels
)

type evCallback struct {
	fn, user unsafe.Pointer
	info     *info.Info
}

type evReg struct {
	id      uintptr
	ev      int
	cbs     [cbLevels]evCallback
	dropped unsafe.Pointer
	info    *info.Info
}

var (
	evRegs   = map[uintptr]*evReg{}
	evByType [mpit.NumEventTypes][]*evReg
	evNextID uintptr               = 1
	evLive   []*C.gompi_t_instance // instances whose callbacks are running
)

func init() { mpit.Deliver = deliverEvent }

func deliverEvent(ev int, data []byte, ts int64) {
	regs := evByType[ev]
	if len(regs) == 0 {
		return
	}
	inst := (*C.gompi_t_instance)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gompi_t_instance{}))))
	inst.event, inst.source, inst.ts = C.int(ev), 0, C.longlong(ts)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&inst.data[0])), len(inst.data)), data)
	evLive = append(evLive, inst)
	for _, r := range regs {
		var cb *evCallback
		for l := cbRestricted; l < cbLevels; l++ {
			if r.cbs[l].fn != nil {
				cb = &r.cbs[l]
				break
			}
		}
		if cb == nil {
			if r.dropped != nil {
				C.gompi_t_call_dropped(r.dropped, 1, C.uintptr_t(r.id), 0, cbRestricted, r.cbs[cbNone].user)
			}
			continue
		}
		C.gompi_t_call_event(cb.fn, unsafe.Pointer(inst), C.uintptr_t(r.id), cbRestricted, cb.user)
	}
	evLive = evLive[:len(evLive)-1]
	C.free(unsafe.Pointer(inst))
}

func liveInstance(p unsafe.Pointer) *C.gompi_t_instance {
	for _, in := range evLive {
		if unsafe.Pointer(in) == p {
			return in
		}
	}
	return nil
}

func evRegArg(h C.uintptr_t) (*evReg, C.int) {
	if rc := tReady(); rc != 0 {
		return nil, rc
	}
	r := evRegs[uintptr(h)]
	if r == nil {
		return nil, abi.TErrInvalidHandle
	}
	return r, 0
}

// evInfo resolves an info argument (MPI_INFO_NULL allowed).
func evInfo(h C.int) (*info.Info, bool) {
	if int32(h) == abi.InfoNull {
		return nil, true
	}
	in := mpi.InfoFromHandle(int32(h))
	if in == nil {
		return nil, false
	}
	return in.Dup(), true
}

func infoOut(in *info.Info, out *C.int) {
	if out == nil {
		return
	}
	if in == nil {
		in = info.New()
	}
	*out = C.int(mpi.NewInfoHandle(in.Dup()))
}

//export gompi_T_event_get_num
func gompi_T_event_get_num(what C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if out == nil {
		return abi.TErrInvalid
	}
	*out = C.int(mpit.NumEvents())
	if what == 1 {
		*out = 1 // event sources: the process's monotonic clock
	}
	return 0
}

//export gompi_T_event_get_info
func gompi_T_event_get_info(i C.int, name *C.char, nameLen, verbosity *C.int, types *C.int, displs *C.long,
	num *C.int, enumtype *C.uintptr_t, inf *C.int, desc *C.char, descLen, bind *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	e := mpit.EventAt(int(i))
	if e == nil {
		return abi.TErrInvalidIndex
	}
	putString(e.Name, name, nameLen)
	putString(e.Desc, desc, descLen)
	setInt(verbosity, abi.TVerbosityUserBasic)
	setInt(bind, abi.TBindNoObject)
	if num != nil {
		n := min(int(*num), len(e.Elems))
		for k := 0; k < n; k++ {
			if types != nil {
				unsafe.Slice(types, n)[k] = C.int(e.Elems[k].Type)
			}
			if displs != nil {
				unsafe.Slice(displs, n)[k] = C.long(e.Elems[k].Off)
			}
		}
		*num = C.int(len(e.Elems))
	}
	if enumtype != nil {
		*enumtype = 0
	}
	infoOut(nil, inf)
	return 0
}

//export gompi_T_event_get_index
func gompi_T_event_get_index(name *C.char, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if name == nil || out == nil {
		return abi.TErrInvalid
	}
	i := mpit.EventIndex(C.GoString(name))
	if i < 0 {
		return abi.TErrInvalidName
	}
	*out = C.int(i)
	return 0
}

//export gompi_T_event_handle_alloc
func gompi_T_event_handle_alloc(i C.int, obj unsafe.Pointer, inf C.int, out *C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if out == nil {
		return abi.TErrInvalid
	}
	if mpit.EventAt(int(i)) == nil {
		return abi.TErrInvalidIndex
	}
	in, ok := evInfo(inf)
	if !ok {
		return abi.TErrInvalid
	}
	r := &evReg{id: evNextID, ev: int(i), info: in}
	evNextID++
	evRegs[r.id] = r
	evByType[r.ev] = append(evByType[r.ev], r)
	mpit.On[r.ev] = true
	*out = C.uintptr_t(r.id)
	return 0
}

//export gompi_T_event_handle_info
func gompi_T_event_handle_info(h C.uintptr_t, inf C.int, out *C.int, set C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := evRegArg(h)
	if r == nil {
		return rc
	}
	if set == 0 {
		infoOut(r.info, out)
		return 0
	}
	in, ok := evInfo(inf)
	if !ok {
		return abi.TErrInvalid
	}
	r.info = in
	return 0
}

//export gompi_T_event_register_callback
func gompi_T_event_register_callback(h C.uintptr_t, safety C.int, inf C.int, user, fn unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := evRegArg(h)
	if r == nil {
		return rc
	}
	if safety < cbNone || safety >= cbLevels {
		return abi.TErrInvalid
	}
	in, ok := evInfo(inf)
	if !ok {
		return abi.TErrInvalid
	}
	// A NULL function removes the callback of that level.
	r.cbs[safety] = evCallback{fn: fn, user: user, info: in}
	return 0
}

//export gompi_T_event_callback_info
func gompi_T_event_callback_info(h C.uintptr_t, safety C.int, inf C.int, out *C.int, set C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := evRegArg(h)
	if r == nil {
		return rc
	}
	if safety < cbNone || safety >= cbLevels {
		return abi.TErrInvalid
	}
	if set == 0 {
		infoOut(r.cbs[safety].info, out)
		return 0
	}
	in, ok := evInfo(inf)
	if !ok {
		return abi.TErrInvalid
	}
	r.cbs[safety].info = in
	return 0
}

//export gompi_T_event_handle_free
func gompi_T_event_handle_free(h C.uintptr_t, user, fn unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := evRegArg(h)
	if r == nil {
		return rc
	}
	delete(evRegs, r.id)
	l := evByType[r.ev]
	for k, x := range l {
		if x == r {
			evByType[r.ev] = append(l[:k:k], l[k+1:]...)
			break
		}
	}
	mpit.On[r.ev] = len(evByType[r.ev]) > 0
	if fn != nil {
		C.gompi_t_call_free(fn, C.uintptr_t(r.id), cbNone, user)
	}
	return 0
}

//export gompi_T_event_set_dropped_handler
func gompi_T_event_set_dropped_handler(h C.uintptr_t, fn unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := evRegArg(h)
	if r == nil {
		return rc
	}
	r.dropped = fn
	return 0
}

// gompi_T_event_instance_op reads an instance: op 0 one element (i) into
// buf, 1 all its data, 2 its timestamp, 3 its source.
//
//export gompi_T_event_instance_op
func gompi_T_event_instance_op(p unsafe.Pointer, op, i C.int, buf unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if buf == nil {
		return abi.TErrInvalid
	}
	in := liveInstance(p)
	if in == nil {
		return abi.TErrInvalidHandle
	}
	e := mpit.EventAt(int(in.event))
	data := unsafe.Slice((*byte)(unsafe.Pointer(&in.data[0])), e.Bytes)
	switch op {
	case 0:
		if i < 0 || int(i) >= len(e.Elems) {
			return abi.TErrInvalidIndex
		}
		el := e.Elems[i]
		copy(unsafe.Slice((*byte)(buf), el.Size), data[el.Off:el.Off+el.Size])
	case 1:
		copy(unsafe.Slice((*byte)(buf), e.Bytes), data)
	case 2:
		*(*int64)(buf) = int64(in.ts)
	default:
		*(*C.int)(buf) = in.source
	}
	return 0
}

//export gompi_T_source_get_info
func gompi_T_source_get_info(i C.int, name *C.char, nameLen *C.int, desc *C.char, descLen *C.int, order *C.int,
	ticks, maxTicks *C.long, inf *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if i != 0 {
		return abi.TErrInvalidIndex
	}
	putString("gompi_clock", name, nameLen)
	putString("The process's monotonic clock, in nanoseconds since it started; every gompi event is stamped with it, in order.", desc, descLen)
	setInt(order, 0) // MPI_T_SOURCE_ORDERED
	if ticks != nil {
		*ticks = 1_000_000_000
	}
	if maxTicks != nil {
		*maxTicks = 1<<63 - 1
	}
	infoOut(nil, inf)
	return 0
}

//export gompi_T_source_get_timestamp
func gompi_T_source_get_timestamp(i C.int, out *C.long) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if out == nil {
		return abi.TErrInvalid
	}
	if i != 0 {
		return abi.TErrInvalidIndex
	}
	*out = C.long(mpit.Now())
	return 0
}
