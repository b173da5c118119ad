/*
 * ptree.c - a table's one index of partitions, part of storage/: a B+tree
 * in (token, key bytes) order, serving point lookups, inserts, and the
 * token-ordered scans and resumes of paging alike.
 *
 * A leaf entry is 12 bytes: the top 32 bits of the token (in unsigned
 * order), then, apart, the partition pointer; a search reads a partition
 * only when those bits tie, so a lookup costs a descent through cached
 * inner nodes and about one miss in a leaf. Leaves are linked both ways for
 * scans. Inner nodes hold full tokens as separators; equal tokens may
 * straddle a separator, so a search takes the leftmost child that may hold
 * its token and walks forward. Partitions are removed only all at once
 * (truncate, drop), so there is no deletion; a full leaf first hands
 * entries to a sibling under the same parent with room, so leaves stay
 * about 80% full under random inserts rather than 69%. Nodes come from the
 * table's slab, so a large table's leaves share its huge pages (a lookup's
 * leaf miss was mostly a TLB miss) and cost no malloc header. The misses
 * that remain are taken ahead of time for a batch of requests (prefetch:
 * the leaf's token bits, then the partition they lead to).
 *
 * Invariants: entries are strictly increasing in (token, key) along the
 * leaves; in an inner node, every token under child i is <= key[i] <=
 * every token under child i + 1, and key[i] is the token of the first
 * entry under child i + 1 (an insert never goes before a leaf's first
 * entry unless the leaf is the first one; see pt_insert).
 */
#include "storage/storage_int.h"

#define LEAF_CAP  64
#define INNER_CAP 64

struct storage__pt_inner_s;

struct storage__pt_leaf_s {
    struct storage__pt_inner_s *parent;
    storage__pt_leaf_t *prev, *next;
    uint32_t n;
    uint32_t hint[LEAF_CAP];
    storage_partition_t *item[LEAF_CAP];
};

typedef struct storage__pt_inner_s {
    struct storage__pt_inner_s *parent;
    uint32_t n; /* keys; n + 1 children */
    uint64_t key[INNER_CAP];
    void *child[INNER_CAP + 1];
} inner_t;


static uint64_t utoken(int64_t token)
{
    return (uint64_t)token ^ (UINT64_C(1) << 63);
}


static void *node_new(storage__ptree_t *t, size_t size)
{
    void *n = storage__slab_alloc(t->mem, size);
    memset(n, 0, size);
    return n;
}


void storage__pt_init(storage__ptree_t *t, storage__slab_t *mem)
{
    t->mem = mem;
    storage__pt_leaf_t *leaf = node_new(t, sizeof(*leaf));
    t->root = leaf;
    t->first = leaf;
    t->height = 0;
    t->count = 0;
}


static void free_node(storage__slab_t *mem, void *node, int height)
{
    if (height > 0) {
        inner_t *in = node;
        for (uint32_t i = 0; i <= in->n; i++) {
            free_node(mem, in->child[i], height - 1);
        }
        storage__slab_free(mem, node, sizeof(inner_t));
        return;
    }
    storage__slab_free(mem, node, sizeof(storage__pt_leaf_t));
}


void storage__pt_fini(storage__ptree_t *t, void (*free_item)(storage_partition_t *p))
{
    if (t->root == NULL) {
        return;
    }
    for (storage__pt_leaf_t *l = t->first; l != NULL && free_item != NULL; l = l->next) {
        for (uint32_t i = 0; i < l->n; i++) {
            free_item(l->item[i]);
        }
    }
    free_node(t->mem, t->root, t->height);
    t->root = NULL;
    t->first = NULL;
    t->count = 0;
}


/* (token, pk) of p against the key: <0, 0, >0. pk NULL stands after every
 * key of its token. */
static int entry_cmp(const storage_partition_t *p, int64_t token, const uint8_t *pk, size_t pk_len)
{
    if (p->token != token) {
        return p->token < token ? -1 : 1;
    }
    if (pk == NULL) {
        return -1;
    }
    return storage__key_cmp(storage__part_pk(p), p->pk_len, pk, pk_len);
}


/*
 * The searches below are branch-free (the comparison's outcome is added, not
 * branched on): random tokens made half of a branching search's steps
 * mispredictions, a dozen per lookup, and a request looks its partition up
 * twice (the lookahead and the access). Nor do they halve: a binary search's
 * six loads each wait for the one before (in a node that fell out of L1,
 * six L2 round trips a level). They count instead, in two rounds of
 * independent loads: the blocks of 8 keys whose last key is below the
 * target (keys are sorted, so those blocks come first), then the keys below
 * it in the next block; slots at or past n are masked off, never trusted.
 * The inner levels' share of a 1 KB select load fell from 4.6% of the loop
 * to 3.6% (perf, same run length).
 */

/* The first i < n with k[i] >= u (k[i] > u when after), else n. */
static uint32_t inner_lower(const uint64_t *k, uint32_t n, uint64_t u, bool after)
{
    uint64_t v = after ? u + 1 : u; /* k[i] > u is k[i] >= u + 1, but for u = max */
    bool all = after && u == UINT64_MAX;
    uint32_t blocks = 0;
    for (uint32_t j = 7; j < INNER_CAP; j += 8) {
        blocks += (j < n) & (k[j] < v);
    }
    uint32_t lo = blocks * 8;
    uint32_t end = lo + 8 < INNER_CAP ? lo + 8 : INNER_CAP;
    uint32_t i = lo;
    for (uint32_t j = lo; j < end; j++) {
        i += (j < n) & (k[j] < v);
    }
    return all ? n : i;
}


/* The leaf where a search for u starts: the leftmost that may hold u, or
 * with after set, the first that may hold a token above u. */
static storage__pt_leaf_t *descend(const storage__ptree_t *t, uint64_t u, bool after)
{
    void *node = t->root;
    for (int h = t->height; h > 0; h--) {
        inner_t *in = node;
        node = in->child[inner_lower(in->key, in->n, u, after)];
    }
    return node;
}


/* The first entry of l whose token bits are not below h32 (l->n if none). */
static uint32_t leaf_lower(const storage__pt_leaf_t *l, uint32_t h32)
{
    uint32_t n = l->n, blocks = 0;
    for (uint32_t j = 7; j < LEAF_CAP; j += 8) {
        blocks += (j < n) & (l->hint[j] < h32);
    }
    uint32_t lo = blocks * 8;
    uint32_t end = lo + 8 < LEAF_CAP ? lo + 8 : LEAF_CAP;
    uint32_t i = lo;
    for (uint32_t j = lo; j < end; j++) {
        i += (j < n) & (l->hint[j] < h32);
    }
    return i;
}


storage__pt_pos_t storage__pt_seek(const storage__ptree_t *t, int64_t token, const uint8_t *pk,
                                   size_t pk_len)
{
    uint64_t u = utoken(token);
    storage__pt_leaf_t *l = descend(t, u, pk == NULL);
    uint32_t h32 = (uint32_t)(u >> 32);
    uint32_t lo = leaf_lower(l, h32);
    storage__pt_pos_t pos = {l, lo};
    for (;;) {
        if (pos.idx == pos.leaf->n) {
            if (pos.leaf->next == NULL) {
                return pos;
            }
            pos = (storage__pt_pos_t){pos.leaf->next, 0};
            continue;
        }
        if (pos.leaf->hint[pos.idx] > h32 ||
            entry_cmp(pos.leaf->item[pos.idx], token, pk, pk_len) >= 0) {
            return pos;
        }
        pos.idx++;
    }
}


const storage__pt_leaf_t *storage__pt_prefetch_leaf(const storage__ptree_t *t, int64_t token)
{
    const storage__pt_leaf_t *l = descend(t, utoken(token), false);
    /* The header and token bits only, 5 of the leaf's 13 lines: the next
     * step's search reads those, and of the 8 lines of pointers after them
     * just one, which it then waits for. Asking for whole leaves, 32 a batch,
     * kept the core's few line-fill buffers full and stalled the prefetches
     * themselves: server CPU per 1 KB select fell 1.74 -> 1.67 us, per
     * insert 1.87 -> 1.70 (three and four runs each, alternating). */
    const char *at = (const char *)l;
    for (size_t off = 0; off < offsetof(storage__pt_leaf_t, item); off += 64) {
        __builtin_prefetch(at + off);
    }
    return l;
}


storage_partition_t **storage__pt_prefetch_item(const storage__ptree_t *t,
                                                const storage__pt_leaf_t *l, int64_t token)
{
    uint64_t u = utoken(token);
    /* The slot is handed out for writing (storage__apply puts a moved
     * partition back in it); the hint only carries the leaf as const. */
    storage__pt_leaf_t *leaf = (storage__pt_leaf_t *)(l != NULL ? l : descend(t, u, false));
    uint32_t i = leaf_lower(leaf, (uint32_t)(u >> 32));
    if (i == leaf->n) {
        return NULL;
    }
    /* The partition's head and key (the rest is storage_prefetch_row's). */
    const char *p = (const char *)leaf->item[i];
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    return &leaf->item[i];
}


storage_partition_t *storage__pt_at(storage__pt_pos_t pos)
{
    return pos.idx < pos.leaf->n ? pos.leaf->item[pos.idx] : NULL;
}


storage_partition_t *storage__pt_at_key(storage__pt_pos_t pos, int64_t token, const uint8_t *pk,
                                        size_t pk_len)
{
    /* The entry's token bits first: a seek for an absent key lands on a
     * neighbour, and reading it was a cache miss per new partition. */
    if (pos.idx >= pos.leaf->n || pos.leaf->hint[pos.idx] != (uint32_t)(utoken(token) >> 32)) {
        return NULL;
    }
    storage_partition_t *p = pos.leaf->item[pos.idx];
    return storage__part_is(p, token, pk, pk_len) ? p : NULL;
}


storage_partition_t **storage__pt_slot(storage__pt_pos_t pos)
{
    BASE_ASSERT(pos.idx < pos.leaf->n);
    return &pos.leaf->item[pos.idx];
}


storage__pt_pos_t storage__pt_first(const storage__ptree_t *t)
{
    storage__pt_pos_t pos = {t->first, 0};
    while (pos.idx == pos.leaf->n && pos.leaf->next != NULL) {
        pos = (storage__pt_pos_t){pos.leaf->next, 0};
    }
    return pos;
}


storage__pt_pos_t storage__pt_next(storage__pt_pos_t pos)
{
    pos.idx++;
    while (pos.idx >= pos.leaf->n && pos.leaf->next != NULL) {
        pos = (storage__pt_pos_t){pos.leaf->next, 0};
    }
    return pos;
}


static uint32_t child_index(const inner_t *in, const void *child)
{
    for (uint32_t i = 0; i <= in->n; i++) {
        if (in->child[i] == child) {
            return i;
        }
    }
    BASE_ASSERT(!"child not under its parent");
    return 0;
}


static void set_parent(void *node, int height, inner_t *parent)
{
    if (height > 0) {
        ((inner_t *)node)->parent = parent;
    } else {
        ((storage__pt_leaf_t *)node)->parent = parent;
    }
}


/* Puts (key, right) after left in left's parent, splitting upwards. */
static void insert_parent(storage__ptree_t *t, void *left, uint64_t key, void *right, int height,
                          inner_t *parent)
{
    if (parent == NULL) {
        inner_t *root = node_new(t, sizeof(*root));
        root->n = 1;
        root->key[0] = key;
        root->child[0] = left;
        root->child[1] = right;
        set_parent(left, height, root);
        set_parent(right, height, root);
        t->root = root;
        t->height = height + 1;
        return;
    }
    uint32_t at = child_index(parent, left);
    if (parent->n < INNER_CAP) {
        memmove(&parent->key[at + 1], &parent->key[at], (parent->n - at) * sizeof(uint64_t));
        memmove(&parent->child[at + 2], &parent->child[at + 1], (parent->n - at) * sizeof(void *));
        parent->key[at] = key;
        parent->child[at + 1] = right;
        parent->n++;
        set_parent(right, height, parent);
        return;
    }
    /* Split a full inner node: gather n + 1 keys and n + 2 children. */
    uint64_t keys[INNER_CAP + 1];
    void *kids[INNER_CAP + 2];
    memcpy(keys, parent->key, at * sizeof(uint64_t));
    keys[at] = key;
    memcpy(&keys[at + 1], &parent->key[at], (parent->n - at) * sizeof(uint64_t));
    memcpy(kids, parent->child, (at + 1) * sizeof(void *));
    kids[at + 1] = right;
    memcpy(&kids[at + 2], &parent->child[at + 1], (parent->n - at) * sizeof(void *));
    uint32_t total = parent->n + 1;
    uint32_t half = total / 2; /* keys[half] moves up */
    inner_t *sib = node_new(t, sizeof(*sib));
    parent->n = half;
    memcpy(parent->key, keys, half * sizeof(uint64_t));
    memcpy(parent->child, kids, (half + 1) * sizeof(void *));
    sib->n = total - half - 1;
    memcpy(sib->key, &keys[half + 1], sib->n * sizeof(uint64_t));
    memcpy(sib->child, &kids[half + 1], (sib->n + 1) * sizeof(void *));
    for (uint32_t i = 0; i <= parent->n; i++) {
        set_parent(parent->child[i], height, parent);
    }
    for (uint32_t i = 0; i <= sib->n; i++) {
        set_parent(sib->child[i], height, sib);
    }
    insert_parent(t, parent, keys[half], sib, height + 1, parent->parent);
}


static void leaf_put(storage__pt_leaf_t *l, uint32_t at, storage_partition_t *p)
{
    memmove(&l->hint[at + 1], &l->hint[at], (l->n - at) * sizeof(uint32_t));
    memmove(&l->item[at + 1], &l->item[at], (l->n - at) * sizeof(void *));
    l->hint[at] = (uint32_t)(utoken(p->token) >> 32);
    l->item[at] = p;
    l->n++;
}


/* Moves the last k entries of l to the front of its next sibling (same
 * parent), updating the separator between them. */
static void shift_right(storage__pt_leaf_t *l, uint32_t k)
{
    storage__pt_leaf_t *r = l->next;
    memmove(&r->hint[k], r->hint, r->n * sizeof(uint32_t));
    memmove(&r->item[k], r->item, r->n * sizeof(void *));
    memcpy(r->hint, &l->hint[l->n - k], k * sizeof(uint32_t));
    memcpy(r->item, &l->item[l->n - k], k * sizeof(void *));
    r->n += k;
    l->n -= k;
    l->parent->key[child_index(l->parent, l)] = utoken(r->item[0]->token);
}


/* Moves the first k entries of l to the end of its previous sibling. */
static void shift_left(storage__pt_leaf_t *l, uint32_t k)
{
    storage__pt_leaf_t *q = l->prev;
    memcpy(&q->hint[q->n], l->hint, k * sizeof(uint32_t));
    memcpy(&q->item[q->n], l->item, k * sizeof(void *));
    q->n += k;
    memmove(l->hint, &l->hint[k], (l->n - k) * sizeof(uint32_t));
    memmove(l->item, &l->item[k], (l->n - k) * sizeof(void *));
    l->n -= k;
    l->parent->key[child_index(l->parent, q)] = utoken(l->item[0]->token);
}


void storage__pt_insert(storage__ptree_t *t, storage__pt_pos_t pos, storage_partition_t *p)
{
    storage__pt_leaf_t *l = pos.leaf;
    uint32_t at = pos.idx;
    /* Never before a leaf's first entry, which its separator names. */
    if (at == 0 && l->prev != NULL) {
        l = l->prev;
        at = l->n;
    }
    t->count++;
    if (l->n < LEAF_CAP) {
        leaf_put(l, at, p);
        return;
    }
    /* Full: hand a quarter of the spare room to a sibling under the same
     * parent, keeping the new entry's place, before splitting. */
    storage__pt_leaf_t *r = l->next;
    if (r != NULL && r->parent == l->parent && r->n < LEAF_CAP - 1 && at < LEAF_CAP) {
        uint32_t k = (LEAF_CAP - r->n + 1) / 2;
        if (k > LEAF_CAP - at) {
            k = LEAF_CAP - at;
        }
        shift_right(l, k);
        leaf_put(l, at, p);
        return;
    }
    storage__pt_leaf_t *q = l->prev;
    if (q != NULL && q->parent == l->parent && q->n < LEAF_CAP - 1 && at > 1) {
        uint32_t k = (LEAF_CAP - q->n + 1) / 2;
        if (k > at - 1) {
            k = at - 1; /* the new entry must not become l's first */
        }
        shift_left(l, k);
        leaf_put(l, at - k, p);
        return;
    }
    storage__pt_leaf_t *s = node_new(t, sizeof(*s));
    uint32_t half = LEAF_CAP / 2;
    s->n = LEAF_CAP - half;
    memcpy(s->hint, &l->hint[half], s->n * sizeof(uint32_t));
    memcpy(s->item, &l->item[half], s->n * sizeof(void *));
    l->n = half;
    s->prev = l;
    s->next = l->next;
    if (l->next != NULL) {
        l->next->prev = s;
    }
    l->next = s;
    if (at <= half) {
        leaf_put(l, at, p);
    } else {
        leaf_put(s, at - half, p);
    }
    insert_parent(t, l, utoken(s->item[0]->token), s, 0, l->parent);
}
