/*
 * row.c - one row's cells and its liveness, part of storage/.
 *
 * Cells are kept in an array sorted by (column, has path, path), so a
 * collection's elements are contiguous and its (column, no path) entry, the
 * collection-wide tombstone, sorts just before them. Writes merge cell by
 * cell with Cassandra's reconciliation (Cells.resolveRegular, 4.0): the
 * newer timestamp wins; on a tie a tombstone beats an expiring cell, which
 * beats a plain one, two expiring cells keep the later expiry, and finally
 * the greater value bytes (unsigned) win.
 *
 * Invariants: every cell owns one buffer (path then value, see cell_copy);
 * a tombstone cell carries no value and no expiry; bytes is ck_len plus the
 * path and value lengths of all cells; any change drops the read cache.
 */
#include "storage/storage_int.h"

/* A non-NULL path for collection elements whose key is zero bytes long. */
static const uint8_t empty_path[1];


storage__row_t *storage__row_new(const uint8_t *ck, size_t ck_len)
{
    storage__row_t *r = base_calloc(1, sizeof(*r));
    if (ck_len > 0) {
        r->ck = base_malloc(ck_len);
        memcpy(r->ck, ck, ck_len);
    }
    r->ck_len = ck_len;
    r->del_ts = STORAGE__NO_DELETION;
    r->bytes = ck_len;
    return r;
}


static void cell_release(storage_cell_t *c)
{
    const uint8_t *base = c->path_len > 0 ? c->path : c->value;
    base_free((void *)(uintptr_t)base);
}


static void drop_cache(storage__row_t *r)
{
    base_free(r->live);
    r->live = NULL;
    r->n_live = 0;
}


void storage__row_free(storage__row_t *r)
{
    if (r == NULL) {
        return;
    }
    for (size_t i = 0; i < r->n_cells; i++) {
        cell_release(&r->cells[i]);
    }
    base_free(r->cells);
    base_free(r->live);
    base_free(r->ck);
    base_free(r);
}


bool storage__row_is_empty(const storage__row_t *r)
{
    return r->n_cells == 0 && !r->has_marker && r->del_ts == STORAGE__NO_DELETION;
}


bool storage__cell_is_live(const storage_cell_t *c, int64_t now_us)
{
    return !c->tombstone && (c->expires_us == STORAGE_NO_EXPIRY || now_us < c->expires_us);
}


static bool marker_is_live(const storage__row_t *r, int64_t now_us)
{
    return r->has_marker &&
           (r->marker_expires_us == STORAGE_NO_EXPIRY || now_us < r->marker_expires_us);
}


bool storage__row_is_live(const storage__row_t *r, int64_t now_us)
{
    if (marker_is_live(r, now_us)) {
        return true;
    }
    for (size_t i = 0; i < r->n_cells; i++) {
        if (storage__cell_is_live(&r->cells[i], now_us)) {
            return true;
        }
    }
    return false;
}


int storage__cell_cmp(const storage_cell_t *a, const storage_cell_t *b)
{
    if (a->col != b->col) {
        return a->col < b->col ? -1 : 1;
    }
    bool a_path = a->path != NULL;
    bool b_path = b->path != NULL;
    if (a_path != b_path) {
        return a_path ? 1 : -1;
    }
    return storage__key_cmp(a->path, a->path_len, b->path, b->path_len);
}


/* Index of the first cell not ordered before c; *found if it equals c. */
static size_t lower_bound(const storage__row_t *r, const storage_cell_t *c, bool *found)
{
    size_t lo = 0;
    size_t hi = r->n_cells;
    if (hi > 0 && storage__cell_cmp(&r->cells[hi - 1], c) < 0) {
        lo = hi; /* appending, the usual case for list elements */
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (storage__cell_cmp(&r->cells[mid], c) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = lo < r->n_cells && storage__cell_cmp(&r->cells[lo], c) == 0;
    return lo;
}


int storage__cell_reconcile(const storage_cell_t *a, const storage_cell_t *b)
{
    if (a->ts != b->ts) {
        return a->ts > b->ts ? 1 : -1;
    }
    bool a_mortal = a->tombstone || a->expires_us != STORAGE_NO_EXPIRY;
    bool b_mortal = b->tombstone || b->expires_us != STORAGE_NO_EXPIRY;
    if (a_mortal != b_mortal) {
        return a_mortal ? 1 : -1;
    }
    if (a_mortal) {
        if (a->tombstone != b->tombstone) {
            return a->tombstone ? 1 : -1;
        }
        if (a->expires_us != b->expires_us) {
            return a->expires_us > b->expires_us ? 1 : -1;
        }
    }
    return storage__key_cmp(a->value, a->value_len, b->value, b->value_len);
}


/* Copies c into dst with its own buffer: path bytes, then value bytes. */
static void cell_copy(storage_cell_t *dst, const storage_cell_t *c)
{
    *dst = *c;
    if (c->tombstone) {
        dst->value_len = 0;
        dst->expires_us = STORAGE_NO_EXPIRY;
        dst->ttl = 0;
    }
    size_t n = (size_t)dst->path_len + dst->value_len;
    uint8_t *buf = NULL;
    if (n > 0) {
        buf = base_malloc(n);
        if (dst->path_len > 0) {
            memcpy(buf, c->path, c->path_len);
        }
        if (dst->value_len > 0) {
            memcpy(buf + dst->path_len, c->value, dst->value_len);
        }
    }
    dst->path = dst->path_len > 0 ? buf : c->path != NULL ? empty_path : NULL;
    dst->value = dst->value_len > 0 ? buf + dst->path_len : NULL;
}


static size_t cell_bytes(const storage_cell_t *c)
{
    return (size_t)c->path_len + c->value_len;
}


/* Removes cells [from, to) that satisfy ts <= max_ts; with only_paths,
 * only collection elements (cells with a path). */
static void remove_older(storage__row_t *r, size_t from, size_t to, int64_t max_ts, bool only_paths)
{
    size_t w = from;
    for (size_t i = from; i < to; i++) {
        storage_cell_t *c = &r->cells[i];
        if (c->ts <= max_ts && (!only_paths || c->path != NULL)) {
            r->bytes -= cell_bytes(c);
            cell_release(c);
        } else {
            r->cells[w++] = *c;
        }
    }
    if (w == to) {
        return;
    }
    memmove(&r->cells[w], &r->cells[to], (r->n_cells - to) * sizeof(storage_cell_t));
    r->n_cells -= to - w;
}


/* A collection deletion at c->ts frees the elements it shadows. */
static void clear_collection(storage__row_t *r, const storage_cell_t *c, size_t at)
{
    size_t end = at;
    while (end < r->n_cells && r->cells[end].col == c->col) {
        end++;
    }
    remove_older(r, at, end, c->ts, true);
}


void storage__row_put_cell(storage__row_t *r, const storage_cell_t *c)
{
    BASE_ASSERT(c->path != NULL || c->path_len == 0);
    BASE_ASSERT(c->value != NULL || c->value_len == 0 || c->tombstone);
    drop_cache(r);

    if (c->path != NULL) {
        storage_cell_t whole = {.col = c->col};
        bool found;
        size_t i = lower_bound(r, &whole, &found);
        if (found && r->cells[i].tombstone && r->cells[i].ts >= c->ts) {
            return; /* the collection was deleted after this element */
        }
    }

    bool found;
    size_t i = lower_bound(r, c, &found);
    if (found) {
        storage_cell_t *old = &r->cells[i];
        if (storage__cell_reconcile(c, old) > 0) {
            r->bytes -= cell_bytes(old);
            cell_release(old);
            cell_copy(old, c);
            r->bytes += cell_bytes(old);
        }
    } else {
        if (r->n_cells == r->cap_cells) {
            r->cap_cells = r->cap_cells ? r->cap_cells * 2 : 2;
            r->cells = base_realloc(r->cells, r->cap_cells * sizeof(storage_cell_t));
        }
        memmove(&r->cells[i + 1], &r->cells[i], (r->n_cells - i) * sizeof(storage_cell_t));
        cell_copy(&r->cells[i], c);
        r->n_cells++;
        r->bytes += cell_bytes(&r->cells[i]);
    }

    if (c->path == NULL && c->tombstone) {
        clear_collection(r, c, i + 1);
    }
}


void storage__row_put_marker(storage__row_t *r, int64_t ts, int64_t expires_us, int32_t ttl)
{
    if (r->has_marker) {
        if (ts != r->marker_ts) {
            if (ts < r->marker_ts) {
                return;
            }
        } else {
            bool expiring = expires_us != STORAGE_NO_EXPIRY;
            bool old_expiring = r->marker_expires_us != STORAGE_NO_EXPIRY;
            if (expiring != old_expiring ? !expiring : expires_us <= r->marker_expires_us) {
                return;
            }
        }
    }
    drop_cache(r);
    r->has_marker = true;
    r->marker_ts = ts;
    r->marker_expires_us = expires_us;
    r->marker_ttl = ttl;
}


void storage__row_purge(storage__row_t *r, int64_t ts)
{
    drop_cache(r);
    remove_older(r, 0, r->n_cells, ts, false);
    if (r->has_marker && r->marker_ts <= ts) {
        r->has_marker = false;
    }
    if (r->del_ts <= ts) {
        r->del_ts = STORAGE__NO_DELETION;
    }
    if (r->n_cells == 0 && r->cap_cells > 0) {
        base_free(r->cells);
        r->cells = NULL;
        r->cap_cells = 0;
    }
}


void storage__row_delete(storage__row_t *r, int64_t ts)
{
    int64_t keep = r->del_ts > ts ? r->del_ts : ts;
    storage__row_purge(r, ts);
    r->del_ts = keep;
}


size_t storage__row_view(storage__row_t *r, storage_table_t *t, int64_t now_us,
                         storage_row_view_t *out)
{
    size_t n_live = 0;
    for (size_t i = 0; i < r->n_cells; i++) {
        n_live += storage__cell_is_live(&r->cells[i], now_us);
    }

    out->ck = r->ck;
    out->ck_len = r->ck_len;
    out->is_static = false;
    out->has_marker = marker_is_live(r, now_us);
    out->marker_ts = out->has_marker ? r->marker_ts : 0;
    out->n_cells = n_live;

    if (n_live == r->n_cells) {
        out->cells = r->cells;
        return 0;
    }
    if (n_live == 0) {
        out->cells = NULL;
        return r->n_cells;
    }
    if (r->live == NULL || r->n_live != n_live) {
        if (r->live != NULL) {
            storage__table_defer_free(t, r->live);
        }
        r->live = base_malloc(n_live * sizeof(storage_cell_t));
        r->n_live = n_live;
        size_t w = 0;
        for (size_t i = 0; i < r->n_cells; i++) {
            if (storage__cell_is_live(&r->cells[i], now_us)) {
                r->live[w++] = r->cells[i];
            }
        }
    }
    out->cells = r->live;
    return r->n_cells - n_live;
}
