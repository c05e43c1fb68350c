package mpi

import (
	"gompi/abi"
	"gompi/datatype"
	"gompi/info"
	fio "gompi/io"
)

// datarepCode numbers the representations this library knows.
func datarepCode(rep string) int64 {
	switch rep {
	case "native":
		return 1
	case "internal":
		return 2
	case "external32":
		return 3
	}
	return 0
}

// SetView is MPI_File_set_view (collective).
func (f *File) SetView(disp int64, etype, ftype *datatype.Type, datarep string, in *info.Info) error {
	const call = "MPI_File_set_view"
	if f.split != nil {
		return f.raise(errf(abi.ErrOther, call, "a split collective is pending"))
	}
	f.drain()
	code := datarepCode(datarep)
	rep := datareps[datarep]
	if rep != nil {
		code = userRepCode(datarep)
	}
	if code == 0 {
		return f.raise(errf(abi.ErrUnsupportedDatarep, call, "unknown data representation %q", datarep))
	}
	if etype.Size <= 0 {
		return f.raise(errf(abi.ErrType, call, "the etype holds no data"))
	}
	if !ftype.Committed && !ftype.Builtin {
		return f.raise(errf(abi.ErrType, call, "the filetype is not committed"))
	}
	if ftype.Size%etype.Size != 0 {
		return f.raise(errf(abi.ErrType, call, "the filetype's size (%d) is not a multiple of the etype's (%d)", ftype.Size, etype.Size))
	}
	if disp == abi.DisplacementCurrent {
		if f.amode&abi.ModeSequential == 0 {
			return f.raise(errf(abi.ErrArg, call, "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL"))
		}
		p, err := f.sharedGet()
		if err != nil {
			return f.raise(errf(abi.ErrIO, call, "%v", err))
		}
		disp = f.view.ByteOffset(p * f.view.Etype)
	} else if disp < 0 {
		return f.raise(errf(abi.ErrArg, call, "negative displacement %d", disp))
	}
	// In external32 or a user representation the etype and filetype are
	// laid out with the file's element sizes (datatype.InFile).
	fe, ff := etype, ftype
	if code >= 3 {
		size := datatype.External32Size
		if rep != nil {
			size = rep.basicSize
		}
		var err error
		if fe, err = datatype.InFile(etype, size); err == nil {
			ff, err = datatype.InFile(ftype, size)
		}
		if err != nil {
			return f.raise(errf(abi.ErrUnsupportedDatarep, call, "%v", err))
		}
	}
	esize := int64(fe.Size)
	var blocks []fio.Block
	extent := int64(ff.Extent)
	for _, b := range ff.BlockList() {
		blocks = append(blocks, fio.Block{Off: b.Off, Len: b.Len})
	}
	v, err := fio.NewView(disp, esize, blocks, extent)
	if err != nil {
		return f.raise(errf(abi.ErrType, call, "%v", err))
	}
	all, err := allInts(f.comm, esize<<8|code)
	if err != nil {
		return err
	}
	for _, x := range all {
		if x != esize<<8|code {
			return f.raise(errf(abi.ErrNotSame, call, "ranks passed different data representations or etype sizes"))
		}
	}
	etype.Hold()
	ftype.Hold()
	f.releaseView()
	f.view, f.etype, f.ftype, f.datarep, f.rep = v, etype, ftype, datarep, rep
	f.pos = 0
	if f.comm.Rank() == 0 {
		f.sharedSet(0)
	}
	f.SetInfo(in)
	return f.comm.Barrier()
}

func (f *File) releaseView() {
	if f.etype != nil {
		f.etype.Release()
		f.ftype.Release()
	}
}

// View returns the current view; derived types come back as new
// duplicates the caller frees (as MPICH does).
func (f *File) View() (disp int64, etype, ftype *datatype.Type, datarep string, err error) {
	etype, ftype = f.etype, f.ftype
	if !etype.Builtin {
		if etype, err = TypeDup(etype); err != nil {
			return
		}
	}
	if !ftype.Builtin {
		if ftype, err = TypeDup(ftype); err != nil {
			return
		}
	}
	return f.view.Disp, etype, ftype, f.datarep, nil
}

// TypeExtent is MPI_File_get_type_extent in the file's representation.
func (f *File) TypeExtent(dt *datatype.Type) int64 {
	if f.datarep == "native" || f.datarep == "internal" {
		return int64(dt.Extent)
	}
	size := datatype.External32Size
	if f.rep != nil {
		size = f.rep.basicSize
	}
	ft, err := datatype.InFile(dt, size)
	if err != nil {
		return int64(dt.Extent)
	}
	return int64(ft.Extent)
}

// ByteOffset is MPI_File_get_byte_offset: view offset (etypes) to file byte.
func (f *File) ByteOffset(off int64) (int64, error) {
	if off < 0 {
		return 0, f.raise(errf(abi.ErrArg, "MPI_File_get_byte_offset", "negative offset %d", off))
	}
	return f.view.ByteOffset(off * f.view.Etype), nil
}

// Position is MPI_File_get_position (etypes).
func (f *File) Position() int64 { return f.pos }

// SeekIndividual is MPI_File_seek on the individual pointer.
func (f *File) SeekIndividual(off int64, whence int) error {
	const call = "MPI_File_seek"
	if f.amode&abi.ModeSequential != 0 {
		return f.raise(errf(abi.ErrUnsupportedOperation, call, "file opened with MPI_MODE_SEQUENTIAL"))
	}
	p, err := f.seekTarget(call, f.pos, off, whence)
	if err != nil {
		return err
	}
	f.pos = p
	return nil
}

func (f *File) seekTarget(call string, cur, off int64, whence int) (int64, error) {
	var p int64
	switch whence {
	case abi.SeekSet:
		p = off
	case abi.SeekCur:
		p = cur + off
	case abi.SeekEnd:
		p = f.view.DataBefore(f.size())/f.view.Etype + off
	default:
		return 0, f.raise(errf(abi.ErrArg, call, "invalid whence %d", whence))
	}
	if p < 0 {
		return 0, f.raise(errf(abi.ErrArg, call, "the new position %d is negative", p))
	}
	return p, nil
}
