/*
 * dispatch.h - QUERY, PREPARE, EXECUTE and BATCH: request -> cql engine ->
 * RESULT or ERROR frame, each with its RequestCharge and warnings.
 */
#ifndef EMULATOR_DISPATCH_H
#define EMULATOR_DISPATCH_H

#include "cql/cql.h"

/* The frame a response goes into, as negotiated on the connection. */
typedef struct emu_reply_s {
    base_buf_t *out;
    uint8_t version; /* 3 or 4 */
    int16_t stream;
    bool compress;
} emu_reply_t;

/* Runs req (opcode QUERY/PREPARE/EXECUTE/BATCH) and appends the response.
 * Never fails: every engine error becomes an ERROR frame. */
void emu_dispatch(cql_engine_t *e, cql_session_t *s, const wire_request_t *req,
                  const emu_reply_t *reply, base_arena_t *a);

/* Appends an ERROR frame; charged (RequestCharge 0) when opcode is one of
 * the four statement opcodes, as every answer to them carries a charge. */
void emu_dispatch_error(const emu_reply_t *reply, uint8_t opcode, const base_error_t *err);

#endif
