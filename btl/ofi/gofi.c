//go:build !noofi

#include "gofi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_rma.h>

/* Reads started at once (receiver-driven rendezvous); more fall back to
 * fragments. GOFI_CHUNKS bounds the chunk contexts of all of them. */
#define GOFI_READS 256
#define GOFI_CHUNKS 256

/* One read: its chunks from off on are not issued yet; left counts those
 * at the provider. */
typedef struct {
    uint64_t cookie, raddr, key;
    char *dst;
    size_t len, off;
    int rank, left, ok, queued;
} gofi_rd;

#include "dl.h"

struct gofi {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_ep *ep;
    struct fid_av *av;
    struct fid_cq *cq;
    int blocking;   /* the queue has a wait object: fi_cq_sread sleeps */
    int pendingerr; /* a failure met in gofi_wait, reported by gofi_poll */
    int me, size;
    fi_addr_t *addr; /* by world rank, FI_ADDR_NOTAVAIL until inserted */
    size_t slot;     /* bytes of one buffer */
    int nslots;
    char *rbuf, *sbuf;
    struct fi_context *rctx, *sctx;
    int32_t *sfree; /* free send slots (a stack) */
    int nfree;
    int32_t *ready;     /* received buffers not yet handed to Go (a ring) */
    int32_t *later;     /* buffers gofi_pop took, reposted by the next peek or poll */
    int nlater;
    uint64_t *rlen;     /* by receive slot: bytes received */
    unsigned rhead, rtail;
    /* RMA (fi_read rendezvous): offered when the provider has FI_RMA. */
    int rma;
    size_t maxrma;
    uint64_t nextkey;
    /* A read is a group of chunks: at most chunk bytes each, at most
     * inflight chunks of all reads at the provider at once, issued in the
     * order the reads started (rd_pump). */
    size_t chunk;
    int inflight, nchunks;
    gofi_rd rd[GOFI_READS];
    int32_t rdfree[GOFI_READS];
    int nrdfree;
    int32_t rdq[GOFI_READS]; /* reads with chunks left to issue (a ring) */
    unsigned qhead, qtail;
    struct fi_context dctx[GOFI_CHUNKS];
    int32_t dread[GOFI_CHUNKS]; /* by chunk context: its read */
    int32_t dfree[GOFI_CHUNKS];
    int ndfree;
    uint64_t dring[GOFI_READS]; /* finished reads: cookie, and ok in dok */
    int32_t dok[GOFI_READS];
    unsigned dhead, dtail;
    /* fi_inject: small frames go without a send buffer or a completion. */
    size_t inject;
    char *inj;
    uint8_t *injected; /* by rank: injected since our last counted send */
    char err[256];
};

static void seterr(char *dst, size_t n, const char *what, int rc)
{
    snprintf(dst, n, "%s: %s", what, fi_strerror(rc < 0 ? -rc : rc));
}

static int post(gofi *g, int32_t i)
{
    for (;;) {
        ssize_t rc = fi_recv(g->ep, g->rbuf + (size_t)i * g->slot, g->slot, NULL, FI_ADDR_UNSPEC, &g->rctx[i]);
        if (rc == 0) return 0;
        if (rc != -FI_EAGAIN) {
            seterr(g->err, sizeof g->err, "fi_recv", (int)rc);
            return (int)rc;
        }
        /* The provider's queue is full: drive it (reading no entries). */
        fi_cq_read(g->cq, NULL, 0);
    }
}

static int usable(struct fi_info *p, const char *prov)
{
    const char *name = p->fabric_attr->prov_name;
    if (prov && *prov) return strcmp(name, prov) == 0;
    /* shm reaches only this machine; the network is what we are for. */
    return strncmp(name, "shm", 3) != 0 && !strstr(name, "ofi_rxd");
}

/* pick chooses the same entry on every node: the first usable provider,
 * then the named domain (interface), else by preference an IPv4 or native
 * address off the loopback, any non-IPv6 one, anything (link-local IPv6
 * addresses cannot be bound without a scope). */
static struct fi_info *pick(struct fi_info *list, const char *prov, const char *dom)
{
    const char *want = NULL;
    for (struct fi_info *p = list; p && !want; p = p->next)
        if (usable(p, prov)) want = p->fabric_attr->prov_name;
    if (!want) return NULL;
    /* Over TCP, libfabric 1.17's native RDM provider (net, called tcp from
     * 1.18) beats tcp;ofi_rxm: no rxm layer, and no wait-object signal
     * written and read per completion (two system calls per message).
     * Measured across two network namespaces, 1-byte half round trip
     * median 7.4 us against 9.8 (MPICH over UCX tcp: 8.3). Only in
     * place of rxm over tcp: a fabric's own provider stays first. */
    if (!(prov && *prov) && strcmp(want, "tcp;ofi_rxm") == 0)
        for (struct fi_info *p = list; p; p = p->next)
            if (strcmp(p->fabric_attr->prov_name, "net") == 0) {
                want = "net";
                break;
            }
    for (int pass = 0; pass < 3; pass++) {
        for (struct fi_info *p = list; p; p = p->next) {
            if (strcmp(p->fabric_attr->prov_name, want) != 0) continue;
            const char *d = p->domain_attr->name ? p->domain_attr->name : "";
            if (dom && *dom) {
                if (strcmp(d, dom) == 0) return p;
                continue;
            }
            int v6 = p->addr_format == FI_SOCKADDR_IN6;
            if (pass == 0 && !v6 && strcmp(d, "lo") != 0) return p;
            if (pass == 1 && !v6) return p;
            if (pass == 2) return p;
        }
        if (dom && *dom) return NULL;
    }
    return NULL;
}

gofi *gofi_open(const char *prov, const char *dom, int me, int size, int nslots, size_t slot, char *err, size_t errlen)
{
    /* rxm sends frames above its buffer size (16 KiB by default) by its
     * own rendezvous, a round trip more: ours (up to slot bytes) should go
     * eagerly (measured over tcp, 32 KiB ping-pong 50-70 us -> 20-39). Set
     * before the first libfabric call (fi_dupinfo too loads the providers); the user's
     * setting wins. */
    if (!getenv("FI_OFI_RXM_BUFFER_SIZE")) {
        char v[32];
        snprintf(v, sizeof v, "%zu", slot + 512);
        setenv("FI_OFI_RXM_BUFFER_SIZE", v, 0);
    }
    if (gofi_dl_open(err, errlen))
        return NULL;
    gofi *g = calloc(1, sizeof *g);
    struct fi_info *hints = fi_allocinfo(), *list = NULL;
    if (!g || !hints) {
        snprintf(err, errlen, "out of memory");
        free(g);
        return NULL;
    }
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG | FI_RMA;
    hints->mode = FI_CONTEXT;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    /* With RMA first (receiver-driven reads); without, messages only. */
    int rc = fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, hints, &list);
    struct fi_info *p = rc ? NULL : pick(list, prov, dom);
    if (p && (p->domain_attr->mr_mode & FI_MR_LOCAL)) p = NULL;
    if (p) {
        g->rma = 1;
    } else {
        if (list) fi_freeinfo(list);
        list = NULL;
        hints->caps = FI_MSG;
        rc = fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, hints, &list);
        p = rc ? NULL : pick(list, prov, dom);
    }
    fi_freeinfo(hints);
    if (rc) {
        seterr(err, errlen, "fi_getinfo", rc);
        free(g);
        return NULL;
    }
    if (!p) {
        snprintf(err, errlen, "no libfabric provider %s%s%s offers reliable datagrams", prov && *prov ? prov : "for the network",
                 dom && *dom ? " on " : "", dom && *dom ? dom : "");
        fi_freeinfo(list);
        free(g);
        return NULL;
    }
    g->info = fi_dupinfo(p);
    fi_freeinfo(list);
    g->me = me;
    g->size = size;
    g->slot = slot;
    g->nslots = nslots;
    g->maxrma = g->rma ? g->info->ep_attr->max_msg_size : 0;
    g->inject = g->info->tx_attr->inject_size;
    if (g->inject > slot) g->inject = slot;
    if (g->info->domain_attr->mr_mode & FI_MR_LOCAL) {
        snprintf(err, errlen, "provider %s needs registered local buffers (not supported yet)", g->info->fabric_attr->prov_name);
        goto fail;
    }
    if ((rc = fi_fabric(g->info->fabric_attr, &g->fabric, NULL))) { seterr(err, errlen, "fi_fabric", rc); goto fail; }
    if ((rc = fi_domain(g->fabric, g->info, &g->domain, NULL))) { seterr(err, errlen, "fi_domain", rc); goto fail; }
    /* A wait object of the provider's choosing: gofi_wait sleeps in
     * fi_cq_sread. Without one (FI_WAIT_NONE) the caller naps instead. */
    struct fi_cq_attr cqa = {.format = FI_CQ_FORMAT_MSG, .wait_obj = FI_WAIT_UNSPEC, .size = (size_t)nslots * 4};
    if (fi_cq_open(g->domain, &cqa, &g->cq, NULL)) {
        cqa.wait_obj = FI_WAIT_NONE;
        if ((rc = fi_cq_open(g->domain, &cqa, &g->cq, NULL))) { seterr(err, errlen, "fi_cq_open", rc); goto fail; }
    } else {
        g->blocking = 1;
    }
    struct fi_av_attr ava = {.type = FI_AV_TABLE, .count = (size_t)size};
    if ((rc = fi_av_open(g->domain, &ava, &g->av, NULL))) { seterr(err, errlen, "fi_av_open", rc); goto fail; }
    if ((rc = fi_endpoint(g->domain, g->info, &g->ep, NULL))) { seterr(err, errlen, "fi_endpoint", rc); goto fail; }
    if ((rc = fi_ep_bind(g->ep, &g->cq->fid, FI_TRANSMIT | FI_RECV))) { seterr(err, errlen, "fi_ep_bind cq", rc); goto fail; }
    if ((rc = fi_ep_bind(g->ep, &g->av->fid, 0))) { seterr(err, errlen, "fi_ep_bind av", rc); goto fail; }
    if ((rc = fi_enable(g->ep))) { seterr(err, errlen, "fi_enable", rc); goto fail; }
    g->addr = malloc(sizeof(fi_addr_t) * (size_t)size);
    g->rbuf = aligned_alloc(64, slot * (size_t)nslots);
    g->sbuf = aligned_alloc(64, slot * (size_t)nslots);
    g->rctx = calloc((size_t)nslots, sizeof(struct fi_context));
    g->sctx = calloc((size_t)nslots, sizeof(struct fi_context));
    g->sfree = malloc(sizeof(int32_t) * (size_t)nslots);
    g->ready = malloc(sizeof(int32_t) * (size_t)nslots);
    g->rlen = calloc((size_t)nslots, sizeof(uint64_t));
    g->later = malloc(sizeof(int32_t) * (size_t)nslots);
    g->inj = malloc(g->inject + 1);
    g->injected = calloc((size_t)size, 1);
    if (!g->addr || !g->rbuf || !g->sbuf || !g->rctx || !g->sctx || !g->sfree || !g->ready || !g->rlen || !g->later || !g->inj || !g->injected) {
        snprintf(err, errlen, "out of memory for %d buffers of %zu bytes", 2 * nslots, slot);
        goto fail;
    }
    for (int i = 0; i < size; i++) g->addr[i] = FI_ADDR_NOTAVAIL;
    for (int i = 0; i < nslots; i++) g->sfree[i] = nslots - 1 - i;
    g->nfree = nslots;
    for (int i = 0; i < GOFI_CHUNKS; i++) g->dfree[i] = GOFI_CHUNKS - 1 - i;
    g->ndfree = GOFI_CHUNKS;
    for (int i = 0; i < GOFI_READS; i++) g->rdfree[i] = GOFI_READS - 1 - i;
    g->nrdfree = GOFI_READS;
    gofi_chunks(g, 0, 0);
    for (int i = 0; i < nslots; i++) {
        if (post(g, i)) {
            snprintf(err, errlen, "%s", g->err);
            goto fail;
        }
    }
    return g;
fail:
    gofi_close(g);
    return NULL;
}

int gofi_name(gofi *g, void *buf, size_t *len)
{
    int rc = fi_getname(&g->ep->fid, buf, len);
    if (rc) seterr(g->err, sizeof g->err, "fi_getname", rc);
    return rc;
}

const char *gofi_provider(gofi *g) { return g->info->fabric_attr->prov_name; }

int gofi_insert(gofi *g, int rank, const void *addr, size_t len)
{
    (void)len;
    if (rank < 0 || rank >= g->size) return -FI_EINVAL;
    fi_addr_t a;
    int rc = fi_av_insert(g->av, addr, 1, &a, 0, NULL);
    if (rc != 1) {
        seterr(g->err, sizeof g->err, "fi_av_insert", rc < 0 ? rc : -FI_EINVAL);
        return rc < 0 ? rc : -FI_EINVAL;
    }
    g->addr[rank] = a;
    return 0;
}

static int reap(gofi *g);
static void pump(gofi *g);

int gofi_send(gofi *g, int rank, int tag, const void *hdr, size_t hlen, const void *payload, size_t n)
{
    size_t total = GOFI_FRAME_HDR + hlen + n;
    if (rank < 0 || rank >= g->size || g->addr[rank] == FI_ADDR_NOTAVAIL) {
        snprintf(g->err, sizeof g->err, "rank %d is not reached through the network", rank);
        return -FI_EINVAL;
    }
    if (total > g->slot) {
        snprintf(g->err, sizeof g->err, "a frame of %zu bytes exceeds the %zu-byte buffers", total, g->slot);
        return -FI_EINVAL;
    }
    if (total <= g->inject) {
        char *b = g->inj;
        uint32_t src = (uint32_t)g->me;
        memcpy(b, &src, 4);
        b[4] = (char)tag;
        b[5] = GOFI_MAGIC;
        b[6] = b[7] = 0;
        memcpy(b + GOFI_FRAME_HDR, hdr, hlen);
        if (n) memcpy(b + GOFI_FRAME_HDR + hlen, payload, n);
        ssize_t rc = fi_inject(g->ep, b, total, g->addr[rank]);
        if (rc == 0) {
            g->injected[rank] = 1;
            return 1;
        }
        if (rc != -FI_EAGAIN) {
            seterr(g->err, sizeof g->err, "fi_inject", (int)rc);
            return (int)rc;
        }
        /* No room for an inject now (or not connected yet): a buffer. */
    }
    if (g->nfree == 0) {
        int rc = reap(g); /* send completions free slots */
        if (rc < 0) return rc;
        if (g->nfree == 0) return 0;
    }
    int32_t i = g->sfree[--g->nfree];
    char *b = g->sbuf + (size_t)i * g->slot;
    uint32_t src = (uint32_t)g->me;
    memcpy(b, &src, 4);
    b[4] = (char)tag;
    b[5] = GOFI_MAGIC;
    b[6] = b[7] = 0;
    memcpy(b + GOFI_FRAME_HDR, hdr, hlen);
    if (n) memcpy(b + GOFI_FRAME_HDR + hlen, payload, n);
    ssize_t rc = fi_send(g->ep, b, total, NULL, g->addr[rank], &g->sctx[i]);
    if (rc == 0) {
        g->injected[rank] = 0; /* its completion follows the injects before it */
        return 1;
    }
    g->sfree[g->nfree++] = i;
    if (rc == -FI_EAGAIN) {
        reap(g);
        return 0;
    }
    seterr(g->err, sizeof g->err, "fi_send", (int)rc);
    return (int)rc;
}

/* finish reports read r done (the read ring) and frees it. */
static void finish(gofi *g, int32_t r)
{
    g->dring[g->dtail % GOFI_READS] = g->rd[r].cookie;
    g->dok[g->dtail++ % GOFI_READS] = g->rd[r].ok;
    g->rdfree[g->nrdfree++] = r;
}

/* chunk_done accounts for the end of chunk context d: its read is done
 * when no chunk of it is at the provider and none is left to issue (or one
 * failed: the rest are not issued, the pml asks for fragments). */
static void chunk_done(gofi *g, int32_t d, int ok)
{
    int32_t r = g->dread[d];
    gofi_rd *rd = &g->rd[r];
    g->dfree[g->ndfree++] = d;
    g->nchunks--;
    rd->left--;
    if (!ok) rd->ok = 0;
    if (rd->left == 0 && !rd->queued) finish(g, r);
}

/* pump issues the chunks of started reads, oldest read first, while the
 * in-flight bound and the provider allow (it runs again as completions
 * come). Several chunks at the provider keep the peer's socket busy, and
 * smaller responses let the control frames of both directions through
 * between them. */
static void pump(gofi *g)
{
    while (g->qhead != g->qtail) {
        int32_t r = g->rdq[g->qhead % GOFI_READS];
        gofi_rd *rd = &g->rd[r];
        while (rd->off < rd->len && rd->ok) {
            if (g->nchunks >= g->inflight || g->ndfree == 0) return;
            size_t n = rd->len - rd->off;
            if (n > g->chunk) n = g->chunk;
            int32_t d = g->dfree[--g->ndfree];
            g->dread[d] = r;
            ssize_t rc = fi_read(g->ep, rd->dst + rd->off, n, NULL, g->addr[rd->rank], rd->raddr + rd->off, rd->key, &g->dctx[d]);
            if (rc == -FI_EAGAIN) {
                g->dfree[g->ndfree++] = d;
                return;
            }
            if (rc) {
                g->dfree[g->ndfree++] = d;
                seterr(g->err, sizeof g->err, "fi_read", (int)rc);
                rd->ok = 0;
                break;
            }
            rd->off += n;
            rd->left++;
            g->nchunks++;
        }
        g->qhead++;
        rd->queued = 0;
        if (rd->left == 0) finish(g, r);
    }
}

/* take files k completions: sends free their slot, read chunks count
 * down their read, receives join the ready ring (each buffer is there at
 * most once, so nslots entries suffice). */
static void take(gofi *g, const struct fi_cq_msg_entry *ev, ssize_t k)
{
    int chunks = 0;
    for (ssize_t j = 0; j < k; j++) {
        struct fi_context *c = ev[j].op_context;
        if (c >= g->sctx && c < g->sctx + g->nslots) {
            g->sfree[g->nfree++] = (int32_t)(c - g->sctx);
        } else if (c >= g->dctx && c < g->dctx + GOFI_CHUNKS) {
            chunk_done(g, (int32_t)(c - g->dctx), 1);
            chunks = 1;
        } else if (c >= g->rctx && c < g->rctx + g->nslots) {
            int32_t i = (int32_t)(c - g->rctx);
            g->rlen[i] = ev[j].len;
            g->ready[g->rtail++ % (unsigned)g->nslots] = i;
        }
    }
    if (chunks) pump(g);
}

/* failed reads the error entry a read or sread announced: 0 when it was a
 * read's (the pml's to handle: it asks for fragments instead), else -FI_EIO
 * with the operation's buffer given back so nothing leaks. */
static int failed(gofi *g)
{
    struct fi_cq_err_entry e = {0};
    fi_cq_readerr(g->cq, &e, 0);
    struct fi_context *c = e.op_context;
    if (c >= g->dctx && c < g->dctx + GOFI_CHUNKS) {
        chunk_done(g, (int32_t)(c - g->dctx), 0);
        pump(g);
        return 0;
    }
    snprintf(g->err, sizeof g->err, "%s %s", e.flags & FI_RECV ? "a receive failed:" : "a send failed:",
             fi_cq_strerror(g->cq, e.prov_errno, e.err_data, NULL, 0));
    if (c >= g->sctx && c < g->sctx + g->nslots) g->sfree[g->nfree++] = (int32_t)(c - g->sctx);
    else if (c >= g->rctx && c < g->rctx + g->nslots) post(g, (int32_t)(c - g->rctx));
    return -FI_EIO;
}

/* reap reads every completion there is. */
static int reap(gofi *g)
{
    struct fi_cq_msg_entry ev[16];
    for (;;) {
        ssize_t k = fi_cq_read(g->cq, ev, 16);
        if (k == -FI_EAGAIN) return 0;
        if (k == -FI_EAVAIL) {
            int rc = failed(g);
            if (rc) return rc;
            continue;
        }
        if (k < 0) {
            seterr(g->err, sizeof g->err, "fi_cq_read", (int)k);
            return (int)k;
        }
        take(g, ev, k);
        if (k < 16) return 0;
    }
}

/* repost_later gives back the buffers gofi_pop took. */
static int repost_later(gofi *g)
{
    int n = g->nlater;
    g->nlater = 0;
    for (int i = 0; i < n; i++) {
        int rc = post(g, g->later[i]);
        if (rc) return rc;
    }
    return 0;
}

const char *gofi_peek(gofi *g, uint64_t *len, int *other)
{
    if (g->nlater && repost_later(g)) g->pendingerr = 1;
    if (g->rhead == g->rtail && !g->pendingerr && g->dhead == g->dtail) {
        if (reap(g) < 0) g->pendingerr = 1;
        else if (g->qhead != g->qtail) pump(g);
    }
    if (g->rhead == g->rtail) {
        *other = g->pendingerr || g->dhead != g->dtail;
        return NULL;
    }
    int32_t i = g->ready[g->rhead % (unsigned)g->nslots];
    *len = g->rlen[i];
    return g->rbuf + (size_t)i * g->slot;
}

void gofi_pop(gofi *g)
{
    if (g->rhead == g->rtail) return;
    g->later[g->nlater++] = g->ready[g->rhead++ % (unsigned)g->nslots];
}

int gofi_poll(gofi *g, gofi_rx *rx, int max, const int32_t *repost, int nrepost)
{
    if (g->nlater) {
        int rc = repost_later(g);
        if (rc) return rc;
    }
    if (nrepost) {
        int rc = gofi_repost(g, repost, nrepost);
        if (rc) return rc < 0 ? rc : -FI_EINVAL;
    }
    int rc = reap(g);
    if (g->qhead != g->qtail) pump(g); /* chunks the provider refused before */
    if (g->pendingerr) {
        g->pendingerr = 0;
        if (!rc) rc = -FI_EIO;
    }
    int got = 0;
    while (got < max && g->rhead != g->rtail) {
        int32_t i = g->ready[g->rhead++ % (unsigned)g->nslots];
        rx[got].buf = g->rbuf + (size_t)i * g->slot;
        rx[got].len = g->rlen[i];
        rx[got].slot = i;
        got++;
    }
    while (got < max && g->dhead != g->dtail) {
        rx[got].buf = NULL;
        rx[got].len = g->dring[g->dhead % GOFI_READS];
        rx[got].slot = -1;
        rx[got]._pad = g->dok[g->dhead++ % GOFI_READS];
        got++;
    }
    return got ? got : rc;
}

int gofi_repost(gofi *g, const int32_t *slots, int n)
{
    if (n && !slots) return -FI_EINVAL;
    for (int i = 0; i < n; i++) {
        if (slots[i] < 0 || slots[i] >= g->nslots) return -FI_EINVAL;
        int rc = post(g, slots[i]);
        if (rc) return rc;
    }
    return 0;
}

int gofi_outstanding(gofi *g) { return g->nslots - g->nfree; }

int gofi_has_wait(gofi *g) { return g->blocking; }

/* The provider's own blocking read, not a poll on its wait fd: it rearms the
 * wait object as the provider needs (the net provider's fd stays readable
 * after fi_trywait, so a poll on it never slept). Completions it returns are
 * filed as reap files them; gofi_poll hands them over. */
int gofi_wait(gofi *g, int ms)
{
    if (!g->blocking) return 0;
    if (g->nlater && repost_later(g)) g->pendingerr = 1;
    if (g->rhead != g->rtail || g->dhead != g->dtail) return 1;
    struct fi_cq_msg_entry ev[16];
    ssize_t k = fi_cq_sread(g->cq, ev, 16, NULL, ms);
    if (k > 0) take(g, ev, k);
    else if (k == -FI_EAVAIL && failed(g)) g->pendingerr = 1;
    return 1;
}

void gofi_limit(gofi *g, int rma, int inject)
{
    if (!rma) g->rma = 0;
    if (!inject) g->inject = 0;
}

int gofi_rma(gofi *g, size_t *max)
{
    *max = g->maxrma;
    return g->rma;
}

size_t gofi_inject_size(gofi *g) { return g->inject; }

int gofi_mr_reg(gofi *g, const void *buf, size_t len, uint64_t *key, uint64_t *raddr, void **handle)
{
    struct fid_mr *mr = NULL;
    int rc = fi_mr_reg(g->domain, buf, len, FI_REMOTE_READ, 0, ++g->nextkey, 0, &mr, NULL);
    if (rc) {
        seterr(g->err, sizeof g->err, "fi_mr_reg", rc);
        return rc;
    }
    if (g->info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        if ((rc = fi_mr_bind(mr, &g->ep->fid, 0)) || (rc = fi_mr_enable(mr))) {
            seterr(g->err, sizeof g->err, "fi_mr_bind", rc);
            fi_close(&mr->fid);
            return rc;
        }
    }
    *key = fi_mr_key(mr);
    *raddr = (g->info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t)(uintptr_t)buf : 0;
    *handle = mr;
    return 0;
}

void gofi_mr_close(void *handle)
{
    if (handle) fi_close(&((struct fid_mr *)handle)->fid);
}

int gofi_read(gofi *g, int rank, void *dst, size_t len, uint64_t raddr, uint64_t key, uint64_t cookie)
{
    if (!g->rma || rank < 0 || rank >= g->size || g->addr[rank] == FI_ADDR_NOTAVAIL || len == 0 || len > g->maxrma) return -FI_EINVAL;
    if (g->nrdfree == 0) {
        int rc = reap(g);
        if (rc < 0) return rc;
        if (g->nrdfree == 0) return 0;
    }
    int32_t r = g->rdfree[--g->nrdfree];
    g->rd[r] = (gofi_rd){.cookie = cookie, .raddr = raddr, .key = key, .dst = dst, .len = len, .rank = rank, .ok = 1, .queued = 1};
    g->rdq[g->qtail++ % GOFI_READS] = r;
    pump(g);
    return 1;
}

void gofi_chunks(gofi *g, size_t chunk, int inflight)
{
    g->chunk = chunk ? chunk : GOFI_CHUNK;
    g->inflight = inflight > 0 && inflight <= GOFI_CHUNKS ? inflight : GOFI_INFLIGHT;
}

int gofi_flush(gofi *g)
{
    /* A frame with a completion after a peer's injects: when it completes,
     * they left too (the provider sends in order to one peer). */
    char nop = 0;
    for (int r = 0; r < g->size; r++) {
        if (!g->injected[r]) continue;
        size_t keep = g->inject;
        g->inject = 0;
        int rc = gofi_send(g, r, 0, &nop, 0, NULL, 0);
        g->inject = keep;
        if (rc < 0) return rc;
        if (rc == 0) return 0; /* no buffer now: the caller polls and retries */
    }
    return 1;
}

const char *gofi_errstr(gofi *g) { return g->err; }

void gofi_close(gofi *g)
{
    if (!g) return;
    if (g->ep) fi_close(&g->ep->fid);
    if (g->av) fi_close(&g->av->fid);
    if (g->cq) fi_close(&g->cq->fid);
    if (g->domain) fi_close(&g->domain->fid);
    if (g->fabric) fi_close(&g->fabric->fid);
    if (g->info) fi_freeinfo(g->info);
    free(g->addr);
    free(g->rbuf);
    free(g->sbuf);
    free(g->rctx);
    free(g->sctx);
    free(g->sfree);
    free(g->ready);
    free(g->rlen);
    free(g->later);
    free(g->inj);
    free(g->injected);
    free(g);
}
