/*
 * validate.c - checks serialized values from the network against
 * their CQL type (cql layer), with the messages Cassandra's serializers
 * give (Int32Serializer "Expected 4 or 0 byte int (3)", UTF8Serializer
 * "String didn't validate.", ListSerializer "Not enough bytes to read a
 * list", TupleType, UserTypeSerializer...). Everything here reads untrusted
 * bytes, so every read goes through cql_cursor_t; nothing is asserted.
 * Recursion follows the type tree, whose depth the schema bounds.
 */
#include "cql/value/value_int.h"

bool cql__utf8_valid(const uint8_t *p, size_t len)
{
    /* Well-formed UTF-8 as Unicode defines it (Table 3-7, RFC 3629): no
     * overlong forms, no surrogates (U+D800..U+DFFF, ED A0..BF), nothing
     * past U+10FFFF (F4 90.., F5..FF). Cassandra's UTF8Validator is laxer
     * (it takes surrogates and some bad continuation bytes); the one laxity
     * kept is its modified UTF-8 NUL (C0 80), which Java clients may send. */
    size_t i = 0;
    while (i < len) {
        /* Eight ASCII bytes at a step: text is mostly ASCII, and a byte at a
         * time over 1 KB of text fields was 1.2% of a YCSB-A load. */
        uint64_t w;
        if (len - i >= sizeof(w)) {
            memcpy(&w, p + i, sizeof(w));
            if ((w & UINT64_C(0x8080808080808080)) == 0) {
                i += sizeof(w);
                continue;
            }
        }
        uint8_t b = p[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t n;                     /* continuation bytes */
        uint8_t lo = 0x80, hi = 0xBF; /* the range of the first continuation byte */
        if (b == 0xC0) {
            n = 1;
            lo = hi = 0x80;
        } else if (b >= 0xC2 && b <= 0xDF) {
            n = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            n = 2;
            lo = b == 0xE0 ? 0xA0 : 0x80;
            hi = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            n = 3;
            lo = b == 0xF0 ? 0x90 : 0x80;
            hi = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false; /* a continuation byte, C1 (overlong) or F5..FF */
        }
        if (len - i <= n || p[i + 1] < lo || p[i + 1] > hi) {
            return false;
        }
        for (size_t k = 2; k <= n; k++) {
            if ((p[i + k] & 0xC0) != 0x80) {
                return false;
            }
        }
        i += n + 1;
    }
    return true;
}


/* The format gets the actual length as its only argument. */
static int check_size(base_error_t *err, wire_value_t v, size_t size, bool empty_ok,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int check_size(base_error_t *err, wire_value_t v, size_t size, bool empty_ok,
                      const char *fmt, ...)
{
    if ((size_t)v.len == size || (empty_ok && v.len == 0)) {
        return BASE_OK;
    }
    char msg[BASE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return base_error_set(err, WIRE_ERR_INVALID, "%s", msg);
}


static int validate_collection(const wire_type_t *t, wire_value_t v, base_error_t *err)
{
    const char *kind = t->id == WIRE_TYPE_LIST ? "list" : t->id == WIRE_TYPE_SET ? "set" : "map";
    bool is_map = t->id == WIRE_TYPE_MAP;
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    int32_t n = 0;
    if (!cql__cursor_i32(&c, &n) || n < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Not enough bytes to read a %s", kind);
    }
    for (int32_t i = 0; i < n; i++) {
        for (int part = 0; part < (is_map ? 2 : 1); part++) {
            wire_value_t e;
            if (!cql__cursor_value(&c, &e)) {
                return base_error_set(err, WIRE_ERR_INVALID, "Not enough bytes to read a %s", kind);
            }
            if (e.len < 0) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "null is not supported inside collections");
            }
            if (cql__value_validate(t->sub[part], e, err) != BASE_OK) {
                return BASE_ERROR;
            }
        }
    }
    if (cql__cursor_left(&c) != 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unexpected extraneous bytes after %s value",
                              kind);
    }
    return BASE_OK;
}


/* TupleType.validate / UserTypeSerializer.validate: fewer components than
 * declared are allowed (fields added later), more are not. */
static int validate_tuple(const wire_type_t *t, wire_value_t v, base_error_t *err)
{
    bool udt = t->id == WIRE_TYPE_UDT;
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    for (size_t i = 0; i < t->n_sub && cql__cursor_left(&c) > 0; i++) {
        const char *field = udt && t->field_names ? t->field_names[i] : "";
        if (cql__cursor_left(&c) < 4) {
            return udt ? base_error_set(err, WIRE_ERR_INVALID,
                                        "Not enough bytes to read size of %zuth field %s", i, field)
                       : base_error_set(err, WIRE_ERR_INVALID,
                                        "Not enough bytes to read size of %zuth component", i);
        }
        wire_value_t e;
        if (!cql__cursor_value(&c, &e)) {
            return udt ? base_error_set(err, WIRE_ERR_INVALID,
                                        "Not enough bytes to read %zuth field %s", i, field)
                       : base_error_set(err, WIRE_ERR_INVALID,
                                        "Not enough bytes to read %zuth component", i);
        }
        if (e.len >= 0 && cql__value_validate(t->sub[i], e, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (cql__cursor_left(&c) != 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid remaining data after end of %s value",
                              udt ? "UDT" : "tuple");
    }
    return BASE_OK;
}


static int validate_duration(wire_value_t v, base_error_t *err)
{
    if (v.len < 3) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Expected at least 3 bytes for a duration (%d)", (int)v.len);
    }
    int64_t m, d, n;
    if (!cql__duration_decode_raw(v.ptr, (size_t)v.len, &m, &d, &n)) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid duration value (%d bytes)",
                              (int)v.len);
    }
    if (m < INT32_MIN || m > INT32_MAX) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "The duration months must be a 32 bits integer but was: %lld",
                              (long long)m);
    }
    if (d < INT32_MIN || d > INT32_MAX) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "The duration days must be a 32 bits integer but was: %lld",
                              (long long)d);
    }
    if (!((m >= 0 && d >= 0 && n >= 0) || (m <= 0 && d <= 0 && n <= 0))) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "The duration months, days and nanoseconds must be all of the same "
                              "sign (%lld, %lld, %lld)",
                              (long long)m, (long long)d, (long long)n);
    }
    return BASE_OK;
}


static int validate_inet(wire_value_t v, base_error_t *err)
{
    if (v.len == 0 || v.len == 4 || v.len == 16) {
        return BASE_OK;
    }
    char hex[2 * 32 + 4];
    size_t n = v.len > 32 ? 32 : (size_t)v.len;
    for (size_t i = 0; i < n; i++) {
        snprintf(hex + 2 * i, 3, "%02x", v.ptr[i]);
    }
    hex[2 * n] = '\0';
    return base_error_set(err, WIRE_ERR_INVALID, "Expected 4 or 16 byte inetaddress; got %s%s", hex,
                          (size_t)v.len > n ? "..." : "");
}


int cql__value_validate(const wire_type_t *t, wire_value_t v, base_error_t *err)
{
    if (v.len < 0) {
        return BASE_OK;
    }
    switch (t->id) {
    case WIRE_TYPE_ASCII:
        for (int32_t i = 0; i < v.len; i++) {
            if (v.ptr[i] & 0x80) {
                return base_error_set(err, WIRE_ERR_INVALID, "Invalid byte for ascii: %d",
                                      (int)(int8_t)v.ptr[i]);
            }
        }
        return BASE_OK;
    case WIRE_TYPE_VARCHAR:
        if (!cql__utf8_valid(v.ptr, (size_t)v.len)) {
            return base_error_set(err, WIRE_ERR_INVALID, "String didn't validate.");
        }
        return BASE_OK;
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
        return check_size(err, v, 8, true, "Expected 8 or 0 byte long (%d)", (int)v.len);
    case WIRE_TYPE_INT:
        return check_size(err, v, 4, true, "Expected 4 or 0 byte int (%d)", (int)v.len);
    case WIRE_TYPE_SMALLINT:
        return check_size(err, v, 2, false, "Expected 2 bytes for a smallint (%d)", (int)v.len);
    case WIRE_TYPE_TINYINT:
        return check_size(err, v, 1, false, "Expected 1 byte for a tinyint (%d)", (int)v.len);
    case WIRE_TYPE_FLOAT:
        return check_size(err, v, 4, true, "Expected 4 or 0 byte value for a float (%d)",
                          (int)v.len);
    case WIRE_TYPE_DOUBLE:
        return check_size(err, v, 8, true, "Expected 8 or 0 byte value for a double (%d)",
                          (int)v.len);
    case WIRE_TYPE_BOOLEAN:
        return check_size(err, v, 1, true, "Expected 1 or 0 byte value (%d)", (int)v.len);
    case WIRE_TYPE_TIMESTAMP:
        return check_size(err, v, 8, true, "Expected 8 or 0 byte long for date (%d)", (int)v.len);
    case WIRE_TYPE_DATE:
        return check_size(err, v, 4, false, "Expected 4 byte long for date (%d)", (int)v.len);
    case WIRE_TYPE_TIME:
        return check_size(err, v, 8, false, "Expected 8 byte long for time (%d)", (int)v.len);
    case WIRE_TYPE_UUID:
        return check_size(err, v, 16, true, "UUID should be 16 or 0 bytes (%d)", (int)v.len);
    case WIRE_TYPE_TIMEUUID:
        if (check_size(err, v, 16, true, "UUID should be 16 or 0 bytes (%d)", (int)v.len) !=
            BASE_OK) {
            return BASE_ERROR;
        }
        if (v.len == 16 && (v.ptr[6] & 0xF0) != 0x10) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid version for TimeUUID type.");
        }
        return BASE_OK;
    case WIRE_TYPE_INET:
        return validate_inet(v, err);
    case WIRE_TYPE_DECIMAL:
        if (v.len != 0 && v.len < 4) {
            return base_error_set(err, WIRE_ERR_INVALID, "Expected 0 or at least 4 bytes (%d)",
                                  (int)v.len);
        }
        return BASE_OK;
    case WIRE_TYPE_DURATION:
        return validate_duration(v, err);
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
        return validate_collection(t, v, err);
    case WIRE_TYPE_TUPLE:
    case WIRE_TYPE_UDT:
        return validate_tuple(t, v, err);
    default: /* blob, varint, custom: any bytes */
        return BASE_OK;
    }
}
