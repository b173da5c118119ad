/*
 * value_test.h - helpers for the cql value tests: an arena per test, term
 * builders, hex <-> value conversion and type builders. Everything lives in
 * the test arena `ta`, reset by the setup/teardown pair below.
 */
#ifndef TESTS_UNIT_CQL_VALUE_TEST_H
#define TESTS_UNIT_CQL_VALUE_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cql/value/value.h"

static base_arena_t ta;
static base_error_t terr;

static inline int arena_setup(void **state)
{
    (void)state;
    base_arena_init(&ta, 4096);
    base_error_clear(&terr);
    return 0;
}

static inline int arena_teardown(void **state)
{
    (void)state;
    base_arena_fini(&ta);
    return 0;
}

#define VT(fn) cmocka_unit_test_setup_teardown(fn, arena_setup, arena_teardown)

/* ---- values -------------------------------------------------------------- */

static inline wire_value_t hexv(const char *hex)
{
    if (hex == NULL) {
        return (wire_value_t){NULL, WIRE_VALUE_NULL};
    }
    size_t n = strlen(hex) / 2;
    uint8_t *p = base_arena_alloc(&ta, n + 1);
    for (size_t i = 0; i < n; i++) {
        unsigned x;
        sscanf(hex + 2 * i, "%2x", &x);
        p[i] = (uint8_t)x;
    }
    return (wire_value_t){p, (int32_t)n};
}

static inline const char *tohex(wire_value_t v)
{
    if (v.len < 0) {
        return v.len == WIRE_VALUE_UNSET ? "<unset>" : "<null>";
    }
    char *s = base_arena_alloc(&ta, 2 * (size_t)v.len + 1);
    for (int32_t i = 0; i < v.len; i++) {
        snprintf(s + 2 * i, 3, "%02x", v.ptr[i]);
    }
    s[2 * v.len] = '\0';
    return s;
}

static inline wire_value_t textv(const char *s)
{
    return (wire_value_t){(const uint8_t *)s, (int32_t)strlen(s)};
}

static inline bool value_eq(wire_value_t a, wire_value_t b)
{
    if (a.len != b.len) {
        return false;
    }
    return a.len <= 0 || memcmp(a.ptr, b.ptr, (size_t)a.len) == 0;
}

/* Deterministic xorshift64 for the random-value and hostile-bytes loops. */
static inline uint64_t test_rand64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

/* ---- types --------------------------------------------------------------- */

static inline const wire_type_t *T(const char *name)
{
    const wire_type_t *t = cql__type_native(name);
    assert_non_null(t);
    return t;
}

static inline const wire_type_t *coll(uint16_t id, bool frozen, const wire_type_t *a,
                                      const wire_type_t *b)
{
    const wire_type_t *sub[2] = {a, b};
    return cql__type_collection(&ta, id, frozen, sub, b ? 2 : 1);
}

static inline const wire_type_t *list_of(const wire_type_t *e)
{
    return coll(WIRE_TYPE_LIST, false, e, NULL);
}

static inline const wire_type_t *set_of(const wire_type_t *e)
{
    return coll(WIRE_TYPE_SET, false, e, NULL);
}

static inline const wire_type_t *map_of(const wire_type_t *k, const wire_type_t *v)
{
    return coll(WIRE_TYPE_MAP, false, k, v);
}

static inline const wire_type_t *frozen(const wire_type_t *t)
{
    wire_type_t *c = base_arena_memdup(&ta, t, sizeof(*t));
    c->frozen = true;
    return c;
}

static inline const wire_type_t *tuple_of(size_t n, ...)
{
    const wire_type_t *sub[16];
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++) {
        sub[i] = va_arg(ap, const wire_type_t *);
    }
    va_end(ap);
    return cql__type_collection(&ta, WIRE_TYPE_TUPLE, true, sub, n);
}

/* udt_of("address", n, "street", T("text"), "zip", T("int"), ...) */
static inline const wire_type_t *udt_of(const char *name, size_t n, ...)
{
    wire_type_t *t = base_arena_calloc(&ta, 1, sizeof(*t));
    const wire_type_t **sub = base_arena_calloc(&ta, n + 1, sizeof(*sub));
    const char **names = base_arena_calloc(&ta, n + 1, sizeof(*names));
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++) {
        names[i] = va_arg(ap, const char *);
        sub[i] = va_arg(ap, const wire_type_t *);
    }
    va_end(ap);
    t->id = WIRE_TYPE_UDT;
    t->frozen = true;
    t->n_sub = (uint16_t)n;
    t->sub = sub;
    t->field_names = names;
    t->keyspace = "ks";
    t->name = name;
    return t;
}

/* ---- terms --------------------------------------------------------------- */

static inline cql_term_t *lit(cql_lit_kind_t kind, const char *text)
{
    cql_term_t *t = base_arena_calloc(&ta, 1, sizeof(*t));
    t->kind = CQL_TERM_LITERAL;
    t->lit = kind;
    t->text = text;
    return t;
}

#define S(x)  lit(CQL_LIT_STRING, (x))
#define I(x)  lit(CQL_LIT_INTEGER, (x))
#define F(x)  lit(CQL_LIT_FLOAT, (x))
#define B(x)  lit(CQL_LIT_BOOLEAN, (x))
#define U(x)  lit(CQL_LIT_UUID, (x))
#define H(x)  lit(CQL_LIT_HEX, (x))
#define D(x)  lit(CQL_LIT_DURATION, (x))
#define NUL() lit(CQL_LIT_NULL, "null")

static inline cql_term_t *bind(int i)
{
    cql_term_t *t = base_arena_calloc(&ta, 1, sizeof(*t));
    t->kind = CQL_TERM_BIND;
    t->bind_index = i;
    return t;
}

/* A term of kind with n items taken from ap. */
static inline cql_term_t *term_with_items(cql_term_kind_t kind, size_t n, va_list ap)
{
    cql_term_t *t = base_arena_calloc(&ta, 1, sizeof(*t));
    t->kind = kind;
    t->n_items = n;
    t->items = base_arena_calloc(&ta, n + 1, sizeof(*t->items));
    for (size_t i = 0; i < n; i++) {
        t->items[i] = va_arg(ap, cql_term_t *);
    }
    return t;
}

static inline cql_term_t *terms(cql_term_kind_t kind, size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    cql_term_t *t = term_with_items(kind, n, ap);
    va_end(ap);
    return t;
}

/* fn("totimestamp", 1, arg) */
static inline cql_term_t *fn(const char *name, size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    cql_term_t *t = term_with_items(CQL_TERM_FUNCTION, n, ap);
    va_end(ap);
    t->text = name;
    return t;
}

/* udt_term(n, "street", S("x"), "zip", I("1")) */
static inline cql_term_t *udt_term(size_t n, ...)
{
    cql_term_t *t = base_arena_calloc(&ta, 1, sizeof(*t));
    t->kind = CQL_TERM_UDT;
    t->n_items = n;
    t->items = base_arena_calloc(&ta, n + 1, sizeof(*t->items));
    t->field_names = base_arena_calloc(&ta, n + 1, sizeof(*t->field_names));
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++) {
        t->field_names[i] = va_arg(ap, const char *);
        t->items[i] = va_arg(ap, cql_term_t *);
    }
    va_end(ap);
    return t;
}

/* Evaluates for column "v" without binds; returns the status. */
static inline int eval(const cql_term_t *term, const wire_type_t *t, wire_value_t *out)
{
    base_error_clear(&terr);
    return cql__term_eval(term, t, "v", NULL, &ta, out, &terr);
}

/* Asserts evaluation succeeds with the given hex bytes. */
#define assert_eval_hex(term, type, hex)                \
    do {                                                \
        wire_value_t out_;                              \
        int rc_ = eval((term), (type), &out_);          \
        if (rc_ != BASE_OK) {                           \
            fail_msg("unexpected error: %s", terr.msg); \
        }                                               \
        assert_string_equal(tohex(out_), (hex));        \
    } while (0)

/* Asserts evaluation fails with Invalid and exactly the given message. */
#define assert_eval_error(term, type, message)                     \
    do {                                                           \
        wire_value_t out_;                                         \
        assert_int_equal(eval((term), (type), &out_), BASE_ERROR); \
        assert_int_equal(terr.code, 0x2200);                       \
        assert_string_equal(terr.msg, (message));                  \
    } while (0)

#endif
