/* Unit tests for emulator/outbuf.c: answers lent to an evbuffer by reference
 * come back to the pool when written or when the output is freed, a huge
 * buffer is not kept, and the pool outlives its last block out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <event2/buffer.h>

#include "emulator/outbuf.h"

static void fill(base_buf_t *b, char c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        base_buf_put_u8(b, (uint8_t)c);
    }
}

static void sent_bytes_are_read_from_the_block_and_it_comes_back_once_written(void **state)
{
    (void)state;
    emu_outbuf_pool_t *p = emu_outbuf_pool_new();
    base_buf_t out;
    base_buf_init(&out);
    fill(&out, 'a', 3000);
    const uint8_t *lent = out.data;

    emu_outbuf_t *b = emu_outbuf_take(p, &out);
    assert_int_equal(emu_outbuf_len(b), 3000);
    assert_int_equal(out.len, 0); /* the caller builds the next answers at once */
    struct evbuffer *ev = evbuffer_new();
    assert_true(emu_outbuf_send(b, ev));
    assert_int_equal(evbuffer_get_length(ev), 3000);
    assert_ptr_equal(evbuffer_pullup(ev, 10), lent); /* not copied */

    /* not written yet: a take finds no spare */
    fill(&out, 'b', 10);
    emu_outbuf_t *other = emu_outbuf_take(p, &out);
    assert_int_equal(out.cap, 0);
    emu_outbuf_drop(other);

    evbuffer_drain(ev, 1000);
    fill(&out, 'c', 10);
    other = emu_outbuf_take(p, &out);
    assert_ptr_not_equal(out.data, lent); /* still in the output */
    emu_outbuf_drop(other);

    evbuffer_drain(ev, 2000); /* all written: the block is a spare again */
    base_buf_t next;
    base_buf_init(&next);
    fill(&next, 'd', 10);
    emu_outbuf_t *again = emu_outbuf_take(p, &next);
    assert_ptr_equal(next.data, lent); /* the last spare back is the first taken */
    assert_int_equal(next.len, 0);
    emu_outbuf_drop(again);

    evbuffer_free(ev);
    base_buf_fini(&next);
    base_buf_fini(&out);
    emu_outbuf_pool_free(p);
}

static void a_freed_output_gives_its_blocks_back(void **state)
{
    (void)state;
    emu_outbuf_pool_t *p = emu_outbuf_pool_new();
    base_buf_t out;
    base_buf_init(&out);
    fill(&out, 'a', 100);
    const uint8_t *lent = out.data;
    struct evbuffer *ev = evbuffer_new();
    assert_true(emu_outbuf_send(emu_outbuf_take(p, &out), ev));
    evbuffer_free(ev); /* a connection closed with answers unsent */

    base_buf_t next;
    base_buf_init(&next);
    emu_outbuf_t *b = emu_outbuf_take(p, &next);
    assert_ptr_equal(next.data, lent);
    emu_outbuf_drop(b);
    base_buf_fini(&next);
    base_buf_fini(&out);
    emu_outbuf_pool_free(p);
}

static void a_huge_buffer_is_freed_on_return_not_kept(void **state)
{
    (void)state;
    emu_outbuf_pool_t *p = emu_outbuf_pool_new();
    base_buf_t out;
    base_buf_init(&out);
    base_buf_reserve(&out, 5u * 1024 * 1024); /* one result of 5 MB */
    fill(&out, 'a', 16);
    emu_outbuf_drop(emu_outbuf_take(p, &out));

    base_buf_t next;
    base_buf_init(&next);
    emu_outbuf_t *b = emu_outbuf_take(p, &next);
    assert_int_equal(next.cap, 0);
    emu_outbuf_drop(b);
    base_buf_fini(&next);
    base_buf_fini(&out);
    emu_outbuf_pool_free(p);
}

static void the_pool_lives_until_its_last_block_is_back(void **state)
{
    (void)state;
    emu_outbuf_pool_t *p = emu_outbuf_pool_new();
    base_buf_t out;
    base_buf_init(&out);
    fill(&out, 'a', 100);
    struct evbuffer *ev = evbuffer_new();
    assert_true(emu_outbuf_send(emu_outbuf_take(p, &out), ev));
    fill(&out, 'b', 100);
    emu_outbuf_t *held = emu_outbuf_take(p, &out);

    emu_outbuf_pool_free(p); /* libevent frees outputs later than the server frees the pool */
    assert_int_equal(evbuffer_get_length(ev), 100);
    emu_outbuf_drop(held);
    evbuffer_free(ev); /* the last block back frees the pool: ASan reports a leak otherwise */
    base_buf_fini(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sent_bytes_are_read_from_the_block_and_it_comes_back_once_written),
        cmocka_unit_test(a_freed_output_gives_its_blocks_back),
        cmocka_unit_test(a_huge_buffer_is_freed_on_return_not_kept),
        cmocka_unit_test(the_pool_lives_until_its_last_block_is_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
