/*
 * log.c - leveled logging to stderr. Layer: emulator.
 *
 * Each line is formatted into one buffer and written with one write, so
 * lines never interleave even when stderr is shared with a test harness
 * that waits for the "ready" line. Format:
 *   2026-12-02T17:20:00.123Z INFO  [c12] message
 */
#include "emulator/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static emu_log_level_t current_level = EMU_LOG_INFO;

static const char *const level_names[] = {"ERROR", "WARN ", "INFO ", "DEBUG"};

void emu_log_set_level(emu_log_level_t level)
{
    current_level = level;
}

int emu_log_enabled(emu_log_level_t level)
{
    return level <= current_level;
}

int emu_log_level_parse(const char *s, emu_log_level_t *out)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(s, names[i]) == 0) {
            *out = (emu_log_level_t)i;
            return 0;
        }
    }
    if (strcasecmp(s, "warning") == 0) {
        *out = EMU_LOG_WARN;
        return 0;
    }
    return -1;
}

void emu_log(emu_log_level_t level, uint64_t conn_id, const char *fmt, ...)
{
    if (!emu_log_enabled(level)) {
        return;
    }
    char line[2048];
    struct timeval tv;
    struct tm tm;
    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    size_t n = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%S", &tm);
    n += (size_t)snprintf(line + n, sizeof(line) - n, ".%03dZ %s ", (int)(tv.tv_usec / 1000),
                          level_names[level]);
    if (conn_id != 0) {
        n += (size_t)snprintf(line + n, sizeof(line) - n, "[c%llu] ", (unsigned long long)conn_id);
    }
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
    va_end(ap);
    n = m < 0 ? n : n + (size_t)m;
    if (n > sizeof(line) - 2) {
        n = sizeof(line) - 2; /* truncated: keep the newline */
    }
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w; /* nowhere left to report a failing stderr */
}
