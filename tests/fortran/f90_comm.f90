! gompi-test: np=1,2,4 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! `use mpi`: communicators, string arguments, error handlers, attribute
! callbacks written in Fortran, derived datatypes from Fortran arrays,
! Fortran-specific datatypes, MPI_SIZEOF, info objects, topologies.
module f90_comm_cb
  use mpi
  implicit none
  integer :: copies = 0, deletes = 0, handled = 0, last_code = 0
contains
  subroutine copy_fn(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    copies = copies + 1
    attribute_val_out = attribute_val_in + extra_state
    flag = oldcomm /= MPI_COMM_NULL .and. keyval /= MPI_KEYVAL_INVALID
    ierror = MPI_SUCCESS
  end subroutine copy_fn
  subroutine delete_fn(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    if (comm /= MPI_COMM_NULL .and. keyval /= MPI_KEYVAL_INVALID .and. extra_state == 5) &
      deletes = deletes + int(attribute_val)
    ierror = MPI_SUCCESS
  end subroutine delete_fn
  subroutine handler(comm, code)
    integer :: comm, code
    if (comm /= MPI_COMM_NULL) handled = handled + 1
    last_code = code
  end subroutine handler
end module f90_comm_cb

program f90_comm
  use mpi
  use f90_comm_cb
  implicit none
  integer :: ierr, rank, np, nbad, half, rank2, np2, dup, i, j, length, cls, eh, keyval
  integer :: cart, dims(2), coords(2), src, dst, colt, st(MPI_STATUS_SIZE), info, sz, tf, n
  integer :: mat(3, 4), col(4), vec
  logical :: flag, periods(2)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=20) :: val
  integer(kind=MPI_ADDRESS_KIND) :: aval, lb, extent
  real(kind=8) :: r8
  complex :: c4
  integer(kind=2) :: i2

  nbad = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! Strings: blank-padded in, blank-padded out, lengths without blanks.
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, length, ierr)
  call check(name == 'MPI_COMM_WORLD' .and. length == 14, 'world name')
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
  call MPI_Comm_set_name(half, 'half comm   ', ierr)
  call MPI_Comm_get_name(half, name, length, ierr)
  call check(name == 'half comm' .and. length == 9, 'set/get name')
  call MPI_Comm_rank(half, rank2, ierr)
  call MPI_Comm_size(half, np2, ierr)
  call check(np2 == (np + 1 - mod(rank, 2)) / 2, 'split size')
  call check(rank2 == np2 - 1 - rank / 2, 'split key order')
  call MPI_Get_processor_name(host, length, ierr)
  call check(length > 0 .and. len_trim(host) == length, 'processor name')
  call MPI_Error_string(MPI_ERR_RANK, msg, length, ierr)
  call check(length > 0 .and. len_trim(msg) == length .and. ierr == MPI_SUCCESS, 'error string')

  ! Error handlers: MPI_ERRORS_RETURN, then a Fortran handler.
  call MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(i, 1, MPI_INTEGER, np2 + 5, 0, half, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call check(cls == MPI_ERR_RANK, 'MPI_ERR_RANK returned')
  call MPI_Comm_create_errhandler(handler, eh, ierr)
  call MPI_Comm_set_errhandler(half, eh, ierr)
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Send(i, -1, MPI_INTEGER, 0, 0, half, ierr)
  call MPI_Error_class(last_code, cls, ierr)
  call check(handled == 1 .and. cls == MPI_ERR_COUNT, 'Fortran error handler called')

  ! Attributes with Fortran copy and delete callbacks.
  call MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(half, keyval, 100_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(half, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, aval, flag, ierr)
  call check(flag .and. aval == 105 .and. copies == 1, 'copied attribute')
  call MPI_Comm_free(dup, ierr)
  call check(dup == MPI_COMM_NULL .and. deletes == 105, 'delete callback')
  call MPI_Comm_dup(half, dup, ierr) ! MPI_COMM_NULL_COPY_FN-free path: our copy again
  call MPI_Comm_free_keyval(keyval, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(half, keyval, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(half, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, aval, flag, ierr)
  call check(.not. flag, 'MPI_COMM_NULL_COPY_FN does not copy')
  call MPI_Comm_get_attr(half, keyval, aval, flag, ierr)
  call check(flag .and. aval == 7, 'own attribute')
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free_keyval(keyval, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, aval, flag, ierr)
  call check(flag .and. aval >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_free(half, ierr)

  ! Derived datatypes from Fortran arrays: a row of a column-major matrix.
  mat = reshape([(i, i = 1, 12)], [3, 4])
  call MPI_Type_vector(4, 1, 3, MPI_INTEGER, vec, ierr)
  call MPI_Type_commit(vec, ierr)
  call MPI_Type_get_extent(vec, lb, extent, ierr)
  call check(lb == 0 .and. extent == 10 * 4, 'vector extent')
  call MPI_Type_contiguous(3, MPI_INTEGER, colt, ierr)
  call MPI_Type_commit(colt, ierr)
  call MPI_Sendrecv(mat(2, 1), 1, vec, rank, 1, col, 4, MPI_INTEGER, rank, 1, MPI_COMM_WORLD, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, n, ierr)
  call check(n == 4 .and. all(col == [2, 5, 8, 11]), 'row')
  call MPI_Sendrecv(mat(1, 3), 1, colt, rank, 2, col, 3, MPI_INTEGER, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(col(1:3) == [7, 8, 9]), 'column')
  call MPI_Type_free(vec, ierr)
  call MPI_Type_free(colt, ierr)

  ! Fortran types: MPI_SIZEOF and MPI_Type_create_f90_*.
  call MPI_Sizeof(r8, sz, ierr)
  call check(sz == 8, 'sizeof real(8)')
  call MPI_Sizeof(c4, sz, ierr)
  call check(sz == 8, 'sizeof complex')
  call MPI_Sizeof(i2, sz, ierr)
  call check(sz == 2, 'sizeof integer(2)')
  call MPI_Sizeof(mat(1, 1), sz, ierr)
  call check(sz == 4, 'sizeof integer element')
  call MPI_Type_create_f90_real(15, 300, tf, ierr)
  call MPI_Type_size(tf, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 8, 'f90 real')
  call MPI_Type_create_f90_integer(9, tf, ierr)
  call MPI_Type_size(tf, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 4, 'f90 integer')
  call MPI_Type_size(MPI_DOUBLE_COMPLEX, sz, ierr)
  call check(sz == 16, 'double complex size')

  ! Info: keys and values lose surrounding blanks.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, ' color ', 'blue  ', ierr)
  call MPI_Info_get(info, 'color', 20, val, flag, ierr)
  call check(flag .and. val == 'blue', 'info get')
  call MPI_Info_get_valuelen(info, 'color', length, flag, ierr)
  call check(flag .and. length == 4, 'info valuelen')
  call MPI_Info_get(info, 'shape', 20, val, flag, ierr)
  call check(.not. flag, 'missing info key')
  call MPI_Info_get_nkeys(info, n, ierr)
  call MPI_Info_get_nthkey(info, 0, val, ierr)
  call check(n == 1 .and. val == 'color', 'info nthkey')
  call MPI_Info_free(info, ierr)

  ! A periodic ring as a Cartesian topology (LOGICAL arrays).
  dims = [np, 1]
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(coords(1) == rank .and. dst == mod(rank + 1, np) .and. src == mod(rank + np - 1, np), 'cart shift')
  periods = .false.
  call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
  call check(periods(1) .and. .not. periods(2), 'cart periods')
  call MPI_Comm_free(cart, ierr)
  j = 0
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  call check(dims(1) * dims(2) == np, 'dims create')

  call MPI_Finalize(ierr)
  call MPI_Finalized(flag, ierr)
  call check(flag, 'finalized')
  if (nbad == 0) print '(a,i0,a)', 'rank ', rank, ' PASS'
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,2a)', 'TEST-FAIL: rank ', rank, ': ', what
      nbad = nbad + 1
    end if
  end subroutine check
end program f90_comm
