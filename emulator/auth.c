/*
 * auth.c - SASL PLAIN credential check. Layer: emulator.
 *
 * The token is split from the end, as Cassandra's PlainTextSaslAuthenticator
 * does: the last NUL starts the password, the one before it the user, and
 * anything before that is the authorization id, which is ignored. The
 * comparison hashes both sides with SHA-256 and compares digests with
 * CRYPTO_memcmp, so neither the length nor the content of the key leaks
 * through timing. The messages are Cassandra's, so client code that matches
 * on them keeps working.
 */
#include "emulator/auth.h"

#include <ctype.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

static void digest(const void *p, size_t n, unsigned char out[32])
{
    unsigned int len = 32;
    EVP_Digest(p, n, out, &len, EVP_sha256(), NULL);
}

/* True when a (untrusted, length n) equals b; time depends on neither. */
static bool equal_ct(const uint8_t *a, size_t n, const char *b)
{
    unsigned char da[32], db[32];
    digest(a, n, da);
    digest(b, strlen(b), db);
    return CRYPTO_memcmp(da, db, sizeof(da)) == 0;
}

int emu_auth_check_plain(wire_value_t token, const char *account, const char *key,
                         base_error_t *err)
{
    const uint8_t *p = token.ptr;
    size_t n = token.len > 0 ? (size_t)token.len : 0;
    size_t cut[2] = {0, 0}; /* the last NUL, then the one before it */
    int nuls = 0;
    for (size_t i = n; i > 0; i--) {
        if (p[i - 1] != '\0') {
            continue;
        }
        if (nuls == 2) {
            return base_error_set(err, WIRE_ERR_BAD_CREDENTIALS,
                                  "Credential format error: username or password is empty or "
                                  "contains NUL(\\0) character");
        }
        cut[nuls++] = i - 1;
    }
    if (nuls == 0) {
        return base_error_set(err, WIRE_ERR_BAD_CREDENTIALS, "Password must not be null");
    }
    if (nuls == 1 || cut[0] == cut[1] + 1) {
        return base_error_set(err, WIRE_ERR_BAD_CREDENTIALS, "Authentication ID must not be null");
    }
    const uint8_t *user = p + cut[1] + 1;
    size_t user_len = cut[0] - cut[1] - 1;
    bool user_ok = equal_ct(user, user_len, account);
    bool pass_ok = equal_ct(p + cut[0] + 1, n - cut[0] - 1, key);
    if (user_ok & pass_ok) {
        return BASE_OK;
    }
    /* Echo the user name as Cassandra does, made printable and short. */
    char shown[65];
    size_t k = 0;
    for (; k < user_len && k < sizeof(shown) - 1; k++) {
        shown[k] = isprint(user[k]) ? (char)user[k] : '?';
    }
    shown[k] = '\0';
    return base_error_set(err, WIRE_ERR_BAD_CREDENTIALS,
                          "Provided username %s and/or password are incorrect", shown);
}
