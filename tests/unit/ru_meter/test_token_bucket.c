/* Unit tests for ru_meter/token_bucket.c: continuous refill at fractional
 * rates, debt, waits, leftover takes and burst capacity. Time is fake. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_int.h"

#define SEC 1000000LL
#define MS  1000LL


static void assert_near(double got, double want, double tol)
{
    if (fabs(got - want) > tol) {
        fail_msg("got %.6f, want %.6f (+-%g)", got, want, tol);
    }
}


static void new_bucket_holds_one_second_of_its_rate(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 400, false, 0);
    assert_near(ru__bucket_available(&b, 0), 400, 1e-9);
    /* idle time never raises it past one second's worth */
    assert_near(ru__bucket_available(&b, 60 * SEC), 400, 1e-9);
}


static void refill_is_continuous_at_fractional_rates(void **state)
{
    (void)state;
    ru_bucket_t b;
    double rate = 400.0 / 3.0; /* 400 RU/s over 3 partitions */
    ru__bucket_init(&b, rate, false, 0);
    assert_true(ru__bucket_try_take(&b, rate, 0));
    assert_near(ru__bucket_available(&b, 0), 0, 1e-9);
    assert_false(ru__bucket_try_take(&b, 1, 0));
    /* 7.5 ms later: 133.33 * 0.0075 = 1.0 RU */
    assert_near(ru__bucket_available(&b, 7500), 1.0, 1e-9);
    ru__bucket_take(&b, 1.0, 7500);
    assert_near(ru__bucket_available(&b, 7500), 0, 1e-9);
    /* 1 ms steps add up exactly */
    for (int i = 1; i <= 300; i++) {
        ru__bucket_refill(&b, 7500 + i * MS);
    }
    assert_near(ru__bucket_available(&b, 7500 + 300 * MS), rate * 0.3, 1e-6);
    /* taking 0.01 RU at a time */
    ru_bucket_t c;
    ru__bucket_init(&c, 0.5, false, 0);
    int taken = 0;
    while (ru__bucket_try_take(&c, 0.01, 0)) {
        taken++;
    }
    assert_true(taken >= 49 && taken <= 50);
}


static void time_going_backwards_adds_nothing(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 100, false, 10 * SEC);
    ru__bucket_take(&b, 100, 10 * SEC);
    assert_near(ru__bucket_available(&b, 9 * SEC), 0, 1e-9);
    assert_near(ru__bucket_available(&b, 10 * SEC + 500 * MS), 50, 1e-9);
}


static void a_charge_beyond_the_balance_is_debt(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 400, false, 0);
    ru__bucket_take(&b, 1000, 0); /* a big scan billed after it ran */
    assert_near(b.tokens, -600, 1e-9);
    /* 200 RU are covered once 800 RU have refilled: 2 s */
    assert_int_equal(ru__bucket_wait_us(&b, 200, 0), 2000000);
    assert_int_equal(ru__bucket_wait_us(&b, 200, 2000000), 0);
}


static void wait_covers_at_most_one_second_of_budget(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 100, false, 0);
    ru__bucket_take(&b, 100, 0);
    /* a request expected to cost 500 RU waits for a full bucket, not 5 s */
    assert_int_equal(ru__bucket_wait_us(&b, 500, 0), 1000000);
    assert_int_equal(ru__bucket_wait_us(&b, 25, 0), 250000);
}


static void leftover_takes_never_go_into_debt(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 400, false, 0);
    ru__bucket_take(&b, 390, 0);
    assert_near(ru__bucket_take_leftover(&b, 50, 0), 10, 1e-9);
    assert_near(b.tokens, 0, 1e-9);
    assert_near(ru__bucket_take_leftover(&b, 50, 0), 0, 1e-9);
    assert_near(b.tokens, 0, 1e-9);
}


static void rate_change_keeps_tokens_within_the_new_capacity(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 10000, false, 0);
    ru__bucket_set_rate(&b, 400, 0);
    assert_near(ru__bucket_available(&b, 0), 400, 1e-9);
    ru__bucket_take(&b, 400, 0);
    ru__bucket_set_rate(&b, 1000, 0);
    assert_near(ru__bucket_available(&b, 100 * MS), 100, 1e-9);
}


static void idle_partitions_bank_up_to_300_seconds(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 400, true, 0);
    ru__bucket_refill(&b, 100 * SEC);
    assert_near(b.bank, 40000, 1e-6);
    ru__bucket_refill(&b, 600 * SEC);
    assert_near(b.bank, 120000, 1e-6); /* 400 RU/s * 300 s */
    /* spend: 400 from the bucket plus up to 2600 from the bank, i.e. 3000 RU/s */
    assert_near(ru__bucket_available(&b, 600 * SEC), 3000, 1e-6);
    assert_true(ru__bucket_try_take(&b, 3000, 600 * SEC));
    assert_near(b.bank, 117400, 1e-6);
    assert_false(ru__bucket_try_take(&b, 1, 600 * SEC));
    /* one second later: 400 refilled, 2600 of allowance */
    assert_near(ru__bucket_available(&b, 601 * SEC), 3000, 1e-6);
    /* busy partitions bank nothing */
    ru__bucket_take(&b, 3000, 601 * SEC);
    ru__bucket_refill(&b, 602 * SEC);
    assert_near(b.bank, 117400 - 2600, 1e-6);
}


static void bank_runs_dry_then_the_plain_rate_applies(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 400, true, 0);
    ru__bucket_refill(&b, 10 * SEC); /* 4000 banked */
    assert_near(b.bank, 4000, 1e-6);
    double taken = 0;
    int64_t now = 10 * SEC;
    for (int i = 0; i < 5000; i++, now += MS) { /* 5 s at 10 RU per ms */
        if (ru__bucket_try_take(&b, 10, now)) {
            taken += 10;
        }
    }
    /* 400 + 2600 at the start, 5 s of 400 refill, and the rest of the bank */
    assert_near(taken, 400 + 5 * 400 + 4000, 20);
    assert_near(b.bank, 0, 1e-6);
}


static void fast_partitions_gain_nothing_from_burst(void **state)
{
    (void)state;
    ru_bucket_t b;
    ru__bucket_init(&b, 5000, true, 0);
    ru__bucket_refill(&b, 100 * SEC);
    assert_near(ru__bucket_available(&b, 100 * SEC), 5000, 1e-9);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_bucket_holds_one_second_of_its_rate),
        cmocka_unit_test(refill_is_continuous_at_fractional_rates),
        cmocka_unit_test(time_going_backwards_adds_nothing),
        cmocka_unit_test(a_charge_beyond_the_balance_is_debt),
        cmocka_unit_test(wait_covers_at_most_one_second_of_budget),
        cmocka_unit_test(leftover_takes_never_go_into_debt),
        cmocka_unit_test(rate_change_keeps_tokens_within_the_new_capacity),
        cmocka_unit_test(idle_partitions_bank_up_to_300_seconds),
        cmocka_unit_test(bank_runs_dry_then_the_plain_rate_applies),
        cmocka_unit_test(fast_partitions_gain_nothing_from_burst),
    };
    return cmocka_run_group_tests_name("ru_meter/token_bucket", tests, NULL, NULL);
}
