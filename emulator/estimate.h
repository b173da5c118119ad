/*
 * estimate.h - cost estimation before deployment: the `estimate` command
 * (figures from a running emulator's admin endpoint, or from a replayed
 * workload file), and the pieces the admin endpoint shares with it:
 * snapshots to and from JSON, scale parsing and the three report formats.
 * Prices come from the metering object (--prices FILE, see metering.c).
 *
 * Ownership: snapshots filled here are released with ru_snapshot_fini;
 * rendered text is appended to the caller's buffer.
 */
#ifndef EMULATOR_ESTIMATE_H
#define EMULATOR_ESTIMATE_H

#include "base/base.h"
#include "ru_meter/ru_meter.h"

#define EMU_DEFAULT_ADMIN "127.0.0.1:10351"

typedef enum {
    EMU_FORMAT_TEXT = 0,
    EMU_FORMAT_JSON,
    EMU_FORMAT_HTML,
} emu_format_t;

/* "text", "json" or "html"; BASE_OK or BASE_EINVAL. */
int emu_format_parse(const char *s, emu_format_t *out);

/* A traffic multiplier: "200x", "200", "0.5x" (finite, > 0). */
int emu_scale_parse(const char *s, double *out);

/* Appends the report; est NULL: statistics only. */
void emu_report_render(emu_format_t f, const ru_snapshot_t *snap, const ru_estimate_t *est,
                       base_buf_t *out);

/*
 * The snapshot as JSON: ru_report_json's document plus "token_slices", one
 * array of RU_SLICES numbers per table in the order of "tables", which the
 * hot-partition estimate needs; so a snapshot read back with
 * emu_snapshot_from_json estimates as the original does.
 */
void emu_snapshot_to_json(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out);

/* Parses such a document (token_slices optional). BASE_OK, or BASE_EINVAL
 * with msg saying what is wrong. */
int emu_snapshot_from_json(const char *json, size_t len, ru_snapshot_t *out, char *msg, size_t cap);

/* The `estimate` command; argv[0] is "estimate". Returns the exit code. */
int emu_estimate_main(int argc, char **argv);

#endif
