/*
 * GROUP BY (cassandra profile, where aggregates over clustering columns are
 * allowed): which column lists Cassandra accepts and its refusals, PER
 * PARTITION LIMIT counting groups, and ORDER BY over an IN of partitions
 * sorting the groups before LIMIT; ORDER BY over an IN compares only the
 * columns it names, ties keeping the partitions' order.
 */
#include "engine_test.h"


/* SelectGroupByTest's table: partition a, clustering b, c, d. */
static void fill(fixture_t *f)
{
    static const int rows[][5] = {{1, 2, 1, 3, 6},  {1, 2, 2, 6, 12}, {1, 4, 2, 12, 24},
                                  {1, 4, 2, 6, 12}, {2, 2, 3, 3, 6},  {2, 4, 3, 6, 12},
                                  {4, 8, 2, 12, 24}};
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (a int, b int, c int, d int, e int, PRIMARY KEY (a, b, c, d))");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char q[128];
        snprintf(q, sizeof(q), "INSERT INTO ks.t (a, b, c, d, e) VALUES (%d, %d, %d, %d, %d)",
                 rows[i][0], rows[i][1], rows[i][2], rows[i][3], rows[i][4]);
        ok(f, q);
    }
}


/* Fails unless the last result's int column col is exactly want (n rows). */
static void assert_column(const fixture_t *f, size_t col, const int *want, size_t n)
{
    assert_int_equal(f->r.n_rows, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(cell_int(f, i, col), want[i]);
    }
}


/* The same for a bigint column (count). */
static void assert_counts(const fixture_t *f, size_t col, const int *want, size_t n)
{
    assert_int_equal(f->r.n_rows, n);
    for (size_t i = 0; i < n; i++) {
        const wire_value_t *v = &f->r.cells[i * f->r.n_cols + col];
        assert_int_equal(v->len, 8);
        assert_int_equal((int64_t)base_load_u64(v->ptr), want[i]);
    }
}


static void refuse(fixture_t *f, const char *q, const char *msg)
{
    assert_int_equal(run(f, q), BASE_ERROR);
    assert_string_equal(f->err.msg, msg);
}


static void group_by_columns(void **state)
{
    fixture_t *f = *state;
    fill(f);
    /* a column fixed by = may be left out */
    ok(f, "SELECT a, b, e, count(b), max(e) FROM ks.t WHERE a = 1 GROUP BY b, c");
    assert_column(f, 4, (const int[]){6, 12, 24}, 3);
    ok(f, "SELECT a, b, e, max(e) FROM ks.t WHERE a = 1 AND b = 4 GROUP BY c");
    assert_column(f, 3, (const int[]){24}, 1);
    refuse(f, "SELECT a, max(e) FROM ks.t WHERE a = 1 GROUP BY a, e",
           "Group by is currently only supported on the columns of the PRIMARY KEY, got e");
    refuse(f, "SELECT a, max(e) FROM ks.t WHERE token(a) = token(1) GROUP BY b",
           "Group by currently only support groups of columns following their declared order "
           "in the PRIMARY KEY");
    refuse(f, "SELECT a, max(e) FROM ks.t WHERE a = 1 GROUP BY a, a",
           "Group by currently only support groups of columns following their declared order "
           "in the PRIMARY KEY");
    refuse(f, "SELECT DISTINCT a, count(a) FROM ks.t GROUP BY a, b",
           "Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
    ok(f, "CREATE TABLE ks.p (a int, b int, c int, d int, PRIMARY KEY ((a, b), c))");
    refuse(f, "SELECT a, max(d) FROM ks.p GROUP BY a",
           "Group by is not supported on only a part of the partition key");
    ok(f, "SELECT a, max(d) FROM ks.p WHERE a = 1 AND b = 1 GROUP BY b");
}


static void per_partition_limit_counts_groups(void **state)
{
    fixture_t *f = *state;
    fill(f);
    ok(f, "SELECT a, b, e, count(b), max(e) FROM ks.t GROUP BY a, b PER PARTITION LIMIT 1");
    assert_column(f, 0, (const int[]){1, 2, 4}, 3);
    assert_counts(f, 3, (const int[]){2, 1, 1}, 3);
    ok(f, "SELECT a, b, c, d FROM ks.t GROUP BY a, b, c PER PARTITION LIMIT 2 LIMIT 4");
    assert_column(f, 2, (const int[]){1, 2, 3, 3}, 4);
    ok(f, "SELECT a, b, e FROM ks.t WHERE a = 1 GROUP BY a, b, c ORDER BY b DESC, c DESC "
          "PER PARTITION LIMIT 1");
    assert_column(f, 2, (const int[]){24}, 1);
}


static void order_by_over_in_sorts_groups(void **state)
{
    fixture_t *f = *state;
    fill(f);
    ok(f, "SELECT a, b, c, count(b), max(e) FROM ks.t WHERE a IN (1, 2, 4) GROUP BY a, b "
          "ORDER BY b DESC, c DESC");
    assert_column(f, 0, (const int[]){4, 2, 1, 2, 1}, 5);
    assert_counts(f, 3, (const int[]){1, 1, 2, 1, 2}, 5);
    ok(f, "SELECT a, b, c, d FROM ks.t WHERE a IN (1, 2, 4) GROUP BY a, b ORDER BY b DESC, c "
          "DESC LIMIT 3");
    assert_column(f, 0, (const int[]){4, 2, 1}, 3);
    /* a GROUP BY is paged internally: sorting after it cannot be paged */
    wire_query_params_t p = {
        .consistency = WIRE_CL_QUORUM, .page_size = 100, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f,
                                "SELECT a, max(e) FROM ks.t WHERE a IN (1, 2) GROUP BY a, b "
                                "ORDER BY b DESC",
                                &p),
                     BASE_ERROR);
}


static void order_by_over_in_ties_keep_partition_order(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.o (k int, c1 int, c2 int, PRIMARY KEY (k, c1, c2))");
    ok(f, "INSERT INTO ks.o (k, c1, c2) VALUES (1, 1, 5)");
    ok(f, "INSERT INTO ks.o (k, c1, c2) VALUES (2, 1, 3)");
    ok(f, "INSERT INTO ks.o (k, c1, c2) VALUES (2, 0, 9)");
    ok(f, "SELECT k, c1, c2 FROM ks.o WHERE k IN (1, 2) ORDER BY c1");
    assert_column(f, 0, (const int[]){2, 1, 2}, 3);
    assert_column(f, 2, (const int[]){9, 5, 3}, 3);
    ok(f, "SELECT k, c1, c2 FROM ks.o WHERE k IN (1, 2) ORDER BY c1 DESC");
    assert_column(f, 2, (const int[]){5, 3, 9}, 3);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(group_by_columns, setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(per_partition_limit_counts_groups, setup_cassandra,
                                        teardown),
        cmocka_unit_test_setup_teardown(order_by_over_in_sorts_groups, setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(order_by_over_in_ties_keep_partition_order, setup_cassandra,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/group_by", tests, NULL, NULL);
}
