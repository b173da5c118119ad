/* Unit tests for cql/collection.c: splitting and building serialized
 * lists, sets and maps, and normalisation of bound collections. */
#include "cql/value/value_int.h"
#include "value_test.h"

static void split_and_build_round_trip(void **state)
{
    (void)state;
    const wire_type_t *lt = list_of(T("int"));
    wire_value_t v = hexv("00000002"
                          "0000000400000001"
                          "0000000400000002");
    wire_value_t *keys, *vals;
    assert_int_equal(cql__collection_split(lt, v, &ta, &keys, &vals), 2);
    assert_null(vals);
    assert_string_equal(tohex(keys[0]), "00000001");
    assert_string_equal(tohex(keys[1]), "00000002");
    assert_string_equal(tohex(cql__collection_build(lt, keys, NULL, 2, &ta)), tohex(v));
    const wire_type_t *mt = map_of(T("text"), T("int"));
    wire_value_t m = hexv("00000001"
                          "0000000161"
                          "0000000400000007");
    assert_int_equal(cql__collection_split(mt, m, &ta, &keys, &vals), 1);
    assert_string_equal(tohex(keys[0]), "61");
    assert_string_equal(tohex(vals[0]), "00000007");
    assert_string_equal(tohex(cql__collection_build(mt, keys, vals, 1, &ta)), tohex(m));
    assert_string_equal(tohex(cql__collection_build(set_of(T("int")), NULL, NULL, 0, &ta)),
                        "00000000");
}


static void split_keeps_null_elements_and_accepts_empty_values(void **state)
{
    (void)state;
    wire_value_t *keys, *vals;
    const wire_type_t *mt = map_of(T("text"), T("int"));
    assert_int_equal(cql__collection_split(mt,
                                           hexv("00000001"
                                                "0000000161"
                                                "ffffffff"),
                                           &ta, &keys, &vals),
                     1);
    assert_int_equal(vals[0].len, WIRE_VALUE_NULL);
    assert_int_equal(cql__collection_split(mt, hexv(""), &ta, &keys, &vals), 0);
    wire_value_t in[2] = {textv("a"), {NULL, WIRE_VALUE_NULL}};
    assert_string_equal(tohex(cql__collection_build(list_of(T("text")), in, NULL, 2, &ta)),
                        "00000002"
                        "0000000161"
                        "ffffffff");
}


static void split_rejects_malformed_bytes(void **state)
{
    (void)state;
    const wire_type_t *lt = list_of(T("int"));
    static const char *const bad[] = {
        "00",
        "ffffffff",
        "7fffffff"
        "00000000",
        "00000002"
        "0000000400000001",
        "00000001"
        "0000000500000001",
        "00000001"
        "0000000400000001"
        "00",
    };
    wire_value_t *keys, *vals;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(cql__collection_split(lt, hexv(bad[i]), &ta, &keys, &vals), -1);
    }
    assert_int_equal(cql__collection_split(lt, hexv(NULL), &ta, &keys, &vals), -1);
    assert_int_equal(cql__collection_split(T("int"), hexv("00000000"), &ta, &keys, &vals), -1);
    assert_int_equal(cql__collection_split(map_of(T("int"), T("int")),
                                           hexv("00000001"
                                                "0000000400000001"),
                                           &ta, &keys, &vals),
                     -1);
}


static void normalize_sorts_sets_and_maps_at_every_depth(void **state)
{
    (void)state;
    /* map<int, frozen<set<int>>> {2: {3, 1, 3}, 1: {}} -> {1: {}, 2: {1, 3}} */
    const wire_type_t *t = map_of(T("int"), frozen(set_of(T("int"))));
    wire_value_t v = hexv("00000002"
                          "0000000400000002"
                          "0000001c"
                          "00000003"
                          "0000000400000003"
                          "0000000400000001"
                          "0000000400000003"
                          "0000000400000001"
                          "00000004"
                          "00000000");
    assert_int_equal(cql__value_validate(t, v, &terr), BASE_OK);
    wire_value_t n = cql__value_normalize(t, v, &ta);
    assert_string_equal(tohex(n), "00000002"
                                  "0000000400000001"
                                  "00000004"
                                  "00000000"
                                  "0000000400000002"
                                  "00000014"
                                  "00000002"
                                  "0000000400000001"
                                  "0000000400000003");
    /* Maps keep the last duplicate key, sets the first. */
    const wire_type_t *mt = map_of(T("int"), T("int"));
    wire_value_t dup = hexv("00000002"
                            "0000000400000001"
                            "0000000400000005"
                            "0000000400000001"
                            "0000000400000006");
    assert_string_equal(tohex(cql__value_normalize(mt, dup, &ta)), "00000001"
                                                                   "0000000400000001"
                                                                   "0000000400000006");
    /* Lists and scalars come back untouched. */
    wire_value_t l = hexv("00000002"
                          "0000000400000002"
                          "0000000400000001");
    assert_ptr_equal(cql__value_normalize(list_of(T("int")), l, &ta).ptr, l.ptr);
    /* A tuple holding a set is normalised inside. */
    const wire_type_t *tt = tuple_of(2, T("int"), frozen(set_of(T("text"))));
    wire_value_t tv = hexv("0000000400000001"
                           "0000000e"
                           "00000002"
                           "0000000162"
                           "0000000161");
    assert_string_equal(tohex(cql__value_normalize(tt, tv, &ta)), "0000000400000001"
                                                                  "0000000e"
                                                                  "00000002"
                                                                  "0000000161"
                                                                  "0000000162");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(split_and_build_round_trip),
        VT(split_keeps_null_elements_and_accepts_empty_values),
        VT(split_rejects_malformed_bytes),
        VT(normalize_sorts_sets_and_maps_at_every_depth),
    };
    return cmocka_run_group_tests_name("cql/value_collection", tests, NULL, NULL);
}
