/*
 * test_row.c - one row's cells: Cassandra's reconciliation order, the
 * collection-wide tombstone, row deletion, and the live view.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage_int.h"
#include "storage_test.h"


static void newer_timestamp_wins_whatever_the_content(void **state)
{
    (void)state;
    storage_cell_t old = test_cell(1, "zzz", 10);
    storage_cell_t newer = test_cell(1, "a", 11);
    storage_cell_t tomb = test_cell(1, NULL, 9);
    assert_true(storage__cell_reconcile(&newer, &old) > 0);
    assert_true(storage__cell_reconcile(&old, &newer) < 0);
    assert_true(storage__cell_reconcile(&old, &tomb) > 0);
}


static void on_a_tie_tombstone_beats_expiring_beats_plain(void **state)
{
    (void)state;
    storage_cell_t plain = test_cell(1, "zzz", 10);
    storage_cell_t expiring = test_cell(1, "a", 10);
    expiring.expires_us = 1000;
    storage_cell_t tomb = test_cell(1, NULL, 10);

    assert_true(storage__cell_reconcile(&tomb, &plain) > 0);
    assert_true(storage__cell_reconcile(&tomb, &expiring) > 0);
    assert_true(storage__cell_reconcile(&expiring, &plain) > 0);
    assert_true(storage__cell_reconcile(&plain, &tomb) < 0);

    storage_cell_t later = expiring;
    later.expires_us = 2000;
    assert_true(storage__cell_reconcile(&later, &expiring) > 0);
}


static void on_a_full_tie_the_greater_value_bytes_win_unsigned(void **state)
{
    (void)state;
    storage_cell_t lo = test_cell(1, "\x7f", 10);
    storage_cell_t hi = test_cell(1, "\x80", 10);
    storage_cell_t longer = test_cell(1, "\x7f\x00", 10);
    longer.value_len = 2;
    assert_true(storage__cell_reconcile(&hi, &lo) > 0);
    assert_true(storage__cell_reconcile(&longer, &lo) > 0);
    assert_int_equal(storage__cell_reconcile(&lo, &lo), 0);

    storage__row_t *r = storage__row_new(NULL, 0);
    storage__row_put_cell(r, &hi);
    storage__row_put_cell(r, &lo);
    assert_int_equal(r->n_cells, 1);
    assert_memory_equal(r->cells[0].value, "\x80", 1);
    storage__row_free(r);
}


static void cells_stay_sorted_by_column_then_path(void **state)
{
    (void)state;
    storage__row_t *r = storage__row_new((const uint8_t *)"ck", 2);
    storage_cell_t cells[] = {
        test_elem(5, "b", "2", 1), test_cell(9, "x", 1),     test_elem(5, "a", "1", 1),
        test_cell(2, "y", 1),      test_elem(5, "", "0", 1),
    };
    for (size_t i = 0; i < 5; i++) {
        storage__row_put_cell(r, &cells[i]);
    }
    assert_int_equal(r->n_cells, 5);
    assert_int_equal(r->cells[0].col, 2);
    assert_int_equal(r->cells[1].col, 5);
    assert_non_null(r->cells[1].path); /* the empty map key is an element */
    assert_int_equal(r->cells[1].path_len, 0);
    assert_memory_equal(r->cells[2].path, "a", 1);
    assert_memory_equal(r->cells[3].path, "b", 1);
    assert_int_equal(r->cells[4].col, 9);
    assert_null(r->cells[4].path);
    /* ck + (0+1) + (0+1) + (1+1) + (1+1) + (0+1) */
    assert_int_equal(r->bytes, 2 + 1 + 1 + 2 + 2 + 1);
    storage__row_free(r);
}


static void collection_tombstone_shadows_older_elements_only(void **state)
{
    (void)state;
    storage__row_t *r = storage__row_new(NULL, 0);
    storage_cell_t a = test_elem(3, "a", "1", 10);
    storage_cell_t b = test_elem(3, "b", "2", 20);
    storage_cell_t other = test_cell(4, "keep", 5);
    storage__row_put_cell(r, &a);
    storage__row_put_cell(r, &b);
    storage__row_put_cell(r, &other);

    storage_cell_t clear = {.col = 3, .tombstone = true, .ts = 15};
    storage__row_put_cell(r, &clear);
    /* (3 tombstone) (3,b) (4) */
    assert_int_equal(r->n_cells, 3);
    assert_true(r->cells[0].tombstone);
    assert_memory_equal(r->cells[1].path, "b", 1);

    storage_cell_t late_old = test_elem(3, "c", "3", 14);
    storage__row_put_cell(r, &late_old);
    assert_int_equal(r->n_cells, 3);
    storage_cell_t late_new = test_elem(3, "c", "3", 16);
    storage__row_put_cell(r, &late_new);
    assert_int_equal(r->n_cells, 4);
    storage__row_free(r);
}


static void row_deletion_frees_older_data_and_remembers_its_timestamp(void **state)
{
    (void)state;
    storage__row_t *r = storage__row_new(NULL, 0);
    storage_cell_t old = test_cell(1, "old", 10);
    storage_cell_t newer = test_cell(2, "new", 30);
    storage__row_put_cell(r, &old);
    storage__row_put_cell(r, &newer);
    storage__row_put_marker(r, 10, STORAGE_NO_EXPIRY, 0);

    storage__row_delete(r, 20);
    assert_int_equal(r->del_ts, 20);
    assert_false(r->has_marker);
    assert_int_equal(r->n_cells, 1);
    assert_int_equal(r->cells[0].col, 2);
    assert_true(storage__row_is_live(r, 0));

    storage__row_delete(r, 40);
    assert_false(storage__row_is_live(r, 0));
    assert_false(storage__row_is_empty(r)); /* the deletion is remembered */
    storage__row_purge(r, 40);
    assert_true(storage__row_is_empty(r));
    storage__row_free(r);
}


static void marker_ties_prefer_expiring_then_later_expiry(void **state)
{
    (void)state;
    storage__row_t *r = storage__row_new(NULL, 0);
    storage__row_put_marker(r, 10, STORAGE_NO_EXPIRY, 0);
    storage__row_put_marker(r, 10, 500, 1);
    assert_int_equal(r->marker_expires_us, 500);
    storage__row_put_marker(r, 10, STORAGE_NO_EXPIRY, 0);
    assert_int_equal(r->marker_expires_us, 500);
    storage__row_put_marker(r, 10, 900, 1);
    assert_int_equal(r->marker_expires_us, 900);
    storage__row_put_marker(r, 9, STORAGE_NO_EXPIRY, 0);
    assert_int_equal(r->marker_ts, 10);
    storage__row_put_marker(r, 11, STORAGE_NO_EXPIRY, 0);
    assert_int_equal(r->marker_expires_us, STORAGE_NO_EXPIRY);
    storage__row_free(r);
}


static void view_filters_dead_cells_at_any_now_even_backwards(void **state)
{
    (void)state;
    storage__row_t *r = storage__row_new(NULL, 0);
    storage_cell_t a = test_cell(1, "a", 1);
    a.expires_us = 100;
    storage_cell_t b = test_cell(2, "b", 1);
    b.expires_us = 200;
    storage_cell_t c = test_cell(3, "c", 1);
    storage_cell_t d = test_cell(4, NULL, 1);
    storage__row_put_cell(r, &a);
    storage__row_put_cell(r, &b);
    storage__row_put_cell(r, &c);
    storage__row_put_cell(r, &d);

    uint8_t *blk = storage__row_encode(r);
    storage__cellbuf_t buf = {NULL, 0};
    static const int64_t nows[] = {0, 150, 99, 250, 150, 0};
    static const size_t live[] = {3, 2, 3, 1, 2, 3};
    for (size_t i = 0; i < 6; i++) {
        storage_row_view_t v;
        size_t dead = storage__row_view(blk, &buf, nows[i], &v);
        assert_int_equal(v.n_cells, live[i]);
        assert_int_equal(dead, 4 - live[i]);
        assert_int_equal(v.cells[v.n_cells - 1].col, 3);
        if (live[i] >= 2) {
            assert_int_equal(v.cells[live[i] - 2].col, 2);
        }
    }
    base_free(buf.cells);
    base_free(blk);
    storage__row_free(r);
}


/* Every field of every kind of cell, the marker and the row deletion come back
 * exactly from the encoded block, whatever the timestamps (deltas wrap). */
static void every_cell_kind_round_trips_through_the_block(void **state)
{
    (void)state;
    storage__row_t *r = storage__row_new((const uint8_t *)"ck\0x", 4);
    storage_cell_t plain = test_cell(1, "value", 100);
    storage_cell_t empty = test_cell(2, "", 101);
    empty.value = NULL;
    storage_cell_t expiring = test_cell(3, "ttl", 102);
    expiring.expires_us = 5000102;
    expiring.ttl = 5;
    storage_cell_t tomb = test_cell(4, NULL, INT64_MIN + 1);
    storage_cell_t whole = {.col = 5, .tombstone = true, .ts = 7};
    storage_cell_t elem = test_elem(5, "k", "v", INT64_MAX);
    storage_cell_t empty_key = test_elem(5, "", "e", 9);
    storage_cell_t far = test_cell(6, "far", -5);
    far.expires_us = INT64_MAX;
    far.ttl = INT32_MAX;
    const storage_cell_t *all[] = {&plain, &empty, &expiring,  &tomb,
                                   &whole, &elem,  &empty_key, &far};
    for (size_t i = 0; i < 8; i++) {
        storage__row_put_cell(r, all[i]);
    }
    storage__row_put_marker(r, 100, 3000100, 3);
    r->del_ts = 50;

    uint8_t *blk = storage__row_encode(r);
    assert_int_equal(storage__blk_size(blk), storage__row_encoded_size(r));
    assert_int_equal(storage__blk_bytes(blk), r->bytes);
    size_t ck_len;
    const uint8_t *ck = storage__blk_ck(blk, &ck_len);
    assert_int_equal(ck_len, 4);
    assert_memory_equal(ck, "ck\0x", 4);

    storage__row_t back = {0};
    storage__row_decode(blk, &back);
    assert_int_equal(back.del_ts, 50);
    assert_true(back.has_marker);
    assert_int_equal(back.marker_ts, 100);
    assert_int_equal(back.marker_expires_us, 3000100);
    assert_int_equal(back.marker_ttl, 3);
    assert_int_equal(back.bytes, r->bytes);
    assert_int_equal(back.n_cells, r->n_cells);
    for (size_t i = 0; i < r->n_cells; i++) {
        const storage_cell_t *a = &r->cells[i];
        const storage_cell_t *b = &back.cells[i];
        assert_int_equal(a->col, b->col);
        assert_int_equal(a->ts, b->ts);
        assert_int_equal(a->expires_us, b->expires_us);
        assert_int_equal(a->ttl, b->ttl);
        assert_int_equal(a->tombstone, b->tombstone);
        assert_int_equal(a->path != NULL, b->path != NULL);
        assert_int_equal(a->path_len, b->path_len);
        assert_int_equal(a->value_len, b->value_len);
        assert_int_equal(a->value != NULL, b->value != NULL);
        if (a->path_len > 0) {
            assert_memory_equal(a->path, b->path, a->path_len);
        }
        if (a->value_len > 0) {
            assert_memory_equal(a->value, b->value, a->value_len);
        }
    }
    storage__row_fini(&back);
    base_free(blk);
    storage__row_free(r);
}


/* An INSERT's row (marker and cells at one timestamp, no TTL, no deletion)
 * pays for one timestamp and a few bytes per cell; TTLs and deletions cost
 * only where present. */
/* The block's length prefix is written from the size the caller allocated
 * (storage__row_encode_into): every value length around the prefix's one-,
 * two- and three-byte edges encodes to exactly that size and decodes back. */
static void blocks_of_every_size_around_the_length_edges_round_trip(void **state)
{
    (void)state;
    static uint8_t value[20000];
    for (size_t i = 0; i < sizeof(value); i++) {
        value[i] = (uint8_t)(i * 7);
    }
    const size_t around[] = {0, 100, 16250, 16360};
    for (size_t a = 0; a < sizeof(around) / sizeof(around[0]); a++) {
        for (size_t len = around[a]; len < around[a] + 40; len++) {
            storage__row_t *r = storage__row_new(NULL, 0);
            storage_cell_t c = {.col = 1,
                                .value = len > 0 ? value : NULL,
                                .value_len = (uint32_t)len,
                                .ts = 1700000000000000};
            storage__row_put_cell(r, &c);
            uint8_t *blk = storage__row_encode(r); /* asserts the end is at the size */
            assert_int_equal(storage__blk_size(blk), storage__row_encoded_size(r));
            storage__row_t back = {0};
            storage__row_decode(blk, &back);
            assert_int_equal(back.n_cells, 1);
            assert_int_equal(back.cells[0].value_len, len);
            if (len > 0) {
                assert_memory_equal(back.cells[0].value, value, len);
            }
            storage__row_fini(&back);
            base_free(blk);
            storage__row_free(r);
        }
    }
}


static void timestamps_and_ttls_take_space_only_where_present(void **state)
{
    (void)state;
    static const uint8_t value[100];
    storage_cell_t c = {.col = 1, .value = value, .value_len = 100, .ts = 1700000000000000};
    storage__row_t *r = storage__row_new(NULL, 0);
    storage__row_put_marker(r, c.ts, STORAGE_NO_EXPIRY, 0);
    storage__row_put_cell(r, &c);
    /* length, ck length, flags, base ts (8), cell count; cell flags, col, value length */
    size_t plain = 1 + 1 + 1 + 8 + 1 + 1 + 1 + 1 + 100;
    assert_int_equal(storage__row_encoded_size(r), plain);

    storage_cell_t later = c;
    later.col = 2;
    later.ts = c.ts + 1;
    storage__row_put_cell(r, &later); /* flags, col, ts delta (1 byte), length */
    /* ... and the block's length takes a second byte past 127 */
    assert_int_equal(storage__row_encoded_size(r), plain + 4 + 100 + 1);

    storage__row_t *t = storage__row_new(NULL, 0);
    storage_cell_t ttl = c;
    ttl.expires_us = c.ts + 60 * 1000000;
    ttl.ttl = 60;
    storage__row_put_cell(t, &ttl);
    storage__row_t *d = storage__row_new(NULL, 0);
    storage__row_put_cell(d, &c);
    size_t no_ttl = storage__row_encoded_size(d);
    assert_true(storage__row_encoded_size(t) > no_ttl);
    storage__row_delete(d, c.ts + 1);
    storage__row_put_cell(d, &later);
    assert_true(storage__row_encoded_size(d) > 1 + 1 + 1 + 8 + 1); /* the deletion is kept */
    uint8_t *blk = storage__row_encode(d);
    storage__row_t back = {0};
    storage__row_decode(blk, &back);
    assert_int_equal(back.del_ts, c.ts + 1);
    assert_false(back.has_marker);
    assert_int_equal(back.n_cells, 1);
    assert_int_equal(back.cells[0].ts, c.ts + 1);
    storage__row_fini(&back);
    base_free(blk);
    storage__row_free(d);
    storage__row_free(t);
    storage__row_free(r);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(newer_timestamp_wins_whatever_the_content),
        cmocka_unit_test(on_a_tie_tombstone_beats_expiring_beats_plain),
        cmocka_unit_test(on_a_full_tie_the_greater_value_bytes_win_unsigned),
        cmocka_unit_test(cells_stay_sorted_by_column_then_path),
        cmocka_unit_test(collection_tombstone_shadows_older_elements_only),
        cmocka_unit_test(row_deletion_frees_older_data_and_remembers_its_timestamp),
        cmocka_unit_test(marker_ties_prefer_expiring_then_later_expiry),
        cmocka_unit_test(view_filters_dead_cells_at_any_now_even_backwards),
        cmocka_unit_test(every_cell_kind_round_trips_through_the_block),
        cmocka_unit_test(blocks_of_every_size_around_the_length_edges_round_trip),
        cmocka_unit_test(timestamps_and_ttls_take_space_only_where_present),
    };
    return cmocka_run_group_tests_name("storage/row", tests, NULL, NULL);
}
