/*
 * log.c - diagnostics from the layers under the process (see base.h): one
 * sink, installed by the process before its threads start and read by any
 * thread after, so a lower layer logs through the process's own logger
 * without knowing it. A line is formatted into a buffer of its own (cut at
 * LINE_MAX_BYTES), so threads never share one.
 */
#include <stdatomic.h>

#include "base/base.h"

#define LINE_MAX_BYTES 1024

static _Atomic(base_log_sink_t) sink;


void base_log_set_sink(base_log_sink_t s)
{
    atomic_store(&sink, s);
}


void base_log(base_log_level_t level, const char *fmt, ...)
{
    char line[LINE_MAX_BYTES];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    base_log_sink_t s = atomic_load(&sink);
    if (s != NULL) {
        s(level, line);
    } else {
        (void)fprintf(stderr, "%s\n", line);
    }
}
