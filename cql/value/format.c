/*
 * format.c - values as text (cql layer): CQL literals the way cqlsh
 * prints them (for logs, messages and DESCRIBE-like output) and JSON the
 * way Cassandra's toJson/SELECT JSON writes it.
 *
 * CQL: text 'quoted' with '' doubling, blobs 0x.., timestamps
 * '2024-01-01 10:00:00.000000+0000', dates/times/inets quoted, numbers and
 * uuids bare, floats as Java prints them (1.0E10, NaN), [list], {set},
 * {k: v}, (tuple), {field: v}. JSON: strings escaped as Jackson does,
 * timestamps "2024-01-01 10:00:00.000Z", uuids/blobs/dates/inets as
 * strings, NaN and Infinity as null, map keys always strings.
 * Malformed bytes never crash a formatter: they print as 0x hex.
 * cql_value_format (public) gives clients the same literals, or a cell as
 * cqlsh displays it, for a type decoded from a result's metadata.
 */
#include <arpa/inet.h>
#include <math.h>

#include "cql/cql.h"
#include "cql/value/value_int.h"

/* ---- Java's Float/Double.toString ---------------------------------------------------- */

char *cql__double_format(double d, bool is_float, base_arena_t *a)
{
    if (isnan(d)) {
        return base_arena_strndup(a, "NaN", 3);
    }
    if (isinf(d)) {
        return base_arena_sprintf(a, "%sInfinity", d < 0 ? "-" : "");
    }
    if (d == 0) {
        return base_arena_sprintf(a, "%s0.0", signbit(d) ? "-" : "");
    }
    /* The closest of the shortest decimals that read back to the same value,
     * with at least two digits as Java's spec asks (1.4E-45, not 1.0E-45). */
    char sci[64];
    int max = is_float ? 9 : 17;
    for (int p = 2; p <= max; p++) {
        snprintf(sci, sizeof(sci), "%.*e", p - 1, d);
        bool same = is_float ? strtof(sci, NULL) == (float)d : strtod(sci, NULL) == d;
        if (same) {
            break;
        }
    }
    /* sci is [-]d[.ddd]e[+-]xx */
    char digits[32];
    size_t nd = 0;
    const char *s = sci;
    bool neg = *s == '-';
    s += neg;
    for (; *s != 'e'; s++) {
        if (*s != '.') {
            digits[nd++] = *s;
        }
    }
    int e10 = (int)strtol(s + 1, NULL, 10); /* the exponent snprintf wrote: "e-05", "e+17" */
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    digits[nd] = '\0';
    double mag = fabs(d);
    base_buf_t b;
    base_buf_init(&b);
    if (neg) {
        base_buf_put_u8(&b, '-');
    }
    if (mag >= 1e-3 && mag < 1e7) {
        if (e10 >= 0) {
            for (int i = 0; i <= e10; i++) {
                base_buf_put_u8(&b, (size_t)i < nd ? (uint8_t)digits[i] : '0');
            }
            base_buf_put_u8(&b, '.');
            if ((size_t)e10 + 1 < nd) {
                base_buf_put(&b, digits + e10 + 1, nd - (size_t)e10 - 1);
            } else {
                base_buf_put_u8(&b, '0');
            }
        } else {
            base_buf_put(&b, "0.", 2);
            for (int i = 0; i < -e10 - 1; i++) {
                base_buf_put_u8(&b, '0');
            }
            base_buf_put(&b, digits, nd);
        }
    } else {
        base_buf_put_u8(&b, (uint8_t)digits[0]);
        base_buf_put_u8(&b, '.');
        if (nd > 1) {
            base_buf_put(&b, digits + 1, nd - 1);
        } else {
            base_buf_put_u8(&b, '0');
        }
        base_buf_printf(&b, "E%d", e10);
    }
    char *out = base_arena_strndup(a, (const char *)b.data, b.len);
    base_buf_fini(&b);
    return out;
}


/* ---- shared pieces ------------------------------------------------------------------- */

static void put_str(base_buf_t *b, const char *s)
{
    base_buf_put(b, s, strlen(s));
}


static void put_hex(base_buf_t *b, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    base_buf_put(b, "0x", 2);
    base_buf_reserve(b, 2 * n);
    for (size_t i = 0; i < n; i++) {
        b->data[b->len++] = (uint8_t)hex[p[i] >> 4];
        b->data[b->len++] = (uint8_t)hex[p[i] & 15];
    }
}


static void put_cql_quoted(base_buf_t *b, const char *s, size_t n)
{
    base_buf_put_u8(b, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') {
            base_buf_put_u8(b, '\'');
        }
        base_buf_put_u8(b, (uint8_t)s[i]);
    }
    base_buf_put_u8(b, '\'');
}


/* Jackson's JsonStringEncoder: ", \ and control characters escaped. */
static void put_json_string(base_buf_t *b, const char *s, size_t n)
{
    base_buf_put_u8(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            put_str(b, "\\\"");
            break;
        case '\\':
            put_str(b, "\\\\");
            break;
        case '\b':
            put_str(b, "\\b");
            break;
        case '\f':
            put_str(b, "\\f");
            break;
        case '\n':
            put_str(b, "\\n");
            break;
        case '\r':
            put_str(b, "\\r");
            break;
        case '\t':
            put_str(b, "\\t");
            break;
        default:
            if (c < 0x20) {
                base_buf_printf(b, "\\u%04x", c);
            } else {
                base_buf_put_u8(b, c);
            }
        }
    }
    base_buf_put_u8(b, '"');
}


static double load_float(const uint8_t *p, size_t n)
{
    if (n == 4) {
        uint32_t bits = base_load_u32(p);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    uint64_t bits = base_load_u64(p);
    double d;
    memcpy(&d, &bits, 8);
    return d;
}


/* inet text: inet_ntop (cqlsh) or Java's getHostAddress (toJson, IPv6 uncompressed). */
static void put_inet(base_buf_t *b, const uint8_t *p, size_t n, bool java)
{
    char text[INET6_ADDRSTRLEN];
    if (n != 4 && n != 16) {
        put_hex(b, p, n);
        return;
    }
    if (n == 16 && java) {
        for (int i = 0; i < 8; i++) {
            base_buf_printf(b, "%s%x", i ? ":" : "", base_load_u16(p + 2 * i));
        }
        return;
    }
    if (inet_ntop(n == 4 ? AF_INET : AF_INET6, p, text, sizeof(text)) != NULL) {
        put_str(b, text);
    }
}


/* Text of a scalar that both formats share (numbers, uuids, durations). */
static bool put_scalar(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    size_t n = (size_t)v.len;
    char uuid[37];
    switch (t->id) {
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_SMALLINT:
    case WIRE_TYPE_INT:
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
        base_buf_printf(b, "%lld", (long long)cql__load_signed(v.ptr, n));
        return true;
    case WIRE_TYPE_BOOLEAN:
        put_str(b, v.ptr[0] ? "true" : "false");
        return true;
    case WIRE_TYPE_UUID:
    case WIRE_TYPE_TIMEUUID:
        cql__uuid_format(v.ptr, uuid);
        put_str(b, uuid);
        return true;
    case WIRE_TYPE_VARINT:
        put_str(b, cql__varint_to_text(v.ptr, n, a));
        return true;
    default:
        return false;
    }
}


/* ---- CQL literals -------------------------------------------------------------------- */

static void put_cql(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a);


static void put_cql_elements(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    bool udt = t->id == WIRE_TYPE_UDT;
    if (t->id == WIRE_TYPE_TUPLE || udt) {
        put_str(b, udt ? "{" : "(");
        for (size_t i = 0; cql__cursor_left(&c) > 0; i++) {
            wire_value_t e;
            cql__cursor_value(&c, &e);
            put_str(b, i ? ", " : "");
            if (udt) {
                base_buf_printf(b, "%s: ", t->field_names ? t->field_names[i] : "?");
            }
            put_cql(b, t->sub[i], e, a);
        }
        put_str(b, udt ? "}" : ")");
        return;
    }
    int32_t n = 0;
    cql__cursor_i32(&c, &n);
    put_str(b, t->id == WIRE_TYPE_LIST ? "[" : "{");
    for (int32_t i = 0; i < n; i++) {
        wire_value_t e;
        cql__cursor_value(&c, &e);
        put_str(b, i ? ", " : "");
        put_cql(b, t->sub[0], e, a);
        if (t->id == WIRE_TYPE_MAP) {
            cql__cursor_value(&c, &e);
            put_str(b, ": ");
            put_cql(b, t->sub[1], e, a);
        }
    }
    put_str(b, t->id == WIRE_TYPE_LIST ? "]" : "}");
}


static void put_cql(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    if (v.len < 0) {
        put_str(b, "null");
        return;
    }
    size_t n = (size_t)v.len;
    if (t->id == WIRE_TYPE_VARCHAR || t->id == WIRE_TYPE_ASCII) {
        put_cql_quoted(b, (const char *)v.ptr, n);
        return;
    }
    if (t->id == WIRE_TYPE_BLOB || t->id == WIRE_TYPE_CUSTOM || !cql__value_well_formed(t, v)) {
        put_hex(b, v.ptr, n);
        return;
    }
    if (n == 0) {
        put_str(b, "null");
        return;
    }
    if (put_scalar(b, t, v, a)) {
        return;
    }
    cql_duration_t dur;
    switch (t->id) {
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE:
        put_str(b, cql__double_format(load_float(v.ptr, n), n == 4, a));
        return;
    case WIRE_TYPE_DECIMAL:
        put_str(b, cql__decimal_to_text(v.ptr, n, true, a));
        return;
    case WIRE_TYPE_TIMESTAMP: {
        const char *s = cql__timestamp_format(cql__load_signed(v.ptr, 8), false, a);
        put_cql_quoted(b, s, strlen(s));
        return;
    }
    case WIRE_TYPE_DATE: {
        const char *s = cql__date_format(base_load_u32(v.ptr), a);
        put_cql_quoted(b, s, strlen(s));
        return;
    }
    case WIRE_TYPE_TIME: {
        const char *s = cql__time_format(cql__load_signed(v.ptr, 8), a);
        put_cql_quoted(b, s, strlen(s));
        return;
    }
    case WIRE_TYPE_INET:
        if (n != 4 && n != 16) {
            put_hex(b, v.ptr, n);
            return;
        }
        base_buf_put_u8(b, '\'');
        put_inet(b, v.ptr, n, false);
        base_buf_put_u8(b, '\'');
        return;
    case WIRE_TYPE_DURATION:
        if (!cql__duration_decode(v.ptr, n, &dur)) {
            put_hex(b, v.ptr, n);
            return;
        }
        put_str(b, (dur.months | dur.days) == 0 && dur.nanos == 0 ? "0s"
                                                                  : cql__duration_format(&dur, a));
        return;
    default:
        put_cql_elements(b, t, v, a);
        return;
    }
}


const char *cql__value_to_cql(const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    base_buf_t b;
    base_buf_init(&b);
    put_cql(&b, t, v, a);
    char *s = base_arena_strndup(a, (const char *)b.data, b.len);
    base_buf_fini(&b);
    return s;
}


/* What cqlsh shows in a cell: a text cell as its characters, control characters escaped
 * (\n, \t, \x01) so a row stays on its line; timestamps, dates, times and inets without the
 * quotes of their literals. Inside collections, tuples and user types the elements stay
 * literals ({'a': 1}), as cqlsh prints them. */
static void put_display(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    if (v.len >= 0 && (t->id == WIRE_TYPE_VARCHAR || t->id == WIRE_TYPE_ASCII)) {
        for (int32_t i = 0; i < v.len; i++) {
            unsigned char c = v.ptr[i];
            if (c == '\n') {
                put_str(b, "\\n");
            } else if (c == '\t') {
                put_str(b, "\\t");
            } else if (c == '\r') {
                put_str(b, "\\r");
            } else if (c < 0x20 || c == 0x7F) {
                base_buf_printf(b, "\\x%02x", c);
            } else {
                base_buf_put_u8(b, c);
            }
        }
        return;
    }
    size_t start = b->len;
    put_cql(b, t, v, a);
    bool unquote = t->id == WIRE_TYPE_TIMESTAMP || t->id == WIRE_TYPE_DATE ||
                   t->id == WIRE_TYPE_TIME || t->id == WIRE_TYPE_INET;
    size_t n = b->len - start;
    if (unquote && n >= 2 && b->data[start] == '\'' && b->data[b->len - 1] == '\'') {
        memmove(b->data + start, b->data + start + 1, n - 2);
        b->len -= 2;
    }
}


const char *cql_value_format(const wire_type_t *t, wire_value_t v, cql_format_t how,
                             base_arena_t *a)
{
    base_buf_t b;
    base_buf_init(&b);
    if (how == CQL_FORMAT_DISPLAY) {
        put_display(&b, t, v, a);
    } else {
        put_cql(&b, t, v, a);
    }
    char *s = base_arena_strndup(a, b.len ? (const char *)b.data : "", b.len);
    base_buf_fini(&b);
    return s;
}


/* ---- JSON ---------------------------------------------------------------------------- */

static void put_json(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a);


/* Field names are quoted as Cassandra does when they are not lower-case. */
static void put_json_field(base_buf_t *b, const char *name)
{
    bool lower = true;
    for (const char *p = name; *p; p++) {
        lower = lower && !(*p >= 'A' && *p <= 'Z');
    }
    if (lower) {
        put_json_string(b, name, strlen(name));
        return;
    }
    base_buf_t q;
    base_buf_init(&q);
    base_buf_printf(&q, "\"%s\"", name);
    put_json_string(b, (const char *)q.data, q.len);
    base_buf_fini(&q);
}


static void put_json_elements(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    bool udt = t->id == WIRE_TYPE_UDT;
    if (t->id == WIRE_TYPE_TUPLE || udt) {
        put_str(b, udt ? "{" : "[");
        size_t i = 0;
        for (; cql__cursor_left(&c) > 0; i++) {
            wire_value_t e;
            cql__cursor_value(&c, &e);
            put_str(b, i ? ", " : "");
            if (udt) {
                put_json_field(b, t->field_names ? t->field_names[i] : "");
                put_str(b, ": ");
            }
            put_json(b, t->sub[i], e, a);
        }
        for (; udt && i < t->n_sub; i++) { /* fields missing from the value are null */
            put_str(b, i ? ", " : "");
            put_json_field(b, t->field_names ? t->field_names[i] : "");
            put_str(b, ": null");
        }
        put_str(b, udt ? "}" : "]");
        return;
    }
    int32_t n = 0;
    cql__cursor_i32(&c, &n);
    bool map = t->id == WIRE_TYPE_MAP;
    put_str(b, map ? "{" : "[");
    for (int32_t i = 0; i < n; i++) {
        wire_value_t e;
        cql__cursor_value(&c, &e);
        put_str(b, i ? ", " : "");
        if (!map) {
            put_json(b, t->sub[0], e, a);
            continue;
        }
        /* Map keys must be JSON strings: non-string keys are stringified. */
        base_buf_t k;
        base_buf_init(&k);
        put_json(&k, t->sub[0], e, a);
        if (k.len > 0 && k.data[0] == '"') {
            base_buf_put(b, k.data, k.len);
        } else {
            put_json_string(b, (const char *)k.data, k.len);
        }
        base_buf_fini(&k);
        put_str(b, ": ");
        cql__cursor_value(&c, &e);
        put_json(b, t->sub[1], e, a);
    }
    put_str(b, map ? "}" : "]");
}


static void put_json(base_buf_t *b, const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    if (v.len < 0) {
        put_str(b, "null");
        return;
    }
    size_t n = (size_t)v.len;
    if (t->id == WIRE_TYPE_VARCHAR || t->id == WIRE_TYPE_ASCII) {
        put_json_string(b, (const char *)v.ptr, n);
        return;
    }
    if (t->id == WIRE_TYPE_BLOB || t->id == WIRE_TYPE_CUSTOM || !cql__value_well_formed(t, v)) {
        base_buf_t h;
        base_buf_init(&h);
        put_hex(&h, v.ptr, n);
        put_json_string(b, (const char *)h.data, h.len);
        base_buf_fini(&h);
        return;
    }
    if (n == 0) {
        put_str(b, t->id == WIRE_TYPE_FLOAT || t->id == WIRE_TYPE_DOUBLE ? "\"\"" : "null");
        return;
    }
    if (t->id == WIRE_TYPE_UUID || t->id == WIRE_TYPE_TIMEUUID) {
        char uuid[37];
        cql__uuid_format(v.ptr, uuid);
        base_buf_printf(b, "\"%s\"", uuid);
        return;
    }
    if (put_scalar(b, t, v, a)) {
        return;
    }
    const char *s;
    cql_duration_t dur;
    switch (t->id) {
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DOUBLE: {
        double d = load_float(v.ptr, n);
        put_str(b, isnan(d) || isinf(d) ? "null" : cql__double_format(d, n == 4, a));
        return;
    }
    case WIRE_TYPE_DECIMAL:
        put_str(b, cql__decimal_to_text(v.ptr, n, false, a));
        return;
    case WIRE_TYPE_TIMESTAMP:
        s = cql__timestamp_format(cql__load_signed(v.ptr, 8), true, a);
        break;
    case WIRE_TYPE_DATE:
        s = cql__date_format(base_load_u32(v.ptr), a);
        break;
    case WIRE_TYPE_TIME:
        s = cql__time_format(cql__load_signed(v.ptr, 8), a);
        break;
    case WIRE_TYPE_INET: {
        base_buf_t h;
        base_buf_init(&h);
        put_inet(&h, v.ptr, n, true);
        put_json_string(b, h.len ? (const char *)h.data : "", h.len);
        base_buf_fini(&h);
        return;
    }
    case WIRE_TYPE_DURATION:
        s = cql__duration_decode(v.ptr, n, &dur) ? cql__duration_format(&dur, a) : "";
        break;
    default:
        put_json_elements(b, t, v, a);
        return;
    }
    put_json_string(b, s, strlen(s));
}


const char *cql__value_to_json(const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    base_buf_t b;
    base_buf_init(&b);
    put_json(&b, t, v, a);
    char *s = base_arena_strndup(a, (const char *)b.data, b.len);
    base_buf_fini(&b);
    return s;
}
