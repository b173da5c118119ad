/*
 * test_table.c - writes and point reads through storage.h: last write
 * wins, write stats, sizes, partition visibility, truncate and drop, and
 * partition scans in token order with resume points.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage.h"
#include "storage_test.h"

static int setup(void **state)
{
    return test_setup_table(state, 7);
}


static void insert_then_read_returns_the_value(void **state)
{
    test_fixture_t *f = *state;
    char buf[32];
    test_insert(f->t, 1, "a", 1, "hello", 100);
    assert_string_equal(test_get(f->t, 1, "a", 1, 0, buf, sizeof(buf)), "hello");
    assert_null(test_get(f->t, 1, "b", 1, 0, buf, sizeof(buf)));
    assert_null(test_part(f->t, 2));

    storage_row_view_t v;
    assert_true(test_row(f->t, 1, "a", 0, &v));
    assert_true(v.has_marker);
    assert_int_equal(v.marker_ts, 100);
    assert_false(v.is_static);
}


static void newer_write_wins_and_older_write_is_ignored(void **state)
{
    test_fixture_t *f = *state;
    char buf[32];
    test_put(f->t, 1, NULL, 1, "v100", 100);
    test_put(f->t, 1, NULL, 1, "v200", 200);
    assert_string_equal(test_get(f->t, 1, NULL, 1, 0, buf, sizeof(buf)), "v200");
    test_put(f->t, 1, NULL, 1, "v150", 150);
    assert_string_equal(test_get(f->t, 1, NULL, 1, 0, buf, sizeof(buf)), "v200");
    /* Same timestamp: the greater value wins, in either arrival order. */
    test_put(f->t, 1, NULL, 1, "v2", 200);
    assert_string_equal(test_get(f->t, 1, NULL, 1, 0, buf, sizeof(buf)), "v200");
    test_put(f->t, 1, NULL, 1, "v3", 200);
    assert_string_equal(test_get(f->t, 1, NULL, 1, 0, buf, sizeof(buf)), "v3");
}


static void cell_deletion_shadows_older_writes_but_not_newer(void **state)
{
    test_fixture_t *f = *state;
    char buf[32];
    test_put(f->t, 1, "a", 1, "x", 100);
    test_put(f->t, 1, "a", 2, "y", 100);
    test_put(f->t, 1, "a", 1, NULL, 150);
    assert_null(test_get(f->t, 1, "a", 1, 0, buf, sizeof(buf)));
    assert_string_equal(test_get(f->t, 1, "a", 2, 0, buf, sizeof(buf)), "y");
    test_put(f->t, 1, "a", 1, "late", 120);
    assert_null(test_get(f->t, 1, "a", 1, 0, buf, sizeof(buf)));
    /* A tombstone wins a tie. */
    test_put(f->t, 1, "a", 1, "tie", 150);
    assert_null(test_get(f->t, 1, "a", 1, 0, buf, sizeof(buf)));
    test_put(f->t, 1, "a", 1, "newer", 160);
    assert_string_equal(test_get(f->t, 1, "a", 1, 0, buf, sizeof(buf)), "newer");
}


static void update_without_marker_dies_with_its_last_cell(void **state)
{
    test_fixture_t *f = *state;
    storage_row_view_t v;
    test_put(f->t, 1, "a", 1, "x", 100);
    assert_true(test_row(f->t, 1, "a", 0, &v));
    assert_false(v.has_marker);
    test_put(f->t, 1, "a", 1, NULL, 101);
    assert_false(test_row(f->t, 1, "a", 0, &v));

    /* An INSERTed row stays live through its marker. */
    test_insert(f->t, 2, "a", 1, "x", 100);
    test_put(f->t, 2, "a", 1, NULL, 101);
    assert_true(test_row(f->t, 2, "a", 0, &v));
    assert_int_equal(v.n_cells, 0);
}


static void write_stats_report_bytes_existence_and_partition_size(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, "ck");
    storage_cell_t c[2] = {test_cell(1, "abc", 10), test_elem(2, "k", "vv", 10)};
    m.row_marker = true;
    m.marker_ts = 10;
    m.cells = c;
    m.n_cells = 2;

    storage_write_stats_t st;
    assert_int_equal(storage_apply(f->t, &m, 0, &st), BASE_OK);
    assert_int_equal(st.bytes_written, 4 + 2 + 3 + 1 + 2);
    assert_false(st.row_existed);
    assert_int_equal(st.partition_rows, 1);
    assert_int_equal(st.partition_bytes, 4 + 2 + 3 + 1 + 2);

    c[0].ts = 11;
    storage_apply(f->t, &m, 0, &st);
    assert_true(st.row_existed);
    assert_int_equal(st.partition_bytes, 12);

    storage_mutation_t m2 = test_mut(&key, "other");
    m2.cells = c;
    m2.n_cells = 1;
    storage_apply(f->t, &m2, 0, &st);
    assert_false(st.row_existed);
    assert_int_equal(st.partition_rows, 2);
    assert_int_equal(st.partition_bytes, 12 + 5 + 3);
    assert_int_equal(storage_partition_bytes(test_part(f->t, 1)), 20);
    assert_int_equal(storage_table_bytes(f->t), 20);

    test_put(f->t, 2, NULL, 1, "12345", 1);
    assert_int_equal(storage_table_bytes(f->t), 20 + 4 + 5);
    assert_int_equal(storage_table_partition_count(f->t), 2);
}


/* The table's byte count (storage__apply keeps it from rows it has decoded, without
 * measuring partitions again) is the sum of its partitions' sizes after any mix of
 * writes: new rows, overwrites that grow and shrink, older writes that lose, cell
 * and row deletions, map elements, many-row partitions, rows emptied. */
static void table_bytes_are_the_partitions_bytes_after_any_writes(void **state)
{
    test_fixture_t *f = *state;
    static const char *const values[] = {"", "a", "bbbb", "cccccccccccccccc", NULL};
    uint32_t seed = 12345;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        int k = (int)((seed >> 8) % 300);
        const char *ck = (seed >> 20) % 7 == 0 ? ((seed >> 24) % 2 ? "x" : "y") : NULL;
        const char *v = values[(seed >> 4) % 5];
        int64_t ts = (int64_t)((seed >> 12) % 50);
        test_key_t key = test_key(k);
        storage_mutation_t m = test_mut(&key, ck);
        storage_cell_t c[2] = {test_cell(1 + (seed >> 16) % 2, v, ts),
                               test_elem(3, (seed >> 10) % 2 ? "p" : "q", "e", ts)};
        m.cells = c;
        m.n_cells = (seed >> 14) % 3 == 0 ? 2 : 1;
        m.row_marker = (seed >> 18) % 2 == 0;
        m.marker_ts = ts;
        if ((seed >> 22) % 41 == 0) { /* a row deletion */
            m.cells = NULL;
            m.n_cells = 0;
            m.row_marker = false;
            m.delete_row = true;
            m.delete_ts = ts;
        }
        storage_write_stats_t st;
        assert_int_equal(storage_apply(f->t, &m, 0, &st), BASE_OK);
        const storage_partition_t *p = test_part(f->t, k);
        if (p != NULL && storage_partition_bytes(p) > 0) {
            assert_int_equal(st.partition_bytes, storage_partition_bytes(p));
        }
    }
    size_t sum = 0;
    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    const storage_partition_t *p;
    while ((p = storage_part_iter_next(it)) != NULL) {
        sum += storage_partition_bytes(p);
    }
    storage_part_iter_free(it);
    assert_int_equal(storage_table_bytes(f->t), sum);
}


static void expired_row_does_not_count_as_existing(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_cell_t c = test_cell(1, "x", 10);
    c.expires_us = 1000;
    c.ttl = 1;
    m.cells = &c;
    m.n_cells = 1;
    storage_write_stats_t st;
    storage_apply(f->t, &m, 0, &st);
    c.ts = 11;
    storage_apply(f->t, &m, 500, &st);
    assert_true(st.row_existed);
    c.ts = 12;
    storage_apply(f->t, &m, 1000, &st);
    assert_false(st.row_existed);
}


static void stored_bytes_are_copies_of_the_callers_buffers(void **state)
{
    test_fixture_t *f = *state;
    uint8_t pk[2] = {'p', 'k'};
    uint8_t ck[2] = {'c', 'k'};
    uint8_t path[2] = {'k', '1'};
    uint8_t value[3] = {'v', 'a', 'l'};
    storage_mutation_t m = {0};
    m.pk = pk;
    m.pk_len = 2;
    m.token = storage_token(pk, 2);
    m.ck = ck;
    m.ck_len = 2;
    storage_cell_t c = {
        .col = 1, .path = path, .path_len = 2, .value = value, .value_len = 3, .ts = 1};
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    memset(pk, 0, 2);
    memset(ck, 0, 2);
    memset(path, 0, 2);
    memset(value, 0, 3);

    storage_partition_t *p = storage_partition_get(f->t, storage_token((const uint8_t *)"pk", 2),
                                                   (const uint8_t *)"pk", 2);
    assert_non_null(p);
    size_t len;
    assert_memory_equal(storage_partition_key(p, &len), "pk", 2);
    storage_row_iter_t *it = storage_row_iter_new(p, NULL, NULL, false, 0);
    storage_row_view_t v;
    assert_true(storage_row_iter_next(it, &v));
    assert_memory_equal(v.ck, "ck", 2);
    assert_int_equal(v.n_cells, 1);
    assert_memory_equal(v.cells[0].path, "k1", 2);
    assert_memory_equal(v.cells[0].value, "val", 3);
    storage_row_iter_free(it);
}


static void empty_values_are_live_and_distinct_from_tombstones(void **state)
{
    test_fixture_t *f = *state;
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_cell_t c = {.col = 1, .ts = 1};
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(f->t, &m, 0, NULL);
    char buf[8];
    assert_string_equal(test_get(f->t, 1, NULL, 1, 0, buf, sizeof(buf)), "");
}


static void truncate_removes_everything_and_table_stays_usable(void **state)
{
    test_fixture_t *f = *state;
    for (int i = 0; i < 100; i++) {
        test_insert(f->t, i, "a", 1, "x", 1);
    }
    assert_int_equal(storage_table_partition_count(f->t), 100);
    storage_table_truncate(f->t);
    assert_int_equal(storage_table_partition_count(f->t), 0);
    assert_int_equal(storage_table_bytes(f->t), 0);
    assert_null(test_part(f->t, 5));
    /* Truncate forgets tombstones too: an old write is accepted again. */
    test_insert(f->t, 5, "a", 1, "again", 1);
    assert_non_null(test_part(f->t, 5));
}


static void dropped_tables_free_their_data_and_others_survive(void **state)
{
    test_fixture_t *f = *state;
    storage_table_t *t2 = storage_table_create(f->db, 8);
    storage_table_t *t3 = storage_table_create(f->db, 9);
    test_insert(t2, 1, "a", 1, "x", 1);
    test_insert(t3, 1, "a", 1, "y", 1);
    storage_table_drop(f->db, t2);
    char buf[8];
    assert_string_equal(test_get(t3, 1, "a", 1, 0, buf, sizeof(buf)), "y");
    assert_null(test_part(f->t, 1));
    storage_table_drop(f->db, f->t);
    f->t = NULL;
}


static void partitions_iterate_in_token_order_and_resume(void **state)
{
    test_fixture_t *f = *state;
    for (int i = 0; i < 500; i++) {
        test_put(f->t, i, NULL, 1, "x", 1);
    }
    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    storage_partition_t *p;
    storage_partition_t *mid = NULL;
    int64_t last = INT64_MIN;
    size_t n = 0;
    while ((p = storage_part_iter_next(it)) != NULL) {
        assert_true(storage_partition_token(p) >= last);
        last = storage_partition_token(p);
        if (++n == 200) {
            mid = p;
        }
    }
    storage_part_iter_free(it);
    assert_int_equal(n, 500);

    size_t len;
    const uint8_t *pk = storage_partition_key(mid, &len);
    it = storage_part_iter_new(f->t, true, storage_partition_token(mid), pk, len);
    n = 0;
    while ((p = storage_part_iter_next(it)) != NULL) {
        assert_true(storage_partition_token(p) > storage_partition_token(mid));
        n++;
    }
    storage_part_iter_free(it);
    assert_int_equal(n, 300);
}


static void put_with_token(storage_table_t *t, int64_t token, const char *pk)
{
    storage_mutation_t m = {0};
    m.pk = (const uint8_t *)pk;
    m.pk_len = strlen(pk);
    m.token = token;
    storage_cell_t c = test_cell(1, "x", 1);
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(t, &m, 0, NULL);
}


static const char *scan_keys(storage_table_t *t, bool has_token, int64_t token, const char *pk,
                             char *buf)
{
    storage_part_iter_t *it = storage_part_iter_new(t, has_token, token, (const uint8_t *)pk,
                                                    pk != NULL ? strlen(pk) : 0);
    storage_partition_t *p;
    size_t n = 0;
    while ((p = storage_part_iter_next(it)) != NULL) {
        size_t len;
        const uint8_t *k = storage_partition_key(p, &len);
        memcpy(buf + n, k, len);
        n += len;
    }
    buf[n] = '\0';
    storage_part_iter_free(it);
    return buf;
}


static void equal_tokens_order_by_key_and_resume_points_are_exclusive(void **state)
{
    test_fixture_t *f = *state;
    char buf[64];
    put_with_token(f->t, 5, "c");
    put_with_token(f->t, 5, "a");
    put_with_token(f->t, 5, "b");
    put_with_token(f->t, INT64_MIN, "m");
    put_with_token(f->t, INT64_MAX, "z");
    put_with_token(f->t, -3, "x");

    assert_string_equal(scan_keys(f->t, false, 0, NULL, buf), "mxabcz");
    assert_string_equal(scan_keys(f->t, true, 5, "a", buf), "bcz");
    assert_string_equal(scan_keys(f->t, false, 5, "b", buf), "cz");
    assert_string_equal(scan_keys(f->t, true, 5, "aa", buf), "bcz");
    assert_string_equal(scan_keys(f->t, true, 5, NULL, buf), "z");
    assert_string_equal(scan_keys(f->t, true, 4, NULL, buf), "abcz");
    assert_string_equal(scan_keys(f->t, true, INT64_MIN, NULL, buf), "xabcz");
    assert_string_equal(scan_keys(f->t, true, INT64_MAX, NULL, buf), "");
    assert_string_equal(scan_keys(f->t, true, INT64_MAX, "z", buf), "");
}


/* The index compares the top 32 bits of a token before reading a partition:
 * keys that share them, or a whole token, are still told apart exactly. */
static void keys_sharing_token_bits_are_distinct_partitions(void **state)
{
    test_fixture_t *f = *state;
    const int64_t near[] = {INT64_C(0x100000001), INT64_C(0x100000002), INT64_C(0x1ffffffff)};
    const char *keys[] = {"a", "ab", "b", ""};
    for (int round = 0; round < 2; round++) { /* the second round overwrites */
        for (size_t i = 0; i < 3; i++) {
            for (size_t k = 0; k < 4; k++) {
                put_with_token(f->t, near[i], keys[k]);
            }
        }
        assert_int_equal(storage_table_partition_count(f->t), 12);
    }
    for (size_t i = 0; i < 3; i++) {
        for (size_t k = 0; k < 4; k++) {
            size_t len = strlen(keys[k]);
            storage_partition_t *p =
                storage_partition_get(f->t, near[i], (const uint8_t *)keys[k], len);
            assert_non_null(p);
            assert_int_equal(storage_partition_token(p), near[i]);
            size_t got;
            const uint8_t *pk = storage_partition_key(p, &got);
            assert_int_equal(got, len);
            assert_memory_equal(pk, keys[k], len);
        }
        assert_null(storage_partition_get(f->t, near[i], (const uint8_t *)"c", 1));
        assert_null(storage_partition_get(f->t, near[i] + 3, (const uint8_t *)"a", 1));
    }
}


static void partition_cursor_sees_partitions_added_after_its_position(void **state)
{
    test_fixture_t *f = *state;
    put_with_token(f->t, 1, "a");
    put_with_token(f->t, 5, "e");
    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    storage_partition_t *p = storage_part_iter_next(it);
    assert_int_equal(storage_partition_token(p), 1);
    put_with_token(f->t, 3, "c");
    put_with_token(f->t, 0, "z");
    /* Deleting rows elsewhere does not end a partition cursor. */
    test_key_t key = test_key(1);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_partition = true;
    m.delete_ts = 100;
    storage_apply(f->t, &m, 0, NULL);
    p = storage_part_iter_next(it);
    assert_int_equal(storage_partition_token(p), 3);
    p = storage_part_iter_next(it);
    assert_int_equal(storage_partition_token(p), 5);
    assert_null(storage_part_iter_next(it));
    storage_part_iter_free(it);
}


static void many_partitions_are_all_found_again(void **state)
{
    test_fixture_t *f = *state;
    char buf[16];
    char want[16];
    for (int i = 0; i < 20000; i++) {
        snprintf(want, sizeof(want), "%d", i);
        test_put(f->t, i, NULL, 1, want, 1);
    }
    assert_int_equal(storage_table_partition_count(f->t), 20000);
    for (int i = 0; i < 20000; i += 7) {
        snprintf(want, sizeof(want), "%d", i);
        assert_string_equal(test_get(f->t, i, NULL, 1, 0, buf, sizeof(buf)), want);
    }
    assert_null(test_part(f->t, 20000));
}


static size_t count_from(storage_table_t *t, int64_t token, const char *pk)
{
    storage_part_iter_t *it =
        storage_part_iter_new(t, true, token, (const uint8_t *)pk, pk != NULL ? strlen(pk) : 0);
    size_t n = 0;
    while (storage_part_iter_next(it) != NULL) {
        n++;
    }
    storage_part_iter_free(it);
    return n;
}


/* The index's searches (branch-free, ptree.c) on a tree three levels deep whose
 * tokens repeat across leaves and inner separators, the ends of the ring among them:
 * every partition is found by its key, and a resume after a token, or after a key
 * of it, finds exactly the partitions after it. */
static void deep_tree_searches_with_repeated_tokens(void **state)
{
    test_fixture_t *f = *state;
    enum { N = 24000, TOKENS = 12 };
    const int64_t tokens[TOKENS] = {INT64_MIN,        INT64_MIN + 1, -1000000, -7, -1, 0, 1, 5, 99,
                                    INT64_C(1) << 40, INT64_MAX - 1, INT64_MAX};
    char key[16];
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof(key), "%05d", i);
        put_with_token(f->t, tokens[i % TOKENS], key);
    }
    assert_int_equal(storage_table_partition_count(f->t), N);
    for (int i = 0; i < N; i += 37) {
        snprintf(key, sizeof(key), "%05d", i);
        assert_non_null(storage_partition_get(f->t, tokens[i % TOKENS], (const uint8_t *)key, 5));
        assert_null(storage_partition_get(f->t, tokens[(i + 1) % TOKENS], (const uint8_t *)key, 5));
    }
    const size_t per = N / TOKENS;
    for (size_t j = 0; j < TOKENS; j++) {
        assert_int_equal(count_from(f->t, tokens[j], NULL), (TOKENS - 1 - j) * per);
        /* the keys of token j are i = j, j + TOKENS, ...: after the tenth of them */
        snprintf(key, sizeof(key), "%05zu", j + 9 * TOKENS);
        assert_int_equal(count_from(f->t, tokens[j], key), (TOKENS - 1 - j) * per + per - 10);
    }
    assert_int_equal(count_from(f->t, 2, NULL), 5 * per); /* between tokens: 5 and up */
}


static void prefetch_key(storage_table_t *t, int32_t k)
{
    test_key_t key = test_key(k);
    storage_hint_t h;
    storage_prefetch_index(t, key.token, &h);
    storage_prefetch_partition(t, key.token, &h);
}


/* A lookup after the lookahead takes the partition it found (storage_partition_get),
 * but only its own key's and only while the table is unchanged: after an overwrite
 * moved it, a truncate freed it (ASan watches), or for another key of the same
 * slot or the same token, it searches. */
static void lookups_after_a_prefetch_find_their_own_partition(void **state)
{
    test_fixture_t *f = *state;
    char buf[16];
    for (int i = 0; i < 100; i++) {
        snprintf(buf, sizeof(buf), "v%d", i);
        test_put(f->t, i, NULL, 1, buf, 1);
    }
    for (int i = 0; i < 100; i++) {
        prefetch_key(f->t, i);
    }
    for (int i = 99; i >= 0; i--) { /* slots hold the last of the keys that share them */
        snprintf(buf, sizeof(buf), "v%d", i);
        char got[16];
        assert_string_equal(test_get(f->t, i, NULL, 1, 0, got, sizeof(got)), buf);
    }
    prefetch_key(f->t, 5);
    test_put(f->t, 5, NULL, 1, "new five", 2); /* moves the partition */
    assert_string_equal(test_get(f->t, 5, NULL, 1, 0, buf, sizeof(buf)), "new five");
    prefetch_key(f->t, 100); /* absent: a neighbour is found, and not taken */
    assert_null(test_part(f->t, 100));
    put_with_token(f->t, 77, "a");
    put_with_token(f->t, 77, "b");
    storage_hint_t h;
    storage_prefetch_index(f->t, 77, &h);
    storage_prefetch_partition(f->t, 77, &h); /* finds "a", the token's first */
    storage_partition_t *p = storage_partition_get(f->t, 77, (const uint8_t *)"b", 1);
    size_t len;
    assert_non_null(p);
    assert_memory_equal(storage_partition_key(p, &len), "b", 1);
    prefetch_key(f->t, 7);
    storage_table_truncate(f->t);
    assert_null(test_part(f->t, 7));
}


/* Writes after the lookahead take the index slots it found (storage__apply):
 * a batch's overwrites, each moving its partition (a longer value), put the
 * new partition back in its slot, so the slots found for the rest of the
 * batch still hold; a new partition added midway shifts entries in their
 * leaves (and splits some), so slots found before it are not used after it.
 * Every key reads back its last value, and the index still holds all of
 * them in token order. */
static void writes_after_a_prefetch_use_and_keep_the_slots_found(void **state)
{
    test_fixture_t *f = *state;
    char buf[32];
    for (int i = 0; i < 2000; i += 2) { /* even keys exist, odd ones come midway */
        test_put(f->t, i, NULL, 1, "v", 1);
    }
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 2000; i++) {
            prefetch_key(f->t, i);
        }
        for (int i = 0; i < 2000; i += 2) {
            snprintf(buf, sizeof(buf), "round %d of key %d", round, i);
            test_put(f->t, i, NULL, 1, buf, 2 + round);
            if (round == 1 && i % 500 == 0) {
                test_put(f->t, i + 1, NULL, 1, "new", 2 + round);
            }
        }
    }
    for (int i = 0; i < 2000; i++) {
        char got[32];
        snprintf(buf, sizeof(buf), "round 2 of key %d", i);
        const char *want = i % 2 == 0 ? buf : i % 500 == 1 ? "new" : NULL;
        const char *have = test_get(f->t, i, NULL, 1, 0, got, sizeof(got));
        if (want == NULL) {
            assert_null(have);
        } else {
            assert_non_null(have);
            assert_string_equal(have, want);
        }
    }
    assert_int_equal(storage_table_partition_count(f->t), 1000 + 4);
    int64_t last = INT64_MIN;
    size_t n = 0;
    storage_part_iter_t *it = storage_part_iter_new(f->t, false, 0, NULL, 0);
    for (storage_partition_t *p; (p = storage_part_iter_next(it)) != NULL; n++) {
        assert_true(storage_partition_token(p) >= last);
        last = storage_partition_token(p);
    }
    storage_part_iter_free(it);
    assert_int_equal(n, 1000 + 4);
}


/* The three steps with the hint carried, then the later ones alone from a
 * zeroed hint (steps may be skipped). */
static void prefetch_all(storage_table_t *t, int64_t token)
{
    storage_hint_t h;
    storage_prefetch_index(t, token, &h);
    storage_prefetch_partition(t, token, &h);
    storage_prefetch_row(token, &h);
    storage_hint_t zero = {0};
    storage_prefetch_row(token, &zero);
    storage_prefetch_partition(t, token, &zero);
    storage_prefetch_row(token, &zero);
}


/* Prefetching reads only what the index holds (ASan watches) and changes
 * nothing: an empty table, the ends of the ring, keys present and absent, rows
 * of one-row and many-row partitions. */
static void prefetch_changes_nothing(void **state)
{
    test_fixture_t *f = *state;
    const int64_t edges[] = {INT64_MIN, -1, 0, 1, INT64_MAX};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        prefetch_all(f->t, edges[i]);
    }
    char key[16];
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof(key), "%d", i);
        test_put(f->t, i, NULL, 1, key, 1);
    }
    static char big[5000]; /* a row past the 4 KB a prefetch asks for */
    memset(big, 'v', sizeof(big) - 1);
    test_put(f->t, 10, NULL, 2, big, 2);
    for (int i = 0; i < 100; i += 3) { /* partitions of several rows */
        test_put(f->t, i, "a", 1, "x", 3);
        test_put(f->t, i, "b", 1, "y", 3);
    }
    size_t count_before = storage_table_partition_count(f->t);
    for (int i = 0; i < 6000; i++) { /* the last thousand are absent */
        int64_t token = test_key(i).token;
        prefetch_all(f->t, token);
    }
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        prefetch_all(f->t, edges[i]);
    }
    assert_int_equal(storage_table_partition_count(f->t), count_before);
    char buf[16];
    assert_string_equal(test_get(f->t, 4999, NULL, 1, 0, buf, sizeof(buf)), "4999");
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, test_teardown)
    const struct CMUnitTest tests[] = {
        T(insert_then_read_returns_the_value),
        T(newer_write_wins_and_older_write_is_ignored),
        T(cell_deletion_shadows_older_writes_but_not_newer),
        T(update_without_marker_dies_with_its_last_cell),
        T(write_stats_report_bytes_existence_and_partition_size),
        T(table_bytes_are_the_partitions_bytes_after_any_writes),
        T(expired_row_does_not_count_as_existing),
        T(stored_bytes_are_copies_of_the_callers_buffers),
        T(empty_values_are_live_and_distinct_from_tombstones),
        T(truncate_removes_everything_and_table_stays_usable),
        T(dropped_tables_free_their_data_and_others_survive),
        T(partitions_iterate_in_token_order_and_resume),
        T(equal_tokens_order_by_key_and_resume_points_are_exclusive),
        T(keys_sharing_token_bits_are_distinct_partitions),
        T(partition_cursor_sees_partitions_added_after_its_position),
        T(many_partitions_are_all_found_again),
        T(deep_tree_searches_with_repeated_tokens),
        T(prefetch_changes_nothing),
        T(lookups_after_a_prefetch_find_their_own_partition),
        T(writes_after_a_prefetch_use_and_keep_the_slots_found),
    };
#undef T
    return cmocka_run_group_tests_name("storage/table", tests, NULL, NULL);
}
