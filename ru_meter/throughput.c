/*
 * throughput.c - the service's throughput rules: which option values a
 * CREATE/ALTER may carry (with the service's own error texts), how many
 * physical partitions a budget needs, where autoscale runs, and the account
 * consistency names. Layer: ru_meter. Pure functions.
 *
 * Texts: "The offer should have valid throughput values between 400 and
 * 1000000 inclusive in increments of 100." is what the service answers for a
 * bad manual value (seen in vscode-cosmosdb#1865 and SDK tests); the
 * autoscale form ("... increments of 1000.") was reported by a Terraform
 * user; the serverless texts are the service's 400 BadRequest messages.
 */
#include <math.h>

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
        char ca = (*a >= 'A' && *a <= 'Z') ? (char)(*a + 32) : *a;
        char cb = (*b >= 'A' && *b <= 'Z') ? (char)(*b + 32) : *b;
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
