/*
 * compress.c - lz4 frame-body compression (spec section 5; wire layer).
 * A compressed body is a 4-byte big-endian uncompressed length followed by
 * one raw LZ4 block (what Cassandra and the DataStax drivers exchange).
 *
 * Invariants:
 *  - The peer chooses the declared size, so it is checked against max_len
 *    and against what the compressed bytes could possibly expand to before
 *    anything is allocated; the buffer comes from base_try_malloc.
 *  - LZ4_decompress_safe never writes past the buffer, and the result must
 *    fill it exactly: a short or long block is a protocol error.
 *  - An empty compressed body decodes to an empty body (some clients set the
 *    flag on empty messages); the empty message compresses to 00 00 00 00 00.
 *  - Every body is one block of its own. LZ4_compress_default clears a 16 KB
 *    table for every body: 12% of the loop under lz4 inserts, whose answers
 *    are a few hundred bytes. So a small body is compressed on the thread's
 *    stream, reset before each (LZ4_resetStream_fast: no block refers to an
 *    earlier one, and no table is cleared); a larger one as before, since
 *    the stream's path checks every match against a dictionary it does not
 *    have (1 KB select answers ran 4% slower on it).
 */
#include <lz4.h>

#include "wire/wire.h"

#define LZ4_PREFIX 4

/* One LZ4 input byte yields at most 255 output bytes (a match-length
 * extension byte), so anything larger cannot be a real block. */
#define LZ4_MAX_RATIO 255u

/* Bodies up to this size are compressed on the thread's reset stream. */
#define LZ4_SMALL 512


void wire_lz4_compress(base_buf_t *out, const uint8_t *src, size_t len)
{
    BASE_ASSERT(len <= LZ4_MAX_INPUT_SIZE);
    /* src may live inside out (response.c compresses a body in place), and
     * reserving can move it: remember it as an offset. */
    uintptr_t s = (uintptr_t)src;
    uintptr_t base = (uintptr_t)out->data;
    bool inside = out->data != NULL && s >= base && s < base + out->len;
    size_t src_off = inside ? (size_t)(s - base) : 0;

    int bound = LZ4_compressBound((int)len);
    base_buf_reserve(out, LZ4_PREFIX + (size_t)bound);
    if (inside) {
        src = out->data + src_off;
    }
    base_buf_put_u32(out, (uint32_t)len);
    static _Thread_local LZ4_stream_t stream;
    static _Thread_local bool ready;
    char *dst = (char *)out->data + out->len;
    int n;
    if (len <= LZ4_SMALL) {
        if (!ready) {
            LZ4_initStream(&stream, sizeof(stream)); /* once: the resets below need it */
            ready = true;
        }
        LZ4_resetStream_fast(&stream);
        n = LZ4_compress_fast_continue(&stream, (const char *)src, dst, (int)len, bound, 1);
    } else {
        n = LZ4_compress_default((const char *)src, dst, (int)len, bound);
    }
    BASE_ASSERT(n > 0);
    out->len += (size_t)n;
}


int wire_lz4_decompress(const uint8_t *src, size_t len, size_t max_len, uint8_t **out,
                        size_t *out_len, base_error_t *err)
{
    *out = NULL;
    *out_len = 0;
    if (len == 0) {
        *out = base_try_malloc(0);
        return *out != NULL ? BASE_OK : base_error_set(err, WIRE_ERR_SERVER_ERROR, "out of memory");
    }
    if (len < LZ4_PREFIX) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid lz4 body: %zu bytes, too short for the length prefix", len);
    }
    uint32_t declared = base_load_u32(src);
    size_t block_len = len - LZ4_PREFIX;
    if (declared > max_len || declared > LZ4_MAX_INPUT_SIZE) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid lz4 body: uncompressed length %u exceeds the maximum %zu",
                              declared,
                              max_len < LZ4_MAX_INPUT_SIZE ? max_len : (size_t)LZ4_MAX_INPUT_SIZE);
    }
    if (block_len > INT32_MAX || (uint64_t)declared > (uint64_t)block_len * LZ4_MAX_RATIO) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid lz4 body: uncompressed length %u cannot come from %zu "
                              "compressed bytes",
                              declared, block_len);
    }
    uint8_t *buf = base_try_malloc(declared);
    if (buf == NULL) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "out of memory decompressing a %u byte body", declared);
    }
    int n = LZ4_decompress_safe((const char *)src + LZ4_PREFIX, (char *)buf, (int)block_len,
                                (int)declared);
    if (n < 0 || (uint32_t)n != declared) {
        base_free(buf);
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid lz4 body: corrupt block or length mismatch (declared %u)",
                              declared);
    }
    *out = buf;
    *out_len = declared;
    return BASE_OK;
}
