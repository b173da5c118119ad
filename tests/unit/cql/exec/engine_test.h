/*
 * engine_test.h - the cmocka fixture the cql/exec feature tests share: an
 * in-memory database, an engine with the default (cosmos) profile (or the
 * cassandra one, setup_cassandra), one session, a request arena, a result to
 * run statements into and a count of the schema events the engine sent; and
 * the helpers that run a statement and read a result.
 */
#ifndef TESTS_UNIT_CQL_EXEC_ENGINE_TEST_H
#define TESTS_UNIT_CQL_EXEC_ENGINE_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cql/cql.h"

typedef struct fixture_s {
    storage_db_t *db;
    cql_engine_t *e;
    cql_session_t *s;
    base_arena_t a;
    cql_result_t r;
    base_error_t err;
    int n_events; /* schema change events */
} fixture_t;


static inline void count_schema_event(void *ud, const wire_schema_change_t *sc)
{
    (void)sc;
    ((fixture_t *)ud)->n_events++;
}


static inline int setup_profile(void **state, cql_profile_t profile)
{
    fixture_t *f = calloc(1, sizeof(*f));
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    cfg.profile = profile;
    f->db = storage_db_new();
    f->e = cql_engine_new(&cfg, f->db);
    f->s = cql_session_new(f->e);
    cql_engine_set_listener(f->e, count_schema_event, f);
    base_arena_init(&f->a, 0);
    *state = f;
    return 0;
}


static inline int setup(void **state)
{
    return setup_profile(state, CQL_PROFILE_COSMOS);
}


static inline int setup_cassandra(void **state)
{
    return setup_profile(state, CQL_PROFILE_CASSANDRA);
}


static inline int teardown(void **state)
{
    fixture_t *f = *state;
    base_arena_fini(&f->a);
    cql_session_free(f->s);
    cql_engine_free(f->e);
    storage_db_free(f->db);
    free(f);
    return 0;
}


/* Runs q with the given parameters into f->r (or f->err). */
static inline int run_params(fixture_t *f, const char *q, const wire_query_params_t *p)
{
    base_arena_reset(&f->a);
    base_error_clear(&f->err);
    return cql_query(f->e, f->s, base_str_from(q), p, &f->a, &f->r, &f->err);
}


/* Runs q at QUORUM, unpaged. */
static inline int run(fixture_t *f, const char *q)
{
    wire_query_params_t p = {.consistency = WIRE_CL_QUORUM, .paging_state = {NULL, -1}};
    return run_params(f, q, &p);
}


/* Runs q and fails the test, naming q (its first 200 bytes) and the error, unless it succeeds. */
static inline void ok(fixture_t *f, const char *q)
{
    if (run(f, q) != BASE_OK) {
        fail_msg("%.200s -> %s", q, f->err.msg);
    }
}


/* The int in row, col of the last result. */
static inline int32_t cell_int(const fixture_t *f, size_t row, size_t col)
{
    const wire_value_t *v = &f->r.cells[row * f->r.n_cols + col];
    assert_int_equal(v->len, 4);
    return (int32_t)base_load_u32(v->ptr);
}


/* The bigint (or counter) in row, col of the last result. */
static inline int64_t cell_bigint(const fixture_t *f, size_t row, size_t col)
{
    const wire_value_t *v = &f->r.cells[row * f->r.n_cols + col];
    assert_int_equal(v->len, 8);
    return (int64_t)base_load_u64(v->ptr);
}


/* Whether the last result is an LWT answer with [applied] true. */
static inline bool applied(const fixture_t *f)
{
    assert_true(f->r.n_rows == 1 && f->r.n_cols >= 1);
    assert_string_equal(f->r.cols[0].name, "[applied]");
    return f->r.cells[0].len == 1 && f->r.cells[0].ptr[0] != 0;
}


static inline void create_keyspace(fixture_t *f)
{
    ok(f, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}");
}

#endif
