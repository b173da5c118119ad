/*
 * table.c - a table's partitions, part of storage/.
 *
 * One index over the partitions: a B+tree in (token, pk) order (ptree.c)
 * serving the point lookups every write and most reads make as well as
 * scans and token-range paging. A partition is only ever freed with the
 * whole table (truncate, drop), so the index has no deletion; one whose
 * data was all deleted stays as a tombstone (invisible to readers) so older
 * writes landing later are still dropped.
 *
 * Invariants: n_visible and bytes count the partitions with data
 * (storage__partition_has_data); version changes with every write.
 */
#include "storage/storage_int.h"


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
    storage__slab_init(&t->mem, t->db->reserve);
    storage__pt_init(&t->parts, &t->mem);
    t->n_visible = 0;
    t->bytes = 0;
}


static void index_fini(storage_table_t *t)
{
    storage__pt_fini(&t->parts, storage__partition_free);
    storage__slab_fini(&t->mem);
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
    storage__row_fini(&t->work);
    storage__row_iter_spare_free(t);
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
    t->version++;
    t->shape++;
    t->seek_valid = false;
    index_init(t);
}


storage__pt_pos_t storage__table_seek(storage_table_t *t, int64_t token, const uint8_t *pk,
                                      size_t pk_len)
{
    if (t->seek_valid && t->seek_version == t->version && t->seek_token == token &&
        t->seek_pk_len == pk_len && (pk_len == 0 || memcmp(t->seek_pk, pk, pk_len) == 0)) {
        return t->seek_pos;
    }
    storage__pt_pos_t pos = storage__pt_seek(&t->parts, token, pk, pk_len);
    t->seek_valid = pk_len <= STORAGE__SEEK_PK_MAX;
    if (t->seek_valid) {
        t->seek_version = t->version;
        t->seek_token = token;
        t->seek_pk_len = (uint32_t)pk_len;
        if (pk_len > 0) {
            memcpy(t->seek_pk, pk, pk_len);
        }
        t->seek_pos = pos;
    }
    return pos;
}


void storage_prefetch_index(const storage_table_t *t, int64_t token, storage_hint_t *h)
{
    h->leaf = storage__pt_prefetch_leaf(&t->parts, token);
    h->part = NULL;
}


void storage_prefetch_partition(storage_table_t *t, int64_t token, storage_hint_t *h)
{
    storage_partition_t **slot = storage__pt_prefetch_item(&t->parts, h->leaf, token);
    h->part = slot != NULL ? *slot : NULL;
    /* not read now (it is on its way): storage__table_found checks it */
    struct storage__found_s *f = &t->found[(uint64_t)token % STORAGE__FOUND_SLOTS];
    f->token = token;
    f->shape = t->shape;
    f->slot = slot;
}


storage_partition_t **storage__table_found(const storage_table_t *t, int64_t token,
                                           const uint8_t *pk, size_t pk_len)
{
    const struct storage__found_s *f = &t->found[(uint64_t)token % STORAGE__FOUND_SLOTS];
    if (f->slot == NULL || f->shape != t->shape || f->token != token ||
        !storage__part_is(*f->slot, token, pk, pk_len)) {
        return NULL;
    }
    return f->slot;
}


void storage_prefetch_row(int64_t token, const storage_hint_t *h)
{
    const storage_partition_t *p = h->part;
    const uint8_t *row = p != NULL && p->token == token ? storage__part_row(p) : NULL;
    if (row == NULL) {
        return;
    }
    size_t n = storage__blk_size(row); /* its length prefix: no walk over its cells */
    n = n < 4096 ? n : 4096;
    /* the head's two lines were asked for already (storage__pt_prefetch_item) */
    const char *at = (const char *)p;
    for (size_t off = 128; off < (size_t)(row - (const uint8_t *)p) + n; off += 64) {
        __builtin_prefetch(at + off);
    }
}


storage_partition_t *storage__table_lookup(storage_table_t *t, int64_t token, const uint8_t *pk,
                                           size_t pk_len)
{
    return storage__pt_at_key(storage__table_seek(t, token, pk, pk_len), token, pk, pk_len);
}


storage_partition_t *storage_partition_get(storage_table_t *t, int64_t token, const uint8_t *pk,
                                           size_t pk_len)
{
    storage_partition_t **slot = storage__table_found(t, token, pk, pk_len);
    storage_partition_t *p = slot != NULL ? *slot : storage__table_lookup(t, token, pk, pk_len);
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


size_t storage_table_memory(const storage_table_t *t)
{
    return t->mem.used; /* partitions, rows and the index's nodes */
}
