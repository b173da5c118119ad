/*
 * outbuf.c - answer buffers lent to libevent by reference (see outbuf.h).
 * Layer: emulator.
 *
 * Spares are kept last in, first out, so the buffer taken is the one whose
 * memory was written most recently. A buffer grown past OUTBUF_KEEP_MAX (one
 * huge result) is freed on its return rather than kept, as is anything past
 * OUTBUF_SPARE_MAX of spare capacity in all: a burst over many connections
 * must not pin its peak.
 */
#include "emulator/outbuf.h"

#include <event2/buffer.h>

#define OUTBUF_KEEP_MAX  (4u * 1024 * 1024)
#define OUTBUF_SPARE_MAX (8u * 1024 * 1024)

struct emu_outbuf_s {
    emu_outbuf_t *next; /* among the spares */
    emu_outbuf_pool_t *pool;
    base_buf_t buf;
};

struct emu_outbuf_pool_s {
    emu_outbuf_t *spare;
    size_t spare_bytes; /* capacity of the spares */
    size_t out;         /* blocks not in spare */
    bool closed;        /* emu_outbuf_pool_free ran: the last block back frees it */
};


emu_outbuf_pool_t *emu_outbuf_pool_new(void)
{
    return base_calloc(1, sizeof(emu_outbuf_pool_t));
}


static void block_free(emu_outbuf_t *b)
{
    base_buf_fini(&b->buf);
    base_free(b);
}


void emu_outbuf_pool_free(emu_outbuf_pool_t *p)
{
    if (p == NULL) {
        return;
    }
    while (p->spare != NULL) {
        emu_outbuf_t *b = p->spare;
        p->spare = b->next;
        block_free(b);
    }
    p->spare_bytes = 0;
    p->closed = true;
    if (p->out == 0) {
        base_free(p);
    }
}


emu_outbuf_t *emu_outbuf_take(emu_outbuf_pool_t *p, base_buf_t *buf)
{
    emu_outbuf_t *b = p->spare;
    if (b != NULL) {
        p->spare = b->next;
        p->spare_bytes -= b->buf.cap;
    } else {
        b = base_calloc(1, sizeof(*b));
        b->pool = p;
        base_buf_init(&b->buf);
    }
    p->out++;
    base_buf_swap(&b->buf, buf);
    return b;
}


size_t emu_outbuf_len(const emu_outbuf_t *b)
{
    return b->buf.len;
}


void emu_outbuf_drop(emu_outbuf_t *b)
{
    emu_outbuf_pool_t *p = b->pool;
    p->out--;
    if (p->closed || b->buf.cap > OUTBUF_KEEP_MAX ||
        p->spare_bytes + b->buf.cap > OUTBUF_SPARE_MAX) {
        block_free(b);
        if (p->closed && p->out == 0) {
            base_free(p);
        }
        return;
    }
    base_buf_reset(&b->buf);
    b->next = p->spare;
    p->spare = b;
    p->spare_bytes += b->buf.cap;
}


static void sent(const void *data, size_t len, void *arg)
{
    (void)data;
    (void)len;
    emu_outbuf_drop(arg);
}


bool emu_outbuf_send(emu_outbuf_t *b, struct evbuffer *out)
{
    if (evbuffer_add_reference(out, b->buf.data, b->buf.len, sent, b) != 0) {
        emu_outbuf_drop(b);
        return false;
    }
    return true;
}
