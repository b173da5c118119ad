/*
 * map.c - the small string-keyed hash map behind the meter's keyspace, table
 * and shape registries. Layer: ru_meter (internal).
 *
 * Open addressing with linear probing over a power-of-two table kept at most
 * half full; keys are byte strings (they may hold NULs as separators) copied
 * into the map, values are borrowed pointers the caller owns. No removal.
 */
#include "ru_meter/ru_int.h"


static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}


void ru__map_init(ru_map_t *m)
{
    m->cap = 0;
    m->len = 0;
    m->slots = NULL;
}


void ru__map_fini(ru_map_t *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        base_free(m->slots[i].key);
    }
    base_free(m->slots);
    ru__map_init(m);
}


static ru_map_slot_t *find(const ru_map_t *m, const char *key, size_t klen, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        ru_map_slot_t *s = &m->slots[i];
        if (s->key == NULL) {
            return s;
        }
        if (s->hash == h && s->klen == klen && memcmp(s->key, key, klen) == 0) {
            return s;
        }
    }
}


void *ru__map_get(const ru_map_t *m, const char *key, size_t klen)
{
    if (m->cap == 0) {
        return NULL;
    }
    ru_map_slot_t *s = find(m, key, klen, hash_bytes(key, klen));
    return s->key != NULL ? s->val : NULL;
}


static void grow(ru_map_t *m)
{
    ru_map_t bigger = {m->cap ? m->cap * 2 : 16, m->len, NULL};
    bigger.slots = base_calloc(bigger.cap, sizeof(ru_map_slot_t));
    for (size_t i = 0; i < m->cap; i++) {
        ru_map_slot_t *s = &m->slots[i];
        if (s->key != NULL) {
            *find(&bigger, s->key, s->klen, s->hash) = *s;
        }
    }
    base_free(m->slots);
    *m = bigger;
}


void ru__map_put(ru_map_t *m, const char *key, size_t klen, void *val)
{
    if ((m->len + 1) * 2 > m->cap) {
        grow(m);
    }
    uint64_t h = hash_bytes(key, klen);
    ru_map_slot_t *s = find(m, key, klen, h);
    if (s->key == NULL) {
        s->key = base_malloc(klen + 1);
        memcpy(s->key, key, klen);
        s->key[klen] = '\0';
        s->klen = klen;
        s->hash = h;
        m->len++;
    }
    s->val = val;
}
