/*
 * cql.h - the CQL engine: statements and values, schema, prepared
 * statements and the system tables drivers read. cql/ knows no sockets; it
 * is handed decoded requests (wire.h structs) and a storage database, and it
 * returns results that the emulator encodes.
 *
 * Ownership: the engine owns the schema, the prepared-statement cache and
 * the storage tables it creates (the storage_db_t itself stays the
 * caller's). A session is owned by its connection. Everything in a
 * cql_result_t is allocated from the arena passed to the call and dies with
 * it.
 */
#ifndef CQL_CQL_H
#define CQL_CQL_H

#include "base/base.h"
#include "storage/storage.h"
#include "wire/wire.h"

typedef struct cql_engine_s cql_engine_t;
typedef struct cql_session_s cql_session_t;

typedef enum {
    CQL_PROFILE_COSMOS = 0,    /* the service's documented behaviour, limits and texts */
    CQL_PROFILE_CASSANDRA = 1, /* Apache Cassandra 3.11/4.0 */
} cql_profile_t;

/*
 * Guard-rails, with cassandra.yaml's names and defaults. Under the cassandra
 * profile they behave as Cassandra's (warnings, "Batch too large", the
 * tombstone Read_failure); under cosmos, whose service keeps no tombstones and
 * has no batch thresholds, every one is an advisory warning only (and the
 * service's own limits, 2 MB per request and per item, are still refused).
 */
typedef struct cql_guardrails_s {
    size_t batch_size_warn_kb;             /* batch_size_warn_threshold_in_kb: 5 */
    size_t batch_size_fail_kb;             /* batch_size_fail_threshold_in_kb: 50 */
    size_t unlogged_batch_partitions_warn; /* unlogged_batch_across_partitions_warn_threshold: 10 */
    size_t tombstone_warn;                 /* tombstone_warn_threshold: 1000 */
    size_t tombstone_failure;              /* tombstone_failure_threshold: 100000 */
    size_t large_partition_mb; /* compaction_large_partition_warning_threshold_mb: 100 */
} cql_guardrails_t;

/* Which guard-rails a statement crossed (cql_stats_t.guardrails), in the order of
 * ru_meter's ru_guard_t. */
enum {
    CQL_GUARD_BATCH_SIZE_WARN = 1u << 0,
    CQL_GUARD_BATCH_SIZE_FAIL = 1u << 1,
    CQL_GUARD_UNLOGGED_PARTITIONS = 1u << 2,
    CQL_GUARD_TOMBSTONE_WARN = 1u << 3,
    CQL_GUARD_TOMBSTONE_FAIL = 1u << 4,
    CQL_GUARD_LARGE_PARTITION = 1u << 5,
};

typedef struct cql_config_s {
    cql_profile_t profile;
    const char *cluster_name; /* system.local.cluster_name */
    const char *data_center;  /* e.g. "South Central US" */
    const char *rack;
    const char *release_version; /* "3.11.0" */
    const char *cql_version;     /* "3.4.4" */
    uint8_t rpc_address[16];     /* address clients reach us on */
    uint8_t rpc_address_len;     /* 4 or 16 */
    int32_t rpc_port;
    const char *host_id; /* uuid text; generated when NULL */
    cql_guardrails_t guardrails;
} cql_config_t;

/* Fills a config with the defaults above. */
void cql_config_defaults(cql_config_t *cfg);

/* The engine copies cfg's strings; db must outlive the engine. */
cql_engine_t *cql_engine_new(const cql_config_t *cfg, storage_db_t *db);
void cql_engine_free(cql_engine_t *e);

/* Schema-change listener: called after every successful DDL, so the
 * emulator can push EVENTs to registered connections. */
typedef void (*cql_schema_listener_t)(void *ud, const wire_schema_change_t *sc);
void cql_engine_set_listener(cql_engine_t *e, cql_schema_listener_t fn, void *ud);

/* Current schema version uuid (changes with every DDL). */
void cql_engine_schema_version(const cql_engine_t *e, uint8_t out[16]);

cql_session_t *cql_session_new(cql_engine_t *e);
void cql_session_free(cql_session_t *s);
const char *cql_session_keyspace(const cql_session_t *s); /* NULL when none */

/* ---- durable schema (schema_log.c) ---------------------------------------------------- */

/*
 * With a durable storage database, the schema is kept in a schema log next to
 * storage's files. cql_engine_restore replays the log at schema_log_path (each
 * record through the ordinary DDL path with a private session, so tables get
 * their storage and column ids back, storage finds their data, and the hooks
 * see the DDL as they saw it live), then keeps the log open: from then on every
 * successful user DDL is appended before its result is returned. A missing file
 * starts an empty log; a torn last record is cut off; any other damage fails
 * with err naming the file. Call once, after the hooks are installed and before
 * serving requests.
 */
int cql_engine_restore(cql_engine_t *e, const char *schema_log_path, base_error_t *err);
/* STORAGE_SYNC_ALWAYS fsyncs every schema log record; set before restoring. */
void cql_engine_set_schema_sync(cql_engine_t *e, storage_sync_t sync);
/* The schema log is compacted (rewritten with only the records the current catalog
 * needs: temp file, fsync, rename, directory fsync) at restore when it is past
 * min_bytes, and after an append once it has doubled since the last compaction and
 * is past min_bytes. 0: the default; set before restoring. */
#define CQL_SCHEMA_LOG_COMPACT_MIN (64u * 1024)
void cql_engine_set_schema_log_compaction(cql_engine_t *e, size_t min_bytes);

/* ---- operation statistics (what ru_meter prices) ------------------------- */

typedef enum {
    CQL_OP_NONE = 0, /* USE, system tables, prepare */
    CQL_OP_READ,     /* SELECT */
    CQL_OP_WRITE,    /* INSERT / UPDATE */
    CQL_OP_DELETE,
    CQL_OP_DDL,
    CQL_OP_BATCH,
    CQL_OP_LWT,
} cql_op_kind_t;

typedef struct cql_stats_s {
    cql_op_kind_t kind;
    const char *keyspace; /* table the operation touched (NULL: none/system) */
    const char *table;
    uint64_t table_id;
    bool point_read;      /* full primary key equality */
    bool cross_partition; /* scanned without a partition key */
    bool allow_filtering;
    size_t rows_read; /* scanned, not only returned */
    size_t bytes_read;
    size_t rows_returned;
    size_t bytes_returned;
    size_t rows_written;
    size_t bytes_written;
    size_t overwrites; /* writes that replaced a live row */
    size_t partitions_touched;
    size_t tombstones_scanned;
    size_t n_statements; /* batches */
    int64_t first_token; /* a token the operation touched, for per-partition limits */
    bool has_token;
    uint16_t consistency;
    const char *shape;   /* the statement with literals replaced by ?, for per-shape statistics */
    size_t n_indexes;    /* secondary indexes maintained by the write */
    bool index_lookup;   /* a read served by a secondary index */
    size_t rows_deleted; /* rows, ranges or partitions deleted */
    size_t rows_ttl;     /* rows written with a TTL: each expires later, a deletion */
    size_t bytes_ttl;
    bool has_partition; /* the physical partition of first_token, from storage's map */
    uint32_t partition;
    bool has_table_bytes; /* a write: the table's stored size after it */
    uint64_t table_bytes;
    unsigned guardrails;           /* CQL_GUARD_* crossed */
    size_t large_partition_bytes;  /* CQL_GUARD_LARGE_PARTITION: the partition's size */
    int64_t large_partition_token; /* and its token */
    /* A BATCH that wrote to several tables: one entry per table, in the order the
     * batch first names them, each with its own statements and writes (the fields
     * above are the whole batch's and name the first table). n_parts is 0 for
     * anything else. Owned by the result's arena. */
    const struct cql_stats_s *parts;
    size_t n_parts;
} cql_stats_t;

/* ---- hooks: admission control and throughput, for the RU meter above ------------------ */

/* What cql knows of a statement after planning it and before it touches
 * storage. Strings live until the statement finishes. */
typedef struct cql_admission_s {
    cql_op_kind_t kind;
    const char *keyspace;
    const char *table;
    const char *shape;
    bool has_token; /* the single partition the statement targets, if one */
    int64_t token;
    bool has_partition; /* its physical partition, from storage's map */
    uint32_t partition;
    uint16_t consistency;
} cql_admission_t;

/* A throughput setting being created, changed or dropped by DDL. */
typedef struct cql_throughput_s {
    const char *keyspace;
    const char *table; /* NULL for a keyspace (shared throughput) */
    bool creating;     /* CREATE (false: ALTER, or dropped) */
    bool dropped;
    bool given;            /* the statement named a throughput option */
    int64_t provisioned;   /* cosmosdb_provisioned_throughput, 0 when absent */
    int64_t autoscale_max; /* cosmosdb_autoscale_max_throughput, 0 when absent */
} cql_throughput_t;

typedef struct cql_hooks_s {
    /* Before a statement on a user table runs (once for a whole batch).
     * BASE_OK lets it run; BASE_ERROR with err set (e.g. Overloaded 0x1001)
     * refuses it, and a refused statement has no effect. */
    int (*admit)(void *ud, const cql_admission_t *a, base_error_t *err);
    /* Before a CREATE/ALTER with throughput (or any CREATE TABLE/KEYSPACE)
     * takes effect, and after a DROP. BASE_ERROR with err (Invalid) makes the
     * DDL fail with no effect. *physical_partitions, when set > 0, is how
     * many physical partitions the table's token ring is split into. */
    int (*throughput)(void *ud, const cql_throughput_t *tp, uint32_t *physical_partitions,
                      base_error_t *err);
    void *ud;
} cql_hooks_t;

/* Installs hooks (copied); NULL removes them. */
void cql_engine_set_hooks(cql_engine_t *e, const cql_hooks_t *hooks);

/* ---- results ------------------------------------------------------------- */

typedef struct cql_result_s {
    int kind; /* WIRE_RESULT_* */
    /* Rows */
    size_t n_cols;
    const wire_col_spec_t *cols;
    size_t n_rows;
    const wire_value_t *cells; /* n_rows * n_cols, row-major */
    wire_value_t paging_state; /* len < 0: no more pages */
    bool no_metadata;          /* the client asked to skip metadata */
    /* Set_keyspace */
    const char *keyspace;
    /* Prepared */
    uint8_t prepared_id[16];
    size_t n_binds;
    const wire_col_spec_t *binds;
    size_t n_pk_indexes;
    const uint16_t *pk_indexes;
    /* Schema_change */
    wire_schema_change_t schema_change;
    /* Warnings to send with the response (flag 0x08). */
    size_t n_warnings;
    const char **warnings;
    cql_stats_t stats;
} cql_result_t;

/*
 * Each call returns BASE_OK with *out filled, or BASE_ERROR with err set to
 * the CQL error the client must see (Syntax 0x2000, Invalid 0x2200,
 * Already_exists 0x2400 with its detail, Unprepared 0x2500 with the id, ...).
 * out->stats is filled on errors too, with what was done before the error.
 * *out is initialized by every call, whatever it returns (cql_result_init):
 * callers need not clear it first.
 */
/* An empty VOID result, as every call below starts its *out: for a caller
 * that answers without reaching one. */
void cql_result_init(cql_result_t *out);
int cql_query(cql_engine_t *e, cql_session_t *s, base_str_t query,
              const wire_query_params_t *params, base_arena_t *a, cql_result_t *out,
              base_error_t *err);
int cql_prepare(cql_engine_t *e, cql_session_t *s, base_str_t query, base_arena_t *a,
                cql_result_t *out, base_error_t *err);
int cql_execute(cql_engine_t *e, cql_session_t *s, wire_value_t id,
                const wire_query_params_t *params, base_arena_t *a, cql_result_t *out,
                base_error_t *err);
int cql_batch(cql_engine_t *e, cql_session_t *s, const wire_batch_t *batch, base_arena_t *a,
              cql_result_t *out, base_error_t *err);

/*
 * Prefetching (exec/prefetch.c). A connection holding several requests
 * notes each with cql_prefetch_add before running the first, which asks for
 * the index entry of the partition it will touch; cql_prefetch_run then asks
 * for the partitions themselves, then for the rows they hold. Their cache
 * misses overlap instead of stalling one request after another. Only
 * EXECUTEs of prepared statements on one partition (every partition key
 * column bound by a marker) are noted; anything else, or a full pf, is
 * passed over. Advisory: it reads the engine and changes no data (storage
 * notes what it found, for the reads that follow). A pf holds tables: it is
 * run before any statement runs, and never after one (which may have
 * dropped them).
 */
#define CQL_PREFETCH_MAX 32
typedef struct cql_prefetch_s {
    size_t n;
    storage_table_t *tables[CQL_PREFETCH_MAX];
    int64_t tokens[CQL_PREFETCH_MAX];
    storage_hint_t hints[CQL_PREFETCH_MAX];
} cql_prefetch_t;

void cql_prefetch_add(cql_engine_t *e, const cql_session_t *s, wire_value_t id,
                      const wire_query_params_t *params, cql_prefetch_t *pf);
void cql_prefetch_run(cql_prefetch_t *pf);

/* ---- values as text (value/format.c) ---------------------------------------------------- */

typedef enum {
    CQL_FORMAT_LITERAL = 0, /* a CQL literal: 'it''s', 0x0102, '2024-01-01 10:00:00.000000+0000' */
    CQL_FORMAT_DISPLAY = 1, /* a cell as cqlsh shows it: top-level text, timestamps, dates, times
                               and inets unquoted (text with control characters escaped);
                               elements of collections, tuples and user types stay literals */
} cql_format_t;

/*
 * The value v of type t as text, for clients (the shell) and messages. t may
 * come from a server's result metadata (wire_reply_decode) and v from its
 * rows: bytes that do not fit the type print as 0x hex, never read out of
 * bounds. null prints as null. The string comes from the arena.
 */
const char *cql_value_format(const wire_type_t *t, wire_value_t v, cql_format_t how,
                             base_arena_t *a);

#endif
