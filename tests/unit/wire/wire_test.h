/*
 * wire_test.h - helpers shared by the wire unit tests: a hex-diff byte
 * comparison, an arena fixture and exact-size copies of test inputs (so
 * ASan flags any read past a truncated body). Header-only; include after
 * <cmocka.h>.
 */
#ifndef TESTS_UNIT_WIRE_WIRE_TEST_H
#define TESTS_UNIT_WIRE_WIRE_TEST_H

#include "wire/wire.h"

static inline void print_hex(const char *label, const uint8_t *p, size_t n)
{
    fprintf(stderr, "%s (%zu bytes):", label, n);
    for (size_t i = 0; i < n; i++) {
        fprintf(stderr, "%s%02x", i % 16 == 0 ? "\n  " : " ", p[i]);
    }
    fprintf(stderr, "\n");
}

/* Compares bytes and prints both sides in hex when they differ. */
#define assert_bytes(got, got_len, want, want_len)    \
    do {                                              \
        const uint8_t *g_ = (const uint8_t *)(got);   \
        const uint8_t *w_ = (const uint8_t *)(want);  \
        size_t gl_ = (got_len), wl_ = (want_len);     \
        if (gl_ != wl_ || memcmp(g_, w_, gl_) != 0) { \
            print_hex("got", g_, gl_);                \
            print_hex("want", w_, wl_);               \
            fail_msg("byte mismatch");                \
        }                                             \
    } while (0)

/* A heap copy of exactly n bytes: reads past the end trip ASan. */
static inline uint8_t *exact_copy(const uint8_t *p, size_t n)
{
    uint8_t *q = base_malloc(n);
    if (n > 0) {
        memcpy(q, p, n);
    }
    return q;
}

static inline int arena_setup(void **state)
{
    base_arena_t *a = base_malloc(sizeof(*a));
    base_arena_init(a, 4096);
    *state = a;
    return 0;
}

static inline int arena_teardown(void **state)
{
    base_arena_t *a = *state;
    base_arena_fini(a);
    base_free(a);
    return 0;
}

/* Deterministic xorshift for the hostile-input loops. */
static inline uint32_t test_rand(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

#endif
