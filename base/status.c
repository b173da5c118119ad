/*
 * status.c - the BASE_* status names and the base_error_t helpers.
 * An error is filled once where it is born and travels up untouched.
 */
#include "base/base.h"


const char *base_strerror(int status)
{
    switch (status) {
#define XX(name, value, text) \
    case name:                \
        return text;
        BASE_STATUS_MAP(XX)
#undef XX
    default:
        return "unknown status";
    }
}


/* (the name in parentheses: not the analyzer-only macro of base.h) */
int(base_error_set)(base_error_t *err, int code, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        err->detail_len = 0;
        va_end(ap);
    }
    return BASE_ERROR;
}


void base_error_clear(base_error_t *err)
{
    err->code = 0;
    err->msg[0] = '\0';
    err->detail_len = 0;
}


void base_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "assertion failed: %s (%s:%d)\n", expr, file, line);
    abort();
}
