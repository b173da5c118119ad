/*
 * codec.c - the wire_put_* writers: protocol notations (spec section 3)
 * appended straight into a base_buf_t (wire layer).
 *
 * Invariants:
 *  - Writers never fail; the buffer grows (or aborts on OOM, as base_buf does).
 *  - A [string] or [short] count cannot exceed 65535: longer input is cut to
 *    the limit rather than written with a wrapped length, so a frame stays
 *    parseable even if a caller forgets to check (a long warning, say).
 */
#include "wire/wire.h"

#define SHORT_MAX 0xFFFFu


static uint16_t clamp_short(size_t n)
{
    return n > SHORT_MAX ? (uint16_t)SHORT_MAX : (uint16_t)n;
}


void wire_put_string(base_buf_t *b, const char *s, size_t len)
{
    uint16_t n = clamp_short(len);
    base_buf_reserve(b, 2 + (size_t)n);
    base_buf_put_u16(b, n);
    base_buf_put(b, s, n);
}


void wire_put_cstring(base_buf_t *b, const char *s)
{
    wire_put_string(b, s, s != NULL ? strlen(s) : 0);
}


void wire_put_long_string(base_buf_t *b, const char *s, size_t len)
{
    BASE_ASSERT(len <= INT32_MAX);
    base_buf_reserve(b, 4 + len);
    base_buf_put_u32(b, (uint32_t)len);
    base_buf_put(b, s, len);
}


void wire_put_bytes(base_buf_t *b, const uint8_t *p, int32_t len)
{
    if (len < 0) {
        base_buf_put_u32(b, (uint32_t)WIRE_VALUE_NULL);
        return;
    }
    base_buf_reserve(b, 4 + (size_t)len);
    base_buf_put_u32(b, (uint32_t)len);
    base_buf_put(b, p, (size_t)len);
}


void wire_put_value(base_buf_t *b, wire_value_t v)
{
    if (v.len == WIRE_VALUE_UNSET) {
        base_buf_put_u32(b, (uint32_t)WIRE_VALUE_UNSET);
        return;
    }
    wire_put_bytes(b, v.ptr, v.len);
}


void wire_put_short_bytes(base_buf_t *b, const uint8_t *p, uint16_t len)
{
    base_buf_reserve(b, 2 + (size_t)len);
    base_buf_put_u16(b, len);
    base_buf_put(b, p, len);
}


void wire_put_string_list(base_buf_t *b, const char *const *items, size_t n)
{
    uint16_t count = clamp_short(n);
    base_buf_put_u16(b, count);
    for (size_t i = 0; i < count; i++) {
        wire_put_cstring(b, items[i]);
    }
}


/* Our own trees: their depth is bounded by the CQL type parser that built them. */
// NOLINTNEXTLINE(misc-no-recursion)
void wire_put_type(base_buf_t *b, const wire_type_t *t)
{
    base_buf_put_u16(b, t->id);
    switch (t->id) {
    case WIRE_TYPE_CUSTOM:
        wire_put_cstring(b, t->custom_class);
        break;
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
        BASE_ASSERT(t->n_sub == 1);
        wire_put_type(b, t->sub[0]);
        break;
    case WIRE_TYPE_MAP:
        BASE_ASSERT(t->n_sub == 2);
        wire_put_type(b, t->sub[0]);
        wire_put_type(b, t->sub[1]);
        break;
    case WIRE_TYPE_UDT:
        wire_put_cstring(b, t->keyspace);
        wire_put_cstring(b, t->name);
        base_buf_put_u16(b, t->n_sub);
        for (size_t i = 0; i < t->n_sub; i++) {
            wire_put_cstring(b, t->field_names[i]);
            wire_put_type(b, t->sub[i]);
        }
        break;
    case WIRE_TYPE_TUPLE:
        base_buf_put_u16(b, t->n_sub);
        for (size_t i = 0; i < t->n_sub; i++) {
            wire_put_type(b, t->sub[i]);
        }
        break;
    default:
        break; /* native types carry no value */
    }
}


void wire_put_inet(base_buf_t *b, const uint8_t *addr, uint8_t addr_len, int32_t port)
{
    BASE_ASSERT(addr_len == 4 || addr_len == 16);
    base_buf_reserve(b, 1 + (size_t)addr_len + 4);
    base_buf_put_u8(b, addr_len);
    base_buf_put(b, addr, addr_len);
    base_buf_put_u32(b, (uint32_t)port);
}
