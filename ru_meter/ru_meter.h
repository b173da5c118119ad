/*
 * ru_meter.h - request-unit accounting: what each operation costs, whether
 * the table's provisioned throughput lets it through, statistics per
 * statement shape, table and physical partition, and a cost estimate.
 *
 * Layering: depends on base/ only. It knows no CQL, no sockets and no JSON
 * library: the emulator maps cql_stats_t onto ru_op_t, loads the calibration
 * file into ru_model_t through ru_model_set(), and turns snapshots into
 * whatever it needs. There is no I/O and no clock here: every call that
 * depends on time takes now_us (microseconds, any monotonic origin).
 *
 * Flow per request (rate limiting on or off):
 *     ru_meter_admit(m, &req, now, &d);          before executing
 *     if (d.throttle) -> ERROR 0x1001 with ru_throttle_message(), no execute
 *     else execute; if (d.would_throttle) add ru_throttle_warning() text;
 *          charge = ru_meter_charge(m, &req, &d, &op, now);  -> RequestCharge
 *
 * Ownership: ru_meter_new() returns a meter the caller frees with
 * ru_meter_free(). Snapshots and estimates own their arrays and strings and
 * are released with ru_snapshot_fini() / ru_estimate_fini(). Strings passed
 * in are copied when kept.
 */
#ifndef RU_METER_RU_METER_H
#define RU_METER_RU_METER_H

#include "base/base.h"

/* ---- service limits (concepts-limits.md, serverless.md, burst-capacity) -- */

#define RU_ERR_INVALID             0x2200 /* CQL Invalid: every validation error */
#define RU_MANUAL_MIN              400
#define RU_MANUAL_STEP             100
#define RU_AUTOSCALE_MIN           1000
#define RU_AUTOSCALE_STEP          1000
#define RU_THROUGHPUT_MAX          1000000
#define RU_DEFAULT_TABLE_RU_S      400   /* FAQ: "Tables created through CQL have 400 RU" */
#define RU_PARTITION_MAX_RU_S      10000 /* per physical partition */
#define RU_PARTITION_MAX_BYTES     (50ULL * 1024 * 1024 * 1024)
#define RU_SERVERLESS_PARTITION_RU 5000
#define RU_SERVERLESS_TABLE_RU     20000
#define RU_BURST_SECONDS           300  /* idle capacity banked per partition */
#define RU_BURST_MAX_RU_S          3000 /* rate at which a partition may spend it */
#define RU_SLICES                  64   /* token-ring slices tracked per table for skew */
#define RU_SERIES_SECONDS          300  /* per-second history kept per table (dashboard) */
#define RU_PARTITION_ALL           (-1) /* request fans out to every physical partition */

/* CQL consistency levels that matter for pricing (wire values). */
#define RU_CL_ONE       0x0001
#define RU_CL_LOCAL_ONE 0x000A

/* Account default consistency (Cosmos levels, not CQL ones). */
typedef enum {
    RU_CONSISTENCY_SESSION = 0, /* the service's default */
    RU_CONSISTENCY_STRONG,
    RU_CONSISTENCY_BOUNDED_STALENESS,
    RU_CONSISTENCY_CONSISTENT_PREFIX,
    RU_CONSISTENCY_EVENTUAL,
} ru_consistency_t;

/* "Strong", "BoundedStaleness", "Session", ... (case-insensitive, '_' and ' '
 * ignored). Returns BASE_OK or BASE_EINVAL. */
int ru_consistency_parse(const char *name, ru_consistency_t *out);
const char *ru_consistency_name(ru_consistency_t c);

/* ---- cost model (cost.c holds the formula and its sources) -------------- */

/* name, default, meaning. The defaults are also shipped as
 * ru_meter/cost_model.json; a unit test keeps the two equal. */
#define RU_MODEL_MAP(XX)                                                                        \
    XX(point_read_1kb, 1.0, "RU for a point read of a row up to 1 KB")                          \
    XX(point_read_100kb, 10.0, "RU for a point read of a 100 KB row (linear in between)")       \
    XX(write_1kb, 5.5, "RU to insert a 1 KB row with no secondary index")                       \
    XX(write_per_extra_kb, 0.5, "RU per KB written beyond the first")                           \
    XX(write_per_index, 1.0, "RU per secondary index per row written")                          \
    XX(write_replace_factor, 2.0, "overwrite of a live row, times a fresh insert")              \
    XX(delete_factor, 1.0, "delete of a row, times inserting it")                               \
    XX(ttl_delete_factor, 1.0, "TTL expiry of a row, times inserting it")                       \
    XX(query_base, 2.0, "RU per query page (range/partition/multi-partition read)")             \
    XX(query_per_row, 0.1, "RU per row scanned by a query")                                     \
    XX(query_per_kb, 0.1, "RU per KB scanned by a query")                                       \
    XX(filter_per_row, 0.05, "extra RU per row scanned under ALLOW FILTERING")                  \
    XX(index_lookup, 1.0, "extra RU for a secondary-index lookup")                              \
    XX(cross_partition_per_physical, 2.5, "extra RU per physical partition of a fan-out query") \
    XX(strong_read_factor, 2.0, "reads under Strong/Bounded staleness unless at ONE/LOCAL_ONE") \
    XX(lwt_extra, 2.0, "RU an LWT costs on top of its read and its write")                      \
    XX(batch_per_statement, 0.0, "RU per batch statement on top of the statements' own cost")   \
    XX(default_expected_ru, 1.0, "admission estimate for a statement shape never seen before")

typedef struct ru_model_s {
#define XX(name, def, doc) double name;
    RU_MODEL_MAP(XX)
#undef XX
} ru_model_t;

void ru_model_defaults(ru_model_t *m);

/* Sets one coefficient by name, for loading a JSON calibration file
 * generically (skip keys beginning with '_', they are documentation).
 * Returns BASE_OK, BASE_ENOTFOUND for an unknown name, BASE_EINVAL for a
 * negative or non-finite value. */
int ru_model_set(ru_model_t *m, const char *name, double value);
int ru_model_get(const ru_model_t *m, const char *name, double *out);
size_t ru_model_count(void);
const char *ru_model_name(size_t i); /* NULL past the end */
const char *ru_model_doc(size_t i);

typedef enum {
    RU_OP_NONE = 0,   /* USE, PREPARE, system tables: free */
    RU_OP_READ,       /* SELECT: point read, or one page of a query */
    RU_OP_WRITE,      /* INSERT / UPDATE */
    RU_OP_DELETE,     /* rows_deleted/bytes_deleted; cql reports them as rows_written */
    RU_OP_BATCH,      /* the sum of its statements: all counters together */
    RU_OP_LWT,        /* IF [NOT] EXISTS / IF cond: a read, the write if applied, and more */
    RU_OP_DDL,        /* schema: the service's system budget, free to the table */
    RU_OP_TTL_EXPIRY, /* background removal of expired rows: paid from leftover throughput */
} ru_op_kind_t;

/* What one request did. Counters are what was done, including on a request
 * that then failed; a request that did nothing costs nothing. */
typedef struct ru_op_s {
    ru_op_kind_t kind;
    uint16_t consistency; /* CQL consistency of the request (RU_CL_*, wire value) */
    bool point_read;      /* full primary key equality */
    bool cross_partition; /* no partition key: fans out to every physical partition */
    bool allow_filtering;
    bool index_lookup;   /* served through a secondary index */
    bool failed;         /* ended in an error (still priced by the work done) */
    uint32_t n_indexes;  /* secondary indexes on the table */
    uint32_t n_physical; /* partitions a fan-out touched; 0: the meter fills it in */
    size_t rows_read;    /* scanned, not only returned */
    size_t bytes_read;
    size_t rows_written; /* inserted or updated rows */
    size_t bytes_written;
    size_t overwrites; /* of rows_written, those that replaced a live row */
    size_t rows_deleted;
    size_t bytes_deleted;
    size_t n_statements; /* batches */
} ru_op_t;

/* The charge in RU, rounded to hundredths as the service reports it. */
double ru_cost(const ru_model_t *m, ru_consistency_t account, const ru_op_t *op);

/* ---- throughput (throughput.c) ------------------------------------------ */

typedef enum {
    RU_CAPACITY_PROVISIONED = 0, /* manual or autoscale RU/s */
    RU_CAPACITY_SERVERLESS,      /* no throughput; 5000 RU/s per partition, 20000 per table */
} ru_capacity_t;

typedef enum {
    RU_TP_NONE = 0,  /* no option given */
    RU_TP_MANUAL,    /* cosmosdb_provisioned_throughput */
    RU_TP_AUTOSCALE, /* cosmosdb_autoscale_max_throughput */
} ru_tp_kind_t;

typedef struct ru_throughput_s {
    ru_tp_kind_t kind;
    int64_t ru_s; /* manual RU/s, or the autoscale maximum */
} ru_throughput_t;

typedef enum {
    RU_SCOPE_TABLE = 0, /* container */
    RU_SCOPE_KEYSPACE,  /* database: shared by its tables */
} ru_scope_t;

/* Checks a CREATE/ALTER option against the service's rules. BASE_OK, or
 * BASE_ERROR with err = {0x2200, the service's text}. RU_TP_NONE is valid. */
int ru_throughput_validate(ru_capacity_t capacity, ru_scope_t scope, const ru_throughput_t *tp,
                           base_error_t *err);

/*
 * The lowest value a CREATE/ALTER may set now (concepts-limits.md):
 *   manual table:      MAX(400, storage GB * 1, highest ever provisioned / 100)
 *   manual keyspace:   the same, and 400 + MAX(tables sharing it - 25, 0) * 100
 *   autoscale maximum: MAX(1000, storage GB * 10) for a table; a keyspace adds
 *                      1000 + MAX(tables sharing it - 25, 0) * 1000
 * rounded up to the kind's step (100 or 1000). throughput.c says which terms
 * are stated by the service and which are inferred.
 */
#define RU_SHARED_TABLES_FREE 25 /* tables a shared keyspace holds at its floor */
#define RU_GB                 (1024ULL * 1024 * 1024)

typedef enum {
    RU_MIN_FLOOR = 0, /* 400 manual, 1000 autoscale */
    RU_MIN_STORAGE,   /* storage GB * 1 RU/s (autoscale: * 10) */
    RU_MIN_HIGHEST,   /* highest throughput ever provisioned / 100 (manual) */
    RU_MIN_TABLES,    /* tables sharing a keyspace beyond the first 25 */
} ru_min_reason_t;

typedef struct ru_min_basis_s {
    ru_scope_t scope;
    uint64_t storage_bytes; /* the table's, or that of the tables sharing the keyspace */
    int64_t highest_ru_s;   /* highest RU/s (or autoscale maximum) ever set; 0: none */
    uint32_t shared_tables; /* keyspace: tables sharing its throughput */
} ru_min_basis_t;

/* The minimum for a kind of throughput; *why (may be NULL) names the term
 * that decided it. RU_TP_NONE: 0. */
int64_t ru_throughput_minimum(ru_tp_kind_t kind, const ru_min_basis_t *b, ru_min_reason_t *why);

/* BASE_OK when tp is at least the minimum, else BASE_ERROR with err = {0x2200,
 * a text naming the minimum and the term behind it}. */
int ru_throughput_check_minimum(const ru_throughput_t *tp, const ru_min_basis_t *b,
                                base_error_t *err);

/* max(1, ceil(ru_s / 10000), ceil(storage / 50 GB)) */
uint32_t ru_partitions_needed(int64_t ru_s, uint64_t storage_bytes);

/* The RU/s autoscale runs at for a demand: the demand rounded up to 100,
 * kept within [0.1 * max, max]. */
int64_t ru_autoscale_level(int64_t max_ru_s, double demand_ru_s);

/* ---- the meter (meter.c) ------------------------------------------------ */

typedef struct ru_meter_s ru_meter_t;

typedef struct ru_config_s {
    ru_capacity_t capacity;
    ru_consistency_t consistency;  /* account default consistency */
    bool rate_limiting;            /* true: throttle; false (default): only count */
    bool burst_capacity;           /* bank idle RU/s, spend at up to 3000 RU/s */
    ru_throughput_t default_table; /* tables with no option: manual 400 */
    ru_model_t model;
} ru_config_t;

void ru_config_defaults(ru_config_t *cfg);

ru_meter_t *ru_meter_new(const ru_config_t *cfg);
void ru_meter_free(ru_meter_t *m); /* accepts NULL */
const ru_config_t *ru_meter_config(const ru_meter_t *m);
void ru_meter_set_model(ru_meter_t *m, const ru_model_t *model);
void ru_meter_set_rate_limiting(ru_meter_t *m, bool on);

/* Keyspace throughput (shared by its tables that have no option of their
 * own). tp NULL or RU_TP_NONE: the keyspace has no shared throughput.
 * Validates first, then (changing an existing shared throughput) checks
 * ru_throughput_minimum(); on error nothing changes. */
int ru_meter_keyspace_set(ru_meter_t *m, const char *keyspace, const ru_throughput_t *tp,
                          int64_t now_us, base_error_t *err);
void ru_meter_keyspace_drop(ru_meter_t *m, const char *keyspace);

/* Table throughput. tp NULL or RU_TP_NONE: share the keyspace's throughput
 * if it has one, else the account default (or serverless). Tables never
 * declared are created on first use that way. A dropped table keeps its
 * statistics (they appear in snapshots) until re-created. A value below
 * the table's minimum is refused, and so is a new table that would push a
 * shared keyspace's minimum above its throughput; on error nothing changes. */
int ru_meter_table_set(ru_meter_t *m, const char *keyspace, const char *table,
                       const ru_throughput_t *tp, int64_t now_us, base_error_t *err);
void ru_meter_table_drop(ru_meter_t *m, const char *keyspace, const char *table);

/* Storage the table holds now; physical partitions split past 50 GB each
 * (and, as in the service, never merge back). */
void ru_meter_table_storage(ru_meter_t *m, const char *keyspace, const char *table, uint64_t bytes,
                            int64_t now_us);

/* Physical partitions behind a table (its own or its keyspace's). */
uint32_t ru_meter_partition_count(ru_meter_t *m, const char *keyspace, const char *table);

/* Maps a Murmur3 token onto one of n equal ranges of the ring. */
uint32_t ru_partition_for_token(int64_t token, uint32_t n);

typedef struct ru_request_s {
    const char *keyspace; /* NULL table: nothing to meter (system, USE) */
    const char *table;
    const char *shape;  /* normalised statement text; NULL: "(unknown)" */
    bool has_partition; /* the emulator knows the physical partition index */
    uint32_t partition; /* taken modulo the partition count */
    bool has_token;     /* else a partition-key token the request touched decides; */
    int64_t token;      /* with neither, the request fans out to every partition */
    double expected_ru; /* 0: the shape's mean so far, else default_expected_ru */
    /* One table's share of a request charged to several tables (a BATCH): booked to
     * the table only; the caller books the whole request once, in its shape's and
     * the meter's totals, with ru_meter_book_request(). */
    bool share;
    /* A write: the table's stored bytes after it (as ru_meter_table_storage). */
    bool has_storage;
    uint64_t storage_bytes;
} ru_request_t;

typedef struct ru_decision_s {
    bool throttle;       /* rate limiting on: reject with 0x1001, do not execute */
    bool would_throttle; /* rate limiting off: over budget, let through, warn */
    int retry_after_ms;  /* >= 1 when throttle or would_throttle, else 0 */
    int32_t partition;   /* partition the request was placed on, or RU_PARTITION_ALL */
    double available_ru; /* budget left on that partition (smallest one for a fan-out) */
    /* What admission looked up, for the charge of the same request: used when the
     * charge names its table and shape by the same strings (pointers). Opaque. */
    struct {
        const char *keyspace, *table, *shape;
        struct ru_table_s *t;
        struct ru_shape_s *sh;
    } found;
} ru_decision_t;

/* Decides before execution: the request passes when its partition's budget
 * covers the expected charge (at most one second's budget). A throttled
 * request costs nothing but is counted per shape, table and partition. */
void ru_meter_admit(ru_meter_t *m, const ru_request_t *req, int64_t now_us, ru_decision_t *out);

/* Prices what the request did, debits its partition(s) and records the
 * statistics. d is the admit decision (NULL: placed afresh, e.g. TTL
 * expiry). A would-throttle request is recorded but not debited, as the
 * service would have rejected it. Returns the charge for RequestCharge. */
double ru_meter_charge(ru_meter_t *m, const ru_request_t *req, const ru_decision_t *d,
                       const ru_op_t *op, int64_t now_us);

/* Books one request charged in shares (ru_request_t.share) once, under the shape
 * of req's table and in the meter's totals: ru is the sum of its shares' charges. */
void ru_meter_book_request(ru_meter_t *m, const ru_request_t *req, const ru_op_t *op, double ru,
                           int64_t now_us);

/* Guard-rails a table's requests crossed (cassandra.yaml's thresholds): refusals
 * under the cassandra profile, advisories under cosmos; counted per table. */
typedef enum {
    RU_GUARD_BATCH_SIZE_WARN,     /* batch_size_warn_threshold_in_kb */
    RU_GUARD_BATCH_SIZE_FAIL,     /* batch_size_fail_threshold_in_kb */
    RU_GUARD_UNLOGGED_PARTITIONS, /* unlogged_batch_across_partitions_warn_threshold */
    RU_GUARD_TOMBSTONE_WARN,      /* tombstone_warn_threshold */
    RU_GUARD_TOMBSTONE_FAIL,      /* tombstone_failure_threshold */
    RU_GUARD_LARGE_PARTITION,     /* compaction_large_partition_warning_threshold_mb */
    RU_GUARD_N,
} ru_guard_t;

/* "batch_size_warn", ...: the label in /stats and /metrics. */
const char *ru_guard_name(ru_guard_t g);

/* Counts one request of keyspace.table crossing guard-rail g. */
void ru_meter_guardrail(ru_meter_t *m, const char *keyspace, const char *table, ru_guard_t g,
                        int64_t now_us);

/* ---- statistics (stats.c) ----------------------------------------------- */

typedef struct ru_summary_s {
    uint64_t count;          /* requests executed and charged */
    uint64_t failed;         /* of count, those that ended in an error */
    uint64_t throttled;      /* rejected with 0x1001 (not in count: they cost nothing) */
    uint64_t would_throttle; /* rate limiting off: over budget but let through */
    double ru_total;
    double ru_mean;
    double ru_p50; /* from a log histogram: within about 3% */
    double ru_p99;
    double ru_max;
} ru_summary_t;

typedef struct ru_shape_stats_s {
    char *keyspace;
    char *table;
    char *shape;
    ru_summary_t s;
} ru_shape_stats_t;

typedef struct ru_partition_stats_s {
    uint32_t index;
    double budget_ru_s; /* this partition's share of the throughput now */
    double ru_total;
    double ru_last_s;  /* RU consumed in the last complete second */
    double peak_ru_s;  /* most RU consumed in any one wall-clock second */
    double peak_share; /* peak_ru_s / budget_ru_s: >= 1.0 is a hot partition */
    uint64_t throttled;
    uint64_t would_throttle;
} ru_partition_stats_t;

/* One wall-clock second of a table's traffic. */
typedef struct ru_second_s {
    int64_t sec; /* unix seconds */
    double ru;   /* charged */
    uint32_t throttled;
    double budget_ru_s;
} ru_second_t;


typedef struct ru_table_stats_s {
    char *keyspace;
    char *table;
    ru_throughput_t throughput; /* effective: own, the keyspace's, or the default */
    int64_t min_ru_s;           /* lowest value an ALTER may set now (the keyspace's if shared) */
    bool shared;                /* uses the keyspace's throughput */
    bool dropped;
    uint32_t n_partitions;
    double budget_ru_s; /* total RU/s the table may use now */
    uint64_t storage_bytes;
    ru_summary_t s;
    double peak_ru_s;               /* the table's most RU in any one second */
    double throttled_ru;            /* what throttled requests were expected to cost */
    double peak_demand_ru_s;        /* most RU offered in one second: charged + throttled */
    int64_t autoscale_peak;         /* autoscale: the level that peak needed, else 0 */
    uint32_t hot_partition;         /* index of the partition with the highest peak_share */
    double token_slices[RU_SLICES]; /* RU per 1/64 of the token ring (skew at any scale) */
    size_t n_parts;
    ru_partition_stats_t *parts;
    size_t n_series; /* the last seconds up to the snapshot, oldest first; 0 when the
                        table saw nothing in RU_SERIES_SECONDS */
    ru_second_t *series;
    uint64_t guards[RU_GUARD_N]; /* requests that crossed each guard-rail */
} ru_table_stats_t;

typedef struct ru_snapshot_s {
    int64_t started_us; /* first request seen */
    int64_t last_us;    /* latest request seen */
    int64_t taken_us;   /* now_us of the snapshot */
    /* The busy period: first to last request, at least 1 s. Idle time after the
     * traffic is left out, so an estimate does not shrink as the server waits. */
    double observed_s;
    double idle_s; /* last request to the snapshot */
    ru_capacity_t capacity;
    bool rate_limiting;
    ru_summary_t total;
    size_t n_tables; /* sorted by keyspace, table */
    ru_table_stats_t *tables;
    size_t n_shapes; /* sorted by RU total, highest first */
    ru_shape_stats_t *shapes;
} ru_snapshot_t;

void ru_meter_snapshot(const ru_meter_t *m, int64_t now_us, ru_snapshot_t *out);
void ru_snapshot_fini(ru_snapshot_t *snap);

/* Statistics start again (a test suite's per-test RU budget): every count,
 * RU total, histogram, per-second rate and peak, per shape, table and
 * partition, and the observed period. Throughput, partitions, storage and
 * the token buckets' state are configuration, not statistics: kept. */
void ru_meter_reset_stats(ru_meter_t *m);

/* The same for one table and its statement shapes; the account totals
 * lose what the table had contributed (their maximum is kept). BASE_OK,
 * or BASE_ENOTFOUND when the meter never saw the table. */
int ru_meter_reset_table_stats(ru_meter_t *m, const char *keyspace, const char *table);

/* ---- estimation (estimate.c) -------------------------------------------- */

typedef struct ru_prices_s {
    double manual_per_100_hour;    /* $ per 100 RU/s per hour, single write region */
    double autoscale_factor;       /* autoscale rate = factor * manual rate */
    double autoscale_floor;        /* billed at least this fraction of the max */
    double serverless_per_million; /* $ per million RU */
    double storage_per_gb_month;
    double multi_write_factor; /* provisioned rate with multi-region writes */
    uint32_t regions;          /* each region bills the full amount */
    bool multi_region_writes;
    double hours_per_month;
    double reserved_discount; /* 0 to 1: reserved capacity's saving on provisioned RU/s */
    bool free_tier;           /* the account's first 1000 RU/s and 25 GB are free */
    const char *as_of;        /* static text naming the price list */
} ru_prices_t;

/* List prices as of 2022-03 (understand-your-bill.md). */
void ru_prices_defaults(ru_prices_t *p);

typedef struct ru_estimate_params_s {
    double observed_s;     /* seconds of traffic in the snapshot; 0: the snapshot's */
    double scale;          /* traffic multiplier (200 for 200x); <= 0: 1 */
    double target_ops_s;   /* if > 0, overrides scale: total requests per second wanted */
    double storage_scale;  /* multiplier for stored bytes; <= 0: 1 */
    double peak_hours;     /* autoscale: hours a day at the observed peak; <= 0: 24 */
    bool observed_assumed; /* observed_s is an assumption (a replay without --duration) */
} ru_estimate_params_t;

typedef enum {
    RU_RISK_NONE = 0, /* no traffic */
    RU_RISK_LOW,      /* hottest partition below 80% of its budget */
    RU_RISK_MEDIUM,   /* 80-100% */
    RU_RISK_HIGH,     /* over budget, or over the 10000 RU/s partition limit */
} ru_risk_t;

const char *ru_risk_name(ru_risk_t r);

typedef struct ru_table_estimate_s {
    const char *keyspace; /* borrowed from the snapshot */
    const char *table;
    bool shared;
    double ops_s;
    double mean_ru_s;
    double peak_ru_s;
    double throttled_ru;        /* demand that was refused, included in mean and peak */
    int64_t peak_manual_ru_s;   /* the peak rounded up to 100, at least 400 */
    int64_t manual_ru_s;        /* recommended: peak_manual_ru_s, or more to cover the hot
                                   partition's share (hot_raised) */
    bool hot_raised;            /* manual_ru_s was raised above the peak for the hot partition */
    bool hot_unfixable;         /* a single key range needs over 10000 RU/s: no throughput
                                   fixes it, the partition key must spread the load */
    int64_t autoscale_max_ru_s; /* manual_ru_s rounded up to 1000, at least 1000 */
    int64_t autoscale_billed;   /* the mean hourly level billed (peak for peak_hours a day,
                                   the mean or 10% of max the rest), to 100 */
    uint32_t n_partitions;      /* behind manual_ru_s */
    double partition_budget;    /* manual_ru_s / n_partitions */
    double hot_share;           /* the busiest partition's share of the table's RU */
    double hot_ru_s;            /* peak_ru_s * hot_share */
    double hot_ratio;           /* hot_ru_s / partition_budget */
    ru_risk_t risk;
    bool serverless_fits; /* peak within 20000 and hot within 5000 RU/s */
    double storage_gb;
    double ru_per_month;
    double monthly_manual; /* $ */
    double monthly_autoscale;
    double monthly_serverless;
    double monthly_storage;
} ru_table_estimate_t;

typedef struct ru_estimate_s {
    double observed_s;
    bool observed_assumed;
    double scale;
    double peak_hours;
    ru_prices_t prices;
    size_t n_tables;
    ru_table_estimate_t *tables;
    /* Totals, storage excluded, after the account-level reserved discount and
     * free tier (the tables' own figures are list prices). */
    double monthly_manual;
    double monthly_autoscale;
    double monthly_serverless;
    double monthly_storage;
    double free_tier_credit; /* taken off the manual total (and autoscale, storage) */
    size_t n_hot_raised;     /* tables whose recommendation covers a hot partition */
    size_t n_hot_unfixable;
} ru_estimate_t;

/* Fills out from snap (which must outlive out). params may be NULL. */
void ru_estimate(const ru_snapshot_t *snap, const ru_estimate_params_t *params,
                 const ru_prices_t *prices, ru_estimate_t *out);
void ru_estimate_fini(ru_estimate_t *e);

/* ---- reports (report.c) ------------------------------------------------- */

/* Append a terminal report / a JSON document to out (NUL-terminated after
 * out->len). est may be NULL: statistics only. */
void ru_report_text(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out);
void ru_report_json(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out);

/* A self-contained HTML page (report_html.c): inline CSS and SVG charts of
 * RU by statement shape, RU/s each table needs against the recommendation,
 * and partition heat; no scripts, no external assets. Same conventions. */
void ru_report_html(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out);
/* The same page as a live dashboard: it reloads itself every refresh_s
 * seconds and opens with each table's RU/s over the last minutes against its
 * throughput, throttled requests over time and the hottest partitions now. */
void ru_report_dashboard(const ru_snapshot_t *snap, const ru_estimate_t *est, int refresh_s,
                         base_buf_t *out);

/* ---- messages (throttle.c) ---------------------------------------------- */

/*
 * The service's 0x1001 text:
 *   Request rate is large: ActivityID=<id>, RetryAfterMs=<n>, Additional details='...'
 * RetryAfterMs is the second comma-separated field (what the Azure retry
 * policies parse). activity_id must hold no ',', '=' or '\''. Returns the
 * length written (snprintf-style; >= cap means truncated) or -1 for a bad
 * activity id.
 */
int ru_throttle_message(char *out, size_t cap, const char *activity_id, int retry_after_ms);

/* The warning sent when rate limiting is off and the request would have
 * been throttled. Same return convention. */
int ru_throttle_warning(char *out, size_t cap, const char *keyspace, const char *table,
                        int32_t partition, int retry_after_ms);

#endif
