/*
 * test_reserve.c - the database's reserve of huge chunks (reserve.c): the
 * first take starts its thread and gets nothing, later takes get whole,
 * aligned, touched chunks; a take that finds none ready deepens the
 * reserve, up to a bound; a deeper reserve (recovery's) keeps several and
 * unmaps the extra ones once made shallow again; a growing table's slab
 * takes them; freeing a reserve whose thread is at work neither hangs nor
 * leaks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "storage/storage_int.h"
#include "storage_test.h"


/* Polls of 0.5 ms, a minute in all: the thread is a batch thread, and on a
 * machine kept busy by other tests it may wait for a CPU. */
#define WAIT_TRIES 120000

/* Takes until a chunk comes. */
static uint8_t *take_ready(storage__reserve_t *r)
{
    for (int i = 0; i < WAIT_TRIES; i++) {
        uint8_t *c = storage__reserve_take(r);
        if (c != NULL) {
            return c;
        }
        usleep(500);
    }
    fail_msg("the reserve never had a chunk ready");
    return NULL;
}


static void the_first_take_starts_the_thread_and_later_ones_get_chunks(void **state)
{
    (void)state;
    storage__reserve_t *r = storage__reserve_new();
    assert_null(storage__reserve_take(r)); /* nothing is mapped before anyone asks */
    for (int k = 0; k < 3; k++) {
        uint8_t *c = take_ready(r);
        assert_int_equal((uintptr_t)c % STORAGE__HUGE_CHUNK, 0);
        assert_int_equal(c[0], 0);
        assert_int_equal(c[STORAGE__HUGE_CHUNK - 1], 0);
        c[STORAGE__HUGE_CHUNK - 1] = 1; /* the caller's to write and unmap */
        assert_int_equal(munmap(c, STORAGE__HUGE_CHUNK), 0);
    }
    storage__reserve_free(r); /* with a chunk ready or being made: unmapped, joined */
}


/* Waits until n chunks are ready. */
static void wait_ready(storage__reserve_t *r, int n)
{
    for (int i = 0; i < WAIT_TRIES && storage__reserve_ready(r) < n; i++) {
        usleep(500);
    }
    assert_int_equal(storage__reserve_ready(r), n);
}


/* Takes faster than the thread touches chunks (it needs hundreds of
 * microseconds a chunk at best) find none ready: each such miss keeps one
 * more ready, up to STORAGE__RESERVE_GROWN, and the thread fills that
 * depth. An explicit depth starts over from there. */
static void a_take_that_finds_none_ready_deepens_the_reserve(void **state)
{
    (void)state;
    storage__reserve_t *r = storage__reserve_new();
    assert_null(storage__reserve_take(r)); /* starts the thread: not a miss */
    assert_int_equal(storage__reserve_depth_now(r), 1);
    for (int i = 0; i < 100000 && storage__reserve_depth_now(r) < STORAGE__RESERVE_GROWN; i++) {
        uint8_t *c = storage__reserve_take(r);
        if (c != NULL) {
            munmap(c, STORAGE__HUGE_CHUNK);
        }
    }
    assert_int_equal(storage__reserve_depth_now(r), STORAGE__RESERVE_GROWN);
    uint8_t *c = storage__reserve_take(r); /* a miss past the bound is not counted */
    if (c != NULL) {
        munmap(c, STORAGE__HUGE_CHUNK);
    }
    assert_int_equal(storage__reserve_depth_now(r), STORAGE__RESERVE_GROWN);
    wait_ready(r, STORAGE__RESERVE_GROWN);
    storage__reserve_depth(r, 2);
    assert_int_equal(storage__reserve_depth_now(r), 2);
    assert_int_equal(storage__reserve_ready(r), 2);
    storage__reserve_free(r);
}


/* Recovery's depth: several chunks wait and are taken; back at one, the
 * rest are unmapped at once. */
static void a_deeper_reserve_keeps_several_chunks_and_gives_back_the_rest(void **state)
{
    (void)state;
    storage__reserve_t *r = storage__reserve_new();
    storage__reserve_depth(r, 4);
    assert_null(storage__reserve_take(r)); /* starts the thread */
    wait_ready(r, 4);
    for (int k = 0; k < 4; k++) {
        /* take_ready: a take right after the last one can find the thread
         * holding the lock, woken to make the next, and get nothing */
        uint8_t *c = take_ready(r);
        assert_int_equal(munmap(c, STORAGE__HUGE_CHUNK), 0);
    }
    wait_ready(r, 4);
    storage__reserve_depth(r, 1);
    assert_int_equal(storage__reserve_ready(r), 1);
    storage__reserve_depth(r, 1000); /* clamped */
    wait_ready(r, STORAGE__RESERVE_DEEP);
    storage__reserve_free(r);
}


static void a_reserve_never_used_has_no_thread_to_stop(void **state)
{
    (void)state;
    storage__reserve_free(storage__reserve_new());
    storage__reserve_free(NULL);
}


static void a_growing_table_takes_touched_chunks(void **state)
{
    (void)state;
    storage_db_t *db = storage_db_new();
    storage_table_t *t = storage_table_create(db, 1);
    static char value[1000];
    memset(value, 'v', sizeof(value) - 1);
    /* Past the slab's threshold for taking (64 MB, some 63k of these rows),
     * then on, waiting now and then until the thread has a chunk ready: a
     * fixed pause was not always enough on a machine kept busy by other
     * tests. */
    for (int k = 0; k < 200000 && storage__reserve_handed(db->reserve) == 0; k++) {
        test_insert(t, k, NULL, 1, value, 10);
        for (int w = 0; k > 70000 && k % 1000 == 999 && w < WAIT_TRIES; w++) {
            if (storage__reserve_ready(db->reserve) > 0) {
                break;
            }
            usleep(500);
        }
    }
    assert_true(storage__reserve_handed(db->reserve) >= 1);
    assert_non_null(test_part(t, 7)); /* rows in reserve chunks read back */
    storage_db_free(db);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_first_take_starts_the_thread_and_later_ones_get_chunks),
        cmocka_unit_test(a_take_that_finds_none_ready_deepens_the_reserve),
        cmocka_unit_test(a_deeper_reserve_keeps_several_chunks_and_gives_back_the_rest),
        cmocka_unit_test(a_reserve_never_used_has_no_thread_to_stop),
        cmocka_unit_test(a_growing_table_takes_touched_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
