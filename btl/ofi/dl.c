//go:build !noofi

#include "dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

struct gofi_dl gofi_dl;

int gofi_dl_open(char *err, size_t errlen)
{
    static void *lib;
    if (lib)
        return 0;
    /* PSM (libinfinipath) and PSM2 install SIGSEGV/SIGBUS handlers for
     * their own backtraces unless told not to; gompi reports crashes. */
    setenv("IPATH_NO_BACKTRACE", "1", 0);
    setenv("PSM2_NO_BACKTRACE", "1", 0);
    void *h = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "cannot load libfabric (install libfabric1): %s", dlerror());
        return -1;
    }
    struct gofi_dl d = {
        .getinfo = dlsym(h, "fi_getinfo"),
        .freeinfo = dlsym(h, "fi_freeinfo"),
        .dupinfo = dlsym(h, "fi_dupinfo"),
        .fabric = dlsym(h, "fi_fabric"),
        .strerror = dlsym(h, "fi_strerror"),
    };
    if (!d.getinfo || !d.freeinfo || !d.dupinfo || !d.fabric || !d.strerror) {
        snprintf(err, errlen, "libfabric.so.1 lacks an entry point gompi needs");
        dlclose(h);
        return -1;
    }
    gofi_dl = d;
    lib = h;
    return 0;
}
