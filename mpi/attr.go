package mpi

import (
	"fmt"

	"gompi/abi"
	"gompi/attr"
	"gompi/datatype"
)

// Predefined attribute keyvals (MPI_TAG_UB...) are builtin handles answered
// from this table on every communicator; they cannot be set, deleted or freed.
var predefinedKeyvals = map[int32]string{
	abi.AttrTagUB:         "MPI_TAG_UB",
	abi.AttrHost:          "MPI_HOST",
	abi.AttrIO:            "MPI_IO",
	abi.AttrWtimeIsGlobal: "MPI_WTIME_IS_GLOBAL",
	abi.AttrUniverseSize:  "MPI_UNIVERSE_SIZE",
	abi.AttrLastUsedCode:  "MPI_LASTUSEDCODE",
	abi.AttrAppnum:        "MPI_APPNUM",
}

// IsPredefinedKeyval reports whether kv is one of the predefined
// communicator attribute keys.
func IsPredefinedKeyval(kv int32) bool {
	_, ok := predefinedKeyvals[kv]
	return ok
}

// PredefinedAttr is the value of a predefined communicator attribute: the
// largest tag, no host process (MPI_PROC_NULL), every process can do I/O
// (MPI_ANY_SOURCE), clocks not synchronised, the universe is the world, the
// largest error code in use, and application number 0.
func PredefinedAttr(kv int32) (int, bool) {
	switch kv {
	case abi.AttrTagUB:
		return abi.TagUB, true
	case abi.AttrHost:
		return abi.ProcNull, true
	case abi.AttrIO:
		return abi.AnySource, true
	case abi.AttrWtimeIsGlobal:
		return 0, true
	case abi.AttrUniverseSize:
		return universeSize(), true
	case abi.AttrLastUsedCode:
		return LastUsedCode(), true
	case abi.AttrAppnum:
		return appNum(), true
	}
	return 0, false
}

// CreateKeyval makes a keyval for objects of the given kind
// (MPI_Comm/Type/Win_create_keyval, MPI_Keyval_create).
func CreateKeyval(kind attr.Kind, cp attr.CopyFn, del attr.DeleteFn, extra uintptr) *attr.Keyval {
	return attr.NewKeyval(kind, cp, del, extra)
}

var kindNames = map[attr.Kind]string{attr.Comm: "communicator", attr.Datatype: "datatype", attr.Win: "window"}

// KeyvalArg resolves a keyval handle for objects of kind; anything else is
// MPI_ERR_KEYVAL (raised by the caller). A keyval the user has freed but
// that objects still use resolves, so its attributes stay reachable.
func KeyvalArg(call string, h int32, kind attr.Kind) (*attr.Keyval, *Error) {
	if IsPredefinedKeyval(h) {
		if kind == attr.Comm {
			return nil, nil
		}
		return nil, errf(abi.ErrKeyval, call, "%s is a communicator attribute", predefinedKeyvals[h])
	}
	k := attr.Lookup(h)
	if k == nil {
		if h == abi.KeyvalInvalid {
			return nil, errf(abi.ErrKeyval, call, "keyval is MPI_KEYVAL_INVALID")
		}
		return nil, errf(abi.ErrKeyval, call, "invalid keyval %#x", uint32(h))
	}
	if k.Kind != kind {
		return nil, errf(abi.ErrKeyval, call, "the keyval is for %s attributes, not %s ones", kindNames[k.Kind], kindNames[kind])
	}
	return k, nil
}

// FreeKeyval drops the user's handle to a keyval (MPI_*_free_keyval).
func FreeKeyval(call string, h int32, kind attr.Kind) *Error {
	if IsPredefinedKeyval(h) {
		return errf(abi.ErrKeyval, call, "%s is predefined and cannot be freed", predefinedKeyvals[h])
	}
	k, e := KeyvalArg(call, h, kind)
	if e != nil {
		return e
	}
	if k.Freed() {
		// The handle still resolves because attributes hold the keyval; as
		// MPICH, a second free through a copy of the handle changes nothing.
		return nil
	}
	k.Free()
	return nil
}

// callbackErr is the error of a failing attribute callback: its code, as the
// callback returned it, and that code's class.
func callbackErr(call, what string, rc int) *Error {
	class, ok := ErrorClass(rc)
	if !ok {
		class = abi.ErrOther
	}
	return &Error{Class: class, Call: call, ErrCode: rc, Detail: fmt.Sprintf("the attribute %s callback returned error code %d", what, rc)}
}

// SetAttr caches val on c under k (MPI_Comm_set_attr); an old value is
// passed to the delete callback first.
func (c *Comm) SetAttr(k *attr.Keyval, val uintptr) error {
	if k.Freed() {
		return c.raise(errf(abi.ErrKeyval, "MPI_Comm_set_attr", "the keyval was freed"))
	}
	if rc := c.Attrs.Set(c.Handle, k, val); rc != 0 {
		return c.raise(callbackErr("MPI_Comm_set_attr", "delete", rc))
	}
	return nil
}

// GetAttr returns the value cached on c under k (MPI_Comm_get_attr).
func (c *Comm) GetAttr(k *attr.Keyval) (uintptr, bool) { return c.Attrs.Get(k) }

// DeleteAttr removes c's attribute under k after its delete callback
// (MPI_Comm_delete_attr).
func (c *Comm) DeleteAttr(k *attr.Keyval) error {
	if rc := c.Attrs.Delete(c.Handle, k); rc != 0 {
		return c.raise(callbackErr("MPI_Comm_delete_attr", "delete", rc))
	}
	return nil
}

// copyAttrs runs the copy callbacks of c's attributes onto dup (MPI_Comm_dup).
// A failure is raised on c; dup is left without attributes.
func (c *Comm) copyAttrs(dup *Comm) error {
	if rc := c.Attrs.CopyTo(c.Handle, &dup.Attrs, dup.Handle); rc != 0 {
		return c.raise(callbackErr("MPI_Comm_dup", "copy", rc))
	}
	return nil
}

// deleteAttrs runs the delete callbacks of c's attributes (MPI_Comm_free),
// the most recently set first. A failure is raised on c and the remaining
// attributes stay; the caller must then not free c.
func (c *Comm) deleteAttrs() error {
	if rc := c.Attrs.DeleteAll(c.Handle); rc != 0 {
		return c.raise(callbackErr("MPI_Comm_free", "delete", rc))
	}
	return nil
}

// FinalizeAttrs deletes the attributes of MPI_COMM_SELF then
// MPI_COMM_WORLD, as MPI_Finalize must before anything else.
func FinalizeAttrs() error {
	if st.self != nil {
		if err := st.self.deleteAttrs(); err != nil {
			return err
		}
	}
	if st.world != nil {
		return st.world.deleteAttrs()
	}
	return nil
}

// SetTypeAttr caches val on t (MPI_Type_set_attr).
func SetTypeAttr(t *datatype.Type, k *attr.Keyval, val uintptr) error {
	if k.Freed() {
		return Raise(nil, abi.ErrKeyval, "MPI_Type_set_attr", "the keyval was freed")
	}
	if rc := t.Attrs.Set(t.Handle, k, val); rc != 0 {
		return st.world.raise(callbackErr("MPI_Type_set_attr", "delete", rc))
	}
	return nil
}

// DeleteTypeAttr removes t's attribute under k (MPI_Type_delete_attr).
func DeleteTypeAttr(t *datatype.Type, k *attr.Keyval) error {
	if rc := t.Attrs.Delete(t.Handle, k); rc != 0 {
		return st.world.raise(callbackErr("MPI_Type_delete_attr", "delete", rc))
	}
	return nil
}

// CopyTypeAttrs runs the copy callbacks of old's attributes onto dup
// (MPI_Type_dup); a failure is raised on MPI_COMM_WORLD.
func CopyTypeAttrs(old, dup *datatype.Type) error {
	if rc := old.Attrs.CopyTo(old.Handle, &dup.Attrs, dup.Handle); rc != 0 {
		return st.world.raise(callbackErr("MPI_Type_dup", "copy", rc))
	}
	return nil
}

// DeleteTypeAttrs runs the delete callbacks of t's attributes (MPI_Type_free);
// a failure is raised on MPI_COMM_WORLD.
func DeleteTypeAttrs(t *datatype.Type) error {
	if rc := t.Attrs.DeleteAll(t.Handle); rc != 0 {
		return st.world.raise(callbackErr("MPI_Type_free", "delete", rc))
	}
	return nil
}
