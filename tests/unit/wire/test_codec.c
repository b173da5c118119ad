/* Unit tests for wire/codec.c: the wire_put_* writers, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"


static void put_strings_write_their_length_prefix(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    wire_put_string(&b, "abc", 3);
    wire_put_cstring(&b, "");
    wire_put_cstring(&b, NULL);
    wire_put_long_string(&b, "hi", 2);
    const uint8_t want[] = {0, 3, 'a', 'b', 'c', 0, 0, 0, 0, 0, 0, 0, 2, 'h', 'i'};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void put_string_cuts_at_the_short_limit(void **state)
{
    (void)state;
    size_t n = 70000;
    char *s = base_malloc(n);
    memset(s, 'x', n);
    base_buf_t b;
    base_buf_init(&b);
    wire_put_string(&b, s, n);
    assert_int_equal(b.len, 2 + 65535);
    assert_int_equal(base_load_u16(b.data), 65535);
    base_buf_fini(&b);
    base_free(s);
}


static void put_bytes_and_values_encode_null_and_unset(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    const uint8_t one = 7;
    wire_put_bytes(&b, &one, 1);
    wire_put_bytes(&b, NULL, -1);
    wire_put_bytes(&b, NULL, -9);
    wire_put_bytes(&b, NULL, 0);
    wire_put_value(&b, (wire_value_t){NULL, WIRE_VALUE_UNSET});
    wire_put_value(&b, (wire_value_t){NULL, WIRE_VALUE_NULL});
    wire_put_value(&b, (wire_value_t){&one, 1});
    wire_put_short_bytes(&b, &one, 1);
    const uint8_t want[] = {0,    0,    0,    1, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                            0xFF, 0xFF, 0,    0, 0, 0,    0xFF, 0xFF, 0xFF, 0xFE, 0xFF,
                            0xFF, 0xFF, 0xFF, 0, 0, 0,    1,    7,    0,    1,    7};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void put_string_list_and_inet(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    const char *items[] = {"a", "bc"};
    wire_put_string_list(&b, items, 2);
    wire_put_string_list(&b, NULL, 0);
    const uint8_t v4[] = {127, 0, 0, 1};
    wire_put_inet(&b, v4, 4, 9042);
    const uint8_t want[] = {0, 2, 0,   1, 'a', 0, 2, 'b', 'c',  0,
                            0, 4, 127, 0, 0,   1, 0, 0,   0x23, 0x52};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void put_type_writes_option_trees(void **state)
{
    (void)state;
    static const wire_type_t text = {.id = WIRE_TYPE_VARCHAR};
    static const wire_type_t bigint = {.id = WIRE_TYPE_BIGINT};
    static const wire_type_t *kv[] = {&text, &bigint};
    static const wire_type_t map = {.id = WIRE_TYPE_MAP, .n_sub = 2, .sub = kv};
    static const wire_type_t *elem[] = {&map};
    static const wire_type_t list = {.id = WIRE_TYPE_LIST, .frozen = true, .n_sub = 1, .sub = elem};
    static const wire_type_t custom = {.id = WIRE_TYPE_CUSTOM, .custom_class = "C"};
    static const char *names[] = {"x"};
    static const wire_type_t *fields[] = {&text};
    static const wire_type_t udt = {.id = WIRE_TYPE_UDT,
                                    .n_sub = 1,
                                    .sub = fields,
                                    .keyspace = "k",
                                    .name = "u",
                                    .field_names = names};
    base_buf_t b;
    base_buf_init(&b);
    wire_put_type(&b, &list);
    wire_put_type(&b, &custom);
    wire_put_type(&b, &udt);
    const uint8_t want[] = {0x00, 0x20, 0x00, 0x21, 0x00, 0x0D, 0x00, 0x02, /* list<map> */
                            0x00, 0x00, 0x00, 0x01, 'C',                    /* custom */
                            0x00, 0x30, 0,    1,    'k',  0,    1,    'u',
                            0,    1,    0,    1,    'x',  0x00, 0x0D};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(put_strings_write_their_length_prefix),
        cmocka_unit_test(put_string_cuts_at_the_short_limit),
        cmocka_unit_test(put_bytes_and_values_encode_null_and_unset),
        cmocka_unit_test(put_string_list_and_inet),
        cmocka_unit_test(put_type_writes_option_trees),
    };
    return cmocka_run_group_tests_name("wire/codec", tests, NULL, NULL);
}
