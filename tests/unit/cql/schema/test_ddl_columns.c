/*
 * Tests of ALTER TABLE DROP and re-ADD (cql/schema/ddl.c): DROP deletes the
 * column's cells written at or before its timestamp (USING TIMESTAMP, else the
 * statement's), a compatible re-ADD shows the later ones again, an incompatible
 * collection is refused, a row left with only a dropped column's cells is gone,
 * and system_schema.dropped_columns lists the dropped columns until DROP TABLE.
 */
#include "tests/unit/cql/exec/engine_test.h"


static void refused(fixture_t *f, const char *q, const char *words)
{
    assert_int_equal(run(f, q), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    if (strstr(f->err.msg, words) == NULL) {
        fail_msg("%s -> %s (wanted \"%s\")", q, f->err.msg, words);
    }
}


static bool is_null(const fixture_t *f, size_t row, size_t col)
{
    return f->r.cells[row * f->r.n_cols + col].len < 0;
}


static void drop_using_timestamp_keeps_the_later_cells(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (id int, c int, v int, x int, s int static, PRIMARY KEY (id, c))");
    char q[200];
    for (int i = 0; i < 5; i++) {
        snprintf(q, sizeof(q),
                 "INSERT INTO ks.t (id, c, v, x, s) VALUES (1, %d, %d, %d, %d) USING TIMESTAMP %d",
                 i, i, i, i, 10000 * i);
        ok(f, q);
    }
    ok(f, "ALTER TABLE ks.t DROP (x, s) USING TIMESTAMP 20000");
    ok(f, "SELECT column_name FROM system_schema.dropped_columns WHERE keyspace_name = 'ks'");
    assert_int_equal(f->r.n_rows, 2);
    ok(f, "ALTER TABLE ks.t ADD x int");
    ok(f, "ALTER TABLE ks.t ADD s int static");
    ok(f, "SELECT c, x, s FROM ks.t WHERE id = 1");
    assert_int_equal(f->r.n_rows, 5);
    for (size_t r = 0; r < 5; r++) {
        if (r < 3) {
            assert_true(is_null(f, r, 1));
        } else {
            assert_int_equal(cell_int(f, r, 1), (int32_t)r);
        }
        assert_int_equal(cell_int(f, r, 2), 4); /* the static cell written at 40000 */
    }
    ok(f, "DROP TABLE ks.t");
    ok(f, "SELECT column_name FROM system_schema.dropped_columns WHERE keyspace_name = 'ks'");
    assert_int_equal(f->r.n_rows, 0);
}


static void readd_checks_collections_and_kind(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, l list<text>, v int, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.t (k, c, l) VALUES (0, 0, ['a'])");
    ok(f, "ALTER TABLE ks.t DROP l");
    refused(f, "ALTER TABLE ks.t ADD l map<int, int>",
            "Cannot re-add previously dropped column 'l' of type map<int, int>, incompatible with "
            "previous type list<text>");
    refused(f, "ALTER TABLE ks.t ADD l list<text> static", "of kind STATIC");
    ok(f, "ALTER TABLE ks.t ADD l list<text>");
    ok(f, "SELECT l FROM ks.t");
    assert_int_equal(f->r.n_rows, 1);
    assert_true(is_null(f, 0, 0)); /* written before the drop: deleted with it */
    ok(f, "CREATE INDEX ON ks.t (v)");
    refused(f, "ALTER TABLE ks.t DROP v", "because it has dependent secondary indexes (t_v_idx)");
}


static void a_row_with_only_a_dropped_cell_is_gone(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, x int, y int)");
    ok(f, "UPDATE ks.t SET x = 1 WHERE k = 0");
    ok(f, "ALTER TABLE ks.t DROP x");
    ok(f, "SELECT * FROM ks.t");
    assert_int_equal(f->r.n_rows, 0);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(drop_using_timestamp_keeps_the_later_cells, setup_cassandra,
                                        teardown),
        cmocka_unit_test_setup_teardown(readd_checks_collections_and_kind, setup_cassandra,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_row_with_only_a_dropped_cell_is_gone, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
