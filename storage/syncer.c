/*
 * syncer.c - the commit log's sync thread, part of storage/: group commit
 * (STORAGE_SYNC_GROUP) and periodic sync (STORAGE_SYNC_PERIODIC).
 *
 * The caller's thread appends records with write(2) and moves the written
 * position; this thread fdatasyncs the log and then publishes the position
 * that fdatasync covered. GROUP: the thread wakes at every append and one
 * fdatasync covers every record written while the previous one ran
 * (Cassandra's group commit log, PostgreSQL's commit_delay idea), so the
 * caller acknowledges a write once the synced position reaches it. PERIODIC:
 * the thread syncs every interval; the caller acknowledges at once, and a
 * power loss can cost the last interval of writes. Between syncs it starts
 * the writeback of every STORAGE__WRITEBACK_BYTES written (sync_file_range, as
 * RocksDB's wal_bytes_per_sync): left to the interval, a gigabyte of dirty
 * log made each fdatasync take half a second, and the caller's own writes
 * to the log waited on the journal meanwhile for tens of milliseconds.
 *
 * Invariants:
 *   - synced <= written, both monotonic over the life of the database
 *     (they count bytes over every log generation);
 *   - a log file this thread may be syncing is never closed by the caller:
 *     a log switch hands the old descriptor over (retired), and this thread
 *     closes it after a last fdatasync, so synced never claims bytes of a
 *     log generation that were not synced;
 *   - after a failed fdatasync synced never moves again and the log refuses
 *     writes (the kernel may have dropped the dirty pages).
 */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "storage/storage_int.h"


/* One round: sync the retired logs and the current one up to written. */
static void sync_round(storage__syncer_t *s)
{
    if (s->before_sync != NULL) {
        s->before_sync(s->hook_arg); /* before reading written: a held round covers it all */
    }
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->written;
    int fd = s->fd;
    int retired[STORAGE__RETIRED_MAX];
    size_t n_retired = s->n_retired;
    memcpy(retired, s->retired, n_retired * sizeof(int));
    s->n_retired = 0;
    pthread_mutex_unlock(&s->mu);

    bool ok = true;
    for (size_t i = 0; i < n_retired; i++) {
        ok = fdatasync(retired[i]) == 0 && ok;
        close(retired[i]);
    }
    ok = ok && (fd < 0 || fdatasync(fd) == 0);
    int errnum = errno;

    pthread_mutex_lock(&s->mu);
    s->syncs++;
    if (!ok) {
        atomic_store(&s->failed, true);
        s->errnum = errnum;
    } else if (!atomic_load(&s->failed)) {
        atomic_store(&s->synced, target);
    }
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->mu);
    if (s->notify_fd >= 0) {
        uint64_t one = 1;
        ssize_t w = write(s->notify_fd, &one, sizeof(one));
        (void)w; /* an eventfd counter only overflows after 2^64 - 2 rounds */
    }
}


/* PERIODIC, between syncs: starts writing back what the log holds, so the
 * next fdatasync finds little to do. Asynchronous: it waits for nothing
 * but a full device queue, and it promises nothing (synced stays). */
static void start_writeback(storage__syncer_t *s)
{
    int fd = s->fd;
    s->writeback = s->written;
    pthread_mutex_unlock(&s->mu);
    if (fd >= 0) {
        (void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE); /* advice: the sync follows */
    }
    pthread_mutex_lock(&s->mu);
}


static bool pending(storage__syncer_t *s)
{
    return s->n_retired > 0 || s->written > atomic_load(&s->synced);
}


static void *syncer_main(void *arg)
{
    storage__syncer_t *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        if (s->mode == STORAGE_SYNC_PERIODIC) {
            struct timespec at;
            clock_gettime(CLOCK_MONOTONIC, &at);
            at.tv_sec += s->interval_ms / 1000;
            at.tv_nsec += (long)(s->interval_ms % 1000) * 1000000L;
            if (at.tv_nsec >= 1000000000L) {
                at.tv_sec++;
                at.tv_nsec -= 1000000000L;
            }
            while (!s->stop) {
                if (pthread_cond_timedwait(&s->cond, &s->mu, &at) == ETIMEDOUT) {
                    break;
                }
                if (s->written - s->writeback >= STORAGE__WRITEBACK_BYTES) {
                    start_writeback(s);
                }
            }
        } else {
            while (!s->stop && !pending(s)) {
                pthread_cond_wait(&s->cond, &s->mu);
            }
        }
        bool stop = s->stop;
        bool work = pending(s) && !atomic_load(&s->failed);
        pthread_mutex_unlock(&s->mu);
        if (work) {
            sync_round(s);
        }
        if (stop) {
            return NULL; /* the last round above covered everything written */
        }
    }
}


int storage__syncer_start(storage__durable_t *d, const storage_sync_cfg_t *cfg, base_error_t *err)
{
    storage__syncer_t *s = base_calloc(1, sizeof(*s));
    s->mode = cfg->mode;
    s->interval_ms = cfg->interval_ms > 0 ? cfg->interval_ms : STORAGE_SYNC_INTERVAL_DEFAULT_MS;
    s->before_sync = cfg->before_sync;
    s->hook_arg = cfg->hook_arg;
    s->fd = d->log_fd;
    s->written = d->appended;
    s->writeback = d->appended;
    atomic_store(&s->synced, d->appended);
    s->notify_fd = -1;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->mu, NULL);
    if (s->mode == STORAGE_SYNC_GROUP) {
        s->notify_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    }
    if ((s->mode == STORAGE_SYNC_GROUP && s->notify_fd < 0) ||
        pthread_create(&s->thread, NULL, syncer_main, s) != 0) {
        int e = errno;
        if (s->notify_fd >= 0) {
            close(s->notify_fd);
        }
        pthread_cond_destroy(&s->cond);
        pthread_mutex_destroy(&s->mu);
        base_free(s);
        return base_error_set(err, 0, "storage: cannot start the commit log sync thread: %s",
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
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    for (size_t i = 0; i < s->n_retired; i++) {
        close(s->retired[i]); /* only after a failed sync: nothing more to save */
    }
    if (s->notify_fd >= 0) {
        close(s->notify_fd);
    }
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->mu);
    base_free(s);
    d->syncer = NULL;
}


void storage__syncer_written(storage__syncer_t *s, uint64_t written)
{
    pthread_mutex_lock(&s->mu);
    s->written = written;
    if (s->mode == STORAGE_SYNC_GROUP || written - s->writeback >= STORAGE__WRITEBACK_BYTES) {
        pthread_cond_signal(&s->cond);
    }
    pthread_mutex_unlock(&s->mu);
}


void storage__syncer_switch(storage__syncer_t *s, int new_fd)
{
    pthread_mutex_lock(&s->mu);
    while (s->n_retired == STORAGE__RETIRED_MAX) {
        /* checkpoints faster than fdatasync: wait for the thread to catch up */
        pthread_cond_signal(&s->cond);
        pthread_cond_wait(&s->cond, &s->mu);
    }
    s->retired[s->n_retired++] = s->fd;
    s->fd = new_fd;
    pthread_cond_signal(&s->cond);
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


storage_sync_t storage_db_sync_mode(const storage_db_t *db)
{
    return db->dur != NULL ? db->dur->sync : STORAGE_SYNC_NONE;
}
