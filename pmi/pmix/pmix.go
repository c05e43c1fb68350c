// Package pmix is a PMIx client (what `srun --mpi=pmix` and Open MPI's
// prte serve) over the system's libpmix, loaded with dlopen when a process
// finds itself in a PMIx job: libgompi does not depend on libpmix, and a
// machine without it runs everything else. Importing the package registers
// it with package pmi.
//
// Only the few calls and types of the PMIx standard's C API that a modex
// needs are used; their layouts below are the standard's (PMIx v3 and v4
// agree on them).
package pmix

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GP_NSLEN 255
#define GP_BOOL 1
#define GP_STRING 3
#define GP_UINT32 14
#define GP_GLOBAL 3
#define GP_WILDCARD (UINT32_MAX - 1)

typedef struct { char nspace[GP_NSLEN + 1]; uint32_t rank; } gp_proc;
// pmix_value_t: a 16-bit type tag, then a union whose largest member is
// 24 bytes in PMIx 4; padded so the library never reads past ours.
typedef struct {
	uint16_t type;
	union { uint8_t flag; char *string; uint32_t uint32; char pad[56]; } data;
} gp_value;
// pmix_info_t: a key of PMIX_MAX_KEYLEN+1 bytes, 32 bits of flags, a value.
// Only ever passed one at a time (our gp_value may be longer than theirs).
typedef struct { char key[512]; uint32_t flags; gp_value value; } gp_info;

typedef int (*gp_init_fn)(gp_proc *, void *, size_t);
typedef int (*gp_fin_fn)(void *, size_t);
typedef int (*gp_put_fn)(uint8_t, const char *, gp_value *);
typedef int (*gp_commit_fn)(void);
typedef int (*gp_fence_fn)(const gp_proc *, size_t, const void *, size_t);
typedef int (*gp_get_fn)(const gp_proc *, const char *, const void *, size_t, gp_value **);
typedef int (*gp_abort_fn)(int, const char *, gp_proc *, size_t);
typedef void (*gp_vdestruct_fn)(gp_value *);
typedef const char *(*gp_errstr_fn)(int);

static struct {
	void *lib;
	gp_init_fn init; gp_fin_fn fin; gp_put_fn put; gp_commit_fn commit;
	gp_fence_fn fence; gp_get_fn get; gp_abort_fn abrt;
	gp_vdestruct_fn vdestruct; gp_errstr_fn errstr;
	gp_proc me;
} gp;

// gp_load opens libpmix and finds the calls; returns NULL or what failed.
static const char *gp_load(void) {
	const char *names[] = {"libpmix.so.2", "libpmix.so", NULL};
	for (int i = 0; names[i] != NULL && gp.lib == NULL; i++)
		gp.lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
	if (gp.lib == NULL)
		return dlerror();
	gp.init = (gp_init_fn)dlsym(gp.lib, "PMIx_Init");
	gp.fin = (gp_fin_fn)dlsym(gp.lib, "PMIx_Finalize");
	gp.put = (gp_put_fn)dlsym(gp.lib, "PMIx_Put");
	gp.commit = (gp_commit_fn)dlsym(gp.lib, "PMIx_Commit");
	gp.fence = (gp_fence_fn)dlsym(gp.lib, "PMIx_Fence");
	gp.get = (gp_get_fn)dlsym(gp.lib, "PMIx_Get");
	gp.abrt = (gp_abort_fn)dlsym(gp.lib, "PMIx_Abort");
	gp.vdestruct = (gp_vdestruct_fn)dlsym(gp.lib, "PMIx_Value_destruct");
	gp.errstr = (gp_errstr_fn)dlsym(gp.lib, "PMIx_Error_string");
	if (!gp.init || !gp.fin || !gp.put || !gp.commit || !gp.fence || !gp.get || !gp.abrt)
		return "libpmix lacks a PMIx_ call gompi needs";
	return NULL;
}

static int gp_init(void) { return gp.init(&gp.me, NULL, 0); }
static const char *gp_nspace(void) { return gp.me.nspace; }
static uint32_t gp_rank(void) { return gp.me.rank; }
static int gp_finalize(void) { return gp.fin(NULL, 0); }
static int gp_commit(void) { return gp.commit(); }
// gp_fence asks the servers to collect every process's committed data
// (PMIX_COLLECT_DATA): without it, data of a process on another node comes
// on demand, and a server that fetched a peer's data once answers later gets
// of keys the peer put since from that stale copy ("not found").
static int gp_fence(void) {
	gp_info collect;
	memset(&collect, 0, sizeof collect);
	strcpy(collect.key, "pmix.collect");
	collect.value.type = GP_BOOL;
	collect.value.data.flag = 1;
	return gp.fence(NULL, 0, &collect, 1);
}
static int gp_abort(int code, const char *msg) { return gp.abrt(code, msg, NULL, 0); }

static int gp_put(const char *key, char *value) {
	gp_value v;
	memset(&v, 0, sizeof v);
	v.type = GP_STRING;
	v.data.string = value;
	return gp.put(GP_GLOBAL, key, &v);
}

static void gp_release(gp_value *v) {
	if (gp.vdestruct != NULL)
		gp.vdestruct(v);
	else if (v->type == GP_STRING)
		free(v->data.string);
	free(v);
}

// gp_get fetches rank's key (GP_WILDCARD: the job's); a string comes back
// in *str (malloc'ed, the caller frees it), a uint32 in *u; *type says which.
static int gp_get(uint32_t rank, const char *key, char **str, uint32_t *u, uint16_t *type) {
	gp_proc p;
	memcpy(p.nspace, gp.me.nspace, sizeof p.nspace);
	p.rank = rank;
	gp_value *v = NULL;
	int rc = gp.get(&p, key, NULL, 0, &v);
	if (rc != 0 || v == NULL)
		return rc != 0 ? rc : -1;
	*type = v->type;
	if (v->type == GP_STRING && v->data.string != NULL)
		*str = strdup(v->data.string);
	else if (v->type == GP_UINT32)
		*u = v->data.uint32;
	gp_release(v);
	return 0;
}

static const char *gp_error(int rc) { return gp.errstr != NULL ? gp.errstr(rc) : "PMIx error"; }
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gompi/pmi"
)

func init() { pmi.RegisterPMIx(Open) }

// notFound is PMIX_ERR_NOT_FOUND.
const notFound = -46

// Conn is this process's PMIx session (one per process: PMIx_Init is
// process-wide).
type Conn struct {
	rank  int
	size  int
	nspac string
}

var opened bool

func pmixErr(call string, rc C.int) error {
	return fmt.Errorf("pmix: %s: %s (%d)", call, C.GoString(C.gp_error(rc)), int(rc))
}

// Open loads libpmix and initialises the client from the environment the
// PMIx server set (PMIX_NAMESPACE, PMIX_SERVER_URI*, ...).
func Open() (pmi.PMIx, error) {
	if opened {
		return nil, fmt.Errorf("pmix: already initialised")
	}
	if msg := C.gp_load(); msg != nil {
		return nil, fmt.Errorf("pmix: cannot load libpmix (install libpmix2): %s", C.GoString(msg))
	}
	if rc := C.gp_init(); rc != 0 {
		return nil, pmixErr("PMIx_Init", rc)
	}
	opened = true
	c := &Conn{rank: int(C.gp_rank()), nspac: C.GoString(C.gp_nspace())}
	n, ok, err := c.jobUint32("pmix.job.size")
	if err != nil || !ok || n < 1 {
		C.gp_finalize()
		return nil, fmt.Errorf("pmix: the job size (pmix.job.size) is unknown: %v", err)
	}
	c.size = int(n)
	if c.rank < 0 || c.rank >= c.size {
		C.gp_finalize()
		return nil, fmt.Errorf("pmix: rank %d of %d", c.rank, c.size)
	}
	return c, nil
}

func (c *Conn) Rank() int         { return c.rank }
func (c *Conn) Size() int         { return c.size }
func (c *Conn) Namespace() string { return c.nspac }

// Put publishes key=value to every process of the job (after Fence).
func (c *Conn) Put(key, value string) error {
	ck, cv := C.CString(key), C.CString(value)
	defer C.free(unsafe.Pointer(ck))
	defer C.free(unsafe.Pointer(cv))
	if rc := C.gp_put(ck, cv); rc != 0 {
		return pmixErr("PMIx_Put "+key, rc)
	}
	return nil
}

// Fence commits this process's puts and waits for every process's.
func (c *Conn) Fence() error {
	if rc := C.gp_commit(); rc != 0 {
		return pmixErr("PMIx_Commit", rc)
	}
	if rc := C.gp_fence(); rc != 0 {
		return pmixErr("PMIx_Fence", rc)
	}
	return nil
}

func (c *Conn) get(rank uint32, key string) (str string, u uint32, typ uint16, ok bool, err error) {
	ck := C.CString(key)
	defer C.free(unsafe.Pointer(ck))
	var cs *C.char
	var cu C.uint32_t
	var ct C.uint16_t
	rc := C.gp_get(C.uint32_t(rank), ck, &cs, &cu, &ct)
	if rc == notFound {
		return "", 0, 0, false, nil
	}
	if rc != 0 {
		return "", 0, 0, false, pmixErr("PMIx_Get "+key, rc)
	}
	if cs != nil {
		str = C.GoString(cs)
		C.free(unsafe.Pointer(cs))
	}
	return str, uint32(cu), uint16(ct), true, nil
}

// Get returns the string rank put under key; ok is false if it put none.
func (c *Conn) Get(rank int, key string) (string, bool, error) {
	s, _, typ, ok, err := c.get(uint32(rank), key)
	if err != nil || !ok {
		return "", false, err
	}
	if typ != C.GP_STRING {
		return "", false, fmt.Errorf("pmix: %s of rank %d is of PMIx type %d, not a string", key, rank, typ)
	}
	return s, true, nil
}

// jobUint32 reads a job-level uint32 attribute (pmix.job.size, ...).
func (c *Conn) jobUint32(key string) (uint32, bool, error) {
	_, u, typ, ok, err := c.get(uint32(C.GP_WILDCARD), key)
	if err != nil || !ok || typ != C.GP_UINT32 {
		return 0, false, err
	}
	return u, true, nil
}

// UniverseSize is pmix.univ.size, or 0 if unknown.
func (c *Conn) UniverseSize() int {
	n, _, _ := c.jobUint32("pmix.univ.size")
	return int(n)
}

// AppNum is pmix.appnum of this process, or 0.
func (c *Conn) AppNum() int {
	_, u, typ, ok, _ := c.get(uint32(c.rank), "pmix.appnum")
	if ok && typ == C.GP_UINT32 {
		return int(u)
	}
	return 0
}

// Abort asks the server to end every process of the job.
func (c *Conn) Abort(code int, msg string) error {
	cm := C.CString(msg)
	defer C.free(unsafe.Pointer(cm))
	if rc := C.gp_abort(C.int(code), cm); rc != 0 {
		return pmixErr("PMIx_Abort", rc)
	}
	return nil
}

// Finalize ends the session.
func (c *Conn) Finalize() error {
	if rc := C.gp_finalize(); rc != 0 {
		return pmixErr("PMIx_Finalize", rc)
	}
	return nil
}
