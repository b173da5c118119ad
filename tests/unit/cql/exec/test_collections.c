/*
 * Collections updated in place (assign.c): list element removal, prepend and
 * l[i] = v by the stored order, set additions, map entries written by key and
 * filtered with ALLOW FILTERING, and an IF condition on a map entry (lwt.c).
 */
#include "engine_test.h"


static void collections_update_in_place(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>, s set<text>, m map<text, int>)");
    ok(f, "INSERT INTO ks.c (k, l, s, m) VALUES (1, [1, 2, 3, 2], {'a', 'b'}, {'x': 1})");
    ok(f, "UPDATE ks.c SET l = l - [2], s = s + {'c'}, m['y'] = 2 WHERE k = 1");
    ok(f, "UPDATE ks.c SET l = [0] + l, l[1] = 10 WHERE k = 1");
    ok(f, "SELECT l, s, m FROM ks.c WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    /* l[1] indexes [0, 1, 3] as the prepend left it (Cassandra 4.0 applies the statement's
     * earlier operations to the row a list operation reads), so l = [0, 10, 3] */
    assert_int_equal(f->r.cells[0].len, 4 + 3 * 8);
    assert_int_equal((int32_t)base_load_u32(f->r.cells[0].ptr + 4 + 1 * 8 + 4), 10);
    assert_int_equal((int32_t)base_load_u32(f->r.cells[0].ptr + 4 + 2 * 8 + 4), 3);
    ok(f, "SELECT k FROM ks.c WHERE m['y'] = 2 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 1);
    ok(f, "SELECT k FROM ks.c WHERE m['y'] = 3 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 0);
    assert_int_equal(run(f, "SELECT k FROM ks.c WHERE m['y'] = 2"), BASE_ERROR);
    ok(f, "UPDATE ks.c SET s = {} WHERE k = 1 IF m['y'] = 5");
    assert_false(applied(f));
    ok(f, "UPDATE ks.c SET s = {} WHERE k = 1 IF m['y'] = 2");
    assert_true(applied(f));
}


static void list_index_past_the_end_is_refused(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>)");
    ok(f, "INSERT INTO ks.c (k, l) VALUES (1, [1, 2])");
    assert_int_equal(run(f, "UPDATE ks.c SET l[2] = 9 WHERE k = 1"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_string_equal(f->err.msg, "List index 2 out of bound, list has size 2");
}


/* One statement hands out more list element ids than one microsecond has (64): the
 * elements still come back in the order written. */
static void long_list_literals_keep_their_order(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>)");
    char q[2048] = "INSERT INTO ks.c (k, l) VALUES (1, [0";
    for (int i = 1; i < 200; i++) {
        snprintf(q + strlen(q), sizeof(q) - strlen(q), ", %d", i);
    }
    strcat(q, "])");
    ok(f, q);
    ok(f, "SELECT l FROM ks.c WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    const uint8_t *p = f->r.cells[0].ptr;
    assert_int_equal((int32_t)base_load_u32(p), 200);
    for (int i = 0; i < 200; i++) {
        assert_int_equal((int32_t)base_load_u32(p + 4 + (size_t)i * 8 + 4), i);
    }
}


static void list_element_deletion_by_index(void **state)
{
    fixture_t *f = *state;
    create_keyspace(f);
    ok(f, "CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>)");
    ok(f, "INSERT INTO ks.c (k, l) VALUES (1, [5, 6, 7])");
    ok(f, "DELETE l[1] FROM ks.c WHERE k = 1");
    ok(f, "SELECT l FROM ks.c WHERE k = 1");
    const uint8_t *p = f->r.cells[0].ptr;
    assert_int_equal((int32_t)base_load_u32(p), 2);
    assert_int_equal((int32_t)base_load_u32(p + 8), 5);
    assert_int_equal((int32_t)base_load_u32(p + 16), 7);
    assert_int_equal(run(f, "DELETE l[5] FROM ks.c WHERE k = 1"), BASE_ERROR);
    assert_string_equal(f->err.msg, "List index 5 out of bound, list has size 2");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(collections_update_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(list_index_past_the_end_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(long_list_literals_keep_their_order, setup, teardown),
        cmocka_unit_test_setup_teardown(list_element_deletion_by_index, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/collections", tests, NULL, NULL);
}
