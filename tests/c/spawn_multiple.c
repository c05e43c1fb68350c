//go:build ignore

/* gompi-test: np=1,2 timeout=90 */
/* MPI_Comm_spawn_multiple of two commands in one job (1 + 2 processes):
 * MPI_APPNUM is the command's index, each command gets its own argv, the
 * "wdir" info key sets the working directory, "path" is searched for the
 * command, "host" naming this node is accepted, "soft" picks the largest
 * count allowed (at most maxprocs and the universe's free slots, at least
 * 1); MPI_UNIVERSE_SIZE is at least the world. Children report
 * to the parents over the intercommunicator. The root is the last parent. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int *usize, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
    CHECK(flag && *usize >= wsize, "MPI_UNIVERSE_SIZE %d", flag ? *usize : -1);
    if (parent == MPI_COMM_NULL) {
        check_rank = wrank;
        /* The command by its base name: found through the "path" key. */
        char dir[PATH_MAX], *base;
        snprintf(dir, sizeof dir, "%s", argv[0]);
        base = strrchr(dir, '/');
        CHECK(base != NULL, "argv[0] %s has no directory", argv[0]);
        *base++ = 0;
        char *cmds[2] = {base, argv[0]};
        char *args0[] = {"first", NULL}, *args1[] = {"second", "x", NULL};
        char **argvs[2] = {args0, args1};
        int np[2] = {1, 4};
        MPI_Info infos[2];
        MPI_Info_create(&infos[0]);
        MPI_Info_set(infos[0], "path", dir);
        MPI_Info_set(infos[0], "wdir", "/tmp");
        MPI_Info_create(&infos[1]);
        char host[256];
        gethostname(host, sizeof host);
        MPI_Info_set(infos[1], "host", host);
        MPI_Info_set(infos[1], "soft", "1:2"); /* 4 asked, soft allows at most 2 */
        MPI_Info_set(infos[1], "unknown-key", "ignored");
        MPI_Comm ic;
        int codes[5];
        CHECK_MPI(MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, wsize - 1, MPI_COMM_WORLD, &ic, codes));
        int rsize = 0, free_slots = *usize - wsize, soft = free_slots >= 2 ? 2 : 1;
        MPI_Comm_remote_size(ic, &rsize);
        CHECK(rsize == 1 + soft, "remote size %d, want 1 + soft %d", rsize, soft);
        for (int i = 0; i < rsize && i < 5; i++) CHECK(codes[i] == MPI_SUCCESS, "errcode %d: %d", i, codes[i]);
        if (wrank == 0) {
            for (int r = 0; r < rsize; r++) {
                char msg[128] = "";
                CHECK_MPI(MPI_Recv(msg, sizeof msg, MPI_CHAR, r, 1, ic, MPI_STATUS_IGNORE));
                char want[128];
                if (r == 0)
                    snprintf(want, sizeof want, "appnum 0 rank 0/%d first /tmp", rsize);
                else
                    snprintf(want, sizeof want, "appnum 1 rank %d/%d second x", r, rsize);
                CHECK(strncmp(msg, want, strlen(want)) == 0, "child %d said \"%s\", want \"%s...\"", r, msg, want);
            }
        }
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        MPI_Info_free(&infos[0]);
        MPI_Info_free(&infos[1]);
    } else {
        check_rank = 100 + wrank;
        int *appnum;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
        char msg[128], cwd[PATH_MAX] = "";
        if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
        if (flag && *appnum == 0)
            snprintf(msg, sizeof msg, "appnum 0 rank %d/%d %s %s", wrank, wsize, argc > 1 ? argv[1] : "-", cwd);
        else
            snprintf(msg, sizeof msg, "appnum %d rank %d/%d %s %s", flag ? *appnum : -1, wrank, wsize,
                     argc > 1 ? argv[1] : "-", argc > 2 ? argv[2] : "-");
        CHECK_MPI(MPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, 0, 1, parent));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
    }
    MPI_Finalize();
    return check_status();
}
