! gompi-test: np=1,2 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! `use mpi_f08` callbacks with the standard's abstract interfaces: a
! generalized request (MPI_Grequest_start with procedures of the
! MPI_Grequest_query/free/cancel_function interfaces: TYPE(MPI_Status),
! INTEGER(KIND=MPI_ADDRESS_KIND) extra_state, a LOGICAL), and a user data
! representation (MPI_Register_datarep with MPI_Datarep_conversion_function
! procedures taking TYPE(C_PTR) buffers and an MPI_Datarep_extent_function;
! MPI_CONVERSION_FN_NULL for a second one) used by a file view.
module f08_callbacks_cb
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: frees = 0, cancels = 0, extents = 0
contains
  subroutine query_fn(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    call MPI_Status_set_elements(status, MPI_INTEGER, int(extra_state), ierror)
    status%MPI_SOURCE = 7
    status%MPI_TAG = 11
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

  ! "f08-neg": each INTEGER is stored negated (a conversion we can see).
  subroutine neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) ierror = MPI_ERR_CONVERSION
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    u(position + 1:position + count) = -f
  end subroutine neg_read

  subroutine neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) ierror = MPI_ERR_CONVERSION
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    f = -u(position + 1:position + count)
  end subroutine neg_write

  subroutine int_extent(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror
    extents = extents + 1
    extent = 4
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 42) ierror = MPI_ERR_TYPE
  end subroutine int_extent
end module f08_callbacks_cb

program f08_callbacks
  use mpi_f08
  use f08_callbacks_cb
  implicit none
  integer :: ierr, rank, nbad, cnt, i, pid, cls
  integer :: v(8), back(8), raw(8)
  type(MPI_Request) :: req
  type(MPI_Status) :: status
  type(MPI_File) :: fh
  integer(kind=MPI_ADDRESS_KIND) :: es
  integer(kind=MPI_OFFSET_KIND) :: disp
  logical :: flag
  character(len=64) :: fname
  ! The abstract interfaces are the module's: a pointer can use one.
  procedure(MPI_Grequest_free_function), pointer :: freep => null()

  nbad = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)

  ! Generalized request: completed, then waited on.
  es = 5
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, es, req, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_Test(req, flag, status)
  if (flag) nbad = nbad + 1
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, status)
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  if (req /= MPI_REQUEST_NULL .or. cnt /= 5 .or. status%MPI_SOURCE /= 7 .or. status%MPI_TAG /= 11) then
    print *, 'rank', rank, 'grequest status', cnt, status%MPI_SOURCE, status%MPI_TAG
    nbad = nbad + 1
  end if
  if (frees /= 5) then
    print *, 'rank', rank, 'free callback total', frees
    nbad = nbad + 1
  end if
  ! Cancel before completion: the LOGICAL arrives .FALSE.; the free
  ! procedure passed through a procedure pointer, without IERROR.
  freep => free_fn
  es = 3
  call MPI_Grequest_start(query_fn, freep, cancel_fn, es, req)
  call MPI_Cancel(req)
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (cancels /= 3 .or. frees /= 8) then
    print *, 'rank', rank, 'cancel/free totals', cancels, frees
    nbad = nbad + 1
  end if

  ! A user data representation from Fortran 2008.
  es = 42
  call MPI_Register_datarep('f08-neg', neg_read, neg_write, int_extent, es, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_Register_datarep('f08-plain', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, int_extent, es, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Register_datarep('f08-neg', neg_read, neg_write, int_extent, es, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_DUP_DATAREP) then
    print *, 'rank', rank, 'second registration: class', cls
    nbad = nbad + 1
  end if

  pid = getpid() ! rank 0's, so concurrent runs use different files
  call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  write (fname, '(a,i0)') '/tmp/gompi-f08-datarep-', pid
  call MPI_File_open(MPI_COMM_WORLD, trim(fname) // '.dat', ior(MPI_MODE_CREATE, ior(MPI_MODE_RDWR, &
       MPI_MODE_DELETE_ON_CLOSE)), MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  disp = rank * 8 * 4
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'f08-neg', MPI_INFO_NULL, ierr)
  if (ierr /= MPI_SUCCESS .or. extents == 0) nbad = nbad + 1
  do i = 1, 8
    v(i) = rank * 100 + i
  end do
  call MPI_File_write_all(fh, v, 8, MPI_INTEGER, status, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  back = 0
  call MPI_File_read_at_all(fh, 0_MPI_OFFSET_KIND, back, 8, MPI_INTEGER, status, ierr)
  if (any(back /= v)) then
    print *, 'rank', rank, 'read back through f08-neg', back
    nbad = nbad + 1
  end if
  ! The same bytes without conversion: negated.
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'f08-plain', MPI_INFO_NULL, ierr)
  call MPI_File_read_at_all(fh, 0_MPI_OFFSET_KIND, raw, 8, MPI_INTEGER, status, ierr)
  if (any(raw /= -v)) then
    print *, 'rank', rank, 'raw through f08-plain', raw
    nbad = nbad + 1
  end if
  call MPI_File_close(fh)

  if (nbad == 0) then
    print '(a,i0,a)', 'rank ', rank, ' PASS'
  else
    print '(a,i0,a,i0)', 'rank ', rank, ' FAIL ', nbad
  end if
  call MPI_Finalize()
end program f08_callbacks
