/*
 * ru_int.h - ru_meter's private header: the token bucket, the histogram,
 * per-second rates, the string map, the meter's body and what the text, JSON
 * and HTML reports share. Only the .c files of ru_meter/ and its unit tests
 * include it.
 */
#ifndef RU_METER_RU_INT_H
#define RU_METER_RU_INT_H

#include "ru_meter/ru_meter.h"

/* ---- token bucket (token_bucket.c) --------------------------------------- */

/*
 * RU budget of one physical partition, refilled continuously at rate RU/s up
 * to one second's worth. Charges are known only after execution, so tokens
 * may go negative (debt) and the next requests wait until it is repaid.
 * With burst capacity on, refill that overflows a full bucket is banked (up
 * to 300 s of rate) and may be drawn at up to 3000 RU/s in total, metered by
 * a second allowance bucket refilled at 3000 - rate.
 */
typedef struct ru_bucket_s {
    double rate;       /* RU per second, > 0 */
    double capacity;   /* rate * 1 s */
    double tokens;     /* <= capacity; < 0 is debt */
    int64_t last_us;   /* time of the last refill */
    bool burst;        /* bank and allowance in use */
    double bank;       /* banked idle RU, <= bank_cap */
    double bank_cap;   /* rate * RU_BURST_SECONDS */
    double allow_rate; /* RU_BURST_MAX_RU_S - rate, >= 0 */
    double allowance;  /* <= allow_rate * 1 s: what may be drawn from bank now */
} ru_bucket_t;

void ru__bucket_init(ru_bucket_t *b, double rate, bool burst, int64_t now_us);
void ru__bucket_set_rate(ru_bucket_t *b, double rate, int64_t now_us);
void ru__bucket_refill(ru_bucket_t *b, int64_t now_us);
double ru__bucket_available(ru_bucket_t *b, int64_t now_us);
void ru__bucket_take(ru_bucket_t *b, double ru, int64_t now_us);
bool ru__bucket_try_take(ru_bucket_t *b, double ru, int64_t now_us);
double ru__bucket_take_leftover(ru_bucket_t *b, double ru, int64_t now_us);
int64_t ru__bucket_wait_us(ru_bucket_t *b, double ru, int64_t now_us);

/* ---- histogram (histogram.c) ----------------------------------------------- */

/* Log-linear buckets over hundredths of an RU: exact below 0.16 RU, then 16
 * sub-buckets per power of two (relative width 1/16). */
#define RU_HIST_SUB     16
#define RU_HIST_MAX_EXP 40
#define RU_HIST_BUCKETS (RU_HIST_SUB + (RU_HIST_MAX_EXP - 3) * RU_HIST_SUB)

typedef struct ru_hist_s {
    uint64_t count;
    double min;
    double max;
    uint64_t buckets[RU_HIST_BUCKETS];
} ru_hist_t;

void ru__hist_add(ru_hist_t *h, double v);
double ru__hist_percentile(const ru_hist_t *h, double pct);
size_t ru__hist_index(double v);

/* ---- statistics pieces (stats.c) ----------------------------------------- */

typedef struct ru_acc_s {
    uint64_t failed;
    uint64_t throttled;
    uint64_t would_throttle;
    double ru_total;
    ru_hist_t hist; /* hist.count is the request count */
} ru_acc_t;

/* RU per wall-clock second, and the highest second seen. */
typedef struct ru_rate_s {
    int64_t sec; /* second that cur belongs to, INT64_MIN before any */
    double cur;
    double prev; /* RU of sec - 1 */
    double peak;
} ru_rate_t;

/* The last RU_SERIES_SECONDS wall-clock seconds of one table, for the live
 * dashboard: a ring indexed by second, slots zeroed as time passes them. */
typedef struct ru_series_s {
    int64_t head; /* newest second written, INT64_MIN before any */
    float ru[RU_SERIES_SECONDS];
    float budget[RU_SERIES_SECONDS]; /* the table's RU/s budget in that second */
    uint32_t throttled[RU_SERIES_SECONDS];
} ru_series_t;

void ru__series_init(ru_series_t *s);
void ru__series_add(ru_series_t *s, int64_t now_us, double ru, uint32_t throttled,
                    double budget_ru_s);
/* Copies the seconds (now - n, now] out, oldest first (n <= RU_SERIES_SECONDS). */
void ru__series_copy(const ru_series_t *s, int64_t now_us, size_t n, ru_second_t *out);

typedef struct ru_part_s {
    ru_rate_t rate;
    double ru_total;
    uint64_t throttled;
    uint64_t would_throttle;
} ru_part_t;

void ru__acc_add(ru_acc_t *a, double ru, bool failed);
void ru__acc_summary(const ru_acc_t *a, ru_summary_t *out);
void ru__rate_init(ru_rate_t *r);
void ru__rate_add(ru_rate_t *r, double ru, int64_t now_us);
double ru__rate_last_second(const ru_rate_t *r, int64_t now_us);

/* ---- string map (map.c) ---------------------------------------------------- */

/* Open addressing, linear probing, keys copied, values borrowed. No removal:
 * the meter keeps the statistics of dropped tables. */
typedef struct ru_map_slot_s {
    char *key;
    size_t klen;
    uint64_t hash;
    void *val;
} ru_map_slot_t;

typedef struct ru_map_s {
    size_t cap; /* power of two, or 0 */
    size_t len;
    ru_map_slot_t *slots;
} ru_map_t;

void ru__map_init(ru_map_t *m);
void ru__map_fini(ru_map_t *m); /* frees keys, not values */
void *ru__map_get(const ru_map_t *m, const char *key, size_t klen);
void ru__map_put(ru_map_t *m, const char *key, size_t klen, void *val);

/* ---- the meter (meter.c) ----------------------------------------------------- */

/* A throughput budget: a table's own, or a keyspace's shared by its tables. */
typedef struct ru_pool_s {
    ru_throughput_t tp;    /* RU_TP_NONE: serverless */
    uint32_t n_partitions; /* >= 1; only grows (partitions never merge) */
    double partition_rate; /* RU/s per partition */
    ru_bucket_t *buckets;  /* n_partitions */
    uint64_t storage_bytes;
} ru_pool_t;

typedef struct ru_keyspace_s {
    char *name;
    bool has_pool;
    ru_pool_t pool;
    int64_t highest_ru_s; /* highest shared throughput ever set, for the minimum */
} ru_keyspace_t;

typedef enum {
    RU_TABLE_DEFAULT = 0, /* no option, no shared keyspace throughput */
    RU_TABLE_OWN,         /* its own option */
    RU_TABLE_SHARED,      /* no option, in a keyspace with throughput */
} ru_table_mode_t;

typedef struct ru_table_s {
    char *keyspace;
    char *table;
    ru_table_mode_t mode;
    bool dropped;
    ru_pool_t own;        /* used unless mode is SHARED */
    int64_t highest_ru_s; /* highest own throughput ever provisioned, for the minimum */
    uint64_t storage_bytes;
    ru_acc_t acc;
    ru_rate_t rate;
    /* Demand: what was charged plus what throttled requests were expected to
     * cost. Throttled requests are demand the table did not serve, so the
     * estimate sizes throughput from this, not from the admitted RU alone. */
    ru_rate_t demand;
    double throttled_ru;
    ru_series_t series;
    size_t n_parts; /* grows to the pool's partition count */
    ru_part_t *parts;
    double slices[RU_SLICES];
    uint64_t guards[RU_GUARD_N];
} ru_table_t;

typedef struct ru_shape_s {
    const struct ru_table_s *owner; /* tables live as long as the meter */
    char *keyspace;
    char *table;
    char *shape;
    ru_acc_t acc;
} ru_shape_t;

/* The pool a table draws on: its keyspace's when shared, else its own. */
ru_pool_t *ru__table_pool(const ru_meter_t *m, ru_table_t *t);

/* The lowest throughput an ALTER may give the table now (its keyspace's
 * minimum when it shares); 0 for serverless. */
int64_t ru__table_minimum(const ru_meter_t *m, const ru_table_t *t);

#define RU_RECENT 16 /* a power of two */

struct ru_meter_s {
    ru_config_t cfg;
    ru_map_t keyspaces; /* name -> ru_keyspace_t */
    ru_map_t tables;    /* "ks\0table" -> ru_table_t */
    ru_map_t shapes;    /* "ks\0table\0shape" -> ru_shape_t */
    ru_acc_t total;
    int64_t started_us; /* first request, -1 before */
    int64_t last_us;    /* latest request (TTL expiries excluded), -1 before */
    base_buf_t key;     /* scratch for map keys */
    /* Tables and shapes looked up lately, each in the slot its caller's name
     * pointer picks (a prepared statement's text and a table's name stay put):
     * requests mixing a few statements skip building and hashing their keys,
     * where one remembered entry missed at every change of statement (2% of a
     * YCSB-A load in the map, 2% in strcmp). A hit is checked by content, so a
     * reused address costs only a miss; entries are never removed, so the
     * pointers stay valid. */
    struct ru_table_s *recent_tables[RU_RECENT];
    struct ru_shape_s *recent_shapes[RU_RECENT];
};

/* ---- reports (report.c, report_html.c) ----------------------------------- */

/* "manual", "autoscale" or "serverless" (RU_TP_NONE): one spelling for all
 * the reports. */
const char *ru__tp_kind_name(ru_tp_kind_t k);

/* Writes a NUL just past out->len, so a finished report is a C string. */
void ru__report_terminate(base_buf_t *out);

#endif
