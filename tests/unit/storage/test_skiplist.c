/*
 * test_skiplist.c - the ordered index under tables and partitions: order,
 * both directions, removal, and monotone-predicate seeks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage_int.h"

#define N 2000


static int int_cmp(const void *item, const void *key)
{
    int a = *(const int *)item;
    int b = *(const int *)key;
    return a < b ? -1 : a > b;
}


/* A coarse hint, so both hint-decided and tied comparisons happen. */
static uint64_t hint(const int *v)
{
    return (uint64_t)*v / 16;
}


static bool less_than(const void *item, const void *ctx)
{
    return *(const int *)item < *(const int *)ctx;
}


static void check_links(const storage__sl_t *sl, const int *expect, size_t n)
{
    assert_int_equal(sl->count, n);
    size_t i = 0;
    const storage__sl_node_t *prev = NULL;
    for (const storage__sl_node_t *x = storage__sl_first(sl); x != NULL; x = x->next[0]) {
        assert_true(i < n);
        assert_int_equal(*(const int *)x->item, expect[i]);
        assert_ptr_equal(x->prev, prev);
        prev = x;
        i++;
    }
    assert_int_equal(i, n);
    assert_ptr_equal(sl->tail, prev);
}


static void items_iterate_in_order_both_ways_whatever_the_insert_order(void **state)
{
    (void)state;
    static int items[N];
    static int sorted[N];
    storage__sl_t sl;
    storage__sl_init(&sl, int_cmp, 42);
    /* A permutation of the even numbers 0..2N-2. */
    for (int i = 0; i < N; i++) {
        items[i] = (int)(((unsigned)i * 7919u) % N) * 2;
        sorted[i] = i * 2;
        storage__sl_insert(&sl, &items[i], hint(&items[i]), &items[i]);
    }
    check_links(&sl, sorted, N);

    int k = 0;
    for (const storage__sl_node_t *x = sl.tail; x != NULL; x = x->prev) {
        assert_int_equal(*(const int *)x->item, (N - 1 - k) * 2);
        k++;
    }
    assert_int_equal(k, N);

    int key = 500;
    assert_non_null(storage__sl_find(&sl, hint(&key), &key));
    key = 501;
    assert_null(storage__sl_find(&sl, hint(&key), &key));
    storage__sl_fini(&sl, NULL);
}


static void remove_keeps_links_consistent(void **state)
{
    (void)state;
    static int items[N];
    static int rest[N];
    storage__sl_t sl;
    storage__sl_init(&sl, int_cmp, 7);
    for (int i = 0; i < N; i++) {
        items[i] = i;
        storage__sl_insert(&sl, &items[i], hint(&items[i]), &items[i]);
    }
    size_t n = 0;
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0 || i == N - 1) {
            assert_ptr_equal(storage__sl_remove(&sl, hint(&items[i]), &items[i]), &items[i]);
        } else {
            rest[n++] = i;
        }
    }
    check_links(&sl, rest, n);
    for (size_t i = 0; i < n; i++) {
        storage__sl_remove(&sl, hint(&rest[i]), &rest[i]);
    }
    check_links(&sl, NULL, 0);
    assert_null(storage__sl_first(&sl));
    assert_int_equal(sl.level, 1);
    storage__sl_fini(&sl, NULL);
}


static void last_where_finds_the_end_of_a_monotone_prefix(void **state)
{
    (void)state;
    static int items[100];
    storage__sl_t sl;
    storage__sl_init(&sl, int_cmp, 3);
    for (int i = 0; i < 100; i++) {
        items[i] = i * 10;
        storage__sl_insert(&sl, &items[i], hint(&items[i]), &items[i]);
    }
    int bound = 0;
    assert_null(storage__sl_last_where(&sl, less_than, &bound));
    bound = 55;
    assert_int_equal(*(int *)storage__sl_last_where(&sl, less_than, &bound)->item, 50);
    bound = 60;
    assert_int_equal(*(int *)storage__sl_last_where(&sl, less_than, &bound)->item, 50);
    bound = 100000;
    assert_int_equal(*(int *)storage__sl_last_where(&sl, less_than, &bound)->item, 990);
    storage__sl_fini(&sl, NULL);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(items_iterate_in_order_both_ways_whatever_the_insert_order),
        cmocka_unit_test(remove_keeps_links_consistent),
        cmocka_unit_test(last_where_finds_the_end_of_a_monotone_prefix),
    };
    return cmocka_run_group_tests_name("storage/skiplist", tests, NULL, NULL);
}
