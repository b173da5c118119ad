/* Unit tests for wire/reader.c: every primitive, truncated and hostile input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"


static void reads_fixed_width_primitives_big_endian(void **state)
{
    (void)state;
    const uint8_t in[] = {0xAB, 0x01, 0x02, 0xFF, 0xFF, 0xFF, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 1};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_byte(&r), 0xAB);
    assert_int_equal(wire_read_short(&r), 0x0102);
    assert_int_equal(wire_read_int(&r), -2);
    assert_true(wire_read_long(&r) == (int64_t)(0x8000000000000001ULL));
    assert_true(wire_reader_ok(&r));
    assert_int_equal(wire_reader_remaining(&r), 0);
}


static void read_short_is_unsigned(void **state)
{
    (void)state;
    const uint8_t in[] = {0xFF, 0xFE};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_short(&r), 65534);
}


static void fixed_width_reads_fail_when_truncated(void **state)
{
    (void)state;
    uint8_t *in = exact_copy((const uint8_t[]){1, 2, 3, 4, 5, 6, 7}, 7);
    wire_reader_t r;
    wire_reader_init(&r, in, 7);
    assert_true(wire_read_long(&r) == 0);
    assert_false(wire_reader_ok(&r));
    assert_string_equal(r.why, "truncated [long]");
    assert_int_equal(r.pos, 0);

    wire_reader_init(&r, in, 3);
    assert_int_equal(wire_read_int(&r), 0);
    assert_string_equal(r.why, "truncated [int]");

    wire_reader_init(&r, in, 1);
    assert_int_equal(wire_read_short(&r), 0);
    assert_string_equal(r.why, "truncated [short]");

    wire_reader_init(&r, in, 0);
    assert_int_equal(wire_read_byte(&r), 0);
    assert_string_equal(r.why, "truncated [byte]");
    base_free(in);
}


static void errors_are_sticky_and_keep_the_first_offset(void **state)
{
    (void)state;
    const uint8_t in[] = {0x00, 0x01, 0x00, 0x05, 'a', 'b', 'c', 'd', 'e', 0x01};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_short(&r), 1);
    base_str_t s = wire_read_string(&r);
    assert_true(wire_reader_ok(&r));
    assert_int_equal(s.len, 5);
    assert_int_equal(wire_read_int(&r), 0); /* only one byte left */
    assert_false(wire_reader_ok(&r));
    assert_int_equal(r.pos, 9);
    assert_string_equal(r.why, "truncated [int]");
    /* After a failure every read is empty and the first error stays. */
    assert_int_equal(wire_read_byte(&r), 0);
    s = wire_read_string(&r);
    assert_null(s.ptr);
    assert_int_equal(s.len, 0);
    assert_int_equal(r.pos, 9);
    assert_string_equal(r.why, "truncated [int]");
    assert_int_equal(wire_reader_remaining(&r), 0);
}


static void read_string_borrows_from_input(void **state)
{
    (void)state;
    const uint8_t in[] = {0x00, 0x03, 'a', 'b', 'c'};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    base_str_t s = wire_read_string(&r);
    assert_true(wire_reader_ok(&r));
    assert_ptr_equal(s.ptr, (const char *)in + 2);
    assert_int_equal(s.len, 3);
}


static void read_string_fails_at_every_truncation(void **state)
{
    (void)state;
    const uint8_t full[] = {0x00, 0x04, 't', 'e', 'x', 't'};
    for (size_t n = 0; n < sizeof(full); n++) {
        uint8_t *in = exact_copy(full, n);
        wire_reader_t r;
        wire_reader_init(&r, in, n);
        base_str_t s = wire_read_string(&r);
        assert_false(wire_reader_ok(&r));
        assert_int_equal(s.len, 0);
        assert_int_equal(r.pos, 0);
        assert_string_equal(r.why, "truncated [string]");
        base_free(in);
    }
}


static void read_long_string_rejects_negative_and_huge_lengths(void **state)
{
    (void)state;
    const uint8_t neg[] = {0xFF, 0xFF, 0xFF, 0xFF};
    wire_reader_t r;
    wire_reader_init(&r, neg, sizeof(neg));
    wire_read_long_string(&r);
    assert_false(wire_reader_ok(&r));
    assert_string_equal(r.why, "negative [long string] length");

    const uint8_t huge[] = {0x7F, 0xFF, 0xFF, 0xFF, 'x'};
    wire_reader_init(&r, huge, sizeof(huge));
    base_str_t s = wire_read_long_string(&r);
    assert_false(wire_reader_ok(&r));
    assert_int_equal(s.len, 0);
    assert_string_equal(r.why, "truncated [long string]");

    const uint8_t ok[] = {0x00, 0x00, 0x00, 0x02, 'h', 'i'};
    wire_reader_init(&r, ok, sizeof(ok));
    s = wire_read_long_string(&r);
    assert_true(wire_reader_ok(&r));
    assert_true(base_str_eq(s, BASE_STR("hi")));
}


static void read_bytes_treats_every_negative_length_as_null(void **state)
{
    (void)state;
    const uint8_t in[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0x00,
                          0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x7A};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    wire_value_t v = wire_read_bytes(&r);
    assert_int_equal(v.len, WIRE_VALUE_NULL);
    v = wire_read_bytes(&r);
    assert_int_equal(v.len, WIRE_VALUE_NULL);
    v = wire_read_bytes(&r);
    assert_int_equal(v.len, 0);
    v = wire_read_bytes(&r);
    assert_int_equal(v.len, 1);
    assert_int_equal(v.ptr[0], 0x7A);
    assert_true(wire_reader_ok(&r));
    assert_int_equal(wire_reader_remaining(&r), 0);
}


static void read_bytes_rejects_length_beyond_input(void **state)
{
    (void)state;
    const uint8_t in[] = {0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3};
    uint8_t *p = exact_copy(in, sizeof(in));
    wire_reader_t r;
    wire_reader_init(&r, p, sizeof(in));
    wire_value_t v = wire_read_bytes(&r);
    assert_false(wire_reader_ok(&r));
    assert_null(v.ptr);
    assert_string_equal(r.why, "truncated [bytes]");
    base_free(p);
}


static void read_value_accepts_null_and_unset_and_rejects_below(void **state)
{
    (void)state;
    const uint8_t in[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFD};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_value(&r).len, WIRE_VALUE_NULL);
    assert_int_equal(wire_read_value(&r).len, WIRE_VALUE_UNSET);
    assert_true(wire_reader_ok(&r));
    wire_read_value(&r);
    assert_false(wire_reader_ok(&r));
    assert_int_equal(r.pos, 8);
    assert_string_equal(r.why, "invalid [value] length (below -2)");
}


static void read_short_bytes_and_uuid(void **state)
{
    (void)state;
    uint8_t in[2 + 3 + 16];
    in[0] = 0;
    in[1] = 3;
    in[2] = 0xA;
    in[3] = 0xB;
    in[4] = 0xC;
    for (int i = 0; i < 16; i++) {
        in[5 + i] = (uint8_t)i;
    }
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    wire_value_t id = wire_read_short_bytes(&r);
    assert_int_equal(id.len, 3);
    assert_ptr_equal(id.ptr, in + 2);
    uint8_t uuid[16];
    assert_true(wire_read_uuid(&r, uuid));
    assert_memory_equal(uuid, in + 5, 16);
    assert_false(wire_read_uuid(&r, uuid));
    assert_string_equal(r.why, "truncated [uuid]");

    wire_reader_init(&r, in, 4);
    wire_read_short_bytes(&r);
    assert_string_equal(r.why, "truncated [short bytes]");
}


static void reader_with_null_data_is_empty(void **state)
{
    (void)state;
    wire_reader_t r;
    wire_reader_init(&r, NULL, 10);
    assert_int_equal(wire_reader_remaining(&r), 0);
    wire_read_byte(&r);
    assert_false(wire_reader_ok(&r));
}


static void read_string_list_and_map(void **state)
{
    base_arena_t *a = *state;
    const uint8_t list[] = {0, 2, 0, 1, 'a', 0, 2, 'b', 'c'};
    wire_reader_t r;
    wire_reader_init(&r, list, sizeof(list));
    base_str_t *items;
    assert_int_equal(wire_read_string_list(&r, a, &items), 2);
    assert_true(base_str_eq(items[0], BASE_STR("a")));
    assert_true(base_str_eq(items[1], BASE_STR("bc")));

    const uint8_t empty[] = {0, 0};
    wire_reader_init(&r, empty, sizeof(empty));
    assert_int_equal(wire_read_string_list(&r, a, &items), 0);
    assert_null(items);
    assert_true(wire_reader_ok(&r));

    const uint8_t map[] = {0, 1, 0, 1, 'k', 0, 1, 'v'};
    base_str_t *k, *v;
    wire_reader_init(&r, map, sizeof(map));
    assert_int_equal(wire_read_string_map(&r, a, &k, &v), 1);
    assert_true(base_str_eq(k[0], BASE_STR("k")));
    assert_true(base_str_eq(v[0], BASE_STR("v")));
}


static void collections_reject_counts_beyond_remaining_bytes(void **state)
{
    base_arena_t *a = *state;
    /* 65535 entries announced, four bytes of payload. */
    const uint8_t in[] = {0xFF, 0xFF, 0, 0, 0, 0};
    wire_reader_t r;
    base_str_t *items, *k, *v;
    wire_value_t *bv;
    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_string_list(&r, a, &items), 0);
    assert_false(wire_reader_ok(&r));
    assert_int_equal(r.pos, 0);
    assert_string_equal(r.why, "[string list] count exceeds the remaining bytes");

    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_string_map(&r, a, &k, &v), 0);
    assert_string_equal(r.why, "[string map] count exceeds the remaining bytes");

    wire_reader_init(&r, in, sizeof(in));
    assert_int_equal(wire_read_bytes_map(&r, a, &k, &bv), 0);
    assert_null(k);
    assert_null(bv);
    assert_string_equal(r.why, "[bytes map] count exceeds the remaining bytes");
}


static void read_bytes_map_keeps_null_values(void **state)
{
    base_arena_t *a = *state;
    const uint8_t in[] = {0, 2, 0, 1, 'a', 0xFF, 0xFF, 0xFF, 0xFF, 0, 1, 'b', 0, 0, 0, 1, 9};
    wire_reader_t r;
    wire_reader_init(&r, in, sizeof(in));
    base_str_t *k;
    wire_value_t *v;
    assert_int_equal(wire_read_bytes_map(&r, a, &k, &v), 2);
    assert_int_equal(v[0].len, WIRE_VALUE_NULL);
    assert_true(base_str_eq(k[1], BASE_STR("b")));
    assert_int_equal(v[1].len, 1);
    assert_int_equal(v[1].ptr[0], 9);
    assert_int_equal(wire_reader_remaining(&r), 0);
}


static void collections_fail_at_every_truncation(void **state)
{
    base_arena_t *a = *state;
    const uint8_t map[] = {0, 2, 0, 1, 'a', 0, 0, 0, 1, 'b', 0xFF, 0xFF, 0xFF, 0xFF};
    for (size_t n = 0; n < sizeof(map); n++) {
        uint8_t *in = exact_copy(map, n);
        wire_reader_t r;
        base_str_t *k;
        wire_value_t *v;
        wire_reader_init(&r, in, n);
        assert_int_equal(wire_read_bytes_map(&r, a, &k, &v), 0);
        assert_false(wire_reader_ok(&r));
        assert_null(k);
        base_free(in);
    }
}


/* Encodes a type with the writer, reads it back, re-encodes, compares. */
static void assert_type_round_trips(base_arena_t *a, const wire_type_t *t)
{
    base_buf_t b1, b2;
    base_buf_init(&b1);
    base_buf_init(&b2);
    wire_put_type(&b1, t);
    wire_reader_t r;
    wire_reader_init(&r, b1.data, b1.len);
    const wire_type_t *back = wire_read_type(&r, a);
    assert_non_null(back);
    assert_true(wire_reader_ok(&r));
    assert_int_equal(wire_reader_remaining(&r), 0);
    wire_put_type(&b2, back);
    assert_bytes(b2.data, b2.len, b1.data, b1.len);
    base_buf_fini(&b1);
    base_buf_fini(&b2);
}


static void read_type_handles_every_kind(void **state)
{
    base_arena_t *a = *state;
    static const wire_type_t text = {.id = WIRE_TYPE_VARCHAR};
    static const wire_type_t i32 = {.id = WIRE_TYPE_INT};
    static const wire_type_t *one[] = {&text};
    static const wire_type_t *two[] = {&text, &i32};
    static const wire_type_t list = {.id = WIRE_TYPE_LIST, .n_sub = 1, .sub = one};
    static const wire_type_t map = {.id = WIRE_TYPE_MAP, .n_sub = 2, .sub = two};
    static const wire_type_t tuple = {.id = WIRE_TYPE_TUPLE, .n_sub = 2, .sub = two};
    static const char *fields[] = {"street", "zip"};
    static const wire_type_t udt = {.id = WIRE_TYPE_UDT,
                                    .n_sub = 2,
                                    .sub = two,
                                    .keyspace = "ks",
                                    .name = "address",
                                    .field_names = fields};
    static const wire_type_t custom = {.id = WIRE_TYPE_CUSTOM,
                                       .custom_class = "org.apache.cassandra.db.marshal.X"};
    static const wire_type_t *nested_sub[] = {&udt, &map};
    static const wire_type_t nested = {.id = WIRE_TYPE_MAP, .n_sub = 2, .sub = nested_sub};

    assert_type_round_trips(a, &text);
    assert_type_round_trips(a, &list);
    assert_type_round_trips(a, &map);
    assert_type_round_trips(a, &tuple);
    assert_type_round_trips(a, &udt);
    assert_type_round_trips(a, &custom);
    assert_type_round_trips(a, &nested);

    const uint8_t udt_bytes[] = {0x00, 0x30, 0, 2, 'k', 's', 0, 1, 'u', 0, 1, 0, 1, 'f', 0, 0x09};
    wire_reader_t r;
    wire_reader_init(&r, udt_bytes, sizeof(udt_bytes));
    const wire_type_t *t = wire_read_type(&r, a);
    assert_non_null(t);
    assert_string_equal(t->keyspace, "ks");
    assert_string_equal(t->name, "u");
    assert_int_equal(t->n_sub, 1);
    assert_string_equal(t->field_names[0], "f");
    assert_int_equal(t->sub[0]->id, WIRE_TYPE_INT);
}


static void read_type_rejects_unknown_ids(void **state)
{
    base_arena_t *a = *state;
    const uint16_t bad[] = {0x000A, 0x0016, 0x0023, 0x0032, 0xFFFF};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint8_t in[2] = {(uint8_t)(bad[i] >> 8), (uint8_t)bad[i]};
        wire_reader_t r;
        wire_reader_init(&r, in, sizeof(in));
        assert_null(wire_read_type(&r, a));
        assert_false(wire_reader_ok(&r));
        assert_string_equal(r.why, "unknown [option] type id");
    }
}


/* depth list<...<int>> levels: (depth - 1) list headers then an int. */
static size_t build_nested_lists(uint8_t *out, size_t depth)
{
    size_t n = 0;
    for (size_t i = 0; i + 1 < depth; i++) {
        out[n++] = 0x00;
        out[n++] = 0x20;
    }
    out[n++] = 0x00;
    out[n++] = 0x09;
    return n;
}


static void read_type_limits_nesting_depth(void **state)
{
    base_arena_t *a = *state;
    static uint8_t in[2 * 100000];
    wire_reader_t r;

    size_t n = build_nested_lists(in, 32);
    wire_reader_init(&r, in, n);
    const wire_type_t *t = wire_read_type(&r, a);
    assert_non_null(t);
    assert_int_equal(wire_reader_remaining(&r), 0);

    n = build_nested_lists(in, 33);
    wire_reader_init(&r, in, n);
    assert_null(wire_read_type(&r, a));
    assert_string_equal(r.why, "[option] types nested too deeply");
    assert_int_equal(r.pos, 64);

    /* A hostile 100000-deep tree must fail without exhausting the stack. */
    n = build_nested_lists(in, 100000);
    wire_reader_init(&r, in, n);
    assert_null(wire_read_type(&r, a));
    assert_false(wire_reader_ok(&r));
}


static void read_type_rejects_hostile_counts_and_truncation(void **state)
{
    base_arena_t *a = *state;
    const uint8_t tuple[] = {0x00, 0x31, 0xFF, 0xFF, 0x00, 0x09};
    wire_reader_t r;
    wire_reader_init(&r, tuple, sizeof(tuple));
    assert_null(wire_read_type(&r, a));
    assert_string_equal(r.why, "tuple size exceeds the remaining bytes");

    const uint8_t udt[] = {0x00, 0x30, 0, 1,   'k', 0,    1,    'u',  0,    2,    0, 1, 'f', 0,
                           9,    0,    1, 'g', 0,   0x21, 0x00, 0x0D, 0x00, 0x31, 0, 1, 0,   0x02};
    for (size_t n = 0; n < sizeof(udt); n++) {
        uint8_t *in = exact_copy(udt, n);
        wire_reader_init(&r, in, n);
        assert_null(wire_read_type(&r, a));
        assert_false(wire_reader_ok(&r));
        base_free(in);
    }
    wire_reader_init(&r, udt, sizeof(udt));
    assert_non_null(wire_read_type(&r, a));
    assert_int_equal(wire_reader_remaining(&r), 0);
}


static void random_input_never_crashes_the_type_reader(void **state)
{
    base_arena_t *a = *state;
    uint32_t seed = 0x1234567;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = test_rand(&seed) % 40;
        uint8_t buf[40];
        for (size_t i = 0; i < n; i++) {
            /* Bias toward small values so collection ids show up often. */
            uint32_t x = test_rand(&seed);
            buf[i] = (uint8_t)((x & 1) ? (x >> 8) % 0x32 : (x >> 8) % 3);
        }
        uint8_t *in = exact_copy(buf, n);
        wire_reader_t r;
        wire_reader_init(&r, in, n);
        const wire_type_t *t = wire_read_type(&r, a);
        assert_true((t != NULL) == wire_reader_ok(&r));
        base_free(in);
        if (iter % 1000 == 0) {
            base_arena_reset(a);
        }
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_fixed_width_primitives_big_endian),
        cmocka_unit_test(read_short_is_unsigned),
        cmocka_unit_test(fixed_width_reads_fail_when_truncated),
        cmocka_unit_test(errors_are_sticky_and_keep_the_first_offset),
        cmocka_unit_test(read_string_borrows_from_input),
        cmocka_unit_test(read_string_fails_at_every_truncation),
        cmocka_unit_test(read_long_string_rejects_negative_and_huge_lengths),
        cmocka_unit_test(read_bytes_treats_every_negative_length_as_null),
        cmocka_unit_test(read_bytes_rejects_length_beyond_input),
        cmocka_unit_test(read_value_accepts_null_and_unset_and_rejects_below),
        cmocka_unit_test(read_short_bytes_and_uuid),
        cmocka_unit_test(reader_with_null_data_is_empty),
        cmocka_unit_test_setup_teardown(read_string_list_and_map, arena_setup, arena_teardown),
        cmocka_unit_test_setup_teardown(collections_reject_counts_beyond_remaining_bytes,
                                        arena_setup, arena_teardown),
        cmocka_unit_test_setup_teardown(read_bytes_map_keeps_null_values, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(collections_fail_at_every_truncation, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(read_type_handles_every_kind, arena_setup, arena_teardown),
        cmocka_unit_test_setup_teardown(read_type_rejects_unknown_ids, arena_setup, arena_teardown),
        cmocka_unit_test_setup_teardown(read_type_limits_nesting_depth, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(read_type_rejects_hostile_counts_and_truncation,
                                        arena_setup, arena_teardown),
        cmocka_unit_test_setup_teardown(random_input_never_crashes_the_type_reader, arena_setup,
                                        arena_teardown),
    };
    return cmocka_run_group_tests_name("wire/reader", tests, NULL, NULL);
}
