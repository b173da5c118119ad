/*
 * eval.c - evaluation of CQL terms into serialized values (cql
 * layer): literals, bind markers, collection/tuple/UDT literals, casts and
 * negation (function calls are in functions.c).
 *
 * It follows Cassandra 3.11's two steps: first the assignment test
 * (Constants.Literal.testAssignment and the collection validateAssignableTo
 * methods) which produces "Invalid STRING constant (abc) for "v" of type
 * int" style errors, then the type's fromString, whose MarshalException
 * texts ("Unable to make int from '99999999999'") become Invalid errors.
 * Sets come out sorted and deduplicated, maps sorted by key with the last
 * duplicate winning, exactly as Cassandra serializes them.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <strings.h>

#include "cql/value/value_int.h"

static const wire_value_t null_value = {NULL, WIRE_VALUE_NULL};

/* ---- small helpers ------------------------------------------------------------------- */

static wire_value_t empty_value(void)
{
    return (wire_value_t){(const uint8_t *)"", 0};
}


/* Long.parseLong: optional sign, at least one digit, no overflow. */
static bool parse_i64(const char *s, int64_t *out)
{
    bool neg = *s == '-';
    if (*s == '-' || *s == '+') {
        s++;
    }
    if (*s == '\0') {
        return false;
    }
    uint64_t v = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) {
            return false;
        }
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX) {
        return false;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}


/* ^-?\d+$ */
static bool is_integer_text(const char *s)
{
    s += *s == '-';
    if (*s == '\0') {
        return false;
    }
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) {
            return false;
        }
    }
    return true;
}


/* Float.parseFloat / Double.parseDouble on what the CQL lexer produces:
 * decimal numbers, NaN and Infinity with an optional sign. */
static bool parse_java_double(const char *s, bool is_float, double *out)
{
    const char *p = s + (*s == '-' || *s == '+');
    double sign = *s == '-' ? -1.0 : 1.0;
    if (strcmp(p, "NaN") == 0) {
        *out = NAN;
        return true;
    }
    if (strcmp(p, "Infinity") == 0) {
        *out = sign * INFINITY;
        return true;
    }
    for (const char *q = p; *q; q++) {
        if (!isdigit((unsigned char)*q) && *q != '.' && *q != 'e' && *q != 'E' && *q != '-' &&
            *q != '+') {
            return false;
        }
    }
    char *end;
    errno = 0;
    *out = is_float ? strtof(s, &end) : strtod(s, &end);
    return end != s && *end == '\0';
}


static int hexval(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}


static bool parse_hex(const char *s, base_arena_t *a, wire_value_t *out)
{
    size_t n = strlen(s);
    if (n % 2 != 0 || n / 2 > INT32_MAX) {
        return false;
    }
    uint8_t *p = base_arena_alloc(a, n / 2 + 1);
    for (size_t i = 0; i < n; i += 2) {
        int hi = hexval(s[i]), lo = hexval(s[i + 1]);
        if (hi < 0 || lo < 0) {
            return false;
        }
        p[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    *out = (wire_value_t){p, (int32_t)(n / 2)};
    return true;
}


static int invalid(base_error_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int invalid(base_error_t *err, const char *fmt, ...)
{
    char msg[BASE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return base_error_set(err, WIRE_ERR_INVALID, "%s", msg);
}


/* ---- term text and assignment tests ---------------------------------------------------- */

static const char *lit_kind_name(cql_lit_kind_t k)
{
    static const char *const names[] = {"STRING", "INTEGER", "FLOAT",    "BOOLEAN",
                                        "UUID",   "HEX",     "DURATION", "NULL"};
    return (size_t)k < sizeof(names) / sizeof(names[0]) ? names[k] : "UNKNOWN";
}


static const char *lit_text(const cql_term_t *term, base_arena_t *a)
{
    return term->lit == CQL_LIT_HEX ? base_arena_sprintf(a, "0x%s", term->text) : term->text;
}


static void put_term_text(base_buf_t *b, const cql_term_t *term, base_arena_t *a);


static void put_items(base_buf_t *b, const cql_term_t *term, const char *open, const char *close,
                      base_arena_t *a)
{
    base_buf_put(b, open, strlen(open));
    for (size_t i = 0; i < term->n_items; i++) {
        if (i > 0) {
            base_buf_put(b, term->kind == CQL_TERM_MAP && i % 2 ? ": " : ", ", 2);
        }
        if (term->kind == CQL_TERM_UDT) {
            base_buf_printf(b, "%s: ", term->field_names[i]);
        }
        put_term_text(b, term->items[i], a);
    }
    base_buf_put(b, close, strlen(close));
}


static void put_term_text(base_buf_t *b, const cql_term_t *term, base_arena_t *a)
{
    switch (term->kind) {
    case CQL_TERM_LITERAL:
        if (term->lit == CQL_LIT_STRING) {
            base_buf_printf(b, "'%s'", term->text);
        } else if (term->lit == CQL_LIT_NULL) {
            base_buf_put(b, "NULL", 4);
        } else {
            base_buf_printf(b, "%s", lit_text(term, a));
        }
        return;
    case CQL_TERM_BIND:
        if (term->bind_name != NULL) {
            base_buf_printf(b, ":%s", term->bind_name);
        } else {
            base_buf_put_u8(b, '?');
        }
        return;
    case CQL_TERM_LIST:
        put_items(b, term, "[", "]", a);
        return;
    case CQL_TERM_SET:
    case CQL_TERM_MAP:
    case CQL_TERM_UDT:
        put_items(b, term, "{", "}", a);
        return;
    case CQL_TERM_TUPLE:
        put_items(b, term, "(", ")", a);
        return;
    case CQL_TERM_FUNCTION:
        if (term->keyspace != NULL) {
            base_buf_printf(b, "%s.", term->keyspace);
        }
        base_buf_printf(b, "%s", term->text);
        put_items(b, term, "(", ")", a);
        return;
    case CQL_TERM_CAST:
        base_buf_printf(b, "(%s)",
                        term->cast_type && term->cast_type->name ? term->cast_type->name : "?");
        put_term_text(b, term->items[0], a);
        return;
    case CQL_TERM_NEGATE:
        base_buf_put_u8(b, '-');
        put_term_text(b, term->items[0], a);
        return;
    }
}


const char *cql__term_text(const cql_term_t *term, base_arena_t *a)
{
    base_buf_t b;
    base_buf_init(&b);
    put_term_text(&b, term, a);
    char *s = base_arena_strndup(a, b.len ? (const char *)b.data : "", b.len);
    base_buf_fini(&b);
    return s;
}


static bool is_ascii(const char *s)
{
    for (; *s; s++) {
        if ((unsigned char)*s & 0x80) {
            return false;
        }
    }
    return true;
}


/* Constants.Literal.testAssignment. */
static cql_fit_t literal_fit(const cql_term_t *term, const wire_type_t *t)
{
    if (term->lit == CQL_LIT_NULL) {
        return t->id == WIRE_TYPE_COUNTER ? CQL_FIT_NOT : CQL_FIT_WEAK;
    }
    uint16_t id = t->id;
    if (id == WIRE_TYPE_CUSTOM) {
        return term->lit == CQL_LIT_HEX ? CQL_FIT_WEAK : CQL_FIT_NOT;
    }
    int64_t n;
    switch (term->lit) {
    case CQL_LIT_STRING:
        if (id == WIRE_TYPE_ASCII || id == WIRE_TYPE_VARCHAR) {
            return (id == WIRE_TYPE_ASCII) == is_ascii(term->text) ? CQL_FIT_EXACT : CQL_FIT_WEAK;
        }
        return id == WIRE_TYPE_INET || id == WIRE_TYPE_DATE || id == WIRE_TYPE_TIME ||
                       id == WIRE_TYPE_TIMESTAMP
                   ? CQL_FIT_WEAK
                   : CQL_FIT_NOT;
    case CQL_LIT_INTEGER:
        if (id == WIRE_TYPE_INT) {
            return parse_i64(term->text, &n) && n >= INT32_MIN && n <= INT32_MAX ? CQL_FIT_EXACT
                                                                                 : CQL_FIT_WEAK;
        }
        if (id == WIRE_TYPE_BIGINT) {
            return parse_i64(term->text, &n) && (n < INT32_MIN || n > INT32_MAX) ? CQL_FIT_EXACT
                                                                                 : CQL_FIT_WEAK;
        }
        return id == WIRE_TYPE_COUNTER || id == WIRE_TYPE_DATE || id == WIRE_TYPE_DECIMAL ||
                       id == WIRE_TYPE_DOUBLE || id == WIRE_TYPE_DURATION ||
                       id == WIRE_TYPE_FLOAT || id == WIRE_TYPE_SMALLINT || id == WIRE_TYPE_TIME ||
                       id == WIRE_TYPE_TIMESTAMP || id == WIRE_TYPE_TINYINT ||
                       id == WIRE_TYPE_VARINT
                   ? CQL_FIT_WEAK
                   : CQL_FIT_NOT;
    case CQL_LIT_UUID:
        return id == WIRE_TYPE_UUID || id == WIRE_TYPE_TIMEUUID ? CQL_FIT_WEAK : CQL_FIT_NOT;
    case CQL_LIT_FLOAT:
        return id == WIRE_TYPE_DOUBLE                             ? CQL_FIT_EXACT
               : id == WIRE_TYPE_DECIMAL || id == WIRE_TYPE_FLOAT ? CQL_FIT_WEAK
                                                                  : CQL_FIT_NOT;
    case CQL_LIT_BOOLEAN:
        return id == WIRE_TYPE_BOOLEAN ? CQL_FIT_EXACT : CQL_FIT_NOT;
    case CQL_LIT_HEX:
        return id == WIRE_TYPE_BLOB ? CQL_FIT_EXACT : CQL_FIT_NOT;
    case CQL_LIT_DURATION:
        return id == WIRE_TYPE_DURATION ? CQL_FIT_EXACT : CQL_FIT_NOT;
    default:
        return CQL_FIT_NOT;
    }
}


static const wire_type_t *cast_type(const cql_type_ast_t *ta, base_arena_t *a);


static cql_fit_t worst(cql_fit_t x, cql_fit_t y)
{
    return x < y ? x : y;
}


static cql_fit_t items_fit(const cql_term_t *term, const wire_type_t *t, size_t stride)
{
    cql_fit_t fit = CQL_FIT_WEAK;
    for (size_t i = 0; i < term->n_items && fit != CQL_FIT_NOT; i++) {
        fit = worst(fit, cql__term_fit(term->items[i], t->sub[stride == 2 ? i % 2 : 0]));
    }
    return fit;
}


static ssize_t udt_field_index(const wire_type_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_sub; i++) {
        if (t->field_names != NULL && strcmp(t->field_names[i], name) == 0) {
            return (ssize_t)i;
        }
    }
    return -1;
}


cql_fit_t cql__term_fit(const cql_term_t *term, const wire_type_t *t)
{
    switch (term->kind) {
    case CQL_TERM_LITERAL:
        return literal_fit(term, t);
    case CQL_TERM_BIND:
        return CQL_FIT_WEAK;
    case CQL_TERM_LIST:
        return t->id == WIRE_TYPE_LIST ? items_fit(term, t, 1) : CQL_FIT_NOT;
    case CQL_TERM_SET:
        return t->id == WIRE_TYPE_SET ? items_fit(term, t, 1) : CQL_FIT_NOT;
    case CQL_TERM_MAP:
        if (term->n_items == 0) {
            return t->id == WIRE_TYPE_MAP || t->id == WIRE_TYPE_SET ? CQL_FIT_WEAK : CQL_FIT_NOT;
        }
        return t->id == WIRE_TYPE_MAP ? items_fit(term, t, 2) : CQL_FIT_NOT;
    case CQL_TERM_TUPLE: {
        if ((t->id != WIRE_TYPE_TUPLE && t->id != WIRE_TYPE_UDT) || term->n_items > t->n_sub) {
            return CQL_FIT_NOT;
        }
        cql_fit_t fit = CQL_FIT_WEAK;
        for (size_t i = 0; i < term->n_items; i++) {
            fit = worst(fit, cql__term_fit(term->items[i], t->sub[i]));
        }
        return fit;
    }
    case CQL_TERM_UDT: {
        if (t->id != WIRE_TYPE_UDT) {
            return CQL_FIT_NOT;
        }
        cql_fit_t fit = CQL_FIT_WEAK;
        for (size_t i = 0; i < term->n_items; i++) {
            ssize_t f = udt_field_index(t, term->field_names[i]);
            fit = f < 0 ? CQL_FIT_NOT : worst(fit, cql__term_fit(term->items[i], t->sub[f]));
        }
        return fit;
    }
    case CQL_TERM_FUNCTION: {
        const wire_type_t *r = cql__function_return_type(term);
        if (r == NULL) {
            return CQL_FIT_WEAK; /* the call reports the real error later */
        }
        return cql__type_equal(r, t)              ? CQL_FIT_EXACT
               : cql__type_value_compatible(t, r) ? CQL_FIT_WEAK
                                                  : CQL_FIT_NOT;
    }
    case CQL_TERM_CAST: {
        base_arena_t tmp;
        base_arena_init(&tmp, 1024);
        const wire_type_t *ct = cast_type(term->cast_type, &tmp);
        cql_fit_t fit = ct == NULL                          ? CQL_FIT_NOT
                        : cql__type_equal(ct, t)            ? CQL_FIT_EXACT
                        : cql__type_value_compatible(t, ct) ? CQL_FIT_WEAK
                                                            : CQL_FIT_NOT;
        base_arena_fini(&tmp);
        return fit;
    }
    case CQL_TERM_NEGATE:
        return cql__term_fit(term->items[0], t);
    }
    return CQL_FIT_NOT;
}


/* ---- literals ---------------------------------------------------------------------- */

static int int_literal(const char *s, const wire_type_t *t, base_arena_t *a, wire_value_t *out,
                       base_error_t *err)
{
    static const struct {
        uint16_t id;
        size_t size;
        int64_t min, max;
        const char *java; /* the Java type in fromString's message */
    } ints[] = {
        {WIRE_TYPE_TINYINT, 1, INT8_MIN, INT8_MAX, "byte"},
        {WIRE_TYPE_SMALLINT, 2, INT16_MIN, INT16_MAX, "short"},
        {WIRE_TYPE_INT, 4, INT32_MIN, INT32_MAX, "int"},
        {WIRE_TYPE_BIGINT, 8, INT64_MIN, INT64_MAX, "long"},
        {WIRE_TYPE_COUNTER, 8, INT64_MIN, INT64_MAX, "long"},
    };
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        if (ints[i].id != t->id) {
            continue;
        }
        int64_t n;
        if (!parse_i64(s, &n) || n < ints[i].min || n > ints[i].max) {
            return invalid(err, "Unable to make %s from '%s'", ints[i].java, s);
        }
        *out = cql__be_value(a, (uint64_t)n, ints[i].size);
        return BASE_OK;
    }
    return invalid(err, "Unable to make long from '%s'", s);
}


static int temporal_literal(const char *s, uint16_t id, base_arena_t *a, wire_value_t *out,
                            base_error_t *err)
{
    int64_t n;
    if (id == WIRE_TYPE_TIMESTAMP) {
        if (*s == '\0') {
            *out = empty_value();
            return BASE_OK;
        }
        if (strcasecmp(s, "now") == 0) {
            n = base_now_us() / 1000;
        } else if (is_integer_text(s)) {
            if (!parse_i64(s, &n)) {
                return invalid(err, "Unable to make long (for date) from: '%s'", s);
            }
        } else if (!cql__timestamp_parse(s, &n)) {
            return invalid(err, "Unable to coerce '%s' to a formatted date (long)", s);
        }
        *out = cql__be_value(a, (uint64_t)n, 8);
        return BASE_OK;
    }
    if (id == WIRE_TYPE_DATE) {
        uint32_t days;
        if (is_integer_text(s)) {
            if (!parse_i64(s, &n) || n < 0 || n > (int64_t)UINT32_MAX) {
                return invalid(err, "Unable to make unsigned int (for date) from: '%s'", s);
            }
            days = (uint32_t)n;
        } else if (!cql__date_parse(s, &days)) {
            return invalid(err, "Unable to coerce '%s' to a formatted date (long)", s);
        }
        *out = cql__be_value(a, days, 4);
        return BASE_OK;
    }
    /* time */
    if (is_integer_text(s)) {
        if (!parse_i64(s, &n) || n < 0 || n >= CQL_NS_PER_DAY) {
            return invalid(err, "Unable to make long (for time) from: '%s'", s);
        }
    } else if (!cql__time_parse(s, &n)) {
        return invalid(err, "(TimeType) Unable to coerce '%s' to a formatted time (long)", s);
    }
    *out = cql__be_value(a, (uint64_t)n, 8);
    return BASE_OK;
}


static int float_literal(const char *s, uint16_t id, base_arena_t *a, wire_value_t *out,
                         base_error_t *err)
{
    double d;
    if (!parse_java_double(s, id == WIRE_TYPE_FLOAT, &d)) {
        return invalid(err,
                       id == WIRE_TYPE_FLOAT ? "Unable to make float from '%s'"
                                             : "Unable to make double from '%s'",
                       s);
    }
    if (id == WIRE_TYPE_FLOAT) {
        float f = (float)d;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        *out = cql__be_value(a, bits, 4);
    } else {
        uint64_t bits;
        memcpy(&bits, &d, 8);
        *out = cql__be_value(a, bits, 8);
    }
    return BASE_OK;
}


/* A UUID; a timeuuid must be a version 1 UUID. */
static int uuid_literal(const char *s, uint16_t id, base_arena_t *a, wire_value_t *out,
                        base_error_t *err)
{
    uint8_t buf[16];
    if (!cql__uuid_parse(s, buf)) {
        return invalid(err,
                       id == WIRE_TYPE_UUID ? "Unable to make UUID from '%s'"
                                            : "Unknown timeuuid representation: %s",
                       s);
    }
    if (id == WIRE_TYPE_TIMEUUID && (buf[6] >> 4) != 1) {
        return base_error_set(err, WIRE_ERR_INVALID, "TimeUUID supports only version 1 UUIDs");
    }
    *out = (wire_value_t){base_arena_memdup(a, buf, 16), 16};
    return BASE_OK;
}


/* An IPv4 or IPv6 address; the empty string is the empty value. */
static int inet_literal(const char *s, base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    uint8_t buf[16];
    if (*s == '\0') {
        *out = empty_value();
        return BASE_OK;
    }
    if (inet_pton(AF_INET, s, buf) == 1) {
        *out = (wire_value_t){base_arena_memdup(a, buf, 4), 4};
        return BASE_OK;
    }
    if (inet_pton(AF_INET6, s, buf) == 1) {
        *out = (wire_value_t){base_arena_memdup(a, buf, 16), 16};
        return BASE_OK;
    }
    return invalid(err, "Unable to make inet address from '%s'", s);
}


static int literal_value(const cql_term_t *term, const wire_type_t *t, base_arena_t *a,
                         wire_value_t *out, base_error_t *err)
{
    const char *s = term->text;
    if (term->lit == CQL_LIT_HEX) {
        return parse_hex(s, a, out) ? BASE_OK : invalid(err, "cannot parse '%s' as hex bytes", s);
    }
    switch (t->id) {
    case WIRE_TYPE_VARCHAR:
        if (!cql__utf8_valid((const uint8_t *)s, strlen(s))) {
            return base_error_set(err, WIRE_ERR_INVALID, "String didn't validate.");
        }
        *out = (wire_value_t){(const uint8_t *)base_arena_strndup(a, s, strlen(s)),
                              (int32_t)strlen(s)};
        return BASE_OK;
    case WIRE_TYPE_ASCII:
        if (!is_ascii(s)) {
            return invalid(err, "Invalid ASCII character in string literal: %s: Input length = 1",
                           "java.nio.charset.UnmappableCharacterException");
        }
        *out = (wire_value_t){(const uint8_t *)base_arena_strndup(a, s, strlen(s)),
                              (int32_t)strlen(s)};
        return BASE_OK;
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
        return int_literal(s, t, a, out, err);
    case WIRE_TYPE_VARINT:
        return cql__varint_from_text(s, strlen(s), a, out)
                   ? BASE_OK
                   : invalid(err, "unable to make int from '%s'", s);
    case WIRE_TYPE_DECIMAL:
        return cql__decimal_from_text(s, strlen(s), a, out)
                   ? BASE_OK
                   : invalid(err, "unable to make BigDecimal from '%s'", s);
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
        return float_literal(s, t->id, a, out, err);
    case WIRE_TYPE_BOOLEAN:
        if (strcasecmp(s, "true") != 0 && strcasecmp(s, "false") != 0) {
            return invalid(err, "Unable to make boolean from '%s'", s);
        }
        *out = cql__be_value(a, strcasecmp(s, "true") == 0, 1);
        return BASE_OK;
    case WIRE_TYPE_UUID:
    case WIRE_TYPE_TIMEUUID:
        return uuid_literal(s, t->id, a, out, err);
    case WIRE_TYPE_TIMESTAMP:
    case WIRE_TYPE_DATE:
    case WIRE_TYPE_TIME:
        return temporal_literal(s, t->id, a, out, err);
    case WIRE_TYPE_INET:
        return inet_literal(s, a, out, err);
    case WIRE_TYPE_DURATION: {
        cql_duration_t d;
        if (cql__duration_parse(s, &d, err) != BASE_OK) {
            return BASE_ERROR;
        }
        cql__duration_encode(&d, a, out);
        return BASE_OK;
    }
    default:
        return invalid(err, "Unsupported literal for this type: %s", s);
    }
}


static int eval_literal(const cql_term_t *term, const wire_type_t *t, const char *col,
                        base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    if (term->lit == CQL_LIT_NULL) {
        if (t->id == WIRE_TYPE_COUNTER) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid null value for counter increment/decrement");
        }
        *out = null_value;
        return BASE_OK;
    }
    if (literal_fit(term, t) == CQL_FIT_NOT) {
        return base_error_set(
            err, WIRE_ERR_INVALID, "Invalid %s constant (%s) for \"%s\" of type %s",
            lit_kind_name(term->lit), lit_text(term, a), col, cql__type_name(t, a));
    }
    return literal_value(term, t, a, out, err);
}


/* ---- bind markers ------------------------------------------------------------------ */

static int eval_bind(const cql_term_t *term, const wire_type_t *t, const cql_binds_t *binds,
                     base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    size_t n = binds != NULL ? binds->n : 0;
    if (term->bind_index < 0 || (size_t)term->bind_index >= n) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "There were %d markers(?) in CQL but %zu bound variables",
                              term->bind_index + 1, n);
    }
    wire_value_t v = binds->values[term->bind_index];
    if (v.len == WIRE_VALUE_UNSET) {
        *out = v;
        return BASE_OK;
    }
    if (v.len < 0) {
        *out = null_value;
        return BASE_OK;
    }
    if (cql__value_validate(t, v, err) != BASE_OK) {
        return BASE_ERROR;
    }
    *out = cql__value_normalize(t, v, a);
    return BASE_OK;
}


/* ---- collections, tuples, UDTs ------------------------------------------------------- */

/* An element of a list/set/map literal: no bind markers, no null. */
static int eval_element(const cql_term_t *item, const wire_type_t *t, const char *kind,
                        const char *col, const char *spec, const cql_binds_t *binds,
                        base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    if (item->kind == CQL_TERM_BIND) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid %s literal for %s: bind variables are not supported inside "
                              "collection literals",
                              kind, col);
    }
    if (cql__term_eval(item, t, spec, binds, a, out, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (out->len == WIRE_VALUE_NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "null is not supported inside collections");
    }
    return BASE_OK;
}


static int not_literal_of(base_error_t *err, const char *kind, const char *col,
                          const wire_type_t *t, base_arena_t *a)
{
    return base_error_set(err, WIRE_ERR_INVALID, "Invalid %s literal for %s of type %s", kind, col,
                          cql__type_name(t, a));
}


static int eval_list_or_set(const cql_term_t *term, const wire_type_t *t, const char *col,
                            const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                            base_error_t *err)
{
    bool set = term->kind == CQL_TERM_SET;
    const char *kind = set ? "set" : "list";
    if (t->id != (set ? WIRE_TYPE_SET : WIRE_TYPE_LIST)) {
        return not_literal_of(err, kind, col, t, a);
    }
    const wire_type_t *et = t->sub[0];
    for (size_t i = 0; i < term->n_items; i++) {
        if (cql__term_fit(term->items[i], et) == CQL_FIT_NOT) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid %s literal for %s: value %s is not of type %s", kind,
                                  col, cql__term_text(term->items[i], a), cql__type_name(et, a));
        }
    }
    const char *spec = base_arena_sprintf(a, "value(%s)", col);
    wire_value_t *vals = base_arena_alloc(a, (term->n_items + 1) * sizeof(*vals));
    for (size_t i = 0; i < term->n_items; i++) {
        if (eval_element(term->items[i], et, kind, col, spec, binds, a, &vals[i], err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (vals[i].len == WIRE_VALUE_UNSET) {
            *out = vals[i];
            return BASE_OK;
        }
    }
    size_t n = term->n_items;
    if (set) {
        cql__values_sort(et, vals, NULL, &n, false);
    }
    *out = cql__collection_build(t, vals, NULL, n, a);
    return BASE_OK;
}


static int eval_map(const cql_term_t *term, const wire_type_t *t, const char *col,
                    const cql_binds_t *binds, base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    if (term->n_items == 0) {
        /* {} is Cassandra's empty set literal, which a map also accepts. */
        if (t->id != WIRE_TYPE_MAP && t->id != WIRE_TYPE_SET) {
            return not_literal_of(err, "set", col, t, a);
        }
        *out = cql__collection_build(t, NULL, NULL, 0, a);
        return BASE_OK;
    }
    if (t->id != WIRE_TYPE_MAP) {
        return not_literal_of(err, "map", col, t, a);
    }
    for (size_t i = 0; i < term->n_items; i++) {
        const wire_type_t *et = t->sub[i % 2];
        if (cql__term_fit(term->items[i], et) == CQL_FIT_NOT) {
            return base_error_set(
                err, WIRE_ERR_INVALID, "Invalid map literal for %s: %s %s is not of type %s", col,
                i % 2 ? "value" : "key", cql__term_text(term->items[i], a), cql__type_name(et, a));
        }
    }
    size_t n = term->n_items / 2;
    wire_value_t *keys = base_arena_alloc(a, (n + 1) * sizeof(*keys));
    wire_value_t *vals = base_arena_alloc(a, (n + 1) * sizeof(*vals));
    const char *kspec = base_arena_sprintf(a, "key(%s)", col);
    const char *vspec = base_arena_sprintf(a, "value(%s)", col);
    for (size_t i = 0; i < n; i++) {
        if (eval_element(term->items[2 * i], t->sub[0], "map", col, kspec, binds, a, &keys[i],
                         err) != BASE_OK ||
            eval_element(term->items[2 * i + 1], t->sub[1], "map", col, vspec, binds, a, &vals[i],
                         err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (keys[i].len == WIRE_VALUE_UNSET || vals[i].len == WIRE_VALUE_UNSET) {
            *out = (wire_value_t){NULL, WIRE_VALUE_UNSET};
            return BASE_OK;
        }
    }
    cql__values_sort(t->sub[0], keys, vals, &n, true);
    *out = cql__collection_build(t, keys, vals, n, a);
    return BASE_OK;
}


static int eval_tuple(const cql_term_t *term, const wire_type_t *t, const char *col,
                      const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                      base_error_t *err)
{
    if (t->id != WIRE_TYPE_TUPLE && t->id != WIRE_TYPE_UDT) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid tuple type literal for %s of type %s",
                              col, cql__type_name(t, a));
    }
    for (size_t i = 0; i < term->n_items; i++) {
        if (i >= t->n_sub) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid tuple literal for %s: too many elements. Type %s "
                                  "expects %u but got %zu",
                                  col, cql__type_name(t, a), t->n_sub, term->n_items);
        }
        if (cql__term_fit(term->items[i], t->sub[i]) == CQL_FIT_NOT) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid tuple literal for %s: component %zu is not of type %s",
                                  col, i, cql__type_name(t->sub[i], a));
        }
    }
    base_buf_t b;
    base_buf_init(&b);
    int rc = BASE_OK;
    for (size_t i = 0; i < term->n_items && rc == BASE_OK; i++) {
        wire_value_t v;
        const char *spec = base_arena_sprintf(a, "%s[%zu]", col, i);
        rc = cql__term_eval(term->items[i], t->sub[i], spec, binds, a, &v, err);
        if (rc == BASE_OK && v.len == WIRE_VALUE_UNSET) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                "Invalid unset value for tuple field number %zu", i);
        }
        if (rc == BASE_OK) {
            cql__put_value(&b, v);
        }
    }
    if (rc == BASE_OK) {
        *out = cql__buf_value(&b, a);
    }
    base_buf_fini(&b);
    return rc;
}


static int eval_udt(const cql_term_t *term, const wire_type_t *t, const char *col,
                    const cql_binds_t *binds, base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    if (t->id != WIRE_TYPE_UDT) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid user type literal for %s of type %s",
                              col, cql__type_name(t, a));
    }
    /* Literal values by field position; NULL for fields the literal omits. */
    const cql_term_t **by_field = base_arena_calloc(a, t->n_sub + 1, sizeof(*by_field));
    size_t found = 0;
    for (size_t i = 0; i < term->n_items; i++) {
        ssize_t f = udt_field_index(t, term->field_names[i]);
        if (f >= 0 && by_field[f] == NULL) {
            by_field[f] = term->items[i];
            found++;
        }
    }
    for (size_t f = 0; f < t->n_sub; f++) {
        if (by_field[f] != NULL && cql__term_fit(by_field[f], t->sub[f]) == CQL_FIT_NOT) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid user type literal for %s: field %s is not of type %s",
                                  col, t->field_names[f], cql__type_name(t->sub[f], a));
        }
    }
    if (found != term->n_items) {
        for (size_t i = 0; i < term->n_items; i++) {
            if (udt_field_index(t, term->field_names[i]) < 0) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Unknown field '%s' in value of user defined type %s",
                                      term->field_names[i], t->name ? t->name : "");
            }
        }
    }
    base_buf_t b;
    base_buf_init(&b);
    int rc = BASE_OK;
    for (size_t f = 0; f < t->n_sub && rc == BASE_OK; f++) {
        wire_value_t v = null_value;
        if (by_field[f] != NULL) {
            const char *spec = base_arena_sprintf(a, "%s.%s", col, t->field_names[f]);
            rc = cql__term_eval(by_field[f], t->sub[f], spec, binds, a, &v, err);
        }
        if (rc == BASE_OK && v.len == WIRE_VALUE_UNSET) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                "Invalid unset value for field '%s' of user defined type %s",
                                t->field_names[f], t->name ? t->name : "");
        }
        if (rc == BASE_OK) {
            cql__put_value(&b, v);
        }
    }
    if (rc == BASE_OK) {
        *out = cql__buf_value(&b, a);
    }
    base_buf_fini(&b);
    return rc;
}


/* ---- casts and negation -------------------------------------------------------------- */

/* Native and collection types only: UDTs need the schema (cql__type_resolve). */
static const wire_type_t *cast_type(const cql_type_ast_t *ta, base_arena_t *a)
{
    if (ta == NULL || ta->name == NULL || ta->custom != NULL) {
        return NULL;
    }
    if (ta->n_params == 0) {
        return cql__type_native(ta->name);
    }
    uint16_t id = strcmp(ta->name, "list") == 0    ? WIRE_TYPE_LIST
                  : strcmp(ta->name, "set") == 0   ? WIRE_TYPE_SET
                  : strcmp(ta->name, "map") == 0   ? WIRE_TYPE_MAP
                  : strcmp(ta->name, "tuple") == 0 ? WIRE_TYPE_TUPLE
                                                   : 0;
    size_t want = id == WIRE_TYPE_MAP ? 2 : id == WIRE_TYPE_TUPLE ? ta->n_params : 1;
    if (id == 0 || ta->n_params != want || want > UINT16_MAX) {
        return NULL;
    }
    const wire_type_t **sub = base_arena_alloc(a, want * sizeof(*sub));
    for (size_t i = 0; i < ta->n_params; i++) {
        sub[i] = cast_type(ta->params[i], a);
        if (sub[i] == NULL) {
            return NULL;
        }
    }
    return cql__type_collection(a, id, ta->frozen, sub, ta->n_params);
}


static int eval_cast(const cql_term_t *term, const wire_type_t *t, const char *col,
                     const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                     base_error_t *err)
{
    const wire_type_t *ct = cast_type(term->cast_type, a);
    const char *text = cql__term_text(term, a);
    if (ct == NULL || cql__term_fit(term->items[0], ct) == CQL_FIT_NOT) {
        return base_error_set(err, WIRE_ERR_INVALID, "Cannot cast value %s to type %s",
                              cql__term_text(term->items[0], a),
                              ct ? cql__type_name(ct, a) : term->cast_type->name);
    }
    if (!cql__type_value_compatible(t, ct)) {
        return base_error_set(err, WIRE_ERR_INVALID, "Cannot assign value %s to %s of type %s",
                              text, col, cql__type_name(t, a));
    }
    return cql__term_eval(term->items[0], t, col, binds, a, out, err);
}


static void negate_bytes(uint8_t *p, size_t n)
{
    unsigned carry = 1;
    for (size_t i = n; i-- > 0;) {
        unsigned v = (uint8_t)~p[i] + carry;
        p[i] = (uint8_t)v;
        carry = v >> 8;
    }
}


static int eval_negate(const cql_term_t *term, const wire_type_t *t, const char *col,
                       const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                       base_error_t *err)
{
    wire_value_t v;
    if (cql__term_eval(term->items[0], t, col, binds, a, &v, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (v.len <= 0) {
        *out = v;
        return BASE_OK;
    }
    uint8_t *p = base_arena_alloc(a, (size_t)v.len + 1);
    switch (t->id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
        memcpy(p, v.ptr, (size_t)v.len);
        negate_bytes(p, (size_t)v.len); /* wraps at the minimum, as Java does */
        *out = (wire_value_t){p, v.len};
        return BASE_OK;
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
        memcpy(p, v.ptr, (size_t)v.len);
        p[0] ^= 0x80;
        *out = (wire_value_t){p, v.len};
        return BASE_OK;
    case WIRE_TYPE_VARINT:
    case WIRE_TYPE_DECIMAL: {
        size_t skip = t->id == WIRE_TYPE_DECIMAL ? 4 : 0;
        /* One extra sign byte so that negating the minimum cannot overflow. */
        memcpy(p, v.ptr, skip);
        p[skip] = (v.ptr[skip] & 0x80) ? 0xFF : 0x00;
        memcpy(p + skip + 1, v.ptr + skip, (size_t)v.len - skip);
        negate_bytes(p + skip, (size_t)v.len - skip + 1);
        *out = (wire_value_t){p, v.len + 1};
        return BASE_OK;
    }
    default:
        return base_error_set(err, WIRE_ERR_INVALID, "Cannot negate a value of type %s",
                              cql__type_name(t, a));
    }
}


int cql__term_eval(const cql_term_t *term, const wire_type_t *t, const char *col,
                   const cql_binds_t *binds, base_arena_t *a, wire_value_t *out, base_error_t *err)
{
    if (col == NULL) {
        col = "?";
    }
    switch (term->kind) {
    case CQL_TERM_LITERAL:
        return eval_literal(term, t, col, a, out, err);
    case CQL_TERM_BIND:
        return eval_bind(term, t, binds, a, out, err);
    case CQL_TERM_LIST:
    case CQL_TERM_SET:
        return eval_list_or_set(term, t, col, binds, a, out, err);
    case CQL_TERM_MAP:
        return eval_map(term, t, col, binds, a, out, err);
    case CQL_TERM_TUPLE:
        return eval_tuple(term, t, col, binds, a, out, err);
    case CQL_TERM_UDT:
        return eval_udt(term, t, col, binds, a, out, err);
    case CQL_TERM_FUNCTION:
        return cql__function_eval(term, t, col, binds, a, out, err);
    case CQL_TERM_CAST:
        return eval_cast(term, t, col, binds, a, out, err);
    case CQL_TERM_NEGATE:
        return eval_negate(term, t, col, binds, a, out, err);
    }
    return base_error_set(err, WIRE_ERR_INVALID, "Unsupported term");
}
