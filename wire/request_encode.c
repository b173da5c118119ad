/*
 * request_encode.c - the client side of request.c: request frames and the
 * bodies of STARTUP, AUTH_RESPONSE, PREPARE, QUERY and EXECUTE (spec 4.1),
 * for tools that talk to a server (bench/cosmos-bench) and for tests (wire
 * layer).
 *
 * Invariants:
 *  - What these write, wire_request_decode reads back field for field (the
 *    unit test holds them to it); <query_parameters> use the v4 layout.
 *  - The flags byte is derived from the fields, so a caller cannot announce
 *    a value it did not write.
 *  - Framing is response.c's builder (wire_request_begin is there): only the
 *    header's direction bit differs.
 */
#include "wire/wire.h"


void wire_request_end(wire_response_t *rb, bool compress)
{
    /* No warnings and no payload: end() only compresses and patches. */
    wire_response_end(rb, NULL, 0, NULL, NULL, 0, compress);
}


void wire_encode_startup(base_buf_t *b, const char *const *keys, const char *const *values,
                         size_t n)
{
    BASE_ASSERT(n <= 0xFFFF);
    base_buf_put_u16(b, (uint16_t)n);
    for (size_t i = 0; i < n; i++) {
        wire_put_cstring(b, keys[i]);
        wire_put_cstring(b, values[i]);
    }
}


void wire_encode_auth_response(base_buf_t *b, const uint8_t *token, int32_t len)
{
    wire_put_bytes(b, token, len);
}


void wire_encode_prepare(base_buf_t *b, const char *query, size_t len)
{
    wire_put_long_string(b, query, len);
}


void wire_put_query_params(base_buf_t *b, const wire_query_params_t *p)
{
    bool serial = p->serial_consistency != 0 && p->serial_consistency != WIRE_CL_SERIAL;
    uint8_t flags = (uint8_t)(p->flags & WIRE_QF_SKIP_METADATA);
    flags |= p->n_values > 0 ? WIRE_QF_VALUES : 0;
    flags |= p->n_values > 0 && p->names != NULL ? WIRE_QF_NAMES_FOR_VALUES : 0;
    flags |= p->page_size > 0 ? WIRE_QF_PAGE_SIZE : 0;
    flags |= p->paging_state.ptr != NULL && p->paging_state.len >= 0 ? WIRE_QF_PAGING_STATE : 0;
    flags |= serial ? WIRE_QF_SERIAL_CONSISTENCY : 0;
    flags |= p->has_timestamp ? WIRE_QF_DEFAULT_TIMESTAMP : 0;

    base_buf_put_u16(b, p->consistency);
    base_buf_put_u8(b, flags);
    if (flags & WIRE_QF_VALUES) {
        BASE_ASSERT(p->n_values <= 0xFFFF);
        base_buf_put_u16(b, (uint16_t)p->n_values);
        for (size_t i = 0; i < p->n_values; i++) {
            if (p->names != NULL) { /* WIRE_QF_NAMES_FOR_VALUES, as set above */
                wire_put_string(b, p->names[i].ptr, p->names[i].len);
            }
            wire_put_value(b, p->values[i]);
        }
    }
    if (flags & WIRE_QF_PAGE_SIZE) {
        base_buf_put_u32(b, (uint32_t)p->page_size);
    }
    if (flags & WIRE_QF_PAGING_STATE) {
        wire_put_bytes(b, p->paging_state.ptr, p->paging_state.len);
    }
    if (flags & WIRE_QF_SERIAL_CONSISTENCY) {
        base_buf_put_u16(b, p->serial_consistency);
    }
    if (flags & WIRE_QF_DEFAULT_TIMESTAMP) {
        base_buf_put_u64(b, (uint64_t)p->timestamp);
    }
}


void wire_encode_query(base_buf_t *b, const char *query, size_t len, const wire_query_params_t *p)
{
    wire_put_long_string(b, query, len);
    wire_put_query_params(b, p);
}


void wire_encode_execute(base_buf_t *b, const uint8_t *id, uint16_t id_len,
                         const wire_query_params_t *p)
{
    wire_put_short_bytes(b, id, id_len);
    wire_put_query_params(b, p);
}
