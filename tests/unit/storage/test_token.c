/*
 * test_token.c - storage_token against Cassandra's Murmur3Partitioner.
 * Published vectors: Cassandra int keys, python-driver's test_metadata.py
 * (which covers tails with bytes >= 0x80, the signed-byte quirk). The
 * 0..17-byte set, every tail byte >= 0x80 at the start, was generated with
 * an independent model that reproduces all the published vectors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "storage/storage.h"

typedef struct vector_s {
    const char *hex;
    int64_t token;
} vector_t;


static size_t from_hex(const char *hex, uint8_t *out)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}


static void int_keys_match_cassandra(void **state)
{
    (void)state;
    static const uint8_t k1[] = {0, 0, 0, 1};
    static const uint8_t k2[] = {0, 0, 0, 2};
    static const uint8_t k3[] = {0, 0, 0, 3};
    assert_true(storage_token(k1, 4) == -4069959284402364209LL);
    assert_true(storage_token(k2, 4) == -3248873570005575792LL);
    assert_true(storage_token(k3, 4) == 9010454139840013625LL);
}


static void python_driver_vectors_match_including_signed_tail_bytes(void **state)
{
    (void)state;
    uint8_t buf[64];

    assert_true(storage_token((const uint8_t *)"123", 3) == -7468325962851647638LL);

    for (size_t i = 0; i < 50; i++) {
        static const uint8_t pattern[] = {0x00, 0xff, 0x10, 0xfa, 0x99};
        buf[i] = pattern[i % 5];
    }
    /* 50 bytes: three blocks, then the tail fa 99. */
    assert_true(storage_token(buf, 50) == 5837342703291459765LL);

    memset(buf, 0xfe, 8);
    assert_true(storage_token(buf, 8) == -8927430733708461935LL);
    memset(buf, 0x10, 8);
    assert_true(storage_token(buf, 8) == 1446172840243228796LL);

    const char *max_long = "9223372036854775807";
    assert_true(storage_token((const uint8_t *)max_long, strlen(max_long)) ==
                7162290910810015547LL);
}


static void every_tail_length_matches_reference_model(void **state)
{
    (void)state;
    static const vector_t vectors[] = {
        {"81", -1907894690725236177LL},
        {"82a7", -2114156943346479766LL},
        {"83a8cd", -3400792363150641457LL},
        {"84a9cef3", -8989243509097366593LL},
        {"85aacff419", -7655822347148223545LL},
        {"86abd0f51a3f", 7877503793020175654LL},
        {"87acd1f61b4065", 3924375531301625155LL},
        {"88add2f71c41668b", 2525937749658551348LL},
        {"89aed3f81d42678cb1", -4977977480001724289LL},
        {"8aafd4f91e43688db2d7", -5092225963830926090LL},
        {"8bb0d5fa1f44698eb3d8fd", -5645409950425107400LL},
        {"8cb1d6fb20456a8fb4d9fe23", -3681819275056441899LL},
        {"8db2d7fc21466b90b5daff2449", 8182678987659706062LL},
        {"8eb3d8fd22476c91b6db00254a6f", 501108668455040425LL},
        {"8fb4d9fe23486d92b7dc01264b7095", -267219239581091787LL},
        {"90b5daff24496e93b8dd02274c7196bb", -991374977817760364LL},
        {"91b6db00254a6f94b9de03284d7297bce1", 308724836914801798LL},
    };
    uint8_t buf[32];
    for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
        size_t n = from_hex(vectors[i].hex, buf);
        assert_int_equal(n, i + 1);
        if (storage_token(buf, n) != vectors[i].token) {
            fail_msg("length %zu: got %lld want %lld", n, (long long)storage_token(buf, n),
                     (long long)vectors[i].token);
        }
    }
}


static void empty_key_has_minimum_token(void **state)
{
    (void)state;
    assert_true(storage_token(NULL, 0) == INT64_MIN);
    assert_true(storage_token((const uint8_t *)"", 0) == INT64_MIN);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(int_keys_match_cassandra),
        cmocka_unit_test(python_driver_vectors_match_including_signed_tail_bytes),
        cmocka_unit_test(every_tail_length_matches_reference_model),
        cmocka_unit_test(empty_key_has_minimum_token),
    };
    return cmocka_run_group_tests_name("storage/token", tests, NULL, NULL);
}
