/*
 * iter.c - read cursors, part of storage/: rows of one partition within a
 * clustering range (either direction), and partitions of a table in (token,
 * key) order from a resume point.
 *
 * A row cursor seeks with the monotone bound predicates (see bound.c) and
 * then walks the skiplist's level-0 links, stopping at the far bound. Rows
 * that are not live as of the cursor's now are skipped and counted, with
 * every dead cell passed over, for tombstone guard-rails. Both cursors seek
 * on their first call and remember the last node they looked at, not the
 * next, so rows or partitions added after a cursor's position are seen.
 *
 * Cursors hold node pointers: a write that frees rows bumps the table's
 * epoch (truncate also bumps part_epoch), and a cursor used across one
 * asserts instead of reading freed memory. Writes that only add or
 * overwrite data are safe for cursors, and a partition cursor survives all
 * but truncate (row views never survive a write).
 */
#include "storage/storage_int.h"


struct storage_row_iter_s {
    storage_table_t *t; /* outlives p: truncate frees p but bumps t's epoch */
    storage_partition_t *p;
    uint64_t epoch;
    storage__sl_node_t *pos; /* last row looked at, NULL before the seek */
    bool done;
    storage_bound_t start; /* bytes owned by this allocation */
    storage_bound_t end;
    bool reverse;
    int64_t now_us;
    size_t tombstones;
    storage__cellbuf_t view; /* the cells of the last view */
};

struct storage_part_iter_s {
    storage_table_t *t;
    uint64_t epoch;
    storage__sl_node_t *pos; /* last partition looked at, NULL before the seek */
    bool done;
    bool has_after_token;
    int64_t after_token;
    uint8_t *after_pk; /* owned copy, NULL when not resuming after a key */
    size_t after_pk_len;
};


static bool not_after_end(const void *item, const void *ctx)
{
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return storage__bound_before_end(ck, len, ctx);
}


static void copy_bound(storage_bound_t *dst, const storage_bound_t *src, uint8_t *buf)
{
    if (src == NULL || src->len == 0) {
        *dst = (storage_bound_t){NULL, 0, false};
        return;
    }
    memcpy(buf, src->key, src->len);
    *dst = (storage_bound_t){buf, src->len, src->inclusive};
}


storage_row_iter_t *storage_row_iter_new(storage_partition_t *p, const storage_bound_t *start,
                                         const storage_bound_t *end, bool reverse, int64_t now_us)
{
    size_t start_len = start != NULL ? start->len : 0;
    size_t end_len = end != NULL ? end->len : 0;
    storage_row_iter_t *it = base_malloc(sizeof(*it) + start_len + end_len);
    uint8_t *buf = (uint8_t *)(it + 1);
    copy_bound(&it->start, start, buf);
    copy_bound(&it->end, end, buf + start_len);
    it->t = p->table;
    it->p = p;
    it->epoch = p->table->epoch;
    it->pos = NULL;
    it->done = false;
    it->reverse = reverse;
    it->now_us = now_us;
    it->tombstones = 0;
    it->view = (storage__cellbuf_t){NULL, 0};
    return it;
}


static storage__sl_node_t *row_seek(const storage_row_iter_t *it)
{
    if (it->reverse) {
        return storage__sl_last_where(&it->p->rows, not_after_end, &it->end);
    }
    return storage__partition_seek(it->p, &it->start);
}


bool storage_row_iter_next(storage_row_iter_t *it, storage_row_view_t *out)
{
    BASE_ASSERT(it->epoch == it->t->epoch);
    if (it->done) {
        return false;
    }
    storage__sl_node_t *n = it->pos == NULL ? row_seek(it)
                            : it->reverse   ? it->pos->prev
                                            : it->pos->next[0];
    for (; n != NULL; n = it->reverse ? n->prev : n->next[0]) {
        size_t len;
        const uint8_t *ck = storage__blk_ck(n->item, &len);
        bool inside = it->reverse ? storage__bound_after_start(ck, len, &it->start)
                                  : storage__bound_before_end(ck, len, &it->end);
        if (!inside) {
            break;
        }
        it->pos = n;
        it->tombstones += storage__row_view(n->item, &it->view, it->now_us, out);
        if (out->has_marker || out->n_cells > 0) {
            return true;
        }
        it->tombstones++;
    }
    it->done = true;
    return false;
}


size_t storage_row_iter_tombstones(const storage_row_iter_t *it)
{
    return it->tombstones;
}


void storage_row_iter_free(storage_row_iter_t *it)
{
    if (it != NULL) {
        base_free(it->view.cells);
    }
    base_free(it);
}


/* ---- partitions ---------------------------------------------------------- */

typedef struct resume_s {
    int64_t token;
    const uint8_t *pk; /* NULL: resume after every key of token */
    size_t pk_len;
} resume_t;


static bool at_or_before_resume(const void *item, const void *ctx)
{
    const storage_partition_t *p = item;
    const resume_t *at = ctx;
    if (p->token != at->token) {
        return p->token < at->token;
    }
    return at->pk == NULL || storage__key_cmp(p->pk, p->pk_len, at->pk, at->pk_len) <= 0;
}


storage_part_iter_t *storage_part_iter_new(storage_table_t *t, bool has_after_token,
                                           int64_t after_token, const uint8_t *after_pk,
                                           size_t after_pk_len)
{
    storage_part_iter_t *it = base_calloc(1, sizeof(*it));
    it->t = t;
    it->epoch = t->part_epoch;
    it->has_after_token = has_after_token || after_pk != NULL;
    it->after_token = after_token;
    if (after_pk != NULL) {
        /* Never NULL when resuming after a key, even an empty one. */
        it->after_pk = base_malloc(after_pk_len + 1);
        memcpy(it->after_pk, after_pk, after_pk_len);
        it->after_pk_len = after_pk_len;
    }
    return it;
}


static storage__sl_node_t *part_seek(const storage_part_iter_t *it)
{
    if (!it->has_after_token) {
        return storage__sl_first(&it->t->order);
    }
    resume_t at = {it->after_token, it->after_pk, it->after_pk_len};
    storage__sl_node_t *n = storage__sl_last_where(&it->t->order, at_or_before_resume, &at);
    return n != NULL ? n->next[0] : storage__sl_first(&it->t->order);
}


storage_partition_t *storage_part_iter_next(storage_part_iter_t *it)
{
    BASE_ASSERT(it->epoch == it->t->part_epoch);
    if (it->done) {
        return NULL;
    }
    storage__sl_node_t *n = it->pos == NULL ? part_seek(it) : it->pos->next[0];
    for (; n != NULL; n = n->next[0]) {
        it->pos = n;
        storage_partition_t *p = n->item;
        if (storage__partition_has_data(p)) {
            return p;
        }
    }
    it->done = true;
    return NULL;
}


void storage_part_iter_free(storage_part_iter_t *it)
{
    if (it != NULL) {
        base_free(it->after_pk);
    }
    base_free(it);
}
