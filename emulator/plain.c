/*
 * plain.c - plaintext connections' socket I/O past libevent 2.1's limits
 * (plain.h). Layer: emulator.
 *
 * The drain reads behind the bufferevent's back, on its descriptor, into
 * its input: a socket bufferevent freezes its input's end between its own
 * reads (only it may add there), so the drain thaws it for the reads and
 * freezes it again. A read shorter than its room means the socket is
 * empty, so the usual drain costs one read(2) and never an EAGAIN.
 */
#include "emulator/plain.h"

#include <unistd.h>

#include <event2/buffer.h>

/* A read's room: one contiguous stretch. */
#define ROOM      (64 * 1024)
/* What libevent writes at most in one writev once tuned. */
#define WRITE_MAX (256 * 1024)


void emu_plain_tune(struct bufferevent *bev)
{
    bufferevent_set_max_single_write(bev, WRITE_MAX);
}


size_t emu_plain_drain(struct bufferevent *bev, size_t max)
{
    struct evbuffer *in = bufferevent_get_input(bev);
    if (evbuffer_get_length(in) < EMU_PLAIN_LIBEVENT_READ) {
        return 0; /* libevent's read took what there was: a read(2) would say EAGAIN */
    }
    evutil_socket_t fd = bufferevent_getfd(bev);
    size_t total = 0;
    evbuffer_unfreeze(in, 0);
    while (total < max) {
        struct evbuffer_iovec v;
        size_t want = max - total < ROOM ? max - total : ROOM;
        if (evbuffer_reserve_space(in, (ev_ssize_t)want, &v, 1) != 1) {
            break;
        }
        size_t room = v.iov_len < want ? v.iov_len : want;
        ssize_t n = read(fd, v.iov_base, room);
        v.iov_len = n > 0 ? (size_t)n : 0;
        evbuffer_commit_space(in, &v, 1);
        if (n <= 0) {
            break; /* empty, or end of file or an error: libevent's to see */
        }
        total += (size_t)n;
        if ((size_t)n < room) {
            break; /* the socket is empty */
        }
    }
    evbuffer_freeze(in, 0);
    return total;
}
