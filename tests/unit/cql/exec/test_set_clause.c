/*
 * UPDATE's SET clause refusals: checked before the WHERE clause, as Cassandra prepares
 * the operations first, with the operation printed as Cassandra prints it (its terms as
 * written: "b.a = 0", "m['foo'] = 'bar'", "value = value + (1, 1)").
 */
#include "engine_test.h"


static void expect_refusal(fixture_t *f, const char *q, const char *msg)
{
    assert_int_equal(run(f, q), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_string_equal(f->err.msg, msg);
}


static void operations_quote_their_terms(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TYPE ks.u (a int)");
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, b frozen<u>, c int, m frozen<map<text, text>>, "
          "s set<int>, l frozen<list<int>>, value tuple<int, int>)");
    expect_refusal(f, "UPDATE ks.t SET b.a = 0 WHERE k = 0",
                   "Invalid operation (b.a = 0) for frozen UDT column b");
    expect_refusal(f, "UPDATE ks.t SET c.a = 0 WHERE k = 0",
                   "Invalid operation (c.a = 0) for non-UDT column c");
    expect_refusal(f, "UPDATE ks.t SET m['foo'] = 'bar' WHERE k = 0",
                   "Invalid operation (m['foo'] = 'bar') for frozen collection column m");
    expect_refusal(f, "UPDATE ks.t SET s[1] = 2 WHERE k = 0",
                   "Invalid operation (s[1] = 2) for set column s");
    expect_refusal(f, "UPDATE ks.t SET c['x'] = 1 WHERE k = 0",
                   "Invalid operation (c['x'] = 1) for non collection column c");
    expect_refusal(f, "UPDATE ks.t SET l = l + [1, 2] WHERE k = 0",
                   "Invalid operation (l = l + [1, 2]) for frozen collection column l");
    expect_refusal(f, "UPDATE ks.t SET l = [1] + l WHERE k = 0",
                   "Invalid operation (l = [1] + l) for frozen list column l");
    expect_refusal(f, "UPDATE ks.t SET c = c - 1 WHERE k = 0",
                   "Invalid operation (c = c - 1) for non counter column c");
    expect_refusal(f, "UPDATE ks.t SET value += (1, 1) WHERE k = 0",
                   "Invalid operation (value = value + (1, 1)) for tuple column value");
}


static void the_set_clause_is_checked_before_the_where_clause(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.t (pk int PRIMARY KEY, value tuple<int, int>, n int)");
    expect_refusal(f, "UPDATE ks.t SET value += (1, 1) WHERE k = 0",
                   "Invalid operation (value = value + (1, 1)) for tuple column value");
    expect_refusal(f, "UPDATE ks.t SET x = 1 WHERE k = 0", "Undefined column name x");
    expect_refusal(f, "UPDATE ks.t SET n = 1 WHERE k = 0", "Undefined column name k");
    ok(f, "UPDATE ks.t SET n = 1 WHERE pk = 0");
}


/* The list l of row pk = 1 as "1,2,3" (toJson's text without brackets and spaces). */
static const char *list_text(fixture_t *f)
{
    ok(f, "SELECT toJson(l) FROM ks.l WHERE pk = 1");
    static char buf[256];
    const wire_value_t *v = &f->r.cells[0];
    size_t n = 0;
    for (int32_t i = 0; i < v->len && n + 1 < sizeof(buf); i++) {
        char ch = (char)v->ptr[i];
        if (ch != '[' && ch != ']' && ch != ' ') {
            buf[n++] = ch;
        }
    }
    buf[n] = '\0';
    return buf;
}


static void list_operations_of_one_statement_see_each_other(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.l (pk int PRIMARY KEY, l list<int>)");
    ok(f, "INSERT INTO ks.l (pk, l) VALUES (1, [1, 2, 3, 4])");
    ok(f, "UPDATE ks.l SET l[2] = 9, l[2] = 6 WHERE pk = 1");
    assert_string_equal(list_text(f), "1,2,9,4"); /* one timestamp: the greater value wins */
    ok(f, "DELETE l[2], l[2] FROM ks.l WHERE pk = 1");
    assert_string_equal(list_text(f), "1,2");
    ok(f, "UPDATE ks.l SET l = l + [3, 4], l[3] = 7 WHERE pk = 1");
    assert_string_equal(list_text(f), "1,2,3,7");
    ok(f, "UPDATE ks.l SET l = l + [6, 8], l[4] = 5 WHERE pk = 1");
    assert_string_equal(list_text(f), "1,2,3,7,6,8");
    assert_int_equal(run(f, "UPDATE ks.l SET l[6] = 5, l = l + [9] WHERE pk = 1"), BASE_ERROR);
    assert_string_equal(f->err.msg, "List index 6 out of bound, list has size 6");
    ok(f, "UPDATE ks.l SET l[2] = 8, l = l - [8] WHERE pk = 1");
    assert_string_equal(list_text(f), "1,2,7,6");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(operations_quote_their_terms, setup, teardown),
        cmocka_unit_test_setup_teardown(the_set_clause_is_checked_before_the_where_clause, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(list_operations_of_one_statement_see_each_other,
                                        setup_cassandra, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/set_clause", tests, NULL, NULL);
}
