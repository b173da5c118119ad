/* Unit tests for ru_meter/estimate.c: recommended throughput, hot-partition
 * risk and monthly dollars for known traffic, checked by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define SEC 1000000LL
#define MS  1000LL

static const ru_op_t read10 = {
    .kind = RU_OP_READ, .point_read = true, .rows_read = 1, .bytes_read = 100 * 1024};


static void assert_money(double got, double want)
{
    if (fabs(got - want) > 0.005) {
        fail_msg("$%.4f, want $%.4f", got, want);
    }
}


/* 60 s of traffic on ks.t: 100 RU every second, 150 in second 30 (6050 RU,
 * 605 requests), and 10 GiB stored. */
static void sample(ru_snapshot_t *snap)
{
    ru_meter_t *m = ru_meter_new(NULL);
    ru_request_t r = {.keyspace = "ks", .table = "t", .shape = "SELECT * FROM t WHERE k = ?"};
    for (int s = 0; s < 60; s++) {
        int n = s == 30 ? 15 : 10;
        for (int i = 0; i < n; i++) {
            ru_meter_charge(m, &r, NULL, &read10, s * SEC + i * 50 * MS);
        }
    }
    ru_meter_table_storage(m, "ks", "t", 10ULL << 30, 60 * SEC);
    ru_meter_snapshot(m, 60 * SEC, snap);
    ru_meter_free(m);
}


static void estimate_of_a_known_sample_matches_hand_arithmetic(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    sample(&snap);
    assert_true(snap.observed_s == 60);
    assert_true(snap.tables[0].s.ru_total == 6050);
    assert_true(snap.tables[0].peak_ru_s == 150);

    ru_estimate_params_t p = {.scale = 10};
    ru_estimate_t est;
    ru_estimate(&snap, &p, NULL, &est);
    assert_int_equal(est.n_tables, 1);
    const ru_table_estimate_t *e = &est.tables[0];
    assert_true(fabs(e->ops_s - 605.0 / 60 * 10) < 1e-9);
    assert_true(fabs(e->mean_ru_s - 6050.0 / 60 * 10) < 1e-9); /* 1008.33 */
    assert_true(e->peak_ru_s == 1500);
    assert_int_equal(e->manual_ru_s, 1500);
    assert_int_equal(e->autoscale_max_ru_s, 2000);
    assert_int_equal(e->autoscale_billed, 1500); /* above the 200 floor */
    assert_int_equal(e->n_partitions, 1);
    assert_true(e->hot_share == 1.0);
    assert_true(e->hot_ratio == 1.0);
    assert_int_equal(e->risk, RU_RISK_MEDIUM);
    assert_true(e->serverless_fits);
    /* 15 x $0.008 x 730 h */
    assert_money(e->monthly_manual, 87.60);
    /* 15 x $0.012 x 730 h */
    assert_money(e->monthly_autoscale, 131.40);
    /* 1008.33 RU/s x 3600 x 730 = 2,649,900,000 RU x $0.25 / million */
    assert_true(fabs(e->ru_per_month - 2649900000.0) < 1);
    assert_money(e->monthly_serverless, 662.475);
    /* 10 GB x $0.25 */
    assert_true(fabs(e->storage_gb - 10) < 1e-9);
    assert_money(e->monthly_storage, 2.50);
    assert_money(est.monthly_manual, 87.60);
    assert_money(est.monthly_storage, 2.50);
    ru_estimate_fini(&est);

    /* the same scale asked as a target rate */
    ru_estimate_params_t q = {.target_ops_s = 605.0 / 60 * 10};
    ru_estimate(&snap, &q, NULL, &est);
    assert_true(fabs(est.scale - 10) < 1e-9);
    assert_int_equal(est.tables[0].manual_ru_s, 1500);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}


static void multi_region_writes_double_the_provisioned_rate(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    sample(&snap);
    ru_prices_t pr;
    ru_prices_defaults(&pr);
    assert_string_equal(pr.as_of, "list prices as of 2022-03 (understand-your-bill.md)");
    pr.regions = 2;
    pr.multi_region_writes = true;
    ru_estimate_params_t p = {.scale = 10};
    ru_estimate_t est;
    ru_estimate(&snap, &p, &pr, &est);
    const ru_table_estimate_t *e = &est.tables[0];
    assert_money(e->monthly_manual, 15 * 0.016 * 730 * 2);    /* 350.40 */
    assert_money(e->monthly_autoscale, 15 * 0.016 * 730 * 2); /* multi-master autoscale */
    assert_money(e->monthly_storage, 5.00);
    assert_money(e->monthly_serverless, 662.475);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
}


static void idle_tables_get_the_minimums(void **state)
{
    (void)state;
    ru_meter_t *m = ru_meter_new(NULL);
    ru_request_t r = {.keyspace = "ks", .table = "idle"};
    ru_op_t one = {.kind = RU_OP_READ, .point_read = true, .rows_read = 1, .bytes_read = 10};
    ru_meter_charge(m, &r, NULL, &one, 0);
    ru_meter_table_set(m, "ks", "unused", NULL, 0, NULL);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 100 * SEC, &snap);
    ru_estimate_t est;
    ru_estimate(&snap, NULL, NULL, &est);
    assert_true(est.scale == 1);
    /* the busy period: one request, one second; the 99 idle seconds after it
     * do not thin the rates out */
    assert_true(est.observed_s == 1);
    assert_true(snap.idle_s == 100);
    const ru_table_estimate_t *e = &est.tables[0];
    assert_string_equal(e->table, "idle");
    assert_int_equal(e->manual_ru_s, 400);
    assert_int_equal(e->autoscale_max_ru_s, 1000);
    assert_int_equal(e->autoscale_billed, 100);          /* 10% of the max */
    assert_money(e->monthly_manual, 4 * 0.008 * 730);    /* 23.36 */
    assert_money(e->monthly_autoscale, 1 * 0.012 * 730); /* 8.76 */
    assert_money(e->monthly_serverless, 1.0 * 3600 * 730 / 1e6 * 0.25);
    assert_int_equal(e->risk, RU_RISK_LOW);
    assert_int_equal(est.tables[1].risk, RU_RISK_NONE);
    assert_string_equal(ru_risk_name(RU_RISK_NONE), "none");
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void hot_partition_risk_comes_from_token_skew(void **state)
{
    (void)state;
    /* observed on one partition, 2/3 of the RU on one key: at 1000x the
     * table needs 30000 RU/s over 3 partitions and that key's partition
     * needs 20000 of its 10000 */
    ru_meter_t *m = ru_meter_new(NULL);
    ru_request_t hot = {.keyspace = "ks", .table = "skew", .has_token = true, .token = 0};
    ru_request_t cold = {.keyspace = "ks", .table = "skew", .has_token = true, .token = INT64_MIN};
    for (int s = 0; s < 10; s++) {
        ru_meter_charge(m, &hot, NULL, &read10, s * SEC);
        ru_meter_charge(m, &hot, NULL, &read10, s * SEC + 1);
        ru_meter_charge(m, &cold, NULL, &read10, s * SEC + 2);
    }
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 10 * SEC, &snap);
    ru_estimate_params_t p = {.scale = 1000};
    ru_estimate_t est;
    ru_estimate(&snap, &p, NULL, &est);
    const ru_table_estimate_t *e = &est.tables[0];
    assert_true(e->peak_ru_s == 30000);
    assert_int_equal(e->manual_ru_s, 30000);
    assert_int_equal(e->n_partitions, 3);
    assert_true(e->partition_budget == 10000);
    assert_true(fabs(e->hot_share - 2.0 / 3) < 1e-9);
    assert_true(fabs(e->hot_ru_s - 20000) < 1e-6);
    assert_true(fabs(e->hot_ratio - 2) < 1e-9);
    assert_int_equal(e->risk, RU_RISK_HIGH);
    assert_true(e->hot_unfixable); /* one key over 10000 RU/s: no throughput fixes it */
    assert_int_equal(est.n_hot_unfixable, 1);
    assert_false(e->serverless_fits);
    ru_estimate_fini(&est);

    /* at 500x: 15000 RU/s over 2 partitions of 7500, the hot one needs 10000:
     * the recommendation grows until it fits */
    p.scale = 500;
    ru_estimate(&snap, &p, NULL, &est);
    e = &est.tables[0];
    assert_int_equal(e->peak_manual_ru_s, 15000);
    assert_true(e->hot_raised);
    assert_false(e->hot_unfixable);
    assert_int_equal(e->manual_ru_s, 20000);
    assert_int_equal(e->n_partitions, 2);
    assert_true(fabs(e->hot_ratio - 1) < 1e-9);
    assert_int_equal(e->autoscale_max_ru_s, 20000);
    assert_int_equal(est.n_hot_raised, 1);
    ru_estimate_fini(&est);

    /* at 100x the single partition holds it all comfortably */
    p.scale = 100;
    ru_estimate(&snap, &p, NULL, &est);
    assert_int_equal(est.tables[0].manual_ru_s, 3000);
    assert_int_equal(est.tables[0].n_partitions, 1);
    assert_true(est.tables[0].hot_share == 1.0);
    assert_int_equal(est.tables[0].risk, RU_RISK_MEDIUM);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


/* A 400 RU/s table offered 600 RU in one second with rate limiting on: the
 * third of it that was throttled is demand all the same. */
static void throttled_requests_count_as_demand(void **state)
{
    (void)state;
    ru_config_t cfg;
    ru_config_defaults(&cfg);
    cfg.rate_limiting = true;
    ru_meter_t *m = ru_meter_new(&cfg);
    ru_request_t r = {.keyspace = "ks", .table = "t", .shape = "SELECT * FROM t WHERE k = ?"};
    int throttled = 0;
    for (int i = 0; i < 60; i++) {
        ru_decision_t d;
        int64_t now = 10 * SEC + i * MS;
        ru_meter_admit(m, &r, now, &d);
        if (d.throttle) {
            throttled++;
        } else {
            ru_meter_charge(m, &r, &d, &read10, now);
        }
    }
    assert_true(throttled > 0);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 11 * SEC, &snap);
    assert_true(snap.tables[0].peak_ru_s <= 430); /* a full bucket and 60 ms of refill */
    assert_true(fabs(snap.tables[0].throttled_ru - throttled * 10.0) < 1e-6);
    assert_true(fabs(snap.tables[0].peak_demand_ru_s - 600) < 1e-6);
    ru_estimate_t est;
    ru_estimate(&snap, NULL, NULL, &est);
    assert_true(fabs(est.tables[0].peak_ru_s - 600) < 1e-6);
    assert_int_equal(est.tables[0].manual_ru_s, 600);
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


/* The account's terms: reserved capacity scales the provisioned totals, the
 * free tier takes 1000 RU/s and 25 GB off them, and peak hours lower the
 * autoscale bill. */
static void account_terms_change_the_totals_only(void **state)
{
    (void)state;
    ru_snapshot_t snap;
    sample(&snap); /* peak 150 RU/s x10 = 1500, mean 6050/60 x10 = 1008.3, 10 GiB */
    ru_estimate_params_t p = {.scale = 10};
    ru_prices_t pr;
    ru_prices_defaults(&pr);
    ru_estimate_t base, est;
    ru_estimate(&snap, &p, &pr, &base);
    assert_int_equal(base.tables[0].manual_ru_s, 1500);
    assert_money(base.monthly_manual, 15 * 0.008 * 730);

    pr.reserved_discount = 0.2;
    pr.free_tier = true;
    ru_estimate(&snap, &p, &pr, &est);
    assert_money(est.tables[0].monthly_manual, base.tables[0].monthly_manual);
    assert_money(est.free_tier_credit, 10 * 0.008 * 730 * 0.8);
    assert_money(est.monthly_manual, 5 * 0.008 * 730 * 0.8);
    assert_money(est.monthly_storage, 0); /* 10 GiB within the 25 free */
    ru_estimate_fini(&est);

    /* at the peak 2 hours a day, at the mean (1008.3) the other 22 */
    p.peak_hours = 2;
    ru_estimate(&snap, &p, NULL, &est);
    assert_int_equal(est.tables[0].autoscale_billed, 1100); /* 1500/12 + 1008.3*11/12 */
    assert_int_equal(base.tables[0].autoscale_billed, 1500);
    ru_estimate_fini(&est);
    ru_estimate_fini(&base);
    ru_snapshot_fini(&snap);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(estimate_of_a_known_sample_matches_hand_arithmetic),
        cmocka_unit_test(multi_region_writes_double_the_provisioned_rate),
        cmocka_unit_test(idle_tables_get_the_minimums),
        cmocka_unit_test(hot_partition_risk_comes_from_token_skew),
        cmocka_unit_test(throttled_requests_count_as_demand),
        cmocka_unit_test(account_terms_change_the_totals_only),
    };
    return cmocka_run_group_tests_name("ru_meter/estimate", tests, NULL, NULL);
}
