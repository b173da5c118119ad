/* Unit tests for the CQL parser's syntax errors and its behaviour on
 * hostile input: positions, messages, nesting bounds, truncations and
 * mutations of valid statements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cql/parse/parse.h"
#include "parser_test_util.h"


static void misspelt_keyword_reports_no_viable_alternative(void **state)
{
    assert_string_equal(parse_err(state, "SELECT * FORM t"),
                        "line 1:9 no viable alternative at input 'FORM' (SELECT * [FORM]...)");
}


static void missing_token_reports_what_was_expected(void **state)
{
    assert_string_equal(parse_err(state, "INSERT INTO t (a, b VALUES (1, 2)"),
                        "line 1:20 mismatched input 'VALUES' expecting ')' "
                        "(INSERT INTO t (a, b [VALUES]...)");
    assert_starts_with(parse_err(state, "UPDATE t SET a = 1"),
                       "line 1:18 mismatched input '<EOF>' expecting K_WHERE");
    assert_starts_with(parse_err(state, "SELECT * FROM t WHERE a IN 1"),
                       "line 1:27 mismatched input '1' expecting '('");
    assert_starts_with(parse_err(state, "SELECT * FROM t LIMIT 'x'"),
                       "line 1:22 mismatched input ''x'' expecting INTEGER");
}


/* CAST is a selector: as a term (VALUES, SET, WHERE) Cassandra's parser gives up at its '('. */
static void cast_outside_the_selection_stops_at_its_parenthesis(void **state)
{
    assert_string_equal(parse_err(state, "INSERT INTO t (a) VALUES (CAST(1.6 AS int))"),
                        "line 1:30 no viable alternative at input '(' "
                        "(INSERT INTO t (a) VALUES (CAST[(]...)");
    assert_starts_with(parse_err(state, "UPDATE t SET c = cast(? as double) WHERE a = 1"),
                       "line 1:21 no viable alternative at input '('");
    assert_starts_with(parse_err(state, "SELECT * FROM t WHERE a = CAST (? AS INT)"),
                       "line 1:31 no viable alternative at input '('");
}


static void error_at_end_of_input(void **state)
{
    assert_string_equal(parse_err(state, "SELECT * FROM"),
                        "line 1:13 no viable alternative at input '<EOF>'");
    assert_string_equal(parse_err(state, ""), "line 1:0 no viable alternative at input '<EOF>'");
    assert_string_equal(parse_err(state, "  -- only a comment"),
                        "line 1:19 no viable alternative at input '<EOF>'");
    assert_string_equal(parse_err(state, ";"), "line 1:0 no viable alternative at input ';' ([;])");
}


static void null_text_is_an_error_not_a_crash(void **state)
{
    parse_fx_t *fx = *state;
    cql_stmt_t *st;
    assert_int_equal(cql__parse(NULL, 0, &fx->a, &st, &fx->err), BASE_ERROR);
    assert_null(st);
    assert_starts_with(fx->err.msg, "line 1:0 ");
}


static void trailing_input_is_refused(void **state)
{
    assert_starts_with(parse_err(state, "SELECT * FROM t; SELECT * FROM t"),
                       "line 1:17 mismatched input 'SELECT' expecting EOF");
    assert_starts_with(parse_err(state, "SELECT * FROM t WHERE a = 1 GROUP a"),
                       "line 1:28 mismatched input 'GROUP' expecting EOF");
}


static void reserved_keywords_are_not_identifiers(void **state)
{
    assert_starts_with(parse_err(state, "SELECT from FROM t"),
                       "line 1:7 no viable alternative at input 'from'");
    assert_starts_with(parse_err(state, "CREATE TABLE t (select int PRIMARY KEY)"),
                       "line 1:16 no viable alternative at input 'select'");
    assert_starts_with(parse_err(state, "SELECT * FROM t WHERE token = 1"),
                       "line 1:22 no viable alternative at input 'token'");
    assert_starts_with(parse_err(state, "SELECT * FROM \"\""),
                       "line 1:14 no viable alternative at input '\"\"'");
    /* quoting makes any word a name */
    cql_stmt_t *st = parse_ok(state, "SELECT \"from\" FROM \"select\"");
    assert_string_equal(st->u.select.selectors[0]->name, "from");
    assert_string_equal(st->u.select.table.name, "select");
}


static void positions_count_lines_and_characters(void **state)
{
    assert_starts_with(parse_err(state, "SELECT *\nFROM t\nWHERE a = = 1"),
                       "line 3:10 no viable alternative at input '='");
    /* 'é' is two bytes but one column */
    assert_starts_with(parse_err(state, "SELECT * FROM t WHERE a = '\xC3\xA9' b"),
                       "line 1:30 mismatched input 'b' expecting EOF");
    const char *msg = parse_err(state, "SELECT a,\n b\n FORM t");
    assert_string_equal(msg,
                        "line 3:1 no viable alternative at input 'FORM' (SELECT a,  b  [FORM]...)");
}


static void lexical_errors(void **state)
{
    assert_string_equal(parse_err(state, "SELECT * FROM t WHERE a = 'abc"),
                        "line 1:30 mismatched character '<EOF>' expecting '''");
    assert_string_equal(parse_err(state, "SELECT * FROM t WHERE a = #"),
                        "line 1:26 no viable alternative at character '#'");
    assert_string_equal(parse_err(state, "SELECT \"abc FROM t"),
                        "line 1:18 mismatched character '<EOF>' expecting '\"'");
    assert_starts_with(parse_err(state, "SELECT * /* unclosed"), "line 1:20 ");
    static const char with_nul[] = "SELECT * FROM t\0 WHERE";
    parse_fx_t *fx = *state;
    cql_stmt_t *st;
    assert_int_equal(parse_copy(fx, with_nul, sizeof(with_nul) - 1, &st), BASE_ERROR);
    assert_starts_with(fx->err.msg, "line 1:15 no viable alternative at character");
}


static void snippet_shows_at_most_ten_tokens_before(void **state)
{
    const char *msg =
        parse_err(state, "SELECT a, b, c, d, e, f, g FROM t WHERE x = 1 AND AND y = 2");
    assert_string_equal(msg, "line 1:50 no viable alternative at input 'AND' "
                             "(...f, g FROM t WHERE x = 1 AND [AND]...)");
}


static void long_tokens_are_cut_in_messages(void **state)
{
    char q[20000];
    strcpy(q, "SELECT * FROM t WHERE a = 1 ");
    size_t n = strlen(q);
    memset(q + n, 'x', 15000);
    q[n + 15000] = '\0';
    const char *msg = parse_err(state, q);
    assert_starts_with(msg, "line 1:28 mismatched input 'xxxx");
    assert_contains(msg, "...' expecting EOF");
    assert_true(strlen(msg) < BASE_ERROR_MSG_MAX);
}


/* n copies of unit, then tail, as one query. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *q = malloc(hl + ul * n + tl + 1), *at = q;
    memcpy(at, head, hl);
    at += hl;
    for (size_t i = 0; i < n; i++, at += ul) {
        memcpy(at, unit, ul);
    }
    memcpy(at, tail, tl + 1);
    return q;
}


static void deep_nesting_is_a_syntax_error_not_a_crash(void **state)
{
    static const struct {
        const char *head, *unit, *tail;
    } cases[] = {
        {"SELECT * FROM t WHERE a = ", "[", ""},
        {"SELECT * FROM t WHERE a = ", "(", ""},
        {"SELECT * FROM t WHERE a = ", "{", ""},
        {"SELECT * FROM t WHERE a = ", "{a: ", ""},
        {"SELECT * FROM t WHERE a = ", "- ", "1"},
        {"SELECT * FROM t WHERE a = ", "f(", ""},
        {"SELECT * FROM t WHERE a = ", "(int) ", "1"},
        {"SELECT * FROM t WHERE ", "(", "a = 1"},
        {"SELECT ", "f(", "a) FROM t"},
        {"SELECT ", "cast(", "a AS int) FROM t"},
        {"CREATE TABLE t (k int PRIMARY KEY, c ", "frozen<", "int>)"},
        {"CREATE TABLE t (k int PRIMARY KEY, c ", "list<", "int>)"},
        {"INSERT INTO t (a) VALUES (", "[", "1])"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *q = repeat(cases[i].head, cases[i].unit, 100000, cases[i].tail);
        const char *msg = parse_err(state, q);
        assert_starts_with(msg, "line 1:");
        assert_contains(msg, "nesting deeper than 64 levels");
        free(q);
    }
}


static void nesting_within_the_bound_is_fine(void **state)
{
    char *q = repeat("INSERT INTO t (a) VALUES (", "[", 60, "");
    size_t n = strlen(q);
    q = realloc(q, n + 60 + 2);
    memset(q + n, ']', 60);
    strcpy(q + n + 60, ")");
    cql_stmt_t *st = parse_ok(state, q);
    assert_int_equal(st->u.insert.values[0]->kind, CQL_TERM_LIST);
    free(q);
}


static void wide_flat_input_is_fine(void **state)
{
    char *q = repeat("SELECT * FROM t WHERE k IN (0", ", 123", 100000, ")");
    cql_stmt_t *st = parse_ok(state, q);
    assert_int_equal(st->u.select.where[0].n_in, 100001);
    free(q);
    q = repeat("SELECT * FROM t WHERE k = ?", " AND c = ?", 20000, "");
    st = parse_ok(state, q);
    assert_int_equal(st->u.select.n_where, 20001);
    assert_int_equal(st->n_binds, 20001);
    assert_int_equal(st->u.select.where[20000].rhs->bind_index, 20000);
    free(q);
}


static void more_than_65535_markers_are_refused(void **state)
{
    parse_fx_t *fx = *state;
    cql_stmt_t *st;
    char *q = repeat("SELECT * FROM t WHERE k IN (?", ", ?", 65535, ")");
    assert_int_equal(parse_copy(fx, q, strlen(q), &st), BASE_ERROR);
    assert_int_equal(fx->err.code, 0x2200);
    assert_string_equal(fx->err.msg,
                        "Too many markers(?). 65536 markers exceed the allowed maximum of 65535");
    free(q);
    q = repeat("SELECT * FROM t WHERE k IN (?", ", ?", 65534, ")");
    st = parse_ok(state, q);
    assert_int_equal(st->n_binds, 65535);
    free(q);
}


/* Every prefix and many single-byte mutations of valid statements either
 * parse or fail with a positioned message; ASan/UBSan check the rest. */
static void truncated_and_mutated_statements_fail_cleanly(void **state)
{
    static const char *valid[] = {
        "SELECT JSON a AS x, count(*), ttl(v), CAST(b AS text) FROM ks.t WHERE a = ? AND b IN "
        "(1, 2) AND token(a) > 3 AND (c, d) >= (1, 'x') AND m CONTAINS KEY :k AND m['k'] = 1 GROUP "
        "BY a "
        "ORDER BY c DESC PER PARTITION LIMIT 1 LIMIT 10 ALLOW FILTERING",
        "INSERT INTO t (a, b, c) VALUES ({'k': [1, 2.5e3]}, (1, null), {f: -Infinity}) "
        "IF NOT EXISTS USING TTL 5 AND TIMESTAMP 6",
        "UPDATE t SET a = a + {1}, m['k'] = 0x12, u.f = 1h30m, l = [P1D] + l WHERE k = "
        "12345678-1234-1234-1234-123456789012 IF a = 'it''s' AND b IN ?",
        "BEGIN UNLOGGED BATCH USING TIMESTAMP 1 DELETE a[1] FROM t WHERE k = $$x$$; "
        "INSERT INTO t JSON '{}' DEFAULT UNSET; APPLY BATCH",
        "CREATE TABLE IF NOT EXISTS \"K\".t (a int, b frozen<map<text, tuple<int, blob>>> static, "
        "PRIMARY KEY ((a), b)) WITH CLUSTERING ORDER BY (b DESC) AND x = {'a': 'b'}",
        "CREATE CUSTOM INDEX IF NOT EXISTS i ON t (entries(m)) USING 'c'",
        "ALTER TABLE t RENAME a TO b AND c TO d",
    };
    static const char mutations[] = {'(', ')', '\'', '"', '$', '[', '{', '?', ':',  '-',
                                     '/', '*', '.',  ',', ';', 'x', '0', ' ', '\0', (char)0xFF};
    parse_fx_t *fx = *state;
    for (size_t v = 0; v < sizeof(valid) / sizeof(valid[0]); v++) {
        const char *q = valid[v];
        size_t n = strlen(q);
        cql_stmt_t *st;
        assert_int_equal(parse_copy(fx, q, n, &st), BASE_OK);
        char *buf = malloc(n);
        for (size_t cut = 0; cut < n; cut++) {
            int rc = parse_copy(fx, q, cut, &st);
            if (rc != BASE_OK) {
                assert_true(strncmp(fx->err.msg, "line ", 5) == 0 || fx->err.code == 0x2200);
            }
            for (size_t m = 0; m < sizeof(mutations); m++) {
                memcpy(buf, q, n);
                buf[cut] = mutations[m];
                rc = parse_copy(fx, buf, n, &st);
                if (rc != BASE_OK) {
                    assert_true(strncmp(fx->err.msg, "line ", 5) == 0 || fx->err.code == 0x2200);
                }
            }
            base_arena_reset(&fx->a);
        }
        free(buf);
    }
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fx_setup, fx_teardown)
    const struct CMUnitTest tests[] = {
        T(misspelt_keyword_reports_no_viable_alternative),
        T(missing_token_reports_what_was_expected),
        T(cast_outside_the_selection_stops_at_its_parenthesis),
        T(error_at_end_of_input),
        T(null_text_is_an_error_not_a_crash),
        T(trailing_input_is_refused),
        T(reserved_keywords_are_not_identifiers),
        T(positions_count_lines_and_characters),
        T(lexical_errors),
        T(snippet_shows_at_most_ten_tokens_before),
        T(long_tokens_are_cut_in_messages),
        T(deep_nesting_is_a_syntax_error_not_a_crash),
        T(nesting_within_the_bound_is_fine),
        T(wide_flat_input_is_fine),
        T(more_than_65535_markers_are_refused),
        T(truncated_and_mutated_statements_fail_cleanly),
    };
#undef T
    return cmocka_run_group_tests_name("cql/parser_errors", tests, NULL, NULL);
}
