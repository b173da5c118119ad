/*
 * file.c - the POSIX file calls durable storage makes, part of storage/:
 * whole writes (looping over short writes and EINTR), whole reads,
 * directory fsync so a created or renamed file survives a power loss,
 * early writeback of large files, and their deletion in steps.
 */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "storage/storage_int.h"


void storage__path(char *out, size_t size, const char *dir, const char *prefix, uint64_t gen,
                   const char *suffix)
{
    int n = snprintf(out, size, "%s/%s%" PRIu64 "%s", dir, prefix, gen, suffix);
    BASE_ASSERT(n > 0 && (size_t)n < size); /* storage_db_open bounds the dir length */
}


/* All of p, looping over short writes and EINTR; *done says how much made it. */
static int write_counted(int fd, const void *p, size_t n, size_t *done)
{
    const uint8_t *at = p;
    *done = 0;
    while (*done < n) {
        ssize_t w = write(fd, at + *done, n - *done);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return BASE_EIO;
        }
        *done += (size_t)w;
    }
    return BASE_OK;
}


int storage__write_all(int fd, const void *p, size_t n)
{
    size_t done;
    return write_counted(fd, p, n, &done);
}


int storage__append(int fd, const void *p, size_t n)
{
    size_t done;
    if (write_counted(fd, p, n, &done) == BASE_OK) {
        return BASE_OK;
    }
    /* The size is looked up only on failure, not as an lseek before every
     * append (thousands a second from the log's writer). Only that writer
     * appends to fd, so what made it of this append lies past size - done. */
    int errnum = errno;
    off_t size = lseek(fd, 0, SEEK_END);
    int rc = size >= (off_t)done && ftruncate(fd, size - (off_t)done) == 0 ? BASE_EIO : BASE_ERROR;
    errno = errnum;
    return rc;
}


int storage__read_file(const char *path, uint8_t **data, size_t *len, base_error_t *err)
{
    int rc = BASE_OK;
    uint8_t *buf = NULL;
    size_t n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        rc = base_error_set(err, 0, "storage: cannot read %s: %s", path, strerror(errno));
        goto done;
    }
    size_t size = (size_t)st.st_size;
    buf = base_try_malloc(size > 0 ? size : 1);
    if (buf == NULL) {
        rc = base_error_set(err, 0, "storage: %s: no memory for %zu bytes", path, size);
        goto done;
    }
    while (n < size) {
        ssize_t r = read(fd, buf + n, size - n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            rc = base_error_set(err, 0, "storage: cannot read %s: %s", path,
                                r < 0 ? strerror(errno) : "file shrank while reading");
            goto done;
        }
        n += (size_t)r;
    }

done:
    if (fd >= 0) {
        close(fd);
    }
    if (rc != BASE_OK) {
        base_free(buf);
        buf = NULL;
        n = 0;
    }
    *data = buf;
    *len = n;
    return rc;
}


int storage__fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return BASE_EIO;
    }
    int rc = fsync(fd) == 0 ? BASE_OK : BASE_EIO;
    close(fd);
    return rc;
}


void storage__writeback(int fd, uint64_t *mark, uint64_t size)
{
    /* Left to the kernel, hundreds of MB of a snapshot or log stayed dirty
     * until one fsync (or the flusher) wrote them at once, and the journal
     * commit that followed held up the loop's own log writes for tens of
     * milliseconds. Starting each range's writeback as it is written, as
     * RocksDB's bytes_per_sync does, spreads that I/O out. It only starts
     * I/O: it waits for nothing but a full device queue. */
    if (size - *mark >= STORAGE__WRITEBACK_BYTES) {
        (void)sync_file_range(fd, (off_t)*mark, (off_t)(size - *mark), SYNC_FILE_RANGE_WRITE);
        *mark = size;
    }
}


void storage__unlink(const char *path)
{
    /* Freeing a gigabyte of extents is one journal transaction, and while
     * it commits the log's writer waits in write(2) for its own: answers
     * parked behind it stalled for up to 60 ms at the end of a checkpoint.
     * Shrinking the file a step at a time, with a breath between steps,
     * frees the blocks in small transactions the writer slips between, as
     * RocksDB's DeleteScheduler does. Unlinked first: a crash midway leaves
     * an orphan the file system reclaims, never a cut-short file by name. */
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (unlink(path) != 0 || fd < 0) {
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_nlink == 0) { /* else another name holds it */
        const struct timespec breath = {0, STORAGE__UNLINK_PAUSE_US * 1000L};
        for (off_t size = st.st_size; size > (off_t)STORAGE__UNLINK_STEP;) {
            size -= (off_t)STORAGE__UNLINK_STEP;
            if (ftruncate(fd, size) != 0) {
                break;
            }
            (void)nanosleep(&breath, NULL);
        }
    }
    close(fd);
}
