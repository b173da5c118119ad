/*
 * Selectors that are not plain columns: literal and bind-marker arguments of native
 * functions (typed by the function's signature, as Cassandra's FunctionResolver types
 * them), CAST of a column (CastFcts' conversions and refusals) and field selection on
 * a function's result.
 */
#include "engine_test.h"


static void table_with_one_row(fixture_t *f)
{
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, e float, u timeuuid, b blob)");
    ok(f, "INSERT INTO ks.t (k, e, b) VALUES (0, 5.2, 0x0000002a)");
}


static void literal_arguments_take_the_signatures_type(void **state)
{
    fixture_t *f = *state;
    table_with_one_row(f);
    ok(f, "SELECT minTimeuuid('2019-08-03 11:03:02+00'), maxTimeuuid('2019-08-03 11:03:02+00') "
          "FROM ks.t WHERE k = 0");
    assert_string_equal(f->r.cols[0].name, "system.mintimeuuid('2019-08-03 11:03:02+00')");
    /* 1564830182000 ms: 0x01e9b5de42d2f700 ticks since 1582; the max is the last tick */
    static const uint8_t min[16] = {0x42, 0xd2, 0xf7, 0x00, 0xb5, 0xde, 0x11, 0xe9,
                                    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    static const uint8_t max[16] = {0x42, 0xd3, 0x1e, 0x0f, 0xb5, 0xde, 0x11, 0xe9,
                                    0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f};
    assert_int_equal(f->r.cells[0].len, 16);
    assert_memory_equal(f->r.cells[0].ptr, min, 16);
    assert_memory_equal(f->r.cells[1].ptr, max, 16);
    ok(f, "SELECT blobAsInt(0x00000007) FROM ks.t WHERE k = 0");
    assert_int_equal(cell_int(f, 0, 0), 7);
}


static void an_empty_blob_converts_to_null(void **state)
{
    fixture_t *f = *state;
    table_with_one_row(f);
    ok(f, "SELECT toDate(blobAsTimestamp(0x)), toUnixTimestamp(blobAsTimestamp(0x)) FROM ks.t "
          "WHERE k = 0");
    assert_int_equal(f->r.cells[0].len, WIRE_VALUE_NULL);
    assert_int_equal(f->r.cells[1].len, WIRE_VALUE_NULL);
}


static void a_bound_argument_is_read_as_the_signatures_type(void **state)
{
    fixture_t *f = *state;
    table_with_one_row(f);
    uint8_t seven[4] = {0, 0, 0, 7};
    wire_value_t vals[1] = {{seven, 4}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = vals, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, "SELECT blobAsInt(?) FROM ks.t WHERE k = 0", &p), BASE_OK);
    assert_int_equal(cell_int(f, 0, 0), 7);
    wire_value_t unset[1] = {{NULL, WIRE_VALUE_UNSET}};
    p.values = unset;
    assert_int_equal(run_params(f, "SELECT blobAsInt(?) FROM ks.t WHERE k = 0", &p), BASE_ERROR);
    assert_string_equal(f->err.msg,
                        "Invalid unset value for argument in call to function blobasint");
}


static void a_literal_that_fits_no_signature_is_refused(void **state)
{
    fixture_t *f = *state;
    table_with_one_row(f);
    assert_int_equal(run(f, "SELECT minTimeuuid(0x00) FROM ks.t"), BASE_ERROR);
    assert_string_equal(f->err.msg, "Type error: 0x00 cannot be passed as argument 0 of function "
                                    "system.mintimeuuid of type timestamp");
}


static void cast_widens_a_float_and_refuses_what_cassandra_lacks(void **state)
{
    fixture_t *f = *state;
    table_with_one_row(f);
    ok(f, "SELECT CAST(e AS double) FROM ks.t WHERE k = 0");
    double want = (double)5.2f, got;
    uint64_t bits = base_load_u64(f->r.cells[0].ptr);
    memcpy(&got, &bits, 8);
    assert_true(got == want);
    assert_int_equal(run(f, "SELECT CAST(e AS boolean) FROM ks.t"), BASE_ERROR);
    assert_string_equal(f->err.msg, "e cannot be cast to boolean");
    assert_int_equal(run(f, "SELECT CAST(b AS text) FROM ks.t"), BASE_ERROR);
}


static void a_field_of_a_function_result_is_refused(void **state)
{
    fixture_t *f = *state;
    table_with_one_row(f);
    ok(f, "CREATE TYPE ks.p (x int)");
    ok(f, "CREATE TABLE ks.u (a int PRIMARY KEY, b frozen<p>)");
    assert_int_equal(run(f, "SELECT max(b).x AS max FROM ks.u"), BASE_ERROR);
    assert_string_equal(f->err.msg,
                        "Invalid field selection: system.max(b) of type blob is not a user type");
    assert_int_equal(run(f, "SELECT count(b).x FROM ks.u"), BASE_ERROR);
    assert_string_equal(
        f->err.msg, "Invalid field selection: system.count(b) of type bigint is not a user type");
    assert_int_equal(run(f, "SELECT blobAsInt(b).x FROM ks.t"), BASE_ERROR);
    assert_string_equal(
        f->err.msg, "Invalid field selection: system.blobasint(b) of type int is not a user type");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(literal_arguments_take_the_signatures_type, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(an_empty_blob_converts_to_null, setup, teardown),
        cmocka_unit_test_setup_teardown(a_bound_argument_is_read_as_the_signatures_type, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_literal_that_fits_no_signature_is_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(cast_widens_a_float_and_refuses_what_cassandra_lacks, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_field_of_a_function_result_is_refused, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/selectors", tests, NULL, NULL);
}
