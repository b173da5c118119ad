/*
 * stats.c - statistics the meter keeps per statement shape, table and
 * physical partition, and the snapshot that copies them out as plain data.
 * Layer: ru_meter.
 *
 * Accumulators: count (the histogram's), RU total, failed, throttled and
 * would-throttle counts, and a log histogram for p50/p99. Rates: RU per
 * wall-clock second (now_us / 1e6), the previous second, and the highest
 * second ever, so a partition's peak can be set against its per-second
 * budget (the service's "Normalized RU Consumption"). A snapshot owns copies
 * of everything; the meter may change or be freed after it is taken.
 * Shapes with nothing recorded (admitted but never charged, or reset) are
 * left out of snapshots; tables are always listed (they carry throughput).
 */
#include <math.h>

#include "ru_meter/ru_int.h"


void ru__acc_add(ru_acc_t *a, double ru, bool failed)
{
    a->ru_total += ru;
    if (failed) {
        a->failed++;
    }
    ru__hist_add(&a->hist, ru);
}


void ru__acc_summary(const ru_acc_t *a, ru_summary_t *out)
{
    memset(out, 0, sizeof(*out));
    out->count = a->hist.count;
    out->failed = a->failed;
    out->throttled = a->throttled;
    out->would_throttle = a->would_throttle;
    out->ru_total = a->ru_total;
    if (a->hist.count > 0) {
        out->ru_mean = a->ru_total / (double)a->hist.count;
        out->ru_p50 = ru__hist_percentile(&a->hist, 50);
        out->ru_p99 = ru__hist_percentile(&a->hist, 99);
        out->ru_max = a->hist.max;
    }
}


static int64_t second_of(int64_t now_us)
{
    int64_t s = now_us / 1000000;
    return (now_us < 0 && now_us % 1000000 != 0) ? s - 1 : s;
}


void ru__rate_init(ru_rate_t *r)
{
    r->sec = INT64_MIN;
    r->cur = 0;
    r->prev = 0;
    r->peak = 0;
}


void ru__rate_add(ru_rate_t *r, double ru, int64_t now_us)
{
    int64_t sec = second_of(now_us);
    if (sec > r->sec) {
        r->prev = (r->sec != INT64_MIN && sec == r->sec + 1) ? r->cur : 0;
        r->sec = sec;
        r->cur = 0;
    }
    /* a now_us older than the current second counts in the current one */
    r->cur += ru;
    if (r->cur > r->peak) {
        r->peak = r->cur;
    }
}


double ru__rate_last_second(const ru_rate_t *r, int64_t now_us)
{
    int64_t sec = second_of(now_us);
    if (r->sec == sec) {
        return r->prev;
    }
    if (r->sec != INT64_MIN && r->sec == sec - 1) {
        return r->cur;
    }
    return 0;
}


/* The ring slot of a second (seconds may be negative in tests). */
static size_t slot(int64_t sec)
{
    return (size_t)(((sec % RU_SERIES_SECONDS) + RU_SERIES_SECONDS) % RU_SERIES_SECONDS);
}


void ru__series_init(ru_series_t *s)
{
    memset(s, 0, sizeof(*s));
    s->head = INT64_MIN;
}


void ru__series_add(ru_series_t *s, int64_t now_us, double ru, uint32_t throttled,
                    double budget_ru_s)
{
    int64_t sec = second_of(now_us);
    if (s->head != INT64_MIN && sec <= s->head - RU_SERIES_SECONDS) {
        return; /* older than the ring holds */
    }
    if (s->head == INT64_MIN || sec > s->head) {
        /* zero the seconds the ring skips over, at most one lap of it */
        bool lapped = s->head == INT64_MIN || sec - s->head >= RU_SERIES_SECONDS;
        /* quiet seconds kept the budget they had; this one may bring a new one */
        float quiet = lapped ? (float)budget_ru_s : s->budget[slot(s->head)];
        for (int64_t k = lapped ? sec - (RU_SERIES_SECONDS - 1) : s->head + 1; k <= sec; k++) {
            s->ru[slot(k)] = 0;
            s->throttled[slot(k)] = 0;
            s->budget[slot(k)] = quiet;
        }
        s->head = sec;
    }
    s->ru[slot(sec)] += (float)ru;
    s->throttled[slot(sec)] += throttled;
    s->budget[slot(sec)] = (float)budget_ru_s;
}


void ru__series_copy(const ru_series_t *s, int64_t now_us, size_t n, ru_second_t *out)
{
    int64_t now = second_of(now_us);
    double last_budget = s->head != INT64_MIN ? s->budget[slot(s->head)] : 0;
    for (size_t j = 0; j < n; j++) {
        int64_t sec = now - (int64_t)(n - 1 - j);
        bool held = s->head != INT64_MIN && sec <= s->head && sec > s->head - RU_SERIES_SECONDS;
        out[j].sec = sec;
        out[j].ru = held ? s->ru[slot(sec)] : 0;
        out[j].throttled = held ? s->throttled[slot(sec)] : 0;
        /* a quiet second after the last one seen still had its budget */
        out[j].budget_ru_s = held ? s->budget[slot(sec)] : last_budget;
    }
}


static int cmp_tables(const void *a, const void *b)
{
    const ru_table_stats_t *x = a, *y = b;
    int c = strcmp(x->keyspace, y->keyspace);
    return c != 0 ? c : strcmp(x->table, y->table);
}


static int cmp_shapes(const void *a, const void *b)
{
    const ru_shape_stats_t *x = a, *y = b;
    if (x->s.ru_total != y->s.ru_total) {
        return x->s.ru_total > y->s.ru_total ? -1 : 1;
    }
    int c = strcmp(x->shape, y->shape);
    if (c == 0) {
        c = strcmp(x->keyspace, y->keyspace);
    }
    return c != 0 ? c : strcmp(x->table, y->table);
}


static void table_snapshot(const ru_meter_t *m, ru_table_t *t, int64_t now_us,
                           ru_table_stats_t *out)
{
    const ru_pool_t *p = ru__table_pool(m, t);
    out->keyspace = base_strdup(t->keyspace);
    out->table = base_strdup(t->table);
    out->throughput = p->tp;
    out->min_ru_s = ru__table_minimum(m, t);
    out->shared = t->mode == RU_TABLE_SHARED;
    out->dropped = t->dropped;
    out->n_partitions = p->n_partitions;
    out->budget_ru_s = p->partition_rate * p->n_partitions;
    out->storage_bytes = t->storage_bytes;
    ru__acc_summary(&t->acc, &out->s);
    out->peak_ru_s = t->rate.peak;
    out->throttled_ru = t->throttled_ru;
    out->peak_demand_ru_s = t->demand.peak > t->rate.peak ? t->demand.peak : t->rate.peak;
    out->autoscale_peak =
        p->tp.kind == RU_TP_AUTOSCALE ? ru_autoscale_level(p->tp.ru_s, t->rate.peak) : 0;
    memcpy(out->token_slices, t->slices, sizeof(out->token_slices));
    memcpy(out->guards, t->guards, sizeof(out->guards));

    /* up to the last complete second: the current one is still filling */
    int64_t last_complete_us = now_us - 1000000;
    if (t->series.head != INT64_MIN &&
        second_of(last_complete_us) - t->series.head < RU_SERIES_SECONDS) {
        out->n_series = RU_SERIES_SECONDS;
        out->series = base_calloc(out->n_series, sizeof(ru_second_t));
        ru__series_copy(&t->series, last_complete_us, out->n_series, out->series);
    }

    out->n_parts = p->n_partitions;
    out->parts = base_calloc(out->n_parts, sizeof(ru_partition_stats_t));
    double hottest = -1;
    for (size_t i = 0; i < out->n_parts; i++) {
        ru_partition_stats_t *ps = &out->parts[i];
        ps->index = (uint32_t)i;
        ps->budget_ru_s = p->partition_rate;
        if (i < t->n_parts) {
            const ru_part_t *pt = &t->parts[i];
            ps->ru_total = pt->ru_total;
            ps->ru_last_s = ru__rate_last_second(&pt->rate, now_us);
            ps->peak_ru_s = pt->rate.peak;
            ps->throttled = pt->throttled;
            ps->would_throttle = pt->would_throttle;
        }
        ps->peak_share = ps->budget_ru_s > 0 ? ps->peak_ru_s / ps->budget_ru_s : 0;
        if (ps->peak_share > hottest) {
            hottest = ps->peak_share;
            out->hot_partition = (uint32_t)i;
        }
    }
}


void ru_meter_snapshot(const ru_meter_t *m, int64_t now_us, ru_snapshot_t *out)
{
    memset(out, 0, sizeof(*out));
    out->started_us = m->started_us >= 0 ? m->started_us : now_us;
    out->last_us = m->last_us >= out->started_us ? m->last_us : out->started_us;
    out->taken_us = now_us;
    /* Requests are counted in whole wall-clock seconds: the busy period spans
     * from the first request's second to the end of the last one's. */
    out->observed_s = (double)(out->last_us - out->started_us) / 1e6;
    if (m->last_us >= 0) {
        out->observed_s = floor(out->observed_s) + 1;
    }
    if (out->observed_s < 1) {
        out->observed_s = 1;
    }
    out->idle_s = now_us > out->last_us ? (double)(now_us - out->last_us) / 1e6 : 0;
    out->capacity = m->cfg.capacity;
    out->rate_limiting = m->cfg.rate_limiting;
    ru__acc_summary(&m->total, &out->total);

    out->tables = base_calloc(m->tables.len + 1, sizeof(ru_table_stats_t));
    for (size_t i = 0; i < m->tables.cap; i++) {
        if (m->tables.slots[i].key != NULL) {
            table_snapshot(m, m->tables.slots[i].val, now_us, &out->tables[out->n_tables++]);
        }
    }
    qsort(out->tables, out->n_tables, sizeof(ru_table_stats_t), cmp_tables);

    out->shapes = base_calloc(m->shapes.len + 1, sizeof(ru_shape_stats_t));
    for (size_t i = 0; i < m->shapes.cap; i++) {
        const ru_shape_t *sh = m->shapes.slots[i].val;
        if (m->shapes.slots[i].key == NULL ||
            (sh->acc.hist.count == 0 && sh->acc.throttled == 0 && sh->acc.would_throttle == 0)) {
            continue; /* nothing recorded (or reset): a shape of no traffic is no news */
        }
        ru_shape_stats_t *ss = &out->shapes[out->n_shapes++];
        ss->keyspace = base_strdup(sh->keyspace);
        ss->table = base_strdup(sh->table);
        ss->shape = base_strdup(sh->shape);
        ru__acc_summary(&sh->acc, &ss->s);
    }
    qsort(out->shapes, out->n_shapes, sizeof(ru_shape_stats_t), cmp_shapes);
}


void ru_snapshot_fini(ru_snapshot_t *snap)
{
    for (size_t i = 0; i < snap->n_tables; i++) {
        base_free(snap->tables[i].keyspace);
        base_free(snap->tables[i].table);
        base_free(snap->tables[i].parts);
        base_free(snap->tables[i].series);
    }
    for (size_t i = 0; i < snap->n_shapes; i++) {
        base_free(snap->shapes[i].keyspace);
        base_free(snap->shapes[i].table);
        base_free(snap->shapes[i].shape);
    }
    base_free(snap->tables);
    base_free(snap->shapes);
    memset(snap, 0, sizeof(*snap));
}
