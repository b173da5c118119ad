/*
 * select_plan.h - the plan of a SELECT (internal to cql/): which partitions
 * to read (keys or a token-ordered scan), which clustering slices inside
 * them, what is left to filter, and how to project the rows. Built from the
 * WHERE clause by select_plan.c, run by select.c.
 */
#ifndef CQL_SELECT_PLAN_H
#define CQL_SELECT_PLAN_H

#include "cql/rows.h"

typedef struct cql_filter_s {
    int idx; /* column index in the table */
    const cql_column_t *col;
    cql_rel_op_t op;
    wire_value_t v;
    size_t n_in;
    wire_value_t *in;
    const wire_type_t *cmp_type; /* element type for CONTAINS, else column type */
    bool has_key;                /* m['k'] = v: compare the map's value at key */
    wire_value_t key;
} cql_filter_t;

typedef struct cql_slice_s {
    storage_bound_t start, end;
} cql_slice_t;

typedef struct cql_plan_s {
    const cql_table_t *t;
    bool scan; /* no partition key: walk the ring in token order */
    size_t n_keys;
    wire_value_t *keys; /* composed partition keys */
    int64_t *tokens;
    bool tok_lo_set, tok_lo_incl, tok_hi_set, tok_hi_incl;
    int64_t tok_lo, tok_hi;
    size_t n_slices; /* 0: the whole partition */
    cql_slice_t *slices;
    bool point; /* full primary key equality: at most one row */
    bool ck_restricted;
    size_t n_filters;
    cql_filter_t *filters;
    bool uses_index;
} cql_plan_t;

int cql__plan_where(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where, size_t n_where,
                    bool allow_filtering, cql_plan_t *plan, base_error_t *err);
bool cql__filter_match(cql_ctx_t *c, const cql_plan_t *plan, const cql_rec_t *r);

#endif
