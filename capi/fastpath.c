#include <pthread.h>
#include <stdlib.h>
#include "fastslot.h"
#include "shmcoll.h"

struct gompi_fast gompi_fast;
int32_t gompi_fast_threads;
int32_t gompi_reader_shared;
__thread int32_t *gompi_reader __attribute__((tls_model("initial-exec")));
gompi_fcomm gompi_fast_comms[GOMPI_FAST_COMMS];
uint64_t gompi_fast_sends, gompi_fast_send_bytes;
uint64_t gompi_shm_ncalls[8];
signed char gompi_builtin_sizes[256];

gompi_fslot gompi_fast_slots[GOMPI_FAST_SLOTS];
int32_t gompi_fast_free = -1;

/* Called by the Go side after MPI_Init: room for the per-peer ring table and
 * receive queues, and every request slot on the free list. */
gompi_fpeer *gompi_fast_alloc(int size)
{
    gompi_fast.peers = calloc((size_t)size, sizeof(gompi_fpeer));
    gompi_fast.qhead = malloc((size_t)size * sizeof(int32_t));
    gompi_fast.qtail = malloc((size_t)size * sizeof(int32_t));
    for (int i = 0; i < size; i++)
        gompi_fast.qhead[i] = gompi_fast.qtail[i] = -1;
    for (int i = 0; i < GOMPI_FAST_SLOTS; i++)
        gompi_fast_slots[i].next = i + 1 < GOMPI_FAST_SLOTS ? i + 1 : -1;
    gompi_fast_free = 0;
    return gompi_fast.peers;
}

struct gompi_shm gompi_shm;

/* Per-thread reader counts at MULTIPLE (gompi_fast_lock): which of
 * mtlock's counts a live thread owns. A thread claims the lowest free one
 * at its first fast-path call and gives it back when it exits (a thread
 * that exits is never inside). */
#define GOMPI_READER_MAX 1024
static unsigned char reader_owned[GOMPI_READER_MAX];
static pthread_key_t reader_key;
static pthread_once_t reader_once = PTHREAD_ONCE_INIT;

static void reader_exit(void *p)
{
    size_t i = (size_t)((char *)p - gompi_fast.mt_slots) / gompi_fast.mt_stride;
    __atomic_store_n(&reader_owned[i], 0, __ATOMIC_RELEASE);
    __atomic_sub_fetch(&gompi_fast_threads, 1, __ATOMIC_RELAXED);
}

static void reader_init(void) { pthread_key_create(&reader_key, reader_exit); }

int32_t *gompi_reader_claim(void)
{
    pthread_once(&reader_once, reader_init);
    int max = gompi_fast.mt_max < GOMPI_READER_MAX ? gompi_fast.mt_max : GOMPI_READER_MAX;
    for (int i = 0; i < max; i++) {
        unsigned char z = 0;
        if (__atomic_load_n(&reader_owned[i], __ATOMIC_RELAXED) ||
            !__atomic_compare_exchange_n(&reader_owned[i], &z, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            continue;
        /* one past the highest count in use: Go's Lock looks that far */
        int32_t cur = __atomic_load_n(gompi_fast.mt_claimed, __ATOMIC_SEQ_CST);
        while (cur < i + 1 &&
               !__atomic_compare_exchange_n(gompi_fast.mt_claimed, &cur, i + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            ;
        int32_t *r = (int32_t *)(gompi_fast.mt_slots + (size_t)i * gompi_fast.mt_stride);
        gompi_reader = r;
        pthread_setspecific(reader_key, r);
        __atomic_add_fetch(&gompi_fast_threads, 1, __ATOMIC_RELAXED);
        return r;
    }
    gompi_reader = &gompi_reader_shared;
    return gompi_reader;
}
