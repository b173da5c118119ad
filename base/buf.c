/*
 * buf.c - growable, heap-owned byte buffer: the output side of every
 * encoder (its big-endian puts are inline in base.h). Invariant: len <= cap,
 * data is NULL only while cap is 0.
 */
#include "base/base.h"


void base_buf_init(base_buf_t *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}


void base_buf_fini(base_buf_t *b)
{
    base_free(b->data);
    base_buf_init(b);
}


void base_buf_reset(base_buf_t *b)
{
    b->len = 0;
}


void base_buf_swap(base_buf_t *a, base_buf_t *b)
{
    base_buf_t t = *a;
    *a = *b;
    *b = t;
}


void base_buf_reserve(base_buf_t *b, size_t extra)
{
    if (b->cap - b->len >= extra) {
        return;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < extra) {
        cap *= 2;
    }
    b->data = base_realloc(b->data, cap);
    b->cap = cap;
}


void base_buf_set_u32(base_buf_t *b, size_t at, uint32_t v)
{
    BASE_ASSERT(at + 4 <= b->len);
    base_store_u32(b->data + at, v);
}


void base_buf_printf(base_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    BASE_ASSERT(n >= 0);
    base_buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
