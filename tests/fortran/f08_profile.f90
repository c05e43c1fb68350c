! gompi-test: np=1,2 timeout=60
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^rank {rank} PASS$"
! The mpi_f08 profiling interface (MPI-4.1 19.1.5): a program defining its
! own MPI_Barrier_f08 and MPI_Allreduce_f08ts (linker names
! mpi_barrier_f08_, mpi_allreduce_f08ts_) intercepts the mpi_f08 calls
! MPI_Barrier and MPI_Allreduce, and reaches gompi through
! PMPI_Barrier_f08 and PMPI_Allreduce_f08ts.
module f08_profile_counts
  implicit none
  integer :: barriers = 0, allreduces = 0
end module f08_profile_counts

subroutine MPI_Barrier_f08(comm, ierror)
  use mpi_f08
  use f08_profile_counts
  implicit none
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  interface
    subroutine PMPI_Barrier_f08(comm, ierror)
      import :: MPI_Comm
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Barrier_f08
  end interface
  barriers = barriers + 1
  call PMPI_Barrier_f08(comm, ierror)
end subroutine MPI_Barrier_f08

subroutine MPI_Allreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror)
  use mpi_f08
  use f08_profile_counts
  implicit none
  type(*), dimension(..), intent(in) :: sendbuf
  type(*), dimension(..) :: recvbuf
  integer, intent(in) :: count
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Op), intent(in) :: op
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  interface
    subroutine PMPI_Allreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror)
      import :: MPI_Datatype, MPI_Op, MPI_Comm
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allreduce_f08ts
  end interface
  allreduces = allreduces + 1
  call PMPI_Allreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror)
end subroutine MPI_Allreduce_f08ts

program f08_profile
  use mpi_f08
  use f08_profile_counts
  implicit none
  integer :: rank, np, ierr, s(3), r(3), nbad
  nbad = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
  call MPI_Barrier(MPI_COMM_WORLD)
  s = [1, rank, 2]
  call MPI_Allreduce(s, r, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (any(r /= [np, np * (np - 1) / 2, 2 * np])) nbad = nbad + 1
  if (barriers /= 2 .or. allreduces /= 1) then
    print '(a,i0,a,i0)', 'intercepted barriers ', barriers, ' allreduces ', allreduces
    nbad = nbad + 1
  end if
  if (nbad == 0) then
    print '(a,i0,a)', 'rank ', rank, ' PASS'
  else
    print '(a,i0,a)', 'rank ', rank, ' FAIL'
  end if
  call MPI_Finalize()
end program f08_profile
