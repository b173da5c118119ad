/*
 * decoder.h - what the two message decoders of wire/ share (request.c for
 * what clients send, reply.c for what servers answer): the decoding state, a
 * semantic refusal, and the check that closes a body. Private to wire/.
 *
 * Invariants: a body is accepted only when the reader never ran short, no
 * rule refused it, and not one byte is left over; every refusal is a
 * Protocol error naming the message and the offset.
 */
#ifndef WIRE_DECODER_H
#define WIRE_DECODER_H

#include "wire/wire.h"

typedef struct wire__decoder_s {
    wire_reader_t r;
    base_arena_t *a;
    uint8_t version;
    const char *what; /* message name for errors: "QUERY" */
    base_error_t *err;
    bool rejected; /* err already holds a semantic error */
} wire__decoder_t;

/* A well-formed value that breaks a rule of the protocol, at offset at. */
static inline int wire__reject(wire__decoder_t *d, size_t at, const char *problem)
{
    d->rejected = true;
    return base_error_set(d->err, WIRE_ERR_PROTOCOL_ERROR, "Invalid %s body: %s at offset %zu",
                          d->what, problem, at);
}

static inline bool wire__decoder_ok(const wire__decoder_t *d)
{
    return wire_reader_ok(&d->r) && !d->rejected;
}

/* The verdict on a whole body: BASE_OK, or the Protocol error for a short
 * read, a refusal, or trailing bytes. */
static inline int wire__decoder_finish(const wire__decoder_t *d)
{
    if (d->rejected) {
        return BASE_ERROR;
    }
    if (!wire_reader_ok(&d->r)) {
        return base_error_set(d->err, WIRE_ERR_PROTOCOL_ERROR, "Invalid %s body: %s at offset %zu",
                              d->what, d->r.why, d->r.pos);
    }
    if (wire_reader_remaining(&d->r) > 0) {
        return base_error_set(d->err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid %s body: %zu trailing bytes at offset %zu", d->what,
                              wire_reader_remaining(&d->r), d->r.pos);
    }
    return BASE_OK;
}

#endif
