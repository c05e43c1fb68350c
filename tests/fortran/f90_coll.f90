! gompi-test: np=1,2,3,4 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! `use mpi`: collectives with MPI_IN_PLACE, reductions of Fortran types with
! predefined ops and a Fortran user op, MPI_BOTTOM with absolute addresses.
module f90_coll_ops
  implicit none
contains
  ! A user op: elementwise maximum of absolute values, INTEGER.
  subroutine absmax(invec, inoutvec, len, datatype)
    integer :: len, datatype
    integer :: invec(len), inoutvec(len)
    integer :: i
    if (datatype < 0) return
    do i = 1, len
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine absmax
end module f90_coll_ops

program f90_coll
  use mpi
  use f90_coll_ops
  implicit none
  integer :: ierr, rank, np, i, nbad, op, root
  integer :: iv(4), ig(4 * 8), ia(8), ib(8)
  real :: r2(2, 1), r2out(2, 1)
  double precision :: d2(2), d2out(2)
  integer :: i2(2), i2out(2)
  complex :: cv(2)
  logical :: lv(2), lout(2)
  double precision :: dsum
  integer :: btype, blocks(2), types(2), bx, by
  integer(kind=MPI_ADDRESS_KIND) :: disps(2)

  nbad = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! Allreduce in place of INTEGER, sum.
  iv = [(rank + i, i = 1, 4)]
  call MPI_Allreduce(MPI_IN_PLACE, iv, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, 4
    call check(iv(i) == np * i + np * (np - 1) / 2, 'allreduce in place')
  end do

  ! Reduce in place at the root, DOUBLE PRECISION.
  root = np - 1
  dsum = rank + 0.5d0
  if (rank == root) then
    call MPI_Reduce(MPI_IN_PLACE, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    call check(abs(dsum - (np * (np - 1) / 2 + 0.5d0 * np)) < 1d-9, 'reduce in place')
  else
    call MPI_Reduce(dsum, MPI_BOTTOM, 1, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
  end if

  ! MPI_SUM on MPI_COMPLEX, MPI_LAND/MPI_LOR on MPI_LOGICAL.
  cv = [cmplx(rank, 1), cmplx(1, -rank)]
  call MPI_Allreduce(MPI_IN_PLACE, cv, 2, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(cv(1) == cmplx(np * (np - 1) / 2, np), 'complex sum 1')
  call check(cv(2) == cmplx(np, -np * (np - 1) / 2), 'complex sum 2')
  lv = [.true., rank == 0]
  call MPI_Allreduce(lv, lout, 2, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(lout(1) .and. (lout(2) .eqv. (np == 1)), 'logical and')
  call MPI_Allreduce(lv, lout, 2, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call check(lout(1) .and. lout(2), 'logical or')

  ! MAXLOC on MPI_2REAL, MINLOC on MPI_2DOUBLE_PRECISION and MPI_2INTEGER.
  r2(:, 1) = [real(mod(rank * 7, 5)), real(rank)]
  call MPI_Allreduce(r2, r2out, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call check(r2out(1, 1) == real(maxval([(mod(i * 7, 5), i = 0, np - 1)])), 'maxloc value')
  call check(mod(nint(r2out(2, 1)) * 7, 5) == nint(r2out(1, 1)), 'maxloc index')
  d2 = [dble(10 - rank), dble(rank)]
  call MPI_Allreduce(d2, d2out, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(d2out(1) == 11 - np .and. nint(d2out(2)) == np - 1, 'minloc 2double')
  i2 = [rank / 2, rank]
  call MPI_Allreduce(i2, i2out, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(i2out(1) == 0 .and. i2out(2) == 0, 'minloc 2integer')

  ! A Fortran user op.
  call MPI_Op_create(absmax, .true., op, ierr)
  iv = [-rank, rank, -2 * rank, 1]
  call MPI_Allreduce(MPI_IN_PLACE, iv, 4, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(all(iv == [np - 1, np - 1, 2 * (np - 1), 1]), 'user op')
  call MPI_Op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'op freed')

  ! Bcast, gather, allgather in place, scatter, alltoall.
  iv = 0
  if (rank == 0) iv = [4, 3, 2, 1]
  call MPI_Bcast(iv, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(all(iv == [4, 3, 2, 1]), 'bcast')
  ig = -1
  ig(rank + 1) = rank * rank
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ig, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(ig(1:np) == [(i * i, i = 0, np - 1)]), 'allgather in place')
  call MPI_Gather(rank + 100, 1, MPI_INTEGER, ig, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(all(ig(1:np) == [(100 + i, i = 0, np - 1)]), 'gather')
  ia = [(i * 10, i = 0, 7)]
  call MPI_Scatter(ia, 2, MPI_INTEGER, ib, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(ib(1) == 20 * rank .and. ib(2) == 20 * rank + 10, 'scatter')
  ia = [(100 * rank + i, i = 0, 7)]
  call MPI_Alltoall(ia, 1, MPI_INTEGER, ib, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(ib(1:np) == [(100 * i + rank, i = 0, np - 1)]), 'alltoall')

  ! MPI_BOTTOM with a struct of absolute addresses.
  bx = rank
  by = -rank
  call MPI_Get_address(bx, disps(1), ierr)
  call MPI_Get_address(by, disps(2), ierr)
  blocks = 1
  types = MPI_INTEGER
  call MPI_Type_create_struct(2, blocks, disps, types, btype, ierr)
  call MPI_Type_commit(btype, ierr)
  if (rank == 0) then
    bx = 77
    by = 88
  end if
  call MPI_Bcast(MPI_BOTTOM, 1, btype, 0, MPI_COMM_WORLD, ierr)
  call check(bx == 77 .and. by == 88, 'bcast from MPI_BOTTOM')
  call MPI_Type_free(btype, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
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
end program f90_coll
