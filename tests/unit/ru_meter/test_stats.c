/* Unit tests for ru_meter/stats.c and histogram.c: percentiles, per-second
 * rates and the snapshot per shape, table and partition. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ru_meter/ru_int.h"

#define SEC 1000000LL
#define MS  1000LL


static void assert_within(double got, double want, double rel)
{
    if (fabs(got - want) > want * rel) {
        fail_msg("got %.4f, want %.4f within %.1f%%", got, want, rel * 100);
    }
}


static void percentiles_are_within_the_bucket_error(void **state)
{
    (void)state;
    ru_hist_t *h = calloc(1, sizeof(*h));
    for (int i = 1; i <= 100; i++) {
        ru__hist_add(h, i); /* 1 .. 100 RU */
    }
    assert_int_equal(h->count, 100);
    assert_within(ru__hist_percentile(h, 50), 50, 0.035);
    assert_within(ru__hist_percentile(h, 99), 99, 0.035);
    assert_true(ru__hist_percentile(h, 100) == 100);
    assert_true(ru__hist_percentile(h, 0) == 1);
    free(h);
}


static void identical_charges_report_exactly(void **state)
{
    (void)state;
    ru_hist_t *h = calloc(1, sizeof(*h));
    for (int i = 0; i < 1000; i++) {
        ru__hist_add(h, 5.5);
    }
    assert_true(ru__hist_percentile(h, 50) == 5.5);
    assert_true(ru__hist_percentile(h, 99) == 5.5);
    free(h);
}


static void skewed_samples_put_p99_in_the_tail(void **state)
{
    (void)state;
    ru_hist_t *h = calloc(1, sizeof(*h));
    for (int i = 0; i < 980; i++) {
        ru__hist_add(h, 1.0);
    }
    for (int i = 0; i < 20; i++) {
        ru__hist_add(h, 250.0);
    }
    assert_within(ru__hist_percentile(h, 50), 1.0, 0.035);
    assert_within(ru__hist_percentile(h, 99), 250, 0.035);
    free(h);
}


static void buckets_are_monotonic_and_bounded(void **state)
{
    (void)state;
    size_t prev = 0;
    for (double v = 0; v < 1e7; v = v * 1.01 + 0.01) {
        size_t i = ru__hist_index(v);
        assert_true(i >= prev);
        assert_true(i < RU_HIST_BUCKETS);
        prev = i;
    }
    assert_int_equal(ru__hist_index(0.05), 5); /* exact below 0.16 RU */
    assert_int_equal(ru__hist_index(1e30), RU_HIST_BUCKETS - 1);
    assert_int_equal(ru__hist_index(-3), 0);
}


/* The bucket of v by the definition (histogram.c's header): hundredths
 * rounded by round(), then log-linear; the oracle for the index's own
 * rounding, which avoids the libm call. */
static size_t bucket_by_definition(double v)
{
    uint64_t u = v > 0 ? (uint64_t)round(v * 100.0) : 0;
    if (u < RU_HIST_SUB) {
        return (size_t)u;
    }
    int e = 63 - __builtin_clzll(u);
    if (e > RU_HIST_MAX_EXP) {
        return RU_HIST_BUCKETS - 1;
    }
    return RU_HIST_SUB + (size_t)(e - 4) * RU_HIST_SUB + (size_t)((u >> (e - 4)) - RU_HIST_SUB);
}


static void hundredths_round_half_away_from_zero(void **state)
{
    (void)state;
    for (double v = 0.0001; v < 1e9; v = v * 1.0007 + 0.000013) {
        assert_int_equal(ru__hist_index(v), bucket_by_definition(v));
    }
    for (int k = 0; k < 100000; k++) { /* exact halves: k/8 RU is 12.5k units */
        assert_int_equal(ru__hist_index(k / 8.0), bucket_by_definition(k / 8.0));
    }
    assert_int_equal(ru__hist_index(0.125), 13); /* 12.5 units: away from zero */
    assert_int_equal(ru__hist_index(0.12), 12);
}


static void rates_track_each_second_and_the_peak(void **state)
{
    (void)state;
    ru_rate_t r;
    ru__rate_init(&r);
    ru__rate_add(&r, 100, 100 * MS);
    ru__rate_add(&r, 200, 500 * MS);
    ru__rate_add(&r, 50, SEC + 200 * MS);
    assert_true(r.peak == 300);
    assert_true(ru__rate_last_second(&r, SEC + 500 * MS) == 300);
    assert_true(ru__rate_last_second(&r, 2 * SEC + 300 * MS) == 50);
    assert_true(ru__rate_last_second(&r, 5 * SEC) == 0);
    ru__rate_add(&r, 10, 4 * SEC); /* a gap: the previous second was empty */
    assert_true(ru__rate_last_second(&r, 4 * SEC + 1) == 0);
    assert_true(r.peak == 300);
}


static void series_keep_the_last_seconds_and_zero_the_gaps(void **state)
{
    (void)state;
    ru_series_t s;
    ru_second_t out[RU_SERIES_SECONDS];
    ru__series_init(&s);
    ru__series_add(&s, 10 * SEC, 5, 0, 400);
    ru__series_add(&s, 10 * SEC + 500 * MS, 5, 2, 400);
    ru__series_add(&s, 12 * SEC, 7, 0, 800); /* an ALTER doubled the budget */
    ru__series_copy(&s, 13 * SEC, 4, out);
    assert_int_equal(out[0].sec, 10);
    assert_true(out[0].ru == 10 && out[0].throttled == 2 && out[0].budget_ru_s == 400);
    assert_true(out[1].ru == 0 && out[1].budget_ru_s == 400); /* a quiet second */
    assert_true(out[2].ru == 7 && out[2].budget_ru_s == 800);
    assert_true(out[3].ru == 0 && out[3].budget_ru_s == 800); /* after the last one seen */
    ru__series_add(&s, 5 * SEC, 100, 0, 400);                 /* late: counts in its second */
    ru__series_copy(&s, 12 * SEC, 8, out);
    assert_true(out[0].ru == 100);

    /* a whole lap later the old seconds are gone, not mistaken for new ones */
    ru__series_add(&s, (12 + RU_SERIES_SECONDS + 3) * SEC, 1, 0, 400);
    ru__series_copy(&s, (12 + RU_SERIES_SECONDS + 3) * SEC, RU_SERIES_SECONDS, out);
    double total = 0;
    for (size_t i = 0; i < RU_SERIES_SECONDS; i++) {
        total += out[i].ru;
    }
    assert_true(total == 1);
    ru__series_add(&s, 12 * SEC, 50, 0, 400); /* older than the ring: dropped */
    ru__series_copy(&s, (12 + RU_SERIES_SECONDS + 3) * SEC, RU_SERIES_SECONDS, out);
    assert_true(out[RU_SERIES_SECONDS - 1].ru == 1);
}


static void snapshot_summarises_shapes_tables_and_partitions(void **state)
{
    (void)state;
    ru_meter_t *m = ru_meter_new(NULL);
    ru_request_t rd = {.keyspace = "ks", .table = "t", .shape = "SELECT v FROM t WHERE k = ?"};
    ru_request_t wr = {
        .keyspace = "ks", .table = "t", .shape = "INSERT INTO t (k, v) VALUES (?, ?)"};
    ru_op_t read = {.kind = RU_OP_READ, .point_read = true, .rows_read = 1, .bytes_read = 100};
    ru_op_t write = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = 100};
    ru_op_t fail = {.kind = RU_OP_WRITE, .failed = true};
    for (int64_t now = 0; now < 2 * SEC; now += 100 * MS) {
        if (now < SEC) {
            ru_meter_charge(m, &rd, NULL, &read, now); /* 10 x 1 RU in second 0 */
        }
        if (now % (200 * MS) == 0) {
            ru_meter_charge(m, &wr, NULL, &write, now); /* 10 x 5.5 over 2 s */
        }
    }
    ru_meter_charge(m, &wr, NULL, &fail, 2500 * MS);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 3 * SEC, &snap);

    assert_true(snap.observed_s == 3.0);
    assert_int_equal(snap.total.count, 21);
    assert_true(fabs(snap.total.ru_total - 65) < 1e-9);
    assert_int_equal(snap.n_shapes, 2);
    /* highest RU first */
    assert_string_equal(snap.shapes[0].shape, "INSERT INTO t (k, v) VALUES (?, ?)");
    assert_int_equal(snap.shapes[0].s.count, 11);
    assert_int_equal(snap.shapes[0].s.failed, 1);
    assert_true(snap.shapes[0].s.ru_max == 5.5);
    assert_true(fabs(snap.shapes[0].s.ru_mean - 55.0 / 11) < 1e-9);
    assert_true(snap.shapes[0].s.ru_p50 == 5.5);
    assert_string_equal(snap.shapes[1].keyspace, "ks");
    assert_string_equal(snap.shapes[1].table, "t");
    assert_true(snap.shapes[1].s.ru_p99 == 1.0);

    const ru_table_stats_t *t = &snap.tables[0];
    assert_string_equal(t->keyspace, "ks");
    assert_string_equal(t->table, "t");
    assert_int_equal(t->throughput.kind, RU_TP_MANUAL);
    assert_int_equal(t->throughput.ru_s, 400);
    /* second 0: 10 reads (10 RU) + 5 writes (27.5 RU) */
    assert_true(fabs(t->peak_ru_s - 37.5) < 1e-9);
    assert_int_equal(t->n_parts, 1);
    assert_true(fabs(t->parts[0].peak_ru_s - 37.5) < 1e-9);
    assert_true(fabs(t->parts[0].peak_share - 37.5 / 400) < 1e-9);
    assert_true(fabs(t->parts[0].ru_last_s - 0) < 1e-9); /* second 2 had the failure only */
    ru_snapshot_fini(&snap);

    ru_meter_snapshot(m, 2 * SEC, &snap);
    assert_true(fabs(snap.tables[0].parts[0].ru_last_s - 27.5) < 1e-9);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void snapshot_of_an_idle_meter_is_empty(void **state)
{
    (void)state;
    ru_meter_t *m = ru_meter_new(NULL);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 42 * SEC, &snap);
    assert_int_equal(snap.n_tables, 0);
    assert_int_equal(snap.n_shapes, 0);
    assert_true(snap.observed_s == 1);
    assert_true(snap.total.ru_mean == 0);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void reset_clears_every_statistic_but_keeps_throughput(void **state)
{
    (void)state;
    base_error_t err;
    ru_meter_t *m = ru_meter_new(NULL);
    ru_throughput_t tp = {RU_TP_MANUAL, 1000};
    assert_int_equal(ru_meter_table_set(m, "ks", "t", &tp, 0, &err), BASE_OK);
    ru_request_t wr = {.keyspace = "ks", .table = "t", .shape = "INSERT"};
    ru_op_t write = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = 100};
    for (int i = 0; i < 5; i++) {
        ru_meter_charge(m, &wr, NULL, &write, 10 * SEC + i * MS);
    }
    ru_meter_reset_stats(m);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 20 * SEC, &snap);
    assert_int_equal(snap.total.count, 0);
    assert_true(snap.total.ru_total == 0);
    assert_int_equal(snap.n_shapes, 0); /* nothing recorded since */
    assert_int_equal(snap.n_tables, 1);
    assert_int_equal(snap.tables[0].throughput.ru_s, 1000);
    assert_true(snap.tables[0].peak_ru_s == 0);
    assert_true(snap.tables[0].parts[0].ru_total == 0);
    assert_true(snap.observed_s == 1); /* the period starts again too */
    ru_snapshot_fini(&snap);

    ru_meter_charge(m, &wr, NULL, &write, 30 * SEC);
    ru_meter_snapshot(m, 32 * SEC, &snap);
    assert_int_equal(snap.total.count, 1);
    assert_true(snap.observed_s < 5); /* counted from the reset, not from 10 s */
    assert_int_equal(snap.n_shapes, 1);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void table_reset_clears_one_table_and_its_share_of_the_totals(void **state)
{
    (void)state;
    ru_meter_t *m = ru_meter_new(NULL);
    ru_request_t a = {.keyspace = "ks", .table = "a", .shape = "INSERT a"};
    ru_request_t b = {.keyspace = "ks", .table = "b", .shape = "INSERT b"};
    ru_op_t write = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = 100};
    ru_op_t fail = {.kind = RU_OP_WRITE, .failed = true, .rows_written = 1};
    ru_meter_charge(m, &a, NULL, &write, SEC);
    ru_meter_charge(m, &a, NULL, &fail, SEC);
    ru_meter_charge(m, &b, NULL, &write, SEC);
    ru_meter_charge(m, &b, NULL, &write, SEC);
    ru_meter_charge(m, &b, NULL, &write, SEC);
    assert_int_equal(ru_meter_reset_table_stats(m, "ks", "a"), BASE_OK);
    assert_int_equal(ru_meter_reset_table_stats(m, "ks", "nope"), BASE_ENOTFOUND);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 2 * SEC, &snap);
    assert_int_equal(snap.n_tables, 2);
    assert_string_equal(snap.tables[0].table, "a");
    assert_int_equal(snap.tables[0].s.count, 0);
    assert_true(snap.tables[0].s.ru_total == 0);
    assert_int_equal(snap.tables[1].s.count, 3);
    assert_int_equal(snap.total.count, 3);
    assert_int_equal(snap.total.failed, 0);
    assert_true(fabs(snap.total.ru_total - snap.tables[1].s.ru_total) < 1e-9);
    assert_int_equal(snap.n_shapes, 1);
    assert_string_equal(snap.shapes[0].shape, "INSERT b");
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(percentiles_are_within_the_bucket_error),
        cmocka_unit_test(identical_charges_report_exactly),
        cmocka_unit_test(skewed_samples_put_p99_in_the_tail),
        cmocka_unit_test(buckets_are_monotonic_and_bounded),
        cmocka_unit_test(hundredths_round_half_away_from_zero),
        cmocka_unit_test(rates_track_each_second_and_the_peak),
        cmocka_unit_test(series_keep_the_last_seconds_and_zero_the_gaps),
        cmocka_unit_test(snapshot_summarises_shapes_tables_and_partitions),
        cmocka_unit_test(snapshot_of_an_idle_meter_is_empty),
        cmocka_unit_test(reset_clears_every_statistic_but_keeps_throughput),
        cmocka_unit_test(table_reset_clears_one_table_and_its_share_of_the_totals),
    };
    return cmocka_run_group_tests_name("ru_meter/stats", tests, NULL, NULL);
}
