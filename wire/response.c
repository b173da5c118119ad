/*
 * response.c - response framing and the small response messages: READY,
 * AUTHENTICATE, AUTH_SUCCESS, SUPPORTED and ERROR with its per-code details
 * (spec 2, 4.2.1-4.2.4, 4.2.8 and 9; wire layer).
 *
 * Invariants:
 *  - begin() writes a header placeholder; the message body is appended right
 *    behind it; end() puts [warnings][custom payload] in front of the body
 *    (spec 2.2 order: tracing id, warnings, payload, message), compresses
 *    the whole body if asked and worthwhile, then patches flags and length.
 *    Only end() moves bytes, and only when a prefix or compression needs it;
 *    prefix() writes the same prefix before any body, so nothing moves (a
 *    1 KB row's answer was moved whole for its 8-byte RequestCharge).
 *  - v3 has no warnings or custom payload: end() drops them for v3 frames.
 *  - err->detail never overflows: strings are cut to fit BASE_ERROR_DETAIL_MAX.
 */
#include "wire/wire.h"


static void frame_begin(wire_response_t *rb, base_buf_t *out, uint8_t version, int16_t stream,
                        uint8_t opcode, bool response)
{
    rb->out = out;
    rb->start = out->len;
    rb->version = version;
    rb->stream = stream;
    rb->opcode = opcode;
    rb->flags = 0;
    wire_header_t h = {
        .version = version, .response = response, .stream = stream, .opcode = opcode};
    uint8_t hdr[WIRE_HEADER_SIZE];
    wire_header_encode(hdr, &h);
    base_buf_put(out, hdr, sizeof(hdr));
}


void wire_response_begin(wire_response_t *rb, base_buf_t *out, uint8_t version, int16_t stream,
                         uint8_t opcode)
{
    frame_begin(rb, out, version, stream, opcode, true);
}


/* The same builder frames requests (request_encode.c's messages): only the
 * header's direction bit differs. */
void wire_request_begin(wire_response_t *rb, base_buf_t *out, uint8_t version, int16_t stream,
                        uint8_t opcode)
{
    frame_begin(rb, out, version, stream, opcode, false);
}


/*
 * Moves the prefix written at out[prefix_at, len) in front of the message
 * at out[body_at, prefix_at). The prefix is parked in spare capacity past
 * len so the rotation needs no allocation.
 */
static void move_prefix_in_front(base_buf_t *out, size_t body_at, size_t prefix_at)
{
    size_t p_len = out->len - prefix_at;
    size_t m_len = prefix_at - body_at;
    if (p_len == 0 || m_len == 0) {
        return;
    }
    base_buf_reserve(out, p_len);
    uint8_t *d = out->data;
    memcpy(d + out->len, d + prefix_at, p_len);
    memmove(d + body_at + p_len, d + body_at, m_len);
    memcpy(d + body_at, d + out->len, p_len);
}


static void put_payload(base_buf_t *b, const char *const *keys, const wire_value_t *values,
                        size_t n)
{
    BASE_ASSERT(n <= 0xFFFF);
    base_buf_put_u16(b, (uint16_t)n);
    for (size_t i = 0; i < n; i++) {
        wire_put_cstring(b, keys[i]);
        wire_put_bytes(b, values[i].ptr, values[i].len);
    }
}


/* Replaces out[body_at, len) by its lz4 form when that is shorter. */
static bool compress_body(base_buf_t *out, size_t body_at)
{
    size_t body_len = out->len - body_at;
    if (body_len == 0) {
        return false; /* nothing to gain, and some lz4 bindings reject size 0 */
    }
    size_t z_at = out->len;
    wire_lz4_compress(out, out->data + body_at, body_len);
    size_t z_len = out->len - z_at;
    if (z_len >= body_len) {
        out->len = z_at; /* spec 5: the server may leave any frame uncompressed */
        return false;
    }
    memmove(out->data + body_at, out->data + z_at, z_len);
    out->len = body_at + z_len;
    return true;
}


/* Appends [warnings][custom payload] (v4 and later); returns the flags they need. */
static uint8_t put_prefix(base_buf_t *out, uint8_t version, const char *const *warnings,
                          size_t n_warnings, const char *const *payload_keys,
                          const wire_value_t *payload_values, size_t n_payload)
{
    uint8_t flags = 0;
    if (version < 4) {
        return 0;
    }
    if (n_warnings > 0) {
        wire_put_string_list(out, warnings, n_warnings);
        flags |= WIRE_FLAG_WARNING;
    }
    if (n_payload > 0) {
        put_payload(out, payload_keys, payload_values, n_payload);
        flags |= WIRE_FLAG_CUSTOM_PAYLOAD;
    }
    return flags;
}


void wire_response_prefix(wire_response_t *rb, const char *const *warnings, size_t n_warnings,
                          const char *const *payload_keys, const wire_value_t *payload_values,
                          size_t n_payload)
{
    BASE_ASSERT(rb->out->len == rb->start + WIRE_HEADER_SIZE && rb->flags == 0);
    rb->flags = put_prefix(rb->out, rb->version, warnings, n_warnings, payload_keys, payload_values,
                           n_payload);
}


void wire_response_end(wire_response_t *rb, const char *const *warnings, size_t n_warnings,
                       const char *const *payload_keys, const wire_value_t *payload_values,
                       size_t n_payload, bool compress)
{
    base_buf_t *out = rb->out;
    size_t body_at = rb->start + WIRE_HEADER_SIZE;
    BASE_ASSERT(out->len >= body_at);
    BASE_ASSERT(rb->flags == 0 || (n_warnings == 0 && n_payload == 0));
    uint8_t flags = rb->flags;

    size_t prefix_at = out->len;
    uint8_t added =
        put_prefix(out, rb->version, warnings, n_warnings, payload_keys, payload_values, n_payload);
    if (added != 0) {
        flags |= added;
        move_prefix_in_front(out, body_at, prefix_at);
    }
    if (compress && compress_body(out, body_at)) {
        flags |= WIRE_FLAG_COMPRESSION;
    }

    size_t body_len = out->len - body_at;
    BASE_ASSERT(body_len <= UINT32_MAX);
    out->data[rb->start + 1] = flags;
    base_buf_set_u32(out, rb->start + 5, (uint32_t)body_len);
}


/* ---- message bodies ---------------------------------------------------- */

void wire_encode_error(base_buf_t *b, const base_error_t *err)
{
    base_buf_put_u32(b, (uint32_t)err->code);
    wire_put_cstring(b, err->msg);
    base_buf_put(b, err->detail, err->detail_len);
}


void wire_encode_supported(base_buf_t *b, const char *const *keys, const char *const *const *values,
                           const size_t *n_values, size_t n)
{
    BASE_ASSERT(n <= 0xFFFF);
    base_buf_put_u16(b, (uint16_t)n); /* [string multimap] */
    for (size_t i = 0; i < n; i++) {
        wire_put_cstring(b, keys[i]);
        wire_put_string_list(b, values[i], n_values[i]);
    }
}


void wire_encode_authenticate(base_buf_t *b, const char *authenticator)
{
    wire_put_cstring(b, authenticator);
}


void wire_encode_auth_success(base_buf_t *b, const uint8_t *token, int32_t len)
{
    wire_put_bytes(b, token, len);
}


/* ---- error details (spec 9) ------------------------------------------------ */

/* Starts a detail for code; the message set by base_error_set stays. */
static void detail_begin(base_error_t *err, int code)
{
    err->code = code;
    err->detail_len = 0;
}


static void detail_put(base_error_t *err, const void *p, size_t n)
{
    BASE_ASSERT(n <= BASE_ERROR_DETAIL_MAX - err->detail_len);
    if (n == 0) {
        return; /* p may be NULL */
    }
    memcpy(err->detail + err->detail_len, p, n);
    err->detail_len += n;
}


static void detail_short(base_error_t *err, uint16_t v)
{
    uint8_t t[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    detail_put(err, t, 2);
}


static void detail_int(base_error_t *err, int32_t v)
{
    uint32_t u = (uint32_t)v;
    uint8_t t[4] = {(uint8_t)(u >> 24), (uint8_t)(u >> 16), (uint8_t)(u >> 8), (uint8_t)u};
    detail_put(err, t, 4);
}


static void detail_byte(base_error_t *err, uint8_t v)
{
    detail_put(err, &v, 1);
}


/* A [string] cut to at most max bytes so fixed fields after it still fit. */
static void detail_string(base_error_t *err, const char *s, size_t max)
{
    size_t n = s != NULL ? strlen(s) : 0;
    n = n < max ? n : max;
    detail_short(err, (uint16_t)n);
    detail_put(err, s, n);
}


void wire_error_detail_already_exists(base_error_t *err, const char *ks, const char *table)
{
    detail_begin(err, WIRE_ERR_ALREADY_EXISTS);
    size_t half = BASE_ERROR_DETAIL_MAX / 2 - 2;
    detail_string(err, ks, half);
    detail_string(err, table != NULL ? table : "", half);
}


void wire_error_detail_unprepared(base_error_t *err, const uint8_t *id, size_t len)
{
    detail_begin(err, WIRE_ERR_UNPREPARED);
    size_t n = len < BASE_ERROR_DETAIL_MAX - 2 ? len : BASE_ERROR_DETAIL_MAX - 2;
    detail_short(err, (uint16_t)n);
    detail_put(err, id, n);
}


void wire_error_detail_unavailable(base_error_t *err, uint16_t cl, int32_t required, int32_t alive)
{
    detail_begin(err, WIRE_ERR_UNAVAILABLE);
    detail_short(err, cl);
    detail_int(err, required);
    detail_int(err, alive);
}


void wire_error_detail_write_timeout(base_error_t *err, uint16_t cl, int32_t received,
                                     int32_t blockfor, const char *write_type)
{
    detail_begin(err, WIRE_ERR_WRITE_TIMEOUT);
    detail_short(err, cl);
    detail_int(err, received);
    detail_int(err, blockfor);
    detail_string(err, write_type, BASE_ERROR_DETAIL_MAX - 12);
}


void wire_error_detail_read_timeout(base_error_t *err, uint16_t cl, int32_t received,
                                    int32_t blockfor, bool data_present)
{
    detail_begin(err, WIRE_ERR_READ_TIMEOUT);
    detail_short(err, cl);
    detail_int(err, received);
    detail_int(err, blockfor);
    detail_byte(err, data_present ? 1 : 0);
}


void wire_error_detail_read_failure(base_error_t *err, uint16_t cl, int32_t received,
                                    int32_t blockfor, int32_t n_failures, bool data_present)
{
    detail_begin(err, WIRE_ERR_READ_FAILURE);
    detail_short(err, cl);
    detail_int(err, received);
    detail_int(err, blockfor);
    detail_int(err, n_failures);
    detail_byte(err, data_present ? 1 : 0);
}


void wire_error_detail_write_failure(base_error_t *err, uint16_t cl, int32_t received,
                                     int32_t blockfor, int32_t n_failures, const char *write_type)
{
    detail_begin(err, WIRE_ERR_WRITE_FAILURE);
    detail_short(err, cl);
    detail_int(err, received);
    detail_int(err, blockfor);
    detail_int(err, n_failures);
    detail_string(err, write_type, BASE_ERROR_DETAIL_MAX - 16);
}
