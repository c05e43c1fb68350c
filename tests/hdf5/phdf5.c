/* Parallel HDF5 on gompi: 4 ranks write a contiguous and a chunked 2-D
 * dataset through H5Pset_fapl_mpio, each once collectively and once
 * independently (row blocks, then a column-strided hyperslab), close the
 * file, reopen it and read every element back. Prints "phdf5 ok" on rank 0
 * when the data matched everywhere. Usage: phdf5 FILE */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 64
#define COLS 48

static int fails;
#define H(call)                                                          \
    do {                                                                 \
        if ((call) < 0) {                                                \
            fprintf(stderr, "TEST-FAIL: %s:%d: %s\n", __FILE__, __LINE__, #call); \
            fails++;                                                     \
        }                                                                \
    } while (0)

static int value(int d, int r, int c) { return d * 1000000 + r * 1000 + c; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2 || ROWS % np || COLS % np) {
        fprintf(stderr, "TEST-FAIL: usage: phdf5 FILE (np must divide %d and %d)\n", ROWS, COLS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *names[4] = {"contig_coll", "chunked_coll", "contig_indep", "chunked_indep"};
    hsize_t dims[2] = {ROWS, COLS}, chunk[2] = {ROWS / 4, COLS / 4};

    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H(file);
    int *buf = malloc(sizeof(int) * ROWS * COLS);
    for (int d = 0; d < 4; d++) {
        hid_t space = H5Screate_simple(2, dims, NULL);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (d % 2)
            H(H5Pset_chunk(dcpl, 2, chunk));
        hid_t ds = H5Dcreate2(file, names[d], H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        H(ds);
        hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
        H(H5Pset_dxpl_mpio(dxpl, d < 2 ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT));
        /* datasets 0 and 2: a block of rows each; 1 and 3: every np-th column (strided) */
        hsize_t start[2], count[2], stride[2] = {1, 1}, block[2] = {1, 1};
        if (d % 2 == 0) {
            start[0] = rank * (ROWS / np), start[1] = 0, count[0] = ROWS / np, count[1] = COLS;
        } else {
            start[0] = 0, start[1] = rank, count[0] = ROWS, count[1] = COLS / np, stride[1] = np;
        }
        hid_t fs = H5Dget_space(ds);
        H(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, stride, count, block));
        hsize_t n = count[0] * count[1];
        hid_t ms = H5Screate_simple(1, &n, NULL);
        int k = 0;
        for (hsize_t i = 0; i < count[0]; i++)
            for (hsize_t j = 0; j < count[1]; j++)
                buf[k++] = value(d, (int)(start[0] + i), (int)(start[1] + j * stride[1]));
        H(H5Dwrite(ds, H5T_NATIVE_INT, ms, fs, dxpl, buf));
        H5Sclose(ms), H5Sclose(fs), H5Pclose(dxpl), H5Dclose(ds), H5Pclose(dcpl), H5Sclose(space);
    }
    H(H5Fclose(file));

    file = H5Fopen(argv[1], H5F_ACC_RDONLY, fapl);
    H(file);
    for (int d = 0; d < 4; d++) {
        hid_t ds = H5Dopen2(file, names[d], H5P_DEFAULT);
        hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
        /* read everything, collectively for the datasets written independently and the other way */
        H(H5Pset_dxpl_mpio(dxpl, d < 2 ? H5FD_MPIO_INDEPENDENT : H5FD_MPIO_COLLECTIVE));
        for (int i = 0; i < ROWS * COLS; i++)
            buf[i] = -1;
        H(H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, dxpl, buf));
        int bad = 0;
        for (int r = 0; r < ROWS && bad < 3; r++)
            for (int c = 0; c < COLS && bad < 3; c++)
                if (buf[r * COLS + c] != value(d, r, c)) {
                    fprintf(stderr, "TEST-FAIL: rank %d: %s[%d][%d] = %d want %d\n", rank, names[d], r, c,
                            buf[r * COLS + c], value(d, r, c));
                    bad++, fails++;
                }
        H5Pclose(dxpl), H5Dclose(ds);
    }
    H(H5Fclose(file));
    H5Pclose(fapl);
    free(buf);
    int all;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("phdf5 ok\n");
    MPI_Finalize();
    return all != 0;
}
