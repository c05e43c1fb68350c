//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* The MPI_Info_* family: set/get/replace/delete, key order, truncation by
 * MPI_Info_get and MPI_Info_get_string, dup independence, the length limits
 * and every error class under MPI_ERRORS_RETURN, MPI_INFO_ENV contents, and
 * info calls made before MPI_Init (allowed by MPI-4). */
#include <mpi.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

int main(int argc, char **argv) {
    /* Before MPI_Init. */
    MPI_Info pre;
    CHECK_MPI(MPI_Info_create(&pre));
    CHECK_MPI(MPI_Info_set(pre, "early", "yes"));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    char val[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag = -1, n = -1, len = -1;
    CHECK_MPI(MPI_Info_get(pre, "early", sizeof val - 1, val, &flag));
    CHECK(flag == 1 && strcmp(val, "yes") == 0, "pre-init info: flag %d val %s", flag, val);
    CHECK_MPI(MPI_Info_free(&pre));
    CHECK(pre == MPI_INFO_NULL, "free does not set MPI_INFO_NULL");

    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK(info != MPI_INFO_NULL, "create gave MPI_INFO_NULL");
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 0, "new info has %d keys", n);
    CHECK_MPI(MPI_Info_set(info, "b", "one"));
    CHECK_MPI(MPI_Info_set(info, "a", "two"));
    CHECK_MPI(MPI_Info_set(info, "c", "three"));
    CHECK_MPI(MPI_Info_set(info, "b", "four")); /* replace keeps position */
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 3, "nkeys %d, want 3", n);
    const char *order[] = {"b", "a", "c"};
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
        CHECK(strcmp(key, order[i]) == 0, "key %d is %s, want %s", i, key, order[i]);
    }
    CHECK_MPI(MPI_Info_get(info, "b", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "four") == 0, "b = %s", val);
    CHECK_MPI(MPI_Info_get(info, "nope", sizeof val - 1, val, &flag));
    CHECK(flag == 0, "absent key has flag %d", flag);
    CHECK_MPI(MPI_Info_get_valuelen(info, "c", &len, &flag));
    CHECK(flag && len == 5, "valuelen %d flag %d", len, flag);
    flag = -1;
    CHECK_MPI(MPI_Info_get_valuelen(info, "nope", &len, &flag));
    CHECK(flag == 0, "valuelen of absent key: flag %d", flag);

    /* Truncation: valuelen excludes the NUL. */
    memset(val, 'x', sizeof val);
    CHECK_MPI(MPI_Info_get(info, "c", 2, val, &flag));
    CHECK(flag && strcmp(val, "th") == 0, "truncated get gave %s", val);

    /* MPI_Info_get_string: buflen includes the NUL and returns the full size. */
    int buflen = 0;
    CHECK_MPI(MPI_Info_get_string(info, "c", &buflen, NULL, &flag));
    CHECK(flag && buflen == 6, "get_string size query: flag %d buflen %d", flag, buflen);
    buflen = 3;
    CHECK_MPI(MPI_Info_get_string(info, "c", &buflen, val, &flag));
    CHECK(flag && buflen == 6 && strcmp(val, "th") == 0, "get_string truncated: %s buflen %d", val, buflen);
    buflen = sizeof val;
    CHECK_MPI(MPI_Info_get_string(info, "c", &buflen, val, &flag));
    CHECK(flag && buflen == 6 && strcmp(val, "three") == 0, "get_string: %s", val);
    buflen = sizeof val;
    CHECK_MPI(MPI_Info_get_string(info, "zz", &buflen, val, &flag));
    CHECK(flag == 0, "get_string absent: flag %d", flag);

    /* Dup is independent. */
    MPI_Info dup;
    CHECK_MPI(MPI_Info_dup(info, &dup));
    CHECK(dup != info, "dup returned the same handle");
    CHECK_MPI(MPI_Info_delete(info, "a"));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 2, "after delete nkeys %d", n);
    CHECK_MPI(MPI_Info_get_nkeys(dup, &n));
    CHECK(n == 3, "dup nkeys %d", n);
    CHECK_MPI(MPI_Info_get(dup, "a", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "two") == 0, "dup lost a");
    CHECK_MPI(MPI_Info_get_nthkey(info, 1, key));
    CHECK(strcmp(key, "c") == 0, "order after delete: key 1 is %s", key);

    /* Limits. */
    char longkey[MPI_MAX_INFO_KEY + 2], longval[MPI_MAX_INFO_VAL + 2];
    memset(longkey, 'k', sizeof longkey);
    longkey[MPI_MAX_INFO_KEY] = 0;
    CHECK_MPI(MPI_Info_set(info, longkey, "v"));
    longkey[MPI_MAX_INFO_KEY] = 'k';
    longkey[MPI_MAX_INFO_KEY + 1] = 0;
    memset(longval, 'v', sizeof longval);
    longval[MPI_MAX_INFO_VAL] = 0;
    CHECK_MPI(MPI_Info_set(info, "long", longval));
    longval[MPI_MAX_INFO_VAL] = 'v';
    longval[MPI_MAX_INFO_VAL + 1] = 0;

    /* An empty value is a value (MPICH accepts it too). */
    CHECK_MPI(MPI_Info_set(info, "empty", ""));
    CHECK_MPI(MPI_Info_get_valuelen(info, "empty", &len, &flag));
    CHECK(flag && len == 0, "empty value: flag %d len %d", flag, len);
    CHECK_MPI(MPI_Info_delete(info, "empty"));

    /* Errors. */
    EXPECT_CLASS(MPI_Info_set(info, longkey, "v"), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_set(info, "k", longval), MPI_ERR_INFO_VALUE);
    EXPECT_CLASS(MPI_Info_get(info, longkey, 10, val, &flag), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_get(info, "b", -1, val, &flag), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Info_get_valuelen(info, "", &len, &flag), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_delete(info, "nope"), MPI_ERR_INFO_NOKEY);
    EXPECT_CLASS(MPI_Info_delete(info, longkey), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_get_nthkey(info, 99, key), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_dup(MPI_INFO_NULL, &dup), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_set((MPI_Info)0x12345678, "k", "v"), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_set(info, "k", NULL), MPI_ERR_ARG); /* as MPICH */
    EXPECT_CLASS(MPI_Info_create(NULL), MPI_ERR_ARG);
    MPI_Info null = MPI_INFO_NULL, env = MPI_INFO_ENV;
    EXPECT_CLASS(MPI_Info_free(&null), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_free(&env), MPI_ERR_INFO);
    MPI_Info stale = dup;
    CHECK_MPI(MPI_Info_free(&dup));
    EXPECT_CLASS(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_free(&stale), MPI_ERR_INFO);
    CHECK_MPI(MPI_Info_free(&info));

    /* MPI_INFO_ENV. */
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "command", sizeof val - 1, val, &flag));
    CHECK(flag && strstr(val, "info_basic") != NULL, "command = %s (flag %d)", val, flag);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof val - 1, val, &flag));
    CHECK(flag && atoi(val) == size, "maxprocs = %s", val);
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "wdir", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, cwd) == 0, "wdir = %s, cwd %s", val, cwd);
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "host", sizeof val - 1, val, &flag));
    CHECK(flag && val[0], "host missing");
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "arch", sizeof val - 1, val, &flag));
    CHECK(flag && val[0], "arch missing");
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "thread_level", sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "MPI_THREAD_SINGLE") == 0, "thread_level = %s", val);
    CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &dup));
    CHECK_MPI(MPI_Info_get_nkeys(dup, &n));
    CHECK(n >= 5, "env dup has %d keys", n);
    CHECK_MPI(MPI_Info_free(&dup));

    MPI_Finalize();
    return check_status();
}
