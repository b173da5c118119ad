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
#include <limits.h>

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


/* Text built as snprintf would build it (n counts every byte, stored or
 * not; out stays terminated), without its format parsing: a table over its
 * budget warns on most answers, and snprintf was a visible share of each. */
typedef struct text_s {
    char *out;
    size_t cap;
    size_t n;
} text_t;

static void put(text_t *t, const char *s, size_t len)
{
    if (t->n + 1 < t->cap) {
        size_t room = t->cap - 1 - t->n;
        memcpy(t->out + t->n, s, len < room ? len : room);
    }
    t->n += len;
    if (t->cap > 0) {
        t->out[t->n < t->cap - 1 ? t->n : t->cap - 1] = '\0';
    }
}

static void put_str(text_t *t, const char *s)
{
    put(t, s, strlen(s));
}

static void put_int(text_t *t, int64_t v)
{
    char digits[24];
    size_t i = sizeof(digits);
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    if (v < 0) {
        digits[--i] = '-';
    }
    put(t, digits + i, sizeof(digits) - i);
}


int ru_throttle_warning(char *out, size_t cap, const char *keyspace, const char *table,
                        int32_t partition, int retry_after_ms)
{
    text_t t = {out, cap, 0};
    put_str(&t, "Rate limiting is off: Azure Cosmos DB would have throttled this request "
                "(0x1001 Request rate is large, RetryAfterMs=");
    put_int(&t, retry_after_ms < 1 ? 1 : retry_after_ms);
    put_str(&t, ") on ");
    put_str(&t, keyspace ? keyspace : "");
    put_str(&t, ".");
    put_str(&t, table ? table : "");
    if (partition >= 0) {
        put_str(&t, ", physical partition ");
        put_int(&t, partition);
    } else {
        put_str(&t, ", all physical partitions");
    }
    put_str(&t, " is over its RU/s budget");
    return t.n > INT_MAX ? INT_MAX : (int)t.n;
}
