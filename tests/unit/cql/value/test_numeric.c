/* Unit tests for the exact varint/decimal arithmetic of sum and avg (cql/value/numeric.c),
 * checked against what Java's BigInteger and BigDecimal print. */
#include "cql/value/value_int.h"
#include "value_test.h"


static wire_value_t vi(const char *text)
{
    wire_value_t v;
    assert_true(cql__varint_from_text(text, strlen(text), &ta, &v));
    return v;
}


static wire_value_t dec(const char *text)
{
    wire_value_t v;
    assert_true(cql__decimal_from_text(text, strlen(text), &ta, &v));
    return v;
}


static const char *vi_text(wire_value_t v)
{
    return cql__varint_to_text(v.ptr, (size_t)v.len, &ta);
}


static const char *dec_text(wire_value_t v)
{
    return cql__decimal_to_text(v.ptr, (size_t)v.len, true, &ta);
}


static void varint_sums_cross_byte_and_sign_boundaries(void **state)
{
    (void)state;
    wire_value_t none = {NULL, WIRE_VALUE_NULL};
    assert_string_equal(tohex(cql__varint_add(none, none, &ta)), "00");
    assert_string_equal(tohex(cql__varint_add(vi("127"), vi("1"), &ta)), "0080");
    assert_string_equal(tohex(cql__varint_add(vi("-128"), vi("-1"), &ta)), "ff7f");
    assert_string_equal(tohex(cql__varint_add(vi("-128"), vi("128"), &ta)), "00");
    assert_string_equal(tohex(cql__varint_add(vi("-1"), vi("0"), &ta)), "ff");
    assert_string_equal(vi_text(cql__varint_add(vi("18446744073709551615"), vi("1"), &ta)),
                        "18446744073709551616");
    assert_string_equal(vi_text(cql__varint_add(vi("-4294967296"), vi("4294967295"), &ta)), "-1");
    assert_string_equal(vi_text(cql__varint_add(vi("100000000000000000000000"),
                                                vi("-99999999999999999999999"), &ta)),
                        "1");
    /* BigInteger.divide truncates toward zero */
    assert_string_equal(vi_text(cql__varint_div(vi("-7"), 2, &ta)), "-3");
    assert_string_equal(vi_text(cql__varint_div(vi("7"), 2, &ta)), "3");
    assert_string_equal(vi_text(cql__varint_div(vi("-1"), 3, &ta)), "0");
    assert_string_equal(vi_text(cql__varint_div(vi("36893488147419103232"), 4, &ta)),
                        "9223372036854775808");
}


static void decimal_sums_keep_the_larger_scale(void **state)
{
    (void)state;
    wire_value_t none = {NULL, 0};
    assert_string_equal(tohex(cql__decimal_add(none, none, false, &ta)), "0000000000");
    assert_string_equal(dec_text(cql__decimal_add(dec("11.5"), dec("1.5"), false, &ta)), "13.0");
    assert_string_equal(dec_text(cql__decimal_add(dec("1.25"), dec("-3"), false, &ta)), "-1.75");
    assert_string_equal(dec_text(cql__decimal_add(dec("1"), dec("0.001"), true, &ta)), "0.999");
    assert_string_equal(dec_text(cql__decimal_add(dec("1E+3"), dec("1"), false, &ta)), "1001");
    assert_string_equal(dec_text(cql__decimal_add(dec("0.000000000000000000001"),
                                                  dec("12345678901234567890"), false, &ta)),
                        "12345678901234567890.000000000000000000001");
}


static void decimal_division_rounds_half_even_at_its_scale(void **state)
{
    (void)state;
    assert_string_equal(dec_text(cql__decimal_div(dec("-10.0"), 2, &ta)), "-5.0");
    assert_string_equal(dec_text(cql__decimal_div(dec("1.0"), 3, &ta)), "0.3");
    assert_string_equal(dec_text(cql__decimal_div(dec("2.5"), 2, &ta)), "1.2"); /* 1.25 */
    assert_string_equal(dec_text(cql__decimal_div(dec("3.5"), 2, &ta)), "1.8"); /* 1.75 */
    assert_string_equal(dec_text(cql__decimal_div(dec("-3.5"), 2, &ta)), "-1.8");
    assert_string_equal(dec_text(cql__decimal_div(dec("5"), 3, &ta)), "2");
    assert_string_equal(dec_text(cql__decimal_div(dec("-4.5"), 3, &ta)), "-1.5");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(varint_sums_cross_byte_and_sign_boundaries),
        VT(decimal_sums_keep_the_larger_scale),
        VT(decimal_division_rounds_half_even_at_its_scale),
    };
    return cmocka_run_group_tests_name("cql/value/numeric", tests, NULL, NULL);
}
