/*
 * null-responder.c - a do-nothing CQL server, the machine's yardstick for
 * cosmos-bench: the same TLS, framing and wire/ codecs as the emulator, and
 * no engine. Every login succeeds; PREPARE answers a statement id with bind
 * metadata of the right shape (one varchar per '?'); EXECUTE and QUERY of
 * a SELECT answer one row whose cells add up to --value-size bytes, any
 * other statement RESULT Void. What cosmos-bench measures against it is
 * what the network, TLS and the protocol cost on this machine.
 *
 *   build/null-responder --port 0 --data-dir DIR      (TLS with DIR/certs, made if missing)
 *   build/null-responder --port 0 --no-tls
 *
 * Invariants:
 *  - One event loop; requests are decoded in full (wire_request_decode), as
 *    the emulator decodes them, so the yardstick pays the same parsing.
 *  - Prepared ids are a hash of the text: the same statement gets the same
 *    id on every connection, as in Cassandra; unknown ids get Unprepared.
 *  - It logs "listening on HOST:PORT (TLS|plaintext)" and "ready" to stderr
 *    (the emulator's lines, so the same launchers work) and exits 0 on
 *    SIGTERM or SIGINT after freeing everything.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <strings.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/bufferevent_struct.h> /* ev_write: see send_out */
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "base/base.h"
#include "certs/certs.h"
#include "emulator/plain.h" /* the emulator's plaintext reads */
#include "emulator/tls.h"   /* the emulator's TLS buffering */
#include "wire/wire.h"

#define MAX_FRAME     (256u * 1024 * 1024)
#define MAX_PREPARED  4096
#define MAX_COLS      64
#define AUTHENTICATOR "org.apache.cassandra.auth.PasswordAuthenticator"
#define OUT_FLUSH_AT  (256u * 1024)

typedef struct prepared_s {
    uint8_t id[16];
    bool select;
    size_t n_binds;
    size_t n_cols;
    char *names[MAX_COLS]; /* result columns (SELECT) */
} prepared_t;

typedef struct nconn_s {
    struct bufferevent *bev;
    uint8_t version;
    bool compress;
    base_arena_t arena;
    base_buf_t out;
    struct nconn_s *prev, *next;
} nconn_t;

static struct event_base *base;
static SSL_CTX *ssl_ctx;
static nconn_t *conns;
static prepared_t *prepared;
static size_t n_prepared;
static size_t value_size = 1024;
static bool nagle; /* --nagle: leave TCP_NODELAY off */
static uint8_t *value;

static const wire_type_t t_varchar = {.id = WIRE_TYPE_VARCHAR};
static const wire_type_t t_blob = {.id = WIRE_TYPE_BLOB};


/* ---- statements --------------------------------------------------------------------- */

/* A 16-byte id from the text (two FNV-1a passes with different seeds). */
static void statement_id(base_str_t q, uint8_t id[16])
{
    uint64_t h[2] = {0xCBF29CE484222325ull, 0x84222325CBF29CE4ull};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < q.len; i++) {
            h[k] ^= (uint8_t)q.ptr[i];
            h[k] *= 1099511628211ull;
        }
        base_store_u64(id + 8 * k, h[k]);
    }
}


static bool starts_with_word(base_str_t q, const char *word)
{
    size_t i = 0;
    while (i < q.len && isspace((unsigned char)q.ptr[i])) {
        i++;
    }
    size_t n = strlen(word);
    if (q.len - i < n) {
        return false;
    }
    for (size_t j = 0; j < n; j++) {
        if (toupper((unsigned char)q.ptr[i + j]) != word[j]) {
            return false;
        }
    }
    return q.len - i == n || !isalnum((unsigned char)q.ptr[i + n]);
}


static size_t count_binds(base_str_t q)
{
    size_t n = 0;
    bool quoted = false;
    for (size_t i = 0; i < q.len; i++) {
        if (q.ptr[i] == '\'') {
            quoted = !quoted;
        } else if (q.ptr[i] == '?' && !quoted) {
            n++;
        }
    }
    return n;
}


/* The SELECT list as column names ("*" reads as one column, "value"). */
static void select_columns(base_str_t q, prepared_t *p)
{
    const char *s = q.ptr, *end = q.ptr + q.len;
    while (s < end && isspace((unsigned char)*s)) {
        s++;
    }
    s += 6; /* SELECT */
    const char *from = s;
    while (from + 4 <= end &&
           !(strncasecmp(from, "FROM", 4) == 0 && isspace((unsigned char)from[-1]))) {
        from++;
    }
    if (from + 4 > end) {
        from = end;
    }
    const char *c = s;
    while (c < from && p->n_cols < MAX_COLS) {
        const char *comma = memchr(c, ',', (size_t)(from - c));
        const char *stop = comma != NULL ? comma : from;
        const char *a = c, *b = stop;
        while (a < b && isspace((unsigned char)*a)) {
            a++;
        }
        while (b > a && isspace((unsigned char)b[-1])) {
            b--;
        }
        if (b > a) {
            bool star = b - a == 1 && *a == '*';
            p->names[p->n_cols++] = star ? base_strdup("value") : base_strndup(a, (size_t)(b - a));
        }
        c = comma != NULL ? comma + 1 : from;
    }
    if (p->n_cols == 0) {
        p->names[p->n_cols++] = base_strdup("value");
    }
}


static prepared_t *find_prepared(const uint8_t *id, int32_t len)
{
    if (len != 16) {
        return NULL;
    }
    for (size_t i = 0; i < n_prepared; i++) {
        if (memcmp(prepared[i].id, id, 16) == 0) {
            return &prepared[i];
        }
    }
    return NULL;
}


/* Classifies a statement; the result is kept for EXECUTE (or returned in tmp). */
static prepared_t *describe(base_str_t q, bool keep, prepared_t *tmp)
{
    uint8_t id[16];
    statement_id(q, id);
    prepared_t *p = find_prepared(id, 16);
    if (p != NULL) {
        return p;
    }
    p = keep && n_prepared < MAX_PREPARED ? &prepared[n_prepared++] : tmp;
    memset(p, 0, sizeof(*p));
    memcpy(p->id, id, 16);
    p->select = starts_with_word(q, "SELECT");
    p->n_binds = count_binds(q);
    if (p->select) {
        select_columns(q, p);
    }
    return p;
}


static void free_described(prepared_t *p)
{
    for (size_t i = 0; i < p->n_cols; i++) {
        base_free(p->names[i]);
    }
}


/* ---- responses ---------------------------------------------------------------------- */

static void begin(nconn_t *c, wire_response_t *rb, int16_t stream, uint8_t opcode)
{
    wire_response_begin(rb, &c->out, c->version, stream, opcode);
}


static void end(nconn_t *c, wire_response_t *rb)
{
    wire_response_end(rb, NULL, 0, NULL, NULL, 0, c->compress);
}


static void send_error(nconn_t *c, int16_t stream, const base_error_t *err)
{
    wire_response_t rb;
    begin(c, &rb, stream, WIRE_OP_ERROR);
    wire_encode_error(&c->out, err);
    end(c, &rb);
}


static void send_rows(nconn_t *c, int16_t stream, const prepared_t *p, bool no_metadata)
{
    wire_col_spec_t cols[MAX_COLS];
    wire_value_t cells[MAX_COLS];
    size_t share = value_size / p->n_cols;
    for (size_t i = 0; i < p->n_cols; i++) {
        cols[i] = (wire_col_spec_t){"bench", "null", p->names[i], &t_blob};
        size_t n = i + 1 < p->n_cols ? share : value_size - share * (p->n_cols - 1);
        cells[i] = (wire_value_t){value, (int32_t)n};
    }
    wire_value_t no_paging = {NULL, WIRE_VALUE_NULL};
    wire_response_t rb;
    begin(c, &rb, stream, WIRE_OP_RESULT);
    wire_encode_result_rows(&c->out, cols, p->n_cols, no_paging, no_metadata, cells, 1);
    end(c, &rb);
}


static void send_void(nconn_t *c, int16_t stream)
{
    wire_response_t rb;
    begin(c, &rb, stream, WIRE_OP_RESULT);
    wire_encode_result_void(&c->out);
    end(c, &rb);
}


static void send_prepared(nconn_t *c, int16_t stream, const prepared_t *p)
{
    wire_col_spec_t binds[MAX_COLS];
    wire_col_spec_t cols[MAX_COLS];
    static const char *const bind_names[] = {"b0", "b1", "b2", "b3",  "b4",  "b5",  "b6",
                                             "b7", "b8", "b9", "b10", "b11", "b12", "b13"};
    size_t n_binds = p->n_binds < MAX_COLS ? p->n_binds : MAX_COLS;
    for (size_t i = 0; i < n_binds; i++) {
        const char *name = i < sizeof(bind_names) / sizeof(bind_names[0]) ? bind_names[i] : "b";
        binds[i] = (wire_col_spec_t){"bench", "null", name, &t_varchar};
    }
    for (size_t i = 0; i < p->n_cols; i++) {
        cols[i] = (wire_col_spec_t){"bench", "null", p->names[i], &t_blob};
    }
    wire_response_t rb;
    begin(c, &rb, stream, WIRE_OP_RESULT);
    wire_encode_result_prepared(&c->out, c->version, p->id, 16, binds, n_binds, NULL, 0, cols,
                                p->n_cols);
    end(c, &rb);
}


static void on_statement(nconn_t *c, int16_t stream, base_str_t q, bool no_metadata)
{
    if (starts_with_word(q, "USE")) {
        wire_response_t rb;
        begin(c, &rb, stream, WIRE_OP_RESULT);
        wire_encode_result_set_keyspace(&c->out, "bench");
        end(c, &rb);
        return;
    }
    prepared_t tmp;
    prepared_t *p = describe(q, false, &tmp);
    if (p->select) {
        send_rows(c, stream, p, no_metadata);
    } else {
        send_void(c, stream);
    }
    if (p == &tmp) {
        free_described(&tmp);
    }
}


static void on_request(nconn_t *c, const wire_header_t *h, const wire_request_t *req)
{
    int16_t stream = h->stream;
    wire_response_t rb;
    switch (req->opcode) {
    case WIRE_OP_OPTIONS: {
        static const char *const keys[] = {"CQL_VERSION", "COMPRESSION", "PROTOCOL_VERSIONS"};
        static const char *const cql[] = {"3.4.4"};
        static const char *const lz4[] = {"lz4"};
        static const char *const versions[] = {"3/v3", "4/v4"};
        static const char *const *const values[] = {cql, lz4, versions};
        static const size_t n_values[] = {1, 1, 2};
        begin(c, &rb, stream, WIRE_OP_SUPPORTED);
        wire_encode_supported(&c->out, keys, values, n_values, 3);
        end(c, &rb);
        break;
    }
    case WIRE_OP_STARTUP:
        for (size_t i = 0; i < req->u.startup.n; i++) {
            if (base_str_eq(req->u.startup.keys[i], BASE_STR("COMPRESSION"))) {
                c->compress = base_str_eq_cstr_ci(req->u.startup.values[i], "lz4");
            }
        }
        begin(c, &rb, stream, WIRE_OP_AUTHENTICATE);
        wire_encode_authenticate(&c->out, AUTHENTICATOR);
        end(c, &rb);
        break;
    case WIRE_OP_AUTH_RESPONSE:
        begin(c, &rb, stream, WIRE_OP_AUTH_SUCCESS);
        wire_encode_auth_success(&c->out, NULL, WIRE_VALUE_NULL);
        end(c, &rb);
        break;
    case WIRE_OP_REGISTER:
        begin(c, &rb, stream, WIRE_OP_READY);
        end(c, &rb);
        break;
    case WIRE_OP_PREPARE: {
        prepared_t tmp;
        prepared_t *p = describe(req->u.prepare, true, &tmp);
        send_prepared(c, stream, p);
        if (p == &tmp) {
            free_described(&tmp);
        }
        break;
    }
    case WIRE_OP_EXECUTE: {
        const wire_execute_t *e = &req->u.execute;
        const prepared_t *p = find_prepared(e->id.ptr, e->id.len);
        if (p == NULL) {
            base_error_t err;
            base_error_set(&err, WIRE_ERR_UNPREPARED, "Prepared query with ID not found");
            wire_error_detail_unprepared(&err, e->id.ptr, e->id.len > 0 ? (size_t)e->id.len : 0);
            send_error(c, stream, &err);
        } else if (p->select) {
            send_rows(c, stream, p, (e->params.flags & WIRE_QF_SKIP_METADATA) != 0);
        } else {
            send_void(c, stream);
        }
        break;
    }
    case WIRE_OP_QUERY:
        on_statement(c, stream, req->u.query.query,
                     (req->u.query.params.flags & WIRE_QF_SKIP_METADATA) != 0);
        break;
    default: /* BATCH */
        send_void(c, stream);
        break;
    }
}


/* ---- connections -------------------------------------------------------------------- */

static void conn_free(nconn_t *c)
{
    BASE_LIST_REMOVE(&conns, c, prev, next);
    bufferevent_free(c->bev);
    base_arena_fini(&c->arena);
    base_buf_fini(&c->out);
    base_free(c);
}


/* The answers so far, written in this turn of the loop, as the emulator's
 * send_bytes (emulator/conn.c) does: the yardstick's I/O is the emulator's. */
static void send_out(nconn_t *c)
{
    if (bufferevent_write(c->bev, c->out.data, c->out.len) == 0) {
        event_active(&c->bev->ev_write, EV_WRITE, 1);
    }
    base_buf_reset(&c->out);
}


/* Answers every complete frame; returns false when the stream is lost. */
static bool process(nconn_t *c, struct evbuffer *in)
{
    for (;;) {
        size_t avail = evbuffer_get_length(in);
        uint8_t hdr[WIRE_HEADER_SIZE];
        if (avail < WIRE_HEADER_SIZE) {
            return true;
        }
        evbuffer_copyout(in, hdr, WIRE_HEADER_SIZE);
        wire_header_t h;
        base_error_t err;
        if (c->version == 0) {
            c->version = (hdr[0] & 0x7F) == 3 ? 3 : 4;
        }
        if (wire_header_decode(&h, hdr, WIRE_HEADER_SIZE, MAX_FRAME, &err) != BASE_OK) {
            send_error(c, (int16_t)base_load_u16(hdr + 2), &err);
            return false;
        }
        if (avail - WIRE_HEADER_SIZE < h.length) {
            return true;
        }
        uint8_t *frame = evbuffer_pullup(in, (ev_ssize_t)(WIRE_HEADER_SIZE + h.length));
        const uint8_t *body = frame + WIRE_HEADER_SIZE;
        size_t len = h.length;
        uint8_t *plain = NULL;
        int rc = BASE_OK;
        if (h.flags & WIRE_FLAG_COMPRESSION) {
            rc = wire_lz4_decompress(body, len, MAX_FRAME, &plain, &len, &err);
            body = plain;
        }
        wire_request_t req;
        if (rc == BASE_OK) {
            rc = wire_request_decode(&req, &h, body, len, &c->arena, &err);
        }
        if (rc == BASE_OK) {
            on_request(c, &h, &req);
        } else {
            send_error(c, h.stream, &err);
        }
        base_free(plain);
        base_arena_reset(&c->arena);
        evbuffer_drain(in, WIRE_HEADER_SIZE + h.length);
        if (c->out.len >= OUT_FLUSH_AT) {
            send_out(c);
        }
    }
}


static void on_read(struct bufferevent *bev, void *arg)
{
    nconn_t *c = arg;
    char why[256];
    if (ssl_ctx == NULL) {
        emu_plain_drain(bev, EMU_PLAIN_DRAIN_MAX); /* as the emulator reads */
    } else if (emu_tls_drain(bev, why, sizeof(why)) != EMU_TLS_DRAIN_OK) {
        conn_free(c);
        return;
    }
    bool keep = process(c, bufferevent_get_input(bev));
    if (c->out.len > 0) {
        send_out(c);
    }
    if (!keep) {
        bufferevent_disable(bev, EV_READ);
    }
}


static void on_event(struct bufferevent *bev, short what, void *arg)
{
    if (what & BEV_EVENT_CONNECTED) {
        on_read(bev, arg); /* frames read with the handshake, as the emulator */
    } else if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        conn_free(arg);
    }
}


static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int len,
                      void *arg)
{
    (void)l;
    (void)sa;
    (void)len;
    (void)arg;
    /* TCP_NODELAY as the emulator sets it (emulator/server.c), so the yardstick
     * differs from it only by the engine; --nagle shows what Nagle's algorithm
     * with the client's delayed ACK costs (40 ms stalls). */
    if (!nagle) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    struct bufferevent *bev;
    if (ssl_ctx != NULL) {
        SSL *ssl = SSL_new(ssl_ctx);
        if (ssl == NULL) {
            ERR_clear_error();
            evutil_closesocket(fd);
            return;
        }
        bev = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                             BEV_OPT_CLOSE_ON_FREE);
        if (bev != NULL) {
            bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
        }
    } else if ((bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE)) != NULL) {
        emu_plain_tune(bev);
    }
    if (bev == NULL) {
        evutil_closesocket(fd);
        return;
    }
    nconn_t *c = base_calloc(1, sizeof(*c));
    c->bev = bev;
    base_arena_init(&c->arena, 64 * 1024);
    base_buf_init(&c->out);
    BASE_LIST_PUSH(&conns, c, prev, next);
    bufferevent_setcb(bev, on_read, NULL, on_event, c);
    bufferevent_enable(bev, EV_READ | EV_WRITE);
}


/* ---- main --------------------------------------------------------------------------- */

static SSL_CTX *tls_ctx(const char *cert, const char *key)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) {
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
    emu_tls_buffering(ctx); /* as the emulator */
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
        char msg[256];
        ERR_error_string_n(ERR_get_error(), msg, sizeof(msg));
        fprintf(stderr, "null-responder: cannot load %s / %s: %s\n", cert, key, msg);
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}


static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    (void)arg;
    event_base_loopbreak(base);
}


static void usage(FILE *f)
{
    fprintf(f, "Usage: null-responder [options]\n"
               "A CQL v4 server that does nothing: the yardstick for cosmos-bench.\n\n"
               "  --bind ADDR        address (default 127.0.0.1)\n"
               "  --port N           port (default 10360; 0 = any free port)\n"
               "  --no-tls           plaintext instead of TLS\n"
               "  --cert FILE        TLS certificate (PEM chain), with --key\n"
               "  --key FILE         TLS private key\n"
               "  --data-dir DIR     otherwise: the emulator's certificates in DIR/certs (made if "
               "missing;\n"
               "                     default $HOME/.cosmos-cassandra-emulator)\n"
               "  --value-size BYTES size of the one row every SELECT returns (default 1024)\n"
               "  --nagle            leave TCP_NODELAY off on accepted sockets (the emulator "
               "sets it)\n"
               "  --help\n");
}


int main(int argc, char **argv)
{
    const char *bind_addr = "127.0.0.1";
    int port = 10360;
    bool tls = true;
    const char *cert = NULL, *key = NULL, *data_dir = NULL;
    enum { O_BIND = 256, O_PORT, O_NOTLS, O_CERT, O_KEY, O_DIR, O_VSIZE, O_NAGLE, O_HELP };
    static const struct option longopts[] = {
        {"bind", 1, NULL, O_BIND},        {"port", 1, NULL, O_PORT},
        {"no-tls", 0, NULL, O_NOTLS},     {"cert", 1, NULL, O_CERT},
        {"key", 1, NULL, O_KEY},          {"data-dir", 1, NULL, O_DIR},
        {"value-size", 1, NULL, O_VSIZE}, {"nagle", 0, NULL, O_NAGLE},
        {"help", 0, NULL, O_HELP},        {NULL, 0, NULL, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (ch) {
        case O_BIND:
            bind_addr = optarg;
            break;
        case O_PORT:
            port = atoi(optarg);
            break;
        case O_NOTLS:
            tls = false;
            break;
        case O_CERT:
            cert = optarg;
            break;
        case O_KEY:
            key = optarg;
            break;
        case O_DIR:
            data_dir = optarg;
            break;
        case O_VSIZE:
            value_size = (size_t)strtoull(optarg, NULL, 10);
            break;
        case O_NAGLE:
            nagle = true;
            break;
        case O_HELP:
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (port < 0 || port > 65535 || value_size > 64u * 1024 * 1024 || optind < argc ||
        (cert == NULL) != (key == NULL)) {
        usage(stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int rc = 1;
    struct evconnlistener *listener = NULL;
    struct event *sigint = NULL, *sigterm = NULL;
    char *home_dir = NULL;
    prepared = base_calloc(MAX_PREPARED, sizeof(*prepared));
    value = base_calloc(1, value_size + 1);
    memset(value, 'v', value_size);
    /* epoll's changelist, as emulator/server.c runs its loop */
    struct event_config *ec = event_config_new();
    if (ec != NULL) {
        event_config_set_flag(ec, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
        base = event_base_new_with_config(ec);
        event_config_free(ec);
    }
    if (base == NULL) {
        goto done;
    }
    if (tls) {
        certs_files_t files;
        if (cert == NULL) {
            if (data_dir == NULL) { /* the emulator's default, so its CA verifies us too */
                data_dir = getenv("COSMOS_EMULATOR_DATA_DIR");
            }
            if (data_dir == NULL) {
                const char *home = getenv("HOME") != NULL ? getenv("HOME") : ".";
                size_t n = strlen(home) + 32;
                home_dir = base_malloc(n);
                snprintf(home_dir, n, "%s/.cosmos-cassandra-emulator", home);
                data_dir = home_dir;
            }
            char dir[CERTS_PATH_MAX];
            snprintf(dir, sizeof(dir), "%s/certs", data_dir);
            base_error_t err;
            if (certs_ensure(dir, NULL, 0, &files, &err) != BASE_OK) {
                fprintf(stderr, "null-responder: %s\n", err.msg);
                goto done;
            }
            cert = files.server_cert;
            key = files.server_key;
        }
        ssl_ctx = tls_ctx(cert, key);
        if (ssl_ctx == NULL) {
            goto done;
        }
    }

    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, bind_addr, &sin.sin_addr) != 1) {
        fprintf(stderr, "null-responder: --bind: not an IPv4 address: %s\n", bind_addr);
        goto done;
    }
    listener =
        evconnlistener_new_bind(base, on_accept, NULL, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE,
                                128, (struct sockaddr *)&sin, sizeof(sin));
    if (listener == NULL) {
        fprintf(stderr, "null-responder: cannot listen on %s:%d: %s\n", bind_addr, port,
                evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
        goto done;
    }
    struct sockaddr_in bound;
    socklen_t blen = sizeof(bound);
    getsockname(evconnlistener_get_fd(listener), (struct sockaddr *)&bound, &blen);
    fprintf(stderr, "null-responder: listening on %s:%d (%s)\n", bind_addr, ntohs(bound.sin_port),
            tls ? "TLS" : "plaintext");
    fprintf(stderr, "null-responder: ready\n");
    sigint = evsignal_new(base, SIGINT, on_signal, NULL);
    sigterm = evsignal_new(base, SIGTERM, on_signal, NULL);
    evsignal_add(sigint, NULL);
    evsignal_add(sigterm, NULL);
    event_base_dispatch(base);
    rc = 0;

done:
    while (conns != NULL) {
        conn_free(conns);
    }
    if (sigint != NULL) {
        event_free(sigint);
    }
    if (sigterm != NULL) {
        event_free(sigterm);
    }
    if (listener != NULL) {
        evconnlistener_free(listener);
    }
    if (base != NULL) {
        event_base_free(base);
    }
    SSL_CTX_free(ssl_ctx);
    for (size_t i = 0; i < n_prepared; i++) {
        free_described(&prepared[i]);
    }
    base_free(prepared);
    base_free(value);
    base_free(home_dir);
    return rc;
}
