/*
 * collection.c - serialized list/set/map values (cql layer): splitting
 * into elements, building from elements, the stable sort + dedup that gives
 * sets and maps Cassandra's canonical order, and normalisation of bound
 * collections (Cassandra re-sorts a bound set or map when it deserializes
 * it, so two equal frozen sets always have the same bytes).
 *
 * Serialized form (native protocol v3+): [int n] then n elements of
 * [int len][bytes] (a map has 2n: key, value, key, value...). Splitting
 * never trusts n: it is bounded by the bytes actually present.
 */
#include "cql/value/value_int.h"

void cql__put_value(base_buf_t *b, wire_value_t v)
{
    if (v.len < 0) {
        base_buf_put_u32(b, 0xFFFFFFFFu);
        return;
    }
    base_buf_put_u32(b, (uint32_t)v.len);
    base_buf_put(b, v.ptr, (size_t)v.len);
}


wire_value_t cql__buf_value(const base_buf_t *b, base_arena_t *a)
{
    wire_value_t v;
    v.ptr = base_arena_memdup(a, b->len ? b->data : (const uint8_t *)"", b->len);
    v.len = (int32_t)b->len;
    return v;
}


ssize_t cql__collection_split(const wire_type_t *t, wire_value_t v, base_arena_t *a,
                              wire_value_t **keys, wire_value_t **vals)
{
    bool is_map = t->id == WIRE_TYPE_MAP;
    *keys = NULL;
    if (vals != NULL) {
        *vals = NULL;
    }
    if (v.len < 0 || !cql__type_is_collection(t)) {
        return -1;
    }
    if (v.len == 0) {
        return 0; /* an empty value is an empty collection */
    }
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    int32_t n = 0;
    if (!cql__cursor_i32(&c, &n) || n < 0 || (size_t)n > cql__cursor_left(&c) / (is_map ? 8 : 4)) {
        return -1;
    }
    wire_value_t *k = base_arena_alloc(a, ((size_t)n ? (size_t)n : 1) * sizeof(*k));
    wire_value_t *val =
        is_map ? base_arena_alloc(a, ((size_t)n ? (size_t)n : 1) * sizeof(*val)) : NULL;
    for (int32_t i = 0; i < n; i++) {
        if (!cql__cursor_value(&c, &k[i]) || (is_map && !cql__cursor_value(&c, &val[i]))) {
            return -1;
        }
    }
    if (cql__cursor_left(&c) != 0) {
        return -1;
    }
    *keys = k;
    if (vals != NULL) {
        *vals = val;
    }
    return n;
}


wire_value_t cql__collection_build(const wire_type_t *t, const wire_value_t *keys,
                                   const wire_value_t *vals, size_t n, base_arena_t *a)
{
    BASE_ASSERT(n <= INT32_MAX);
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put_u32(&b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        cql__put_value(&b, keys[i]);
        if (t->id == WIRE_TYPE_MAP) {
            cql__put_value(&b, vals != NULL ? vals[i] : (wire_value_t){NULL, WIRE_VALUE_NULL});
        }
    }
    wire_value_t v = cql__buf_value(&b, a);
    base_buf_fini(&b);
    return v;
}


typedef struct sorter_s {
    const wire_type_t *t;
    const wire_value_t *keys;
} sorter_t;


/* Stable merge sort of an index permutation (qsort is not stable). */
static void merge_sort(const sorter_t *s, size_t *idx, size_t *tmp, size_t n)
{
    if (n < 2) {
        return;
    }
    size_t h = n / 2;
    merge_sort(s, idx, tmp, h);
    merge_sort(s, idx + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if (cql__value_compare(s->t, s->keys[idx[j]], s->keys[idx[i]]) < 0) {
            tmp[k++] = idx[j++];
        } else {
            tmp[k++] = idx[i++];
        }
    }
    while (i < h) {
        tmp[k++] = idx[i++];
    }
    while (j < n) {
        tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, n * sizeof(*idx));
}


void cql__values_sort(const wire_type_t *t, wire_value_t *keys, wire_value_t *vals, size_t *n,
                      bool keep_last)
{
    size_t count = *n;
    if (count < 2) {
        return;
    }
    size_t *idx = base_malloc(count * sizeof(*idx));
    size_t *tmp = base_malloc(count * sizeof(*tmp));
    wire_value_t *k2 = base_malloc(count * sizeof(*k2));
    wire_value_t *v2 = base_malloc(count * sizeof(*v2));
    for (size_t i = 0; i < count; i++) {
        idx[i] = i;
    }
    sorter_t s = {t, keys};
    merge_sort(&s, idx, tmp, count);
    size_t out = 0;
    for (size_t i = 0; i < count; i++) {
        size_t at = idx[i];
        if (out > 0 && cql__value_compare(t, k2[out - 1], keys[at]) == 0) {
            if (keep_last) {
                k2[out - 1] = keys[at];
                v2[out - 1] = vals != NULL ? vals[at] : keys[at];
            }
            continue;
        }
        k2[out] = keys[at];
        v2[out] = vals != NULL ? vals[at] : keys[at];
        out++;
    }
    memcpy(keys, k2, out * sizeof(*keys));
    if (vals != NULL) {
        memcpy(vals, v2, out * sizeof(*vals));
    }
    *n = out;
    base_free(idx);
    base_free(tmp);
    base_free(k2);
    base_free(v2);
}


static bool has_unordered(const wire_type_t *t)
{
    if (t->id == WIRE_TYPE_SET || t->id == WIRE_TYPE_MAP) {
        return true;
    }
    for (size_t i = 0; i < t->n_sub; i++) {
        if (has_unordered(t->sub[i])) {
            return true;
        }
    }
    return false;
}


static wire_value_t normalize_tuple(const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    cql_cursor_t c;
    cql__cursor_init(&c, v);
    base_buf_t b;
    base_buf_init(&b);
    for (size_t i = 0; i < t->n_sub && cql__cursor_left(&c) > 0; i++) {
        wire_value_t comp;
        if (!cql__cursor_value(&c, &comp)) {
            base_buf_fini(&b);
            return v;
        }
        cql__put_value(&b, cql__value_normalize(t->sub[i], comp, a));
    }
    wire_value_t out = cql__cursor_left(&c) == 0 ? cql__buf_value(&b, a) : v;
    base_buf_fini(&b);
    return out;
}


wire_value_t cql__value_normalize(const wire_type_t *t, wire_value_t v, base_arena_t *a)
{
    if (v.len <= 0 || !has_unordered(t)) {
        return v;
    }
    if (t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT) {
        return normalize_tuple(t, v, a);
    }
    if (!cql__type_is_collection(t)) {
        return v;
    }
    wire_value_t *keys, *vals;
    ssize_t n = cql__collection_split(t, v, a, &keys, &vals);
    if (n < 0) {
        return v;
    }
    const wire_type_t *kt = t->sub[0];
    const wire_type_t *vt = t->id == WIRE_TYPE_MAP ? t->sub[1] : NULL;
    for (ssize_t i = 0; i < n; i++) {
        keys[i] = cql__value_normalize(kt, keys[i], a);
        if (vt != NULL) {
            vals[i] = cql__value_normalize(vt, vals[i], a);
        }
    }
    size_t count = (size_t)n;
    if (t->id != WIRE_TYPE_LIST) {
        cql__values_sort(kt, keys, vals, &count, t->id == WIRE_TYPE_MAP);
    }
    return cql__collection_build(t, keys, vals, count, a);
}
