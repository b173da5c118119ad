/*
 * Component tests of the cql engine over in-memory storage: DDL, writes,
 * reads with clustering order, paging, prepared statements, system tables
 * and the errors drivers and users see.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cql/cql.h"

typedef struct fixture_s {
    storage_db_t *db;
    cql_engine_t *e;
    cql_session_t *s;
    base_arena_t a;
    cql_result_t r;
    base_error_t err;
    int n_events;
} fixture_t;


static void on_schema(void *ud, const wire_schema_change_t *sc)
{
    (void)sc;
    ((fixture_t *)ud)->n_events++;
}


static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    f->db = storage_db_new();
    f->e = cql_engine_new(&cfg, f->db);
    f->s = cql_session_new(f->e);
    cql_engine_set_listener(f->e, on_schema, f);
    base_arena_init(&f->a, 0);
    *state = f;
    return 0;
}


static int teardown(void **state)
{
    fixture_t *f = *state;
    base_arena_fini(&f->a);
    cql_session_free(f->s);
    cql_engine_free(f->e);
    storage_db_free(f->db);
    free(f);
    return 0;
}


static int run_params(fixture_t *f, const char *q, const wire_query_params_t *p)
{
    base_arena_reset(&f->a);
    base_error_clear(&f->err);
    return cql_query(f->e, f->s, base_str_from(q), p, &f->a, &f->r, &f->err);
}


static int run(fixture_t *f, const char *q)
{
    wire_query_params_t p = {.consistency = WIRE_CL_QUORUM, .paging_state = {NULL, -1}};
    return run_params(f, q, &p);
}


static void ok(fixture_t *f, const char *q)
{
    int rc = run(f, q);
    if (rc != BASE_OK) {
        fail_msg("%s -> %s", q, f->err.msg);
    }
}


static int32_t cell_int(const fixture_t *f, size_t row, size_t col)
{
    const wire_value_t *v = &f->r.cells[row * f->r.n_cols + col];
    assert_int_equal(v->len, 4);
    return (int32_t)base_load_u32(v->ptr);
}


static void creates_table_and_reads_newest_first(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "USE ks");
    assert_int_equal(f->r.kind, WIRE_RESULT_SET_KEYSPACE);
    ok(f, "CREATE TABLE events (user_id int, ts int, v text, PRIMARY KEY (user_id, ts)) WITH "
          "CLUSTERING ORDER BY (ts DESC)");
    assert_int_equal(f->r.kind, WIRE_RESULT_SCHEMA_CHANGE);
    assert_int_equal(f->n_events, 2);
    char q[128];
    for (int i = 0; i < 20; i++) {
        snprintf(q, sizeof(q), "INSERT INTO events (user_id, ts, v) VALUES (1, %d, 'e%d')", i, i);
        ok(f, q);
    }
    ok(f, "INSERT INTO events (user_id, ts, v) VALUES (2, 5, 'other')");
    ok(f, "SELECT ts, v FROM events WHERE user_id = 1 LIMIT 5");
    assert_int_equal(f->r.kind, WIRE_RESULT_ROWS);
    assert_int_equal(f->r.n_rows, 5);
    assert_int_equal(cell_int(f, 0, 0), 19);
    assert_int_equal(cell_int(f, 4, 0), 15);
    ok(f, "SELECT ts FROM events WHERE user_id = 1 AND ts >= 3 AND ts < 7 ORDER BY ts ASC");
    assert_int_equal(f->r.n_rows, 4);
    assert_int_equal(cell_int(f, 0, 0), 3);
    assert_int_equal(cell_int(f, 3, 0), 6);
    ok(f, "SELECT count(*) FROM events");
    assert_int_equal(f->r.n_rows, 1);
}


static void pages_through_a_partition(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.t (k int, c int, PRIMARY KEY (k, c))");
    char q[128];
    for (int i = 0; i < 25; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.t (k, c) VALUES (%d, %d)", i % 3, i);
        ok(f, q);
    }
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .page_size = 4, .paging_state = {NULL, -1}};
    size_t total = 0;
    uint8_t state_buf[256];
    for (int page = 0; page < 20; page++) {
        assert_int_equal(run_params(f, "SELECT * FROM ks.t", &p), BASE_OK);
        total += f->r.n_rows;
        if (f->r.paging_state.len < 0) {
            break;
        }
        assert_true(f->r.paging_state.len <= (int32_t)sizeof(state_buf));
        memcpy(state_buf, f->r.paging_state.ptr, (size_t)f->r.paging_state.len);
        p.paging_state.ptr = state_buf;
        p.paging_state.len = f->r.paging_state.len;
    }
    assert_int_equal(total, 25);
}


static void refuses_unknown_primary_key_column_and_creates_nothing(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    assert_int_equal(run(f, "CREATE TABLE ks.bad (a int, b int, PRIMARY KEY (a, nope))"),
                     BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    assert_string_equal(f->err.msg, "Unknown definition nope referenced in PRIMARY KEY");
    assert_int_equal(run(f, "SELECT * FROM ks.bad"), BASE_ERROR);
    assert_string_equal(f->err.msg, "unconfigured table bad");
}


static void serves_system_tables_drivers_read(void **state)
{
    fixture_t *f = *state;
    ok(f, "SELECT * FROM system.local WHERE key='local'");
    assert_int_equal(f->r.n_rows, 1);
    ok(f, "SELECT schema_version FROM system.local");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.cells[0].len, 16);
    ok(f, "SELECT * FROM system.peers");
    assert_int_equal(f->r.n_rows, 0);
    assert_int_equal(run(f, "SELECT * FROM system.peers_v2"), BASE_ERROR);
    assert_string_equal(f->err.msg, "unconfigured table peers_v2");
    ok(f, "SELECT * FROM system_schema.keyspaces");
    assert_true(f->r.n_rows >= 5);
    ok(f, "SELECT * FROM system_schema.columns WHERE keyspace_name = 'system' AND table_name = "
          "'local'");
    assert_int_equal(f->r.n_rows, 18);
    const char *tables[] = {"tables",     "columns",  "types",   "functions",
                            "aggregates", "triggers", "indexes", "views"};
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        char q[96];
        snprintf(q, sizeof(q), "SELECT * FROM system_schema.%s", tables[i]);
        ok(f, q);
    }
}


static void prepared_statement_binds_by_position(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.users (id int PRIMARY KEY, name text)");
    base_arena_reset(&f->a);
    const char *ins = "INSERT INTO ks.users (id, name) VALUES (?, ?)";
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(ins), &f->a, &f->r, &f->err), BASE_OK);
    assert_int_equal(f->r.kind, WIRE_RESULT_PREPARED);
    assert_int_equal(f->r.n_binds, 2);
    assert_string_equal(f->r.binds[1].name, "name");
    assert_int_equal(f->r.n_pk_indexes, 1);
    uint8_t id[16];
    memcpy(id, f->r.prepared_id, 16);
    uint8_t k[4] = {0, 0, 0, 7};
    wire_value_t vals[2] = {{k, 4}, {(const uint8_t *)"ann", 3}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 2, .values = vals, .paging_state = {NULL, -1}};
    wire_value_t idv = {id, 16};
    assert_int_equal(cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err), BASE_OK);
    ok(f, "SELECT name FROM ks.users WHERE id = 7");
    assert_int_equal(f->r.n_rows, 1);
    assert_memory_equal(f->r.cells[0].ptr, "ann", 3);
    /* a table change drops cached statements: drivers re-prepare and see the new columns */
    ok(f, "ALTER TABLE ks.users ADD email text");
    assert_int_equal(cql_execute(f->e, f->s, idv, &p, &f->a, &f->r, &f->err), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
    /* a prepared DROP KEYSPACE of the keyspace it was prepared in */
    ok(f, "USE ks");
    base_arena_reset(&f->a);
    const char *drop = "DROP KEYSPACE ks";
    assert_int_equal(cql_prepare(f->e, f->s, base_str_from(drop), &f->a, &f->r, &f->err), BASE_OK);
    uint8_t drop_id[16];
    memcpy(drop_id, f->r.prepared_id, 16);
    wire_value_t drop_idv = {drop_id, 16};
    wire_query_params_t none = {.consistency = WIRE_CL_ONE, .paging_state = {NULL, -1}};
    assert_int_equal(cql_execute(f->e, f->s, drop_idv, &none, &f->a, &f->r, &f->err), BASE_OK);
    assert_null(cql_session_keyspace(f->s));
    uint8_t unknown[16] = {1};
    wire_value_t bad = {unknown, 16};
    assert_int_equal(cql_execute(f->e, f->s, bad, &p, &f->a, &f->r, &f->err), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_UNPREPARED);
}


static void filtering_needs_allow_filtering(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 10)");
    ok(f, "INSERT INTO ks.t (k, c, v) VALUES (1, 2, 20)");
    assert_int_equal(run(f, "SELECT * FROM ks.t WHERE v = 10"), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_INVALID);
    ok(f, "SELECT * FROM ks.t WHERE v = 10 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 1);
    ok(f, "UPDATE ks.t SET v = 30 WHERE k = 1 AND c = 2");
    ok(f, "SELECT v FROM ks.t WHERE k = 1 AND c = 2");
    assert_int_equal(cell_int(f, 0, 0), 30);
    ok(f, "DELETE FROM ks.t WHERE k = 1 AND c = 1");
    ok(f, "SELECT * FROM ks.t WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
}


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
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
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


static void cosmos_limits_rows_to_2mb_and_pages_to_4mb(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.blobs (k int, c int, b blob, PRIMARY KEY (k, c))");
    const char *ins = "INSERT INTO ks.blobs (k, c, b) VALUES (1, ?, ?)";
    static uint8_t big[2200000];
    uint8_t c[4] = {0, 0, 0, 0};
    wire_value_t vals[2] = {{c, 4}, {big, sizeof(big)}};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 2, .values = vals, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, ins, &p), BASE_ERROR);
    assert_int_equal(f->err.code, WIRE_ERR_WRITE_FAILURE);
    vals[1].len = 1000000;
    for (uint8_t i = 0; i < 6; i++) {
        c[3] = i;
        assert_int_equal(run_params(f, ins, &p), BASE_OK);
    }
    wire_query_params_t q = {
        .consistency = WIRE_CL_ONE, .page_size = 100, .paging_state = {NULL, -1}};
    assert_int_equal(run_params(f, "SELECT * FROM ks.blobs WHERE k = 1", &q), BASE_OK);
    assert_int_equal(f->r.n_rows, 5);
    assert_true(f->r.paging_state.len > 0);
    /* a row that grows past 2 MB through updates is refused too */
    ok(f, "CREATE TABLE ks.grow (k int PRIMARY KEY, a blob, b blob, c blob)");
    const char *cols[] = {"a", "b", "c"};
    wire_value_t one[1] = {{big, 900000}};
    wire_query_params_t p1 = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = one, .paging_state = {NULL, -1}};
    for (int i = 0; i < 3; i++) {
        char q2[96];
        snprintf(q2, sizeof(q2), "UPDATE ks.grow SET %s = ? WHERE k = 1", cols[i]);
        assert_int_equal(run_params(f, q2, &p1), i < 2 ? BASE_OK : BASE_ERROR);
    }
    assert_int_equal(f->err.code, WIRE_ERR_WRITE_FAILURE);
    /* overwriting a stored value in place does not add to the row */
    assert_int_equal(run_params(f, "UPDATE ks.grow SET a = ? WHERE k = 1", &p1), BASE_OK);
    assert_int_equal(run_params(f, "SELECT * FROM ks.blobs WHERE k = 1", &q), BASE_OK);
    assert_int_equal(f->r.n_rows, 5);
    assert_true(f->r.paging_state.len > 0);
}


static void collections_and_counters_update_in_place(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>, s set<text>, m map<text, int>)");
    ok(f, "INSERT INTO ks.c (k, l, s, m) VALUES (1, [1, 2, 3, 2], {'a', 'b'}, {'x': 1})");
    ok(f, "UPDATE ks.c SET l = l - [2], s = s + {'c'}, m['y'] = 2 WHERE k = 1");
    ok(f, "UPDATE ks.c SET l = [0] + l, l[1] = 10 WHERE k = 1");
    ok(f, "SELECT l, s, m FROM ks.c WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    /* l[1] indexes the stored [1, 3], so l = [0, 1, 10] */
    assert_int_equal(f->r.cells[0].len, 4 + 3 * 8);
    assert_int_equal((int32_t)base_load_u32(f->r.cells[0].ptr + 4 + 2 * 8 + 4), 10);
    ok(f, "SELECT k FROM ks.c WHERE m['y'] = 2 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 1);
    ok(f, "SELECT k FROM ks.c WHERE m['y'] = 3 ALLOW FILTERING");
    assert_int_equal(f->r.n_rows, 0);
    assert_int_equal(run(f, "SELECT k FROM ks.c WHERE m['y'] = 2"), BASE_ERROR);
    ok(f, "UPDATE ks.c SET s = {} WHERE k = 1 IF m['y'] = 5");
    assert_int_equal(f->r.cells[0].ptr[0], 0); /* [applied] false */
    ok(f, "UPDATE ks.c SET s = {} WHERE k = 1 IF m['y'] = 2");
    assert_int_equal(f->r.cells[0].ptr[0], 1);
    ok(f, "CREATE TABLE ks.hits (page text PRIMARY KEY, n counter)");
    ok(f, "UPDATE ks.hits SET n = n + 5 WHERE page = 'home'");
    ok(f, "UPDATE ks.hits SET n = n - 2 WHERE page = 'home'");
    ok(f, "SELECT n FROM ks.hits WHERE page = 'home'");
    assert_int_equal((int64_t)base_load_u64(f->r.cells[0].ptr), 3);
    /* two increments of one counter in one batch add up */
    ok(f, "BEGIN COUNTER BATCH UPDATE ks.hits SET n = n + 10 WHERE page = 'home'; "
          "UPDATE ks.hits SET n = n + 100 WHERE page = 'home'; APPLY BATCH");
    ok(f, "SELECT n FROM ks.hits WHERE page = 'home'");
    assert_int_equal((int64_t)base_load_u64(f->r.cells[0].ptr), 113);
}


static void insert_json_and_select_json_round_trip(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.j (id uuid PRIMARY KEY, n int, at timestamp, tags list<text>, "
          "attrs map<text, int>, ok boolean, b blob)");
    ok(f, "INSERT INTO ks.j JSON '{\"id\": \"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\", "
          "\"n\": \"42\", \"at\": \"2024-01-02 03:04:05.678Z\", \"tags\": [\"a\", "
          "\"b\"], \"attrs\": {\"x\": 1}, \"ok\": true, \"b\": \"0xcafe\"}'");
    ok(f, "SELECT n, tags FROM ks.j WHERE id = 6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 0), 42);
    ok(f, "SELECT JSON n, ok FROM ks.j");
    assert_int_equal(f->r.n_cols, 1);
    assert_string_equal(f->r.cols[0].name, "[json]");
    assert_memory_equal(f->r.cells[0].ptr, "{\"n\": 42, \"ok\": true}", (size_t)f->r.cells[0].len);
    assert_int_equal(run(f, "INSERT INTO ks.j JSON '{\"id\": \"6ab09bec-e68e-48d9-a5f8-"
                            "97e6fb4c9b47\", \"nope\": 1}'"),
                     BASE_ERROR);
    assert_string_equal(f->err.msg, "JSON values map contains unrecognized column: nope");
    assert_int_equal(run(f, "INSERT INTO ks.j JSON '{\"n\": 1}'"), BASE_ERROR);
    assert_int_equal(run(f, "INSERT INTO ks.j JSON '{\"id\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['"),
                     BASE_ERROR);
}


static void group_by_aggregates_per_partition(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.g (k int, c int, v int, PRIMARY KEY (k, c))");
    char q[96];
    for (int i = 0; i < 9; i++) {
        snprintf(q, sizeof(q), "INSERT INTO ks.g (k, c, v) VALUES (%d, %d, %d)", i % 3, i, i);
        ok(f, q);
    }
    ok(f, "SELECT k, count(*), sum(v), max(v) FROM ks.g GROUP BY k");
    assert_int_equal(f->r.n_rows, 3);
    ok(f, "SELECT k, count(*) FROM ks.g GROUP BY k LIMIT 2");
    assert_int_equal(f->r.n_rows, 2);
    ok(f, "SELECT k, sum(v) FROM ks.g WHERE k = 1 GROUP BY k");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(cell_int(f, 0, 1), 1 + 4 + 7);
    ok(f, "SELECT CAST(v AS text), CAST(v AS bigint), CAST(v AS double) FROM ks.g WHERE k = 1 "
          "AND c = 4");
    assert_int_equal(f->r.n_rows, 1);
    assert_string_equal(f->r.cols[0].name, "cast(v as text)");
    assert_memory_equal(f->r.cells[0].ptr, "4", 1);
    assert_int_equal((int64_t)base_load_u64(f->r.cells[1].ptr), 4);
    assert_int_equal(f->r.cells[2].len, 8);
    assert_int_equal(run(f, "SELECT CAST(v AS list<int>) FROM ks.g"), BASE_ERROR);
    /* integer sums stay exact past 2^53 */
    ok(f, "CREATE TABLE ks.big (k int, c int, n bigint, PRIMARY KEY (k, c))");
    ok(f, "INSERT INTO ks.big (k, c, n) VALUES (1, 1, 9007199254740993)");
    ok(f, "INSERT INTO ks.big (k, c, n) VALUES (1, 2, 2)");
    ok(f, "SELECT sum(n) FROM ks.big WHERE k = 1");
    assert_int_equal((int64_t)base_load_u64(f->r.cells[0].ptr), 9007199254740995LL);
    assert_int_equal(run(f, "SELECT count(*) FROM ks.g GROUP BY c"), BASE_ERROR);
    /* the service's refusals (cosmos profile) */
    assert_int_equal(run(f, "SELECT DISTINCT k FROM ks.g"), BASE_ERROR);
    assert_int_equal(run(f, "SELECT min(c) FROM ks.g WHERE k = 1"), BASE_ERROR);
}


static void selects_user_type_fields(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "USE ks");
    ok(f, "CREATE TYPE address (street text, zip int)");
    ok(f, "CREATE TABLE people (id int PRIMARY KEY, home frozen<address>)");
    ok(f, "INSERT INTO people (id, home) VALUES (1, {street: 'Main', zip: 12345})");
    ok(f, "SELECT home.zip, home.street FROM people WHERE id = 1");
    assert_int_equal(f->r.n_rows, 1);
    assert_string_equal(f->r.cols[0].name, "home.zip");
    assert_int_equal(cell_int(f, 0, 0), 12345);
    assert_int_equal(run(f, "SELECT home.nope FROM people"), BASE_ERROR);
    /* a frozen value is replaced whole; a non-frozen one field by field */
    assert_int_equal(run(f, "UPDATE people SET home.zip = 1 WHERE id = 1"), BASE_ERROR);
    ok(f, "CREATE TABLE places (id int PRIMARY KEY, addr address)");
    ok(f, "UPDATE places SET addr.zip = 777 WHERE id = 1");
    ok(f, "UPDATE places SET addr.street = 'Elm' WHERE id = 1");
    ok(f, "SELECT addr.zip, addr.street FROM places WHERE id = 1");
    assert_int_equal(cell_int(f, 0, 0), 777);
    assert_memory_equal(f->r.cells[1].ptr, "Elm", 3);
    ok(f, "SELECT * FROM system_schema.types WHERE keyspace_name = 'ks'");
    assert_int_equal(f->r.n_rows, 1);
}


static void batches_apply_all_or_nothing(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.b (k int, c int, v text, PRIMARY KEY (k, c))");
    assert_int_equal(run(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, c) VALUES (1, 1); "
                            "INSERT INTO ks.b (k, c, nope) VALUES (1, 2, 3); APPLY BATCH"),
                     BASE_ERROR);
    ok(f, "SELECT * FROM ks.b");
    assert_int_equal(f->r.n_rows, 0);
    ok(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, c) VALUES (1, 1) IF NOT EXISTS; "
          "INSERT INTO ks.b (k, c) VALUES (1, 2) IF NOT EXISTS; APPLY BATCH");
    ok(f, "BEGIN UNLOGGED BATCH INSERT INTO ks.b (k, c) VALUES (1, 1) IF NOT EXISTS; "
          "INSERT INTO ks.b (k, c) VALUES (1, 3) IF NOT EXISTS; APPLY BATCH");
    ok(f, "SELECT * FROM ks.b WHERE k = 1");
    assert_int_equal(f->r.n_rows, 2); /* the second batch's condition failed: no (1, 3) */
    assert_int_equal(run(f, "BEGIN BATCH INSERT INTO ks.b (k, c) VALUES (9, 9); APPLY BATCH"),
                     BASE_ERROR);
    assert_true(strstr(f->err.msg, "Logged batches are not supported") != NULL);
}


static int setup_cassandra(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    cfg.profile = CQL_PROFILE_CASSANDRA;
    f->db = storage_db_new();
    f->e = cql_engine_new(&cfg, f->db);
    f->s = cql_session_new(f->e);
    base_arena_init(&f->a, 0);
    *state = f;
    return 0;
}


static void cassandra_profile_batch_guardrails(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.b (k int PRIMARY KEY, v text)");
    base_buf_t q;
    base_buf_init(&q);
    base_buf_printf(&q, "BEGIN BATCH ");
    for (int i = 0; i < 12; i++) {
        base_buf_printf(&q, "INSERT INTO ks.b (k, v) VALUES (%d, '%0600d'); ", i, i);
    }
    base_buf_printf(&q, "APPLY BATCH");
    base_buf_put_u8(&q, 0);
    ok(f, (const char *)q.data);
    assert_int_equal(f->r.n_warnings, 1);
    assert_true(strncmp(f->r.warnings[0], "Batch for [ks.b] is of size ", 28) == 0);
    base_buf_reset(&q);
    base_buf_printf(&q, "BEGIN UNLOGGED BATCH ");
    for (int i = 0; i < 100; i++) {
        base_buf_printf(&q, "INSERT INTO ks.b (k, v) VALUES (%d, '%0600d'); ", i, i);
    }
    base_buf_printf(&q, "APPLY BATCH");
    base_buf_put_u8(&q, 0);
    assert_int_equal(run(f, (const char *)q.data), BASE_ERROR);
    assert_string_equal(f->err.msg, "Batch too large");
    base_buf_fini(&q);
    /* tombstones: a warning past 1000 scanned by one read */
    ok(f, "CREATE TABLE ks.ts (k int, c int, PRIMARY KEY (k, c))");
    char stmt[96];
    for (int i = 0; i < 1100; i++) {
        snprintf(stmt, sizeof(stmt), "INSERT INTO ks.ts (k, c) VALUES (1, %d)", i);
        ok(f, stmt);
        snprintf(stmt, sizeof(stmt), "DELETE FROM ks.ts WHERE k = 1 AND c = %d", i);
        ok(f, stmt);
    }
    ok(f, "SELECT * FROM ks.ts WHERE k = 1");
    assert_int_equal(f->r.n_rows, 0);
    assert_int_equal(f->r.n_warnings, 1);
    assert_true(strstr(f->r.warnings[0], "1100 tombstone cells") != NULL);
}


static void multi_column_relations_slice_the_clustering_key(void **state)
{
    fixture_t *f = *state;
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    ok(f, "CREATE TABLE ks.mc (k int, a int, b int, v int, PRIMARY KEY (k, a, b))");
    ok(f, "CREATE TABLE ks.md (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING "
          "ORDER BY (a DESC, b DESC)");
    char q[96];
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            snprintf(q, sizeof(q), "INSERT INTO ks.mc (k, a, b, v) VALUES (1, %d, %d, %d)", a, b,
                     a * 3 + b);
            ok(f, q);
            snprintf(q, sizeof(q), "INSERT INTO ks.md (k, a, b) VALUES (1, %d, %d)", a, b);
            ok(f, q);
        }
    }
    ok(f, "SELECT v FROM ks.mc WHERE k = 1 AND (a, b) > (0, 1) AND (a, b) <= (2, 0)");
    assert_int_equal(f->r.n_rows, 5); /* (0,2) (1,0) (1,1) (1,2) (2,0) */
    assert_int_equal(cell_int(f, 0, 0), 2);
    assert_int_equal(cell_int(f, 4, 0), 6);
    ok(f, "SELECT v FROM ks.mc WHERE k = 1 AND (a, b) IN ((2, 2), (0, 0))");
    assert_int_equal(f->r.n_rows, 2);
    ok(f, "SELECT a, b FROM ks.md WHERE k = 1 AND (a, b) < (1, 1)");
    assert_int_equal(f->r.n_rows, 4); /* (1,0) (0,2) (0,1) (0,0), newest first */
    assert_int_equal(cell_int(f, 0, 0), 1);
    assert_int_equal(run(f, "SELECT * FROM ks.mc WHERE k = 1 AND (b, a) > (1, 1)"), BASE_ERROR);
    assert_int_equal(run(f, "SELECT * FROM ks.mc WHERE k = 1 AND a = 1 AND (a, b) > (1, 1)"),
                     BASE_ERROR);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(creates_table_and_reads_newest_first, setup, teardown),
        cmocka_unit_test_setup_teardown(pages_through_a_partition, setup, teardown),
        cmocka_unit_test_setup_teardown(refuses_unknown_primary_key_column_and_creates_nothing,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(serves_system_tables_drivers_read, setup, teardown),
        cmocka_unit_test_setup_teardown(prepared_statement_binds_by_position, setup, teardown),
        cmocka_unit_test_setup_teardown(filtering_needs_allow_filtering, setup, teardown),
        cmocka_unit_test_setup_teardown(hooks_refuse_statements_without_effect, setup, teardown),
        cmocka_unit_test_setup_teardown(cosmos_limits_rows_to_2mb_and_pages_to_4mb, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(collections_and_counters_update_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(insert_json_and_select_json_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(group_by_aggregates_per_partition, setup, teardown),
        cmocka_unit_test_setup_teardown(selects_user_type_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(batches_apply_all_or_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(multi_column_relations_slice_the_clustering_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(cassandra_profile_batch_guardrails, setup_cassandra,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cql/engine", tests, NULL, NULL);
}
