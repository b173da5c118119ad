/*
 * arena.c - request-scoped bump allocator. A request's AST, bound values,
 * intermediate rows and response pieces come from one arena that is reset
 * after the response is queued. Invariant: every pointer handed out is
 * 16-byte aligned and stays valid until the next reset or fini.
 */
#include "base/base.h"

struct base_arena_block_s {
    base_arena_block_t *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    _Alignas(16) unsigned char data[];
};


void base_arena_init(base_arena_t *a, size_t block_size)
{
    a->head = NULL;
    a->spare = NULL;
    a->block_size = block_size ? block_size : 16384;
}


static void free_chain(base_arena_block_t *b)
{
    while (b != NULL) {
        base_arena_block_t *next = b->next;
        base_free(b);
        b = next;
    }
}


void base_arena_fini(base_arena_t *a)
{
    free_chain(a->head);
    free_chain(a->spare);
    a->head = a->spare = NULL;
}


void base_arena_reset(base_arena_t *a)
{
    /* Keep standard-size blocks for reuse; oversized ones go back to the heap. */
    base_arena_block_t *b = a->head;
    while (b != NULL) {
        base_arena_block_t *next = b->next;
        if (b->size == a->block_size) {
            b->used = 0;
            b->next = a->spare;
            a->spare = b;
        } else {
            base_free(b);
        }
        b = next;
    }
    a->head = NULL;
}


void *base_arena_alloc(base_arena_t *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    base_arena_block_t *b = a->head;
    if (b == NULL || b->size - b->used < n) {
        if (n <= a->block_size && a->spare != NULL) {
            b = a->spare;
            a->spare = b->next;
        } else {
            size_t size = n > a->block_size ? n : a->block_size;
            b = base_malloc(sizeof(*b) + size);
            b->size = size;
        }
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}


void *base_arena_calloc(base_arena_t *a, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) {
        base_assert_fail("arena calloc overflow", __FILE__, __LINE__);
    }
    void *p = base_arena_alloc(a, n * size);
    memset(p, 0, n * size);
    return p;
}


char *base_arena_strndup(base_arena_t *a, const char *s, size_t n)
{
    char *p = base_arena_alloc(a, n + 1);
    if (n > 0) {
        memcpy(p, s, n);
    }
    p[n] = '\0';
    return p;
}


void *base_arena_memdup(base_arena_t *a, const void *p, size_t n)
{
    void *q = base_arena_alloc(a, n);
    if (n > 0) {
        memcpy(q, p, n);
    }
    return q;
}


char *base_arena_sprintf(base_arena_t *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    BASE_ASSERT(n >= 0);
    char *p = base_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
