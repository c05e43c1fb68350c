! gompi-test: np=1,2,4 timeout=90
! gompi-expect: exit=0 stdout-per-rank=~"(?m)^ *rank {rank} PASS$"
! gompi-fflags: -fallow-argument-mismatch -w
! Fixed-form Fortran 77 through mpif.h: point-to-point of every Fortran
! type, wildcards and status fields, the status sentinels and 1-based
! indices from MPI_WAITANY/MPI_TESTSOME.
      PROGRAM F77P2P
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, PEER, I, N, NBAD, IDX, OUTC
      INTEGER ST(MPI_STATUS_SIZE), STS(MPI_STATUS_SIZE, 4)
      INTEGER REQ(4), INDS(4)
      INTEGER IV(3), IR(3)
      REAL RV(3), RR(3)
      DOUBLE PRECISION DV(3), DR(3)
      COMPLEX CV(3), CR(3)
      DOUBLE COMPLEX ZV(3), ZR(3)
      LOGICAL LV(3), LR(3), FLAG
      CHARACTER*8 SV, SR
      INTEGER*1 I1V(3), I1R(3)
      INTEGER*2 I2V(3), I2R(3)
      INTEGER*8 I8V(3), I8R(3)
      REAL*4 R4V(3), R4R(3)
      REAL*8 R8V(3), R8R(3)
      COMPLEX*16 C16V(3), C16R(3)
      NBAD = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (IERR .NE. MPI_SUCCESS) NBAD = NBAD + 1
      DO I = 1, 3
         IV(I) = 10 * RANK + I
         RV(I) = 1.5 * I
         DV(I) = 2.25D0 * I
         CV(I) = CMPLX(I, -I)
         ZV(I) = DCMPLX(0.5D0 * I, 3D0)
         LV(I) = MOD(I, 2) .EQ. 0
         I1V(I) = INT(I, 1)
         I2V(I) = INT(1000 + I, 2)
         I8V(I) = 2_8**40 + I
         R4V(I) = 0.25 * I
         R8V(I) = 1D100 * I
         C16V(I) = DCMPLX(I, 2 * I)
      END DO
      SV = 'gompi!  '
! Ring: each rank sends to the next and receives from any source.
      PEER = MOD(RANK + 1, NP)
      CALL MPI_SENDRECV(IV, 3, MPI_INTEGER, PEER, 1, IR, 3,
     &     MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
     &     ST, IERR)
      CALL MPI_GET_COUNT(ST, MPI_INTEGER, N, IERR)
      IF (N .NE. 3 .OR. ST(MPI_TAG) .NE. 1 .OR.
     &    ST(MPI_SOURCE) .NE. MOD(RANK + NP - 1, NP) .OR.
     &    IR(2) .NE. 10 * ST(MPI_SOURCE) + 2) THEN
         PRINT *, 'TEST-FAIL: sendrecv status', N, ST(MPI_TAG),
     &        ST(MPI_SOURCE), IR
         NBAD = NBAD + 1
      END IF
! Every type to oneself, through nonblocking calls.
      CALL TYPES(MPI_REAL, RV, RR, 3)
      CALL TYPES(MPI_DOUBLE_PRECISION, DV, DR, 3)
      CALL TYPES(MPI_COMPLEX, CV, CR, 3)
      CALL TYPES(MPI_DOUBLE_COMPLEX, ZV, ZR, 3)
      CALL TYPES(MPI_LOGICAL, LV, LR, 3)
      CALL TYPES(MPI_CHARACTER, SV, SR, 8)
      CALL TYPES(MPI_INTEGER1, I1V, I1R, 3)
      CALL TYPES(MPI_INTEGER2, I2V, I2R, 3)
      CALL TYPES(MPI_INTEGER8, I8V, I8R, 3)
      CALL TYPES(MPI_REAL4, R4V, R4R, 3)
      CALL TYPES(MPI_REAL8, R8V, R8R, 3)
      CALL TYPES(MPI_COMPLEX16, C16V, C16R, 3)
      DO I = 1, 3
         IF (RR(I) .NE. RV(I) .OR. DR(I) .NE. DV(I) .OR.
     &       CR(I) .NE. CV(I) .OR. ZR(I) .NE. ZV(I) .OR.
     &       (LR(I) .NEQV. LV(I)) .OR. I1R(I) .NE. I1V(I) .OR.
     &       I2R(I) .NE. I2V(I) .OR. I8R(I) .NE. I8V(I) .OR.
     &       R4R(I) .NE. R4V(I) .OR. R8R(I) .NE. R8V(I) .OR.
     &       C16R(I) .NE. C16V(I)) THEN
            PRINT *, 'TEST-FAIL: type round trip, element', I
            NBAD = NBAD + 1
         END IF
      END DO
      IF (SR .NE. SV) THEN
         PRINT *, 'TEST-FAIL: character round trip ', SR
         NBAD = NBAD + 1
      END IF
! MPI_WAITANY's index is 1-based; MPI_TESTSOME's indices too.
      CALL MPI_IRECV(IR, 1, MPI_INTEGER, RANK, 5, MPI_COMM_WORLD,
     &     REQ(1), IERR)
      REQ(2) = MPI_REQUEST_NULL
      CALL MPI_IRECV(IR(2), 1, MPI_INTEGER, RANK, 6, MPI_COMM_WORLD,
     &     REQ(3), IERR)
      CALL MPI_SEND(IV(3), 1, MPI_INTEGER, RANK, 6, MPI_COMM_WORLD,
     &     IERR)
      CALL MPI_WAITANY(3, REQ, IDX, ST, IERR)
      IF (IDX .NE. 3 .OR. ST(MPI_TAG) .NE. 6) THEN
         PRINT *, 'TEST-FAIL: waitany index', IDX, ST(MPI_TAG)
         NBAD = NBAD + 1
      END IF
      CALL MPI_SEND(IV(1), 1, MPI_INTEGER, RANK, 5, MPI_COMM_WORLD,
     &     IERR)
      OUTC = 0
      DO WHILE (OUTC .EQ. 0)
         CALL MPI_TESTSOME(1, REQ, OUTC, INDS, STS, IERR)
      END DO
      IF (OUTC .NE. 1 .OR. INDS(1) .NE. 1 .OR. STS(MPI_TAG, 1) .NE. 5)
     &     THEN
         PRINT *, 'TEST-FAIL: testsome', OUTC, INDS(1)
         NBAD = NBAD + 1
      END IF
      IF (IR(1) .NE. IV(1) .OR. IR(2) .NE. IV(3)) THEN
         PRINT *, 'TEST-FAIL: waitany data', IR
         NBAD = NBAD + 1
      END IF
! MPI_STATUSES_IGNORE and MPI_STATUS_IGNORE by address.
      CALL MPI_ISEND(IV, 3, MPI_INTEGER, RANK, 9, MPI_COMM_WORLD,
     &     REQ(1), IERR)
      CALL MPI_IRECV(IR, 3, MPI_INTEGER, RANK, 9, MPI_COMM_WORLD,
     &     REQ(2), IERR)
      CALL MPI_WAITALL(2, REQ, MPI_STATUSES_IGNORE, IERR)
      CALL MPI_IPROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
     &     FLAG, MPI_STATUS_IGNORE, IERR)
      IF (FLAG .OR. IR(3) .NE. IV(3) .OR. REQ(1) .NE. MPI_REQUEST_NULL)
     &     THEN
         PRINT *, 'TEST-FAIL: waitall/iprobe', FLAG, IR
         NBAD = NBAD + 1
      END IF
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      IF (NBAD .EQ. 0) PRINT '(A,I0,A)', 'rank ', RANK, ' PASS'
      END

! Send N items of type DT to oneself and receive them into B.
      SUBROUTINE TYPES(DT, A, B, N)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER DT, N, A(*), B(*), RANK, IERR, REQ, ST(MPI_STATUS_SIZE)
      INTEGER CNT
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_IRECV(B, N, DT, RANK, 3, MPI_COMM_WORLD, REQ, IERR)
      CALL MPI_SEND(A, N, DT, RANK, 3, MPI_COMM_WORLD, IERR)
      CALL MPI_WAIT(REQ, ST, IERR)
      CALL MPI_GET_COUNT(ST, DT, CNT, IERR)
      IF (CNT .NE. N .OR. ST(MPI_SOURCE) .NE. RANK) THEN
         PRINT *, 'TEST-FAIL: count of type', DT, CNT
      END IF
      END
