/*
 * snapshot.c - snapshots, part of storage/: snapshot-<gen>.lz4 holds every
 * table as the records that would rebuild it (record.c): CREATE, PHYSICAL,
 * then per partition its deletion, its range tombstones, its static row and
 * its rows as mutations carrying all their state (row deletion, marker,
 * every cell including tombstones and expired ones), closed by an END
 * record counting the others. Re-applying them rebuilds the same
 * partitions, because everything kept is newer than whatever shadows it.
 * One format, one decoder: loading a snapshot is replaying it.
 *
 * The stream is one LZ4 frame with a content checksum, on top of the
 * per-record CRC32s. Loading decodes it through a reused window (stream.c)
 * and applies each record as it arrives; the CRCs are what it checks (the
 * content checksum, redundant with them, is written for other readers), so
 * no damaged record is applied, and a snapshot found invalid part way fails
 * the load (the caller clears the database). It is written to a temp file,
 * fsync'ed and renamed over, then the directory is fsync'ed: a snapshot
 * file either is whole or does not exist under its final name.
 *
 * The writer is incremental (storage__snap_*): checkpoint.c feeds it a
 * table or a slice of a partition at a time between requests (a checkpoint
 * at shutdown is the same walk run to its end). Input is compressed every
 * CHUNK bytes, in 256 KB blocks, so no call holds the loop for more than a
 * millisecond or so of compression.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>

#include <lz4frame.h>

#include "storage/storage_int.h"

/* Compress in chunks of about this much. */
#define CHUNK            (256u << 10)
/* Rows with more cell bytes are written as several mutations. */
#define ROW_RECORD_BYTES (8u << 20)


struct storage__snap_s {
    int fd;
    char tmp[4096];  /* snapshot-<gen>.lz4.tmp */
    char path[4096]; /* snapshot-<gen>.lz4 */
    const char *dir;
    LZ4F_cctx *cctx;
    LZ4F_preferences_t prefs;
    base_buf_t in;  /* records not yet compressed */
    base_buf_t out; /* compressed bytes */
    uint64_t n_records;
    const char *failed; /* what failed first, NULL while all is well */
    int errnum;
    storage__row_t row; /* a decoded row, reused */
    uint64_t size;      /* bytes written to the file */
    uint64_t writeback; /* of which writeback was started (storage__writeback) */
    bool committed;
};

static void fail(storage__snap_t *w, const char *what, int errnum)
{
    if (w->failed == NULL) {
        w->failed = what;
        w->errnum = errnum;
    }
}


static void write_out(storage__snap_t *w)
{
    if (w->failed == NULL && storage__write_all(w->fd, w->out.data, w->out.len) != BASE_OK) {
        fail(w, "write", errno);
    }
    w->size += w->out.len;
    storage__writeback(w->fd, &w->writeback, w->size);
    base_buf_reset(&w->out);
}


static void compress_in(storage__snap_t *w)
{
    if (w->in.len == 0 || w->failed != NULL) {
        base_buf_reset(&w->in);
        return;
    }
    base_buf_reserve(&w->out, LZ4F_compressBound(w->in.len, &w->prefs));
    size_t n = LZ4F_compressUpdate(w->cctx, w->out.data + w->out.len, w->out.cap - w->out.len,
                                   w->in.data, w->in.len, NULL);
    if (LZ4F_isError(n)) {
        fail(w, LZ4F_getErrorName(n), 0);
    } else {
        w->out.len += n;
        write_out(w);
    }
    base_buf_reset(&w->in);
}


static void emit_mutation(storage__snap_t *w, uint64_t id, const storage_mutation_t *m)
{
    size_t start = storage__rec_begin(&w->in, STORAGE__REC_MUTATION, id);
    storage__rec_put_mutation(&w->in, m, 0);
    storage__rec_end(&w->in, start);
    w->n_records++;
    if (w->in.len >= CHUNK) {
        compress_in(w);
    }
}


/* A row as one or more mutations: the first carries its deletion and
 * marker, each at most about ROW_RECORD_BYTES of cells. */
static void emit_row(storage__snap_t *w, uint64_t id, const storage_mutation_t *base,
                     const uint8_t *blk, bool is_static, storage__row_t *r)
{
    storage__row_decode(blk, r);
    storage_mutation_t m = *base;
    m.static_row = is_static;
    m.ck = r->ck;
    m.ck_len = r->ck_len;
    m.delete_row = r->del_ts != STORAGE__NO_DELETION;
    m.delete_ts = m.delete_row ? r->del_ts : 0;
    m.row_marker = r->has_marker;
    m.marker_ts = r->marker_ts;
    m.marker_expires_us = r->marker_expires_us;
    m.marker_ttl = r->marker_ttl;

    size_t i = 0;
    do {
        size_t bytes = 0;
        size_t j = i;
        while (j < r->n_cells && (j == i || bytes < ROW_RECORD_BYTES)) {
            bytes += (size_t)r->cells[j].path_len + r->cells[j].value_len;
            j++;
        }
        m.cells = r->cells + i;
        m.n_cells = j - i;
        emit_mutation(w, id, &m);
        m.delete_row = false;
        m.delete_ts = 0;
        m.row_marker = false;
        i = j;
    } while (i < r->n_cells);
}


const uint8_t *storage__snap_partition(storage__snap_t *w, uint64_t id,
                                       const storage_partition_t *p, const storage_bound_t *after,
                                       size_t max_rows)
{
    storage__row_t *r = &w->row;
    storage_mutation_t base = {.pk = p->data, .pk_len = p->pk_len, .token = p->token};
    storage__pext_t *x = storage__part_ext(p);
    if (x == NULL) {
        emit_row(w, id, &base, storage__part_row(p), false, r);
        return NULL;
    }
    if (after == NULL) {
        if (x->del_ts != STORAGE__NO_DELETION) {
            storage_mutation_t m = base;
            m.delete_partition = true;
            m.delete_ts = x->del_ts;
            emit_mutation(w, id, &m);
        }
        for (size_t i = 0; i < x->n_rts; i++) {
            const storage__rt_t *rt = &x->rts[i];
            storage_mutation_t m = base;
            m.delete_range = true;
            m.range_start = (storage_bound_t){rt->start, rt->start_len, rt->start_inclusive};
            m.range_end = (storage_bound_t){rt->end, rt->end_len, rt->end_inclusive};
            m.delete_ts = rt->ts;
            emit_mutation(w, id, &m);
        }
        if (x->statics != NULL) {
            emit_row(w, id, &base, x->statics, true, r);
        }
    }
    storage__sl_node_t *n =
        after == NULL ? storage__sl_first(&x->rows) : storage__partition_seek(p, after);
    const uint8_t *last = NULL;
    for (size_t k = 0; n != NULL; n = n->next[0], k++) {
        if (k == max_rows && last != NULL) {
            return last; /* more rows follow: resume after this one */
        }
        emit_row(w, id, &base, n->item, false, r);
        last = n->item;
    }
    return NULL;
}


static void emit_record(storage__snap_t *w, uint8_t kind, uint64_t id, uint32_t arg)
{
    size_t start = storage__rec_begin(&w->in, kind, id);
    if (kind == STORAGE__REC_PHYSICAL) {
        base_buf_put_u32(&w->in, arg);
    }
    storage__rec_end(&w->in, start);
    w->n_records++;
}


void storage__snap_table(storage__snap_t *w, const storage_table_t *t)
{
    emit_record(w, STORAGE__REC_CREATE, t->id, 0);
    if (t->n_physical != 1) {
        emit_record(w, STORAGE__REC_PHYSICAL, t->id, t->n_physical);
    }
}


storage__snap_t *storage__snap_open(const char *dir, uint64_t gen, base_error_t *err)
{
    storage__snap_t *w = base_calloc(1, sizeof(*w));
    w->fd = -1;
    w->dir = dir;
    storage__path(w->tmp, sizeof(w->tmp), dir, "snapshot-", gen, ".lz4.tmp");
    storage__path(w->path, sizeof(w->path), dir, "snapshot-", gen, ".lz4");
    base_buf_init(&w->in);
    base_buf_init(&w->out);
    w->prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    w->prefs.frameInfo.blockSizeID = LZ4F_max256KB;

    size_t rc = LZ4F_createCompressionContext(&w->cctx, LZ4F_VERSION);
    if (LZ4F_isError(rc)) {
        fail(w, LZ4F_getErrorName(rc), 0);
        goto done;
    }
    w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0) {
        fail(w, "open", errno);
        goto done;
    }
    base_buf_reserve(&w->out, LZ4F_HEADER_SIZE_MAX);
    rc = LZ4F_compressBegin(w->cctx, w->out.data, w->out.cap, &w->prefs);
    if (LZ4F_isError(rc)) {
        fail(w, LZ4F_getErrorName(rc), 0);
        goto done;
    }
    w->out.len = rc;

done:
    if (w->failed != NULL) {
        storage__snap_error(w, err);
        storage__snap_free(w);
        return NULL;
    }
    return w;
}


bool storage__snap_failed(const storage__snap_t *w)
{
    return w->failed != NULL;
}


int storage__snap_error(const storage__snap_t *w, base_error_t *err)
{
    return base_error_set(err, 0, "storage: cannot write snapshot %s: %s%s%s", w->path,
                          w->failed != NULL ? w->failed : "abandoned", w->errnum != 0 ? ": " : "",
                          w->errnum != 0 ? strerror(w->errnum) : "");
}


int storage__snap_finish(storage__snap_t *w)
{
    uint64_t count = w->n_records;
    size_t start = storage__rec_begin(&w->in, STORAGE__REC_END, count);
    storage__rec_end(&w->in, start);
    compress_in(w);
    base_buf_reserve(&w->out, LZ4F_compressBound(0, &w->prefs));
    size_t rc = LZ4F_compressEnd(w->cctx, w->out.data + w->out.len, w->out.cap - w->out.len, NULL);
    if (LZ4F_isError(rc)) {
        fail(w, LZ4F_getErrorName(rc), 0);
    } else {
        w->out.len += rc;
        write_out(w);
    }
    return w->failed == NULL ? BASE_OK : BASE_ERROR;
}


int storage__snap_commit(storage__snap_t *w)
{
    if (w->failed == NULL && fsync(w->fd) != 0) {
        fail(w, "fsync", errno);
    }
    if (close(w->fd) != 0) {
        fail(w, "close", errno);
    }
    w->fd = -1;
    if (w->failed == NULL && rename(w->tmp, w->path) != 0) {
        fail(w, "rename", errno);
    }
    if (w->failed == NULL && storage__fsync_dir(w->dir) != BASE_OK) {
        fail(w, "fsync of the directory", errno);
    }
    w->committed = w->failed == NULL;
    return w->committed ? BASE_OK : BASE_ERROR;
}


void storage__snap_free(storage__snap_t *w)
{
    if (w == NULL) {
        return;
    }
    if (w->fd >= 0) {
        close(w->fd);
    }
    if (!w->committed) {
        unlink(w->tmp); /* never a snapshot under its final name */
    }
    LZ4F_freeCompressionContext(w->cctx);
    storage__row_fini(&w->row);
    base_buf_fini(&w->in);
    base_buf_fini(&w->out);
    base_free(w);
}


/* ---- loading ------------------------------------------------------------- */

/* Replays the records of the stream; NULL when they end in a valid END
 * record, else why not (*at: the offset of the record at fault). */
static const char *replay(storage_db_t *db, storage__stream_t *st, uint64_t *at)
{
    storage__replay_t rp = {0};
    const char *why = "no end record (truncated)";
    uint64_t count = 0;
    while (storage__stream_more(st)) {
        const uint8_t *p;
        size_t n;
        *at = st->at;
        if (storage__stream_record(st, &p, &n) != STORAGE__FRAME_OK) {
            why = "bad record length or checksum";
            break;
        }
        if (p[0] == STORAGE__REC_END) {
            bool ok = n == 9 && base_load_u64(p + 1) == count && !storage__stream_more(st);
            why = ok ? NULL : "misplaced end record";
            break;
        }
        why = storage__rec_apply(db, &rp, p, n);
        if (why != NULL) {
            break;
        }
        count++;
        why = "no end record (truncated)";
    }
    storage__replay_fini(&rp);
    return why;
}


int storage__snapshot_load(storage_db_t *db, uint64_t gen, base_error_t *err)
{
    char path[4096];
    storage__path(path, sizeof(path), db->dur->dir, "snapshot-", gen, ".lz4");
    storage__stream_t st;
    int rc = storage__stream_open(&st, path, true, err);
    if (rc != BASE_OK) {
        return rc;
    }
    uint64_t at = 0;
    const char *why = replay(db, &st, &at);
    if (st.why != NULL) {
        /* The frame or the file failed: that, not what it did to the records. */
        rc = base_error_set(err, 0, "storage: %s: invalid snapshot: %s%s%s", path, st.why,
                            st.errnum != 0 ? ": " : "", st.errnum != 0 ? strerror(st.errnum) : "");
    } else if (why != NULL) {
        rc = base_error_set(err, 0, "storage: %s: invalid snapshot at byte %" PRIu64 ": %s", path,
                            at, why);
    }
    storage__stream_close(&st);
    return rc;
}
