/*
 * commitlog.c - the commit log, part of storage/: commitlog-<gen>.log in
 * the database directory, a plain sequence of records (record.c) appended
 * with one write(2) each before the change they describe reaches memory.
 * With STORAGE_SYNC_ALWAYS every record is also fdatasync'ed here; with
 * GROUP and PERIODIC the sync thread does it (syncer.c), and a log replaced
 * by a checkpoint goes to that thread, which closes it after a last sync.
 *
 * Write-behind (storage_sync_cfg_t.write_behind): a write(2) per record was
 * 29% of a durable insert, so records gather in d->enc instead, and the
 * caller writes them with one storage_db_log_flush before it acknowledges
 * any of them (the emulator does at the end of each connection's read);
 * past STORAGE__WRITE_BEHIND_MAX they are written at once. With a log
 * thread (GROUP, PERIODIC) "written" means handed over: the thread does
 * the write(2), and the caller acknowledges once storage_db_ack_position
 * passes the record. Table records are written at once with what is
 * pending before them. A kill -9 costs only changes nobody was told
 * about, and a gathered record that cannot be written marks the log
 * failed (its change is in memory) and makes the next flush fail, so
 * those writes are never acknowledged.
 *
 * Invariants: d->log_bytes is the size of the current log and ends on a
 * record boundary; a failed write truncates the log back to it, so the
 * file never holds a record memory does not (or, if even that fails, the
 * log is marked failed and refuses writes until a checkpoint). d->enc
 * holds only whole records, in order, none of them written.
 *
 * Replay reads the log through a reused window (stream.c), never the whole
 * file at once, and tells a torn write from corruption: only the last log may end in
 * an incomplete record, a record ending exactly at the end of the file, or
 * zeros (what a power loss leaves); a bad record with valid-looking data
 * after it means lost data, and opening fails rather than dropping it.
 *
 * Logs made ahead: a thread of the log (storage__prep_start) makes the next
 * log, commitlog.next, with its blocks allocated past its end (size 0), at
 * open and each time one is taken. A checkpoint's new log is that file
 * renamed into place, and a log near the end of its room (a created one:
 * past 60 MB) rolls into it, a new generation without a checkpoint: so
 * appending never allocates blocks unless the disk is too full to make
 * them ahead. A taken file reads, replays and cuts off torn tails as a
 * created log would.
 *
 * Invariants of the log made ahead: only its thread writes prep_made,
 * before setting prep_done; the loop takes the file only once prep_done is
 * set (so a rename never races the thread's fallocate), and starts the
 * next thread only after joining the last.
 */
#define _GNU_SOURCE /* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "storage/storage_int.h"


void storage__log_failed(storage__durable_t *d)
{
    d->failed = true;
    d->failures++;
}


/* until: how long writes are refused. */
static void report_until(storage__durable_t *d, const char *what, int errnum, const char *until)
{
    if (d->reported) {
        return;
    }
    d->reported = true;
    base_log(BASE_LOG_ERROR, "storage: %s/commitlog-%" PRIu64 ".log: %s: %s; writes fail until %s",
             d->dir, d->gen, what, strerror(errnum), until);
}


static void report(storage__durable_t *d, const char *what, int errnum)
{
    report_until(d, what, errnum, "a checkpoint succeeds");
}


/* Writes bytes [from, enc.len) of d->enc as one write(2) and drops them from
 * the buffer. On failure the part that made it is cut off again, so the
 * next record does not follow garbage, and BASE_EIO. */
static int write_out(storage__durable_t *d, size_t from)
{
    uint8_t *p = d->enc.data + from;
    size_t n = d->enc.len - from;
    d->enc.len = from;
    storage__rec_seal(p, n);
    int rc = storage__append(d->log_fd, p, n);
    if (rc != BASE_OK) {
        report(d, "write failed", errno);
        if (rc != BASE_EIO) {
            storage__log_failed(d);
        }
        return BASE_EIO;
    }
    if (d->sync == STORAGE_SYNC_ALWAYS) {
        d->syncs++;
        if (fdatasync(d->log_fd) != 0) {
            /* After a failed fsync the file's state is unknown (the kernel may
             * have dropped the dirty pages): only a checkpoint can be trusted. */
            report(d, "fdatasync failed", errno);
            storage__log_failed(d);
            return BASE_EIO;
        }
    }
    d->log_bytes += n;
    d->since_ckpt += n;
    d->appended += n;
    if (d->syncer != NULL) {
        storage__syncer_written(d->syncer, d->appended); /* PERIODIC starts writeback there */
    } else if (d->sync == STORAGE_SYNC_NONE) {
        storage__writeback(d->log_fd, &d->writeback, d->log_bytes);
    }
    return BASE_OK;
}


/* Write-behind with a log thread: it gets what is gathered. */
static bool threaded(const storage__durable_t *d)
{
    return d->syncer != NULL && d->syncer->writes;
}


static void hand_over(storage__durable_t *d, bool wake)
{
    d->log_bytes += d->enc.len;
    d->since_ckpt += d->enc.len;
    d->appended += d->enc.len;
    storage__syncer_queue(d->syncer, &d->enc, d->appended, wake);
}


int storage__log_append(storage__durable_t *d, size_t start)
{
    if (d->failed || (d->syncer != NULL && atomic_load(&d->syncer->failed))) {
        if (!d->failed && d->syncer != NULL) {
            /* the thread's failure is for good: what it dropped is unknown */
            report_until(d, d->syncer->what, d->syncer->errnum, "the database is reopened");
        }
        d->enc.len = start;
        return BASE_EIO;
    }
    if (!d->write_behind) {
        return write_out(d, start); /* start is 0: nothing is ever pending */
    }
    if (d->enc.len < STORAGE__WRITE_BEHIND_MAX) {
        return BASE_OK; /* written by the next flush */
    }
    if (threaded(d)) {
        hand_over(d, true);
        return BASE_OK;
    }
    if (write_out(d, 0) != BASE_OK) {
        /* This record's change is refused (memory is unchanged), but the
         * ones gathered before it are in memory already. */
        if (start > 0) {
            storage__log_failed(d);
            d->lost = true;
        }
        return BASE_EIO;
    }
    return BASE_OK;
}


/* Writes what is gathered. Those records' changes are in memory already:
 * if they cannot be written, the log no longer describes memory, and lost
 * stays set until the caller that acknowledges writes hears it
 * (storage__log_flush), whoever wrote them out. A log thread gets them,
 * woken now or by the caller's storage_db_log_wake. */
static void write_gathered(storage__durable_t *d, bool wake)
{
    if (d->enc.len > 0 && !d->failed && threaded(d)) {
        hand_over(d, wake);
        return;
    }
    if (d->enc.len > 0 && (d->failed || write_out(d, 0) != BASE_OK)) {
        d->enc.len = 0;
        storage__log_failed(d);
        d->lost = true;
    }
}


static int flush(storage__durable_t *d, bool wake)
{
    write_gathered(d, wake);
    if (d->lost) {
        d->lost = false;
        return BASE_EIO;
    }
    /* The thread failed: what it had not written yet never will be. */
    if (threaded(d) && atomic_load(&d->syncer->failed)) {
        return BASE_EIO;
    }
    storage__log_maybe_roll(d);
    return BASE_OK;
}


int storage__log_flush(storage__durable_t *d)
{
    return flush(d, true);
}


int storage_db_log_flush(storage_db_t *db)
{
    return db->dur != NULL ? storage__log_flush(db->dur) : BASE_OK;
}


int storage_db_log_flush_later(storage_db_t *db)
{
    return db->dur != NULL ? flush(db->dur, false) : BASE_OK;
}


void storage_db_log_wake(storage_db_t *db)
{
    if (db->dur != NULL && threaded(db->dur)) {
        storage__syncer_wake(db->dur->syncer);
    }
}


/* dir/commitlog.next into out (PATH_MAX-sized). */
static void prepared_path(char *out, size_t size, const char *dir)
{
    snprintf(out, size, "%s/%s", dir, STORAGE__LOG_PREPARED);
}


/* The log made ahead, when its thread is done and it was made. */
static bool prep_ready(storage__durable_t *d)
{
    return (!d->prep_running || atomic_load(&d->prep_done)) && d->prep_made > 0;
}


int storage__log_next(storage__durable_t *d, uint64_t *room, base_error_t *err)
{
    /* What is gathered belongs to the old log. Should it fail, the next
     * flush tells the caller; the snapshot to come holds it anyway. */
    write_gathered(d, true);
    char prepared[4096];
    char path[4096];
    prepared_path(prepared, sizeof(prepared), d->dir);
    storage__path(path, sizeof(path), d->dir, "commitlog-", d->gen + 1, ".log");
    *room = 0;
    if (prep_ready(d)) {
        storage__prep_join(d); /* done: returns at once */
        /* Not created (nor truncated, which would free its blocks): taken over. */
        if (rename(prepared, path) == 0) {
            *room = d->prep_made;
        }
        d->prep_made = 0;
    }
    uint64_t size;
    return storage__log_open(d->dir, d->gen + 1, *room == 0, &size, err);
}


/* Blocks allocated while a log is appended to are allocated by its
 * writeback, under the lock of the file's block map, and the log's writer
 * waits on that lock in write(2): 13-114 ms on a busy disk, and every
 * acknowledgement waits for the writer. A log whose blocks were allocated
 * ahead, on another file, never allocates until it outgrows them, and then
 * it rolls into the next. So the next log is made ahead, a segment of a
 * quarter of the data (a checkpoint comes once the logs pass the data's
 * size, so about four of them), as RocksDB preallocates its WAL and
 * Cassandra its commit log segments. Two at most are allocated ahead at a
 * time: the one being written and the next. */
uint64_t storage__log_prepare_size(uint64_t data_bytes)
{
    uint64_t want = data_bytes / 4;
    want = (want + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
    return want < STORAGE__LOG_PREPARE_MIN   ? STORAGE__LOG_PREPARE_MIN
           : want > STORAGE__LOG_PREPARE_MAX ? STORAGE__LOG_PREPARE_MAX
                                             : want;
}


/* On the thread (allocating can read bitmaps from a busy disk): makes
 * STORAGE__LOG_PREPARED in dir with bytes allocated; whether it did. Best
 * effort: where fallocate is missing, or the disk would be left with less
 * than three times that free, nothing is left behind; on tmpfs nothing is
 * made (its blocks would be memory taken now, and it allocates nothing
 * later anyway). */
static bool log_prepare(const char *dir, uint64_t bytes)
{
    char path[4096];
    prepared_path(path, sizeof(path), dir);
    struct statvfs vfs;
    if (statvfs(dir, &vfs) != 0 || (uint64_t)vfs.f_bavail * vfs.f_frsize / 3 < bytes) {
        return false; /* the room is the live log's */
    }
    struct statfs fs;
    if (statfs(dir, &fs) != 0 || fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC) {
        return false; /* memory allocates nothing later, and would be taken now */
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return false;
    }
    bool ok = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)bytes) == 0;
    close(fd);
    if (!ok) {
        unlink(path);
    }
    return ok;
}


static void *prep_main(void *arg)
{
    base_thread_name("cce-logprep");
    storage__durable_t *d = arg;
    d->prep_made = log_prepare(d->dir, d->prep_bytes) ? d->prep_bytes : 0;
    atomic_store(&d->prep_done, true); /* publishes prep_made */
    return NULL;
}


void storage__prep_start(storage__durable_t *d)
{
    if (d->prep_stopped || d->prep_running) {
        return;
    }
    d->prep_bytes = d->log_segment; /* a copy: a checkpoint may change it meanwhile */
    d->prep_made = 0;
    atomic_store(&d->prep_done, false);
    d->prep_running = pthread_create(&d->prep_thread, NULL, prep_main, d) == 0;
}


void storage__prep_join(storage__durable_t *d)
{
    if (d->prep_running) {
        pthread_join(d->prep_thread, NULL);
        d->prep_running = false;
    }
}


void storage__prep_stop(storage__durable_t *d)
{
    d->prep_stopped = true;
    storage__prep_join(d);
    d->prep_made = 0;
    storage__log_unprepare(d->dir);
}


void storage__log_unprepare(const char *dir)
{
    char path[4096];
    prepared_path(path, sizeof(path), dir);
    storage__unlink(path);
}


void storage__log_unmake(storage__durable_t *d, int fd)
{
    char path[4096];
    storage__path(path, sizeof(path), d->dir, "commitlog-", d->gen + 1, ".log");
    close(fd);
    unlink(path);
}


void storage__log_switch(storage__durable_t *d, int fd, uint64_t room)
{
    storage__log_retire(d, fd);
    d->gen++;
    d->log_bytes = 0;
    d->log_room = room;
    d->writeback = 0;
}


void storage__log_maybe_roll(storage__durable_t *d)
{
    /* A created log has no room ahead; it is rolled as one of the smallest
     * made ahead would be, so that only its first tens of MB allocate. */
    uint64_t room = d->log_room > 0 ? d->log_room : STORAGE__LOG_PREPARE_MIN;
    if (d->failed || d->log_bytes + STORAGE__ROLL_MARGIN < room || !prep_ready(d)) {
        return;
    }
    base_error_t err;
    int fd = storage__log_next(d, &room, &err);
    if (fd < 0) {
        return; /* it goes on in the current log */
    }
    if (room > 0) {
        storage__log_switch(d, fd, room);
    } else { /* taken by no one, yet gone: a created log gains nothing */
        storage__log_unmake(d, fd);
    }
    storage__prep_start(d);
}


void storage__log_retire(storage__durable_t *d, int new_fd)
{
    if (d->syncer != NULL) {
        storage__syncer_switch(d->syncer, new_fd);
        d->log_fd = new_fd;
        return;
    }
    if (d->log_fd >= 0) {
        close(d->log_fd);
    }
    d->log_fd = new_fd;
}


void storage__log_table(storage_db_t *db, uint8_t kind, uint64_t id, uint32_t arg)
{
    storage__durable_t *d = db->dur;
    /* Written at once, in one write with whatever is pending before it: the
     * schema log above records its DDL at once too, and a replay must never
     * find a table the schema dropped still holding rows. */
    size_t start = storage__rec_begin(&d->enc, kind, id);
    if (kind == STORAGE__REC_PHYSICAL) {
        base_buf_put_u32(&d->enc, arg);
    }
    storage__rec_end(&d->enc, start);
    if (storage__log_append(d, start) != BASE_OK) {
        storage__log_failed(d); /* memory changes anyway */
    }
    write_gathered(d, true);
    if (threaded(d) && !storage__syncer_wait_written(d->syncer, d->appended)) {
        storage__log_failed(d);
    }
}


int storage__log_mutation(storage_db_t *db, uint64_t id, const storage_mutation_t *m,
                          int64_t now_us)
{
    storage__durable_t *d = db->dur;
    size_t start = storage__rec_begin(&d->enc, STORAGE__REC_MUTATION, id);
    storage__rec_put_mutation(&d->enc, m, now_us);
    storage__rec_end(&d->enc, start);
    return storage__log_append(d, start);
}


int storage__log_batch(storage_db_t *db, const storage_batch_item_t *items, size_t n,
                       int64_t now_us)
{
    storage__durable_t *d = db->dur;
    size_t start = storage__rec_begin(&d->enc, STORAGE__REC_BATCH, n);
    for (size_t i = 0; i < n; i++) {
        base_buf_put_u64(&d->enc, items[i].t->id);
        storage__rec_put_mutation(&d->enc, items[i].m, now_us);
    }
    storage__rec_end(&d->enc, start);
    return storage__log_append(d, start);
}


int storage__log_open(const char *dir, uint64_t gen, bool create, uint64_t *size, base_error_t *err)
{
    char path[4096];
    storage__path(path, sizeof(path), dir, "commitlog-", gen, ".log");
    int flags = O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0);
    int fd = open(path, flags, 0644);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        base_error_set(err, 0, "storage: cannot open %s: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return fd;
}


static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0) {
            return false;
        }
    }
    return true;
}


static int cut_tail(const char *path, size_t at, size_t len, base_error_t *err)
{
    base_log(BASE_LOG_WARN, "storage: %s: dropping a torn record at offset %zu (%zu bytes)", path,
             at, len - at);
    if (truncate(path, (off_t)at) != 0) {
        return base_error_set(err, 0, "storage: cannot truncate %s: %s", path, strerror(errno));
    }
    return BASE_OK;
}


int storage__log_replay(storage_db_t *db, uint64_t gen, bool last, base_error_t *err)
{
    char path[4096];
    storage__path(path, sizeof(path), db->dur->dir, "commitlog-", gen, ".log");
    storage__stream_t st;
    int rc = storage__stream_open(&st, path, false, &db->dur->windows, err);
    if (rc != BASE_OK) {
        return rc;
    }

    storage__replay_t rp = {0};
    storage__rec_view_t v[STORAGE__REPLAY_BATCH];
    while (storage__stream_more(&st) && rc == BASE_OK) {
        size_t off = (size_t)st.at;
        size_t n = storage__stream_records(&st, v, STORAGE__REPLAY_BATCH);
        if (st.why != NULL) {
            break;
        }
        if (n > 0) {
            storage__rec_prefetch(db, &rp, v, n);
            for (size_t i = 0; i < n; i++) {
                const char *why = storage__rec_apply(db, &rp, v[i].p, v[i].n);
                if (why != NULL) {
                    rc = base_error_set(err, 0,
                                        "storage: %s: invalid record at offset %" PRIu64 ": %s",
                                        path, v[i].at, why);
                    break;
                }
            }
            continue;
        }
        /* The window holds the rest of the file from the bad record on. */
        const uint8_t *rest = st.buf + st.pos;
        size_t len = st.len - st.pos;
        const uint8_t *payload;
        size_t plen, next;
        storage__frame_t f = storage__rec_frame(rest, len, 0, &payload, &plen, &next);
        bool torn = f == STORAGE__FRAME_TORN || next == len || all_zero(rest, len);
        if (last && torn) {
            rc = cut_tail(path, off, off + len, err);
        } else {
            rc = base_error_set(err, 0,
                                "storage: %s: corrupt record at offset %zu of %zu (%s); %s, so "
                                "this is not a torn write: refusing to open rather than lose "
                                "data",
                                path, off, off + len,
                                f == STORAGE__FRAME_TORN ? "truncated" : "bad length or checksum",
                                last ? "data follows it" : "a later log follows it");
        }
        break;
    }
    if (st.why != NULL && rc == BASE_OK) {
        rc = base_error_set(err, 0, "storage: cannot read %s: %s", path,
                            st.errnum != 0 ? strerror(st.errnum) : st.why);
    }
    storage__replay_fini(&rp);
    storage__stream_close(&st);
    return rc;
}
