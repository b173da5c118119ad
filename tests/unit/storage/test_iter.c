/*
 * test_iter.c - row cursors: clustering order both ways, prefix bounds,
 * TTL expiry as of the cursor's now, dead rows skipped and counted, and a
 * large partition written back to front.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage.h"
#include "storage_test.h"

static const char *scan(test_fixture_t *f, const char *start, bool start_incl, const char *end,
                        bool end_incl, bool reverse)
{
    storage_bound_t s = test_bound(start, start_incl);
    storage_bound_t e = test_bound(end, end_incl);
    return test_scan(f->t, 1, &s, &e, reverse, 0, f->buf, sizeof(f->buf));
}


static void fill(test_fixture_t *f)
{
    static const char *cks[] = {"b2", "a1", "c1", "b1", "a2", "b3"};
    for (size_t i = 0; i < 6; i++) {
        test_insert(f->t, 1, cks[i], 1, "x", 1);
    }
}


static void rows_come_in_clustering_order_both_ways(void **state)
{
    test_fixture_t *f = *state;
    fill(f);
    assert_string_equal(test_scan(f->t, 1, NULL, NULL, false, 0, f->buf, sizeof(f->buf)),
                        "a1,a2,b1,b2,b3,c1");
    assert_string_equal(test_scan(f->t, 1, NULL, NULL, true, 0, f->buf, sizeof(f->buf)),
                        "c1,b3,b2,b1,a2,a1");
}


static void full_key_bounds_honour_inclusivity(void **state)
{
    test_fixture_t *f = *state;
    fill(f);
    assert_string_equal(scan(f, "a2", true, "b2", true, false), "a2,b1,b2");
    assert_string_equal(scan(f, "a2", false, "b2", false, false), "b1");
    assert_string_equal(scan(f, "a2", true, "b2", true, true), "b2,b1,a2");
    assert_string_equal(scan(f, "a2", false, "b2", false, true), "b1");
    assert_string_equal(scan(f, "b1", true, "b1", true, false), "b1");
    assert_string_equal(scan(f, "b1", false, "b1", true, false), "");
    /* Bounds between keys. */
    assert_string_equal(scan(f, "a10", true, "b15", true, false), "a2,b1");
    assert_string_equal(scan(f, "a10", true, "b15", true, true), "b1,a2");
}


static void prefix_bounds_take_or_leave_whole_groups(void **state)
{
    test_fixture_t *f = *state;
    fill(f);
    assert_string_equal(scan(f, "b", true, "b", true, false), "b1,b2,b3");
    assert_string_equal(scan(f, "b", true, "b", true, true), "b3,b2,b1");
    assert_string_equal(scan(f, "a", false, "c", false, false), "b1,b2,b3");
    assert_string_equal(scan(f, "a", false, "c", false, true), "b3,b2,b1");
    assert_string_equal(scan(f, "a", true, "b", false, false), "a1,a2");
    assert_string_equal(scan(f, "b", false, NULL, false, false), "c1");
    assert_string_equal(scan(f, NULL, false, "a", true, true), "a2,a1");
    assert_string_equal(scan(f, "b", true, NULL, false, true), "c1,b3,b2,b1");
    /* A shorter key than the bound sorts before it. */
    test_insert(f->t, 1, "b", 1, "x", 1);
    assert_string_equal(scan(f, "b1", true, NULL, false, false), "b1,b2,b3,c1");
    assert_string_equal(scan(f, NULL, false, "b1", false, false), "a1,a2,b");
    assert_string_equal(scan(f, "b", true, "b", true, false), "b,b1,b2,b3");
}


static void empty_ranges_yield_nothing(void **state)
{
    test_fixture_t *f = *state;
    fill(f);
    assert_string_equal(scan(f, "c", true, "a", true, false), "");
    assert_string_equal(scan(f, "c", true, "a", true, true), "");
    assert_string_equal(scan(f, "d", true, NULL, false, false), "");
    assert_string_equal(scan(f, NULL, false, "a", false, true), "");
}


static void expired_cells_disappear_at_their_expiry(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, "a");
    storage_cell_t c[2] = {test_cell(1, "ttl", 10), test_cell(2, "forever", 10)};
    c[0].expires_us = 5000000;
    c[0].ttl = 5;
    m.cells = c;
    m.n_cells = 2;
    storage_apply(f->t, &m, 0, NULL);

    /* UPDATE ... USING TTL: no marker, so the row dies with its cells. */
    storage_mutation_t u = test_mut(&key, "b");
    u.cells = c;
    u.n_cells = 1;
    storage_apply(f->t, &u, 0, NULL);

    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "a", 4999999, &v));
    assert_int_equal(v.n_cells, 2);
    assert_int_equal(v.cells[0].ttl, 5);
    assert_true(test_row(f->t, 1, "a", 5000000, &v));
    assert_int_equal(v.n_cells, 1);
    assert_int_equal(v.cells[0].col, 2);

    assert_true(test_row(f->t, 1, "b", 4999999, &v));
    assert_false(test_row(f->t, 1, "b", 5000000, &v));
}


static void expired_marker_leaves_only_live_cells(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, "a");
    storage_cell_t c = test_cell(1, "v", 10);
    c.expires_us = 1000;
    m.row_marker = true;
    m.marker_ts = 10;
    m.marker_expires_us = 1000;
    m.marker_ttl = 1;
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    test_put(f->t, 1, "a", 2, "kept", 11);

    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "a", 999, &v));
    assert_true(v.has_marker);
    assert_true(test_row(f->t, 1, "a", 1000, &v));
    assert_false(v.has_marker);
    assert_int_equal(v.n_cells, 1);
    test_put(f->t, 1, "a", 2, NULL, 12);
    assert_false(test_row(f->t, 1, "a", 1000, &v));
}


static void dead_rows_are_skipped_and_tombstones_counted(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "a", 1, "x", 10);
    test_put(f->t, 1, "b", 1, NULL, 10); /* dead row: one tombstone cell */
    test_insert(f->t, 1, "c", 1, "x", 10);
    test_put(f->t, 1, "c", 2, NULL, 10); /* live row with a dead cell */
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, "d");
    m.delete_row = true;
    m.delete_ts = 10; /* dead row, no cells */
    storage_apply(f->t, &m, 0, NULL);
    test_insert(f->t, 1, "e", 1, "x", 10);

    storage_partition_t *p = test_part(f->t, 1);
    storage_row_iter_t *it = storage_row_iter_new(p, NULL, NULL, false, 0);
    storage_row_view_t v;
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "a", 1);
    assert_int_equal(storage_row_iter_tombstones(it), 0);
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "c", 1);
    assert_int_equal(storage_row_iter_tombstones(it), 2 + 1); /* row b + cell, c's cell */
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "e", 1);
    assert_int_equal(storage_row_iter_tombstones(it), 4); /* row d */
    assert_false(storage_row_iter_next(it, &v));
    assert_false(storage_row_iter_next(it, &v));
    storage_row_iter_free(it);

    /* A row that expired counts as dead too. */
    storage_mutation_t e = test_mut(&key, "f");
    storage_cell_t c = test_cell(1, "x", 10);
    c.expires_us = 100;
    e.cells = &c;
    e.n_cells = 1;
    storage_apply(f->t, &e, 0, NULL);
    storage_bound_t start = test_bound("f", true);
    it = storage_row_iter_new(p, &start, NULL, false, 100);
    assert_false(storage_row_iter_next(it, &v));
    assert_int_equal(storage_row_iter_tombstones(it), 2);
    storage_row_iter_free(it);
}


static void cursor_survives_writes_that_only_add(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "b", 1, "x", 1);
    test_insert(f->t, 1, "d", 1, "x", 1);
    storage_partition_t *p = test_part(f->t, 1);
    storage_row_iter_t *it = storage_row_iter_new(p, NULL, NULL, false, 0);
    storage_row_view_t v;
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "b", 1);
    test_insert(f->t, 1, "a", 1, "x", 1);
    test_insert(f->t, 1, "c", 1, "x", 1);
    test_insert(f->t, 1, "d", 1, "y", 2);
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "c", 1);
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "d", 1);
    assert_memory_equal(v.cells[0].value, "y", 1);
    assert_false(storage_row_iter_next(it, &v));
    storage_row_iter_free(it);
}


static void views_stay_valid_across_reads(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, "a");
    storage_cell_t c[3] = {test_cell(1, "one", 1), test_cell(2, "two", 1), test_cell(3, NULL, 1)};
    c[0].expires_us = 100;
    m.row_marker = true;
    m.marker_ts = 1;
    m.cells = c;
    m.n_cells = 3;
    storage_apply(f->t, &m, 0, NULL);

    storage_row_view_t early, late, again;
    assert_true(test_row(f->t, 1, "a", 50, &early));
    assert_true(test_row(f->t, 1, "a", 150, &late));
    assert_true(test_row(f->t, 1, "a", 50, &again));
    assert_int_equal(early.n_cells, 2);
    assert_int_equal(late.n_cells, 1);
    assert_int_equal(again.n_cells, 2);
    /* The first view is still intact after the cache was rebuilt twice. */
    assert_memory_equal(early.cells[0].value, "one", 3);
    assert_memory_equal(early.cells[1].value, "two", 3);
    assert_memory_equal(late.cells[0].value, "two", 3);
}


static void large_partition_written_back_to_front_iterates_in_order(void **state)
{
    test_fixture_t *f = *state;
    enum { N = 100000 };
    test_key_t key = test_key(1);
    uint8_t ck[4];
    storage_cell_t c = test_cell(1, "v", 1);
    for (int i = N - 1; i >= 0; i--) {
        ck[0] = (uint8_t)(i >> 24);
        ck[1] = (uint8_t)(i >> 16);
        ck[2] = (uint8_t)(i >> 8);
        ck[3] = (uint8_t)i;
        storage_mutation_t m = test_mut(&key, NULL);
        m.ck = ck;
        m.ck_len = 4;
        m.row_marker = true;
        m.marker_ts = 1;
        m.cells = &c;
        m.n_cells = 1;
        storage_apply(f->t, &m, 0, NULL);
    }

    storage_partition_t *p = test_part(f->t, 1);
    storage_row_iter_t *it = storage_row_iter_new(p, NULL, NULL, false, 0);
    storage_row_view_t v;
    uint32_t n = 0;
    while (storage_row_iter_next(it, &v)) {
        assert_int_equal(base_load_u32(v.ck), n);
        n++;
    }
    storage_row_iter_free(it);
    assert_int_equal(n, N);

    it = storage_row_iter_new(p, NULL, NULL, true, 0);
    while (storage_row_iter_next(it, &v)) {
        n--;
        assert_int_equal(base_load_u32(v.ck), n);
    }
    storage_row_iter_free(it);
    assert_int_equal(n, 0);
    assert_int_equal(storage_partition_bytes(p), 4 + (size_t)N * (4 + 1));
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)
    const struct CMUnitTest tests[] = {
        T(rows_come_in_clustering_order_both_ways),
        T(full_key_bounds_honour_inclusivity),
        T(prefix_bounds_take_or_leave_whole_groups),
        T(empty_ranges_yield_nothing),
        T(expired_cells_disappear_at_their_expiry),
        T(expired_marker_leaves_only_live_cells),
        T(dead_rows_are_skipped_and_tombstones_counted),
        T(cursor_survives_writes_that_only_add),
        T(views_stay_valid_across_reads),
        T(large_partition_written_back_to_front_iterates_in_order),
    };
#undef T
    return cmocka_run_group_tests_name("storage/iter", tests, NULL, NULL);
}
