/*
 * Counters (assign.c, batch.c): increments and decrements add to the stored
 * value, two increments of one counter in one batch add up, and a counter
 * can be neither set nor inserted.
 */
#include "engine_test.h"


static int64_t counter(fixture_t *f)
{
    ok(f, "SELECT n FROM ks.hits WHERE page = 'home'");
    assert_int_equal(f->r.n_rows, 1);
    return cell_bigint(f, 0, 0);
}


static void counters_add_up(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.hits (page text PRIMARY KEY, n counter)");
    ok(f, "UPDATE ks.hits SET n = n + 5 WHERE page = 'home'");
    ok(f, "UPDATE ks.hits SET n = n - 2 WHERE page = 'home'");
    assert_int_equal(counter(f), 3);
    /* two increments of one counter in one batch add up */
    ok(f, "BEGIN COUNTER BATCH UPDATE ks.hits SET n = n + 10 WHERE page = 'home'; "
          "UPDATE ks.hits SET n = n + 100 WHERE page = 'home'; APPLY BATCH");
    assert_int_equal(counter(f), 113);
}


static void counters_are_neither_set_nor_inserted(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.hits (page text PRIMARY KEY, n counter)");
    assert_int_equal(run(f, "UPDATE ks.hits SET n = 5 WHERE page = 'home'"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_int_equal(run(f, "INSERT INTO ks.hits (page, n) VALUES ('home', 1)"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    ok(f, "SELECT * FROM ks.hits");
    assert_int_equal(f->r.n_rows, 0);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(counters_add_up, setup, teardown),
        cmocka_unit_test_setup_teardown(counters_are_neither_set_nor_inserted, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/counters", tests, NULL, NULL);
}
