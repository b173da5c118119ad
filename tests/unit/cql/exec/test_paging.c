/*
 * Paging: a SELECT with a page size returns every row exactly once across
 * its pages, each page resuming from the paging state of the one before.
 * (Paging over several clustering slices: test_in_paging.c.)
 */
#include "engine_test.h"


static void pages_through_a_partition(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, PRIMARY KEY (k, c))");
    char q[128];
    for (int i = 0; i < 25; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.t (k, c) VALUES (%d, %d)", i % 3, i);
        ok(f, q);
    }
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .page_size = 4, .paging_state = {NULL, -1}};
    size_t total = 0;
    uint8_t state_buf[256];
    for (int page = 0; page < 20; page++) {
        assert_int_equal(run_params(f, "SELECT * FROM ks.t", &p), BASE_OK);
        total += f->r.n_rows;
        if (f->r.paging_state.len < 0) {
            break;
        }
        assert_true(f->r.paging_state.len <= (int32_t)sizeof(state_buf));
        memcpy(state_buf, f->r.paging_state.ptr, (size_t)f->r.paging_state.len);
        p.paging_state.ptr = state_buf;
        p.paging_state.len = f->r.paging_state.len;
    }
    assert_int_equal(total, 25);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(pages_through_a_partition, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/paging", tests, NULL, NULL);
}
