/*
 * WHERE restrictions: a filter on a regular column needs ALLOW FILTERING;
 * multi-column (tuple) relations slice the clustering key in either
 * clustering order and mix with single-column ones as Cassandra's do, and
 * the forms Cassandra refuses are refused with its message, in its order.
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


/* Runs q, expects an Invalid refusal whose message contains want. */
static void refused(fixture_t *f, const char *q, const char *want)
{
    if (run(f, q) != BASE_ERROR) {
        fail_msg("%.200s: expected a refusal", q);
    }
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    if (strstr(f->err.msg, want) == NULL) {
        fail_msg("%.200s -> '%s', expected '%s'", q, f->err.msg, want);
    }
}


static void tuples_mix_with_single_column_relations(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (a int, b int, c int, d int, e int, PRIMARY KEY (a, b, c, d))");
    const int r[][3] = {{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
    char q[128];
    for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.t (a, b, c, d, e) VALUES (0, %d, %d, %d, %d)",
                 r[i][0], r[i][1], r[i][2], (int)i);
        ok(f, q);
    }
    /* a tuple IN then a slice on the next column: each IN value bounds d */
    ok(f, "SELECT e FROM ks.t WHERE a = 0 AND d < 1 AND (b, c) IN ((0, 1), (0, 0)) AND d >= 0");
    assert_int_equal(f->r.n_rows, 2);
    assert_int_equal(cell_int(f, 0, 0), 0);
    assert_int_equal(cell_int(f, 1, 0), 1);
    ok(f, "SELECT e FROM ks.t WHERE a = 0 AND (b, c) IN ((1, 1)) AND (d) > (0)");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 5);
    /* past a tuple slice a restriction filters, with ALLOW FILTERING only */
    ok(f, "SELECT e FROM ks.t WHERE a = 0 AND (b, c) > (0, 0) AND d = 0 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 3); /* (0,1,0) (1,0,0) (1,1,0) */
    assert_int_equal(cell_int(f, 0, 0), 1);
    refused(f, "SELECT e FROM ks.t WHERE a = 0 AND (b, c) > (0, 0) AND d = 0",
            "Clustering column \"d\" cannot be restricted (preceding column \"b\" is restricted "
            "by a non-EQ relation)");
    /* a column in a tuple and in a single-column relation */
    refused(f, "SELECT * FROM ks.t WHERE a = 0 AND (b, c, d) > (0, 1, 0) AND c < 1",
            "Mixing single column relations and multi column relations");
    refused(f, "SELECT * FROM ks.t WHERE a = 0 AND (b, c) > (0, 0) AND (b) < (1) AND (c) < (1)",
            "Column \"c\" cannot be restricted by two tuple-notation inequalities not starting "
            "with the same column");
    refused(f, "SELECT * FROM ks.t WHERE a = 0 AND (d, c, b) = (0, 0, 0)",
            "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: "
            "(d, c, b) = (0, 0, 0)");
}


static void refusals_come_in_cassandras_order(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (a int, b int, c int, d int, e int, PRIMARY KEY ((a, b), c, d))");
    ok(f, "INSERT INTO ks.t (a, b, c, d, e) VALUES (11, 15, 16, 17, 18)");
    /* the clustering order is checked as the relations are added, before the key */
    refused(f, "SELECT * FROM ks.t WHERE a <= 11 AND c > 15 AND d >= 16",
            "Clustering column \"d\" cannot be restricted (preceding column \"c\" is restricted "
            "by a non-EQ relation)");
    ok(f, "SELECT e FROM ks.t WHERE a <= 11 AND c > 15 AND d >= 16 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 1);
    /* a null filter value is refused after the ALLOW FILTERING check, an index-less one */
    refused(f, "SELECT * FROM ks.t WHERE e = null", "ALLOW FILTERING");
    refused(f, "SELECT * FROM ks.t WHERE e = null ALLOW FILTERING",
            "Unsupported null value for column e");
    /* a partition key part that is filtered takes RowFilter's message, a key part that names
     * a partition the key's */
    wire_value_t unset[1] = {{NULL, WIRE_VALUE_UNSET}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = unset, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, "SELECT * FROM ks.t WHERE a = ? ALLOW FILTERING", &p),
                     BASE_ERROR);
    assert_string_equal(f->err.msg, "Unsupported unset value for column a");
    assert_int_equal(run_params(f, "SELECT * FROM ks.t WHERE a = ? AND b = 1", &p), BASE_ERROR);
    assert_string_equal(f->err.msg, "Invalid unset value for column a");
    ok(f, "CREATE TABLE ks.m (k int PRIMARY KEY, l list<duration>, m map<int, int>)");
    refused(f, "SELECT * FROM ks.m WHERE l > [1s] ALLOW FILTERING",
            "Slice restrictions are not supported on collections containing durations");
    refused(f, "SELECT * FROM ks.m WHERE m[1] = null ALLOW FILTERING",
            "Unsupported null map value for column m");
    ok(f, "CREATE TABLE ks.b (k blob PRIMARY KEY, v int)");
    refused(f, "SELECT * FROM ks.b WHERE k = 0x", "Key may not be empty");
    refused(f, "SELECT * FROM ks.b WHERE k IN (0x, 0x01)", "Key may not be empty");
}


/* An index on a partition key part serves no clustering column: Cosmos DB asks for ALLOW
 * FILTERING where Cassandra would read the index. */
static void cosmos_filters_clustering_columns_with_allow_filtering_only(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (p0 int, p1 int, c0 int, c1 int, v int, PRIMARY KEY ((p0, p1), c0, "
          "c1))");
    ok(f, "CREATE INDEX ON ks.t (p0)");
    ok(f, "INSERT INTO ks.t (p0, p1, c0, c1, v) VALUES (1, 2, 3, 4, 5)");
    refused(f, "SELECT v FROM ks.t WHERE p0 = 1 AND p1 = 2 AND c1 = 4", "ALLOW FILTERING");
    ok(f, "SELECT v FROM ks.t WHERE p0 = 1 AND p1 = 2 AND c1 = 4 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 1);
}


/* Lexicographic (x1..xn) op (v1..vn) over the first n of three columns. */
static bool tuple_holds(const int *x, const int *v, int n, const char *op)
{
    int cmp = 0;
    for (int i = 0; i < n && cmp == 0; i++) {
        cmp = (x[i] > v[i]) - (x[i] < v[i]);
    }
    return strcmp(op, ">") == 0    ? cmp > 0
           : strcmp(op, ">=") == 0 ? cmp >= 0
           : strcmp(op, "<") == 0  ? cmp < 0
                                   : cmp <= 0;
}


/* Tuple slices over clustering columns of mixed order name exactly the rows the tuple
 * comparison holds for, in clustering order (b DESC, c ASC, d DESC). */
static void mixed_order_tuple_slices(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (a int, b int, c int, d int, PRIMARY KEY (a, b, c, d)) WITH "
          "CLUSTERING ORDER BY (b DESC, c ASC, d DESC)");
    char q[200];
    for (int i = 0; i < 27; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.t (a, b, c, d) VALUES (0, %d, %d, %d)", i / 9,
                 i / 3 % 3, i % 3);
        ok(f, q);
    }
    static const char *const ops[] = {">", ">=", "<", "<="};
    static const char *const cols[] = {"(b, c)", "(b, c, d)"};
    const int v[3] = {1, 1, 1}, w[3] = {2, 0, 2};
    for (int n = 2; n <= 3; n++) {
        for (int o = 0; o < 4; o++) {
            for (int o2 = -1; o2 < 2; o2 += 2) { /* -1: one bound; 1: and the other side */
                const char *op2 = o < 2 ? (o2 > 0 ? "<" : NULL) : (o2 > 0 ? ">" : NULL);
                const char *vals = n == 2 ? "(1, 1)" : "(1, 1, 1)";
                const char *wals = n == 2 ? "(2, 0)" : "(2, 0, 2)";
                snprintf(q, sizeof(q), "SELECT b, c, d FROM ks.t WHERE a = 0 AND %s %s %s%s%s%s%s",
                         cols[n - 2], ops[o], o < 2 ? vals : wals, op2 ? " AND " : "",
                         op2 ? cols[n - 2] : "", op2 ? op2 : "", op2 ? (o < 2 ? wals : vals) : "");
                ok(f, q);
                size_t want = 0, got = 0;
                int prev[3] = {99, -1, 99};
                for (int i = 0; i < 27; i++) {
                    int x[3] = {i / 9, i / 3 % 3, i % 3};
                    bool in = tuple_holds(x, o < 2 ? v : w, n, ops[o]);
                    if (op2 != NULL) {
                        in = in && tuple_holds(x, o < 2 ? w : v, n, op2);
                    }
                    want += in;
                }
                for (size_t r = 0; r < f->r.n_rows; r++, got++) {
                    int x[3] = {cell_int(f, r, 0), cell_int(f, r, 1), cell_int(f, r, 2)};
                    bool in = tuple_holds(x, o < 2 ? v : w, n, ops[o]) &&
                              (op2 == NULL || tuple_holds(x, o < 2 ? w : v, n, op2));
                    if (!in) {
                        fail_msg("%s: row (%d, %d, %d) does not belong", q, x[0], x[1], x[2]);
                    }
                    /* clustering order: b descending, then c ascending, then d descending */
                    bool ordered =
                        x[0] < prev[0] || (x[0] == prev[0] &&
                                           (x[1] > prev[1] || (x[1] == prev[1] && x[2] < prev[2])));
                    if (!ordered) {
                        fail_msg("%s: row %zu out of clustering order", q, r);
                    }
                    memcpy(prev, x, sizeof(prev));
                }
                if (got != want) {
                    fail_msg("%s: %zu rows, expected %zu", q, got, want);
                }
            }
        }
    }
}


/* `pk = v` on every key part and nothing else is planned apart (plan_key_only): it finds
 * the rows the general planner finds, in any order of the parts, and every value that
 * planner refuses is refused with its message. */
static void a_key_only_where_plans_as_the_general_one(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.p (a int, b text, c int, v int, PRIMARY KEY ((a, b), c))");
    ok(f, "INSERT INTO ks.p (a, b, c, v) VALUES (1, 'x', 1, 10)");
    ok(f, "INSERT INTO ks.p (a, b, c, v) VALUES (1, 'x', 2, 20)");
    ok(f, "INSERT INTO ks.p (a, b, c, v) VALUES (1, 'y', 1, 30)");
    ok(f, "SELECT v FROM ks.p WHERE b = 'x' AND a = 1");
    assert_int_equal(f->r.n_rows, 2);
    assert_int_equal(cell_int(f, 1, 0), 20);
    ok(f, "SELECT v FROM ks.p WHERE a = 1 AND b = 'y'");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 30);
    ok(f, "UPDATE ks.p SET v = 31 WHERE a = 1 AND b = 'y' AND c = 1");
    ok(f, "DELETE FROM ks.p WHERE b = 'x' AND a = 1");
    ok(f, "SELECT v FROM ks.p WHERE a = 1 AND b = 'x'");
    assert_int_equal(f->r.n_rows, 0);
    refused(f, "SELECT * FROM ks.p WHERE a = 1 AND a = 2",
            "a cannot be restricted by more than one relation if it includes an Equal");
    refused(f, "SELECT * FROM ks.p WHERE a = null AND b = 'x'",
            "Invalid null value in condition for column a");
    refused(f, "SELECT * FROM ks.p WHERE a = 'one' AND b = 'x'",
            "Invalid STRING constant (one) for \"a\" of type int");
    wire_value_t unset[2] = {{(const uint8_t *)"\0\0\0\1", 4}, {NULL, WIRE_VALUE_UNSET}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 2, .values = unset, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, "SELECT * FROM ks.p WHERE a = ? AND b = ?", &p), BASE_ERROR);
    assert_string_equal(f->err.msg, "Invalid unset value for column b");
    ok(f, "CREATE TABLE ks.k (k blob PRIMARY KEY, v int)");
    refused(f, "SELECT * FROM ks.k WHERE k = 0x", "Key may not be empty");
    uint8_t *big = calloc(1, 65536);
    wire_value_t longer[1] = {{big, 65536}};
    p.n_values = 1;
    p.values = longer;
    assert_int_equal(run_params(f, "SELECT * FROM ks.k WHERE k = ?", &p), BASE_ERROR);
    assert_string_equal(f->err.msg, "Key length of 65536 is longer than maximum of 65535");
    free(big);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(filtering_needs_allow_filtering, setup, teardown),
        cmocka_unit_test_setup_teardown(a_key_only_where_plans_as_the_general_one, setup, teardown),
        cmocka_unit_test_setup_teardown(multi_column_relations_slice_the_clustering_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(tuples_mix_with_single_column_relations, setup, teardown),
        cmocka_unit_test_setup_teardown(refusals_come_in_cassandras_order, setup, teardown),
        cmocka_unit_test_setup_teardown(mixed_order_tuple_slices, setup, teardown),
        cmocka_unit_test_setup_teardown(cosmos_filters_clustering_columns_with_allow_filtering_only,
                                        setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/restrictions", tests, NULL, NULL);
}
