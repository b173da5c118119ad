/* Unit tests for cql/uuid.c: v4 and v1 generation, min/max timeuuids,
 * parsing and formatting. */
#include "value_test.h"

static int64_t clock_us = 1704103200123000LL;

static int64_t fake_now(void)
{
    return clock_us;
}


static int64_t fake_mono(void)
{
    return 0;
}


static void random_uuids_are_version_4_and_distinct(void **state)
{
    (void)state;
    uint8_t a[16], b[16];
    cql__uuid_random(a);
    cql__uuid_random(b);
    assert_int_equal(a[6] >> 4, 4);
    assert_int_equal(a[8] & 0xC0, 0x80);
    assert_memory_not_equal(a, b, 16);
}


static void timeuuids_are_version_1_and_strictly_increasing(void **state)
{
    (void)state;
    uint8_t prev[16], cur[16];
    cql__timeuuid_now(prev);
    assert_int_equal(prev[6] >> 4, 1);
    assert_int_equal(prev[8] & 0xC0, 0x80);
    assert_int_equal(cql__timeuuid_ms(prev), clock_us / 1000);
    wire_value_t pv = {prev, 16};
    for (int i = 0; i < 1000; i++) {
        if (i == 500) {
            clock_us -= 5000000; /* the clock stepping back must not reorder */
        }
        cql__timeuuid_now(cur);
        wire_value_t cv = {cur, 16};
        assert_true(cql__value_compare(T("timeuuid"), pv, cv) < 0);
        assert_memory_equal(prev + 8, cur + 8, 8); /* clock sequence and node stay */
        memcpy(prev, cur, 16);
    }
    clock_us += 5000000;
}


static void min_and_max_timeuuids_round_trip_their_millisecond(void **state)
{
    (void)state;
    static const int64_t cases[] = {0, 1, 1704103200123LL, -12219292800000LL, 95617584000000LL};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t lo[16], hi[16];
        cql__timeuuid_from_ms(lo, cases[i], false);
        cql__timeuuid_from_ms(hi, cases[i], true);
        assert_int_equal(cql__timeuuid_ms(lo), cases[i]);
        assert_int_equal(cql__timeuuid_ms(hi), cases[i]);
        assert_int_equal(lo[6] >> 4, 1);
        wire_value_t l = {lo, 16}, h = {hi, 16};
        assert_true(cql__value_compare(T("timeuuid"), l, h) < 0);
    }
    uint8_t lo[16];
    cql__timeuuid_from_ms(lo, 0, false);
    char text[37];
    cql__uuid_format(lo, text);
    /* Cassandra's minTimeuuid(0) */
    assert_string_equal(text, "13814000-1dd2-11b2-8080-808080808080");
}


static void timeuuid_ms_matches_a_known_value(void **state)
{
    (void)state;
    uint8_t u[16];
    assert_true(cql__uuid_parse("50554d6e-29bb-11e5-b345-feff819cdc9f", u));
    assert_int_equal(cql__timeuuid_ms(u), 1436832018805LL);
}


static void parse_and_format_round_trip(void **state)
{
    (void)state;
    uint8_t u[16];
    char text[37];
    assert_true(cql__uuid_parse("62C36092-82a1-3a00-93d1-46196ee77204", u));
    cql__uuid_format(u, text);
    assert_string_equal(text, "62c36092-82a1-3a00-93d1-46196ee77204");
    static const char *const bad[] = {
        "",
        "62c36092-82a1-3a00-93d1-46196ee7720",
        "62c36092-82a1-3a00-93d1-46196ee772045",
        "62c3609282a13a0093d146196ee77204",
        "62c36092-82a1-3a00-93d1_46196ee77204",
        "g2c36092-82a1-3a00-93d1-46196ee77204",
        "62c36092-82a1-3a00-93d1-46196ee7720g",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_false(cql__uuid_parse(bad[i], u));
    }
    assert_false(cql__uuid_parse(NULL, u));
}


int main(void)
{
    base_clock_set_fake(fake_now, fake_mono);
    const struct CMUnitTest tests[] = {
        VT(random_uuids_are_version_4_and_distinct),
        VT(timeuuids_are_version_1_and_strictly_increasing),
        VT(min_and_max_timeuuids_round_trip_their_millisecond),
        VT(timeuuid_ms_matches_a_known_value),
        VT(parse_and_format_round_trip),
    };
    return cmocka_run_group_tests_name("cql/uuid", tests, NULL, NULL);
}
