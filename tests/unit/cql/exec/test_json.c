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


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(insert_json_and_select_json_round_trip, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/json", tests, NULL, NULL);
}
