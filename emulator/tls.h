/*
 * tls.h - the TLS endpoint: the server SSL_CTX (TLS 1.2 and 1.3 only),
 * per-connection OpenSSL bufferevents, and telling a TLS client from a
 * plaintext one before any handshake starts.
 */
#ifndef EMULATOR_TLS_H
#define EMULATOR_TLS_H

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <openssl/ssl.h>

#include "emulator/config.h"

/*
 * Builds the server context from --cert/--tls-key, or else from the
 * certificate certs/ keeps in <data-dir>/certs (generated on first use).
 * Logs which files it uses. Returns NULL with err set on failure.
 */
SSL_CTX *emu_tls_ctx_new(const emu_config_t *cfg, base_error_t *err);
void emu_tls_ctx_free(SSL_CTX *ctx);

/* `certs export`: the CA certificate in PEM on stdout. Returns an exit code. */
int emu_tls_export_ca(const emu_config_t *cfg);

/* The same PEM appended to out (for GET /cert). BASE_OK, or BASE_ERROR with err. */
int emu_tls_ca_pem(const emu_config_t *cfg, base_buf_t *out, base_error_t *err);

typedef enum {
    EMU_TLS_PEEK_TLS,    /* first byte is a handshake record (0x16) */
    EMU_TLS_PEEK_PLAIN,  /* something else: not a TLS client */
    EMU_TLS_PEEK_AGAIN,  /* nothing to read yet */
    EMU_TLS_PEEK_CLOSED, /* peer closed or the socket failed */
} emu_tls_peek_t;

/* Looks at the first byte waiting on fd without consuming it. */
emu_tls_peek_t emu_tls_peek(evutil_socket_t fd);

/* An OpenSSL bufferevent in accepting state that owns fd (and closes it). */
struct bufferevent *emu_tls_wrap(struct event_base *base, SSL_CTX *ctx, evutil_socket_t fd);

/* The first queued OpenSSL error of bev as text ("" if none). */
void emu_tls_error(struct bufferevent *bev, char *out, size_t cap);

/* "TLSv1.3" etc. once the handshake is done; "" for a plain bufferevent. */
const char *emu_tls_version(struct bufferevent *bev);

/* The emulator's buffering on a context: OpenSSL reads up to two records
 * at a time (see tls.c) and lets its buffers go while a connection is idle.
 * Whoever sets it calls emu_tls_drain on its connections. */
void emu_tls_buffering(SSL_CTX *ctx);

typedef enum {
    EMU_TLS_DRAIN_OK,     /* nothing whole is left in OpenSSL's buffer */
    EMU_TLS_DRAIN_CLOSED, /* the peer's close_notify came */
    EMU_TLS_DRAIN_ERROR,  /* a record failed (why says how): close the connection */
} emu_tls_drain_t;

/*
 * Appends to bev's input what OpenSSL has read ahead. The OpenSSL
 * bufferevent hands on one record per readable event, and nothing would
 * hand on the records read with it: the socket may never turn readable
 * again, as a client waits for its answers. Call before handling bev's
 * input, and once the handshake is done (the first frames may have come
 * with the client's last handshake message). A no-op on a plain bufferevent
 * or before the handshake.
 */
emu_tls_drain_t emu_tls_drain(struct bufferevent *bev, char *why, size_t cap);

/* True once bev's TLS handshake is complete. */
bool emu_tls_handshake_done(struct bufferevent *bev);

#endif
