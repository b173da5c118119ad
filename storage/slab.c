/*
 * slab.c - a table's allocator for partitions, row blocks and index nodes,
 * part of storage/.
 *
 * Most of a table's memory is small allocations of known size (a compact
 * partition is ~20 bytes plus its key and row): malloc would add an 8-byte
 * header and round to 16, a sixth of a 100-byte row, and freeing a 1 KB row
 * on every overwrite cost glibc's coalescing (6% of an insert profile).
 * Here sizes up to SLAB_MAX come from chunks in size classes, with no
 * header: the caller gives the size back on free (it can always compute
 * it), and freed slots go on their class's free list for the next
 * allocation of that class. Larger ones go to base_malloc. Chunks are
 * returned only when the table is truncated or dropped, as a memtable's
 * would be.
 *
 * Classes are 8 bytes apart up to 256 bytes (a 100-byte row and its
 * partition waste at most 7 bytes), then 16 to each power of two (a step
 * of a sixteenth: at most 6%, on average 3% of a larger block unused). A
 * row rewritten a few bytes longer moves to the next class and leaves its
 * old slot on a list that nothing may ask for again: YCSB-A's updates,
 * which give the cells of 1 KB rows timestamps of their own one at a time,
 * took rows through six classes of 8 bytes (1080 to 1120) and held 475 MB
 * for 110 MB of rows; through two classes of 64 bytes, half of that.
 *
 * Chunks are 64 KB until the table holds HUGE_AFTER, then 2 MB, aligned
 * and in transparent huge pages: a large table is reached at random, and
 * with 4 KB pages a lookup paid a TLB miss (a two-dimensional page walk
 * under virtualization) for its leaf and its partition on top of the cache
 * misses. Past AHEAD_AFTER they come already touched from the database's
 * reserve (reserve.c), which a thread fills off the loop. When it has none
 * ready (rows created faster than the thread touches memory) the slab maps
 * its own chunk, and while requests are served leaves it in small pages,
 * faulted 4 KB at a time as it fills, and advises it for huge pages once
 * full (khugepaged merges it later): a 2 MB fault on the loop cost up to
 * 28 ms on this VM, whose hypervisor backs fresh memory lazily. 15 s of
 * 1 KB inserts over 1M new keys had 5, 108, 95 and 1 stalls over 20 ms in
 * four runs with huge own chunks, 9, 2 and 1 in three with small ones,
 * most of those in the first 0.3 s, where the table's chunks between 4 and
 * 64 MB were still huge and faulted on the loop (38 ms each on fresh
 * memory: a stall every 45 ms). So those are the slab's own, small, too:
 * 8 s of such inserts had 26, 6 and 9 stalls in their first 2 s that no
 * pause of the machine explained, and 0, 0 and 0 with them small.
 *
 * Small pages cost every later read their TLB misses, though, and
 * khugepaged merges 16 MB every 10 s by default: after 15 s of such
 * growth 390 MB of a 1 GB table were still small, and selects over it ran
 * at 2.30-2.43 us of server CPU each against 2.09-2.18 once collapsed
 * (another run, 330 MB small: 2.45-2.57 against 2.33-2.35). So
 * a full small chunk waits on the slab's list, and storage__slab_tidy,
 * called between requests, copies it into a huge chunk the reserve touched
 * ahead and mremap(2)s that over it: the same addresses, now one huge page,
 * for 0.6-1.1 ms of the caller's time (the median over runs under load)
 * and none of the first-touch cost. MADV_COLLAPSE would copy without the
 * caller, but into a page it touches first under the process's mmap lock,
 * which every page fault of the loop then waits for (up to 28 ms here).
 * The spare chunks come from the reserve's thread, which runs only once a
 * table passed AHEAD_AFTER: a table that stays smaller keeps its small
 * pages for khugepaged (selects over 50k rows of 1 KB, 55 MB: 2.02-2.04 us
 * against 1.87-1.97 with huge chunks until it merges them), and no spare
 * chunk, so 300k rows of 100 bytes still cost 57-58 bytes each beyond key
 * and value.
 *
 * Small tables (the system keyspaces) stay in small chunks, so idle memory
 * does not grow.
 *
 * Invariants: used is the bytes handed out and not freed, class-rounded
 * (large allocations at their size); reserved is chunk bytes plus large.
 */
#define _GNU_SOURCE /* mremap's MREMAP_FIXED */
#include <sys/mman.h>

#include "storage/storage_int.h"

#define SLAB_CHUNK  (64 * 1024)
/* A table holding this much takes 2 MB chunks (of small pages, its own,
 * moved into huge pages once a reserve thread runs)... */
#define HUGE_AFTER  (4u * 1024 * 1024)
/* ... and from this much on, touched ahead by the database's reserve,
 * whose spare chunks (2 MB, up to 16 MB while rows are created fast) are
 * then a small part of the table's memory: from 4 MB on, they made 300k
 * rows of 100 bytes cost 107 bytes each beyond key and value, not 58. */
#define AHEAD_AFTER (64u * 1024 * 1024)

/* A chunk starts with the link to the previous one and its own size. */
#define CHUNK_HDR (2 * sizeof(void *))


static void chunk_free(void *c)
{
    size_t size;
    memcpy(&size, (uint8_t *)c + sizeof(void *), sizeof(size));
    if (size == STORAGE__HUGE_CHUNK) {
        (void)munmap(c, STORAGE__HUGE_CHUNK);
    } else {
        base_free(c);
    }
}


/* The class of a block of size bytes (1..STORAGE__SLAB_MAX): the smallest
 * whose slots hold it. */
static size_t class_of(size_t size)
{
    if (size <= STORAGE__SLAB_FINE) {
        return (size + STORAGE__SLAB_GRAIN - 1) / STORAGE__SLAB_GRAIN - 1;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll((unsigned long long)(size - 1)); /* 2^e < size */
    size_t step = (size_t)1 << (e - 4);
    size_t k = (size - ((size_t)1 << e) + step - 1) / step - 1; /* 0..15 */
    return STORAGE__SLAB_FINE / STORAGE__SLAB_GRAIN + (e - 8) * 16 + k;
}


/* The bytes of a slot of class cls. */
static size_t class_size(size_t cls)
{
    if (cls < STORAGE__SLAB_FINE / STORAGE__SLAB_GRAIN) {
        return (cls + 1) * STORAGE__SLAB_GRAIN;
    }
    size_t j = cls - STORAGE__SLAB_FINE / STORAGE__SLAB_GRAIN;
    size_t e = 8 + j / 16;
    return ((size_t)1 << e) + (j % 16 + 1) * ((size_t)1 << (e - 4));
}


void storage__slab_init(storage__slab_t *s, storage__reserve_t *ahead)
{
    memset(s, 0, sizeof(*s));
    s->ahead = ahead;
}


void storage__slab_fini(storage__slab_t *s)
{
    if (s->n_small > 0) {
        storage__reserve_count_small(s->ahead, -(int)s->n_small);
    }
    base_free(s->small);
    void *c = s->chunks;
    while (c != NULL) {
        void *next;
        memcpy(&next, c, sizeof(next));
        chunk_free(c);
        c = next;
    }
    memset(s, 0, sizeof(*s));
}


static void push(storage__slab_t *s, void *p, size_t cls)
{
    memcpy(p, &s->free[cls], sizeof(void *));
    s->free[cls] = p;
}


/* The chunk of small pages the slab just filled: advised for khugepaged,
 * and listed for storage__slab_tidy. */
static void small_full(storage__slab_t *s, uint8_t *chunk)
{
    storage__chunk_advise_huge(chunk);
    s->cur_small = false;
    if (s->n_small == s->cap_small) {
        s->cap_small = s->cap_small > 0 ? 2 * s->cap_small : 16;
        s->small = base_realloc(s->small, s->cap_small * sizeof(*s->small));
    }
    s->small[s->n_small++] = chunk;
    storage__reserve_count_small(s->ahead, 1);
}


bool storage__slab_tidy(storage__slab_t *s)
{
    if (s->n_small == 0) {
        return false;
    }
    uint8_t *huge = storage__reserve_spare(s->ahead);
    if (huge == NULL) {
        return false;
    }
    uint8_t *small = s->small[--s->n_small];
    storage__reserve_count_small(s->ahead, -1);
    memcpy(huge, small, STORAGE__HUGE_CHUNK);
    /* The small pages move out first, to a place of their own that the
     * reserve's thread unmaps (moving page-table entries frees nothing;
     * freeing 512 pages took the loop 0.3 ms); small stays mapped, empty,
     * for the huge page to move over. A kernel without MREMAP_DONTUNMAP
     * (before 5.7) frees them in the second call. */
    uint8_t *old = storage__huge_chunk(false);
    if (old != NULL &&
        mremap(small, STORAGE__HUGE_CHUNK, STORAGE__HUGE_CHUNK,
               MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, old) == MAP_FAILED) {
        (void)munmap(old, STORAGE__HUGE_CHUNK);
        old = NULL;
    }
    /* Both 2 MB-aligned: the huge page moves whole. On failure (no room
     * for one more mapping) small gets its bytes back in small pages. */
    if (mremap(huge, STORAGE__HUGE_CHUNK, STORAGE__HUGE_CHUNK, MREMAP_MAYMOVE | MREMAP_FIXED,
               small) == MAP_FAILED) {
        if (old != NULL) {
            memcpy(small, huge, STORAGE__HUGE_CHUNK);
            storage__reserve_discard(s->ahead, old);
        }
        (void)munmap(huge, STORAGE__HUGE_CHUNK);
        return false;
    }
    if (old != NULL) {
        storage__reserve_discard(s->ahead, old);
    }
    return true;
}


void *storage__slab_alloc(storage__slab_t *s, size_t size)
{
    BASE_ASSERT(size > 0);
    if (size > STORAGE__SLAB_MAX) {
        s->used += size;
        s->reserved += size;
        return base_malloc(size);
    }
    size_t cls = class_of(size);
    size_t n = class_size(cls);
    s->used += n;
    void *p = s->free[cls];
    if (p != NULL) {
        memcpy(&s->free[cls], p, sizeof(void *));
        return p;
    }
    if (s->left < n) {
        if (s->left > 0) { /* the tail of the old chunk serves the largest class it holds */
            size_t tail = class_of(s->left);
            tail -= class_size(tail) > s->left; /* left >= 8: classes below 8 bytes do not exist */
            push(s, s->cur, tail);
        }
        if (s->cur_small) { /* full now: to be moved (or merged by khugepaged) */
            small_full(s, s->chunks);
        }
        size_t csize = STORAGE__HUGE_CHUNK;
        uint8_t *c = NULL;
        if (s->reserved >= AHEAD_AFTER) {
            c = storage__reserve_take(s->ahead); /* touched ahead, off this thread */
        }
        if (c == NULL && s->reserved >= HUGE_AFTER) {
            c = storage__reserve_own(s->ahead, &s->cur_small); /* moved once a thread runs */
        }
        if (c == NULL) {
            csize = SLAB_CHUNK;
            c = base_malloc(SLAB_CHUNK);
        }
        memcpy(c, &s->chunks, sizeof(s->chunks));
        memcpy(c + sizeof(void *), &csize, sizeof(csize));
        s->chunks = c;
        s->cur = c + CHUNK_HDR;
        s->left = csize - CHUNK_HDR;
        s->reserved += csize;
    }
    p = s->cur;
    s->cur += n;
    s->left -= n;
    return p;
}


void storage__slab_free(storage__slab_t *s, void *p, size_t size)
{
    if (p == NULL) {
        return;
    }
    if (size > STORAGE__SLAB_MAX) {
        s->used -= size;
        s->reserved -= size;
        base_free(p);
        return;
    }
    size_t cls = class_of(size);
    s->used -= class_size(cls);
    push(s, p, cls);
}
