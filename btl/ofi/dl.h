/* libfabric is opened with dlopen when a job first spans nodes, not linked:
 * a one-node job never loads it, and with it the providers' libraries (PSM's
 * libinfinipath installs its own SIGSEGV handler when loaded, which would
 * replace gompi's crash reports). Only these five libfabric entry points are
 * real symbols; every other fi_* call is an inline through the objects' ops
 * tables. Included after <rdma/fabric.h>. */
#ifndef GOMPI_OFI_DL_H
#define GOMPI_OFI_DL_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/fabric.h>

struct gofi_dl {
    int (*getinfo)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *, struct fi_info **);
    void (*freeinfo)(struct fi_info *);
    struct fi_info *(*dupinfo)(const struct fi_info *);
    int (*fabric)(struct fi_fabric_attr *, struct fid_fabric **, void *);
    const char *(*strerror)(int);
};
extern struct gofi_dl gofi_dl;

/* gofi_dl_open loads libfabric once; 0 on success, else -1 with a reason in err. */
int gofi_dl_open(char *err, size_t errlen);

#define fi_getinfo (*gofi_dl.getinfo)
#define fi_freeinfo (*gofi_dl.freeinfo)
#define fi_dupinfo (*gofi_dl.dupinfo)
#define fi_fabric (*gofi_dl.fabric)
#define fi_strerror (*gofi_dl.strerror)
#undef fi_allocinfo
#define fi_allocinfo() fi_dupinfo(NULL)

#endif
