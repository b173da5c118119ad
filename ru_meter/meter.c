/*
 * meter.c - the stateful meter: keyspace and table throughput, physical
 * partitions and their token buckets, admission before a request runs and
 * the charge after it. Layer: ru_meter. No I/O; time comes in as now_us.
 *
 * Model (partitioning-overview.md, troubleshoot-common-issues.md): a budget
 * of T RU/s (a table's own, or its keyspace's shared by the tables without
 * an option) is split evenly over n = max(1, ceil(T / 10000), ceil(storage /
 * 50 GB)) physical partitions, each a token bucket of T / n RU/s. Autoscale
 * enforces its maximum (it scales instantly between 10% and 100%);
 * serverless gives each partition min(5000, 20000 / n) RU/s. Partitions
 * split but never merge, as in the service. A request lands on the
 * partition of its token (or the index the emulator gives); one without a
 * key fans out and is charged evenly to every partition.
 *
 * Invariants: every table has its own pool initialised (its option, or the
 * account default), used unless it shares its keyspace's; t->n_parts only
 * grows and covers the pool's partitions after ensure_parts().
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>

#include "ru_meter/ru_int.h"


void ru_config_defaults(ru_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->capacity = RU_CAPACITY_PROVISIONED;
    cfg->consistency = RU_CONSISTENCY_SESSION;
    cfg->rate_limiting = false;
    cfg->burst_capacity = false;
    cfg->default_table.kind = RU_TP_MANUAL;
    cfg->default_table.ru_s = RU_DEFAULT_TABLE_RU_S;
    ru_model_defaults(&cfg->model);
}


ru_meter_t *ru_meter_new(const ru_config_t *cfg)
{
    ru_meter_t *m = base_calloc(1, sizeof(*m));
    if (cfg != NULL) {
        m->cfg = *cfg;
    } else {
        ru_config_defaults(&m->cfg);
    }
    ru__map_init(&m->keyspaces);
    ru__map_init(&m->tables);
    ru__map_init(&m->shapes);
    base_buf_init(&m->key);
    m->started_us = -1;
    m->last_us = -1;
    return m;
}


void ru_meter_free(ru_meter_t *m)
{
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->keyspaces.cap; i++) {
        ru_keyspace_t *ks = m->keyspaces.slots[i].val;
        if (m->keyspaces.slots[i].key != NULL) {
            base_free(ks->name);
            base_free(ks->pool.buckets);
            base_free(ks);
        }
    }
    for (size_t i = 0; i < m->tables.cap; i++) {
        ru_table_t *t = m->tables.slots[i].val;
        if (m->tables.slots[i].key != NULL) {
            base_free(t->keyspace);
            base_free(t->table);
            base_free(t->own.buckets);
            base_free(t->parts);
            base_free(t);
        }
    }
    for (size_t i = 0; i < m->shapes.cap; i++) {
        ru_shape_t *sh = m->shapes.slots[i].val;
        if (m->shapes.slots[i].key != NULL) {
            base_free(sh->keyspace);
            base_free(sh->table);
            base_free(sh->shape);
            base_free(sh);
        }
    }
    ru__map_fini(&m->keyspaces);
    ru__map_fini(&m->tables);
    ru__map_fini(&m->shapes);
    base_buf_fini(&m->key);
    base_free(m);
}


const ru_config_t *ru_meter_config(const ru_meter_t *m)
{
    return &m->cfg;
}


void ru_meter_set_model(ru_meter_t *m, const ru_model_t *model)
{
    m->cfg.model = *model;
}


void ru_meter_set_rate_limiting(ru_meter_t *m, bool on)
{
    m->cfg.rate_limiting = on;
}


/* ---- keys and registries ---------------------------------------------------- */

/* Builds "a\0b\0c" (parts after the first NULL are left out) in m->key. */
static void make_key(ru_meter_t *m, const char *a, const char *b, const char *c)
{
    base_buf_reset(&m->key);
    base_buf_put(&m->key, a, strlen(a));
    if (b != NULL) {
        base_buf_put_u8(&m->key, 0);
        base_buf_put(&m->key, b, strlen(b));
        if (c != NULL) {
            base_buf_put_u8(&m->key, 0);
            base_buf_put(&m->key, c, strlen(c));
        }
    }
}


static const char *ks_name(const char *keyspace)
{
    return keyspace != NULL ? keyspace : "";
}


static ru_keyspace_t *keyspace_find(ru_meter_t *m, const char *name)
{
    make_key(m, ks_name(name), NULL, NULL);
    return ru__map_get(&m->keyspaces, (const char *)m->key.data, m->key.len);
}


/* The recent_ slot for a name at p (ru_meter_s). */
static size_t recent_slot(const char *p)
{
    uintptr_t u = (uintptr_t)p;
    return (size_t)((u >> 4) ^ (u >> 12)) & (RU_RECENT - 1);
}


static ru_table_t *table_find(ru_meter_t *m, const char *keyspace, const char *table)
{
    ru_table_t **recent = &m->recent_tables[recent_slot(table)];
    ru_table_t *t = *recent;
    if (t != NULL && strcmp(t->table, table) == 0 && strcmp(t->keyspace, ks_name(keyspace)) == 0) {
        return t;
    }
    make_key(m, ks_name(keyspace), table, NULL);
    t = ru__map_get(&m->tables, (const char *)m->key.data, m->key.len);
    if (t != NULL) {
        *recent = t;
    }
    return t;
}


static double pool_rate(const ru_throughput_t *tp, uint32_t n)
{
    if (tp->kind == RU_TP_NONE) {
        double r = (double)RU_SERVERLESS_TABLE_RU / n;
        return r < RU_SERVERLESS_PARTITION_RU ? r : RU_SERVERLESS_PARTITION_RU;
    }
    return (double)tp->ru_s / n;
}


/* Applies a throughput (and the pool's storage) to a pool: splits it when
 * more partitions are needed, re-rates every bucket. */
static void pool_configure(const ru_meter_t *m, ru_pool_t *p, const ru_throughput_t *tp,
                           int64_t now_us)
{
    p->tp = *tp;
    uint32_t need = ru_partitions_needed(tp->kind == RU_TP_NONE ? 0 : tp->ru_s, p->storage_bytes);
    uint32_t old = p->n_partitions;
    uint32_t n = need > old ? need : old;
    double rate = pool_rate(tp, n);
    bool burst = m->cfg.burst_capacity && m->cfg.capacity == RU_CAPACITY_PROVISIONED;

    for (uint32_t i = 0; i < old; i++) {
        ru__bucket_set_rate(&p->buckets[i], rate, now_us);
    }
    if (n > old) {
        p->buckets = base_realloc(p->buckets, n * sizeof(ru_bucket_t));
        for (uint32_t i = old; i < n; i++) {
            ru__bucket_init(&p->buckets[i], rate, burst, now_us);
        }
    }
    p->n_partitions = n;
    p->partition_rate = rate;
}


static ru_throughput_t default_tp(const ru_meter_t *m)
{
    ru_throughput_t none = {RU_TP_NONE, 0};
    return m->cfg.capacity == RU_CAPACITY_SERVERLESS ? none : m->cfg.default_table;
}


static bool keyspace_shares(ru_meter_t *m, const char *keyspace)
{
    ru_keyspace_t *ks = keyspace_find(m, keyspace);
    return ks != NULL && ks->has_pool;
}


static ru_table_t *table_get(ru_meter_t *m, const char *keyspace, const char *table, int64_t now_us)
{
    ru_table_t *t = table_find(m, keyspace, table);
    if (t != NULL) {
        if (t->dropped) {
            /* re-created: a new, empty container with no throughput history */
            t->dropped = false;
            t->storage_bytes = 0;
            t->own.storage_bytes = 0;
            t->highest_ru_s = 0;
        }
        return t;
    }
    t = base_calloc(1, sizeof(*t));
    t->keyspace = base_strdup(ks_name(keyspace));
    t->table = base_strdup(table);
    ru__rate_init(&t->rate);
    ru__rate_init(&t->demand);
    ru__series_init(&t->series);
    ru_throughput_t tp = default_tp(m);
    pool_configure(m, &t->own, &tp, now_us);
    t->mode = keyspace_shares(m, keyspace) ? RU_TABLE_SHARED : RU_TABLE_DEFAULT;
    make_key(m, t->keyspace, t->table, NULL);
    ru__map_put(&m->tables, (const char *)m->key.data, m->key.len, t);
    return t;
}


ru_pool_t *ru__table_pool(const ru_meter_t *m, ru_table_t *t)
{
    if (t->mode == RU_TABLE_SHARED) {
        size_t n = strlen(t->keyspace);
        ru_keyspace_t *ks = ru__map_get(&m->keyspaces, t->keyspace, n);
        if (ks != NULL && ks->has_pool) {
            return &ks->pool;
        }
    }
    return &t->own;
}


static void ensure_parts(ru_table_t *t, uint32_t n)
{
    if (t->n_parts >= n) {
        return;
    }
    t->parts = base_realloc(t->parts, n * sizeof(ru_part_t));
    for (size_t i = t->n_parts; i < n; i++) {
        memset(&t->parts[i], 0, sizeof(ru_part_t));
        ru__rate_init(&t->parts[i].rate);
    }
    t->n_parts = n;
}


static ru_shape_t *shape_get(ru_meter_t *m, const ru_table_t *t, const char *shape)
{
    ru_shape_t **recent = &m->recent_shapes[recent_slot(shape)];
    ru_shape_t *last = *recent;
    if (last != NULL && last->owner == t && strcmp(last->shape, shape) == 0) {
        return last;
    }
    make_key(m, t->keyspace, t->table, shape);
    ru_shape_t *sh = ru__map_get(&m->shapes, (const char *)m->key.data, m->key.len);
    if (sh == NULL) {
        sh = base_calloc(1, sizeof(*sh));
        sh->owner = t;
        sh->keyspace = base_strdup(t->keyspace);
        sh->table = base_strdup(t->table);
        sh->shape = base_strdup(shape);
        ru__map_put(&m->shapes, (const char *)m->key.data, m->key.len, sh);
    }
    *recent = sh;
    return sh;
}


/* Widens the busy period [started_us, last_us] to now_us. */
static void note_start(ru_meter_t *m, int64_t now_us)
{
    int64_t t = now_us > 0 ? now_us : 0;
    if (m->started_us < 0) {
        m->started_us = t;
    }
    if (t > m->last_us) {
        m->last_us = t;
    }
}


/* ---- throughput configuration ------------------------------------------------- */

static uint32_t shared_table_count(const ru_meter_t *m, const char *keyspace)
{
    uint32_t n = 0;
    for (size_t i = 0; i < m->tables.cap; i++) {
        const ru_table_t *t = m->tables.slots[i].val;
        if (m->tables.slots[i].key != NULL && !t->dropped && t->mode == RU_TABLE_SHARED &&
            strcmp(t->keyspace, keyspace) == 0) {
            n++;
        }
    }
    return n;
}


static void keyspace_basis(const ru_meter_t *m, const ru_keyspace_t *ks, ru_min_basis_t *b)
{
    b->scope = RU_SCOPE_KEYSPACE;
    b->storage_bytes = ks->pool.storage_bytes;
    b->highest_ru_s = ks->highest_ru_s;
    b->shared_tables = shared_table_count(m, ks->name);
}


int64_t ru__table_minimum(const ru_meter_t *m, const ru_table_t *t)
{
    ru_min_basis_t b = {RU_SCOPE_TABLE, t->storage_bytes, t->highest_ru_s, 0};
    if (t->mode == RU_TABLE_SHARED) {
        const ru_keyspace_t *ks = ru__map_get(&m->keyspaces, t->keyspace, strlen(t->keyspace));
        if (ks != NULL && ks->has_pool) {
            keyspace_basis(m, ks, &b);
            return ru_throughput_minimum(ks->pool.tp.kind, &b, NULL);
        }
    }
    return ru_throughput_minimum(t->own.tp.kind, &b, NULL);
}


/*
 * A table joining a shared keyspace raises its minimum past 25 tables. The
 * service then wants the database's throughput raised first; refusing the
 * CREATE TABLE with the minimum it needs is inferred from the service
 * refusing containers beyond what the offer covers.
 */
static int check_join(ru_meter_t *m, ru_keyspace_t *ks, const char *table, base_error_t *err)
{
    ru_min_basis_t b;
    keyspace_basis(m, ks, &b);
    b.shared_tables++;
    if (ru_throughput_check_minimum(&ks->pool.tp, &b, err) == BASE_OK) {
        return BASE_OK;
    }
    char why[BASE_ERROR_MSG_MAX];
    memcpy(why, err->msg, sizeof(why));
    return base_error_set(err, RU_ERR_INVALID,
                          "Cannot create table %s.%s: %s Raise the keyspace's %s to at least "
                          "%" PRId64 " first.",
                          ks->name, table, why,
                          ks->pool.tp.kind == RU_TP_AUTOSCALE ? "cosmosdb_autoscale_max_throughput"
                                                              : "cosmosdb_provisioned_throughput",
                          ru_throughput_minimum(ks->pool.tp.kind, &b, NULL));
}


int ru_meter_keyspace_set(ru_meter_t *m, const char *keyspace, const ru_throughput_t *tp,
                          int64_t now_us, base_error_t *err)
{
    if (ru_throughput_validate(m->cfg.capacity, RU_SCOPE_KEYSPACE, tp, err) != BASE_OK) {
        return BASE_ERROR;
    }
    ru_keyspace_t *ks = keyspace_find(m, keyspace);
    bool given = tp != NULL && tp->kind != RU_TP_NONE;
    if (ks != NULL && ks->has_pool && given) {
        ru_min_basis_t b;
        keyspace_basis(m, ks, &b);
        if (ru_throughput_check_minimum(tp, &b, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (ks == NULL) {
        ks = base_calloc(1, sizeof(*ks));
        ks->name = base_strdup(ks_name(keyspace));
        make_key(m, ks->name, NULL, NULL);
        ru__map_put(&m->keyspaces, (const char *)m->key.data, m->key.len, ks);
    }
    if (!given) {
        ks->has_pool = false;
        return BASE_OK;
    }
    if (!ks->has_pool) {
        ks->highest_ru_s = 0; /* created (or given throughput) afresh */
    }
    ks->has_pool = true;
    if (tp->ru_s > ks->highest_ru_s) {
        ks->highest_ru_s = tp->ru_s;
    }
    pool_configure(m, &ks->pool, tp, now_us);
    return BASE_OK;
}


void ru_meter_keyspace_drop(ru_meter_t *m, const char *keyspace)
{
    ru_keyspace_t *ks = keyspace_find(m, keyspace);
    if (ks != NULL) {
        ks->has_pool = false;
        base_free(ks->pool.buckets);
        memset(&ks->pool, 0, sizeof(ks->pool));
    }
    const char *name = ks_name(keyspace);
    for (size_t i = 0; i < m->tables.cap; i++) {
        ru_table_t *t = m->tables.slots[i].val;
        if (m->tables.slots[i].key != NULL && strcmp(t->keyspace, name) == 0) {
            t->dropped = true;
        }
    }
}


int ru_meter_table_set(ru_meter_t *m, const char *keyspace, const char *table,
                       const ru_throughput_t *tp, int64_t now_us, base_error_t *err)
{
    if (ru_throughput_validate(m->cfg.capacity, RU_SCOPE_TABLE, tp, err) != BASE_OK) {
        return BASE_ERROR;
    }
    ru_table_t *t = table_find(m, keyspace, table);
    bool fresh = t == NULL || t->dropped;
    bool own = tp != NULL && tp->kind != RU_TP_NONE;
    if (own && !fresh) {
        ru_min_basis_t b = {RU_SCOPE_TABLE, t->storage_bytes, t->highest_ru_s, 0};
        if (ru_throughput_check_minimum(tp, &b, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    ru_keyspace_t *ks = keyspace_find(m, keyspace);
    bool shares = ks != NULL && ks->has_pool;
    if (!own && shares && (fresh || t->mode != RU_TABLE_SHARED) &&
        check_join(m, ks, table, err) != BASE_OK) {
        return BASE_ERROR;
    }
    t = table_get(m, keyspace, table, now_us);
    ru_throughput_t use = own ? *tp : default_tp(m);
    t->mode = own ? RU_TABLE_OWN : shares ? RU_TABLE_SHARED : RU_TABLE_DEFAULT;
    pool_configure(m, &t->own, &use, now_us);
    if (t->mode != RU_TABLE_SHARED && use.ru_s > t->highest_ru_s) {
        t->highest_ru_s = use.ru_s;
    }
    return BASE_OK;
}


void ru_meter_table_drop(ru_meter_t *m, const char *keyspace, const char *table)
{
    ru_table_t *t = table_find(m, keyspace, table);
    if (t != NULL && !t->dropped) {
        ru_pool_t *p = ru__table_pool(m, t);
        if (p != &t->own) {
            /* the keyspace no longer stores it (the statistics keep its size) */
            p->storage_bytes -=
                t->storage_bytes < p->storage_bytes ? t->storage_bytes : p->storage_bytes;
        }
        t->dropped = true;
    }
}


/* Also in ru_meter_charge, for a write that carries its table's new size. */
static void set_storage(ru_meter_t *m, ru_table_t *t, uint64_t bytes, int64_t now_us)
{
    ru_pool_t *p = ru__table_pool(m, t);
    if (p != &t->own) {
        p->storage_bytes = p->storage_bytes - t->storage_bytes + bytes;
    }
    t->own.storage_bytes = bytes;
    t->storage_bytes = bytes;
    /* Called after every write: re-rating every bucket only matters when the storage
     * splits the pool (the rate is a function of the partition count alone). */
    const ru_throughput_t *tp = &p->tp;
    if (ru_partitions_needed(tp->kind == RU_TP_NONE ? 0 : tp->ru_s, p->storage_bytes) >
        p->n_partitions) {
        ru_throughput_t copy = *tp;
        pool_configure(m, p, &copy, now_us);
    }
}


void ru_meter_table_storage(ru_meter_t *m, const char *keyspace, const char *table, uint64_t bytes,
                            int64_t now_us)
{
    set_storage(m, table_get(m, keyspace, table, now_us), bytes, now_us);
}


const char *ru_guard_name(ru_guard_t g)
{
    static const char *const names[RU_GUARD_N] = {
        "batch_size_warn", "batch_size_fail",   "unlogged_batch_partitions",
        "tombstone_warn",  "tombstone_failure", "large_partition",
    };
    return (unsigned)g < RU_GUARD_N ? names[g] : "unknown";
}


void ru_meter_guardrail(ru_meter_t *m, const char *keyspace, const char *table, ru_guard_t g,
                        int64_t now_us)
{
    if ((unsigned)g < RU_GUARD_N) {
        table_get(m, keyspace, table, now_us)->guards[g]++;
    }
}


uint32_t ru_meter_partition_count(ru_meter_t *m, const char *keyspace, const char *table)
{
    ru_table_t *t = table_find(m, keyspace, table);
    if (t == NULL) {
        if (keyspace_shares(m, keyspace)) {
            return keyspace_find(m, keyspace)->pool.n_partitions;
        }
        ru_throughput_t tp = default_tp(m);
        return ru_partitions_needed(tp.kind == RU_TP_NONE ? 0 : tp.ru_s, 0);
    }
    return ru__table_pool(m, t)->n_partitions;
}


uint32_t ru_partition_for_token(int64_t token, uint32_t n)
{
    uint64_t u = (uint64_t)token ^ 0x8000000000000000ULL; /* offset from INT64_MIN */
    return n == 0 ? 0 : (uint32_t)(((u >> 32) * n) >> 32);
}


static size_t slice_of_token(int64_t token)
{
    return (size_t)(((uint64_t)token ^ 0x8000000000000000ULL) >> 58);
}


/* ---- admission and charge -------------------------------------------------------- */

static int32_t place(const ru_pool_t *p, const ru_request_t *req)
{
    if (req->has_partition) {
        return (int32_t)(req->partition % p->n_partitions);
    }
    if (req->has_token) {
        return (int32_t)ru_partition_for_token(req->token, p->n_partitions);
    }
    return RU_PARTITION_ALL;
}


static const char *shape_text(const ru_request_t *req, const ru_op_t *op)
{
    if (req->shape != NULL) {
        return req->shape;
    }
    return op != NULL && op->kind == RU_OP_TTL_EXPIRY ? "(ttl expiry)" : "(unknown)";
}


static void add_slices(ru_table_t *t, const ru_request_t *req, int32_t part, uint32_t n, double ru);


void ru_meter_admit(ru_meter_t *m, const ru_request_t *req, int64_t now_us, ru_decision_t *out)
{
    memset(out, 0, sizeof(*out));
    out->partition = RU_PARTITION_ALL;
    if (req->table == NULL) {
        return;
    }
    note_start(m, now_us);
    ru_table_t *t = table_get(m, req->keyspace, req->table, now_us);
    ru_pool_t *p = ru__table_pool(m, t);
    ensure_parts(t, p->n_partitions);
    ru_shape_t *sh = shape_get(m, t, shape_text(req, NULL));
    out->found.keyspace = req->keyspace;
    out->found.table = req->table;
    out->found.shape = req->shape;
    out->found.t = t;
    out->found.sh = sh;

    double expected = req->expected_ru;
    if (!(expected > 0)) {
        expected = sh->acc.hist.count > 0 ? sh->acc.ru_total / (double)sh->acc.hist.count
                                          : m->cfg.model.default_expected_ru;
    }
    int32_t part = place(p, req);
    uint32_t first = part == RU_PARTITION_ALL ? 0 : (uint32_t)part;
    uint32_t end = part == RU_PARTITION_ALL ? p->n_partitions : first + 1;
    double need = part == RU_PARTITION_ALL ? expected / p->n_partitions : expected;

    int64_t wait_us = 0;
    uint32_t worst = first;
    double avail_min = INFINITY;
    for (uint32_t i = first; i < end; i++) {
        int64_t w = ru__bucket_wait_us(&p->buckets[i], need, now_us);
        double a = ru__bucket_available(&p->buckets[i], now_us);
        if (w > wait_us) {
            wait_us = w;
            worst = i;
        }
        if (a < avail_min) {
            avail_min = a;
        }
    }
    out->partition = part;
    out->available_ru = avail_min;
    if (wait_us == 0) {
        return;
    }

    int64_t ms = (wait_us + 999) / 1000;
    out->retry_after_ms = ms < 1 ? 1 : ms > INT_MAX ? INT_MAX : (int)ms;
    ru_part_t *pt = &t->parts[worst];
    if (m->cfg.rate_limiting) {
        out->throttle = true;
        /* refused, but offered: the estimate must cover it */
        t->throttled_ru += expected;
        ru__rate_add(&t->demand, expected, now_us);
        ru__series_add(&t->series, now_us, 0, 1, p->partition_rate * p->n_partitions);
        add_slices(t, req, part, p->n_partitions, expected);
        t->acc.throttled++;
        sh->acc.throttled++;
        pt->throttled++;
        m->total.throttled++;
    } else {
        out->would_throttle = true;
        t->acc.would_throttle++;
        sh->acc.would_throttle++;
        pt->would_throttle++;
        m->total.would_throttle++;
    }
}


/* Spreads RU over the token slices a request touched, for skew estimates. */
static void add_slices(ru_table_t *t, const ru_request_t *req, int32_t part, uint32_t n, double ru)
{
    if (req->has_token) {
        t->slices[slice_of_token(req->token)] += ru;
        return;
    }
    if (part == RU_PARTITION_ALL) {
        for (size_t s = 0; s < RU_SLICES; s++) {
            t->slices[s] += ru / RU_SLICES;
        }
        return;
    }
    /* slice s belongs to the partition holding its midpoint */
    size_t hits = 0;
    for (size_t s = 0; s < RU_SLICES; s++) {
        hits += ((2 * s + 1) * n) / (2 * RU_SLICES) == (size_t)part;
    }
    if (hits == 0) {
        t->slices[((size_t)part * RU_SLICES) / n] += ru;
        return;
    }
    for (size_t s = 0; s < RU_SLICES; s++) {
        if (((2 * s + 1) * n) / (2 * RU_SLICES) == (size_t)part) {
            t->slices[s] += ru / (double)hits;
        }
    }
}


double ru_meter_charge(ru_meter_t *m, const ru_request_t *req, const ru_decision_t *d,
                       const ru_op_t *op, int64_t now_us)
{
    if (d != NULL && d->throttle) {
        return 0; /* rejected: it ran nothing and costs nothing */
    }
    if (req == NULL || req->table == NULL || op->kind == RU_OP_NONE || op->kind == RU_OP_DDL) {
        return ru_cost(&m->cfg.model, m->cfg.consistency, op);
    }
    note_start(m, now_us);
    /* Admission found the table (and shape) by these very strings: no lookup again. */
    bool same = d != NULL && d->found.t != NULL && d->found.table == req->table &&
                d->found.keyspace == req->keyspace;
    ru_table_t *t = same ? d->found.t : table_get(m, req->keyspace, req->table, now_us);
    if (req->has_storage) {
        set_storage(m, t, req->storage_bytes, now_us);
    }
    ru_pool_t *p = ru__table_pool(m, t);
    ensure_parts(t, p->n_partitions);

    ru_op_t o = *op;
    if (o.cross_partition && o.n_physical == 0) {
        o.n_physical = p->n_partitions;
    }
    double cost = ru_cost(&m->cfg.model, m->cfg.consistency, &o);

    int32_t part = d != NULL ? d->partition : place(p, req);
    if (part != RU_PARTITION_ALL) {
        part = (int32_t)((uint32_t)part % p->n_partitions);
    }
    uint32_t first = part == RU_PARTITION_ALL ? 0 : (uint32_t)part;
    uint32_t end = part == RU_PARTITION_ALL ? p->n_partitions : first + 1;
    double share = cost / (end - first);
    bool debit = d == NULL || !d->would_throttle;
    for (uint32_t i = first; i < end; i++) {
        if (o.kind == RU_OP_TTL_EXPIRY) {
            ru__bucket_take_leftover(&p->buckets[i], share, now_us);
        } else if (debit) {
            ru__bucket_take(&p->buckets[i], share, now_us);
        }
        t->parts[i].ru_total += share;
        ru__rate_add(&t->parts[i].rate, share, now_us);
    }
    add_slices(t, req, part, p->n_partitions, cost);

    ru__rate_add(&t->rate, cost, now_us);
    ru__rate_add(&t->demand, cost, now_us);
    if (o.kind != RU_OP_TTL_EXPIRY) { /* expiries are booked ahead, not traffic of now */
        ru__series_add(&t->series, now_us, cost, 0, p->partition_rate * p->n_partitions);
    }
    ru__acc_add(&t->acc, cost, op->failed);
    if (!req->share) {
        ru_shape_t *sh = same && req->shape != NULL && d->found.shape == req->shape
                             ? d->found.sh
                             : shape_get(m, t, shape_text(req, op));
        ru__acc_add(&sh->acc, cost, op->failed);
        ru__acc_add(&m->total, cost, op->failed);
    }
    return cost;
}


void ru_meter_book_request(ru_meter_t *m, const ru_request_t *req, const ru_op_t *op, double ru,
                           int64_t now_us)
{
    if (req->table != NULL) {
        ru_table_t *t = table_get(m, req->keyspace, req->table, now_us);
        ru__acc_add(&shape_get(m, t, shape_text(req, op))->acc, ru, op->failed);
    }
    ru__acc_add(&m->total, ru, op->failed);
}


/* ---- resetting the statistics ----------------------------------------------- */

static void acc_clear(ru_acc_t *a)
{
    memset(a, 0, sizeof(*a));
}


/* Takes what part contributed out of whole; whole's min and max stay. */
static void acc_subtract(ru_acc_t *whole, const ru_acc_t *part)
{
    whole->failed -= part->failed < whole->failed ? part->failed : whole->failed;
    whole->throttled -= part->throttled < whole->throttled ? part->throttled : whole->throttled;
    whole->would_throttle -=
        part->would_throttle < whole->would_throttle ? part->would_throttle : whole->would_throttle;
    whole->ru_total -= part->ru_total;
    if (whole->ru_total < 0) {
        whole->ru_total = 0;
    }
    for (size_t i = 0; i < RU_HIST_BUCKETS; i++) {
        whole->hist.buckets[i] -= part->hist.buckets[i] < whole->hist.buckets[i]
                                      ? part->hist.buckets[i]
                                      : whole->hist.buckets[i];
    }
    whole->hist.count -=
        part->hist.count < whole->hist.count ? part->hist.count : whole->hist.count;
    if (whole->hist.count == 0) {
        memset(&whole->hist, 0, sizeof(whole->hist));
    }
}


static void table_clear(ru_table_t *t)
{
    acc_clear(&t->acc);
    ru__rate_init(&t->rate);
    for (size_t i = 0; i < t->n_parts; i++) {
        memset(&t->parts[i], 0, sizeof(ru_part_t));
        ru__rate_init(&t->parts[i].rate);
    }
    memset(t->slices, 0, sizeof(t->slices));
    ru__rate_init(&t->demand);
    t->throttled_ru = 0;
    ru__series_init(&t->series);
    memset(t->guards, 0, sizeof(t->guards));
}


void ru_meter_reset_stats(ru_meter_t *m)
{
    for (size_t i = 0; i < m->tables.cap; i++) {
        if (m->tables.slots[i].key != NULL) {
            table_clear(m->tables.slots[i].val);
        }
    }
    for (size_t i = 0; i < m->shapes.cap; i++) {
        if (m->shapes.slots[i].key != NULL) {
            acc_clear(&((ru_shape_t *)m->shapes.slots[i].val)->acc);
        }
    }
    acc_clear(&m->total);
    m->started_us = -1;
    m->last_us = -1;
}


int ru_meter_reset_table_stats(ru_meter_t *m, const char *keyspace, const char *table)
{
    ru_table_t *t = table_find(m, keyspace, table);
    if (t == NULL) {
        return BASE_ENOTFOUND;
    }
    acc_subtract(&m->total, &t->acc);
    table_clear(t);
    for (size_t i = 0; i < m->shapes.cap; i++) {
        ru_shape_t *sh = m->shapes.slots[i].val;
        if (m->shapes.slots[i].key != NULL && strcmp(sh->keyspace, t->keyspace) == 0 &&
            strcmp(sh->table, t->table) == 0) {
            acc_clear(&sh->acc);
        }
    }
    return BASE_OK;
}
