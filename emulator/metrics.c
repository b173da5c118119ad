/*
 * metrics.c - the Prometheus text exposition of the emulator's figures.
 * Layer: emulator.
 *
 * Every metric family gets its # HELP and # TYPE lines once, before its
 * samples, even when it has none yet, so a dashboard can be built against
 * an idle emulator. Label values are escaped as the format says (\\, \",
 * \n); names are fixed here and never come from the peer. Counters end in
 * _total; the latency histogram has cumulative le buckets, _sum and _count.
 * Families (prefix cosmos_emulator_):
 *   build_info, ready, uptime_seconds
 *   requests_total{opcode}, errors_total{opcode,code,error},
 *   request_duration_seconds{opcode} (histogram)
 *   connections_open, connections_accepted_total
 *   ru_consumed_total / requests_throttled_total / requests_would_throttle_total
 *     {keyspace,table,partition}; partition_budget_ru_per_second,
 *     partition_peak_ru_per_second {keyspace,table,partition}
 *   table_requests_total, table_failed_requests_total, table_throughput_ru_per_second,
 *     table_storage_bytes {keyspace,table}; table_guardrails_total {keyspace,table,guardrail}
 *   storage_small_chunks, storage_chunk_moves_total,
 *   storage_durable, commitlog_bytes, commitlog_syncs_total, commitlog_acks_waiting,
 *     commitlog_waits_total, commitlog_wait_seconds_total,
 *     checkpoints_total, checkpoint_failures_total, checkpoint_last_duration_seconds
 */
#include "emulator/metrics.h"

#include <inttypes.h>
#include <stdio.h>

#include "wire/wire.h"

#define P "cosmos_emulator_"

static void family(base_buf_t *out, const char *name, const char *type, const char *help)
{
    base_buf_printf(out, "# HELP " P "%s %s\n# TYPE " P "%s %s\n", name, help, name, type);
}

void emu_metrics_label_value(base_buf_t *out, const char *s)
{
    base_buf_put_u8(out, '"');
    for (; *s; s++) {
        if (*s == '\\' || *s == '"') {
            base_buf_put_u8(out, '\\');
            base_buf_put_u8(out, (uint8_t)*s);
        } else if (*s == '\n') {
            base_buf_put(out, "\\n", 2);
        } else {
            base_buf_put_u8(out, (uint8_t)*s);
        }
    }
    base_buf_put_u8(out, '"');
}

static void num(base_buf_t *out, double v)
{
    base_buf_printf(out, " %.10g\n", v);
}

static void count(base_buf_t *out, uint64_t v)
{
    base_buf_printf(out, " %" PRIu64 "\n", v);
}

/* A family of one sample without labels: an integer, or (one_num) any number. */
static void one_count(base_buf_t *out, const char *name, const char *type, const char *help,
                      uint64_t v)
{
    family(out, name, type, help);
    base_buf_printf(out, P "%s", name);
    count(out, v);
}

static void one_num(base_buf_t *out, const char *name, const char *type, const char *help, double v)
{
    family(out, name, type, help);
    base_buf_printf(out, P "%s", name);
    num(out, v);
}

/* name{keyspace="..",table=".."[,partition="n"]} */
static void table_sample(base_buf_t *out, const char *name, const ru_table_stats_t *t,
                         int64_t partition)
{
    base_buf_printf(out, P "%s{keyspace=", name);
    emu_metrics_label_value(out, t->keyspace);
    base_buf_printf(out, ",table=");
    emu_metrics_label_value(out, t->table);
    if (partition >= 0) {
        base_buf_printf(out, ",partition=\"%" PRId64 "\"", partition);
    }
    base_buf_put_u8(out, '}');
}

static const char *opcode_label(uint8_t op)
{
    return op == 0 ? "none" : wire_opcode_name(op);
}

static void render_requests(const emu_telemetry_t *t, base_buf_t *out)
{
    family(out, "requests_total", "counter", "Frames answered, by request opcode.");
    for (uint8_t op = 0; op < EMU_TELEMETRY_OPCODES; op++) {
        if (t->requests[op] > 0) {
            base_buf_printf(out, P "requests_total{opcode=\"%s\"}", opcode_label(op));
            count(out, t->requests[op]);
        }
    }
    family(out, "errors_total", "counter",
           "ERROR frames sent, by request opcode and error code (opcode none: the frame could "
           "not be read).");
    for (size_t i = 0; i < t->n_errors; i++) {
        const emu_error_count_t *e = &t->errors[i];
        base_buf_printf(out, P "errors_total{opcode=\"%s\",code=\"0x%04x\",error=",
                        opcode_label(e->opcode), e->code);
        emu_metrics_label_value(out, wire_error_name((int)e->code));
        base_buf_put_u8(out, '}');
        count(out, e->count);
    }
    if (t->errors_other > 0) {
        base_buf_printf(out, P "errors_total{opcode=\"other\",code=\"other\",error=\"other\"}");
        count(out, t->errors_other);
    }
    family(out, "request_duration_seconds", "histogram",
           "Time from reading a request frame to queueing its answer, by opcode.");
    for (uint8_t op = 0; op < EMU_TELEMETRY_OPCODES; op++) {
        const emu_latency_t *l = &t->latency[op];
        if (l->count == 0) {
            continue;
        }
        uint64_t cum = 0;
        for (size_t b = 0; b <= EMU_TELEMETRY_BUCKETS; b++) {
            cum += l->buckets[b];
            if (b < EMU_TELEMETRY_BUCKETS) {
                base_buf_printf(out, P "request_duration_seconds_bucket{opcode=\"%s\",le=\"%g\"}",
                                opcode_label(op), emu_telemetry_bounds[b]);
            } else {
                base_buf_printf(out, P "request_duration_seconds_bucket{opcode=\"%s\",le=\"+Inf\"}",
                                opcode_label(op));
            }
            count(out, cum);
        }
        base_buf_printf(out, P "request_duration_seconds_sum{opcode=\"%s\"}", opcode_label(op));
        num(out, l->sum_s);
        base_buf_printf(out, P "request_duration_seconds_count{opcode=\"%s\"}", opcode_label(op));
        count(out, l->count);
    }
}

/* One family over every partition of every table. */
typedef enum { PART_RU, PART_THROTTLED, PART_WOULD, PART_BUDGET, PART_PEAK } part_field_t;

static void render_partitions(const ru_snapshot_t *s, const char *name, const char *type,
                              const char *help, part_field_t f, base_buf_t *out)
{
    family(out, name, type, help);
    for (size_t i = 0; s != NULL && i < s->n_tables; i++) {
        const ru_table_stats_t *t = &s->tables[i];
        for (size_t p = 0; p < t->n_parts; p++) {
            const ru_partition_stats_t *ps = &t->parts[p];
            table_sample(out, name, t, ps->index);
            switch (f) {
            case PART_RU:
                num(out, ps->ru_total);
                break;
            case PART_THROTTLED:
                count(out, ps->throttled);
                break;
            case PART_WOULD:
                count(out, ps->would_throttle);
                break;
            case PART_BUDGET:
                num(out, ps->budget_ru_s);
                break;
            case PART_PEAK:
                num(out, ps->peak_ru_s);
                break;
            }
        }
    }
}

static void render_meter(const ru_snapshot_t *s, base_buf_t *out)
{
    render_partitions(s, "ru_consumed_total", "counter",
                      "Request units charged, by keyspace, table and physical partition.", PART_RU,
                      out);
    render_partitions(s, "requests_throttled_total", "counter",
                      "Requests refused with 0x1001 Overloaded (rate limiting on), by physical "
                      "partition.",
                      PART_THROTTLED, out);
    render_partitions(s, "requests_would_throttle_total", "counter",
                      "Requests over budget let through because rate limiting is off, by physical "
                      "partition.",
                      PART_WOULD, out);
    render_partitions(s, "partition_budget_ru_per_second", "gauge",
                      "RU/s each physical partition may use now.", PART_BUDGET, out);
    render_partitions(s, "partition_peak_ru_per_second", "gauge",
                      "Most RU a physical partition consumed in any one second.", PART_PEAK, out);

    family(out, "table_requests_total", "counter", "Requests charged to a table.");
    for (size_t i = 0; s != NULL && i < s->n_tables; i++) {
        table_sample(out, "table_requests_total", &s->tables[i], -1);
        count(out, s->tables[i].s.count);
    }
    family(out, "table_failed_requests_total", "counter",
           "Requests charged to a table that ended in an error.");
    for (size_t i = 0; s != NULL && i < s->n_tables; i++) {
        table_sample(out, "table_failed_requests_total", &s->tables[i], -1);
        count(out, s->tables[i].s.failed);
    }
    family(out, "table_throughput_ru_per_second", "gauge",
           "RU/s the table may use now (its own, its keyspace's or the default; 0: serverless).");
    for (size_t i = 0; s != NULL && i < s->n_tables; i++) {
        table_sample(out, "table_throughput_ru_per_second", &s->tables[i], -1);
        num(out, s->tables[i].budget_ru_s);
    }
    family(out, "table_guardrails_total", "counter",
           "Requests that crossed a guard-rail (cassandra.yaml thresholds): refused or warned "
           "under --profile cassandra, advisories under cosmos.");
    for (size_t i = 0; s != NULL && i < s->n_tables; i++) {
        for (int g = 0; g < RU_GUARD_N; g++) {
            if (s->tables[i].guards[g] == 0) {
                continue;
            }
            table_sample(out, "table_guardrails_total", &s->tables[i], -1);
            out->len--; /* reopen the label set for the guard-rail's name */
            base_buf_printf(out, ",guardrail=\"%s\"}", ru_guard_name((ru_guard_t)g));
            count(out, s->tables[i].guards[g]);
        }
    }
    family(out, "table_storage_bytes", "gauge", "Bytes the table stores, as the meter sees them.");
    for (size_t i = 0; s != NULL && i < s->n_tables; i++) {
        table_sample(out, "table_storage_bytes", &s->tables[i], -1);
        count(out, s->tables[i].storage_bytes);
    }
}

void emu_metrics_render(const emu_metrics_input_t *in, base_buf_t *out)
{
    family(out, "build_info", "gauge", "The emulator's version (always 1).");
    base_buf_printf(out, P "build_info{version=");
    emu_metrics_label_value(out, in->version ? in->version : "");
    base_buf_printf(out, "} 1\n");
    one_count(out, "ready", "gauge",
              "1 once storage is recovered and CQL is served (GET /healthz).", in->ready ? 1 : 0);
    one_num(out, "uptime_seconds", "gauge", "Seconds since the admin endpoint started.",
            in->uptime_s);

    render_requests(in->telemetry, out);
    if (in->have_connections) {
        one_count(out, "connections_open", "gauge", "CQL connections open now.",
                  in->connections_open);
        one_count(out, "connections_accepted_total", "counter", "CQL connections accepted.",
                  in->connections_accepted);
    }
    render_meter(in->snapshot, out);

    const emu_telemetry_t *t = in->telemetry;
    one_count(out, "storage_small_chunks", "gauge",
              "2 MB chunks of table memory in small pages (rows were created faster than "
              "memory was prepared for them), waiting to move into huge pages.",
              in->small_chunks);
    one_count(out, "storage_chunk_moves_total", "counter",
              "Chunks of table memory moved from small pages into huge pages.", in->chunk_moves);
    one_count(out, "storage_durable", "gauge", "1 with --storage durable, 0 in memory.",
              in->durable ? 1 : 0);
    if (in->durable) {
        one_count(out, "commitlog_bytes", "gauge",
                  "Bytes in the commit log since the last checkpoint.", in->commitlog_bytes);
        one_count(out, "commitlog_syncs_total", "counter",
                  "fdatasync rounds of the commit log (--fsync always: one covers every write "
                  "that arrived while the previous one ran).",
                  in->commitlog_syncs);
        one_count(out, "commitlog_acks_waiting", "gauge",
                  "Responses held back until the commit log covers them (written; --fsync always: "
                  "fdatasynced).",
                  in->acks_waiting);
        one_count(out, "commitlog_waits_total", "counter",
                  "Times requests waited for the commit log's writer (64 MB behind) or for a log "
                  "switch (checkpoints faster than the disk).",
                  in->disk_waits);
        one_num(out, "commitlog_wait_seconds_total", "counter",
                "How long those waits held requests, in all.", in->disk_wait_s);
        one_count(out, "checkpoints_total", "counter",
                  "Checkpoints taken (a snapshot and a new commit log).", t->checkpoints);
        one_count(out, "checkpoint_failures_total", "counter", "Checkpoints that failed.",
                  t->checkpoint_failures);
        one_num(out, "checkpoint_last_duration_seconds", "gauge",
                "How long the last checkpoint took.", t->checkpoint_last_s);
    }
    base_buf_reserve(out, 1);
    out->data[out->len] = '\0';
}
