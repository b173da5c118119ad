/*
 * throughput.c - the service's throughput rules: which option values a
 * CREATE/ALTER may carry (with the service's own error texts), the minimum
 * a table or shared keyspace may be lowered to, how many physical
 * partitions a budget needs, where autoscale runs, and the account
 * consistency names. Layer: ru_meter. Pure functions.
 *
 * Texts: "The offer should have valid throughput values between 400 and
 * 1000000 inclusive in increments of 100." is what the service answers for a
 * bad manual value (seen in vscode-cosmosdb#1865 and SDK tests); the
 * autoscale form ("... increments of 1000.") was reported by a Terraform
 * user; the serverless texts are the service's 400 BadRequest messages.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "ru_meter/ru_int.h"

#define OFFER_TEXT                                                                             \
    "The offer should have valid throughput values between %d and %d inclusive in increments " \
    "of %d."


int ru_throughput_validate(ru_capacity_t capacity, ru_scope_t scope, const ru_throughput_t *tp,
                           base_error_t *err)
{
    if (tp == NULL || tp->kind == RU_TP_NONE) {
        return BASE_OK;
    }
    if (capacity == RU_CAPACITY_SERVERLESS) {
        if (scope == RU_SCOPE_KEYSPACE) {
            return base_error_set(
                err, RU_ERR_INVALID,
                "Shared throughput database creation is not supported for serverless accounts.");
        }
        return base_error_set(err, RU_ERR_INVALID,
                              "Setting offer throughput or autopilot on container is not "
                              "supported for serverless accounts.");
    }
    int min = tp->kind == RU_TP_AUTOSCALE ? RU_AUTOSCALE_MIN : RU_MANUAL_MIN;
    int step = tp->kind == RU_TP_AUTOSCALE ? RU_AUTOSCALE_STEP : RU_MANUAL_STEP;
    if (tp->ru_s < min || tp->ru_s > RU_THROUGHPUT_MAX || tp->ru_s % step != 0) {
        return base_error_set(err, RU_ERR_INVALID, OFFER_TEXT, min, RU_THROUGHPUT_MAX, step);
    }
    return BASE_OK;
}


/*
 * Minimums. Stated by the service (concepts-limits.md as quoted in the
 * facts file): a manual container needs MAX(400, storage GB * 1, highest
 * ever / 100); a shared database adds 400 + MAX(containers - 25, 0) * 100;
 * an autoscale maximum is at least 1000 and stores at most 0.1 * Tmax GB;
 * the first 25 containers of an autoscale shared database share a maximum
 * of 1000. Inferred here, the service's texts not saying:
 *  - the autoscale storage term, storage GB * 10: the inverse of 0.1 * Tmax GB;
 *  - + 1000 per table beyond 25 for an autoscale keyspace: the manual + 100
 *    at autoscale's 10% floor;
 *  - "highest ever" counts autoscale maxima too, and applies to manual only
 *    (no "highest maximum / 10" autoscale term: the facts do not state one);
 *  - GB is 2^30 bytes rounded up (as RU_PARTITION_MAX_BYTES), and the result
 *    is rounded up to the step, since nothing in between can be set.
 */
#define AUTOSCALE_RU_PER_GB     10
#define SHARED_MANUAL_PER_TABLE 100
#define SHARED_AUTOSCALE_TABLE  1000

typedef struct min_term_s {
    int64_t ru_s;
    ru_min_reason_t why;
} min_term_t;


/* The largest term of the formula, before rounding to the step. */
static min_term_t min_term(ru_tp_kind_t kind, const ru_min_basis_t *b)
{
    bool autoscale = kind == RU_TP_AUTOSCALE;
    min_term_t best = {autoscale ? RU_AUTOSCALE_MIN : RU_MANUAL_MIN, RU_MIN_FLOOR};
    int64_t gb = (int64_t)((b->storage_bytes + RU_GB - 1) / RU_GB);
    int64_t storage = gb * (autoscale ? AUTOSCALE_RU_PER_GB : 1);
    if (storage > best.ru_s) {
        best = (min_term_t){storage, RU_MIN_STORAGE};
    }
    if (!autoscale && b->highest_ru_s / 100 > best.ru_s) {
        best = (min_term_t){b->highest_ru_s / 100, RU_MIN_HIGHEST};
    }
    if (b->scope == RU_SCOPE_KEYSPACE && b->shared_tables > RU_SHARED_TABLES_FREE) {
        int64_t extra = (int64_t)b->shared_tables - RU_SHARED_TABLES_FREE;
        int64_t tables = autoscale ? RU_AUTOSCALE_MIN + extra * SHARED_AUTOSCALE_TABLE
                                   : RU_MANUAL_MIN + extra * SHARED_MANUAL_PER_TABLE;
        if (tables > best.ru_s) {
            best = (min_term_t){tables, RU_MIN_TABLES};
        }
    }
    return best;
}


static int64_t round_up(int64_t v, int64_t step)
{
    return (v + step - 1) / step * step;
}


int64_t ru_throughput_minimum(ru_tp_kind_t kind, const ru_min_basis_t *b, ru_min_reason_t *why)
{
    if (kind == RU_TP_NONE) {
        if (why != NULL) {
            *why = RU_MIN_FLOOR;
        }
        return 0;
    }
    min_term_t t = min_term(kind, b);
    if (why != NULL) {
        *why = t.why;
    }
    return round_up(t.ru_s, kind == RU_TP_AUTOSCALE ? RU_AUTOSCALE_STEP : RU_MANUAL_STEP);
}


int ru_throughput_check_minimum(const ru_throughput_t *tp, const ru_min_basis_t *b,
                                base_error_t *err)
{
    if (tp == NULL || tp->kind == RU_TP_NONE) {
        return BASE_OK;
    }
    bool autoscale = tp->kind == RU_TP_AUTOSCALE;
    int64_t min = ru_throughput_minimum(tp->kind, b, NULL);
    if (tp->ru_s >= min) {
        return BASE_OK;
    }
    min_term_t t = min_term(tp->kind, b);
    char why[160];
    switch (t.why) {
    case RU_MIN_STORAGE:
        snprintf(why, sizeof(why), "current storage %" PRIu64 " GB * %d RU/s per GB",
                 (uint64_t)((b->storage_bytes + RU_GB - 1) / RU_GB),
                 autoscale ? AUTOSCALE_RU_PER_GB : 1);
        break;
    case RU_MIN_HIGHEST:
        snprintf(why, sizeof(why), "highest throughput ever provisioned %" PRId64 " / 100",
                 b->highest_ru_s);
        break;
    case RU_MIN_TABLES:
        snprintf(why, sizeof(why), "%d + (%" PRIu32 " tables sharing it - %d) * %d RU/s",
                 autoscale ? RU_AUTOSCALE_MIN : RU_MANUAL_MIN, b->shared_tables,
                 RU_SHARED_TABLES_FREE,
                 autoscale ? SHARED_AUTOSCALE_TABLE : SHARED_MANUAL_PER_TABLE);
        break;
    case RU_MIN_FLOOR:
    default:
        snprintf(why, sizeof(why), "the least %s throughput the service accepts",
                 autoscale ? "autoscale maximum" : "manual");
        break;
    }
    return base_error_set(err, RU_ERR_INVALID,
                          "The offer %sthroughput value %" PRId64
                          " is below the minimum of %" PRId64 " RU/s for this %s (%s%s).",
                          autoscale ? "autoscale maximum " : "", tp->ru_s, min,
                          b->scope == RU_SCOPE_KEYSPACE ? "keyspace" : "table", why,
                          t.ru_s != min ? ", rounded up to the step" : "");
}


uint32_t ru_partitions_needed(int64_t ru_s, uint64_t storage_bytes)
{
    uint64_t by_ru =
        ru_s > 0 ? ((uint64_t)ru_s + RU_PARTITION_MAX_RU_S - 1) / RU_PARTITION_MAX_RU_S : 0;
    uint64_t by_bytes = (storage_bytes + RU_PARTITION_MAX_BYTES - 1) / RU_PARTITION_MAX_BYTES;
    uint64_t n = by_ru > by_bytes ? by_ru : by_bytes;
    if (n < 1) {
        n = 1;
    }
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}


int64_t ru_autoscale_level(int64_t max_ru_s, double demand_ru_s)
{
    double floor_ru = (double)max_ru_s / 10.0;
    double level = demand_ru_s > 0 ? ceil(demand_ru_s / RU_MANUAL_STEP) * RU_MANUAL_STEP : 0;
    if (level < floor_ru) {
        level = floor_ru;
    }
    if (level > (double)max_ru_s) {
        level = (double)max_ru_s;
    }
    return (int64_t)level;
}


static const char *const consistency_names[] = {
    [RU_CONSISTENCY_SESSION] = "Session",
    [RU_CONSISTENCY_STRONG] = "Strong",
    [RU_CONSISTENCY_BOUNDED_STALENESS] = "BoundedStaleness",
    [RU_CONSISTENCY_CONSISTENT_PREFIX] = "ConsistentPrefix",
    [RU_CONSISTENCY_EVENTUAL] = "Eventual",
};


const char *ru_consistency_name(ru_consistency_t c)
{
    if ((size_t)c >= sizeof(consistency_names) / sizeof(consistency_names[0])) {
        return "Unknown";
    }
    return consistency_names[c];
}


/* Compares ignoring case, '_', '-' and ' ': "bounded_staleness" matches. */
static bool loose_eq(const char *a, const char *b)
{
    for (;;) {
        while (*a == '_' || *a == '-' || *a == ' ') {
            a++;
        }
        while (*b == '_' || *b == '-' || *b == ' ') {
            b++;
        }
        char ca = (char)((*a >= 'A' && *a <= 'Z') ? *a + 32 : *a);
        char cb = (char)((*b >= 'A' && *b <= 'Z') ? *b + 32 : *b);
        if (ca != cb) {
            return false;
        }
        if (ca == '\0') {
            return true;
        }
        a++;
        b++;
    }
}


int ru_consistency_parse(const char *name, ru_consistency_t *out)
{
    for (size_t i = 0; i < sizeof(consistency_names) / sizeof(consistency_names[0]); i++) {
        if (name != NULL && loose_eq(name, consistency_names[i])) {
            *out = (ru_consistency_t)i;
            return BASE_OK;
        }
    }
    return BASE_EINVAL;
}
