/*
 * The service's size limits (cosmos profile): a row of more than 2 MB is
 * refused with Write_failure, also when updates make it grow past 2 MB, and
 * a response page stops at 4 MB whatever the page size asked.
 */
#include "engine_test.h"


static void cosmos_limits_rows_to_2mb_and_pages_to_4mb(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.blobs (k int, c int, b blob, PRIMARY KEY (k, c))");
    const char *ins = "INSERT INTO ks.blobs (k, c, b) VALUES (1, ?, ?)";
    static uint8_t big[2200000];
    uint8_t c[4] = {0, 0, 0, 0};
    wire_value_t vals[2] = {{c, 4}, {big, sizeof(big)}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 2, .values = vals, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, ins, &p), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_WRITE_FAILURE);
    vals[1].len = 1000000;
    for (uint8_t i = 0; i < 6; i++) {
        c[3] = i;
        assert_int_equal(run_params(f, ins, &p), BASE_OK);
    }
    wire_query_params_t q = {
        .consistency = WIRE_CL_ONE, .page_size = 100, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, "SELECT * FROM ks.blobs WHERE k = 1", &q), BASE_OK);
    assert_int_equal(f->r.n_rows, 5);
    assert_true(f->r.paging_state.len > 0);
    /* a row that grows past 2 MB through updates is refused too */
    ok(f, "CREATE TABLE ks.grow (k int PRIMARY KEY, a blob, b blob, c blob)");
    const char *cols[] = {"a", "b", "c"};
    wire_value_t one[1] = {{big, 900000}};
    wire_query_params_t p1 = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = one, .paging_state = {NULL, -1}};
    for (int i = 0; i < 3; i++) {
        char q2[96];
        snprintf(q2, sizeof(q2), "UPDATE ks.grow SET %s = ? WHERE k = 1", cols[i]);
        assert_int_equal(run_params(f, q2, &p1), i < 2 ? BASE_OK : BASE_ERROR);
    }
    assert_int_equal(f->err.code, WIRE_ERR_WRITE_FAILURE);
    /* overwriting a stored value in place does not add to the row */
    assert_int_equal(run_params(f, "UPDATE ks.grow SET a = ? WHERE k = 1", &p1), BASE_OK);
    assert_int_equal(run_params(f, "SELECT * FROM ks.blobs WHERE k = 1", &q), BASE_OK);
    assert_int_equal(f->r.n_rows, 5);
    assert_true(f->r.paging_state.len > 0);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(cosmos_limits_rows_to_2mb_and_pages_to_4mb, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/cosmos_limits", tests, NULL, NULL);
}
