/*
 * exec.h - the execution room of cql/ (cql/exec/): statements run against
 * the schema and storage. The engine's entry points and prepared cache
 * (engine.c), bind and result metadata (describe.c), stored rows rebuilt as
 * values (rows.c), WHERE clauses turned into plans (select_plan.c), SELECT
 * (select.c, its selectors in selection.c), writes (modify.c, with UPDATE's
 * SET clause in assign.c), conditions (lwt.c), BATCH (batch.c) and the
 * lookahead that prefetches held requests' partitions (prefetch.c). Private
 * to cql/exec/: nothing else in cql/ includes it.
 */
#ifndef CQL_EXEC_EXEC_H
#define CQL_EXEC_EXEC_H

#include "cql/schema/schema.h"

typedef struct cql_prepared_s {
    uint8_t id[16];
    char *keyspace; /* session keyspace at prepare time, may be NULL */
    char *text;
    const char *shape;  /* in arena */
    base_arena_t arena; /* owns the AST and metadata */
    cql_stmt_t *stmt;
    size_t n_binds;
    wire_col_spec_t *binds;
    size_t n_pk;
    uint16_t *pk_indexes;
    size_t n_cols;
    wire_col_spec_t *cols; /* result metadata (SELECT) */
    /* What executing it finds the same each time while the schema stays
     * (cache_epoch == e->schema_epoch; 0: nothing yet): its table, resolved
     * (table_q names it), a SELECT's selection of plain columns, compiled
     * into sel_arena (NULL when not one), and an INSERT's named columns or
     * an UPDATE's assigned ones as indexes into the table's, also in
     * sel_arena (NULL until executed: cql__kept_columns). A DDL bumps the
     * epoch, so nothing here outlives the table or columns it points to. */
    uint64_t cache_epoch;
    const cql_qname_t *table_q;
    cql_table_t *table;
    struct cql_sel_s *sel;
    const uint32_t *kept_cols;
    base_arena_t sel_arena;
    struct cql_prepared_s *next; /* hash chain */
} cql_prepared_t;

/* The table p's last execution resolved for q, while the schema stays;
 * NULL when it must be looked up (cql__stmt_table, cql_prefetch_add). */
static inline cql_table_t *cql__prepared_table(const cql_prepared_t *p, const cql_engine_t *e,
                                               const cql_qname_t *q)
{
    return q != NULL && p->cache_epoch == e->schema_epoch && p->table_q == q ? p->table : NULL;
}

/* The prepared statement of id, NULL if none (engine.c). */
cql_prepared_t *cql__prepared_find(cql_engine_t *e, const uint8_t *id, size_t len);

/* ---- statements (engine.c, select.c, modify.c, batch.c)
 * ------------------------------------------------------------------ */

int cql__exec_stmt(cql_ctx_t *c, const cql_stmt_t *st, base_error_t *err);
/* The table q names, as cql__resolve_table, kept by the prepared statement
 * being executed while the schema stays (engine.c). */
int cql__stmt_table(cql_ctx_t *c, const cql_qname_t *q, cql_table_t **out, base_error_t *err);
int cql__exec_select(cql_ctx_t *c, const cql_select_t *q, base_error_t *err);
int cql__exec_insert(cql_ctx_t *c, const cql_insert_t *q, base_error_t *err);
int cql__exec_update(cql_ctx_t *c, const cql_update_t *q, base_error_t *err);
int cql__exec_delete(cql_ctx_t *c, const cql_delete_t *q, base_error_t *err);
int cql__exec_batch(cql_ctx_t *c, const cql_batch_t *b, const wire_batch_t *wb, base_error_t *err);


/* Bind-marker metadata and result metadata of a statement (prepare). */
int cql__describe(cql_ctx_t *c, const cql_stmt_t *st, cql_prepared_t *p, base_error_t *err);

/* Helpers shared by the executors. */
int64_t cql__write_timestamp(cql_ctx_t *c, const cql_using_t *u, base_error_t *err, bool *ok);

/* ---- writes (modify.c, assign.c, lwt.c, batch.c) ---------------------------------------- */

/* The cells of one row being written, all at one timestamp and TTL. */
typedef struct cql_write_s {
    cql_ctx_t *c;
    const cql_table_t *t;
    int64_t ts;
    int32_t ttl;
    int64_t expires_us;
    /* cells being built for one row, in the request arena */
    size_t n_cells, cap_cells;
    storage_cell_t *cells;
    size_t n_clear;
    uint32_t *clear;
} cql_write_t;

/* Adds one cell (path: collection element key, NULL for a plain column); a
 * null value or tombstone deletes it. */
void cql__write_cell(cql_write_t *w, const cql_column_t *col, const uint8_t *path, size_t path_len,
                     wire_value_t v, bool tombstone);
/* Deletes every element of a multi-cell column just before the write. */
void cql__write_clear(cql_write_t *w, const cql_column_t *col);
/* Adds the elements of collection value v (prepend: a list's, before every stored one). */
int cql__write_elements(cql_write_t *w, const cql_column_t *col, wire_value_t v, bool prepend,
                        base_error_t *err);
/* SET c = v: a multi-cell collection has all its elements replaced. */
int cql__write_set(cql_write_t *w, const cql_column_t *col, wire_value_t v, base_error_t *err);
/* A non-frozen collection: one cell per element. */
bool cql__multi_cell(const cql_column_t *col);
/* The columns the executing prepared INSERT (q: its cql_insert_t) or UPDATE
 * (its cql_update_t) names, in order, as indexes into t->cols: found by name
 * at its first execution under this schema and kept (cql_prepared_t), rather
 * than searched for at every one. NULL for anything else, or when a name is
 * not a column (the search reports it). */
const uint32_t *cql__kept_columns(cql_ctx_t *c, const cql_table_t *t, const void *q);
/* The i-th column such a statement names: from kept when there is one, else
 * found by name (NULL when t has none of that name). */
static inline const cql_column_t *cql__named_column(const cql_table_t *t, const uint32_t *kept,
                                                    size_t i, const char *name)
{
    return kept != NULL ? &t->cols[kept[i]] : cql__column_find(t, name);
}
/* The SET clause's columns and operations, refused as Cassandra refuses them when it
 * prepares the statement (before its WHERE clause). */
int cql__update_check(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q, base_error_t *err);
/* The SET clause of one UPDATE row: regular cells into w, static ones into ws. */
int cql__update_row(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q, cql_write_t *w,
                    cql_write_t *ws, storage_mutation_t *m, base_error_t *err);

/* DELETE c, c[k] or u.f of the row m targets, into w. */
int cql__delete_column(cql_write_t *w, const cql_column_t *col, const cql_delete_target_t *d,
                       const storage_mutation_t *m, base_error_t *err);

/* The payload bytes of a mutation (keys, values, element paths). */
size_t cql__mutation_bytes(const storage_mutation_t *m);
/* Writes one mutation to storage now and meters it; refuses it when the commit
 * log cannot take it. */
int cql__write_now(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
                   base_error_t *err);
/* Writes a checked batch's deferred mutations (c->pending) as one storage batch,
 * one commit log record, so a crash leaves all or none; meters each. */
int cql__write_pending(cql_ctx_t *c, base_error_t *err);

/* Decides a conditional write and sets the [applied] result; *go says whether
 * to apply it. ck NULL reads the partition's static row (a statement naming no
 * clustering column of a table that has some). */
int cql__lwt_check(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                   const storage_bound_t *ck, const cql_conditions_t *cond, bool *go,
                   base_error_t *err);
/* IF NOT EXISTS, IF EXISTS or IF conditions: the statement is a lightweight transaction. */
bool cql__has_conditions(const cql_conditions_t *cond);
/* Sets the one [applied] result of a conditional batch (no-op for a batch without
 * conditions). */
void cql__lwt_batch_result(cql_ctx_t *c);
/* Checks the values of the conditions (null keys, unset values...) without a row. */
int cql__lwt_validate(cql_ctx_t *c, const cql_table_t *t, const cql_conditions_t *cond,
                      base_error_t *err);

/* A mutation waiting for its batch to be fully checked. */
typedef struct cql_pending_s {
    const cql_table_t *t;
    storage_mutation_t m;
} cql_pending_t;

/* Queues a checked mutation of a batch; it is written once the whole batch passed. */
void cql__batch_defer(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m);
/* The newest value a batch already holds for counter cell col of m's row. */
bool cql__batch_pending_counter(const cql_ctx_t *c, const cql_table_t *t,
                                const storage_mutation_t *m, uint32_t col, wire_value_t *out);

/* ---- stored rows (rows.c) ---------------------------------------------------------- */

typedef struct cql_rec_s {
    wire_value_t *vals; /* n_cols, WIRE_VALUE_NULL where absent */
    int64_t *ts;        /* INT64_MIN where absent */
    int32_t *ttl;       /* remaining seconds, 0 for none */
    const uint8_t *pk;  /* composed partition key */
    size_t pk_len;
    int64_t token;
    const uint8_t *ck; /* encoded clustering key, NULL for a static-only row */
    size_t ck_len;
    size_t bytes; /* payload size, for metering */
} cql_rec_t;

/* Builds the record of one stored row (static cells merged in when
 * static_row is given). Returns false if the stored bytes are malformed. */
bool cql__rec_build(cql_ctx_t *c, const cql_table_t *t, const storage_partition_t *p,
                    const storage_row_view_t *row, const storage_row_view_t *static_row,
                    cql_rec_t *out);
/* The live stored row of partition p at clustering key ck (the only row when
 * ck_len is 0). The view borrows from storage until the next write. */
bool cql__stored_row(const cql_ctx_t *c, storage_partition_t *p, const uint8_t *ck, size_t ck_len,
                     storage_row_view_t *out);
/* Reads one row by full primary key; false when it does not exist. */
bool cql__rec_read(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                   const uint8_t *ck, size_t ck_len, cql_rec_t *out);

/* Encodes the clustering prefix of n values (ck[0..n)) into b. */
void cql__ck_encode(base_buf_t *b, const cql_table_t *t, const wire_value_t *vals, size_t n);

/* ---- selection (selection.c) ------------------------------------------------------- */

/* The compiled selectors of a SELECT, in the request arena. The output
 * columns also hold the aggregate state of the current group. */
typedef struct cql_sel_s {
    size_t n;
    struct cql_out_col_s *out; /* n output columns, private to selection.c */
    wire_col_spec_t *specs;    /* result metadata ("[json]" for SELECT JSON) */
    const char **names;        /* selector names, kept for SELECT JSON keys */
    bool aggregate;
    bool json;
} cql_sel_t;

int cql__sel_compile(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t, cql_sel_t *sel,
                     base_error_t *err);
/* The cosmos profile refuses aggregates over clustering columns. */
int cql__sel_refuse_cosmos(const cql_table_t *t, const cql_sel_t *sel, base_error_t *err);
/* Cells per result row: n, or 1 for SELECT JSON. */
size_t cql__sel_width(const cql_sel_t *sel);
/* SELECT DISTINCT reads partition key and static columns only, and over a key range
 * (no partition key restriction) the whole partition key (Cassandra's messages). */
int cql__sel_check_distinct(cql_ctx_t *c, const cql_table_t *t, const cql_sel_t *sel,
                            bool key_range, base_error_t *err);
/* True when every selector reads a static column (an index query refuses that). */
bool cql__sel_only_static(const cql_table_t *t, const cql_sel_t *sel);
/* Evaluates the element keys of the selectors (m[?], s['a'..'c']) for this execution. */
int cql__sel_bind(cql_ctx_t *c, cql_sel_t *sel, base_error_t *err);
/* Calls fn for each bind marker inside the selectors, with the type it binds. */
typedef void (*cql_sel_bind_fn)(void *ctx, int bind_index, const char *name,
                                const wire_type_t *type);
void cql__sel_describe(const cql_sel_t *sel, cql_sel_bind_fn fn, void *ctx);
/* Projects rec into row (cql__sel_width cells); returns the bytes returned. */
size_t cql__sel_project(cql_ctx_t *c, const cql_table_t *t, const cql_sel_t *sel,
                        const cql_rec_t *rec, wire_value_t *row);
/* Folds rec into the aggregate state (plain columns keep the group's first row). */
void cql__sel_accumulate(cql_ctx_t *c, const cql_table_t *t, cql_sel_t *sel, const cql_rec_t *rec);
/* Writes the aggregate row into row (n cells) and resets the state for the next group. */
void cql__sel_aggregate_row(cql_ctx_t *c, cql_sel_t *sel, wire_value_t *row);

/* ---- plans (select_plan.c) ---------------------------------------------------------- */

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
    const char *bad_value; /* a filter's null or unset value, refused after the checks */
} cql_plan_t;

/* The columns of a token() relation: the whole partition key, in order (Cassandra's
 * TokenRelation checks and messages). PREPARE runs it too. */
int cql__token_relation_check(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r,
                              base_error_t *err);
int cql__plan_where(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where, size_t n_where,
                    bool allow_filtering, cql_plan_t *plan, base_error_t *err);
bool cql__filter_match(cql_ctx_t *c, const cql_plan_t *plan, const cql_rec_t *r);

#endif
