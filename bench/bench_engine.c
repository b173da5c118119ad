/*
 * bench_engine.c - throughput and memory of the CQL engine over in-memory
 * storage, without the network: prepared inserts, point reads, partition
 * slices and a full scan, as a test suite would drive the emulator. Prints
 * figures; asserts nothing (benchmarks measure, tests assert).
 *
 *   build/bench_engine [rows]        (default 200000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cql/cql.h"

static cql_engine_t *engine;
static cql_session_t *session;
static base_arena_t arena;


static void must(int rc, const base_error_t *err, const char *what)
{
    if (rc != BASE_OK) {
        fprintf(stderr, "%s: %s\n", what, err->msg);
        exit(1);
    }
}


static void query(const char *q)
{
    cql_result_t r;
    base_error_t err;
    wire_query_params_t p = {.consistency = WIRE_CL_ONE, .paging_state = {NULL, -1}};
    base_arena_reset(&arena);
    must(cql_query(engine, session, base_str_from(q), &p, &arena, &r, &err), &err, q);
}


static void prepare(const char *q, uint8_t id[16])
{
    cql_result_t r;
    base_error_t err;
    base_arena_reset(&arena);
    must(cql_prepare(engine, session, base_str_from(q), &arena, &r, &err), &err, q);
    memcpy(id, r.prepared_id, 16);
}


static size_t execute_page(const uint8_t id[16], wire_value_t *vals, size_t n, int32_t page,
                           uint8_t *state, int32_t *state_len)
{
    cql_result_t r;
    base_error_t err;
    wire_query_params_t p = {.consistency = WIRE_CL_ONE,
                             .n_values = n,
                             .values = vals,
                             .page_size = page,
                             .paging_state = {state, *state_len}};
    wire_value_t idv = {id, 16};
    base_arena_reset(&arena);
    must(cql_execute(engine, session, idv, &p, &arena, &r, &err), &err, "execute");
    *state_len = r.paging_state.len <= 512 ? r.paging_state.len : -1;
    if (*state_len > 0) {
        memcpy(state, r.paging_state.ptr, (size_t)*state_len);
    }
    return r.n_rows;
}


static size_t execute(const uint8_t id[16], wire_value_t *vals, size_t n, int32_t page)
{
    uint8_t state[512];
    int32_t len = -1;
    return execute_page(id, vals, n, page, state, &len);
}


static double seconds(int64_t from)
{
    return (double)(base_mono_us() - from) / 1e6;
}


static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
        }
    }
    if (f) {
        fclose(f);
    }
    return kb;
}


int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    storage_db_t *db = storage_db_new();
    engine = cql_engine_new(&cfg, db);
    session = cql_session_new(engine);
    base_arena_init(&arena, 0);
    query("CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
    query("CREATE TABLE b.events (user_id int, ts bigint, payload text, PRIMARY KEY (user_id, ts)) "
          "WITH CLUSTERING ORDER BY (ts DESC)");
    uint8_t ins[16], get[16], slice[16], scan[16];
    prepare("INSERT INTO b.events (user_id, ts, payload) VALUES (?, ?, ?)", ins);
    prepare("SELECT payload FROM b.events WHERE user_id = ? AND ts = ?", get);
    prepare("SELECT * FROM b.events WHERE user_id = ? LIMIT 100", slice);
    prepare("SELECT * FROM b.events", scan);
    long rss0 = rss_kb();
    char payload[100];
    memset(payload, 'x', sizeof(payload));
    const long users = 1000;

    int64_t t0 = base_mono_us();
    for (long i = 0; i < n; i++) {
        uint8_t u[4], ts[8];
        uint32_t user = (uint32_t)(i % users);
        u[0] = (uint8_t)(user >> 24), u[1] = (uint8_t)(user >> 16), u[2] = (uint8_t)(user >> 8),
        u[3] = (uint8_t)user;
        base_store_u64(ts, (uint64_t)i);
        wire_value_t v[3] = {{u, 4}, {ts, 8}, {(const uint8_t *)payload, sizeof(payload)}};
        execute(ins, v, 3, 0);
    }
    double dt = seconds(t0);
    long rss1 = rss_kb();
    printf("insert (prepared, 100-byte rows): %ld rows in %.2f s = %.0f ops/s\n", n, dt,
           (double)n / dt);
    printf("memory: %.1f MB for %ld rows = %.0f bytes/row\n", (double)(rss1 - rss0) / 1024.0, n,
           (double)(rss1 - rss0) * 1024.0 / (double)n);

    t0 = base_mono_us();
    for (long i = 0; i < n; i++) {
        uint8_t u[4], ts[8];
        uint32_t user = (uint32_t)(i % users);
        u[0] = (uint8_t)(user >> 24), u[1] = (uint8_t)(user >> 16), u[2] = (uint8_t)(user >> 8),
        u[3] = (uint8_t)user;
        base_store_u64(ts, (uint64_t)i);
        wire_value_t v[2] = {{u, 4}, {ts, 8}};
        if (execute(get, v, 2, 0) != 1) {
            fprintf(stderr, "point read %ld missed\n", i);
            return 1;
        }
    }
    dt = seconds(t0);
    printf("point read (prepared): %ld reads in %.2f s = %.0f ops/s\n", n, dt, (double)n / dt);

    /* one new partition per row, keys in random order (uuid-keyed tables) */
    query("CREATE TABLE b.kv (id bigint PRIMARY KEY, v text)");
    uint8_t kv[16];
    prepare("INSERT INTO b.kv (id, v) VALUES (?, ?)", kv);
    t0 = base_mono_us();
    uint64_t x = 88172645463325252ULL;
    for (long i = 0; i < n; i++) {
        uint8_t id[8];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        base_store_u64(id, x);
        wire_value_t v[2] = {{id, 8}, {(const uint8_t *)payload, sizeof(payload)}};
        execute(kv, v, 2, 0);
    }
    dt = seconds(t0);
    printf("insert into new partitions (random keys): %ld rows in %.2f s = %.0f ops/s\n", n, dt,
           (double)n / dt);

    long slices = n / 10;
    t0 = base_mono_us();
    for (long i = 0; i < slices; i++) {
        uint8_t u[4] = {0, 0, (uint8_t)((i % users) >> 8), (uint8_t)(i % users)};
        wire_value_t v[1] = {{u, 4}};
        execute(slice, v, 1, 0);
    }
    dt = seconds(t0);
    printf("partition slice, newest 100 rows: %ld queries in %.2f s = %.0f ops/s\n", slices, dt,
           (double)slices / dt);

    /* drivers page: 5000 rows a page, as the DataStax drivers default */
    t0 = base_mono_us();
    size_t rows = 0;
    uint8_t state[512];
    int32_t state_len = -1;
    do {
        rows += execute_page(scan, NULL, 0, 5000, state, &state_len);
    } while (state_len > 0);
    dt = seconds(t0);
    printf("full scan, pages of 5000: %zu rows in %.2f s = %.0f rows/s\n", rows, dt,
           (double)rows / dt);

    cql_session_free(session);
    cql_engine_free(engine);
    storage_db_free(db);
    base_arena_fini(&arena);
    return 0;
}
