! gompi-test: np=1,2 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! Callbacks written in Fortran that gompi translates: a generalized
! request (MPI_GREQUEST_START with query, free and cancel procedures taking
! INTEGER(MPI_ADDRESS_KIND) extra state, a status array and a LOGICAL), and
! a user data representation (MPI_REGISTER_DATAREP with read/write
! conversions and an extent function; MPI_CONVERSION_FN_NULL for a second
! one) used by a file view.
module f90_callbacks_cb
  use mpi
  implicit none
  integer :: frees = 0, cancels = 0, extents = 0
contains
  subroutine query_fn(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierror
    call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, int(extra_state), ierror)
    status(MPI_SOURCE) = 7
    status(MPI_TAG) = 11
    ierror = MPI_SUCCESS
  end subroutine query_fn

  subroutine free_fn(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    frees = frees + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine free_fn

  subroutine cancel_fn(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    if (.not. complete) cancels = cancels + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine cancel_fn

  ! "f-neg": each INTEGER is stored negated (a conversion we can see).
  subroutine neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) ierror = MPI_ERR_CONVERSION
    do i = 1, count
      userbuf(position + i) = -filebuf(i)
    end do
  end subroutine neg_read

  subroutine neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) ierror = MPI_ERR_CONVERSION
    do i = 1, count
      filebuf(i) = -userbuf(position + i)
    end do
  end subroutine neg_write

  subroutine int_extent(datatype, extent, extra_state, ierror)
    integer :: datatype, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    extents = extents + 1
    extent = 4
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) ierror = MPI_ERR_TYPE
  end subroutine int_extent
end module f90_callbacks_cb

program f90_callbacks
  use mpi
  use f90_callbacks_cb
  implicit none
  integer :: ierr, rank, nbad, req, status(MPI_STATUS_SIZE), cnt, fh, i, pid
  integer :: v(8), back(8), raw(8)
  integer(kind=MPI_ADDRESS_KIND) :: es
  integer(kind=MPI_OFFSET_KIND) :: disp
  logical :: flag
  character(len=64) :: fname

  nbad = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)

  ! Generalized request: completed, then waited on.
  es = 5
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, es, req, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_TEST(req, flag, status, ierr)
  if (flag) nbad = nbad + 1
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_WAIT(req, status, ierr)
  call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
  if (req /= MPI_REQUEST_NULL .or. cnt /= 5 .or. status(MPI_SOURCE) /= 7 .or. status(MPI_TAG) /= 11) then
    print *, 'rank', rank, 'grequest status', cnt, status(MPI_SOURCE), status(MPI_TAG)
    nbad = nbad + 1
  end if
  if (frees /= 5) then
    print *, 'rank', rank, 'free callback total', frees
    nbad = nbad + 1
  end if
  ! Cancel before completion: the LOGICAL arrives .FALSE.
  es = 3
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, es, req, ierr)
  call MPI_CANCEL(req, ierr)
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_WAIT(req, status, ierr)
  if (cancels /= 3 .or. frees /= 8) then
    print *, 'rank', rank, 'cancel/free totals', cancels, frees
    nbad = nbad + 1
  end if

  ! A user data representation from Fortran.
  es = 42
  call MPI_REGISTER_DATAREP('f-neg', neg_read, neg_write, int_extent, es, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_REGISTER_DATAREP('f-plain', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, int_extent, es, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_REGISTER_DATAREP('f-neg', neg_read, neg_write, int_extent, es, ierr)
  call MPI_ERROR_CLASS(ierr, i, ierr)
  if (i /= MPI_ERR_DUP_DATAREP) nbad = nbad + 1

  pid = getpid() ! rank 0's, so concurrent runs use different files
  call MPI_BCAST(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  write (fname, '(a,i0)') '/tmp/gompi-f90-datarep-', pid
  call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(fname) // '.dat', ior(MPI_MODE_CREATE, ior(MPI_MODE_RDWR, &
       MPI_MODE_DELETE_ON_CLOSE)), MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  disp = rank * 8 * 4
  call MPI_FILE_SET_VIEW(fh, disp, MPI_INTEGER, MPI_INTEGER, 'f-neg', MPI_INFO_NULL, ierr)
  if (ierr /= MPI_SUCCESS .or. extents == 0) nbad = nbad + 1
  do i = 1, 8
    v(i) = rank * 100 + i
  end do
  call MPI_FILE_WRITE_ALL(fh, v, 8, MPI_INTEGER, status, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  back = 0
  call MPI_FILE_READ_AT_ALL(fh, 0_MPI_OFFSET_KIND, back, 8, MPI_INTEGER, status, ierr)
  if (any(back /= v)) then
    print *, 'rank', rank, 'read back through f-neg', back
    nbad = nbad + 1
  end if
  ! The same bytes without conversion: negated.
  call MPI_FILE_SET_VIEW(fh, disp, MPI_INTEGER, MPI_INTEGER, 'f-plain', MPI_INFO_NULL, ierr)
  call MPI_FILE_READ_AT_ALL(fh, 0_MPI_OFFSET_KIND, raw, 8, MPI_INTEGER, status, ierr)
  if (any(raw /= -v)) then
    print *, 'rank', rank, 'raw through f-plain', raw
    nbad = nbad + 1
  end if
  call MPI_FILE_CLOSE(fh, ierr)

  if (nbad == 0) then
    print '(a,i0,a)', 'rank ', rank, ' PASS'
  else
    print '(a,i0,a,i0)', 'rank ', rank, ' FAIL ', nbad
  end if
  call MPI_FINALIZE(ierr)
end program f90_callbacks
