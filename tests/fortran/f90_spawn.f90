! gompi-test: np=1,2 timeout=120
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! `use mpi`: the dynamic-process sentinels recognised through their COMMON
! blocks (MPI_ARGV_NULL and MPI_ERRCODES_IGNORE to MPI_COMM_SPAWN,
! MPI_ARGVS_NULL to MPI_COMM_SPAWN_MULTIPLE) and a Fortran ARGV ending at
! its first blank element. The children (this program again) report the
! size of their world and their argument count to the parent.
program f90_spawn
  use mpi
  implicit none
  integer :: ierr, rank, nbad, parent, inter, n, v, codes(2), nprocs(2), infos(2)
  character(len=512) :: cmd, cmds(2)
  character(len=8) :: argv(3)

  nbad = 0
  call MPI_INIT(ierr)
  call MPI_COMM_GET_PARENT(parent, ierr)
  if (parent /= MPI_COMM_NULL) then
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, n, ierr)
    v = command_argument_count() * 100 + n
    if (rank == 0) call MPI_SEND(v, 1, MPI_INTEGER, 0, 1, parent, ierr)
    call MPI_COMM_DISCONNECT(parent, ierr)
    call MPI_FINALIZE(ierr)
    stop
  end if
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(0, cmd)

  call MPI_COMM_SPAWN(cmd, MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, MPI_ERRCODES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'spawn with MPI_ARGV_NULL, MPI_ERRCODES_IGNORE')
  call MPI_COMM_REMOTE_SIZE(inter, n, ierr)
  call check(n == 2, 'two children')
  if (rank == 0) then
    call MPI_RECV(v, 1, MPI_INTEGER, 0, 1, inter, MPI_STATUS_IGNORE, ierr)
    call check(v == 2, 'children saw no arguments and a world of 2')
  end if
  call MPI_COMM_DISCONNECT(inter, ierr)

  argv(1) = 'one'
  argv(2) = 'two'
  argv(3) = ' '
  codes = -1
  call MPI_COMM_SPAWN(cmd, argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
  call check(ierr == MPI_SUCCESS .and. codes(1) == MPI_SUCCESS, 'spawn with arguments')
  if (rank == 0) then
    call MPI_RECV(v, 1, MPI_INTEGER, 0, 1, inter, MPI_STATUS_IGNORE, ierr)
    call check(v == 201, 'the child saw two arguments')
  end if
  call MPI_COMM_DISCONNECT(inter, ierr)

  cmds = cmd
  nprocs = 1
  infos = MPI_INFO_NULL
  codes = -1
  call MPI_COMM_SPAWN_MULTIPLE(2, cmds, MPI_ARGVS_NULL, nprocs, infos, 0, MPI_COMM_WORLD, inter, codes, ierr)
  call check(ierr == MPI_SUCCESS .and. all(codes == MPI_SUCCESS), 'spawn_multiple with MPI_ARGVS_NULL')
  if (rank == 0) then
    call MPI_RECV(v, 1, MPI_INTEGER, 0, 1, inter, MPI_STATUS_IGNORE, ierr)
    call check(v == 2, 'spawn_multiple children: no arguments, a world of 2')
  end if
  call MPI_COMM_DISCONNECT(inter, ierr)

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
end program f90_spawn
