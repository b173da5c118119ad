/*
 * skiplist.c - the ordered index of rows by clustering bytes in a
 * partition with more than one row, part of storage/.
 *
 * A skiplist (Pugh; Redis t_zset.c keeps the same shape) gives O(log n)
 * expected insert, lookup and seek, in-order iteration through next[0] and
 * reverse iteration through prev, with no O(n) memmove when time-series data
 * arrives at the front. Levels come from a per-list xorshift generator with
 * p = 1/4, so a run is reproducible from its seed.
 *
 * Each node carries an order-preserving 64-bit hint of its key (the token,
 * or the first clustering bytes): most comparisons during a descent end on
 * the hint, without a cache miss on the item. The head grows with the
 * highest level in use, so small partitions do not each pay for a 32-level
 * head.
 *
 * Invariants: items are strictly increasing under (hint, cmp) along
 * next[0]; hint order never contradicts cmp order; prev mirrors next[0]
 * (NULL on the first node, so nothing points at the head and it may move);
 * tail is the last node.
 */
#include "storage/storage_int.h"

#define MAX_LEVEL 32


static storage__sl_node_t *node_new(void *item, uint64_t hint, int level)
{
    storage__sl_node_t *n =
        base_calloc(1, sizeof(*n) + (size_t)level * sizeof(storage__sl_node_t *));
    n->item = item;
    n->hint = hint;
    n->level = level;
    return n;
}


/* Negative if the node sorts before (hint, key). */
static int node_cmp(const storage__sl_t *sl, const storage__sl_node_t *n, uint64_t hint,
                    const void *key)
{
    if (n->hint != hint) {
        return n->hint < hint ? -1 : 1;
    }
    return sl->cmp(n->item, key);
}


static void grow_head(storage__sl_t *sl, int level)
{
    int old = sl->head->level;
    size_t size = sizeof(*sl->head) + (size_t)level * sizeof(storage__sl_node_t *);
    sl->head = base_realloc(sl->head, size);
    for (int i = old; i < level; i++) {
        sl->head->next[i] = NULL;
    }
    sl->head->level = level;
}


static int random_level(storage__sl_t *sl)
{
    int level = 1;
    for (;;) {
        /* xorshift64 */
        sl->rng ^= sl->rng << 13;
        sl->rng ^= sl->rng >> 7;
        sl->rng ^= sl->rng << 17;
        if ((sl->rng & 3) != 0 || level == MAX_LEVEL) {
            return level;
        }
        level++;
    }
}


void storage__sl_init(storage__sl_t *sl, storage__sl_cmp_fn cmp, uint64_t seed)
{
    sl->head = node_new(NULL, 0, 1);
    sl->tail = NULL;
    sl->level = 1;
    sl->count = 0;
    sl->rng = seed != 0 ? seed : UINT64_C(0x9e3779b97f4a7c15);
    sl->cmp = cmp;
}


void storage__sl_fini(storage__sl_t *sl, void (*free_item)(void *item))
{
    if (sl->head == NULL) {
        return;
    }
    storage__sl_node_t *n = sl->head->next[0];
    while (n != NULL) {
        storage__sl_node_t *next = n->next[0];
        if (free_item != NULL) {
            free_item(n->item);
        }
        base_free(n);
        n = next;
    }
    base_free(sl->head);
    sl->head = NULL;
    sl->tail = NULL;
    sl->count = 0;
}


/* Fills update[i] with the last node at level i that sorts before key. */
/* Fills update[0..level) with the last node before key on each level; returns that level
 * (read once: the loops over update[] must not outrun what was filled). */
static int find_path(const storage__sl_t *sl, uint64_t hint, const void *key,
                     storage__sl_node_t **update)
{
    int level = sl->level;
    BASE_ASSERT(level >= 1);
    storage__sl_node_t *x = sl->head;
    for (int i = level - 1; i >= 0; i--) {
        while (x->next[i] != NULL && node_cmp(sl, x->next[i], hint, key) < 0) {
            x = x->next[i];
        }
        update[i] = x;
    }
    return level;
}


storage__sl_node_t *storage__sl_find(const storage__sl_t *sl, uint64_t hint, const void *key)
{
    storage__sl_node_t *x = sl->head;
    for (int i = sl->level - 1; i >= 0; i--) {
        while (x->next[i] != NULL && node_cmp(sl, x->next[i], hint, key) < 0) {
            x = x->next[i];
        }
    }
    x = x->next[0];
    return x != NULL && node_cmp(sl, x, hint, key) == 0 ? x : NULL;
}


storage__sl_node_t *storage__sl_insert(storage__sl_t *sl, void *item, uint64_t hint,
                                       const void *key)
{
    int level = random_level(sl);
    if (level > sl->head->level) {
        grow_head(sl, level);
    }
    storage__sl_node_t *update[MAX_LEVEL];
    int filled = find_path(sl, hint, key, update);
    BASE_ASSERT(update[0]->next[0] == NULL || node_cmp(sl, update[0]->next[0], hint, key) != 0);

    if (level > filled) {
        for (int i = filled; i < level; i++) {
            update[i] = sl->head;
        }
        sl->level = level;
    }

    storage__sl_node_t *n = node_new(item, hint, level);
    for (int i = 0; i < level; i++) {
        n->next[i] = update[i]->next[i];
        update[i]->next[i] = n;
    }
    n->prev = update[0] == sl->head ? NULL : update[0];
    if (n->next[0] != NULL) {
        n->next[0]->prev = n;
    } else {
        sl->tail = n;
    }
    sl->count++;
    return n;
}


void *storage__sl_remove(storage__sl_t *sl, uint64_t hint, const void *key)
{
    storage__sl_node_t *update[MAX_LEVEL];
    int filled = find_path(sl, hint, key, update);
    storage__sl_node_t *n = update[0]->next[0];
    BASE_ASSERT(n != NULL && node_cmp(sl, n, hint, key) == 0);

    for (int i = 0; i < filled; i++) {
        if (update[i]->next[i] == n) {
            update[i]->next[i] = n->next[i];
        }
    }
    if (n->next[0] != NULL) {
        n->next[0]->prev = n->prev;
    } else {
        sl->tail = n->prev;
    }
    while (sl->level > 1 && sl->head->next[sl->level - 1] == NULL) {
        sl->level--;
    }
    sl->count--;

    void *item = n->item;
    base_free(n);
    return item;
}


storage__sl_node_t *storage__sl_last_where(const storage__sl_t *sl, storage__sl_pred_fn pred,
                                           const void *ctx)
{
    storage__sl_node_t *x = sl->head;
    for (int i = sl->level - 1; i >= 0; i--) {
        while (x->next[i] != NULL && pred(x->next[i]->item, ctx)) {
            x = x->next[i];
        }
    }
    return x == sl->head ? NULL : x;
}
