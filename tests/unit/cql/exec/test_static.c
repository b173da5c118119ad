/*
 * Static columns: one value per partition, shown on every row of it; a
 * static-only write needs only the partition key; a partition holding only
 * static data reads as one row with null clustering columns; and a static
 * column is refused in a table without clustering columns.
 */
#include "engine_test.h"


static void a_static_column_is_shared_by_the_partition(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, s int static, v int, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.t (k, c, s, v) VALUES (1, 1, 10, 100)");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 2, 200)");
    ok(f, "UPDATE ks.t SET s = 11 WHERE k = 1");
    ok(f, "SELECT c, s, v FROM ks.t WHERE k = 1");
    assert_int_equal(f->r.n_rows, 2);
    assert_int_equal(cell_int(f, 0, 1), 11);
    assert_int_equal(cell_int(f, 1, 1), 11);
    assert_int_equal(cell_int(f, 1, 2), 200);
}


static void a_static_only_partition_reads_as_one_row(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, s int static, v int, PRIMARY KEY (k, c))");
    ok(f, "UPDATE ks.t SET s = 7 WHERE k = 2");
    ok(f, "SELECT k, c, s, v FROM ks.t WHERE k = 2");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 2);
    assert_true(f->r.cells[1].len < 0); /* c is null */
    assert_int_equal(cell_int(f, 0, 2), 7);
    assert_true(f->r.cells[3].len < 0);
    /* a clustering restriction matches no static-only row */
    ok(f, "SELECT k FROM ks.t WHERE k = 2 AND c = 1");
    assert_int_equal(f->r.n_rows, 0);
    ok(f, "DELETE FROM ks.t WHERE k = 2");
    ok(f, "SELECT s FROM ks.t WHERE k = 2");
    assert_int_equal(f->r.n_rows, 0);
}


static void static_columns_need_clustering_columns(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    assert_int_equal(run(f, "CREATE TABLE ks.t (k int PRIMARY KEY, s int static)"), BASE_ERROR);
    assert_string_equal(f->err.msg, "Static columns are only useful (and thus allowed) if the "
                                    "table has at least one clustering column");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_static_column_is_shared_by_the_partition, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_static_only_partition_reads_as_one_row, setup, teardown),
        cmocka_unit_test_setup_teardown(static_columns_need_clustering_columns, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/static", tests, NULL, NULL);
}
