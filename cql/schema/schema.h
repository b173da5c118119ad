/*
 * schema.h - the schema room of cql/ (cql/schema/): the catalog (keyspaces,
 * tables, columns, user types, indexes), the engine and session that own it,
 * the context one statement runs in (warnings, admission and throughput
 * hooks: context.c), DDL (ddl.c), the system tables (system.c) and the
 * durable schema log (schema_log.c). Included by cql/schema/ and cql/exec/
 * only; cql/parse/ and cql/value/ sit below it and never see it.
 *
 * Schema invariants:
 *  - names are stored normalised (as the parser produces them);
 *  - a table's cols[] are in Cassandra's canonical order: partition key
 *    columns by position, clustering columns by position, then the static
 *    columns and then the regular ones, each sorted by name; SELECT *
 *    returns that order;
 *  - a column's id (the storage cell id) never changes or gets reused in
 *    the table's life, so ALTER TABLE DROP/ADD cannot resurrect old cells;
 *  - every DDL bumps the engine's schema version uuid.
 */
#ifndef CQL_SCHEMA_SCHEMA_H
#define CQL_SCHEMA_SCHEMA_H

#include "cql/cql.h"
#include "cql/parse/parse.h"
#include "cql/value/value.h"

/*
 * Limits of a schema, checked where DDL is validated (Invalid 0x2200 naming
 * the limit). Cassandra has none this small; these keep the work of every DDL
 * and of every statement over a table bounded. Key arrays are sized from the
 * schema, so key columns are bounded only by the column count.
 */
#define CQL_MAX_TABLE_COLUMNS 4096 /* columns of a table, key columns included */
#define CQL_MAX_TYPE_FIELDS   1024 /* fields of a user type */
/* A resolved type's depth and size: user types are copied into the types that
 * name them, so a chain of two-field types doubles at every link. */
#define CQL_MAX_TYPE_DEPTH    64
#define CQL_MAX_TYPE_NODES    8192

typedef enum {
    CQL_COL_PARTITION,
    CQL_COL_CLUSTERING,
    CQL_COL_STATIC,
    CQL_COL_REGULAR,
} cql_col_kind_t;

typedef struct cql_column_s {
    char *name;
    wire_type_t *type; /* heap-owned (cql__type_clone) */
    cql_col_kind_t kind;
    int position; /* within partition or clustering key, else -1 */
    bool desc;    /* clustering column in DESC order */
    uint32_t id;  /* storage cell id */
    bool counter;
} cql_column_t;

typedef struct cql_index_s {
    char *name;
    char *column;
    char *target; /* system_schema.indexes options target: "c", "keys(m)" ... */
} cql_index_t;

/* A map-valued table option as system_schema.tables shows it (caching,
 * compaction, compression): n pairs, keys sorted and unique. */
typedef struct cql_optmap_s {
    size_t n;
    char **keys;
    char **values;
} cql_optmap_t;

/* A column dropped from a table (system_schema.dropped_columns). Its cells keep
 * their id: re-adding the column under a compatible type takes the id back, and
 * the cells written after the drop show again, as in Cassandra. */
typedef struct cql_dropped_s {
    char *name;
    wire_type_t *type; /* heap-owned */
    uint32_t id;
    cql_col_kind_t kind;
    int64_t dropped_us; /* cells at or before it were deleted with the column */
    bool reusable;      /* they were (a drop logged before that was not: no re-ADD reuse) */
} cql_dropped_t;

struct cql_keyspace_s;
struct cql_engine_s;
struct cql_vtable_s;

typedef struct cql_table_s {
    struct cql_keyspace_s *ks;
    char *name;
    uint8_t id[16];
    cql_column_t *cols;
    size_t n_cols;
    size_t n_pk;
    cql_column_t **pk; /* by position */
    size_t n_ck;
    cql_column_t **ck; /* by position */
    uint32_t next_col_id;
    /* options */
    int32_t default_ttl;
    int32_t gc_grace_seconds;
    char *comment;
    int64_t provisioned_throughput;   /* 0: none (shared or default) */
    int64_t autoscale_max_throughput; /* 0: none */
    int32_t min_index_interval, max_index_interval;
    cql_optmap_t caching, compaction, compression;
    size_t n_dropped;
    cql_dropped_t *dropped;
    size_t n_indexes;
    cql_index_t *indexes;
    bool has_counters;
    storage_table_t *st;           /* NULL for virtual tables */
    const struct cql_vtable_s *vt; /* system tables: row generator */
} cql_table_t;

typedef struct cql_udt_s {
    char *name;
    wire_type_t *type; /* WIRE_TYPE_UDT, heap-owned */
} cql_udt_t;

typedef struct cql_keyspace_s {
    char *name;
    size_t n_repl;
    char **repl_keys;
    char **repl_values;
    bool durable_writes;
    bool system; /* built-in, read-only */
    int64_t provisioned_throughput;
    int64_t autoscale_max_throughput;
    size_t n_tables, cap_tables;
    cql_table_t **tables;
    size_t n_types, cap_types;
    cql_udt_t **types;
} cql_keyspace_t;

struct cql_engine_s {
    cql_config_t cfg;
    char *cluster_name, *data_center, *rack, *release_version, *cql_version;
    uint8_t host_id[16];
    storage_db_t *db;
    uint8_t schema_version[16];
    /* Counts the schema's changes (cql__schema_bump): what a prepared
     * statement cached of the schema holds while this stays. */
    uint64_t schema_epoch;
    uint64_t next_storage_id;
    size_t n_keyspaces, cap_keyspaces;
    cql_keyspace_t **keyspaces;
    cql_hooks_t hooks;
    bool has_hooks;
    /* A table or type changed: prepared statements may describe the old shape, so
     * they are dropped once the current request ends (drivers re-prepare on 0x2500). */
    bool evict_prepared;
    struct cql_prepared_s **prepared; /* hash table (exec/engine.c) */
    size_t n_prepared_buckets, n_prepared;
    cql_schema_listener_t listener;
    void *listener_ud;
    /* Durable schema (schema_log.c): NULL in memory or until cql_engine_restore. */
    struct cql_schema_log_s *schema_log;
    storage_sync_t schema_sync;
    /* Replaying an ALTER TABLE logged before dropped columns kept their cells'
     * ids (schema_log.c, COL_DROP_IDS): a re-ADD gets a new id, as it did then. */
    bool replay_legacy_alter;
    size_t schema_compact_min; /* 0: CQL_SCHEMA_LOG_COMPACT_MIN */
};

struct cql_session_s {
    cql_engine_t *engine;
    char *keyspace;
};

/* ---- execution context ------------------------------------------------------- */

typedef struct cql_ctx_s {
    cql_engine_t *e;
    cql_session_t *s;     /* may be a view with a prepared statement's keyspace */
    cql_session_t *owner; /* the connection's own session */
    base_arena_t *a;
    const wire_query_params_t *params; /* consistency, paging, timestamp */
    cql_binds_t binds;
    int64_t now_us;
    int64_t batch_ts; /* batch-level timestamp, or INT64_MIN */
    bool in_batch;
    bool admitted; /* a batch was admitted as a whole */
    /* A batch defers its mutations until every statement has been checked, so
     * a failing statement leaves nothing behind (Cassandra validates first). */
    bool defer;
    bool lwt_refused; /* a condition in the batch did not hold */
    /* A conditional batch answers once, for all its conditions (lwt.c): the rows
     * they read and the columns they name. */
    struct cql_batch_cas_s *batch_cas;
    size_t n_pending, cap_pending;
    struct cql_pending_s *pending;
    /* A batch's statements and writes per table (cql_stats_t.parts): n_parts of
     * cap_parts entries, arena-owned. */
    cql_stats_t *parts;
    size_t n_parts, cap_parts;
    cql_stats_t *cur_part; /* the part of the batch statement running now */
    const char *shape;
    /* The prepared statement an EXECUTE runs (NULL for a QUERY or a batch):
     * where its table and selection are cached (exec/engine.c). */
    struct cql_prepared_s *prepared;
    const char *text; /* the statement's text (QUERY, EXECUTE): what the schema log keeps */
    size_t text_len;
    cql_result_t *out;
    /* warnings collected while executing */
    size_t n_warnings, cap_warnings;
    const char **warnings;
} cql_ctx_t;

/* The entry of c->parts for table t (a batch's per-table statistics), added on
 * first use; NULL outside a batch. */
cql_stats_t *cql__batch_part(cql_ctx_t *c, const cql_table_t *t);
/* Runs the admission hook for a statement on table t (no-op without hooks
 * or for system tables). */
int cql__admit(cql_ctx_t *c, const cql_table_t *t, cql_op_kind_t kind, bool has_token,
               int64_t token, base_error_t *err);
/* Records the first partition a statement touched (token and physical partition). */
void cql__note_token(cql_stats_t *st, const cql_table_t *t, int64_t token);
/* Runs the throughput hook; sets *n_physical (0: leave as is). */
int cql__throughput_hook(cql_ctx_t *c, const cql_throughput_t *tp, uint32_t *n_physical,
                         base_error_t *err);

void cql__warn(cql_ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- schema (schema.c) --------------------------------------------------------- */

cql_keyspace_t *cql__keyspace_find(cql_engine_t *e, const char *name);
cql_table_t *cql__table_find(cql_keyspace_t *ks, const char *name);
cql_udt_t *cql__udt_find(cql_keyspace_t *ks, const char *name);
cql_column_t *cql__column_find(const cql_table_t *t, const char *name);
/* Resolves the keyspace of a possibly unqualified name, with Cassandra's errors. */
int cql__resolve_keyspace(cql_ctx_t *c, const char *qualifier, cql_keyspace_t **out,
                          base_error_t *err);
int cql__resolve_table(cql_ctx_t *c, const cql_qname_t *q, cql_table_t **out, base_error_t *err);
/* Turns a parsed type into a heap wire type, resolving UDTs in ks; refuses a
 * type past CQL_MAX_TYPE_DEPTH or CQL_MAX_TYPE_NODES before building it. */
int cql__type_resolve(cql_keyspace_t *ks, const cql_type_ast_t *ta, wire_type_t **out,
                      base_error_t *err);
/* The same limits for n types that become the fields of one type `what`. */
int cql__type_check_size(cql_keyspace_t *ks, const cql_type_ast_t *const *types, size_t n,
                         const char *what, base_error_t *err);
cql_keyspace_t *cql__keyspace_add(cql_engine_t *e, const char *name);
void cql__keyspace_free(cql_keyspace_t *ks);
void cql__table_free(cql_engine_t *e, cql_table_t *t);
void cql__table_sort_columns(cql_table_t *t);
void cql__schema_bump(cql_engine_t *e);
void cql__schema_notify(cql_ctx_t *c, const char *change, const char *target, const char *ks,
                        const char *name);

/* ---- table options (options.c) ------------------------------------------------------ */

/* Checks the caching, compaction or compression property p as Cassandra does and
 * fills *out with what system_schema.tables shows for it (arena strings). */
int cql__table_option_map(const cql_property_t *p, base_arena_t *a, cql_optmap_t *out,
                          base_error_t *err);
/* Replaces dst (heap-owned) by a copy of src. */
void cql__optmap_set(cql_optmap_t *dst, const cql_optmap_t *src);
void cql__optmap_free(cql_optmap_t *m);
/* Cassandra's defaults for a new table's map options and index intervals. */
void cql__table_default_options(cql_table_t *t);

/* ---- system tables (system.c) ---------------------------------------------------- */

typedef struct cql_rowset_s {
    size_t n_rows, cap_rows;
    wire_value_t **rows; /* each n_cols values in the table's column order */
} cql_rowset_t;

typedef struct cql_vtable_s {
    const char *name;
    void (*generate)(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rows);
} cql_vtable_t;

void cql__system_init(cql_engine_t *e);
/* Error for system tables that must fail as in Cassandra 3.11 (peers_v2). */
bool cql__system_missing(const char *ks, const char *table, base_error_t *err);
void cql__rowset_add(cql_ctx_t *c, cql_rowset_t *rs, wire_value_t *row);

/* Runs a DDL statement (ddl.c). */
int cql__exec_ddl(cql_ctx_t *c, const cql_stmt_t *st, base_error_t *err);

/* ---- durable schema (schema_log.c) ------------------------------------------------------ */

typedef struct cql_schema_log_s cql_schema_log_t;
/* Runs a DDL statement and, when the schema log is open and the DDL changed the
 * schema, appends it (with c->text) before returning. */
int cql__schema_log_ddl(cql_ctx_t *c, const cql_stmt_t *st, base_error_t *err);
void cql__schema_log_close(cql_engine_t *e);
/* True while cql_engine_restore replays the log (storage already holds the data). */
bool cql__schema_replaying(const cql_engine_t *e);

#endif
