/*
 * fuzz_engine.c - libFuzzer target for the whole CQL engine: each input is
 * a few statements separated by newlines, run against one schema with
 * tables of every shape. Whatever the statements, the engine answers with a
 * result or an error; it must never crash, leak or corrupt storage.
 */
#include "cql/cql.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const schema[] = {
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    ("CREATE TABLE ks.t (k int, c text, v blob, l list<int>, m map<text, int>, s set<uuid>, "
     "st int STATIC, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)"),
    "CREATE TABLE ks.p (a int, b bigint, c timestamp, d double, PRIMARY KEY ((a, b), c))",
    "CREATE TABLE ks.n (k text PRIMARY KEY, n counter)",
    "INSERT INTO ks.t (k, c, v, l, m) VALUES (1, 'a', 0x01, [1, 2], {'x': 1})",
    "INSERT INTO ks.p (a, b, c, d) VALUES (1, 2, '2024-01-01', 1.5)",
};


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    cfg.profile = size > 0 && (data[0] & 1) ? CQL_PROFILE_CASSANDRA : CQL_PROFILE_COSMOS;
    storage_db_t *db = storage_db_new();
    cql_engine_t *e = cql_engine_new(&cfg, db);
    cql_session_t *s = cql_session_new(e);
    base_arena_t a;
    base_arena_init(&a, 4096);
    cql_result_t r;
    base_error_t err;
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .page_size = 3, .paging_state = {NULL, -1}};
    for (size_t i = 0; i < sizeof(schema) / sizeof(schema[0]); i++) {
        base_arena_reset(&a);
        (void)cql_query(e, s, base_str_from(schema[i]), &p, &a, &r, &err);
    }
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            char *stmt = base_malloc(i - start + 1);
            memcpy(stmt, data + start, i - start);
            base_arena_reset(&a);
            base_str_t q = {stmt, i - start};
            (void)cql_query(e, s, q, &p, &a, &r, &err);
            base_free(stmt);
            start = i + 1;
        }
    }
    base_arena_fini(&a);
    cql_session_free(s);
    cql_engine_free(e);
    storage_db_free(db);
    return 0;
}
