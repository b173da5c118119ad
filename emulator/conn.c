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
 * Server-side retry: a statement throttled by the RU meter may be held
 * instead of answered. Its decompressed body is copied (the input buffer
 * moves on), and a timer runs it again after RetryAfterMs, until it passes
 * or its retry budget is spent (then a read/write timeout). Later frames
 * are served meanwhile, so they may be answered first: stream ids make
 * out-of-order answers legal. A held QUERY resolves unqualified names
 * against the session's keyspace at the time it finally runs. At most
 * HELD_MAX requests are held per connection; past that, 0x1001 at once.
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
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "emulator/auth.h"
#include "emulator/dispatch.h"
#include "emulator/log.h"
#include "emulator/telemetry.h"
#include "emulator/tls.h"

#define PEEK_TIMEOUT_SEC  10
#define OUTPUT_HIGH_WATER (64u * 1024 * 1024) /* stop reading past this much queued */
#define ARENA_BLOCK       (64u * 1024)
#define OUT_KEEP_MAX      (4u * 1024 * 1024) /* largest output buffer kept between reads */
#define HELD_MAX          1024 /* requests held by server-side retry, per connection */

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
    CONN_PEEK,
    CONN_STARTUP,
    CONN_AUTHENTICATE,
    CONN_READY,
} conn_state_t;

struct emu_conn_s {
    emu_server_t *srv;
    uint64_t id;
    char peer[INET6_ADDRSTRLEN + 8];
    evutil_socket_t fd;
    struct event *peek;      /* CONN_PEEK only */
    struct bufferevent *bev; /* NULL while peeking */
    conn_state_t state;
    uint8_t version; /* 0 until the first valid frame */
    bool compress;   /* lz4 negotiated in STARTUP */
    bool closing;    /* no more input; freed once the output drains */
    bool paused;     /* reading stopped for output backpressure */
    cql_session_t *session;
    base_arena_t arena;
    base_buf_t out; /* responses of this read, written to bev in one go */
    held_t *held;   /* statements waiting for a server-side retry */
    size_t n_held;
    emu_conn_t *prev;
    emu_conn_t *next;
};

static void on_read(struct bufferevent *bev, void *arg);
static void on_write(struct bufferevent *bev, void *arg);
static void on_event(struct bufferevent *bev, short what, void *arg);
static void held_free(held_t *h);

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
    if (c->prev != NULL) {
        c->prev->next = c->next;
    } else {
        s->conns = c->next;
    }
    if (c->next != NULL) {
        c->next->prev = c->prev;
    }
    s->n_conns--;
    emu_events_unregister(s->events, c);
    while (c->held != NULL) {
        held_free(c->held);
    }
    if (c->peek != NULL) {
        event_free(c->peek);
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
    base_buf_fini(&c->out);
    emu_log(EMU_LOG_DEBUG, c->id, "closed");
    base_free(c);
    emu_server_conn_gone(s);
}

/* Frees now if nothing is queued, else once on_write sees the output drained. */
static void close_when_flushed(emu_conn_t *c)
{
    c->closing = true;
    if (c->bev == NULL || evbuffer_get_length(bufferevent_get_output(c->bev)) == 0) {
        emu_conn_free(c);
        return;
    }
    bufferevent_disable(c->bev, EV_READ);
    bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
}

void emu_conn_shutdown(emu_conn_t *c)
{
    close_when_flushed(c);
}

emu_conn_t *emu_conn_next(const emu_conn_t *c)
{
    return c->next;
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
    emu_conn_t *c = arg;
    if (what & EV_TIMEOUT) {
        emu_log(EMU_LOG_DEBUG, c->id, "no data from %s within %d s", c->peer, PEEK_TIMEOUT_SEC);
        emu_conn_free(c);
        return;
    }
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

void emu_conn_accept(emu_server_t *s, evutil_socket_t fd, const struct sockaddr *addr, int addr_len)
{
    (void)addr_len;
    emu_conn_t *c = base_calloc(1, sizeof(*c));
    c->srv = s;
    c->id = ++s->next_conn_id;
    c->fd = fd;
    format_peer(c->peer, sizeof(c->peer), addr);
    base_arena_init(&c->arena, ARENA_BLOCK);
    base_buf_init(&c->out);
    c->next = s->conns;
    if (s->conns != NULL) {
        s->conns->prev = c;
    }
    s->conns = c;
    s->n_conns++;
    evutil_make_socket_nonblocking(fd);
    emu_log(EMU_LOG_DEBUG, c->id, "accepted %s", c->peer);

    if (s->ssl == NULL) {
        struct bufferevent *bev = bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
        if (bev == NULL) {
            emu_conn_free(c);
            return;
        }
        c->fd = -1;
        start_protocol(c, bev);
        return;
    }
    c->state = CONN_PEEK;
    c->peek = event_new(s->base, fd, EV_READ | EV_PERSIST, on_peek, c);
    struct timeval tv = {PEEK_TIMEOUT_SEC, 0};
    if (c->peek == NULL || event_add(c->peek, &tv) != 0) {
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

static void flush_out(emu_conn_t *c)
{
    if (c->out.len > 0) {
        bufferevent_write(c->bev, c->out.data, c->out.len);
        base_buf_reset(&c->out);
    }
    if (c->out.cap > OUT_KEEP_MAX) { /* one huge result must not pin its buffer forever */
        base_buf_fini(&c->out);
        base_buf_init(&c->out);
    }
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
    bufferevent_write(c->bev, b.data, b.len);
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
    if (h->prev != NULL) {
        h->prev->next = h->next;
    } else {
        c->held = h->next;
    }
    if (h->next != NULL) {
        h->next->prev = h->prev;
    }
    c->n_held--;
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
                 const emu_hold_t *eh)
{
    int budget_ms = 0;
    emu_metering_server_side_retry(c->srv->metering, &budget_ms);
    held_t *h = base_calloc(1, sizeof(*h));
    h->conn = c;
    h->header = *hdr;
    h->body = base_malloc(len > 0 ? len : 1);
    memcpy(h->body, body, len);
    h->len = len;
    h->started_us = base_mono_us();
    h->deadline_us = h->started_us + (int64_t)budget_ms * 1000;
    h->read = eh->read;
    h->timer = evtimer_new(c->srv->base, on_retry, h);
    h->next = c->held;
    if (c->held != NULL) {
        c->held->prev = h;
    }
    c->held = h;
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
    if (c->closing || c->bev == NULL) {
        held_free(h);
        return;
    }
    if (wire_request_decode(&req, &h->header, h->body, h->len, &c->arena, &err) != BASE_OK) {
        send_error(c, h->header.stream, h->header.opcode, &err); /* decoded once already */
    } else if (base_mono_us() >= h->deadline_us) {
        emu_dispatch_timeout(&reply, &req, h->read, (int)((base_mono_us() - h->started_us) / 1000));
    } else {
        emu_hold_t eh;
        emu_dispatch(c->srv->engine, c->srv->metering, c->session, &req, h->len, &reply, &c->arena,
                     &eh);
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
    flush_out(c);
}

/* ---- requests ------------------------------------------------------------ */

static void handle_request(emu_conn_t *c, const wire_header_t *h, const wire_request_t *req,
                           const uint8_t *body, size_t len)
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
                         c->n_held < HELD_MAX ? &eh : NULL);
            if (eh.held) {
                hold(c, h, body, len, &eh);
            }
            return;
        }
        break;
    }
    unexpected(c, h->stream, h->opcode);
}

/* Decompresses and decodes one whole frame, then answers it. */
static void handle_frame(emu_conn_t *c, const wire_header_t *h, const uint8_t *body)
{
    base_error_t err;
    uint8_t *plain = NULL;
    size_t len = h->length;
    int64_t t0 = base_mono_us();
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
    if (wire_request_decode(&req, h, body, len, &c->arena, &err) != BASE_OK) {
        send_error(c, h->stream, h->opcode, &err);
    } else {
        handle_request(c, h, &req, body, len);
    }
done:
    base_free(plain);
    if (c->n_held == held) {
        emu_telemetry_request(h->opcode, base_mono_us() - t0);
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

/* Handles every complete frame in the input; returns false once the
 * connection must close (after flushing). */
static bool process_input(emu_conn_t *c, struct evbuffer *in)
{
    base_error_t err;
    for (;;) {
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
        if (avail - WIRE_HEADER_SIZE < h.length) {
            return true;
        }
        c->version = (uint8_t)version;
        uint8_t *frame = evbuffer_pullup(in, (ev_ssize_t)(WIRE_HEADER_SIZE + h.length));
        if (frame == NULL) {
            base_error_set(&err, WIRE_ERR_SERVER_ERROR, "out of memory for a %u-byte frame",
                           h.length);
            send_error(c, stream, h.opcode, &err);
            return false;
        }
        handle_frame(c, &h, frame + WIRE_HEADER_SIZE);
        evbuffer_drain(in, WIRE_HEADER_SIZE + h.length);
        base_arena_reset(&c->arena);
        if (c->out.len >= 256 * 1024) {
            flush_out(c);
        }
    }
}

static void on_read(struct bufferevent *bev, void *arg)
{
    emu_conn_t *c = arg;
    if (c->closing) {
        return;
    }
    bool keep = process_input(c, bufferevent_get_input(bev));
    flush_out(c);
    if (!keep) {
        close_when_flushed(c);
        return;
    }
    if (evbuffer_get_length(bufferevent_get_output(bev)) > OUTPUT_HIGH_WATER) {
        /* The client is not reading its answers: stop reading its requests. */
        c->paused = true;
        bufferevent_disable(bev, EV_READ);
        bufferevent_setwatermark(bev, EV_WRITE, OUTPUT_HIGH_WATER / 2, 0);
    }
}

static void on_write(struct bufferevent *bev, void *arg)
{
    emu_conn_t *c = arg;
    if (c->closing) {
        if (evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
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
