! gompi-test: np=1,2,4 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! `use mpi_f08`: handle types and their comparisons, TYPE(MPI_Status),
! optional IERROR, choice buffers of any rank including non-contiguous
! sections, MPI_IN_PLACE, strings, error handlers, a user op with the
! mpi_f08 callback interface, MPI_Status_f082f/f2f08 and MPI_F_sync_reg.
module f08_ops
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
contains
  subroutine prod(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    real(8), pointer :: a(:), b(:)
    if (datatype /= MPI_DOUBLE_PRECISION) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a * b
  end subroutine prod
end module f08_ops

program f08_basic
  use mpi_f08
  use f08_ops
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_intptr_t
  implicit none
  real(8), target :: bsbuf(200)
  type(c_ptr) :: addr, bsaddr
  type(MPI_Comm) :: half, dup
  type(MPI_Status) :: st, st2
  integer :: fst(MPI_STATUS_SIZE)
  type(MPI_Request) :: reqs(2)
  type(MPI_Op) :: op
  type(MPI_Datatype) :: col
  integer :: ierr, rank, np, nbad, i, n, length, cls
  integer :: mat(4, 5), row(5), grid(3, 3, 2)
  real(8) :: d(3)
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name

  nbad = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call check(ierr == MPI_SUCCESS, 'optional ierror')
  call check(MPI_COMM_WORLD /= MPI_COMM_SELF .and. MPI_COMM_WORLD%MPI_VAL == 1140850688, 'handle values')

  ! Point-to-point with a status and a non-contiguous section (a matrix row).
  mat = reshape([(i, i = 1, 20)], [4, 5])
  call MPI_Sendrecv(mat(3, :), 5, MPI_INTEGER, rank, 4, row, 5, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, &
                    MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  ! MPI_ERROR is left alone by single-completion calls (MPI-4.1 §3.2.5).
  call check(n == 5 .and. st%MPI_SOURCE == rank .and. st%MPI_TAG == 4, 'status')
  call check(all(row == [3, 7, 11, 15, 19]), 'row section sent')
  ! Receive into a non-contiguous section of a rank-3 array.
  grid = 0
  call MPI_Sendrecv([(100 + i, i = 1, 6)], 6, MPI_INTEGER, rank, 5, grid(2, :, :), 6, MPI_INTEGER, rank, 5, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(all(grid(2, :, :) == reshape([(100 + i, i = 1, 6)], [3, 2])) .and. all(grid(1, :, :) == 0) &
             .and. all(grid(3, :, :) == 0), 'section received')
  ! Nonblocking, contiguous; a non-contiguous section is refused.
  call MPI_Irecv(row, 5, MPI_INTEGER, rank, 6, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(mat(:, 2), 4, MPI_INTEGER, rank, 6, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(all(row(1:4) == [5, 6, 7, 8]) .and. reqs(1) == MPI_REQUEST_NULL, 'nonblocking')
  call MPI_Isend(mat(1, :), 5, MPI_INTEGER, rank, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call check(ierr == MPI_ERR_BUFFER, 'nonblocking section refused')

  ! Collectives: in place, and a user op.
  d = [1d0, 2d0, dble(rank + 1)]
  call MPI_Allreduce(MPI_IN_PLACE, d, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call check(d(1) == np .and. d(3) == np * (np + 1) / 2, 'allreduce in place')
  call MPI_Op_create(prod, .true., op)
  d = [2d0, 1d0, dble(rank + 1)]
  call MPI_Allreduce(MPI_IN_PLACE, d, 3, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD)
  call check(d(1) == 2d0**np .and. d(2) == 1d0 .and. d(3) == product([(dble(i), i = 1, np)]), 'user op')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'op freed')
  row = rank
  call MPI_Bcast(row, 5, MPI_INTEGER, np - 1, MPI_COMM_WORLD)
  call check(all(row == np - 1), 'bcast')

  ! Communicators, names, error handlers, datatypes.
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  call MPI_Comm_dup(half, dup)
  call MPI_Comm_set_name(dup, 'f08 dup')
  call MPI_Comm_get_name(dup, name, length)
  call check(name == 'f08 dup' .and. length == 7, 'names')
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPI_Send(row, 1, MPI_INTEGER, -7, 0, dup, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_RANK, 'errors return')
  call MPI_Comm_free(dup)
  call MPI_Comm_free(half)
  call check(half == MPI_COMM_NULL, 'freed')
  call MPI_Type_vector(5, 1, 4, MPI_INTEGER, col)
  call MPI_Type_commit(col)
  call MPI_Sendrecv(mat(2, 1), 1, col, rank, 8, row, 5, MPI_INTEGER, rank, 8, MPI_COMM_WORLD, st)
  call check(all(row == [2, 6, 10, 14, 18]), 'vector type')
  call MPI_Type_free(col)
  ! Status conversions between the mpi and mpi_f08 forms; MPI_F_sync_reg.
  call MPI_Status_f082f(st, fst)
  call check(fst(3) == rank .and. fst(4) == 8, 'status_f082f')
  call MPI_Status_f2f08(fst, st2, ierr)
  call check(ierr == MPI_SUCCESS .and. st2%MPI_SOURCE == rank .and. st2%MPI_TAG == 8, 'status_f2f08')
  call MPI_F_sync_reg(row)
  ! Detaching returns the buffer's address as TYPE(C_PTR).
  ! (gfortran 12 with mpi_f08 in scope: c_associated of two pointers is
  ! wrong at -O2, and c_loc among its arguments crashes the compiler.)
  bsaddr = c_loc(bsbuf)
  call MPI_Buffer_attach(bsbuf, 1600)
  call MPI_Buffer_detach(addr, n)
  call check(transfer(addr, 0_c_intptr_t) == transfer(bsaddr, 0_c_intptr_t) .and. n == 1600, 'buffer_detach address')
  call MPI_Comm_attach_buffer(MPI_COMM_WORLD, bsbuf, 800)
  call MPI_Comm_detach_buffer(MPI_COMM_WORLD, addr, n)
  call check(transfer(addr, 0_c_intptr_t) == transfer(bsaddr, 0_c_intptr_t) .and. n == 800, 'comm_detach_buffer address')
  call MPI_Initialized(flag)
  call check(flag .and. MPI_Wtime() > 0d0, 'initialized, wtime')

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
end program f08_basic
