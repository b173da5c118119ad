/* Unit tests for base/buf.c and the error helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/base.h"


static void puts_are_big_endian(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put_u16(&b, 0x0102);
    base_buf_put_u32(&b, 0x03040506);
    base_buf_put_u64(&b, 0x0708090a0b0c0d0eULL);
    const uint8_t want[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
    assert_int_equal(b.len, sizeof(want));
    assert_memory_equal(b.data, want, sizeof(want));
    base_buf_set_u32(&b, 2, 0xdeadbeef);
    assert_int_equal(base_load_u32(b.data + 2), 0xdeadbeef);
    base_buf_fini(&b);
}


static void grows_past_initial_capacity(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    for (int i = 0; i < 10000; i++) {
        base_buf_put_u8(&b, (uint8_t)i);
    }
    assert_int_equal(b.len, 10000);
    assert_int_equal(b.data[9999], (uint8_t)9999);
    base_buf_fini(&b);
}


static void error_set_formats_and_returns_error(void **state)
{
    (void)state;
    base_error_t err;
    assert_int_equal(base_error_set(&err, 0x2200, "unconfigured table %s", "t"), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_string_equal(err.msg, "unconfigured table t");
    assert_string_equal(base_strerror(BASE_AGAIN), "incomplete input");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(puts_are_big_endian),
        cmocka_unit_test(grows_past_initial_capacity),
        cmocka_unit_test(error_set_formats_and_returns_error),
    };
    return cmocka_run_group_tests_name("base/buf", tests, NULL, NULL);
}
