/* Unit tests for cql/value/functions.c: native functions in terms, overload
 * resolution and Cassandra's function error texts. */
#include "value_test.h"

/* 2024-01-01 10:00:00.123 UTC */
#define FAKE_NOW_US 1704103200123000LL
#define FAKE_NOW_MS 1704103200123LL

static int64_t fake_now(void)
{
    return FAKE_NOW_US;
}


static int64_t fake_mono(void)
{
    return 0;
}


static wire_value_t must_eval(const cql_term_t *term, const wire_type_t *t)
{
    wire_value_t out;
    if (eval(term, t, &out) != BASE_OK) {
        fail_msg("unexpected error: %s", terr.msg);
    }
    return out;
}


static void now_and_uuid_generate_the_right_versions(void **state)
{
    (void)state;
    wire_value_t v = must_eval(fn("now", 0), T("timeuuid"));
    assert_int_equal(v.len, 16);
    assert_int_equal(v.ptr[6] >> 4, 1);
    assert_int_equal(cql__timeuuid_ms(v.ptr), FAKE_NOW_MS);
    v = must_eval(fn("currenttimeuuid", 0), T("uuid")); /* timeuuid fits a uuid column */
    assert_int_equal(v.ptr[6] >> 4, 1);
    v = must_eval(fn("uuid", 0), T("uuid"));
    assert_int_equal(v.ptr[6] >> 4, 4);
    assert_int_equal(v.ptr[8] & 0xC0, 0x80);
}


static void current_time_functions_follow_the_clock(void **state)
{
    (void)state;
    assert_string_equal(tohex(must_eval(fn("currenttimestamp", 0), T("timestamp"))),
                        "0000018cc477457b");
    /* bigint accepts a timestamp's bytes */
    assert_string_equal(tohex(must_eval(fn("currenttimestamp", 0), T("bigint"))),
                        "0000018cc477457b");
    assert_string_equal(tohex(must_eval(fn("currentdate", 0), T("date"))), "80004d0b");
    assert_string_equal(tohex(must_eval(fn("currenttime", 0), T("time"))), "000020bdee8b14c0");
}


static void conversions_between_timeuuid_timestamp_and_date(void **state)
{
    (void)state;
    assert_string_equal(tohex(must_eval(fn("totimestamp", 1, fn("now", 0)), T("timestamp"))),
                        "0000018cc477457b");
    assert_string_equal(tohex(must_eval(fn("dateof", 1, fn("now", 0)), T("timestamp"))),
                        "0000018cc477457b");
    assert_string_equal(tohex(must_eval(fn("todate", 1, fn("now", 0)), T("date"))), "80004d0b");
    assert_string_equal(tohex(must_eval(fn("todate", 1, fn("currenttimestamp", 0)), T("date"))),
                        "80004d0b");
    assert_string_equal(
        tohex(must_eval(fn("totimestamp", 1, fn("currentdate", 0)), T("timestamp"))),
        "0000018cc251f400");
    assert_string_equal(tohex(must_eval(fn("tounixtimestamp", 1, fn("now", 0)), T("bigint"))),
                        "0000018cc477457b");
    assert_string_equal(tohex(must_eval(fn("unixtimestampof", 1, fn("now", 0)), T("bigint"))),
                        "0000018cc477457b");
    assert_string_equal(tohex(must_eval(fn("totimestamp", 1, S("2024-01-01")), T("timestamp"))),
                        "0000018cc251f400");
}


static void min_and_max_timeuuid_bracket_a_millisecond(void **state)
{
    (void)state;
    wire_value_t lo =
        must_eval(fn("mintimeuuid", 1, S("2024-01-01 10:00:00.123+0000")), T("timeuuid"));
    wire_value_t hi =
        must_eval(fn("maxtimeuuid", 1, S("2024-01-01 10:00:00.123+0000")), T("timeuuid"));
    wire_value_t now = must_eval(fn("now", 0), T("timeuuid"));
    assert_int_equal(cql__timeuuid_ms(lo.ptr), FAKE_NOW_MS);
    assert_int_equal(cql__timeuuid_ms(hi.ptr), FAKE_NOW_MS);
    assert_true(cql__value_compare(T("timeuuid"), lo, now) < 0);
    assert_true(cql__value_compare(T("timeuuid"), now, hi) < 0);
}


static void blob_conversions_validate_their_input(void **state)
{
    (void)state;
    assert_string_equal(tohex(must_eval(fn("textasblob", 1, S("abc")), T("blob"))), "616263");
    assert_string_equal(tohex(must_eval(fn("intasblob", 1, I("1")), T("blob"))), "00000001");
    assert_string_equal(tohex(must_eval(fn("blobastext", 1, H("616263")), T("text"))), "616263");
    assert_string_equal(tohex(must_eval(fn("blobasbigint", 1, H("0000000000000001")), T("bigint"))),
                        "0000000000000001");
    assert_eval_error(fn("blobasint", 1, H("0001")), T("int"),
                      "In call to function blobasint, value 0x0001 is not a valid binary "
                      "representation for type int");
    assert_eval_error(fn("blobastext", 1, H("ff")), T("text"),
                      "In call to function blobastext, value 0xff is not a valid binary "
                      "representation for type text");
}


static void function_errors_match_cassandra(void **state)
{
    (void)state;
    assert_eval_error(fn("foo", 0), T("int"), "Unknown function foo called");
    assert_eval_error(fn("now", 0), T("int"),
                      "Type error: cannot assign result of function system.now (type timeuuid) "
                      "to v (type int)");
    assert_eval_error(fn("uuid", 0), T("timeuuid"),
                      "Type error: cannot assign result of function system.uuid (type uuid) to v "
                      "(type timeuuid)");
    assert_eval_error(fn("now", 1, I("1")), T("timeuuid"),
                      "Invalid number of arguments in call to function system.now: 0 required "
                      "but 1 provided");
    assert_eval_error(fn("mintimeuuid", 1, B("true")), T("timeuuid"),
                      "Type error: true cannot be passed as argument 0 of function "
                      "system.mintimeuuid of type timestamp");
    assert_eval_error(fn("totimestamp", 1, F("1.5")), T("timestamp"),
                      "Invalid call to function totimestamp, none of its type signatures match "
                      "(known type signatures: system.totimestamp : (timeuuid) -> timestamp, "
                      "system.totimestamp : (date) -> timestamp)");
    assert_eval_error(fn("tounixtimestamp", 1, S("2024-01-01")), T("bigint"),
                      "Ambiguous call to function tounixtimestamp (can be matched by following "
                      "signatures: system.tounixtimestamp : (timestamp) -> bigint, "
                      "system.tounixtimestamp : (date) -> bigint): use type casts to "
                      "disambiguate");
    assert_eval_error(fn("totimestamp", 1, bind(0)), T("timestamp"),
                      "Ambiguous call to function totimestamp (can be matched by following "
                      "signatures: system.totimestamp : (timeuuid) -> timestamp, "
                      "system.totimestamp : (date) -> timestamp): use type casts to "
                      "disambiguate");
    cql_term_t *qualified = fn("now", 0);
    qualified->keyspace = "ks";
    assert_eval_error(qualified, T("timeuuid"), "Unknown function ks.now called");
    assert_eval_error(fn("tojson", 1, I("1")), T("text"),
                      "toJson() may only be used within the selection clause of SELECT "
                      "statements");
}


static void function_arguments_can_be_bound(void **state)
{
    (void)state;
    wire_value_t vals[2] = {hexv("0000018cc477457b"), {NULL, WIRE_VALUE_NULL}};
    cql_binds_t binds = {2, vals, NULL, false};
    wire_value_t out;
    assert_int_equal(
        cql__term_eval(fn("mintimeuuid", 1, bind(0)), T("timeuuid"), "v", &binds, &ta, &out, &terr),
        BASE_OK);
    assert_int_equal(cql__timeuuid_ms(out.ptr), FAKE_NOW_MS);
    assert_int_equal(
        cql__term_eval(fn("mintimeuuid", 1, bind(1)), T("timeuuid"), "v", &binds, &ta, &out, &terr),
        BASE_ERROR);
    assert_string_equal(terr.msg, "Invalid null value for argument to system.mintimeuuid : "
                                  "(timestamp) -> timeuuid");
    /* The receiver type picks the overload when the argument cannot. */
    assert_int_equal(
        cql__term_eval(fn("todate", 1, fn("now", 0)), T("date"), "v", &binds, &ta, &out, &terr),
        BASE_OK);
}


static void functions_work_inside_collections(void **state)
{
    (void)state;
    wire_value_t v =
        must_eval(terms(CQL_TERM_LIST, 2, fn("now", 0), fn("now", 0)), list_of(T("timeuuid")));
    wire_value_t *keys;
    assert_int_equal(cql__collection_split(list_of(T("timeuuid")), v, &ta, &keys, NULL), 2);
    /* now() is strictly increasing within the process even with a frozen clock. */
    assert_true(cql__value_compare(T("timeuuid"), keys[0], keys[1]) < 0);
}


int main(void)
{
    base_clock_set_fake(fake_now, fake_mono);
    const struct CMUnitTest tests[] = {
        VT(now_and_uuid_generate_the_right_versions),
        VT(current_time_functions_follow_the_clock),
        VT(conversions_between_timeuuid_timestamp_and_date),
        VT(min_and_max_timeuuid_bracket_a_millisecond),
        VT(blob_conversions_validate_their_input),
        VT(function_errors_match_cassandra),
        VT(function_arguments_can_be_bound),
        VT(functions_work_inside_collections),
    };
    return cmocka_run_group_tests_name("cql/value_functions", tests, NULL, NULL);
}
