/* Checkpoint-pattern MPI-IO benchmark: a 3-D array of doubles decomposed
 * over the ranks in all three dimensions (MPI_Dims_create), each rank's
 * block written with a subarray filetype by MPI_File_write_all, then read
 * back with MPI_File_read_all. Prints the best of REPS bandwidths in MB/s.
 * Usage: io_ckpt DIR [EDGE] (global array EDGE^3 doubles, default 128). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define REPS 5

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: io_ckpt DIR [EDGE]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int edge = argc > 2 ? atoi(argv[2]) : 128;
    int dims[3] = {0, 0, 0}, gs[3], ls[3], st[3], coords[3], periods[3] = {0, 0, 0};
    MPI_Dims_create(np, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 3, coords);
    size_t n = 1;
    for (int d = 0; d < 3; d++) {
        gs[d] = edge - edge % dims[d];
        ls[d] = gs[d] / dims[d];
        st[d] = coords[d] * ls[d];
        n *= ls[d];
    }
    double *buf = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        buf[i] = rank + i * 1e-9;
    MPI_Datatype sub;
    MPI_Type_create_subarray(3, gs, ls, st, MPI_ORDER_C, MPI_DOUBLE, &sub);
    MPI_Type_commit(&sub);
    char path[4096];
    snprintf(path, sizeof path, "%s/io_ckpt.%d.dat", argv[1], np);
    double total = (double)gs[0] * gs[1] * gs[2] * sizeof(double) / 1e6, bw[2] = {0, 0};
    for (int rep = 0; rep < REPS; rep++) {
        for (int phase = 0; phase < 2; phase++) {
            MPI_File fh;
            MPI_File_open(MPI_COMM_WORLD, path, phase ? MPI_MODE_RDONLY : MPI_MODE_CREATE | MPI_MODE_WRONLY,
                          MPI_INFO_NULL, &fh);
            MPI_File_set_view(fh, 0, MPI_DOUBLE, sub, "native", MPI_INFO_NULL);
            MPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime();
            if (phase)
                MPI_File_read_all(fh, buf, (int)n, MPI_DOUBLE, MPI_STATUS_IGNORE);
            else
                MPI_File_write_all(fh, buf, (int)n, MPI_DOUBLE, MPI_STATUS_IGNORE);
            MPI_File_close(&fh);
            t = MPI_Wtime() - t;
            double tmax;
            MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (total / tmax > bw[phase])
                bw[phase] = total / tmax;
        }
    }
    if (rank == 0) {
        printf("ckpt_write_all %.1f\n", bw[0]);
        printf("ckpt_read_all %.1f\n", bw[1]);
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    MPI_Type_free(&sub);
    free(buf);
    MPI_Finalize();
    return 0;
}
