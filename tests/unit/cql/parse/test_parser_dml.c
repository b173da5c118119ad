/* Unit tests for the CQL parser: SELECT, INSERT, UPDATE, DELETE, BATCH,
 * terms and bind markers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cql/parse/parse.h"
#include "parser_test_util.h"
#include "wire/wire.h"


/* ---- SELECT ------------------------------------------------------------------------ */

static void select_star_with_partition_key_bind_and_limit(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT * FROM user_events WHERE user_id = ? LIMIT 100");
    assert_int_equal(st->kind, CQL_STMT_SELECT);
    const cql_select_t *s = &st->u.select;
    assert_null(s->table.keyspace);
    assert_string_equal(s->table.name, "user_events");
    assert_int_equal(s->n_selectors, 1);
    assert_int_equal(s->selectors[0]->kind, CQL_SEL_STAR);
    assert_int_equal(s->n_where, 1);
    assert_int_equal(s->where[0].lhs, CQL_LHS_COLUMN);
    assert_int_equal(s->where[0].n_columns, 1);
    assert_string_equal(s->where[0].columns[0], "user_id");
    assert_int_equal(s->where[0].op, CQL_OP_EQ);
    assert_bind(s->where[0].rhs, 0, NULL);
    assert_lit(s->limit, CQL_LIT_INTEGER, "100");
    assert_null(s->per_partition_limit);
    assert_false(s->allow_filtering || s->json || s->distinct);
    assert_int_equal(st->n_binds, 1);
    assert_null(st->bind_names[0]);
}


static void driver_reads_system_local_by_key(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT * FROM system.local WHERE key='local'");
    const cql_select_t *s = &st->u.select;
    assert_string_equal(s->table.keyspace, "system");
    assert_string_equal(s->table.name, "local");
    assert_string_equal(s->where[0].columns[0], "key");
    assert_lit(s->where[0].rhs, CQL_LIT_STRING, "local");
    assert_int_equal(st->n_binds, 0);
}


static void driver_reads_system_peers_columns(void **state)
{
    cql_stmt_t *st =
        parse_ok(state, "SELECT peer, host_id, rpc_address, schema_version FROM system.peers");
    const cql_select_t *s = &st->u.select;
    static const char *cols[] = {"peer", "host_id", "rpc_address", "schema_version"};
    assert_int_equal(s->n_selectors, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(s->selectors[i]->kind, CQL_SEL_COLUMN);
        assert_string_equal(s->selectors[i]->name, cols[i]);
        assert_string_equal(s->selectors[i]->text, cols[i]);
        assert_null(s->selectors[i]->alias);
    }
    assert_string_equal(s->table.name, "peers");
    assert_int_equal(s->n_where, 0);
}


static void driver_reads_system_schema_functions_with_a_list(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT * FROM system_schema.functions WHERE keyspace_name = "
                                     "'ks' AND function_name = 'f' AND argument_types = ['int']");
    const cql_select_t *s = &st->u.select;
    assert_string_equal(s->table.keyspace, "system_schema");
    assert_string_equal(s->table.name, "functions");
    assert_int_equal(s->n_where, 3);
    assert_string_equal(s->where[2].columns[0], "argument_types");
    const cql_term_t *l = s->where[2].rhs;
    assert_int_equal(l->kind, CQL_TERM_LIST);
    assert_int_equal(l->n_items, 1);
    assert_lit(l->items[0], CQL_LIT_STRING, "int");
}


static void select_json_distinct_and_aliases(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT JSON a AS x, b AS \"Y\" FROM t");
    const cql_select_t *s = &st->u.select;
    assert_true(s->json);
    assert_false(s->distinct);
    assert_string_equal(s->selectors[0]->alias, "x");
    assert_string_equal(s->selectors[1]->alias, "Y");

    st = parse_ok(state, "SELECT DISTINCT pk FROM t");
    assert_true(st->u.select.distinct);
    assert_string_equal(st->u.select.selectors[0]->name, "pk");

    st = parse_ok(state, "SELECT JSON * FROM t");
    assert_true(st->u.select.json);
    assert_int_equal(st->u.select.selectors[0]->kind, CQL_SEL_STAR);

    /* json and distinct are unreserved: here they are columns */
    st = parse_ok(state, "SELECT json, distinct FROM t");
    assert_false(st->u.select.json || st->u.select.distinct);
    assert_string_equal(st->u.select.selectors[0]->name, "json");
    assert_string_equal(st->u.select.selectors[1]->name, "distinct");
    st = parse_ok(state, "SELECT json FROM t");
    assert_false(st->u.select.json);
}


static void select_function_selectors_are_named_like_cassandra(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT count(*), COUNT(1) AS n, TTL( v ), writetime(v), "
                                     "token(a, b), toJson(m), system.now(), CAST(x AS text), "
                                     "u.city, count(v), ks.myfn(1, 'a') FROM t");
    const cql_select_t *s = &st->u.select;
    assert_int_equal(s->n_selectors, 11);
    cql_selector_t **sel = s->selectors;
    assert_int_equal(sel[0]->kind, CQL_SEL_COUNT_STAR);
    assert_string_equal(sel[0]->name, "count");
    assert_string_equal(sel[0]->text, "count(*)");
    assert_int_equal(sel[1]->kind, CQL_SEL_COUNT_STAR);
    assert_string_equal(sel[1]->alias, "n");
    assert_int_equal(sel[2]->kind, CQL_SEL_FUNCTION);
    assert_string_equal(sel[2]->name, "ttl");
    assert_string_equal(sel[2]->text, "ttl(v)");
    assert_int_equal(sel[2]->n_args, 1);
    assert_int_equal(sel[2]->args[0]->kind, CQL_SEL_COLUMN);
    assert_string_equal(sel[2]->args[0]->name, "v");
    assert_string_equal(sel[3]->text, "writetime(v)");
    assert_string_equal(sel[4]->name, "token");
    assert_string_equal(sel[4]->text, "token(a, b)");
    assert_int_equal(sel[4]->n_args, 2);
    assert_string_equal(sel[5]->name, "tojson");
    assert_string_equal(sel[6]->name, "now");
    assert_int_equal(sel[6]->n_args, 0);
    assert_string_equal(sel[6]->text, "now()");
    assert_int_equal(sel[7]->kind, CQL_SEL_CAST);
    assert_string_equal(sel[7]->cast_type->name, "text");
    assert_string_equal(sel[7]->args[0]->name, "x");
    assert_string_equal(sel[7]->text, "cast(x as text)");
    assert_int_equal(sel[8]->kind, CQL_SEL_FIELD);
    assert_int_equal(sel[8]->args[0]->kind, CQL_SEL_COLUMN);
    assert_string_equal(sel[8]->args[0]->name, "u");
    assert_string_equal(sel[8]->field, "city");
    assert_string_equal(sel[8]->text, "u.city");
    assert_int_equal(sel[9]->kind, CQL_SEL_FUNCTION);
    assert_string_equal(sel[9]->text, "count(v)");
    assert_string_equal(sel[10]->name, "ks.myfn");
    assert_int_equal(sel[10]->args[0]->kind, CQL_SEL_TERM);
    assert_lit(sel[10]->args[0]->term, CQL_LIT_INTEGER, "1");
    assert_string_equal(sel[10]->args[1]->text, "'a'");
}


/* b.x.a, m['k'], m[1..3], s[..'c'], m[?].f: postfix selections chain, innermost first. */
static void element_and_field_selectors_chain(void **state)
{
    cql_stmt_t *st =
        parse_ok(state, "SELECT b.x.a, m['k'], m[1..3], s[..'c'], m[?].f, n[1][2] FROM t");
    cql_selector_t **sel = st->u.select.selectors;
    assert_int_equal(st->u.select.n_selectors, 6);
    assert_int_equal(sel[0]->kind, CQL_SEL_FIELD);
    assert_string_equal(sel[0]->field, "a");
    assert_int_equal(sel[0]->args[0]->kind, CQL_SEL_FIELD);
    assert_string_equal(sel[0]->args[0]->field, "x");
    assert_string_equal(sel[0]->args[0]->args[0]->name, "b");
    assert_string_equal(sel[0]->text, "b.x.a");
    assert_int_equal(sel[1]->kind, CQL_SEL_ELEMENT);
    assert_lit(sel[1]->term, CQL_LIT_STRING, "k");
    assert_string_equal(sel[1]->text, "m['k']");
    assert_int_equal(sel[2]->kind, CQL_SEL_SLICE);
    assert_lit(sel[2]->term, CQL_LIT_INTEGER, "1");
    assert_lit(sel[2]->term_hi, CQL_LIT_INTEGER, "3");
    assert_int_equal(sel[3]->kind, CQL_SEL_SLICE);
    assert_null(sel[3]->term);
    assert_lit(sel[3]->term_hi, CQL_LIT_STRING, "c");
    assert_int_equal(sel[4]->kind, CQL_SEL_FIELD);
    assert_int_equal(sel[4]->args[0]->kind, CQL_SEL_ELEMENT);
    assert_int_equal(sel[4]->args[0]->term->kind, CQL_TERM_BIND);
    assert_int_equal(sel[5]->kind, CQL_SEL_ELEMENT);
    assert_int_equal(sel[5]->args[0]->kind, CQL_SEL_ELEMENT);
}


static void unreserved_keywords_are_column_names(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT key, type, ttl, writetime, count, date, time, "
                                     "timestamp, value, values, static, frozen FROM t");
    const cql_select_t *s = &st->u.select;
    static const char *cols[] = {"key",  "type",      "ttl",   "writetime", "count",  "date",
                                 "time", "timestamp", "value", "values",    "static", "frozen"};
    assert_int_equal(s->n_selectors, 12);
    for (size_t i = 0; i < 12; i++) {
        assert_int_equal(s->selectors[i]->kind, CQL_SEL_COLUMN);
        assert_string_equal(s->selectors[i]->name, cols[i]);
    }
}


static void identifiers_are_normalised(void **state)
{
    cql_stmt_t *st = parse_ok(state, "sElEcT MyCol, \"MyCol\", \"a\"\"b\" FrOm \"Ks\".MyTable");
    const cql_select_t *s = &st->u.select;
    assert_string_equal(s->selectors[0]->name, "mycol");
    assert_string_equal(s->selectors[1]->name, "MyCol");
    assert_string_equal(s->selectors[2]->name, "a\"b");
    assert_string_equal(s->table.keyspace, "Ks");
    assert_string_equal(s->table.name, "mytable");
}


static void where_supports_every_relation_form(void **state)
{
    cql_stmt_t *st = parse_ok(
        state, "SELECT * FROM t WHERE a = 1 AND b < 2 AND c <= 3 AND d > 4 AND e >= 5 AND f != 6 "
               "AND g IN (7, 8) AND h IN ? AND i CONTAINS 9 AND j CONTAINS KEY 'k' "
               "AND token(a, b) > ? AND (c, d) > (1, 2) AND m['k'] = ? AND n LIKE 'x%' "
               "AND o IS NOT NULL AND (p = 1) AND (q, r) IN ((1, 2), (3, 4)) AND (s) IN () "
               "AND key CONTAINS 'v'");
    const cql_select_t *s = &st->u.select;
    assert_int_equal(s->n_where, 19);
    const cql_relation_t *w = s->where;
    static const cql_rel_op_t ops[] = {CQL_OP_EQ,       CQL_OP_LT,          CQL_OP_LTE, CQL_OP_GT,
                                       CQL_OP_GTE,      CQL_OP_NEQ,         CQL_OP_IN,  CQL_OP_IN,
                                       CQL_OP_CONTAINS, CQL_OP_CONTAINS_KEY};
    for (size_t i = 0; i < 10; i++) {
        assert_int_equal(w[i].op, ops[i]);
        assert_int_equal(w[i].lhs, CQL_LHS_COLUMN);
    }
    assert_lit(w[5].rhs, CQL_LIT_INTEGER, "6");
    assert_int_equal(w[6].n_in, 2);
    assert_null(w[6].rhs);
    assert_lit(w[6].in_values[1], CQL_LIT_INTEGER, "8");
    assert_int_equal(w[7].n_in, 0);
    assert_bind(w[7].rhs, 0, NULL);
    assert_lit(w[9].rhs, CQL_LIT_STRING, "k");

    assert_int_equal(w[10].lhs, CQL_LHS_TOKEN);
    assert_int_equal(w[10].n_columns, 2);
    assert_string_equal(w[10].columns[1], "b");
    assert_int_equal(w[10].op, CQL_OP_GT);
    assert_bind(w[10].rhs, 1, NULL);

    assert_int_equal(w[11].lhs, CQL_LHS_TUPLE);
    assert_int_equal(w[11].n_columns, 2);
    assert_int_equal(w[11].rhs->kind, CQL_TERM_TUPLE);
    assert_int_equal(w[11].rhs->n_items, 2);

    assert_int_equal(w[12].lhs, CQL_LHS_ELEMENT);
    assert_string_equal(w[12].columns[0], "m");
    assert_lit(w[12].element, CQL_LIT_STRING, "k");
    assert_bind(w[12].rhs, 2, NULL);

    assert_int_equal(w[13].op, CQL_OP_LIKE);
    assert_int_equal(w[14].op, CQL_OP_IS_NOT_NULL);
    assert_null(w[14].rhs);
    assert_string_equal(w[15].columns[0], "p");
    assert_int_equal(w[15].op, CQL_OP_EQ);
    assert_int_equal(w[16].lhs, CQL_LHS_TUPLE);
    assert_int_equal(w[16].op, CQL_OP_IN);
    assert_int_equal(w[16].n_in, 2);
    assert_int_equal(w[16].in_values[1]->kind, CQL_TERM_TUPLE);
    assert_int_equal(w[17].n_in, 0);
    assert_int_equal(w[17].n_columns, 1);
    assert_string_equal(w[18].columns[0], "key");
    assert_int_equal(w[18].op, CQL_OP_CONTAINS);
    assert_int_equal(st->n_binds, 3);
}


static void token_relation_compares_with_token_function(void **state)
{
    cql_stmt_t *st = parse_ok(
        state, "SELECT * FROM t WHERE token(userid) > token('tom') AND TOKEN(userid) <= ?");
    const cql_relation_t *w = st->u.select.where;
    assert_int_equal(w[0].rhs->kind, CQL_TERM_FUNCTION);
    assert_string_equal(w[0].rhs->text, "token");
    assert_lit(w[0].rhs->items[0], CQL_LIT_STRING, "tom");
    assert_int_equal(w[1].op, CQL_OP_LTE);
}


static void select_trailing_clauses_in_order(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT a, max(b) FROM ks.t WHERE a = 1 GROUP BY a, c "
                                     "ORDER BY c DESC, d ASC, e PER PARTITION LIMIT 2 LIMIT ? "
                                     "ALLOW FILTERING;");
    const cql_select_t *s = &st->u.select;
    assert_int_equal(s->n_group_by, 2);
    assert_string_equal(s->group_by[1], "c");
    assert_int_equal(s->n_order, 3);
    assert_string_equal(s->order[0].column, "c");
    assert_true(s->order[0].desc);
    assert_false(s->order[1].desc);
    assert_false(s->order[2].desc);
    assert_lit(s->per_partition_limit, CQL_LIT_INTEGER, "2");
    assert_bind(s->limit, 0, NULL);
    assert_true(s->allow_filtering);
}


static void bind_markers_are_numbered_in_order_of_appearance(void **state)
{
    cql_stmt_t *st = parse_ok(state, "SELECT * FROM t WHERE a = :a AND b IN :bs AND c = ? "
                                     "AND d = :A AND e = :\"Q\" LIMIT :lim");
    assert_int_equal(st->n_binds, 6);
    static const char *names[] = {"a", "bs", NULL, "a", "Q", "lim"};
    for (size_t i = 0; i < 6; i++) {
        if (names[i] == NULL) {
            assert_null(st->bind_names[i]);
        } else {
            assert_string_equal(st->bind_names[i], names[i]);
        }
    }
    const cql_relation_t *w = st->u.select.where;
    assert_bind(w[0].rhs, 0, "a");
    assert_bind(w[1].rhs, 1, "bs");
    assert_bind(w[2].rhs, 2, NULL);
    assert_bind(w[3].rhs, 3, "a"); /* a repeated name keeps one index per occurrence */
    assert_bind(st->u.select.limit, 5, "lim");
}


/* ---- terms ----------------------------------------------------------------------------- */

/* The value of "INSERT INTO t (c) VALUES (<term>)". */
static const cql_term_t *value_of(void **state, const char *term)
{
    char q[512];
    snprintf(q, sizeof(q), "INSERT INTO t (c) VALUES (%s)", term);
    cql_stmt_t *st = parse_ok(state, q);
    assert_int_equal(st->u.insert.n_columns, 1);
    return st->u.insert.values[0];
}


static void constants_are_normalised(void **state)
{
    assert_lit(value_of(state, "'it''s'"), CQL_LIT_STRING, "it's");
    assert_lit(value_of(state, "''"), CQL_LIT_STRING, "");
    assert_lit(value_of(state, "$$it's $ raw$$"), CQL_LIT_STRING, "it's $ raw");
    assert_lit(value_of(state, "'caf\xC3\xA9'"), CQL_LIT_STRING, "caf\xC3\xA9");
    assert_lit(value_of(state, "42"), CQL_LIT_INTEGER, "42");
    assert_lit(value_of(state, "-42"), CQL_LIT_INTEGER, "-42");
    assert_lit(value_of(state, "- 42"), CQL_LIT_INTEGER, "-42");
    assert_lit(value_of(state, "3.25"), CQL_LIT_FLOAT, "3.25");
    assert_lit(value_of(state, "-1.5e-3"), CQL_LIT_FLOAT, "-1.5e-3");
    assert_lit(value_of(state, "2E10"), CQL_LIT_FLOAT, "2E10");
    assert_lit(value_of(state, "NaN"), CQL_LIT_FLOAT, "NaN");
    assert_lit(value_of(state, "nan"), CQL_LIT_FLOAT, "NaN");
    assert_lit(value_of(state, "Infinity"), CQL_LIT_FLOAT, "Infinity");
    assert_lit(value_of(state, "-infinity"), CQL_LIT_FLOAT, "-Infinity");
    assert_lit(value_of(state, "TRUE"), CQL_LIT_BOOLEAN, "true");
    assert_lit(value_of(state, "false"), CQL_LIT_BOOLEAN, "false");
    assert_lit(value_of(state, "NULL"), CQL_LIT_NULL, NULL);
    assert_lit(value_of(state, "B70DE1D0-9908-4AE3-BE34-5573E5B09F14"), CQL_LIT_UUID,
               "b70de1d0-9908-4ae3-be34-5573e5b09f14");
    assert_lit(value_of(state, "0xCAFE"), CQL_LIT_HEX, "CAFE");
    assert_lit(value_of(state, "0x"), CQL_LIT_HEX, "");
}


static void durations_in_every_notation(void **state)
{
    assert_lit(value_of(state, "1h30m"), CQL_LIT_DURATION, "1h30m");
    assert_lit(value_of(state, "12MO3D"), CQL_LIT_DURATION, "12mo3d");
    assert_lit(value_of(state, "-2d"), CQL_LIT_DURATION, "-2d");
    assert_lit(value_of(state, "1\xC2\xB5s"), CQL_LIT_DURATION, "1\xC2\xB5s");
    assert_lit(value_of(state, "P1DT2H"), CQL_LIT_DURATION, "P1DT2H");
    assert_lit(value_of(state, "pt30m"), CQL_LIT_DURATION, "PT30M");
    assert_lit(value_of(state, "P2W"), CQL_LIT_DURATION, "P2W");
    assert_lit(value_of(state, "-P1D"), CQL_LIT_DURATION, "-P1D");
    assert_lit(value_of(state, "P0001-02-03T04:05:06"), CQL_LIT_DURATION, "P0001-02-03T04:05:06");
}


static void collection_literals(void **state)
{
    const cql_term_t *t = value_of(state, "[1, 2, 3]");
    assert_int_equal(t->kind, CQL_TERM_LIST);
    assert_int_equal(t->n_items, 3);
    assert_int_equal(value_of(state, "[]")->n_items, 0);

    t = value_of(state, "{'a', 'b'}");
    assert_int_equal(t->kind, CQL_TERM_SET);
    assert_int_equal(t->n_items, 2);
    t = value_of(state, "{1}");
    assert_int_equal(t->kind, CQL_TERM_SET);
    assert_int_equal(t->n_items, 1);

    t = value_of(state, "{'k1': 1, 'k2': [2]}");
    assert_int_equal(t->kind, CQL_TERM_MAP);
    assert_int_equal(t->n_items, 4);
    assert_lit(t->items[0], CQL_LIT_STRING, "k1");
    assert_lit(t->items[1], CQL_LIT_INTEGER, "1");
    assert_int_equal(t->items[3]->kind, CQL_TERM_LIST);

    t = value_of(state, "{}");
    assert_int_equal(t->kind, CQL_TERM_MAP);
    assert_int_equal(t->n_items, 0);

    t = value_of(state, "(1, 'a', null)");
    assert_int_equal(t->kind, CQL_TERM_TUPLE);
    assert_int_equal(t->n_items, 3);
    assert_lit(t->items[2], CQL_LIT_NULL, NULL);

    t = value_of(state, "{street: '1 Main', \"Zip\": 12345, loc: {lat: 1.5}}");
    assert_int_equal(t->kind, CQL_TERM_UDT);
    assert_int_equal(t->n_items, 3);
    assert_string_equal(t->field_names[0], "street");
    assert_string_equal(t->field_names[1], "Zip");
    assert_int_equal(t->items[2]->kind, CQL_TERM_UDT);

    t = value_of(state, "[{1: [(1, {2})]}]");
    assert_int_equal(t->items[0]->kind, CQL_TERM_MAP);
    assert_int_equal(t->items[0]->items[1]->items[0]->kind, CQL_TERM_TUPLE);
}


static void functions_type_hints_and_negation(void **state)
{
    const cql_term_t *t = value_of(state, "toTimestamp(now())");
    assert_int_equal(t->kind, CQL_TERM_FUNCTION);
    assert_string_equal(t->text, "totimestamp");
    assert_null(t->keyspace);
    assert_int_equal(t->n_items, 1);
    assert_string_equal(t->items[0]->text, "now");
    assert_int_equal(t->items[0]->n_items, 0);

    t = value_of(state, "ks.\"MyFn\"(1, ?)");
    assert_string_equal(t->keyspace, "ks");
    assert_string_equal(t->text, "MyFn");
    assert_bind(t->items[1], 0, NULL);

    t = value_of(state, "(int) ?");
    assert_int_equal(t->kind, CQL_TERM_CAST);
    assert_string_equal(t->cast_type->name, "int");
    assert_bind(t->items[0], 0, NULL);

    t = value_of(state, "(list<int>) [1]");
    assert_int_equal(t->kind, CQL_TERM_CAST);
    assert_string_equal(t->cast_type->name, "list");
    assert_int_equal(t->items[0]->kind, CQL_TERM_LIST);

    t = value_of(state, "(set<text>) {}");
    assert_string_equal(t->cast_type->name, "set");

    t = value_of(state, "(uuid(), 1)"); /* a tuple that starts with a call */
    assert_int_equal(t->kind, CQL_TERM_TUPLE);
    assert_int_equal(t->items[0]->kind, CQL_TERM_FUNCTION);

    t = value_of(state, "(P1D)"); /* a 1-tuple holding an ISO duration, not a hint */
    assert_int_equal(t->kind, CQL_TERM_TUPLE);
    assert_lit(t->items[0], CQL_LIT_DURATION, "P1D");

    t = value_of(state, "-abs(1)");
    assert_int_equal(t->kind, CQL_TERM_NEGATE);
    assert_int_equal(t->items[0]->kind, CQL_TERM_FUNCTION);
}


/* ---- INSERT ------------------------------------------------------------------------------ */

static void insert_with_if_not_exists_and_using(void **state)
{
    cql_stmt_t *st = parse_ok(state, "INSERT INTO ks.users (id, name, tags) VALUES (?, 'bob', "
                                     "{'a'}) IF NOT EXISTS USING TTL 86400 AND TIMESTAMP ?");
    assert_int_equal(st->kind, CQL_STMT_INSERT);
    const cql_insert_t *ins = &st->u.insert;
    assert_string_equal(ins->table.keyspace, "ks");
    assert_string_equal(ins->table.name, "users");
    assert_int_equal(ins->n_columns, 3);
    assert_string_equal(ins->columns[2], "tags");
    assert_bind(ins->values[0], 0, NULL);
    assert_lit(ins->values[1], CQL_LIT_STRING, "bob");
    assert_int_equal(ins->values[2]->kind, CQL_TERM_SET);
    assert_true(ins->if_not_exists);
    assert_lit(ins->using_.ttl, CQL_LIT_INTEGER, "86400");
    assert_bind(ins->using_.timestamp, 1, NULL);
    assert_null(ins->json);
    assert_int_equal(st->n_binds, 2);

    st = parse_ok(state, "INSERT INTO t (a) VALUES (1) USING TIMESTAMP 5 IF NOT EXISTS");
    assert_true(st->u.insert.if_not_exists);
    assert_lit(st->u.insert.using_.timestamp, CQL_LIT_INTEGER, "5");
    assert_null(st->u.insert.using_.ttl);
}


static void insert_json_with_defaults(void **state)
{
    cql_stmt_t *st = parse_ok(state, "INSERT INTO t JSON '{\"id\": 1, \"v\": \"it''s\"}'");
    const cql_insert_t *ins = &st->u.insert;
    assert_lit(ins->json, CQL_LIT_STRING, "{\"id\": 1, \"v\": \"it's\"}");
    assert_int_equal(ins->n_columns, 0);
    assert_false(ins->json_default_unset);

    st = parse_ok(state, "INSERT INTO t JSON ? DEFAULT UNSET");
    assert_bind(st->u.insert.json, 0, NULL);
    assert_true(st->u.insert.json_default_unset);

    st = parse_ok(state, "INSERT INTO t JSON :j DEFAULT NULL IF NOT EXISTS");
    assert_bind(st->u.insert.json, 0, "j");
    assert_false(st->u.insert.json_default_unset);
    assert_true(st->u.insert.if_not_exists);
}


static void insert_with_unmatched_values_is_invalid(void **state)
{
    assert_string_equal(parse_invalid(state, "INSERT INTO t (a, b) VALUES (1)"),
                        "Unmatched column names/values");
}


/* ---- UPDATE ------------------------------------------------------------------------------ */

static void update_assignment_forms(void **state)
{
    cql_stmt_t *st = parse_ok(state, "UPDATE ks.t USING TTL ? AND TIMESTAMP 10 SET a = 1, "
                                     "c = c + 2, d = d - 3, l = [0] + l, m['k'] = ?, u.f = 'x', "
                                     "s = s + {'a'}, n += 1, o -= {'z'}, cnt = cnt -1 "
                                     "WHERE k = ? AND ck = 2");
    assert_int_equal(st->kind, CQL_STMT_UPDATE);
    const cql_update_t *up = &st->u.update;
    assert_string_equal(up->table.keyspace, "ks");
    assert_bind(up->using_.ttl, 0, NULL);
    assert_lit(up->using_.timestamp, CQL_LIT_INTEGER, "10");
    assert_int_equal(up->n_assign, 10);
    const cql_assignment_t *as = up->assign;
    assert_int_equal(as[0].kind, CQL_ASSIGN_SET);
    assert_string_equal(as[0].column, "a");
    assert_lit(as[0].value, CQL_LIT_INTEGER, "1");
    assert_int_equal(as[1].kind, CQL_ASSIGN_ADD);
    assert_lit(as[1].value, CQL_LIT_INTEGER, "2");
    assert_int_equal(as[2].kind, CQL_ASSIGN_SUB);
    assert_int_equal(as[3].kind, CQL_ASSIGN_PREPEND);
    assert_string_equal(as[3].column, "l");
    assert_int_equal(as[3].value->kind, CQL_TERM_LIST);
    assert_int_equal(as[4].kind, CQL_ASSIGN_ELEMENT);
    assert_lit(as[4].key, CQL_LIT_STRING, "k");
    assert_bind(as[4].value, 1, NULL);
    assert_int_equal(as[5].kind, CQL_ASSIGN_FIELD);
    assert_string_equal(as[5].field, "f");
    assert_int_equal(as[6].kind, CQL_ASSIGN_ADD);
    assert_int_equal(as[6].value->kind, CQL_TERM_SET);
    assert_int_equal(as[7].kind, CQL_ASSIGN_ADD);
    assert_int_equal(as[8].kind, CQL_ASSIGN_SUB);
    assert_int_equal(as[9].kind, CQL_ASSIGN_SUB);
    assert_lit(as[9].value, CQL_LIT_INTEGER, "1");
    assert_int_equal(up->n_where, 2);
    assert_bind(up->where[0].rhs, 2, NULL);
    assert_false(up->cond.if_exists);
    assert_int_equal(up->cond.n, 0);
}


static void update_conditions(void **state)
{
    cql_stmt_t *st = parse_ok(state, "UPDATE t SET v = 1 WHERE k = 1 IF EXISTS");
    assert_true(st->u.update.cond.if_exists);
    assert_int_equal(st->u.update.cond.n, 0);

    st = parse_ok(state, "UPDATE t SET v = 1 WHERE k = 1 IF v = 0 AND m['a'] != ? AND "
                         "w IN (1, 2) AND x > 3 AND exists = true");
    const cql_conditions_t *c = &st->u.update.cond;
    assert_false(c->if_exists);
    assert_int_equal(c->n, 5);
    assert_string_equal(c->conds[0].column, "v");
    assert_int_equal(c->conds[0].op, CQL_OP_EQ);
    assert_null(c->conds[0].element);
    assert_lit(c->conds[1].element, CQL_LIT_STRING, "a");
    assert_int_equal(c->conds[1].op, CQL_OP_NEQ);
    assert_bind(c->conds[1].rhs, 0, NULL);
    assert_int_equal(c->conds[2].op, CQL_OP_IN);
    assert_int_equal(c->conds[2].n_in, 2);
    assert_int_equal(c->conds[3].op, CQL_OP_GT);
    assert_string_equal(c->conds[4].column, "exists");
}


static void update_with_another_column_on_the_right_is_a_syntax_error(void **state)
{
    const char *msg = parse_err(state, "UPDATE t SET a = b + 1 WHERE k = 1");
    assert_starts_with(msg, "line 1:17 ");
    assert_contains(msg, "Only expressions of the form X = X +<value> are supported.");
    msg = parse_err(state, "UPDATE t SET a = [1] + b WHERE k = 1");
    assert_contains(msg, "X = <value> + X");
}


/* ---- DELETE ------------------------------------------------------------------------------ */

static void delete_forms(void **state)
{
    cql_stmt_t *st = parse_ok(state, "DELETE FROM t WHERE k = 1");
    assert_int_equal(st->kind, CQL_STMT_DELETE);
    assert_int_equal(st->u.del.n_targets, 0);
    assert_int_equal(st->u.del.n_where, 1);

    st = parse_ok(state, "DELETE a, m['k'], u.f, l[?] FROM ks.t USING TIMESTAMP 123 "
                         "WHERE k IN (1, 2) AND c >= 3 IF EXISTS");
    const cql_delete_t *d = &st->u.del;
    assert_int_equal(d->n_targets, 4);
    assert_string_equal(d->targets[0].column, "a");
    assert_null(d->targets[0].element);
    assert_null(d->targets[0].field);
    assert_string_equal(d->targets[1].column, "m");
    assert_lit(d->targets[1].element, CQL_LIT_STRING, "k");
    assert_string_equal(d->targets[2].field, "f");
    assert_bind(d->targets[3].element, 0, NULL);
    assert_lit(d->using_.timestamp, CQL_LIT_INTEGER, "123");
    assert_null(d->using_.ttl);
    assert_int_equal(d->where[0].op, CQL_OP_IN);
    assert_true(d->cond.if_exists);

    st = parse_ok(state, "DELETE FROM t WHERE k = 1 IF v = 2");
    assert_int_equal(st->u.del.cond.n, 1);
}


static void delete_refuses_ttl(void **state)
{
    const char *msg = parse_err(state, "DELETE FROM t USING TTL 5 WHERE k = 1");
    assert_string_equal(msg, "line 1:20 mismatched input 'TTL' expecting K_TIMESTAMP "
                             "(DELETE FROM t USING [TTL]...)");
}


/* ---- BATCH ------------------------------------------------------------------------------- */

static void batch_numbers_markers_across_statements(void **state)
{
    cql_stmt_t *st = parse_ok(state, "BEGIN BATCH USING TIMESTAMP 99\n"
                                     "  INSERT INTO users (id, name) VALUES (?, ?);\n"
                                     "  UPDATE users SET name = :n WHERE id = ?;\n"
                                     "  DELETE name FROM users WHERE id = ?\n"
                                     "APPLY BATCH;");
    assert_int_equal(st->kind, CQL_STMT_BATCH);
    const cql_batch_t *b = &st->u.batch;
    assert_int_equal(b->type, WIRE_BATCH_LOGGED);
    assert_lit(b->using_.timestamp, CQL_LIT_INTEGER, "99");
    assert_int_equal(b->n_stmts, 3);
    assert_int_equal(b->stmts[0]->kind, CQL_STMT_INSERT);
    assert_int_equal(b->stmts[1]->kind, CQL_STMT_UPDATE);
    assert_int_equal(b->stmts[2]->kind, CQL_STMT_DELETE);
    assert_bind(b->stmts[0]->u.insert.values[1], 1, NULL);
    assert_bind(b->stmts[1]->u.update.assign[0].value, 2, "n");
    assert_bind(b->stmts[2]->u.del.where[0].rhs, 4, NULL);
    assert_int_equal(st->n_binds, 5);
    assert_string_equal(st->bind_names[2], "n");
    assert_int_equal(b->stmts[1]->n_binds, 5);
    assert_ptr_equal(b->stmts[1]->bind_names, st->bind_names);
}


static void batch_kinds(void **state)
{
    cql_stmt_t *st = parse_ok(state, "begin unlogged batch insert into t (a) values (1) "
                                     "insert into t (a) values (2) apply batch");
    assert_int_equal(st->u.batch.type, WIRE_BATCH_UNLOGGED);
    assert_int_equal(st->u.batch.n_stmts, 2);
    st = parse_ok(state, "BEGIN COUNTER BATCH UPDATE c SET n = n + 1 WHERE k = 1; APPLY BATCH");
    assert_int_equal(st->u.batch.type, WIRE_BATCH_COUNTER);
    st = parse_ok(state, "BEGIN BATCH APPLY BATCH");
    assert_int_equal(st->u.batch.n_stmts, 0);
}


static void batch_refuses_other_statements(void **state)
{
    const char *msg = parse_err(state, "BEGIN BATCH SELECT * FROM t APPLY BATCH");
    assert_starts_with(msg, "line 1:12 no viable alternative at input 'SELECT'");
    msg = parse_err(state, "BEGIN BATCH INSERT INTO t (a) VALUES (1);");
    assert_starts_with(msg, "line 1:41 no viable alternative at input '<EOF>'");
}


static void comments_and_whitespace_are_ignored(void **state)
{
    cql_stmt_t *st = parse_ok(state, "-- leading\n/* block */ SELECT a // trailing\n"
                                     "FROM\tt\r\n WHERE a = 1 ; -- done");
    assert_string_equal(st->u.select.table.name, "t");
    assert_int_equal(st->u.select.n_where, 1);
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fx_setup, fx_teardown)
    const struct CMUnitTest tests[] = {
        T(select_star_with_partition_key_bind_and_limit),
        T(driver_reads_system_local_by_key),
        T(driver_reads_system_peers_columns),
        T(driver_reads_system_schema_functions_with_a_list),
        T(select_json_distinct_and_aliases),
        T(select_function_selectors_are_named_like_cassandra),
        T(element_and_field_selectors_chain),
        T(unreserved_keywords_are_column_names),
        T(identifiers_are_normalised),
        T(where_supports_every_relation_form),
        T(token_relation_compares_with_token_function),
        T(select_trailing_clauses_in_order),
        T(bind_markers_are_numbered_in_order_of_appearance),
        T(constants_are_normalised),
        T(durations_in_every_notation),
        T(collection_literals),
        T(functions_type_hints_and_negation),
        T(insert_with_if_not_exists_and_using),
        T(insert_json_with_defaults),
        T(insert_with_unmatched_values_is_invalid),
        T(update_assignment_forms),
        T(update_conditions),
        T(update_with_another_column_on_the_right_is_a_syntax_error),
        T(delete_forms),
        T(delete_refuses_ttl),
        T(batch_numbers_markers_across_statements),
        T(batch_kinds),
        T(batch_refuses_other_statements),
        T(comments_and_whitespace_are_ignored),
    };
#undef T
    return cmocka_run_group_tests_name("cql/parser_dml", tests, NULL, NULL);
}
