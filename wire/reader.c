/*
 * reader.c - the bounds-checked reader every wire decoder parses untrusted
 * bytes with (wire layer). Notations are those of native_protocol_v4.spec
 * section 3.
 *
 * Invariants:
 *  - No byte outside data[0, len) is ever touched; every length and count is
 *    checked against the remaining bytes before anything is read or allocated,
 *    so a peer cannot make us allocate more than a small multiple of its input.
 *  - The error is sticky. The first failure sets failed, a static why, and
 *    rewinds pos to the start of the element that failed, so callers can say
 *    "truncated [string] at offset 12". Later reads return zero/empty.
 *  - Slices borrow from data; arrays and type trees come from the arena.
 */
#include "wire/wire.h"

/* How deep an [option] may nest (list<map<text, frozen<tuple<...>>>>...).
 * Real schemas stay under ten; the bound keeps the recursion below safe. */
#define TYPE_MAX_DEPTH 32


static void fail(wire_reader_t *r, const char *why, size_t at)
{
    if (!r->failed) {
        r->failed = true;
        r->why = why;
        r->pos = at;
    }
}


/* True when n more bytes can be read; otherwise fails with why at `at`. */
static bool need(wire_reader_t *r, size_t n, const char *why, size_t at)
{
    if (r->failed) {
        return false;
    }
    if (r->len - r->pos < n) {
        fail(r, why, at);
        return false;
    }
    return true;
}


void wire_reader_init(wire_reader_t *r, const uint8_t *data, size_t len)
{
    r->data = data;
    r->len = data != NULL ? len : 0;
    r->pos = 0;
    r->failed = false;
    r->why = NULL;
}


size_t wire_reader_remaining(const wire_reader_t *r)
{
    return r->failed ? 0 : r->len - r->pos;
}


uint8_t wire_read_byte(wire_reader_t *r)
{
    if (!need(r, 1, "truncated [byte]", r->pos)) {
        return 0;
    }
    return r->data[r->pos++];
}


uint16_t wire_read_short(wire_reader_t *r)
{
    if (!need(r, 2, "truncated [short]", r->pos)) {
        return 0;
    }
    uint16_t v = base_load_u16(r->data + r->pos);
    r->pos += 2;
    return v;
}


int32_t wire_read_int(wire_reader_t *r)
{
    if (!need(r, 4, "truncated [int]", r->pos)) {
        return 0;
    }
    int32_t v = (int32_t)base_load_u32(r->data + r->pos);
    r->pos += 4;
    return v;
}


int64_t wire_read_long(wire_reader_t *r)
{
    if (!need(r, 8, "truncated [long]", r->pos)) {
        return 0;
    }
    int64_t v = (int64_t)base_load_u64(r->data + r->pos);
    r->pos += 8;
    return v;
}


/* Takes n bytes that the caller has already checked are there. */
static const uint8_t *take(wire_reader_t *r, size_t n)
{
    const uint8_t *p = r->data + r->pos;
    r->pos += n;
    return p;
}


base_str_t wire_read_string(wire_reader_t *r)
{
    base_str_t s = {NULL, 0};
    size_t at = r->pos;
    if (!need(r, 2, "truncated [string]", at)) {
        return s;
    }
    size_t n = base_load_u16(r->data + at);
    r->pos += 2;
    if (!need(r, n, "truncated [string]", at)) {
        return s;
    }
    s.ptr = (const char *)take(r, n);
    s.len = n;
    return s;
}


base_str_t wire_read_long_string(wire_reader_t *r)
{
    base_str_t s = {NULL, 0};
    size_t at = r->pos;
    if (!need(r, 4, "truncated [long string]", at)) {
        return s;
    }
    int32_t n = (int32_t)base_load_u32(r->data + at);
    r->pos += 4;
    if (n < 0) {
        fail(r, "negative [long string] length", at);
        return s;
    }
    if (!need(r, (size_t)n, "truncated [long string]", at)) {
        return s;
    }
    s.ptr = (const char *)take(r, (size_t)n);
    s.len = (size_t)n;
    return s;
}


/* [bytes] and [value] share a layout and differ in what a negative means. */
static wire_value_t read_int_sized(wire_reader_t *r, bool is_value)
{
    wire_value_t v = {NULL, WIRE_VALUE_NULL};
    const char *truncated = is_value ? "truncated [value]" : "truncated [bytes]";
    size_t at = r->pos;
    if (!need(r, 4, truncated, at)) {
        return v;
    }
    int32_t n = (int32_t)base_load_u32(r->data + at);
    r->pos += 4;
    if (n < 0) {
        if (!is_value) {
            return v; /* [bytes]: any negative length is null */
        }
        if (n < WIRE_VALUE_UNSET) {
            fail(r, "invalid [value] length (below -2)", at);
            return v;
        }
        v.len = n;
        return v;
    }
    if (!need(r, (size_t)n, truncated, at)) {
        return v;
    }
    v.ptr = take(r, (size_t)n);
    v.len = n;
    return v;
}


wire_value_t wire_read_bytes(wire_reader_t *r)
{
    return read_int_sized(r, false);
}


wire_value_t wire_read_value(wire_reader_t *r)
{
    return read_int_sized(r, true);
}


wire_value_t wire_read_short_bytes(wire_reader_t *r)
{
    wire_value_t v = {NULL, 0};
    size_t at = r->pos;
    if (!need(r, 2, "truncated [short bytes]", at)) {
        return v;
    }
    size_t n = base_load_u16(r->data + at);
    r->pos += 2;
    if (!need(r, n, "truncated [short bytes]", at)) {
        return v;
    }
    v.ptr = take(r, n);
    v.len = (int32_t)n;
    return v;
}


bool wire_read_uuid(wire_reader_t *r, uint8_t out[16])
{
    if (!need(r, 16, "truncated [uuid]", r->pos)) {
        memset(out, 0, 16);
        return false;
    }
    memcpy(out, take(r, 16), 16);
    return true;
}


/*
 * Reads a [short] element count and checks that n elements of at least
 * min_size bytes each can still follow, so a hostile count fails before
 * the arena is asked for its arrays.
 */
static size_t read_count(wire_reader_t *r, size_t min_size, const char *why)
{
    size_t at = r->pos;
    size_t n = wire_read_short(r);
    if (!wire_reader_ok(r)) {
        return 0;
    }
    if (n > (r->len - r->pos) / min_size) {
        fail(r, why, at);
        return 0;
    }
    return n;
}


size_t wire_read_string_list(wire_reader_t *r, base_arena_t *a, base_str_t **out)
{
    *out = NULL;
    size_t n = read_count(r, 2, "[string list] count exceeds the remaining bytes");
    if (n == 0) {
        return 0;
    }
    base_str_t *items = base_arena_alloc(a, n * sizeof(*items));
    for (size_t i = 0; i < n; i++) {
        items[i] = wire_read_string(r);
    }
    if (!wire_reader_ok(r)) {
        return 0;
    }
    *out = items;
    return n;
}


size_t wire_read_string_map(wire_reader_t *r, base_arena_t *a, base_str_t **keys,
                            base_str_t **values)
{
    *keys = NULL;
    *values = NULL;
    size_t n = read_count(r, 4, "[string map] count exceeds the remaining bytes");
    if (n == 0) {
        return 0;
    }
    base_str_t *k = base_arena_alloc(a, n * sizeof(*k));
    base_str_t *v = base_arena_alloc(a, n * sizeof(*v));
    for (size_t i = 0; i < n; i++) {
        k[i] = wire_read_string(r);
        v[i] = wire_read_string(r);
    }
    if (!wire_reader_ok(r)) {
        return 0;
    }
    *keys = k;
    *values = v;
    return n;
}


size_t wire_read_bytes_map(wire_reader_t *r, base_arena_t *a, base_str_t **keys,
                           wire_value_t **values)
{
    *keys = NULL;
    *values = NULL;
    size_t n = read_count(r, 6, "[bytes map] count exceeds the remaining bytes");
    if (n == 0) {
        return 0;
    }
    base_str_t *k = base_arena_alloc(a, n * sizeof(*k));
    wire_value_t *v = base_arena_alloc(a, n * sizeof(*v));
    for (size_t i = 0; i < n; i++) {
        k[i] = wire_read_string(r);
        v[i] = wire_read_bytes(r);
    }
    if (!wire_reader_ok(r)) {
        return 0;
    }
    *keys = k;
    *values = v;
    return n;
}


static const char *read_cstring(wire_reader_t *r, base_arena_t *a)
{
    base_str_t s = wire_read_string(r);
    return base_arena_strndup(a, s.ptr, s.len);
}


static bool is_native_type(uint16_t id)
{
    return (id >= WIRE_TYPE_ASCII && id <= WIRE_TYPE_INT) ||
           (id >= WIRE_TYPE_TIMESTAMP && id <= WIRE_TYPE_DURATION);
}


/* Recursion is bounded by TYPE_MAX_DEPTH and by the input (2 bytes a level). */
// NOLINTNEXTLINE(misc-no-recursion)
static const wire_type_t *read_type(wire_reader_t *r, base_arena_t *a, int depth)
{
    size_t at = r->pos;
    if (depth > TYPE_MAX_DEPTH) {
        fail(r, "[option] types nested too deeply", at);
        return NULL;
    }
    uint16_t id = wire_read_short(r);
    if (!wire_reader_ok(r)) {
        return NULL;
    }
    wire_type_t *t = base_arena_calloc(a, 1, sizeof(*t));
    t->id = id;
    size_t n_sub = 0;
    size_t min_sub_size = 2;
    switch (id) {
    case WIRE_TYPE_CUSTOM:
        t->custom_class = read_cstring(r, a);
        break;
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
        n_sub = 1;
        break;
    case WIRE_TYPE_MAP:
        n_sub = 2;
        break;
    case WIRE_TYPE_UDT:
        t->keyspace = read_cstring(r, a);
        t->name = read_cstring(r, a);
        min_sub_size = 4; /* [string] name + [option] */
        n_sub = read_count(r, min_sub_size, "UDT field count exceeds the remaining bytes");
        break;
    case WIRE_TYPE_TUPLE:
        n_sub = read_count(r, min_sub_size, "tuple size exceeds the remaining bytes");
        break;
    default:
        if (!is_native_type(id)) {
            fail(r, "unknown [option] type id", at);
            return NULL;
        }
        break;
    }
    if (!wire_reader_ok(r)) {
        return NULL;
    }
    if (n_sub > 0) {
        const wire_type_t **sub = base_arena_alloc(a, n_sub * sizeof(const wire_type_t *));
        const char **names = NULL;
        if (id == WIRE_TYPE_UDT) {
            names = base_arena_alloc(a, n_sub * sizeof(*names));
        }
        for (size_t i = 0; i < n_sub && wire_reader_ok(r); i++) {
            if (names != NULL) {
                names[i] = read_cstring(r, a);
            }
            sub[i] = read_type(r, a, depth + 1);
        }
        t->sub = sub;
        t->field_names = names;
        t->n_sub = (uint16_t)n_sub;
    }
    return wire_reader_ok(r) ? t : NULL;
}


const wire_type_t *wire_read_type(wire_reader_t *r, base_arena_t *a)
{
    return read_type(r, a, 1);
}
