/*
 * telemetry.c - request, error and latency counters for GET /metrics.
 * Layer: emulator.
 *
 * conn.c reports every frame it answers (with the time from reading the
 * frame to queueing the answer, or, for a request held by server-side
 * retry, to its final answer) and dispatch.c every ERROR it writes. The
 * counters only grow, until POST /stats/reset; Prometheus reads a reset as
 * a counter restart. Opcodes beyond the protocol's are counted as 0.
 */
#include "emulator/telemetry.h"

#include <string.h>

const double emu_telemetry_bounds[EMU_TELEMETRY_BUCKETS] = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
    0.05,   0.1,     0.25,   0.5,   1.0,    2.5,   5.0,  10.0,
};

static emu_telemetry_t tm;

static uint8_t slot(uint8_t opcode)
{
    return opcode < EMU_TELEMETRY_OPCODES ? opcode : 0;
}

void emu_telemetry_requests(uint8_t opcode, uint32_t n, int64_t latency_us)
{
    uint8_t op = slot(opcode);
    double s = latency_us > 0 ? (double)latency_us / 1e6 : 0;
    emu_latency_t *l = &tm.latency[op];
    size_t b = 0;
    while (b < EMU_TELEMETRY_BUCKETS && s > emu_telemetry_bounds[b]) {
        b++;
    }
    tm.requests[op] += n;
    l->count += n;
    l->sum_s += s * n;
    l->buckets[b] += n;
}

void emu_telemetry_request(uint8_t opcode, int64_t latency_us)
{
    emu_telemetry_requests(opcode, 1, latency_us);
}

void emu_telemetry_error(uint8_t opcode, uint32_t code)
{
    uint8_t op = slot(opcode);
    for (size_t i = 0; i < tm.n_errors; i++) {
        if (tm.errors[i].opcode == op && tm.errors[i].code == code) {
            tm.errors[i].count++;
            return;
        }
    }
    if (tm.n_errors == EMU_TELEMETRY_ERRORS) {
        tm.errors_other++;
        return;
    }
    tm.errors[tm.n_errors++] = (emu_error_count_t){op, code, 1};
}

void emu_telemetry_checkpoint(bool ok, int64_t took_us)
{
    if (ok) {
        tm.checkpoints++;
        tm.checkpoint_last_s = (double)took_us / 1e6;
    } else {
        tm.checkpoint_failures++;
    }
}

const emu_telemetry_t *emu_telemetry(void)
{
    return &tm;
}

void emu_telemetry_reset(void)
{
    uint64_t checkpoints = tm.checkpoints, failures = tm.checkpoint_failures;
    double last = tm.checkpoint_last_s;
    memset(&tm, 0, sizeof(tm));
    tm.checkpoints = checkpoints;
    tm.checkpoint_failures = failures;
    tm.checkpoint_last_s = last;
}
