/*
 * tls.c - TLS for the CQL endpoint. Layer: emulator.
 *
 * Only TLS 1.2 and 1.3 are offered (what Azure Cosmos DB requires of its
 * clients), and TLS 1.2 only with forward-secret AEAD suites (Mozilla's
 * "intermediate" profile; its DHE suites are left out, as no DH parameters
 * are configured): no CBC, no SHA-1 MAC, no RSA key exchange. The certificate is the user's
 * (--cert/--tls-key) or the one certs/ generates and reuses in <data-dir>/certs, whose CA the user
 * gets with `certs export` so clients verify instead of switching checks off.
 *
 * A TLS client always starts with a handshake record, content type 0x16;
 * peeking at that one byte before creating the OpenSSL bufferevent is how
 * a plaintext client on the TLS port is recognised and refused with a
 * clear log line instead of an obscure handshake failure.
 */
#include "emulator/tls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>

#include "certs/certs.h"
#include "emulator/log.h"

/*
 * What one read(2) may take: two records of the largest size a peer may
 * send. Without read-ahead OpenSSL reads a record's header and its body
 * apart, two system calls per 16 KB. More is not better: with 64 KB a read
 * took a driver's whole window of 1 KB inserts (64 in flight), and the loop
 * answered all of it while the client sat idle, then the other way round;
 * 24-48 KB made 1 KB inserts 8-17% faster than no read-ahead, 64 KB 0-6%,
 * 128 KB 17% slower (4 connections x 64 in flight, 2 cores).
 */
#define TLS_READ_AHEAD (2 * (SSL3_RT_MAX_PLAIN_LENGTH + SSL3_RT_MAX_ENCRYPTED_OVERHEAD))
#define DRAIN_ROOM     (64 * 1024)

/* TLS 1.2 suites; TLS 1.3's are all AEAD and keep OpenSSL's defaults. */
#define TLS12_CIPHERS                                                                          \
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:" \
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

static SSL_CTX *ssl_fail(SSL_CTX *ctx, base_error_t *err, const char *what, const char *path)
{
    char detail[256] = "";
    unsigned long e = ERR_get_error();
    if (e != 0) {
        ERR_error_string_n(e, detail, sizeof(detail));
    }
    ERR_clear_error();
    SSL_CTX_free(ctx);
    base_error_set(err, 0, "%s %s%s%s", what, path, detail[0] ? ": " : "", detail);
    return NULL;
}

static int certs_dir(const emu_config_t *cfg, char *out, size_t cap, base_error_t *err)
{
    if (snprintf(out, cap, "%s/certs", cfg->data_dir) >= (int)cap) {
        return base_error_set(err, 0, "--data-dir is too long");
    }
    return BASE_OK;
}

SSL_CTX *emu_tls_ctx_new(const emu_config_t *cfg, base_error_t *err)
{
    certs_files_t files;
    const char *cert = cfg->cert_file;
    const char *key = cfg->tls_key_file;
    if (cert == NULL) {
        char dir[CERTS_PATH_MAX];
        if (certs_dir(cfg, dir, sizeof(dir), err) != BASE_OK ||
            certs_ensure(dir, (const char *const *)cfg->cert_hosts, cfg->n_cert_hosts, &files,
                         err) != BASE_OK) {
            return NULL;
        }
        cert = files.server_cert;
        key = files.server_key;
        emu_log(EMU_LOG_INFO, 0, "TLS certificate %s (%s), signed by the local CA %s%s", cert,
                files.server_generated ? "new" : "reused", files.ca_cert,
                files.ca_generated ? " (new)" : "");
        emu_log(EMU_LOG_INFO, 0,
                "clients verify it with the CA: cosmos-cassandra-emulator certs export "
                "--data-dir %s > ca.pem",
                cfg->data_dir);
    } else {
        emu_log(EMU_LOG_INFO, 0, "TLS certificate %s, key %s (user-provided)", cert, key);
    }

    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) {
        return ssl_fail(ctx, err, "cannot create the TLS context", "");
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION);
    /* Drivers drop sockets without close_notify; OpenSSL 3 would call that
     * an error, so a normal disconnect would be logged as a TLS failure. */
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE |
                                 SSL_OP_IGNORE_UNEXPECTED_EOF);
    emu_tls_buffering(ctx);
    if (SSL_CTX_set_cipher_list(ctx, TLS12_CIPHERS) != 1) {
        return ssl_fail(ctx, err, "cannot set the TLS 1.2 cipher suites", "");
    }
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
        return ssl_fail(ctx, err, "cannot load the TLS certificate", cert);
    }
    if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
        return ssl_fail(ctx, err, "cannot load the TLS private key", key);
    }
    if (SSL_CTX_check_private_key(ctx) != 1) {
        return ssl_fail(ctx, err, "the TLS private key does not match the certificate", cert);
    }
    return ctx;
}

void emu_tls_ctx_free(SSL_CTX *ctx)
{
    SSL_CTX_free(ctx);
}

int emu_tls_export_ca(const emu_config_t *cfg)
{
    char dir[CERTS_PATH_MAX];
    base_error_t err;
    if (certs_dir(cfg, dir, sizeof(dir), &err) != BASE_OK ||
        certs_export_ca(dir, stdout, &err) != BASE_OK) {
        fprintf(stderr, "cosmos-cassandra-emulator: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int emu_tls_ca_pem(const emu_config_t *cfg, base_buf_t *out, base_error_t *err)
{
    char dir[CERTS_PATH_MAX];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) {
        return base_error_set(err, 0, "cannot buffer the CA certificate");
    }
    int rc = certs_dir(cfg, dir, sizeof(dir), err);
    if (rc == BASE_OK) {
        rc = certs_export_ca(dir, f, err);
    }
    /* fclose sets text and len; should it fail they are not the whole certificate */
    if (fclose(f) != 0 && rc == BASE_OK) {
        rc = base_error_set(err, 0, "cannot buffer the CA certificate");
    }
    if (rc == BASE_OK) {
        base_buf_put(out, text, len);
    }
    free(text);
    return rc;
}

emu_tls_peek_t emu_tls_peek(evutil_socket_t fd)
{
    unsigned char first;
    ssize_t n = recv(fd, &first, 1, MSG_PEEK);
    if (n == 1) {
        return first == 0x16 ? EMU_TLS_PEEK_TLS : EMU_TLS_PEEK_PLAIN;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        return EMU_TLS_PEEK_AGAIN;
    }
    return EMU_TLS_PEEK_CLOSED;
}

struct bufferevent *emu_tls_wrap(struct event_base *base, SSL_CTX *ctx, evutil_socket_t fd)
{
    SSL *ssl = SSL_new(ctx);
    if (ssl == NULL) {
        ERR_clear_error();
        return NULL;
    }
    /* With BEV_OPT_CLOSE_ON_FREE the bufferevent owns ssl (and fd) from here. */
    struct bufferevent *bev = bufferevent_openssl_socket_new(
        base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
    if (bev == NULL) {
        SSL_free(ssl);
        return NULL;
    }
    /* Drivers often drop the socket without close_notify: not an error. */
    bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
    return bev;
}

void emu_tls_error(struct bufferevent *bev, char *out, size_t cap)
{
    unsigned long e = bufferevent_get_openssl_error(bev);
    out[0] = '\0';
    if (e != 0) {
        ERR_error_string_n(e, out, cap);
    }
    while (bufferevent_get_openssl_error(bev) != 0) {
        /* drain the rest: they describe the same failure */
    }
}

bool emu_tls_handshake_done(struct bufferevent *bev)
{
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    return ssl != NULL && SSL_is_init_finished(ssl);
}

const char *emu_tls_version(struct bufferevent *bev)
{
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    return ssl != NULL ? SSL_get_version(ssl) : "";
}

void emu_tls_buffering(SSL_CTX *ctx)
{
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS); /* an idle connection holds none */
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_default_read_buffer_len(ctx, TLS_READ_AHEAD);
}

emu_tls_drain_t emu_tls_drain(struct bufferevent *bev, char *why, size_t cap)
{
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    if (ssl == NULL || !SSL_is_init_finished(ssl)) {
        return EMU_TLS_DRAIN_OK;
    }
    struct evbuffer *in = bufferevent_get_input(bev);
    int n = 1;
    /* Only what is buffered: a drain never reads a record header from the
     * socket (it stops once OpenSSL holds nothing), so it hands on at most
     * the read-ahead and the rest of a record begun in it, 48 KB; the
     * socket's next readable event brings the rest. */
    while (n > 0 && SSL_has_pending(ssl)) {
        /* One contiguous stretch: the lookahead (conn.c) prefetches only
         * frames that lie whole in one of the input's chunks, and with the
         * input reserved a record at a time in two pieces, as libevent's
         * own read does, selects ran 5-15% slower in paired runs. */
        struct evbuffer_iovec v;
        if (evbuffer_reserve_space(in, DRAIN_ROOM, &v, 1) != 1) {
            snprintf(why, cap, "out of memory for TLS input");
            return EMU_TLS_DRAIN_ERROR;
        }
        size_t used = 0;
        while (used < v.iov_len && SSL_has_pending(ssl)) {
            ERR_clear_error();
            n = SSL_read(ssl, (uint8_t *)v.iov_base + used, (int)(v.iov_len - used));
            if (n <= 0) {
                break;
            }
            used += (size_t)n;
        }
        v.iov_len = used;
        evbuffer_commit_space(in, &v, 1);
    }
    if (n > 0) {
        return EMU_TLS_DRAIN_OK;
    }
    switch (SSL_get_error(ssl, n)) {
    case SSL_ERROR_WANT_READ:  /* the rest of a record is still on its way */
    case SSL_ERROR_WANT_WRITE: /* not with renegotiation off; libevent retries */
        return EMU_TLS_DRAIN_OK;
    case SSL_ERROR_ZERO_RETURN:
        return EMU_TLS_DRAIN_CLOSED;
    default:
        why[0] = '\0';
        unsigned long e = ERR_get_error();
        if (e != 0) {
            ERR_error_string_n(e, why, cap);
        }
        ERR_clear_error();
        return EMU_TLS_DRAIN_ERROR;
    }
}
