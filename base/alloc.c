/*
 * alloc.c - the one allocation seam. Internal allocations must succeed (a
 * CI emulator gains nothing from limping on after OOM), so they abort with a
 * message; base_try_malloc is for sizes a peer chooses and may fail.
 */
#include "base/base.h"


static _Noreturn void oom(size_t n)
{
    fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", n);
    abort();
}


void *base_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        oom(n);
    }
    return p;
}


void *base_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        oom(n * size);
    }
    return p;
}


void *base_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        oom(n);
    }
    return q;
}


char *base_strndup(const char *s, size_t n)
{
    char *p = base_malloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}


char *base_strdup(const char *s)
{
    return base_strndup(s, strlen(s));
}


void base_free(void *p)
{
    free(p);
}


void *base_try_malloc(size_t n)
{
    return malloc(n ? n : 1);
}
