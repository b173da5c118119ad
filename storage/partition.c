/*
 * partition.c - one partition: its rows in clustering order, its static
 * row and its deletions, part of storage/.
 *
 * Two forms (storage_int.h). The compact one is a single allocation of key
 * and row block, what every partition of a table without clustering columns
 * is: no index of rows, no deletion fields. The EXT form keeps rows in a
 * skiplist keyed by clustering bytes (memcmp order), the static row, the
 * partition deletion and range tombstones; a partition is promoted to it
 * when it needs any of them, and stays.
 *
 * A partition deletion and each range tombstone free, when they arrive,
 * everything they shadow, and stay recorded so that an older write landing
 * later is dropped; rows they empty are freed too. Rows are encoded blocks
 * (row.c): a deletion decodes each row it reaches into the table's working
 * row, purges it and encodes what is left. Range tombstones are kept in
 * arrival order; rt_max_ts lets the common write, newer than all of them,
 * skip the scan.
 *
 * Invariants: no stored row is empty (storage__row_is_empty); an EXT
 * partition's bytes = pk_len + the bytes of every row and of the static
 * row; a compact partition's are pk_len + its row's, computed when asked.
 */
#include "storage/storage_int.h"


static int row_cmp(const void *item, const void *key)
{
    const storage_bound_t *k = key;
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return storage__key_cmp(ck, len, k->key, k->len);
}


/* The size p was allocated with. */
static size_t part_size(const storage_partition_t *p)
{
    size_t tail =
        p->form == STORAGE__PART_ROW ? storage__blk_size(p->data + p->pk_len) : sizeof(void *);
    return offsetof(storage_partition_t, data) + p->pk_len + tail;
}


static void part_dealloc(storage_partition_t *p)
{
    storage__slab_free(&p->table->mem, p, part_size(p));
}


static storage_partition_t *part_alloc(storage_table_t *t, int64_t token, const uint8_t *pk,
                                       size_t pk_len, uint8_t form, size_t tail)
{
    BASE_ASSERT(pk_len <= UINT32_MAX);
    storage_partition_t *p =
        storage__slab_alloc(&t->mem, offsetof(storage_partition_t, data) + pk_len + tail);
    p->token = token;
    p->table = t;
    p->pk_len = (uint32_t)pk_len;
    p->form = form;
    if (pk_len > 0) {
        memcpy(p->data, pk, pk_len);
    }
    return p;
}


storage_partition_t *storage__partition_new_row(storage_table_t *t, int64_t token,
                                                const uint8_t *pk, size_t pk_len,
                                                const storage__row_t *r)
{
    size_t n = storage__row_encoded_size(r);
    storage_partition_t *p = part_alloc(t, token, pk, pk_len, STORAGE__PART_ROW, n);
    storage__row_encode_into(r, n, p->data + pk_len);
    return p;
}


storage_partition_t *storage__partition_rewrite_row(storage_partition_t *p, const storage__row_t *r)
{
    BASE_ASSERT(p->form == STORAGE__PART_ROW);
    storage_partition_t *q = storage__partition_new_row(p->table, p->token, p->data, p->pk_len, r);
    part_dealloc(p);
    return q;
}


static storage__pext_t *ext_new(storage_table_t *t, size_t pk_len)
{
    storage__pext_t *x = base_calloc(1, sizeof(*x));
    x->del_ts = STORAGE__NO_DELETION;
    x->rt_max_ts = STORAGE__NO_DELETION;
    x->bytes = pk_len;
    storage__sl_init(&x->rows, row_cmp, storage__table_next_seed(t));
    return x;
}


storage_partition_t *storage__partition_new_ext(storage_table_t *t, int64_t token,
                                                const uint8_t *pk, size_t pk_len)
{
    storage_partition_t *p = part_alloc(t, token, pk, pk_len, STORAGE__PART_EXT, sizeof(void *));
    storage__pext_t *x = ext_new(t, pk_len);
    memcpy(p->data + pk_len, &x, sizeof(x));
    return p;
}


storage_partition_t *storage__partition_promote(storage_partition_t *p)
{
    if (p->form == STORAGE__PART_EXT) {
        return p;
    }
    storage_partition_t *q = storage__partition_new_ext(p->table, p->token, p->data, p->pk_len);
    const uint8_t *row = storage__part_row(p);
    size_t n = storage__blk_size(row);
    uint8_t *blk = storage__slab_alloc(&p->table->mem, n);
    memcpy(blk, row, n);
    storage__partition_add_row(q, blk, storage__blk_bytes(blk));
    part_dealloc(p);
    return q;
}


static void rts_free(storage__pext_t *x)
{
    for (size_t i = 0; i < x->n_rts; i++) {
        base_free(x->rts[i].start);
    }
    base_free(x->rts);
    x->rts = NULL;
    x->n_rts = 0;
    x->cap_rts = 0;
    x->rt_max_ts = STORAGE__NO_DELETION;
}


void storage__partition_free(storage_partition_t *p)
{
    if (p == NULL) {
        return;
    }
    storage__pext_t *x = storage__part_ext(p);
    storage__slab_t *mem = &p->table->mem;
    if (x != NULL) {
        for (storage__sl_node_t *n = storage__sl_first(&x->rows); n != NULL; n = n->next[0]) {
            storage__blk_free(mem, n->item);
        }
        storage__sl_fini(&x->rows, NULL);
        storage__blk_free(mem, x->statics);
        base_free(x->static_view.cells);
        rts_free(x);
        base_free(x);
    }
    part_dealloc(p);
}


static storage__pext_t *ext_of(const storage_partition_t *p)
{
    storage__pext_t *x = storage__part_ext(p);
    BASE_ASSERT(x != NULL);
    return x;
}


bool storage__partition_has_data(const storage_partition_t *p)
{
    storage__pext_t *x = storage__part_ext(p);
    return x == NULL || x->rows.count > 0 || x->statics != NULL;
}


bool storage__partition_has_state(const storage_partition_t *p)
{
    storage__pext_t *x = storage__part_ext(p);
    return x == NULL || storage__partition_has_data(p) || x->del_ts != STORAGE__NO_DELETION ||
           x->n_rts > 0;
}


storage__sl_node_t *storage__partition_find_row(const storage_partition_t *p, const uint8_t *ck,
                                                size_t ck_len)
{
    storage_bound_t key = {.key = ck, .len = ck_len};
    return storage__sl_find(&ext_of(p)->rows, storage__key_hint(ck, ck_len), &key);
}


void storage__partition_add_row(storage_partition_t *p, uint8_t *blk, size_t bytes)
{
    size_t len;
    const uint8_t *ck = storage__blk_ck(blk, &len);
    storage_bound_t key = {.key = ck, .len = len};
    storage__pext_t *x = ext_of(p);
    storage__sl_insert(&x->rows, blk, storage__key_hint(ck, len), &key);
    x->bytes += bytes;
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
    storage__pext_t *x = storage__part_ext(p);
    if (x == NULL) {
        return STORAGE__NO_DELETION;
    }
    int64_t ts = x->del_ts;
    if (x->rt_max_ts <= ts) {
        return ts;
    }
    for (size_t i = 0; i < x->n_rts; i++) {
        const storage__rt_t *rt = &x->rts[i];
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
    storage__pext_t *x = ext_of(p);
    storage__row_t *r = &p->table->work;
    uint8_t *old = n->item;
    storage__row_decode(old, r);
    x->bytes -= r->bytes;
    storage__row_purge(r, ts);
    if (storage__row_is_empty(r)) {
        storage_bound_t key = {.key = r->ck, .len = r->ck_len};
        storage__sl_remove(&x->rows, storage__key_hint(r->ck, r->ck_len), &key);
    } else {
        n->item = storage__row_encode_in(&p->table->mem, r);
        x->bytes += r->bytes;
    }
    storage__blk_free(&p->table->mem, old);
    return next;
}


/* The static row's purge: dropped when nothing is left of it. */
static void purge_static(storage_partition_t *p, int64_t ts)
{
    storage__pext_t *x = ext_of(p);
    storage__row_t *r = &p->table->work;
    uint8_t *old = x->statics;
    storage__row_decode(old, r);
    x->bytes -= r->bytes;
    storage__row_purge(r, ts);
    if (storage__row_is_empty(r)) {
        x->statics = NULL;
    } else {
        x->statics = storage__row_encode_in(&p->table->mem, r);
        x->bytes += r->bytes;
    }
    storage__blk_free(&p->table->mem, old);
}


void storage__partition_delete(storage_partition_t *p, int64_t ts)
{
    storage__pext_t *x = ext_of(p);
    if (ts <= x->del_ts) {
        return;
    }
    x->del_ts = ts;

    storage__sl_node_t *n = storage__sl_first(&x->rows);
    while (n != NULL) {
        n = purge_row(p, n, ts);
    }
    if (x->statics != NULL) {
        purge_static(p, ts);
    }

    /* Range tombstones at or below ts say nothing the partition's doesn't. */
    if (x->rt_max_ts <= ts) {
        rts_free(x);
        return;
    }
    size_t w = 0;
    for (size_t i = 0; i < x->n_rts; i++) {
        if (x->rts[i].ts <= ts) {
            base_free(x->rts[i].start);
        } else {
            x->rts[w++] = x->rts[i];
        }
    }
    x->n_rts = w;
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
    storage__pext_t *x = ext_of(p);
    storage__sl_node_t *n = storage__sl_last_where(&x->rows, before_start, start);
    return n != NULL ? n->next[0] : storage__sl_first(&x->rows);
}


static void add_rt(storage__pext_t *p, const storage_bound_t *start, const storage_bound_t *end,
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
    if (ts <= ext_of(p)->del_ts) {
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
    add_rt(ext_of(p), start, end, ts);
}


/* ---- public accessors --------------------------------------------------- */

const uint8_t *storage_partition_key(const storage_partition_t *p, size_t *len)
{
    *len = p->pk_len;
    return p->data;
}


int64_t storage_partition_token(const storage_partition_t *p)
{
    return p->token;
}


size_t storage_partition_bytes(const storage_partition_t *p)
{
    storage__pext_t *x = storage__part_ext(p);
    return x != NULL ? x->bytes : p->pk_len + storage__blk_bytes(storage__part_row(p));
}


bool storage_partition_static(storage_partition_t *p, int64_t now_us, storage_row_view_t *out)
{
    storage__pext_t *x = storage__part_ext(p);
    if (x == NULL || x->statics == NULL) {
        return false;
    }
    storage__row_view(x->statics, &x->static_view, now_us, out);
    out->is_static = true;
    out->ck = NULL;
    out->ck_len = 0;
    return out->n_cells > 0;
}
