/*
 * log.h - leveled logging, one line per call, with an optional connection
 * id prefix ("[c12]") so a connection's story can be grepped. Lines go to
 * stderr, or to --log-file, as text or as one JSON object a line
 * (--log-format json). Single-threaded like the rest of the process (the
 * start-up worker in server.c logs too: each line is one write(2)).
 */
#ifndef EMULATOR_LOG_H
#define EMULATOR_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

typedef enum {
    EMU_LOG_ERROR = 0,
    EMU_LOG_WARN = 1,
    EMU_LOG_INFO = 2,
    EMU_LOG_DEBUG = 3,
} emu_log_level_t;

typedef enum {
    EMU_LOG_TEXT = 0, /* 2026-12-02T17:20:00.123Z INFO  [c12] message */
    EMU_LOG_JSON = 1, /* {"ts":"...","level":"info","conn":12,"msg":"message"} */
} emu_log_format_t;

void emu_log_set_level(emu_log_level_t level);
int emu_log_enabled(emu_log_level_t level);
/* Parses "error", "warn", "info" or "debug"; returns 0 or -1. */
int emu_log_level_parse(const char *s, emu_log_level_t *out);

void emu_log_set_format(emu_log_format_t format);
/* Parses "text" or "json"; returns 0 or -1. */
int emu_log_format_parse(const char *s, emu_log_format_t *out);

/* Sends the lines to path (appended, created 0644) instead of stderr;
 * NULL goes back to stderr. Returns 0, or -1 with a one-line reason. */
int emu_log_open_file(const char *path, char *msg, size_t cap);

/* Reopens the current log file under its name (after logrotate moved it):
 * what SIGHUP handling calls. Returns 0 (also when logging to stderr), or
 * -1 when the file cannot be opened; the old one is then kept. */
int emu_log_reopen(void);

/* Closes the log file (back to stderr). */
void emu_log_close(void);

/* The sink for the lower layers' lines (base_log_set_sink): each one a
 * process-wide line of this log, at its level. */
void emu_log_base_line(base_log_level_t level, const char *line);

/* conn_id 0: a process-wide line without a connection prefix. */
void emu_log(emu_log_level_t level, uint64_t conn_id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A line that a flood would repeat (accept failures, refused connections):
 * zero-initialise one per kind of event. */
typedef struct emu_log_limit_s {
    int64_t next_us;     /* monotonic: no line before this */
    uint64_t suppressed; /* calls since the last line that did not log */
} emu_log_limit_t;

/* Logs at most one line per interval_ms for l; calls in between are only
 * counted, and the next line says how many ("; 41 more since the last
 * such line"). Returns true when it wrote the line. */
bool emu_log_limited(emu_log_limit_t *l, int interval_ms, emu_log_level_t level, uint64_t conn_id,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* One log line's JSON form, written into out (NUL-terminated, cut at cap
 * with the object still closed); exposed for tests. Returns the length. */
size_t emu_log_format_json(char *out, size_t cap, const char *ts, emu_log_level_t level,
                           uint64_t conn_id, const char *msg);

#endif
