/*
 * throttle.c - the texts a throttled request produces: the service's 0x1001
 * Overloaded message, and the warning the emulator attaches when rate
 * limiting is off. Layer: ru_meter.
 *
 * Clients parse the 0x1001 text (cosmos-cassandra-api-facts.md 2.2): the
 * Azure retry policies split it on ',' then '=' and Integer.parseInt the
 * value of "RetryAfterMs", which must be the second comma-separated field.
 * So: nothing before RetryAfterMs may hold a comma, the value is a bare
 * decimal (no spaces, >= 1), and '=' follows the key directly.
 */
#include "ru_meter/ru_int.h"

#define DETAILS_HEAD "Response status code does not indicate success: TooManyRequests (429); "
#define DETAILS_REASON                                                                           \
    "Reason: (Message: {\"Errors\":[\"Request rate is large. More Request Units may be needed, " \
    "so no changes were made. Please retry this request later. Learn more: "                     \
    "http://aka.ms/cosmosdb-error-429\"]}"


int ru_throttle_message(char *out, size_t cap, const char *activity_id, int retry_after_ms)
{
    if (activity_id == NULL || activity_id[0] == '\0' || strpbrk(activity_id, ",='") != NULL) {
        return -1;
    }
    if (retry_after_ms < 1) {
        retry_after_ms = 1;
    }
    return snprintf(
        out, cap,
        "Request rate is large: ActivityID=%s, RetryAfterMs=%d, Additional details='" DETAILS_HEAD
        "Substatus: 3200; ActivityId: %s; " DETAILS_REASON "'",
        activity_id, retry_after_ms, activity_id);
}


int ru_throttle_warning(char *out, size_t cap, const char *keyspace, const char *table,
                        int32_t partition, int retry_after_ms)
{
    char where[32];
    if (partition >= 0) {
        snprintf(where, sizeof(where), "physical partition %d", (int)partition);
    } else {
        snprintf(where, sizeof(where), "all physical partitions");
    }
    return snprintf(out, cap,
                    "Rate limiting is off: Azure Cosmos DB would have throttled this request "
                    "(0x1001 Request rate is large, RetryAfterMs=%d) on %s.%s, %s is over its "
                    "RU/s budget",
                    retry_after_ms < 1 ? 1 : retry_after_ms, keyspace ? keyspace : "",
                    table ? table : "", where);
}
