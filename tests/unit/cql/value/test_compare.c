/* Unit tests for cql/value/compare.c: Cassandra's orderings per type. */
#include "value_test.h"

static int cmp(const wire_type_t *t, const char *a, const char *b)
{
    int c = cql__value_compare(t, hexv(a), hexv(b));
    /* Antisymmetry holds for every pair we try. */
    int r = cql__value_compare(t, hexv(b), hexv(a));
    assert_int_equal(c<0, r> 0);
    assert_int_equal(c == 0, r == 0);
    return c < 0 ? -1 : c > 0;
}


static void integers_compare_signed_and_empty_first(void **state)
{
    (void)state;
    assert_int_equal(cmp(T("int"), "ffffffff", "00000001"), -1);
    assert_int_equal(cmp(T("int"), "80000000", "7fffffff"), -1);
    assert_int_equal(cmp(T("int"), "00000005", "00000005"), 0);
    assert_int_equal(cmp(T("bigint"), "8000000000000000", "0000000000000000"), -1);
    assert_int_equal(cmp(T("smallint"), "ff00", "0001"), -1);
    assert_int_equal(cmp(T("tinyint"), "80", "7f"), -1);
    assert_int_equal(cmp(T("timestamp"), "ffffffffffffffff", "0000000000000000"), -1);
    assert_int_equal(cmp(T("int"), "", "80000000"), -1);
    assert_int_equal(cmp(T("int"), "", ""), 0);
    /* Dates are unsigned days with the epoch at 2^31. */
    assert_int_equal(cmp(T("date"), "7fffffff", "80000000"), -1);
    assert_int_equal(cmp(T("date"), "00000000", "ffffffff"), -1);
    assert_int_equal(cmp(T("boolean"), "00", "01"), -1);
    assert_int_equal(cmp(T("boolean"), "01", "05"), 0);
}


static void floats_compare_like_java(void **state)
{
    (void)state;
    const char *order[] = {
        "fff0000000000000", /* -Infinity */
        "c000000000000000", /* -2 */
        "8000000000000000", /* -0.0 */
        "0000000000000000", /* 0.0 */
        "0000000000000001", /* smallest subnormal */
        "3ff0000000000000", /* 1 */
        "7ff0000000000000", /* +Infinity */
        "7ff8000000000000", /* NaN */
    };
    for (size_t i = 0; i + 1 < sizeof(order) / sizeof(order[0]); i++) {
        assert_int_equal(cmp(T("double"), order[i], order[i + 1]), -1);
    }
    assert_int_equal(cmp(T("double"), "7ff8000000000000", "fff8000000000001"), 0); /* NaNs */
    assert_int_equal(cmp(T("float"), "80000000", "00000000"), -1);
    assert_int_equal(cmp(T("float"), "7fc00000", "7f800000"), 1);
    assert_int_equal(cmp(T("float"), "bf800000", "3f800000"), -1);
}


static void varints_and_decimals_compare_numerically(void **state)
{
    (void)state;
    assert_int_equal(cmp(T("varint"), "ff", "00"), -1);
    assert_int_equal(cmp(T("varint"), "0080", "7f"), 1);
    assert_int_equal(cmp(T("varint"), "ff7f", "80"), -1);
    assert_int_equal(cmp(T("varint"), "000001", "01"), 0); /* non-minimal */
    assert_int_equal(cmp(T("varint"), "ffffff", "ff"), 0); /* non-minimal -1 */
    assert_int_equal(cmp(T("varint"), "010000000000000000", "7fffffffffffffff"), 1);
    assert_int_equal(cmp(T("varint"), "ff0000000000000000", "8000000000000000"), -1);
    /* 1.0 == 1.00, 1.5 > 1.25, -1 < -0.5, 1E+3 == 1000 */
    assert_int_equal(cmp(T("decimal"), "000000010a", "0000000264"), 0);
    assert_int_equal(cmp(T("decimal"), "000000010f", "000000027d"), 1);
    assert_int_equal(cmp(T("decimal"), "00000000ff", "00000001fb"), -1);
    assert_int_equal(cmp(T("decimal"), "fffffffd01", "0000000003e8"), 0);
    assert_int_equal(cmp(T("decimal"), "0000000500", "fffffffb00"), 0); /* zeros */
    assert_int_equal(cmp(T("decimal"), "00000000", "0000000000"), 0);   /* empty unscaled */
    assert_int_equal(cmp(T("decimal"), "0000000a01", "00000000ff"), 1); /* 1e-10 > -1 */
}


static void uuids_order_by_version_then_time(void **state)
{
    (void)state;
    /* uuid: version first (v1 < v4 whatever the bytes) */
    assert_int_equal(
        cmp(T("uuid"), "ffffffffffff1fffbfffffffffffffff", "00000000000040008000000000000000"), -1);
    /* v1: the timestamp (bytes 6,7,4,5,0..3) decides before byte order */
    assert_int_equal(
        cmp(T("uuid"), "ffffffff000011e58000000000000000", "00000000000111e58000000000000000"), -1);
    /* v4: unsigned bytes */
    assert_int_equal(
        cmp(T("uuid"), "7f000000000040008000000000000000", "80000000000040008000000000000000"), -1);
    /* timeuuid: time first, then clock/node bytes compared signed */
    assert_int_equal(
        cmp(T("timeuuid"), "ffffffff000011e58000000000000000", "00000000000111e58000000000000000"),
        -1);
    assert_int_equal(
        cmp(T("timeuuid"), "00000000000011e58000000000000000", "00000000000011e57f00000000000000"),
        -1);
    assert_int_equal(
        cmp(T("timeuuid"), "00000000000011e58080808080808080", "00000000000011e57f7f7f7f7f7f7f7f"),
        -1);
}


static void bytes_types_compare_unsigned(void **state)
{
    (void)state;
    assert_int_equal(cmp(T("text"), "61", "62"), -1);
    assert_int_equal(cmp(T("text"), "61", "6100"), -1);
    assert_int_equal(cmp(T("text"), "7f", "c3a9"), -1);
    assert_int_equal(cmp(T("blob"), "ff", "00ff"), 1);
    assert_int_equal(cmp(T("inet"), "7f000001", "7f000002"), -1);
    assert_int_equal(cmp(T("ascii"), "", "00"), -1);
}


static void collections_compare_element_wise_shorter_first(void **state)
{
    (void)state;
    const wire_type_t *li = frozen(list_of(T("int")));
    assert_int_equal(cmp(li,
                         "00000001"
                         "0000000400000002",
                         "00000002"
                         "0000000400000001"
                         "0000000400000009"),
                     1);
    assert_int_equal(cmp(li,
                         "00000001"
                         "0000000400000001",
                         "00000002"
                         "0000000400000001"
                         "0000000400000000"),
                     -1);
    assert_int_equal(cmp(li, "00000000",
                         "00000001"
                         "00000004ffffffff"),
                     -1);
    const wire_type_t *mt = frozen(map_of(T("int"), T("text")));
    assert_int_equal(cmp(mt,
                         "00000001"
                         "0000000400000001"
                         "0000000162",
                         "00000001"
                         "0000000400000001"
                         "0000000161"),
                     1);
    const wire_type_t *tt = tuple_of(2, T("int"), T("text"));
    assert_int_equal(cmp(tt, "ffffffff", "0000000400000000"), -1); /* null first */
    assert_int_equal(cmp(tt, "0000000400000001",
                         "0000000400000001"
                         "ffffffff"),
                     0);
    assert_int_equal(cmp(tt, "0000000400000001",
                         "0000000400000001"
                         "0000000161"),
                     -1);
    assert_int_equal(cmp(tt, "0000000400000002",
                         "0000000400000001"
                         "0000000161"),
                     1);
}


static void malformed_values_sort_after_valid_ones(void **state)
{
    (void)state;
    assert_int_equal(cmp(T("int"), "000001", "7fffffff"), 1);
    assert_int_equal(cmp(T("int"), "000001", "000002"), -1);
    assert_int_equal(cmp(frozen(list_of(T("int"))), "0000", "00000000"), 1);
    /* A tuple whose tail is cut inside a component header ends the walk (it used to spin on
     * the unread bytes with an unset element) and sorts after the complete one. */
    const wire_type_t *tt = tuple_of(2, T("int"), T("text"));
    assert_int_equal(cmp(tt, "00000004000000010000", "0000000400000001"), 1);
    assert_int_equal(cmp(tt, "00000004000000010000000861", "0000000400000001ffffffff"), 1);
    /* null sorts before everything */
    assert_int_equal(cql__value_compare(T("int"), (wire_value_t){NULL, -1}, hexv("")), -1);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(integers_compare_signed_and_empty_first),
        VT(floats_compare_like_java),
        VT(varints_and_decimals_compare_numerically),
        VT(uuids_order_by_version_then_time),
        VT(bytes_types_compare_unsigned),
        VT(collections_compare_element_wise_shorter_first),
        VT(malformed_values_sort_after_valid_ones),
    };
    return cmocka_run_group_tests_name("cql/value_compare", tests, NULL, NULL);
}
