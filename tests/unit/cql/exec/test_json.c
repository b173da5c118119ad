/*
 * INSERT JSON and SELECT JSON: values parsed by column type, the JSON object
 * of a row, unknown columns and a missing key refused, and deep nesting
 * refused without harm.
 */
#include "engine_test.h"


static void insert_json_and_select_json_round_trip(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.j (id uuid PRIMARY KEY, n int, at timestamp, tags list<text>, "
          "attrs map<text, int>, ok boolean, b blob)");
    ok(f, "INSERT INTO ks.j JSON '{\"id\": \"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\", "
          "\"n\": \"42\", \"at\": \"2024-01-02 03:04:05.678Z\", \"tags\": [\"a\", "
          "\"b\"], \"attrs\": {\"x\": 1}, \"ok\": true, \"b\": \"0xcafe\"}'");
    ok(f, "SELECT n, tags FROM ks.j WHERE id = 6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 42);
    ok(f, "SELECT JSON n, ok FROM ks.j");
    assert_int_equal(f->r.n_cols, 1);
    assert_string_equal(f->r.cols[0].name, "[json]");
    assert_memory_equal(f->r.cells[0].ptr, "{\"n\": 42, \"ok\": true}", (size_t)f->r.cells[0].len);
    assert_int_equal(run(f, "INSERT INTO ks.j JSON '{\"id\": \"6ab09bec-e68e-48d9-a5f8-"
                            "97e6fb4c9b47\", \"nope\": 1}'"),
                     BASE_ERROR);
    assert_string_equal(f->err.msg, "JSON values map contains unrecognized column: nope");
    assert_int_equal(run(f, "INSERT INTO ks.j JSON '{\"n\": 1}'"), BASE_ERROR);
    assert_int_equal(run(f, "INSERT INTO ks.j JSON '{\"id\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['"),
                     BASE_ERROR);
}


/* The JSON object of the only row of ks.x, as text. */
static const char *json_of(fixture_t *f, const char *q)
{
    ok(f, q);
    assert_int_equal(f->r.n_rows, 1);
    return base_arena_strndup(&f->a, (const char *)f->r.cells[0].ptr, (size_t)f->r.cells[0].len);
}


static void user_type_fields_follow_the_case_rules_of_columns(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TYPE ks.t1 (a int, \"Foo\" int)");
    ok(f, "CREATE TABLE ks.x (k int PRIMARY KEY, v frozen<t1>)");
    ok(f, "INSERT INTO ks.x JSON '{\"k\": 0, \"v\": {\"A\": 1, \"\\\"Foo\\\"\": 2}}'");
    assert_string_equal(json_of(f, "SELECT JSON k, v FROM ks.x"),
                        "{\"k\": 0, \"v\": {\"a\": 1, \"\\\"Foo\\\"\": 2}}");
    assert_int_equal(run(f, "INSERT INTO ks.x JSON '{\"k\": 0, \"v\": {\"Foo\": 2}}'"), BASE_ERROR);
    assert_string_equal(f->err.msg, "Unknown field 'foo' in value of user defined type t1");
}


static void map_keys_are_ordered_and_decoded_by_their_type(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.x (k int PRIMARY KEY, d map<decimal, boolean>, i set<int>, "
          "t map<frozen<tuple<int, text>>, boolean>)");
    ok(f, "INSERT INTO ks.x JSON '{\"k\": 0, \"d\": {\"4.56\": false, \"1.23\": true}, "
          "\"i\": [1, -1, 0], \"t\": {\"[1, \\\"b\\\"]\": false, \"[0, \\\"a\\\"]\": true}}'");
    assert_string_equal(json_of(f, "SELECT JSON d, i, t FROM ks.x"),
                        "{\"d\": {\"1.23\": true, \"4.56\": false}, \"i\": [-1, 0, 1], "
                        "\"t\": {\"[0, \\\"a\\\"]\": true, \"[1, \\\"b\\\"]\": false}}");
    assert_int_equal(run(f, "INSERT INTO ks.x JSON '{\"k\": 0, \"t\": {\"[0,\": true}}'"),
                     BASE_ERROR);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(insert_json_and_select_json_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(user_type_fields_follow_the_case_rules_of_columns, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(map_keys_are_ordered_and_decoded_by_their_type, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/json", tests, NULL, NULL);
}
