//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* Predefined attributes on MPI_COMM_WORLD, MPI_COMM_SELF and a duplicate:
 * MPI_TAG_UB (at least 32767, and a send with that tag works), MPI_HOST,
 * MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, and
 * MPI_LASTUSEDCODE following MPI_Add_error_class/code. */
#include <mpi.h>

#include "check.h"

static int iattr(MPI_Comm comm, int kv, const char *name) {
    int *p = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(comm, kv, &p, &flag));
    CHECK(flag == 1 && p != NULL, "%s: flag %d pointer %p", name, flag, (void *)p);
    return p ? *p : -12345;
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm comms[] = {MPI_COMM_WORLD, MPI_COMM_SELF, dup};
    for (int i = 0; i < 3; i++) {
        int ub = iattr(comms[i], MPI_TAG_UB, "MPI_TAG_UB");
        CHECK(ub >= 32767, "MPI_TAG_UB %d", ub);
        int host = iattr(comms[i], MPI_HOST, "MPI_HOST");
        CHECK(host == MPI_PROC_NULL || (host >= 0 && host < size), "MPI_HOST %d", host);
        int io = iattr(comms[i], MPI_IO, "MPI_IO");
        CHECK(io == MPI_ANY_SOURCE || io == MPI_PROC_NULL || (io >= 0 && io < size), "MPI_IO %d", io);
        int g = iattr(comms[i], MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL");
        CHECK(g == 0 || g == 1, "MPI_WTIME_IS_GLOBAL %d", g);
        int us = iattr(comms[i], MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE");
        CHECK(us >= size, "MPI_UNIVERSE_SIZE %d < %d", us, size);
        int app = iattr(comms[i], MPI_APPNUM, "MPI_APPNUM");
        CHECK(app == 0, "MPI_APPNUM %d", app);
    }
    /* MPI-1 name, same answer. */
    int *p, flag;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag));
    CHECK(flag && *p >= 32767, "Attr_get(MPI_TAG_UB)");
    int ub = *p;

    /* The largest tag really works. */
    int v = rank, r = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, next, ub, &r, 1, MPI_INT, prev, ub, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(r == prev, "sendrecv with tag MPI_TAG_UB got %d", r);

    int last = iattr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE");
    CHECK(last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d", last);
    int cls, code;
    CHECK_MPI(MPI_Add_error_class(&cls));
    int l2 = iattr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE");
    CHECK(l2 >= cls, "MPI_LASTUSEDCODE %d after a new class %d", l2, cls);
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    l2 = iattr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE");
    CHECK(l2 >= code && l2 >= cls, "MPI_LASTUSEDCODE %d after a new code %d", l2, code);

    CHECK_MPI(MPI_Comm_free(&dup));
    MPI_Finalize();
    return check_status();
}
