/*
 * store.c - the certificate files in the data directory and the policy for
 * reusing them. Layer: certs (public half, certs.h).
 *
 * Invariants:
 *   - a file is written under "<name>.tmp" and renamed into place, keys with
 *     mode 0600, so a reader never sees a half-written PEM;
 *   - the CA is reused whenever it loads, matches its key and is not about
 *     to expire: clients that trusted an exported ca.pem keep working;
 *   - the server certificate is reused only if it is signed by the current
 *     CA, matches its key, is not about to expire and names exactly the
 *     wanted SAN set; anything else makes a new one (never an error).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>

#include "certs/certs_int.h"

static int ssl_error(base_error_t *err, const char *what)
{
    char detail[256] = "";
    unsigned long e = ERR_get_error();
    if (e != 0) {
        ERR_error_string_n(e, detail, sizeof(detail));
    }
    ERR_clear_error();
    return base_error_set(err, 0, "%s%s%s", what, detail[0] ? ": " : "", detail);
}

static int mkdir_p(const char *dir, base_error_t *err)
{
    char path[CERTS_PATH_MAX];
    if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path) || path[0] == '\0') {
        return base_error_set(err, 0, "certificate directory name is empty or too long");
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0') {
            continue;
        }
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            return base_error_set(err, 0, "cannot create directory %s: %s", path, strerror(errno));
        }
        *p = saved;
        if (saved == '\0') {
            return BASE_OK;
        }
    }
}

static int join(char *out, const char *dir, const char *file, base_error_t *err)
{
    int n = snprintf(out, CERTS_PATH_MAX, "%s/%s", dir, file);
    if (n < 0 || n >= CERTS_PATH_MAX) {
        return base_error_set(err, 0, "certificate directory name too long: %.200s", dir);
    }
    return BASE_OK;
}

/* Writes exactly one of cert or key to path, atomically, with mode. */
static int write_pem(const char *path, mode_t mode, X509 *cert, EVP_PKEY *key, base_error_t *err)
{
    char tmp[CERTS_PATH_MAX + 8];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        return base_error_set(err, 0, "cannot write %s: %s", tmp, strerror(errno));
    }
    if (fchmod(fd, mode) != 0) { /* an old file keeps its old mode through O_TRUNC */
        close(fd);
        unlink(tmp);
        return base_error_set(err, 0, "cannot chmod %s: %s", tmp, strerror(errno));
    }
    FILE *f = fdopen(fd, "w");
    if (f == NULL) {
        close(fd);
        unlink(tmp);
        return base_error_set(err, 0, "cannot write %s: %s", tmp, strerror(errno));
    }
    int ok = cert != NULL ? PEM_write_X509(f, cert)
                          : PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
    ok = ok == 1 && fflush(f) == 0 && fsync(fileno(f)) == 0;
    if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return ssl_error(err, "cannot write certificate file");
    }
    return BASE_OK;
}

/* Reads a certificate and its key; either comes back NULL when its file is
 * missing or holds no PEM of that kind (the caller then makes new ones). */
static void read_pem_pair(const char *cert_path, const char *key_path, X509 **cert, EVP_PKEY **key)
{
    *cert = NULL;
    *key = NULL;
    FILE *f = fopen(cert_path, "r");
    if (f != NULL) {
        *cert = PEM_read_X509(f, NULL, NULL, NULL);
        (void)fclose(f); /* read-only: nothing buffered to lose */
    }
    f = fopen(key_path, "r");
    if (f != NULL) {
        *key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
        (void)fclose(f); /* read-only: nothing buffered to lose */
    }
    ERR_clear_error();
}

static int set_paths(certs_files_t *out, const char *dir, base_error_t *err)
{
    memset(out, 0, sizeof(*out));
    if (mkdir_p(dir, err) != BASE_OK || join(out->ca_cert, dir, "ca.pem", err) != BASE_OK ||
        join(out->ca_key, dir, "ca-key.pem", err) != BASE_OK ||
        join(out->server_cert, dir, "server.pem", err) != BASE_OK ||
        join(out->server_key, dir, "server-key.pem", err) != BASE_OK) {
        return BASE_ERROR;
    }
    return BASE_OK;
}

/* Loads the CA or makes a new one; on BASE_OK *ca and *key are the
 * caller's to free. */
static int load_or_make_ca(certs_files_t *f, X509 **ca, EVP_PKEY **key, base_error_t *err)
{
    read_pem_pair(f->ca_cert, f->ca_key, ca, key);
    if (*ca != NULL && *key != NULL && X509_check_private_key(*ca, *key) == 1 &&
        !certs__renewal_due(*ca, CERTS_RENEW_DAYS)) {
        return BASE_OK;
    }
    ERR_clear_error();
    X509_free(*ca);
    EVP_PKEY_free(*key);
    *ca = NULL;
    *key = certs__key_new();
    if (*key != NULL) {
        *ca = certs__ca_new(*key);
    }
    /* The key goes first: a CA certificate without its key is useless. */
    if (*ca == NULL || write_pem(f->ca_key, 0600, NULL, *key, err) != BASE_OK ||
        write_pem(f->ca_cert, 0644, *ca, NULL, err) != BASE_OK) {
        if (*ca == NULL) {
            ssl_error(err, "cannot generate the local CA");
        }
        X509_free(*ca);
        EVP_PKEY_free(*key);
        *ca = NULL;
        *key = NULL;
        return BASE_ERROR;
    }
    f->ca_generated = true;
    return BASE_OK;
}

static bool same_sans(X509 *x, char *const *want, size_t n_want)
{
    char *have[CERTS_MAX_SANS];
    size_t n_have = 0;
    if (certs__cert_sans(x, have, &n_have) != BASE_OK) {
        return false;
    }
    bool same = n_have == n_want;
    for (size_t i = 0; same && i < n_have; i++) {
        same = strcmp(have[i], want[i]) == 0;
    }
    certs_sans_free(have, n_have);
    return same;
}

static bool server_reusable(const certs_files_t *f, X509 *ca, char *const *sans, size_t n)
{
    X509 *cert;
    EVP_PKEY *key;
    read_pem_pair(f->server_cert, f->server_key, &cert, &key);
    EVP_PKEY *ca_pub = X509_get0_pubkey(ca);
    bool ok = !f->ca_generated && cert != NULL && key != NULL && ca_pub != NULL &&
              X509_check_private_key(cert, key) == 1 && X509_verify(cert, ca_pub) == 1 &&
              !certs__renewal_due(cert, CERTS_RENEW_DAYS) && same_sans(cert, sans, n);
    ERR_clear_error();
    X509_free(cert);
    EVP_PKEY_free(key);
    return ok;
}

int certs_wanted_sans(const char *const *extra_hosts, size_t n_extra, char **sans, size_t *n,
                      base_error_t *err)
{
    char canon[300];
    char host[256] = "";
    *n = 0;
    sans[(*n)++] = base_strdup("DNS:localhost");
    sans[(*n)++] = base_strdup("IP:127.0.0.1");
    sans[(*n)++] = base_strdup("IP:::1");
    /* The machine's name is a convenience: an odd one is skipped, not fatal. */
    if (gethostname(host, sizeof(host) - 1) == 0 && host[0] != '\0' &&
        certs__canon_host(host, canon, sizeof(canon), NULL) == BASE_OK) {
        sans[(*n)++] = base_strdup(canon);
    }
    for (size_t i = 0; i < n_extra; i++) {
        if (*n == CERTS_MAX_SANS) {
            certs_sans_free(sans, *n);
            *n = 0;
            return base_error_set(err, 0, "too many certificate host names (at most %d)",
                                  CERTS_MAX_SANS - 4);
        }
        if (certs__canon_host(extra_hosts[i], canon, sizeof(canon), err) != BASE_OK) {
            certs_sans_free(sans, *n);
            *n = 0;
            return BASE_ERROR;
        }
        sans[(*n)++] = base_strdup(canon);
    }
    *n = certs__sans_normalize(sans, *n);
    return BASE_OK;
}

void certs_sans_free(char **sans, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        base_free(sans[i]);
    }
}

int certs_ensure(const char *dir, const char *const *extra_hosts, size_t n_extra,
                 certs_files_t *out, base_error_t *err)
{
    char *sans[CERTS_MAX_SANS];
    size_t n_sans = 0;
    X509 *ca = NULL, *cert = NULL;
    EVP_PKEY *ca_key = NULL, *key = NULL;
    int rc = certs_wanted_sans(extra_hosts, n_extra, sans, &n_sans, err);
    if (rc != BASE_OK) {
        return rc;
    }
    rc = set_paths(out, dir, err);
    if (rc != BASE_OK) {
        goto done;
    }
    rc = load_or_make_ca(out, &ca, &ca_key, err);
    if (rc != BASE_OK || server_reusable(out, ca, sans, n_sans)) {
        goto done;
    }
    key = certs__key_new();
    cert = key != NULL ? certs__server_new(key, ca, ca_key, sans, n_sans) : NULL;
    if (cert == NULL) {
        rc = ssl_error(err, "cannot generate the server certificate");
        goto done;
    }
    rc = write_pem(out->server_key, 0600, NULL, key, err);
    if (rc == BASE_OK) {
        rc = write_pem(out->server_cert, 0644, cert, NULL, err);
    }
    out->server_generated = rc == BASE_OK;

done:
    X509_free(cert);
    EVP_PKEY_free(key);
    X509_free(ca);
    EVP_PKEY_free(ca_key);
    certs_sans_free(sans, n_sans);
    return rc;
}

int certs_export_ca(const char *dir, FILE *out, base_error_t *err)
{
    certs_files_t files;
    X509 *ca = NULL;
    EVP_PKEY *key = NULL;
    if (set_paths(&files, dir, err) != BASE_OK ||
        load_or_make_ca(&files, &ca, &key, err) != BASE_OK) {
        return BASE_ERROR;
    }
    int ok = PEM_write_X509(out, ca) == 1 && fflush(out) == 0;
    X509_free(ca);
    EVP_PKEY_free(key);
    return ok ? BASE_OK : ssl_error(err, "cannot write the CA certificate");
}
