/*
 * estimate.c - from observed traffic to the throughput and the monthly bill
 * a table would need on the service. Layer: ru_meter. Pure arithmetic over
 * a snapshot; nothing here reads the meter.
 *
 * Per table, with S the scale factor and D the observed seconds (the busy
 * period); demand is what was charged plus what throttled requests were
 * expected to cost, since a refused request is traffic the table must serve:
 *   mean = demand / D * S            peak = max(peak demand second * S, mean)
 *   manual = max(400, ceil(peak / 100) * 100), then raised until the hot
 *     partition fits its budget (below)
 *   autoscale max = max(1000, ceil(manual / 1000) * 1000); billed level = the
 *     peak for peak_hours a day (24 unless told), the mean or 10% of the max
 *     the rest of the day, to 100
 *   partitions n = ceil(manual / 10000) (and storage / 50 GB), budget manual / n
 *   hot share = the busiest of n equal token ranges' share of the table's RU
 *     (from the 64 token slices, so skew seen on one partition still shows);
 *     hot RU/s = peak * hot share; while hot RU/s > budget the recommendation
 *     grows to hot RU/s * n (which may add partitions and shrink the share);
 *     a hot range over 10000 RU/s cannot be fixed by throughput: the estimate
 *     says so (hot_unfixable). Risk from hot RU/s / budget.
 *   $ manual = manual / 100 * rate * 730 h * regions, rate = $0.008 (x2 with
 *     multi-region writes); autoscale the billed level at 1.5x that rate
 *     (multi-region writes: the manual multi-region rate); serverless RU per
 *     month / 1e6 * $0.25; storage GB * $0.25 per region.
 * Account level: the reserved discount (reserved-capacity.md: up to 63% for a
 * 1- or 3-year commitment; the user gives their tier's) scales the provisioned
 * totals; the free tier (concepts-limits.md: 1000 RU/s and 25 GB) is credited
 * once, at the write region's rates. Serverless has neither.
 * Prices: list prices as of 2022-03 (understand-your-bill.md, autoscale-faq.yml).
 */
#include <math.h>

#include "ru_meter/ru_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

#define FREE_TIER_RU_S 1000 /* concepts-limits.md: "Maximum RU/s for free | 1000 RU/s" */
#define FREE_TIER_GB   25
#define HOT_ITERATIONS 16 /* raising manual adds partitions, which changes the hot share */


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


/* $ per 100 RU/s per hour, manual and autoscale, in one region. */
static void provisioned_rates(const ru_prices_t *pr, double *manual, double *autoscale)
{
    *manual = pr->manual_per_100_hour;
    *autoscale = pr->manual_per_100_hour * pr->autoscale_factor;
    if (pr->multi_region_writes) {
        *manual *= pr->multi_write_factor;
        *autoscale = *manual; /* multi-master autoscale pays the manual multi-master rate */
    }
}


/* Sets the partitions behind e->manual_ru_s and the hot partition's load on them. */
static void place_hot(const ru_table_stats_t *ts, uint64_t stored, ru_table_estimate_t *e)
{
    e->n_partitions = ru_partitions_needed(e->manual_ru_s, stored);
    e->partition_budget = (double)e->manual_ru_s / e->n_partitions;
    e->hot_share = hot_share(ts, e->n_partitions);
    e->hot_ru_s = e->peak_ru_s * e->hot_share;
    e->hot_ratio = e->hot_ru_s / e->partition_budget;
}


/* Raises e->manual_ru_s until the hot partition fits its budget, or says that
 * no throughput can (one range over the per-partition limit). */
static void cover_hot(const ru_table_stats_t *ts, uint64_t stored, ru_table_estimate_t *e)
{
    for (int i = 0; i < HOT_ITERATIONS && e->hot_ratio > 1.0; i++) {
        if (e->hot_ru_s > RU_PARTITION_MAX_RU_S) {
            break; /* no partition's budget exceeds the limit: more RU/s cannot help */
        }
        int64_t need = round_up(e->hot_ru_s * e->n_partitions, RU_MANUAL_STEP, RU_MANUAL_MIN);
        e->manual_ru_s = need > e->manual_ru_s ? need : e->manual_ru_s + RU_MANUAL_STEP;
        e->hot_raised = true;
        place_hot(ts, stored, e);
    }
    e->hot_unfixable = e->hot_ratio > 1.0 || e->hot_ru_s > RU_PARTITION_MAX_RU_S;
}


/* The autoscale level billed on average per hour: the peak for peak_hours a
 * day, the mean (at least the 10% floor) for the rest. */
static void price_autoscale_level(const ru_prices_t *pr, double peak_hours, ru_table_estimate_t *e)
{
    e->autoscale_max_ru_s = round_up((double)e->manual_ru_s, RU_AUTOSCALE_STEP, RU_AUTOSCALE_MIN);
    double floor_ru = (double)e->autoscale_max_ru_s * pr->autoscale_floor;
    double at_peak = e->peak_ru_s > floor_ru ? e->peak_ru_s : floor_ru;
    double at_rest = e->mean_ru_s > floor_ru ? e->mean_ru_s : floor_ru;
    at_rest = at_rest < at_peak ? at_rest : at_peak;
    double share = peak_hours / 24.0;
    e->autoscale_billed = round_up(at_peak * share + at_rest * (1 - share), RU_MANUAL_STEP, 0);
    if (e->autoscale_billed > e->autoscale_max_ru_s) {
        e->autoscale_billed = e->autoscale_max_ru_s;
    }
}


static void estimate_table(const ru_table_stats_t *ts, const ru_estimate_t *est,
                           double storage_scale, ru_table_estimate_t *e)
{
    const ru_prices_t *pr = &est->prices;
    double observed = est->observed_s, scale = est->scale;
    double regions = pr->regions > 0 ? pr->regions : 1;
    double hours = pr->hours_per_month;

    e->keyspace = ts->keyspace;
    e->table = ts->table;
    e->shared = ts->shared;
    e->throttled_ru = ts->throttled_ru * scale;
    e->ops_s = (double)(ts->s.count + ts->s.throttled) / observed * scale;
    e->mean_ru_s = (ts->s.ru_total + ts->throttled_ru) / observed * scale;
    e->peak_ru_s =
        (ts->peak_demand_ru_s > ts->peak_ru_s ? ts->peak_demand_ru_s : ts->peak_ru_s) * scale;
    if (e->peak_ru_s < e->mean_ru_s) {
        e->peak_ru_s = e->mean_ru_s;
    }
    e->peak_manual_ru_s = round_up(e->peak_ru_s, RU_MANUAL_STEP, RU_MANUAL_MIN);
    e->manual_ru_s = e->peak_manual_ru_s;

    uint64_t stored = (uint64_t)((double)ts->storage_bytes * storage_scale);
    e->storage_gb = (double)stored / GIB;
    place_hot(ts, stored, e);
    if (ts->s.count + ts->s.throttled > 0) {
        cover_hot(ts, stored, e);
    }
    price_autoscale_level(pr, est->peak_hours, e);
    if (ts->s.count + ts->s.throttled == 0) {
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

    double manual_rate, auto_rate;
    provisioned_rates(pr, &manual_rate, &auto_rate);
    e->ru_per_month = e->mean_ru_s * 3600.0 * hours;
    e->monthly_manual = (double)e->manual_ru_s / 100.0 * manual_rate * hours * regions;
    e->monthly_autoscale = (double)e->autoscale_billed / 100.0 * auto_rate * hours * regions;
    e->monthly_serverless = e->ru_per_month / 1e6 * pr->serverless_per_million;
    e->monthly_storage = e->storage_gb * pr->storage_per_gb_month * regions;
}


/* Reserved capacity and the free tier are account-level: they change the
 * totals, never a table's list price. */
static void apply_account_terms(ru_estimate_t *out, int64_t manual_ru_s, int64_t autoscale_ru_s,
                                double storage_gb)
{
    const ru_prices_t *pr = &out->prices;
    double keep =
        1.0 - (pr->reserved_discount > 0 && pr->reserved_discount < 1 ? pr->reserved_discount : 0);
    out->monthly_manual *= keep;
    out->monthly_autoscale *= keep;
    if (!pr->free_tier) {
        return;
    }
    double manual_rate, auto_rate;
    provisioned_rates(pr, &manual_rate, &auto_rate);
    double hours = pr->hours_per_month;
    double free_manual = (double)(manual_ru_s < FREE_TIER_RU_S ? manual_ru_s : FREE_TIER_RU_S);
    double free_auto = (double)(autoscale_ru_s < FREE_TIER_RU_S ? autoscale_ru_s : FREE_TIER_RU_S);
    double free_gb = storage_gb < FREE_TIER_GB ? storage_gb : FREE_TIER_GB;
    out->free_tier_credit = free_manual / 100.0 * manual_rate * hours * keep;
    out->monthly_manual -= out->free_tier_credit;
    out->monthly_autoscale -= free_auto / 100.0 * auto_rate * hours * keep;
    out->monthly_storage -= free_gb * pr->storage_per_gb_month;
    out->monthly_manual = out->monthly_manual > 0 ? out->monthly_manual : 0;
    out->monthly_autoscale = out->monthly_autoscale > 0 ? out->monthly_autoscale : 0;
    out->monthly_storage = out->monthly_storage > 0 ? out->monthly_storage : 0;
}


void ru_estimate(const ru_snapshot_t *snap, const ru_estimate_params_t *params,
                 const ru_prices_t *prices, ru_estimate_t *out)
{
    ru_estimate_params_t none;
    memset(&none, 0, sizeof(none));
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
    out->observed_assumed = pp->observed_assumed;
    out->peak_hours = pp->peak_hours > 0 && pp->peak_hours < 24 ? pp->peak_hours : 24;
    double ops_s = (double)(snap->total.count + snap->total.throttled) / out->observed_s;
    if (pp->target_ops_s > 0 && ops_s > 0) {
        out->scale = pp->target_ops_s / ops_s;
    } else {
        out->scale = pp->scale > 0 ? pp->scale : 1;
    }
    double storage_scale = pp->storage_scale > 0 ? pp->storage_scale : 1;

    out->n_tables = snap->n_tables;
    out->tables = base_calloc(snap->n_tables + 1, sizeof(ru_table_estimate_t));
    int64_t manual_ru_s = 0, autoscale_ru_s = 0;
    double storage_gb = 0;
    for (size_t i = 0; i < snap->n_tables; i++) {
        ru_table_estimate_t *e = &out->tables[i];
        estimate_table(&snap->tables[i], out, storage_scale, e);
        out->monthly_manual += e->monthly_manual;
        out->monthly_autoscale += e->monthly_autoscale;
        out->monthly_serverless += e->monthly_serverless;
        out->monthly_storage += e->monthly_storage;
        out->n_hot_raised += e->hot_raised;
        out->n_hot_unfixable += e->hot_unfixable;
        manual_ru_s += e->manual_ru_s;
        autoscale_ru_s += e->autoscale_billed;
        storage_gb += e->storage_gb;
    }
    apply_account_terms(out, manual_ru_s, autoscale_ru_s, storage_gb);
}


void ru_estimate_fini(ru_estimate_t *e)
{
    base_free(e->tables);
    memset(e, 0, sizeof(*e));
}
