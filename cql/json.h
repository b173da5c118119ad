/*
 * json.h - INSERT JSON support (internal to cql/): a JSON object turned into
 * one literal term per column, typed by the table's schema.
 */
#ifndef CQL_JSON_H
#define CQL_JSON_H

#include "cql/cql_int.h"

typedef struct cql_json_row_s {
    const cql_term_t **terms; /* n_cols entries in table order; NULL where the key was absent */
} cql_json_row_t;

/* Parses text (a JSON object) against table t. Errors are Invalid with
 * Cassandra's texts ("JSON values map contains unrecognized column: x",
 * "Could not decode JSON string as a map: ..."). Terms live in the arena. */
int cql__json_row(const char *text, size_t len, const cql_table_t *t, base_arena_t *a,
                  cql_json_row_t *row, base_error_t *err);

#endif
