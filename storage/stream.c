/*
 * stream.c - reading a durable file record by record, part of storage/:
 * a commit log as it is, a snapshot through its LZ4 frame, both through one
 * window buffer of a few MB that is reused from record to record.
 *
 * Why not the whole file at once: recovery read each log whole into fresh
 * memory, and decompressed a snapshot whole before replaying it. Fresh
 * anonymous memory costs a page fault per 4 KB (about 2 s per GB on our
 * virtual machines), and the image, long out of the caches by then, was read
 * again by the CRC and the decoder: both cost more than rebuilding the
 * tables. A window keeps the bytes in the cache from read to replay.
 *
 * Invariants: buf[pos..len) are the stream's next bytes, from offset at on;
 * eof means nothing follows them; why, once set, stops the stream (an I/O
 * or LZ4 error). The window grows only while the bytes a record needs keep
 * arriving, so a corrupt length costs no more memory than the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <lz4.h>
#include <lz4frame.h>

#include "storage/storage_int.h"

/* The window, and the room a refill wants: an LZ4 block (256 KB in the
 * snapshots written now, 4 MB in older ones, which must still load) is
 * decoded straight into a window with that much room. */
#define WINDOW   (8u << 20)
#define MIN_ROOM (WINDOW / 2)
/* Compressed bytes read per call. */
#define IN_CHUNK (1u << 20)


static void stop(storage__stream_t *s, const char *why, int errnum)
{
    if (s->why == NULL) {
        s->why = why;
        s->errnum = errnum;
    }
    s->eof = true;
}


int storage__stream_open(storage__stream_t *s, const char *path, bool lz4, base_error_t *err)
{
    memset(s, 0, sizeof(*s));
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) {
        return base_error_set(err, 0, "storage: cannot read %s: %s", path, strerror(errno));
    }
    (void)posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* advice: readahead */
    if (lz4) {
        if (LZ4F_isError(LZ4F_createDecompressionContext(&s->lz4, LZ4F_VERSION))) {
            s->lz4 = NULL;
            storage__stream_close(s);
            return base_error_set(err, 0, "storage: %s: cannot create an lz4 context", path);
        }
        s->in = base_malloc(IN_CHUNK);
    }
    s->cap = WINDOW;
    s->buf = base_malloc(s->cap);
    return BASE_OK;
}


void storage__stream_close(storage__stream_t *s)
{
    if (s->fd >= 0) {
        close(s->fd);
    }
    if (s->lz4 != NULL) {
        LZ4F_freeDecompressionContext(s->lz4);
    }
    base_free(s->in);
    base_free(s->buf);
    memset(s, 0, sizeof(*s));
    s->fd = -1;
}


/* read(2) retried on EINTR: the count, 0 at the end, -1 on error (stopped). */
static ssize_t read_some(storage__stream_t *s, uint8_t *p, size_t n)
{
    ssize_t r;
    do {
        r = read(s->fd, p, n);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        stop(s, "read", errno);
    }
    return r;
}


/* Decodes what the frame yields into buf[len..cap). */
static void inflate_some(storage__stream_t *s)
{
    if (s->in_pos == s->in_len && !s->frame_done) {
        ssize_t r = read_some(s, s->in, IN_CHUNK);
        if (r <= 0) {
            if (r == 0) {
                stop(s, "the lz4 frame is truncated", 0);
            }
            return;
        }
        s->in_pos = 0;
        s->in_len = (size_t)r;
    }
    if (!s->frame_done) {
        /* The frame's content checksum is left unchecked: every record's
         * CRC32 covers every byte of the content but the record headers,
         * and those the CRCs and the END record's count check in turn.
         * liblz4's XXH32 (as Debian builds it) was a fifth of a load. */
        LZ4F_decompressOptions_t opt = {0};
#if LZ4_VERSION_NUMBER >= 10904
        opt.skipChecksums = 1;
#endif
        size_t dst = s->cap - s->len;
        size_t src = s->in_len - s->in_pos;
        size_t hint = LZ4F_decompress(s->lz4, s->buf + s->len, &dst, s->in + s->in_pos, &src, &opt);
        if (LZ4F_isError(hint)) {
            stop(s, LZ4F_getErrorName(hint), 0);
            return;
        }
        s->in_pos += src;
        s->len += dst;
        s->frame_done = hint == 0; /* the end mark was read */
        if (!s->frame_done) {
            return;
        }
    }
    /* The frame is whole: nothing may follow it. */
    uint8_t extra;
    if (s->in_pos < s->in_len || read_some(s, &extra, 1) > 0) {
        stop(s, "bytes after the lz4 frame", 0);
    } else {
        s->eof = true;
    }
}


/* Room for more at the end of the window: the consumed front dropped, and
 * the window doubled when what is left of it still fills it up. */
static void make_room(storage__stream_t *s)
{
    if (s->cap - s->len >= MIN_ROOM) {
        return;
    }
    if (s->pos > 0) {
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->len -= s->pos;
        s->pos = 0;
    }
    if (s->cap - s->len < MIN_ROOM) {
        uint8_t *b = base_try_malloc(s->cap * 2);
        if (b == NULL) {
            stop(s, "no memory for a record this large", ENOMEM);
            return;
        }
        memcpy(b, s->buf, s->len);
        base_free(s->buf);
        s->buf = b;
        s->cap *= 2;
    }
}


/* At least want bytes in the window, or all there are. */
static void fill(storage__stream_t *s, size_t want)
{
    while (s->len - s->pos < want && !s->eof) {
        make_room(s);
        if (s->eof) {
            return;
        }
        if (s->lz4 != NULL) {
            inflate_some(s);
            continue;
        }
        ssize_t r = read_some(s, s->buf + s->len, s->cap - s->len);
        if (r > 0) {
            s->len += (size_t)r;
        } else if (r == 0) {
            s->eof = true;
        }
    }
}


bool storage__stream_more(storage__stream_t *s)
{
    fill(s, 1);
    return s->why == NULL && s->len > s->pos;
}


storage__frame_t storage__stream_record(storage__stream_t *s, const uint8_t **payload, size_t *plen)
{
    for (;;) {
        size_t next;
        storage__frame_t f = storage__rec_frame(s->buf, s->len, s->pos, payload, plen, &next);
        if (f == STORAGE__FRAME_OK) {
            s->at += next - s->pos;
            s->pos = next;
            return f;
        }
        if (s->eof) {
            return f;
        }
        /* A record cut by the window's end wants its length; anything else
         * is judged with everything that follows it in view. */
        size_t want = SIZE_MAX;
        if (f == STORAGE__FRAME_TORN && s->len - s->pos >= STORAGE__REC_HEADER) {
            want = STORAGE__REC_HEADER + base_load_u32(s->buf + s->pos);
        } else if (f == STORAGE__FRAME_TORN) {
            want = STORAGE__REC_HEADER;
        }
        fill(s, want);
    }
}


size_t storage__stream_records(storage__stream_t *s, storage__rec_view_t *out, size_t max)
{
    size_t n = 0;
    while (n < max) {
        size_t next;
        if (storage__rec_frame(s->buf, s->len, s->pos, &out[n].p, &out[n].n, &next) !=
            STORAGE__FRAME_OK) {
            break;
        }
        out[n++].at = s->at;
        s->at += next - s->pos;
        s->pos = next;
    }
    if (n > 0 || max == 0) {
        return n;
    }
    out[0].at = s->at;
    return storage__stream_record(s, &out[0].p, &out[0].n) == STORAGE__FRAME_OK;
}
