/*
 * Tables through the engine: CREATE KEYSPACE, USE and CREATE TABLE answer
 * with their results and schema events, rows read back in the declared
 * clustering order (and reversed by ORDER BY), and a refused definition
 * leaves no table behind.
 */
#include "engine_test.h"


static void creates_table_and_reads_newest_first(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "USE ks");
    assert_int_equal(f->r.kind, WIRE_RESULT_SET_KEYSPACE);
    ok(f, "CREATE TABLE events (user_id int, ts int, v text, PRIMARY KEY (user_id, ts)) WITH "
          "CLUSTERING ORDER BY (ts DESC)");
    assert_int_equal(f->r.kind, WIRE_RESULT_SCHEMA_CHANGE);
    assert_int_equal(f->n_events, 2);
    char q[128];
    for (int i = 0; i < 20; i++) {
        snprintf(q, sizeof(q), "INSERT INTO events (user_id, ts, v) VALUES (1, %d, 'e%d')", i, i);
        ok(f, q);
    }
    ok(f, "INSERT INTO events (user_id, ts, v) VALUES (2, 5, 'other')");
    ok(f, "SELECT ts, v FROM events WHERE user_id = 1 LIMIT 5");
    assert_int_equal(f->r.kind, WIRE_RESULT_ROWS);
    assert_int_equal(f->r.n_rows, 5);
    assert_int_equal(cell_int(f, 0, 0), 19);
    assert_int_equal(cell_int(f, 4, 0), 15);
    ok(f, "SELECT ts FROM events WHERE user_id = 1 AND ts >= 3 AND ts < 7 ORDER BY ts ASC");
    assert_int_equal(f->r.n_rows, 4);
    assert_int_equal(cell_int(f, 0, 0), 3);
    assert_int_equal(cell_int(f, 3, 0), 6);
    ok(f, "SELECT count(*) FROM events");
    assert_int_equal(f->r.n_rows, 1);
}


static void refuses_unknown_primary_key_column_and_creates_nothing(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    assert_int_equal(run(f, "CREATE TABLE ks.bad (a int, b int, PRIMARY KEY (a, nope))"),
                     BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_string_equal(f->err.msg, "Unknown definition nope referenced in PRIMARY KEY");
    assert_int_equal(run(f, "SELECT * FROM ks.bad"), BASE_ERROR);
    assert_string_equal(f->err.msg, "unconfigured table bad");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(creates_table_and_reads_newest_first, setup, teardown),
        cmocka_unit_test_setup_teardown(refuses_unknown_primary_key_column_and_creates_nothing,
                                        setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/tables", tests, NULL, NULL);
}
