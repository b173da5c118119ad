/*
 * WHERE restrictions: a filter on a regular column needs ALLOW FILTERING;
 * multi-column (tuple) relations slice the clustering key in either
 * clustering order, and the forms Cassandra refuses are refused.
 */
#include "engine_test.h"


static void filtering_needs_allow_filtering(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 10)");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 2, 20)");
    assert_int_equal(run(f, "SELECT * FROM ks.t WHERE v = 10"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    ok(f, "SELECT * FROM ks.t WHERE v = 10 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 1);
    ok(f, "UPDATE ks.t SET v = 30 WHERE k = 1 AND c = 2");
    ok(f, "SELECT v FROM ks.t WHERE k = 1 AND c = 2");
    assert_int_equal(cell_int(f, 0, 0), 30);
    ok(f, "DELETE FROM ks.t WHERE k = 1 AND c = 1");
    ok(f, "SELECT * FROM ks.t WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
}


static void multi_column_relations_slice_the_clustering_key(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.mc (k int, a int, b int, v int, PRIMARY KEY (k, a, b))");
    ok(f, "CREATE TABLE ks.md (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING "
          "ORDER BY (a DESC, b DESC)");
    char q[96];
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            snprintf(q, sizeof(q), "INSERT INTO ks.mc (k, a, b, v) VALUES (1, %d, %d, %d)", a, b,
                     a * 3 + b);
            ok(f, q);
            snprintf(q, sizeof(q), "INSERT INTO ks.md (k, a, b) VALUES (1, %d, %d)", a, b);
            ok(f, q);
        }
    }
    ok(f, "SELECT v FROM ks.mc WHERE k = 1 AND (a, b) > (0, 1) AND (a, b) <= (2, 0)");
    assert_int_equal(f->r.n_rows, 5); /* (0,2) (1,0) (1,1) (1,2) (2,0) */
    assert_int_equal(cell_int(f, 0, 0), 2);
    assert_int_equal(cell_int(f, 4, 0), 6);
    ok(f, "SELECT v FROM ks.mc WHERE k = 1 AND (a, b) IN ((2, 2), (0, 0))");
    assert_int_equal(f->r.n_rows, 2);
    ok(f, "SELECT a, b FROM ks.md WHERE k = 1 AND (a, b) < (1, 1)");
    assert_int_equal(f->r.n_rows, 4); /* (1,0) (0,2) (0,1) (0,0), newest first */
    assert_int_equal(cell_int(f, 0, 0), 1);
    assert_int_equal(run(f, "SELECT * FROM ks.mc WHERE k = 1 AND (b, a) > (1, 1)"), BASE_ERROR);
    assert_int_equal(run(f, "SELECT * FROM ks.mc WHERE k = 1 AND a = 1 AND (a, b) > (1, 1)"),
                     BASE_ERROR);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(filtering_needs_allow_filtering, setup, teardown),
        cmocka_unit_test_setup_teardown(multi_column_relations_slice_the_clustering_key, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/restrictions", tests, NULL, NULL);
}
