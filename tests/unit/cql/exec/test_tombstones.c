/*
 * Tombstones (cassandra profile): a read that scans more than 1000 tombstone
 * cells answers with Cassandra's tombstone_warn_threshold warning.
 */
#include "engine_test.h"


static void reads_warn_past_1000_tombstones(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.ts (k int, c int, PRIMARY KEY (k, c))");
    char stmt[96];
    for (int i = 0; i < 1100; i++) {
        snprintf(stmt, sizeof(stmt), "INSERT INTO ks.ts (k, c) VALUES (1, %d)", i);
        ok(f, stmt);
        snprintf(stmt, sizeof(stmt), "DELETE FROM ks.ts WHERE k = 1 AND c = %d", i);
        ok(f, stmt);
    }
    ok(f, "SELECT * FROM ks.ts WHERE k = 1");
    assert_int_equal(f->r.n_rows, 0);
    assert_int_equal(f->r.n_warnings, 1);
    assert_true(strstr(f->r.warnings[0], "1100 tombstone cells") != NULL);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reads_warn_past_1000_tombstones, setup_cassandra, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/tombstones", tests, NULL, NULL);
}
