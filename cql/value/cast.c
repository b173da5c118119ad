/*
 * cast.c - CAST(x AS type) of a selected value, as Cassandra's CastFcts defines
 * it: which casts exist, and what each computes. Numbers convert as Java's
 * Number methods do (a float widened to a double keeps its binary value, so
 * 5.2f reads 5.199999809265137; narrowing saturates, then keeps the low bits;
 * decimal is BigDecimal.valueOf(doubleValue), varint BigInteger.valueOf(longValue)),
 * timeuuid and timestamp become dates or timestamps through toDate/toTimestamp,
 * and anything castable to text prints as its serializer's toString
 * (timestamps in ISO 8601 with milliseconds and Z).
 *
 * The cast table is closed: a pair not in it is refused when the selector is
 * compiled ("a cannot be cast to boolean"); a value that cannot convert (an empty
 * value, NaN into a decimal) comes out null.
 */
#include <float.h>
#include <math.h>

#include "cql/value/value_int.h"

static bool is_number(uint16_t id)
{
    switch (id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
    case WIRE_TYPE_DECIMAL:
    case WIRE_TYPE_VARINT:
        return true;
    default:
        return false;
    }
}


static bool is_text(uint16_t id)
{
    return id == WIRE_TYPE_VARCHAR || id == WIRE_TYPE_ASCII;
}


bool cql__cast_exists(const wire_type_t *from, const wire_type_t *to)
{
    uint16_t f = from->id, t = to->id;
    if (cql__type_equal(from, to)) {
        return true; /* Cassandra keeps the selector as it is */
    }
    if (is_number(f)) {
        return (is_number(t) && t != WIRE_TYPE_COUNTER) || is_text(t);
    }
    switch (f) {
    case WIRE_TYPE_ASCII:
        return t == WIRE_TYPE_VARCHAR;
    case WIRE_TYPE_INET:
    case WIRE_TYPE_BOOLEAN:
    case WIRE_TYPE_TIME:
    case WIRE_TYPE_UUID:
        return is_text(t);
    case WIRE_TYPE_TIMEUUID:
        return is_text(t) || t == WIRE_TYPE_DATE || t == WIRE_TYPE_TIMESTAMP;
    case WIRE_TYPE_TIMESTAMP:
        return is_text(t) || t == WIRE_TYPE_DATE;
    case WIRE_TYPE_DATE:
        return is_text(t) || t == WIRE_TYPE_TIMESTAMP;
    default:
        return false;
    }
}


/* The low 64 bits of the integer part of a number written in decimal, plain ("-12.5",
 * "340282366920938463463") or scientific ("1.5E+30", as a decimal too long to write plainly
 * prints), as BigInteger.longValue keeps them: digits accumulate modulo 2^64. */
static int64_t low_bits(const char *s)
{
    bool neg = *s == '-';
    s += neg || *s == '+';
    int64_t n_digits = 0, n_frac = 0, exp = 0;
    bool dot = false;
    const char *p = s;
    for (; (*p >= '0' && *p <= '9') || (*p == '.' && !dot); p++) {
        dot |= *p == '.';
        n_digits += *p != '.';
        n_frac += *p != '.' && dot;
    }
    if (*p == 'E' || *p == 'e') {
        exp = strtol(p + 1, NULL, 10);
    }
    int64_t shift = exp - n_frac; /* the value is digits * 10^shift */
    int64_t keep = shift < 0 ? n_digits + shift : n_digits;
    uint64_t u = 0;
    for (int64_t i = 0; i < keep; s++) {
        if (*s != '.') {
            u = u * 10u + (uint64_t)(*s - '0');
            i++;
        }
    }
    for (int64_t i = 0; i < shift && i < 64; i++) { /* 10^64 is 0 modulo 2^64 */
        u *= 10u;
    }
    return (int64_t)(neg ? 0u - u : u);
}


/* Java's (long) of a double: NaN is 0, out-of-range values saturate. */
static int64_t double_to_long(double d)
{
    if (isnan(d)) {
        return 0;
    }
    if (d >= 9223372036854775807.0) {
        return INT64_MAX;
    }
    if (d <= -9223372036854775808.0) {
        return INT64_MIN;
    }
    return (int64_t)d;
}


/* Java's (int) of a double, which byteValue and shortValue narrow further. */
static int64_t double_to_int(double d)
{
    int64_t l = double_to_long(d);
    return l > INT32_MAX ? INT32_MAX : l < INT32_MIN ? INT32_MIN : l;
}


typedef struct number_s {
    bool is_double; /* float, double: d holds it; otherwise text holds the integer or decimal */
    double d;
    const char *text; /* the exact value in decimal (plain notation), for the integer types */
} number_t;


static double load_ieee(wire_value_t v)
{
    if (v.len == 4) {
        uint32_t bits = base_load_u32(v.ptr);
        float f;
        memcpy(&f, &bits, 4);
        return f; /* widened: the float's own binary value */
    }
    uint64_t bits = base_load_u64(v.ptr);
    double d;
    memcpy(&d, &bits, 8);
    return d;
}


static bool load_number(uint16_t id, wire_value_t v, base_arena_t *a, number_t *n)
{
    memset(n, 0, sizeof(*n));
    switch (id) {
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
        n->is_double = true;
        n->d = load_ieee(v);
        return true;
    case WIRE_TYPE_DECIMAL:
        if (v.len < 4) {
            return false;
        }
        n->text = cql__decimal_to_text(v.ptr, (size_t)v.len, true, a);
        return true;
    case WIRE_TYPE_VARINT:
        n->text = cql__varint_to_text(v.ptr, (size_t)v.len, a);
        return true;
    default: /* tinyint to bigint and counter: big-endian two's complement */
        n->text = base_arena_sprintf(a, "%lld", (long long)cql__load_signed(v.ptr, (size_t)v.len));
        return true;
    }
}


/* Number.longValue: truncation toward zero, then the low 64 bits. */
static int64_t number_long(const number_t *n)
{
    return n->is_double ? double_to_long(n->d) : low_bits(n->text);
}


/* Number.intValue: doubles saturate into an int; integers keep their low 32 bits. */
static int64_t number_int(const number_t *n)
{
    return n->is_double ? double_to_int(n->d) : (int32_t)(uint32_t)(uint64_t)low_bits(n->text);
}


static double number_double(const number_t *n)
{
    return n->is_double ? n->d : strtod(n->text, NULL); /* correctly rounded, as doubleValue */
}


/* Java's (float) of a double: out of range is an infinity (in C it would be undefined). */
static float double_to_float(double d)
{
    double limit = (double)FLT_MAX + 0x1p103; /* FLT_MAX and half its ulp round to infinity */
    if (isfinite(d) && fabs(d) > FLT_MAX) {
        return fabs(d) >= limit ? (d > 0 ? INFINITY : -INFINITY) : (d > 0 ? FLT_MAX : -FLT_MAX);
    }
    return (float)d;
}


static wire_value_t float_value(base_arena_t *a, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return cql__be_value(a, bits, 4);
}


static wire_value_t number_cast(uint16_t to, const number_t *n, base_arena_t *a)
{
    wire_value_t null = {NULL, WIRE_VALUE_NULL}, out;
    switch (to) {
    case WIRE_TYPE_TINYINT:
        return cql__be_value(a, (uint64_t)number_int(n), 1);
    case WIRE_TYPE_SMALLINT:
        return cql__be_value(a, (uint64_t)number_int(n), 2);
    case WIRE_TYPE_INT:
        return cql__be_value(a, (uint64_t)number_int(n), 4);
    case WIRE_TYPE_BIGINT:
        return cql__be_value(a, (uint64_t)number_long(n), 8);
    case WIRE_TYPE_FLOAT:
        return float_value(a, n->is_double ? double_to_float(n->d) : strtof(n->text, NULL));
    case WIRE_TYPE_DOUBLE:
        return cql__value_double(a, number_double(n));
    case WIRE_TYPE_DECIMAL: {
        double d = number_double(n);
        if (!isfinite(d)) {
            return null; /* BigDecimal.valueOf refuses NaN and the infinities */
        }
        const char *s = cql__double_format(d, false, a);
        return cql__decimal_from_text(s, strlen(s), a, &out) ? out : null;
    }
    case WIRE_TYPE_VARINT: {
        const char *s = base_arena_sprintf(a, "%lld", (long long)number_long(n));
        return cql__varint_from_text(s, strlen(s), a, &out) ? out : null;
    }
    default:
        return null;
    }
}


/* The serializer's toString of a value, for a cast to text or ascii. */
static const char *cast_text(const wire_type_t *from, wire_value_t v, base_arena_t *a)
{
    switch (from->id) {
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
        return cql__double_format(load_ieee(v), from->id == WIRE_TYPE_FLOAT, a);
    case WIRE_TYPE_DECIMAL:
        return cql__decimal_to_text(v.ptr, (size_t)v.len, false, a);
    case WIRE_TYPE_TIMESTAMP: { /* yyyy-MM-dd'T'HH:mm:ss.SSSX */
        char *s = cql__timestamp_format(cql__load_signed(v.ptr, 8), true, a);
        char *sp = strchr(s, ' ');
        if (sp != NULL) {
            *sp = 'T';
        }
        return s;
    }
    default: {
        const char *s = cql__value_to_cql(from, v, a);
        size_t n = strlen(s);
        if (n >= 2 && s[0] == '\'' && s[n - 1] == '\'') { /* dates, times, inet: unquoted */
            s = base_arena_strndup(a, s + 1, n - 2);
        }
        return s;
    }
    }
}


wire_value_t cql__value_cast(const wire_type_t *from, const wire_type_t *to, wire_value_t v,
                             base_arena_t *a)
{
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    base_error_t ignored;
    if (v.len < 0 || cql__type_equal(from, to)) {
        return v;
    }
    if (v.len == 0 || cql__value_validate(from, v, &ignored) != BASE_OK) {
        return null; /* Java composes an empty value into null, which no conversion takes */
    }
    uint16_t t = to->id;
    if (is_text(t)) {
        return is_text(from->id) ? v : cql__value_text(a, cast_text(from, v, a));
    }
    if (is_number(from->id)) {
        number_t n;
        return load_number(from->id, v, a, &n) ? number_cast(t, &n, a) : null;
    }
    int64_t ms = cql__time_value_ms(from->id, v);
    if (t == WIRE_TYPE_TIMESTAMP) {
        return cql__be_value(a, (uint64_t)ms, 8);
    }
    if (t == WIRE_TYPE_DATE) { /* Duration.ofMillis(ms).toDays() truncates toward zero */
        return cql__be_value(a, (uint64_t)(ms / CQL_MS_PER_DAY + CQL_DATE_EPOCH_DAY), 4);
    }
    return null;
}
