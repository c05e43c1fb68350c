/* gofi: the C half of btl/ofi. One RDM endpoint, one completion queue for
 * sends and receives (with a wait object when the provider has one), a table
 * address vector by world rank, pre-posted receive buffers and a pool of
 * send buffers. The Go side drives it: a few calls per progress, never a
 * callback from C. */
#ifndef GOFI_H
#define GOFI_H
#include <stddef.h>
#include <stdint.h>

/* Frame header: source world rank, btl tag, magic, reserved. */
#define GOFI_FRAME_HDR 8
#define GOFI_MAGIC 0x4f

typedef struct gofi gofi;

/* A received frame: its buffer stays ours until gofi_repost gives it back. */
typedef struct {
    void *buf;
    uint64_t len;
    int32_t slot;
    int32_t _pad;
} gofi_rx;

/* gofi_open opens provider prov ("" : the first one offering RDM messages
 * that is not node-local) on domain dom ("": an IPv4 or native address off
 * the loopback if there is one) with nslots receive and send buffers of slot
 * bytes each, for a job of size ranks. It returns NULL and writes why into
 * err[errlen]. */
gofi *gofi_open(const char *prov, const char *dom, int me, int size, int nslots, size_t slot, char *err, size_t errlen);
/* gofi_name writes the endpoint's address into buf (at most *len bytes). */
int gofi_name(gofi *g, void *buf, size_t *len);
/* gofi_provider is the provider's name ("tcp;ofi_rxm"). */
const char *gofi_provider(gofi *g);
/* gofi_insert makes rank reachable at address addr[len]. */
int gofi_insert(gofi *g, int rank, const void *addr, size_t len);
/* gofi_send sends one frame (the 8-byte frame header naming us and tag,
 * then hdr[hlen] and payload[n]) to rank: 1 sent (the buffers may be
 * reused), 0 no room now, <0 error. */
int gofi_send(gofi *g, int rank, int tag, const void *hdr, size_t hlen, const void *payload, size_t n);
/* gofi_poll first gives the nrepost receive buffers in repost back to the
 * provider (those of the frames the last poll returned: handing them back
 * here keeps the provider call off the path from a receive to the reply),
 * then reaps completions, writing up to max received frames into rx;
 * returns how many, or <0 on a completion or repost error (gofi_errstr says
 * which). */
int gofi_poll(gofi *g, gofi_rx *rx, int max, const int32_t *repost, int nrepost);
/* gofi_peek is the C fast path's receive (capi/fastpath.h): the next
 * received frame, reaping completions once when none is waiting; NULL
 * when there is none, and then *other is set when read completions or an
 * error wait for the Go side. The frame stays at the head until gofi_pop
 * takes it; its buffer goes back to the provider on the next peek or poll. */
const char *gofi_peek(gofi *g, uint64_t *len, int *other);
void gofi_pop(gofi *g);
/* gofi_repost gives n receive buffers back to the provider. */
int gofi_repost(gofi *g, const int32_t *slots, int n);
/* gofi_outstanding is the number of sends not yet completed. */
int gofi_outstanding(gofi *g);
/* gofi_wait sleeps up to ms milliseconds on the completion queue's wait
 * object; returns 0 when the provider has none (the caller naps instead). */
int gofi_wait(gofi *g, int ms);
int gofi_has_wait(gofi *g);
/* gofi_limit turns fi_read rendezvous (rma 0) or fi_inject (inject 0) off. */
void gofi_limit(gofi *g, int rma, int inject);
/* gofi_rma: 1 when fi_read rendezvous is offered; *max the largest read. */
int gofi_rma(gofi *g, size_t *max);
/* gofi_inject_size: frames up to this many bytes go by fi_inject. */
size_t gofi_inject_size(gofi *g);
/* gofi_mr_reg exposes buf[len] to remote reads: the key and the address a
 * reader names (*handle for gofi_mr_close). */
int gofi_mr_reg(gofi *g, const void *buf, size_t len, uint64_t *key, uint64_t *raddr, void **handle);
void gofi_mr_close(void *handle);
/* gofi_read starts reading len bytes at raddr (key) of rank into dst: 1
 * started (gofi_poll reports it done as an entry with slot -1, len the
 * cookie and _pad 1 ok, 0 failed), 0 no room now, <0 error. */
int gofi_read(gofi *g, int rank, void *dst, size_t len, uint64_t raddr, uint64_t key, uint64_t cookie);
/* gofi_chunks sets how reads are split: chunks of at most chunk bytes, at
 * most inflight chunks of all reads at the provider at once (0: the
 * defaults GOFI_CHUNK and GOFI_INFLIGHT). */
/* 256 KiB: across two namespaces over net, osu_bibw 1-4 MiB went from
 * 210-630 MB/s (whole reads) to 430-3000 (alternating runs at load ~20):
 * a whole-message read response held the socket, and the other
 * direction's rendezvous and FIN frames queued behind it. */
#define GOFI_CHUNK ((size_t)256 << 10)
#define GOFI_INFLIGHT 64
void gofi_chunks(gofi *g, size_t chunk, int inflight);
/* gofi_flush follows every peer's injected frames by a counted one so that
 * gofi_outstanding covers them: 1 done, 0 retry after polling, <0 error. */
int gofi_flush(gofi *g);
const char *gofi_errstr(gofi *g);
void gofi_close(gofi *g);
#endif
