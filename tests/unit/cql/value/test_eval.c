/* Unit tests for cql/value/eval.c: literals, binds, collection/tuple/UDT
 * literals, casts and negation, with Cassandra's error texts. */
#include "value_test.h"

/* 2024-01-01 10:00:00.123 UTC */
#define FAKE_NOW_US 1704103200123000LL

static int64_t fake_now(void)
{
    return FAKE_NOW_US;
}


static int64_t fake_mono(void)
{
    return 0;
}


static void integer_literals_fill_each_width(void **state)
{
    (void)state;
    assert_eval_hex(I("42"), T("int"), "0000002a");
    assert_eval_hex(I("-1"), T("int"), "ffffffff");
    assert_eval_hex(I("-2147483648"), T("int"), "80000000");
    assert_eval_hex(I("9223372036854775807"), T("bigint"), "7fffffffffffffff");
    assert_eval_hex(I("-32768"), T("smallint"), "8000");
    assert_eval_hex(I("127"), T("tinyint"), "7f");
    assert_eval_hex(I("5"), T("counter"), "0000000000000005");
}


static void integer_literals_out_of_range_use_fromstring_messages(void **state)
{
    (void)state;
    assert_eval_error(I("2147483648"), T("int"), "Unable to make int from '2147483648'");
    assert_eval_error(I("99999999999999999999"), T("bigint"),
                      "Unable to make long from '99999999999999999999'");
    assert_eval_error(I("40000"), T("smallint"), "Unable to make short from '40000'");
    assert_eval_error(I("128"), T("tinyint"), "Unable to make byte from '128'");
}


static void mismatched_literal_kinds_are_invalid_constants(void **state)
{
    (void)state;
    assert_eval_error(S("abc"), T("int"), "Invalid STRING constant (abc) for \"v\" of type int");
    assert_eval_error(I("1"), T("text"), "Invalid INTEGER constant (1) for \"v\" of type text");
    assert_eval_error(I("1"), T("varchar"), "Invalid INTEGER constant (1) for \"v\" of type text");
    assert_eval_error(F("1.5"), T("int"), "Invalid FLOAT constant (1.5) for \"v\" of type int");
    assert_eval_error(H("01"), T("int"), "Invalid HEX constant (0x01) for \"v\" of type int");
    assert_eval_error(S("abc"), T("blob"), "Invalid STRING constant (abc) for \"v\" of type blob");
    assert_eval_error(S("true"), T("boolean"),
                      "Invalid STRING constant (true) for \"v\" of type boolean");
    assert_eval_error(S("62c36092-82a1-3a00-93d1-46196ee77204"), T("uuid"),
                      "Invalid STRING constant (62c36092-82a1-3a00-93d1-46196ee77204) for \"v\" "
                      "of type uuid");
    assert_eval_error(U("62c36092-82a1-3a00-93d1-46196ee77204"), T("text"),
                      "Invalid UUID constant (62c36092-82a1-3a00-93d1-46196ee77204) for \"v\" "
                      "of type text");
    assert_eval_error(B("true"), T("int"), "Invalid BOOLEAN constant (true) for \"v\" of type int");
    assert_eval_error(D("1h"), T("bigint"),
                      "Invalid DURATION constant (1h) for \"v\" of type bigint");
    assert_eval_error(I("1"), list_of(T("int")),
                      "Invalid INTEGER constant (1) for \"v\" of type list<int>");
}


static void text_ascii_and_blob_literals(void **state)
{
    (void)state;
    assert_eval_hex(S("hé"), T("text"), "68c3a9");
    assert_eval_hex(S(""), T("text"), "");
    assert_eval_hex(S("abc"), T("ascii"), "616263");
    assert_eval_error(S("hé"), T("ascii"),
                      "Invalid ASCII character in string literal: "
                      "java.nio.charset.UnmappableCharacterException: Input length = 1");
    assert_eval_hex(H("CAFE00"), T("blob"), "cafe00");
    assert_eval_hex(H(""), T("blob"), "");
    assert_eval_error(H("abc"), T("blob"), "cannot parse 'abc' as hex bytes");
    assert_eval_error(H("zz"), T("blob"), "cannot parse 'zz' as hex bytes");
}


static void boolean_and_floating_literals(void **state)
{
    (void)state;
    assert_eval_hex(B("true"), T("boolean"), "01");
    assert_eval_hex(B("false"), T("boolean"), "00");
    assert_eval_hex(F("1.5"), T("float"), "3fc00000");
    assert_eval_hex(F("1.5"), T("double"), "3ff8000000000000");
    assert_eval_hex(I("2"), T("double"), "4000000000000000");
    assert_eval_hex(F("NaN"), T("double"), "7ff8000000000000");
    assert_eval_hex(F("-Infinity"), T("double"), "fff0000000000000");
    assert_eval_hex(F("Infinity"), T("float"), "7f800000");
    assert_eval_hex(F("1e3"), T("double"), "408f400000000000");
    assert_eval_error(F("nan"), T("double"), "Unable to make double from 'nan'");
}


static void decimal_and_varint_literals_are_arbitrary_precision(void **state)
{
    (void)state;
    assert_eval_hex(F("1.50"), T("decimal"),
                    "0000000200"
                    "96");
    assert_eval_hex(F("-0.001"), T("decimal"), "00000003ff");
    assert_eval_hex(F("1e3"), T("decimal"), "fffffffd01");
    assert_eval_hex(I("0"), T("decimal"), "0000000000");
    assert_eval_hex(I("18446744073709551616"), T("decimal"), "00000000010000000000000000");
    assert_eval_error(F("NaN"), T("decimal"), "unable to make BigDecimal from 'NaN'");
    assert_eval_hex(I("0"), T("varint"), "00");
    assert_eval_hex(I("127"), T("varint"), "7f");
    assert_eval_hex(I("128"), T("varint"), "0080");
    assert_eval_hex(I("-128"), T("varint"), "80");
    assert_eval_hex(I("-129"), T("varint"), "ff7f");
    assert_eval_hex(I("18446744073709551616"), T("varint"), "010000000000000000");
    assert_eval_hex(I("-18446744073709551616"), T("varint"), "ff0000000000000000");
    assert_eval_hex(I("123456789012345678901234567890"), T("varint"), "018ee90ff6c373e0ee4e3f0ad2");
    assert_eval_error(F("1.5"), T("varint"),
                      "Invalid FLOAT constant (1.5) for \"v\" of type varint");
}


static void uuid_literals_and_timeuuid_version_check(void **state)
{
    (void)state;
    assert_eval_hex(U("62c36092-82a1-3a00-93d1-46196ee77204"), T("uuid"),
                    "62c3609282a13a0093d146196ee77204");
    assert_eval_hex(U("50554D6E-29BB-11E5-B345-FEFF819CDC9F"), T("timeuuid"),
                    "50554d6e29bb11e5b345feff819cdc9f");
    assert_eval_error(U("62c36092-82a1-4a00-93d1-46196ee77204"), T("timeuuid"),
                      "TimeUUID supports only version 1 UUIDs");
}


static void timestamp_literals_accept_cassandra_formats(void **state)
{
    (void)state;
    assert_eval_hex(S("2024-01-01"), T("timestamp"), "0000018cc251f400");
    assert_eval_hex(S("2024-01-01 10:00"), T("timestamp"), "0000018cc4774500");
    assert_eval_hex(S("2024-01-01 10:00:00"), T("timestamp"), "0000018cc4774500");
    assert_eval_hex(S("2024-01-01T10:00:00.123Z"), T("timestamp"), "0000018cc477457b");
    assert_eval_hex(S("2024-01-01 10:00:00.123+0000"), T("timestamp"), "0000018cc477457b");
    assert_eval_hex(S("2024-01-01 11:00:00+01:00"), T("timestamp"), "0000018cc4774500");
    assert_eval_hex(S("2024-01-01 11:00:00 GMT+01:00"), T("timestamp"), "0000018cc4774500");
    assert_eval_hex(S("2024-01-01 09:00:00-0100"), T("timestamp"), "0000018cc4774500");
    assert_eval_hex(S("2024-01-01 10:00:00 UTC"), T("timestamp"), "0000018cc4774500");
    /* SimpleDateFormat reads ".5" as 5 milliseconds. */
    assert_eval_hex(S("2024-01-01 10:00:00.5"), T("timestamp"), "0000018cc4774505");
    assert_eval_hex(S("1000"), T("timestamp"), "00000000000003e8");
    assert_eval_hex(I("-1"), T("timestamp"), "ffffffffffffffff");
    assert_eval_hex(S(""), T("timestamp"), "");
    assert_eval_hex(S("now"), T("timestamp"), "0000018cc477457b");
    assert_eval_error(S("2024-13-01"), T("timestamp"),
                      "Unable to coerce '2024-13-01' to a formatted date (long)");
    assert_eval_error(S("2023-02-29"), T("timestamp"),
                      "Unable to coerce '2023-02-29' to a formatted date (long)");
    assert_eval_error(S("2024-01-01 10:00:00.1234"), T("timestamp"),
                      "Unable to coerce '2024-01-01 10:00:00.1234' to a formatted date (long)");
    assert_eval_error(S("99999999999999999999"), T("timestamp"),
                      "Unable to make long (for date) from: '99999999999999999999'");
}


static void date_and_time_literals(void **state)
{
    (void)state;
    assert_eval_hex(S("2024-01-01"), T("date"), "80004d0b");
    assert_eval_hex(S("1970-01-01"), T("date"), "80000000");
    assert_eval_hex(S("1969-12-31"), T("date"), "7fffffff");
    assert_eval_hex(I("0"), T("date"), "00000000");
    assert_eval_hex(S("2147483648"), T("date"), "80000000");
    assert_eval_error(S("2024-02-30"), T("date"),
                      "Unable to coerce '2024-02-30' to a formatted date (long)");
    assert_eval_error(I("4294967296"), T("date"),
                      "Unable to make unsigned int (for date) from: '4294967296'");
    assert_eval_hex(S("10:00:00"), T("time"), "000020bde7364000");
    assert_eval_hex(S("10:00:00.123456789"), T("time"), "000020bdee920d15");
    assert_eval_hex(S(" 10:00:00 "), T("time"), "000020bde7364000");
    assert_eval_hex(I("1"), T("time"), "0000000000000001");
    assert_eval_error(S("25:00:00"), T("time"),
                      "(TimeType) Unable to coerce '25:00:00' to a formatted time (long)");
    assert_eval_error(S("10:00"), T("time"),
                      "(TimeType) Unable to coerce '10:00' to a formatted time (long)");
    assert_eval_error(S("10:00:00.1234567890"), T("time"),
                      "(TimeType) Unable to coerce '10:00:00.1234567890' to a formatted time "
                      "(long)");
    assert_eval_error(I("86400000000000"), T("time"),
                      "Unable to make long (for time) from: '86400000000000'");
}


static void inet_literals(void **state)
{
    (void)state;
    assert_eval_hex(S("127.0.0.1"), T("inet"), "7f000001");
    assert_eval_hex(S("::1"), T("inet"), "00000000000000000000000000000001");
    assert_eval_error(S("example"), T("inet"), "Unable to make inet address from 'example'");
}


static void duration_literals_in_all_three_syntaxes(void **state)
{
    (void)state;
    assert_eval_hex(D("1h30m"), T("duration"), "0000fc09d29229e000");
    assert_eval_hex(D("1y2mo"), T("duration"), "1c0000");
    assert_eval_hex(D("1Y2MO"), T("duration"), "1c0000");
    assert_eval_hex(D("P1W"), T("duration"), "000e00");
    assert_eval_hex(D("P1Y2M3DT4H5M6S"), T("duration"), "1c06fc1ac003cfe800");
    assert_eval_hex(D("P0001-02-03T04:05:06"), T("duration"), "1c06fc1ac003cfe800");
    assert_eval_hex(D("-1ns"), T("duration"), "000001");
    assert_eval_hex(D("-1mo"), T("duration"), "010000");
    assert_eval_hex(D("1µs"), T("duration"), "000087d0");
    assert_eval_error(D("1h1h"), T("duration"),
                      "Invalid duration. The hours are specified multiple times");
    assert_eval_error(D("1m1h"), T("duration"),
                      "Invalid duration. The minutes should be after hours");
    assert_eval_error(D("1x"), T("duration"), "Unable to convert '1x' to a duration");
    assert_eval_error(D("P1Q"), T("duration"), "Unable to convert 'P1Q' to a duration");
    assert_eval_error(I("5"), T("duration"), "Unable to convert '5' to a duration");
    assert_eval_error(D("3000000000y"), T("duration"),
                      "Invalid duration. The total number of months must be less or equal to "
                      "2147483647");
}


static void null_literal_is_null_except_for_counters(void **state)
{
    (void)state;
    wire_value_t out;
    assert_int_equal(eval(NUL(), T("int"), &out), BASE_OK);
    assert_int_equal(out.len, WIRE_VALUE_NULL);
    assert_eval_error(NUL(), T("counter"), "Invalid null value for counter increment/decrement");
}


static void bind_markers_validate_and_normalize(void **state)
{
    (void)state;
    wire_value_t vals[4] = {hexv("000000"),
                            {NULL, WIRE_VALUE_UNSET},
                            {NULL, WIRE_VALUE_NULL},
                            hexv("00000003"
                                 "0000000400000003"
                                 "0000000400000001"
                                 "0000000400000003")};
    cql_binds_t binds = {4, vals, NULL, false};
    wire_value_t out;
    assert_int_equal(cql__term_eval(bind(0), T("int"), "v", &binds, &ta, &out, &terr), BASE_ERROR);
    assert_string_equal(terr.msg, "Expected 4 or 0 byte int (3)");
    assert_int_equal(terr.code, WIRE_ERR_INVALID);
    assert_int_equal(cql__term_eval(bind(1), T("int"), "v", &binds, &ta, &out, &terr), BASE_OK);
    assert_int_equal(out.len, WIRE_VALUE_UNSET);
    assert_int_equal(cql__term_eval(bind(2), T("int"), "v", &binds, &ta, &out, &terr), BASE_OK);
    assert_int_equal(out.len, WIRE_VALUE_NULL);
    /* A bound set is sorted and deduplicated as Cassandra re-serializes it. */
    assert_int_equal(cql__term_eval(bind(3), set_of(T("int")), "v", &binds, &ta, &out, &terr),
                     BASE_OK);
    assert_string_equal(tohex(out), "00000002"
                                    "0000000400000001"
                                    "0000000400000003");
    /* A list keeps its order. */
    assert_int_equal(cql__term_eval(bind(3), list_of(T("int")), "v", &binds, &ta, &out, &terr),
                     BASE_OK);
    assert_string_equal(tohex(out), tohex(vals[3]));
    assert_int_equal(cql__term_eval(bind(4), T("int"), "v", &binds, &ta, &out, &terr), BASE_ERROR);
    assert_int_equal(cql__term_eval(bind(0), T("int"), "v", NULL, &ta, &out, &terr), BASE_ERROR);
}


static void list_set_and_map_literals_serialize_like_cassandra(void **state)
{
    (void)state;
    assert_eval_hex(terms(CQL_TERM_LIST, 3, I("3"), I("1"), I("3")), list_of(T("int")),
                    "00000003"
                    "0000000400000003"
                    "0000000400000001"
                    "0000000400000003");
    assert_eval_hex(terms(CQL_TERM_SET, 4, I("3"), I("1"), I("2"), I("1")), set_of(T("int")),
                    "00000003"
                    "0000000400000001"
                    "0000000400000002"
                    "0000000400000003");
    assert_eval_hex(terms(CQL_TERM_SET, 2, S("b"), S("a")), set_of(T("text")),
                    "00000002"
                    "0000000161"
                    "0000000162");
    /* Keys sorted, the last duplicate wins. */
    assert_eval_hex(terms(CQL_TERM_MAP, 6, S("b"), I("1"), S("a"), I("2"), S("a"), I("3")),
                    map_of(T("text"), T("int")),
                    "00000002"
                    "0000000161"
                    "0000000400000003"
                    "0000000162"
                    "0000000400000001");
    assert_eval_hex(terms(CQL_TERM_MAP, 0), set_of(T("int")), "00000000");
    assert_eval_hex(terms(CQL_TERM_MAP, 0), map_of(T("int"), T("int")), "00000000");
    assert_eval_hex(terms(CQL_TERM_LIST, 0), list_of(T("int")), "00000000");
    const wire_type_t *nested = list_of(frozen(set_of(T("int"))));
    assert_eval_hex(terms(CQL_TERM_LIST, 1, terms(CQL_TERM_SET, 2, I("2"), I("1"))), nested,
                    "00000001"
                    "00000014"
                    "00000002"
                    "0000000400000001"
                    "0000000400000002");
}


static void collection_literal_errors(void **state)
{
    (void)state;
    assert_eval_error(terms(CQL_TERM_LIST, 1, I("1")), set_of(T("int")),
                      "Invalid list literal for v of type set<int>");
    assert_eval_error(terms(CQL_TERM_LIST, 2, I("1"), S("a")), list_of(T("int")),
                      "Invalid list literal for v: value 'a' is not of type int");
    assert_eval_error(terms(CQL_TERM_SET, 1, S("a")), set_of(T("int")),
                      "Invalid set literal for v: value 'a' is not of type int");
    assert_eval_error(terms(CQL_TERM_SET, 1, I("1")), map_of(T("int"), T("int")),
                      "Invalid set literal for v of type map<int, int>");
    assert_eval_error(terms(CQL_TERM_MAP, 0), T("int"), "Invalid set literal for v of type int");
    assert_eval_error(terms(CQL_TERM_MAP, 2, I("1"), I("1")), map_of(T("text"), T("int")),
                      "Invalid map literal for v: key 1 is not of type text");
    assert_eval_error(terms(CQL_TERM_MAP, 2, S("a"), S("b")), map_of(T("text"), T("int")),
                      "Invalid map literal for v: value 'b' is not of type int");
    assert_eval_error(terms(CQL_TERM_MAP, 2, S("a"), I("1")), list_of(T("int")),
                      "Invalid map literal for v of type list<int>");
    assert_eval_error(terms(CQL_TERM_LIST, 1, NUL()), list_of(T("int")),
                      "null is not supported inside collections");
    assert_eval_error(terms(CQL_TERM_LIST, 1, bind(0)), list_of(T("int")),
                      "Invalid list literal for v: bind variables are not supported inside "
                      "collection literals");
    assert_eval_error(terms(CQL_TERM_LIST, 1, I("2147483648")), list_of(T("int")),
                      "Unable to make int from '2147483648'");
    assert_eval_error(terms(CQL_TERM_LIST, 1, terms(CQL_TERM_LIST, 1, S("x"))),
                      list_of(frozen(list_of(T("int")))),
                      "Invalid list literal for v: value ['x'] is not of type frozen<list<int>>");
}


static void tuple_literals(void **state)
{
    (void)state;
    const wire_type_t *tt = tuple_of(3, T("int"), T("text"), T("boolean"));
    assert_eval_hex(terms(CQL_TERM_TUPLE, 3, I("1"), S("a"), NUL()), tt,
                    "0000000400000001"
                    "0000000161"
                    "ffffffff");
    /* Fewer components than the type declares are allowed. */
    assert_eval_hex(terms(CQL_TERM_TUPLE, 1, I("1")), tt, "0000000400000001");
    assert_eval_error(terms(CQL_TERM_TUPLE, 4, I("1"), S("a"), B("true"), I("2")), tt,
                      "Invalid tuple literal for v: too many elements. Type "
                      "frozen<tuple<int, text, boolean>> expects 3 but got 4");
    assert_eval_error(terms(CQL_TERM_TUPLE, 2, S("a"), S("a")), tt,
                      "Invalid tuple literal for v: component 0 is not of type int");
    assert_eval_error(terms(CQL_TERM_TUPLE, 1, I("1")), T("int"),
                      "Invalid tuple type literal for v of type int");
    wire_value_t vals[2] = {hexv("00000007"), {NULL, WIRE_VALUE_UNSET}};
    cql_binds_t binds = {2, vals, NULL, false};
    wire_value_t out;
    assert_int_equal(cql__term_eval(terms(CQL_TERM_TUPLE, 2, bind(0), S("x")), tt, "v", &binds, &ta,
                                    &out, &terr),
                     BASE_OK);
    assert_string_equal(tohex(out), "0000000400000007"
                                    "0000000178");
    assert_int_equal(cql__term_eval(terms(CQL_TERM_TUPLE, 2, bind(1), S("x")), tt, "v", &binds, &ta,
                                    &out, &terr),
                     BASE_ERROR);
    assert_string_equal(terr.msg, "Invalid unset value for tuple field number 0");
}


static void udt_literals_fill_missing_fields_with_null(void **state)
{
    (void)state;
    const wire_type_t *addr =
        udt_of("address", 3, "street", T("text"), "zip", T("int"), "city", T("text"));
    assert_eval_hex(udt_term(2, "zip", I("1"), "street", S("x")), addr,
                    "0000000178"
                    "0000000400000001"
                    "ffffffff");
    assert_eval_error(udt_term(1, "country", S("x")), addr,
                      "Unknown field 'country' in value of user defined type address");
    assert_eval_error(udt_term(1, "zip", S("x")), addr,
                      "Invalid user type literal for v: field zip is not of type int");
    assert_eval_error(udt_term(1, "zip", I("1")), T("int"),
                      "Invalid user type literal for v of type int");
    /* A tuple literal is accepted positionally, as UserType is a TupleType. */
    assert_eval_hex(terms(CQL_TERM_TUPLE, 1, S("y")), addr, "0000000179");
}


static void casts_check_both_sides(void **state)
{
    (void)state;
    cql_type_ast_t int_ast = {.name = "int"};
    cql_type_ast_t text_ast = {.name = "text"};
    cql_type_ast_t bigint_ast = {.name = "bigint"};
    cql_term_t *c = terms(CQL_TERM_CAST, 1, I("5"));
    c->cast_type = &int_ast;
    assert_eval_hex(c, T("varint"), "05");
    c->cast_type = &text_ast;
    assert_eval_error(c, T("text"), "Cannot cast value 5 to type text");
    c->cast_type = &bigint_ast;
    assert_eval_error(c, T("int"), "Cannot assign value (bigint)5 to v of type int");
}


static void negation_of_non_literals(void **state)
{
    (void)state;
    wire_value_t vals[3] = {hexv("00000005"), hexv("80"), hexv("3ff8000000000000")};
    cql_binds_t binds = {3, vals, NULL, false};
    wire_value_t out;
    cql_term_t *neg = terms(CQL_TERM_NEGATE, 1, bind(0));
    assert_int_equal(cql__term_eval(neg, T("int"), "v", &binds, &ta, &out, &terr), BASE_OK);
    assert_string_equal(tohex(out), "fffffffb");
    neg->items[0] = bind(1);
    assert_int_equal(cql__term_eval(neg, T("varint"), "v", &binds, &ta, &out, &terr), BASE_OK);
    assert_string_equal(cql__value_to_cql(T("varint"), out, &ta), "128");
    neg->items[0] = bind(2);
    assert_int_equal(cql__term_eval(neg, T("double"), "v", &binds, &ta, &out, &terr), BASE_OK);
    assert_string_equal(tohex(out), "bff8000000000000");
    assert_int_equal(cql__term_eval(neg, T("text"), "v", &binds, &ta, &out, &terr), BASE_ERROR);
}


int main(void)
{
    base_clock_set_fake(fake_now, fake_mono);
    const struct CMUnitTest tests[] = {
        VT(integer_literals_fill_each_width),
        VT(integer_literals_out_of_range_use_fromstring_messages),
        VT(mismatched_literal_kinds_are_invalid_constants),
        VT(text_ascii_and_blob_literals),
        VT(boolean_and_floating_literals),
        VT(decimal_and_varint_literals_are_arbitrary_precision),
        VT(uuid_literals_and_timeuuid_version_check),
        VT(timestamp_literals_accept_cassandra_formats),
        VT(date_and_time_literals),
        VT(inet_literals),
        VT(duration_literals_in_all_three_syntaxes),
        VT(null_literal_is_null_except_for_counters),
        VT(bind_markers_validate_and_normalize),
        VT(list_set_and_map_literals_serialize_like_cassandra),
        VT(collection_literal_errors),
        VT(tuple_literals),
        VT(udt_literals_fill_missing_fields_with_null),
        VT(casts_check_both_sides),
        VT(negation_of_non_literals),
    };
    return cmocka_run_group_tests_name("cql/value_eval", tests, NULL, NULL);
}
