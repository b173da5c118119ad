/*
 * parser_test_util.h - fixture and assertions shared by the test_parser*.c
 * files: an arena per test, parse-must-succeed / parse-must-fail (Syntax or
 * Invalid) helpers and term checks. Included after cmocka.h.
 */
#ifndef TESTS_UNIT_CQL_PARSER_TEST_UTIL_H
#define TESTS_UNIT_CQL_PARSER_TEST_UTIL_H

#include "cql/parse/parse.h"

typedef struct {
    base_arena_t a;
    base_error_t err;
} parse_fx_t;


static inline int fx_setup(void **state)
{
    parse_fx_t *fx = calloc(1, sizeof(*fx));
    base_arena_init(&fx->a, 4096);
    *state = fx;
    return 0;
}


static inline int fx_teardown(void **state)
{
    parse_fx_t *fx = *state;
    base_arena_fini(&fx->a);
    free(fx);
    return 0;
}


/* Parses from an exact-length heap copy (no NUL after the text), so ASan
 * would catch a read past len. */
static inline int parse_copy(parse_fx_t *fx, const char *q, size_t n, cql_stmt_t **st)
{
    char *buf = malloc(n ? n : 1);
    memcpy(buf, q, n);
    int rc = cql__parse(buf, n, &fx->a, st, &fx->err);
    free(buf);
    return rc;
}


static inline cql_stmt_t *parse_ok(void **state, const char *q)
{
    parse_fx_t *fx = *state;
    cql_stmt_t *st = NULL;
    int rc = parse_copy(fx, q, strlen(q), &st);
    if (rc != BASE_OK) {
        print_message("unexpected error for \"%s\": %s\n", q, fx->err.msg);
    }
    assert_int_equal(rc, BASE_OK);
    assert_non_null(st);
    return st;
}


/* The message of an error with the given CQL code; fails the test on
 * success. */
static inline const char *parse_fails(void **state, const char *q, int code)
{
    parse_fx_t *fx = *state;
    cql_stmt_t *st = (cql_stmt_t *)1;
    int rc = parse_copy(fx, q, strlen(q), &st);
    if (rc == BASE_OK) {
        print_message("unexpected success for \"%s\"\n", q);
    }
    assert_int_equal(rc, BASE_ERROR);
    assert_null(st);
    assert_int_equal(fx->err.code, code);
    return fx->err.msg;
}


/* The message of a Syntax error (0x2000). */
static inline const char *parse_err(void **state, const char *q)
{
    return parse_fails(state, q, 0x2000);
}


/* The message of an Invalid error (0x2200): well-formed but meaningless. */
static inline const char *parse_invalid(void **state, const char *q)
{
    return parse_fails(state, q, 0x2200);
}


static inline void assert_lit(const cql_term_t *t, cql_lit_kind_t lit, const char *text)
{
    assert_non_null(t);
    assert_int_equal(t->kind, CQL_TERM_LITERAL);
    assert_int_equal(t->lit, lit);
    if (text == NULL) {
        assert_null(t->text);
    } else {
        assert_string_equal(t->text, text);
    }
}


static inline void assert_bind(const cql_term_t *t, int index, const char *name)
{
    assert_non_null(t);
    assert_int_equal(t->kind, CQL_TERM_BIND);
    assert_int_equal(t->bind_index, index);
    if (name == NULL) {
        assert_null(t->bind_name);
    } else {
        assert_string_equal(t->bind_name, name);
    }
}


static inline void assert_starts_with(const char *s, const char *prefix)
{
    if (strncmp(s, prefix, strlen(prefix)) != 0) {
        print_message("\"%s\" does not start with \"%s\"\n", s, prefix);
        fail();
    }
}


static inline void assert_contains(const char *s, const char *part)
{
    if (strstr(s, part) == NULL) {
        print_message("\"%s\" does not contain \"%s\"\n", s, part);
        fail();
    }
}

#endif
