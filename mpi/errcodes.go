package mpi

import "gompi/abi"

// User error classes and codes (MPI_Add_error_class/code/string). Like
// MPICH's, they lie above MPI_ERR_LASTCODE, so no user value can be mistaken
// for a predefined one: classes count up from userClassBase, codes from
// userCodeBase.
const (
	userClassBase = abi.ErrLastcode + 1 // 0x40000000
	userCodeBase  = 0x60000000
)

type userCode struct {
	class int
	text  string
}

var (
	userCodes = map[int]*userCode{}
	nextClass = userClassBase
	nextCode  = userCodeBase
)

// AddErrorClass creates a new error class (MPI_Add_error_class).
func AddErrorClass() int {
	c := nextClass
	nextClass++
	userCodes[c] = &userCode{class: c}
	return c
}

// AddErrorCode creates a new code in class (MPI_Add_error_code); an unknown
// class is MPI_ERR_ARG.
func AddErrorCode(class int) (int, error) {
	if _, ok := classStrings[class]; !ok {
		if u, ok := userCodes[class]; !ok || u.class != class {
			return 0, errf(abi.ErrArg, "MPI_Add_error_code", "errorclass %d is not an error class", class)
		}
	}
	c := nextCode
	nextCode++
	userCodes[c] = &userCode{class: class}
	return c, nil
}

// AddErrorString sets the text of a user class or code
// (MPI_Add_error_string). Predefined codes and unknown values are
// MPI_ERR_ARG, as is a text longer than MPI_MAX_ERROR_STRING-1.
func AddErrorString(code int, text string) error {
	u, ok := userCodes[code]
	if !ok {
		return errf(abi.ErrArg, "MPI_Add_error_string", "errorcode %d is not a user error class or code", code)
	}
	if len(text) > abi.MaxErrorString-1 {
		return errf(abi.ErrArg, "MPI_Add_error_string", "the string is %d characters long, more than MPI_MAX_ERROR_STRING-1", len(text))
	}
	u.text = text
	return nil
}

// ErrorClass maps a code to its class (MPI_Error_class).
func ErrorClass(code int) (int, bool) {
	if _, ok := classStrings[code]; ok {
		return code, true
	}
	if u, ok := userCodes[code]; ok {
		return u.class, true
	}
	return 0, false
}

// LastUsedCode is the MPI_LASTUSEDCODE attribute: the largest error code or
// class in use.
func LastUsedCode() int {
	last := abi.ErrLastcode
	if nextClass > userClassBase {
		last = nextClass - 1
	}
	if nextCode > userCodeBase {
		last = nextCode - 1
	}
	return last
}
