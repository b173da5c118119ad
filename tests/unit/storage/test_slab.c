/*
 * test_slab.c - a table's allocator (slab.c): a slot holds what was asked
 * and wastes at most 7 bytes to 256 bytes and a sixteenth above; blocks
 * that grow a few bytes at a time, as rows whose cells gain timestamps of
 * their own, reuse the slots they left; slots (a chunk's tail among them)
 * never overlap; the accounting comes back to zero. A chunk the slab maps
 * itself because the reserve had none ready is left in small pages until
 * it is full, then advised for huge pages; a recovery's stays huge. A full
 * one moves into a huge page the reserve touched (storage__slab_tidy) at
 * the same addresses, its bytes intact, once no table has taken a chunk
 * since the last try.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <cmocka.h>

#include "storage/storage_int.h"

/* What a block of size bytes costs: the change in used. */
static size_t slot_of(storage__slab_t *s, size_t size)
{
    size_t before = s->used;
    void *p = storage__slab_alloc(s, size);
    size_t n = s->used - before;
    storage__slab_free(s, p, size);
    assert_int_equal(s->used, before);
    return n;
}

static void a_slot_holds_its_block_and_wastes_little(void **state)
{
    (void)state;
    storage__slab_t s;
    storage__slab_init(&s, NULL);
    size_t last = 0;
    for (size_t size = 1; size <= STORAGE__SLAB_MAX; size++) {
        size_t n = slot_of(&s, size);
        assert_true(n >= size);
        assert_true(n - size <= (size <= 256 ? 7 : size / 16));
        assert_true(n >= last); /* classes grow with the size */
        assert_int_equal(n % 8, 0);
        last = n;
    }
    storage__slab_fini(&s);
}

/* 1 KB rows rewritten a few bytes longer each time (1096 to 1144 bytes, the
 * span YCSB-A's updates take them through) stay in one class: the slots of
 * the last round serve the next, and the slab takes no more memory. */
static void blocks_growing_a_little_reuse_their_slots(void **state)
{
    (void)state;
    enum { N = 1000 };
    static void *blk[N];
    storage__slab_t s;
    storage__slab_init(&s, NULL);
    for (size_t i = 0; i < N; i++) {
        blk[i] = storage__slab_alloc(&s, 1096);
    }
    size_t reserved = s.reserved;
    for (size_t size = 1104; size <= 1144; size += 8) {
        for (size_t i = 0; i < N; i++) {
            void *q = storage__slab_alloc(&s, size);
            storage__slab_free(&s, blk[i], size - 8);
            blk[i] = q;
        }
    }
    /* one round's worth of new slots at most (the first rewrite of each
     * block needs one before it frees its old one) */
    assert_true(s.reserved <= reserved + N * 1152 + 64 * 1024);
    for (size_t size = 1104; size <= 1144; size += 8) {
        size_t before = s.reserved;
        for (size_t i = 0; i < N; i++) {
            void *q = storage__slab_alloc(&s, size);
            storage__slab_free(&s, blk[i], size == 1104 ? 1144 : size - 8);
            blk[i] = q;
        }
        assert_int_equal(s.reserved, before); /* all from freed slots */
    }
    for (size_t i = 0; i < N; i++) {
        storage__slab_free(&s, blk[i], 1144);
    }
    assert_int_equal(s.used, 0);
    storage__slab_fini(&s);
}

/* Blocks of sizes that leave odd tails at the ends of chunks, each filled
 * to its full size, are all intact after more are allocated and freed: no
 * slot, a chunk's tail included, overlaps another. */
static void slots_never_overlap(void **state)
{
    (void)state;
    enum { N = 4000 };
    static uint8_t *blk[N];
    static size_t len[N];
    storage__slab_t s;
    storage__slab_init(&s, NULL);
    uint32_t x = 12345;
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < N; i++) {
            if (blk[i] != NULL && (x = x * 1103515245u + 12345u) % 3 == 0) {
                storage__slab_free(&s, blk[i], len[i]);
                blk[i] = NULL;
            }
            if (blk[i] == NULL) {
                x = x * 1103515245u + 12345u;
                len[i] = 1 + (x >> 8) % STORAGE__SLAB_MAX;
                blk[i] = storage__slab_alloc(&s, len[i]);
                memset(blk[i], (int)(i & 0xff), len[i]);
            }
        }
        for (size_t i = 0; i < N; i++) {
            for (size_t k = 0; k < len[i]; k++) {
                if (blk[i][k] != (uint8_t)(i & 0xff)) {
                    fail_msg("block %zu (%zu bytes) overwritten at %zu", i, len[i], k);
                }
            }
        }
    }
    for (size_t i = 0; i < N; i++) {
        storage__slab_free(&s, blk[i], len[i]);
    }
    assert_int_equal(s.used, 0);
    storage__slab_fini(&s);
}

/* Whether the mapping holding p is advised for huge pages ("hg" among
 * its VmFlags in /proc/self/smaps). */
static bool advised_huge(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool inside = false, hg = false, found = false;
    uintptr_t a = (uintptr_t)p;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = a >= lo && a < hi;
        } else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            hg = strstr(line, " hg") != NULL;
            found = true;
        }
    }
    fclose(f);
    assert_true(found);
    return hg;
}

/* Whether this kernel takes the advice at all (no THP: it cannot). */
static bool thp_advice_works(void)
{
    uint8_t *c = storage__huge_chunk(true);
    assert_non_null(c);
    bool hg = advised_huge(c);
    munmap(c, STORAGE__HUGE_CHUNK);
    return hg;
}

/* The reserve's fallback: small pages while requests are served, huge
 * pages while a recovery rebuilds tables (no loop to stall) or without a
 * reserve. */
static void an_own_chunk_is_small_unless_rebuilding(void **state)
{
    (void)state;
    if (!thp_advice_works()) {
        skip();
    }
    storage__reserve_t *r = storage__reserve_new();
    bool small = false;
    uint8_t *c = storage__reserve_own(r, &small);
    assert_true(small);
    assert_false(advised_huge(c));
    munmap(c, STORAGE__HUGE_CHUNK);

    storage__reserve_depth(r, STORAGE__RESERVE_DEEP);
    c = storage__reserve_own(r, &small);
    assert_false(small);
    assert_true(advised_huge(c));
    munmap(c, STORAGE__HUGE_CHUNK);
    storage__reserve_free(r);

    c = storage__reserve_own(NULL, &small);
    assert_false(small);
    assert_true(advised_huge(c));
    munmap(c, STORAGE__HUGE_CHUNK);
}

/* A growing table whose reserve has nothing ready (its first take: the
 * thread only starts) fills a small-page chunk, faulted a page at a time
 * rather than 2 MB at once on the loop, and advises it for huge pages
 * when it moves on, so khugepaged can merge it. */
static void a_chunk_of_small_pages_is_advised_once_full(void **state)
{
    (void)state;
    if (!thp_advice_works()) {
        skip();
    }
    storage__reserve_t *r = storage__reserve_new();
    storage__slab_t s;
    storage__slab_init(&s, r);
    while (s.reserved < 64u * 1024 * 1024) { /* the size past which chunks come from r */
        assert_non_null(storage__slab_alloc(&s, STORAGE__SLAB_MAX));
    }
    void *first = s.chunks;
    uint8_t *p = storage__slab_alloc(&s, STORAGE__SLAB_MAX);
    while (s.chunks == first) {
        p = storage__slab_alloc(&s, STORAGE__SLAB_MAX);
    }
    void *own = s.chunks;
    assert_true(s.cur_small);
    assert_false(advised_huge(p));
    memset(p, 0xab, STORAGE__SLAB_MAX); /* writable, page by page */
    while (s.chunks == own) {
        assert_non_null(storage__slab_alloc(&s, STORAGE__SLAB_MAX));
    }
    assert_true(advised_huge(own));
    assert_int_equal(p[STORAGE__SLAB_MAX - 1], 0xab);
    storage__slab_fini(&s);
    storage__reserve_free(r);
}

/* AnonHugePages of the mapping holding p, in kB (smaps). */
static long anon_huge_kb(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool inside = false;
    long kb = -1;
    uintptr_t a = (uintptr_t)p;
    while (kb < 0 && fgets(line, sizeof(line), f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = a >= lo && a < hi;
        } else if (inside && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1) {
            break;
        }
    }
    fclose(f);
    return kb;
}

/* Fills the slab past the size from which its chunks come from r, then
 * until it maps a chunk of its own (r has none ready at its first take)
 * and fills that one too: returns a slot inside it, written with a pattern. */
static uint8_t *fill_an_own_chunk(storage__slab_t *s)
{
    while (s->reserved < 64u * 1024 * 1024) {
        assert_non_null(storage__slab_alloc(s, STORAGE__SLAB_MAX));
    }
    void *first = s->chunks;
    uint8_t *p = storage__slab_alloc(s, STORAGE__SLAB_MAX);
    while (s->chunks == first) {
        p = storage__slab_alloc(s, STORAGE__SLAB_MAX);
    }
    void *own = s->chunks;
    assert_true(s->cur_small);
    memset(p, 0xab, STORAGE__SLAB_MAX);
    while (s->chunks == own) {
        assert_non_null(storage__slab_alloc(s, STORAGE__SLAB_MAX));
    }
    assert_int_equal(s->n_small, 1);
    return p;
}

/* The full small-page chunk moves into a huge page the reserve's thread
 * touched, in place: the pointer into it still reads what was written,
 * the slab allocates and frees as before, and nothing waits any more. */
static void a_full_small_chunk_moves_into_a_huge_page_in_place(void **state)
{
    (void)state;
    if (!thp_advice_works()) {
        skip();
    }
    storage__reserve_t *r = storage__reserve_new();
    storage__slab_t s;
    storage__slab_init(&s, r);
    uint8_t *p = fill_an_own_chunk(&s);
    assert_int_equal(storage__reserve_small(r), 1);
    bool moved = false;
    for (int i = 0; i < 5000 && !moved; i++) { /* the thread touches a chunk in ms */
        moved = storage__slab_tidy(&s);
        if (!moved) {
            nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
    }
    assert_true(moved);
    assert_int_equal(s.n_small, 0);
    assert_int_equal(storage__reserve_small(r), 0);
    for (size_t i = 0; i < STORAGE__SLAB_MAX; i++) {
        assert_int_equal(p[i], 0xab);
    }
    assert_true(advised_huge(p));          /* the reserve's mapping, moved over it */
    uint8_t *c = storage__reserve_take(r); /* a touched chunk: huge here if anywhere */
    if (c != NULL && anon_huge_kb(c) >= 2048) {
        assert_true(anon_huge_kb(p) >= 2048);
    }
    if (c != NULL) {
        munmap(c, STORAGE__HUGE_CHUNK);
    }
    memset(p, 0xcd, STORAGE__SLAB_MAX); /* still the slab's, writable */
    storage__slab_free(&s, p, STORAGE__SLAB_MAX);
    assert_ptr_equal(storage__slab_alloc(&s, STORAGE__SLAB_MAX), p);
    assert_false(storage__slab_tidy(&s)); /* none left */
    storage__slab_fini(&s);
    storage__reserve_free(r);
}

/* A table that took a chunk since the last try may need the next soon:
 * the reserve keeps it for that table, and a slab freed with chunks still
 * waiting takes them off the database's count. */
static void a_move_waits_while_tables_take_chunks(void **state)
{
    (void)state;
    if (!thp_advice_works()) {
        skip();
    }
    storage__reserve_t *r = storage__reserve_new();
    storage__slab_t s;
    storage__slab_init(&s, r);
    (void)fill_an_own_chunk(&s);
    for (int i = 0; i < 5000 && storage__reserve_ready(r) < storage__reserve_depth_now(r); i++) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    bool quiet = storage__slab_tidy(&s); /* the first try only notes the takes */
    assert_false(quiet);
    storage__slab_fini(&s);
    assert_int_equal(storage__reserve_small(r), 0);
    storage__reserve_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_slot_holds_its_block_and_wastes_little),
        cmocka_unit_test(blocks_growing_a_little_reuse_their_slots),
        cmocka_unit_test(slots_never_overlap),
        cmocka_unit_test(an_own_chunk_is_small_unless_rebuilding),
        cmocka_unit_test(a_chunk_of_small_pages_is_advised_once_full),
        cmocka_unit_test(a_full_small_chunk_moves_into_a_huge_page_in_place),
        cmocka_unit_test(a_move_waits_while_tables_take_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
