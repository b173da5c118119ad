/*
 * table.c - a table's partitions, part of storage/.
 *
 * Two indexes over the same partitions: an open-addressing hash table on
 * (token, pk) for the point lookups every write and most reads make, and a
 * skiplist in (token, pk) order for scans and token-range paging. A
 * partition is only ever freed with the whole table (truncate, drop), so
 * the hash table needs no deletion tombstones and partition pointers stay
 * valid across writes; one whose data was all deleted stays as a tombstone
 * (invisible to readers) so older writes landing later are still dropped.
 *
 * Invariants: n_slots is a power of two and at most half full; n_visible
 * and bytes count the partitions with data (storage__partition_has_data).
 */
#include "storage/storage_int.h"

#define MIN_SLOTS 16


typedef struct part_key_s {
    int64_t token;
    const uint8_t *pk;
    size_t pk_len;
} part_key_t;


static int part_cmp(const void *item, const void *key)
{
    const storage_partition_t *p = item;
    const part_key_t *k = key;
    if (p->token != k->token) {
        return p->token < k->token ? -1 : 1;
    }
    return storage__key_cmp(p->pk, p->pk_len, k->pk, k->pk_len);
}


static void part_free_item(void *item)
{
    storage__partition_free(item);
}


uint64_t storage__table_hash(int64_t token, const uint8_t *pk, size_t pk_len)
{
    /* The token is already a hash of pk, but callers may pass any token, so
     * the key bytes are mixed in too (FNV-1a, then a splitmix64 finish). */
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < pk_len; i++) {
        h = (h ^ pk[i]) * UINT64_C(0x100000001b3);
    }
    h ^= (uint64_t)token;
    h ^= h >> 30;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 27;
    h *= UINT64_C(0x94d049bb133111eb);
    h ^= h >> 31;
    return h;
}


uint64_t storage__table_next_seed(storage_table_t *t)
{
    t->seed += UINT64_C(0x9e3779b97f4a7c15);
    uint64_t z = t->seed;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}


static void index_init(storage_table_t *t)
{
    t->n_slots = MIN_SLOTS;
    t->slots = base_calloc(t->n_slots, sizeof(storage_partition_t *));
    t->n_parts = 0;
    t->n_visible = 0;
    t->bytes = 0;
    storage__sl_init(&t->order, part_cmp, storage__table_next_seed(t));
}


static void index_fini(storage_table_t *t)
{
    storage__sl_fini(&t->order, part_free_item);
    base_free(t->slots);
    t->slots = NULL;
}


static void deferred_free_all(storage_table_t *t)
{
    for (size_t i = 0; i < t->n_deferred; i++) {
        base_free(t->deferred[i]);
    }
    t->n_deferred = 0;
}


storage_table_t *storage__table_new(storage_db_t *db, uint64_t id)
{
    storage_table_t *t = base_calloc(1, sizeof(*t));
    t->db = db;
    t->id = id;
    t->n_physical = 1;
    t->seed = id;
    index_init(t);
    return t;
}


void storage__table_free(storage_table_t *t)
{
    if (t == NULL) {
        return;
    }
    index_fini(t);
    deferred_free_all(t);
    base_free(t->deferred);
    storage__row_fini(&t->work);
    base_free(t);
}


void storage_table_truncate(storage_table_t *t)
{
    if (t->db->dur != NULL) {
        storage__log_table(t->db, STORAGE__REC_TRUNCATE, t->id, 0);
    }
    storage__table_truncate(t);
}


void storage__table_truncate(storage_table_t *t)
{
    index_fini(t);
    deferred_free_all(t);
    t->epoch++;
    t->part_epoch++;
    index_init(t);
}


storage_partition_t *storage__table_lookup(const storage_table_t *t, int64_t token,
                                           const uint8_t *pk, size_t pk_len, uint64_t hash)
{
    size_t mask = t->n_slots - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        storage_partition_t *p = t->slots[i];
        if (p == NULL) {
            return NULL;
        }
        if (p->hash == hash && p->token == token && p->pk_len == pk_len &&
            (pk_len == 0 || memcmp(p->pk, pk, pk_len) == 0)) {
            return p;
        }
    }
}


static void slot_put(storage_partition_t **slots, size_t n_slots, storage_partition_t *p)
{
    size_t mask = n_slots - 1;
    size_t i = (size_t)p->hash & mask;
    while (slots[i] != NULL) {
        i = (i + 1) & mask;
    }
    slots[i] = p;
}


void storage__table_add(storage_table_t *t, storage_partition_t *p)
{
    if ((t->n_parts + 1) * 2 > t->n_slots) {
        size_t n_slots = t->n_slots * 2;
        storage_partition_t **slots = base_calloc(n_slots, sizeof(*slots));
        for (size_t i = 0; i < t->n_slots; i++) {
            if (t->slots[i] != NULL) {
                slot_put(slots, n_slots, t->slots[i]);
            }
        }
        base_free(t->slots);
        t->slots = slots;
        t->n_slots = n_slots;
    }
    slot_put(t->slots, t->n_slots, p);
    t->n_parts++;

    /* Tokens in unsigned order: the hint decides unless tokens are equal. */
    part_key_t key = {p->token, p->pk, p->pk_len};
    storage__sl_insert(&t->order, p, (uint64_t)p->token ^ (UINT64_C(1) << 63), &key);
}


void storage__table_defer_free(storage_table_t *t, void *p)
{
    if (t->n_deferred == t->cap_deferred) {
        t->cap_deferred = t->cap_deferred ? t->cap_deferred * 2 : 8;
        t->deferred = base_realloc(t->deferred, t->cap_deferred * sizeof(void *));
    }
    t->deferred[t->n_deferred++] = p;
}


void storage__table_begin_write(storage_table_t *t)
{
    deferred_free_all(t);
}


storage_partition_t *storage_partition_get(storage_table_t *t, int64_t token, const uint8_t *pk,
                                           size_t pk_len)
{
    uint64_t hash = storage__table_hash(token, pk, pk_len);
    storage_partition_t *p = storage__table_lookup(t, token, pk, pk_len, hash);
    return p != NULL && storage__partition_has_data(p) ? p : NULL;
}


size_t storage_table_partition_count(const storage_table_t *t)
{
    return t->n_visible;
}


size_t storage_table_bytes(const storage_table_t *t)
{
    return t->bytes;
}
