/*
 * metering.c - request units in the request path. Layer: emulator.
 *
 * Owns the process's ru_meter_t and the two cql hooks that feed it:
 * admission (before a statement on a user table touches storage) and
 * throughput (CREATE/ALTER/DROP with the cosmosdb_* options). After the
 * statement, emu_metering_charge() maps cql_stats_t onto ru_op_t in one
 * function (emu_metering_op) and lets ru_meter price, debit and record it.
 * Also loads the --cost-model and --prices JSON files at start-up.
 *
 * Invariants: one request at a time (the event loop has one thread), so the
 * admission decision of the statement running lives in m->cur from the
 * admit hook until the charge; emu_metering_begin() clears it and sets
 * the clock reading the request's admission and charge use. Throughput and
 * admission share one clock, base_mono_us.
 */
#include "emulator/metering.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <openssl/rand.h>

#define JSON_FILE_MAX (1024 * 1024) /* a calibration file is a few KB */

struct emu_metering_s {
    ru_meter_t *meter;
    ru_prices_t prices;
    char *prices_as_of; /* owns prices.as_of when a file named it */
    cql_profile_t profile;
    bool server_side_retry;
    int server_side_retry_ms;
    cql_engine_t *engine; /* attached to, for detaching */
    struct {
        bool admitted;
        cql_op_kind_t kind;
        ru_decision_t d;
        int64_t now_us; /* one clock reading serves the request's admission and charge */
    } cur;
    /* The would-throttle warning of the request running, read when
     * cur.d.would_throttle (apart from cur: not cleared per request). */
    char warning[512];
};

/* ---- files ------------------------------------------------------------------- */

/* Reads and parses a JSON object; NULL with msg filled. The caller frees
 * the result with cJSON_Delete. */
static cJSON *load_json(const char *flag, const char *path, char *msg, size_t cap)
{
    cJSON *root = NULL;
    char *text = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(msg, cap, "%s %s: %s", flag, path, strerror(errno));
        return NULL;
    }
    text = base_malloc(JSON_FILE_MAX + 1);
    size_t n = fread(text, 1, JSON_FILE_MAX + 1, f);
    if (ferror(f)) {
        snprintf(msg, cap, "%s %s: %s", flag, path, strerror(errno));
        goto done;
    }
    if (n > JSON_FILE_MAX) {
        snprintf(msg, cap, "%s %s: larger than %d bytes", flag, path, JSON_FILE_MAX);
        goto done;
    }
    text[n] = '\0';
    root = cJSON_Parse(text);
    if (root == NULL) {
        const char *at = cJSON_GetErrorPtr();
        snprintf(msg, cap, "%s %s: not valid JSON near byte %ld", flag, path,
                 at != NULL && at >= text && at <= text + n ? (long)(at - text) : 0L);
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        snprintf(msg, cap, "%s %s: the top level must be a JSON object", flag, path);
        cJSON_Delete(root);
        root = NULL;
    }
done:
    base_free(text);
    (void)fclose(f); /* read-only: nothing buffered to lose */
    return root;
}

/* Keys beginning with '_' are documentation ("_about", "_doc"). */
static bool is_doc_key(const cJSON *item)
{
    return item->string != NULL && item->string[0] == '_';
}

/* Applies every coefficient of a cost-model file on top of the defaults. */
static int load_model(const char *path, ru_model_t *model, char *msg, size_t cap)
{
    cJSON *root = load_json("--cost-model", path, msg, cap);
    if (root == NULL) {
        return BASE_ERROR;
    }
    int rc = BASE_OK;
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        if (is_doc_key(item)) {
            continue;
        }
        double ignored;
        if (ru_model_get(model, item->string, &ignored) != BASE_OK) {
            snprintf(msg, cap,
                     "--cost-model %s: unknown coefficient '%s' (the names are those of "
                     "ru_meter/cost_model.json)",
                     path, item->string);
            rc = BASE_ERROR;
            break;
        }
        if (!cJSON_IsNumber(item) ||
            ru_model_set(model, item->string, item->valuedouble) != BASE_OK) {
            snprintf(msg, cap, "--cost-model %s: '%s' must be a number >= 0", path, item->string);
            rc = BASE_ERROR;
            break;
        }
    }
    cJSON_Delete(root);
    return rc;
}

typedef enum { PRICE_NUMBER, PRICE_COUNT, PRICE_BOOL, PRICE_TEXT } price_type_t;

static const struct {
    const char *name;
    size_t offset;
    price_type_t type;
} price_keys[] = {
    {"manual_per_100_hour", offsetof(ru_prices_t, manual_per_100_hour), PRICE_NUMBER},
    {"autoscale_factor", offsetof(ru_prices_t, autoscale_factor), PRICE_NUMBER},
    {"autoscale_floor", offsetof(ru_prices_t, autoscale_floor), PRICE_NUMBER},
    {"serverless_per_million", offsetof(ru_prices_t, serverless_per_million), PRICE_NUMBER},
    {"storage_per_gb_month", offsetof(ru_prices_t, storage_per_gb_month), PRICE_NUMBER},
    {"multi_write_factor", offsetof(ru_prices_t, multi_write_factor), PRICE_NUMBER},
    {"hours_per_month", offsetof(ru_prices_t, hours_per_month), PRICE_NUMBER},
    {"regions", offsetof(ru_prices_t, regions), PRICE_COUNT},
    {"multi_region_writes", offsetof(ru_prices_t, multi_region_writes), PRICE_BOOL},
    {"reserved_discount", offsetof(ru_prices_t, reserved_discount), PRICE_NUMBER},
    {"free_tier", offsetof(ru_prices_t, free_tier), PRICE_BOOL},
    {"as_of", offsetof(ru_prices_t, as_of), PRICE_TEXT},
};

static int set_price(emu_metering_t *m, const cJSON *item, char *msg, size_t cap, const char *path)
{
    for (size_t i = 0; i < sizeof(price_keys) / sizeof(price_keys[0]); i++) {
        if (strcmp(price_keys[i].name, item->string) != 0) {
            continue;
        }
        char *field = (char *)&m->prices + price_keys[i].offset;
        double v = item->valuedouble;
        switch (price_keys[i].type) {
        case PRICE_NUMBER:
            if (!cJSON_IsNumber(item) || !(v >= 0) || v > 1e12) {
                break;
            }
            memcpy(field, &v, sizeof(v));
            return BASE_OK;
        case PRICE_COUNT:
            if (!cJSON_IsNumber(item) || !(v >= 1) || v > 1000 || v != (double)(uint32_t)v) {
                break;
            }
            *(uint32_t *)(void *)field = (uint32_t)v;
            return BASE_OK;
        case PRICE_BOOL:
            if (!cJSON_IsBool(item)) {
                break;
            }
            *(bool *)(void *)field = cJSON_IsTrue(item);
            return BASE_OK;
        case PRICE_TEXT:
            if (!cJSON_IsString(item)) {
                break;
            }
            base_free(m->prices_as_of);
            m->prices_as_of = base_strdup(item->valuestring);
            m->prices.as_of = m->prices_as_of;
            return BASE_OK;
        }
        snprintf(msg, cap, "--prices %s: '%s' must be %s", path, item->string,
                 price_keys[i].type == PRICE_BOOL    ? "true or false"
                 : price_keys[i].type == PRICE_TEXT  ? "a string"
                 : price_keys[i].type == PRICE_COUNT ? "a whole number from 1 to 1000"
                                                     : "a number >= 0");
        return BASE_ERROR;
    }
    snprintf(msg, cap, "--prices %s: unknown key '%s'", path, item->string);
    return BASE_ERROR;
}

static int load_prices(emu_metering_t *m, const char *path, char *msg, size_t cap)
{
    cJSON *root = load_json("--prices", path, msg, cap);
    if (root == NULL) {
        return BASE_ERROR;
    }
    int rc = BASE_OK;
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        if (!is_doc_key(item) && (rc = set_price(m, item, msg, cap, path)) != BASE_OK) {
            break;
        }
    }
    cJSON_Delete(root);
    return rc;
}

/* ---- lifecycle ----------------------------------------------------------------- */

emu_metering_t *emu_metering_new(const emu_config_t *cfg, char *msg, size_t cap)
{
    ru_config_t rc;
    ru_config_defaults(&rc);
    rc.capacity = cfg->serverless ? RU_CAPACITY_SERVERLESS : RU_CAPACITY_PROVISIONED;
    rc.consistency = cfg->consistency;
    rc.rate_limiting = cfg->rate_limiting;
    rc.burst_capacity = cfg->burst_capacity;
    rc.default_table.kind = RU_TP_MANUAL;
    rc.default_table.ru_s = cfg->default_throughput;
    if (cfg->cost_model_file != NULL &&
        load_model(cfg->cost_model_file, &rc.model, msg, cap) != BASE_OK) {
        return NULL;
    }
    emu_metering_t *m = base_calloc(1, sizeof(*m));
    ru_prices_defaults(&m->prices);
    if (cfg->prices_file != NULL && load_prices(m, cfg->prices_file, msg, cap) != BASE_OK) {
        emu_metering_free(m);
        return NULL;
    }
    m->meter = ru_meter_new(&rc);
    m->profile = cfg->profile;
    m->server_side_retry = cfg->server_side_retry;
    m->server_side_retry_ms = cfg->server_side_retry_ms;
    return m;
}

void emu_metering_free(emu_metering_t *m)
{
    if (m == NULL) {
        return;
    }
    ru_meter_free(m->meter);
    base_free(m->prices_as_of);
    base_free(m);
}

ru_meter_t *emu_metering_meter(emu_metering_t *m)
{
    return m->meter;
}

const ru_prices_t *emu_metering_prices(emu_metering_t *m)
{
    return &m->prices;
}

int64_t emu_metering_now_us(void)
{
    return base_mono_us();
}

bool emu_metering_server_side_retry(const emu_metering_t *m, int *budget_ms)
{
    if (budget_ms != NULL) {
        *budget_ms = m->server_side_retry_ms;
    }
    return m->server_side_retry;
}

/* ---- hooks ----------------------------------------------------------------------- */

/* A random (version 4) uuid: the ActivityID of one throttled request. */
static void activity_id(char out[37])
{
    uint8_t u[16];
    if (RAND_bytes(u, sizeof(u)) != 1) {
        uint64_t t = (uint64_t)base_now_us() ^ ((uint64_t)base_mono_us() << 17);
        for (size_t i = 0; i < sizeof(u);
             i++, t = t * 6364136223846793005ULL + 1442695040888963407ULL) {
            u[i] = (uint8_t)(t >> 56);
        }
    }
    u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
    u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
             u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
             u[14], u[15]);
}

static int hook_admit(void *ud, const cql_admission_t *a, base_error_t *err)
{
    emu_metering_t *m = ud;
    ru_request_t req = {
        .keyspace = a->keyspace,
        .table = a->table,
        .shape = a->shape,
        .has_token = a->has_token,
        .has_partition = a->has_partition,
        .partition = a->partition,
        .token = a->token,
    };
    ru_decision_t d;
    ru_meter_admit(m->meter, &req, m->cur.now_us, &d);
    /* A request is admitted once (a batch as a whole); should cql ask
     * again, the first decision places the charge unless a later one
     * refuses the request. */
    if (!m->cur.admitted || d.throttle) {
        m->cur.admitted = true;
        m->cur.kind = a->kind;
        m->cur.d = d;
    }
    if (d.would_throttle) {
        ru_throttle_warning(m->warning, sizeof(m->warning), a->keyspace, a->table, d.partition,
                            d.retry_after_ms);
    }
    if (!d.throttle) {
        return BASE_OK;
    }
    char id[37];
    activity_id(id);
    base_error_set(err, WIRE_ERR_OVERLOADED, "%s", "");
    ru_throttle_message(err->msg, sizeof(err->msg), id, d.retry_after_ms);
    return BASE_ERROR;
}

static int hook_throughput(void *ud, const cql_throughput_t *tp, uint32_t *physical_partitions,
                           base_error_t *err)
{
    emu_metering_t *m = ud;
    int64_t now = emu_metering_now_us();
    if (tp->dropped) {
        if (tp->table != NULL) {
            ru_meter_table_drop(m->meter, tp->keyspace, tp->table);
        } else {
            ru_meter_keyspace_drop(m->meter, tp->keyspace);
        }
        return BASE_OK;
    }
    ru_throughput_t t = {RU_TP_NONE, 0};
    if (tp->given) {
        if (tp->provisioned > 0 && tp->autoscale_max > 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "cosmosdb_provisioned_throughput and "
                                  "cosmosdb_autoscale_max_throughput cannot both be set: choose "
                                  "manual or autoscale throughput");
        }
        t.kind = tp->autoscale_max > 0 ? RU_TP_AUTOSCALE : RU_TP_MANUAL;
        t.ru_s = tp->autoscale_max > 0 ? tp->autoscale_max : tp->provisioned;
    }
    /* An ALTER without a throughput option leaves the throughput alone; a
     * CREATE without one shares the keyspace's or takes the default. */
    if (tp->given || tp->creating) {
        int rc = tp->table != NULL
                     ? ru_meter_table_set(m->meter, tp->keyspace, tp->table, &t, now, err)
                     : ru_meter_keyspace_set(m->meter, tp->keyspace, &t, now, err);
        if (rc != BASE_OK) {
            return rc;
        }
    }
    if (tp->table != NULL && physical_partitions != NULL) {
        *physical_partitions = ru_meter_partition_count(m->meter, tp->keyspace, tp->table);
    }
    return BASE_OK;
}

void emu_metering_attach(emu_metering_t *m, cql_engine_t *e)
{
    cql_hooks_t hooks = {hook_admit, hook_throughput, m};
    cql_engine_set_hooks(e, &hooks);
    m->engine = e;
}

/* ---- one request ---------------------------------------------------------------------- */

void emu_metering_begin(emu_metering_t *m, int64_t now_us)
{
    memset(&m->cur, 0, sizeof(m->cur));
    m->cur.now_us = now_us;
}

void emu_metering_admission(const emu_metering_t *m, emu_admission_t *out)
{
    memset(out, 0, sizeof(*out));
    out->admitted = m->cur.admitted;
    out->throttled = m->cur.d.throttle;
    out->would_throttle = m->cur.d.would_throttle;
    out->retry_after_ms = m->cur.d.retry_after_ms;
    out->read = m->cur.kind == CQL_OP_READ;
    out->warning = m->cur.d.would_throttle ? m->warning : NULL;
}

/*
 * The service answers an oversized request with HTTP 413 "Request size is
 * too large", which the Cassandra API maps onto 5376 = 0x1500 Write_failure
 * (monitor-reference.md: "413 | 5376 | ... there is a limit of 2MB per
 * row"). 0x2200 Invalid would be the other candidate, but the documented
 * mapping is Write_failure, so that is what drivers see (WriteFailure in
 * Python, ResponseError code 0x1500 in Node).
 */
int emu_metering_check_request(const emu_metering_t *m, const wire_request_t *req, size_t bytes,
                               base_error_t *err)
{
    if (m->profile != CQL_PROFILE_COSMOS || bytes <= EMU_MAX_REQUEST_BYTES) {
        return BASE_OK;
    }
    uint16_t cl = req->opcode == WIRE_OP_QUERY     ? req->u.query.params.consistency
                  : req->opcode == WIRE_OP_EXECUTE ? req->u.execute.params.consistency
                  : req->opcode == WIRE_OP_BATCH   ? req->u.batch.params.consistency
                                                   : WIRE_CL_ONE;
    base_error_set(err, WIRE_ERR_WRITE_FAILURE,
                   "Request size is too large: the request is %zu bytes and Azure Cosmos DB "
                   "accepts at most 2 MB (%u bytes) per request and per row",
                   bytes, EMU_MAX_REQUEST_BYTES);
    wire_error_detail_write_failure(err, cl, 0, 1, 1, emu_metering_write_type(req));
    return BASE_ERROR;
}

const char *emu_metering_write_type(const wire_request_t *req)
{
    if (req->opcode != WIRE_OP_BATCH) {
        return "SIMPLE";
    }
    return req->u.batch.type == WIRE_BATCH_LOGGED    ? "BATCH"
           : req->u.batch.type == WIRE_BATCH_COUNTER ? "COUNTER"
                                                     : "UNLOGGED_BATCH";
}

static uint32_t clamp_u32(size_t n)
{
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void emu_metering_op(const cql_stats_t *st, bool failed, ru_op_t *out)
{
    memset(out, 0, sizeof(*out));
    switch (st->kind) {
    case CQL_OP_NONE:
        out->kind = RU_OP_NONE;
        break;
    case CQL_OP_READ:
        out->kind = RU_OP_READ;
        break;
    case CQL_OP_WRITE:
        out->kind = RU_OP_WRITE;
        break;
    case CQL_OP_DELETE:
        out->kind = RU_OP_DELETE;
        break;
    case CQL_OP_DDL:
        out->kind = RU_OP_DDL;
        break;
    case CQL_OP_BATCH:
        out->kind = RU_OP_BATCH;
        break;
    case CQL_OP_LWT:
        out->kind = RU_OP_LWT;
        break;
    }
    out->consistency = st->consistency;
    out->point_read = st->point_read;
    out->cross_partition = st->cross_partition;
    out->allow_filtering = st->allow_filtering;
    out->index_lookup = st->index_lookup;
    out->failed = failed;
    out->n_indexes = clamp_u32(st->n_indexes);
    out->n_physical = 0; /* the meter knows the table's partitions */
    out->rows_read = st->rows_read;
    out->bytes_read = st->bytes_read;
    out->n_statements = st->n_statements;
    /* cql counts every mutation in rows_written, deletions included (and
     * a deletion of a live row as an overwrite): the deletions are priced
     * as deletes, the rest as writes. Tombstones carry no row bytes, so a
     * deleted row is priced at the 1 KB minimum.
     *
     * The written side is computed field by field, never copied as a pair:
     * cql stored bytes_written and overwrites a moment ago with two 8-byte
     * stores, and the compiler's 16-byte load of both could not be served
     * from the store buffer, so it waited for every store before it (a 1 KB
     * answer's): 1.5% of an insert's loop on one instruction. */
    size_t rows = st->rows_written;
    size_t deleted = st->rows_deleted < rows ? st->rows_deleted : rows;
    out->rows_deleted = st->rows_deleted;
    if (st->kind == CQL_OP_DELETE && st->rows_deleted == 0) {
        deleted = out->rows_deleted = rows;
    }
    size_t written = rows - deleted;
    size_t overwrites = st->overwrites;
    out->rows_written = written;
    out->overwrites = overwrites < written ? overwrites : written;
    out->bytes_written = written > 0 ? st->bytes_written : 0;
}

/* Drivers read the system tables on every connect and schema change; the
 * service serves them outside any table's throughput, so they are priced
 * but kept out of the per-table statistics (and out of estimates). */
static bool is_system_keyspace(const char *ks)
{
    static const char *const names[] = {"system",
                                        "system_schema",
                                        "system_auth",
                                        "system_traces",
                                        "system_distributed",
                                        "system_views",
                                        "system_virtual_schema"};
    if (ks == NULL || ks[0] != 's' || strncmp(ks, "system", 6) != 0) {
        return false; /* the common case, without seven strcmp calls per request */
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(ks, names[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Prices one table's share of a request (the whole request, or one table of a batch
 * over several): debits that table, records its statistics and guard-rails. d is the
 * admission decision when it was made for this table, else NULL. */
static double charge_table(emu_metering_t *m, const cql_stats_t *st, const ru_decision_t *d,
                           unsigned guardrails, bool share, bool failed)
{
    ru_op_t op;
    emu_metering_op(st, failed, &op);
    ru_request_t req = {
        .keyspace = st->keyspace,
        .table = st->table,
        .shape = st->shape,
        .has_token = st->has_token,
        .has_partition = st->has_partition,
        .partition = st->partition,
        .token = st->first_token,
        .share = share,
    };
    if (is_system_keyspace(req.keyspace)) {
        req.keyspace = NULL;
        req.table = NULL;
    }
    int64_t now = m->cur.now_us;
    /* storage feeds the estimates and splits partitions past 50 GB */
    req.has_storage = st->has_table_bytes && req.table != NULL;
    req.storage_bytes = st->table_bytes;
    double charge = ru_meter_charge(m->meter, &req, d, &op, now);
    for (int g = 0; g < RU_GUARD_N && req.table != NULL; g++) {
        if (guardrails & (1u << g)) { /* CQL_GUARD_* follow ru_guard_t's order */
            ru_meter_guardrail(m->meter, req.keyspace, req.table, (ru_guard_t)g, now);
        }
    }
    if (st->rows_ttl > 0 && req.table != NULL && !failed) {
        /* Rows written with a TTL will be deleted by the service when they expire, from
         * leftover throughput: booked now in the statistics, never in RequestCharge. */
        ru_op_t expiry = {
            .kind = RU_OP_TTL_EXPIRY, .rows_deleted = st->rows_ttl, .bytes_deleted = st->bytes_ttl};
        req.shape = "(TTL expiry of rows written with a TTL)";
        req.share = false; /* booked on its own, as every expiry */
        req.has_storage = false;
        ru_meter_charge(m->meter, &req, NULL, &expiry, now);
    }
    return charge;
}


double emu_metering_charge(emu_metering_t *m, const cql_result_t *res, bool failed, bool throttled)
{
    const cql_stats_t *st = &res->stats;
    if (throttled) {
        /* Refused before it ran: costs nothing; admission counted it. */
        return 0;
    }
    const ru_decision_t *d = m->cur.admitted ? &m->cur.d : NULL;
    if (st->n_parts < 2 || failed) {
        return charge_table(m, st, d, st->guardrails, false, failed);
    }
    /* A batch over several tables: each table's budget is debited, and its statistics
     * and estimate count, for its own statements, as the service charges each
     * container; RequestCharge is their sum. Admission (and so throttling) was
     * decided on the first table only. */
    double total = 0;
    for (size_t i = 0; i < st->n_parts; i++) {
        total += charge_table(m, &st->parts[i], i == 0 ? d : NULL, i == 0 ? st->guardrails : 0,
                              true, false);
    }
    ru_op_t op;
    emu_metering_op(st, false, &op);
    ru_request_t req = {.keyspace = st->keyspace, .table = st->table, .shape = st->shape};
    ru_meter_book_request(m->meter, &req, &op, total, m->cur.now_us);
    return total;
}
