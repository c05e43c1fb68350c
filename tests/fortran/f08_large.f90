! gompi-test: np=1,2,4 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! Large counts in `use mpi_f08` (MPI-4.1 §19.2): MPI_Send and friends are
! generic, an INTEGER(KIND=MPI_COUNT_KIND) count selects the _c form
! (MPI_Send_c_f08ts, calling MPI_Send_c); the calls whose two forms cannot
! be told apart have their own name (MPI_Type_get_extent_c). A program
! intercepting MPI_Send_c_f08ts sees the large-count sends.
module f08_large_ops
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: large_sends = 0
contains
  ! MPI_User_function_c: the length is INTEGER(KIND=MPI_COUNT_KIND).
  subroutine maxabs(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (datatype /= MPI_INTEGER) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine maxabs
end module f08_large_ops

! The profiling interface of a large-count specific procedure.
subroutine MPI_Send_c_f08ts(buf, count, datatype, dest, tag, comm, ierror)
  use mpi_f08
  use f08_large_ops, only: large_sends
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer(kind=MPI_COUNT_KIND), intent(in) :: count
  type(MPI_Datatype), intent(in) :: datatype
  integer, intent(in) :: dest, tag
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  interface
    subroutine PMPI_Send_c_f08ts(buf, count, datatype, dest, tag, comm, ierror)
      import :: MPI_COUNT_KIND, MPI_Datatype, MPI_Comm
      type(*), dimension(..), intent(in) :: buf
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest, tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Send_c_f08ts
  end interface
  large_sends = large_sends + 1
  call PMPI_Send_c_f08ts(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_Send_c_f08ts

program f08_large
  use mpi_f08
  use f08_large_ops
  implicit none
  integer, parameter :: ck = MPI_COUNT_KIND, ak = MPI_ADDRESS_KIND
  type(MPI_Status) :: st
  type(MPI_Request) :: reqs(2)
  type(MPI_Datatype) :: pair, wide
  type(MPI_Op) :: op
  integer :: ierr, rank, np, nbad, i, j, right, left, cls, n4
  integer(ck) :: n, sz, lbc, extc, pos
  integer(ak) :: lba, exta
  integer :: a(10), b(10)
  integer, target :: packed(20)
  type(c_ptr) :: addr, bsaddr
  integer, allocatable :: gathered(:)
  integer(ck), allocatable :: counts(:)
  integer(ak), allocatable :: displs(:)

  nbad = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)

  ! Point-to-point around the ring with MPI_Count counts.
  a = [(rank * 100 + i, i = 1, 10)]
  b = -1
  call MPI_Irecv(b, 10_ck, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1))
  call MPI_Send(a, 10_ck, MPI_INTEGER, right, 1, MPI_COMM_WORLD)
  call MPI_Wait(reqs(1), st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(n == 10_ck .and. st%MPI_SOURCE == left .and. all(b == [(left * 100 + i, i = 1, 10)]), 'send_c/irecv_c')
  call MPI_Get_elements(st, MPI_INTEGER, n)
  call check(n == 10_ck, 'get_elements_c')
  ! The INTEGER forms still resolve to the others.
  call MPI_Get_count(st, MPI_INTEGER, n4)
  call check(n4 == 10, 'get_count')
  call MPI_Send(a, 1, MPI_INTEGER, MPI_PROC_NULL, 1, MPI_COMM_WORLD)
  call check(large_sends == 1, 'the profiling interface saw one large-count send')
  ! A non-contiguous section, blocking (copied around the call).
  b = -1
  call MPI_Sendrecv(a(1:10:2), 5_ck, MPI_INTEGER, right, 2, b(2:10:2), 5_ck, MPI_INTEGER, left, 2, &
                    MPI_COMM_WORLD, st)
  call check(all(b(2:10:2) == [(left * 100 + i, i = 1, 10, 2)]) .and. all(b(1:9:2) == -1), 'sendrecv_c sections')

  ! Collectives: in place, v-collectives with MPI_Count counts and
  ! MPI_Aint displacements, and a user op on MPI_Count lengths.
  a = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, a, 10_ck, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(all(a == np * (np + 1) / 2), 'allreduce_c in place')
  a = rank
  call MPI_Bcast(a, 10_ck, MPI_INTEGER, np - 1, MPI_COMM_WORLD)
  call check(all(a == np - 1), 'bcast_c')
  allocate(gathered(np * (np + 1) / 2), counts(np), displs(np))
  counts = [(int(i, ck), i = 1, np)]
  displs = [(int(i * (i - 1) / 2, ak), i = 1, np)]
  a = rank
  call MPI_Allgatherv(a, int(rank + 1, ck), MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(gathered == [((i - 1, j = 1, i), i = 1, np)]), 'allgatherv_c')
  call MPI_Op_create_c(maxabs, .true., op)
  a = (rank + 1) * (-1)**rank
  call MPI_Allreduce(MPI_IN_PLACE, a, 10_ck, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(all(a == np), 'op_create_c user function')
  call MPI_Op_free(op)

  ! Datatypes: sizes and extents as MPI_Count.
  call MPI_Type_contiguous(2_ck, MPI_INTEGER, pair)
  call MPI_Type_commit(pair)
  call MPI_Type_size(pair, sz)
  call check(sz == 8_ck, 'type_size_c')
  call MPI_Type_get_extent_c(pair, lbc, extc)
  call MPI_Type_get_extent(pair, lba, exta)
  call check(lbc == 0 .and. extc == 8 .and. lba == 0 .and. exta == 8, 'type_get_extent_c')
  call MPI_Type_create_resized_c(pair, 0_ck, 12_ck, wide)
  call MPI_Type_get_extent_c(wide, lbc, extc)
  call check(extc == 12, 'type_create_resized_c')
  call MPI_Type_free(wide)
  a = [(i, i = 1, 10)]
  pos = 0
  call MPI_Pack(a, 3_ck, pair, packed, int(size(packed) * storage_size(packed) / 8, ck), pos, MPI_COMM_WORLD)
  call check(pos == 24_ck, 'pack_c position')
  b = 0
  pos = 0
  call MPI_Unpack(packed, 24_ck, pos, b, 3_ck, pair, MPI_COMM_WORLD)
  call check(all(b(1:6) == [(i, i = 1, 6)]) .and. all(b(7:) == 0), 'unpack_c')
  call MPI_Type_free(pair)

  ! Buffered sends' buffer, its size as MPI_Count.
  bsaddr = c_loc(packed)
  call MPI_Buffer_attach(packed, 80_ck)
  call MPI_Buffer_detach(addr, n)
  call check(transfer(addr, 0_c_intptr_t) == transfer(bsaddr, 0_c_intptr_t) .and. n == 80_ck, 'buffer_detach_c')

  ! Errors through the handler, with the standard's class.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Send(a, -1_ck, MPI_INTEGER, right, 3, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COUNT, 'negative count refused')

  call MPI_Finalize()
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
end program f08_large
