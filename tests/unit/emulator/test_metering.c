/*
 * Unit tests for emulator/metering.c: the cql_stats_t -> ru_op_t mapping,
 * the --cost-model and --prices loaders (good and bad files), the request
 * size limit, and the hooks driven through a real cql engine on a fake
 * clock (throughput from DDL, throttling, warnings, charges).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/metering.h"

/* ---- helpers ----------------------------------------------------------------- */

static char tmp_path[64];

/* Writes text to a fresh temporary file; returns its path (tmp_path). */
static const char *temp_file(const char *text)
{
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/emu-metering-XXXXXX");
    int fd = mkstemp(tmp_path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return tmp_path;
}

static emu_metering_t *metering_with(emu_config_t *cfg, const char *model, char *msg)
{
    emu_config_init(cfg);
    cfg->cost_model_file = base_strdup(temp_file(model));
    emu_metering_t *m = emu_metering_new(cfg, msg, 256);
    unlink(cfg->cost_model_file);
    return m;
}

/* The repository's ru_meter/cost_model.json, found from this file's path. */
static char *shipped_cost_model(void)
{
    const char *here = __FILE__;
    const char *tail = strstr(here, "tests/unit/emulator/");
    assert_non_null(tail);
    size_t n = (size_t)(tail - here);
    char *path = base_malloc(n + sizeof("ru_meter/cost_model.json"));
    memcpy(path, here, n);
    memcpy(path + n, "ru_meter/cost_model.json", sizeof("ru_meter/cost_model.json"));
    return path;
}

static emu_metering_t *metering_with_prices(emu_config_t *cfg, const char *prices, char *msg)
{
    emu_config_init(cfg);
    cfg->prices_file = base_strdup(temp_file(prices));
    emu_metering_t *m = emu_metering_new(cfg, msg, 256);
    unlink(cfg->prices_file);
    return m;
}

/* ---- stats -> op ------------------------------------------------------------------ */

static void every_cql_kind_maps_onto_its_ru_kind(void **state)
{
    (void)state;
    const struct {
        cql_op_kind_t cql;
        ru_op_kind_t ru;
    } kinds[] = {
        {CQL_OP_NONE, RU_OP_NONE},     {CQL_OP_READ, RU_OP_READ}, {CQL_OP_WRITE, RU_OP_WRITE},
        {CQL_OP_DELETE, RU_OP_DELETE}, {CQL_OP_DDL, RU_OP_DDL},   {CQL_OP_BATCH, RU_OP_BATCH},
        {CQL_OP_LWT, RU_OP_LWT},
    };
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        cql_stats_t st = {.kind = kinds[i].cql};
        ru_op_t op;
        emu_metering_op(&st, false, &op);
        assert_int_equal(op.kind, kinds[i].ru);
    }
}

static void a_read_keeps_its_counters_flags_and_consistency(void **state)
{
    (void)state;
    cql_stats_t st = {
        .kind = CQL_OP_READ,
        .point_read = false,
        .cross_partition = true,
        .allow_filtering = true,
        .index_lookup = true,
        .rows_read = 42,
        .bytes_read = 9000,
        .rows_returned = 3,
        .consistency = 0x0004,
        .n_indexes = 2,
    };
    ru_op_t op;
    emu_metering_op(&st, true, &op);
    assert_int_equal(op.kind, RU_OP_READ);
    assert_true(op.cross_partition);
    assert_true(op.allow_filtering);
    assert_true(op.index_lookup);
    assert_false(op.point_read);
    assert_true(op.failed);
    assert_int_equal(op.rows_read, 42);
    assert_int_equal(op.bytes_read, 9000);
    assert_int_equal(op.consistency, 0x0004);
    assert_int_equal(op.n_indexes, 2);
    assert_int_equal(op.n_physical, 0); /* the meter fills it in */
}

static void a_write_keeps_rows_bytes_and_overwrites(void **state)
{
    (void)state;
    cql_stats_t st = {
        .kind = CQL_OP_WRITE, .rows_written = 1, .bytes_written = 900, .overwrites = 1};
    ru_op_t op;
    emu_metering_op(&st, false, &op);
    assert_int_equal(op.rows_written, 1);
    assert_int_equal(op.bytes_written, 900);
    assert_int_equal(op.overwrites, 1);
    assert_int_equal(op.rows_deleted, 0);
}

static void a_delete_is_priced_as_deletions_not_writes(void **state)
{
    (void)state;
    /* cql counts the tombstone in rows_written and a live row as overwritten */
    cql_stats_t st = {.kind = CQL_OP_DELETE,
                      .rows_written = 1,
                      .bytes_written = 40,
                      .overwrites = 1,
                      .rows_deleted = 1};
    ru_op_t op;
    emu_metering_op(&st, false, &op);
    assert_int_equal(op.kind, RU_OP_DELETE);
    assert_int_equal(op.rows_deleted, 1);
    assert_int_equal(op.rows_written, 0);
    assert_int_equal(op.overwrites, 0);
    assert_int_equal(op.bytes_written, 0); /* the tombstone's bytes price no write */
    ru_model_t model;
    ru_model_defaults(&model);
    assert_true(ru_cost(&model, RU_CONSISTENCY_SESSION, &op) == 5.5);
}

static void a_batch_splits_its_writes_from_its_deletions(void **state)
{
    (void)state;
    cql_stats_t st = {.kind = CQL_OP_BATCH,
                      .rows_written = 5,
                      .bytes_written = 5 * 500,
                      .overwrites = 0,
                      .rows_deleted = 2,
                      .n_statements = 5};
    ru_op_t op;
    emu_metering_op(&st, false, &op);
    assert_int_equal(op.rows_written, 3);
    assert_int_equal(op.rows_deleted, 2);
    assert_int_equal(op.n_statements, 5);
    ru_model_t model;
    ru_model_defaults(&model);
    assert_true(ru_cost(&model, RU_CONSISTENCY_SESSION, &op) == 5 * 5.5);
}

/* ---- cost model and prices files ------------------------------------------------------ */

static void the_shipped_cost_model_loads_as_the_defaults(void **state)
{
    (void)state;
    emu_config_t cfg;
    char msg[256];
    emu_config_init(&cfg);
    cfg.cost_model_file = shipped_cost_model();
    emu_metering_t *m = emu_metering_new(&cfg, msg, sizeof(msg));
    if (m == NULL) {
        fail_msg("%s", msg);
    }
    ru_model_t def;
    ru_model_defaults(&def);
    const ru_model_t *got = &ru_meter_config(emu_metering_meter(m))->model;
    for (size_t i = 0; ru_model_name(i) != NULL; i++) {
        double a, b;
        ru_model_get(&def, ru_model_name(i), &a);
        ru_model_get(got, ru_model_name(i), &b);
        assert_true(a == b);
    }
    emu_metering_free(m);
    emu_config_fini(&cfg);
}

static void a_cost_model_file_overrides_the_coefficients_it_names(void **state)
{
    (void)state;
    emu_config_t cfg;
    char msg[256];
    emu_metering_t *m = metering_with(
        &cfg, "{\"_about\": \"calibrated\", \"write_1kb\": 7, \"_doc\": {\"x\": 1}}", msg);
    assert_non_null(m);
    const ru_model_t *model = &ru_meter_config(emu_metering_meter(m))->model;
    assert_true(model->write_1kb == 7.0);
    assert_true(model->point_read_1kb == 1.0); /* untouched */
    emu_metering_free(m);
    emu_config_fini(&cfg);
}

static void a_cost_model_with_an_unknown_key_is_refused_by_name(void **state)
{
    (void)state;
    emu_config_t cfg;
    char msg[256];
    assert_null(metering_with(&cfg, "{\"write_1kb\": 5, \"wrtie_per_index\": 1}", msg));
    assert_non_null(strstr(msg, "unknown coefficient 'wrtie_per_index'"));
    assert_non_null(strstr(msg, "--cost-model"));
    emu_config_fini(&cfg);
}

static void bad_cost_model_files_are_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "{\"write_1kb\": -1}",      /* negative */
        "{\"write_1kb\": \"5.5\"}", /* not a number */
        "[1, 2]",                   /* not an object */
        "{\"write_1kb\": 5.5",      /* truncated */
        "",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        emu_config_t cfg;
        char msg[256] = "";
        assert_null(metering_with(&cfg, bad[i], msg));
        assert_non_null(strstr(msg, "--cost-model"));
        emu_config_fini(&cfg);
    }
    emu_config_t cfg;
    char msg[256];
    emu_config_init(&cfg);
    cfg.cost_model_file = base_strdup("/nonexistent/cost.json");
    assert_null(emu_metering_new(&cfg, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "/nonexistent/cost.json"));
    emu_config_fini(&cfg);
}

static void a_prices_file_is_parsed_into_the_price_table(void **state)
{
    (void)state;
    emu_config_t cfg;
    char msg[256];
    emu_metering_t *m = metering_with_prices(
        &cfg,
        "{\"_source\": \"EU list\", \"manual_per_100_hour\": 0.0096, \"regions\": 2, "
        "\"multi_region_writes\": true, \"as_of\": \"2024-01 West Europe\"}",
        msg);
    if (m == NULL) {
        fail_msg("%s", msg);
    }
    const ru_prices_t *p = emu_metering_prices(m);
    ru_prices_t def;
    ru_prices_defaults(&def);
    assert_true(p->manual_per_100_hour == 0.0096);
    assert_int_equal(p->regions, 2);
    assert_true(p->multi_region_writes);
    assert_string_equal(p->as_of, "2024-01 West Europe");
    assert_true(p->serverless_per_million == def.serverless_per_million);
    emu_metering_free(m);
    emu_config_fini(&cfg);
}

static void bad_prices_files_are_refused_by_key(void **state)
{
    (void)state;
    const struct {
        const char *json;
        const char *want;
    } bad[] = {
        {"{\"manual_per_hour\": 1}", "unknown key 'manual_per_hour'"},
        {"{\"regions\": 0}", "'regions' must be a whole number"},
        {"{\"multi_region_writes\": 1}", "'multi_region_writes' must be true or false"},
        {"{\"as_of\": 2024}", "'as_of' must be a string"},
        {"{\"autoscale_factor\": -1.5}", "'autoscale_factor' must be a number >= 0"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        emu_config_t cfg;
        char msg[256] = "";
        assert_null(metering_with_prices(&cfg, bad[i].json, msg));
        if (strstr(msg, bad[i].want) == NULL) {
            fail_msg("%s: got '%s'", bad[i].json, msg);
        }
        emu_config_fini(&cfg);
    }
}

/* ---- request size ------------------------------------------------------------------------ */

static void a_request_over_2_mb_is_a_write_failure_in_the_cosmos_profile(void **state)
{
    (void)state;
    emu_config_t cfg;
    char msg[256];
    emu_config_init(&cfg);
    emu_metering_t *m = emu_metering_new(&cfg, msg, sizeof(msg));
    wire_request_t req = {.opcode = WIRE_OP_QUERY};
    req.u.query.params.consistency = WIRE_CL_LOCAL_QUORUM;
    base_error_t err;
    assert_int_equal(emu_metering_check_request(m, &req, EMU_MAX_REQUEST_BYTES, &err), BASE_OK);
    assert_int_equal(emu_metering_check_request(m, &req, EMU_MAX_REQUEST_BYTES + 1, &err),
                     BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_WRITE_FAILURE);
    assert_non_null(strstr(err.msg, "Request size is too large"));
    /* <cl><received 0><blockfor 1><numfailures 1><string SIMPLE> */
    const uint8_t detail[] = {0, 6, 0, 0, 0, 0,   0,   0,   0,   1,   0,
                              0, 0, 1, 0, 6, 'S', 'I', 'M', 'P', 'L', 'E'};
    assert_int_equal(err.detail_len, sizeof(detail));
    assert_memory_equal(err.detail, detail, sizeof(detail));
    emu_metering_free(m);
    emu_config_fini(&cfg);

    emu_config_init(&cfg);
    cfg.profile = CQL_PROFILE_CASSANDRA;
    m = emu_metering_new(&cfg, msg, sizeof(msg));
    assert_int_equal(emu_metering_check_request(m, &req, 10u * 1024 * 1024, &err), BASE_OK);
    emu_metering_free(m);
    emu_config_fini(&cfg);
}

/* ---- through a real engine on a fake clock --------------------------------------------------- */

static int64_t fake_now;

static int64_t fake_clock(void)
{
    return fake_now;
}

typedef struct fixture_s {
    emu_config_t cfg;
    emu_metering_t *m;
    storage_db_t *db;
    cql_engine_t *e;
    cql_session_t *s;
    base_arena_t a;
    cql_result_t r;
    base_error_t err;
    emu_admission_t adm;
    double charge;
} fixture_t;

static fixture_t *fixture(bool rate_limiting, bool serverless)
{
    fixture_t *f = calloc(1, sizeof(*f));
    char msg[256];
    fake_now = 1000000000;
    base_clock_set_fake(NULL, fake_clock); /* the meter's clock; cql keeps real timestamps */
    emu_config_init(&f->cfg);
    f->cfg.rate_limiting = rate_limiting;
    f->cfg.serverless = serverless;
    f->m = emu_metering_new(&f->cfg, msg, sizeof(msg));
    assert_non_null(f->m);
    cql_config_t cc;
    cql_config_defaults(&cc);
    f->db = storage_db_new();
    f->e = cql_engine_new(&cc, f->db);
    emu_metering_attach(f->m, f->e);
    f->s = cql_session_new(f->e);
    base_arena_init(&f->a, 0);
    return f;
}

static void fixture_free(fixture_t *f)
{
    base_arena_fini(&f->a);
    cql_session_free(f->s);
    cql_engine_free(f->e);
    storage_db_free(f->db);
    emu_metering_free(f->m);
    emu_config_fini(&f->cfg);
    base_clock_set_fake(NULL, NULL);
    free(f);
}

/* Runs q as dispatch does: begin, execute, read the admission, charge. */
static int run(fixture_t *f, const char *q)
{
    wire_query_params_t p = {.consistency = WIRE_CL_LOCAL_ONE, .paging_state = {NULL, -1}};
    base_arena_reset(&f->a);
    base_error_clear(&f->err);
    memset(&f->r, 0, sizeof(f->r));
    emu_metering_begin(f->m, emu_metering_now_us());
    int rc = cql_query(f->e, f->s, base_str_from(q), &p, &f->a, &f->r, &f->err);
    emu_metering_admission(f->m, &f->adm);
    f->charge = emu_metering_charge(f->m, &f->r, rc != BASE_OK, rc != BASE_OK && f->adm.throttled);
    return rc;
}

static void ok(fixture_t *f, const char *q)
{
    if (run(f, q) != BASE_OK) {
        fail_msg("%s -> %s", q, f->err.msg);
    }
}

static void charges_follow_the_model_for_each_operation(void **state)
{
    (void)state;
    fixture_t *f = fixture(false, false);
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}");
    assert_true(f->charge == 0.0);
    ok(f, "CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'a')");
    assert_true(f->adm.admitted);
    assert_true(f->charge == 5.5);
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'b')");
    assert_true(f->charge == 11.0); /* an overwrite costs twice */
    ok(f, "SELECT * FROM ks.t WHERE k = 1 AND c = 1");
    assert_true(f->charge == 1.0);
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (2, 1, 'a') IF NOT EXISTS");
    assert_true(f->charge > 5.5);
    ok(f, "SELECT * FROM ks.t");
    assert_true(f->charge > 2.5);
    ok(f, "DELETE FROM ks.t WHERE k = 2 AND c = 1");
    assert_true(f->charge > 0.0);

    ru_snapshot_t snap;
    ru_meter_snapshot(emu_metering_meter(f->m), emu_metering_now_us(), &snap);
    assert_int_equal(snap.n_tables, 1);
    assert_string_equal(snap.tables[0].table, "t");
    assert_int_equal(snap.total.count, 6);
    assert_true(snap.n_shapes >= 5);
    bool seen = false;
    for (size_t i = 0; i < snap.n_shapes; i++) {
        seen |= strstr(snap.shapes[i].shape, "INSERT INTO ks.t") != NULL &&
                strstr(snap.shapes[i].shape, "?") != NULL;
    }
    assert_true(seen);
    ru_snapshot_fini(&snap);
    fixture_free(f);
}

static void throughput_options_are_validated_and_applied(void **state)
{
    (void)state;
    fixture_t *f = fixture(true, false);
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}");
    assert_int_equal(run(f, "CREATE TABLE ks.bad (k int PRIMARY KEY) WITH "
                            "cosmosdb_provisioned_throughput = 450"),
                     BASE_ERROR);
    assert_int_equal(f->err.code, 0x2200);
    assert_non_null(strstr(f->err.msg, "increments of 100"));
    ok(f, "CREATE TABLE ks.big (k int PRIMARY KEY) WITH cosmosdb_provisioned_throughput = 30000");
    ru_meter_t *meter = emu_metering_meter(f->m);
    assert_int_equal(ru_meter_partition_count(meter, "ks", "big"), 3);
    ok(f, "ALTER TABLE ks.big WITH cosmosdb_autoscale_max_throughput = 50000");
    assert_int_equal(ru_meter_partition_count(meter, "ks", "big"), 5);
    ok(f, "CREATE KEYSPACE shared WITH replication = {'class': 'SimpleStrategy'} AND "
          "cosmosdb_provisioned_throughput = 1000");
    ok(f, "CREATE TABLE shared.t (k int PRIMARY KEY)");
    ru_snapshot_t snap;
    ru_meter_snapshot(meter, emu_metering_now_us(), &snap);
    bool found = false;
    for (size_t i = 0; i < snap.n_tables; i++) {
        if (strcmp(snap.tables[i].keyspace, "shared") == 0) {
            found = true;
            assert_true(snap.tables[i].shared);
            assert_int_equal(snap.tables[i].throughput.ru_s, 1000);
        }
    }
    assert_true(found);
    ru_snapshot_fini(&snap);
    fixture_free(f);
}

static void serverless_refuses_any_throughput(void **state)
{
    (void)state;
    fixture_t *f = fixture(true, true);
    assert_int_equal(run(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'} "
                            "AND cosmosdb_provisioned_throughput = 400"),
                     BASE_ERROR);
    assert_non_null(strstr(f->err.msg, "serverless"));
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}");
    assert_int_equal(run(f, "CREATE TABLE ks.t (k int PRIMARY KEY) WITH "
                            "cosmosdb_autoscale_max_throughput = 4000"),
                     BASE_ERROR);
    assert_non_null(strstr(f->err.msg, "serverless"));
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY)");
    fixture_free(f);
}

/* Writes until refused; returns how many passed. */
static int flood(fixture_t *f, const char *table, int max)
{
    char q[128];
    for (int i = 0; i < max; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.%s (k, v) VALUES (%d, 'x')", table, i);
        if (run(f, q) != BASE_OK) {
            return i;
        }
    }
    return max;
}

static void a_table_over_its_throughput_is_throttled_with_the_service_message(void **state)
{
    (void)state;
    fixture_t *f = fixture(true, false);
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}");
    ok(f,
       "CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH cosmosdb_provisioned_throughput = 400");
    int passed = flood(f, "t", 1000);
    /* one second's budget of 400 RU at 5.5 RU a write, then refused */
    assert_in_range(passed, 60, 80);
    assert_int_equal(f->err.code, WIRE_ERR_OVERLOADED);
    assert_true(f->adm.throttled);
    assert_true(f->charge == 0.0);
    assert_true(strncmp(f->err.msg, "Request rate is large: ActivityID=", 34) == 0);
    const char *second = strchr(f->err.msg, ',');
    assert_non_null(second);
    int ms = 0;
    assert_int_equal(sscanf(second, ", RetryAfterMs=%d,", &ms), 1);
    assert_in_range(ms, 1, 1000);
    assert_int_equal(ms, f->adm.retry_after_ms);
    /* the refused write had no effect */
    char q[64];
    snprintf(q, sizeof(q), "SELECT * FROM ks.t WHERE k = %d", passed);
    fake_now += 2000000;
    ok(f, q);
    assert_int_equal(f->r.n_rows, 0);
    /* a second later the budget is back */
    assert_true(flood(f, "t", 10) == 10);

    ru_snapshot_t snap;
    ru_meter_snapshot(emu_metering_meter(f->m), emu_metering_now_us(), &snap);
    assert_int_equal(snap.total.throttled, 1);
    ru_snapshot_fini(&snap);
    fixture_free(f);
}

static void rate_limiting_off_lets_it_through_with_a_warning(void **state)
{
    (void)state;
    fixture_t *f = fixture(false, false);
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}");
    ok(f, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    int warned = -1;
    char q[64];
    for (int i = 0; i < 200 && warned < 0; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.t (k, v) VALUES (%d, 'x')", i);
        ok(f, q);
        if (f->adm.would_throttle) {
            warned = i;
        }
    }
    assert_in_range(warned, 60, 80);
    assert_non_null(f->adm.warning);
    assert_non_null(strstr(f->adm.warning, "would have throttled"));
    assert_true(f->charge == 5.5); /* it ran and is charged */
    /* each warning names its own table and wait, though the text is reused */
    char want[64];
    ok(f, "CREATE TABLE ks.u (k int PRIMARY KEY, v text)");
    const char *order[] = {"u", "t", "t", "u", "t"};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        for (int k = 0; k < 200; k++) {
            snprintf(q, sizeof(q), "INSERT INTO ks.%s (k, v) VALUES (%d, 'x')", order[i], k);
            ok(f, q);
            if (f->adm.would_throttle) {
                break;
            }
        }
        assert_true(f->adm.would_throttle);
        snprintf(want, sizeof(want), "RetryAfterMs=%d) on ks.%s,", f->adm.retry_after_ms, order[i]);
        assert_non_null(strstr(f->adm.warning, want));
        fake_now += 1000; /* another wait */
    }
    fake_now += 10 * 1000000;
    ok(f, "INSERT INTO ks.t (k, v) VALUES (1, 'x')");
    assert_false(f->adm.would_throttle);
    assert_null(f->adm.warning);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_cql_kind_maps_onto_its_ru_kind),
        cmocka_unit_test(a_read_keeps_its_counters_flags_and_consistency),
        cmocka_unit_test(a_write_keeps_rows_bytes_and_overwrites),
        cmocka_unit_test(a_delete_is_priced_as_deletions_not_writes),
        cmocka_unit_test(a_batch_splits_its_writes_from_its_deletions),
        cmocka_unit_test(the_shipped_cost_model_loads_as_the_defaults),
        cmocka_unit_test(a_cost_model_file_overrides_the_coefficients_it_names),
        cmocka_unit_test(a_cost_model_with_an_unknown_key_is_refused_by_name),
        cmocka_unit_test(bad_cost_model_files_are_refused),
        cmocka_unit_test(a_prices_file_is_parsed_into_the_price_table),
        cmocka_unit_test(bad_prices_files_are_refused_by_key),
        cmocka_unit_test(a_request_over_2_mb_is_a_write_failure_in_the_cosmos_profile),
        cmocka_unit_test(charges_follow_the_model_for_each_operation),
        cmocka_unit_test(throughput_options_are_validated_and_applied),
        cmocka_unit_test(serverless_refuses_any_throughput),
        cmocka_unit_test(a_table_over_its_throughput_is_throttled_with_the_service_message),
        cmocka_unit_test(rate_limiting_off_lets_it_through_with_a_warning),
    };
    return cmocka_run_group_tests_name("emulator/metering", tests, NULL, NULL);
}
