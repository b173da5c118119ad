/*
 * Aggregates and selectors: count, sum, max per GROUP BY group and LIMIT
 * over groups, CAST, exact integer sums past 2^53, exact decimal and varint
 * sums and averages, and the aggregates the service refuses.
 */
#include "engine_test.h"


static void group_by_aggregates_per_partition(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.g (k int, c int, v int, PRIMARY KEY (k, c))");
    char q[96];
    for (int i = 0; i < 9; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.g (k, c, v) VALUES (%d, %d, %d)", i % 3, i, i);
        ok(f, q);
    }
    ok(f, "SELECT k, count(*), sum(v), max(v) FROM ks.g GROUP BY k");
    assert_int_equal(f->r.n_rows, 3);
    ok(f, "SELECT k, count(*) FROM ks.g GROUP BY k LIMIT 2");
    assert_int_equal(f->r.n_rows, 2);
    ok(f, "SELECT k, sum(v) FROM ks.g WHERE k = 1 GROUP BY k");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 1), 1 + 4 + 7);
    ok(f, "SELECT CAST(v AS text), CAST(v AS bigint), CAST(v AS double) FROM ks.g WHERE k = 1 "
          "AND c = 4");
    assert_int_equal(f->r.n_rows, 1);
    assert_string_equal(f->r.cols[0].name, "cast(v as text)");
    assert_memory_equal(f->r.cells[0].ptr, "4", 1);
    assert_int_equal((int64_t)base_load_u64(f->r.cells[1].ptr), 4);
    assert_int_equal(f->r.cells[2].len, 8);
    assert_int_equal(run(f, "SELECT CAST(v AS list<int>) FROM ks.g"), BASE_ERROR);
    /* integer sums stay exact past 2^53 */
    ok(f, "CREATE TABLE ks.big (k int, c int, n bigint, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.big (k, c, n) VALUES (1, 1, 9007199254740993)");
    ok(f, "INSERT INTO ks.big (k, c, n) VALUES (1, 2, 2)");
    ok(f, "SELECT sum(n) FROM ks.big WHERE k = 1");
    assert_int_equal((int64_t)base_load_u64(f->r.cells[0].ptr), 9007199254740995LL);
    assert_int_equal(run(f, "SELECT count(*) FROM ks.g GROUP BY c"), BASE_ERROR);
    /* the service's refusals (cosmos profile) */
    assert_int_equal(run(f, "SELECT DISTINCT k FROM ks.g"), BASE_ERROR);
    assert_int_equal(run(f, "SELECT min(c) FROM ks.g WHERE k = 1"), BASE_ERROR);
}


/* sum and avg over decimal and varint are exact, of the argument's type (AggregateFcts). */
static void decimal_and_varint_sums(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.n (k int, c int, d decimal, v varint, PRIMARY KEY (k, c))");
    ok(f, "SELECT sum(d), avg(d), sum(v), avg(v) FROM ks.n");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.cols[0].type->id, WIRE_TYPE_DECIMAL);
    assert_int_equal(f->r.cols[3].type->id, WIRE_TYPE_VARINT);
    assert_int_equal(f->r.cells[0].len, 5); /* 0: scale 0, unscaled 0x00 */
    assert_int_equal(f->r.cells[2].len, 1);
    assert_int_equal(f->r.cells[2].ptr[0], 0);
    ok(f, "INSERT INTO ks.n (k, c, d, v) VALUES (1, 1, 11.5, 18446744073709551615)");
    ok(f, "INSERT INTO ks.n (k, c, d, v) VALUES (1, 2, 1.5, 18446744073709551615)");
    ok(f, "INSERT INTO ks.n (k, c, d, v) VALUES (1, 3, 2.0, -1)");
    ok(f, "SELECT sum(d), avg(d), sum(v), avg(v) FROM ks.n");
    /* sum(d) = 15.0 (scale 1, 150), avg(d) = 5.0 (scale 1, 50) */
    static const uint8_t sum_d[] = {0, 0, 0, 1, 150 >> 8, 150 & 0xff}, avg_d[] = {0, 0, 0, 1, 50};
    assert_int_equal(f->r.cells[0].len, sizeof(sum_d));
    assert_memory_equal(f->r.cells[0].ptr, sum_d, sizeof(sum_d));
    assert_int_equal(f->r.cells[1].len, sizeof(avg_d));
    assert_memory_equal(f->r.cells[1].ptr, avg_d, sizeof(avg_d));
    /* sum(v) = 2^65 - 3 (9 bytes), avg(v) = (2^65 - 3) / 3 = 0x00aaaaaaaaaaaaaaa9 */
    static const uint8_t sum_v[] = {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd};
    static const uint8_t avg_v[] = {0x00, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xa9};
    assert_int_equal(f->r.cells[2].len, sizeof(sum_v));
    assert_memory_equal(f->r.cells[2].ptr, sum_v, sizeof(sum_v));
    assert_int_equal(f->r.cells[3].len, sizeof(avg_v));
    assert_memory_equal(f->r.cells[3].ptr, avg_v, sizeof(avg_v));
    /* an average whose sum leaves int64 is still exact (AvgAggregate's BigInteger) */
    ok(f, "CREATE TABLE ks.b (k int, c int, n bigint, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.b (k, c, n) VALUES (1, 1, 9223372036854775807)");
    ok(f, "INSERT INTO ks.b (k, c, n) VALUES (1, 2, 9223372036854775805)");
    ok(f, "SELECT avg(n), sum(n) FROM ks.b");
    assert_int_equal((int64_t)base_load_u64(f->r.cells[0].ptr), 9223372036854775806LL);
    assert_int_equal((int64_t)base_load_u64(f->r.cells[1].ptr), -4); /* a sum wraps */
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(group_by_aggregates_per_partition, setup, teardown),
        cmocka_unit_test_setup_teardown(decimal_and_varint_sums, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/aggregates", tests, NULL, NULL);
}
