/* Unit tests for certs/: generation into a temp dir, SANs, chain
 * verification, reuse, regeneration and CA export. */
#include <arpa/inet.h>
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "certs/certs.h"

typedef struct fixture_s {
    char dir[64];
    char sub[128]; /* a not-yet-existing nested directory */
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "/tmp/certs-test-XXXXXX");
    if (mkdtemp(f->dir) == NULL) {
        free(f);
        return -1;
    }
    snprintf(f->sub, sizeof(f->sub), "%s/data/certs", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    const char *names[] = {"ca.pem", "ca-key.pem", "server.pem", "server-key.pem"};
    char path[256];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof(path), "%s/%s", f->sub, names[i]);
        unlink(path);
    }
    rmdir(f->sub);
    snprintf(path, sizeof(path), "%s/data", f->dir);
    rmdir(path);
    rmdir(f->dir);
    free(f);
    return 0;
}

static X509 *load_cert(const char *path)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    X509 *x = PEM_read_X509(fp, NULL, NULL, NULL);
    fclose(fp);
    assert_non_null(x);
    return x;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char *buf = calloc(1, 16384);
    size_t n = fread(buf, 1, 16383, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static bool has_san(X509 *x, int type, const char *text)
{
    GENERAL_NAMES *names = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
    bool found = false;
    for (int i = 0; names != NULL && i < sk_GENERAL_NAME_num(names); i++) {
        GENERAL_NAME *gn = sk_GENERAL_NAME_value(names, i);
        if (gn->type != type) {
            continue;
        }
        if (type == GEN_DNS) {
            found |= strcmp((const char *)ASN1_STRING_get0_data(gn->d.dNSName), text) == 0;
        } else {
            unsigned char addr[16];
            int len = strchr(text, ':') ? 16 : 4;
            assert_int_equal(inet_pton(len == 16 ? AF_INET6 : AF_INET, text, addr), 1);
            found |= ASN1_STRING_length(gn->d.iPAddress) == len &&
                     memcmp(ASN1_STRING_get0_data(gn->d.iPAddress), addr, (size_t)len) == 0;
        }
    }
    GENERAL_NAMES_free(names);
    return found;
}

/* Verifies server against ca as a TLS client would, for host (DNS or IP). */
static int verify_chain(X509 *ca, X509 *server, const char *host, bool is_ip)
{
    X509_STORE *store = X509_STORE_new();
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    assert_int_equal(X509_STORE_add_cert(store, ca), 1);
    assert_int_equal(X509_STORE_CTX_init(ctx, store, server, NULL), 1);
    X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_X509_STRICT);
    if (is_ip) {
        X509_VERIFY_PARAM_set1_ip_asc(param, host);
    } else {
        X509_VERIFY_PARAM_set1_host(param, host, 0);
    }
    int ok = X509_verify_cert(ctx);
    X509_STORE_CTX_free(ctx);
    X509_STORE_free(store);
    return ok;
}

static void ensure_generates_ca_and_server_cert_with_default_sans(void **state)
{
    fixture_t *f = *state;
    const char *extra[] = {"emulator.test", "10.1.2.3", "fd00::7"};
    certs_files_t files;
    base_error_t err;
    assert_int_equal(certs_ensure(f->sub, extra, 3, &files, &err), BASE_OK);
    assert_true(files.ca_generated);
    assert_true(files.server_generated);

    X509 *ca = load_cert(files.ca_cert);
    X509 *server = load_cert(files.server_cert);
    char cn[128];
    X509_NAME_get_text_by_NID(X509_get_subject_name(ca), NID_commonName, cn, sizeof(cn));
    assert_string_equal(cn, CERTS_CA_CN);
    assert_true(has_san(server, GEN_DNS, "localhost"));
    assert_true(has_san(server, GEN_IPADD, "127.0.0.1"));
    assert_true(has_san(server, GEN_IPADD, "::1"));
    assert_true(has_san(server, GEN_DNS, "emulator.test"));
    assert_true(has_san(server, GEN_IPADD, "10.1.2.3"));
    assert_true(has_san(server, GEN_IPADD, "fd00::7"));
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    for (char *p = host; *p; p++) {
        *p = (char)tolower((unsigned char)*p);
    }
    assert_true(has_san(server, GEN_DNS, host));
    assert_true(X509_check_purpose(server, X509_PURPOSE_SSL_SERVER, 0) == 1);

    assert_int_equal(verify_chain(ca, server, "localhost", false), 1);
    assert_int_equal(verify_chain(ca, server, "127.0.0.1", true), 1);
    assert_int_equal(verify_chain(ca, server, "::1", true), 1);
    assert_int_equal(verify_chain(ca, server, "emulator.test", false), 1);
    assert_int_not_equal(verify_chain(ca, server, "elsewhere.test", false), 1);
    X509_free(ca);
    X509_free(server);
}

static void private_keys_are_mode_0600(void **state)
{
    fixture_t *f = *state;
    certs_files_t files;
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    struct stat st;
    assert_int_equal(stat(files.ca_key, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(stat(files.server_key, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
}

static void second_call_reuses_both_certificates(void **state)
{
    fixture_t *f = *state;
    certs_files_t files;
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    char *ca1 = slurp(files.ca_cert);
    char *srv1 = slurp(files.server_cert);
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    assert_false(files.ca_generated);
    assert_false(files.server_generated);
    char *ca2 = slurp(files.ca_cert);
    char *srv2 = slurp(files.server_cert);
    assert_string_equal(ca1, ca2);
    assert_string_equal(srv1, srv2);
    free(ca1);
    free(ca2);
    free(srv1);
    free(srv2);
}

static void changed_san_set_regenerates_only_the_server_certificate(void **state)
{
    fixture_t *f = *state;
    certs_files_t files;
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    char *ca1 = slurp(files.ca_cert);
    const char *extra[] = {"Other.Example"};
    assert_int_equal(certs_ensure(f->sub, extra, 1, &files, NULL), BASE_OK);
    assert_false(files.ca_generated);
    assert_true(files.server_generated);
    char *ca2 = slurp(files.ca_cert);
    assert_string_equal(ca1, ca2);
    X509 *server = load_cert(files.server_cert);
    assert_true(has_san(server, GEN_DNS, "other.example"));
    X509_free(server);
    /* Same set again, spelled differently: reused. */
    const char *again[] = {"other.example", "OTHER.example"};
    assert_int_equal(certs_ensure(f->sub, again, 2, &files, NULL), BASE_OK);
    assert_false(files.server_generated);
    free(ca1);
    free(ca2);
}

static void corrupt_server_certificate_is_regenerated(void **state)
{
    fixture_t *f = *state;
    certs_files_t files;
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    FILE *fp = fopen(files.server_cert, "w");
    fputs("-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n", fp);
    fclose(fp);
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    assert_false(files.ca_generated);
    assert_true(files.server_generated);
    X509 *ca = load_cert(files.ca_cert);
    X509 *server = load_cert(files.server_cert);
    assert_int_equal(verify_chain(ca, server, "localhost", false), 1);
    X509_free(ca);
    X509_free(server);
}

static void invalid_extra_host_is_refused(void **state)
{
    fixture_t *f = *state;
    certs_files_t files;
    base_error_t err;
    const char *extra[] = {"bad host,DNS:evil"};
    assert_int_equal(certs_ensure(f->sub, extra, 1, &files, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "invalid certificate host name"));
}

static void export_creates_the_ca_and_prints_it(void **state)
{
    fixture_t *f = *state;
    char out_path[256];
    snprintf(out_path, sizeof(out_path), "%s/export.pem", f->dir);
    FILE *out = fopen(out_path, "w");
    assert_int_equal(certs_export_ca(f->sub, out, NULL), BASE_OK);
    fclose(out);
    char path[256];
    snprintf(path, sizeof(path), "%s/ca.pem", f->sub);
    char *exported = slurp(out_path);
    char *stored = slurp(path);
    assert_string_equal(exported, stored);
    assert_non_null(strstr(exported, "-----BEGIN CERTIFICATE-----"));
    free(exported);
    free(stored);
    unlink(out_path);

    /* The server certificate made later chains to the exported CA. */
    certs_files_t files;
    assert_int_equal(certs_ensure(f->sub, NULL, 0, &files, NULL), BASE_OK);
    assert_false(files.ca_generated);
    X509 *ca = load_cert(files.ca_cert);
    X509 *server = load_cert(files.server_cert);
    assert_int_equal(verify_chain(ca, server, "localhost", false), 1);
    X509_free(ca);
    X509_free(server);
}

static void wanted_sans_are_canonical_sorted_and_unique(void **state)
{
    (void)state;
    const char *extra[] = {"0:0:0:0:0:0:0:1", "LOCALHOST", "192.168.001.002"};
    char *sans[CERTS_MAX_SANS];
    size_t n = 0;
    base_error_t err;
    /* 192.168.001.002 is not a dotted quad inet_pton accepts: a DNS name. */
    assert_int_equal(certs_wanted_sans(extra, 3, sans, &n, &err), BASE_OK);
    for (size_t i = 1; i < n; i++) {
        assert_true(strcmp(sans[i - 1], sans[i]) < 0);
    }
    size_t ip6 = 0, local = 0;
    for (size_t i = 0; i < n; i++) {
        ip6 += strcmp(sans[i], "IP:::1") == 0;
        local += strcmp(sans[i], "DNS:localhost") == 0;
    }
    assert_int_equal(ip6, 1);
    assert_int_equal(local, 1);
    certs_sans_free(sans, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ensure_generates_ca_and_server_cert_with_default_sans,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(private_keys_are_mode_0600, setup, teardown),
        cmocka_unit_test_setup_teardown(second_call_reuses_both_certificates, setup, teardown),
        cmocka_unit_test_setup_teardown(changed_san_set_regenerates_only_the_server_certificate,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(corrupt_server_certificate_is_regenerated, setup, teardown),
        cmocka_unit_test_setup_teardown(invalid_extra_host_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(export_creates_the_ca_and_prints_it, setup, teardown),
        cmocka_unit_test(wanted_sans_are_canonical_sorted_and_unique),
    };
    return cmocka_run_group_tests_name("certs", tests, NULL, NULL);
}
