/*
 * The engine at the edges of what a request or a schema may ask for: key
 * columns beyond any small fixed count (sized from the schema, as Cassandra
 * has no such limit), wide tuples, the nesting depth of types and terms
 * (a named parser limit, refused with a Syntax error naming it), and the
 * schema's named limits at the limit and one past it (Invalid naming it).
 */
#include "engine_test.h"


static void keyspace(fixture_t *f)
{
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "USE ks");
}


typedef struct text_s {
    char *p;
    size_t len, cap;
} text_t;


static void put(text_t *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
    }
}


static void reset(text_t *t)
{
    t->len = 0;
    put(t, "%s", "");
}


/* A table with n_pk partition key columns p0.. and n_ck clustering columns c0..
 * (all DESC when n_ck is odd), then rows written and read back through every path
 * that composes or decodes a key: INSERT, UPDATE, point and slice SELECT, a
 * multi-column relation over every clustering column, DELETE. */
static void round_trips_wide_keys(fixture_t *f, size_t n_pk, size_t n_ck)
{
    text_t q = {0};
    reset(&q);
    put(&q, "CREATE TABLE w%zu_%zu (", n_pk, n_ck);
    for (size_t i = 0; i < n_pk; i++) {
        put(&q, "p%zu int, ", i);
    }
    for (size_t i = 0; i < n_ck; i++) {
        put(&q, "c%zu int, ", i);
    }
    put(&q, "v int, PRIMARY KEY ((");
    for (size_t i = 0; i < n_pk; i++) {
        put(&q, "%sp%zu", i ? ", " : "", i);
    }
    put(&q, ")");
    for (size_t i = 0; i < n_ck; i++) {
        put(&q, ", c%zu", i);
    }
    put(&q, ")) WITH CLUSTERING ORDER BY (");
    for (size_t i = 0; i < n_ck; i++) {
        put(&q, "%sc%zu %s", i ? ", " : "", i, n_ck % 2 ? "DESC" : "ASC");
    }
    put(&q, ")");
    ok(f, q.p);

    for (int row = 0; row < 3; row++) {
        reset(&q);
        put(&q, "INSERT INTO w%zu_%zu (", n_pk, n_ck);
        for (size_t i = 0; i < n_pk; i++) {
            put(&q, "p%zu, ", i);
        }
        for (size_t i = 0; i < n_ck; i++) {
            put(&q, "c%zu, ", i);
        }
        put(&q, "v) VALUES (");
        for (size_t i = 0; i < n_pk; i++) {
            put(&q, "%zu, ", i);
        }
        for (size_t i = 0; i < n_ck; i++) {
            put(&q, "%d, ", i + 1 == n_ck ? row : (int)i);
        }
        put(&q, "%d)", 100 + row);
        ok(f, q.p);
    }

    /* the partition by every key column; its clustering prefix by every one but the last */
    text_t where = {0};
    reset(&where);
    put(&where, " WHERE ");
    for (size_t i = 0; i < n_pk; i++) {
        put(&where, "%sp%zu = %zu", i ? " AND " : "", i, i);
    }
    for (size_t i = 0; i + 1 < n_ck; i++) {
        put(&where, " AND c%zu = %zu", i, i);
    }

    reset(&q);
    put(&q, "UPDATE w%zu_%zu SET v = 7%s AND c%zu = 1", n_pk, n_ck, where.p, n_ck - 1);
    ok(f, q.p);

    reset(&q);
    put(&q, "SELECT v, c%zu, c0, p%zu FROM w%zu_%zu%s", n_ck - 1, n_pk - 1, n_pk, n_ck, where.p);
    ok(f, q.p);
    assert_int_equal(f->r.n_rows, 3);
    bool last_desc = n_ck % 2 == 1;
    assert_int_equal(cell_int(f, 0, 1), last_desc ? 2 : 0);
    assert_int_equal(cell_int(f, 1, 0), 7); /* the updated row, c<last> = 1 */
    assert_int_equal(cell_int(f, 0, 3), (int32_t)(n_pk - 1));

    reset(&q);
    put(&q, "SELECT v FROM w%zu_%zu%s AND c%zu = 2", n_pk, n_ck, where.p, n_ck - 1);
    ok(f, q.p);
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 102);

    reset(&q);
    put(&q, "SELECT v FROM w%zu_%zu%s AND c%zu > 0", n_pk, n_ck, where.p, n_ck - 1);
    ok(f, q.p);
    assert_int_equal(f->r.n_rows, 2);

    reset(&q);
    put(&q, "SELECT v FROM w%zu_%zu%s AND c%zu IN (0, 2)", n_pk, n_ck, where.p, n_ck - 1);
    ok(f, q.p);
    assert_int_equal(f->r.n_rows, 2);

    /* (c0, ..., c<last>) = (0, ..., 2): one tuple spanning every clustering column */
    reset(&q);
    put(&q, "SELECT v FROM w%zu_%zu WHERE ", n_pk, n_ck);
    for (size_t i = 0; i < n_pk; i++) {
        put(&q, "p%zu = %zu AND ", i, i);
    }
    put(&q, "(");
    for (size_t i = 0; i < n_ck; i++) {
        put(&q, "%sc%zu", i ? ", " : "", i);
    }
    put(&q, ") = (");
    for (size_t i = 0; i < n_ck; i++) {
        put(&q, "%s%zu", i ? ", " : "", i + 1 == n_ck ? (size_t)2 : i);
    }
    put(&q, ")");
    ok(f, q.p);
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 102);

    reset(&q);
    put(&q, "DELETE FROM w%zu_%zu%s AND c%zu = 0", n_pk, n_ck, where.p, n_ck - 1);
    ok(f, q.p);
    reset(&q);
    put(&q, "SELECT count(*) FROM w%zu_%zu", n_pk, n_ck);
    ok(f, q.p);
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.cells[0].len, 8);
    assert_int_equal(base_load_u64(f->r.cells[0].ptr), 2);
    free(q.p);
    free(where.p);
}


static void tables_with_64_65_and_70_clustering_columns_round_trip(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    round_trips_wide_keys(f, 1, 64);
    round_trips_wide_keys(f, 1, 65);
    round_trips_wide_keys(f, 1, 70);
    round_trips_wide_keys(f, 1, 301);
}


static void tables_with_64_65_and_70_partition_key_columns_round_trip(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    round_trips_wide_keys(f, 64, 1);
    round_trips_wide_keys(f, 65, 1);
    round_trips_wide_keys(f, 70, 3);
}


/* Prepared metadata of a multi-column relation names one tuple type of all its columns. */
static void prepares_a_tuple_relation_over_70_clustering_columns(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    text_t q = {0};
    reset(&q);
    put(&q, "CREATE TABLE t (k int");
    for (int i = 0; i < 70; i++) {
        put(&q, ", c%d int", i);
    }
    put(&q, ", v int, PRIMARY KEY (k");
    for (int i = 0; i < 70; i++) {
        put(&q, ", c%d", i);
    }
    put(&q, "))");
    ok(f, q.p);
    reset(&q);
    put(&q, "SELECT v FROM t WHERE k = ? AND (");
    for (int i = 0; i < 70; i++) {
        put(&q, "%sc%d", i ? ", " : "", i);
    }
    put(&q, ") > ?");
    base_arena_reset(&f->a);
    if (cql_prepare(f->e, f->s, base_str_from(q.p), &f->a, &f->r, &f->err) != BASE_OK) {
        fail_msg("prepare: %s", f->err.msg);
    }
    assert_int_equal(f->r.n_binds, 2);
    assert_int_equal(f->r.binds[1].type->id, WIRE_TYPE_TUPLE);
    assert_int_equal(f->r.binds[1].type->n_sub, 70);
    free(q.p);
}


static void tuples_of_100_components_round_trip(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    text_t q = {0};
    reset(&q);
    put(&q, "CREATE TABLE tt (k int PRIMARY KEY, t frozen<tuple<");
    for (int i = 0; i < 100; i++) {
        put(&q, "%sint", i ? ", " : "");
    }
    put(&q, ">>)");
    ok(f, q.p);
    reset(&q);
    put(&q, "INSERT INTO tt (k, t) VALUES (1, (");
    for (int i = 0; i < 100; i++) {
        put(&q, "%s%d", i ? ", " : "", i);
    }
    put(&q, "))");
    ok(f, q.p);
    ok(f, "SELECT t FROM tt WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.cells[0].len, 100 * 8);
    free(q.p);
}


/* frozen<list<...>> nested depth levels around int. */
static char *nested_type(int depth)
{
    text_t q = {0};
    reset(&q);
    put(&q, "CREATE TABLE n%d (k int PRIMARY KEY, v ", depth);
    for (int i = 0; i < depth; i++) {
        put(&q, "frozen<list<");
    }
    put(&q, "int");
    for (int i = 0; i < depth; i++) {
        put(&q, ">>");
    }
    put(&q, ")");
    return q.p;
}


static void deep_types_and_terms_are_refused_with_a_syntax_error(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    char *q = nested_type(20);
    ok(f, q);
    free(q);
    q = nested_type(100000);
    assert_int_equal(run(f, q), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_SYNTAX_ERROR);
    assert_non_null(strstr(f->err.msg, "nesting deeper than"));
    free(q);

    ok(f, "CREATE TABLE p (k int PRIMARY KEY, v int)");
    /* shallow: parsed, then refused for its type (a parenthesised term is a tuple) */
    assert_int_equal(run(f, "INSERT INTO p (k, v) VALUES (1, ((((((((((1)))))))))))"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    text_t t = {0};
    reset(&t);
    put(&t, "INSERT INTO p (k, v) VALUES (1, ");
    for (int i = 0; i < 100000; i++) {
        put(&t, "(");
    }
    put(&t, "1");
    for (int i = 0; i < 100000; i++) {
        put(&t, ")");
    }
    put(&t, ")");
    assert_int_equal(run(f, t.p), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_SYNTAX_ERROR);
    assert_non_null(strstr(f->err.msg, "nesting deeper than"));
    reset(&t);
    put(&t, "INSERT INTO p (k, v) VALUES (1, ");
    for (int i = 0; i < 100000; i++) {
        put(&t, "[");
    }
    assert_int_equal(run(f, t.p), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_SYNTAX_ERROR);
    free(t.p);
}


/* "CREATE TABLE name (k int PRIMARY KEY, c1 int, ...)" with n columns in all. */
static char *table_of(const char *name, int n)
{
    text_t q = {0};
    reset(&q);
    put(&q, "CREATE TABLE %s (k int PRIMARY KEY", name);
    for (int i = 1; i < n; i++) {
        put(&q, ", c%d int", i);
    }
    put(&q, ")");
    return q.p;
}


static void tables_hold_4096_columns_and_refuse_4097(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    char *q = table_of("at_limit", 4096);
    ok(f, q);
    free(q);
    q = table_of("past_limit", 4097);
    assert_int_equal(run(f, q), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_non_null(strstr(f->err.msg, "more than the emulator's limit of 4096"));
    free(q);
    assert_int_equal(run(f, "SELECT * FROM past_limit"), BASE_ERROR); /* nothing created */
    assert_int_equal(run(f, "ALTER TABLE at_limit ADD one_more int"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_non_null(strstr(f->err.msg, "4097 columns"));
    ok(f, "ALTER TABLE at_limit DROP c7");
    ok(f, "ALTER TABLE at_limit ADD one_more int"); /* back at the limit */
    ok(f, "INSERT INTO at_limit (k, c4095, one_more) VALUES (1, 2, 3)");
    ok(f, "SELECT c4095, one_more FROM at_limit WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 1), 3);
}


/* A chain of user types of two fields each: every link doubles the expanded type. */
static void doubling_user_types_are_refused_before_they_grow(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    ok(f, "CREATE TYPE t0 (a int, b int)");
    char q[256];
    int refused = 0;
    for (int i = 1; i <= 40 && refused == 0; i++) {
        snprintf(q, sizeof(q), "CREATE TYPE t%d (a frozen<t%d>, b frozen<t%d>)", i, i - 1, i - 1);
        if (run(f, q) != BASE_OK) {
            refused = i;
        }
    }
    /* t<n> expands to 2^(n+2) - 1 types: t11 to 8191, t12 to 16383 */
    assert_int_equal(refused, 12);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_non_null(strstr(f->err.msg, "more than 8192 component types"));
    ok(f, "CREATE TABLE u (k int PRIMARY KEY, v frozen<t11>)");
    assert_int_equal(run(f, "CREATE TABLE u2 (k int PRIMARY KEY, v frozen<tuple<t11, int>>)"),
                     BASE_ERROR);
    assert_non_null(strstr(f->err.msg, "more than 8192 component types"));
}


/* One field per link: the depth grows, not the size. */
static void user_types_nest_64_levels_deep_and_no_deeper(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    ok(f, "CREATE TYPE d1 (a int)");
    char q[256];
    int refused = 0;
    for (int i = 2; i <= 100 && refused == 0; i++) {
        snprintf(q, sizeof(q), "CREATE TYPE d%d (a frozen<d%d>)", i, i - 1);
        if (run(f, q) != BASE_OK) {
            refused = i;
        }
    }
    /* d<n> is n user types around an int: n + 1 levels */
    assert_int_equal(refused, 64);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_non_null(strstr(f->err.msg, "nests deeper than 64 levels"));
    ok(f, "CREATE TABLE dd (k int PRIMARY KEY, v frozen<d63>)");
    assert_int_equal(run(f, "CREATE TABLE dd2 (k int PRIMARY KEY, v frozen<list<frozen<d63>>>)"),
                     BASE_ERROR);
    ok(f, "INSERT INTO dd (k, v) VALUES (1, {a: {a: {a: null}}})");
    ok(f, "SELECT v FROM dd WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
}


static void user_types_hold_1024_fields_and_refuse_1025(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    text_t q = {0};
    for (int n = 1024; n <= 1025; n++) {
        reset(&q);
        put(&q, "CREATE TYPE f%d (x0 int", n);
        for (int i = 1; i < n; i++) {
            put(&q, ", x%d int", i);
        }
        put(&q, ")");
        if (n == 1024) {
            ok(f, q.p);
        } else {
            assert_int_equal(run(f, q.p), BASE_ERROR);
            assert_int_equal(f->err.code, WIRE_ERR_INVALID);
            assert_non_null(strstr(f->err.msg, "1025 (1 to 1024)"));
        }
    }
    free(q.p);
    ok(f, "CREATE TABLE uf (k int PRIMARY KEY, v f1024)");
    ok(f, "UPDATE uf SET v.x1023 = 5 WHERE k = 1");
    ok(f, "SELECT v.x1023 FROM uf WHERE k = 1");
    assert_int_equal(cell_int(f, 0, 0), 5);
}


static char *in_statement(const char *head, int n_k, int n_c)
{
    text_t q = {0};
    reset(&q);
    put(&q, "%s WHERE k IN (", head);
    for (int i = 0; i < n_k; i++) {
        put(&q, "%s%d", i ? ", " : "", i);
    }
    put(&q, ") AND c IN (");
    for (int i = 0; i < n_c; i++) {
        put(&q, "%s%d", i ? ", " : "", i);
    }
    put(&q, ")");
    return q.p;
}


/* Each partition key runs each clustering slice: 100 x 100 rows is the limit. */
static void in_cartesian_products_stop_at_10000_rows(void **state)
{
    fixture_t *f = *state;
    keyspace(f);
    ok(f, "CREATE TABLE kc (k int, c int, v int, PRIMARY KEY (k, c))");
    char *q = in_statement("UPDATE kc SET v = 1", 100, 100);
    ok(f, q);
    free(q);
    q = in_statement("SELECT count(*) FROM kc", 100, 100);
    ok(f, q);
    assert_int_equal(base_load_u64(f->r.cells[0].ptr), 10000);
    free(q);
    const char *heads[] = {"UPDATE kc SET v = 2", "DELETE FROM kc", "SELECT * FROM kc"};
    for (size_t i = 0; i < 3; i++) {
        q = in_statement(heads[i], 101, 100);
        assert_int_equal(run(f, q), BASE_ERROR);
        assert_int_equal(f->err.code, WIRE_ERR_INVALID);
        assert_non_null(strstr(f->err.msg, "names 10100 rows, more than the limit of 10000"));
        free(q);
    }
    ok(f, "SELECT count(*) FROM kc WHERE v = 2 ALLOW FILTERING");
    assert_int_equal(base_load_u64(f->r.cells[0].ptr), 0); /* the refused UPDATE wrote nothing */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(tables_with_64_65_and_70_clustering_columns_round_trip,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(tables_with_64_65_and_70_partition_key_columns_round_trip,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(prepares_a_tuple_relation_over_70_clustering_columns, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(tuples_of_100_components_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(deep_types_and_terms_are_refused_with_a_syntax_error, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(tables_hold_4096_columns_and_refuse_4097, setup, teardown),
        cmocka_unit_test_setup_teardown(doubling_user_types_are_refused_before_they_grow, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(user_types_nest_64_levels_deep_and_no_deeper, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(user_types_hold_1024_fields_and_refuse_1025, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(in_cartesian_products_stop_at_10000_rows, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/limits", tests, NULL, NULL);
}
