/*
 * BATCH (batch.c): a batch applies all its statements or none (a failing
 * statement or a failed condition writes nothing), the service refuses
 * logged batches, and the cassandra profile warns past 5 KiB and fails past
 * 50 KiB for a batch over several partitions.
 */
#include "engine_test.h"


static void batches_apply_all_or_nothing(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.b (k int, c int, v text, PRIMARY KEY (k, c))");
    assert_int_equal(run(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, c) VALUES (1, 1); "
                            "INSERT INTO ks.b (k, c, nope) VALUES (1, 2, 3); APPLY BATCH"),
                     BASE_ERROR);
    ok(f, "SELECT * FROM ks.b");
    assert_int_equal(f->r.n_rows, 0);
    ok(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, c) VALUES (1, 1) IF NOT EXISTS; "
          "INSERT INTO ks.b (k, c) VALUES (1, 2) IF NOT EXISTS; APPLY BATCH");
    ok(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, c) VALUES (1, 1) IF NOT EXISTS; "
          "INSERT INTO ks.b (k, c) VALUES (1, 3) IF NOT EXISTS; APPLY BATCH");
    ok(f, "SELECT * FROM ks.b WHERE k = 1");
    assert_int_equal(f->r.n_rows, 2); /* the second batch's condition failed: no (1, 3) */
    assert_int_equal(run(f, "BEGIN BATCH INSERT INTO ks.b (k, c) VALUES (9, 9); APPLY BATCH"),
                     BASE_ERROR);
    assert_true(strstr(f->err.msg, "Logged batches are not supported") != NULL);
}


static void only_writes_go_in_a_batch(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.b (k int PRIMARY KEY, v int)");
    ok(f, "CREATE TABLE ks.n (k int PRIMARY KEY, n counter)");
    assert_int_equal(run(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, v) VALUES (1, 1); "
                            "UPDATE ks.n SET n = n + 1 WHERE k = 1; APPLY BATCH"),
                     BASE_ERROR);
    assert_string_equal(f->err.msg,
                        "Counter and non-counter mutations cannot exist in the same batch");
    ok(f, "SELECT * FROM ks.b");
    assert_int_equal(f->r.n_rows, 0);
}


static void cassandra_profile_batch_guardrails(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.b (k int PRIMARY KEY, v text)");
    base_buf_t q;
    base_buf_init(&q);
    base_buf_printf(&q, "BEGIN BATCH ");
    for (int i = 0; i < 12; i++) {
        base_buf_printf(&q, "INSERT INTO ks.b (k, v) VALUES (%d, '%0600d'); ", i, i);
    }
    base_buf_printf(&q, "APPLY BATCH");
    base_buf_put_u8(&q, 0);
    ok(f, (const char *)q.data);
    assert_int_equal(f->r.n_warnings, 1);
    assert_true(strncmp(f->r.warnings[0], "Batch for [ks.b] is of size ", 28) == 0);
    base_buf_reset(&q);
    base_buf_printf(&q, "BEGIN UNLOGGED BATCH ");
    for (int i = 0; i < 100; i++) {
        base_buf_printf(&q, "INSERT INTO ks.b (k, v) VALUES (%d, '%0600d'); ", i, i);
    }
    base_buf_printf(&q, "APPLY BATCH");
    base_buf_put_u8(&q, 0);
    assert_int_equal(run(f, (const char *)q.data), BASE_ERROR);
    assert_string_equal(f->err.msg, "Batch too large");
    base_buf_fini(&q);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(batches_apply_all_or_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(only_writes_go_in_a_batch, setup, teardown),
        cmocka_unit_test_setup_teardown(cassandra_profile_batch_guardrails, setup_cassandra,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/batch", tests, NULL, NULL);
}
