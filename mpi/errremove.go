package mpi

import "gompi/abi"

// MPI-4.1's removal of user error classes, codes and strings. A class goes
// only once no code of it is left; its number is not reused (later classes
// still count up), so a stale value can never name a new class.

func userEntry(call string, code int, wantClass bool) (*userCode, *Error) {
	u, ok := userCodes[code]
	if !ok {
		return nil, errf(abi.ErrArg, call, "%d is not a user error class or code", code)
	}
	if isClass := u.class == code; isClass != wantClass {
		if wantClass {
			return nil, errf(abi.ErrArg, call, "%d is an error code, not a class", code)
		}
		return nil, errf(abi.ErrArg, call, "%d is an error class, not a code", code)
	}
	return u, nil
}

// RemoveErrorClass removes a user class with no codes left (MPI_Remove_error_class).
func RemoveErrorClass(class int) error {
	const call = "MPI_Remove_error_class"
	if _, e := userEntry(call, class, true); e != nil {
		return Raise(nil, e.Class, call, e.Detail)
	}
	for c, u := range userCodes {
		if c != class && u.class == class {
			return Raise(nil, abi.ErrArg, call, "the class still has error codes; remove them first")
		}
	}
	delete(userCodes, class)
	return nil
}

// RemoveErrorCode removes a user code (MPI_Remove_error_code).
func RemoveErrorCode(code int) error {
	const call = "MPI_Remove_error_code"
	if _, e := userEntry(call, code, false); e != nil {
		return Raise(nil, e.Class, call, e.Detail)
	}
	delete(userCodes, code)
	return nil
}

// RemoveErrorString drops the text of a user class or code (MPI_Remove_error_string).
func RemoveErrorString(code int) error {
	const call = "MPI_Remove_error_string"
	u, ok := userCodes[code]
	if !ok {
		return Raise(nil, abi.ErrArg, call, "not a user error class or code")
	}
	u.text = ""
	return nil
}
