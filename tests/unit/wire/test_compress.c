/* Unit tests for wire/compress.c: lz4 body round trips and hostile bodies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"


static void fill_compressible(uint8_t *p, size_t n)
{
    static const char words[] = "SELECT * FROM ks.tbl WHERE pk = ? AND ck > ? ";
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)words[i % (sizeof(words) - 1)];
    }
}


static void round_trips_bodies_of_many_sizes(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 2, 15, 16, 100, 4096, 70000, 1 << 20};
    uint32_t seed = 99;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];
        uint8_t *src = base_malloc(n);
        fill_compressible(src, n);
        for (size_t i = 0; i < n; i += 7) {
            src[i] = (uint8_t)test_rand(&seed); /* some entropy */
        }
        base_buf_t z;
        base_buf_init(&z);
        wire_lz4_compress(&z, src, n);
        assert_int_equal(base_load_u32(z.data), n);
        uint8_t *in = exact_copy(z.data, z.len);
        uint8_t *out;
        size_t out_len;
        base_error_t err;
        assert_int_equal(wire_lz4_decompress(in, z.len, n, &out, &out_len, &err), BASE_OK);
        assert_int_equal(out_len, n);
        assert_memory_equal(out, src, n);
        base_free(out);
        base_free(in);
        base_free(src);
        base_buf_fini(&z);
    }
}


static void compress_appends_after_existing_bytes(void **state)
{
    (void)state;
    base_buf_t z;
    base_buf_init(&z);
    base_buf_put(&z, "hdr", 3);
    const uint8_t src[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    wire_lz4_compress(&z, src, sizeof(src));
    assert_memory_equal(z.data, "hdr", 3);
    uint8_t *out;
    size_t out_len;
    assert_int_equal(wire_lz4_decompress(z.data + 3, z.len - 3, 1000, &out, &out_len, NULL),
                     BASE_OK);
    assert_int_equal(out_len, sizeof(src));
    assert_memory_equal(out, src, sizeof(src));
    base_free(out);
    base_buf_fini(&z);
}


/* The same random body twice in a row, small enough for the thread's
 * stream: a stream that kept the first as a dictionary would encode the
 * second as one match against it, which no peer could decode alone. */
static void each_body_is_a_block_of_its_own(void **state)
{
    (void)state;
    enum { N = 400 };
    uint8_t *src = base_malloc(N);
    uint32_t seed = 7;
    for (size_t i = 0; i < N; i++) {
        src[i] = (uint8_t)test_rand(&seed);
    }
    base_buf_t z1, z2;
    base_buf_init(&z1);
    base_buf_init(&z2);
    wire_lz4_compress(&z1, src, N);
    wire_lz4_compress(&z2, src, N);
    assert_int_equal(z2.len, z1.len);
    assert_memory_equal(z2.data, z1.data, z1.len);
    uint8_t *out;
    size_t out_len;
    assert_int_equal(wire_lz4_decompress(z2.data, z2.len, N, &out, &out_len, NULL), BASE_OK);
    assert_int_equal(out_len, N);
    assert_memory_equal(out, src, N);
    base_free(out);
    base_free(src);
    base_buf_fini(&z1);
    base_buf_fini(&z2);
}


static void empty_body_compresses_and_decompresses(void **state)
{
    (void)state;
    base_buf_t z;
    base_buf_init(&z);
    wire_lz4_compress(&z, NULL, 0);
    const uint8_t want[] = {0, 0, 0, 0, 0};
    assert_bytes(z.data, z.len, want, sizeof(want));
    uint8_t *out;
    size_t out_len = 99;
    assert_int_equal(wire_lz4_decompress(z.data, z.len, 100, &out, &out_len, NULL), BASE_OK);
    assert_int_equal(out_len, 0);
    assert_non_null(out);
    base_free(out);
    /* A compressed frame with no body at all is an empty body too. */
    assert_int_equal(wire_lz4_decompress(z.data, 0, 100, &out, &out_len, NULL), BASE_OK);
    assert_int_equal(out_len, 0);
    base_free(out);
    base_buf_fini(&z);
}


static void decompress_rejects_declared_size_above_max(void **state)
{
    (void)state;
    uint8_t src[4096];
    fill_compressible(src, sizeof(src));
    base_buf_t z;
    base_buf_init(&z);
    wire_lz4_compress(&z, src, sizeof(src));
    uint8_t *out = (uint8_t *)1;
    size_t out_len;
    base_error_t err;
    assert_int_equal(wire_lz4_decompress(z.data, z.len, 4095, &out, &out_len, &err), BASE_ERROR);
    assert_null(out);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_string_equal(err.msg,
                        "Invalid lz4 body: uncompressed length 4096 exceeds the maximum 4095");
    base_buf_fini(&z);
}


static void decompress_rejects_sizes_no_block_can_reach(void **state)
{
    (void)state;
    /* 1 GiB promised from a 2-byte block: refused before any allocation. */
    const uint8_t bomb[] = {0x40, 0x00, 0x00, 0x00, 0x1F, 0x00};
    uint8_t *out;
    size_t out_len;
    base_error_t err;
    assert_int_equal(wire_lz4_decompress(bomb, sizeof(bomb), SIZE_MAX, &out, &out_len, &err),
                     BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_string_equal(err.msg,
                        "Invalid lz4 body: uncompressed length 1073741824 cannot come from 2 "
                        "compressed bytes");
    const uint8_t huge[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x00};
    assert_int_equal(wire_lz4_decompress(huge, sizeof(huge), SIZE_MAX, &out, &out_len, &err),
                     BASE_ERROR);
}


static void decompress_rejects_length_mismatch_and_short_prefix(void **state)
{
    (void)state;
    uint8_t src[1000];
    fill_compressible(src, sizeof(src));
    base_buf_t z;
    base_buf_init(&z);
    wire_lz4_compress(&z, src, sizeof(src));
    uint8_t *out;
    size_t out_len;
    base_error_t err;
    base_buf_set_u32(&z, 0, 999); /* says less than the block holds */
    assert_int_equal(wire_lz4_decompress(z.data, z.len, 4096, &out, &out_len, &err), BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    base_buf_set_u32(&z, 0, 1001); /* says more */
    assert_int_equal(wire_lz4_decompress(z.data, z.len, 4096, &out, &out_len, &err), BASE_ERROR);
    for (size_t n = 1; n < 4; n++) {
        assert_int_equal(wire_lz4_decompress(z.data, n, 4096, &out, &out_len, &err), BASE_ERROR);
        assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    }
    base_buf_fini(&z);
}


static void decompress_fails_cleanly_at_every_truncation(void **state)
{
    (void)state;
    uint8_t src[3000];
    fill_compressible(src, sizeof(src));
    uint32_t seed = 7;
    for (size_t i = 0; i < sizeof(src); i += 5) {
        src[i] = (uint8_t)test_rand(&seed);
    }
    base_buf_t z;
    base_buf_init(&z);
    wire_lz4_compress(&z, src, sizeof(src));
    for (size_t n = 1; n < z.len; n++) {
        uint8_t *in = exact_copy(z.data, n);
        uint8_t *out;
        size_t out_len;
        base_error_t err;
        assert_int_equal(wire_lz4_decompress(in, n, 1 << 20, &out, &out_len, &err), BASE_ERROR);
        assert_null(out);
        base_free(in);
    }
    base_buf_fini(&z);
}


static void decompress_survives_random_garbage(void **state)
{
    (void)state;
    uint32_t seed = 31337;
    for (int iter = 0; iter < 5000; iter++) {
        size_t n = 4 + test_rand(&seed) % 60;
        uint8_t buf[64];
        for (size_t i = 0; i < n; i++) {
            buf[i] = (uint8_t)test_rand(&seed);
        }
        buf[0] = 0;
        buf[1] = 0; /* keep declared sizes plausible so the block is parsed */
        uint8_t *in = exact_copy(buf, n);
        uint8_t *out;
        size_t out_len;
        int rc = wire_lz4_decompress(in, n, 1 << 20, &out, &out_len, NULL);
        if (rc == BASE_OK) {
            assert_int_equal(out_len, base_load_u32(buf));
            base_free(out);
        }
        base_free(in);
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips_bodies_of_many_sizes),
        cmocka_unit_test(compress_appends_after_existing_bytes),
        cmocka_unit_test(each_body_is_a_block_of_its_own),
        cmocka_unit_test(empty_body_compresses_and_decompresses),
        cmocka_unit_test(decompress_rejects_declared_size_above_max),
        cmocka_unit_test(decompress_rejects_sizes_no_block_can_reach),
        cmocka_unit_test(decompress_rejects_length_mismatch_and_short_prefix),
        cmocka_unit_test(decompress_fails_cleanly_at_every_truncation),
        cmocka_unit_test(decompress_survives_random_garbage),
    };
    return cmocka_run_group_tests_name("wire/compress", tests, NULL, NULL);
}
