/*
 * telemetry.h - the process's request counters for GET /metrics: requests
 * and their latency by opcode, ERROR answers by opcode and error code, and
 * the checkpoints durable storage took. Process-wide (like log.c): the
 * event loop is the only writer, and the admin endpoint, on the same loop,
 * the only reader, so the counters need no locks.
 */
#ifndef EMULATOR_TELEMETRY_H
#define EMULATOR_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EMU_TELEMETRY_OPCODES 17 /* native protocol opcodes 0x00..0x10 */
#define EMU_TELEMETRY_BUCKETS 16 /* latency buckets before +Inf */
#define EMU_TELEMETRY_ERRORS  64 /* distinct (opcode, code) pairs kept */

/* Upper bounds of the latency buckets, in seconds (Prometheus "le"). */
extern const double emu_telemetry_bounds[EMU_TELEMETRY_BUCKETS];

typedef struct emu_latency_s {
    uint64_t count;
    double sum_s;
    uint64_t buckets[EMU_TELEMETRY_BUCKETS + 1]; /* not cumulative; the last is +Inf */
} emu_latency_t;

typedef struct emu_error_count_s {
    uint8_t opcode; /* the request's; 0 when the frame could not be read */
    uint32_t code;
    uint64_t count;
} emu_error_count_t;

typedef struct emu_telemetry_s {
    uint64_t requests[EMU_TELEMETRY_OPCODES];
    emu_latency_t latency[EMU_TELEMETRY_OPCODES];
    size_t n_errors;
    emu_error_count_t errors[EMU_TELEMETRY_ERRORS];
    uint64_t errors_other; /* pairs past EMU_TELEMETRY_ERRORS */
    /* durable storage (server.c) */
    uint64_t checkpoints;
    uint64_t checkpoint_failures;
    double checkpoint_last_s;
} emu_telemetry_t;

/* A request answered (or given up) latency_us after its frame was read. */
void emu_telemetry_request(uint8_t opcode, int64_t latency_us);
/* n requests of one opcode, each answered latency_us after their frames were read. */
void emu_telemetry_requests(uint8_t opcode, uint32_t n, int64_t latency_us);
/* An ERROR frame sent in answer to opcode. */
void emu_telemetry_error(uint8_t opcode, uint32_t code);
void emu_telemetry_checkpoint(bool ok, int64_t took_us);

/* The counters (read-only view). */
const emu_telemetry_t *emu_telemetry(void);

/* POST /stats/reset: the request, error and latency counters start again
 * (checkpoint figures describe storage, not traffic, and are kept). */
void emu_telemetry_reset(void);

#endif
