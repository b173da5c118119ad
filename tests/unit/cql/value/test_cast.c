/* Unit tests for CAST in the selection clause (cql/value/cast.c): Cassandra's cast
 * table and the conversions of CastFcts (Java's Number methods, toDate/toTimestamp, the
 * serializers' toString). */
#include <math.h>

#include "value_test.h"


static wire_value_t cast(const char *from, const char *to, wire_value_t v)
{
    assert_true(cql__cast_exists(T(from), T(to)));
    return cql__value_cast(T(from), T(to), v, &ta);
}


static double as_double(wire_value_t v)
{
    assert_int_equal(v.len, 8);
    uint64_t bits = base_load_u64(v.ptr);
    double d;
    memcpy(&d, &bits, 8);
    return d;
}


static wire_value_t float_v(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint8_t *p = base_arena_alloc(&ta, 4);
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(bits >> (24 - 8 * i));
    }
    return (wire_value_t){p, 4};
}


static wire_value_t double_v(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    uint8_t *p = base_arena_alloc(&ta, 8);
    base_store_u64(p, bits);
    return (wire_value_t){p, 8};
}


static const char *text_of(wire_value_t v)
{
    assert_true(v.len >= 0);
    return base_arena_strndup(&ta, (const char *)v.ptr, (size_t)v.len);
}


static void only_cassandras_casts_exist(void **state)
{
    (void)state;
    assert_true(cql__cast_exists(T("int"), T("int")));
    assert_true(cql__cast_exists(T("float"), T("decimal")));
    assert_true(cql__cast_exists(T("counter"), T("tinyint")));
    assert_true(cql__cast_exists(T("timeuuid"), T("timestamp")));
    assert_true(cql__cast_exists(T("date"), T("timestamp")));
    assert_true(cql__cast_exists(T("inet"), T("ascii")));
    assert_true(cql__cast_exists(T("ascii"), T("text")));
    assert_false(cql__cast_exists(T("int"), T("boolean")));
    assert_false(cql__cast_exists(T("int"), T("counter")));
    assert_false(cql__cast_exists(T("text"), T("int")));
    assert_false(cql__cast_exists(T("text"), T("ascii")));
    assert_false(cql__cast_exists(T("timestamp"), T("timeuuid")));
    assert_false(cql__cast_exists(T("blob"), T("text")));
}


static void a_float_widens_to_its_binary_value(void **state)
{
    (void)state;
    assert_true(as_double(cast("float", "double", float_v(5.2f))) == (double)5.2f);
    assert_string_equal(text_of(cast("decimal", "text", cast("float", "decimal", float_v(5.2f)))),
                        "5.199999809265137");
    assert_string_equal(text_of(cast("float", "text", float_v(5.2f))), "5.2");
    assert_string_equal(text_of(cast("decimal", "text", cast("int", "decimal", hexv("00000001")))),
                        "1.0");
}


static void numbers_narrow_as_java_does(void **state)
{
    (void)state;
    assert_string_equal(tohex(cast("double", "int", double_v(6.3))), "00000006");
    assert_string_equal(tohex(cast("double", "tinyint", double_v(-6.7))), "fa");
    assert_string_equal(tohex(cast("double", "int", double_v(1e300))), "7fffffff");
    assert_string_equal(tohex(cast("double", "bigint", double_v(NAN))), "0000000000000000");
    assert_string_equal(tohex(cast("int", "tinyint", hexv("00000101"))), "01"); /* low bits */
    /* decimal 6.3 = unscaled 63, scale 1; -6.3 truncates toward zero */
    assert_string_equal(tohex(cast("decimal", "int", hexv("000000013f"))), "00000006");
    assert_string_equal(tohex(cast("decimal", "int", hexv("00000001c1"))), "fffffffa");
    assert_true(as_double(cast("decimal", "double", hexv("000000013f"))) == 6.3);
    assert_string_equal(tohex(cast("varint", "smallint", hexv("010203"))), "0203");
    /* 15E+1 = 150; 1E+5000 (too long to write plainly) keeps no low bits; 1E-5000 is 0 */
    assert_string_equal(tohex(cast("decimal", "int", hexv("ffffffff0f"))), "00000096");
    assert_string_equal(tohex(cast("decimal", "bigint", hexv("ffffec7801"))), "0000000000000000");
    assert_string_equal(tohex(cast("decimal", "int", hexv("0000138801"))), "00000000");
    assert_string_equal(tohex(cast("double", "float", double_v(1e300))), "7f800000");
    assert_string_equal(tohex(cast("double", "float", double_v(-1e300))), "ff800000");
    assert_string_equal(tohex(cast("double", "varint", double_v(300.9))), "012c");
    assert_int_equal(cast("double", "decimal", double_v(INFINITY)).len, WIRE_VALUE_NULL);
}


static void times_convert_and_print(void **state)
{
    (void)state;
    /* 2015-05-21 11:03:02 UTC = 1432206182000 ms */
    wire_value_t ts = hexv("0000014d76240670");
    assert_string_equal(text_of(cast("timestamp", "text", ts)), "2015-05-21T11:03:02.000Z");
    assert_string_equal(tohex(cast("timestamp", "date", ts)), tohex(hexv("800040c0")));
    uint8_t u[16];
    cql__timeuuid_from_ms(u, 1432206182000LL, false);
    assert_string_equal(tohex(cast("timeuuid", "timestamp", (wire_value_t){u, 16})), tohex(ts));
    assert_string_equal(text_of(cast("date", "text", hexv("800040c0"))), "2015-05-21");
    assert_string_equal(tohex(cast("date", "timestamp", hexv("800040c0"))),
                        tohex(hexv("0000014d73c50000")));
}


static void null_and_empty_values_cast_to_null(void **state)
{
    (void)state;
    assert_int_equal(cast("int", "bigint", hexv(NULL)).len, WIRE_VALUE_NULL);
    assert_int_equal(cast("int", "bigint", hexv("")).len, WIRE_VALUE_NULL);
    assert_int_equal(cast("timestamp", "text", hexv("")).len, WIRE_VALUE_NULL);
    assert_int_equal(cast("int", "bigint", hexv("0001")).len, WIRE_VALUE_NULL); /* malformed */
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(only_cassandras_casts_exist),        VT(a_float_widens_to_its_binary_value),
        VT(numbers_narrow_as_java_does),        VT(times_convert_and_print),
        VT(null_and_empty_values_cast_to_null),
    };
    return cmocka_run_group_tests_name("cql/value_cast", tests, NULL, NULL);
}
