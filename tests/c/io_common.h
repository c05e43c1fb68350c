/* Shared helpers of the io_* tests: a per-run file name under $TMPDIR that
 * every rank agrees on (rank 0's pid), so concurrent runs never collide, and
 * the start every test's main shares. */
#ifndef GOMPI_TEST_IO_COMMON_H
#define GOMPI_TEST_IO_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static void io_path(char *out, size_t n, const char *tag)
{
    int rank, pid = (int)getpid();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || *dir == 0)
        dir = "/tmp";
    snprintf(out, n, "%s/gompi-io-%s-%d", dir, tag, pid);
}

/* io_start initialises MPI, sets check_rank, stores the number of ranks in
 * *np (unless NULL) and the run's file name for tag in path; it returns
 * this rank. */
static int io_start(int *argc, char ***argv, int *np, char *path, size_t n, const char *tag)
{
    int rank;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (np != NULL)
        MPI_Comm_size(MPI_COMM_WORLD, np);
    check_rank = rank;
    io_path(path, n, tag);
    return rank;
}

#endif
