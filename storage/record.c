/*
 * record.c - the one binary format of durable storage, part of storage/:
 * commit log records and snapshot contents alike (layout in storage_int.h).
 * A mutation is encoded with every field storage_apply reads, plus the
 * now_us it was applied at (a collection replaced without a timestamp is
 * deleted relative to it), so replaying a record repeats the write exactly.
 *
 * Decoding reads untrusted bytes: every read goes through reader_t, whose
 * failure is sticky, and counts are checked against the bytes left before
 * anything is allocated. Decoded mutations borrow from the record.
 */
#include "storage/storage_int.h"

/* Mutation flags. */
#define M_STATIC      0x01
#define M_MARKER      0x02
#define M_DEL_PART    0x04
#define M_DEL_ROW     0x08
#define M_DEL_RANGE   0x10
#define M_START_INCL  0x20
#define M_END_INCL    0x40
#define M_KNOWN_FLAGS 0x7f

/* Cell flags. */
#define C_PATH      0x01 /* a collection element (path != NULL) */
#define C_TOMBSTONE 0x02
#define C_KNOWN     0x03

/* col, flags, path len, value len, ts, expiry, ttl */
#define CELL_MIN_BYTES (4 + 1 + 4 + 4 + 8 + 8 + 4)

/* A non-NULL pointer for empty paths and keys. */
static const uint8_t no_bytes[1];


size_t storage__rec_begin(base_buf_t *b, uint8_t kind, uint64_t id)
{
    size_t start = b->len;
    base_buf_put_u32(b, 0);
    base_buf_put_u32(b, 0);
    base_buf_put_u8(b, kind);
    base_buf_put_u64(b, id);
    return start;
}


void storage__rec_end(base_buf_t *b, size_t start)
{
    size_t n = b->len - start - STORAGE__REC_HEADER;
    BASE_ASSERT(n <= STORAGE__REC_MAX);
    base_buf_set_u32(b, start, (uint32_t)n);
}


void storage__rec_seal(uint8_t *p, size_t len)
{
    size_t off = 0;
    while (off < len) {
        BASE_ASSERT(len - off >= STORAGE__REC_HEADER);
        size_t n = base_load_u32(p + off);
        BASE_ASSERT(n <= len - off - STORAGE__REC_HEADER);
        base_store_u32(p + off + 4, storage__crc32(p + off + STORAGE__REC_HEADER, n));
        off += STORAGE__REC_HEADER + n;
    }
}


static void put_bytes(base_buf_t *b, const uint8_t *p, size_t n)
{
    BASE_ASSERT(n <= STORAGE__REC_MAX);
    base_buf_put_u32(b, (uint32_t)n);
    base_buf_put(b, p, n);
}


static void put_i64(base_buf_t *b, int64_t v)
{
    base_buf_put_u64(b, (uint64_t)v);
}


void storage__rec_put_mutation(base_buf_t *b, const storage_mutation_t *m, int64_t now_us)
{
    uint8_t flags = (m->static_row ? M_STATIC : 0) | (m->row_marker ? M_MARKER : 0) |
                    (m->delete_partition ? M_DEL_PART : 0) | (m->delete_row ? M_DEL_ROW : 0) |
                    (m->delete_range ? M_DEL_RANGE : 0);
    if (m->delete_range) {
        flags |= (m->range_start.inclusive ? M_START_INCL : 0) |
                 (m->range_end.inclusive ? M_END_INCL : 0);
    }
    put_i64(b, now_us);
    base_buf_put_u8(b, flags);
    put_i64(b, m->token);
    put_bytes(b, m->pk, m->pk_len);
    put_bytes(b, m->ck, m->ck_len);
    if (m->row_marker) {
        put_i64(b, m->marker_ts);
        put_i64(b, m->marker_expires_us);
        base_buf_put_u32(b, (uint32_t)m->marker_ttl);
    }
    put_i64(b, m->delete_ts);
    if (m->delete_range) {
        put_bytes(b, m->range_start.key, m->range_start.len);
        put_bytes(b, m->range_end.key, m->range_end.len);
    }
    base_buf_put_u32(b, (uint32_t)m->n_clear_cols);
    for (size_t i = 0; i < m->n_clear_cols; i++) {
        base_buf_put_u32(b, m->clear_cols[i]);
    }
    base_buf_put_u32(b, (uint32_t)m->n_cells);
    for (size_t i = 0; i < m->n_cells; i++) {
        const storage_cell_t *c = &m->cells[i];
        base_buf_put_u32(b, c->col);
        base_buf_put_u8(b, (c->path != NULL ? C_PATH : 0) | (c->tombstone ? C_TOMBSTONE : 0));
        put_bytes(b, c->path, c->path != NULL ? c->path_len : 0); /* no path: no bytes */
        put_bytes(b, c->value, c->tombstone ? 0 : c->value_len);
        put_i64(b, c->ts);
        put_i64(b, c->expires_us);
        base_buf_put_u32(b, (uint32_t)c->ttl);
    }
}


storage__frame_t storage__rec_frame(const uint8_t *buf, size_t len, size_t off,
                                    const uint8_t **payload, size_t *plen, size_t *next)
{
    *next = len;
    if (len - off < STORAGE__REC_HEADER) {
        return STORAGE__FRAME_TORN;
    }
    uint32_t n = base_load_u32(buf + off);
    uint32_t crc = base_load_u32(buf + off + 4);
    if (n == 0 || n > STORAGE__REC_MAX) {
        return STORAGE__FRAME_BAD;
    }
    if (n > len - off - STORAGE__REC_HEADER) {
        return STORAGE__FRAME_TORN;
    }
    *next = off + STORAGE__REC_HEADER + n;
    if (storage__crc32(buf + off + STORAGE__REC_HEADER, n) != crc) {
        return STORAGE__FRAME_BAD;
    }
    *payload = buf + off + STORAGE__REC_HEADER;
    *plen = n;
    return STORAGE__FRAME_OK;
}


/* ---- decoding ------------------------------------------------------------ */

typedef struct reader_s {
    const uint8_t *p;
    size_t len;
    size_t pos;
    bool bad; /* sticky: a short read happened */
} reader_t;


static const uint8_t *take(reader_t *r, size_t n)
{
    if (r->bad || n > r->len - r->pos) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *p = n > 0 ? r->p + r->pos : no_bytes;
    r->pos += n;
    return p;
}


static uint8_t get_u8(reader_t *r)
{
    const uint8_t *p = take(r, 1);
    return p != NULL ? p[0] : 0;
}


static uint32_t get_u32(reader_t *r)
{
    const uint8_t *p = take(r, 4);
    return p != NULL ? base_load_u32(p) : 0;
}


static uint64_t get_u64(reader_t *r)
{
    const uint8_t *p = take(r, 8);
    return p != NULL ? base_load_u64(p) : 0;
}


static int64_t get_i64(reader_t *r)
{
    return (int64_t)get_u64(r);
}


static const uint8_t *get_bytes(reader_t *r, uint32_t *len)
{
    *len = get_u32(r);
    const uint8_t *p = take(r, *len);
    if (p == NULL) {
        *len = 0;
    }
    return p;
}


/* At least n items of size each left in r: checked before allocating. */
static bool room_for(const reader_t *r, uint32_t n, size_t size)
{
    return !r->bad && (uint64_t)n <= (r->len - r->pos) / size;
}


static const char *decode_cells(reader_t *r, storage__replay_t *rp, storage_mutation_t *m)
{
    uint32_t n = get_u32(r);
    if (!room_for(r, n, CELL_MIN_BYTES)) {
        return "cell count past the end of the record";
    }
    if (n > rp->cap_cells) {
        rp->cells = base_realloc(rp->cells, n * sizeof(storage_cell_t));
        rp->cap_cells = n;
    }
    for (uint32_t i = 0; i < n; i++) {
        storage_cell_t *c = &rp->cells[i];
        c->col = get_u32(r);
        uint8_t flags = get_u8(r);
        if ((flags & ~C_KNOWN) != 0) {
            return "unknown cell flags";
        }
        c->path = get_bytes(r, &c->path_len);
        if ((flags & C_PATH) == 0) {
            if (c->path_len != 0) {
                return "a simple cell with a path";
            }
            c->path = NULL;
        }
        c->value = get_bytes(r, &c->value_len);
        c->tombstone = (flags & C_TOMBSTONE) != 0;
        if (c->value_len == 0 || c->tombstone) {
            c->value = NULL;
            c->value_len = 0;
        }
        c->ts = get_i64(r);
        c->expires_us = get_i64(r);
        c->ttl = (int32_t)get_u32(r);
        if (r->bad) {
            return "cell past the end of the record";
        }
    }
    m->cells = rp->cells;
    m->n_cells = n;
    return NULL;
}


static const char *decode_mutation(reader_t *r, storage__replay_t *rp, storage_mutation_t *m,
                                   int64_t *now_us)
{
    memset(m, 0, sizeof(*m));
    *now_us = get_i64(r);
    uint8_t flags = get_u8(r);
    if ((flags & ~M_KNOWN_FLAGS) != 0) {
        return "unknown mutation flags";
    }
    m->static_row = (flags & M_STATIC) != 0;
    m->row_marker = (flags & M_MARKER) != 0;
    m->delete_partition = (flags & M_DEL_PART) != 0;
    m->delete_row = (flags & M_DEL_ROW) != 0;
    m->delete_range = (flags & M_DEL_RANGE) != 0;
    m->token = get_i64(r);
    uint32_t len;
    m->pk = get_bytes(r, &len);
    m->pk_len = len;
    m->ck = get_bytes(r, &len);
    m->ck_len = len;
    if (m->row_marker) {
        m->marker_ts = get_i64(r);
        m->marker_expires_us = get_i64(r);
        m->marker_ttl = (int32_t)get_u32(r);
    }
    m->delete_ts = get_i64(r);
    if (m->delete_range) {
        m->range_start.key = get_bytes(r, &len);
        m->range_start.len = len;
        m->range_start.inclusive = (flags & M_START_INCL) != 0;
        m->range_end.key = get_bytes(r, &len);
        m->range_end.len = len;
        m->range_end.inclusive = (flags & M_END_INCL) != 0;
    }
    uint32_t n = get_u32(r);
    if (!room_for(r, n, 4)) {
        return "column count past the end of the record";
    }
    if (n > rp->cap_cols) {
        rp->cols = base_realloc(rp->cols, n * sizeof(uint32_t));
        rp->cap_cols = n;
    }
    for (uint32_t i = 0; i < n; i++) {
        rp->cols[i] = get_u32(r);
    }
    m->clear_cols = rp->cols;
    m->n_clear_cols = n;
    if (r->bad) {
        return "mutation past the end of the record";
    }
    return decode_cells(r, rp, m);
}


void storage__replay_fini(storage__replay_t *rp)
{
    base_free(rp->cells);
    base_free(rp->cols);
    memset(rp, 0, sizeof(*rp));
}


static storage_table_t *find_table(storage_db_t *db, storage__replay_t *rp, uint64_t id)
{
    if (rp->last == NULL || rp->last->id != id) {
        rp->last = storage__db_find(db, id);
    }
    return rp->last;
}


/* A BATCH record's body: checked whole first (every table there, every
 * mutation well formed, nothing left over), then applied, so an invalid
 * batch changes nothing. */
static const char *apply_batch(storage_db_t *db, storage__replay_t *rp, reader_t *r, uint64_t count)
{
    if (count < 2 || !room_for(r, count > UINT32_MAX ? UINT32_MAX : (uint32_t)count, 8)) {
        return "batch count past the end of the record";
    }
    size_t body = r->pos;
    for (int pass = 0; pass < 2; pass++) {
        r->pos = body;
        for (uint64_t i = 0; i < count; i++) {
            storage_mutation_t m;
            int64_t now_us;
            storage_table_t *t = find_table(db, rp, get_u64(r));
            if (r->bad) {
                return "batch past the end of the record";
            }
            if (t == NULL) {
                return "batch for a table that does not exist";
            }
            const char *why = decode_mutation(r, rp, &m, &now_us);
            if (why != NULL) {
                return why;
            }
            if (pass == 1) {
                storage__apply(t, &m, now_us, NULL);
            }
        }
        if (r->bad || r->pos != r->len) {
            return "record length does not match its contents";
        }
    }
    return NULL;
}


const char *storage__rec_apply(storage_db_t *db, storage__replay_t *rp, const uint8_t *p, size_t n)
{
    reader_t r = {p, n, 0, false};
    uint8_t kind = get_u8(&r);
    uint64_t id = get_u64(&r);
    if (r.bad) {
        return "record shorter than its header";
    }
    if (kind == STORAGE__REC_BATCH) {
        return apply_batch(db, rp, &r, id);
    }
    storage_table_t *t = find_table(db, rp, id);
    if (kind != STORAGE__REC_CREATE && t == NULL) {
        return "record for a table that does not exist";
    }

    storage_mutation_t m;
    int64_t now_us = 0;
    uint32_t n_physical = 0;
    const char *why = NULL;
    switch (kind) {
    case STORAGE__REC_CREATE:
        if (t != NULL) {
            return "table created twice";
        }
        break;
    case STORAGE__REC_DROP:
    case STORAGE__REC_TRUNCATE:
        break;
    case STORAGE__REC_PHYSICAL:
        n_physical = get_u32(&r);
        break;
    case STORAGE__REC_MUTATION:
        why = decode_mutation(&r, rp, &m, &now_us);
        break;
    default:
        return "unknown record kind";
    }
    if (why != NULL) {
        return why;
    }
    if (r.bad || r.pos != n) {
        return "record length does not match its contents";
    }

    switch (kind) {
    case STORAGE__REC_CREATE:
        rp->last = storage__db_add_table(db, id);
        break;
    case STORAGE__REC_DROP:
        rp->last = NULL;
        storage__db_remove_table(db, t);
        break;
    case STORAGE__REC_TRUNCATE:
        storage__table_truncate(t);
        break;
    case STORAGE__REC_PHYSICAL:
        t->n_physical = n_physical > 0 ? n_physical : 1;
        break;
    default:
        storage__apply(t, &m, now_us, NULL);
        break;
    }
    return NULL;
}


/* Where a MUTATION payload keeps its token: after the kind, the table id,
 * now_us and the flags (storage__rec_put_mutation). */
#define MUTATION_TOKEN_AT (1 + 8 + 8 + 1)

void storage__rec_prefetch(storage_db_t *db, storage__replay_t *rp, const storage__rec_view_t *recs,
                           size_t n)
{
    /* Two passes, so the leaves asked for in the first have arrived by the
     * time the second reads them for the partitions' addresses. Nothing is
     * applied meanwhile, so every table found is live (rp's cached table
     * too: a DROP clears it); one created among recs is not found yet, and
     * goes unasked. */
    storage_hint_t hint[STORAGE__REPLAY_BATCH] = {{0}};
    n = n < STORAGE__REPLAY_BATCH ? n : STORAGE__REPLAY_BATCH;
    for (int step = 0; step < 2; step++) {
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = recs[i].p;
            if (recs[i].n < MUTATION_TOKEN_AT + 8 || p[0] != STORAGE__REC_MUTATION) {
                continue;
            }
            storage_table_t *t = find_table(db, rp, base_load_u64(p + 1));
            if (t == NULL) {
                continue;
            }
            int64_t token = (int64_t)base_load_u64(p + MUTATION_TOKEN_AT);
            if (step == 0) {
                storage_prefetch_index(t, token, &hint[i]);
            } else {
                storage_prefetch_partition(t, token, &hint[i]);
            }
        }
    }
}
