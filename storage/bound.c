/*
 * bound.c - clustering order and prefix-compared bounds, part of storage/.
 *
 * Clustering keys arrive encoded so that memcmp order is clustering order.
 * A bound may be a prefix of full keys (a slice on the first components):
 * comparing a key to it looks at the bound's length only, so every key that
 * begins with the bound compares equal, and a key shorter than the bound
 * that matches on its whole length compares less. Truncating keys keeps
 * their order, so "satisfies the start bound" is false then true along a
 * partition and "satisfies the end bound" true then false: seeks can
 * descend the skiplist with them.
 */
#include "storage/storage_int.h"


int storage__key_cmp(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
    size_t n = a_len < b_len ? a_len : b_len;
    int c = n > 0 ? memcmp(a, b, n) : 0;
    if (c != 0) {
        return c;
    }
    return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}


uint64_t storage__key_hint(const uint8_t *k, size_t len)
{
    uint64_t h = 0;
    for (size_t i = 0; i < 8; i++) {
        h = (h << 8) | (i < len ? k[i] : 0);
    }
    return h;
}


int storage__bound_cmp(const uint8_t *ck, size_t ck_len, const storage_bound_t *b)
{
    size_t n = ck_len < b->len ? ck_len : b->len;
    int c = n > 0 ? memcmp(ck, b->key, n) : 0;
    if (c != 0) {
        return c;
    }
    return ck_len < b->len ? -1 : 0;
}


bool storage__bound_after_start(const uint8_t *ck, size_t ck_len, const storage_bound_t *start)
{
    if (start == NULL || start->len == 0) {
        return true;
    }
    int c = storage__bound_cmp(ck, ck_len, start);
    return start->inclusive ? c >= 0 : c > 0;
}


bool storage__bound_before_end(const uint8_t *ck, size_t ck_len, const storage_bound_t *end)
{
    if (end == NULL || end->len == 0) {
        return true;
    }
    int c = storage__bound_cmp(ck, ck_len, end);
    return end->inclusive ? c <= 0 : c < 0;
}
