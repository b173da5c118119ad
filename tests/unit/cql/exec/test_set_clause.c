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


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(operations_quote_their_terms, setup, teardown),
        cmocka_unit_test_setup_teardown(the_set_clause_is_checked_before_the_where_clause, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/set_clause", tests, NULL, NULL);
}
