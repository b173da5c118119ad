/*
 * stream.c - reading a durable file record by record, part of storage/:
 * a commit log as it is, a snapshot through its LZ4 frame, in windows of a
 * few MB that a thread of the stream reads ahead.
 *
 * Why windows, not the whole file at once: recovery read each log whole
 * into fresh memory, and decompressed a snapshot whole before replaying it.
 * Fresh anonymous memory costs a page fault per 4 KB (about 2 s per GB on
 * our virtual machines), and the image, long out of the caches by then, was
 * read again by the CRC and the decoder: both cost more than rebuilding the
 * tables. A few reused windows keep the bytes in the cache from read to
 * replay.
 *
 * Why a thread: reading (the copy out of the page cache), inflating and
 * checking every record's CRC32 were a quarter of a log's replay, and the
 * tables being rebuilt can only take one writer. So the reader thread
 * fills the next window, frames its records and checks them while the
 * caller applies this one; the caller only walks lengths. A file under
 * THREAD_FROM has no thread (starting one would cost more than it saves),
 * nor has any when pthread_create fails: the caller fills each window
 * itself then, through the same code.
 *
 * The windows are NCHUNK chunks used in turn. The reader fills one, and
 * before handing it over moves the bytes of the record cut by its end to
 * the start of the next, so a window handed over holds whole records only:
 * buf[0..ok) all checked, then, in the last window alone, the rest of the
 * stream from a record that is not OK (torn or bad), for the caller to
 * judge with everything after it in view. The chunks' buffers are lent by
 * the caller (recovery keeps three from one file to the next) and given
 * back at close, grown if a record needed it.
 *
 * Invariants: chunk k of the stream is chunks[k % NCHUNK]; the caller holds
 * chunks [released, published), the reader the one it fills and the one it
 * carries into, so published + 2 - released <= NCHUNK while it works; a
 * chunk is written only by the reader before it is published and read only
 * by the caller after; the last chunk published has final set. A window
 * grows only while the bytes a record needs keep arriving, so a corrupt
 * length costs no more memory than the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lz4.h>
#include <lz4frame.h>

#include "storage/storage_int.h"

/* The window, and the room a read wants: an LZ4 block (256 KB in the
 * snapshots written now, 4 MB in older ones, which must still load) is
 * decoded straight into a window with that much room. */
#define WINDOW      (8u << 20)
#define MIN_ROOM    (WINDOW / 2)
/* Compressed bytes read per call. */
#define IN_CHUNK    (1u << 20)
/* Files this large get a thread (compressed: a snapshot inflates to more). */
#define THREAD_FROM IN_CHUNK
/* One window replayed, one read ahead, one taking the cut record's bytes. */
#define NCHUNK      STORAGE__STREAM_WINDOWS

typedef struct chunk_s {
    uint8_t *buf;
    size_t cap, len;
    size_t ok;       /* buf[0..ok) are whole records whose CRCs matched */
    bool final;      /* nothing follows buf[len] */
    const char *why; /* an I/O or LZ4 error ended the stream here */
    int errnum;
} chunk_t;

struct storage__reader_s {
    /* The source, the reader's alone. */
    int fd;
    LZ4F_dctx *lz4; /* NULL for a plain file */
    uint8_t *in;    /* lz4: compressed bytes read, in[in_pos..in_len) not decoded yet */
    size_t in_pos, in_len;
    bool frame_done; /* lz4: the end mark was read */
    bool src_eof;

    chunk_t chunks[NCHUNK];
    storage__windows_t *windows; /* where the chunks' buffers go back to */
    storage__windows_t own;
    pthread_mutex_t mu;
    pthread_cond_t cond;
    uint64_t published, released; /* chunks handed over, and given back */
    bool stop;                    /* the caller closes: the reader ends */
    bool done;                    /* the final chunk is published */
    bool threaded;
    pthread_t thread;
};


/* ---- the reader: source to chunks ------------------------------------------ */

static void stop_source(storage__reader_t *rd, chunk_t *c, const char *why, int errnum)
{
    if (c->why == NULL) {
        c->why = why;
        c->errnum = errnum;
    }
    rd->src_eof = true;
}


/* read(2) retried on EINTR: the count, 0 at the end, -1 on error (stopped). */
static ssize_t read_some(storage__reader_t *rd, chunk_t *c, uint8_t *p, size_t n)
{
    ssize_t r;
    do {
        r = read(rd->fd, p, n);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        stop_source(rd, c, "read", errno);
    }
    return r;
}


/* Decodes what the frame yields into c->buf[len..cap). */
static void inflate_some(storage__reader_t *rd, chunk_t *c)
{
    if (rd->in_pos == rd->in_len && !rd->frame_done) {
        ssize_t r = read_some(rd, c, rd->in, IN_CHUNK);
        if (r <= 0) {
            if (r == 0) {
                stop_source(rd, c, "the lz4 frame is truncated", 0);
            }
            return;
        }
        rd->in_pos = 0;
        rd->in_len = (size_t)r;
    }
    if (!rd->frame_done) {
        /* The frame's content checksum is left unchecked: every record's
         * CRC32 covers every byte of the content but the record headers,
         * and those the CRCs and the END record's count check in turn.
         * liblz4's XXH32 (as Debian builds it) was a fifth of a load. */
        LZ4F_decompressOptions_t opt = {0};
#if LZ4_VERSION_NUMBER >= 10904
        opt.skipChecksums = 1;
#endif
        size_t dst = c->cap - c->len;
        size_t src = rd->in_len - rd->in_pos;
        size_t hint =
            LZ4F_decompress(rd->lz4, c->buf + c->len, &dst, rd->in + rd->in_pos, &src, &opt);
        if (LZ4F_isError(hint)) {
            stop_source(rd, c, LZ4F_getErrorName(hint), 0);
            return;
        }
        rd->in_pos += src;
        c->len += dst;
        rd->frame_done = hint == 0; /* the end mark was read */
        if (!rd->frame_done) {
            return;
        }
    }
    /* The frame is whole: nothing may follow it. */
    uint8_t extra;
    if (rd->in_pos < rd->in_len || read_some(rd, c, &extra, 1) > 0) {
        stop_source(rd, c, "bytes after the lz4 frame", 0);
    } else {
        rd->src_eof = true;
    }
}


/* More of the source into c, which has MIN_ROOM free. */
static void read_more(storage__reader_t *rd, chunk_t *c)
{
    if (rd->lz4 != NULL) {
        inflate_some(rd, c);
        return;
    }
    ssize_t r = read_some(rd, c, c->buf + c->len, c->cap - c->len);
    if (r > 0) {
        c->len += (size_t)r;
    } else if (r == 0) {
        rd->src_eof = true;
    }
}


/* At least room bytes free in c, the window doubled as often as needed:
 * false when no memory is to be had (the stream stopped). */
static bool make_room(storage__reader_t *rd, chunk_t *c, size_t room)
{
    size_t cap = c->cap;
    while (cap - c->len < room) {
        cap *= 2;
    }
    if (cap == c->cap) {
        return true;
    }
    uint8_t *b = base_try_malloc(cap);
    if (b == NULL) {
        stop_source(rd, c, "no memory for a record this large", ENOMEM);
        return false;
    }
    memcpy(b, c->buf, c->len);
    base_free(c->buf);
    c->buf = b;
    c->cap = cap;
    return true;
}


/* A window for c, made when it first serves: a file that fits in one
 * never makes the others. Made at open, three windows for every small
 * file took the durable unit tests, which open thousands, from 52 s to
 * over 120 s under ASan. */
static void window_for(chunk_t *c)
{
    if (c->buf == NULL) {
        c->buf = base_malloc(WINDOW); /* pages touched only as filled */
        c->cap = WINDOW;
    }
}


static bool stopping(storage__reader_t *rd)
{
    pthread_mutex_lock(&rd->mu);
    bool stop = rd->stop;
    pthread_mutex_unlock(&rd->mu);
    return stop;
}


/* Fills c (holding what the last one carried over) until its records are
 * checked up to a cut: true when c ends the stream, false when the record
 * cut by its end belongs at the start of the next chunk (c->ok < c->len). */
static bool fill_chunk(storage__reader_t *rd, chunk_t *c)
{
    for (;;) {
        const uint8_t *p;
        size_t n, next;
        storage__frame_t f;
        while ((f = storage__rec_frame(c->buf, c->len, c->ok, &p, &n, &next)) ==
               STORAGE__FRAME_OK) {
            c->ok = next;
        }
        if (rd->src_eof) {
            return true; /* buf[ok..len): the rest, torn or bad, or nothing */
        }
        if (f == STORAGE__FRAME_BAD) {
            /* Judged with everything that follows it in view: read it all. */
            while (!rd->src_eof && make_room(rd, c, MIN_ROOM) && !stopping(rd)) {
                read_more(rd, c);
            }
            rd->src_eof = true;
            return true;
        }
        /* Torn by the chunk's end: a full chunk hands its cut record on;
         * one that holds nothing but the record grows while it arrives. */
        if (c->cap - c->len < MIN_ROOM) {
            if (c->ok > 0) {
                return false;
            }
            if (!make_room(rd, c, MIN_ROOM)) {
                return true;
            }
        }
        if (stopping(rd)) {
            rd->src_eof = true;
            return true;
        }
        read_more(rd, c);
    }
}


/* Under mu: whether the reader may take the chunk after the one it fills. */
static bool room_ahead(const storage__reader_t *rd)
{
    return rd->published + 2 - rd->released <= NCHUNK;
}


/* Fills the next chunk and publishes it: false once the final one is. */
static bool produce(storage__reader_t *rd)
{
    chunk_t *c = &rd->chunks[rd->published % NCHUNK];
    bool final = fill_chunk(rd, c);
    pthread_mutex_lock(&rd->mu);
    while (!final && !room_ahead(rd) && !rd->stop) {
        pthread_cond_wait(&rd->cond, &rd->mu);
    }
    if (rd->stop) {
        final = true;
    }
    pthread_mutex_unlock(&rd->mu);
    if (!final) {
        chunk_t *next = &rd->chunks[(rd->published + 1) % NCHUNK];
        size_t cut = c->len - c->ok;
        *next = (chunk_t){.buf = next->buf, .cap = next->cap};
        window_for(next);
        if (!make_room(rd, next, cut)) {
            c->why = next->why; /* no chunk to go on in */
            c->errnum = next->errnum;
            final = true;
        } else {
            memcpy(next->buf, c->buf + c->ok, cut);
            next->len = cut;
            c->len = c->ok;
        }
    }
    c->final = final;
    pthread_mutex_lock(&rd->mu);
    rd->published++;
    rd->done = final;
    pthread_cond_broadcast(&rd->cond);
    pthread_mutex_unlock(&rd->mu);
    return !final;
}


static void *reader_main(void *arg)
{
    base_thread_name("cce-readahead");
    storage__reader_t *rd = arg;
    while (produce(rd)) {
    }
    return NULL;
}


/* ---- the caller: chunks to records ------------------------------------------ */

/* Gives the window back and takes the next chunk (the reader's next, or
 * one filled here without a thread). */
static void next_window(storage__stream_t *s)
{
    storage__reader_t *rd = s->rd;
    pthread_mutex_lock(&rd->mu);
    if (s->buf != NULL) {
        rd->released++;
        pthread_cond_broadcast(&rd->cond);
    }
    if (!rd->threaded && rd->published == rd->released && !rd->done) {
        pthread_mutex_unlock(&rd->mu);
        (void)produce(rd);
        pthread_mutex_lock(&rd->mu);
    }
    while (rd->published == rd->released) {
        pthread_cond_wait(&rd->cond, &rd->mu);
    }
    pthread_mutex_unlock(&rd->mu);
    const chunk_t *c = &rd->chunks[rd->released % NCHUNK];
    s->buf = c->buf;
    s->pos = 0;
    s->ok = c->ok;
    s->len = c->len;
    s->eof = c->final;
    if (c->why != NULL) {
        s->why = c->why;
        s->errnum = c->errnum;
    }
}


int storage__stream_open(storage__stream_t *s, const char *path, bool lz4, storage__windows_t *w,
                         base_error_t *err)
{
    memset(s, 0, sizeof(*s));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return base_error_set(err, 0, "storage: cannot read %s: %s", path, strerror(errno));
    }
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* advice: readahead */
    storage__reader_t *rd = base_calloc(1, sizeof(*rd));
    rd->fd = fd;
    s->rd = rd;
    pthread_mutex_init(&rd->mu, NULL);
    pthread_cond_init(&rd->cond, NULL);
    rd->windows = w != NULL ? w : &rd->own;
    for (int i = 0; i < NCHUNK; i++) {
        rd->chunks[i].buf = rd->windows->buf[i];
        rd->chunks[i].cap = rd->windows->cap[i];
        rd->windows->buf[i] = NULL; /* lent until the close */
    }
    window_for(&rd->chunks[0]);
    if (lz4) {
        if (LZ4F_isError(LZ4F_createDecompressionContext(&rd->lz4, LZ4F_VERSION))) {
            rd->lz4 = NULL;
            storage__stream_close(s);
            return base_error_set(err, 0, "storage: %s: cannot create an lz4 context", path);
        }
        rd->in = base_malloc(IN_CHUNK);
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)THREAD_FROM) {
        rd->threaded = pthread_create(&rd->thread, NULL, reader_main, rd) == 0;
    }
    return BASE_OK;
}


bool storage__stream_threaded(const storage__stream_t *s)
{
    return s->rd->threaded;
}


void storage__stream_close(storage__stream_t *s)
{
    storage__reader_t *rd = s->rd;
    if (rd != NULL) {
        pthread_mutex_lock(&rd->mu);
        rd->stop = true;
        pthread_cond_broadcast(&rd->cond);
        pthread_mutex_unlock(&rd->mu);
        if (rd->threaded) {
            pthread_join(rd->thread, NULL);
        }
        close(rd->fd);
        if (rd->lz4 != NULL) {
            LZ4F_freeDecompressionContext(rd->lz4);
        }
        base_free(rd->in);
        for (int i = 0; i < NCHUNK; i++) {
            rd->windows->buf[i] = rd->chunks[i].buf; /* grown, perhaps */
            rd->windows->cap[i] = rd->chunks[i].cap;
        }
        storage__windows_free(&rd->own);
        pthread_cond_destroy(&rd->cond);
        pthread_mutex_destroy(&rd->mu);
        base_free(rd);
    }
    memset(s, 0, sizeof(*s));
}


void storage__windows_free(storage__windows_t *w)
{
    for (int i = 0; i < STORAGE__STREAM_WINDOWS; i++) {
        base_free(w->buf[i]);
        w->buf[i] = NULL;
        w->cap[i] = 0;
    }
}


bool storage__stream_more(storage__stream_t *s)
{
    while (s->why == NULL && s->pos == s->len && !s->eof) {
        next_window(s);
    }
    return s->why == NULL && s->pos < s->len;
}


/* The next record, checked by the reader already. */
static void take(storage__stream_t *s, const uint8_t **payload, size_t *plen)
{
    size_t n = base_load_u32(s->buf + s->pos);
    *payload = s->buf + s->pos + STORAGE__REC_HEADER;
    *plen = n;
    s->pos += STORAGE__REC_HEADER + n;
    s->at += STORAGE__REC_HEADER + n;
}


storage__frame_t storage__stream_record(storage__stream_t *s, const uint8_t **payload, size_t *plen)
{
    while (s->pos == s->len && !s->eof && s->why == NULL) {
        next_window(s);
    }
    if (s->pos < s->ok) {
        take(s, payload, plen);
        return STORAGE__FRAME_OK;
    }
    /* The rest of the stream from a record the reader found not OK (or
     * nothing): framed again here, to say what it is. */
    size_t next;
    return storage__rec_frame(s->buf, s->len, s->pos, payload, plen, &next);
}


size_t storage__stream_records(storage__stream_t *s, storage__rec_view_t *out, size_t max)
{
    size_t n = 0;
    while (n < max && s->pos < s->ok) {
        out[n].at = s->at;
        take(s, &out[n].p, &out[n].n);
        n++;
    }
    if (n > 0 || max == 0) {
        return n;
    }
    out[0].at = s->at;
    return storage__stream_record(s, &out[0].p, &out[0].n) == STORAGE__FRAME_OK;
}
