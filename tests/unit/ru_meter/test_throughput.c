/* Unit tests for ru_meter/throughput.c: the option rules with the service's
 * error texts, partition counts, autoscale bounds and token placement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define MANUAL_TEXT                                                                       \
    "The offer should have valid throughput values between 400 and 1000000 inclusive in " \
    "increments of 100."
#define AUTOSCALE_TEXT                                                                     \
    "The offer should have valid throughput values between 1000 and 1000000 inclusive in " \
    "increments of 1000."


static int check(ru_capacity_t cap, ru_scope_t scope, ru_tp_kind_t kind, int64_t ru_s,
                 base_error_t *err)
{
    ru_throughput_t tp = {kind, ru_s};
    base_error_clear(err);
    return ru_throughput_validate(cap, scope, &tp, err);
}


static void manual_throughput_needs_400_to_1000000_in_steps_of_100(void **state)
{
    (void)state;
    base_error_t err;
    ru_capacity_t p = RU_CAPACITY_PROVISIONED;
    assert_int_equal(check(p, RU_SCOPE_TABLE, RU_TP_MANUAL, 400, &err), BASE_OK);
    assert_int_equal(check(p, RU_SCOPE_TABLE, RU_TP_MANUAL, 1000000, &err), BASE_OK);
    assert_int_equal(check(p, RU_SCOPE_KEYSPACE, RU_TP_MANUAL, 2000, &err), BASE_OK);
    int64_t bad[] = {0, -400, 300, 399, 450, 1000001, 1000100};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(check(p, RU_SCOPE_TABLE, RU_TP_MANUAL, bad[i], &err), BASE_ERROR);
        assert_int_equal(err.code, 0x2200);
        assert_string_equal(err.msg, MANUAL_TEXT);
    }
}


static void autoscale_max_needs_1000_in_steps_of_1000(void **state)
{
    (void)state;
    base_error_t err;
    ru_capacity_t p = RU_CAPACITY_PROVISIONED;
    assert_int_equal(check(p, RU_SCOPE_TABLE, RU_TP_AUTOSCALE, 1000, &err), BASE_OK);
    assert_int_equal(check(p, RU_SCOPE_KEYSPACE, RU_TP_AUTOSCALE, 5000, &err), BASE_OK);
    int64_t bad[] = {400, 500, 1500, 999, 1000500};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(check(p, RU_SCOPE_TABLE, RU_TP_AUTOSCALE, bad[i], &err), BASE_ERROR);
        assert_int_equal(err.code, 0x2200);
        assert_string_equal(err.msg, AUTOSCALE_TEXT);
    }
}


static void serverless_accepts_no_throughput(void **state)
{
    (void)state;
    base_error_t err;
    ru_capacity_t s = RU_CAPACITY_SERVERLESS;
    assert_int_equal(check(s, RU_SCOPE_TABLE, RU_TP_MANUAL, 400, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_string_equal(err.msg, "Setting offer throughput or autopilot on container is not "
                                 "supported for serverless accounts.");
    assert_int_equal(check(s, RU_SCOPE_TABLE, RU_TP_AUTOSCALE, 4000, &err), BASE_ERROR);
    assert_int_equal(check(s, RU_SCOPE_KEYSPACE, RU_TP_MANUAL, 400, &err), BASE_ERROR);
    assert_string_equal(err.msg,
                        "Shared throughput database creation is not supported for serverless "
                        "accounts.");
    /* no option is always fine */
    assert_int_equal(check(s, RU_SCOPE_TABLE, RU_TP_NONE, 0, &err), BASE_OK);
    assert_int_equal(ru_throughput_validate(s, RU_SCOPE_TABLE, NULL, &err), BASE_OK);
}


static void partitions_follow_throughput_and_storage(void **state)
{
    (void)state;
    uint64_t gb = 1024ULL * 1024 * 1024;
    assert_int_equal(ru_partitions_needed(0, 0), 1);
    assert_int_equal(ru_partitions_needed(400, 0), 1);
    assert_int_equal(ru_partitions_needed(10000, 0), 1);
    assert_int_equal(ru_partitions_needed(10100, 0), 2);
    assert_int_equal(ru_partitions_needed(30000, 0), 3);
    assert_int_equal(ru_partitions_needed(1000000, 0), 100);
    assert_int_equal(ru_partitions_needed(400, 50 * gb), 1);
    assert_int_equal(ru_partitions_needed(400, 50 * gb + 1), 2);
    assert_int_equal(ru_partitions_needed(20000, 120 * gb), 3);
}


static void autoscale_runs_between_a_tenth_and_the_max(void **state)
{
    (void)state;
    assert_int_equal(ru_autoscale_level(4000, 0), 400);
    assert_int_equal(ru_autoscale_level(4000, 100), 400);
    assert_int_equal(ru_autoscale_level(4000, 400), 400);
    assert_int_equal(ru_autoscale_level(4000, 1234), 1300);
    assert_int_equal(ru_autoscale_level(4000, 4000), 4000);
    assert_int_equal(ru_autoscale_level(4000, 9000), 4000);
    assert_int_equal(ru_autoscale_level(1000, 50), 100);
}


static void tokens_map_onto_equal_ranges_of_the_ring(void **state)
{
    (void)state;
    assert_int_equal(ru_partition_for_token(INT64_MIN, 3), 0);
    assert_int_equal(ru_partition_for_token(INT64_MAX, 3), 2);
    assert_int_equal(ru_partition_for_token(0, 3), 1);
    assert_int_equal(ru_partition_for_token(0, 2), 1);
    assert_int_equal(ru_partition_for_token(-1, 2), 0);
    assert_int_equal(ru_partition_for_token(12345, 1), 0);
    /* a third of the ring each */
    int64_t third = (int64_t)(UINT64_MAX / 3);
    assert_int_equal(ru_partition_for_token(INT64_MIN + third - (1LL << 33), 3), 0);
    assert_int_equal(ru_partition_for_token(INT64_MIN + third + (1LL << 33), 3), 1);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(manual_throughput_needs_400_to_1000000_in_steps_of_100),
        cmocka_unit_test(autoscale_max_needs_1000_in_steps_of_1000),
        cmocka_unit_test(serverless_accepts_no_throughput),
        cmocka_unit_test(partitions_follow_throughput_and_storage),
        cmocka_unit_test(autoscale_runs_between_a_tenth_and_the_max),
        cmocka_unit_test(tokens_map_onto_equal_ranges_of_the_ring),
    };
    return cmocka_run_group_tests_name("ru_meter/throughput", tests, NULL, NULL);
}
