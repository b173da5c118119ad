/*
 * metrics.h - GET /metrics: the Prometheus text exposition format (0.0.4)
 * of the request counters (telemetry.c), the RU meter's statistics per
 * keyspace, table and physical partition, the connections and the durable
 * storage figures. Pure: it renders what it is given, so a unit test can
 * feed it made-up figures.
 */
#ifndef EMULATOR_METRICS_H
#define EMULATOR_METRICS_H

#include "base/base.h"
#include "emulator/telemetry.h"
#include "ru_meter/ru_meter.h"

#define EMU_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

typedef struct emu_metrics_input_s {
    const char *version;
    bool ready;
    double uptime_s;
    const emu_telemetry_t *telemetry;
    const ru_snapshot_t *snapshot; /* NULL before the emulator is ready */
    bool have_connections;         /* false: no server behind the endpoint (tests) */
    uint64_t connections_open;
    uint64_t connections_accepted;
    bool durable;
    uint64_t commitlog_bytes; /* durable only */
    uint64_t commitlog_syncs; /* fdatasync rounds of the commit log */
    uint64_t acks_waiting;    /* --fsync always: responses waiting for their fdatasync */
    uint64_t disk_waits;      /* the loop's waits for the commit log's threads */
    double disk_wait_s;       /* and how long they took in all */
    uint64_t small_chunks;    /* table memory in small pages waiting for a huge page */
    uint64_t chunk_moves;     /* and moved into one so far */
} emu_metrics_input_t;

/* Appends the exposition to out (NUL-terminated after out->len). */
void emu_metrics_render(const emu_metrics_input_t *in, base_buf_t *out);

/* Appends s as a label value: backslash, double quote and newline escaped. */
void emu_metrics_label_value(base_buf_t *out, const char *s);

#endif
