/* Unit tests for base/arena.c: alignment, growth, reuse across resets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/base.h"


static void allocations_are_aligned_and_distinct(void **state)
{
    (void)state;
    base_arena_t a;
    base_arena_init(&a, 128);
    char *p = base_arena_alloc(&a, 3);
    char *q = base_arena_alloc(&a, 5);
    assert_true(((uintptr_t)p & 15) == 0);
    assert_true(((uintptr_t)q & 15) == 0);
    assert_ptr_not_equal(p, q);
    char *big = base_arena_alloc(&a, 1000); /* larger than a block */
    memset(big, 1, 1000);
    base_arena_fini(&a);
}


static void reset_reuses_blocks(void **state)
{
    (void)state;
    base_arena_t a;
    base_arena_init(&a, 256);
    void *first = base_arena_alloc(&a, 64);
    base_arena_reset(&a);
    void *again = base_arena_alloc(&a, 64);
    assert_ptr_equal(first, again);
    base_arena_fini(&a);
}


static void sprintf_and_strndup_terminate(void **state)
{
    (void)state;
    base_arena_t a;
    base_arena_init(&a, 0);
    assert_string_equal(base_arena_sprintf(&a, "%s-%d", "x", 42), "x-42");
    assert_string_equal(base_arena_strndup(&a, "hello", 3), "hel");
    base_arena_fini(&a);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(allocations_are_aligned_and_distinct),
        cmocka_unit_test(reset_reuses_blocks),
        cmocka_unit_test(sprintf_and_strndup_terminate),
    };
    return cmocka_run_group_tests_name("base/arena", tests, NULL, NULL);
}
