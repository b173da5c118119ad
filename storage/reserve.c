/*
 * reserve.c - huge chunks mapped and touched ahead of need, part of
 * storage/: the memory a growing table's slab (slab.c) takes next.
 *
 * Under virtualization the first touch of fresh memory is slow: the
 * hypervisor backs it and the kernel zeroes it, 0.7-4.5 ms per 2 MB here
 * and up to 28 ms (8.8 us per 4 KB page without huge pages). On the event
 * loop that was the emulator's p99 whenever inserts created rows: 3-4 ms at
 * 50k inserts/s,
 * against 0.7 ms with every key written beforehand. So a thread of the
 * database keeps one chunk ready, faulted in; the slab takes it and the
 * thread prepares the next while the loop fills this one.
 *
 * The thread starts at the first take (whose caller maps its chunk itself),
 * and the slab takes only for a table past 64 MB, so a database whose
 * tables stay smaller has neither thread nor spare chunk: idle memory stays
 * small. One chunk (2 MB) waits at first, never counted as any table's
 * memory, and one more each time a take finds none ready (the taker then
 * maps its own, storage__reserve_own), up to STORAGE__RESERVE_GROWN
 * (16 MB): rows created at 300k a second take a chunk every 6 ms, and on
 * this VM touching one costs 3.7 ms of a core, so one chunk ahead ran out
 * at every burst. While a recovery rebuilds the tables, which takes a
 * chunk every millisecond or two, up to STORAGE__RESERVE_DEEP wait
 * (storage__reserve_depth), so that the thread works whenever a core is
 * free rather than only while one chunk is out: with one, and a thread
 * reading the files ahead on the other core, the replaying thread spent
 * 42% of its time faulting in chunks of its own.
 *
 * The thread is a batch thread (base_thread_batch): it never preempts the
 * loop or its clients on a wake-up, but it gets its share of a core. At
 * idle priority (SCHED_IDLE, before) it was starved whenever rows were
 * created quickly, since the clients' wake-ups leave a two-core machine
 * idle only in slivers: the loop faulted in its own chunks, 60% of its
 * time in clear_page_erms, and 15 s of 1 KB inserts over 1M new keys had
 * 75-245 stalls over 20 ms (171-325k/s); as a batch thread with the
 * reserve deepening, 16-19 (313-330k/s).
 *
 * A taker's own chunk is left in small pages while requests are served:
 * touching it is then spread over the page faults of its rows instead of
 * one 2 MB fault on the loop (up to 28 ms where the hypervisor backs fresh
 * memory lazily, as on this VM: 14.6 s for the first touch of 1 GB, 0.2 s
 * for the next). While a recovery rebuilds the tables (the depth past
 * STORAGE__RESERVE_GROWN) no request waits, so it gets huge pages at once.
 *
 * The thread also serves the slabs' moves of full small-page chunks into
 * huge pages (slab.c): a spare chunk only when it is caught up and no
 * table took one since the last try (a growing table needs it more), and
 * it unmaps the small pages moved out (storage__reserve_discard), which
 * cost the loop 0.3 ms a chunk.
 *
 * Invariants: ready[0..n_ready) are whole, touched chunks from
 * storage__huge_chunk, and n_ready <= depth; discard[0..n_discard) are
 * chunks no table refers to any more; the thread is started at most once
 * and joined by storage__reserve_free, which unmaps what it holds; the
 * taker never waits for the thread (trylock); small, takes and takes_seen
 * are the taker's thread's alone.
 */
#include <sys/mman.h>

#include "storage/storage_int.h"

struct storage__reserve_s {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    pthread_t thread;
    bool started;
    bool stop;
    uint8_t *ready[STORAGE__RESERVE_DEEP];
    int n_ready;
    uint8_t *discard[STORAGE__RESERVE_DEEP]; /* chunks for the thread to unmap */
    int n_discard;
    int depth;                  /* chunks to keep ready (deeper after takes found none) */
    atomic_bool bulk;           /* depth past STORAGE__RESERVE_GROWN: a recovery rebuilds tables */
    atomic_bool gone;           /* the thread ended, finding no memory to map */
    uint64_t handed;            /* chunks taken ready */
    size_t small;               /* the slabs' full small-page chunks (their thread's alone) */
    uint64_t takes, takes_seen; /* chunks the slabs took, and as the last spare saw it (same) */
};


uint8_t *storage__huge_chunk(bool huge)
{
    size_t len = 2 * STORAGE__HUGE_CHUNK;
    uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return NULL;
    }
    uintptr_t a = ((uintptr_t)m + STORAGE__HUGE_CHUNK - 1) & ~(uintptr_t)(STORAGE__HUGE_CHUNK - 1);
    uint8_t *c = (uint8_t *)a;
    if (c > m) {
        (void)munmap(m, (size_t)(c - m));
    }
    if (c + STORAGE__HUGE_CHUNK < m + len) {
        (void)munmap(c + STORAGE__HUGE_CHUNK, (size_t)(m + len - (c + STORAGE__HUGE_CHUNK)));
    }
    if (huge) {
        storage__chunk_advise_huge(c);
    }
    return c;
}


void storage__chunk_advise_huge(uint8_t *chunk)
{
    (void)madvise(chunk, STORAGE__HUGE_CHUNK, MADV_HUGEPAGE); /* advice: without it, small pages */
}


static void *reserve_main(void *arg)
{
    base_thread_name("cce-reserve");
    storage__reserve_t *r = arg;
    base_thread_batch(); /* the file's header says why not SCHED_IDLE */
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop && r->n_ready >= r->depth && r->n_discard == 0) {
            pthread_cond_wait(&r->cond, &r->mu);
        }
        if (r->stop) {
            break;
        }
        if (r->n_discard > 0) {
            uint8_t *old = r->discard[--r->n_discard];
            pthread_mutex_unlock(&r->mu);
            (void)munmap(old, STORAGE__HUGE_CHUNK); /* 512 pages freed: 0.3 ms of the loop's */
            pthread_mutex_lock(&r->mu);
            continue;
        }
        pthread_mutex_unlock(&r->mu);
        uint8_t *c = storage__huge_chunk(true);
        for (size_t off = 0; c != NULL && off < STORAGE__HUGE_CHUNK; off += 4096) {
            ((volatile uint8_t *)c)[off] = 0; /* the fault, here rather than on the loop */
        }
        pthread_mutex_lock(&r->mu);
        if (c == NULL) {
            atomic_store(&r->gone, true); /* no spare chunks from now on */
            break;                        /* no memory to be had ahead: the slab maps its own */
        }
        r->ready[r->n_ready++] = c;
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}


storage__reserve_t *storage__reserve_new(void)
{
    storage__reserve_t *r = base_calloc(1, sizeof(*r));
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cond, NULL);
    r->depth = 1;
    return r;
}


void storage__reserve_depth(storage__reserve_t *r, int depth)
{
    pthread_mutex_lock(&r->mu);
    r->depth = depth < 1 ? 1 : depth > STORAGE__RESERVE_DEEP ? STORAGE__RESERVE_DEEP : depth;
    atomic_store(&r->bulk, r->depth > STORAGE__RESERVE_GROWN);
    while (r->n_ready > r->depth) {
        (void)munmap(r->ready[--r->n_ready], STORAGE__HUGE_CHUNK);
    }
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->mu);
}


uint8_t *storage__reserve_take(storage__reserve_t *r)
{
    /* Never wait for the lock: on a busy machine its holder can sit
     * preempted inside its few lines (at idle priority, as it once ran, the
     * loop blocked behind it stalled for hundreds of milliseconds). Busy,
     * the caller maps its own chunk. */
    if (r == NULL || pthread_mutex_trylock(&r->mu) != 0) {
        return NULL;
    }
    bool running = r->started;
    if (!r->started) {
        r->started = true;
        if (pthread_create(&r->thread, NULL, reserve_main, r) != 0) {
            r->stop = true; /* no thread: every chunk is mapped by its taker */
            r->started = false;
        }
    }
    uint8_t *c = r->n_ready > 0 ? r->ready[--r->n_ready] : NULL;
    r->handed += c != NULL;
    r->takes++;
    if (c == NULL && running && r->depth < STORAGE__RESERVE_GROWN) {
        r->depth++; /* the taker faults this one in itself: keep one more ahead */
    }
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->mu);
    return c;
}


uint8_t *storage__reserve_spare(storage__reserve_t *r)
{
    if (r == NULL || pthread_mutex_trylock(&r->mu) != 0) {
        return NULL;
    }
    /* A table that took a chunk since the last call may take the next
     * soon (at 300k new 1 KB rows a second, one every 6 ms), and a move
     * that took it would have it map one of small pages again. */
    bool quiet = r->takes == r->takes_seen;
    r->takes_seen = r->takes;
    uint8_t *c = NULL;
    if (quiet && r->started && r->n_ready > 0 && r->n_ready >= r->depth) {
        c = r->ready[--r->n_ready];
        pthread_cond_signal(&r->cond);
    }
    pthread_mutex_unlock(&r->mu);
    return c;
}


void storage__reserve_discard(storage__reserve_t *r, uint8_t *chunk)
{
    if (r != NULL && pthread_mutex_trylock(&r->mu) == 0) {
        bool queued = r->started && !r->stop && r->n_discard < STORAGE__RESERVE_DEEP;
        if (queued) {
            r->discard[r->n_discard++] = chunk;
            pthread_cond_signal(&r->cond);
        }
        pthread_mutex_unlock(&r->mu);
        if (queued) {
            return;
        }
    }
    (void)munmap(chunk, STORAGE__HUGE_CHUNK);
}


void storage__reserve_count_small(storage__reserve_t *r, int delta)
{
    if (r != NULL) {
        r->small = (size_t)((ptrdiff_t)r->small + delta);
    }
}


size_t storage__reserve_small(const storage__reserve_t *r)
{
    /* started and stop are written on the taker's thread (this one) only;
     * without the thread no spare chunk will come to move them into */
    return r != NULL && r->started && !r->stop && !atomic_load(&r->gone) ? r->small : 0;
}


uint8_t *storage__reserve_own(storage__reserve_t *r, bool *small)
{
    if (r != NULL) {
        r->takes++; /* the taker's thread alone counts (and reads) takes */
    }
    *small = r != NULL && !atomic_load(&r->bulk);
    uint8_t *c = storage__huge_chunk(!*small);
    *small = *small && c != NULL;
    return c;
}


uint64_t storage__reserve_handed(storage__reserve_t *r)
{
    pthread_mutex_lock(&r->mu);
    uint64_t n = r->handed;
    pthread_mutex_unlock(&r->mu);
    return n;
}


int storage__reserve_depth_now(storage__reserve_t *r)
{
    pthread_mutex_lock(&r->mu);
    int n = r->depth;
    pthread_mutex_unlock(&r->mu);
    return n;
}


int storage__reserve_ready(storage__reserve_t *r)
{
    pthread_mutex_lock(&r->mu);
    int n = r->n_ready;
    pthread_mutex_unlock(&r->mu);
    return n;
}


void storage__reserve_free(storage__reserve_t *r)
{
    if (r == NULL) {
        return;
    }
    pthread_mutex_lock(&r->mu);
    bool started = r->started;
    r->stop = true;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->mu);
    if (started) {
        pthread_join(r->thread, NULL);
    }
    while (r->n_ready > 0) {
        (void)munmap(r->ready[--r->n_ready], STORAGE__HUGE_CHUNK);
    }
    while (r->n_discard > 0) {
        (void)munmap(r->discard[--r->n_discard], STORAGE__HUGE_CHUNK);
    }
    pthread_cond_destroy(&r->cond);
    pthread_mutex_destroy(&r->mu);
    base_free(r);
}
