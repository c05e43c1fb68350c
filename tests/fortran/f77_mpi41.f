! gompi-test: np=1,2 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^ *rank {rank} PASS$"
! gompi-fflags: -fallow-argument-mismatch -w
! MPI-4.1 constants through mpif.h: MPI_BUFFER_AUTOMATIC attached from
! Fortran (the MPIFCMBA sentinel) lets buffered sends go with no buffer of
! the program's, detach reports size 0; the new classes and split type
! have MPICH 4.2's values.
      PROGRAM F77MPI41
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, I, V, NBAD, ISZ
      INTEGER BUF(1)
      NBAD = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (MPI_COMM_TYPE_RESOURCE_GUIDED .NE. 4) NBAD = NBAD + 1
      IF (MPI_ERR_ERRHANDLER .NE. 80) NBAD = NBAD + 1
      CALL MPI_BUFFER_ATTACH(MPI_BUFFER_AUTOMATIC, 0, IERR)
      IF (IERR .NE. MPI_SUCCESS) NBAD = NBAD + 1
      DO I = 1, 32
         V = RANK * 100 + I
         CALL MPI_BSEND(V, 1, MPI_INTEGER, MOD(RANK + 1, NP), I,
     &                  MPI_COMM_WORLD, IERR)
         IF (IERR .NE. MPI_SUCCESS) NBAD = NBAD + 1
      END DO
      DO I = 1, 32
         CALL MPI_RECV(V, 1, MPI_INTEGER, MOD(RANK + NP - 1, NP), I,
     &                 MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
         IF (V .NE. MOD(RANK + NP - 1, NP) * 100 + I) NBAD = NBAD + 1
      END DO
      ISZ = -1
      CALL MPI_BUFFER_DETACH(BUF, ISZ, IERR)
      IF (IERR .NE. MPI_SUCCESS .OR. ISZ .NE. 0) NBAD = NBAD + 1
      IF (NBAD .EQ. 0) PRINT '(A,I0,A)', 'rank ', RANK, ' PASS'
      IF (NBAD .NE. 0) PRINT '(A,I0,A,I0)', 'rank ', RANK,
     &    ' FAIL ', NBAD
      CALL MPI_FINALIZE(IERR)
      END
