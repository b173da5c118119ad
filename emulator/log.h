/*
 * log.h - leveled logging to stderr, one line per call, with an optional
 * connection id prefix ("[c12]") so a connection's story can be grepped.
 * Single-threaded like the rest of the process.
 */
#ifndef EMULATOR_LOG_H
#define EMULATOR_LOG_H

#include <stdint.h>

typedef enum {
    EMU_LOG_ERROR = 0,
    EMU_LOG_WARN = 1,
    EMU_LOG_INFO = 2,
    EMU_LOG_DEBUG = 3,
} emu_log_level_t;

void emu_log_set_level(emu_log_level_t level);
int emu_log_enabled(emu_log_level_t level);
/* Parses "error", "warn", "info" or "debug"; returns 0 or -1. */
int emu_log_level_parse(const char *s, emu_log_level_t *out);

/* conn_id 0: a process-wide line without a connection prefix. */
void emu_log(emu_log_level_t level, uint64_t conn_id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
