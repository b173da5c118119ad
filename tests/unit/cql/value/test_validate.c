/* Unit tests for cql/value/validate.c: sizes, text encodings, collections,
 * tuples, UDTs and durations against Cassandra's messages, plus hostile
 * bytes for every type. */
#include "value_test.h"

static void assert_valid(const wire_type_t *t, const char *hex)
{
    base_error_clear(&terr);
    if (cql__value_validate(t, hexv(hex), &terr) != BASE_OK) {
        fail_msg("%s rejected for %s: %s", hex, cql__type_name(t, &ta), terr.msg);
    }
}


static void assert_invalid(const wire_type_t *t, const char *hex, const char *message)
{
    base_error_clear(&terr);
    assert_int_equal(cql__value_validate(t, hexv(hex), &terr), BASE_ERROR);
    assert_int_equal(terr.code, WIRE_ERR_INVALID);
    assert_string_equal(terr.msg, message);
}


static void fixed_size_types_check_their_length(void **state)
{
    (void)state;
    assert_valid(T("int"), "00000001");
    assert_valid(T("int"), "");
    assert_invalid(T("int"), "000001", "Expected 4 or 0 byte int (3)");
    assert_invalid(T("bigint"), "00", "Expected 8 or 0 byte long (1)");
    assert_invalid(T("counter"), "00", "Expected 8 or 0 byte long (1)");
    assert_valid(T("smallint"), "0001");
    assert_invalid(T("smallint"), "", "Expected 2 bytes for a smallint (0)");
    assert_invalid(T("tinyint"), "0000", "Expected 1 byte for a tinyint (2)");
    assert_invalid(T("float"), "0000000000", "Expected 4 or 0 byte value for a float (5)");
    assert_invalid(T("double"), "00000000", "Expected 8 or 0 byte value for a double (4)");
    assert_invalid(T("boolean"), "0000", "Expected 1 or 0 byte value (2)");
    assert_invalid(T("timestamp"), "0000", "Expected 8 or 0 byte long for date (2)");
    assert_invalid(T("date"), "", "Expected 4 byte long for date (0)");
    assert_invalid(T("time"), "00", "Expected 8 byte long for time (1)");
    assert_invalid(T("uuid"), "00", "UUID should be 16 or 0 bytes (1)");
    assert_valid(T("timeuuid"), "50554d6e29bb11e5b345feff819cdc9f");
    assert_invalid(T("timeuuid"), "62c3609282a14a0093d146196ee77204",
                   "Invalid version for TimeUUID type.");
    assert_valid(T("inet"), "7f000001");
    assert_invalid(T("inet"), "7f00000100", "Expected 4 or 16 byte inetaddress; got 7f00000100");
    assert_valid(T("decimal"), "0000000001");
    assert_valid(T("decimal"), "00000000");
    assert_invalid(T("decimal"), "000000", "Expected 0 or at least 4 bytes (3)");
    assert_valid(T("varint"), "");
    assert_valid(T("varint"), "ff00ff");
    assert_valid(T("blob"), "00ff");
}


static void null_and_unset_always_pass(void **state)
{
    (void)state;
    assert_int_equal(cql__value_validate(T("int"), (wire_value_t){NULL, WIRE_VALUE_NULL}, &terr),
                     BASE_OK);
    assert_int_equal(cql__value_validate(T("date"), (wire_value_t){NULL, WIRE_VALUE_UNSET}, &terr),
                     BASE_OK);
}


static void text_must_be_well_formed_utf8_and_ascii_seven_bit(void **state)
{
    (void)state;
    assert_valid(T("text"), "68c3a9e282acf09f9880");
    assert_valid(T("text"), "c080"); /* modified UTF-8 NUL, as Cassandra accepts */
    assert_invalid(T("text"), "ff", "String didn't validate.");
    assert_invalid(T("text"), "c181", "String didn't validate.");
    assert_invalid(T("text"), "e282", "String didn't validate.");
    assert_invalid(T("text"), "e08080", "String didn't validate.");
    assert_invalid(T("text"), "f08080", "String didn't validate.");
    assert_invalid(T("text"), "80", "String didn't validate.");
    /* surrogates U+D800..U+DFFF, alone or paired (CESU-8), are not UTF-8 */
    assert_valid(T("text"), "ed9fbf"); /* U+D7FF */
    assert_invalid(T("text"), "eda080", "String didn't validate.");
    assert_invalid(T("text"), "edbfbf", "String didn't validate.");
    assert_invalid(T("text"), "61eda0bdedb88061", "String didn't validate.");
    assert_valid(T("text"), "ee8080"); /* U+E000 */
    /* nothing past U+10FFFF */
    assert_valid(T("text"), "f48fbfbf");
    assert_invalid(T("text"), "f4908080", "String didn't validate.");
    assert_invalid(T("text"), "f5808080", "String didn't validate.");
    assert_invalid(T("text"), "f7bfbfbf", "String didn't validate.");
    /* overlong forms (C0 80 alone excepted) and bad continuation bytes */
    assert_invalid(T("text"), "c0af", "String didn't validate.");
    assert_invalid(T("text"), "e09fbf", "String didn't validate.");
    assert_invalid(T("text"), "f08fbfbf", "String didn't validate.");
    assert_invalid(T("text"), "e04141", "String didn't validate.");
    assert_invalid(T("text"), "f0904141", "String didn't validate.");
    assert_invalid(T("text"), "f09f98", "String didn't validate.");
    assert_valid(T("varchar"), "f09f9880");
    assert_invalid(T("varchar"), "eda080", "String didn't validate.");
    assert_valid(T("ascii"), "7f00");
    assert_invalid(T("ascii"), "6180", "Invalid byte for ascii: -128");
}


/* ASCII is checked eight bytes at a step: a bad or a multi-byte sequence at
 * every offset of a longer text, and one cut short at its end, are judged as
 * when they stand alone. */
static void long_texts_are_checked_at_every_offset(void **state)
{
    (void)state;
    enum { N = 40 };
    char hex[2 * N + 16];
    for (int at = 0; at < N; at++) {
        for (int i = 0; i < N; i++) {
            memcpy(hex + 2 * i, "61", 2);
        }
        hex[2 * N] = '\0';
        memcpy(hex + 2 * at, "ff", 2);
        assert_invalid(T("text"), hex, "String didn't validate.");
        memcpy(hex + 2 * at, "80", 2);
        assert_invalid(T("text"), hex, "String didn't validate.");
        if (at + 1 < N) {
            memcpy(hex + 2 * at, "c3a9", 4); /* U+00E9 in two bytes */
            assert_valid(T("varchar"), hex);
        }
        memcpy(hex + 2 * (at + 1), "e282", 4); /* a three-byte sequence cut short */
        hex[2 * (at + 3)] = '\0';
        memcpy(hex + 2 * at, "61", 2);
        assert_invalid(T("text"), hex, "String didn't validate.");
    }
    assert_valid(T("text"), "6162636465666768696a6b6c6d6e6f70");
}


static void collections_are_walked_with_bounds(void **state)
{
    (void)state;
    const wire_type_t *li = list_of(T("int"));
    assert_valid(li, "00000000");
    assert_valid(li, "00000002"
                     "0000000400000001"
                     "0000000400000002");
    assert_invalid(li, "", "Not enough bytes to read a list");
    assert_invalid(li, "000000", "Not enough bytes to read a list");
    assert_invalid(li,
                   "00000002"
                   "0000000400000001",
                   "Not enough bytes to read a list");
    assert_invalid(li,
                   "00000001"
                   "0000000500000001",
                   "Not enough bytes to read a list");
    assert_invalid(li,
                   "00000001"
                   "0000000400000001"
                   "00",
                   "Unexpected extraneous bytes after list value");
    assert_invalid(li,
                   "00000001"
                   "00000003000001",
                   "Expected 4 or 0 byte int (3)");
    assert_invalid(li,
                   "00000001"
                   "ffffffff",
                   "null is not supported inside collections");
    assert_invalid(li, "ffffffff", "Not enough bytes to read a list");
    assert_invalid(li, "7fffffff", "Not enough bytes to read a list");
    const wire_type_t *st = set_of(T("text"));
    assert_invalid(st,
                   "00000001"
                   "00000001ff",
                   "String didn't validate.");
    assert_invalid(st,
                   "00000001"
                   "0000000161"
                   "01",
                   "Unexpected extraneous bytes after set value");
    const wire_type_t *mt = map_of(T("text"), T("int"));
    assert_valid(mt, "00000001"
                     "0000000161"
                     "0000000400000001");
    assert_invalid(mt,
                   "00000001"
                   "0000000161",
                   "Not enough bytes to read a map");
    assert_invalid(mt,
                   "00000001"
                   "0000000161"
                   "0000000100",
                   "Expected 4 or 0 byte int (1)");
    assert_invalid(mt,
                   "00000000"
                   "00",
                   "Unexpected extraneous bytes after map value");
}


static void tuples_and_udts_allow_missing_trailing_components(void **state)
{
    (void)state;
    const wire_type_t *tt = tuple_of(2, T("int"), T("text"));
    assert_valid(tt, "");
    assert_valid(tt, "0000000400000001");
    assert_valid(tt, "ffffffff"
                     "0000000161");
    assert_invalid(tt,
                   "0000000400000001"
                   "0000000161"
                   "ffffffff",
                   "Invalid remaining data after end of tuple value");
    assert_invalid(tt,
                   "0000000400000001"
                   "0000",
                   "Not enough bytes to read size of 1th component");
    assert_invalid(tt, "0000000500000001", "Not enough bytes to read 0th component");
    assert_invalid(tt, "00000003000001", "Expected 4 or 0 byte int (3)");
    const wire_type_t *ut = udt_of("address", 2, "street", T("text"), "zip", T("int"));
    assert_valid(ut, "0000000161");
    assert_invalid(ut,
                   "0000000161"
                   "00",
                   "Not enough bytes to read size of 1th field zip");
    assert_invalid(ut,
                   "0000000161"
                   "00000004",
                   "Not enough bytes to read 1th field zip");
    assert_invalid(ut,
                   "0000000161"
                   "ffffffff"
                   "00000000",
                   "Invalid remaining data after end of UDT value");
}


static void durations_check_vints_ranges_and_signs(void **state)
{
    (void)state;
    assert_valid(T("duration"), "0000fc09d29229e000");
    assert_valid(T("duration"), "010001");
    assert_invalid(T("duration"), "0000", "Expected at least 3 bytes for a duration (2)");
    assert_invalid(T("duration"), "", "Expected at least 3 bytes for a duration (0)");
    assert_invalid(T("duration"), "0002fc", "Invalid duration value (3 bytes)");
    assert_invalid(T("duration"), "00000000", "Invalid duration value (4 bytes)");
    assert_invalid(T("duration"), "020001",
                   "The duration months, days and nanoseconds must be all of the same sign (1, "
                   "0, -1)");
    /* months = 2^32 as a zig-zag vint */
    assert_invalid(T("duration"), "f2000000000000",
                   "The duration months must be a 32 bits integer but was: 4294967296");
    assert_invalid(T("duration"), "00f20000000000",
                   "The duration days must be a 32 bits integer but was: 4294967296");
}


/* Deterministic xorshift for the hostile-bytes test. */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next_random(void)
{
    return test_rand64(&rng);
}


static void hostile_bytes_never_crash_any_type(void **state)
{
    (void)state;
    const wire_type_t *types[] = {
        T("ascii"),
        T("bigint"),
        T("blob"),
        T("boolean"),
        T("counter"),
        T("date"),
        T("decimal"),
        T("double"),
        T("duration"),
        T("float"),
        T("inet"),
        T("int"),
        T("smallint"),
        T("text"),
        T("time"),
        T("timestamp"),
        T("timeuuid"),
        T("tinyint"),
        T("uuid"),
        T("varint"),
        list_of(T("int")),
        set_of(T("text")),
        map_of(T("text"), frozen(list_of(T("int")))),
        tuple_of(3, T("int"), T("text"), frozen(set_of(T("int")))),
        udt_of("u", 2, "a", T("int"), "b", frozen(map_of(T("int"), T("text")))),
    };
    uint8_t buf[64];
    base_arena_t ra;
    base_arena_init(&ra, 4096);
    for (int round = 0; round < 4000; round++) {
        size_t n = next_random() % sizeof(buf);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = next_random();
            /* Bias towards small lengths and sign bytes so structures parse deeper. */
            buf[i] = (r & 3) == 0 ? 0x00 : (r & 3) == 1 ? (uint8_t)(r >> 8) % 9 : (uint8_t)(r >> 8);
        }
        uint8_t *copy = base_arena_memdup(&ra, buf, n); /* exact size so ASan sees overreads */
        wire_value_t v = {copy, (int32_t)n};
        for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
            base_error_t e;
            int rc = cql__value_validate(types[k], v, &e);
            assert_true(rc == BASE_OK || rc == BASE_ERROR);
            if (rc == BASE_OK) {
                /* Whatever validates must also format, compare and encode. */
                (void)cql__value_to_cql(types[k], v, &ra);
                (void)cql__value_to_json(types[k], v, &ra);
                assert_int_equal(cql__value_compare(types[k], v, v), 0);
            }
        }
        base_arena_reset(&ra);
    }
    base_arena_fini(&ra);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(fixed_size_types_check_their_length),
        VT(null_and_unset_always_pass),
        VT(text_must_be_well_formed_utf8_and_ascii_seven_bit),
        VT(long_texts_are_checked_at_every_offset),
        VT(collections_are_walked_with_bounds),
        VT(tuples_and_udts_allow_missing_trailing_components),
        VT(durations_check_vints_ranges_and_signs),
        VT(hostile_bytes_never_crash_any_type),
    };
    return cmocka_run_group_tests_name("cql/value_validate", tests, NULL, NULL);
}
