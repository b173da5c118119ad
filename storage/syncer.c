/*
 * syncer.c - the commit log's threads, part of storage/: the writer
 * (write-behind with storage_sync_cfg_t.log_thread) and the sync thread of
 * group commit (STORAGE_SYNC_GROUP) and periodic sync
 * (STORAGE_SYNC_PERIODIC); with STORAGE_SYNC_NONE the sync thread only
 * closes the logs a checkpoint switched out.
 *
 * Writing. Without write-behind the caller's thread appends records with
 * write(2) and moves the written position. With it, the caller hands each
 * flush's records over (storage__syncer_queue) and the writer thread writes
 * them, so a write(2) that waits on the file system (an ext4 journal
 * commit, a page under writeback) stalls no request: on the event loop such
 * writes took 5-30 ms under a sustained load. The caller holds its
 * acknowledgements until the written position passes them
 * (storage_db_ack_position; the notify fd says when to look). Records handed
 * over before a log switch belong to the old log: they move to the tail,
 * which the writer writes to the old descriptor before anything newer.
 * Past STORAGE__LOG_QUEUE_MAX waiting, a hand-over waits for the writer to
 * take them, so a stalled disk bounds memory as a write(2) of its own would.
 *
 * Waking. The loop wakes the writer at each connection's hand-over (a few
 * times a turn, so it writes one connection's records while the loop serves
 * the next), so each wake-up must be cheap for the loop: the condition is
 * signalled after the mutex is let go (a thread woken under it woke only to
 * wait for it, a second switch each round: 13,900 in a 6 s durable insert
 * load), and both threads are batch threads (base_thread_batch), which run
 * beside the loop or while it waits rather than preempting it on its own
 * core.
 *
 * Syncing is a thread of its own, so that no fdatasync, no start of
 * writeback (which waits while the device's queue is full) and no closing
 * of a deleted log (which frees its blocks: 50-230 ms for a few hundred MB)
 * ever holds a write back. GROUP: a round fdatasyncs whatever was written
 * while the previous one ran (Cassandra's group commit log, PostgreSQL's
 * commit_delay idea), and the caller acknowledges a write once the synced
 * position reaches it. PERIODIC: a round runs once the interval is up, and
 * a power loss can cost the last interval of writes; between rounds the
 * writeback of every STORAGE__WRITEBACK_BYTES written is started
 * (sync_file_range, as RocksDB's wal_bytes_per_sync): left to the interval,
 * a gigabyte of dirty log made each fdatasync take half a second. A log
 * switched out by a checkpoint is synced and closed as soon as all of it is
 * written, before the checkpoint deletes it, so the unlink frees its
 * blocks on the checkpoint's thread; one deleted already is not synced (the
 * snapshot holds it).
 *
 * Invariants:
 *   - synced <= written <= queued, all monotonic over the life of the
 *     database (they count bytes over every log generation);
 *   - bytes reach the files in the order they were handed over: the tail
 *     (older log) before the queue, one round at a time;
 *   - every byte below written is in the current log or a retired one, and
 *     a retired log is closed only once written passes its end: so a
 *     round that syncs the retired logs and the current one covers the
 *     written position it read first;
 *   - after a failed write or fdatasync written and synced never move
 *     again and the log refuses writes (the kernel may have dropped the
 *     dirty pages; a record may be half written).
 */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "storage/storage_int.h"

/* A buffer this large is freed after its round rather than kept. */
#define KEEP_MAX (8u << 20)


static void buf_done(base_buf_t *b)
{
    if (b->cap > KEEP_MAX) {
        base_buf_fini(b);
        base_buf_init(b);
    }
    base_buf_reset(b);
}


static void notify(storage__syncer_t *s)
{
    if (s->notify_fd >= 0) {
        uint64_t one = 1;
        ssize_t w = write(s->notify_fd, &one, sizeof(one));
        (void)w; /* an eventfd counter only overflows after 2^64 - 2 rounds */
    }
}


/* Under mu: the failing thread records why. */
static void fail(storage__syncer_t *s, const char *what, int errnum)
{
    if (!atomic_load(&s->failed)) {
        s->what = what;
        s->errnum = errnum;
        atomic_store(&s->failed, true);
    }
}


static void run_hook(storage__syncer_t *s, void (*hook)(void *arg))
{
    if (hook != NULL) {
        /* before taking the work: a held round covers all that came meanwhile */
        pthread_mutex_unlock(&s->mu);
        hook(s->hook_arg);
        pthread_mutex_lock(&s->mu);
    }
}


static struct timespec due_after(int ms)
{
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    at.tv_sec += ms / 1000;
    at.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (at.tv_nsec >= 1000000000L) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000L;
    }
    return at;
}


static bool past(const struct timespec *at)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > at->tv_sec || (now.tv_sec == at->tv_sec && now.tv_nsec >= at->tv_nsec);
}


/* Under mu: PERIODIC and NONE start the writeback of every
 * STORAGE__WRITEBACK_BYTES written. */
static bool writeback_due(const storage__syncer_t *s)
{
    return s->mode != STORAGE_SYNC_GROUP &&
           atomic_load(&s->written) - s->writeback >= STORAGE__WRITEBACK_BYTES;
}

/* Under mu, on the sync thread: starts writing back what the log holds, so
 * the next fdatasync (or the kernel's flusher) finds little to do, and
 * says whether it did (mu was let go meanwhile). It promises nothing
 * (synced stays).
 *
 * It is meant to wait for nothing, but it does when the device's queue is
 * full: 225 and 409 ms under a checkpoint's snapshot writes. So it never
 * runs on the writer, whose every write answers requests. And it stops
 * STORAGE__WRITEBACK_TAIL short of the end: a page is locked while its
 * writeback is being queued, and the writer appending to that page waited
 * for it (20 ms in write(2) behind a full queue). */
static bool start_writeback(storage__syncer_t *s, int fd)
{
    if (fd < 0 || !writeback_due(s)) {
        return false;
    }
    s->writeback = atomic_load(&s->written);
    run_hook(s, s->before_sync);
    pthread_mutex_unlock(&s->mu);
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > (off_t)STORAGE__WRITEBACK_TAIL) {
        off_t end =
            (st.st_size - (off_t)STORAGE__WRITEBACK_TAIL) & ~(off_t)(STORAGE__WRITEBACK_TAIL - 1);
        (void)sync_file_range(fd, 0, end, SYNC_FILE_RANGE_WRITE); /* advice: the sync follows */
    }
    pthread_mutex_lock(&s->mu);
    return true;
}


/* The caller's waits for the threads (storage_db_disk_waits): counted as
 * one begins, so a wait under way is seen, and timed once it ends. The
 * clock is read only when a wait begins: a hand-over that does not wait
 * (nearly all, one per turn of the loop) reads nothing. */
typedef struct wait_s {
    bool on;
    int64_t since;
} wait_t;

static void wait_begins(storage__syncer_t *s, wait_t *w)
{
    if (!w->on) {
        w->on = true;
        w->since = base_mono_us();
        atomic_fetch_add(&s->waits, 1);
    }
}

static void wait_ends(storage__syncer_t *s, const wait_t *w)
{
    if (w->on) {
        atomic_fetch_add(&s->waited_us, (uint64_t)(base_mono_us() - w->since));
    }
}


/* ---- the writer ---------------------------------------------------------- */

static bool has_writes(const storage__syncer_t *s)
{
    return s->queue.len > 0 || s->tail.len > 0;
}


static bool write_to(int fd, base_buf_t *b, int *errnum)
{
    storage__rec_seal(b->data, b->len);
    /* A torn record is cut off again (storage__append): in a log another one
     * follows (the tail of a switched-out log), replay would refuse to open
     * over it. */
    if (b->len > 0 && storage__append(fd, b->data, b->len) != BASE_OK) {
        *errnum = errno;
        return false;
    }
    return true;
}


static bool closable(storage__syncer_t *s)
{
    return s->n_retired > 0 && s->retired[0].end <= atomic_load(&s->written);
}


static void *writer_main(void *arg)
{
    base_thread_name("cce-logwriter");
    base_thread_batch();
    storage__syncer_t *s = arg;
    base_buf_t tail;
    base_buf_init(&tail);
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->stop_writing && !has_writes(s)) {
            pthread_cond_wait(&s->write_cond, &s->mu);
        }
        if (!has_writes(s)) {
            break; /* stopping, and everything handed over is written */
        }
        run_hook(s, s->before_write);
        base_buf_swap(&s->tail, &tail);
        base_buf_swap(&s->queue, &s->spare);
        int tail_fd = s->tail_fd;
        int fd = s->fd;
        uint64_t target = s->queued;
        pthread_cond_broadcast(&s->write_cond); /* a log switch may wait for the tail's room */
        pthread_mutex_unlock(&s->mu);

        int errnum = 0;
        bool ok = !atomic_load(&s->failed) && write_to(tail_fd, &tail, &errnum) &&
                  write_to(fd, &s->spare, &errnum);
        buf_done(&tail);
        buf_done(&s->spare);

        pthread_mutex_lock(&s->mu);
        if (ok) {
            atomic_store(&s->written, target);
        } else if (errnum != 0) {
            fail(s, "write failed", errnum);
        }
        bool sync = s->mode == STORAGE_SYNC_GROUP || closable(s) || writeback_due(s);
        pthread_mutex_unlock(&s->mu);
        /* Signalled after the unlock: a thread woken under the lock would
         * wake only to wait for it, a second switch per round. */
        pthread_cond_broadcast(&s->write_cond); /* storage__syncer_wait_written */
        if (sync) {
            pthread_cond_signal(&s->sync_cond);
        }
        if (s->mode != STORAGE_SYNC_GROUP || !ok) {
            notify(s); /* PERIODIC acknowledges what is written; a failure closes */
        }
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    base_buf_fini(&tail);
    return NULL;
}


/* ---- the sync thread ------------------------------------------------------ */

/* Under mu: waits for a round; whether it is a full one (the current log
 * too, publishing synced) or one that only closes written retired logs. */
static bool wait_round(storage__syncer_t *s, struct timespec *due)
{
    for (;;) {
        if (s->stop_syncing) {
            return true;
        }
        if (!atomic_load(&s->failed)) {
            if (s->mode == STORAGE_SYNC_GROUP &&
                (atomic_load(&s->written) > atomic_load(&s->synced) || closable(s))) {
                return true;
            }
            if (s->mode == STORAGE_SYNC_PERIODIC && past(due)) {
                *due = due_after(s->interval_ms);
                return true;
            }
            if (closable(s)) {
                return false;
            }
            if (start_writeback(s, s->fd)) {
                continue; /* what was signalled meanwhile is looked at again */
            }
        }
        if (s->mode == STORAGE_SYNC_PERIODIC) {
            (void)pthread_cond_timedwait(&s->sync_cond, &s->mu, due);
        } else {
            pthread_cond_wait(&s->sync_cond, &s->mu);
        }
    }
}


/* A log a checkpoint has deleted needs no sync: its snapshot holds it. */
static bool deleted(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_nlink == 0;
}


static void *syncer_main(void *arg)
{
    base_thread_name("cce-logsync");
    base_thread_batch();
    storage__syncer_t *s = arg;
    struct timespec due = due_after(s->interval_ms);
    pthread_mutex_lock(&s->mu);
    for (;;) {
        bool full = wait_round(s, &due);
        bool stop = s->stop_syncing;
        run_hook(s, s->before_sync);
        uint64_t target = atomic_load(&s->written);
        int fd = s->fd;
        storage__retired_t retired[STORAGE__RETIRED_MAX];
        size_t n = s->n_retired;
        memcpy(retired, s->retired, n * sizeof(retired[0]));
        bool ok = !atomic_load(&s->failed);
        full = full && ok && (n > 0 || target > atomic_load(&s->synced));
        pthread_mutex_unlock(&s->mu);

        /* Retired logs first, oldest first: close those written to their end. */
        const char *what = "fdatasync failed";
        int errnum = 0;
        size_t closed = 0;
        for (size_t i = 0; i < n && ok; i++) {
            bool done = retired[i].end <= target;
            if (!done && !full) {
                break;
            }
            if (s->mode != STORAGE_SYNC_NONE && !deleted(retired[i].fd) &&
                fdatasync(retired[i].fd) != 0) {
                ok = false;
                errnum = errno;
                break;
            }
            if (done && closed == i) {
                close(retired[i].fd);
                closed++;
            }
        }
        if (ok && full && s->mode != STORAGE_SYNC_NONE && fd >= 0 && fdatasync(fd) != 0) {
            ok = false;
            errnum = errno;
        }

        pthread_mutex_lock(&s->mu);
        memmove(s->retired, s->retired + closed, (s->n_retired - closed) * sizeof(s->retired[0]));
        s->n_retired -= closed;
        if (!ok && errnum != 0) {
            fail(s, what, errnum);
        } else if (ok && full) {
            s->syncs += s->mode != STORAGE_SYNC_NONE;
            atomic_store(&s->synced, target);
        }
        pthread_cond_broadcast(&s->write_cond); /* a log switch may wait for room */
        if (s->mode == STORAGE_SYNC_GROUP || !ok) {
            pthread_mutex_unlock(&s->mu);
            notify(s);
            pthread_mutex_lock(&s->mu);
        }
        if (stop) {
            break; /* the last round above covered everything written */
        }
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}


/* ---- the caller's side ------------------------------------------------------ */

int storage__syncer_start(storage__durable_t *d, const storage_sync_cfg_t *cfg, base_error_t *err)
{
    storage__syncer_t *s = base_calloc(1, sizeof(*s));
    s->mode = cfg->mode;
    s->interval_ms = cfg->interval_ms > 0 ? cfg->interval_ms : STORAGE_SYNC_INTERVAL_DEFAULT_MS;
    s->before_sync = cfg->before_sync;
    s->before_write = cfg->before_write;
    s->hook_arg = cfg->hook_arg;
    s->writes = cfg->write_behind && cfg->log_thread;
    s->fd = d->log_fd;
    s->tail_fd = -1;
    s->queued = d->appended;
    s->writeback = d->appended;
    atomic_store(&s->written, d->appended);
    atomic_store(&s->synced, d->appended);
    base_buf_init(&s->queue);
    base_buf_init(&s->tail);
    base_buf_init(&s->spare);
    s->notify_fd = -1;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->sync_cond, &ca);
    pthread_cond_init(&s->write_cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->mu, NULL);
    int e = 0;
    if (s->mode == STORAGE_SYNC_GROUP || s->writes) {
        s->notify_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        e = s->notify_fd < 0 ? errno : 0;
    }
    bool syncer = false;
    if (e == 0) {
        e = pthread_create(&s->syncer, NULL, syncer_main, s);
        syncer = e == 0;
    }
    if (e == 0 && s->writes) {
        e = pthread_create(&s->writer, NULL, writer_main, s);
    }
    if (e != 0) {
        if (syncer) {
            pthread_mutex_lock(&s->mu);
            s->stop_syncing = true;
            pthread_cond_signal(&s->sync_cond);
            pthread_mutex_unlock(&s->mu);
            pthread_join(s->syncer, NULL);
        }
        if (s->notify_fd >= 0) {
            close(s->notify_fd);
        }
        pthread_cond_destroy(&s->sync_cond);
        pthread_cond_destroy(&s->write_cond);
        pthread_mutex_destroy(&s->mu);
        base_free(s);
        return base_error_set(err, 0, "storage: cannot start the commit log threads: %s",
                              strerror(e));
    }
    d->syncer = s;
    return BASE_OK;
}


void storage__syncer_stop(storage__durable_t *d)
{
    storage__syncer_t *s = d->syncer;
    if (s == NULL) {
        return;
    }
    if (s->writes) {
        pthread_mutex_lock(&s->mu);
        s->stop_writing = true;
        pthread_cond_broadcast(&s->write_cond);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->writer, NULL);
    }
    pthread_mutex_lock(&s->mu);
    s->stop_syncing = true;
    pthread_cond_signal(&s->sync_cond);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->syncer, NULL);
    for (size_t i = 0; i < s->n_retired; i++) {
        close(s->retired[i].fd); /* only after a failed round: nothing more to save */
    }
    if (s->notify_fd >= 0) {
        close(s->notify_fd);
    }
    base_buf_fini(&s->queue);
    base_buf_fini(&s->tail);
    base_buf_fini(&s->spare);
    pthread_cond_destroy(&s->sync_cond);
    pthread_cond_destroy(&s->write_cond);
    pthread_mutex_destroy(&s->mu);
    base_free(s);
    d->syncer = NULL;
}


void storage__syncer_written(storage__syncer_t *s, uint64_t written)
{
    pthread_mutex_lock(&s->mu);
    atomic_store(&s->written, written);
    s->queued = written;
    if (s->mode == STORAGE_SYNC_GROUP || writeback_due(s) || closable(s)) {
        pthread_cond_signal(&s->sync_cond);
    }
    pthread_mutex_unlock(&s->mu);
}


void storage__syncer_queue(storage__syncer_t *s, base_buf_t *b, uint64_t queued, bool wake)
{
    pthread_mutex_lock(&s->mu);
    if (s->queue.len == 0) {
        base_buf_swap(&s->queue, b); /* b gets the empty buffer back, capacity and all */
    } else {
        base_buf_put(&s->queue, b->data, b->len); /* the writer is still writing the last */
    }
    base_buf_reset(b);
    s->queued = queued;
    if (s->queue.len <= STORAGE__LOG_QUEUE_MAX) {
        pthread_mutex_unlock(&s->mu);
        if (wake) {
            pthread_cond_signal(&s->write_cond);
        }
        return;
    }
    pthread_cond_signal(&s->write_cond);
    wait_t w = {0};
    while (s->queue.len > STORAGE__LOG_QUEUE_MAX && !atomic_load(&s->failed)) {
        /* The disk is that far behind: wait, as a write(2) of our own would. */
        wait_begins(s, &w);
        pthread_cond_wait(&s->write_cond, &s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    wait_ends(s, &w);
}


void storage__syncer_wake(storage__syncer_t *s)
{
    pthread_mutex_lock(&s->mu);
    bool wake = has_writes(s);
    pthread_mutex_unlock(&s->mu);
    if (wake) {
        pthread_cond_signal(&s->write_cond);
    }
}


bool storage__syncer_wait_written(storage__syncer_t *s, uint64_t pos)
{
    pthread_mutex_lock(&s->mu);
    while (atomic_load(&s->written) < pos && !atomic_load(&s->failed)) {
        pthread_cond_wait(&s->write_cond, &s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return !atomic_load(&s->failed);
}


void storage__syncer_switch(storage__syncer_t *s, int new_fd)
{
    pthread_mutex_lock(&s->mu);
    wait_t w = {0};
    while (s->n_retired == STORAGE__RETIRED_MAX || (s->queue.len > 0 && s->tail.len > 0)) {
        /* checkpoints faster than the threads: wait for them to catch up */
        wait_begins(s, &w);
        pthread_cond_signal(&s->sync_cond);
        pthread_cond_signal(&s->write_cond); /* what it waits for may not be woken yet */
        pthread_cond_wait(&s->write_cond, &s->mu);
    }
    wait_ends(s, &w);
    if (s->queue.len > 0) {
        base_buf_swap(&s->queue, &s->tail); /* the old log's records, written before the new ones */
        s->tail_fd = s->fd;
    }
    s->retired[s->n_retired++] = (storage__retired_t){s->fd, s->queued};
    s->fd = new_fd;
    pthread_cond_signal(&s->sync_cond);
    pthread_cond_signal(&s->write_cond);
    pthread_mutex_unlock(&s->mu);
}


/* ---- the public view ---------------------------------------------------- */

uint64_t storage_db_log_position(const storage_db_t *db)
{
    return db->dur != NULL ? db->dur->appended : 0;
}


uint64_t storage_db_synced_position(const storage_db_t *db)
{
    if (db->dur == NULL) {
        return 0;
    }
    storage__syncer_t *s = db->dur->syncer;
    return s != NULL ? atomic_load(&s->synced) : db->dur->appended;
}


uint64_t storage_db_ack_position(const storage_db_t *db)
{
    storage__syncer_t *s = db->dur != NULL ? db->dur->syncer : NULL;
    if (s != NULL && s->mode == STORAGE_SYNC_GROUP) {
        return storage_db_synced_position(db);
    }
    return s != NULL && s->writes ? atomic_load(&s->written) : storage_db_log_position(db);
}


int storage_db_sync_notify_fd(const storage_db_t *db)
{
    return db->dur != NULL && db->dur->syncer != NULL ? db->dur->syncer->notify_fd : -1;
}


void storage_db_sync_drain(const storage_db_t *db)
{
    int fd = storage_db_sync_notify_fd(db);
    uint64_t n;
    if (fd >= 0) {
        ssize_t r = read(fd, &n, sizeof(n));
        (void)r; /* EAGAIN: nothing to drain */
    }
}


bool storage_db_sync_failed(const storage_db_t *db)
{
    return db->dur != NULL && db->dur->syncer != NULL && atomic_load(&db->dur->syncer->failed);
}


const char *storage_db_sync_failure(const storage_db_t *db, int *errnum)
{
    if (!storage_db_sync_failed(db)) {
        return NULL;
    }
    /* Set under mu before failed was stored, and never changed after it. */
    *errnum = db->dur->syncer->errnum;
    return db->dur->syncer->what;
}


uint64_t storage_db_syncs(const storage_db_t *db)
{
    if (db->dur == NULL) {
        return 0;
    }
    storage__syncer_t *s = db->dur->syncer;
    if (s == NULL) {
        return db->dur->syncs;
    }
    pthread_mutex_lock(&s->mu);
    uint64_t n = s->syncs;
    pthread_mutex_unlock(&s->mu);
    return n;
}


void storage_db_disk_waits(const storage_db_t *db, storage_disk_waits_t *out)
{
    memset(out, 0, sizeof(*out));
    const storage__syncer_t *s = db->dur != NULL ? db->dur->syncer : NULL;
    if (s != NULL) {
        out->count = atomic_load(&s->waits);
        out->total_us = atomic_load(&s->waited_us);
    }
}


storage_sync_t storage_db_sync_mode(const storage_db_t *db)
{
    return db->dur != NULL ? db->dur->sync : STORAGE_SYNC_NONE;
}
