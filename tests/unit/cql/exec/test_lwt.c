/*
 * Lightweight transactions (lwt.c): IF NOT EXISTS, IF EXISTS and IF
 * conditions answer with an [applied] row; when a condition does not hold
 * nothing is written and the row shows the stored values of what the
 * condition named (every column for IF NOT EXISTS), as Cassandra does.
 */
#include "engine_test.h"


static void insert_if_not_exists_applies_once(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'a') IF NOT EXISTS");
    assert_true(applied(f));
    assert_int_equal(f->r.n_cols, 1);
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'b') IF NOT EXISTS");
    assert_false(applied(f));
    assert_int_equal(f->r.n_cols, 4); /* [applied], k, c, v of the stored row */
    assert_string_equal(f->r.cols[3].name, "v");
    assert_memory_equal(f->r.cells[3].ptr, "a", 1);
    ok(f, "SELECT v FROM ks.t WHERE k = 1 AND c = 1");
    assert_memory_equal(f->r.cells[0].ptr, "a", 1);
}


static void conditions_compare_the_stored_row(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v text, n int)");
    ok(f, "INSERT INTO ks.t (k, v, n) VALUES (1, 'a', 5)");
    ok(f, "UPDATE ks.t SET v = 'b' WHERE k = 1 IF v = 'x'");
    assert_false(applied(f));
    assert_int_equal(f->r.n_cols, 2); /* [applied], v */
    assert_memory_equal(f->r.cells[1].ptr, "a", 1);
    ok(f, "UPDATE ks.t SET v = 'b' WHERE k = 1 IF v IN ('x', 'a') AND n > 4");
    assert_true(applied(f));
    ok(f, "UPDATE ks.t SET v = 'c' WHERE k = 1 IF n >= 6");
    assert_false(applied(f));
    ok(f, "SELECT v FROM ks.t WHERE k = 1");
    assert_memory_equal(f->r.cells[0].ptr, "b", 1);
    /* an absent row's columns are null: IF v = null holds, IF EXISTS does not */
    ok(f, "UPDATE ks.t SET v = 'z' WHERE k = 2 IF v = null");
    assert_true(applied(f));
    ok(f, "UPDATE ks.t SET v = 'y' WHERE k = 3 IF EXISTS");
    assert_false(applied(f));
    assert_int_equal(f->r.n_cols, 1);
    ok(f, "SELECT k FROM ks.t WHERE k = 3");
    assert_int_equal(f->r.n_rows, 0);
}


static void conditions_on_keys_or_several_rows_are_refused(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
    assert_int_equal(run(f, "UPDATE ks.t SET v = 1 WHERE k = 1 AND c = 1 IF c = 1"), BASE_ERROR);
    assert_string_equal(f->err.msg, "PRIMARY KEY column 'c' cannot have IF conditions");
    assert_int_equal(run(f, "UPDATE ks.t SET v = 1 WHERE k IN (1, 2) AND c = 1 IF v = 1"),
                     BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    ok(f, "SELECT * FROM ks.t");
    assert_int_equal(f->r.n_rows, 0);
}


static void delete_if_exists(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
    ok(f, "INSERT INTO ks.t (k, v) VALUES (1, 1)");
    ok(f, "DELETE FROM ks.t WHERE k = 2 IF EXISTS");
    assert_false(applied(f));
    ok(f, "DELETE FROM ks.t WHERE k = 1 IF EXISTS");
    assert_true(applied(f));
    ok(f, "SELECT * FROM ks.t");
    assert_int_equal(f->r.n_rows, 0);
}


static void the_service_refuses_conditional_row_deletes(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
    ok(f, "INSERT INTO ks.t (k, v) VALUES (1, 1)");
    assert_int_equal(run(f, "DELETE FROM ks.t WHERE k = 1 IF EXISTS"), BASE_ERROR);
    assert_string_equal(f->err.msg, "Conditional delete of an entire row is not supported.");
    ok(f, "DELETE v FROM ks.t WHERE k = 1 IF v = 1");
    assert_true(applied(f));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(insert_if_not_exists_applies_once, setup, teardown),
        cmocka_unit_test_setup_teardown(conditions_compare_the_stored_row, setup, teardown),
        cmocka_unit_test_setup_teardown(conditions_on_keys_or_several_rows_are_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(delete_if_exists, setup_cassandra, teardown),
        cmocka_unit_test_setup_teardown(the_service_refuses_conditional_row_deletes, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/lwt", tests, NULL, NULL);
}
