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
#include <stdlib.h>
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

/* The line of /proc/self/smaps starting with key for the mapping holding
 * p, into line (cap bytes); false when there is none. */
static bool smaps_line(const void *p, const char *key, char *line, int cap)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    bool inside = false, found = false;
    uintptr_t a = (uintptr_t)p;
    while (!found && fgets(line, cap, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = a >= lo && a < hi;
        } else {
            found = inside && strncmp(line, key, strlen(key)) == 0;
        }
    }
    fclose(f);
    return found;
}

/* Whether the mapping holding p is advised for huge pages ("hg" among
 * its VmFlags). */
static bool advised_huge(const void *p)
{
    char line[512];
    assert_true(smaps_line(p, "VmFlags:", line, sizeof(line)));
    return strstr(line, " hg") != NULL;
}

/* AnonHugePages of the mapping holding p, in kB. */
static long anon_huge_kb(const void *p)
{
    char line[512];
    long kb = -1;
    assert_true(smaps_line(p, "AnonHugePages:", line, sizeof(line)));
    assert_int_equal(sscanf(line, "AnonHugePages: %ld kB", &kb), 1);
    return kb;
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

/* Fills the slab until it maps its first 2 MB chunk (past 4 MB), one of
 * its own in small pages (r has none ready: its thread starts only at the
 * first take, past 64 MB): returns a slot in it, written with a pattern
 * page by page. */
static uint8_t *start_a_small_chunk(storage__slab_t *s)
{
    uint8_t *p = NULL;
    while (!s->cur_small) {
        p = storage__slab_alloc(s, STORAGE__SLAB_MAX);
        assert_non_null(p);
    }
    memset(p, 0xab, STORAGE__SLAB_MAX);
    return p;
}

/* Grows the slab past 64 MB, where chunks come from r (its thread starts). */
static void grow_past_64_mb(storage__slab_t *s)
{
    while (s->reserved < 66u * 1024 * 1024) {
        assert_non_null(storage__slab_alloc(s, STORAGE__SLAB_MAX));
    }
}

/* Allocates until the slab moves on from its newest chunk. */
static void fill_the_chunk(storage__slab_t *s)
{
    void *c = s->chunks;
    while (s->chunks == c) {
        assert_non_null(storage__slab_alloc(s, STORAGE__SLAB_MAX));
    }
}

/* A slab whose huge chunks come from a reserve of its own. */
typedef struct {
    storage__reserve_t *r;
    storage__slab_t s;
} fixture_t;

static int slab_with_reserve(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    f->r = storage__reserve_new();
    storage__slab_init(&f->s, f->r);
    *state = f;
    return 0;
}

static int slab_freed(void **state)
{
    fixture_t *f = *state;
    storage__slab_fini(&f->s);
    storage__reserve_free(f->r);
    free(f);
    return 0;
}

/* A growing table past 4 MB whose reserve has nothing ready fills a
 * small-page chunk, faulted a page at a time rather than 2 MB at once on
 * the loop, and advises it for huge pages
 * when it moves on, so khugepaged can merge it. */
static void a_chunk_of_small_pages_is_advised_once_full(void **state)
{
    fixture_t *f = *state;
    if (!thp_advice_works()) {
        skip();
    }
    uint8_t *p = start_a_small_chunk(&f->s);
    assert_false(advised_huge(p));
    void *own = f->s.chunks;
    fill_the_chunk(&f->s);
    assert_true(advised_huge(own));
    assert_int_equal(p[STORAGE__SLAB_MAX - 1], 0xab);
}

/* The full small-page chunk moves into a huge page the reserve's thread
 * touched, in place: the pointer into it still reads what was written,
 * the slab allocates and frees as before, and nothing waits any more. */
static void a_full_small_chunk_moves_into_a_huge_page_in_place(void **state)
{
    fixture_t *f = *state;
    if (!thp_advice_works()) {
        skip();
    }
    storage__slab_t *s = &f->s;
    uint8_t *p = start_a_small_chunk(s);
    fill_the_chunk(s);
    assert_int_equal(s->n_small, 1);
    assert_int_equal(storage__reserve_small(f->r), 0); /* no thread yet to move it */
    assert_false(storage__slab_tidy(s));
    grow_past_64_mb(s);
    size_t waiting = s->n_small; /* the chunks between 4 and 64 MB, and r's first taker's */
    assert_true(waiting > 1);
    assert_int_equal(storage__reserve_small(f->r), waiting);
    for (int i = 0; i < 20000 && s->n_small > 0; i++) { /* the thread touches one in ms */
        if (!storage__slab_tidy(s)) {
            nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
    }
    assert_int_equal(s->n_small, 0);
    assert_int_equal(storage__reserve_small(f->r), 0);
    for (size_t i = 0; i < STORAGE__SLAB_MAX; i++) {
        assert_int_equal(p[i], 0xab);
    }
    assert_true(advised_huge(p));             /* the reserve's mapping, moved over it */
    uint8_t *c = storage__reserve_take(f->r); /* a touched chunk: huge here if anywhere */
    if (c != NULL && anon_huge_kb(c) >= 2048) {
        assert_true(anon_huge_kb(p) >= 2048);
    }
    if (c != NULL) {
        munmap(c, STORAGE__HUGE_CHUNK);
    }
    memset(p, 0xcd, STORAGE__SLAB_MAX); /* still the slab's, writable */
    storage__slab_free(s, p, STORAGE__SLAB_MAX);
    assert_ptr_equal(storage__slab_alloc(s, STORAGE__SLAB_MAX), p);
    assert_false(storage__slab_tidy(s)); /* none left */
    assert_int_equal(storage__reserve_small(f->r), 0);
}

/* A table that took a chunk since the last try may need the next soon:
 * the reserve keeps it for that table, and a slab freed with chunks still
 * waiting takes them off the database's count. */
static void a_move_waits_while_tables_take_chunks(void **state)
{
    fixture_t *f = *state;
    if (!thp_advice_works()) {
        skip();
    }
    (void)start_a_small_chunk(&f->s);
    grow_past_64_mb(&f->s);
    for (int i = 0; i < 5000 && storage__reserve_ready(f->r) < storage__reserve_depth_now(f->r);
         i++) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    assert_false(storage__slab_tidy(&f->s)); /* the first try only notes the takes */
    storage__slab_fini(&f->s);
    assert_int_equal(storage__reserve_small(f->r), 0);
    storage__slab_init(&f->s, f->r); /* for the teardown */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_slot_holds_its_block_and_wastes_little),
        cmocka_unit_test(blocks_growing_a_little_reuse_their_slots),
        cmocka_unit_test(slots_never_overlap),
        cmocka_unit_test(an_own_chunk_is_small_unless_rebuilding),
        cmocka_unit_test_setup_teardown(a_chunk_of_small_pages_is_advised_once_full,
                                        slab_with_reserve, slab_freed),
        cmocka_unit_test_setup_teardown(a_full_small_chunk_moves_into_a_huge_page_in_place,
                                        slab_with_reserve, slab_freed),
        cmocka_unit_test_setup_teardown(a_move_waits_while_tables_take_chunks, slab_with_reserve,
                                        slab_freed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
