/*
 * slab.c - a table's allocator for partitions and row blocks, part of
 * storage/.
 *
 * Most of a table's memory is small allocations of known size (a compact
 * partition is ~20 bytes plus its key and row): malloc would add an 8-byte
 * header and round to 16, a sixth of a 100-byte row. Here sizes up to
 * SLAB_MAX come from 64 KB chunks in classes of 8 bytes, with no header: the
 * caller gives the size back on free (it can always compute it), and freed
 * slots go on their class's free list for the next allocation of that
 * class. Larger ones go to base_malloc. Chunks are returned only when the
 * table is truncated or dropped, as a memtable's would be.
 *
 * Invariants: used is the bytes handed out and not freed, class-rounded
 * (large allocations at their size); reserved is chunk bytes plus large.
 */
#include "storage/storage_int.h"

#define SLAB_CHUNK (64 * 1024)


static size_t class_of(size_t size)
{
    return (size + STORAGE__SLAB_GRAIN - 1) / STORAGE__SLAB_GRAIN - 1;
}


void storage__slab_init(storage__slab_t *s)
{
    memset(s, 0, sizeof(*s));
}


void storage__slab_fini(storage__slab_t *s)
{
    void *c = s->chunks;
    while (c != NULL) {
        void *next;
        memcpy(&next, c, sizeof(next));
        base_free(c);
        c = next;
    }
    memset(s, 0, sizeof(*s));
}


static void push(storage__slab_t *s, void *p, size_t cls)
{
    memcpy(p, &s->free[cls], sizeof(void *));
    s->free[cls] = p;
}


void *storage__slab_alloc(storage__slab_t *s, size_t size)
{
    BASE_ASSERT(size > 0);
    if (size > STORAGE__SLAB_MAX) {
        s->used += size;
        s->reserved += size;
        return base_malloc(size);
    }
    size_t cls = class_of(size);
    size_t n = (cls + 1) * STORAGE__SLAB_GRAIN;
    s->used += n;
    void *p = s->free[cls];
    if (p != NULL) {
        memcpy(&s->free[cls], p, sizeof(void *));
        return p;
    }
    if (s->left < n) {
        if (s->left > 0) { /* the tail of the old chunk serves its own class */
            push(s, s->cur, class_of(s->left));
        }
        uint8_t *c = base_malloc(SLAB_CHUNK);
        memcpy(c, &s->chunks, sizeof(s->chunks)); /* a chunk starts with the link to the last */
        s->chunks = c;
        s->cur = c + sizeof(void *);
        s->left = SLAB_CHUNK - sizeof(void *);
        s->reserved += SLAB_CHUNK;
    }
    p = s->cur;
    s->cur += n;
    s->left -= n;
    return p;
}


void storage__slab_free(storage__slab_t *s, void *p, size_t size)
{
    if (p == NULL) {
        return;
    }
    if (size > STORAGE__SLAB_MAX) {
        s->used -= size;
        s->reserved -= size;
        base_free(p);
        return;
    }
    size_t cls = class_of(size);
    s->used -= (cls + 1) * STORAGE__SLAB_GRAIN;
    push(s, p, cls);
}
