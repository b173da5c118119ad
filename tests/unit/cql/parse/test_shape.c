/* Unit tests for cql/parse/shape.c: literals become '?', keywords are
 * upper-cased, and names keep the spelling the user gave them, also names
 * spelt like unreserved keywords (date, value, key, type). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cql/parse/parse.h"


static void assert_shape(const char *text, const char *want)
{
    base_arena_t a;
    base_arena_init(&a, 1024);
    const char *got = cql__shape(text, strlen(text), &a);
    if (strcmp(got, want) != 0) {
        fail_msg("shape of \"%s\"\n   got \"%s\"\n  want \"%s\"", text, got, want);
    }
    base_arena_fini(&a);
}


static void literals_become_markers_and_keywords_upper_case(void **state)
{
    (void)state;
    assert_shape("select * from t where id = 42", "SELECT * FROM t WHERE id = ?");
    assert_shape("SELECT *  FROM t WHERE id=7;", "SELECT * FROM t WHERE id = ?");
    assert_shape("insert into Ks.Orders (id, total) values ('a', -1.5) using ttl 10",
                 "INSERT INTO Ks.Orders (id, total) VALUES (?, ?) USING TTL ?");
}


static void names_spelt_like_keywords_keep_their_spelling(void **state)
{
    (void)state;
    assert_shape("SELECT date, value FROM iot.readings WHERE key = 'k' AND type IN (1, 2)",
                 "SELECT date, value FROM iot.readings WHERE key = ? AND type IN (?, ?)");
    assert_shape("select t.date from t order by date desc",
                 "SELECT t.date FROM t ORDER BY date DESC");
    assert_shape("update t set value = 1 where key = 2 if exists",
                 "UPDATE t SET value = ? WHERE key = ? IF EXISTS");
    assert_shape("insert into t (key, Value) values (1, 2) if not exists",
                 "INSERT INTO t (key, Value) VALUES (?, ?) IF NOT EXISTS");
    assert_shape("select count(*) from t", "SELECT COUNT(*) FROM t");
    assert_shape("select json * from t per partition limit 1 allow filtering",
                 "SELECT JSON * FROM t PER PARTITION LIMIT ? ALLOW FILTERING");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literals_become_markers_and_keywords_upper_case),
        cmocka_unit_test(names_spelt_like_keywords_keep_their_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
