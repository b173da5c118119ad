/*
 * Prepared statements: bind metadata and partition key indexes at PREPARE,
 * EXECUTE by id with positional values, Unprepared after the table changes
 * or for an unknown id, and a prepared DROP KEYSPACE of the session's one.
 */
#include "engine_test.h"


static void prepared_statement_binds_by_position(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.users (id int PRIMARY KEY, name text)");
    base_arena_reset(&f->a);
    const char *ins = "INSERT INTO ks.users (id, name) VALUES (?, ?)";
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(ins), &f->a, &f->r, &f->err), BASE_OK);
    assert_int_equal(f->r.kind, WIRE_RESULT_PREPARED);
    assert_int_equal(f->r.n_binds, 2);
    assert_string_equal(f->r.binds[1].name, "name");
    assert_int_equal(f->r.n_pk_indexes, 1);
    uint8_t id[16];
    memcpy(id, f->r.prepared_id, 16);
    uint8_t k[4] = {0, 0, 0, 7};
    wire_value_t vals[2] = {{k, 4}, {(const uint8_t *)"ann", 3}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 2, .values = vals, .paging_state = {NULL, -1}};
    wire_value_t idv = {id, 16};
    assert_int_equal(cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err), BASE_OK);
    ok(f, "SELECT name FROM ks.users WHERE id = 7");
    assert_int_equal(f->r.n_rows, 1);
    assert_memory_equal(f->r.cells[0].ptr, "ann", 3);
    /* a table change drops cached statements: drivers re-prepare and see the new columns */
    ok(f, "ALTER TABLE ks.users ADD email text");
    assert_int_equal(cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
    /* a prepared DROP KEYSPACE of the keyspace it was prepared in */
    ok(f, "USE ks");
    base_arena_reset(&f->a);
    const char *drop = "DROP KEYSPACE ks";
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(drop), &f->a, &f->r, &f->err), BASE_OK);
    uint8_t drop_id[16];
    memcpy(drop_id, f->r.prepared_id, 16);
    wire_value_t drop_idv = {drop_id, 16};
    wire_query_params_t none = {.consistency = WIRE_CL_ONE, .paging_state = {NULL, -1}};
    assert_int_equal(cql_execute(f->e, f->s, drop_idv, &none, &f->a, &f->r, &f->err), BASE_OK);
    assert_null(cql_session_keyspace(f->s));
    uint8_t unknown[16] = {1};
    wire_value_t bad = {unknown, 16};
    assert_int_equal(cql_execute(f->e, f->s, bad, &p, &f->a, &f->r, &f->err), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(prepared_statement_binds_by_position, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/prepared", tests, NULL, NULL);
}
