/*
 * estimate.c - from observed traffic to the throughput and the monthly bill
 * a table would need on the service. Layer: ru_meter. Pure arithmetic over
 * a snapshot; nothing here reads the meter.
 *
 * Per table, with S the scale factor and D the observed seconds:
 *   mean = RU total / D * S          peak = max(peak second * S, mean)
 *   manual = max(400, ceil(peak / 100) * 100)
 *   autoscale max = max(1000, ceil(peak / 1000) * 1000); billed level per
 *     hour = the hour's highest need, at least 10% of the max, to 100 (the
 *     observed peak is assumed to recur every hour: conservative)
 *   partitions n = ceil(manual / 10000) (and storage / 50 GB), budget manual / n
 *   hot share = the busiest of n equal token ranges' share of the table's RU
 *     (from the 64 token slices, so skew seen on one partition still shows);
 *     hot RU/s = peak * hot share; risk from hot RU/s / budget
 *   $ manual = manual / 100 * rate * 730 h * regions, rate = $0.008 (x2 with
 *     multi-region writes); autoscale the billed level at 1.5x that rate
 *     (multi-region writes: the manual multi-region rate); serverless RU per
 *     month / 1e6 * $0.25; storage GB * $0.25 per region.
 * Prices: list prices as of 2022-03 (understand-your-bill.md, autoscale-faq.yml).
 */
#include <math.h>

#include "ru_meter/ru_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)


void ru_prices_defaults(ru_prices_t *p)
{
    memset(p, 0, sizeof(*p));
    p->manual_per_100_hour = 0.008;
    p->autoscale_factor = 1.5;
    p->autoscale_floor = 0.10;
    p->serverless_per_million = 0.25;
    p->storage_per_gb_month = 0.25;
    p->multi_write_factor = 2.0;
    p->regions = 1;
    p->multi_region_writes = false;
    p->hours_per_month = 730;
    p->as_of = "list prices as of 2022-03 (understand-your-bill.md)";
}


const char *ru_risk_name(ru_risk_t r)
{
    switch (r) {
    case RU_RISK_NONE:
        return "none";
    case RU_RISK_LOW:
        return "low";
    case RU_RISK_MEDIUM:
        return "medium";
    case RU_RISK_HIGH:
        return "high";
    }
    return "unknown";
}


static int64_t round_up(double v, int64_t step, int64_t min)
{
    int64_t r = (int64_t)ceil(v / (double)step - 1e-9) * step;
    return r < min ? min : r;
}


/* The busiest of n equal token ranges, as a share of all RU; 1/n if the
 * table saw no traffic with a known place. */
static double hot_share(const ru_table_stats_t *ts, uint32_t n)
{
    double total = 0;
    for (size_t s = 0; s < RU_SLICES; s++) {
        total += ts->token_slices[s];
    }
    if (!(total > 0)) {
        return 1.0 / n;
    }
    double best = 0;
    if (n >= RU_SLICES) {
        for (size_t s = 0; s < RU_SLICES; s++) {
            best = ts->token_slices[s] > best ? ts->token_slices[s] : best;
        }
        return best / total;
    }
    double group[RU_SLICES] = {0};
    for (size_t s = 0; s < RU_SLICES; s++) {
        group[((2 * s + 1) * n) / (2 * RU_SLICES)] += ts->token_slices[s];
    }
    for (uint32_t i = 0; i < n; i++) {
        best = group[i] > best ? group[i] : best;
    }
    return best / total;
}


static void estimate_table(const ru_table_stats_t *ts, double observed, double scale,
                           double storage_scale, const ru_prices_t *pr, ru_table_estimate_t *e)
{
    double regions = pr->regions > 0 ? pr->regions : 1;
    double hours = pr->hours_per_month;

    e->keyspace = ts->keyspace;
    e->table = ts->table;
    e->shared = ts->shared;
    e->ops_s = (double)ts->s.count / observed * scale;
    e->mean_ru_s = ts->s.ru_total / observed * scale;
    e->peak_ru_s = ts->peak_ru_s * scale;
    if (e->peak_ru_s < e->mean_ru_s) {
        e->peak_ru_s = e->mean_ru_s;
    }
    e->manual_ru_s = round_up(e->peak_ru_s, RU_MANUAL_STEP, RU_MANUAL_MIN);
    e->autoscale_max_ru_s = round_up(e->peak_ru_s, RU_AUTOSCALE_STEP, RU_AUTOSCALE_MIN);
    double floor_ru = (double)e->autoscale_max_ru_s * pr->autoscale_floor;
    double level = e->peak_ru_s > floor_ru ? e->peak_ru_s : floor_ru;
    e->autoscale_billed = round_up(level, RU_MANUAL_STEP, 0);
    if (e->autoscale_billed > e->autoscale_max_ru_s) {
        e->autoscale_billed = e->autoscale_max_ru_s;
    }

    uint64_t stored = (uint64_t)((double)ts->storage_bytes * storage_scale);
    e->storage_gb = (double)stored / GIB;
    e->n_partitions = ru_partitions_needed(e->manual_ru_s, stored);
    e->partition_budget = (double)e->manual_ru_s / e->n_partitions;
    e->hot_share = hot_share(ts, e->n_partitions);
    e->hot_ru_s = e->peak_ru_s * e->hot_share;
    e->hot_ratio = e->hot_ru_s / e->partition_budget;
    if (ts->s.count == 0) {
        e->risk = RU_RISK_NONE;
    } else if (e->hot_ratio > 1.0 || e->hot_ru_s > RU_PARTITION_MAX_RU_S) {
        e->risk = RU_RISK_HIGH;
    } else if (e->hot_ratio >= 0.8) {
        e->risk = RU_RISK_MEDIUM;
    } else {
        e->risk = RU_RISK_LOW;
    }
    e->serverless_fits =
        e->peak_ru_s <= RU_SERVERLESS_TABLE_RU && e->hot_ru_s <= RU_SERVERLESS_PARTITION_RU;

    double manual_rate = pr->manual_per_100_hour;
    double auto_rate = pr->manual_per_100_hour * pr->autoscale_factor;
    if (pr->multi_region_writes) {
        manual_rate *= pr->multi_write_factor;
        auto_rate = manual_rate; /* multi-master autoscale pays the manual multi-master rate */
    }
    e->ru_per_month = e->mean_ru_s * 3600.0 * hours;
    e->monthly_manual = (double)e->manual_ru_s / 100.0 * manual_rate * hours * regions;
    e->monthly_autoscale = (double)e->autoscale_billed / 100.0 * auto_rate * hours * regions;
    e->monthly_serverless = e->ru_per_month / 1e6 * pr->serverless_per_million;
    e->monthly_storage = e->storage_gb * pr->storage_per_gb_month * regions;
}


void ru_estimate(const ru_snapshot_t *snap, const ru_estimate_params_t *params,
                 const ru_prices_t *prices, ru_estimate_t *out)
{
    ru_estimate_params_t none = {0, 0, 0, 0};
    const ru_estimate_params_t *pp = params != NULL ? params : &none;
    memset(out, 0, sizeof(*out));
    if (prices != NULL) {
        out->prices = *prices;
    } else {
        ru_prices_defaults(&out->prices);
    }
    out->observed_s = pp->observed_s > 0 ? pp->observed_s : snap->observed_s;
    if (!(out->observed_s > 0)) {
        out->observed_s = 1;
    }
    double ops_s = (double)snap->total.count / out->observed_s;
    if (pp->target_ops_s > 0 && ops_s > 0) {
        out->scale = pp->target_ops_s / ops_s;
    } else {
        out->scale = pp->scale > 0 ? pp->scale : 1;
    }
    double storage_scale = pp->storage_scale > 0 ? pp->storage_scale : 1;

    out->n_tables = snap->n_tables;
    out->tables = base_calloc(snap->n_tables + 1, sizeof(ru_table_estimate_t));
    for (size_t i = 0; i < snap->n_tables; i++) {
        ru_table_estimate_t *e = &out->tables[i];
        estimate_table(&snap->tables[i], out->observed_s, out->scale, storage_scale, &out->prices,
                       e);
        out->monthly_manual += e->monthly_manual;
        out->monthly_autoscale += e->monthly_autoscale;
        out->monthly_serverless += e->monthly_serverless;
        out->monthly_storage += e->monthly_storage;
    }
}


void ru_estimate_fini(ru_estimate_t *e)
{
    base_free(e->tables);
    memset(e, 0, sizeof(*e));
}
