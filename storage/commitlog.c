/*
 * commitlog.c - the commit log, part of storage/: commitlog-<gen>.log in
 * the database directory, a plain sequence of records (record.c) appended
 * with one write(2) each before the change they describe reaches memory.
 * With STORAGE_SYNC_ALWAYS every record is also fdatasync'ed here; with
 * GROUP and PERIODIC the sync thread does it (syncer.c), and a log replaced
 * by a checkpoint goes to that thread, which closes it after a last sync.
 *
 * Invariants: d->log_bytes is the size of the current log and ends on a
 * record boundary; a failed append truncates the log back to it, so the
 * file never holds a record memory does not (or, if even that fails, the
 * log is marked failed and refuses writes until a checkpoint).
 *
 * Replay reads the log through a reused window (stream.c), never the whole
 * file at once, and tells a torn write from corruption: only the last log may end in
 * an incomplete record, a record ending exactly at the end of the file, or
 * zeros (what a power loss leaves); a bad record with valid-looking data
 * after it means lost data, and opening fails rather than dropping it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/storage_int.h"


static void report(storage__durable_t *d, const char *what, int errnum)
{
    if (d->reported) {
        return;
    }
    d->reported = true;
    fprintf(stderr,
            "storage: %s/commitlog-%" PRIu64 ".log: %s: %s; writes fail until a checkpoint "
            "succeeds\n",
            d->dir, d->gen, what, strerror(errnum));
}


int storage__log_append(storage__durable_t *d)
{
    if (d->failed || (d->syncer != NULL && atomic_load(&d->syncer->failed))) {
        if (!d->failed && d->syncer != NULL) {
            report(d, "fdatasync failed", d->syncer->errnum);
        }
        return BASE_EIO;
    }
    if (storage__write_all(d->log_fd, d->enc.data, d->enc.len) != BASE_OK) {
        report(d, "write failed", errno);
        /* Cut off whatever part of the record made it, so the next record
         * does not follow garbage. */
        if (ftruncate(d->log_fd, (off_t)d->log_bytes) != 0) {
            d->failed = true;
        }
        return BASE_EIO;
    }
    if (d->sync == STORAGE_SYNC_ALWAYS) {
        d->syncs++;
        if (fdatasync(d->log_fd) != 0) {
            /* After a failed fsync the file's state is unknown (the kernel may
             * have dropped the dirty pages): only a checkpoint can be trusted. */
            report(d, "fdatasync failed", errno);
            d->failed = true;
            return BASE_EIO;
        }
    }
    d->log_bytes += d->enc.len;
    d->appended += d->enc.len;
    if (d->syncer != NULL) {
        storage__syncer_written(d->syncer, d->appended);
    }
    return BASE_OK;
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
    base_buf_reset(&d->enc);
    size_t start = storage__rec_begin(&d->enc, kind, id);
    if (kind == STORAGE__REC_PHYSICAL) {
        base_buf_put_u32(&d->enc, arg);
    }
    storage__rec_end(&d->enc, start);
    if (storage__log_append(d) != BASE_OK) {
        d->failed = true; /* memory changes anyway */
    }
}


int storage__log_mutation(storage_db_t *db, uint64_t id, const storage_mutation_t *m,
                          int64_t now_us)
{
    storage__durable_t *d = db->dur;
    base_buf_reset(&d->enc);
    size_t start = storage__rec_begin(&d->enc, STORAGE__REC_MUTATION, id);
    storage__rec_put_mutation(&d->enc, m, now_us);
    storage__rec_end(&d->enc, start);
    return storage__log_append(d);
}


int storage__log_batch(storage_db_t *db, const storage_batch_item_t *items, size_t n,
                       int64_t now_us)
{
    storage__durable_t *d = db->dur;
    base_buf_reset(&d->enc);
    size_t start = storage__rec_begin(&d->enc, STORAGE__REC_BATCH, n);
    for (size_t i = 0; i < n; i++) {
        base_buf_put_u64(&d->enc, items[i].t->id);
        storage__rec_put_mutation(&d->enc, items[i].m, now_us);
    }
    storage__rec_end(&d->enc, start);
    return storage__log_append(d);
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
    fprintf(stderr, "storage: %s: dropping a torn record at offset %zu (%zu bytes)\n", path, at,
            len - at);
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
    int rc = storage__stream_open(&st, path, false, err);
    if (rc != BASE_OK) {
        return rc;
    }

    storage__replay_t rp = {0};
    while (storage__stream_more(&st)) {
        size_t off = (size_t)st.at;
        const uint8_t *payload;
        size_t plen;
        storage__frame_t f = storage__stream_record(&st, &payload, &plen);
        if (st.why != NULL) {
            break;
        }
        if (f == STORAGE__FRAME_OK) {
            const char *why = storage__rec_apply(db, &rp, payload, plen);
            if (why != NULL) {
                rc = base_error_set(err, 0, "storage: %s: invalid record at offset %zu: %s", path,
                                    off, why);
                break;
            }
            continue;
        }
        /* The window holds the rest of the file from the bad record on. */
        const uint8_t *rest = st.buf + st.pos;
        size_t len = st.len - st.pos;
        size_t next;
        f = storage__rec_frame(rest, len, 0, &payload, &plen, &next);
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
