/* Unit tests for cql/value/format.c: values as cqlsh-style CQL literals and
 * as Cassandra's toJson text. */
#include "cql/cql.h"
#include "value_test.h"

static const char *cql(const wire_type_t *t, const char *hex)
{
    return cql__value_to_cql(t, hexv(hex), &ta);
}


static const char *json(const wire_type_t *t, const char *hex)
{
    return cql__value_to_json(t, hexv(hex), &ta);
}


static void numbers_print_bare(void **state)
{
    (void)state;
    assert_string_equal(cql(T("int"), "ffffffff"), "-1");
    assert_string_equal(cql(T("bigint"), "8000000000000000"), "-9223372036854775808");
    assert_string_equal(cql(T("smallint"), "7fff"), "32767");
    assert_string_equal(cql(T("tinyint"), "80"), "-128");
    assert_string_equal(cql(T("counter"), "0000000000000007"), "7");
    assert_string_equal(json(T("int"), "0000002a"), "42");
    assert_string_equal(cql(T("varint"), "018ee90ff6c373e0ee4e3f0ad2"),
                        "123456789012345678901234567890");
    assert_string_equal(cql(T("varint"), "ff7f"), "-129");
    assert_string_equal(cql(T("varint"), "00"), "0");
    assert_string_equal(json(T("varint"), "ff0000000000000000"), "-18446744073709551616");
    /* decimal: toPlainString for CQL, BigDecimal.toString for JSON */
    assert_string_equal(cql(T("decimal"), "0000000200"
                                          "96"),
                        "1.50");
    assert_string_equal(cql(T("decimal"), "00000003ff"), "-0.001");
    assert_string_equal(cql(T("decimal"), "fffffffd01"), "1000");
    assert_string_equal(json(T("decimal"), "fffffffd01"), "1E+3");
    assert_string_equal(json(T("decimal"), "0000000a01"), "1E-10");
    assert_string_equal(json(T("decimal"), "0000000a0c"), "1.2E-9");
    assert_string_equal(json(T("decimal"), "00000002"
                                           "0096"),
                        "1.50");
    assert_string_equal(json(T("decimal"), "0000000000"), "0");
    assert_string_equal(cql(T("decimal"), "fffffffd00"), "0");
    assert_string_equal(json(T("decimal"), "fffffffd00"), "0E+3");
}


static void floats_print_like_java(void **state)
{
    (void)state;
    static const struct {
        const char *hex;
        const char *text;
    } doubles[] = {
        {"3ff0000000000000", "1.0"},
        {"3ff8000000000000", "1.5"},
        {"4202a05f20000000", "1.0E10"},
        {"3ee4f8b588e368f1", "1.0E-5"},
        {"3f50624dd2f1a9fc", "0.001"},
        {"3f50385c67dfe32a", "9.9E-4"},
        {"4132d68700000000", "1234567.0"},
        {"416312cfe0000000", "9999999.0"},
        {"416312d000000000", "1.0E7"},
        {"41678c29c0000000", "1.2345678E7"},
        {"3fd3333333333334", "0.30000000000000004"},
        {"c004000000000000", "-2.5"},
        {"0000000000000000", "0.0"},
        {"8000000000000000", "-0.0"},
        {"7ff8000000000000", "NaN"},
        {"fff0000000000000", "-Infinity"},
    };
    for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++) {
        assert_string_equal(cql(T("double"), doubles[i].hex), doubles[i].text);
    }
    assert_string_equal(cql(T("float"), "3f8ccccd"), "1.1");
    assert_string_equal(cql(T("float"), "7f7fffff"), "3.4028235E38");
    assert_string_equal(cql(T("float"), "00000001"), "1.4E-45");
    assert_string_equal(json(T("double"), "3ff8000000000000"), "1.5");
    assert_string_equal(json(T("double"), "7ff8000000000000"), "null");
    assert_string_equal(json(T("float"), "7f800000"), "null");
}


static void text_and_blobs(void **state)
{
    (void)state;
    assert_string_equal(cql(T("text"), "6974277321"), "'it''s!'");
    assert_string_equal(cql(T("ascii"), ""), "''");
    assert_string_equal(json(T("text"), "6122625c0a01e282ac"), "\"a\\\"b\\\\\\n\\u0001€\"");
    assert_string_equal(json(T("text"), "09080c0d"), "\"\\t\\b\\f\\r\"");
    assert_string_equal(cql(T("blob"), "cafe00"), "0xcafe00");
    assert_string_equal(cql(T("blob"), ""), "0x");
    assert_string_equal(json(T("blob"), "cafe"), "\"0xcafe\"");
    assert_string_equal(cql(T("boolean"), "01"), "true");
    assert_string_equal(json(T("boolean"), "00"), "false");
}


static void time_types_and_uuids(void **state)
{
    (void)state;
    assert_string_equal(cql(T("timestamp"), "0000018cc477457b"),
                        "'2024-01-01 10:00:00.123000+0000'");
    assert_string_equal(json(T("timestamp"), "0000018cc477457b"), "\"2024-01-01 10:00:00.123Z\"");
    assert_string_equal(json(T("timestamp"), "ffffffffffffffff"), "\"1969-12-31 23:59:59.999Z\"");
    assert_string_equal(cql(T("date"), "80004d0b"), "'2024-01-01'");
    assert_string_equal(json(T("date"), "7fffffff"), "\"1969-12-31\"");
    assert_string_equal(cql(T("time"), "000020bdee920d15"), "'10:00:00.123456789'");
    assert_string_equal(json(T("time"), "0000000000000000"), "\"00:00:00.000000000\"");
    assert_string_equal(cql(T("uuid"), "62c3609282a13a0093d146196ee77204"),
                        "62c36092-82a1-3a00-93d1-46196ee77204");
    assert_string_equal(json(T("timeuuid"), "50554d6e29bb11e5b345feff819cdc9f"),
                        "\"50554d6e-29bb-11e5-b345-feff819cdc9f\"");
    assert_string_equal(cql(T("inet"), "7f000001"), "'127.0.0.1'");
    assert_string_equal(cql(T("inet"), "00000000000000000000000000000001"), "'::1'");
    assert_string_equal(json(T("inet"), "00000000000000000000000000000001"), "\"0:0:0:0:0:0:0:1\"");
    assert_string_equal(cql(T("duration"), "0000fc09d29229e000"), "1h30m");
    assert_string_equal(cql(T("duration"), "1c06fc1ac003cfe800"), "1y2mo3d4h5m6s");
    assert_string_equal(json(T("duration"), "000001"), "\"-1ns\"");
    assert_string_equal(cql(T("duration"), "000000"), "0s");
}


static void collections_tuples_and_udts(void **state)
{
    (void)state;
    const wire_type_t *li = list_of(T("int"));
    const char *two = "00000002"
                      "0000000400000001"
                      "0000000400000002";
    assert_string_equal(cql(li, two), "[1, 2]");
    assert_string_equal(json(li, two), "[1, 2]");
    assert_string_equal(cql(set_of(T("int")), two), "{1, 2}");
    assert_string_equal(json(set_of(T("int")), two), "[1, 2]");
    assert_string_equal(cql(li, "00000000"), "[]");
    const wire_type_t *mt = map_of(T("int"), T("text"));
    const char *m = "00000001"
                    "0000000400000001"
                    "0000000161";
    assert_string_equal(cql(mt, m), "{1: 'a'}");
    assert_string_equal(json(mt, m), "{\"1\": \"a\"}");
    assert_string_equal(json(map_of(T("text"), T("int")), "00000001"
                                                          "0000000161"
                                                          "0000000400000001"),
                        "{\"a\": 1}");
    const wire_type_t *tt = tuple_of(3, T("int"), T("text"), T("boolean"));
    assert_string_equal(cql(tt, "0000000400000001"
                                "0000000161"
                                "ffffffff"),
                        "(1, 'a', null)");
    assert_string_equal(json(tt, "0000000400000001"
                                 "0000000161"
                                 "ffffffff"),
                        "[1, \"a\", null]");
    const wire_type_t *ut =
        udt_of("address", 3, "street", T("text"), "Zip", T("int"), "city", T("text"));
    assert_string_equal(cql(ut, "0000000178"
                                "0000000400000001"),
                        "{street: 'x', Zip: 1}");
    assert_string_equal(json(ut, "0000000178"
                                 "0000000400000001"),
                        "{\"street\": \"x\", \"\\\"Zip\\\"\": 1, \"city\": null}");
    const wire_type_t *nested = map_of(T("text"), frozen(list_of(T("double"))));
    assert_string_equal(json(nested, "00000001"
                                     "0000000161"
                                     "00000010"
                                     "00000001"
                                     "000000083ff8000000000000"),
                        "{\"a\": [1.5]}");
}


static void null_empty_and_malformed_values_do_not_crash(void **state)
{
    (void)state;
    assert_string_equal(cql__value_to_cql(T("int"), (wire_value_t){NULL, -1}, &ta), "null");
    assert_string_equal(cql__value_to_json(T("text"), (wire_value_t){NULL, -1}, &ta), "null");
    assert_string_equal(cql(T("int"), ""), "null");
    assert_string_equal(json(T("int"), ""), "null");
    assert_string_equal(cql(T("int"), "000001"), "0x000001");
    assert_string_equal(json(T("uuid"), "00"), "\"0x00\"");
    assert_string_equal(cql(list_of(T("int")), "000000"), "0x000000");
    assert_string_equal(cql(T("inet"), "0102"), "0x0102");
    assert_string_equal(json(T("inet"), "0102"), "\"0x0102\"");
    assert_string_equal(cql(T("duration"), "0002"), "0x0002");
    assert_string_equal(cql(list_of(T("int")), "00000001"
                                               "00000003000001"),
                        "[0x000001]");
}


static const char *shown(const wire_type_t *t, const char *hex)
{
    return cql_value_format(t, hexv(hex), CQL_FORMAT_DISPLAY, &ta);
}


static void display_form_shows_cells_as_cqlsh_does(void **state)
{
    (void)state;
    /* top-level text, timestamps, dates, times and inets lose their quotes */
    assert_string_equal(shown(T("text"), "6974277320"), "it's ");
    assert_string_equal(shown(T("text"), "610a6209"), "a\\nb\\t");
    assert_string_equal(shown(T("ascii"), "01"), "\\x01");
    assert_string_equal(shown(T("timestamp"), "0000018cc251f400"),
                        "2024-01-01 00:00:00.000000+0000");
    assert_string_equal(shown(T("date"), "80004d0b"), "2024-01-01");
    assert_string_equal(shown(T("inet"), "7f000001"), "127.0.0.1");
    assert_string_equal(shown(T("int"), "0000002a"), "42");
    assert_string_equal(shown(T("blob"), "cafe"), "0xcafe");
    assert_string_equal(
        cql_value_format(T("text"), (wire_value_t){NULL, -1}, CQL_FORMAT_DISPLAY, &ta), "null");
    /* elements stay literals; the literal form is the one DESCRIBE writes */
    assert_string_equal(shown(list_of(T("text")), "00000001"
                                                  "0000000161"),
                        "['a']");
    assert_string_equal(cql_value_format(T("text"), hexv("6974277320"), CQL_FORMAT_LITERAL, &ta),
                        "'it''s '");
    /* bytes that do not fit the type print as hex, in either form */
    assert_string_equal(shown(T("timestamp"), "0102"), "0x0102");
    assert_string_equal(shown(list_of(T("int")), "00000005"), "0x00000005");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(numbers_print_bare),
        VT(floats_print_like_java),
        VT(text_and_blobs),
        VT(time_types_and_uuids),
        VT(collections_tuples_and_udts),
        VT(null_empty_and_malformed_values_do_not_crash),
        VT(display_form_shows_cells_as_cqlsh_does),
    };
    return cmocka_run_group_tests_name("cql/value_format", tests, NULL, NULL);
}
