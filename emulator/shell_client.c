/*
 * shell_client.c - the shell's one connection to a CQL server: TCP, TLS
 * (OpenSSL), STARTUP, SASL PLAIN (PasswordAuthenticator) and QUERY round
 * trips, blocking, one request at a time. Layer: emulator; frames and
 * messages are wire/'s encoders and wire_reply_decode.
 *
 * Invariants:
 *  - One request is in flight, on stream 1; frames on other streams (a
 *    pushed EVENT) are read and dropped.
 *  - A server's bytes are untrusted: the header is checked by
 *    wire_header_decode (body at most WIRE_DEFAULT_MAX_FRAME, allocated with
 *    base_try_malloc), the body read only by wire_reply_decode.
 *  - The protocol starts at v4 (or --protocol-version) and steps down one
 *    version, on a fresh connection, when the server refuses it, down to v3.
 *  - Without a CA file the session is encrypted but the server is not
 *    authenticated (the local emulator's self-made certificate); with one,
 *    the chain and the host name (or IP) are verified.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "emulator/shell.h"

#define STREAM                 1
#define MIN_VERSION            EMU_SHELL_MIN_VERSION
#define MAX_VERSION            EMU_SHELL_MAX_VERSION
#define AUTHENTICATE_CLASS_MAX 200

struct emu_shell_conn_s {
    int fd;
    SSL_CTX *ctx;
    SSL *ssl;
    int version;
    int request_timeout_s;
    base_buf_t out;
    uint8_t *body; /* the last response's body: replies borrow from it */
};


/* The summaries the Python driver gives each code, and cqlsh's class names. */
static void error_names(int code, const char **cls, const char **summary)
{
    switch (code) {
    case WIRE_ERR_SERVER_ERROR:
        *cls = "ServerError", *summary = "Server error";
        return;
    case WIRE_ERR_PROTOCOL_ERROR:
        *cls = "ProtocolException", *summary = "Protocol error";
        return;
    case WIRE_ERR_BAD_CREDENTIALS:
        *cls = "AuthenticationFailed", *summary = "Bad credentials";
        return;
    case WIRE_ERR_UNAVAILABLE:
        *cls = "Unavailable", *summary = "Unavailable exception";
        return;
    case WIRE_ERR_OVERLOADED:
        *cls = "OverloadedErrorMessage", *summary = "Coordinator node overloaded";
        return;
    case WIRE_ERR_IS_BOOTSTRAPPING:
        *cls = "IsBootstrappingErrorMessage", *summary = "Coordinator node is bootstrapping";
        return;
    case WIRE_ERR_TRUNCATE_ERROR:
        *cls = "TruncateError", *summary = "Error during truncate";
        return;
    case WIRE_ERR_WRITE_TIMEOUT:
        *cls = "WriteTimeout";
        *summary = "Coordinator node timed out waiting for replica nodes' responses";
        return;
    case WIRE_ERR_READ_TIMEOUT:
        *cls = "ReadTimeout";
        *summary = "Coordinator node timed out waiting for replica nodes' responses";
        return;
    case WIRE_ERR_READ_FAILURE:
        *cls = "ReadFailure", *summary = "Replica(s) failed to execute read";
        return;
    case WIRE_ERR_FUNCTION_FAILURE:
        *cls = "FunctionFailure", *summary = "User Defined Function failure";
        return;
    case WIRE_ERR_WRITE_FAILURE:
        *cls = "WriteFailure", *summary = "Replica(s) failed to execute write";
        return;
    case WIRE_ERR_SYNTAX_ERROR:
        *cls = "SyntaxException", *summary = "Syntax error in CQL query";
        return;
    case WIRE_ERR_UNAUTHORIZED:
        *cls = "Unauthorized", *summary = "Unauthorized";
        return;
    case WIRE_ERR_INVALID:
        *cls = "InvalidRequest", *summary = "Invalid query";
        return;
    case WIRE_ERR_CONFIG_ERROR:
        *cls = "ConfigurationException";
        *summary = "Query invalid because of configuration issue";
        return;
    case WIRE_ERR_ALREADY_EXISTS:
        *cls = "AlreadyExists", *summary = "Already exists";
        return;
    case WIRE_ERR_UNPREPARED:
        *cls = "PreparedQueryNotFound", *summary = "Unprepared";
        return;
    default:
        *cls = "ServerError", *summary = "Unknown error";
        return;
    }
}


void emu_shell_error_text(int code, base_str_t message, char *out, size_t cap)
{
    const char *cls, *summary;
    error_names(code, &cls, &summary);
    snprintf(out, cap, "%s: Error from server: code=%04x [%s] message=\"%.*s\"", cls,
             (unsigned)code & 0xFFFF, summary, (int)message.len, message.ptr);
}


static void ssl_error(char *msg, size_t cap, const char *what)
{
    unsigned long e = ERR_get_error();
    char text[256] = "no detail";
    if (e != 0) {
        ERR_error_string_n(e, text, sizeof(text));
    }
    ERR_clear_error();
    snprintf(msg, cap, "%s: %s", what, text);
}


/* ---- sockets ------------------------------------------------------------------------ */

static int connect_one(const struct addrinfo *ai, int timeout_s)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        int err = 0;
        socklen_t len = sizeof(err);
        rc = poll(&p, 1, timeout_s * 1000);
        if (rc == 0) {
            errno = ETIMEDOUT;
            rc = -1;
        } else if (rc > 0) {
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
            errno = err;
            rc = err == 0 ? 0 : -1;
        }
    }
    if (rc != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}


static int tcp_connect(const emu_shell_target_t *t, char *msg, size_t cap)
{
    char port[16];
    snprintf(port, sizeof(port), "%d", t->port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    int gai = getaddrinfo(t->host, port, &hints, &res);
    if (gai != 0) {
        snprintf(msg, cap, "cannot resolve %s: %s", t->host, gai_strerror(gai));
        return -1;
    }
    int fd = -1;
    int saved = 0;
    for (struct addrinfo *ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
        fd = connect_one(ai, t->connect_timeout_s);
        saved = errno;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(msg, cap, "cannot connect to %s:%d: %s", t->host, t->port, strerror(saved));
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}


static void set_timeout(int fd, int seconds)
{
    struct timeval tv = {.tv_sec = seconds, .tv_usec = 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}


static int tls_start(emu_shell_conn_t *c, const emu_shell_target_t *t, char *msg, size_t cap)
{
    c->ctx = SSL_CTX_new(TLS_client_method());
    if (c->ctx == NULL) {
        ssl_error(msg, cap, "SSL_CTX_new");
        return BASE_ERROR;
    }
    SSL_CTX_set_min_proto_version(c->ctx, TLS1_2_VERSION);
    if (t->cafile != NULL) {
        if (SSL_CTX_load_verify_locations(c->ctx, t->cafile, NULL) != 1) {
            char what[300];
            snprintf(what, sizeof(what), "cannot load the CA file %s", t->cafile);
            ssl_error(msg, cap, what);
            return BASE_ERROR;
        }
        SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER, NULL);
    } else {
        SSL_CTX_set_verify(c->ctx, SSL_VERIFY_NONE, NULL);
    }
    c->ssl = SSL_new(c->ctx);
    if (c->ssl == NULL) {
        ssl_error(msg, cap, "SSL_new");
        return BASE_ERROR;
    }
    struct in6_addr ip;
    bool is_ip = inet_pton(AF_INET, t->host, &ip) == 1 || inet_pton(AF_INET6, t->host, &ip) == 1;
    if (t->cafile != NULL) {
        X509_VERIFY_PARAM *vp = SSL_get0_param(c->ssl);
        if ((is_ip ? X509_VERIFY_PARAM_set1_ip_asc(vp, t->host)
                   : X509_VERIFY_PARAM_set1_host(vp, t->host, 0)) != 1) {
            ssl_error(msg, cap, "cannot set the name to verify");
            return BASE_ERROR;
        }
    }
    if (!is_ip) {
        SSL_set_tlsext_host_name(c->ssl, t->host);
    }
    SSL_set_fd(c->ssl, c->fd);
    if (SSL_connect(c->ssl) != 1) {
        long v = SSL_get_verify_result(c->ssl);
        if (t->cafile != NULL && v != X509_V_OK) {
            snprintf(msg, cap, "TLS handshake with %s:%d failed: certificate verify failed (%s)",
                     t->host, t->port, X509_verify_cert_error_string(v));
            ERR_clear_error();
        } else {
            char what[300];
            snprintf(what, sizeof(what),
                     "TLS handshake with %s:%d failed (is the server plaintext? try --no-ssl)",
                     t->host, t->port);
            ssl_error(msg, cap, what);
        }
        return BASE_ERROR;
    }
    return BASE_OK;
}


/* ---- frames --------------------------------------------------------------------------- */

static int io_fail(emu_shell_conn_t *c, int rc, const char *what, char *msg, size_t cap)
{
    int ssl_err = c->ssl != NULL ? SSL_get_error(c->ssl, rc) : SSL_ERROR_SYSCALL;
    bool closed = rc == 0 && (c->ssl == NULL || ssl_err == SSL_ERROR_ZERO_RETURN);
    if (!closed && (errno == EAGAIN || errno == EWOULDBLOCK || ssl_err == SSL_ERROR_WANT_READ ||
                    ssl_err == SSL_ERROR_WANT_WRITE)) {
        snprintf(msg, cap, "%s timed out after %d s (--request-timeout)", what,
                 c->request_timeout_s);
    } else if (!closed && c->ssl != NULL && ssl_err == SSL_ERROR_SSL) {
        ssl_error(msg, cap, what);
    } else if (rc == 0) { /* closed, or a TLS read that returned 0 without saying why */
        snprintf(msg, cap, "the server closed the connection");
    } else {
        snprintf(msg, cap, "%s failed: %s", what, strerror(errno));
    }
    ERR_clear_error();
    return BASE_ERROR;
}


static int write_all(emu_shell_conn_t *c, const uint8_t *p, size_t n, char *msg, size_t cap)
{
    while (n > 0) {
        int chunk = n > (1u << 30) ? (1 << 30) : (int)n;
        errno = 0;
        int rc = c->ssl != NULL ? SSL_write(c->ssl, p, chunk)
                                : (int)send(c->fd, p, (size_t)chunk, MSG_NOSIGNAL);
        if (rc <= 0) {
            if (c->ssl == NULL && rc < 0 && errno == EINTR) {
                continue;
            }
            return io_fail(c, rc, "sending the request", msg, cap);
        }
        p += rc;
        n -= (size_t)rc;
    }
    return BASE_OK;
}


static int read_exact(emu_shell_conn_t *c, uint8_t *p, size_t n, char *msg, size_t cap)
{
    while (n > 0) {
        int chunk = n > (1u << 30) ? (1 << 30) : (int)n;
        errno = 0;
        int rc =
            c->ssl != NULL ? SSL_read(c->ssl, p, chunk) : (int)recv(c->fd, p, (size_t)chunk, 0);
        if (rc <= 0) {
            if (c->ssl == NULL && rc < 0 && errno == EINTR) {
                continue;
            }
            return io_fail(c, rc, "waiting for the response", msg, cap);
        }
        p += rc;
        n -= (size_t)rc;
    }
    return BASE_OK;
}


/* Reads frames until the one on our stream; decodes it into *reply. */
static int read_reply(emu_shell_conn_t *c, base_arena_t *a, wire_reply_t *reply, char *msg,
                      size_t cap)
{
    for (;;) {
        uint8_t hdr[WIRE_HEADER_SIZE];
        wire_header_t h;
        base_error_t err;
        base_free(c->body);
        c->body = NULL;
        if (read_exact(c, hdr, sizeof(hdr), msg, cap) != BASE_OK) {
            return BASE_ERROR;
        }
        if (wire_header_decode(&h, hdr, sizeof(hdr), WIRE_DEFAULT_MAX_FRAME, &err) != BASE_OK) {
            snprintf(msg, cap, "bad response from the server: %s", err.msg);
            return BASE_ERROR;
        }
        c->body = base_try_malloc(h.length + 1u);
        if (c->body == NULL) {
            snprintf(msg, cap, "no memory for a response of %u bytes", h.length);
            return BASE_ERROR;
        }
        if (read_exact(c, c->body, h.length, msg, cap) != BASE_OK) {
            return BASE_ERROR;
        }
        if (h.stream != STREAM) {
            continue; /* an EVENT (we never REGISTER) or a stray answer */
        }
        const uint8_t *body = c->body;
        size_t len = h.length;
        if (h.flags & WIRE_FLAG_COMPRESSION) {
            uint8_t *plain = NULL;
            if (wire_lz4_decompress(body, len, WIRE_DEFAULT_MAX_FRAME, &plain, &len, &err) !=
                BASE_OK) {
                snprintf(msg, cap, "bad response from the server: %s", err.msg);
                return BASE_ERROR;
            }
            base_free(c->body);
            c->body = plain;
            body = plain;
        }
        if (wire_reply_decode(reply, &h, body, len, a, &err) != BASE_OK) {
            snprintf(msg, cap, "bad response from the server: %s", err.msg);
            return BASE_ERROR;
        }
        return BASE_OK;
    }
}


static int round_trip(emu_shell_conn_t *c, base_arena_t *a, wire_reply_t *reply, char *msg,
                      size_t cap)
{
    int rc = write_all(c, c->out.data, c->out.len, msg, cap);
    base_buf_reset(&c->out);
    return rc == BASE_OK ? read_reply(c, a, reply, msg, cap) : rc;
}


/* ---- the handshake -------------------------------------------------------------------- */

static bool refuses_version(const wire_reply_t *r)
{
    if (r->opcode != WIRE_OP_ERROR || r->u.error.code != WIRE_ERR_PROTOCOL_ERROR) {
        return false;
    }
    base_str_t m = r->u.error.message;
    for (size_t i = 0; i + 16 <= m.len; i++) {
        if (strncasecmp(m.ptr + i, "protocol version", 16) == 0) {
            return true;
        }
    }
    return false;
}


static int reply_failed(const wire_reply_t *r, const char *what, char *msg, size_t cap)
{
    if (r->opcode == WIRE_OP_ERROR) {
        emu_shell_error_text(r->u.error.code, r->u.error.message, msg, cap);
    } else {
        snprintf(msg, cap, "%s: unexpected %s response", what, wire_opcode_name(r->opcode));
    }
    return BASE_ERROR;
}


static int authenticate(emu_shell_conn_t *c, const emu_shell_target_t *t, base_str_t class_name,
                        base_arena_t *a, char *msg, size_t cap)
{
    if (t->user == NULL || t->password == NULL) {
        snprintf(msg, cap, "the server asks for credentials (%.*s): give -u USER -p PASSWORD",
                 (int)(class_name.len > AUTHENTICATE_CLASS_MAX ? AUTHENTICATE_CLASS_MAX
                                                               : class_name.len),
                 class_name.ptr);
        return BASE_ERROR;
    }
    /* SASL PLAIN: NUL user NUL password (PasswordAuthenticator) */
    size_t ul = strlen(t->user), pl = strlen(t->password);
    base_buf_t token;
    base_buf_init(&token);
    base_buf_put_u8(&token, 0);
    base_buf_put(&token, t->user, ul);
    base_buf_put_u8(&token, 0);
    base_buf_put(&token, t->password, pl);
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, (uint8_t)c->version, STREAM, WIRE_OP_AUTH_RESPONSE);
    wire_encode_auth_response(&c->out, token.data, (int32_t)token.len);
    wire_request_end(&rb, false);
    base_buf_fini(&token);
    for (;;) {
        wire_reply_t r;
        if (round_trip(c, a, &r, msg, cap) != BASE_OK) {
            return BASE_ERROR;
        }
        if (r.opcode == WIRE_OP_AUTH_SUCCESS) {
            return BASE_OK;
        }
        if (r.opcode != WIRE_OP_AUTH_CHALLENGE) {
            return reply_failed(&r, "authentication", msg, cap);
        }
        /* PLAIN has one step; answer a challenge with an empty token, as drivers do. */
        wire_request_begin(&rb, &c->out, (uint8_t)c->version, STREAM, WIRE_OP_AUTH_RESPONSE);
        wire_encode_auth_response(&c->out, NULL, 0);
        wire_request_end(&rb, false);
    }
}


/* BASE_OK when ready; BASE_AGAIN when the server refused the version (step down). */
static int handshake(emu_shell_conn_t *c, const emu_shell_target_t *t, char *msg, size_t cap)
{
    static const char *const keys[] = {"CQL_VERSION", "DRIVER_NAME"};
    static const char *const values[] = {"3.4.4", "cosmos-cassandra-emulator shell"};
    base_arena_t a;
    base_arena_init(&a, 4096);
    wire_response_t rb;
    wire_reply_t r;
    wire_request_begin(&rb, &c->out, (uint8_t)c->version, STREAM, WIRE_OP_STARTUP);
    wire_encode_startup(&c->out, keys, values, 2);
    wire_request_end(&rb, false);
    int rc = round_trip(c, &a, &r, msg, cap);
    if (rc != BASE_OK) {
        goto done;
    }
    if (refuses_version(&r)) {
        snprintf(msg, cap, "the server refused protocol v%d", c->version);
        rc = BASE_AGAIN;
    } else if (r.opcode == WIRE_OP_AUTHENTICATE) {
        rc = authenticate(c, t, r.u.authenticator, &a, msg, cap);
    } else if (r.opcode != WIRE_OP_READY) {
        rc = reply_failed(&r, "STARTUP", msg, cap);
    }
done:
    base_arena_fini(&a);
    return rc;
}


static int open_at(const emu_shell_target_t *t, int version, emu_shell_conn_t **out, char *msg,
                   size_t cap)
{
    emu_shell_conn_t *c = base_calloc(1, sizeof(*c));
    c->fd = -1;
    c->version = version;
    c->request_timeout_s = t->request_timeout_s;
    base_buf_init(&c->out);
    int rc = BASE_ERROR;
    c->fd = tcp_connect(t, msg, cap);
    if (c->fd < 0) {
        goto done;
    }
    set_timeout(c->fd, t->connect_timeout_s);
    if (t->tls && tls_start(c, t, msg, cap) != BASE_OK) {
        goto done;
    }
    rc = handshake(c, t, msg, cap);
    set_timeout(c->fd, t->request_timeout_s);
done:
    if (rc != BASE_OK) {
        emu_shell_close(c);
        c = NULL;
    }
    *out = c;
    return rc;
}


int emu_shell_connect(const emu_shell_target_t *t, emu_shell_conn_t **out, char *msg, size_t cap)
{
    /* v4 unless asked: the version the emulator and Cosmos DB speak (v5 framing is not done) */
    int version = t->protocol_version != 0 ? t->protocol_version : 4;
    BASE_ASSERT(version >= MIN_VERSION && version <= MAX_VERSION);
    for (;;) {
        int rc = open_at(t, version, out, msg, cap);
        if (rc != BASE_AGAIN) {
            return rc;
        }
        if (version <= MIN_VERSION) {
            return BASE_ERROR; /* msg says which version was refused */
        }
        version--;
    }
}


void emu_shell_close(emu_shell_conn_t *c)
{
    if (c == NULL) {
        return;
    }
    if (c->ssl != NULL) {
        SSL_shutdown(c->ssl);
        SSL_free(c->ssl);
    }
    SSL_CTX_free(c->ctx);
    if (c->fd >= 0) {
        close(c->fd);
    }
    base_buf_fini(&c->out);
    base_free(c->body);
    base_free(c);
}


int emu_shell_protocol_version(const emu_shell_conn_t *c)
{
    return c->version;
}


int emu_shell_query(emu_shell_conn_t *c, const char *q, size_t len, const wire_query_params_t *p,
                    base_arena_t *a, wire_reply_t *reply, char *msg, size_t cap)
{
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, (uint8_t)c->version, STREAM, WIRE_OP_QUERY);
    wire_encode_query(&c->out, q, len, p);
    wire_request_end(&rb, false);
    return round_trip(c, a, reply, msg, cap);
}
