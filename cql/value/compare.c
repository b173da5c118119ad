/*
 * compare.c - Cassandra's orderings of serialized values (cql layer).
 *
 * Mirrors the 3.11 AbstractType comparators: empty values first; signed
 * integers (tinyint..bigint, counter, timestamp, time); date as unsigned
 * days; float/double as Java's Float/Double.compare (-0.0 < 0.0, NaN last
 * and equal to itself); varint and decimal numerically (1.0 == 1.00);
 * boolean false < true; uuid by UUIDType (version, then time for v1, then
 * unsigned bytes); timeuuid by TimeUUIDType (time, then signed bytes);
 * text, ascii, blob, inet, duration and custom by unsigned bytes; frozen
 * collections element by element, shorter first; tuples and UDTs component
 * by component with null first and trailing nulls ignored.
 *
 * keyenc.c must order exactly like this (refining only the ties noted
 * there), so the two files share cql__value_well_formed: malformed values
 * (which validation keeps out of storage) sort after every valid value and
 * among themselves by bytes, instead of crashing anyone.
 */
#include "cql/value/value_int.h"

static int sign_of(int64_t x)
{
    return x < 0 ? -1 : x > 0;
}


static int bytes_cmp(wire_value_t a, wire_value_t b)
{
    size_t la = (size_t)a.len, lb = (size_t)b.len;
    int c = memcmp(a.ptr, b.ptr, la < lb ? la : lb);
    if (c != 0) {
        return c < 0 ? -1 : 1;
    }
    return la < lb ? -1 : la > lb;
}


static bool tuple_well_formed(const wire_type_t *t, wire_value_t v)
{
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    for (size_t i = 0; i < t->n_sub && cql__cursor_left(&c) > 0; i++) {
        wire_value_t e;
        if (!cql__cursor_value(&c, &e)) {
            return false;
        }
    }
    return cql__cursor_left(&c) == 0;
}


static bool collection_well_formed(const wire_type_t *t, wire_value_t v)
{
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    int32_t n = 0;
    if (!cql__cursor_i32(&c, &n) || n < 0) {
        return false;
    }
    size_t per = t->id == WIRE_TYPE_MAP ? 2 : 1;
    for (int32_t i = 0; i < n; i++) {
        for (size_t k = 0; k < per; k++) {
            wire_value_t e;
            if (!cql__cursor_value(&c, &e)) {
                return false;
            }
        }
    }
    return cql__cursor_left(&c) == 0;
}


bool cql__value_well_formed(const wire_type_t *t, wire_value_t v)
{
    if (v.len <= 0) {
        return true;
    }
    size_t fixed = cql__type_fixed_size(t->id);
    if (fixed != 0) {
        return (size_t)v.len == fixed;
    }
    switch (t->id) {
    case WIRE_TYPE_DECIMAL:
        return v.len >= 4;
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
        return collection_well_formed(t, v);
    case WIRE_TYPE_TUPLE:
    case WIRE_TYPE_UDT:
        return tuple_well_formed(t, v);
    default:
        return true;
    }
}


/* Java's floatToIntBits/doubleToLongBits order made unsigned: NaNs collapse
 * to the canonical NaN, negatives are inverted, positives get the sign bit. */
uint64_t cql__float_key(const uint8_t *p, size_t n)
{
    uint64_t bits = n == 4 ? base_load_u32(p) : base_load_u64(p);
    uint64_t sign = n == 4 ? 0x80000000u : 0x8000000000000000ULL;
    uint64_t exp = n == 4 ? 0x7F800000u : 0x7FF0000000000000ULL;
    uint64_t mant = n == 4 ? 0x007FFFFFu : 0x000FFFFFFFFFFFFFULL;
    uint64_t all = n == 4 ? 0xFFFFFFFFu : ~(uint64_t)0;
    if ((bits & exp) == exp && (bits & mant) != 0) {
        bits = n == 4 ? 0x7FC00000u : 0x7FF8000000000000ULL;
    }
    return (bits & sign) ? (~bits & all) : (bits | sign);
}


static int varint_cmp(wire_value_t a, wire_value_t b)
{
    const uint8_t *pa, *pb;
    size_t la = cql__varint_minimal(a.ptr, (size_t)a.len, &pa);
    size_t lb = cql__varint_minimal(b.ptr, (size_t)b.len, &pb);
    int sa = cql__varint_sign(pa, la), sb = cql__varint_sign(pb, lb);
    if (sa != sb) {
        return sa < sb ? -1 : 1;
    }
    if (sa == 0) {
        return 0; /* zero may be empty or 0x00 */
    }
    if (la != lb) {
        /* Same sign: a longer minimal form is further from zero. */
        return (la < lb ? -1 : 1) * (sa < 0 ? -1 : 1);
    }
    int c = memcmp(pa, pb, la);
    return c < 0 ? -1 : c > 0;
}


static int decimal_cmp(wire_value_t a, wire_value_t b)
{
    int32_t sa = (int32_t)base_load_u32(a.ptr), sb = (int32_t)base_load_u32(b.ptr);
    wire_value_t ua = {a.ptr + 4, a.len - 4}, ub = {b.ptr + 4, b.len - 4};
    if (sa == sb) {
        return varint_cmp(ua, ub);
    }
    base_arena_t tmp;
    base_arena_init(&tmp, 0);
    cql_decnorm_t x, y;
    cql__decimal_normalize(ua.ptr, (size_t)ua.len, sa, &tmp, &x);
    cql__decimal_normalize(ub.ptr, (size_t)ub.len, sb, &tmp, &y);
    int c = cql__decnorm_compare(&x, &y);
    base_arena_fini(&tmp);
    return c;
}


/* Bytes 6,7,4,5,0,1,2,3: a version-1 uuid's 60-bit time, most significant first. */
static int64_t timeuuid_time_key(const uint8_t *p)
{
    static const int order[8] = {6, 7, 4, 5, 0, 1, 2, 3};
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) {
        u = (u << 8) | p[order[i]];
    }
    return (int64_t)u;
}


static int timeuuid_cmp(const uint8_t *a, const uint8_t *b)
{
    int64_t ta = timeuuid_time_key(a), tb = timeuuid_time_key(b);
    if (ta != tb) {
        return ta < tb ? -1 : 1;
    }
    for (int i = 8; i < 16; i++) { /* signed, as TimeUUIDType does for compatibility */
        int8_t x = (int8_t)a[i], y = (int8_t)b[i];
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return 0;
}


static int uuid_cmp(const uint8_t *a, const uint8_t *b)
{
    int va = a[6] >> 4, vb = b[6] >> 4;
    if (va != vb) {
        return va < vb ? -1 : 1;
    }
    if (va == 1) {
        int64_t ta = timeuuid_time_key(a), tb = timeuuid_time_key(b);
        if (ta != tb) {
            return ta < tb ? -1 : 1;
        }
        int c = memcmp(a + 8, b + 8, 8);
        return c < 0 ? -1 : c > 0;
    }
    int c = memcmp(a, b, 16);
    return c < 0 ? -1 : c > 0;
}


static int collection_cmp(const wire_type_t *t, wire_value_t a, wire_value_t b)
{
    cql_cursor_t ca, cb;
    cql__cursor_init(&ca, a);
    cql__cursor_init(&cb, b);
    int32_t na = 0, nb = 0;
    cql__cursor_i32(&ca, &na);
    cql__cursor_i32(&cb, &nb);
    int32_t n = na < nb ? na : nb;
    for (int32_t i = 0; i < n; i++) {
        for (size_t k = 0; k < (t->id == WIRE_TYPE_MAP ? 2u : 1u); k++) {
            wire_value_t ea, eb;
            cql__cursor_value(&ca, &ea);
            cql__cursor_value(&cb, &eb);
            int c = cql__value_compare(t->sub[k], ea, eb);
            if (c != 0) {
                return c;
            }
        }
    }
    return na < nb ? -1 : na > nb;
}


static int tuple_cmp(const wire_type_t *t, wire_value_t a, wire_value_t b)
{
    cql_cursor_t ca, cb;
    cql__cursor_init(&ca, a);
    cql__cursor_init(&cb, b);
    for (size_t i = 0; cql__cursor_left(&ca) > 0 && cql__cursor_left(&cb) > 0; i++) {
        wire_value_t ea, eb;
        cql__cursor_value(&ca, &ea);
        cql__cursor_value(&cb, &eb);
        int c = cql__value_compare(t->sub[i], ea, eb);
        if (c != 0) {
            return c;
        }
    }
    /* TupleType: trailing null or empty components do not count; a malformed tail sorts
     * after them, as malformed values do. */
    wire_value_t e;
    while (cql__cursor_left(&ca) > 0) {
        if (!cql__cursor_value(&ca, &e) || e.len > 0) {
            return 1;
        }
    }
    while (cql__cursor_left(&cb) > 0) {
        if (!cql__cursor_value(&cb, &e) || e.len > 0) {
            return -1;
        }
    }
    return 0;
}


int cql__value_compare(const wire_type_t *t, wire_value_t a, wire_value_t b)
{
    if (a.len < 0 || b.len < 0) {
        return a.len < 0 && b.len < 0 ? 0 : a.len < 0 ? -1 : 1;
    }
    if (a.len == 0 || b.len == 0) {
        return a.len == b.len ? 0 : a.len == 0 ? -1 : 1;
    }
    bool wa = cql__value_well_formed(t, a), wb = cql__value_well_formed(t, b);
    if (!wa || !wb) {
        return wa == wb ? bytes_cmp(a, b) : wa ? -1 : 1;
    }
    switch (t->id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_TIMESTAMP:
    case WIRE_TYPE_TIME: {
        int64_t x = cql__load_signed(a.ptr, (size_t)a.len),
                y = cql__load_signed(b.ptr, (size_t)b.len);
        return x < y ? -1 : x > y;
    }
    case WIRE_TYPE_BOOLEAN:
        return sign_of((int64_t)(a.ptr[0] != 0) - (b.ptr[0] != 0));
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE: {
        uint64_t x = cql__float_key(a.ptr, (size_t)a.len);
        uint64_t y = cql__float_key(b.ptr, (size_t)b.len);
        return x < y ? -1 : x > y;
    }
    case WIRE_TYPE_VARINT:
        return varint_cmp(a, b);
    case WIRE_TYPE_DECIMAL:
        return decimal_cmp(a, b);
    case WIRE_TYPE_UUID:
        return uuid_cmp(a.ptr, b.ptr);
    case WIRE_TYPE_TIMEUUID:
        return timeuuid_cmp(a.ptr, b.ptr);
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
        return collection_cmp(t, a, b);
    case WIRE_TYPE_TUPLE:
    case WIRE_TYPE_UDT:
        return tuple_cmp(t, a, b);
    default: /* date (unsigned days), text, ascii, blob, inet, duration, custom */
        return bytes_cmp(a, b);
    }
}
