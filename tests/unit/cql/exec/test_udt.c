/*
 * User types: u.f selectors, a frozen value replaced whole and a non-frozen
 * one updated field by field, and the type in system_schema.types.
 */
#include "engine_test.h"


static void selects_user_type_fields(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "USE ks");
    ok(f, "CREATE TYPE address (street text, zip int)");
    ok(f, "CREATE TABLE people (id int PRIMARY KEY, home frozen<address>)");
    ok(f, "INSERT INTO people (id, home) VALUES (1, {street: 'Main', zip: 12345})");
    ok(f, "SELECT home.zip, home.street FROM people WHERE id = 1");
    assert_int_equal(f->r.n_rows, 1);
    assert_string_equal(f->r.cols[0].name, "home.zip");
    assert_int_equal(cell_int(f, 0, 0), 12345);
    assert_int_equal(run(f, "SELECT home.nope FROM people"), BASE_ERROR);
    /* a frozen value is replaced whole; a non-frozen one field by field */
    assert_int_equal(run(f, "UPDATE people SET home.zip = 1 WHERE id = 1"), BASE_ERROR);
    ok(f, "CREATE TABLE places (id int PRIMARY KEY, addr address)");
    ok(f, "UPDATE places SET addr.zip = 777 WHERE id = 1");
    ok(f, "UPDATE places SET addr.street = 'Elm' WHERE id = 1");
    ok(f, "SELECT addr.zip, addr.street FROM places WHERE id = 1");
    assert_int_equal(cell_int(f, 0, 0), 777);
    assert_memory_equal(f->r.cells[1].ptr, "Elm", 3);
    ok(f, "SELECT * FROM system_schema.types WHERE keyspace_name = 'ks'");
    assert_int_equal(f->r.n_rows, 1);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(selects_user_type_fields, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/udt", tests, NULL, NULL);
}
