/*
 * scalar.c - small constructors of native types and single values (int,
 * bigint, text, boolean, blob, double) in an arena, for the system tables
 * and the metadata that the engine builds itself rather than parsing.
 */
#include "cql/value/value_int.h"


const wire_type_t *cql__native_int(void)
{
    return cql__type_native("int");
}


const wire_type_t *cql__native_bigint(void)
{
    return cql__type_native("bigint");
}


const wire_type_t *cql__native_text(void)
{
    return cql__type_native("text");
}


const wire_type_t *cql__native_boolean(void)
{
    return cql__type_native("boolean");
}


wire_value_t cql__value_blob(base_arena_t *a, const uint8_t *p, size_t n)
{
    wire_value_t v = {base_arena_memdup(a, p, n), (int32_t)n};
    return v;
}


wire_value_t cql__value_int(base_arena_t *a, int32_t x)
{
    uint8_t b[4] = {(uint8_t)((uint32_t)x >> 24), (uint8_t)((uint32_t)x >> 16),
                    (uint8_t)((uint32_t)x >> 8), (uint8_t)x};
    return cql__value_blob(a, b, 4);
}


wire_value_t cql__value_bigint(base_arena_t *a, int64_t x)
{
    uint8_t b[8];
    base_store_u64(b, (uint64_t)x);
    return cql__value_blob(a, b, 8);
}


wire_value_t cql__value_double(base_arena_t *a, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    return cql__value_bigint(a, (int64_t)bits);
}


wire_value_t cql__value_text(base_arena_t *a, const char *s)
{
    return cql__value_blob(a, (const uint8_t *)s, strlen(s));
}


wire_value_t cql__value_bool(base_arena_t *a, bool x)
{
    uint8_t b = x ? 1 : 0;
    return cql__value_blob(a, &b, 1);
}
