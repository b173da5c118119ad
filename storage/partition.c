/*
 * partition.c - one partition: its rows in clustering order, its static
 * row and its deletions, part of storage/.
 *
 * Rows live in a skiplist keyed by clustering bytes (memcmp order). A
 * partition deletion and each range tombstone free, when they arrive,
 * everything they shadow, and stay recorded so that an older write landing
 * later is dropped; rows they empty are freed too (bumping the table's
 * epoch, since cursors may point at them). Range tombstones are kept in
 * arrival order; rt_max_ts lets the common write, newer than all of them,
 * skip the scan.
 *
 * Rows are encoded blocks (row.c): a deletion decodes each row it reaches
 * into the table's working row, purges it and encodes what is left.
 *
 * Invariants: no row in the skiplist is empty (storage__row_is_empty);
 * bytes = pk_len + the bytes of every row and of the static row.
 */
#include "storage/storage_int.h"


static int row_cmp(const void *item, const void *key)
{
    const storage_bound_t *k = key;
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return storage__key_cmp(ck, len, k->key, k->len);
}


static void row_free_item(void *item)
{
    base_free(item);
}


storage_partition_t *storage__partition_new(storage_table_t *t, int64_t token, const uint8_t *pk,
                                            size_t pk_len, uint64_t hash)
{
    storage_partition_t *p = base_calloc(1, sizeof(*p));
    p->table = t;
    if (pk_len > 0) {
        p->pk = base_malloc(pk_len);
        memcpy(p->pk, pk, pk_len);
    }
    p->pk_len = pk_len;
    p->token = token;
    p->hash = hash;
    p->del_ts = STORAGE__NO_DELETION;
    p->rt_max_ts = STORAGE__NO_DELETION;
    p->bytes = pk_len;
    storage__sl_init(&p->rows, row_cmp, storage__table_next_seed(t));
    return p;
}


static void rts_free(storage_partition_t *p)
{
    for (size_t i = 0; i < p->n_rts; i++) {
        base_free(p->rts[i].start);
    }
    base_free(p->rts);
    p->rts = NULL;
    p->n_rts = 0;
    p->cap_rts = 0;
    p->rt_max_ts = STORAGE__NO_DELETION;
}


void storage__partition_free(storage_partition_t *p)
{
    if (p == NULL) {
        return;
    }
    storage__sl_fini(&p->rows, row_free_item);
    base_free(p->statics);
    base_free(p->static_view.cells);
    rts_free(p);
    base_free(p->pk);
    base_free(p);
}


bool storage__partition_has_data(const storage_partition_t *p)
{
    return p->rows.count > 0 || p->statics != NULL;
}


bool storage__partition_has_state(const storage_partition_t *p)
{
    return storage__partition_has_data(p) || p->del_ts != STORAGE__NO_DELETION || p->n_rts > 0;
}


storage__sl_node_t *storage__partition_find_row(const storage_partition_t *p, const uint8_t *ck,
                                                size_t ck_len)
{
    storage_bound_t key = {.key = ck, .len = ck_len};
    return storage__sl_find(&p->rows, storage__key_hint(ck, ck_len), &key);
}


void storage__partition_add_row(storage_partition_t *p, uint8_t *blk, size_t bytes)
{
    size_t len;
    const uint8_t *ck = storage__blk_ck(blk, &len);
    storage_bound_t key = {.key = ck, .len = len};
    storage__sl_insert(&p->rows, blk, storage__key_hint(ck, len), &key);
    p->bytes += bytes;
}


static bool rt_covers(const storage__rt_t *rt, const uint8_t *ck, size_t ck_len)
{
    storage_bound_t start = {rt->start, rt->start_len, rt->start_inclusive};
    storage_bound_t end = {rt->end, rt->end_len, rt->end_inclusive};
    return storage__bound_after_start(ck, ck_len, &start) &&
           storage__bound_before_end(ck, ck_len, &end);
}


int64_t storage__partition_row_shadow(const storage_partition_t *p, const uint8_t *ck,
                                      size_t ck_len)
{
    int64_t ts = p->del_ts;
    if (p->rt_max_ts <= ts) {
        return ts;
    }
    for (size_t i = 0; i < p->n_rts; i++) {
        const storage__rt_t *rt = &p->rts[i];
        if (rt->ts > ts && rt_covers(rt, ck, ck_len)) {
            ts = rt->ts;
        }
    }
    return ts;
}


/* Purges one row at ts; frees and unlinks it if nothing is left. Returns
 * the node after it. */
static storage__sl_node_t *purge_row(storage_partition_t *p, storage__sl_node_t *n, int64_t ts)
{
    storage__sl_node_t *next = n->next[0];
    storage__row_t *r = &p->table->work;
    uint8_t *old = n->item;
    storage__row_decode(old, r);
    p->bytes -= r->bytes;
    storage__row_purge(r, ts);
    if (storage__row_is_empty(r)) {
        storage_bound_t key = {.key = r->ck, .len = r->ck_len};
        storage__sl_remove(&p->rows, storage__key_hint(r->ck, r->ck_len), &key);
        p->table->epoch++;
    } else {
        n->item = storage__row_encode(r);
        p->bytes += r->bytes;
    }
    base_free(old);
    return next;
}


/* The static row's purge: dropped when nothing is left of it. */
static void purge_static(storage_partition_t *p, int64_t ts)
{
    storage__row_t *r = &p->table->work;
    uint8_t *old = p->statics;
    storage__row_decode(old, r);
    p->bytes -= r->bytes;
    storage__row_purge(r, ts);
    if (storage__row_is_empty(r)) {
        p->statics = NULL;
    } else {
        p->statics = storage__row_encode(r);
        p->bytes += r->bytes;
    }
    base_free(old);
}


void storage__partition_delete(storage_partition_t *p, int64_t ts)
{
    if (ts <= p->del_ts) {
        return;
    }
    p->del_ts = ts;

    storage__sl_node_t *n = storage__sl_first(&p->rows);
    while (n != NULL) {
        n = purge_row(p, n, ts);
    }
    if (p->statics != NULL) {
        purge_static(p, ts);
    }

    /* Range tombstones at or below ts say nothing the partition's doesn't. */
    if (p->rt_max_ts <= ts) {
        rts_free(p);
        return;
    }
    size_t w = 0;
    for (size_t i = 0; i < p->n_rts; i++) {
        if (p->rts[i].ts <= ts) {
            base_free(p->rts[i].start);
        } else {
            p->rts[w++] = p->rts[i];
        }
    }
    p->n_rts = w;
}


static bool before_start(const void *item, const void *ctx)
{
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return !storage__bound_after_start(ck, len, ctx);
}


storage__sl_node_t *storage__partition_seek(const storage_partition_t *p,
                                            const storage_bound_t *start)
{
    storage__sl_node_t *n = storage__sl_last_where(&p->rows, before_start, start);
    return n != NULL ? n->next[0] : storage__sl_first(&p->rows);
}


static void add_rt(storage_partition_t *p, const storage_bound_t *start, const storage_bound_t *end,
                   int64_t ts)
{
    size_t start_len = start != NULL ? start->len : 0;
    size_t end_len = end != NULL ? end->len : 0;
    bool start_inclusive = start_len > 0 && start->inclusive;
    bool end_inclusive = end_len > 0 && end->inclusive;

    /* The same range deleted again: keep one, at the newer timestamp. */
    for (size_t i = 0; i < p->n_rts; i++) {
        storage__rt_t *rt = &p->rts[i];
        if (rt->start_len == start_len && rt->end_len == end_len &&
            rt->start_inclusive == start_inclusive && rt->end_inclusive == end_inclusive &&
            (start_len == 0 || memcmp(rt->start, start->key, start_len) == 0) &&
            (end_len == 0 || memcmp(rt->end, end->key, end_len) == 0)) {
            rt->ts = rt->ts > ts ? rt->ts : ts;
            p->rt_max_ts = p->rt_max_ts > ts ? p->rt_max_ts : ts;
            return;
        }
    }

    if (p->n_rts == p->cap_rts) {
        p->cap_rts = p->cap_rts ? p->cap_rts * 2 : 2;
        p->rts = base_realloc(p->rts, p->cap_rts * sizeof(storage__rt_t));
    }
    storage__rt_t *rt = &p->rts[p->n_rts++];
    uint8_t *buf = base_malloc(start_len + end_len);
    if (start_len > 0) {
        memcpy(buf, start->key, start_len);
    }
    if (end_len > 0) {
        memcpy(buf + start_len, end->key, end_len);
    }
    *rt = (storage__rt_t){
        .start = buf,
        .start_len = start_len,
        .start_inclusive = start_inclusive,
        .end = buf + start_len,
        .end_len = end_len,
        .end_inclusive = end_inclusive,
        .ts = ts,
    };
    p->rt_max_ts = p->rt_max_ts > ts ? p->rt_max_ts : ts;
}


void storage__partition_delete_range(storage_partition_t *p, const storage_bound_t *start,
                                     const storage_bound_t *end, int64_t ts)
{
    if (ts <= p->del_ts) {
        return;
    }
    storage__sl_node_t *n = storage__partition_seek(p, start);
    while (n != NULL) {
        size_t len;
        const uint8_t *ck = storage__blk_ck(n->item, &len);
        if (!storage__bound_before_end(ck, len, end)) {
            break;
        }
        n = purge_row(p, n, ts);
    }
    add_rt(p, start, end, ts);
}


/* ---- public accessors --------------------------------------------------- */

const uint8_t *storage_partition_key(const storage_partition_t *p, size_t *len)
{
    *len = p->pk_len;
    return p->pk;
}


int64_t storage_partition_token(const storage_partition_t *p)
{
    return p->token;
}


size_t storage_partition_bytes(const storage_partition_t *p)
{
    return p->bytes;
}


bool storage_partition_static(storage_partition_t *p, int64_t now_us, storage_row_view_t *out)
{
    if (p->statics == NULL) {
        return false;
    }
    storage__row_view(p->statics, &p->static_view, now_us, out);
    out->is_static = true;
    out->ck = NULL;
    out->ck_len = 0;
    return out->n_cells > 0;
}
