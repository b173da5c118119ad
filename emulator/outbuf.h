/*
 * outbuf.h - the buffers a connection's answers are built in, handed to its
 * output by reference rather than copied there. Layer: emulator.
 *
 * A connection encodes the answers of one read into a base_buf_t; to send
 * them it swaps that buffer's contents into a block (taking an empty buffer
 * with capacity from the pool's spares in return) and adds the block to the
 * bufferevent's output with evbuffer_add_reference. libevent lets the block
 * go once the bytes are written (or the output is freed), and it returns to
 * the pool. Copying every answer into the output was 3-4% of the loop's time
 * under 1 KB selects; with answers parked for the commit log, two copies.
 *
 * Invariants: the pool is used by the event loop's thread only; a block is
 * owned by exactly one of the pool (spare), a caller (taken, not yet sent or
 * dropped) or an evbuffer (sent); the pool keeps spares up to a bound on
 * their capacity and frees the rest; emu_outbuf_pool_free may run while
 * blocks are still out (libevent finalizes outputs lazily): the last one
 * back frees the pool.
 */
#ifndef EMULATOR_OUTBUF_H
#define EMULATOR_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"

struct evbuffer;

typedef struct emu_outbuf_pool_s emu_outbuf_pool_t;
typedef struct emu_outbuf_s emu_outbuf_t;

/* Owned by the caller: emu_outbuf_pool_free. */
emu_outbuf_pool_t *emu_outbuf_pool_new(void);
/* Frees the spares now, the pool once no block is out. NULL is a no-op. */
void emu_outbuf_pool_free(emu_outbuf_pool_t *p);

/* A block holding buf's bytes (buf is left empty, with a spare's capacity
 * when there is one). Owned by the caller until emu_outbuf_send or _drop. */
emu_outbuf_t *emu_outbuf_take(emu_outbuf_pool_t *p, base_buf_t *buf);
size_t emu_outbuf_len(const emu_outbuf_t *b);
/* Appends b's bytes to out by reference; out owns b from here, also when
 * that fails (false: out of memory, b went back to the pool). */
bool emu_outbuf_send(emu_outbuf_t *b, struct evbuffer *out);
/* Gives b back unsent. */
void emu_outbuf_drop(emu_outbuf_t *b);

#endif
