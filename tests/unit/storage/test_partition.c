/*
 * test_partition.c - deletions at every level (partition, range, row,
 * collection) shadow older writes, before and after they arrive, but never
 * newer ones; static rows; partitions that only hold tombstones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage.h"
#include "storage_test.h"

static const char *scan(test_fixture_t *f, int32_t k)
{
    return test_scan(f->t, k, NULL, NULL, false, 0, f->buf, sizeof(f->buf));
}


static void delete_partition(storage_table_t *t, int32_t k, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_partition = true;
    m.delete_ts = ts;
    storage_apply(t, &m, 0, NULL);
}


static void delete_row(storage_table_t *t, int32_t k, const char *ck, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    m.delete_row = true;
    m.delete_ts = ts;
    storage_apply(t, &m, 0, NULL);
}


static void delete_range(storage_table_t *t, int32_t k, storage_bound_t start, storage_bound_t end,
                         int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_range = true;
    m.range_start = start;
    m.range_end = end;
    m.delete_ts = ts;
    storage_apply(t, &m, 0, NULL);
}


static void put_static(storage_table_t *t, int32_t k, uint32_t col, const char *value, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_cell_t c = test_cell(col, value, ts);
    m.static_row = true;
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(t, &m, 0, NULL);
}


static void partition_deletion_shadows_older_writes_only(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "a", 1, "x", 10);
    test_insert(f->t, 1, "b", 1, "x", 30);
    put_static(f->t, 1, 9, "s", 10);
    test_insert(f->t, 2, "a", 1, "other", 10);

    delete_partition(f->t, 1, 20);
    assert_string_equal(scan(f, 1), "b");
    storage_row_view_t v;
    assert_false(storage_partition_static(test_part(f->t, 1), 0, &v));
    assert_string_equal(scan(f, 2), "a");

    /* Older writes arriving later stay shadowed; a tie too. */
    test_insert(f->t, 1, "c", 1, "x", 15);
    test_insert(f->t, 1, "d", 1, "x", 20);
    put_static(f->t, 1, 9, "s", 19);
    assert_string_equal(scan(f, 1), "b");
    assert_false(storage_partition_static(test_part(f->t, 1), 0, &v));

    test_insert(f->t, 1, "e", 1, "x", 21);
    put_static(f->t, 1, 9, "s2", 21);
    assert_string_equal(scan(f, 1), "b,e");
    assert_true(storage_partition_static(test_part(f->t, 1), 0, &v));
}


static void fully_deleted_partition_is_invisible_but_remembered(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "a", 1, "x", 10);
    test_insert(f->t, 2, "a", 1, "x", 10);
    assert_int_equal(storage_table_partition_count(f->t), 2);
    delete_partition(f->t, 1, 20);
    assert_null(test_part(f->t, 1));
    assert_int_equal(storage_table_partition_count(f->t), 1);
    assert_int_equal(storage_table_bytes(f->t), 4 + 1 + 1);

    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    storage_partition_t *p = storage_part_iter_next(it);
    assert_non_null(p);
    assert_null(storage_part_iter_next(it));
    storage_part_iter_free(it);

    test_insert(f->t, 1, "a", 1, "x", 19);
    assert_null(test_part(f->t, 1));
    /* Deleting a partition that never existed also blocks older writes. */
    delete_partition(f->t, 3, 50);
    test_insert(f->t, 3, "a", 1, "x", 49);
    assert_null(test_part(f->t, 3));
    assert_int_equal(storage_table_partition_count(f->t), 1);
}


static void row_deletion_shadows_older_writes_only(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "a", 1, "x", 10);
    test_insert(f->t, 1, "b", 1, "x", 10);
    delete_row(f->t, 1, "a", 20);
    assert_string_equal(scan(f, 1), "b");

    test_insert(f->t, 1, "a", 1, "x", 20);
    assert_string_equal(scan(f, 1), "b");
    test_put(f->t, 1, "a", 2, "y", 21);
    assert_string_equal(scan(f, 1), "a,b");

    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "a", 0, &v));
    assert_false(v.has_marker);
    assert_int_equal(v.n_cells, 1);
    assert_int_equal(v.cells[0].col, 2);

    /* A row deleted before it was ever written. */
    delete_row(f->t, 1, "z", 100);
    test_insert(f->t, 1, "z", 1, "x", 99);
    assert_string_equal(scan(f, 1), "a,b");
}


static void range_deletion_follows_prefix_bounds(void **state)
{
    test_fixture_t *f = *state;
    static const char *cks[] = {"a1", "a2", "b1", "b2", "b3", "c1", "c2"};
    for (size_t i = 0; i < 7; i++) {
        test_insert(f->t, 1, cks[i], 1, "x", 10);
    }
    /* (a2, b] : a2 excluded, every b* included. */
    delete_range(f->t, 1, test_bound("a2", false), test_bound("b", true), 20);
    assert_string_equal(scan(f, 1), "a1,a2,c1,c2");

    /* [c, +inf) with an older timestamp than the data: no effect. */
    delete_range(f->t, 1, test_bound("c", true), test_bound(NULL, false), 5);
    assert_string_equal(scan(f, 1), "a1,a2,c1,c2");

    /* Writes into the deleted range: older dropped, newer kept. */
    test_insert(f->t, 1, "b5", 1, "x", 19);
    test_insert(f->t, 1, "a3", 1, "x", 19);
    test_insert(f->t, 1, "a0", 1, "x", 19);
    test_insert(f->t, 1, "b6", 1, "x", 21);
    assert_string_equal(scan(f, 1), "a0,a1,a2,b6,c1,c2");

    /* (-inf, a2) exclusive end on a full key. */
    delete_range(f->t, 1, test_bound(NULL, false), test_bound("a2", false), 30);
    assert_string_equal(scan(f, 1), "a2,b6,c1,c2");
}


static void range_deletion_keeps_newer_cells_of_a_row(void **state)
{
    test_fixture_t *f = *state;
    char buf[16];
    test_insert(f->t, 1, "a", 1, "old", 10);
    test_put(f->t, 1, "a", 2, "new", 30);
    delete_range(f->t, 1, test_bound("a", true), test_bound("a", true), 20);
    assert_null(test_get(f->t, 1, "a", 1, 0, buf, sizeof(buf)));
    assert_string_equal(test_get(f->t, 1, "a", 2, 0, buf, sizeof(buf)), "new");
    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "a", 0, &v));
    assert_false(v.has_marker);
}


static void range_tombstone_ages_out_under_a_newer_partition_deletion(void **state)
{
    test_fixture_t *f = *state;
    delete_range(f->t, 1, test_bound("a", true), test_bound("b", true), 100);
    delete_partition(f->t, 1, 50);
    test_insert(f->t, 1, "a", 1, "x", 60);
    assert_string_equal(scan(f, 1), "");
    delete_partition(f->t, 1, 200);
    test_insert(f->t, 1, "a", 1, "x", 150);
    assert_string_equal(scan(f, 1), "");
    test_insert(f->t, 1, "a", 1, "x", 201);
    assert_string_equal(scan(f, 1), "a");
}


static void static_cells_are_per_partition(void **state)
{
    test_fixture_t *f = *state;
    put_static(f->t, 1, 9, "s1", 10);
    test_insert(f->t, 1, "a", 1, "x", 10);
    test_insert(f->t, 1, "b", 1, "x", 10);
    put_static(f->t, 1, 9, "s2", 11);
    put_static(f->t, 1, 9, "s0", 9);

    storage_row_view_t v;
    assert_true(storage_partition_static(test_part(f->t, 1), 0, &v));
    assert_true(v.is_static);
    assert_int_equal(v.n_cells, 1);
    assert_memory_equal(v.cells[0].value, "s2", 2);
    assert_string_equal(scan(f, 1), "a,b");

    /* A partition with only static cells is visible; rows are none. */
    put_static(f->t, 2, 9, "only", 1);
    assert_non_null(test_part(f->t, 2));
    assert_string_equal(scan(f, 2), "");
    assert_int_equal(storage_table_partition_count(f->t), 2);

    /* Row deletions do not touch statics; a static tombstone does. */
    delete_row(f->t, 1, "a", 100);
    assert_true(storage_partition_static(test_part(f->t, 1), 0, &v));
    put_static(f->t, 1, 9, NULL, 100);
    assert_false(storage_partition_static(test_part(f->t, 1), 0, &v));
}


static void set_collection_replaces_older_elements(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    /* SET l = {a, b} at 10: clear at 9, elements at 10. */
    storage_mutation_t m = test_mut(&key, "r");
    uint32_t col = 4;
    storage_cell_t e1[2] = {test_elem(col, "a", "", 10), test_elem(col, "b", "", 10)};
    m.clear_cols = &col;
    m.n_clear_cols = 1;
    m.delete_ts = 9;
    m.cells = e1;
    m.n_cells = 2;
    storage_apply(f->t, &m, 0, NULL);

    /* l = l + {c} at 11, then SET l = {d} at 12. */
    storage_mutation_t add = test_mut(&key, "r");
    storage_cell_t e2 = test_elem(col, "c", "", 11);
    add.cells = &e2;
    add.n_cells = 1;
    storage_apply(f->t, &add, 0, NULL);

    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "r", 0, &v));
    assert_int_equal(v.n_cells, 3);

    storage_cell_t e3 = test_elem(col, "d", "", 12);
    m.delete_ts = 11;
    m.cells = &e3;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    assert_true(test_row(f->t, 1, "r", 0, &v));
    assert_int_equal(v.n_cells, 1);
    assert_memory_equal(v.cells[0].path, "d", 1);

    /* A late element from before the last SET is dropped. */
    storage_cell_t late = test_elem(col, "e", "", 11);
    add.cells = &late;
    storage_apply(f->t, &add, 0, NULL);
    assert_true(test_row(f->t, 1, "r", 0, &v));
    assert_int_equal(v.n_cells, 1);

    /* Deleting one element. */
    storage_cell_t del = test_elem(col, "d", NULL, 13);
    add.cells = &del;
    storage_apply(f->t, &add, 0, NULL);
    assert_false(test_row(f->t, 1, "r", 0, &v));
}


static void deletion_wins_a_timestamp_tie_within_one_mutation(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    uint32_t col = 4;
    /* A clear at the same timestamp as the element hides it (DELETE l and
     * an element in one batch). */
    storage_mutation_t m = test_mut(&key, "r");
    storage_cell_t e = test_elem(col, "a", "", 10);
    m.row_marker = true;
    m.marker_ts = 10;
    m.clear_cols = &col;
    m.n_clear_cols = 1;
    m.delete_ts = 10;
    m.cells = &e;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "r", 0, &v));
    assert_int_equal(v.n_cells, 0);

    /* A row deleted and re-inserted at one timestamp stays deleted. */
    storage_mutation_t both = test_mut(&key, "s");
    storage_cell_t c = test_cell(1, "x", 20);
    both.delete_row = true;
    both.delete_ts = 20;
    both.row_marker = true;
    both.marker_ts = 20;
    both.cells = &c;
    both.n_cells = 1;
    storage_apply(f->t, &both, 0, NULL);
    assert_false(test_row(f->t, 1, "s", 0, &v));
}


static void collection_replaced_without_delete_ts_clears_just_below_the_write(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    uint32_t col = 4;
    storage_cell_t old = test_elem(col, "old", "", 99);
    storage_mutation_t add = test_mut(&key, "r");
    add.cells = &old;
    add.n_cells = 1;
    storage_apply(f->t, &add, 0, NULL);

    /* INSERT ... l = {new} USING TIMESTAMP 100 */
    storage_mutation_t m = test_mut(&key, "r");
    storage_cell_t e = test_elem(col, "new", "", 100);
    m.row_marker = true;
    m.marker_ts = 100;
    m.clear_cols = &col;
    m.n_clear_cols = 1;
    m.cells = &e;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "r", 0, &v));
    assert_int_equal(v.n_cells, 1);
    assert_memory_equal(v.cells[0].path, "new", 3);

    /* UPDATE ... SET l = null: nothing written, so now_us times it. */
    storage_mutation_t null_set = test_mut(&key, "r");
    null_set.clear_cols = &col;
    null_set.n_clear_cols = 1;
    storage_apply(f->t, &null_set, 101, NULL);
    assert_true(test_row(f->t, 1, "r", 0, &v));
    assert_int_equal(v.n_cells, 0);
    assert_true(v.has_marker);
}


static void large_collection_written_at_once_keeps_order(void **state)
{
    test_fixture_t *f = *state;
    enum { N = 5000 };
    static storage_cell_t cells[N];
    static char paths[N][8];
    for (int i = 0; i < N; i++) {
        /* Descending, so each would insert at the front without sorting. */
        snprintf(paths[i], sizeof(paths[i]), "%05d", N - 1 - i);
        cells[i] = test_elem(3, paths[i], "v", 1);
    }
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, NULL);
    m.cells = cells;
    m.n_cells = N;
    storage_apply(f->t, &m, 0, NULL);

    storage_row_view_t v;
    assert_true(test_row(f->t, 1, NULL, 0, &v));
    assert_int_equal(v.n_cells, N);
    for (int i = 1; i < N; i++) {
        assert_true(memcmp(v.cells[i - 1].path, v.cells[i].path, 5) < 0);
    }
}


static void shadowed_writes_leave_no_partition_behind(void **state)
{
    test_fixture_t *f = *state;
    test_put(f->t, 1, "a", 1, NULL, 10);
    /* A lone cell tombstone is kept (it must shadow older writes) but the
     * row it sits in is dead, so nothing is visible in it. */
    assert_string_equal(scan(f, 1), "");
    test_put(f->t, 1, "a", 1, "old", 9);
    assert_string_equal(scan(f, 1), "");

    storage_write_stats_t st;
    test_key_t key = test_key(2);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_apply(f->t, &m, 0, &st);
    assert_int_equal(st.partition_rows, 0);
    assert_null(test_part(f->t, 2));
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)
    const struct CMUnitTest tests[] = {
        T(partition_deletion_shadows_older_writes_only),
        T(fully_deleted_partition_is_invisible_but_remembered),
        T(row_deletion_shadows_older_writes_only),
        T(range_deletion_follows_prefix_bounds),
        T(range_deletion_keeps_newer_cells_of_a_row),
        T(range_tombstone_ages_out_under_a_newer_partition_deletion),
        T(static_cells_are_per_partition),
        T(set_collection_replaces_older_elements),
        T(deletion_wins_a_timestamp_tie_within_one_mutation),
        T(collection_replaced_without_delete_ts_clears_just_below_the_write),
        T(large_collection_written_at_once_keeps_order),
        T(shadowed_writes_leave_no_partition_behind),
    };
#undef T
    return cmocka_run_group_tests_name("storage/partition", tests, NULL, NULL);
}
