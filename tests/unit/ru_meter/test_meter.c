/* Unit tests for ru_meter/meter.c: admission and charge over simulated time
 * (a 400 RU/s table, a hot partition, autoscale, burst, shared keyspace
 * throughput, serverless, rate limiting off). Time is a plain counter. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ru_meter/ru_meter.h"

#define SEC 1000000LL
#define MS  1000LL

/* A point read of a 100 KB row: exactly 10 RU. */
static const ru_op_t read10 = {
    .kind = RU_OP_READ, .point_read = true, .rows_read = 1, .bytes_read = 100 * 1024};


static ru_meter_t *meter(bool rate_limiting, bool burst)
{
    ru_config_t cfg;
    ru_config_defaults(&cfg);
    cfg.rate_limiting = rate_limiting;
    cfg.burst_capacity = burst;
    return ru_meter_new(&cfg);
}


static ru_request_t req_on(const char *table, int32_t partition)
{
    ru_request_t r = {.keyspace = "ks", .table = table, .shape = "SELECT * FROM ks.t WHERE k = ?"};
    if (partition != RU_PARTITION_ALL) {
        r.has_partition = true;
        r.partition = (uint32_t)partition;
    }
    return r;
}


/* Sends a 10 RU read every step_us from `from` to `to`; returns RU accepted. */
static double drive(ru_meter_t *m, ru_request_t *r, int64_t from, int64_t to, int64_t step_us,
                    uint64_t *rejected)
{
    double accepted = 0;
    for (int64_t now = from; now < to; now += step_us) {
        ru_decision_t d;
        ru_meter_admit(m, r, now, &d);
        if (d.throttle) {
            (*rejected)++;
            assert_true(d.retry_after_ms >= 1);
            continue;
        }
        accepted += ru_meter_charge(m, r, &d, &read10, now);
    }
    return accepted;
}


static void table_of_400_rus_accepts_400_ru_per_second(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_request_t r = req_on("t", RU_PARTITION_ALL);
    uint64_t rejected = 0;
    /* 1000 RU/s offered for 10 s */
    double accepted = drive(m, &r, 0, 10 * SEC, 10 * MS, &rejected);
    /* one full second to start with, then 400 per second */
    assert_true(accepted >= 4000 && accepted <= 4410);
    assert_true(rejected > 500);
    /* in steady state every second takes 400 RU */
    for (int s = 10; s < 13; s++) {
        uint64_t rej = 0;
        double a = drive(m, &r, s * SEC, (s + 1) * SEC, 10 * MS, &rej);
        assert_true(a >= 390 && a <= 410);
    }
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 13 * SEC, &snap);
    assert_int_equal(snap.n_tables, 1);
    assert_int_equal(snap.tables[0].n_partitions, 1);
    assert_true(snap.tables[0].budget_ru_s == 400);
    assert_true(snap.tables[0].s.throttled > 0);
    assert_int_equal(snap.tables[0].s.throttled, snap.tables[0].parts[0].throttled);
    /* the first second may spend the full bucket plus its refill; later ones
     * no more than the budget */
    assert_true(snap.tables[0].parts[0].peak_share <= 2.05);
    assert_true(snap.tables[0].parts[0].ru_last_s >= 390);
    assert_true(snap.tables[0].parts[0].ru_last_s <= 410);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void retry_after_points_at_when_the_budget_covers_the_request(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_request_t r = req_on("t", RU_PARTITION_ALL);
    ru_decision_t d;
    int64_t now = 0;
    /* spend the first second's 400 RU */
    for (int i = 0; i < 40; i++) {
        ru_meter_admit(m, &r, now, &d);
        assert_false(d.throttle);
        ru_meter_charge(m, &r, &d, &read10, now);
    }
    ru_meter_admit(m, &r, now, &d);
    assert_true(d.throttle);
    assert_int_equal(d.retry_after_ms, 25); /* 10 RU at 400 RU/s */
    ru_meter_admit(m, &r, now + 24 * MS, &d);
    assert_true(d.throttle);
    assert_int_equal(d.retry_after_ms, 1);
    ru_meter_admit(m, &r, now + 25 * MS, &d);
    assert_false(d.throttle);
    assert_int_equal(d.retry_after_ms, 0);
    /* a throttled request costs nothing */
    ru_decision_t rejected = {.throttle = true};
    assert_true(ru_meter_charge(m, &r, &rejected, &read10, now) == 0);
    ru_meter_free(m);
}


static void hot_partition_is_throttled_while_the_table_is_under_its_total(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_throughput_t tp = {RU_TP_MANUAL, 30000};
    assert_int_equal(ru_meter_table_set(m, "ks", "big", &tp, 0, NULL), BASE_OK);
    assert_int_equal(ru_meter_partition_count(m, "ks", "big"), 3);

    ru_request_t hot = req_on("big", 0);
    ru_request_t cold1 = req_on("big", 1);
    ru_request_t cold2 = req_on("big", 2);
    double acc[3] = {0};
    uint64_t rej[3] = {0};
    /* partition 0 is offered 20000 RU/s, the others 5000 each, for 3 s */
    for (int64_t now = 0; now < 3 * SEC; now += 500) {
        acc[0] += drive(m, &hot, now, now + 1, 1, &rej[0]);
        if (now % (2 * MS) == 0) {
            acc[1] += drive(m, &cold1, now, now + 1, 1, &rej[1]);
            acc[2] += drive(m, &cold2, now, now + 1, 1, &rej[2]);
        }
    }
    assert_true(acc[0] >= 30000 && acc[0] <= 40010); /* 10000 to start, then 10000/s */
    assert_true(rej[0] > 0);
    assert_true(acc[1] == 15000 && rej[1] == 0);
    assert_true(acc[2] == 15000 && rej[2] == 0);

    ru_snapshot_t snap;
    ru_meter_snapshot(m, 3 * SEC, &snap);
    const ru_table_stats_t *t = &snap.tables[0];
    assert_true(t->budget_ru_s == 30000);
    /* in steady state the table as a whole is far from its total */
    double last = t->parts[0].ru_last_s + t->parts[1].ru_last_s + t->parts[2].ru_last_s;
    assert_true(last >= 19900 && last <= 20100);
    assert_true(t->parts[0].ru_last_s >= 9900 && t->parts[0].ru_last_s <= 10100);
    assert_int_equal(t->hot_partition, 0);
    assert_true(t->parts[0].budget_ru_s == 10000);
    assert_true(t->parts[0].peak_share >= 0.99);
    assert_true(t->parts[1].peak_share <= 0.51);
    assert_int_equal(t->parts[0].throttled, rej[0]);
    assert_int_equal(t->parts[1].throttled, 0);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void tokens_place_requests_on_their_partition(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_throughput_t tp = {RU_TP_MANUAL, 30000};
    ru_meter_table_set(m, "ks", "big", &tp, 0, NULL);
    ru_request_t r = req_on("big", RU_PARTITION_ALL);
    r.has_token = true;
    r.token = INT64_MAX;
    ru_decision_t d;
    ru_meter_admit(m, &r, 0, &d);
    assert_int_equal(d.partition, 2);
    ru_meter_charge(m, &r, &d, &read10, 0);
    /* no token, no index: the request fans out and each partition pays a third */
    ru_request_t scan = req_on("big", RU_PARTITION_ALL);
    scan.shape = "SELECT * FROM ks.big";
    ru_op_t op = {
        .kind = RU_OP_READ, .cross_partition = true, .rows_read = 30, .bytes_read = 30 * 1024};
    ru_meter_admit(m, &scan, 0, &d);
    assert_int_equal(d.partition, RU_PARTITION_ALL);
    /* 2 + 3 + 3 + 3 physical * 2.5 = 15.5 */
    assert_true(ru_meter_charge(m, &scan, &d, &op, 0) == 15.5);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 0, &snap);
    const ru_table_stats_t *t = &snap.tables[0];
    assert_true(fabs(t->parts[0].ru_total - 15.5 / 3) < 1e-9);
    assert_true(fabs(t->parts[2].ru_total - (10 + 15.5 / 3)) < 1e-9);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void autoscale_enforces_its_maximum(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_throughput_t tp = {RU_TP_AUTOSCALE, 4000};
    assert_int_equal(ru_meter_table_set(m, "ks", "auto", &tp, 0, NULL), BASE_OK);
    assert_int_equal(ru_meter_partition_count(m, "ks", "auto"), 1);
    ru_request_t r = req_on("auto", RU_PARTITION_ALL);
    uint64_t rej = 0;
    /* 10000 RU/s offered: autoscale gives up to the max at once, not 10% */
    double a = drive(m, &r, 0, 3 * SEC, 1 * MS, &rej);
    assert_true(a >= 12000 && a <= 16010);
    assert_true(rej > 0);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 3 * SEC, &snap);
    assert_int_equal(snap.tables[0].throughput.kind, RU_TP_AUTOSCALE);
    assert_int_equal(snap.tables[0].autoscale_peak, 4000);
    ru_snapshot_fini(&snap);

    /* light traffic: the level bottoms out at 10% of the max */
    ru_meter_t *m2 = meter(true, false);
    ru_meter_table_set(m2, "ks", "auto", &tp, 0, NULL);
    drive(m2, &r, 0, 2 * SEC, 100 * MS, &rej); /* 100 RU/s */
    ru_meter_snapshot(m2, 2 * SEC, &snap);
    assert_int_equal(snap.tables[0].autoscale_peak, 400);
    ru_snapshot_fini(&snap);
    ru_meter_free(m2);
    ru_meter_free(m);
}


static void burst_capacity_spends_banked_idle_throughput(void **state)
{
    (void)state;
    ru_request_t r = req_on("t", RU_PARTITION_ALL);
    ru_meter_t *plain = meter(true, false);
    ru_meter_t *burst = meter(true, true);
    ru_meter_table_set(plain, "ks", "t", NULL, 0, NULL);
    ru_meter_table_set(burst, "ks", "t", NULL, 0, NULL);
    uint64_t rej = 0;
    /* idle for 300 s, then 5000 RU/s offered for 10 s */
    double p = drive(plain, &r, 300 * SEC, 310 * SEC, 2 * MS, &rej);
    double b = drive(burst, &r, 300 * SEC, 310 * SEC, 2 * MS, &rej);
    assert_true(p >= 4000 && p <= 4410);
    /* 400 + 2600 at once, then 3000 RU/s from bucket and bank */
    assert_true(b >= 30000 && b <= 33010);
    ru_meter_free(plain);
    ru_meter_free(burst);
}


static void rate_limiting_off_counts_what_would_have_been_throttled(void **state)
{
    (void)state;
    ru_meter_t *on = meter(true, false);
    ru_meter_t *off = meter(false, false);
    ru_request_t r = req_on("t", RU_PARTITION_ALL);
    uint64_t rejected = 0, warned = 0;
    double charged = 0;
    for (int64_t now = 0; now < 5 * SEC; now += 10 * MS) {
        ru_decision_t d;
        ru_meter_admit(on, &r, now, &d);
        if (d.throttle) {
            rejected++;
        } else {
            ru_meter_charge(on, &r, &d, &read10, now);
        }
        ru_meter_admit(off, &r, now, &d);
        assert_false(d.throttle);
        if (d.would_throttle) {
            warned++;
            assert_true(d.retry_after_ms >= 1);
        }
        charged += ru_meter_charge(off, &r, &d, &read10, now);
    }
    assert_true(rejected > 0);
    assert_int_equal(warned, rejected); /* off behaves as on would, but lets it through */
    assert_true(charged == 500 * 10);
    ru_snapshot_t snap;
    ru_meter_snapshot(off, 5 * SEC, &snap);
    assert_int_equal(snap.tables[0].s.would_throttle, warned);
    assert_int_equal(snap.tables[0].s.throttled, 0);
    assert_int_equal(snap.tables[0].s.count, 500);
    assert_int_equal(snap.tables[0].parts[0].would_throttle, warned);
    assert_int_equal(snap.total.would_throttle, warned);
    assert_false(snap.rate_limiting);
    ru_snapshot_fini(&snap);
    ru_meter_free(on);
    ru_meter_free(off);
}


/* A charge finds its table and shape through its admission's lookups when it names
 * them by the same strings, and looks them up when it does not (equal text elsewhere,
 * or another table): either way the statistics land where the names say. A write's
 * table size rides on its charge as ru_meter_table_storage would set it. */
static void a_charge_books_where_its_names_say_after_any_admission(void **state)
{
    (void)state;
    ru_meter_t *m = meter(false, false);
    char ks[] = "ks", t[] = "t", shape[] = "INSERT INTO ks.t (k, v) VALUES (?, ?)";
    char ks2[] = "ks", t2[] = "t", shape2[] = "INSERT INTO ks.t (k, v) VALUES (?, ?)";
    ru_request_t r = {.keyspace = ks, .table = t, .shape = shape};
    ru_request_t copy = {.keyspace = ks2, .table = t2, .shape = shape2};
    ru_request_t other = {.keyspace = "ks", .table = "u", .shape = "SELECT * FROM ks.u"};
    ru_decision_t d;
    ru_meter_admit(m, &r, 0, &d);
    ru_meter_charge(m, &r, &d, &read10, 0); /* same strings */
    ru_meter_admit(m, &r, MS, &d);
    ru_meter_charge(m, &copy, &d, &read10, MS); /* equal text, other strings */
    ru_meter_admit(m, &r, 2 * MS, &d);
    ru_meter_charge(m, &other, &d, &read10, 2 * MS); /* admitted on t, charged to u */
    ru_op_t write = {.kind = RU_OP_WRITE, .rows_written = 1, .bytes_written = 100};
    r.has_storage = true;
    r.storage_bytes = 12345;
    ru_meter_admit(m, &r, 3 * MS, &d);
    ru_meter_charge(m, &r, &d, &write, 3 * MS);

    ru_snapshot_t snap;
    ru_meter_snapshot(m, SEC, &snap);
    assert_int_equal(snap.n_tables, 2);
    assert_string_equal(snap.tables[0].table, "t");
    assert_int_equal(snap.tables[0].s.count, 3);
    assert_int_equal(snap.tables[0].storage_bytes, 12345);
    assert_string_equal(snap.tables[1].table, "u");
    assert_int_equal(snap.tables[1].s.count, 1);
    assert_int_equal(snap.n_shapes, 2);
    for (size_t i = 0; i < snap.n_shapes; i++) {
        bool insert = strcmp(snap.shapes[i].shape, shape) == 0;
        assert_string_equal(snap.shapes[i].table, insert ? "t" : "u");
        assert_int_equal(snap.shapes[i].s.count, insert ? 3 : 1);
    }
    assert_int_equal(snap.total.count, 4);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


/* Requests that mix statements and tables are booked to their own, also when a
 * caller rewrites a name in place (a QUERY's shape is built in the request's
 * arena, at the same address for every request): the meter remembers names
 * by where they are kept, and trusts only what they say. */
static void interleaved_statements_and_reused_name_buffers_book_to_their_own(void **state)
{
    (void)state;
    ru_meter_t *m = meter(false, false);
    const char *shapes[3] = {"SELECT * FROM ks.t WHERE k = ?", "UPDATE ks.t SET v = ? WHERE k = ?",
                             "SELECT * FROM ks.u WHERE k = ?"};
    char arena[64]; /* one address, three texts */
    for (int i = 0; i < 30; i++) {
        const char *text = shapes[i % 3];
        ru_request_t r = {.keyspace = "ks", .table = i % 3 == 2 ? "u" : "t", .shape = text};
        if (i >= 15) {
            snprintf(arena, sizeof(arena), "%s", text);
            r.shape = arena;
        }
        ru_decision_t d;
        ru_meter_admit(m, &r, i * MS, &d);
        ru_meter_charge(m, &r, &d, &read10, i * MS);
    }
    ru_snapshot_t snap;
    ru_meter_snapshot(m, SEC, &snap);
    assert_int_equal(snap.n_tables, 2);
    for (size_t i = 0; i < snap.n_tables; i++) {
        assert_int_equal(snap.tables[i].s.count, strcmp(snap.tables[i].table, "t") == 0 ? 20 : 10);
    }
    assert_int_equal(snap.n_shapes, 3);
    for (size_t i = 0; i < snap.n_shapes; i++) {
        bool on_u = strcmp(snap.shapes[i].shape, shapes[2]) == 0;
        assert_string_equal(snap.shapes[i].table, on_u ? "u" : "t");
        assert_int_equal(snap.shapes[i].s.count, 10);
    }
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void keyspace_throughput_is_shared_by_its_tables(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_throughput_t ks_tp = {RU_TP_MANUAL, 1000};
    ru_throughput_t own = {RU_TP_MANUAL, 400};
    assert_int_equal(ru_meter_keyspace_set(m, "ks", &ks_tp, 0, NULL), BASE_OK);
    ru_meter_table_set(m, "ks", "a", NULL, 0, NULL);
    ru_meter_table_set(m, "ks", "b", NULL, 0, NULL);
    ru_meter_table_set(m, "ks", "c", &own, 0, NULL);
    ru_request_t a = req_on("a", RU_PARTITION_ALL);
    ru_request_t b = req_on("b", RU_PARTITION_ALL);
    ru_request_t c = req_on("c", RU_PARTITION_ALL);
    uint64_t rej = 0;
    /* a takes all of the shared budget */
    double used = drive(m, &a, 0, SEC, 1 * MS, &rej);
    assert_true(used >= 1900 && used <= 2010);
    b.expected_ru = 50; /* a leaves less than 11 RU */
    c.expected_ru = 50;
    ru_decision_t d;
    ru_meter_admit(m, &b, SEC, &d);
    assert_true(d.throttle);
    ru_meter_admit(m, &c, SEC, &d);
    assert_false(d.throttle);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, SEC, &snap);
    assert_int_equal(snap.n_tables, 3);
    assert_true(snap.tables[0].shared && snap.tables[1].shared && !snap.tables[2].shared);
    assert_true(snap.tables[0].budget_ru_s == 1000);
    assert_true(snap.tables[2].budget_ru_s == 400);
    ru_snapshot_fini(&snap);
    /* validation errors leave things as they were */
    base_error_t err;
    ru_throughput_t bad = {RU_TP_MANUAL, 450};
    assert_int_equal(ru_meter_keyspace_set(m, "ks", &bad, 0, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_int_equal(ru_meter_table_set(m, "ks", "c", &bad, 0, &err), BASE_ERROR);
    ru_meter_snapshot(m, SEC, &snap);
    assert_true(snap.tables[0].budget_ru_s == 1000);
    assert_true(snap.tables[2].budget_ru_s == 400);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void throughput_changes_split_partitions_that_never_merge(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_throughput_t big = {RU_TP_MANUAL, 30000};
    ru_throughput_t small = {RU_TP_MANUAL, 600};
    ru_meter_table_set(m, "ks", "t", NULL, 0, NULL);
    assert_int_equal(ru_meter_partition_count(m, "ks", "t"), 1);
    ru_meter_table_set(m, "ks", "t", &big, 0, NULL);
    assert_int_equal(ru_meter_partition_count(m, "ks", "t"), 3);
    ru_meter_table_set(m, "ks", "t", &small, 0, NULL);
    assert_int_equal(ru_meter_partition_count(m, "ks", "t"), 3);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 0, &snap);
    assert_true(snap.tables[0].parts[1].budget_ru_s == 200);
    ru_snapshot_fini(&snap);
    /* storage splits too: 120 GB needs 3 partitions of 50 GB */
    ru_meter_table_storage(m, "ks", "s", 120ULL << 30, 0);
    assert_int_equal(ru_meter_partition_count(m, "ks", "s"), 3);
    ru_meter_free(m);
}


static void serverless_gives_5000_rus_per_partition_and_refuses_throughput(void **state)
{
    (void)state;
    ru_config_t cfg;
    ru_config_defaults(&cfg);
    cfg.capacity = RU_CAPACITY_SERVERLESS;
    cfg.rate_limiting = true;
    ru_meter_t *m = ru_meter_new(&cfg);
    base_error_t err;
    ru_throughput_t tp = {RU_TP_MANUAL, 400};
    assert_int_equal(ru_meter_table_set(m, "ks", "t", &tp, 0, &err), BASE_ERROR);
    assert_int_equal(err.code, 0x2200);
    assert_int_equal(ru_meter_keyspace_set(m, "ks", &tp, 0, &err), BASE_ERROR);
    ru_request_t r = req_on("t", RU_PARTITION_ALL);
    uint64_t rej = 0;
    double a = drive(m, &r, 0, 2 * SEC, 1 * MS, &rej); /* 10000 RU/s offered */
    assert_true(a >= 10000 && a <= 15010);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 2 * SEC, &snap);
    assert_int_equal(snap.capacity, RU_CAPACITY_SERVERLESS);
    assert_int_equal(snap.tables[0].throughput.kind, RU_TP_NONE);
    assert_true(snap.tables[0].budget_ru_s == 5000);
    ru_snapshot_fini(&snap);
    /* 8 partitions of storage: 20000 RU/s for the table, 2500 each */
    ru_meter_table_storage(m, "ks", "big", 400ULL << 30, 0);
    ru_meter_snapshot(m, 2 * SEC, &snap);
    assert_true(snap.tables[0].budget_ru_s == 20000);
    assert_true(snap.tables[0].parts[0].budget_ru_s == 2500);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void ttl_expiry_uses_only_leftover_throughput(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_request_t r = req_on("t", RU_PARTITION_ALL);
    uint64_t rej = 0;
    drive(m, &r, 0, 1, 1, &rej); /* creates the table, 390 RU left */
    ru_request_t ttl = {.keyspace = "ks", .table = "t"};
    ru_op_t expire = {.kind = RU_OP_TTL_EXPIRY, .rows_deleted = 100, .bytes_deleted = 100 * 100};
    assert_true(ru_meter_charge(m, &ttl, NULL, &expire, 0) == 550);
    /* the 550 RU did not push the partition into debt */
    ru_decision_t d;
    ru_meter_admit(m, &r, 30 * MS, &d);
    assert_false(d.throttle);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 0, &snap);
    bool seen = false;
    for (size_t i = 0; i < snap.n_shapes; i++) {
        seen |= strcmp(snap.shapes[i].shape, "(ttl expiry)") == 0;
    }
    assert_true(seen);
    ru_snapshot_fini(&snap);
    ru_meter_free(m);
}


static void requests_without_a_table_are_free_and_unmetered(void **state)
{
    (void)state;
    ru_meter_t *m = meter(true, false);
    ru_request_t sys = {.shape = "USE ks"};
    ru_decision_t d;
    ru_meter_admit(m, &sys, 0, &d);
    assert_false(d.throttle || d.would_throttle);
    ru_op_t none = {.kind = RU_OP_NONE};
    assert_true(ru_meter_charge(m, &sys, &d, &none, 0) == 0);
    ru_request_t ddl = req_on("t", RU_PARTITION_ALL);
    ru_op_t create = {.kind = RU_OP_DDL};
    assert_true(ru_meter_charge(m, &ddl, NULL, &create, 0) == 0);
    ru_snapshot_t snap;
    ru_meter_snapshot(m, 0, &snap);
    assert_int_equal(snap.total.count, 0);
    ru_snapshot_fini(&snap);
    /* dropping keeps statistics */
    drive(m, &ddl, 0, 1, 1, &(uint64_t){0});
    ru_meter_table_drop(m, "ks", "t");
    ru_meter_snapshot(m, 0, &snap);
    assert_true(snap.tables[0].dropped);
    assert_int_equal(snap.tables[0].s.count, 1);
    ru_snapshot_fini(&snap);
    ru_meter_keyspace_drop(m, "ks");
    ru_meter_free(m);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_of_400_rus_accepts_400_ru_per_second),
        cmocka_unit_test(retry_after_points_at_when_the_budget_covers_the_request),
        cmocka_unit_test(hot_partition_is_throttled_while_the_table_is_under_its_total),
        cmocka_unit_test(tokens_place_requests_on_their_partition),
        cmocka_unit_test(autoscale_enforces_its_maximum),
        cmocka_unit_test(burst_capacity_spends_banked_idle_throughput),
        cmocka_unit_test(rate_limiting_off_counts_what_would_have_been_throttled),
        cmocka_unit_test(a_charge_books_where_its_names_say_after_any_admission),
        cmocka_unit_test(interleaved_statements_and_reused_name_buffers_book_to_their_own),
        cmocka_unit_test(keyspace_throughput_is_shared_by_its_tables),
        cmocka_unit_test(throughput_changes_split_partitions_that_never_merge),
        cmocka_unit_test(serverless_gives_5000_rus_per_partition_and_refuses_throughput),
        cmocka_unit_test(ttl_expiry_uses_only_leftover_throughput),
        cmocka_unit_test(requests_without_a_table_are_free_and_unmetered),
    };
    return cmocka_run_group_tests_name("ru_meter/meter", tests, NULL, NULL);
}
