/*
 * checkpoint.c - the background checkpoint, part of storage/: a snapshot
 * written by the caller's loop a slice at a time between requests, while
 * writes go on.
 *
 * It used to be a forked child writing from copy-on-write memory (Redis's
 * BGSAVE). On a virtual machine every page fault and TLB flush traps to
 * the hypervisor, and after a fork every write to a page the child still
 * shares is such a fault: a durable insert ran at half the in-memory rate
 * while a snapshot was written, and forking a large process paused the loop
 * for milliseconds. Here nothing is shared: the loop calls
 * storage_db_checkpoint_step, which encodes partitions in token order until
 * its time budget is spent (or the snapshot writer's compressing thread has
 * enough queued); the final fsync and rename, and deleting the files the
 * snapshot replaces, run on a thread.
 *
 * The snapshot is fuzzy: each partition is written as it is when the
 * cursor reaches it, some before and some after writes made during the
 * checkpoint. It is still exact together with the log, because the
 * checkpoint switches to commitlog-<gen>.log first, so every change made
 * after its start is in that log, and replaying a change on a state that
 * already holds it changes nothing: cells, markers and deletions all merge
 * by timestamp (last write wins, ties broken by value), and a TRUNCATE or
 * DROP in the log clears whatever the snapshot held of the table. So
 * snapshot-<gen> + commitlog-<gen>... rebuild the same state as the older
 * snapshot and every log after it, and the older files are deleted only
 * once the snapshot is whole on disk.
 *
 * Invariants: at most one checkpoint runs; its tables are the ids that
 * existed at its start (one dropped since is skipped; one created since is
 * in the log whole); the cursor is a key, never a pointer, so it survives
 * writes that move partitions or truncate the table; a partition of many
 * rows is written in slices too, resuming after the last clustering key.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "storage/storage_int.h"

/* Work done between two looks at the clock. */
#define CHECK_EVERY    32
/* Rows of one partition written between two looks at the clock. */
#define ROWS_PER_SLICE 256
/* Partitions asked for ahead of the one being written: they lie in memory
 * in creation order, not token order, and each was a cache and TLB miss,
 * 85% of the walk. */
#define PREFETCH_AHEAD 8
/* How often the caller should look again while the thread finishes. */
#define FINISH_POLL_MS 5

struct storage__ckpt_s {
    storage__snap_t *snap;
    const char *dir; /* the database's, which outlives the checkpoint */
    uint64_t gen;
    uint64_t failures; /* d->failures at the start */
    uint64_t *ids;     /* the tables at the start, in order */
    size_t n_ids;
    size_t at;        /* ids[at] is being written */
    bool table_begun; /* its CREATE is written */
    bool has_last;    /* (last_token, last_pk) is its last partition written */
    int64_t last_token;
    base_buf_t last_pk;
    bool in_part; /* that partition is written up to last_ck only */
    base_buf_t last_ck;
    bool finishing; /* the thread commits the snapshot */
    pthread_t thread;
    atomic_bool done;
    int rc; /* the thread's, once done */
};


static void ckpt_free(storage__ckpt_t *c)
{
    if (c == NULL) {
        return;
    }
    if (c->finishing) {
        pthread_join(c->thread, NULL); /* an fsync cannot be called off */
    }
    storage__snap_free(c->snap); /* removes the temp file unless committed */
    base_free(c->ids);
    base_buf_fini(&c->last_pk);
    base_buf_fini(&c->last_ck);
    base_free(c);
}


void storage__ckpt_abandon(storage__durable_t *d)
{
    ckpt_free(d->ckpt);
    d->ckpt = NULL;
}


int storage_db_checkpoint_start(storage_db_t *db, base_error_t *err)
{
    storage__durable_t *d = db->dur;
    if (d == NULL) {
        return BASE_OK;
    }
    if (d->ckpt != NULL) {
        return BASE_AGAIN;
    }
    uint64_t room;
    int fd = storage__log_next(d, &room, err);
    if (fd < 0) {
        return BASE_ERROR;
    }
    uint64_t gen = d->gen + 1;
    storage__snap_t *snap = storage__snap_open(d->dir, gen, &d->snap_kept, err);
    if (snap == NULL) {
        storage__log_unmake(d, fd);
        storage__prep_start(d); /* if it took the one made ahead */
        return BASE_ERROR;
    }
    /* Every change from here on is in the new log: the snapshot may hold it
     * or not, replay makes it so either way. */
    storage__log_switch(d, fd, room);
    /* The next log is made ahead for when this one is full or the next
     * checkpoint comes, sized after the data as it is now. */
    d->log_segment = storage__log_prepare_size(storage_db_data_bytes(db));
    storage__prep_start(d);
    d->since_ckpt = 0;

    storage__ckpt_t *c = base_calloc(1, sizeof(*c));
    c->snap = snap;
    c->dir = d->dir;
    c->gen = gen;
    c->failures = d->failures;
    base_buf_init(&c->last_pk);
    base_buf_init(&c->last_ck);
    for (const storage_table_t *t = db->tables; t != NULL; t = t->next) {
        c->n_ids++;
    }
    c->ids = base_malloc((c->n_ids + 1) * sizeof(uint64_t));
    size_t i = 0;
    for (const storage_table_t *t = db->tables; t != NULL; t = t->next) {
        c->ids[i++] = t->id;
    }
    d->ckpt = c;
    return BASE_OK;
}


static void remember(base_buf_t *b, const uint8_t *p, size_t n)
{
    base_buf_reset(b);
    base_buf_put(b, p, n);
}


/* Writes rows of p after last_ck until it is whole (true) or the deadline
 * passes with rows left (false). */
static bool continue_partition(storage__ckpt_t *c, uint64_t id, const storage_partition_t *p,
                               int64_t deadline)
{
    for (;;) {
        storage_bound_t after = {c->last_ck.data, c->last_ck.len, false};
        const uint8_t *blk =
            storage__snap_partition(c->snap, id, p, c->in_part ? &after : NULL, ROWS_PER_SLICE);
        if (blk == NULL) {
            c->in_part = false;
            return true;
        }
        size_t len;
        const uint8_t *ck = storage__blk_ck(blk, &len);
        remember(&c->last_ck, ck, len);
        c->in_part = true;
        if (base_mono_us() >= deadline || storage__snap_failed(c->snap) ||
            storage__snap_busy(c->snap)) {
            return false;
        }
    }
}


/* Asks for the partitions at *ahead and n - 1 after it, moving *ahead on. */
static void prefetch(storage__pt_pos_t *ahead, int n)
{
    for (int i = 0; i < n && storage__pt_at(*ahead) != NULL; i++) {
        __builtin_prefetch(storage__pt_at(*ahead));
        *ahead = storage__pt_next(*ahead);
    }
}


/* The first partition of t not written yet. */
static storage__pt_pos_t resume_at(storage__ckpt_t *c, storage_table_t *t,
                                   const storage_partition_t **partial)
{
    *partial = NULL;
    if (!c->has_last) {
        return storage__pt_first(&t->parts);
    }
    storage__pt_pos_t pos =
        storage__pt_seek(&t->parts, c->last_token, c->last_pk.data, c->last_pk.len);
    const storage_partition_t *p = storage__pt_at(pos);
    bool same = p != NULL && p->token == c->last_token && p->pk_len == c->last_pk.len &&
                (p->pk_len == 0 || memcmp(storage__part_pk(p), c->last_pk.data, p->pk_len) == 0);
    if (!same) {
        c->in_part = false; /* truncated meanwhile: the log's TRUNCATE covers it */
        return pos;
    }
    if (c->in_part) {
        *partial = p;
    }
    return storage__pt_next(pos);
}


/* Writes t's partitions from the cursor on: true once all are written,
 * false when the deadline passed first. */
static bool write_partitions(storage__ckpt_t *c, storage_table_t *t, int64_t deadline)
{
    const storage_partition_t *partial;
    storage__pt_pos_t pos = resume_at(c, t, &partial);
    if (partial != NULL && !continue_partition(c, t->id, partial, deadline)) {
        return false;
    }
    storage__pt_pos_t ahead = pos;
    prefetch(&ahead, PREFETCH_AHEAD);
    for (size_t n = 1; storage__pt_at(pos) != NULL; pos = storage__pt_next(pos), n++) {
        const storage_partition_t *p = storage__pt_at(pos);
        prefetch(&ahead, 1);
        c->has_last = true;
        c->last_token = p->token;
        remember(&c->last_pk, storage__part_pk(p), p->pk_len);
        c->in_part = false;
        if (!continue_partition(c, t->id, p, deadline)) {
            return false;
        }
        if ((n % CHECK_EVERY == 0 && (base_mono_us() >= deadline || storage__snap_busy(c->snap))) ||
            storage__snap_failed(c->snap)) {
            return false; /* resumes after p */
        }
    }
    return true;
}


static void *finish_thread(void *arg)
{
    base_thread_name("cce-checkpoint");
    storage__ckpt_t *c = arg;
    c->rc = storage__snap_commit(c->snap);
    if (c->rc == BASE_OK) {
        /* Freeing a large file's blocks is journal work: not on the loop.
         * Nothing else touches these files (the sync thread may still hold
         * a retired log open; its unlinked blocks go when it closes it). */
        storage__remove_before(c->dir, c->gen);
    }
    atomic_store(&c->done, true);
    return NULL;
}


/* Everything is written: the END record, then fsync and rename on a thread
 * (they may take a while on a busy disk). */
static int start_finish(storage__ckpt_t *c)
{
    if (storage__snap_finish(c->snap) != BASE_OK) {
        return BASE_ERROR;
    }
    if (pthread_create(&c->thread, NULL, finish_thread, c) != 0) {
        finish_thread(c); /* no thread to be had: commit here */
        return BASE_OK;
    }
    c->finishing = true;
    return BASE_OK;
}


/* The thread is done: keep the snapshot and drop what it replaces. */
static int complete(storage__durable_t *d, base_error_t *err)
{
    storage__ckpt_t *c = d->ckpt;
    int rc = c->rc;
    if (rc != BASE_OK) {
        storage__snap_error(c->snap, err);
    } else {
        /* The log failed before this checkpoint began only: the snapshot
         * holds every change it missed, and the new log the rest. */
        if (d->failures == c->failures) {
            d->failed = false;
            d->reported = false;
        }
    }
    storage__ckpt_abandon(d);
    return rc;
}


int storage_db_checkpoint_step(storage_db_t *db, int64_t budget_us, int *next_ms, base_error_t *err)
{
    storage__durable_t *d = db->dur;
    *next_ms = 0;
    if (d == NULL || d->ckpt == NULL) {
        return BASE_OK;
    }
    storage__ckpt_t *c = d->ckpt;
    if (c->finishing || atomic_load(&c->done)) {
        if (!atomic_load(&c->done)) {
            *next_ms = FINISH_POLL_MS;
            return BASE_AGAIN;
        }
        return complete(d, err);
    }
    int64_t deadline = base_mono_us() + budget_us;
    while (c->at < c->n_ids) {
        storage_table_t *t = storage__db_find(db, c->ids[c->at]);
        if (t != NULL) { /* else dropped meanwhile: its DROP is in the new log */
            if (!c->table_begun) {
                storage__snap_table(c->snap, t);
                c->table_begun = true;
            }
            if (!write_partitions(c, t, deadline)) {
                break;
            }
        }
        c->at++;
        c->table_begun = false;
        c->has_last = false;
        c->in_part = false;
    }
    if (!storage__snap_failed(c->snap) && c->at < c->n_ids) {
        /* the writer's thread has enough to compress: give it a moment */
        *next_ms = storage__snap_busy(c->snap) ? 1 : 0;
        return BASE_AGAIN;
    }
    if (storage__snap_failed(c->snap) || start_finish(c) != BASE_OK) {
        storage__snap_error(c->snap, err);
        storage__ckpt_abandon(d);
        return BASE_ERROR;
    }
    *next_ms = c->finishing ? FINISH_POLL_MS : 0;
    return BASE_AGAIN;
}


int storage_db_checkpoint_poll(storage_db_t *db, bool wait, base_error_t *err)
{
    storage__durable_t *d = db->dur;
    if (d == NULL || d->ckpt == NULL) {
        return BASE_OK;
    }
    if (!wait) {
        return atomic_load(&d->ckpt->done) ? complete(d, err) : BASE_AGAIN;
    }
    int next_ms;
    int rc;
    while ((rc = storage_db_checkpoint_step(db, INT64_MAX / 2, &next_ms, err)) == BASE_AGAIN) {
        if (next_ms > 0) {
            usleep((useconds_t)next_ms * 1000);
        }
    }
    return rc;
}


bool storage_db_checkpoint_running(const storage_db_t *db)
{
    return db->dur != NULL && db->dur->ckpt != NULL;
}
