//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* Random point-to-point soak with a fixed seed, for about 4 seconds. Every
 * rank derives the same traffic plan per round: how many messages each rank
 * sends each rank (itself included), their tags, sizes (0 B to 2 MiB) and send
 * modes, and how each receiver takes them (pre-posted specific receives,
 * ANY_TAG per source, ANY_SOURCE per tag, full wildcards, or probe loops with
 * Probe/Iprobe/Mprobe/Improbe), with every completion call. Each payload has a
 * header (round, source, destination, tag, sequence number, size, checksum)
 * and is fully checked; per (source, tag) the sequence numbers must arrive in
 * the order the receives were posted, each exactly once, none missing. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define SEED 0x5eed2024u
#define NTAG 6
#define MAXMSG 12
#define MAXNP 16
#define STOPTAG 1000
#define SECONDS 4.0
#define BSENDBUF (48 << 20)

static int rank, size;

/* splitmix64: rng_state drives the shared plan, local_state this rank's own
 * choices (posting order, completion calls), both seeded per round. */
static uint64_t rng_state, local_state;
static uint64_t mix(uint64_t *st) {
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rn(unsigned n) { return (unsigned)(mix(&rng_state) % n); }
static unsigned ln(unsigned n) { return (unsigned)(mix(&local_state) % n); }

typedef struct {
    int32_t round, src, dst, tag, seq, len;
    uint32_t sum, magic;
} header;
#define HDR ((int)sizeof(header))
#define MAGIC 0xC0FFEE11u

typedef struct {
    int tag, len, mode, seq;
} planned;

/* The plan of a round: msgs[s][d][i]; style[d] is how d receives. */
static planned plan[MAXNP][MAXNP][MAXMSG];
static int nplan[MAXNP][MAXNP];
static int style[MAXNP];
static int seqctr[MAXNP][MAXNP][NTAG]; /* next sequence number per (src, dst, tag) */

enum { ST_SPECIFIC, ST_PER_SOURCE, ST_PER_TAG, ST_WILD, ST_PROBE, NSTYLE };

static int rand_len(void) {
    unsigned r = rn(100);
    if (r < 45)
        return HDR + (int)rn(64);
    if (r < 70)
        return HDR + (int)rn(4096);
    if (r < 87)
        return HDR + (int)rn(64 << 10);
    if (r < 98)
        return HDR + (int)rn(512 << 10);
    return HDR + (int)rn(2 << 20);
}

static void make_plan(int round) {
    rng_state = SEED * 1000003ull + (uint64_t)round;
    for (int d = 0; d < size; d++)
        style[d] = (int)rn(NSTYLE);
    for (int s = 0; s < size; s++)
        for (int d = 0; d < size; d++) {
            int n = rn(10) < 3 ? 0 : (int)rn(MAXMSG + 1);
            nplan[s][d] = n;
            for (int i = 0; i < n; i++) {
                planned *p = &plan[s][d][i];
                p->tag = (int)rn(NTAG);
                p->len = rand_len();
                p->mode = (int)rn(8);
                p->seq = seqctr[s][d][p->tag]++;
            }
        }
}

static uint32_t pat_seed(const header *h) {
    return (uint32_t)(h->round * 7919 + h->src * 104729 + h->dst * 1299709 + h->tag * 15485863 + h->seq * 31);
}

static inline unsigned char pat(int i, uint32_t seed) {
    uint32_t x = (uint32_t)i * 2654435761u ^ seed;
    return (unsigned char)(x ^ x >> 13 ^ x >> 22);
}

static void build(unsigned char *b, int round, int dst, const planned *p) {
    header h = {round, rank, dst, p->tag, p->seq, p->len, 0, MAGIC};
    uint32_t seed = pat_seed(&h), sum = 2166136261u;
    for (int i = HDR; i < p->len; i++) {
        b[i] = pat(i, seed);
        sum = (sum ^ b[i]) * 16777619u;
    }
    h.sum = sum;
    memcpy(b, &h, sizeof h);
}

/* Per-receiver bookkeeping for the order check. */
static int nextseq[MAXNP][NTAG], gotcount[MAXNP][NTAG];
static long long total_msgs, total_bytes;

static void check_msg(const unsigned char *b, const MPI_Status *st, int round, const char *how) {
    header h;
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    if (count < HDR) {
        CHECK(0, "round %d %s: message of %d bytes from %d tag %d", round, how, count, st->MPI_SOURCE, st->MPI_TAG);
        return;
    }
    memcpy(&h, b, sizeof h);
    if (h.magic != MAGIC || h.round != round || h.dst != rank || h.src != st->MPI_SOURCE || h.tag != st->MPI_TAG ||
        h.len != count || h.src < 0 || h.src >= size || h.tag < 0 || h.tag >= NTAG) {
        CHECK(0,
              "round %d %s: header magic %x round %d src %d dst %d tag %d len %d; status source %d tag %d count %d",
              round, how, h.magic, h.round, h.src, h.dst, h.tag, h.len, st->MPI_SOURCE, st->MPI_TAG, count);
        return;
    }
    uint32_t seed = pat_seed(&h), sum = 2166136261u;
    for (int i = HDR; i < count; i++)
        sum = (sum ^ b[i]) * 16777619u;
    CHECK(sum == h.sum, "round %d %s: checksum of %d bytes from %d tag %d seq %d differs", round, how, count, h.src,
          h.tag, h.seq);
    for (int i = HDR; i < count; i++)
        if (b[i] != pat(i, seed)) {
            CHECK(0, "round %d %s: byte %d of %d from %d tag %d seq %d wrong", round, how, i, count, h.src, h.tag,
                  h.seq);
            break;
        }
    CHECK(h.seq == nextseq[h.src][h.tag], "round %d %s: from %d tag %d got seq %d, want %d (%s)", round, how, h.src,
          h.tag, h.seq, nextseq[h.src][h.tag], h.seq < nextseq[h.src][h.tag] ? "duplicate or reordered" : "lost or reordered");
    nextseq[h.src][h.tag] = h.seq + 1;
    gotcount[h.src][h.tag]++;
    total_msgs++;
    total_bytes += count;
    if (check_failures > 20)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

/* A posted receive, in posting order. */
typedef struct {
    int src, tag, cap;
    unsigned char *buf;
    MPI_Status st;
} slot;

#define BSEND_ROUND (8 << 20) /* buffered bytes per round, well under BSENDBUF */

static void do_round(int round) {
    make_plan(round);
    local_state = SEED ^ ((uint64_t)round << 20) ^ (uint64_t)rank;
    int me = rank, sty = style[me];
    int nexp = 0, maxlen = HDR, maxsrc[MAXNP] = {0}, maxtag[NTAG] = {0};
    int expcount[MAXNP][NTAG];
    memset(expcount, 0, sizeof expcount);
    memset(gotcount, 0, sizeof gotcount);
    for (int s = 0; s < size; s++)
        for (int i = 0; i < nplan[s][me]; i++) {
            planned *p = &plan[s][me][i];
            expcount[s][p->tag]++;
            nexp++;
            maxlen = p->len > maxlen ? p->len : maxlen;
            maxsrc[s] = p->len > maxsrc[s] ? p->len : maxsrc[s];
            maxtag[p->tag] = p->len > maxtag[p->tag] ? p->len : maxtag[p->tag];
        }

    /* 1. Pre-posted receives: one per expected message, in random order. The
     * styles never mix specific and wildcard receives that could steal each
     * other's messages, so every receive finds a message whatever the timing. */
    slot *slots = calloc((size_t)nexp + 1, sizeof *slots);
    MPI_Request *rr = malloc(sizeof *rr * ((size_t)nexp + 1));
    int nslot = 0;
    if (sty != ST_PROBE) {
        for (int s = 0; s < size; s++)
            for (int i = 0; i < nplan[s][me]; i++) {
                planned *p = &plan[s][me][i];
                slot *sl = &slots[nslot++];
                switch (sty) {
                case ST_SPECIFIC:
                    *sl = (slot){s, p->tag, maxsrc[s], NULL, {0}};
                    break;
                case ST_PER_SOURCE:
                    *sl = (slot){s, MPI_ANY_TAG, maxsrc[s], NULL, {0}};
                    break;
                case ST_PER_TAG:
                    *sl = (slot){MPI_ANY_SOURCE, p->tag, maxtag[p->tag], NULL, {0}};
                    break;
                default:
                    *sl = (slot){MPI_ANY_SOURCE, MPI_ANY_TAG, maxlen, NULL, {0}};
                }
            }
        for (int i = nslot - 1; i > 0; i--) {
            int j = (int)ln((unsigned)i + 1);
            slot t = slots[i];
            slots[i] = slots[j];
            slots[j] = t;
        }
        for (int i = 0; i < nslot; i++) {
            slots[i].buf = malloc((size_t)slots[i].cap);
            CHECK_MPI(MPI_Irecv(slots[i].buf, slots[i].cap, MPI_BYTE, slots[i].src, slots[i].tag, MPI_COMM_WORLD,
                                &rr[i]));
        }
    }
    /* Every pre-posted receive is in place: ready sends may go. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. Sends: destinations interleaved at random, each destination's
     * messages in plan order (so per tag in sequence order). */
    int nsend = 0, pos[MAXNP] = {0}, left = 0;
    for (int d = 0; d < size; d++)
        left += nplan[me][d];
    unsigned char **sbufs = calloc((size_t)left + 1, sizeof *sbufs);
    MPI_Request *sr = malloc(sizeof *sr * ((size_t)left + 1));
    int nsr = 0, bsend_bytes = 0;
    while (left > 0) {
        int d = (int)ln((unsigned)size);
        while (pos[d] == nplan[me][d])
            d = (d + 1) % size;
        planned *p = &plan[me][d][pos[d]++];
        left--;
        unsigned char *b = malloc((size_t)p->len);
        sbufs[nsend++] = b;
        build(b, round, d, p);
        int mode = p->mode;
        if (style[d] == ST_PROBE) {
            /* The receiver posts nothing ahead: no ready sends, no blocking ones
             * that could wait on a rank that is itself blocked sending. */
            static const int nb[8] = {4, 5, 4, 3, 4, 5, 4, 7};
            mode = nb[mode];
        }
        if ((mode == 3 || mode == 7) && bsend_bytes + p->len + MPI_BSEND_OVERHEAD > BSEND_ROUND)
            mode = 4;
        if (mode == 3 || mode == 7)
            bsend_bytes += p->len + MPI_BSEND_OVERHEAD;
        switch (mode) {
        case 0:
            CHECK_MPI(MPI_Send(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD));
            break;
        case 1:
            CHECK_MPI(MPI_Ssend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD));
            break;
        case 2:
            CHECK_MPI(MPI_Rsend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD));
            break;
        case 3:
            CHECK_MPI(MPI_Bsend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD));
            break;
        case 4:
            CHECK_MPI(MPI_Isend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD, &sr[nsr++]));
            break;
        case 5:
            CHECK_MPI(MPI_Issend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD, &sr[nsr++]));
            break;
        case 6:
            CHECK_MPI(MPI_Irsend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD, &sr[nsr++]));
            break;
        case 7:
            CHECK_MPI(MPI_Ibsend(b, p->len, MPI_BYTE, d, p->tag, MPI_COMM_WORLD, &sr[nsr++]));
            break;
        }
    }

    /* 3. Receives by probing: take whatever is there, in the order found. */
    if (sty == ST_PROBE) {
        for (int i = 0; i < nexp; i++) {
            MPI_Status st, st2;
            MPI_Message msg;
            int flag = 0, kind = (int)ln(5);
            switch (kind) {
            case 0:
                CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                break;
            case 1:
                while (!flag)
                    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
                break;
            case 2:
                CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
                break;
            case 3:
                while (!flag)
                    CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
                break;
            }
            int count = maxlen;
            if (kind < 4)
                MPI_Get_count(&st, MPI_BYTE, &count);
            if (count < 0 || count > maxlen) {
                CHECK(0, "round %d: probe %d found %d bytes from %d tag %d (largest expected %d)", round, kind, count,
                      st.MPI_SOURCE, st.MPI_TAG, maxlen);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            unsigned char *b = malloc((size_t)count + 1);
            if (kind < 2) {
                CHECK_MPI(MPI_Recv(b, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
            } else if (kind == 2) {
                CHECK_MPI(MPI_Mrecv(b, count, MPI_BYTE, &msg, &st2));
            } else if (kind == 3) {
                MPI_Request q;
                CHECK_MPI(MPI_Imrecv(b, count, MPI_BYTE, &msg, &q));
                CHECK_MPI(MPI_Wait(&q, &st2));
            } else {
                CHECK_MPI(MPI_Recv(b, count, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st2));
            }
            check_msg(b, &st2, round, "probe loop");
            free(b);
        }
    }

    /* 4. Complete the pre-posted receives with one of the completion calls;
     * then check them in posting order. */
    if (nslot > 0) {
        int how = (int)ln(5), done = 0, idx, flag, out;
        int *idxs = malloc(sizeof *idxs * (size_t)nslot);
        MPI_Status *sts = malloc(sizeof *sts * (size_t)nslot);
        switch (how) {
        case 0:
            CHECK_MPI(MPI_Waitall(nslot, rr, sts));
            for (int i = 0; i < nslot; i++)
                slots[i].st = sts[i];
            break;
        case 1:
            while (done < nslot) {
                CHECK_MPI(MPI_Waitany(nslot, rr, &idx, &sts[0]));
                if (idx == MPI_UNDEFINED)
                    break;
                slots[idx].st = sts[0];
                done++;
            }
            break;
        case 2:
            while (done < nslot) {
                CHECK_MPI(MPI_Waitsome(nslot, rr, &out, idxs, sts));
                if (out == MPI_UNDEFINED)
                    break;
                for (int j = 0; j < out; j++)
                    slots[idxs[j]].st = sts[j];
                done += out;
            }
            break;
        case 3:
            while (done < nslot) {
                if (ln(2)) {
                    CHECK_MPI(MPI_Testsome(nslot, rr, &out, idxs, sts));
                    if (out == MPI_UNDEFINED)
                        break;
                    for (int j = 0; j < out; j++)
                        slots[idxs[j]].st = sts[j];
                    done += out;
                } else {
                    flag = 0;
                    CHECK_MPI(MPI_Testany(nslot, rr, &idx, &flag, &sts[0]));
                    if (flag && idx != MPI_UNDEFINED) {
                        slots[idx].st = sts[0];
                        done++;
                    }
                }
            }
            break;
        default:
            for (int i = nslot - 1; i >= 0; i--)
                CHECK_MPI(MPI_Wait(&rr[i], &slots[i].st));
        }
        for (int i = 0; i < nslot; i++)
            CHECK(rr[i] == MPI_REQUEST_NULL, "round %d: receive %d not completed (completion style %d)", round, i,
                  how);
        static const char *hows[] = {"pre-posted specific", "pre-posted ANY_TAG", "pre-posted ANY_SOURCE",
                                     "pre-posted wildcard"};
        for (int i = 0; i < nslot; i++)
            check_msg(slots[i].buf, &slots[i].st, round, hows[sty]);
        free(idxs);
        free(sts);
    }
    CHECK_MPI(MPI_Waitall(nsr, sr, MPI_STATUSES_IGNORE));

    /* 5. Nothing lost: every planned message arrived. */
    for (int s = 0; s < size; s++)
        for (int t = 0; t < NTAG; t++)
            CHECK(gotcount[s][t] == expcount[s][t], "round %d: got %d messages from %d with tag %d, want %d", round,
                  gotcount[s][t], s, t, expcount[s][t]);

    for (int i = 0; i < nslot; i++)
        free(slots[i].buf);
    for (int i = 0; i < nsend; i++)
        free(sbufs[i]);
    free(slots);
    free(rr);
    free(sbufs);
    free(sr);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    if (size > MAXNP) {
        if (rank == 0)
            printf("p2p_soak runs on at most %d ranks\n", MAXNP);
        MPI_Finalize();
        return 0;
    }
    void *bbuf = malloc(BSENDBUF);
    CHECK_MPI(MPI_Buffer_attach(bbuf, BSENDBUF));
    double t0 = MPI_Wtime();
    int round = 0, go = 1;
    while (go) {
        do_round(round++);
        /* Rank 0 decides, so every rank runs the same rounds. */
        if (rank == 0) {
            go = MPI_Wtime() - t0 < SECONDS && round < 5000;
            for (int d = 1; d < size; d++)
                CHECK_MPI(MPI_Send(&go, 1, MPI_INT, d, STOPTAG, MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, STOPTAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
    }
    void *addr;
    int bs;
    CHECK_MPI(MPI_Buffer_detach(&addr, &bs));
    CHECK(addr == bbuf && bs == BSENDBUF, "Buffer_detach: %p %d", addr, bs);
    free(bbuf);
    printf("rank %d: %d rounds, %lld messages, %lld bytes received\n", rank, round, total_msgs, total_bytes);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
