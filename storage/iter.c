/*
 * iter.c - read cursors, part of storage/: rows of one partition within a
 * clustering range (either direction), and partitions of a table in (token,
 * key) order from a resume point.
 *
 * A row cursor seeks with the monotone bound predicates (see bound.c) and
 * then walks the skiplist's level-0 links (a compact partition has its one
 * row), stopping at the far bound. Rows that are not live as of the
 * cursor's now are skipped and counted, with every dead cell passed over,
 * for tombstone guard-rails. Live cells are decoded into the cursor's own
 * buffer, which the view handed out points into.
 *
 * Both cursors remember the key of the last row or partition they looked
 * at, not a pointer to the next: while the table is unchanged (its version)
 * they step from their node; after any write, which may move or free
 * partitions and rows, they find the partition again by key and resume
 * strictly after that key. So a cursor sees rows or partitions added after
 * its position, survives deletions, and ends after a truncate.
 *
 * A point read opens and frees one row cursor per partition it reads, so a
 * freed cursor is kept as its table's spare (one per table) with its
 * buffers, and the next one is made from it without touching malloc: at a
 * 1 KB SELECT per request, three allocations and frees were 6% of the
 * server's time. The spare is freed with the table.
 */
#include "storage/storage_int.h"


/* A growable copy of the last key looked at. */
typedef struct last_key_s {
    uint8_t *bytes;
    size_t len;
    size_t cap;
    bool set;
} last_key_t;

struct storage_row_iter_s {
    storage_table_t *t;
    storage_partition_t *p; /* valid while version == t->version */
    uint64_t version;
    int64_t token;
    const uint8_t *pk; /* in buf, as the bounds' bytes */
    size_t pk_len;
    uint8_t *buf; /* owned: the bounds' and pk's bytes */
    size_t buf_cap;
    storage_bound_t start;
    storage_bound_t end;
    bool reverse;
    bool done;
    int64_t now_us;
    size_t tombstones;
    storage__sl_node_t *pos; /* EXT: the last row looked at, while version holds */
    last_key_t last;         /* its clustering key */
    storage__cellbuf_t view; /* the cells of the last view */
};

struct storage_part_iter_s {
    storage_table_t *t;
    uint64_t version;
    storage__pt_pos_t pos; /* the last partition looked at, while version holds */
    bool started;
    bool done;
    bool has_after; /* resume after (after_token, after) or after the whole token */
    int64_t after_token;
    last_key_t after; /* not set: after every key of after_token */
};


static void remember(last_key_t *k, const uint8_t *bytes, size_t len)
{
    if (len > k->cap) {
        k->cap = len > 2 * k->cap ? len : 2 * k->cap;
        k->bytes = base_realloc(k->bytes, k->cap);
    }
    if (len > 0) {
        memcpy(k->bytes, bytes, len);
    }
    k->len = len;
    k->set = true;
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
    size_t need = start_len + end_len + p->pk_len;
    storage_row_iter_t *it = p->table->spare_iter;
    if (it != NULL) {
        /* Keep the buffers, forget the rest. */
        storage_row_iter_t keep = *it;
        memset(it, 0, sizeof(*it));
        it->buf = keep.buf;
        it->buf_cap = keep.buf_cap;
        it->view = keep.view;
        it->last = (last_key_t){keep.last.bytes, 0, keep.last.cap, false};
        p->table->spare_iter = NULL;
    } else {
        it = base_calloc(1, sizeof(*it));
    }
    if (need > it->buf_cap) {
        base_free(it->buf);
        it->buf = base_malloc(need);
        it->buf_cap = need;
    }
    copy_bound(&it->start, start, it->buf);
    copy_bound(&it->end, end, it->buf + start_len);
    if (p->pk_len > 0) {
        memcpy(it->buf + start_len + end_len, p->data, p->pk_len);
    }
    it->pk = it->buf + start_len + end_len;
    it->pk_len = p->pk_len;
    it->token = p->token;
    it->t = p->table;
    it->p = p;
    it->version = p->table->version;
    it->reverse = reverse;
    it->now_us = now_us;
    return it;
}


static bool not_after_end(const void *item, const void *ctx)
{
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return storage__bound_before_end(ck, len, ctx);
}


static bool at_or_before_last(const void *item, const void *ctx)
{
    const last_key_t *k = ctx;
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return storage__key_cmp(ck, len, k->bytes, k->len) <= 0;
}


static bool before_last(const void *item, const void *ctx)
{
    const last_key_t *k = ctx;
    size_t len;
    const uint8_t *ck = storage__blk_ck(item, &len);
    return storage__key_cmp(ck, len, k->bytes, k->len) < 0;
}


/* Where an EXT partition's walk (re)starts: the bound, or just past the
 * last key looked at. */
static storage__sl_node_t *row_seek(const storage_row_iter_t *it)
{
    const storage__sl_t *rows = &storage__part_ext(it->p)->rows;
    if (it->last.set) {
        if (it->reverse) {
            return storage__sl_last_where(rows, before_last, &it->last);
        }
        storage__sl_node_t *n = storage__sl_last_where(rows, at_or_before_last, &it->last);
        return n != NULL ? n->next[0] : storage__sl_first(rows);
    }
    if (it->reverse) {
        return storage__sl_last_where(rows, not_after_end, &it->end);
    }
    return storage__partition_seek(it->p, &it->start);
}


/* Whether the row ck is still to be looked at, in range. */
static bool inside(const storage_row_iter_t *it, const uint8_t *ck, size_t len, bool check_both)
{
    if (it->last.set) {
        int c = storage__key_cmp(ck, len, it->last.bytes, it->last.len);
        if (it->reverse ? c >= 0 : c <= 0) {
            return false;
        }
    }
    bool after_start = storage__bound_after_start(ck, len, &it->start);
    bool before_end = storage__bound_before_end(ck, len, &it->end);
    if (check_both) {
        return after_start && before_end;
    }
    return it->reverse ? after_start : before_end;
}


/* Looks at one row: true with out filled when it is live. */
static bool look(storage_row_iter_t *it, const uint8_t *blk, const uint8_t *ck, size_t len,
                 storage_row_view_t *out)
{
    remember(&it->last, ck, len);
    it->tombstones += storage__row_view(blk, &it->view, it->now_us, out);
    if (out->has_marker || out->n_cells > 0) {
        return true;
    }
    it->tombstones++;
    return false;
}


bool storage_row_iter_next(storage_row_iter_t *it, storage_row_view_t *out)
{
    if (it->version != it->t->version) {
        it->done = false;
        it->version = it->t->version;
        it->p = storage__table_lookup(it->t, it->token, it->pk, it->pk_len);
        it->pos = NULL;
    }
    if (it->done) {
        return false;
    }
    storage_partition_t *p = it->p;
    if (p == NULL) {
        it->done = true;
        return false;
    }
    const uint8_t *row = storage__part_row(p);
    if (row != NULL) {
        size_t len;
        const uint8_t *ck = storage__blk_ck(row, &len);
        it->done = true; /* one row; a write that adds more lets the cursor resume */
        return inside(it, ck, len, true) && look(it, row, ck, len, out);
    }
    storage__sl_node_t *n = it->pos == NULL ? row_seek(it)
                            : it->reverse   ? it->pos->prev
                                            : it->pos->next[0];
    for (; n != NULL; n = it->reverse ? n->prev : n->next[0]) {
        size_t len;
        const uint8_t *ck = storage__blk_ck(n->item, &len);
        if (!inside(it, ck, len, false)) {
            break;
        }
        it->pos = n;
        if (look(it, n->item, ck, len, out)) {
            return true;
        }
    }
    it->done = true;
    return false;
}


size_t storage_row_iter_tombstones(const storage_row_iter_t *it)
{
    return it->tombstones;
}


static void iter_destroy(storage_row_iter_t *it)
{
    if (it != NULL) {
        base_free(it->view.cells);
        base_free(it->last.bytes);
        base_free(it->buf);
    }
    base_free(it);
}


void storage_row_iter_free(storage_row_iter_t *it)
{
    if (it == NULL) {
        return;
    }
    if (it->t->spare_iter == NULL) {
        it->t->spare_iter = it;
        return;
    }
    iter_destroy(it);
}


void storage__row_iter_spare_free(storage_table_t *t)
{
    iter_destroy(t->spare_iter);
    t->spare_iter = NULL;
}


/* ---- partitions ---------------------------------------------------------- */

storage_part_iter_t *storage_part_iter_new(storage_table_t *t, bool has_after_token,
                                           int64_t after_token, const uint8_t *after_pk,
                                           size_t after_pk_len)
{
    storage_part_iter_t *it = base_calloc(1, sizeof(*it));
    it->t = t;
    it->has_after = has_after_token || after_pk != NULL;
    it->after_token = after_token;
    if (after_pk != NULL) {
        remember(&it->after, after_pk, after_pk_len);
    }
    return it;
}


static storage__pt_pos_t part_seek(const storage_part_iter_t *it)
{
    const storage__ptree_t *pt = &it->t->parts;
    if (!it->has_after) {
        return storage__pt_first(pt);
    }
    if (!it->after.set) {
        return storage__pt_seek(pt, it->after_token, NULL, 0);
    }
    storage__pt_pos_t pos = storage__pt_seek(pt, it->after_token, it->after.bytes, it->after.len);
    storage_partition_t *p = storage__pt_at(pos);
    if (p != NULL && p->token == it->after_token &&
        storage__key_cmp(p->data, p->pk_len, it->after.bytes, it->after.len) == 0) {
        pos = storage__pt_next(pos);
    }
    return pos;
}


storage_partition_t *storage_part_iter_next(storage_part_iter_t *it)
{
    if (it->done) {
        return NULL;
    }
    if (!it->started || it->version != it->t->version) {
        it->pos = part_seek(it);
        it->version = it->t->version;
        it->started = true;
    } else {
        it->pos = storage__pt_next(it->pos);
    }
    for (storage_partition_t *p; (p = storage__pt_at(it->pos)) != NULL;
         it->pos = storage__pt_next(it->pos)) {
        it->has_after = true;
        it->after_token = p->token;
        remember(&it->after, p->data, p->pk_len);
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
        base_free(it->after.bytes);
    }
    base_free(it);
}
