/*
 * row.c - one row's cells, its liveness and its encoding, part of storage/.
 *
 * A stored row is one length-prefixed block of bytes, no pointers in it:
 *   block   = varint n, then n bytes:
 *   varint ck_len, ck bytes
 *   u8 flags: DEL, MARKER, MARKER_EXP (expiring marker)
 *   8 bytes base timestamp (big-endian): the marker's, else the first cell's,
 *             else the deletion's; every other timestamp is a zigzag varint
 *             delta from it, a cell's absent when equal (the usual INSERT)
 *   [DEL: delta]  [MARKER_EXP: expiry delta from the marker's ts, varint ttl]
 *   varint n_cells, then per cell:
 *     u8 flags: TOMB, PATH, EXP, TS;  varint col;  [TS: delta]
 *     [EXP: expiry delta from the cell's ts, varint ttl]
 *     [PATH: varint len, bytes]  [not TOMB: varint len, value bytes]
 * Deltas are computed in wrapping unsigned arithmetic, so any int64 round
 * trips. Timestamps and TTLs take space only where present.
 *
 * Writes decode a row into the working form (storage__row_t, cells
 * borrowing the block's and the mutation's bytes), merge cell by cell with
 * Cassandra's reconciliation (Cells.resolveRegular, 4.0): the newer
 * timestamp wins; on a tie a tombstone beats an expiring cell, which beats a
 * plain one, two expiring cells keep the later expiry, and finally the
 * greater value bytes (unsigned) win; then encode it again. Readers decode
 * only the live cells, into a buffer their cursor owns.
 *
 * Invariants: a working row's cells are sorted by (column, has path, path);
 * a tombstone cell carries no value and no expiry; bytes is ck_len plus the
 * path and value lengths of all cells.
 */
#include "storage/storage_int.h"

enum {
    R_DEL = 1,
    R_MARKER = 2,
    R_MARKER_EXP = 4,
};

enum {
    C_TOMB = 1,
    C_PATH = 2,
    C_EXP = 4,
    C_TS = 8,
};


/* ---- varints ---------------------------------------------------------------------------- */

static size_t varint_size(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}


static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}


/* Our own bytes: trusted, so no bounds (files go through record.c). */
static const uint8_t *get_varint(const uint8_t *p, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        uint8_t b = *p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            break;
        }
    }
    *v = x;
    return p;
}


static uint64_t zigzag(int64_t a, int64_t base)
{
    uint64_t d = (uint64_t)a - (uint64_t)base;
    return (d << 1) ^ (uint64_t) - (int64_t)(d >> 63);
}


static int64_t unzigzag(uint64_t z, int64_t base)
{
    uint64_t d = (z >> 1) ^ (uint64_t) - (int64_t)(z & 1);
    return (int64_t)((uint64_t)base + d);
}


/* ---- the working row -------------------------------------------------------------------- */

void storage__row_init(storage__row_t *r, const uint8_t *ck, size_t ck_len)
{
    r->ck = ck_len > 0 ? ck : NULL;
    r->ck_len = ck_len;
    r->del_ts = STORAGE__NO_DELETION;
    r->has_marker = false;
    r->marker_ttl = 0;
    r->marker_ts = 0;
    r->marker_expires_us = STORAGE_NO_EXPIRY;
    r->n_cells = 0;
    r->bytes = ck_len;
}


void storage__row_fini(storage__row_t *r)
{
    base_free(r->cells);
    r->cells = NULL;
    r->cap_cells = 0;
    r->n_cells = 0;
}


storage__row_t *storage__row_new(const uint8_t *ck, size_t ck_len)
{
    storage__row_t *r = base_calloc(1, sizeof(*r));
    storage__row_init(r, ck, ck_len);
    return r;
}


void storage__row_free(storage__row_t *r)
{
    if (r != NULL) {
        storage__row_fini(r);
        base_free(r);
    }
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


/* c normalised for storing: a tombstone carries no value and no expiry. */
static storage_cell_t cell_norm(const storage_cell_t *c)
{
    storage_cell_t d = *c;
    if (d.tombstone) {
        d.value = NULL;
        d.value_len = 0;
        d.expires_us = STORAGE_NO_EXPIRY;
        d.ttl = 0;
    }
    if (d.value_len == 0) {
        d.value = NULL;
    }
    return d;
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
            *old = cell_norm(c);
            r->bytes += cell_bytes(old);
        }
    } else {
        if (r->n_cells == r->cap_cells) {
            r->cap_cells = r->cap_cells ? r->cap_cells * 2 : 2;
            r->cells = base_realloc(r->cells, r->cap_cells * sizeof(storage_cell_t));
        }
        memmove(&r->cells[i + 1], &r->cells[i], (r->n_cells - i) * sizeof(storage_cell_t));
        r->cells[i] = cell_norm(c);
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
    r->has_marker = true;
    r->marker_ts = ts;
    r->marker_expires_us = expires_us;
    r->marker_ttl = ttl;
}


void storage__row_purge(storage__row_t *r, int64_t ts)
{
    remove_older(r, 0, r->n_cells, ts, false);
    if (r->has_marker && r->marker_ts <= ts) {
        r->has_marker = false;
    }
    if (r->del_ts <= ts) {
        r->del_ts = STORAGE__NO_DELETION;
    }
}


void storage__row_delete(storage__row_t *r, int64_t ts)
{
    int64_t keep = r->del_ts > ts ? r->del_ts : ts;
    storage__row_purge(r, ts);
    r->del_ts = keep;
}


/* ---- encoding --------------------------------------------------------------------------- */

static int64_t base_ts(const storage__row_t *r)
{
    if (r->has_marker) {
        return r->marker_ts;
    }
    if (r->n_cells > 0) {
        return r->cells[0].ts;
    }
    return r->del_ts;
}


static size_t payload_size(const storage__row_t *r)
{
    int64_t base = base_ts(r);
    size_t n = varint_size(r->ck_len) + r->ck_len + 1 + 8;
    if (r->del_ts != STORAGE__NO_DELETION) {
        n += varint_size(zigzag(r->del_ts, base));
    }
    if (r->has_marker && r->marker_expires_us != STORAGE_NO_EXPIRY) {
        n += varint_size(zigzag(r->marker_expires_us, r->marker_ts)) +
             varint_size((uint32_t)r->marker_ttl);
    }
    n += varint_size(r->n_cells);
    for (size_t i = 0; i < r->n_cells; i++) {
        const storage_cell_t *c = &r->cells[i];
        n += 1 + varint_size(c->col);
        if (c->ts != base) {
            n += varint_size(zigzag(c->ts, base));
        }
        if (c->expires_us != STORAGE_NO_EXPIRY) {
            n += varint_size(zigzag(c->expires_us, c->ts)) + varint_size((uint32_t)c->ttl);
        }
        if (c->path != NULL) {
            n += varint_size(c->path_len) + c->path_len;
        }
        if (!c->tombstone) {
            n += varint_size(c->value_len) + c->value_len;
        }
    }
    return n;
}


size_t storage__row_encoded_size(const storage__row_t *r)
{
    size_t n = payload_size(r);
    return varint_size(n) + n;
}


/* The payload size n of an encoding of size bytes: size = varint_size(n) + n,
 * which grows with n, so one n fits. Every caller has just sized the row to
 * allocate it; sizing its cells again showed in a YCSB-A profile, whose
 * updates rewrite rows of ten cells. */
static size_t payload_of(size_t size)
{
    size_t k = 1;
    while (k < size && varint_size(size - k) != k) {
        k++;
    }
    return size - k;
}


uint8_t *storage__row_encode_into(const storage__row_t *r, size_t size, uint8_t *p)
{
    BASE_ASSERT(!storage__row_is_empty(r));
    int64_t base = base_ts(r);
    p = put_varint(p, payload_of(size));
    p = put_varint(p, r->ck_len);
    if (r->ck_len > 0) {
        memcpy(p, r->ck, r->ck_len);
        p += r->ck_len;
    }
    bool del = r->del_ts != STORAGE__NO_DELETION;
    bool mexp = r->has_marker && r->marker_expires_us != STORAGE_NO_EXPIRY;
    *p++ =
        (uint8_t)((del ? R_DEL : 0) | (r->has_marker ? R_MARKER : 0) | (mexp ? R_MARKER_EXP : 0));
    base_store_u64(p, (uint64_t)base);
    p += 8;
    if (del) {
        p = put_varint(p, zigzag(r->del_ts, base));
    }
    if (mexp) {
        p = put_varint(p, zigzag(r->marker_expires_us, r->marker_ts));
        p = put_varint(p, (uint32_t)r->marker_ttl);
    }
    p = put_varint(p, r->n_cells);
    for (size_t i = 0; i < r->n_cells; i++) {
        const storage_cell_t *c = &r->cells[i];
        bool exp = c->expires_us != STORAGE_NO_EXPIRY;
        *p++ = (uint8_t)((c->tombstone ? C_TOMB : 0) | (c->path != NULL ? C_PATH : 0) |
                         (exp ? C_EXP : 0) | (c->ts != base ? C_TS : 0));
        p = put_varint(p, c->col);
        if (c->ts != base) {
            p = put_varint(p, zigzag(c->ts, base));
        }
        if (exp) {
            p = put_varint(p, zigzag(c->expires_us, c->ts));
            p = put_varint(p, (uint32_t)c->ttl);
        }
        if (c->path != NULL) {
            p = put_varint(p, c->path_len);
            if (c->path_len > 0) {
                memcpy(p, c->path, c->path_len);
                p += c->path_len;
            }
        }
        if (!c->tombstone) {
            p = put_varint(p, c->value_len);
            if (c->value_len > 0) {
                memcpy(p, c->value, c->value_len);
                p += c->value_len;
            }
        }
    }
    return p;
}


uint8_t *storage__row_encode(const storage__row_t *r)
{
    size_t n = storage__row_encoded_size(r);
    uint8_t *blk = base_malloc(n);
    uint8_t *end = storage__row_encode_into(r, n, blk);
    BASE_ASSERT((size_t)(end - blk) == n);
    (void)end;
    return blk;
}


uint8_t *storage__row_encode_in(storage__slab_t *s, const storage__row_t *r)
{
    size_t n = storage__row_encoded_size(r);
    uint8_t *blk = storage__slab_alloc(s, n);
    storage__row_encode_into(r, n, blk);
    return blk;
}


void storage__blk_free(storage__slab_t *s, uint8_t *blk)
{
    if (blk != NULL) {
        storage__slab_free(s, blk, storage__blk_size(blk));
    }
}


size_t storage__blk_size(const uint8_t *blk)
{
    uint64_t n;
    const uint8_t *p = get_varint(blk, &n);
    return (size_t)(p - blk) + (size_t)n;
}


const uint8_t *storage__blk_ck(const uint8_t *blk, size_t *len)
{
    uint64_t n;
    const uint8_t *p = get_varint(blk, &n);
    p = get_varint(p, &n);
    *len = (size_t)n;
    return n > 0 ? p : NULL;
}


/* The row header of a block: everything before the cells. */
typedef struct head_s {
    const uint8_t *ck;
    size_t ck_len;
    uint8_t flags;
    int64_t base;
    int64_t del_ts;
    int64_t marker_expires_us;
    int32_t marker_ttl;
    uint64_t n_cells;
} head_t;


static const uint8_t *get_head(const uint8_t *p, head_t *h)
{
    uint64_t v;
    p = get_varint(p, &v); /* the block length */
    p = get_varint(p, &v);
    h->ck_len = (size_t)v;
    h->ck = v > 0 ? p : NULL;
    p += v;
    h->flags = *p++;
    h->base = (int64_t)base_load_u64(p);
    p += 8;
    h->del_ts = STORAGE__NO_DELETION;
    if (h->flags & R_DEL) {
        p = get_varint(p, &v);
        h->del_ts = unzigzag(v, h->base);
    }
    h->marker_expires_us = STORAGE_NO_EXPIRY;
    h->marker_ttl = 0;
    if (h->flags & R_MARKER_EXP) {
        p = get_varint(p, &v);
        h->marker_expires_us = unzigzag(v, h->base);
        p = get_varint(p, &v);
        h->marker_ttl = (int32_t)(uint32_t)v;
    }
    return get_varint(p, &h->n_cells);
}


static const uint8_t *get_cell(const uint8_t *p, int64_t base, storage_cell_t *c)
{
    uint64_t v;
    uint8_t f = *p++;
    p = get_varint(p, &v);
    c->col = (uint32_t)v;
    c->ts = base;
    if (f & C_TS) {
        p = get_varint(p, &v);
        c->ts = unzigzag(v, base);
    }
    c->expires_us = STORAGE_NO_EXPIRY;
    c->ttl = 0;
    if (f & C_EXP) {
        p = get_varint(p, &v);
        c->expires_us = unzigzag(v, c->ts);
        p = get_varint(p, &v);
        c->ttl = (int32_t)(uint32_t)v;
    }
    c->path = NULL;
    c->path_len = 0;
    if (f & C_PATH) {
        p = get_varint(p, &v);
        c->path = p; /* non-NULL even for a zero-length element key */
        c->path_len = (uint32_t)v;
        p += v;
    }
    c->tombstone = (f & C_TOMB) != 0;
    c->value = NULL;
    c->value_len = 0;
    if (!c->tombstone) {
        p = get_varint(p, &v);
        c->value = v > 0 ? p : NULL;
        c->value_len = (uint32_t)v;
        p += v;
    }
    return p;
}


static void reserve(storage_cell_t **cells, size_t *cap, size_t n)
{
    if (n > *cap) {
        size_t c = *cap ? *cap : 4;
        while (c < n) {
            c *= 2;
        }
        *cells = base_realloc(*cells, c * sizeof(storage_cell_t));
        *cap = c;
    }
}


void storage__row_decode(const uint8_t *blk, storage__row_t *r)
{
    head_t h;
    const uint8_t *p = get_head(blk, &h);
    storage__row_init(r, h.ck, h.ck_len);
    r->del_ts = h.del_ts;
    r->has_marker = (h.flags & R_MARKER) != 0;
    if (r->has_marker) {
        r->marker_ts = h.base;
        r->marker_expires_us = h.marker_expires_us;
        r->marker_ttl = h.marker_ttl;
    }
    reserve(&r->cells, &r->cap_cells, (size_t)h.n_cells);
    for (uint64_t i = 0; i < h.n_cells; i++) {
        p = get_cell(p, h.base, &r->cells[i]);
        r->bytes += cell_bytes(&r->cells[i]);
    }
    r->n_cells = (size_t)h.n_cells;
}


size_t storage__blk_bytes(const uint8_t *blk)
{
    head_t h;
    const uint8_t *p = get_head(blk, &h);
    size_t bytes = h.ck_len;
    for (uint64_t i = 0; i < h.n_cells; i++) {
        storage_cell_t c;
        p = get_cell(p, h.base, &c);
        bytes += cell_bytes(&c);
    }
    return bytes;
}


size_t storage__row_view(const uint8_t *blk, storage__cellbuf_t *buf, int64_t now_us,
                         storage_row_view_t *out)
{
    head_t h;
    const uint8_t *p = get_head(blk, &h);
    out->ck = h.ck;
    out->ck_len = h.ck_len;
    out->is_static = false;
    out->has_marker = (h.flags & R_MARKER) != 0 &&
                      (h.marker_expires_us == STORAGE_NO_EXPIRY || now_us < h.marker_expires_us);
    out->marker_ts = out->has_marker ? h.base : 0;
    reserve(&buf->cells, &buf->cap, (size_t)h.n_cells);
    size_t w = 0;
    for (uint64_t i = 0; i < h.n_cells; i++) {
        p = get_cell(p, h.base, &buf->cells[w]);
        w += storage__cell_is_live(&buf->cells[w], now_us);
    }
    out->cells = w > 0 ? buf->cells : NULL;
    out->n_cells = w;
    return (size_t)h.n_cells - w;
}
