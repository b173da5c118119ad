/*
 * Prepared statements: bind metadata and partition key indexes at PREPARE,
 * EXECUTE by id with positional values, Unprepared after the table changes
 * or for an unknown id, and a prepared DROP KEYSPACE of the session's one;
 * the lookahead (cql_prefetch_add) notes the partition an EXECUTE will touch;
 * what an EXECUTE keeps between runs (its table, a plain selection, an
 * INSERT's or UPDATE's columns) follows every schema change.
 */
#include "engine_test.h"


static void prepared_statement_binds_by_position(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.users (id int PRIMARY KEY, name text)");
    base_arena_reset(&f->a);
    const char *ins = "INSERT INTO ks.users (id, name) VALUES (?, ?)";
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(ins), &f->a, &f->r, &f->err), BASE_OK);
    assert_int_equal(f->r.kind, WIRE_RESULT_PREPARED);
    assert_int_equal(f->r.n_binds, 2);
    assert_string_equal(f->r.binds[1].name, "name");
    assert_int_equal(f->r.n_pk_indexes, 1);
    uint8_t id[16];
    memcpy(id, f->r.prepared_id, 16);
    uint8_t k[4] = {0, 0, 0, 7};
    wire_value_t vals[2] = {{k, 4}, {(const uint8_t *)"ann", 3}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 2, .values = vals, .paging_state = {NULL, -1}};
    wire_value_t idv = {id, 16};
    assert_int_equal(cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err), BASE_OK);
    ok(f, "SELECT name FROM ks.users WHERE id = 7");
    assert_int_equal(f->r.n_rows, 1);
    assert_memory_equal(f->r.cells[0].ptr, "ann", 3);
    /* a table change drops cached statements: drivers re-prepare and see the new columns */
    ok(f, "ALTER TABLE ks.users ADD email text");
    assert_int_equal(cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
    /* a prepared DROP KEYSPACE of the keyspace it was prepared in */
    ok(f, "USE ks");
    base_arena_reset(&f->a);
    const char *drop = "DROP KEYSPACE ks";
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(drop), &f->a, &f->r, &f->err), BASE_OK);
    uint8_t drop_id[16];
    memcpy(drop_id, f->r.prepared_id, 16);
    wire_value_t drop_idv = {drop_id, 16};
    wire_query_params_t none = {.consistency = WIRE_CL_ONE, .paging_state = {NULL, -1}};
    assert_int_equal(cql_execute(f->e, f->s, drop_idv, &none, &f->a, &f->r, &f->err), BASE_OK);
    assert_null(cql_session_keyspace(f->s));
    uint8_t unknown[16] = {1};
    wire_value_t bad = {unknown, 16};
    assert_int_equal(cql_execute(f->e, f->s, bad, &p, &f->a, &f->r, &f->err), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
}


/* Prepares q into id. */
static void prepare(fixture_t *f, const char *q, uint8_t id[16])
{
    base_arena_reset(&f->a);
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(q), &f->a, &f->r, &f->err), BASE_OK);
    memcpy(id, f->r.prepared_id, 16);
}


/* The token of the one partition of ks.t, as SELECT token(...) says. */
static int64_t stored_token(fixture_t *f)
{
    ok(f, "SELECT token(a, b) FROM ks.t");
    assert_int_equal(f->r.n_rows, 1);
    return cell_bigint(f, 0, 0);
}


static void prefetch_notes_the_partition_an_execute_touches(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (a int, b text, c int, v text, PRIMARY KEY ((a, b), c))");
    uint8_t ins[16], sel[16], part[16];
    /* key columns out of order: the composite key follows the table's order */
    prepare(f, "INSERT INTO ks.t (v, c, b, a) VALUES (?, ?, ?, ?)", ins);
    prepare(f, "SELECT v FROM ks.t WHERE a = ? AND b = ? AND c = ?", sel);
    prepare(f, "SELECT v FROM ks.t WHERE a = 7 AND b = ?", part);
    uint8_t a[4] = {0, 0, 0, 7}, c[4] = {0, 0, 0, 1};
    wire_value_t vals[4] = {{(const uint8_t *)"v", 1}, {c, 4}, {(const uint8_t *)"xy", 2}, {a, 4}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 4, .values = vals, .paging_state = {NULL, -1}};
    cql_prefetch_t pf = {.n = 0};
    cql_prefetch_add(f->e, f->s, (wire_value_t){ins, 16}, &p, &pf);
    assert_int_equal(pf.n, 1);
    assert_int_equal(cql_execute(f->e, f->s, (wire_value_t){ins, 16}, &p, &f->a, &f->r, &f->err),
                     BASE_OK);
    int64_t token = stored_token(f);
    assert_true(pf.tokens[0] == token);

    wire_value_t keys[3] = {{a, 4}, {(const uint8_t *)"xy", 2}, {c, 4}};
    wire_query_params_t q = {
        .consistency = WIRE_CL_ONE, .n_values = 3, .values = keys, .paging_state = {NULL, -1}};
    cql_prefetch_add(f->e, f->s, (wire_value_t){sel, 16}, &q, &pf);
    assert_int_equal(pf.n, 2);
    assert_true(pf.tokens[1] == token && pf.tables[1] == pf.tables[0]);
    cql_prefetch_run(&pf);

    /* passed over: a key part given as a literal, too few values, named
     * values, a null key part, an unknown id */
    q.n_values = 1;
    cql_prefetch_add(f->e, f->s, (wire_value_t){part, 16}, &q, &pf);
    cql_prefetch_add(f->e, f->s, (wire_value_t){sel, 16}, &q, &pf);
    q.n_values = 3;
    q.flags = WIRE_QF_NAMES_FOR_VALUES;
    cql_prefetch_add(f->e, f->s, (wire_value_t){sel, 16}, &q, &pf);
    q.flags = 0;
    keys[1].len = WIRE_VALUE_NULL;
    cql_prefetch_add(f->e, f->s, (wire_value_t){sel, 16}, &q, &pf);
    keys[1].len = 2;
    uint8_t unknown[16] = {9};
    cql_prefetch_add(f->e, f->s, (wire_value_t){unknown, 16}, &q, &pf);
    cql_prefetch_add(f->e, f->s, (wire_value_t){sel, 8}, &q, &pf);
    assert_int_equal(pf.n, 2);

    /* a statement whose table is gone notes nothing, whatever became of it */
    ok(f, "DROP TABLE ks.t");
    cql_prefetch_add(f->e, f->s, (wire_value_t){sel, 16}, &q, &pf);
    assert_int_equal(pf.n, 2);

    /* a full batch takes no more (a new one: pf holds the dropped table) */
    pf.n = 0;
    ok(f, "CREATE TABLE ks.kv (k int PRIMARY KEY, v int)");
    uint8_t kv[16];
    prepare(f, "SELECT v FROM ks.kv WHERE k = ?", kv);
    wire_query_params_t one = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = keys, .paging_state = {NULL, -1}};
    for (int i = 0; i < CQL_PREFETCH_MAX + 3; i++) {
        cql_prefetch_add(f->e, f->s, (wire_value_t){kv, 16}, &one, &pf);
    }
    assert_int_equal(pf.n, CQL_PREFETCH_MAX);
    cql_prefetch_run(&pf);
}


/* Keys of every length around the composing limit: whenever a key is noted,
 * its token is the one the write lands on. */
static void prefetch_tokens_match_writes_for_keys_of_any_length(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (a int, b text, v int, PRIMARY KEY ((a, b)))");
    uint8_t ins[16];
    prepare(f, "INSERT INTO ks.t (a, b, v) VALUES (?, ?, 1)", ins);
    uint8_t a[4] = {0, 0, 1, 2};
    char b[320];
    size_t noted = 0;
    for (size_t len = 1; len < sizeof(b); len += 7) { /* an empty part is refused */
        memset(b, 'a' + (int)(len % 26), len);
        wire_value_t vals[2] = {{a, 4}, {(const uint8_t *)b, (int32_t)len}};
        wire_query_params_t p = {
            .consistency = WIRE_CL_ONE, .n_values = 2, .values = vals, .paging_state = {NULL, -1}};
        cql_prefetch_t pf = {.n = 0};
        cql_prefetch_add(f->e, f->s, (wire_value_t){ins, 16}, &p, &pf);
        cql_prefetch_run(&pf);
        ok(f, "TRUNCATE ks.t");
        base_arena_reset(&f->a);
        if (cql_execute(f->e, f->s, (wire_value_t){ins, 16}, &p, &f->a, &f->r, &f->err) !=
            BASE_OK) {
            fail_msg("key of %zu bytes: %s", len, f->err.msg);
        }
        if (pf.n == 1) {
            assert_true(pf.tokens[0] == stored_token(f));
            noted++;
        }
    }
    assert_true(noted > 20); /* the short ones at least */
}


/* Executes the prepared id with k as its one bound value into f->r. */
static int execute_k(fixture_t *f, const uint8_t id[16], int32_t k)
{
    uint8_t kb[4];
    base_store_u32(kb, (uint32_t)k);
    wire_value_t vals[1] = {{kb, 4}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = vals, .paging_state = {NULL, -1}};
    wire_value_t idv = {id, 16};
    base_arena_reset(&f->a);
    return cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err);
}


/* The column named name in the last result, or -1. */
static int col_of(const fixture_t *f, const char *name)
{
    for (size_t i = 0; i < f->r.n_cols; i++) {
        if (strcmp(f->r.cols[i].name, name) == 0) {
            return (int)i;
        }
    }
    return -1;
}


/* An EXECUTE keeps its table, a plain selection and an INSERT's or UPDATE's
 * columns between runs (engine.c, select.c, modify.c) only while the schema
 * stays: after any DDL it resolves and compiles again, and a statement whose
 * table was dropped and made anew reads the new one (or is Unprepared),
 * never the old one's memory. */
static void a_kept_table_and_selection_follow_the_schema(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.a (k int PRIMARY KEY, v int)");
    ok(f, "INSERT INTO ks.a (k, v) VALUES (1, 10)");
    uint8_t sel[16], sel_v[16], ins[16], upd[16];
    prepare(f, "SELECT * FROM ks.a WHERE k = ?", sel);
    prepare(f, "UPDATE ks.a SET v = 30 WHERE k = ?", upd);
    prepare(f, "SELECT v AS value, k FROM ks.a WHERE k = ?", sel_v);
    prepare(f, "INSERT INTO ks.a (k, v) VALUES (?, 20)", ins);
    for (int run = 0; run < 3; run++) { /* the first compiles, the others reuse */
        assert_int_equal(execute_k(f, sel, 1), BASE_OK);
        assert_int_equal(f->r.n_rows, 1);
        assert_int_equal(f->r.n_cols, 2);
        assert_int_equal(cell_int(f, 0, (size_t)col_of(f, "v")), run == 0 ? 10 : 20);
        assert_int_equal(execute_k(f, sel_v, 1), BASE_OK);
        assert_string_equal(f->r.cols[0].name, "value");
        assert_int_equal(cell_int(f, 0, 1), 1);
        assert_int_equal(execute_k(f, ins, 1), BASE_OK);
    }
    ok(f, "CREATE TABLE ks.b (k int PRIMARY KEY)"); /* another table: the statements stay */
    assert_int_equal(execute_k(f, sel, 1), BASE_OK);
    assert_int_equal(f->r.n_cols, 2);
    assert_int_equal(cell_int(f, 0, (size_t)col_of(f, "v")), 20);
    for (int run = 0; run < 2; run++) { /* the statements' columns found again, then kept */
        assert_int_equal(execute_k(f, ins, 4 + run), BASE_OK);
        assert_int_equal(execute_k(f, sel, 4 + run), BASE_OK);
        assert_int_equal(cell_int(f, 0, (size_t)col_of(f, "v")), 20);
        assert_int_equal(execute_k(f, upd, 6 + run), BASE_OK);
        assert_int_equal(execute_k(f, sel, 6 + run), BASE_OK);
        assert_int_equal(f->r.n_rows, 1);
        assert_int_equal(cell_int(f, 0, (size_t)col_of(f, "v")), 30);
    }

    ok(f, "DROP TABLE ks.a");
    assert_int_equal(execute_k(f, ins, 2), BASE_ERROR); /* Unprepared, or no such table */
    ok(f, "CREATE TABLE ks.a (k int PRIMARY KEY, w text, v int)");
    ok(f, "INSERT INTO ks.a (k, w, v) VALUES (1, 'x', 11)");
    int rc = execute_k(f, sel, 1);
    if (rc == BASE_OK) {
        assert_int_equal(f->r.n_cols, 3);
        assert_int_equal(cell_int(f, 0, (size_t)col_of(f, "v")), 11);
    } else {
        assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
    }
    rc = execute_k(f, ins, 3);
    if (rc == BASE_OK) {
        ok(f, "SELECT v FROM ks.a WHERE k = 3");
        assert_int_equal(f->r.n_rows, 1);
        assert_int_equal(cell_int(f, 0, 0), 20);
    } else {
        assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(prepared_statement_binds_by_position, setup, teardown),
        cmocka_unit_test_setup_teardown(prefetch_notes_the_partition_an_execute_touches, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(prefetch_tokens_match_writes_for_keys_of_any_length, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_kept_table_and_selection_follow_the_schema, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/prepared", tests, NULL, NULL);
}
