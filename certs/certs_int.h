/*
 * certs_int.h - internal to certs/: building and inspecting X.509 objects
 * (x509.c) for the file policy in store.c. Not for other layers.
 */
#ifndef CERTS_CERTS_INT_H
#define CERTS_CERTS_INT_H

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "certs/certs.h"

/* A new EC P-256 key; NULL on failure. Caller frees with EVP_PKEY_free. */
EVP_PKEY *certs__key_new(void);

/* A self-signed CA certificate for key; NULL on failure. */
X509 *certs__ca_new(EVP_PKEY *key);

/* A serverAuth certificate for key, signed by ca/ca_key, naming the
 * canonical SANs ("DNS:x" / "IP:x"); NULL on failure. */
X509 *certs__server_new(EVP_PKEY *key, X509 *ca, EVP_PKEY *ca_key, char *const *sans, size_t n);

/* The SANs of x, canonical and sorted, as base_malloc'd strings into
 * sans[CERTS_MAX_SANS]. Returns BASE_OK, or BASE_ERROR when x has none,
 * too many, or a kind we never write. */
int certs__cert_sans(X509 *x, char **sans, size_t *n);

/* "DNS:<lowercase name>" or "IP:<canonical address>" for a host given by
 * the operator, written to out. Returns BASE_OK or BASE_ERROR. */
int certs__canon_host(const char *host, char *out, size_t cap, base_error_t *err);

/* True when x is not valid now or stops being valid within days. */
bool certs__renewal_due(X509 *x, int days);

/* Sorts sans and drops duplicates (freeing them); returns the new count. */
size_t certs__sans_normalize(char **sans, size_t n);

#endif
