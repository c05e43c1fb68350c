package datatype

import "gompi/abi"

// InFile rebuilds t as it lies in a file of another data representation
// (external32, or a user one from MPI_Register_datarep): every basic element
// takes size(elem) bytes, and the constructors are replayed from t's
// contents, so displacements given in elements (vector, indexed, subarray,
// darray...) scale with the new sizes while those given in bytes (hvector,
// hindexed, struct, resized) stay as they are (MPI-4.1 §14.5.1). The result
// is committed and holds no user handle. A basic type of size 0 (no file
// form) is an error.
func InFile(t *Type, size func(*Type) int64) (*Type, error) {
	memo := map[*Type]*Type{}
	var rebuild func(t *Type) (*Type, error)
	rebuild = func(t *Type) (*Type, error) {
		if r := memo[t]; r != nil {
			return r, nil
		}
		ints, addrs, types := t.ints, t.addrs, t.types
		var olds []*Type
		for _, o := range types {
			r, err := rebuild(o)
			if err != nil {
				return nil, err
			}
			olds = append(olds, r)
		}
		var r *Type
		var err error
		switch t.combiner {
		case abi.CombinerDup:
			r = olds[0]
		case abi.CombinerContiguous:
			r, err = Contiguous(ints[0], olds[0])
		case abi.CombinerVector:
			r, err = Vector(ints[0], ints[1], ints[2], olds[0])
		case abi.CombinerHvector, abi.CombinerHvectorInteger:
			r, err = Hvector(ints[0], ints[1], addrs[0], olds[0])
		case abi.CombinerIndexed:
			n := ints[0]
			r, err = Indexed(ints[1:1+n], ints[1+n:1+2*n], olds[0])
		case abi.CombinerHindexed, abi.CombinerHindexedInteger:
			n := ints[0]
			r, err = Hindexed(ints[1:1+n], addrs[:n], olds[0])
		case abi.CombinerIndexedBlock:
			r, err = IndexedBlock(ints[1], ints[2:2+ints[0]], olds[0])
		case abi.CombinerHindexedBlock:
			r, err = HindexedBlock(ints[1], addrs[:ints[0]], olds[0])
		case abi.CombinerStruct, abi.CombinerStructInteger:
			n := ints[0]
			r, err = Struct(ints[1:1+n], addrs[:n], olds)
		case abi.CombinerResized:
			r, err = Resized(olds[0], addrs[0], addrs[1])
		case abi.CombinerSubarray:
			n := ints[0]
			r, err = Subarray(ints[1:1+n], ints[1+n:1+2*n], ints[1+2*n:1+3*n], ints[1+3*n], olds[0])
		case abi.CombinerDarray:
			n := ints[2]
			g := ints[3:]
			r, err = Darray(ints[0], ints[1], g[:n], g[n:2*n], g[2*n:3*n], g[3*n:4*n], g[4*n], olds[0])
		default: // named and f90 types: basic elements
			s := size(t)
			if s <= 0 {
				return nil, argErr(abi.ErrUnsupportedDatarep, "%s has no form in this data representation", t.Name)
			}
			r = build([]piece{{t: Predefined(abi.Byte), n: s, reps: 1}}, false)
		}
		if err != nil {
			return nil, err
		}
		memo[t] = r
		return r, nil
	}
	r, err := rebuild(t)
	if err != nil {
		return nil, err
	}
	r.Commit()
	return r, nil
}

// External32Size is the size of a basic type in external32 (0: none).
func External32Size(t *Type) int64 {
	if t.Builtin || t.Named {
		return int64(ext32[t.Handle].size)
	}
	return 0
}
