/*
 * test_slab.c - a table's allocator (slab.c): a slot holds what was asked
 * and wastes at most 7 bytes to 256 bytes and a sixteenth above; blocks
 * that grow a few bytes at a time, as rows whose cells gain timestamps of
 * their own, reuse the slots they left; slots (a chunk's tail among them)
 * never overlap; the accounting comes back to zero.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_slot_holds_its_block_and_wastes_little),
        cmocka_unit_test(blocks_growing_a_little_reuse_their_slots),
        cmocka_unit_test(slots_never_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
