/*
 * test_compact.c - the compact shapes of storage: a single-row partition
 * held inline until it needs more (second row, static row, deletions), the
 * partition B+tree under many and equal tokens, cursors that resume by key
 * across writes that move partitions, and a 100k-row partition's point and
 * slice reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "storage/storage_int.h"
#include "storage_test.h"

#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)


static void single_row_partition_is_inline_until_a_second_row(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "a", 1, "one", 10);
    test_put(f->t, 1, "a", 2, "two", 11); /* the same row again: still inline */
    storage_partition_t *p = test_part(f->t, 1);
    assert_int_equal(p->form, STORAGE__PART_ROW);
    assert_int_equal(storage_partition_bytes(p), 4 + 1 + 3 + 3);
    assert_string_equal(test_get(f->t, 1, "a", 2, 0, f->buf, sizeof(f->buf)), "two");

    test_insert(f->t, 1, "b", 1, "bee", 12);
    p = test_part(f->t, 1);
    assert_int_equal(p->form, STORAGE__PART_EXT);
    assert_int_equal(storage__part_ext(p)->rows.count, 2);
    assert_int_equal(storage_partition_bytes(p), 4 + (1 + 3 + 3) + (1 + 3));
    assert_int_equal(storage_table_bytes(f->t), storage_partition_bytes(p));
    assert_string_equal(test_get(f->t, 1, "a", 1, 0, f->buf, sizeof(f->buf)), "one");
    assert_string_equal(test_get(f->t, 1, "b", 1, 0, f->buf, sizeof(f->buf)), "bee");
    assert_int_equal(storage_table_partition_count(f->t), 1);
}


static void static_rows_and_deletions_promote_and_keep_the_row(void **state)
{
    test_fixture_t *f = *state;
    /* static cell */
    test_insert(f->t, 1, "a", 1, "x", 10);
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_cell_t s = test_cell(9, "st", 11);
    m.static_row = true;
    m.cells = &s;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    storage_partition_t *p = test_part(f->t, 1);
    assert_int_equal(p->form, STORAGE__PART_EXT);
    storage_row_view_t v;
    assert_true(storage_partition_static(p, 0, &v));
    assert_memory_equal(v.cells[0].value, "st", 2);
    assert_string_equal(test_get(f->t, 1, "a", 1, 0, f->buf, sizeof(f->buf)), "x");

    /* partition deletion older than the row */
    test_insert(f->t, 2, "a", 1, "y", 10);
    key = test_key(2);
    m = test_mut(&key, NULL);
    m.delete_partition = true;
    m.delete_ts = 5;
    storage_apply(f->t, &m, 0, NULL);
    assert_int_equal(test_part(f->t, 2)->form, STORAGE__PART_EXT);
    assert_string_equal(test_get(f->t, 2, "a", 1, 0, f->buf, sizeof(f->buf)), "y");
    test_insert(f->t, 2, "b", 1, "old", 4); /* shadowed by the remembered deletion */
    assert_null(test_get(f->t, 2, "b", 1, 0, f->buf, sizeof(f->buf)));

    /* range deletion covering the row */
    test_insert(f->t, 3, "a", 1, "z", 10);
    key = test_key(3);
    m = test_mut(&key, NULL);
    m.delete_range = true;
    m.range_start = test_bound("a", true);
    m.range_end = test_bound("a", true);
    m.delete_ts = 20;
    storage_apply(f->t, &m, 0, NULL);
    assert_null(test_part(f->t, 3)); /* invisible, remembered */
    test_insert(f->t, 3, "a", 1, "late", 15);
    assert_null(test_part(f->t, 3));
    assert_int_equal(storage_table_partition_count(f->t), 2);
}


static void row_deletion_stays_inline_and_shadows_older_writes(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, NULL, 1, "v", 10);
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_row = true;
    m.delete_ts = 20;
    storage_apply(f->t, &m, 0, NULL);
    storage_partition_t *p = storage__table_lookup(f->t, key.token, key.bytes, 4);
    assert_non_null(p);
    assert_int_equal(p->form, STORAGE__PART_ROW);
    storage_row_view_t v;
    assert_false(test_row(f->t, 1, NULL, 0, &v));
    test_insert(f->t, 1, NULL, 1, "old", 15);
    assert_false(test_row(f->t, 1, NULL, 0, &v));
    test_insert(f->t, 1, NULL, 1, "new", 25);
    assert_string_equal(test_get(f->t, 1, NULL, 1, 0, f->buf, sizeof(f->buf)), "new");
}


static void row_cursor_on_an_inline_partition_resumes_after_promotion(void **state)
{
    test_fixture_t *f = *state;
    test_insert(f->t, 1, "b", 1, "x", 1);
    storage_row_iter_t *it = storage_row_iter_new(test_part(f->t, 1), NULL, NULL, false, 0);
    storage_row_view_t v;
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "b", 1);
    test_insert(f->t, 1, "a", 1, "x", 1); /* the partition moves and grows a row index */
    test_insert(f->t, 1, "c", 1, "x", 1);
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "c", 1);
    assert_false(storage_row_iter_next(it, &v));
    storage_row_iter_free(it);

    /* reverse, and a cursor whose partition is truncated away */
    it = storage_row_iter_new(test_part(f->t, 1), NULL, NULL, true, 0);
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "c", 1);
    storage_table_truncate(f->t);
    assert_false(storage_row_iter_next(it, &v));
    storage_row_iter_free(it);
}


static void partition_cursor_sees_each_partition_once_while_all_are_rewritten(void **state)
{
    test_fixture_t *f = *state;
    enum { N = 3000 };
    for (int i = 0; i < N; i++) {
        test_insert(f->t, i, NULL, 1, "v", 1);
    }
    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    int64_t prev = INT64_MIN;
    size_t seen = 0;
    storage_partition_t *p;
    while ((p = storage_part_iter_next(it)) != NULL) {
        int64_t tok = storage_partition_token(p);
        assert_true(seen == 0 || tok > prev);
        prev = tok;
        size_t len;
        const uint8_t *pk = storage_partition_key(p, &len);
        int32_t k = (int32_t)base_load_u32(pk);
        test_insert(f->t, k, NULL, 1, "longer value", 2); /* moves p */
        seen++;
    }
    storage_part_iter_free(it);
    assert_int_equal(seen, N);
    assert_int_equal(storage_table_partition_count(f->t), N);
    assert_int_equal(storage_table_bytes(f->t), (size_t)N * (4 + 12));
}


static void put_token(storage_table_t *t, int64_t token, uint32_t k)
{
    uint8_t pk[4] = {(uint8_t)(k >> 24), (uint8_t)(k >> 16), (uint8_t)(k >> 8), (uint8_t)k};
    storage_cell_t c = test_cell(1, "v", 1);
    storage_mutation_t m = {.pk = pk, .pk_len = 4, .token = token, .cells = &c, .n_cells = 1};
    storage_apply(t, &m, 0, NULL);
}


/* Runs of one token straddle leaves and separators: every key is found, the
 * scan is in (token, key) order, and resuming after any key is exact. */
static void equal_tokens_across_leaves_keep_order_lookup_and_resume(void **state)
{
    test_fixture_t *f = *state;
    enum { N = 6000 };
    uint64_t rng = 88172645463325252u;
    for (uint32_t i = 0; i < N; i++) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        uint32_t k = (uint32_t)(rng % 1000000);
        int64_t token = (i % 3 == 0) ? 7 : (int64_t)(rng >> 1) - (INT64_C(1) << 61);
        if (i % 3 == 0) {
            k = i; /* distinct keys under token 7 */
        }
        put_token(f->t, token, k);
    }
    size_t count = storage_table_partition_count(f->t);
    assert_true(count > N / 3);

    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    storage_partition_t *p;
    int64_t pt = 0;
    uint8_t pk_prev[4];
    size_t n = 0, sevens = 0;
    while ((p = storage_part_iter_next(it)) != NULL) {
        size_t len;
        const uint8_t *pk = storage_partition_key(p, &len);
        int64_t tok = storage_partition_token(p);
        if (n > 0) {
            assert_true(tok > pt || (tok == pt && memcmp(pk, pk_prev, 4) > 0));
        }
        assert_ptr_equal(storage_partition_get(f->t, tok, pk, len), p);
        sevens += tok == 7;
        if (n % 97 == 0) {
            /* resuming after this key gives the next one */
            storage_part_iter_t *r = storage_part_iter_new(f->t, true, tok, pk, len);
            storage_partition_t *q = storage_part_iter_next(r);
            if (q != NULL) {
                size_t ql;
                const uint8_t *qk = storage_partition_key(q, &ql);
                int64_t qt = storage_partition_token(q);
                assert_true(qt > tok || (qt == tok && memcmp(qk, pk, 4) > 0));
            }
            storage_part_iter_free(r);
        }
        pt = tok;
        memcpy(pk_prev, pk, 4);
        n++;
    }
    storage_part_iter_free(it);
    assert_int_equal(n, count);
    assert_int_equal(sevens, N / 3);

    /* after token 7 (exclusive, no key): the first partition above it */
    it = storage_part_iter_new(f->t, true, 7, NULL, 0);
    p = storage_part_iter_next(it);
    assert_non_null(p);
    assert_true(storage_partition_token(p) > 7);
    storage_part_iter_free(it);
}


static void ck_of(uint32_t i, uint8_t out[8])
{
    base_store_u64(out, (uint64_t)i * 3); /* gaps, so bounds can fall between rows */
}


/* 100k rows written in a scrambled order: point reads, slices and reverse
 * slices return exactly the expected rows. */
static void hundred_thousand_row_partition_point_and_slice_reads(void **state)
{
    test_fixture_t *f = *state;
    enum { N = 100000 };
    test_key_t key = test_key(42);
    for (uint32_t j = 0; j < N; j++) {
        uint32_t i = (uint32_t)(((uint64_t)j * 7919) % N); /* a permutation */
        uint8_t ck[8];
        ck_of(i, ck);
        char v[16];
        snprintf(v, sizeof(v), "%u", i);
        storage_mutation_t m = test_mut(&key, NULL);
        m.ck = ck;
        m.ck_len = 8;
        storage_cell_t c = test_cell(1, v, 1);
        m.row_marker = true;
        m.marker_ts = 1;
        m.cells = &c;
        m.n_cells = 1;
        storage_apply(f->t, &m, 0, NULL);
    }
    storage_partition_t *p = storage_partition_get(f->t, key.token, key.bytes, 4);
    assert_non_null(p);
    assert_int_equal(storage__part_ext(p)->rows.count, N);

    for (uint32_t i = 0; i < N; i += 997) {
        uint8_t ck[8];
        ck_of(i, ck);
        storage_bound_t b = {ck, 8, true};
        storage_row_iter_t *it = storage_row_iter_new(p, &b, &b, false, 0);
        storage_row_view_t v;
        assert_true(storage_row_iter_next(it, &v));
        char want[16];
        snprintf(want, sizeof(want), "%u", i);
        assert_int_equal(v.cells[0].value_len, strlen(want));
        assert_memory_equal(v.cells[0].value, want, strlen(want));
        assert_false(storage_row_iter_next(it, &v));
        storage_row_iter_free(it);
        /* a key between rows finds nothing */
        base_store_u64(ck, (uint64_t)i * 3 + 1);
        it = storage_row_iter_new(p, &b, &b, false, 0);
        assert_false(storage_row_iter_next(it, &v));
        storage_row_iter_free(it);
    }

    /* slice (3*1000 + 1, 3*2000] exclusive start between rows: rows 1001..2000 */
    uint8_t lo[8], hi[8];
    base_store_u64(lo, 3000 + 1);
    ck_of(2000, hi);
    storage_bound_t s = {lo, 8, false};
    storage_bound_t e = {hi, 8, true};
    for (int rev = 0; rev < 2; rev++) {
        storage_row_iter_t *it = storage_row_iter_new(p, &s, &e, rev, 0);
        storage_row_view_t v;
        uint32_t want = rev ? 2000 : 1001, count = 0;
        while (storage_row_iter_next(it, &v)) {
            uint8_t ck[8];
            ck_of(want, ck);
            assert_int_equal(v.ck_len, 8);
            assert_memory_equal(v.ck, ck, 8);
            want = rev ? want - 1 : want + 1;
            count++;
        }
        assert_int_equal(count, 1000);
        storage_row_iter_free(it);
    }
}


/* The table's memory account: partitions and rows at their slab size plus
 * the index, a few words per single-row partition, back to an empty index
 * after a truncate. */
static void table_memory_counts_rows_at_a_few_words_each(void **state)
{
    test_fixture_t *f = *state;
    size_t empty = storage_table_memory(f->t);
    enum { N = 20000 };
    char value[101];
    memset(value, 'v', 100);
    value[100] = '\0';
    for (int i = 0; i < N; i++) {
        test_insert(f->t, i, NULL, 1, value, 1);
    }
    size_t payload = (size_t)N * (4 + 100);
    assert_int_equal(storage_table_bytes(f->t), payload);
    size_t mem = storage_table_memory(f->t) - empty;
    assert_true(mem > payload);
    assert_true(mem < payload + (size_t)N * 64);
    storage_table_truncate(f->t);
    assert_int_equal(storage_table_memory(f->t), empty);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        T(single_row_partition_is_inline_until_a_second_row),
        T(static_rows_and_deletions_promote_and_keep_the_row),
        T(row_deletion_stays_inline_and_shadows_older_writes),
        T(row_cursor_on_an_inline_partition_resumes_after_promotion),
        T(partition_cursor_sees_each_partition_once_while_all_are_rewritten),
        T(equal_tokens_across_leaves_keep_order_lookup_and_resume),
        T(hundred_thousand_row_partition_point_and_slice_reads),
        T(table_memory_counts_rows_at_a_few_words_each),
    };
    return cmocka_run_group_tests_name("storage/compact", tests, NULL, NULL);
}
