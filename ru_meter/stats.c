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
    out->autoscale_peak =
        p->tp.kind == RU_TP_AUTOSCALE ? ru_autoscale_level(p->tp.ru_s, t->rate.peak) : 0;
    memcpy(out->token_slices, t->slices, sizeof(out->token_slices));

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
    out->taken_us = now_us;
    out->observed_s = (double)(now_us - out->started_us) / 1e6;
    if (out->observed_s < 1) {
        out->observed_s = 1;
    }
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
