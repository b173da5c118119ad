/*
 * engine_test.h - the cmocka fixture the cql/exec feature tests share: an
 * in-memory database, an engine with the default (cosmos) profile, one
 * session, a request arena and a result to run statements into.
 */
#ifndef TESTS_UNIT_CQL_EXEC_ENGINE_TEST_H
#define TESTS_UNIT_CQL_EXEC_ENGINE_TEST_H

#include <stdlib.h>

#include "cql/cql.h"

typedef struct fixture_s {
    storage_db_t *db;
    cql_engine_t *e;
    cql_session_t *s;
    base_arena_t a;
    cql_result_t r;
    base_error_t err;
} fixture_t;


static inline int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    f->db = storage_db_new();
    f->e = cql_engine_new(&cfg, f->db);
    f->s = cql_session_new(f->e);
    base_arena_init(&f->a, 0);
    *state = f;
    return 0;
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

#endif
