// Package mpit is the registry behind the MPI tools interface (MPI_T):
// control variables (the library's GOMPI_* settings), performance variables
// (counters the layers keep), their categories and enumerations, and pvar
// sessions and handles. The layers register their variables at package
// initialisation, so everything is listed before MPI_Init; values come from
// the functions they register. Calls return an MPI_T error class (0: ok).
// It depends only on abi; callers serialise access (MPI_T_init_thread
// provides at most MPI_THREAD_SERIALIZED).
package mpit

import (
	"strconv"

	"gompi/abi"
)

// Enum is an MPI_T enumeration: item i has value i.
type Enum struct {
	Name  string
	Items []string
}

// Cvar is a control variable. Get returns its value in effect as the
// setting's text ("" when unset: the default applies); Set changes it and
// returns an error class (nil: never writable).
type Cvar struct {
	Name, Desc string
	Verbosity  int
	Scope      int
	Str        bool  // an MPI_CHAR string, else MPI_INT
	Enum       *Enum // an MPI_INT whose values are Enum's items
	Default    string
	Category   string
	Get        func() string
	Set        func(string) int
}

// Pvar is a performance variable. Read returns its current value (for a
// timer: nanoseconds, shown in seconds as MPI_DOUBLE). Counters and timers
// are started and stopped per handle; levels and watermarks are continuous
// and read-only.
type Pvar struct {
	Name, Desc string
	Verbosity  int
	Class      int
	Category   string
	Read       func() uint64
	// Timing is told when the first handle of a timer starts (true) and
	// the last one stops (false): measuring costs only while asked for.
	Timing  func(bool)
	started int
}

// Continuous reports whether the variable is always active (no start/stop).
func (p *Pvar) Continuous() bool { return !p.resettable() }

// Readonly reports whether handles can be written or reset.
func (p *Pvar) Readonly() bool { return !p.resettable() }

func (p *Pvar) resettable() bool {
	return p.Class == abi.TPvarClassCounter || p.Class == abi.TPvarClassTimer
}

// Double reports whether the value is an MPI_DOUBLE (timers: seconds).
func (p *Pvar) Double() bool { return p.Class == abi.TPvarClassTimer }

// Category groups variables (and subcategories) for listing.
type Category struct {
	Name, Desc string
	Cvars      []int
	Pvars      []int
	Cats       []int
	Events     []int
}

var (
	cvars []*Cvar
	pvars []*Pvar
	cats  []*Category
	enums []*Enum
	stamp int // bumped when a category changes (MPI_T_category_changed)
)

// AddCategory registers (or describes) a category, optionally below parent.
func AddCategory(name, desc, parent string) {
	c := category(name)
	c.Desc = desc
	if parent != "" {
		p := category(parent)
		p.Cats = append(p.Cats, indexOfCat(name))
	}
}

func category(name string) *Category {
	if i := indexOfCat(name); i >= 0 {
		return cats[i]
	}
	c := &Category{Name: name}
	cats = append(cats, c)
	stamp++
	return c
}

func indexOfCat(name string) int {
	for i, c := range cats {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// AddCvar registers a control variable.
func AddCvar(v *Cvar) {
	cvars = append(cvars, v)
	if v.Enum != nil {
		addEnum(v.Enum)
	}
	if v.Category != "" {
		c := category(v.Category)
		c.Cvars = append(c.Cvars, len(cvars)-1)
		stamp++
	}
}

// AddPvar registers a performance variable.
func AddPvar(v *Pvar) {
	pvars = append(pvars, v)
	if v.Category != "" {
		c := category(v.Category)
		c.Pvars = append(c.Pvars, len(pvars)-1)
		stamp++
	}
}

func addEnum(e *Enum) {
	for _, x := range enums {
		if x == e {
			return
		}
	}
	enums = append(enums, e)
}

// Counts of registered objects.
func NumCvars() int      { return len(cvars) }
func NumPvars() int      { return len(pvars) }
func NumCategories() int { return len(cats) }
func Stamp() int         { return stamp }

// CvarAt, PvarAt and CategoryAt return the object at index i (nil: invalid).
func CvarAt(i int) *Cvar {
	if i < 0 || i >= len(cvars) {
		return nil
	}
	return cvars[i]
}

func PvarAt(i int) *Pvar {
	if i < 0 || i >= len(pvars) {
		return nil
	}
	return pvars[i]
}

func CategoryAt(i int) *Category {
	if i < 0 || i >= len(cats) {
		return nil
	}
	return cats[i]
}

// EnumID is the handle number of e (index+1; 0 is MPI_T_ENUM_NULL).
func EnumID(e *Enum) int {
	for i, x := range enums {
		if x == e {
			return i + 1
		}
	}
	return 0
}

// EnumAt resolves an enumeration handle number.
func EnumAt(id int) *Enum {
	if id < 1 || id > len(enums) {
		return nil
	}
	return enums[id-1]
}

// CvarIndex, PvarIndex and CategoryIndex find names (-1: none).
func CvarIndex(name string) int {
	for i, v := range cvars {
		if v.Name == name {
			return i
		}
	}
	return -1
}

func PvarIndex(name string, class int) int {
	for i, v := range pvars {
		if v.Name == name && v.Class == class {
			return i
		}
	}
	return -1
}

func CategoryIndex(name string) int { return indexOfCat(name) }

// ReadInt is an MPI_INT control variable's value: its setting parsed as
// the library parses sizes (k, m, g suffixes), an enum's item index, or the
// default when unset or unparsable.
func (v *Cvar) ReadInt() int {
	s := v.Get()
	if v.Enum != nil {
		if s == "" {
			s = v.Default
		}
		for i, it := range v.Enum.Items {
			if it == s {
				return i
			}
		}
		return 0
	}
	if n, ok := ParseSize(s); ok {
		return n
	}
	n, _ := ParseSize(v.Default)
	return n
}

// ReadString is an MPI_CHAR control variable's value.
func (v *Cvar) ReadString() string {
	if s := v.Get(); s != "" {
		return s
	}
	return v.Default
}

// unsettable is the error of writing a variable without a setter: one of
// scope MPI_T_SCOPE_CONSTANT or READONLY can never be written, which MPI-4.1
// reports as MPI_T_ERR_NOT_ACCESSIBLE; any other can no longer be set.
func (v *Cvar) unsettable() int {
	if v.Scope == abi.TScopeConstant || v.Scope == abi.TScopeReadonly {
		return abi.TErrNotAccessible
	}
	return abi.TErrCvarSetNever
}

// WriteInt sets an MPI_INT control variable.
func (v *Cvar) WriteInt(n int) int {
	if v.Set == nil {
		return v.unsettable()
	}
	if v.Enum != nil {
		if n < 0 || n >= len(v.Enum.Items) {
			return abi.TErrInvalid
		}
		return v.Set(v.Enum.Items[n])
	}
	return v.Set(strconv.Itoa(n))
}

// WriteString sets an MPI_CHAR control variable.
func (v *Cvar) WriteString(s string) int {
	if v.Set == nil {
		return v.unsettable()
	}
	return v.Set(s)
}

// ParseSize reads a byte count with an optional k/m/g suffix (powers of
// 1024), the form of the library's size settings.
func ParseSize(v string) (int, bool) {
	if v == "" {
		return 0, false
	}
	mult := 1
	switch v[len(v)-1] {
	case 'k', 'K':
		mult, v = 1<<10, v[:len(v)-1]
	case 'm', 'M':
		mult, v = 1<<20, v[:len(v)-1]
	case 'g', 'G':
		mult, v = 1<<30, v[:len(v)-1]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return n * mult, true
}
