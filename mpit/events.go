package mpit

import (
	"encoding/binary"
	"time"

	"gompi/abi"
)

// Events (MPI-4.0 15.3.8): the library raises an event only while a tool
// holds a registration for it. The check on the hot path is one load of
// On[ev]; everything else happens when a tool listens.

// Event indices; the order is the MPI_T event index.
const (
	EvCommCreated = iota // a communicator was created: handle, size, context id
	EvUnexpected         // a message arrived that no receive matched: source, tag, bytes
	EvRendezvous         // a send started the rendezvous protocol: destination, tag, bytes
	NumEventTypes
)

// Element is one datum of an event: its type and offset in the event's data.
type Element struct {
	Type int32 // a predefined datatype handle
	Off  int
	Size int
}

// Event describes one event type.
type Event struct {
	Name, Desc string
	Category   string
	Elems      []Element
	Bytes      int // size of the event's data
}

// On says, per event type, whether any registration listens: the only
// cost an event has when no tool is attached.
var On [NumEventTypes]bool

// Deliver hands a raised event to the registrations (set by capi): the
// event index, its data, and its timestamp.
var Deliver func(ev int, data []byte, ts int64)

var events = []*Event{
	{Name: "gompi_comm_created", Desc: "A communicator was created: its handle, size and context id.",
		Category: "gompi_events", Elems: elems(abi.Int, 4, abi.Int, 4, abi.Uint32, 4)},
	{Name: "gompi_unexpected_message", Desc: "A message arrived that no posted receive matched (queued as unexpected): source rank, tag and size in bytes.",
		Category: "gompi_events", Elems: elems(abi.Int, 4, abi.Int, 4, abi.Count, 8)},
	{Name: "gompi_rendezvous_start", Desc: "A send started the rendezvous protocol (a large message): destination rank, tag and size in bytes.",
		Category: "gompi_events", Elems: elems(abi.Int, 4, abi.Int, 4, abi.Count, 8)},
}

func init() {
	for i, e := range events {
		for _, el := range e.Elems {
			e.Bytes = max(e.Bytes, el.Off+el.Size)
		}
		c := category(e.Category)
		c.Events = append(c.Events, i)
	}
	AddCategory("gompi_events", "Events gompi raises for tools (MPI_T_event_*).", "")
}

// elems lays out (type, size) pairs at their natural alignment.
func elems(ts ...any) []Element {
	var out []Element
	off := 0
	for i := 0; i < len(ts); i += 2 {
		t, n := ts[i].(int32), ts[i+1].(int)
		off = (off + n - 1) / n * n
		out = append(out, Element{Type: t, Off: off, Size: n})
		off += n
	}
	return out
}

// NumEvents is the number of event types.
func NumEvents() int { return len(events) }

// EventAt returns event type i, or nil.
func EventAt(i int) *Event {
	if i < 0 || i >= len(events) {
		return nil
	}
	return events[i]
}

// EventIndex returns the index of the named event type, or -1.
func EventIndex(name string) int {
	for i, e := range events {
		if e.Name == name {
			return i
		}
	}
	return -1
}

var clockBase = time.Now()

// Now is the event source's clock: nanoseconds since the process started
// (monotonic).
func Now() int64 { return int64(time.Since(clockBase)) }

// raise packs the values of ev's elements (in order) and delivers them.
func raise(ev int, vals ...int64) {
	e := events[ev]
	var buf [32]byte
	for i, el := range e.Elems {
		switch el.Size {
		case 4:
			binary.LittleEndian.PutUint32(buf[el.Off:], uint32(vals[i]))
		default:
			binary.LittleEndian.PutUint64(buf[el.Off:], uint64(vals[i]))
		}
	}
	if Deliver != nil {
		Deliver(ev, buf[:e.Bytes], Now())
	}
}

// RaiseCommCreated reports a new communicator; callers test On first.
func RaiseCommCreated(handle int32, size int, ctx uint32) {
	raise(EvCommCreated, int64(handle), int64(size), int64(ctx))
}

// RaiseUnexpected reports an unexpected message; callers test On first.
func RaiseUnexpected(src, tag int32, bytes int) {
	raise(EvUnexpected, int64(src), int64(tag), int64(bytes))
}

// RaiseRendezvous reports a rendezvous send; callers test On first.
func RaiseRendezvous(dst, tag int32, bytes int) {
	raise(EvRendezvous, int64(dst), int64(tag), int64(bytes))
}
