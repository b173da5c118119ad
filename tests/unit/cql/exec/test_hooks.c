/*
 * The engine's hooks: an admission hook that refuses a statement (Overloaded)
 * leaves no effect, and a throughput hook that refuses a table's offer
 * leaves no table.
 */
#include "engine_test.h"


static int refuse_writes(void *ud, const cql_admission_t *a, base_error_t *err)
{
    fixture_t *f = ud;
    f->n_events += 100;
    if (a->kind == CQL_OP_WRITE) {
        assert_string_equal(a->shape, "INSERT INTO ks.t (k, v) VALUES (?, ?)");
        assert_true(a->has_token);
        return base_error_set(err, WIRE_ERR_OVERLOADED, "Request rate is large");
    }
    return BASE_OK;
}


static int64_t seen_throughput;

static int record_throughput(void *ud, const cql_throughput_t *tp, uint32_t *n_physical,
                             base_error_t *err)
{
    (void)ud;
    if (tp->table != NULL && tp->provisioned == 500) {
        return base_error_set(err, WIRE_ERR_INVALID, "bad offer");
    }
    if (tp->table != NULL && !tp->dropped) {
        seen_throughput = tp->provisioned;
        *n_physical = 3;
    }
    return BASE_OK;
}


static void hooks_refuse_statements_without_effect(void **state)
{
    fixture_t *f = *state;
    cql_hooks_t hooks = {.admit = refuse_writes, .throughput = record_throughput, .ud = f};
    cql_engine_set_hooks(f->e, &hooks);
    create_keyspace(f);
    assert_int_equal(run(f, "CREATE TABLE ks.bad (k int PRIMARY KEY) WITH "
                            "cosmosdb_provisioned_throughput = 500"),
                     BASE_ERROR);
    assert_string_equal(f->err.msg, "bad offer");
    assert_int_equal(run(f, "SELECT * FROM ks.bad"), BASE_ERROR);
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH cosmosdb_provisioned_throughput = "
          "30000");
    assert_int_equal(seen_throughput, 30000);
    assert_int_equal(run(f, "insert into ks.t (k, v)   values (1, 'x');"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_OVERLOADED);
    ok(f, "SELECT * FROM ks.t");
    assert_int_equal(f->r.n_rows, 0);
    assert_string_equal(f->r.stats.shape, "SELECT * FROM ks.t");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hooks_refuse_statements_without_effect, setup, teardown),
    };
    return cmocka_run_group_tests_name("cql/exec/hooks", tests, NULL, NULL);
}
