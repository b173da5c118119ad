/*
 * certs.h - the emulator's own TLS material: a local CA and a server
 * certificate signed by it, kept in a directory (normally
 * <data-dir>/certs) as PEM files:
 *
 *   ca.pem          CA certificate (what clients trust; `certs export`)
 *   ca-key.pem      CA private key        (mode 0600)
 *   server.pem      server certificate    (signed by the CA)
 *   server-key.pem  server private key    (mode 0600)
 *
 * The CA is made once (EC P-256, CN "Cosmos Cassandra Emulator Local CA",
 * 10 years) and reused. The server certificate is reused while it is signed
 * by that CA, not about to expire and names exactly the requested SAN set
 * (localhost, 127.0.0.1, ::1, the host name and the extra hosts); otherwise
 * it is made again. Files are written to a temporary name and renamed, so a
 * crash never leaves a half-written key behind.
 *
 * Depends on base and OpenSSL 3 only. Errors come back in base_error_t
 * (code 0, Server error) with a message fit for the operator.
 */
#ifndef CERTS_CERTS_H
#define CERTS_CERTS_H

#include "base/base.h"

#define CERTS_PATH_MAX    4096
#define CERTS_MAX_SANS    64
#define CERTS_CA_CN       "Cosmos Cassandra Emulator Local CA"
#define CERTS_CA_DAYS     3650
#define CERTS_SERVER_DAYS 825
#define CERTS_RENEW_DAYS  30 /* regenerate when this close to expiry */

typedef struct certs_files_s {
    char ca_cert[CERTS_PATH_MAX];
    char ca_key[CERTS_PATH_MAX];
    char server_cert[CERTS_PATH_MAX];
    char server_key[CERTS_PATH_MAX];
    bool ca_generated;     /* this call made a new CA */
    bool server_generated; /* this call made a new server certificate */
} certs_files_t;

/*
 * Makes sure dir (created with mode 0700 if missing, parents included)
 * holds a usable CA and a server certificate whose SANs are the defaults
 * plus extra_hosts (each an IP address or a DNS name). Fills out with the
 * four paths. Returns BASE_OK or BASE_ERROR with err set (e.g. an extra
 * host that is neither an IP nor a valid DNS name).
 */
int certs_ensure(const char *dir, const char *const *extra_hosts, size_t n_extra,
                 certs_files_t *out, base_error_t *err);

/* Makes sure dir holds a CA (generating it if missing) and writes the CA
 * certificate in PEM to out. Returns BASE_OK or BASE_ERROR. */
int certs_export_ca(const char *dir, FILE *out, base_error_t *err);

/*
 * The SAN set certs_ensure asks for, canonical ("DNS:localhost",
 * "IP:127.0.0.1", "IP:::1", ...), sorted and without duplicates, written
 * into sans[CERTS_MAX_SANS] (each a base_malloc'd string the caller frees
 * with certs_sans_free). Exposed for tests and for the startup log line.
 */
int certs_wanted_sans(const char *const *extra_hosts, size_t n_extra, char **sans, size_t *n,
                      base_error_t *err);
void certs_sans_free(char **sans, size_t n);

#endif
