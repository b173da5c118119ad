/*
 * report.c - renders a snapshot (and optionally its estimate) as a terminal
 * report or as a JSON document, into a base_buf_t. Layer: ru_meter.
 *
 * The JSON is written by hand (the layer links no JSON library): strings are
 * escaped per RFC 8259, numbers are finite (non-finite values print as 0),
 * RU and dollars with two decimals, shares with four. Both outputs end with
 * a NUL just past out->len so they can be used as C strings.
 */
#include <inttypes.h>
#include <math.h>

#include "ru_meter/ru_int.h"

#define TEXT_TOP_SHAPES 20
#define SHAPE_COLUMN    60


static double fin(double v)
{
    return isfinite(v) ? v : 0;
}


void ru__report_terminate(base_buf_t *out)
{
    base_buf_reserve(out, 1);
    out->data[out->len] = '\0';
}


const char *ru__tp_kind_name(ru_tp_kind_t k)
{
    switch (k) {
    case RU_TP_MANUAL:
        return "manual";
    case RU_TP_AUTOSCALE:
        return "autoscale";
    case RU_TP_NONE:
        break;
    }
    return "serverless";
}


/* ---- text ----------------------------------------------------------------------- */

static void text_summary_header(base_buf_t *out)
{
    base_buf_printf(out, "  %9s %10s %8s %8s %8s %8s %9s %9s  %s\n", "count", "RU total", "mean",
                    "p50", "p99", "max", "throttled", "would-thr", "");
}


/* One line per row: control characters in statement text become spaces and
 * long text is cut at width. */
static void text_summary(base_buf_t *out, const ru_summary_t *s, const char *what, size_t width)
{
    char label[256];
    size_t n = 0;
    for (; n < width && n < sizeof(label) - 1 && what[n] != '\0'; n++) {
        label[n] = (char)((unsigned char)what[n] < 0x20 ? ' ' : what[n]);
    }
    label[n] = '\0';
    base_buf_printf(
        out, "  %9" PRIu64 " %10.2f %8.2f %8.2f %8.2f %8.2f %9" PRIu64 " %9" PRIu64 "  %s%s\n",
        s->count, fin(s->ru_total), fin(s->ru_mean), fin(s->ru_p50), fin(s->ru_p99), fin(s->ru_max),
        s->throttled, s->would_throttle, label, what[n] != '\0' ? "..." : "");
}


static void text_tables(const ru_snapshot_t *snap, base_buf_t *out)
{
    base_buf_printf(out, "\nPer table:\n");
    text_summary_header(out);
    for (size_t i = 0; i < snap->n_tables; i++) {
        const ru_table_stats_t *t = &snap->tables[i];
        char name[256];
        snprintf(name, sizeof(name), "%s.%s%s", t->keyspace, t->table,
                 t->dropped ? " (dropped)" : "");
        text_summary(out, &t->s, name, sizeof(name) - 1);
        if (t->throughput.kind == RU_TP_NONE) {
            base_buf_printf(out, "      serverless");
        } else {
            base_buf_printf(out, "      %s %" PRId64 " RU/s%s",
                            ru__tp_kind_name(t->throughput.kind), t->throughput.ru_s,
                            t->shared ? " (keyspace, shared)" : "");
        }
        base_buf_printf(out, ", %" PRIu32 " physical partition%s, peak %.2f RU/s", t->n_partitions,
                        t->n_partitions == 1 ? "" : "s", fin(t->peak_ru_s));
        if (t->autoscale_peak > 0) {
            base_buf_printf(out, ", autoscale peak level %" PRId64 " RU/s", t->autoscale_peak);
        }
        if (t->min_ru_s > 0 && !t->dropped) {
            base_buf_printf(out, ", minimum %" PRId64 " RU/s", t->min_ru_s);
        }
        base_buf_printf(out, "\n");
        const char *sep = "      guard-rails crossed: ";
        for (int g = 0; g < RU_GUARD_N; g++) {
            if (t->guards[g] > 0) {
                base_buf_printf(out, "%s%s %" PRIu64, sep, ru_guard_name((ru_guard_t)g),
                                t->guards[g]);
                sep = ", ";
            }
        }
        if (sep[0] == ',') {
            base_buf_printf(out, " (cassandra.yaml thresholds)\n");
        }
        for (size_t j = 0; j < t->n_parts; j++) {
            const ru_partition_stats_t *p = &t->parts[j];
            base_buf_printf(out,
                            "        partition %" PRIu32 ": budget %.2f RU/s, last second %.2f, "
                            "peak %.2f (%.0f%%), total %.2f, throttled %" PRIu64
                            ", would-throttle %" PRIu64 "%s\n",
                            p->index, fin(p->budget_ru_s), fin(p->ru_last_s), fin(p->peak_ru_s),
                            fin(p->peak_share * 100), fin(p->ru_total), p->throttled,
                            p->would_throttle, p->peak_share > 1.0 ? "  HOT" : "");
        }
    }
}


static void text_estimate(const ru_estimate_t *est, base_buf_t *out)
{
    const ru_prices_t *pr = &est->prices;
    base_buf_printf(out,
                    "\nEstimate: traffic x%.2f over %.1f s %s; %s; %.0f h/month, "
                    "%" PRIu32 " region%s%s\n",
                    fin(est->scale), fin(est->observed_s),
                    est->observed_assumed ? "ASSUMED (no --duration: say what period the traffic "
                                            "stands for)"
                                          : "of traffic",
                    pr->as_of ? pr->as_of : "custom prices", fin(pr->hours_per_month), pr->regions,
                    pr->regions == 1 ? "" : "s",
                    pr->multi_region_writes ? ", multi-region writes" : "");
    if (est->peak_hours < 24 || pr->reserved_discount > 0 || pr->free_tier) {
        base_buf_printf(out,
                        "  Terms: autoscale at its peak %.1f h a day; reserved discount %.0f%%%s\n",
                        fin(est->peak_hours), fin(pr->reserved_discount * 100),
                        pr->free_tier ? "; free tier (1000 RU/s, 25 GB)" : "");
    }
    for (size_t i = 0; i < est->n_tables; i++) {
        const ru_table_estimate_t *e = &est->tables[i];
        base_buf_printf(out, "  %s.%s%s: %.2f ops/s, mean %.2f RU/s, peak %.2f RU/s\n", e->keyspace,
                        e->table, e->shared ? " (shares keyspace throughput)" : "", fin(e->ops_s),
                        fin(e->mean_ru_s), fin(e->peak_ru_s));
        if (e->throttled_ru > 0) {
            base_buf_printf(out,
                            "      includes %.2f RU of throttled requests: demand the table "
                            "did not serve\n",
                            fin(e->throttled_ru));
        }
        base_buf_printf(out,
                        "      manual %" PRId64 " RU/s: $%.2f/month | autoscale max %" PRId64
                        " RU/s (billed at %" PRId64 "): $%.2f/month | serverless%s: $%.2f/month"
                        " | storage %.2f GB: $%.2f/month\n",
                        e->manual_ru_s, fin(e->monthly_manual), e->autoscale_max_ru_s,
                        e->autoscale_billed, fin(e->monthly_autoscale),
                        e->serverless_fits ? "" : " (over its limits)", fin(e->monthly_serverless),
                        fin(e->storage_gb), fin(e->monthly_storage));
        base_buf_printf(out,
                        "      hottest partition: %.0f%% of the RU, %.2f RU/s against %.2f per "
                        "partition (%" PRIu32 " partition%s): throttling risk %s\n",
                        fin(e->hot_share * 100), fin(e->hot_ru_s), fin(e->partition_budget),
                        e->n_partitions, e->n_partitions == 1 ? "" : "s", ru_risk_name(e->risk));
        if (e->hot_unfixable) {
            base_buf_printf(out,
                            "      HOT PARTITION: one key range needs %.2f RU/s, over what any "
                            "physical partition serves (%d RU/s): no throughput fixes it; "
                            "spread the load with a partition key of more distinct values\n",
                            fin(e->hot_ru_s), RU_PARTITION_MAX_RU_S);
        } else if (e->hot_raised) {
            base_buf_printf(out,
                            "      raised from %" PRId64 " to %" PRId64
                            " RU/s so the hottest partition fits its budget\n",
                            e->peak_manual_ru_s, e->manual_ru_s);
        }
    }
    if (est->free_tier_credit > 0) {
        base_buf_printf(out, "  Free tier: $%.2f off the manual total\n",
                        fin(est->free_tier_credit));
    }
    base_buf_printf(out,
                    "  Total per month: manual $%.2f, autoscale $%.2f, serverless $%.2f, "
                    "storage $%.2f\n",
                    fin(est->monthly_manual), fin(est->monthly_autoscale),
                    fin(est->monthly_serverless), fin(est->monthly_storage));
}


void ru_report_text(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out)
{
    base_buf_printf(out,
                    "RU report (%s, rate limiting %s): %" PRIu64 " requests, %.2f RU over %.1f s "
                    "of traffic, %" PRIu64 " throttled, %" PRIu64 " would have been throttled\n",
                    snap->capacity == RU_CAPACITY_SERVERLESS ? "serverless" : "provisioned",
                    snap->rate_limiting ? "on" : "off", snap->total.count,
                    fin(snap->total.ru_total), fin(snap->observed_s), snap->total.throttled,
                    snap->total.would_throttle);
    if (snap->idle_s >= 1) {
        base_buf_printf(out,
                        "(traffic = first to last request; the %.1f s idle since are not "
                        "counted)\n",
                        fin(snap->idle_s));
    }

    size_t n = snap->n_shapes < TEXT_TOP_SHAPES ? snap->n_shapes : TEXT_TOP_SHAPES;
    base_buf_printf(out, "\nPer statement shape (top %zu of %zu by RU):\n", n, snap->n_shapes);
    text_summary_header(out);
    for (size_t i = 0; i < n; i++) {
        text_summary(out, &snap->shapes[i].s, snap->shapes[i].shape, SHAPE_COLUMN);
    }
    text_tables(snap, out);
    if (est != NULL) {
        text_estimate(est, out);
    }
    ru__report_terminate(out);
}


/* ---- JSON ------------------------------------------------------------------------- */

static void json_str(base_buf_t *out, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    base_buf_put_u8(out, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"':
            base_buf_put(out, "\\\"", 2);
            break;
        case '\\':
            base_buf_put(out, "\\\\", 2);
            break;
        case '\n':
            base_buf_put(out, "\\n", 2);
            break;
        case '\r':
            base_buf_put(out, "\\r", 2);
            break;
        case '\t':
            base_buf_put(out, "\\t", 2);
            break;
        default:
            if (*p < 0x20) {
                char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
                base_buf_put(out, esc, sizeof(esc));
            } else {
                base_buf_put_u8(out, *p);
            }
        }
    }
    base_buf_put_u8(out, '"');
}


static void json_summary(base_buf_t *out, const ru_summary_t *s)
{
    base_buf_printf(out,
                    "{\"count\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"throttled\":%" PRIu64
                    ",\"would_throttle\":%" PRIu64 ",\"ru_total\":%.2f,\"ru_mean\":%.2f,"
                    "\"ru_p50\":%.2f,\"ru_p99\":%.2f,\"ru_max\":%.2f}",
                    s->count, s->failed, s->throttled, s->would_throttle, fin(s->ru_total),
                    fin(s->ru_mean), fin(s->ru_p50), fin(s->ru_p99), fin(s->ru_max));
}


static void json_partition(base_buf_t *out, const ru_partition_stats_t *p)
{
    base_buf_printf(out,
                    "{\"index\":%" PRIu32 ",\"budget_ru_s\":%.2f,\"ru_total\":%.2f,"
                    "\"ru_last_s\":%.2f,\"peak_ru_s\":%.2f,\"peak_share\":%.4f,"
                    "\"throttled\":%" PRIu64 ",\"would_throttle\":%" PRIu64 "}",
                    p->index, fin(p->budget_ru_s), fin(p->ru_total), fin(p->ru_last_s),
                    fin(p->peak_ru_s), fin(p->peak_share), p->throttled, p->would_throttle);
}


static void json_table(base_buf_t *out, const ru_table_stats_t *t)
{
    base_buf_printf(out, "{\"keyspace\":");
    json_str(out, t->keyspace);
    base_buf_printf(out, ",\"table\":");
    json_str(out, t->table);
    base_buf_printf(out,
                    ",\"throughput\":{\"kind\":\"%s\",\"ru_s\":%" PRId64 "},"
                    "\"min_throughput\":%" PRId64
                    ",\"shared\":%s,\"dropped\":%s,\"partitions\":%" PRIu32 ",\"budget_ru_s\":%.2f,"
                    "\"storage_bytes\":%" PRIu64 ",\"peak_ru_s\":%.2f,\"throttled_ru\":%.2f,"
                    "\"peak_demand_ru_s\":%.2f,\"autoscale_peak\":%" PRId64
                    ",\"hot_partition\":%" PRIu32 ",\"stats\":",
                    ru__tp_kind_name(t->throughput.kind), t->throughput.ru_s, t->min_ru_s,
                    t->shared ? "true" : "false", t->dropped ? "true" : "false", t->n_partitions,
                    fin(t->budget_ru_s), t->storage_bytes, fin(t->peak_ru_s), fin(t->throttled_ru),
                    fin(t->peak_demand_ru_s), t->autoscale_peak, t->hot_partition);
    json_summary(out, &t->s);
    base_buf_printf(out, ",\"guardrails\":{");
    for (int g = 0; g < RU_GUARD_N; g++) {
        base_buf_printf(out, "%s\"%s\":%" PRIu64, g ? "," : "", ru_guard_name((ru_guard_t)g),
                        t->guards[g]);
    }
    base_buf_printf(out, "}");
    base_buf_printf(out, ",\"physical_partitions\":[");
    for (size_t j = 0; j < t->n_parts; j++) {
        base_buf_printf(out, "%s", j ? "," : "");
        json_partition(out, &t->parts[j]);
    }
    base_buf_printf(out, "]}");
}


static void json_table_estimate(base_buf_t *out, const ru_table_estimate_t *e)
{
    base_buf_printf(out, "{\"keyspace\":");
    json_str(out, e->keyspace);
    base_buf_printf(out, ",\"table\":");
    json_str(out, e->table);
    base_buf_printf(out,
                    ",\"shared\":%s,\"ops_s\":%.2f,\"mean_ru_s\":%.2f,\"peak_ru_s\":%.2f,"
                    "\"throttled_ru\":%.2f,\"peak_manual_ru_s\":%" PRId64 ",\"hot_raised\":%s,"
                    "\"hot_unfixable\":%s,"
                    "\"manual_ru_s\":%" PRId64 ",\"autoscale_max_ru_s\":%" PRId64
                    ",\"autoscale_billed_ru_s\":%" PRId64 ",\"partitions\":%" PRIu32
                    ",\"partition_budget_ru_s\":%.2f,\"hot_share\":%.4f,\"hot_ru_s\":%.2f,"
                    "\"hot_ratio\":%.4f,\"risk\":\"%s\",\"serverless_fits\":%s,\"storage_gb\":%.4f,"
                    "\"ru_per_month\":%.0f,\"monthly\":{\"manual\":%.2f,\"autoscale\":%.2f,"
                    "\"serverless\":%.2f,\"storage\":%.2f}}",
                    e->shared ? "true" : "false", fin(e->ops_s), fin(e->mean_ru_s),
                    fin(e->peak_ru_s), fin(e->throttled_ru), e->peak_manual_ru_s,
                    e->hot_raised ? "true" : "false", e->hot_unfixable ? "true" : "false",
                    e->manual_ru_s, e->autoscale_max_ru_s, e->autoscale_billed, e->n_partitions,
                    fin(e->partition_budget), fin(e->hot_share), fin(e->hot_ru_s),
                    fin(e->hot_ratio), ru_risk_name(e->risk), e->serverless_fits ? "true" : "false",
                    fin(e->storage_gb), fin(e->ru_per_month), fin(e->monthly_manual),
                    fin(e->monthly_autoscale), fin(e->monthly_serverless), fin(e->monthly_storage));
}


static void json_estimate(base_buf_t *out, const ru_estimate_t *est)
{
    const ru_prices_t *pr = &est->prices;
    base_buf_printf(out,
                    ",\"estimate\":{\"observed_s\":%.3f,\"observed_assumed\":%s,\"scale\":%.4f,"
                    "\"peak_hours\":%.2f,\"prices\":{"
                    "\"manual_per_100_hour\":%.4f,\"autoscale_factor\":%.2f,"
                    "\"autoscale_floor\":%.2f,\"serverless_per_million\":%.4f,"
                    "\"storage_per_gb_month\":%.4f,\"multi_write_factor\":%.2f,"
                    "\"regions\":%" PRIu32 ",\"multi_region_writes\":%s,"
                    "\"hours_per_month\":%.0f,\"reserved_discount\":%.4f,\"free_tier\":%s,"
                    "\"as_of\":",
                    fin(est->observed_s), est->observed_assumed ? "true" : "false", fin(est->scale),
                    fin(est->peak_hours), fin(pr->manual_per_100_hour), fin(pr->autoscale_factor),
                    fin(pr->autoscale_floor), fin(pr->serverless_per_million),
                    fin(pr->storage_per_gb_month), fin(pr->multi_write_factor), pr->regions,
                    pr->multi_region_writes ? "true" : "false", fin(pr->hours_per_month),
                    fin(pr->reserved_discount), pr->free_tier ? "true" : "false");
    json_str(out, pr->as_of);
    base_buf_printf(out, "},\"tables\":[");
    for (size_t i = 0; i < est->n_tables; i++) {
        base_buf_printf(out, "%s", i ? "," : "");
        json_table_estimate(out, &est->tables[i]);
    }
    base_buf_printf(out,
                    "],\"hot_raised\":%zu,\"hot_unfixable\":%zu,\"free_tier_credit\":%.2f,"
                    "\"monthly\":{\"manual\":%.2f,\"autoscale\":%.2f,\"serverless\":%.2f,"
                    "\"storage\":%.2f}}",
                    est->n_hot_raised, est->n_hot_unfixable, fin(est->free_tier_credit),
                    fin(est->monthly_manual), fin(est->monthly_autoscale),
                    fin(est->monthly_serverless), fin(est->monthly_storage));
}


void ru_report_json(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out)
{
    base_buf_printf(out,
                    "{\"started_us\":%" PRId64 ",\"last_us\":%" PRId64 ",\"taken_us\":%" PRId64
                    ",\"observed_s\":%.3f,\"idle_s\":%.3f,"
                    "\"capacity\":\"%s\",\"rate_limiting\":%s,\"total\":",
                    snap->started_us, snap->last_us, snap->taken_us, fin(snap->observed_s),
                    fin(snap->idle_s),
                    snap->capacity == RU_CAPACITY_SERVERLESS ? "serverless" : "provisioned",
                    snap->rate_limiting ? "true" : "false");
    json_summary(out, &snap->total);
    base_buf_printf(out, ",\"tables\":[");
    for (size_t i = 0; i < snap->n_tables; i++) {
        base_buf_printf(out, "%s", i ? "," : "");
        json_table(out, &snap->tables[i]);
    }
    base_buf_printf(out, "],\"shapes\":[");
    for (size_t i = 0; i < snap->n_shapes; i++) {
        const ru_shape_stats_t *s = &snap->shapes[i];
        base_buf_printf(out, "%s{\"keyspace\":", i ? "," : "");
        json_str(out, s->keyspace);
        base_buf_printf(out, ",\"table\":");
        json_str(out, s->table);
        base_buf_printf(out, ",\"shape\":");
        json_str(out, s->shape);
        base_buf_printf(out, ",\"stats\":");
        json_summary(out, &s->s);
        base_buf_printf(out, "}");
    }
    base_buf_printf(out, "]");
    if (est != NULL) {
        json_estimate(out, est);
    }
    base_buf_printf(out, "}\n");
    ru__report_terminate(out);
}
