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
    /* UTF8Serializer.UTF8Validator, state for state: it allows the modified
     * UTF-8 NUL (C0 80) and is lax about some ranges, and we must accept
     * whatever Cassandra accepts. */
    enum { START, TWO, TWO_80, THREE_A0BF, THREE_80BF_1, THREE_80BF_2, FOUR_90BF, FOUR_80BF_3 };
    int state = START;
    for (size_t i = 0; i < len; i++) {
        int b = (int8_t)p[i];
        switch (state) {
        case START:
            if (b >= 0) {
                break;
            }
            if ((b >> 5) == -2) {
                if (b == (int8_t)0xC0) {
                    state = TWO_80;
                } else if ((b & 0x1E) == 0) {
                    return false;
                } else {
                    state = TWO;
                }
            } else if ((b >> 4) == -2) {
                state = b == (int8_t)0xE0 ? THREE_A0BF : THREE_80BF_2;
            } else if ((b >> 3) == -2) {
                state = b == (int8_t)0xF0 ? FOUR_90BF : FOUR_80BF_3;
            } else {
                return false;
            }
            break;
        case TWO:
            if ((b & 0xC0) != 0x80) {
                return false;
            }
            state = START;
            break;
        case TWO_80:
            if (b != (int8_t)0x80) {
                return false;
            }
            state = START;
            break;
        case THREE_A0BF:
            if ((b & 0xE0) == 0x80) {
                return false;
            }
            state = THREE_80BF_1;
            break;
        case THREE_80BF_1:
            if ((b & 0xC0) != 0x80) {
                return false;
            }
            state = START;
            break;
        case THREE_80BF_2:
            if ((b & 0xC0) != 0x80) {
                return false;
            }
            state = THREE_80BF_1;
            break;
        case FOUR_90BF:
            if ((b & 0x30) == 0) {
                return false;
            }
            state = THREE_80BF_2;
            break;
        default: /* FOUR_80BF_3 */
            if ((b & 0xC0) != 0x80) {
                return false;
            }
            state = THREE_80BF_2;
            break;
        }
    }
    return state == START;
}


/* The format gets the actual length as its only argument. */
static int fixed(base_error_t *err, wire_value_t v, size_t size, bool empty_ok, const char *fmt,
                 ...) __attribute__((format(printf, 5, 6)));

static int fixed(base_error_t *err, wire_value_t v, size_t size, bool empty_ok, const char *fmt,
                 ...)
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
    if ((size_t)v.len > n) {
        strcat(hex, "...");
    }
    return base_error_set(err, WIRE_ERR_INVALID, "Expected 4 or 16 byte inetaddress; got %s", hex);
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
        return fixed(err, v, 8, true, "Expected 8 or 0 byte long (%d)", (int)v.len);
    case WIRE_TYPE_INT:
        return fixed(err, v, 4, true, "Expected 4 or 0 byte int (%d)", (int)v.len);
    case WIRE_TYPE_SMALLINT:
        return fixed(err, v, 2, false, "Expected 2 bytes for a smallint (%d)", (int)v.len);
    case WIRE_TYPE_TINYINT:
        return fixed(err, v, 1, false, "Expected 1 byte for a tinyint (%d)", (int)v.len);
    case WIRE_TYPE_FLOAT:
        return fixed(err, v, 4, true, "Expected 4 or 0 byte value for a float (%d)", (int)v.len);
    case WIRE_TYPE_DOUBLE:
        return fixed(err, v, 8, true, "Expected 8 or 0 byte value for a double (%d)", (int)v.len);
    case WIRE_TYPE_BOOLEAN:
        return fixed(err, v, 1, true, "Expected 1 or 0 byte value (%d)", (int)v.len);
    case WIRE_TYPE_TIMESTAMP:
        return fixed(err, v, 8, true, "Expected 8 or 0 byte long for date (%d)", (int)v.len);
    case WIRE_TYPE_DATE:
        return fixed(err, v, 4, false, "Expected 4 byte long for date (%d)", (int)v.len);
    case WIRE_TYPE_TIME:
        return fixed(err, v, 8, false, "Expected 8 byte long for time (%d)", (int)v.len);
    case WIRE_TYPE_UUID:
        return fixed(err, v, 16, true, "UUID should be 16 or 0 bytes (%d)", (int)v.len);
    case WIRE_TYPE_TIMEUUID:
        if (fixed(err, v, 16, true, "UUID should be 16 or 0 bytes (%d)", (int)v.len) != BASE_OK) {
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
