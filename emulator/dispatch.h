/*
 * dispatch.h - QUERY, PREPARE, EXECUTE and BATCH: request -> cql engine ->
 * RESULT or ERROR frame, each with its RequestCharge and warnings.
 */
#ifndef EMULATOR_DISPATCH_H
#define EMULATOR_DISPATCH_H

#include "cql/cql.h"
#include "emulator/metering.h"

/* The frame a response goes into, as negotiated on the connection. */
typedef struct emu_reply_s {
    base_buf_t *out;
    uint8_t version; /* 3 or 4 */
    int16_t stream;
    bool compress;
} emu_reply_t;

/* A request throttled under server-side retry: nothing was answered; the
 * caller keeps the request and runs it again after retry_after_ms. */
typedef struct emu_hold_s {
    bool held;
    int retry_after_ms;
    bool read; /* READ_TIMEOUT (else WRITE_TIMEOUT) once the retry budget is spent */
} emu_hold_t;

/* Runs req (opcode QUERY/PREPARE/EXECUTE/BATCH) and appends the response,
 * charged through m. req_bytes is the request body's size (the service
 * limits it to 2 MB). hold NULL: a throttled request is answered 0x1001
 * now; else, with server-side retry on, it may come back held instead.
 * now_us is when the request began (emu_metering_begin).
 * Never fails: every engine error becomes an ERROR frame. */
void emu_dispatch(cql_engine_t *e, emu_metering_t *m, cql_session_t *s, const wire_request_t *req,
                  size_t req_bytes, const emu_reply_t *reply, base_arena_t *a, emu_hold_t *hold,
                  int64_t now_us);

/* Appends the answer to a request held past its retry budget: READ_TIMEOUT
 * (0x1200) for a read, else WRITE_TIMEOUT (0x1100), with RequestCharge 0. */
void emu_dispatch_timeout(const emu_reply_t *reply, const wire_request_t *req, bool read,
                          int waited_ms);

/* Appends an ERROR frame; charged (RequestCharge 0) when opcode is one of
 * the four statement opcodes, as every answer to them carries a charge. */
void emu_dispatch_error(const emu_reply_t *reply, uint8_t opcode, const base_error_t *err);

#endif
