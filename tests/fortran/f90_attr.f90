! gompi-test: np=1,2 timeout=60
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! Attribute callbacks of every kind from Fortran: MPI-1 keyvals with
! INTEGER values and the predefined MPI_DUP_FN/MPI_NULL_DELETE_FN, datatype
! keyvals with MPI_TYPE_DUP_FN and a Fortran delete function, MPI-1 calls
! taking INTEGER addresses (MPI_ADDRESS, MPI_TYPE_EXTENT).
module f90_attr_cb
  use mpi
  implicit none
  integer :: type_deletes = 0
contains
  subroutine type_delete(datatype, keyval, attribute_val, extra_state, ierror)
    integer :: datatype, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    if (datatype /= MPI_DATATYPE_NULL .and. keyval /= MPI_KEYVAL_INVALID) &
      type_deletes = type_deletes + int(attribute_val + extra_state)
    ierror = MPI_SUCCESS
  end subroutine type_delete
end module f90_attr_cb

program f90_attr
  use mpi
  use f90_attr_cb
  implicit none
  integer :: ierr, rank, nbad, key, val, dup, tkey, t1, t2, ext
  integer :: a(10), addr1, addr2
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag

  nbad = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)

  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, key, 0, ierr)
  call MPI_Attr_put(MPI_COMM_WORLD, key, 4242, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  val = 0
  call MPI_Attr_get(dup, key, val, flag, ierr)
  call check(flag .and. val == 4242, 'MPI_DUP_FN copied an INTEGER attribute')
  call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(flag .and. val >= 32767, 'MPI_ATTR_GET of MPI_TAG_UB')
  call MPI_Comm_free(dup, ierr)
  call MPI_Keyval_free(key, ierr)
  call check(key == MPI_KEYVAL_INVALID, 'keyval freed')

  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, tkey, 10_MPI_ADDRESS_KIND, ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, t1, ierr)
  call MPI_Type_set_attr(t1, tkey, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_Type_dup(t1, t2, ierr)
  call MPI_Type_get_attr(t2, tkey, aval, flag, ierr)
  call check(flag .and. aval == 5, 'MPI_TYPE_DUP_FN')
  call MPI_Type_free(t2, ierr)
  call MPI_Type_free(t1, ierr)
  call check(type_deletes == 30, 'Fortran type delete function')
  call MPI_Type_free_keyval(tkey, ierr)

  call MPI_Type_extent(MPI_DOUBLE_PRECISION, ext, ierr)
  call check(ext == 8, 'MPI_TYPE_EXTENT')
  call MPI_Address(a(1), addr1, ierr)
  call MPI_Address(a(3), addr2, ierr)
  call check(addr2 - addr1 == 8, 'MPI_ADDRESS')

  call MPI_Finalize(ierr)
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
end program f90_attr
