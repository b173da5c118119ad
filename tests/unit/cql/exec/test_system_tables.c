/*
 * The system tables drivers read at connection and schema refresh
 * (system.local, system.peers, system_schema.*), and the ones that do not
 * exist here (system.peers_v2), answered as Cassandra 3.11 does.
 */
#include "engine_test.h"


static void serves_system_tables_drivers_read(void **state)
{
    fixture_t *f = *state;
    ok(f, "SELECT * FROM system.local WHERE key='local'");
    assert_int_equal(f->r.n_rows, 1);
    ok(f, "SELECT schema_version FROM system.local");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.cells[0].len, 16);
    ok(f, "SELECT * FROM system.peers");
    assert_int_equal(f->r.n_rows, 0);
    assert_int_equal(run(f, "SELECT * FROM system.peers_v2"), BASE_ERROR);
    assert_string_equal(f->err.msg, "unconfigured table peers_v2");
    ok(f, "SELECT * FROM system_schema.keyspaces");
    assert_true(f->r.n_rows >= 5);
    ok(f, "SELECT * FROM system_schema.columns WHERE keyspace_name = 'system' AND table_name = "
          "'local'");
    assert_int_equal(f->r.n_rows, 18);
    const char *tables[] = {"tables",     "columns",  "types",   "functions",
                            "aggregates", "triggers", "indexes", "views"};
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        char q[96];
        snprintf(q, sizeof(q), "SELECT * FROM system_schema.%s", tables[i]);
        ok(f, q);
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(serves_system_tables_drivers_read, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/system_tables", tests, NULL, NULL);
}
