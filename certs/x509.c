/*
 * x509.c - builds and inspects the emulator's certificates with OpenSSL 3.
 * Layer: certs (internal half). Knows nothing of files; store.c decides
 * when to call it.
 *
 * Both certificates carry what strict verifiers (Python's
 * VERIFY_X509_STRICT, Go, browsers) require: v3, a random positive serial,
 * subject and authority key identifiers, a critical basicConstraints, and
 * keyUsage; the server certificate adds extendedKeyUsage serverAuth and
 * the SANs, which are built as GENERAL_NAMEs rather than through a config
 * string so no host name can smuggle in extra entries.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include "certs/certs_int.h"

EVP_PKEY *certs__key_new(void)
{
    return EVP_EC_gen("P-256");
}

static int add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (ext == NULL) {
        return BASE_ERROR;
    }
    int ok = X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    return ok == 1 ? BASE_OK : BASE_ERROR;
}

/* Version, serial, validity, key and subject: what both certificates share. */
static X509 *cert_new(EVP_PKEY *key, const char *cn, int days)
{
    X509 *x = X509_new();
    BIGNUM *serial = BN_new();
    if (x == NULL || serial == NULL) {
        goto fail;
    }
    /* 127 random bits: positive and unique enough that a regenerated
     * certificate never collides with one a client has cached. */
    if (BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
        BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x)) == NULL) {
        goto fail;
    }
    X509_NAME *name = X509_get_subject_name(x);
    if (X509_set_version(x, 2) != 1 ||
        X509_gmtime_adj(X509_getm_notBefore(x), -3600) == NULL || /* clock skew */
        X509_time_adj_ex(X509_getm_notAfter(x), days, 0, NULL) == NULL ||
        X509_set_pubkey(x, key) != 1 ||
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
                                   (const unsigned char *)"Cosmos Cassandra Emulator", -1, -1,
                                   0) != 1 ||
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)cn, -1, -1,
                                   0) != 1) {
        goto fail;
    }
    BN_free(serial);
    return x;

fail:
    BN_free(serial);
    X509_free(x);
    return NULL;
}

X509 *certs__ca_new(EVP_PKEY *key)
{
    X509 *x = cert_new(key, CERTS_CA_CN, CERTS_CA_DAYS);
    if (x == NULL) {
        return NULL;
    }
    if (X509_set_issuer_name(x, X509_get_subject_name(x)) != 1 ||
        add_ext(x, x, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") != BASE_OK ||
        add_ext(x, x, NID_key_usage, "critical,keyCertSign,cRLSign") != BASE_OK ||
        add_ext(x, x, NID_subject_key_identifier, "hash") != BASE_OK ||
        add_ext(x, x, NID_authority_key_identifier, "keyid:always") != BASE_OK ||
        X509_sign(x, key, EVP_sha256()) == 0) {
        X509_free(x);
        return NULL;
    }
    return x;
}

static GENERAL_NAME *general_name(const char *san)
{
    GENERAL_NAME *gn = GENERAL_NAME_new();
    if (gn == NULL) {
        return NULL;
    }
    if (strncmp(san, "IP:", 3) == 0) {
        unsigned char addr[16];
        int len = 0;
        if (inet_pton(AF_INET, san + 3, addr) == 1) {
            len = 4;
        } else if (inet_pton(AF_INET6, san + 3, addr) == 1) {
            len = 16;
        }
        ASN1_OCTET_STRING *ip = ASN1_OCTET_STRING_new();
        if (len == 0 || ip == NULL || ASN1_OCTET_STRING_set(ip, addr, len) != 1) {
            ASN1_OCTET_STRING_free(ip);
            GENERAL_NAME_free(gn);
            return NULL;
        }
        GENERAL_NAME_set0_value(gn, GEN_IPADD, ip);
        return gn;
    }
    ASN1_IA5STRING *dns = ASN1_IA5STRING_new();
    if (strncmp(san, "DNS:", 4) != 0 || dns == NULL || ASN1_STRING_set(dns, san + 4, -1) != 1) {
        ASN1_IA5STRING_free(dns);
        GENERAL_NAME_free(gn);
        return NULL;
    }
    GENERAL_NAME_set0_value(gn, GEN_DNS, dns);
    return gn;
}

X509 *certs__server_new(EVP_PKEY *key, X509 *ca, EVP_PKEY *ca_key, char *const *sans, size_t n)
{
    GENERAL_NAMES *names = GENERAL_NAMES_new();
    X509 *x = cert_new(key, "localhost", CERTS_SERVER_DAYS);
    if (names == NULL || x == NULL) {
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        GENERAL_NAME *gn = general_name(sans[i]);
        if (gn == NULL || sk_GENERAL_NAME_push(names, gn) == 0) {
            GENERAL_NAME_free(gn);
            goto fail;
        }
    }
    if (X509_set_issuer_name(x, X509_get_subject_name(ca)) != 1 ||
        add_ext(x, ca, NID_basic_constraints, "critical,CA:FALSE") != BASE_OK ||
        add_ext(x, ca, NID_key_usage, "critical,digitalSignature,keyEncipherment") != BASE_OK ||
        add_ext(x, ca, NID_ext_key_usage, "serverAuth") != BASE_OK ||
        add_ext(x, ca, NID_subject_key_identifier, "hash") != BASE_OK ||
        add_ext(x, ca, NID_authority_key_identifier, "keyid:always") != BASE_OK ||
        X509_add1_ext_i2d(x, NID_subject_alt_name, names, 0, X509V3_ADD_DEFAULT) != 1 ||
        X509_sign(x, ca_key, EVP_sha256()) == 0) {
        goto fail;
    }
    GENERAL_NAMES_free(names);
    return x;

fail:
    GENERAL_NAMES_free(names);
    X509_free(x);
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t certs__sans_normalize(char **sans, size_t n)
{
    if (n == 0) {
        return 0;
    }
    qsort(sans, n, sizeof(*sans), cmp_str);
    size_t out = 1;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(sans[i], sans[out - 1]) == 0) {
            base_free(sans[i]);
        } else {
            sans[out++] = sans[i];
        }
    }
    return out;
}

int certs__cert_sans(X509 *x, char **sans, size_t *n)
{
    *n = 0;
    GENERAL_NAMES *names = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
    if (names == NULL) {
        return BASE_ERROR;
    }
    int rc = BASE_OK;
    int count = sk_GENERAL_NAME_num(names);
    for (int i = 0; i < count && rc == BASE_OK; i++) {
        const GENERAL_NAME *gn = sk_GENERAL_NAME_value(names, i);
        char text[INET6_ADDRSTRLEN + 300];
        if ((size_t)i >= CERTS_MAX_SANS || (gn->type != GEN_DNS && gn->type != GEN_IPADD)) {
            rc = BASE_ERROR;
        } else if (gn->type == GEN_DNS) {
            const ASN1_IA5STRING *s = gn->d.dNSName;
            snprintf(text, sizeof(text), "DNS:%.*s", ASN1_STRING_length(s),
                     (const char *)ASN1_STRING_get0_data(s));
            sans[(*n)++] = base_strdup(text);
        } else if (gn->type == GEN_IPADD) {
            const ASN1_OCTET_STRING *s = gn->d.iPAddress;
            int len = ASN1_STRING_length(s);
            char addr[INET6_ADDRSTRLEN];
            int af = len == 4 ? AF_INET : len == 16 ? AF_INET6 : -1;
            if (af < 0 || inet_ntop(af, ASN1_STRING_get0_data(s), addr, sizeof(addr)) == NULL) {
                rc = BASE_ERROR;
            } else {
                snprintf(text, sizeof(text), "IP:%s", addr);
                sans[(*n)++] = base_strdup(text);
            }
        }
    }
    GENERAL_NAMES_free(names);
    if (rc != BASE_OK) {
        certs_sans_free(sans, *n);
        *n = 0;
        return rc;
    }
    *n = certs__sans_normalize(sans, *n);
    return BASE_OK;
}

/* RFC 1123 labels, plus '*' (a wildcard someone may want) and '_' (seen in
 * container host names). No spaces, commas or anything a parser could trip on. */
static bool valid_dns_name(const char *s)
{
    size_t len = strlen(s);
    if (len == 0 || len > 253 || s[0] == '.' || s[0] == '-') {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!isalnum(c) && c != '-' && c != '.' && c != '_' && c != '*') {
            return false;
        }
    }
    return true;
}

int certs__canon_host(const char *host, char *out, size_t cap, base_error_t *err)
{
    unsigned char addr[16];
    char text[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET, host, addr) == 1) {
        inet_ntop(AF_INET, addr, text, sizeof(text));
        snprintf(out, cap, "IP:%s", text);
        return BASE_OK;
    }
    if (inet_pton(AF_INET6, host, addr) == 1) {
        inet_ntop(AF_INET6, addr, text, sizeof(text));
        snprintf(out, cap, "IP:%s", text);
        return BASE_OK;
    }
    if (!valid_dns_name(host) || strlen(host) + 5 > cap) {
        return base_error_set(err, 0,
                              "invalid certificate host name '%.200s': use an IP address "
                              "or a DNS name",
                              host);
    }
    size_t n = (size_t)snprintf(out, cap, "DNS:%s", host);
    for (size_t i = 4; i < n; i++) {
        out[i] = (char)tolower((unsigned char)out[i]);
    }
    return BASE_OK;
}

bool certs__renewal_due(X509 *x, int days)
{
    time_t limit = time(NULL) + (time_t)days * 86400;
    return X509_cmp_time(X509_get0_notAfter(x), &limit) <= 0 ||
           X509_cmp_current_time(X509_get0_notBefore(x)) > 0;
}
