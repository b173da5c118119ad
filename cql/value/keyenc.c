/*
 * keyenc.c - the order-preserving clustering-key encoding and partition-key
 * composition (cql layer). storage/ orders rows by memcmp of these bytes.
 *
 * Every component is a tag byte and, for tag VALUE, a self-delimiting
 * payload, so no encoding is a prefix of another and a concatenation of
 * components orders component by component:
 *
 *   tag  0x00 null | 0x01 empty value | 0x02 value | 0x03 malformed (raw)
 *
 *   int types, counter,     big-endian with the sign bit flipped
 *   timestamp, time
 *   date                    the uint32 as is
 *   boolean                 0x00 / 0x01 (any non-zero byte is true)
 *   float, double           IEEE bits made unsigned-ordered as Java orders
 *                           them (NaN canonical, after +Infinity)
 *   uuid                    version byte, then bytes 6,7,4,5,0-3 (version 1)
 *                           or 0-7 (others), then bytes 8-15
 *   timeuuid                bytes 6,7,4,5,0-3 with the sign bit flipped, then
 *                           bytes 8-15 each ^ 0x80 (TimeUUIDType compares the
 *                           clock/node bytes signed)
 *   varint                  0x80 zero | 0x81 L(n) bytes (positive) |
 *                           0x7F ~L(n) bytes (negative), bytes = the minimal
 *                           two's complement, L(n) = n (< 0xFF) or 0xFF u32 n
 *   decimal                 sign (0x7F/0x80/0x81), exponent (u64, sign bit
 *                           flipped), digit pairs as 1 + dd, 0x00 (all but
 *                           the sign inverted for negatives), then the scale
 *   text, ascii, blob, inet, 0x00 escaped as 0x00 0xFF, then 0x00 0x00
 *   duration, custom, raw
 *   list, set, map, tuple,  per element 0x01 then its component(s), then 0x00
 *   udt
 *
 * DESC inverts every byte of the component. Ties of cql__value_compare that
 * carry different bytes are broken, so decoding is exact: decimals equal in
 * value order by scale (1.0 < 1.00), and a tuple with trailing nulls sorts
 * after the same tuple without them. A user type's trailing null fields are
 * not encoded (they are equal to absent ones, which ALTER TYPE ADD makes), so
 * such a value decodes without them. At the top level that only refines
 * Cassandra's order; inside a frozen collection, tuple or UDT the tie-break
 * comes before the later elements, the one case where the two orders can
 * disagree. Values that differ only in non-canonical bytes (non-minimal
 * varints, booleans other than 0/1, NaN payloads) encode alike and decode
 * to the canonical form.
 */
#include "cql/value/value_int.h"

enum { KE_NULL = 0x00, KE_EMPTY = 0x01, KE_VALUE = 0x02, KE_RAW = 0x03 };
enum { KE_END = 0x00, KE_MORE = 0x01 };

/* A decimal can carry at most this many implied trailing zeros (k in
 * D * 10^k) when decoded; real values never come close. */
#define DECODE_MAX_ZEROS (1u << 24)

static void put_escaped(base_buf_t *b, const uint8_t *p, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == 0x00) {
            base_buf_put(b, p + run, i + 1 - run);
            base_buf_put_u8(b, 0xFF);
            run = i + 1;
        }
    }
    base_buf_put(b, p + run, n - run);
    base_buf_put_u16(b, 0x0000);
}


static void put_length(base_buf_t *b, size_t n, uint8_t mask)
{
    if (n < 0xFF) {
        base_buf_put_u8(b, (uint8_t)(n ^ mask));
        return;
    }
    base_buf_put_u8(b, (uint8_t)(0xFF ^ mask));
    base_buf_put_u32(b, (uint32_t)n ^ (mask ? 0xFFFFFFFFu : 0));
}


static void put_varint(base_buf_t *b, const uint8_t *p, size_t len)
{
    const uint8_t *m;
    size_t n = cql__varint_minimal(p, len, &m);
    int sign = cql__varint_sign(m, n);
    if (sign == 0) {
        base_buf_put_u8(b, 0x80);
        return;
    }
    base_buf_put_u8(b, sign > 0 ? 0x81 : 0x7F);
    put_length(b, n, sign > 0 ? 0x00 : 0xFF);
    base_buf_put(b, m, n);
}


static void put_decimal(base_buf_t *b, wire_value_t v)
{
    int32_t scale = (int32_t)base_load_u32(v.ptr);
    base_arena_t tmp;
    base_arena_init(&tmp, 0);
    cql_decnorm_t d;
    cql__decimal_normalize(v.ptr + 4, (size_t)v.len - 4, scale, &tmp, &d);
    base_buf_put_u8(b, d.sign < 0 ? 0x7F : d.sign == 0 ? 0x80 : 0x81);
    if (d.sign != 0) {
        size_t start = b->len;
        base_buf_put_u64(b, (uint64_t)d.exp ^ 0x8000000000000000ULL);
        for (size_t i = 0; i < d.n_digits; i += 2) {
            int d1 = d.digits[i] - '0';
            int d2 = i + 1 < d.n_digits ? d.digits[i + 1] - '0' : 0;
            base_buf_put_u8(b, (uint8_t)(1 + d1 * 10 + d2));
        }
        base_buf_put_u8(b, 0x00);
        if (d.sign < 0) {
            for (size_t i = start; i < b->len; i++) {
                b->data[i] = (uint8_t)~b->data[i];
            }
        }
    }
    base_buf_put_u32(b, (uint32_t)scale ^ 0x80000000u);
    base_arena_fini(&tmp);
}


static const int time_order[8] = {6, 7, 4, 5, 0, 1, 2, 3};

static void put_uuid(base_buf_t *b, const uint8_t *p, bool timeuuid)
{
    int version = p[6] >> 4;
    if (!timeuuid) {
        base_buf_put_u8(b, (uint8_t)version);
    }
    for (int i = 0; i < 8; i++) {
        uint8_t x = timeuuid || version == 1 ? p[time_order[i]] : p[i];
        base_buf_put_u8(b, timeuuid && i == 0 ? x ^ 0x80 : x);
    }
    for (int i = 8; i < 16; i++) {
        base_buf_put_u8(b, timeuuid ? p[i] ^ 0x80 : p[i]);
    }
}


static void encode(base_buf_t *b, const wire_type_t *t, wire_value_t v);


static void put_elements(base_buf_t *b, const wire_type_t *t, wire_value_t v)
{
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    if (t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT) {
        /* A user type's trailing null fields are left out: a value written before
         * ALTER TYPE ADD equals the same value with the new fields null, as in
         * Cassandra 4.0 (TuplesWithNullsComparisonTest). */
        size_t keep = SIZE_MAX;
        if (t->id == WIRE_TYPE_UDT) {
            cql_cursor_t scan = c;
            keep = 0;
            for (size_t i = 1; cql__cursor_left(&scan) > 0; i++) {
                wire_value_t e = {NULL, WIRE_VALUE_NULL};
                cql__cursor_value(&scan, &e);
                keep = e.len >= 0 ? i : keep;
            }
        }
        for (size_t i = 0; i < keep && cql__cursor_left(&c) > 0; i++) {
            wire_value_t e;
            cql__cursor_value(&c, &e);
            base_buf_put_u8(b, KE_MORE);
            encode(b, t->sub[i], e);
        }
    } else {
        int32_t n = 0;
        cql__cursor_i32(&c, &n);
        for (int32_t i = 0; i < n; i++) {
            wire_value_t e;
            base_buf_put_u8(b, KE_MORE);
            cql__cursor_value(&c, &e);
            encode(b, t->sub[0], e);
            if (t->id == WIRE_TYPE_MAP) {
                cql__cursor_value(&c, &e);
                encode(b, t->sub[1], e);
            }
        }
    }
    base_buf_put_u8(b, KE_END);
}


static void encode(base_buf_t *b, const wire_type_t *t, wire_value_t v)
{
    if (v.len < 0) {
        base_buf_put_u8(b, KE_NULL);
        return;
    }
    if (v.len == 0) {
        base_buf_put_u8(b, KE_EMPTY);
        return;
    }
    if (!cql__value_well_formed(t, v)) {
        base_buf_put_u8(b, KE_RAW);
        put_escaped(b, v.ptr, (size_t)v.len);
        return;
    }
    base_buf_put_u8(b, KE_VALUE);
    switch (t->id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_TIMESTAMP:
    case WIRE_TYPE_TIME:
        base_buf_put_u8(b, v.ptr[0] ^ 0x80);
        base_buf_put(b, v.ptr + 1, (size_t)v.len - 1);
        return;
    case WIRE_TYPE_DATE:
        base_buf_put(b, v.ptr, 4);
        return;
    case WIRE_TYPE_BOOLEAN:
        base_buf_put_u8(b, v.ptr[0] != 0);
        return;
    case WIRE_TYPE_FLOAT:
        base_buf_put_u32(b, (uint32_t)cql__float_key(v.ptr, 4));
        return;
    case WIRE_TYPE_DOUBLE:
        base_buf_put_u64(b, cql__float_key(v.ptr, 8));
        return;
    case WIRE_TYPE_UUID:
    case WIRE_TYPE_TIMEUUID:
        put_uuid(b, v.ptr, t->id == WIRE_TYPE_TIMEUUID);
        return;
    case WIRE_TYPE_VARINT:
        put_varint(b, v.ptr, (size_t)v.len);
        return;
    case WIRE_TYPE_DECIMAL:
        put_decimal(b, v);
        return;
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
    case WIRE_TYPE_TUPLE:
    case WIRE_TYPE_UDT:
        put_elements(b, t, v);
        return;
    default:
        put_escaped(b, v.ptr, (size_t)v.len);
        return;
    }
}


void cql__keyenc_append(base_buf_t *b, const wire_type_t *t, wire_value_t v, bool desc)
{
    size_t start = b->len;
    encode(b, t, v);
    if (desc) {
        for (size_t i = start; i < b->len; i++) {
            b->data[i] = (uint8_t)~b->data[i];
        }
    }
}


/* ---- decoding ------------------------------------------------------------------------ */

typedef struct reader_s {
    const uint8_t *p;
    size_t len;
    size_t pos;
    uint8_t mask; /* 0xFF for DESC components */
    bool fail;
} reader_t;


/* The next byte, un-inverted for DESC; past the end sets r->fail and gives 0. */
static uint8_t read_byte(reader_t *r)
{
    if (r->pos >= r->len) {
        r->fail = true;
        return 0;
    }
    return r->p[r->pos++] ^ r->mask;
}


static void read_bytes(reader_t *r, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[i] = read_byte(r);
    }
}


static bool read_escaped(reader_t *r, base_buf_t *out)
{
    for (;;) {
        uint8_t c = read_byte(r);
        if (r->fail) {
            return false;
        }
        if (c != 0x00) {
            base_buf_put_u8(out, c);
            continue;
        }
        uint8_t next = read_byte(r);
        if (next == 0x00 && !r->fail) {
            return true;
        }
        if (next != 0xFF || r->fail) {
            return false;
        }
        base_buf_put_u8(out, 0x00);
    }
}


static bool get_length(reader_t *r, uint8_t mask, size_t *n)
{
    uint8_t first = read_byte(r) ^ mask;
    if (first < 0xFF) {
        *n = first;
        return !r->fail;
    }
    uint8_t b[4];
    read_bytes(r, b, 4);
    *n = base_load_u32(b) ^ (mask ? 0xFFFFFFFFu : 0);
    return !r->fail && *n <= r->len - r->pos;
}


static bool get_varint(reader_t *r, base_buf_t *out)
{
    uint8_t sign = read_byte(r);
    if (sign == 0x80) {
        base_buf_put_u8(out, 0x00);
        return !r->fail;
    }
    if (sign != 0x81 && sign != 0x7F) {
        return false;
    }
    size_t n;
    if (!get_length(r, sign == 0x7F ? 0xFF : 0x00, &n) || n == 0 || n > r->len - r->pos) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        base_buf_put_u8(out, read_byte(r));
    }
    return !r->fail;
}


static bool get_decimal(reader_t *r, base_buf_t *out)
{
    uint8_t sign = read_byte(r);
    if (sign == 0x80) {
        uint8_t s[4];
        read_bytes(r, s, 4);
        base_buf_put_u32(out, base_load_u32(s) ^ 0x80000000u);
        base_buf_put_u8(out, 0x00);
        return !r->fail;
    }
    if (sign != 0x81 && sign != 0x7F) {
        return false;
    }
    uint8_t neg = sign == 0x7F ? 0xFF : 0x00;
    uint8_t e[8];
    read_bytes(r, e, 8);
    for (int i = 0; i < 8; i++) {
        e[i] ^= neg;
    }
    int64_t exp = (int64_t)(base_load_u64(e) ^ 0x8000000000000000ULL);
    if (exp < -(1LL << 40) || exp > (1LL << 40)) {
        return false; /* no real decimal has such an exponent */
    }
    base_buf_t digits;
    base_buf_init(&digits);
    if (neg) {
        base_buf_put_u8(&digits, '-');
    }
    bool ok = false;
    for (;;) {
        uint8_t pair = read_byte(r) ^ neg;
        if (r->fail || pair > 100) {
            break;
        }
        if (pair == 0x00) {
            ok = digits.len > (neg ? 1u : 0u);
            break;
        }
        base_buf_put_u8(&digits, (uint8_t)('0' + (pair - 1) / 10));
        base_buf_put_u8(&digits, (uint8_t)('0' + (pair - 1) % 10));
    }
    if (ok && digits.data[digits.len - 1] == '0') {
        digits.len--; /* padding of an odd digit count */
    }
    uint8_t s[4];
    read_bytes(r, s, 4);
    int32_t scale = (int32_t)(base_load_u32(s) ^ 0x80000000u);
    int64_t n_digits = (int64_t)digits.len - (neg ? 1 : 0);
    /* unscaled = D * 10^k with value = 0.D * 10^exp */
    int64_t k = exp - n_digits + scale;
    ok = ok && !r->fail && k >= 0 && k <= DECODE_MAX_ZEROS;
    if (ok) {
        base_buf_reserve(&digits, (size_t)k);
        memset(digits.data + digits.len, '0', (size_t)k);
        digits.len += (size_t)k;
        base_arena_t tmp;
        base_arena_init(&tmp, 0);
        wire_value_t unscaled;
        ok = cql__varint_from_text((const char *)digits.data, digits.len, &tmp, &unscaled);
        if (ok) {
            base_buf_put_u32(out, (uint32_t)scale);
            base_buf_put(out, unscaled.ptr, (size_t)unscaled.len);
        }
        base_arena_fini(&tmp);
    }
    base_buf_fini(&digits);
    return ok;
}


static bool get_uuid(reader_t *r, base_buf_t *out, bool timeuuid)
{
    uint8_t u[16], x[8];
    int version = timeuuid ? 1 : read_byte(r);
    if (version > 15) {
        return false;
    }
    read_bytes(r, x, 8);
    if (timeuuid) {
        x[0] ^= 0x80;
    }
    for (int i = 0; i < 8; i++) {
        u[timeuuid || version == 1 ? time_order[i] : i] = x[i];
    }
    read_bytes(r, u + 8, 8);
    for (int i = 8; i < 16 && timeuuid; i++) {
        u[i] ^= 0x80;
    }
    if (!timeuuid && (u[6] >> 4) != version) {
        return false;
    }
    base_buf_put(out, u, 16);
    return !r->fail;
}


static bool decode(reader_t *r, const wire_type_t *t, base_buf_t *out, bool *is_null);


static bool get_element(reader_t *r, const wire_type_t *t, base_buf_t *out)
{
    size_t at = out->len;
    base_buf_put_u32(out, 0);
    bool is_null;
    if (!decode(r, t, out, &is_null)) {
        return false;
    }
    size_t n = out->len - at - 4;
    if (n > INT32_MAX) {
        return false;
    }
    base_buf_set_u32(out, at, is_null ? 0xFFFFFFFFu : (uint32_t)n);
    return true;
}


static bool get_elements(reader_t *r, const wire_type_t *t, base_buf_t *out)
{
    bool tuple = t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT;
    size_t at = out->len;
    if (!tuple) {
        base_buf_put_u32(out, 0);
    }
    size_t n = 0;
    for (;;) {
        uint8_t marker = read_byte(r);
        if (r->fail || (marker != KE_END && marker != KE_MORE)) {
            return false;
        }
        if (marker == KE_END) {
            break;
        }
        if (tuple && n >= t->n_sub) {
            return false;
        }
        const wire_type_t *et = tuple ? t->sub[n] : t->sub[0];
        if (!get_element(r, et, out) ||
            (t->id == WIRE_TYPE_MAP && !get_element(r, t->sub[1], out)) || n >= INT32_MAX) {
            return false;
        }
        n++;
    }
    if (!tuple) {
        base_buf_set_u32(out, at, (uint32_t)n);
    }
    return true;
}


static bool decode(reader_t *r, const wire_type_t *t, base_buf_t *out, bool *is_null)
{
    *is_null = false;
    uint8_t tag = read_byte(r);
    if (r->fail) {
        return false;
    }
    switch (tag) {
    case KE_NULL:
        *is_null = true;
        return true;
    case KE_EMPTY:
        return true;
    case KE_RAW:
        return read_escaped(r, out);
    case KE_VALUE:
        break;
    default:
        return false;
    }
    size_t fixed = cql__type_fixed_size(t->id);
    uint8_t x[8];
    switch (t->id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_TIMESTAMP:
    case WIRE_TYPE_TIME:
    case WIRE_TYPE_DATE:
        BASE_ASSERT(fixed >= 1 && fixed <= sizeof(x)); /* the fixed-size types above */
        read_bytes(r, x, fixed);
        if (t->id != WIRE_TYPE_DATE) {
            x[0] ^= 0x80;
        }
        base_buf_put(out, x, fixed);
        return !r->fail;
    case WIRE_TYPE_BOOLEAN:
        x[0] = read_byte(r);
        base_buf_put_u8(out, x[0]);
        return !r->fail && x[0] <= 1;
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE: {
        BASE_ASSERT(fixed == 4 || fixed == 8);
        read_bytes(r, x, fixed);
        uint64_t key = fixed == 4 ? base_load_u32(x) : base_load_u64(x);
        uint64_t sign = fixed == 4 ? 0x80000000u : 0x8000000000000000ULL;
        uint64_t bits = (key & sign) ? key ^ sign : ~key;
        if (fixed == 4) {
            base_buf_put_u32(out, (uint32_t)bits);
        } else {
            base_buf_put_u64(out, bits);
        }
        return !r->fail;
    }
    case WIRE_TYPE_UUID:
    case WIRE_TYPE_TIMEUUID:
        return get_uuid(r, out, t->id == WIRE_TYPE_TIMEUUID);
    case WIRE_TYPE_VARINT:
        return get_varint(r, out);
    case WIRE_TYPE_DECIMAL:
        return get_decimal(r, out);
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
    case WIRE_TYPE_TUPLE:
    case WIRE_TYPE_UDT:
        return get_elements(r, t, out);
    default:
        return read_escaped(r, out);
    }
}


size_t cql__keyenc_decode(const wire_type_t *t, const uint8_t *p, size_t len, bool desc,
                          base_arena_t *a, wire_value_t *out)
{
    reader_t r = {p, len, 0, desc ? 0xFF : 0x00, false};
    base_buf_t b;
    base_buf_init(&b);
    bool is_null;
    size_t used = 0;
    if (decode(&r, t, &b, &is_null) && !r.fail && b.len <= INT32_MAX) {
        used = r.pos;
        *out = is_null ? (wire_value_t){NULL, WIRE_VALUE_NULL} : cql__buf_value(&b, a);
    }
    base_buf_fini(&b);
    return used;
}


/* ---- partition keys ------------------------------------------------------------------ */

ptrdiff_t cql__pk_compose_into(const wire_value_t *parts, size_t n, uint8_t *out, size_t cap)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (parts[i].len < 0 || (n > 1 && parts[i].len > UINT16_MAX)) {
            return -1;
        }
        len += (size_t)parts[i].len + (n > 1 ? 3 : 0);
    }
    if (out == NULL || len > cap) {
        return (ptrdiff_t)len;
    }
    if (n == 1) {
        if (len > 0) {
            memcpy(out, parts[0].ptr, len);
        }
        return (ptrdiff_t)len;
    }
    for (size_t i = 0, at = 0; i < n; i++) {
        size_t part = (size_t)parts[i].len;
        out[at] = (uint8_t)(part >> 8);
        out[at + 1] = (uint8_t)part;
        if (part > 0) {
            memcpy(out + at + 2, parts[i].ptr, part);
        }
        out[at + 2 + part] = 0x00;
        at += part + 3;
    }
    return (ptrdiff_t)len;
}


wire_value_t cql__pk_compose(const wire_value_t *parts, size_t n, base_arena_t *a)
{
    if (n == 1) {
        if (parts[0].len < 0) {
            return parts[0];
        }
        return (wire_value_t){base_arena_memdup(a, parts[0].ptr, (size_t)parts[0].len),
                              parts[0].len};
    }
    /* A part that is null or longer than a short can hold makes the empty
     * value: no composite key is empty (each part takes at least 3 bytes), so
     * it matches no partition, and it is safe to hash. Callers reject such keys
     * with Cassandra's message before writing. */
    ptrdiff_t len = cql__pk_compose_into(parts, n, NULL, 0); /* measure, then write */
    if (len < 0 || len > INT32_MAX) {
        return (wire_value_t){(const uint8_t *)"", 0};
    }
    uint8_t *out = base_arena_alloc(a, (size_t)len);
    cql__pk_compose_into(parts, n, out, (size_t)len);
    return (wire_value_t){out, (int32_t)len};
}


bool cql__pk_decompose(wire_value_t pk, size_t n, wire_value_t *parts)
{
    if (pk.len < 0) {
        return false;
    }
    if (n == 1) {
        parts[0] = pk;
        return true;
    }
    size_t len = (size_t)pk.len, pos = 0;
    for (size_t i = 0; i < n; i++) {
        if (len - pos < 2) {
            return false;
        }
        size_t l = base_load_u16(pk.ptr + pos);
        pos += 2;
        if (len - pos < l + 1 || pk.ptr[pos + l] != 0x00) {
            return false;
        }
        parts[i] = (wire_value_t){pk.ptr + pos, (int32_t)l};
        pos += l + 1;
    }
    return pos == len;
}
