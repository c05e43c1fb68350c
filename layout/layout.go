// Package layout describes memory that Go and the library's C fast paths
// (capi/fastpath.h, fastslot.h, shmcoll.h) both read and write: constants and
// struct layouts, taken from the Go definitions by the packages that own
// them, so cmd/genlayout can write them into capi/layout_gen.h. Nothing on
// the C side restates a number Go defines.
package layout

import (
	"fmt"
	"reflect"
)

// Const is one integer constant shared with C.
type Const struct {
	Name    string // C macro name
	Value   int64
	Comment string // the Go definition it comes from
}

// Field is one member of a shared struct.
type Field struct {
	Name   string // C member name
	CType  string
	Offset uintptr
	Size   uintptr
}

// Struct is a Go struct's layout as C must see it.
type Struct struct {
	Name    string // C typedef name
	GoName  string
	Size    uintptr
	Align   uintptr
	Fields  []Field
	Comment string
}

// Of describes the Go struct value v as the C typedef cname; names maps Go
// field names to C member names (a missing entry: the Go name; "_" fields
// become padding members).
func Of(cname string, v any, names map[string]string, comment string) Struct {
	t := reflect.TypeOf(v)
	s := Struct{Name: cname, GoName: t.String(), Size: t.Size(), Align: uintptr(t.Align()), Comment: comment}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Name
		if n, ok := names[name]; ok {
			name = n
		}
		if name == "_" {
			name = fmt.Sprintf("pad%d", i)
		}
		s.Fields = append(s.Fields, Field{Name: name, CType: cType(f.Type), Offset: f.Offset, Size: f.Type.Size()})
	}
	return s
}

func cType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Uint8:
		return "uint8_t"
	case reflect.Int8:
		return "int8_t"
	case reflect.Uint16:
		return "uint16_t"
	case reflect.Int16:
		return "int16_t"
	case reflect.Uint32:
		return "uint32_t"
	case reflect.Int32:
		return "int32_t"
	case reflect.Uint64:
		return "uint64_t"
	case reflect.Int64:
		return "int64_t"
	}
	panic("layout: no C type for " + t.String())
}
