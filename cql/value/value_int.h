/*
 * value_int.h - helpers shared by the files of the value room, cql/value/
 * (types.c, varint.c, temporal.c, duration.c, eval.c, functions.c, keyenc.c,
 * collection.c, ...). Private to cql/value/: the rooms above (schema, exec)
 * use value.h; these are the building blocks behind it.
 *
 * Conventions: every output string or byte run comes from the arena that
 * is passed in; parsers return false on malformed input and never read
 * outside [p, p + len).
 */
#ifndef CQL_VALUE_INT_H
#define CQL_VALUE_INT_H

#include "cql/value/value.h"

/* ---- types --------------------------------------------------------------------------- */

/* The shared native type with that protocol id, NULL for non-natives. */
const wire_type_t *cql__type_native_id(uint16_t id);
/* Serialized size of a fixed-width type (int 4, uuid 16...), 0 if variable. */
size_t cql__type_fixed_size(uint16_t id);
/* true when the bytes of a value of type `from` are valid for `to` without
 * conversion (Cassandra's isValueCompatibleWith: timestamp -> bigint, ascii
 * -> text, anything -> blob, timeuuid -> uuid, int/bigint -> varint). */
bool cql__type_value_compatible(const wire_type_t *to, const wire_type_t *from);

/* ---- varint and decimal (varint.c) --------------------------------------------------- */

/* Decimal text "[+-]digits" to minimal two's complement bytes. */
bool cql__varint_from_text(const char *s, size_t len, base_arena_t *a, wire_value_t *out);
/* Two's complement bytes (any length, empty = 0) to decimal text. */
char *cql__varint_to_text(const uint8_t *p, size_t len, base_arena_t *a);
/* Strips redundant sign-extension bytes; returns the minimal length. */
size_t cql__varint_minimal(const uint8_t *p, size_t len, const uint8_t **start);
/* -1, 0 or 1 for negative, zero, positive two's complement bytes. */
int cql__varint_sign(const uint8_t *p, size_t len);

/* Java BigDecimal text ("1.50", "-3e-2", "NaN" fails) to [int scale][varint]. */
bool cql__decimal_from_text(const char *s, size_t len, base_arena_t *a, wire_value_t *out);
/* Serialized decimal (>= 4 bytes) as BigDecimal.toPlainString (plain=true) or
 * BigDecimal.toString (scientific when the exponent is large). */
char *cql__decimal_to_text(const uint8_t *p, size_t len, bool plain, base_arena_t *a);

/*
 * A decimal or varint as sign * 0.D * 10^exp with D's digits free of
 * leading and trailing zeros: the form in which numeric order is plain
 * lexicographic order of (sign, exp, digits). Zero has sign 0 and no digits.
 */
typedef struct cql_decnorm_s {
    int sign;
    int64_t exp;
    const char *digits; /* '1'..'9' first and last, not NUL-terminated */
    size_t n_digits;
} cql_decnorm_t;

void cql__decimal_normalize(const uint8_t *unscaled, size_t len, int32_t scale, base_arena_t *a,
                            cql_decnorm_t *out);
int cql__decnorm_compare(const cql_decnorm_t *x, const cql_decnorm_t *y);

/* ---- time (temporal.c) --------------------------------------------------------------- */

#define CQL_MS_PER_DAY     86400000LL
#define CQL_NS_PER_DAY     86400000000000LL
#define CQL_DATE_EPOCH_DAY 2147483648LL /* serialized date of 1970-01-01 */

/* Cassandra's timestamp string forms (TimestampSerializer patterns) to ms. */
bool cql__timestamp_parse(const char *s, int64_t *ms);
/* yyyy-mm-dd to serialized uint32 days (epoch at 2^31). */
bool cql__date_parse(const char *s, uint32_t *days);
/* hh:mm:ss[.fffffffff] to ns since midnight. */
bool cql__time_parse(const char *s, int64_t *ns);
/* "2024-01-01 10:00:00.000000+0000" (cqlsh) when json=false,
 * "2024-01-01 10:00:00.000Z" (toJson) when json=true. */
char *cql__timestamp_format(int64_t ms, bool json, base_arena_t *a);
char *cql__date_format(uint32_t days, base_arena_t *a);
char *cql__time_format(int64_t ns, base_arena_t *a);
/* Days since 1970-01-01 of a proleptic Gregorian date and back. */
int64_t cql__days_from_civil(int64_t y, unsigned m, unsigned d);
void cql__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

/* ---- duration (duration.c) ----------------------------------------------------------- */

typedef struct cql_duration_s {
    int32_t months;
    int32_t days;
    int64_t nanos;
} cql_duration_t;

/* Parses 1h30m / P1DT2H / P0001-02-03T04:05:06 (optionally negated) with
 * Cassandra's messages. */
int cql__duration_parse(const char *s, cql_duration_t *out, base_error_t *err);
void cql__duration_encode(const cql_duration_t *d, base_arena_t *a, wire_value_t *out);
/* The three vints exactly (false when truncated or followed by bytes). */
bool cql__duration_decode_raw(const uint8_t *p, size_t len, int64_t *months, int64_t *days,
                              int64_t *nanos);
/* Decodes and checks ranges and signs as DurationSerializer.validate does. */
bool cql__duration_decode(const uint8_t *p, size_t len, cql_duration_t *out);
char *cql__duration_format(const cql_duration_t *d, base_arena_t *a);

/* ---- text ---------------------------------------------------------------------------- */

/* Cassandra's UTF8Serializer validator (accepts what Cassandra accepts). */
bool cql__utf8_valid(const uint8_t *p, size_t len);
/* Java Float/Double.toString of a finite or special value ("1.0E10", "NaN"). */
char *cql__double_format(double d, bool is_float, base_arena_t *a);

/* ---- values -------------------------------------------------------------------------- */

/* A bounds-checked walk over serialized collection/tuple bytes. */
typedef struct cql_cursor_s {
    const uint8_t *p;
    size_t len;
    size_t pos;
} cql_cursor_t;

static inline void cql__cursor_init(cql_cursor_t *c, wire_value_t v)
{
    c->p = v.ptr;
    c->len = v.len > 0 ? (size_t)v.len : 0;
    c->pos = 0;
}

static inline size_t cql__cursor_left(const cql_cursor_t *c)
{
    return c->len - c->pos;
}

static inline bool cql__cursor_i32(cql_cursor_t *c, int32_t *out)
{
    if (c->len - c->pos < 4) {
        return false;
    }
    *out = (int32_t)base_load_u32(c->p + c->pos);
    c->pos += 4;
    return true;
}

/*
 * [int len][bytes]; a negative length reads as null. A truncated element (bytes that were
 * never validated) returns false, reads as null and ends the cursor: a loop over elements
 * always terminates and never sees an unset value, whether or not it checks the result.
 */
static inline bool cql__cursor_value(cql_cursor_t *c, wire_value_t *out)
{
    int32_t len;
    out->ptr = NULL;
    out->len = WIRE_VALUE_NULL;
    if (!cql__cursor_i32(c, &len) || (len >= 0 && (size_t)len > c->len - c->pos)) {
        c->pos = c->len;
        return false;
    }
    if (len < 0) {
        return true;
    }
    out->ptr = c->p + c->pos;
    out->len = len;
    c->pos += (size_t)len;
    return true;
}


/* The low n bytes of v, big-endian, as a value in the arena. */
static inline wire_value_t cql__be_value(base_arena_t *a, uint64_t v, size_t n)
{
    uint8_t *p = base_arena_alloc(a, n);
    for (size_t i = n; i-- > 0;) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
    return (wire_value_t){p, (int32_t)n};
}

/* Appends [int len][bytes] (len -1 for null) to b. */
void cql__put_value(base_buf_t *b, wire_value_t v);
/* Copies a buffer's bytes into the arena as a value. */
wire_value_t cql__buf_value(const base_buf_t *b, base_arena_t *a);


/* Structural check used by compare and keyenc alike: fixed-size values of
 * the right size, decimals of >= 4 bytes, collections and tuples that
 * parse. Null and empty values are well-formed. */
bool cql__value_well_formed(const wire_type_t *t, wire_value_t v);
/* A 4- or 8-byte float/double as an unsigned key ordered like Java's
 * Float/Double.compare (NaN canonical and last, -0.0 before 0.0). */
uint64_t cql__float_key(const uint8_t *p, size_t n);

/* Sorts and deduplicates sets and maps (at every depth), as Cassandra does
 * when it deserializes a bound collection; other values are returned as is.
 * The input must have passed cql__value_validate. */
wire_value_t cql__value_normalize(const wire_type_t *t, wire_value_t v, base_arena_t *a);

/* Native function call (functions.c): evaluates a CQL_TERM_FUNCTION
 * into a value assignable to t. */
int cql__function_eval(const cql_term_t *term, const wire_type_t *t, const char *col,
                       const cql_binds_t *binds, base_arena_t *a, wire_value_t *out,
                       base_error_t *err);
/* The return type of a function term when it can be resolved (NULL when the
 * function is unknown or its arguments do not type-check). */
const wire_type_t *cql__function_return_type(const cql_term_t *term);

/* Assignment test of a term to a type (Cassandra's testAssignment). */
typedef enum {
    CQL_FIT_NOT = 0,
    CQL_FIT_WEAK = 1,
    CQL_FIT_EXACT = 2,
} cql_fit_t;

cql_fit_t cql__term_fit(const cql_term_t *term, const wire_type_t *t);

#endif
