/* Unit tests for ru_meter/throttle.c: the exact 0x1001 text, and that the
 * Azure retry policies' parsing finds RetryAfterMs in it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define ID "98f98762-512e-442d-b5ef-36f5d03d788f"


static void message_is_the_services_text(void **state)
{
    (void)state;
    char out[1024];
    int n = ru_throttle_message(out, sizeof(out), ID, 25);
    const char *want =
        "Request rate is large: ActivityID=" ID ", RetryAfterMs=25, Additional details='Response "
        "status code does not indicate success: TooManyRequests (429); Substatus: 3200; "
        "ActivityId: " ID "; Reason: (Message: {\"Errors\":[\"Request rate is large. More Request "
        "Units may be needed, so no changes were made. Please retry this request later. Learn "
        "more: http://aka.ms/cosmosdb-error-429\"]}'";
    assert_string_equal(out, want);
    assert_int_equal(n, (int)strlen(want));
}


/* What CosmosRetryPolicy.getRetryAfterMillis does: split on ",", each token
 * on "=", keep 2-part tokens whose trimmed key is RetryAfterMs, and
 * Integer.parseInt the value untrimmed. Returns -1 when not found. */
static long java_retry_after(const char *msg, int *field)
{
    long found = -1;
    char copy[1024];
    snprintf(copy, sizeof(copy), "%s", msg);
    int i = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        i++;
        char *eq = strchr(tok, '=');
        if (eq == NULL || strchr(eq + 1, '=') != NULL) {
            continue;
        }
        *eq = '\0';
        while (*tok == ' ') {
            tok++;
        }
        if (strcmp(tok, "RetryAfterMs") != 0) {
            continue;
        }
        const char *v = eq + 1;
        char *end = NULL;
        errno = 0;
        long n = strtol(v, &end, 10);
        assert_true(v[0] >= '0' && v[0] <= '9'); /* parseInt rejects leading blanks */
        assert_true(*end == '\0' && errno == 0 && n <= INT32_MAX);
        assert_int_equal(found, -1); /* exactly once */
        found = n;
        *field = i;
    }
    return found;
}


static void retry_after_is_the_second_field_and_parses_as_an_int(void **state)
{
    (void)state;
    char out[1024];
    int field = 0;
    ru_throttle_message(out, sizeof(out), ID, 1234);
    assert_int_equal(java_retry_after(out, &field), 1234);
    assert_int_equal(field, 2);
    /* the first field holds no comma: split(",")[1] is RetryAfterMs */
    const char *comma = strchr(out, ',');
    assert_memory_equal(comma, ", RetryAfterMs=1234,", strlen(", RetryAfterMs=1234,"));
    /* retry below 1 ms is sent as 1 */
    ru_throttle_message(out, sizeof(out), ID, 0);
    assert_int_equal(java_retry_after(out, &field), 1);
}


static void activity_ids_that_would_break_parsing_are_refused(void **state)
{
    (void)state;
    char out[256];
    assert_int_equal(ru_throttle_message(out, sizeof(out), "a,b", 5), -1);
    assert_int_equal(ru_throttle_message(out, sizeof(out), "a=b", 5), -1);
    assert_int_equal(ru_throttle_message(out, sizeof(out), "a'b", 5), -1);
    assert_int_equal(ru_throttle_message(out, sizeof(out), "", 5), -1);
    assert_int_equal(ru_throttle_message(out, sizeof(out), NULL, 5), -1);
}


static void truncation_reports_the_full_length(void **state)
{
    (void)state;
    char small[40];
    int n = ru_throttle_message(small, sizeof(small), ID, 7);
    assert_true(n >= (int)sizeof(small));
    assert_int_equal(strlen(small), sizeof(small) - 1);
}


static void warning_names_the_table_and_partition(void **state)
{
    (void)state;
    char out[512];
    ru_throttle_warning(out, sizeof(out), "ks", "t", 2, 40);
    assert_non_null(strstr(out, "ks.t"));
    assert_non_null(strstr(out, "physical partition 2"));
    assert_non_null(strstr(out, "RetryAfterMs=40"));
    ru_throttle_warning(out, sizeof(out), "ks", "t", RU_PARTITION_ALL, 40);
    assert_non_null(strstr(out, "all physical partitions"));
}


/* The text as the format it was written with says it, whatever the room. */
static void warning_is_built_as_snprintf_would(void **state)
{
    (void)state;
    const struct {
        const char *ks, *t;
        int32_t partition;
        int retry;
    } cases[] = {{"ks", "t", 2, 40},
                 {"bench", "kv", 71, 1},
                 {"k", "tbl", RU_PARTITION_ALL, 0},
                 {NULL, NULL, 0, -5},
                 {"ks", "t", INT32_MAX, INT32_MAX}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char where[40], want[512];
        if (cases[i].partition >= 0) {
            snprintf(where, sizeof(where), "physical partition %d", (int)cases[i].partition);
        } else {
            snprintf(where, sizeof(where), "all physical partitions");
        }
        int full = snprintf(want, sizeof(want),
                            "Rate limiting is off: Azure Cosmos DB would have throttled this "
                            "request (0x1001 Request rate is large, RetryAfterMs=%d) on %s.%s, %s "
                            "is over its RU/s budget",
                            cases[i].retry < 1 ? 1 : cases[i].retry, cases[i].ks ? cases[i].ks : "",
                            cases[i].t ? cases[i].t : "", where);
        for (size_t cap = 0; cap <= (size_t)full + 2; cap += cap < 8 ? 1 : 37) {
            char got[512], ref[512];
            memset(got, 'x', sizeof(got));
            snprintf(ref, cap > 0 ? cap : 1, "%s", want);
            assert_int_equal(ru_throttle_warning(got, cap, cases[i].ks, cases[i].t,
                                                 cases[i].partition, cases[i].retry),
                             full);
            if (cap > 0) {
                assert_string_equal(got, ref);
            } else {
                assert_true(got[0] == 'x'); /* no room: nothing written */
            }
        }
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(message_is_the_services_text),
        cmocka_unit_test(retry_after_is_the_second_field_and_parses_as_an_int),
        cmocka_unit_test(activity_ids_that_would_break_parsing_are_refused),
        cmocka_unit_test(truncation_reports_the_full_length),
        cmocka_unit_test(warning_names_the_table_and_partition),
        cmocka_unit_test(warning_is_built_as_snprintf_would),
    };
    return cmocka_run_group_tests_name("ru_meter/throttle", tests, NULL, NULL);
}
