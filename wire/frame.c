/*
 * frame.c - the 9-byte v3/v4 frame header (layout drawn in wire.h) and the
 * unsupported-version reply text (wire layer).
 *
 * Decoding is pure and resumable: fewer than 9 bytes is BASE_AGAIN, never an
 * error, so the connection can feed whatever the socket delivered. The body
 * length is checked against the caller's maximum here, before anyone
 * allocates or waits for a body that size.
 */
#include "wire/wire.h"


int wire_header_decode(wire_header_t *out, const uint8_t *src, size_t len, size_t max_body,
                       base_error_t *err)
{
    if (len < WIRE_HEADER_SIZE) {
        return BASE_AGAIN;
    }
    out->version = src[0] & 0x7F;
    out->response = (src[0] & 0x80) != 0;
    out->flags = src[1];
    out->stream = (int16_t)base_load_u16(src + 2);
    out->opcode = src[4];
    out->length = base_load_u32(src + 5);
    if (out->length > max_body) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Request is too big: length %u exceeds maximum allowed length %zu",
                              out->length, max_body);
    }
    return BASE_OK;
}


void wire_header_encode(uint8_t out[WIRE_HEADER_SIZE], const wire_header_t *h)
{
    out[0] = (uint8_t)((h->version & 0x7F) | (h->response ? 0x80 : 0x00));
    out[1] = h->flags;
    out[2] = (uint8_t)((uint16_t)h->stream >> 8);
    out[3] = (uint8_t)h->stream;
    out[4] = h->opcode;
    out[5] = (uint8_t)(h->length >> 24);
    out[6] = (uint8_t)(h->length >> 16);
    out[7] = (uint8_t)(h->length >> 8);
    out[8] = (uint8_t)h->length;
}


void wire_unsupported_version_message(char *out, size_t cap, int version)
{
    /* Drivers match this text to step down (Python: 'unsupported protocol
     * version'; Node: 'Invalid or unsupported protocol version'). */
    (void)snprintf(out, cap,
                   "Invalid or unsupported protocol version (%d); supported versions are "
                   "(3/v3, 4/v4)",
                   version);
}
