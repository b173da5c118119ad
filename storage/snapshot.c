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
 * The stream is one LZ4 frame over records that each carry a CRC32.
 * Loading decodes it through a reused window (stream.c) and applies each
 * record as it arrives; the CRCs are what it checks, so no damaged record
 * is applied, and a snapshot found invalid part way fails the load (the
 * caller clears the database). The frame has no content checksum: its
 * XXH32, redundant with the CRCs, was 4% of the machine's CPU under a 30 s
 * durable load (liblz4 as Debian builds it); older snapshots that have one
 * load the same, their checksum left unchecked. It is written to a temp file,
 * fsync'ed and renamed over, then the directory is fsync'ed: a snapshot
 * file either is whole or does not exist under its final name.
 *
 * The writer is incremental (storage__snap_*): checkpoint.c feeds it a
 * table or a slice of a partition at a time between requests (a checkpoint
 * at shutdown is the same walk run to its end). The caller only encodes
 * records: every CHUNK of them goes to the writer's thread, which
 * compresses it (256 KB LZ4 blocks) and writes it. Compression was two
 * thirds of the loop's share of a checkpoint, and every millisecond of it
 * stretched the latency of the requests waiting behind a slice. At most
 * QUEUE_SOFT chunks wait for the thread before storage__snap_busy asks
 * the caller to come back later; the thread hands emptied chunks back, so
 * a checkpoint cycles a few buffers instead of mapping fresh ones. And
 * the next checkpoint cycles the same (storage__snap_kept_t): each one
 * had mapped its buffers and LZ4 context afresh, 400-500 page faults on
 * the loop within 100 ms of its start, each slow on a virtual machine
 * whose hypervisor backs memory at its first touch (one such burst came
 * with a 54 ms stall that the machine's pause probe did not explain).
 * Only the first checkpoint of a process maps them.
 *
 * Invariants: the thread alone touches the LZ4 context, the out buffer and
 * the file from the first chunk until it is joined (storage__snap_commit,
 * storage__snap_free); chunks are compressed in the order they were
 * queued; failed is set once, before has_failed; what a writer keeps for
 * the next changes hands only on the caller's thread, at storage__snap_open
 * and at storage__snap_free after the join.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include <lz4frame.h>

#include "storage/storage_int.h"

/* Compress in chunks of about this much. */
#define CHUNK            (256u << 10)
/* Rows with more cell bytes are written as several mutations. */
#define ROW_RECORD_BYTES (8u << 20)
/* Chunks waiting for the thread before the caller is asked to wait. */
#define QUEUE_SOFT       4
/* A buffer larger than this (one that took a row of megabytes) is freed
 * rather than kept for the next checkpoint. */
#define KEEP_MAX         (1u << 20)

typedef struct chunk_s {
    struct chunk_s *next;
    base_buf_t buf;
} chunk_t;

struct storage__snap_kept_s {
    chunk_t *chunks; /* empty */
    base_buf_t in, out;
    LZ4F_cctx *cctx;
};

struct storage__snap_s {
    int fd;
    char tmp[4096];  /* snapshot-<gen>.lz4.tmp */
    char path[4096]; /* snapshot-<gen>.lz4 */
    const char *dir;
    LZ4F_cctx *cctx;
    LZ4F_preferences_t prefs;
    storage__snap_kept_t **kept_at; /* where to leave what is kept, NULL: nowhere */
    base_buf_t in;                  /* records not yet compressed */
    base_buf_t out;                 /* compressed bytes */
    uint64_t n_records;
    const char *failed; /* what failed first, NULL while all is well */
    int errnum;
    storage__row_t row; /* a decoded row, reused */
    uint64_t size;      /* bytes written to the file */
    uint64_t writeback; /* of which writeback was started (storage__writeback) */
    bool committed;
    atomic_bool has_failed;
    /* The compressing thread and what it is handed, under mu. */
    pthread_t thread;
    bool running; /* started and not joined */
    pthread_mutex_t mu;
    pthread_cond_t cond;
    chunk_t *head, *tail; /* queued, oldest first */
    size_t queued;
    chunk_t *spare; /* emptied by the thread, for the caller to reuse */
    bool ending;    /* the last chunk is queued: end the frame, then stop */
    bool abort;     /* stop now, writing nothing more */
};

static void fail(storage__snap_t *w, const char *what, int errnum)
{
    if (w->failed == NULL) {
        w->failed = what;
        w->errnum = errnum;
        atomic_store(&w->has_failed, true);
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


/* On the thread: compresses and writes b, leaving it empty. */
static void compress(storage__snap_t *w, base_buf_t *b)
{
    if (b->len == 0 || atomic_load(&w->has_failed)) {
        base_buf_reset(b);
        return;
    }
    storage__rec_seal(b->data, b->len);
    base_buf_reserve(&w->out, LZ4F_compressBound(b->len, &w->prefs));
    size_t n = LZ4F_compressUpdate(w->cctx, w->out.data + w->out.len, w->out.cap - w->out.len,
                                   b->data, b->len, NULL);
    if (LZ4F_isError(n)) {
        fail(w, LZ4F_getErrorName(n), 0);
    } else {
        w->out.len += n;
        write_out(w);
    }
    base_buf_reset(b);
}


/* On the thread, after the last chunk: the end of the LZ4 frame. */
static void end_frame(storage__snap_t *w)
{
    if (atomic_load(&w->has_failed)) {
        return;
    }
    base_buf_reserve(&w->out, LZ4F_compressBound(0, &w->prefs));
    size_t rc = LZ4F_compressEnd(w->cctx, w->out.data + w->out.len, w->out.cap - w->out.len, NULL);
    if (LZ4F_isError(rc)) {
        fail(w, LZ4F_getErrorName(rc), 0);
    } else {
        w->out.len += rc;
        write_out(w);
    }
}


static void *compress_main(void *arg)
{
    base_thread_name("cce-compress");
    /* On two cores the loop, the log's writer and a client already want
     * both: at an equal share, the compressor starting with a checkpoint
     * preempted the loop for up to 13 ms. At nice 10 it takes what they
     * leave (durable 30 s loads, 5 paired runs: 269k against 263k inserts/s,
     * max 10.8 against 11.6 ms on average); a checkpoint it slows only
     * makes the loop's slices wait for it (storage__snap_busy). */
    base_thread_nice(STORAGE__COMPRESS_NICE);
    storage__snap_t *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->head == NULL && !w->ending && !w->abort) {
            pthread_cond_wait(&w->cond, &w->mu);
        }
        if (w->abort) {
            break;
        }
        if (w->head == NULL) {
            pthread_mutex_unlock(&w->mu);
            end_frame(w);
            pthread_mutex_lock(&w->mu);
            break;
        }
        chunk_t *c = w->head;
        w->head = c->next;
        if (w->head == NULL) {
            w->tail = NULL;
        }
        w->queued--;
        pthread_mutex_unlock(&w->mu);
        compress(w, &c->buf);
        pthread_mutex_lock(&w->mu);
        c->next = w->spare;
        w->spare = c;
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}


/* Hands what is encoded to the thread (compresses it here if there is
 * none), swapping in a spare chunk's empty buffer. */
static void hand_over(storage__snap_t *w)
{
    if (w->in.len == 0) {
        return;
    }
    if (!w->running) {
        compress(w, &w->in);
        return;
    }
    pthread_mutex_lock(&w->mu);
    chunk_t *c = w->spare;
    if (c != NULL) {
        w->spare = c->next;
    } else {
        c = base_calloc(1, sizeof(*c));
        base_buf_init(&c->buf);
    }
    base_buf_swap(&c->buf, &w->in);
    c->next = NULL;
    if (w->tail != NULL) {
        w->tail->next = c;
    } else {
        w->head = c;
    }
    w->tail = c;
    w->queued++;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->mu);
}


/* Joins the thread, which first does everything queued unless abort. */
static void join(storage__snap_t *w, bool abort)
{
    if (!w->running) {
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->ending = true;
    w->abort = abort;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    w->running = false;
}


static void chunks_free(chunk_t *c)
{
    while (c != NULL) {
        chunk_t *next = c->next;
        base_buf_fini(&c->buf);
        base_free(c);
        c = next;
    }
}


void storage__snap_kept_free(storage__snap_kept_t *k)
{
    if (k == NULL) {
        return;
    }
    chunks_free(k->chunks);
    base_buf_fini(&k->in);
    base_buf_fini(&k->out);
    LZ4F_freeCompressionContext(k->cctx);
    base_free(k);
}


/* Empties b into *keep if it is not too large, else frees it. */
static void keep_buf(base_buf_t *b, base_buf_t *keep)
{
    if (b->cap <= KEEP_MAX) {
        base_buf_reset(b);
        base_buf_swap(b, keep);
    }
    base_buf_fini(b);
    base_buf_init(b);
}


/* Moves the chunks of list onto *to, emptied (those grown too large are
 * freed). */
static void keep_chunks(chunk_t *list, chunk_t **to)
{
    while (list != NULL) {
        chunk_t *c = list;
        list = c->next;
        if (c->buf.cap > KEEP_MAX) {
            base_buf_fini(&c->buf);
            base_free(c);
            continue;
        }
        base_buf_reset(&c->buf);
        c->next = *to;
        *to = c;
    }
}


/* After the thread is joined: leaves the buffers and the LZ4 context where
 * the next writer will look for them. */
static void keep(storage__snap_t *w)
{
    if (w->kept_at == NULL) {
        return;
    }
    storage__snap_kept_t *k = base_calloc(1, sizeof(*k));
    base_buf_init(&k->in);
    base_buf_init(&k->out);
    keep_chunks(w->head, &k->chunks);
    keep_chunks(w->spare, &k->chunks);
    w->head = w->tail = w->spare = NULL;
    keep_buf(&w->in, &k->in);
    keep_buf(&w->out, &k->out);
    k->cctx = w->cctx;
    w->cctx = NULL;
    storage__snap_kept_free(*w->kept_at); /* none: one writer at a time takes it */
    *w->kept_at = k;
}


static void emit_mutation(storage__snap_t *w, uint64_t id, const storage_mutation_t *m)
{
    size_t start = storage__rec_begin(&w->in, STORAGE__REC_MUTATION, id);
    storage__rec_put_mutation(&w->in, m, 0);
    storage__rec_end(&w->in, start);
    w->n_records++;
    if (w->in.len >= CHUNK) {
        hand_over(w);
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


storage__snap_t *storage__snap_open(const char *dir, uint64_t gen, storage__snap_kept_t **kept,
                                    base_error_t *err)
{
    storage__snap_t *w = base_calloc(1, sizeof(*w));
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->fd = -1;
    w->dir = dir;
    storage__path(w->tmp, sizeof(w->tmp), dir, "snapshot-", gen, ".lz4.tmp");
    storage__path(w->path, sizeof(w->path), dir, "snapshot-", gen, ".lz4");
    base_buf_init(&w->in);
    base_buf_init(&w->out);
    w->prefs.frameInfo.contentChecksumFlag = LZ4F_noContentChecksum; /* the CRCs check it */
    w->prefs.frameInfo.blockSizeID = LZ4F_max256KB;
    w->kept_at = kept;
    if (kept != NULL && *kept != NULL) {
        storage__snap_kept_t *k = *kept;
        *kept = NULL;
        base_buf_swap(&w->in, &k->in);
        base_buf_swap(&w->out, &k->out);
        w->spare = k->chunks;
        w->cctx = k->cctx; /* a frame begun anew resets it, even after one abandoned */
        base_free(k);      /* emptied: its buffers and context are the writer's now */
    }

    size_t rc = w->cctx != NULL ? 0 : LZ4F_createCompressionContext(&w->cctx, LZ4F_VERSION);
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
    /* Without a thread (none to be had) the caller compresses as it goes. */
    w->running = pthread_create(&w->thread, NULL, compress_main, w) == 0;

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
    return atomic_load(&w->has_failed);
}


bool storage__snap_busy(storage__snap_t *w)
{
    if (!w->running) {
        return false;
    }
    pthread_mutex_lock(&w->mu);
    bool busy = w->queued >= QUEUE_SOFT;
    pthread_mutex_unlock(&w->mu);
    return busy;
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
    hand_over(w);
    if (!w->running) {
        end_frame(w);
    } else {
        pthread_mutex_lock(&w->mu);
        w->ending = true; /* the thread ends the frame after the last chunk */
        pthread_cond_signal(&w->cond);
        pthread_mutex_unlock(&w->mu);
    }
    return storage__snap_failed(w) ? BASE_ERROR : BASE_OK;
}


int storage__snap_commit(storage__snap_t *w)
{
    join(w, false); /* everything compressed and written first */
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
    join(w, true);
    keep(w);
    chunks_free(w->head); /* those not kept */
    chunks_free(w->spare);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cond);
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
    int rc = storage__stream_open(&st, path, true, &db->dur->windows, err);
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
