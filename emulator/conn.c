/*
 * conn.c - one CQL client connection. Layer: emulator.
 *
 * Life: PEEK (TLS port only: wait for the first byte to tell TLS from
 * plaintext) -> STARTUP -> AUTHENTICATE -> READY, then closing (flush the
 * output, free). OPTIONS is answered in every state.
 *
 * Input is reassembled from the bufferevent: a frame may arrive a byte at a
 * time or many frames in one read; each complete frame is handled in order
 * and answered with its stream id, so any number of streams can be in
 * flight. A frame is dropped from the input only after its answer is
 * queued. Request memory comes from the connection's arena, reset after
 * every frame.
 *
 * Timeouts: one timer per connection, for whichever deadline applies. From
 * accept to AUTH_SUCCESS (the first byte, the TLS handshake, STARTUP and
 * AUTH_RESPONSE) the whole must fit in --handshake-timeout-ms; once ready,
 * a frame whose first byte has arrived must be whole within
 * --frame-timeout-ms (counted from that byte, so trickling a byte at a time
 * does not extend it), and between frames the connection may idle for ever
 * (--idle-timeout-ms, 0 by default as Cassandra's
 * native_transport_idle_timeout). A connection closing after an error must
 * flush within the frame timeout too. While reading is paused for
 * backpressure no input deadline runs: the wait is the server's. A timeout
 * closes the connection with one log line.
 *
 * Memory: a connection whose queued answers pass --max-conn-output-mb is
 * not read (nor are frames already in its input handled) until they drain
 * below half of it, so a client that never reads pins at most that much.
 * Every frame's declared length counts towards the server's in-flight
 * bytes (emu_server_t.inflight_bytes) from its header until its answer is
 * queued, and a held request's body until it is answered; a frame that
 * would take the total past --max-inflight-mb is answered Overloaded and
 * its body skipped as it arrives, never buffered nor executed.
 *
 * Server-side retry: a statement throttled by the RU meter may be held
 * instead of answered. Its decompressed body is copied (the input buffer
 * moves on), and a timer runs it again after RetryAfterMs, until it passes
 * or its retry budget is spent (then a read/write timeout). Later frames
 * are served meanwhile, so they may be answered first: stream ids make
 * out-of-order answers legal. A held QUERY resolves unqualified names
 * against the session's keyspace at the time it finally runs. At most
 * HELD_MAX requests are held per connection; past that, 0x1001 at once.
 *
 * Acknowledgements wait for the commit log: a response is never sent before
 * the log thread has written (and, under --fsync always, fdatasynced: group
 * commit) the commit log as it was when the response was made. flush_out
 * hands the records over and parks the output, tagged with the log
 * position, while storage_db_ack_position is behind it (or while older
 * output is parked, so the connection's bytes keep their order); the
 * server's log event releases it (emu_conn_release). Statements still run
 * at once and in order, so a read after a write sees it, but no answer,
 * read or write, on any connection leaves before the data it saw is in the
 * log.
 *
 * Invariants:
 *   - the protocol version is fixed by the first valid frame and every
 *     response (and pushed EVENT) uses it;
 *   - nothing but OPTIONS, STARTUP and AUTH_RESPONSE is served before the
 *     account key was presented: the client never gets in without it;
 *   - network input is never asserted on: every fault becomes an ERROR
 *     frame, and faults that leave the byte stream unusable (bad version,
 *     oversized frame) close the connection once the error is flushed.
 */
#include "emulator/conn.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_struct.h> /* ev_write: see send_bytes */
#include <event2/event.h>

#include "emulator/auth.h"
#include "emulator/dispatch.h"
#include "emulator/log.h"
#include "emulator/outbuf.h"
#include "emulator/plain.h"
#include "emulator/telemetry.h"
#include "emulator/tls.h"

#define ARENA_BLOCK  (64u * 1024)
#define AHEAD_BLOCK  (8u * 1024)        /* a lookahead's decodes, kept by every connection */
#define OUT_KEEP_MAX (4u * 1024 * 1024) /* largest output buffer kept between reads */
#define HELD_MAX     1024               /* requests held by server-side retry, per connection */

/* Output waiting for the commit log to cover position pos. */
typedef struct parked_s {
    struct parked_s *next;
    uint64_t pos;
    size_t n_responses;
    emu_outbuf_t *out;
} parked_t;

/* A statement held by server-side retry; in its connection's list. */
typedef struct held_s {
    emu_conn_t *conn;
    struct event *timer;
    wire_header_t header;
    uint8_t *body; /* the decompressed body, owned */
    size_t len;
    int64_t started_us; /* monotonic: first attempt */
    int64_t deadline_us;
    bool read;
    struct held_s *prev;
    struct held_s *next;
} held_t;

typedef enum {
    TIMER_NONE,
    TIMER_HANDSHAKE, /* accept to AUTH_SUCCESS */
    TIMER_FRAME,     /* an incomplete frame */
    TIMER_IDLE,      /* --idle-timeout-ms between frames */
    TIMER_FLUSH,     /* closing: the output must drain */
} timer_kind_t;

typedef enum {
    CONN_PEEK,
    CONN_STARTUP,
    CONN_AUTHENTICATE,
    CONN_READY,
} conn_state_t;

typedef struct conn_link_s {
    emu_conn_t *prev, *next;
} conn_link_t;

struct emu_conn_s {
    emu_server_t *srv;
    uint64_t id;
    char peer[INET6_ADDRSTRLEN + 8];
    evutil_socket_t fd;
    struct event *peek;      /* CONN_PEEK only */
    struct bufferevent *bev; /* NULL while peeking */
    conn_state_t state;
    uint8_t version;     /* 0 until the first valid frame */
    bool compress;       /* lz4 negotiated in STARTUP */
    bool closing;        /* no more input; freed once the output drains */
    bool paused;         /* reading stopped for output backpressure */
    bool corked;         /* TCP_CORK set until the output drains (cork) */
    struct event *timer; /* the one deadline of timer_kind */
    timer_kind_t timer_kind;
    uint64_t frames; /* frames handled so far: a new one restarts the frame clock */
    size_t reserved; /* in-flight bytes counted for the frame being received */
    size_t skip;     /* body bytes still to drop of a frame refused as Overloaded */
    cql_session_t *session;
    base_arena_t arena;
    /* The lookahead's decodes (prefetch_frames), in frame order, each used at its
     * frame's turn so no frame is decoded twice; they point into the input and the
     * ahead arena, and are dropped at the next lookahead. A decode is used only if
     * its frame is where it was, at the same place in the stream: a frame is named
     * by its offset in the connection's input (in_pos counts what was drained). */
    uint64_t in_pos;
    base_arena_t ahead_arena;
    struct ahead_s {
        uint64_t pos;        /* the frame's offset in the stream */
        const uint8_t *body; /* where its body was when decoded */
        wire_request_t req;
    } * ahead;
    size_t n_ahead, next_ahead;
    base_buf_t out; /* responses of this read, written to bev in one go */
    held_t *held;   /* statements waiting for a server-side retry */
    size_t n_held;
    size_t out_responses; /* responses in out */
    parked_t *parked;     /* output waiting for the commit log to cover it, oldest first */
    parked_t *parked_tail;
    conn_link_t all;     /* in the server's list of open connections */
    conn_link_t waiting; /* in its waiting list while parked is not NULL: a round of
                            the log thread looks at those, not at every connection */
};

static void on_read(struct bufferevent *bev, void *arg);
static void on_write(struct bufferevent *bev, void *arg);
static void on_event(struct bufferevent *bev, short what, void *arg);
static void held_free(held_t *h);
static void arm(emu_conn_t *c, timer_kind_t kind, int ms);
static void on_timeout(evutil_socket_t fd, short what, void *arg);

/* ---- lifecycle --------------------------------------------------------- */

static void format_peer(char *out, size_t cap, const struct sockaddr *sa)
{
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
        port = ntohs(in->sin_port);
        snprintf(out, cap, "%s:%d", host, port);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
        port = ntohs(in6->sin6_port);
        snprintf(out, cap, "[%s]:%d", host, port);
    } else {
        snprintf(out, cap, "unknown");
    }
}

void emu_conn_free(emu_conn_t *c)
{
    emu_server_t *s = c->srv;
    BASE_LIST_REMOVE(&s->conns, c, all.prev, all.next);
    s->n_conns--;
    emu_events_unregister(s->events, c);
    while (c->held != NULL) {
        held_free(c->held);
    }
    s->inflight_bytes -= c->reserved;
    if (c->parked != NULL) {
        BASE_LIST_REMOVE(&s->waiting, c, waiting.prev, waiting.next);
    }
    while (c->parked != NULL) {
        parked_t *p = c->parked;
        c->parked = p->next;
        s->acks_waiting -= p->n_responses;
        emu_outbuf_drop(p->out);
        base_free(p);
    }
    if (c->peek != NULL) {
        event_free(c->peek);
    }
    if (c->timer != NULL) {
        event_free(c->timer);
    }
    if (c->bev != NULL) {
        bufferevent_free(c->bev); /* closes fd (BEV_OPT_CLOSE_ON_FREE) */
    } else if (c->fd >= 0) {
        evutil_closesocket(c->fd);
    }
    if (c->session != NULL) {
        cql_session_free(c->session);
    }
    base_arena_fini(&c->arena);
    base_arena_fini(&c->ahead_arena);
    base_buf_fini(&c->out);
    emu_log(EMU_LOG_DEBUG, c->id, "closed");
    base_free(c);
    emu_server_conn_gone(s);
}

/* Frees now if nothing is queued, else once on_write sees the output drained. */
static void close_when_flushed(emu_conn_t *c)
{
    c->closing = true;
    if (c->bev == NULL ||
        (c->parked == NULL && evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)) {
        emu_conn_free(c);
        return;
    }
    bufferevent_disable(c->bev, EV_READ);
    bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
    arm(c, TIMER_FLUSH, c->srv->cfg->frame_timeout_ms); /* a peer that never reads */
}

void emu_conn_shutdown(emu_conn_t *c)
{
    close_when_flushed(c);
}

emu_conn_t *emu_conn_next(const emu_conn_t *c)
{
    return c->all.next;
}

emu_conn_t *emu_conn_next_waiting(const emu_conn_t *c)
{
    return c->waiting.next;
}

static void start_protocol(emu_conn_t *c, struct bufferevent *bev)
{
    c->bev = bev;
    c->state = CONN_STARTUP;
    bufferevent_setcb(bev, on_read, on_write, on_event, c);
    bufferevent_enable(bev, EV_READ | EV_WRITE);
}

/* ---- plaintext on the TLS port ----------------------------------------- */

/*
 * A plaintext CQL client's first frame is answered with a ProtocolError
 * that says what to do, so the driver shows it instead of a bare reset.
 * Best effort: one non-blocking send of a small frame.
 */
static void refuse_plaintext(emu_conn_t *c)
{
    uint8_t in[64];
    ssize_t n = recv(c->fd, in, sizeof(in), 0); /* consumed, so close() sends FIN, not RST */
    emu_log(EMU_LOG_INFO, c->id,
            "refused plaintext connection from %s on the TLS port: use TLS or --no-tls", c->peer);
    if (n < WIRE_HEADER_SIZE ||
        (in[0] != 0x03 && in[0] != 0x04 && in[0] != 0x05 && in[0] != 0x41 && in[0] != 0x42)) {
        return;
    }
    base_error_t err;
    base_buf_t out;
    base_buf_init(&out);
    base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR,
                   "This endpoint requires TLS: enable SSL/TLS in the client (or start the "
                   "emulator with --no-tls)");
    emu_reply_t reply = {&out, in[0] == 0x03 ? 3 : 4, (int16_t)((in[2] << 8) | in[3]), false};
    emu_dispatch_error(&reply, 0, &err);
    ssize_t w = send(c->fd, out.data, out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;
    base_buf_fini(&out);
}

static void on_peek(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    emu_conn_t *c = arg;
    switch (emu_tls_peek(fd)) {
    case EMU_TLS_PEEK_AGAIN:
        return; /* the event is persistent */
    case EMU_TLS_PEEK_CLOSED:
        emu_conn_free(c);
        return;
    case EMU_TLS_PEEK_PLAIN:
        refuse_plaintext(c);
        emu_conn_free(c);
        return;
    case EMU_TLS_PEEK_TLS:
        break;
    }
    event_free(c->peek);
    c->peek = NULL;
    struct bufferevent *bev = emu_tls_wrap(c->srv->base, c->srv->ssl, fd);
    if (bev == NULL) {
        emu_log(EMU_LOG_ERROR, c->id, "cannot start TLS for %s", c->peer);
        emu_conn_free(c);
        return;
    }
    c->fd = -1; /* the bufferevent owns it now */
    start_protocol(c, bev);
}

/* ---- timeouts ---------------------------------------------------------- */

static void arm(emu_conn_t *c, timer_kind_t kind, int ms)
{
    c->timer_kind = kind;
    if (kind == TIMER_NONE) {
        evtimer_del(c->timer);
        return;
    }
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    if (evtimer_add(c->timer, &tv) != 0) {
        c->timer_kind = TIMER_NONE; /* cannot happen with a valid timer; never leaves it armed */
    }
}

/* After a read: the deadline that now applies to a ready connection. The
 * handshake deadline runs from accept and is not moved by reads. */
static void rearm(emu_conn_t *c, uint64_t frames_before)
{
    const emu_config_t *cfg = c->srv->cfg;
    if (c->closing || c->state != CONN_READY) {
        return;
    }
    size_t pending = evbuffer_get_length(bufferevent_get_input(c->bev));
    if (!c->paused && (pending > 0 || c->skip > 0)) {
        if (c->timer_kind != TIMER_FRAME || c->frames != frames_before) {
            arm(c, TIMER_FRAME, cfg->frame_timeout_ms); /* a new frame has begun */
        }
    } else if (!c->paused && cfg->idle_timeout_ms > 0) {
        arm(c, TIMER_IDLE, cfg->idle_timeout_ms);
    } else {
        arm(c, TIMER_NONE, 0); /* paused, or no idle timeout */
    }
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_conn_t *c = arg;
    const emu_config_t *cfg = c->srv->cfg;
    switch (c->timer_kind) {
    case TIMER_HANDSHAKE: {
        const char *what_ = c->state == CONN_PEEK ? "no data (TLS handshake not begun)"
                            : c->srv->ssl != NULL && !emu_tls_handshake_done(c->bev)
                                ? "TLS handshake not done"
                                : "STARTUP/AUTH_RESPONSE not done";
        emu_log(EMU_LOG_INFO, c->id, "closing %s: %s within %d ms (--handshake-timeout-ms)",
                c->peer, what_, cfg->handshake_timeout_ms);
        break;
    }
    case TIMER_FRAME:
        emu_log(EMU_LOG_INFO, c->id,
                "closing %s: a frame still incomplete after %d ms (%zu bytes of it received; "
                "--frame-timeout-ms)",
                c->peer, cfg->frame_timeout_ms, evbuffer_get_length(bufferevent_get_input(c->bev)));
        break;
    case TIMER_IDLE:
        if (c->n_held > 0 || evbuffer_get_length(bufferevent_get_output(c->bev)) > 0) {
            arm(c, TIMER_IDLE, cfg->idle_timeout_ms); /* still busy: not idle */
            return;
        }
        emu_log(EMU_LOG_INFO, c->id, "closing %s: idle for %d ms (--idle-timeout-ms)", c->peer,
                cfg->idle_timeout_ms);
        break;
    case TIMER_FLUSH:
        emu_log(EMU_LOG_INFO, c->id,
                "closing %s: it read none of its last %zu bytes of answers in %d ms", c->peer,
                evbuffer_get_length(bufferevent_get_output(c->bev)), cfg->frame_timeout_ms);
        break;
    case TIMER_NONE:
        return;
    }
    emu_conn_free(c);
}

void emu_conn_accept(emu_server_t *s, evutil_socket_t fd, const struct sockaddr *addr, int addr_len)
{
    (void)addr_len;
    emu_conn_t *c = base_calloc(1, sizeof(*c));
    c->srv = s;
    c->id = ++s->next_conn_id;
    c->fd = fd;
    format_peer(c->peer, sizeof(c->peer), addr);
    base_arena_init(&c->arena, ARENA_BLOCK);
    base_arena_init(&c->ahead_arena, AHEAD_BLOCK);
    base_buf_init(&c->out);
    BASE_LIST_PUSH(&s->conns, c, all.prev, all.next);
    s->n_conns++;
    evutil_make_socket_nonblocking(fd);
    emu_log(EMU_LOG_DEBUG, c->id, "accepted %s", c->peer);
    c->timer = evtimer_new(s->base, on_timeout, c);
    if (c->timer == NULL) {
        emu_conn_free(c);
        return;
    }
    arm(c, TIMER_HANDSHAKE, s->cfg->handshake_timeout_ms);

    if (s->ssl == NULL) {
        struct bufferevent *bev = bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
        if (bev == NULL) {
            emu_conn_free(c);
            return;
        }
        emu_plain_tune(bev);
        c->fd = -1;
        start_protocol(c, bev);
        return;
    }
    c->state = CONN_PEEK;
    c->peek = event_new(s->base, fd, EV_READ | EV_PERSIST, on_peek, c);
    if (c->peek == NULL || event_add(c->peek, NULL) != 0) { /* the handshake timer bounds it */
        emu_conn_free(c);
    }
}

/* ---- responses ---------------------------------------------------------- */

static emu_reply_t reply_to(emu_conn_t *c, int16_t stream)
{
    return (emu_reply_t){&c->out, c->version ? c->version : 4, stream, c->compress};
}

static void send_error(emu_conn_t *c, int16_t stream, uint8_t opcode, const base_error_t *err)
{
    emu_reply_t reply = reply_to(c, stream);
    emu_dispatch_error(&reply, opcode, err);
    emu_log(EMU_LOG_DEBUG, c->id, "stream %d %s -> ERROR 0x%04x %s", stream,
            wire_opcode_name(opcode), err->code, err->msg);
}

/* Keeps out back when the commit log it may describe is not written (or,
 * --fsync always, synced) yet; false when it can be sent now. */
static bool park(emu_conn_t *c)
{
    emu_server_t *s = c->srv;
    if (!s->acks_wait_log) {
        return false;
    }
    uint64_t pos = storage_db_log_position(s->db);
    if (c->parked == NULL && storage_db_ack_position(s->db) >= pos) {
        return false;
    }
    parked_t *p = base_malloc(sizeof(*p));
    p->next = NULL;
    p->pos = pos;
    p->n_responses = c->out_responses;
    p->out = emu_outbuf_take(s->outbufs, &c->out);
    if (c->parked_tail != NULL) {
        c->parked_tail->next = p;
    } else {
        c->parked = p;
        BASE_LIST_PUSH(&c->srv->waiting, c, waiting.prev, waiting.next);
    }
    c->parked_tail = p;
    s->acks_waiting += p->n_responses;
    return true;
}

/* Queues bytes for the client and has them written in this turn of the
 * loop. The OpenSSL bufferevent only turns write interest on when output
 * arrives and writes once epoll reports the socket writable, in the next
 * turn: every answer waited a turn, and each turn turned EPOLLOUT off and
 * on again (an epoll_ctl per connection per turn). Activating its write
 * event runs the same write callback before the next epoll_wait; what it
 * cannot write waits for EPOLLOUT as before, and with the changelist the
 * interest turned on and off in one turn costs no system call. */
static void send_bytes(emu_conn_t *c, const void *data, size_t len)
{
    if (bufferevent_write(c->bev, data, len) == 0) {
        event_active(&c->bev->ev_write, EV_WRITE, 1);
    }
}

/* Answers more than a TLS record long leave in one write(2) per record, and
 * on loopback each went through the client's receive path and woke it
 * before the next was written. Corked, the kernel holds the records until
 * the output has drained (on_write) and sends them as full segments: 1 KB
 * selects, 70 KB of answers a read, took 4% less CPU. Plaintext needs none:
 * one writev takes it all (plain.c). */
static void cork(emu_conn_t *c, bool on)
{
    int v = on;
    if (setsockopt(bufferevent_getfd(c->bev), IPPROTO_TCP, TCP_CORK, &v, sizeof(v)) == 0) {
        c->corked = on;
    }
}

/* send_bytes for a block of answers, lent to the output rather than copied. */
static void send_block(emu_conn_t *c, emu_outbuf_t *b)
{
    if (c->srv->ssl != NULL && !c->corked && emu_outbuf_len(b) > SSL3_RT_MAX_PLAIN_LENGTH) {
        cork(c, true);
    }
    if (emu_outbuf_send(b, bufferevent_get_output(c->bev))) {
        event_active(&c->bev->ev_write, EV_WRITE, 1);
    }
}


void emu_conn_release(emu_conn_t *c, uint64_t acked, bool failed)
{
    emu_server_t *s = c->srv;
    while (c->parked != NULL && c->parked->pos <= acked) {
        parked_t *p = c->parked;
        c->parked = p->next;
        if (c->parked == NULL) {
            c->parked_tail = NULL;
            BASE_LIST_REMOVE(&c->srv->waiting, c, waiting.prev, waiting.next);
        }
        s->acks_waiting -= p->n_responses;
        if (c->bev != NULL) {
            send_block(c, p->out);
        } else {
            emu_outbuf_drop(p->out);
        }
        base_free(p);
    }
    if (c->parked != NULL && failed) {
        emu_log(EMU_LOG_ERROR, c->id,
                "closing the connection from %s: the commit log could not be written or "
                "synced, so its %zu waiting response(s) cannot be acknowledged",
                c->peer, c->parked->n_responses);
        emu_conn_free(c);
        return;
    }
    if (c->closing && c->parked == NULL &&
        (c->bev == NULL || evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)) {
        emu_conn_free(c);
    }
}

/* Sends (or parks) the answers made since the last flush. The commit log
 * records of the writes they acknowledge go to the log first (write-behind:
 * handed to its thread, which emu_server_served wakes once the read is
 * served, or written with one write(2)); if the log failed the answers are
 * dropped and false returned: the connection must close, so the client,
 * told nothing, treats its writes as it does a timeout. */
static bool flush_out(emu_conn_t *c)
{
    if (c->out.len > 0 && storage_db_log_flush_later(c->srv->db) != BASE_OK) {
        emu_log(EMU_LOG_ERROR, c->id,
                "closing the connection from %s: the commit log could not be written, so its "
                "%zu answer(s) cannot be sent",
                c->peer, c->out_responses);
        base_buf_reset(&c->out);
        c->out_responses = 0;
        return false;
    }
    if (c->out.len > 0) {
        if (!park(c)) {
            send_block(c, emu_outbuf_take(c->srv->outbufs, &c->out));
        }
        base_buf_reset(&c->out);
        c->out_responses = 0;
    }
    if (c->out.cap > OUT_KEEP_MAX) { /* one huge result must not pin its buffer forever */
        base_buf_fini(&c->out);
        base_buf_init(&c->out);
    }
    return true;
}

void emu_conn_push_event(emu_conn_t *c, void (*encode)(base_buf_t *b, const void *arg),
                         const void *arg)
{
    if (c->bev == NULL || c->closing || c->state != CONN_READY) {
        return;
    }
    /* Build in a separate buffer: the connection may be mid-response. */
    base_buf_t b;
    base_buf_init(&b);
    wire_response_t rb;
    wire_response_begin(&rb, &b, c->version, -1, WIRE_OP_EVENT);
    encode(&b, arg);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, c->compress);
    send_bytes(c, b.data, b.len);
    base_buf_fini(&b);
}

/* ---- the state machine -------------------------------------------------- */

static void on_options(emu_conn_t *c, int16_t stream)
{
    static const char *const keys[] = {"CQL_VERSION", "COMPRESSION", "PROTOCOL_VERSIONS"};
    static const char *const cql_versions[] = {"3.4.4"};
    static const char *const compressions[] = {"lz4"};
    static const char *const protocol_versions[] = {"3/v3", "4/v4"};
    static const char *const *const values[] = {cql_versions, compressions, protocol_versions};
    static const size_t n_values[] = {1, 1, 2};
    wire_response_t rb;
    wire_response_begin(&rb, &c->out, c->version, stream, WIRE_OP_SUPPORTED);
    wire_encode_supported(&c->out, keys, values, n_values, 3);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, c->compress);
}

static void on_startup(emu_conn_t *c, int16_t stream, const wire_request_t *req)
{
    base_error_t err;
    bool lz4 = false;
    bool has_cql_version = false;
    for (size_t i = 0; i < req->u.startup.n; i++) {
        base_str_t k = req->u.startup.keys[i];
        base_str_t v = req->u.startup.values[i];
        if (base_str_eq(k, BASE_STR("COMPRESSION"))) {
            if (!base_str_eq_cstr_ci(v, "lz4")) {
                base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR, "Unknown compression algorithm: %.*s",
                               (int)(v.len > 64 ? 64 : v.len), v.ptr);
                send_error(c, stream, WIRE_OP_STARTUP, &err);
                return;
            }
            lz4 = true;
        } else if (base_str_eq(k, BASE_STR("CQL_VERSION"))) {
            if (v.len < 2 || v.ptr[0] != '3' || v.ptr[1] != '.') {
                base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR,
                               "Invalid or unsupported CQL version %.*s; supported version is "
                               "3.4.4",
                               (int)(v.len > 32 ? 32 : v.len), v.ptr);
                send_error(c, stream, WIRE_OP_STARTUP, &err);
                return;
            }
            has_cql_version = true;
        }
    }
    if (!has_cql_version) {
        base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR,
                       "Missing value CQL_VERSION in STARTUP message");
        send_error(c, stream, WIRE_OP_STARTUP, &err);
        return;
    }
    /* From here on both directions may be compressed, the answer included. */
    c->compress = lz4;
    c->state = CONN_AUTHENTICATE;
    wire_response_t rb;
    wire_response_begin(&rb, &c->out, c->version, stream, WIRE_OP_AUTHENTICATE);
    wire_encode_authenticate(&c->out, EMU_AUTHENTICATOR);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, c->compress);
    emu_log(EMU_LOG_DEBUG, c->id, "STARTUP v%d%s", c->version, lz4 ? " lz4" : "");
}

static void on_auth_response(emu_conn_t *c, int16_t stream, const wire_request_t *req)
{
    const emu_config_t *cfg = c->srv->cfg;
    base_error_t err;
    if (emu_auth_check_plain(req->u.auth_token, cfg->account, cfg->account_key, &err) != BASE_OK) {
        emu_log(EMU_LOG_INFO, c->id, "authentication failed from %s: %s", c->peer, err.msg);
        send_error(c, stream, WIRE_OP_AUTH_RESPONSE, &err);
        return;
    }
    c->state = CONN_READY;
    c->session = cql_session_new(c->srv->engine);
    wire_response_t rb;
    wire_response_begin(&rb, &c->out, c->version, stream, WIRE_OP_AUTH_SUCCESS);
    wire_encode_auth_success(&c->out, NULL, WIRE_VALUE_NULL);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, c->compress);
    emu_log(EMU_LOG_DEBUG, c->id, "authenticated %s (protocol v%d%s, %s)", c->peer, c->version,
            c->compress ? ", lz4" : "", c->srv->ssl ? emu_tls_version(c->bev) : "plaintext");
}

static void on_register(emu_conn_t *c, int16_t stream, const wire_request_t *req)
{
    unsigned kinds = 0;
    for (size_t i = 0; i < req->u.reg.n; i++) {
        unsigned k = emu_events_kind(req->u.reg.events[i]);
        if (k == 0) {
            base_error_t err;
            base_str_t name = req->u.reg.events[i];
            base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR, "Invalid value '%.*s' for Event.Type",
                           (int)(name.len > 64 ? 64 : name.len), name.ptr);
            send_error(c, stream, WIRE_OP_REGISTER, &err);
            return;
        }
        kinds |= k;
    }
    emu_events_register(c->srv->events, c, kinds);
    wire_response_t rb;
    wire_response_begin(&rb, &c->out, c->version, stream, WIRE_OP_READY);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, c->compress);
}

/* Cassandra's wording for a message that the connection's state forbids. */
static void unexpected(emu_conn_t *c, int16_t stream, uint8_t opcode)
{
    base_error_t err;
    const char *expecting = c->state == CONN_STARTUP ? "expecting STARTUP or OPTIONS"
                            : c->state == CONN_AUTHENTICATE
                                ? "expecting AUTH_RESPONSE: the connection is not authenticated"
                                : "the connection is already initialized";
    base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR, "Unexpected message %s, %s",
                   wire_opcode_name(opcode), expecting);
    send_error(c, stream, opcode, &err);
}

/* ---- server-side retry -------------------------------------------------- */

static void held_free(held_t *h)
{
    emu_conn_t *c = h->conn;
    BASE_LIST_REMOVE(&c->held, h, prev, next);
    c->n_held--;
    c->srv->inflight_bytes -= h->len;
    if (h->timer != NULL) {
        event_free(h->timer);
    }
    base_free(h->body);
    base_free(h);
}

static void on_retry(evutil_socket_t fd, short what, void *arg);

/* Arms h's timer for the retry after retry_after_ms, cut to the budget. */
static bool held_arm(held_t *h, int retry_after_ms)
{
    int64_t now = base_mono_us();
    int64_t at = now + (int64_t)(retry_after_ms > 0 ? retry_after_ms : 1) * 1000;
    if (at > h->deadline_us) {
        at = h->deadline_us;
    }
    int64_t wait = at > now ? at - now : 0;
    struct timeval tv = {(time_t)(wait / 1000000), (suseconds_t)(wait % 1000000)};
    return evtimer_add(h->timer, &tv) == 0;
}

static void hold(emu_conn_t *c, const wire_header_t *hdr, const uint8_t *body, size_t len,
                 const emu_hold_t *eh, int64_t began_us)
{
    int budget_ms = 0;
    emu_metering_server_side_retry(c->srv->metering, &budget_ms);
    held_t *h = base_calloc(1, sizeof(*h));
    h->conn = c;
    h->header = *hdr;
    h->body = base_malloc(len > 0 ? len : 1);
    memcpy(h->body, body, len);
    h->len = len;
    c->srv->inflight_bytes += len; /* until it is answered (held_free) */
    h->started_us = began_us;
    h->deadline_us = h->started_us + (int64_t)budget_ms * 1000;
    h->read = eh->read;
    h->timer = evtimer_new(c->srv->base, on_retry, h);
    BASE_LIST_PUSH(&c->held, h, prev, next);
    c->n_held++;
    if (h->timer == NULL || !held_arm(h, eh->retry_after_ms)) {
        base_error_t err;
        base_error_set(&err, WIRE_ERR_SERVER_ERROR, "cannot schedule a server-side retry");
        emu_reply_t reply = reply_to(c, hdr->stream);
        emu_dispatch_error(&reply, hdr->opcode, &err);
        held_free(h);
        return;
    }
    emu_log(EMU_LOG_DEBUG, c->id, "stream %d %s throttled: held for %d ms", hdr->stream,
            wire_opcode_name(hdr->opcode), eh->retry_after_ms);
}

static void on_retry(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    held_t *h = arg;
    emu_conn_t *c = h->conn;
    wire_request_t req;
    base_error_t err;
    emu_reply_t reply = reply_to(c, h->header.stream);
    int64_t now = base_mono_us();
    if (c->closing || c->bev == NULL) {
        held_free(h);
        return;
    }
    if (wire_request_decode(&req, &h->header, h->body, h->len, &c->arena, &err) != BASE_OK) {
        send_error(c, h->header.stream, h->header.opcode, &err); /* decoded once already */
    } else if (now >= h->deadline_us) {
        emu_dispatch_timeout(&reply, &req, h->read, (int)((now - h->started_us) / 1000));
    } else {
        emu_hold_t eh;
        emu_dispatch(c->srv->engine, c->srv->metering, c->session, &req, h->len, &reply, &c->arena,
                     &eh, now);
        if (eh.held && held_arm(h, eh.retry_after_ms)) {
            base_arena_reset(&c->arena);
            return;
        }
        if (eh.held) {
            emu_dispatch_timeout(&reply, &req, h->read,
                                 (int)((base_mono_us() - h->started_us) / 1000));
        }
    }
    base_arena_reset(&c->arena);
    emu_telemetry_request(h->header.opcode, base_mono_us() - h->started_us);
    held_free(h);
    c->out_responses++;
    if (!flush_out(c)) {
        close_when_flushed(c);
    }
}

/* ---- requests ------------------------------------------------------------ */

static void handle_request(emu_conn_t *c, const wire_header_t *h, const wire_request_t *req,
                           const uint8_t *body, size_t len, int64_t began_us)
{
    switch (h->opcode) {
    case WIRE_OP_OPTIONS:
        on_options(c, h->stream);
        return;
    case WIRE_OP_STARTUP:
        if (c->state == CONN_STARTUP) {
            on_startup(c, h->stream, req);
            return;
        }
        break;
    case WIRE_OP_AUTH_RESPONSE:
        if (c->state == CONN_AUTHENTICATE) {
            on_auth_response(c, h->stream, req);
            return;
        }
        break;
    case WIRE_OP_REGISTER:
        if (c->state == CONN_READY) {
            on_register(c, h->stream, req);
            return;
        }
        break;
    default: /* QUERY, PREPARE, EXECUTE, BATCH: wire_request_decode admits no others */
        if (c->state == CONN_READY) {
            emu_reply_t reply = reply_to(c, h->stream);
            emu_hold_t eh = {0};
            emu_dispatch(c->srv->engine, c->srv->metering, c->session, req, len, &reply, &c->arena,
                         c->n_held < HELD_MAX ? &eh : NULL, began_us);
            if (eh.held) {
                hold(c, h, body, len, &eh, began_us);
            }
            return;
        }
        break;
    }
    unexpected(c, h->stream, h->opcode);
}

/* The lookahead's decode of the frame at the input's head (its body at body), if it
 * made one. Frames come in the lookahead's order, but one may have been refused before
 * its turn (Overloaded), so the search goes on past a miss. */
static const wire_request_t *ahead_take(emu_conn_t *c, const uint8_t *body)
{
    for (size_t i = c->next_ahead; i < c->n_ahead && c->ahead[i].pos <= c->in_pos; i++) {
        if (c->ahead[i].pos == c->in_pos && c->ahead[i].body == body) {
            c->next_ahead = i + 1;
            return &c->ahead[i].req;
        }
    }
    return NULL;
}


/*
 * The requests a read answers, counted by opcode for the latency histogram
 * once the read's answers are built: each request's latency is from the
 * read that brought it to the end of that read (when its answer goes out),
 * so two clock reads serve a read's whole run of frames. A clock read per
 * request measured only that request's own work, not its wait behind the
 * others of its read, and cost a 1 KB select's loop 1.2% (perf: clock reads
 * 2.7% -> 1.6% of it).
 */
#define TALLY_OPS 4
typedef struct tally_s {
    int64_t began_us; /* 0 until the read's first whole frame */
    uint8_t op[TALLY_OPS];
    uint32_t n[TALLY_OPS];
    size_t k;
} tally_t;

static void tally_flush(tally_t *t, int64_t now_us)
{
    for (size_t i = 0; i < t->k; i++) {
        emu_telemetry_requests(t->op[i], t->n[i], now_us - t->began_us);
    }
    t->k = 0;
}

static void tally_add(tally_t *t, uint8_t opcode)
{
    for (size_t i = 0; i < t->k; i++) {
        if (t->op[i] == opcode) {
            t->n[i]++;
            return;
        }
    }
    if (t->k == TALLY_OPS) {
        tally_flush(t, base_mono_us()); /* a fifth opcode in one read: rare */
    }
    t->op[t->k] = opcode;
    t->n[t->k++] = 1;
}

/* Decompresses and decodes one whole frame, then answers it and counts it in
 * tally (whose began_us, when the frame's read began, is its start). */
static void handle_frame(emu_conn_t *c, const wire_header_t *h, const uint8_t *body, tally_t *tally)
{
    base_error_t err;
    uint8_t *plain = NULL;
    size_t len = h->length;
    int64_t t0 = tally->began_us;
    size_t held = c->n_held; /* a request held for retry is counted when it is answered */
    if (h->flags & WIRE_FLAG_COMPRESSION) {
        if (!c->compress) {
            base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR,
                           "Received a compressed frame but no compression was negotiated in "
                           "STARTUP");
            send_error(c, h->stream, h->opcode, &err);
            goto done;
        }
        if (wire_lz4_decompress(body, len, c->srv->cfg->max_frame, &plain, &len, &err) != BASE_OK) {
            send_error(c, h->stream, h->opcode, &err);
            goto done;
        }
        body = plain;
    }
    wire_request_t req;
    const wire_request_t *ahead = plain == NULL ? ahead_take(c, body) : NULL;
    if (ahead != NULL) {
        handle_request(c, h, ahead, body, len, t0);
    } else if (wire_request_decode(&req, h, body, len, &c->arena, &err) != BASE_OK) {
        send_error(c, h->stream, h->opcode, &err);
    } else {
        handle_request(c, h, &req, body, len, t0);
    }
done:
    base_free(plain);
    if (c->n_held == held) { /* answered now (a held request is counted when it is) */
        c->out_responses++;
        tally_add(tally, h->opcode);
    }
}

/*
 * Answers a frame whose version byte we do not serve with the reply that
 * makes drivers step down: ProtocolError in a v4 header (or the
 * connection's own version once fixed) with the request's stream id.
 * v1/v2 headers carry a one-byte stream id at offset 2.
 */
static void reject_version(emu_conn_t *c, const uint8_t *hdr, int version)
{
    base_error_t err;
    char msg[160];
    int16_t stream =
        (int16_t)(version <= 2 ? (int8_t)hdr[2] : (int16_t)((uint16_t)(hdr[2] << 8) | hdr[3]));
    wire_unsupported_version_message(msg, sizeof(msg), version);
    base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR, "%s", msg);
    emu_reply_t reply = {&c->out, c->version ? c->version : 4, stream, false};
    emu_dispatch_error(&reply, 0, &err);
    emu_log(EMU_LOG_DEBUG, c->id, "protocol version %d refused", version);
}

/* Counts h's body towards the server's in-flight bytes, or answers it
 * Overloaded (returning false) when that would pass --max-inflight-mb. */
static bool reserve(emu_conn_t *c, const wire_header_t *h)
{
    emu_server_t *s = c->srv;
    if (h->length == 0) {
        return true;
    }
    if (s->inflight_bytes + h->length > s->cfg->max_inflight) {
        base_error_t err;
        base_error_set(&err, WIRE_ERR_OVERLOADED,
                       "Server is overloaded: in-flight request bytes exceed %zu MB",
                       s->cfg->max_inflight / (1024 * 1024));
        c->version = h->version;
        send_error(c, h->stream, h->opcode, &err);
        emu_log_limited(&s->inflight_log, 1000, EMU_LOG_WARN, c->id,
                        "refused a %u-byte %s from %s: in-flight request bytes would pass "
                        "--max-inflight-mb %zu",
                        h->length, wire_opcode_name(h->opcode), c->peer,
                        s->cfg->max_inflight / (1024 * 1024));
        return false;
    }
    c->reserved = h->length;
    s->inflight_bytes += h->length;
    return true;
}

/* Answers queued for c: on the socket's buffer, parked for a sync (a short
 * list: it is released at every fdatasync) and not yet flushed. */
static bool over_output_cap(const emu_conn_t *c)
{
    size_t queued = evbuffer_get_length(bufferevent_get_output(c->bev)) + c->out.len;
    for (const parked_t *p = c->parked; p != NULL; p = p->next) {
        queued += emu_outbuf_len(p->out);
    }
    return queued > c->srv->cfg->max_conn_output;
}

/*
 * Looks ahead over the frames waiting in the input and has the engine warm
 * the partitions their statements will touch, all at once, before the first
 * runs (cql_prefetch_add). Only a hint, so it takes the easy frames: whole,
 * uncompressed, each inside one of the input's chunks; it stops at the
 * first header that will not decode, which process_input then answers. A
 * lone frame is left alone: it runs at once, before a prefetch could help.
 */
static void prefetch_frames(emu_conn_t *c, struct evbuffer *in)
{
    struct evbuffer_iovec vec[8];
    c->n_ahead = c->next_ahead = 0; /* the input may have moved since */
    c->ahead = NULL;
    base_arena_reset(&c->ahead_arena);
    if (c->state != CONN_READY || c->skip > 0) {
        return;
    }
    int n = evbuffer_peek(in, -1, NULL, vec, 8);
    n = n < 8 ? n : 8;
    cql_prefetch_t pf = {.n = 0};
    size_t total = evbuffer_get_length(in);
    size_t chunk_start = 0; /* of vec[i] in the input */
    size_t at = 0;          /* the next frame's start */
    base_error_t err;
    for (int i = 0; i < n && c->n_ahead < CQL_PREFETCH_MAX; i++) {
        const uint8_t *chunk = vec[i].iov_base;
        size_t len = vec[i].iov_len;
        /* at >= chunk_start: a body may run past a chunk, a header may not. */
        while (at - chunk_start + WIRE_HEADER_SIZE <= len && c->n_ahead < CQL_PREFETCH_MAX) {
            const uint8_t *hdr = chunk + (at - chunk_start);
            wire_header_t h;
            if (wire_header_decode(&h, hdr, WIRE_HEADER_SIZE, c->srv->cfg->max_frame, &err) !=
                BASE_OK) {
                goto done;
            }
            size_t end = at + WIRE_HEADER_SIZE + h.length;
            if (at == 0 && end + WIRE_HEADER_SIZE > total) {
                goto done; /* one frame: it runs now, a prefetch would not be ahead of it */
            }
            if (c->ahead == NULL) {
                c->ahead = base_arena_alloc(&c->ahead_arena, CQL_PREFETCH_MAX * sizeof(*c->ahead));
            }
            struct ahead_s *a = &c->ahead[c->n_ahead];
            if (end - chunk_start <= len && h.opcode == WIRE_OP_EXECUTE &&
                (h.flags & WIRE_FLAG_COMPRESSION) == 0 &&
                wire_request_decode(&a->req, &h, hdr + WIRE_HEADER_SIZE, h.length, &c->ahead_arena,
                                    &err) == BASE_OK) {
                cql_prefetch_add(c->srv->engine, c->session, a->req.u.execute.id,
                                 &a->req.u.execute.params, &pf);
                a->pos = c->in_pos + at;
                a->body = hdr + WIRE_HEADER_SIZE;
                c->n_ahead++;
            }
            at = end;
        }
        if (at - chunk_start < len) {
            break; /* a header across two chunks */
        }
        chunk_start += len;
    }
done:
    cql_prefetch_run(&pf);
}


/* Handles every complete frame in the input, counting them in tally;
 * returns false once the connection must close (after flushing). */
static bool process_frames(emu_conn_t *c, struct evbuffer *in, tally_t *tally)
{
    base_error_t err;
    prefetch_frames(c, in);
    for (;;) {
        if (c->skip > 0) {
            size_t n = evbuffer_get_length(in) < c->skip ? evbuffer_get_length(in) : c->skip;
            evbuffer_drain(in, n);
            c->in_pos += n;
            c->skip -= n;
            if (c->skip > 0) {
                return true;
            }
        }
        size_t avail = evbuffer_get_length(in);
        uint8_t hdr[WIRE_HEADER_SIZE];
        if (avail < WIRE_HEADER_SIZE - 1) {
            return true; /* v1/v2 headers are 8 bytes: need that much to judge */
        }
        evbuffer_copyout(in, hdr,
                         avail < WIRE_HEADER_SIZE ? WIRE_HEADER_SIZE - 1 : WIRE_HEADER_SIZE);
        int version = hdr[0] & 0x7f;
        if (version != 3 && version != 4) {
            reject_version(c, hdr, version);
            return false;
        }
        if (avail < WIRE_HEADER_SIZE) {
            return true;
        }
        int16_t stream = (int16_t)((uint16_t)(hdr[2] << 8) | hdr[3]);
        if (hdr[0] & 0x80) {
            base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR,
                           "Invalid frame direction: a client sent a response frame");
            send_error(c, stream, 0, &err);
            return false;
        }
        if (c->version != 0 && version != c->version) {
            base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR,
                           "Invalid message version. Got %d but previous messages on this "
                           "connection had version %d",
                           version, c->version);
            send_error(c, stream, 0, &err);
            return false;
        }
        wire_header_t h;
        if (wire_header_decode(&h, hdr, WIRE_HEADER_SIZE, c->srv->cfg->max_frame, &err) !=
            BASE_OK) {
            c->version = (uint8_t)version;
            send_error(c, stream, 0, &err);
            return false; /* the body cannot be skipped: the stream is lost */
        }
        if (c->reserved == 0 && !reserve(c, &h)) {
            c->version = (uint8_t)version;
            evbuffer_drain(in, WIRE_HEADER_SIZE);
            c->in_pos += WIRE_HEADER_SIZE;
            c->skip = h.length;
            c->frames++;
            continue; /* answered Overloaded; its body is dropped as it comes */
        }
        if (avail - WIRE_HEADER_SIZE < h.length) {
            return true;
        }
        c->version = (uint8_t)version;
        if (c->n_ahead == CQL_PREFETCH_MAX && c->next_ahead == c->n_ahead) {
            /* A full lookahead is used up and frames are left: 64 in flight
             * came in one read, and half of them ran without their prefetch. */
            prefetch_frames(c, in);
        }
        uint8_t *frame = evbuffer_pullup(in, (ev_ssize_t)(WIRE_HEADER_SIZE + h.length));
        if (frame == NULL) {
            base_error_set(&err, WIRE_ERR_SERVER_ERROR, "out of memory for a %u-byte frame",
                           h.length);
            send_error(c, stream, h.opcode, &err);
            return false;
        }
        if (tally->began_us == 0) {
            tally->began_us = base_mono_us();
        }
        handle_frame(c, &h, frame + WIRE_HEADER_SIZE, tally);
        evbuffer_drain(in, WIRE_HEADER_SIZE + h.length);
        c->in_pos += WIRE_HEADER_SIZE + h.length;
        c->frames++;
        c->srv->inflight_bytes -= c->reserved;
        c->reserved = 0;
        base_arena_reset(&c->arena);
        if (c->out.len >= 256 * 1024 && !flush_out(c)) {
            return false;
        }
        if (over_output_cap(c)) {
            return true; /* the rest waits: on_read pauses reading */
        }
    }
}

static bool process_input(emu_conn_t *c, struct evbuffer *in)
{
    tally_t tally = {0};
    bool keep = process_frames(c, in, &tally);
    if (tally.k > 0) {
        tally_flush(&tally, base_mono_us());
    }
    return keep;
}

/* What OpenSSL read ahead, into the input; false when c is gone. */
static bool drain_tls(emu_conn_t *c)
{
    char why[256];
    switch (emu_tls_drain(c->bev, why, sizeof(why))) {
    case EMU_TLS_DRAIN_OK:
        return true;
    case EMU_TLS_DRAIN_CLOSED:
        emu_log(EMU_LOG_DEBUG, c->id, "%s closed the connection", c->peer);
        break;
    case EMU_TLS_DRAIN_ERROR:
        emu_log(EMU_LOG_INFO, c->id, "TLS error with %s: %s", c->peer, why);
        break;
    }
    emu_conn_free(c);
    return false;
}

static void on_read(struct bufferevent *bev, void *arg)
{
    emu_conn_t *c = arg;
    if (c->closing) {
        return;
    }
    uint64_t frames_before = c->frames;
    if (c->srv->ssl == NULL) {
        if (!over_output_cap(c)) { /* else its frames wait: no more input to hold */
            emu_plain_drain(bev, EMU_PLAIN_DRAIN_MAX);
        }
    } else if (!drain_tls(c)) {
        return;
    }
    bool keep = process_input(c, bufferevent_get_input(bev));
    if (!flush_out(c) || !keep) {
        close_when_flushed(c);
        return;
    }
    if (over_output_cap(c)) {
        /* The client is not reading its answers: stop reading its requests. */
        c->paused = true;
        bufferevent_disable(bev, EV_READ);
        bufferevent_setwatermark(bev, EV_WRITE, c->srv->cfg->max_conn_output / 2, 0);
    }
    rearm(c, frames_before);
    emu_server_served(c->srv); /* last: it may free c */
}

static void on_write(struct bufferevent *bev, void *arg)
{
    emu_conn_t *c = arg;
    if (c->corked) {
        cork(c, false); /* what is written goes now, whole segments and the rest */
    }
    if (c->closing) {
        if (c->parked == NULL && evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
            emu_conn_free(c);
        }
        return;
    }
    if (c->paused) {
        c->paused = false;
        bufferevent_setwatermark(bev, EV_WRITE, 0, 0);
        bufferevent_enable(bev, EV_READ);
        on_read(bev, c); /* frames may already be waiting in the input */
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    emu_conn_t *c = arg;
    if (what & BEV_EVENT_CONNECTED) {
        emu_log(EMU_LOG_DEBUG, c->id, "TLS handshake done with %s (%s)", c->peer,
                emu_tls_version(bev));
        on_read(bev, c); /* the first frames may have come with the handshake */
        return;
    }
    if (what & BEV_EVENT_ERROR) {
        char tls_err[256] = "";
        if (c->srv->ssl != NULL) {
            emu_tls_error(bev, tls_err, sizeof(tls_err));
        }
        if (tls_err[0] != '\0') {
            emu_log(EMU_LOG_INFO, c->id, "TLS error with %s: %s", c->peer, tls_err);
        } else {
            emu_log(EMU_LOG_DEBUG, c->id, "socket error with %s: %s", c->peer,
                    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
        }
    } else {
        emu_log(EMU_LOG_DEBUG, c->id, "%s closed the connection", c->peer);
    }
    emu_conn_free(c);
}
