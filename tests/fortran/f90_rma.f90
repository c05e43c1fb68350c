! gompi-test: np=1,2,4 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! `use mpi`: one-sided calls (MPI_WIN_CREATE with fences, MPI_PUT, MPI_GET,
! MPI_ACCUMULATE, passive target with MPI_FETCH_AND_OP and
! MPI_COMPARE_AND_SWAP, MPI_WIN_ALLOCATE's base address as
! INTEGER(KIND=MPI_ADDRESS_KIND), window attributes), MPI_F_SYNC_REG, and
! the topology sentinels MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY.
program f90_rma
  use mpi
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, rank, np, nbad, i, right, left, win, win2, graph, indeg, outdeg
  integer :: mem(8), got(8), one, old, cmp
  integer(ak) :: base, sz, val
  integer, pointer :: shared(:)
  integer :: srcs(1), dsts(1), ws(1), wsrc(1)
  logical :: flag, weighted

  nbad = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)

  ! Active target: put to the right, get from the left, accumulate to 0.
  mem = -1
  sz = 8 * 4
  call MPI_WIN_CREATE(mem, sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call check(ierr == MPI_SUCCESS, 'win_create')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, val, flag, ierr)
  call check(flag .and. val == sz, 'MPI_WIN_SIZE attribute')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
  call check(flag .and. val == 4, 'MPI_WIN_DISP_UNIT attribute')
  call MPI_WIN_FENCE(0, win, ierr)
  got = [(rank * 10 + i, i = 1, 8)]
  val = 2
  call MPI_PUT(got, 3, MPI_INTEGER, right, val, 3, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_F_SYNC_REG(mem)
  call check(all(mem(3:5) == [(left * 10 + i, i = 1, 3)]) .and. all(mem(1:2) == -1) .and. all(mem(6:8) == -1), &
             'put with fences')
  got = 0
  val = 0
  call MPI_GET(got, 2, MPI_INTEGER, left, val, 2, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call check(all(got(1:2) == -1) .and. all(got(3:) == 0), 'get')
  mem(8) = 0
  call MPI_WIN_FENCE(0, win, ierr)
  one = rank + 1
  val = 7
  call MPI_ACCUMULATE(one, 1, MPI_INTEGER, 0, val, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_F_SYNC_REG(mem)
  if (rank == 0) call check(mem(8) == np * (np + 1) / 2, 'accumulate')
  call MPI_WIN_FREE(win, ierr)
  call check(win == MPI_WIN_NULL, 'win_free')

  ! Passive target on MPI_WIN_ALLOCATE's memory, reached through its base.
  sz = 4
  call MPI_WIN_ALLOCATE(sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win2, ierr)
  call check(ierr == MPI_SUCCESS .and. base /= 0, 'win_allocate base address')
  call c_f_pointer(transfer(base, c_null_ptr), shared, [1])
  shared(1) = 0
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  val = 0
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, 0, 0, win2, ierr)
  one = 1
  call MPI_FETCH_AND_OP(one, old, MPI_INTEGER, 0, val, MPI_SUM, win2, ierr)
  call MPI_WIN_UNLOCK(0, win2, ierr)
  call check(old >= 0 .and. old < np, 'fetch_and_op')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_EXCLUSIVE, 0, 0, win2, ierr)
  cmp = np
  one = -5
  call MPI_COMPARE_AND_SWAP(one, cmp, old, MPI_INTEGER, 0, val, win2, ierr)
  call MPI_WIN_UNLOCK(0, win2, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_WIN_LOCK(MPI_LOCK_SHARED, 0, 0, win2, ierr)
    call MPI_WIN_UNLOCK(0, win2, ierr)
    call MPI_F_SYNC_REG(shared)
    call check(shared(1) == -5, 'compare_and_swap')
  end if
  call MPI_WIN_FREE(win2, ierr)

  ! A ring as a distributed graph without weights; rank 0 also says
  ! "no weights" with MPI_WEIGHTS_EMPTY for its empty list of sources.
  srcs = left
  dsts = right
  if (rank == 0) then
    call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 0, srcs, MPI_WEIGHTS_EMPTY, 1, dsts, MPI_UNWEIGHTED, &
                                        MPI_INFO_NULL, .false., graph, ierr)
  else
    call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED, &
                                        MPI_INFO_NULL, .false., graph, ierr)
  end if
  call check(ierr == MPI_SUCCESS, 'dist_graph_create_adjacent')
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(graph, indeg, outdeg, weighted, ierr)
  call check(outdeg == 1 .and. .not. weighted, 'unweighted graph')
  if (rank == 0) call check(indeg == 0, 'rank 0 has no sources')
  if (rank /= 0) call check(indeg == 1, 'one source')
  ws = -1
  call MPI_DIST_GRAPH_NEIGHBORS(graph, indeg, srcs, wsrc, 1, dsts, ws, ierr)
  call check(dsts(1) == right .and. ws(1) == -1, 'neighbors')
  call MPI_COMM_FREE(graph, ierr)

  call MPI_FINALIZE(ierr)
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
end program f90_rma
