/*
 * test_bound.c - prefix-compared clustering bounds: a key that begins with
 * the bound compares equal, a shorter key that matches compares less.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage_int.h"

#define K(s) (const uint8_t *)(s), strlen(s)


static void bound_compares_on_the_bound_length_only(void **state)
{
    (void)state;
    storage_bound_t b = {(const uint8_t *)"ab", 2, true};
    assert_int_equal(storage__bound_cmp(K("ab"), &b), 0);
    assert_int_equal(storage__bound_cmp(K("abz"), &b), 0);
    assert_true(storage__bound_cmp(K("aa"), &b) < 0);
    assert_true(storage__bound_cmp(K("ac"), &b) > 0);
    assert_true(storage__bound_cmp(K("b"), &b) > 0);
    /* Shorter and equal on its length: less. */
    assert_true(storage__bound_cmp(K("a"), &b) < 0);
    assert_true(storage__bound_cmp(NULL, 0, &b) < 0);
}


static void start_and_end_bounds_honour_inclusivity(void **state)
{
    (void)state;
    storage_bound_t incl = {(const uint8_t *)"b", 1, true};
    storage_bound_t excl = {(const uint8_t *)"b", 1, false};

    assert_true(storage__bound_after_start(K("b"), &incl));
    assert_true(storage__bound_after_start(K("bz"), &incl));
    assert_false(storage__bound_after_start(K("az"), &incl));
    assert_false(storage__bound_after_start(K("b"), &excl));
    assert_false(storage__bound_after_start(K("bz"), &excl));
    assert_true(storage__bound_after_start(K("c"), &excl));

    assert_true(storage__bound_before_end(K("bz"), &incl));
    assert_false(storage__bound_before_end(K("c"), &incl));
    assert_false(storage__bound_before_end(K("bz"), &excl));
    assert_true(storage__bound_before_end(K("az"), &excl));
}


static void empty_or_null_bounds_are_unbounded(void **state)
{
    (void)state;
    storage_bound_t empty_excl = {NULL, 0, false};
    assert_true(storage__bound_after_start(K("x"), NULL));
    assert_true(storage__bound_before_end(K("x"), NULL));
    assert_true(storage__bound_after_start(K("x"), &empty_excl));
    assert_true(storage__bound_before_end(K("x"), &empty_excl));
}


static void key_order_is_memcmp_with_shorter_first(void **state)
{
    (void)state;
    assert_true(storage__key_cmp(K("a"), K("ab")) < 0);
    assert_true(storage__key_cmp(K("ab"), K("a")) > 0);
    assert_true(storage__key_cmp(K("ab"), K("b")) < 0);
    assert_int_equal(storage__key_cmp(K("ab"), K("ab")), 0);
    assert_int_equal(storage__key_cmp(NULL, 0, NULL, 0), 0);
    assert_true(storage__key_cmp((const uint8_t *)"\x80", 1, (const uint8_t *)"\x7f", 1) > 0);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bound_compares_on_the_bound_length_only),
        cmocka_unit_test(start_and_end_bounds_honour_inclusivity),
        cmocka_unit_test(empty_or_null_bounds_are_unbounded),
        cmocka_unit_test(key_order_is_memcmp_with_shorter_first),
    };
    return cmocka_run_group_tests_name("storage/bound", tests, NULL, NULL);
}
