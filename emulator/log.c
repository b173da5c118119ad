/*
 * log.c - leveled logging to stderr or a file, as text or JSON lines.
 * Layer: emulator.
 *
 * Each line is formatted into one buffer and written with one write, so
 * lines never interleave even when stderr is shared with a test harness
 * that waits for the "ready" line. Formats:
 *   text  2026-12-02T17:20:00.123Z INFO  [c12] message
 *   json  {"ts":"2026-12-02T17:20:00.123Z","level":"info","conn":12,"msg":"message"}
 * JSON lines are valid JSON whatever the message holds: quotes, control
 * characters and bytes that are not UTF-8 (a peer's text may be anything)
 * are escaped, and a line cut at the buffer's end still closes its object.
 *
 * emu_log_limited: a line an outside flood would repeat (accept failing on
 * EMFILE, connections refused past --max-connections) is written at most
 * once an interval, with the count of the ones it stood for, so a flood
 * costs neither the disk nor the CPU that formatting every line would.
 *
 * --log-file: lines are appended to the file; emu_log_reopen() opens the
 * name again (logrotate's move-then-signal), keeping the old descriptor
 * when the new open fails so no line is lost to a bad path.
 */
#include "emulator/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

#define LINE_MAX_BYTES 2048

static emu_log_level_t current_level = EMU_LOG_INFO;
static emu_log_format_t current_format = EMU_LOG_TEXT;
static int log_fd = STDERR_FILENO;
static char *log_path; /* NULL: stderr */

static const char *const level_names[] = {"ERROR", "WARN ", "INFO ", "DEBUG"};
static const char *const json_level_names[] = {"error", "warn", "info", "debug"};

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

void emu_log_set_format(emu_log_format_t format)
{
    current_format = format;
}

int emu_log_format_parse(const char *s, emu_log_format_t *out)
{
    if (strcasecmp(s, "text") == 0) {
        *out = EMU_LOG_TEXT;
        return 0;
    }
    if (strcasecmp(s, "json") == 0) {
        *out = EMU_LOG_JSON;
        return 0;
    }
    return -1;
}

static int open_append(const char *path)
{
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

int emu_log_open_file(const char *path, char *msg, size_t cap)
{
    if (path == NULL) {
        emu_log_close();
        return 0;
    }
    int fd = open_append(path);
    if (fd < 0) {
        snprintf(msg, cap, "cannot open the log file %s: %s", path, strerror(errno));
        return -1;
    }
    emu_log_close();
    log_fd = fd;
    log_path = strdup(path);
    return 0;
}

int emu_log_reopen(void)
{
    if (log_path == NULL) {
        return 0;
    }
    int fd = open_append(log_path);
    if (fd < 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot reopen the log file %s: %s (still writing the old one)",
                log_path, strerror(errno));
        return -1;
    }
    int old = log_fd;
    log_fd = fd;
    close(old);
    return 0;
}

void emu_log_close(void)
{
    if (log_path != NULL) {
        close(log_fd);
        free(log_path);
        log_path = NULL;
    }
    log_fd = STDERR_FILENO;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) {
        return 1;
    }
    size_t n = (s[0] & 0xE0) == 0xC0   ? 2
               : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4
                                       : 0;
    if (n == 0 || (n == 2 && s[0] < 0xC2) || (n == 4 && s[0] > 0xF4)) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
        (n == 4 && s[0] == 0xF0 && s[1] < 0x90) || (n == 4 && s[0] == 0xF4 && s[1] >= 0x90)) {
        return 0; /* overlong, surrogate, or past U+10FFFF */
    }
    return n;
}

/* Appends s as JSON string content at out[*n], leaving room for `reserve` bytes. */
static void json_escape(char *out, size_t cap, size_t *n, const char *s, size_t reserve)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        char esc[8];
        size_t len = utf8_len(p);
        const char *piece = (const char *)p;
        size_t plen = len;
        if (len == 0) {
            piece = "\\ufffd"; /* not UTF-8 */
            plen = 6;
            len = 1;
        } else if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            piece = esc;
            plen = 2;
        } else if (*p < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", *p);
            piece = esc;
            plen = 6;
        }
        if (*n + plen + reserve >= cap) {
            return; /* cut: the caller closes the object */
        }
        memcpy(out + *n, piece, plen);
        *n += plen;
        p += len;
    }
}

size_t emu_log_format_json(char *out, size_t cap, const char *ts, emu_log_level_t level,
                           uint64_t conn_id, const char *msg)
{
    size_t n =
        (size_t)snprintf(out, cap, "{\"ts\":\"%s\",\"level\":\"%s\"", ts, json_level_names[level]);
    if (conn_id != 0) {
        n += (size_t)snprintf(out + n, cap - n, ",\"conn\":%llu", (unsigned long long)conn_id);
    }
    n += (size_t)snprintf(out + n, cap - n, ",\"msg\":\"");
    json_escape(out, cap, &n, msg, 3); /* "} and the NUL */
    memcpy(out + n, "\"}", 3);
    return n + 2;
}

/* Formats and writes one line; suffix (may be "") goes after the message. */
static void vlog(emu_log_level_t level, uint64_t conn_id, const char *suffix, const char *fmt,
                 va_list ap)
{
    char line[LINE_MAX_BYTES];
    char ts[40];
    struct timeval tv;
    struct tm tm;
    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    size_t t = strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + t, sizeof(ts) - t, ".%03dZ", (int)(tv.tv_usec / 1000));
    size_t n = 0;
    if (current_format == EMU_LOG_JSON) {
        char msg[LINE_MAX_BYTES];
        int m = vsnprintf(msg, sizeof(msg), fmt, ap);
        if (m >= 0 && (size_t)m < sizeof(msg)) {
            snprintf(msg + m, sizeof(msg) - (size_t)m, "%s", suffix);
        }
        n = emu_log_format_json(line, sizeof(line) - 1, ts, level, conn_id, msg);
    } else {
        n = (size_t)snprintf(line, sizeof(line), "%s %s ", ts, level_names[level]);
        if (conn_id != 0) {
            n += (size_t)snprintf(line + n, sizeof(line) - n, "[c%llu] ",
                                  (unsigned long long)conn_id);
        }
        int m = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
        n = m < 0 ? n : n + (size_t)m;
        if (n < sizeof(line) - 2) {
            m = snprintf(line + n, sizeof(line) - n, "%s", suffix);
            n = m < 0 ? n : n + (size_t)m;
        }
        if (n > sizeof(line) - 2) {
            n = sizeof(line) - 2; /* truncated: keep the newline */
        }
    }
    line[n++] = '\n';
    ssize_t w = write(log_fd, line, n);
    (void)w; /* nowhere left to report a failing log */
}


void emu_log(emu_log_level_t level, uint64_t conn_id, const char *fmt, ...)
{
    if (!emu_log_enabled(level)) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vlog(level, conn_id, "", fmt, ap);
    va_end(ap);
}


void emu_log_base_line(base_log_level_t level, const char *line)
{
    emu_log_level_t l = level == BASE_LOG_ERROR  ? EMU_LOG_ERROR
                        : level == BASE_LOG_WARN ? EMU_LOG_WARN
                                                 : EMU_LOG_INFO;
    emu_log(l, 0, "%s", line);
}


bool emu_log_limited(emu_log_limit_t *l, int interval_ms, emu_log_level_t level, uint64_t conn_id,
                     const char *fmt, ...)
{
    int64_t now = base_mono_us();
    if (now < l->next_us) {
        l->suppressed++;
        return false;
    }
    l->next_us = now + (int64_t)interval_ms * 1000;
    if (!emu_log_enabled(level)) {
        l->suppressed = 0;
        return false;
    }
    char suffix[96] = "";
    if (l->suppressed > 0) {
        snprintf(suffix, sizeof(suffix), "; %llu more since the last such line",
                 (unsigned long long)l->suppressed);
    }
    l->suppressed = 0;
    va_list ap;
    va_start(ap, fmt);
    vlog(level, conn_id, suffix, fmt, ap);
    va_end(ap);
    return true;
}
