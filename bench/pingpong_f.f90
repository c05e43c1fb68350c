! 1-byte ping-pong through the Fortran binding (use mpi): the median over
! rounds of the one-way time, ns. bench/pingpong_c.c is the same in C.
program pingpong_f
  use mpi
  implicit none
  integer, parameter :: warm = 20000, iters = 100000, rounds = 7
  integer :: ierr, rank, i, r
  character :: buf
  double precision :: t0, t(rounds), tmp
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do r = 0, rounds
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    t0 = MPI_Wtime()
    do i = 1, merge(warm, iters, r == 0)
      if (rank == 0) then
        call MPI_Send(buf, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD, ierr)
        call MPI_Recv(buf, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      else
        call MPI_Recv(buf, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Send(buf, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, ierr)
      end if
    end do
    if (r > 0) t(r) = (MPI_Wtime() - t0) / iters / 2 * 1d9
  end do
  do r = 1, rounds ! sort for the median
    do i = r + 1, rounds
      if (t(i) < t(r)) then
        tmp = t(r); t(r) = t(i); t(i) = tmp
      end if
    end do
  end do
  if (rank == 0) print '(a,f8.1)', 'fortran one-way ns ', t((rounds + 1) / 2)
  ! The binding's own cost, without a peer: sends to MPI_PROC_NULL.
  t0 = MPI_Wtime()
  do i = 1, 10 * iters
    call MPI_Send(buf, 1, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) print '(a,f8.1)', 'fortran procnull ns ', (MPI_Wtime() - t0) / (10 * iters) * 1d9
  call MPI_Finalize(ierr)
end program pingpong_f
