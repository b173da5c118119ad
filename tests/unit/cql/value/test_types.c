/* Unit tests for cql/types.c: native lookup, system_schema type names,
 * equality, deep copies and value compatibility. */
#include "value_test.h"

static void native_lookup_finds_every_type_and_aliases_varchar(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint16_t id;
    } cases[] = {
        {"ascii", WIRE_TYPE_ASCII},         {"bigint", WIRE_TYPE_BIGINT},
        {"blob", WIRE_TYPE_BLOB},           {"boolean", WIRE_TYPE_BOOLEAN},
        {"counter", WIRE_TYPE_COUNTER},     {"date", WIRE_TYPE_DATE},
        {"decimal", WIRE_TYPE_DECIMAL},     {"double", WIRE_TYPE_DOUBLE},
        {"duration", WIRE_TYPE_DURATION},   {"float", WIRE_TYPE_FLOAT},
        {"inet", WIRE_TYPE_INET},           {"int", WIRE_TYPE_INT},
        {"smallint", WIRE_TYPE_SMALLINT},   {"text", WIRE_TYPE_VARCHAR},
        {"varchar", WIRE_TYPE_VARCHAR},     {"time", WIRE_TYPE_TIME},
        {"timestamp", WIRE_TYPE_TIMESTAMP}, {"timeuuid", WIRE_TYPE_TIMEUUID},
        {"tinyint", WIRE_TYPE_TINYINT},     {"uuid", WIRE_TYPE_UUID},
        {"varint", WIRE_TYPE_VARINT},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const wire_type_t *t = cql__type_native(cases[i].name);
        assert_non_null(t);
        assert_int_equal(t->id, cases[i].id);
        assert_int_equal(t->n_sub, 0);
        /* Singletons: the same object every time. */
        assert_ptr_equal(t, cql__type_native(cases[i].name));
    }
    assert_ptr_equal(cql__type_native("text"), cql__type_native("varchar"));
    assert_ptr_equal(cql__type_native("TEXT"), cql__type_native("text"));
    assert_null(cql__type_native("list"));
    assert_null(cql__type_native("address"));
    assert_null(cql__type_native(""));
    assert_null(cql__type_native(NULL));
}


static void type_names_use_system_schema_spelling(void **state)
{
    (void)state;
    assert_string_equal(cql__type_name(T("varchar"), &ta), "text");
    assert_string_equal(cql__type_name(T("timeuuid"), &ta), "timeuuid");
    assert_string_equal(cql__type_name(map_of(T("text"), T("int")), &ta), "map<text, int>");
    assert_string_equal(cql__type_name(frozen(list_of(T("int"))), &ta), "frozen<list<int>>");
    assert_string_equal(cql__type_name(list_of(frozen(map_of(T("int"), T("text")))), &ta),
                        "list<frozen<map<int, text>>>");
    /* Nested collections print frozen even when the flag was not set. */
    assert_string_equal(cql__type_name(set_of(list_of(T("int"))), &ta), "set<frozen<list<int>>>");
    assert_string_equal(cql__type_name(tuple_of(2, T("int"), T("text")), &ta),
                        "frozen<tuple<int, text>>");
    const wire_type_t *sub[2] = {T("int"), T("varchar")};
    const wire_type_t *tup = cql__type_collection(&ta, WIRE_TYPE_TUPLE, false, sub, 2);
    assert_true(tup->frozen);
    assert_string_equal(cql__type_name(tup, &ta), "frozen<tuple<int, text>>");
    assert_string_equal(cql__type_name(list_of(tup), &ta), "list<frozen<tuple<int, text>>>");
    const wire_type_t *addr = udt_of("address", 1, "street", T("text"));
    assert_string_equal(cql__type_name(addr, &ta), "frozen<address>");
    wire_type_t *open = base_arena_memdup(&ta, addr, sizeof(*addr));
    open->frozen = false;
    assert_string_equal(cql__type_name(open, &ta), "address");
    assert_string_equal(cql__type_name(map_of(T("text"), open), &ta), "map<text, frozen<address>>");
    const wire_type_t *quoted = udt_of("My\"Type", 1, "f", T("int"));
    assert_string_equal(cql__type_name(quoted, &ta), "frozen<\"My\"\"Type\">");
    wire_type_t custom = {.id = WIRE_TYPE_CUSTOM, .custom_class = "org.example.T"};
    assert_string_equal(cql__type_name(&custom, &ta), "'org.example.T'");
}


static void equality_is_structural(void **state)
{
    (void)state;
    assert_true(cql__type_equal(list_of(T("int")), list_of(T("int"))));
    assert_false(cql__type_equal(list_of(T("int")), set_of(T("int"))));
    assert_false(cql__type_equal(list_of(T("int")), list_of(T("bigint"))));
    assert_true(cql__type_equal(T("text"), T("varchar")));
    assert_false(cql__type_equal(map_of(T("int"), T("int")), map_of(T("int"), T("text"))));
    assert_true(cql__type_equal(udt_of("a", 1, "f", T("int")), udt_of("a", 1, "f", T("int"))));
    assert_false(cql__type_equal(udt_of("a", 1, "f", T("int")), udt_of("b", 1, "f", T("int"))));
    assert_false(cql__type_equal(udt_of("a", 1, "f", T("int")), udt_of("a", 1, "g", T("int"))));
    assert_false(cql__type_equal(tuple_of(1, T("int")), tuple_of(2, T("int"), T("int"))));
    assert_false(cql__type_equal(T("int"), NULL));
}


static void clone_is_deep_and_free_accepts_natives(void **state)
{
    (void)state;
    const wire_type_t *addr =
        udt_of("address", 2, "street", T("text"), "tags", frozen(set_of(T("text"))));
    const wire_type_t *t = map_of(T("int"), addr);
    wire_type_t *c = cql__type_clone(t);
    assert_true(cql__type_equal(c, t));
    assert_ptr_not_equal(c->sub[1], addr);
    assert_ptr_not_equal(c->sub[1]->field_names[0], addr->field_names[0]);
    assert_string_equal(c->sub[1]->field_names[1], "tags");
    assert_string_equal(c->sub[1]->keyspace, "ks");
    assert_string_equal(cql__type_name(c, &ta), "map<int, frozen<address>>");
    cql__type_free(c);
    wire_type_t *n = cql__type_clone(T("int"));
    assert_int_equal(n->id, WIRE_TYPE_INT);
    cql__type_free(n);
    cql__type_free((wire_type_t *)T("int")); /* a no-op on singletons */
    cql__type_free(NULL);
    assert_int_equal(T("int")->id, WIRE_TYPE_INT);
}


static void collection_predicate(void **state)
{
    (void)state;
    assert_true(cql__type_is_collection(list_of(T("int"))));
    assert_true(cql__type_is_collection(set_of(T("int"))));
    assert_true(cql__type_is_collection(map_of(T("int"), T("int"))));
    assert_false(cql__type_is_collection(tuple_of(1, T("int"))));
    assert_false(cql__type_is_collection(T("blob")));
    assert_false(cql__type_is_collection(NULL));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        VT(native_lookup_finds_every_type_and_aliases_varchar),
        VT(type_names_use_system_schema_spelling),
        VT(equality_is_structural),
        VT(clone_is_deep_and_free_accepts_natives),
        VT(collection_predicate),
    };
    return cmocka_run_group_tests_name("cql/types", tests, NULL, NULL);
}
