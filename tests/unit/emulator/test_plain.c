/* Unit tests for emulator/plain.c: a plaintext connection's input read past
 * libevent 2.1's 4096 bytes a readable event. A socket bufferevent on one
 * end of a socketpair, the test writing to the other; the read callback
 * drains as the connection's does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/buffer.h>
#include <event2/event.h>

#include "emulator/plain.h"

typedef struct {
    int fd[2];
    struct event_base *base;
    struct bufferevent *bev;
    size_t max;     /* the drain's limit */
    size_t before;  /* the input's bytes when the callback ran */
    size_t drained; /* what the drain added */
    int reads;      /* read callbacks */
    bool eof;       /* the event callback saw the end of file */
} fixture_t;

static void on_read(struct bufferevent *bev, void *arg)
{
    fixture_t *f = arg;
    if (f->reads++ == 0) {
        f->before = evbuffer_get_length(bufferevent_get_input(bev));
        f->drained = emu_plain_drain(bev, f->max);
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    fixture_t *f = arg;
    f->eof = f->eof || (what & BEV_EVENT_EOF) != 0;
}

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, f->fd), 0);
    int size = 1 << 20;
    setsockopt(f->fd[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
    evutil_make_socket_nonblocking(f->fd[0]);
    f->base = event_base_new();
    f->bev = bufferevent_socket_new(f->base, f->fd[0], BEV_OPT_CLOSE_ON_FREE);
    assert_non_null(f->bev);
    emu_plain_tune(f->bev);
    bufferevent_setcb(f->bev, on_read, NULL, on_event, f);
    bufferevent_enable(f->bev, EV_READ);
    f->max = EMU_PLAIN_DRAIN_MAX;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    bufferevent_free(f->bev);
    event_base_free(f->base);
    close(f->fd[1]);
    free(f);
    return 0;
}

/* n bytes into the socket, each its offset's low byte. */
static void send_bytes(fixture_t *f, size_t n)
{
    uint8_t *p = malloc(n);
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)i;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(f->fd[1], p + done, n - done);
        assert_true(w > 0);
        done += (size_t)w;
    }
    free(p);
}

static void assert_input_is_the_bytes(fixture_t *f, size_t n)
{
    struct evbuffer *in = bufferevent_get_input(f->bev);
    assert_int_equal(evbuffer_get_length(in), n);
    const uint8_t *p = evbuffer_pullup(in, -1);
    for (size_t i = 0; i < n; i++) {
        if (p[i] != (uint8_t)i) {
            fail_msg("byte %zu is %u", i, p[i]);
        }
    }
}

static void a_drain_reads_what_libevent_left_in_the_socket(void **state)
{
    fixture_t *f = *state;
    send_bytes(f, 100 * 1024);
    event_base_loop(f->base, EVLOOP_ONCE);
    assert_int_equal(f->reads, 1);
    assert_true(f->before <= EMU_PLAIN_LIBEVENT_READ); /* libevent's one read */
    assert_int_equal(f->before + f->drained, 100 * 1024);
    assert_input_is_the_bytes(f, 100 * 1024); /* in order, nothing lost or doubled */
}

static void a_drain_stops_at_its_limit_and_the_socket_stays_readable(void **state)
{
    fixture_t *f = *state;
    f->max = 10000;
    send_bytes(f, 100 * 1024);
    event_base_loop(f->base, EVLOOP_ONCE);
    assert_int_equal(f->drained, 10000);
    /* the rest is read by libevent's next readable events */
    while (evbuffer_get_length(bufferevent_get_input(f->bev)) < 100 * 1024) {
        event_base_loop(f->base, EVLOOP_ONCE);
    }
    assert_input_is_the_bytes(f, 100 * 1024);
}

static void a_short_read_needs_no_drain(void **state)
{
    fixture_t *f = *state;
    send_bytes(f, 100);
    event_base_loop(f->base, EVLOOP_ONCE);
    assert_int_equal(f->before, 100);
    assert_int_equal(f->drained, 0);
}

static void the_end_of_the_stream_is_left_to_libevent(void **state)
{
    fixture_t *f = *state;
    send_bytes(f, 50 * 1024);
    shutdown(f->fd[1], SHUT_WR);
    event_base_loop(f->base, EVLOOP_ONCE);
    assert_int_equal(f->before + f->drained, 50 * 1024);
    assert_false(f->eof);
    for (int i = 0; i < 10 && !f->eof; i++) {
        event_base_loop(f->base, EVLOOP_ONCE);
    }
    assert_true(f->eof); /* reported by libevent's own next read */
    assert_input_is_the_bytes(f, 50 * 1024);
}

static void tuned_writes_take_256_kb_at_a_time(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(bufferevent_get_max_single_write(f->bev), 256 * 1024);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_drain_reads_what_libevent_left_in_the_socket),
        T(a_drain_stops_at_its_limit_and_the_socket_stays_readable),
        T(a_short_read_needs_no_drain),
        T(the_end_of_the_stream_is_left_to_libevent),
        T(tuned_writes_take_256_kb_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
