/*
 * report_html.c - renders a snapshot (and optionally its estimate) as one
 * self-contained HTML page: inline CSS and inline SVG bar charts (RU by
 * statement shape, RU/s each table needs against the recommended
 * throughput, physical partition and token-ring heat), no scripts and no
 * external assets, so it can be mailed or attached to a CI run. The live
 * dashboard is the same page reloading itself (a meta refresh, still no
 * script), opened by each table's RU/s over the last RU_SERIES_SECONDS
 * against its throughput, throttled requests over time and the hottest
 * partitions of the last second. Layer: ru_meter.
 *
 * Every text from the snapshot (statement shapes, names) is HTML-escaped;
 * numbers are finite (non-finite values print as 0). The page ends with a
 * NUL just past out->len, like the other reports.
 */
#include <inttypes.h>
#include <math.h>

#include "ru_meter/ru_int.h"

#define CHART_SHAPES  20  /* bars in the shape chart; the table lists them all */
#define TABLE_SHAPES  500 /* rows in the shape table */
#define LABEL_CHARS   52  /* label text in a chart before it is cut */
#define CHART_WIDTH   900
#define LABEL_WIDTH   380
#define BAR_AREA      400
#define ROW_HEIGHT    22
#define HEAT_CELL     12
#define HEAT_MAX_PART 256 /* physical partitions drawn per table */
#define LIVE_WIDTH    1300
#define LIVE_HEIGHT   170
#define LIVE_LEFT     56 /* room for the axis labels */
#define LIVE_BAND     26 /* throttled requests, under the RU/s plot */
#define LIVE_HOT      10 /* partitions listed as the hottest now */

/* Fonts as attributes, so a chart copied out of the page renders alike. */
#define SVG_FONT "font-family=\"system-ui,sans-serif\" font-size=\"12\" fill=\"#1f2328\""
#define MONO     "font-family=\"ui-monospace,Menlo,Consolas,monospace\" font-size=\"11\""


static double fin(double v)
{
    return isfinite(v) ? v : 0;
}


/* Appends s HTML-escaped, cut after max bytes (0: no limit) with an
 * ellipsis; control characters become spaces. */
static void esc_n(base_buf_t *out, const char *s, size_t max)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++, n++) {
        if (max > 0 && n == max) {
            /* do not cut a UTF-8 sequence in half */
            while ((*p & 0xC0) == 0x80) {
                base_buf_put_u8(out, *p++);
            }
            if (*p) {
                base_buf_printf(out, "&#8230;");
            }
            return;
        }
        switch (*p) {
        case '&':
            base_buf_printf(out, "&amp;");
            break;
        case '<':
            base_buf_printf(out, "&lt;");
            break;
        case '>':
            base_buf_printf(out, "&gt;");
            break;
        case '"':
            base_buf_printf(out, "&quot;");
            break;
        case '\'':
            base_buf_printf(out, "&#39;");
            break;
        default:
            base_buf_put_u8(out, *p < 0x20 ? ' ' : *p);
        }
    }
}


static void esc(base_buf_t *out, const char *s)
{
    esc_n(out, s, 0);
}


static void esc_name(base_buf_t *out, const char *keyspace, const char *table)
{
    esc(out, keyspace);
    base_buf_put_u8(out, '.');
    esc(out, table);
}


/* Green (0) through amber to red (1 and over): a budget share. */
static void heat_color(base_buf_t *out, double share)
{
    share = fin(share);
    if (share > 1.0) {
        base_buf_printf(out, "#8b1a1a");
        return;
    }
    double hue = 120.0 * (1.0 - (share < 0 ? 0 : share));
    base_buf_printf(out, "hsl(%.0f,70%%,%.0f%%)", hue, share > 0 ? 45.0 : 92.0);
}


static const char STYLE[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1f2328;"
    "margin:24px auto;max-width:1340px;padding:0 16px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;"
    "border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:14px;margin:14px 0 4px}"
    ".sub{color:#57606a}"
    "table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}"
    "th,td{padding:3px 7px;border-bottom:1px solid #eaeef2;text-align:right;"
    "white-space:nowrap}th{background:#f6f8fa;font-weight:600;white-space:normal}"
    ".wide{max-width:100%;overflow-x:auto}"
    "td.l,th.l{text-align:left}td.code{font:12px ui-monospace,Menlo,Consolas,monospace;"
    "text-align:left;white-space:normal;max-width:520px;word-break:break-word}"
    ".cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}"
    ".card{border:1px solid #d0d7de;border-radius:8px;padding:10px 14px;min-width:170px}"
    ".card b{display:block;font-size:20px}.card span{color:#57606a;font-size:12px}"
    ".risk-none,.risk-low{color:#1a7f37}.risk-medium{color:#9a6700}"
    ".risk-high{color:#cf222e;font-weight:600}.hot{color:#cf222e;font-weight:600}"
    "svg{display:block;margin:6px 0 12px}"
    ".legend{font-size:12px;color:#57606a}.sw{display:inline-block;width:10px;height:10px;"
    "margin:0 4px 0 10px;vertical-align:middle}";


/* ---- charts ----------------------------------------------------------------------- */

/* Horizontal bars, one per row: label on the left, value on the right. */
static void svg_bars(base_buf_t *out, size_t n, const char *const *labels, const double *values,
                     const char *unit)
{
    double max = 0;
    for (size_t i = 0; i < n; i++) {
        max = fin(values[i]) > max ? fin(values[i]) : max;
    }
    size_t height = n * ROW_HEIGHT + 4;
    base_buf_printf(out,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
                    "viewBox=\"0 0 %d %zu\" role=\"img\" " SVG_FONT ">\n",
                    CHART_WIDTH, height, CHART_WIDTH, height);
    for (size_t i = 0; i < n; i++) {
        double v = fin(values[i]);
        double w = max > 0 ? v / max * BAR_AREA : 0;
        size_t y = i * ROW_HEIGHT + 2;
        base_buf_printf(out, "<g><title>");
        esc(out, labels[i]);
        base_buf_printf(out, ": %.2f %s</title><text " MONO " x=\"0\" y=\"%zu\">", v, unit, y + 14);
        esc_n(out, labels[i], LABEL_CHARS);
        base_buf_printf(
            out,
            "</text><rect x=\"%d\" y=\"%zu\" width=\"%.1f\" height=\"16\" "
            "fill=\"#2f6db3\" rx=\"2\"/><text x=\"%.1f\" y=\"%zu\">%.2f %s</text></g>\n",
            LABEL_WIDTH, y, w > 0 && w < 1 ? 1 : w, LABEL_WIDTH + w + 6, y + 13, v, unit);
    }
    base_buf_printf(out, "</svg>\n");
}


/* Per table: the RU/s it needs at peak (scaled) against the manual RU/s
 * recommended and the autoscale maximum. */
static void svg_needs(base_buf_t *out, const ru_estimate_t *est)
{
    double max = 0;
    for (size_t i = 0; i < est->n_tables; i++) {
        const ru_table_estimate_t *e = &est->tables[i];
        max = fin(e->peak_ru_s) > max ? fin(e->peak_ru_s) : max;
        max = (double)e->manual_ru_s > max ? (double)e->manual_ru_s : max;
        max = (double)e->autoscale_max_ru_s > max ? (double)e->autoscale_max_ru_s : max;
    }
    size_t row = 3 * 12 + 10;
    size_t height = est->n_tables * row + 4;
    base_buf_printf(out,
                    "<p class=\"legend\"><span class=\"sw\" style=\"background:#2f6db3\"></span>"
                    "peak RU/s needed<span class=\"sw\" style=\"background:#8fb3df\"></span>"
                    "recommended manual RU/s<span class=\"sw\" style=\"background:#c9d7ea\">"
                    "</span>autoscale maximum RU/s</p>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
                    "viewBox=\"0 0 %d %zu\" role=\"img\" " SVG_FONT ">\n",
                    CHART_WIDTH, height, CHART_WIDTH, height);
    for (size_t i = 0; i < est->n_tables; i++) {
        const ru_table_estimate_t *e = &est->tables[i];
        const double v[3] = {fin(e->peak_ru_s), (double)e->manual_ru_s,
                             (double)e->autoscale_max_ru_s};
        static const char *const fill[3] = {"#2f6db3", "#8fb3df", "#c9d7ea"};
        size_t y = i * row + 2;
        base_buf_printf(out, "<g><title>");
        esc_name(out, e->keyspace, e->table);
        base_buf_printf(out,
                        ": peak %.2f RU/s, manual %" PRId64 " RU/s, autoscale max %" PRId64
                        " RU/s</title><text " MONO " x=\"0\" y=\"%zu\">",
                        v[0], e->manual_ru_s, e->autoscale_max_ru_s, y + 22);
        esc_n(out, e->keyspace, LABEL_CHARS / 2);
        base_buf_put_u8(out, '.');
        esc_n(out, e->table, LABEL_CHARS / 2);
        base_buf_printf(out, "</text>\n");
        for (int k = 0; k < 3; k++) {
            double w = max > 0 ? v[k] / max * BAR_AREA : 0;
            base_buf_printf(out,
                            "<rect x=\"%d\" y=\"%zu\" width=\"%.1f\" height=\"10\" fill=\"%s\" "
                            "rx=\"2\"/><text x=\"%.1f\" y=\"%zu\">%.0f</text>\n",
                            LABEL_WIDTH, y + (size_t)k * 12, w > 0 && w < 1 ? 1 : w, fill[k],
                            LABEL_WIDTH + w + 6, y + (size_t)k * 12 + 10, v[k]);
        }
        base_buf_printf(out, "</g>\n");
    }
    base_buf_printf(out, "</svg>\n");
}


/* One row of cells: physical partitions by peak budget share, then the
 * token ring's 64 slices by their share of the busiest slice. */
static void svg_heat(base_buf_t *out, const ru_table_stats_t *t)
{
    size_t n = t->n_parts < HEAT_MAX_PART ? t->n_parts : HEAT_MAX_PART;
    size_t per_row = (CHART_WIDTH - 140) / (HEAT_CELL + 2);
    size_t rows = n == 0 ? 1 : (n + per_row - 1) / per_row;
    size_t height = rows * (HEAT_CELL + 2) + HEAT_CELL + 12;
    base_buf_printf(out,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
                    "viewBox=\"0 0 %d %zu\" role=\"img\" " SVG_FONT ">\n<text x=\"0\" y=\"10\">"
                    "physical partitions</text>\n",
                    CHART_WIDTH, height, CHART_WIDTH, height);
    for (size_t i = 0; i < n; i++) {
        const ru_partition_stats_t *p = &t->parts[i];
        base_buf_printf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" fill=\"",
                        140 + (i % per_row) * (HEAT_CELL + 2), (i / per_row) * (HEAT_CELL + 2),
                        HEAT_CELL, HEAT_CELL);
        heat_color(out, p->peak_share);
        base_buf_printf(out,
                        "\"><title>partition %" PRIu32 ": peak %.2f RU/s of %.2f (%.0f%%), "
                        "total %.2f RU, throttled %" PRIu64 ", would-throttle %" PRIu64
                        "</title></rect>\n",
                        p->index, fin(p->peak_ru_s), fin(p->budget_ru_s), fin(p->peak_share) * 100,
                        fin(p->ru_total), p->throttled, p->would_throttle);
    }
    double top = 0;
    for (size_t s = 0; s < RU_SLICES; s++) {
        top = fin(t->token_slices[s]) > top ? fin(t->token_slices[s]) : top;
    }
    size_t y = rows * (HEAT_CELL + 2) + 2;
    base_buf_printf(out, "<text x=\"0\" y=\"%zu\">token ring (1/%d each)</text>\n", y + 10,
                    RU_SLICES);
    for (size_t s = 0; s < RU_SLICES; s++) {
        double share = top > 0 ? fin(t->token_slices[s]) / top : 0;
        base_buf_printf(out,
                        "<rect x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" "
                        "fill=\"hsl(214,60%%,%.0f%%)\"><title>",
                        140 + s * (HEAT_CELL / 2 + 2), y, HEAT_CELL / 2 + 1, HEAT_CELL,
                        94.0 - 62.0 * share);
        base_buf_printf(out, "slice %zu: %.2f RU (%.0f%% of the busiest)</title></rect>\n", s,
                        fin(t->token_slices[s]), share * 100);
    }
    base_buf_printf(out, "</svg>\n");
}


/* ---- tables ----------------------------------------------------------------------- */

static void summary_head(base_buf_t *out)
{
    base_buf_printf(out, "<th>count</th><th>RU total</th><th>mean</th><th>p50</th><th>p99</th>"
                         "<th>max</th><th>throttled</th><th>would-throttle</th>");
}


static void summary_cells(base_buf_t *out, const ru_summary_t *s)
{
    base_buf_printf(out,
                    "<td>%" PRIu64 "</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td>"
                    "<td>%.2f</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td>",
                    s->count, fin(s->ru_total), fin(s->ru_mean), fin(s->ru_p50), fin(s->ru_p99),
                    fin(s->ru_max), s->throttled, s->would_throttle);
}


static void shapes_section(const ru_snapshot_t *snap, base_buf_t *out)
{
    size_t n = snap->n_shapes < CHART_SHAPES ? snap->n_shapes : CHART_SHAPES;
    base_buf_printf(out, "<h2>RU by statement shape</h2>\n");
    if (snap->n_shapes == 0) {
        base_buf_printf(out, "<p class=\"sub\">No statements metered yet.</p>\n");
        return;
    }
    const char **labels = base_calloc(n + 1, sizeof(char *));
    double *values = base_calloc(n + 1, sizeof(double));
    for (size_t i = 0; i < n; i++) {
        labels[i] = snap->shapes[i].shape;
        values[i] = snap->shapes[i].s.ru_total;
    }
    base_buf_printf(out, "<p class=\"sub\">Top %zu of %zu shapes by RU total.</p>\n", n,
                    snap->n_shapes);
    svg_bars(out, n, labels, values, "RU");
    base_free(labels);
    base_free(values);

    size_t rows = snap->n_shapes < TABLE_SHAPES ? snap->n_shapes : TABLE_SHAPES;
    base_buf_printf(
        out,
        "<div class=\"wide\"><table><tr><th class=\"l\">table</th><th class=\"l\">statement</th>");
    summary_head(out);
    base_buf_printf(out, "</tr>\n");
    for (size_t i = 0; i < rows; i++) {
        const ru_shape_stats_t *s = &snap->shapes[i];
        base_buf_printf(out, "<tr><td class=\"l\">");
        esc_name(out, s->keyspace, s->table);
        base_buf_printf(out, "</td><td class=\"code\">");
        esc(out, s->shape);
        base_buf_printf(out, "</td>");
        summary_cells(out, &s->s);
        base_buf_printf(out, "</tr>\n");
    }
    base_buf_printf(out, "</table></div>\n");
}


static void tables_section(const ru_snapshot_t *snap, base_buf_t *out)
{
    base_buf_printf(out,
                    "<h2>Tables</h2>\n<div class=\"wide\"><table><tr><th class=\"l\">table</th>"
                    "<th class=\"l\">throughput</th><th>partitions</th><th>peak RU/s</th>"
                    "<th>storage MB</th>");
    summary_head(out);
    base_buf_printf(out, "</tr>\n");
    for (size_t i = 0; i < snap->n_tables; i++) {
        const ru_table_stats_t *t = &snap->tables[i];
        base_buf_printf(out, "<tr><td class=\"l\">");
        esc_name(out, t->keyspace, t->table);
        base_buf_printf(out, "%s", t->dropped ? " (dropped)" : "");
        for (int g = 0, first = 1; g < RU_GUARD_N; g++) {
            if (t->guards[g] > 0) { /* names are ours: nothing to escape */
                base_buf_printf(out, "%s%s %" PRIu64, first ? "<br>guard-rails: " : ", ",
                                ru_guard_name((ru_guard_t)g), t->guards[g]);
                first = 0;
            }
        }
        base_buf_printf(out, "</td><td class=\"l\">");
        if (t->throughput.kind == RU_TP_NONE) {
            base_buf_printf(out, "serverless");
        } else {
            base_buf_printf(out, "%s %" PRId64 " RU/s%s", ru__tp_kind_name(t->throughput.kind),
                            t->throughput.ru_s, t->shared ? " (keyspace, shared)" : "");
        }
        base_buf_printf(out, "</td><td>%" PRIu32 "</td><td>%.2f</td><td>%.3f</td>", t->n_partitions,
                        fin(t->peak_ru_s), (double)t->storage_bytes / (1024.0 * 1024.0));
        summary_cells(out, &t->s);
        base_buf_printf(out, "</tr>\n");
    }
    base_buf_printf(out, "</table></div>\n");
}


static void estimate_section(const ru_estimate_t *est, base_buf_t *out)
{
    const ru_prices_t *pr = &est->prices;
    base_buf_printf(out,
                    "<h2>Throughput each table needs</h2>\n<p class=\"sub\">Traffic &#215;%.2f "
                    "over %.1f s %s. Demand counts throttled requests too. Manual RU/s is the "
                    "peak rounded up to 100 (at least 400), raised where the hottest partition "
                    "needs more; the autoscale maximum is that rounded up to 1000.</p>\n",
                    fin(est->scale), fin(est->observed_s),
                    est->observed_assumed
                        ? "<strong class=\"hot\">assumed (no --duration given: say what period "
                          "the traffic stands for)</strong>"
                        : "of traffic");
    svg_needs(out, est);
    base_buf_printf(
        out,
        "<div class=\"wide\"><table><tr><th class=\"l\">table</th><th>ops/s</th><th>mean RU/s</th>"
        "<th>peak RU/s</th><th>manual RU/s</th><th>autoscale max</th>"
        "<th>billed level</th><th>partitions</th><th>hottest share</th>"
        "<th>hot RU/s / budget</th><th class=\"l\">throttling risk</th>"
        "<th>manual $/mo</th><th>autoscale $/mo</th><th>serverless $/mo</th>"
        "<th>storage GB</th><th>storage $/mo</th></tr>\n");
    for (size_t i = 0; i < est->n_tables; i++) {
        const ru_table_estimate_t *e = &est->tables[i];
        const char *risk = ru_risk_name(e->risk);
        base_buf_printf(out, "<tr><td class=\"l\">");
        esc_name(out, e->keyspace, e->table);
        base_buf_printf(
            out,
            "%s</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%" PRId64 "</td><td>%" PRId64
            "</td><td>%" PRId64 "</td><td>%" PRIu32 "</td><td>%.0f%%</td>"
            "<td>%.2f / %.2f</td><td class=\"l risk-%s\">%s</td><td>$%.2f</td><td>$%.2f</td>"
            "<td>$%.2f%s</td><td>%.4f</td><td>$%.2f</td></tr>\n",
            e->shared ? " (shared)" : "", fin(e->ops_s), fin(e->mean_ru_s), fin(e->peak_ru_s),
            e->manual_ru_s, e->autoscale_max_ru_s, e->autoscale_billed, e->n_partitions,
            fin(e->hot_share) * 100, fin(e->hot_ru_s), fin(e->partition_budget), risk, risk,
            fin(e->monthly_manual), fin(e->monthly_autoscale), fin(e->monthly_serverless),
            e->serverless_fits ? "" : " (over limits)", fin(e->storage_gb),
            fin(e->monthly_storage));
    }
    base_buf_printf(out, "</table></div>\n");
    for (size_t i = 0; i < est->n_tables; i++) {
        const ru_table_estimate_t *e = &est->tables[i];
        if (!e->hot_raised && !e->hot_unfixable && !(e->throttled_ru > 0)) {
            continue;
        }
        base_buf_printf(out, "<p class=\"sub\">");
        esc_name(out, e->keyspace, e->table);
        if (e->throttled_ru > 0) {
            base_buf_printf(out, ": %.2f RU of throttled requests counted as demand",
                            fin(e->throttled_ru));
        }
        if (e->hot_unfixable) {
            base_buf_printf(out,
                            "; <span class=\"hot\">one key range needs %.2f RU/s, over the %d "
                            "RU/s any physical partition serves: spread the load with a "
                            "partition key of more distinct values</span>",
                            fin(e->hot_ru_s), RU_PARTITION_MAX_RU_S);
        } else if (e->hot_raised) {
            base_buf_printf(out,
                            "; raised from %" PRId64 " to %" PRId64
                            " RU/s so the hottest partition fits its budget",
                            e->peak_manual_ru_s, e->manual_ru_s);
        }
        base_buf_printf(out, ".</p>\n");
    }
    base_buf_printf(out, "<p class=\"sub\">Prices: ");
    esc(out, pr->as_of ? pr->as_of : "custom prices");
    base_buf_printf(
        out,
        "; $%.4f per 100 RU/s per hour, autoscale &#215;%.2f, serverless $%.2f per "
        "million RU, storage $%.2f per GB-month; %.0f h/month, %" PRIu32 " region%s%s.</p>\n",
        fin(pr->manual_per_100_hour), fin(pr->autoscale_factor), fin(pr->serverless_per_million),
        fin(pr->storage_per_gb_month), fin(pr->hours_per_month), pr->regions,
        pr->regions == 1 ? "" : "s", pr->multi_region_writes ? ", multi-region writes" : "");
}


static void heat_section(const ru_snapshot_t *snap, base_buf_t *out)
{
    base_buf_printf(out, "<h2>Physical partition heat</h2>\n<p class=\"legend\">Peak RU in one "
                         "second against each partition's budget:<span class=\"sw\" "
                         "style=\"background:hsl(120,70%%,45%%)\"></span>low<span class=\"sw\" "
                         "style=\"background:hsl(60,70%%,45%%)\"></span>half<span class=\"sw\" "
                         "style=\"background:hsl(0,70%%,45%%)\"></span>full<span class=\"sw\" "
                         "style=\"background:#8b1a1a\"></span>over budget (hot)</p>\n");
    for (size_t i = 0; i < snap->n_tables; i++) {
        const ru_table_stats_t *t = &snap->tables[i];
        const ru_partition_stats_t *hot =
            t->hot_partition < t->n_parts ? &t->parts[t->hot_partition] : NULL;
        base_buf_printf(out, "<h3>");
        esc_name(out, t->keyspace, t->table);
        base_buf_printf(out, "</h3>\n");
        if (hot != NULL) {
            base_buf_printf(out,
                            "<p class=\"sub\">Hottest: partition %" PRIu32 ", peak %.2f RU/s "
                            "of %.2f (%.0f%%)%s</p>\n",
                            hot->index, fin(hot->peak_ru_s), fin(hot->budget_ru_s),
                            fin(hot->peak_share) * 100,
                            hot->peak_share > 1.0 ? " &#8212; <span class=\"hot\">HOT</span>" : "");
        }
        svg_heat(out, t);
    }
}


/* ---- the live dashboard ------------------------------------------------------------ */

/* One table's last seconds: RU/s (line), its budget (dashed) and throttled
 * requests per second (bars in a band below), newest on the right. */
static void svg_series(base_buf_t *out, const ru_table_stats_t *t)
{
    double top = 1;
    uint32_t top_thr = 1;
    for (size_t i = 0; i < t->n_series; i++) {
        const ru_second_t *sc = &t->series[i];
        top = fin(sc->ru) > top ? fin(sc->ru) : top;
        top = fin(sc->budget_ru_s) > top ? fin(sc->budget_ru_s) : top;
        top_thr = sc->throttled > top_thr ? sc->throttled : top_thr;
    }
    top *= 1.1;
    double plot_h = LIVE_HEIGHT - LIVE_BAND - 24, w = LIVE_WIDTH - LIVE_LEFT - 8;
    double step = t->n_series > 1 ? w / (double)(t->n_series - 1) : w;
    base_buf_printf(out,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" role=\"img\" class=\"live\" data-table=\"",
                    LIVE_WIDTH, LIVE_HEIGHT, LIVE_WIDTH, LIVE_HEIGHT);
    esc_name(out, t->keyspace, t->table);
    base_buf_printf(out,
                    "\" " SVG_FONT ">\n<text x=\"0\" y=\"12\">%.0f RU/s</text>"
                    "<text x=\"0\" y=\"%.0f\">0</text><text x=\"0\" y=\"%d\">throttled"
                    "</text><text x=\"%d\" y=\"%d\">&#8722;%d s</text>"
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">now</text>\n",
                    top, plot_h + 8, LIVE_HEIGHT - 10, LIVE_LEFT, LIVE_HEIGHT, RU_SERIES_SECONDS,
                    LIVE_WIDTH - 8, LIVE_HEIGHT);
    const char *const what[2] = {"ru", "budget"};
    for (int line = 0; line < 2; line++) {
        base_buf_printf(out,
                        "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
                        "stroke-width=\"%s\"%s points=\"",
                        what[line], line ? "#cf222e" : "#0969da", line ? "1" : "1.5",
                        line ? " stroke-dasharray=\"5,4\"" : "");
        for (size_t i = 0; i < t->n_series; i++) {
            const ru_second_t *sc = &t->series[i];
            double v = fin(line ? sc->budget_ru_s : sc->ru);
            base_buf_printf(out, "%s%.1f,%.1f", i ? " " : "", LIVE_LEFT + step * (double)i,
                            4 + plot_h * (1 - v / top));
        }
        base_buf_printf(out, "\"/>\n");
    }
    for (size_t i = 0; i < t->n_series; i++) {
        const ru_second_t *sc = &t->series[i];
        if (sc->throttled == 0) {
            continue;
        }
        double h = (LIVE_BAND - 4) * (double)sc->throttled / top_thr;
        base_buf_printf(out,
                        "<rect class=\"throttled\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                        "height=\"%.1f\" fill=\"#cf222e\"><title>%" PRIu32
                        " throttled</title></rect>\n",
                        LIVE_LEFT + step * (double)i - step / 2, LIVE_HEIGHT - 18 - h,
                        step > 1 ? step : 1, h, sc->throttled);
    }
    base_buf_printf(out, "</svg>\n");
}


typedef struct hot_s {
    const ru_table_stats_t *t;
    const ru_partition_stats_t *p;
    double share; /* of its budget, in the last complete second */
} hot_t;


static int cmp_hot(const void *a, const void *b)
{
    const hot_t *x = a, *y = b;
    if (x->share != y->share) {
        return x->share > y->share ? -1 : 1;
    }
    return x->p->peak_share > y->p->peak_share ? -1 : x->p->peak_share < y->p->peak_share;
}


static void live_hot_partitions(const ru_snapshot_t *snap, base_buf_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < snap->n_tables; i++) {
        n += snap->tables[i].n_parts;
    }
    hot_t *hot = base_calloc(n + 1, sizeof(*hot));
    n = 0;
    for (size_t i = 0; i < snap->n_tables; i++) {
        for (size_t j = 0; j < snap->tables[i].n_parts; j++) {
            const ru_partition_stats_t *p = &snap->tables[i].parts[j];
            hot[n++] = (hot_t){&snap->tables[i], p,
                               p->budget_ru_s > 0 ? fin(p->ru_last_s / p->budget_ru_s) : 0};
        }
    }
    qsort(hot, n, sizeof(*hot), cmp_hot);
    base_buf_printf(out, "<h3>Hottest partitions now</h3>\n<div class=\"wide\"><table "
                         "class=\"hotnow\"><tr><th class=\"l\">table</th><th>partition</th>"
                         "<th>RU/s last second</th><th>budget RU/s</th><th>now</th>"
                         "<th>peak</th><th>throttled</th></tr>\n");
    for (size_t i = 0; i < n && i < LIVE_HOT; i++) {
        const ru_partition_stats_t *p = hot[i].p;
        base_buf_printf(out, "<tr><td class=\"l\">");
        esc_name(out, hot[i].t->keyspace, hot[i].t->table);
        base_buf_printf(out,
                        "</td><td>%" PRIu32 "</td><td>%.2f</td><td>%.2f</td>"
                        "<td%s>%.0f%%</td><td%s>%.0f%%</td><td>%" PRIu64 "</td></tr>\n",
                        p->index, fin(p->ru_last_s), fin(p->budget_ru_s),
                        hot[i].share > 1 ? " class=\"hot\"" : "", hot[i].share * 100,
                        p->peak_share > 1 ? " class=\"hot\"" : "", fin(p->peak_share) * 100,
                        p->throttled);
    }
    base_buf_printf(out, "</table></div>\n");
    base_free(hot);
}


static void live_section(const ru_snapshot_t *snap, int refresh_s, base_buf_t *out)
{
    base_buf_printf(out,
                    "<h2>Live</h2>\n<p class=\"sub\">The last %d s per table, refreshed "
                    "every %d s: RU/s charged (blue) against the table's throughput (red, "
                    "dashed), throttled requests per second below.</p>\n",
                    RU_SERIES_SECONDS, refresh_s);
    size_t shown = 0;
    for (size_t i = 0; i < snap->n_tables; i++) {
        const ru_table_stats_t *t = &snap->tables[i];
        if (t->n_series == 0) {
            continue;
        }
        const ru_second_t *last = &t->series[t->n_series - 1];
        uint64_t thr = 0;
        for (size_t k = t->n_series > 60 ? t->n_series - 60 : 0; k < t->n_series; k++) {
            thr += t->series[k].throttled;
        }
        base_buf_printf(out, "<h3>");
        esc_name(out, t->keyspace, t->table);
        base_buf_printf(out,
                        "</h3><p class=\"sub\">%.2f RU/s in the last complete second of %.0f; "
                        "%" PRIu64 " throttled in the last minute</p>\n",
                        fin(last->ru), fin(last->budget_ru_s), thr);
        svg_series(out, t);
        shown++;
    }
    if (shown == 0) {
        base_buf_printf(out, "<p class=\"sub\">No traffic in the last %d s.</p>\n",
                        RU_SERIES_SECONDS);
    }
    live_hot_partitions(snap, out);
}


static void page(const ru_snapshot_t *snap, const ru_estimate_t *est, int refresh_s,
                 base_buf_t *out)
{
    base_buf_printf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    if (refresh_s > 0) {
        base_buf_printf(out, "<meta http-equiv=\"refresh\" content=\"%d\">", refresh_s);
    }
    base_buf_printf(
        out,
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
        "<title>Azure Cosmos DB for Apache Cassandra: RU %s</title>"
        "<style>%s</style></head><body>\n<h1>Request units%s</h1>\n"
        "<p class=\"sub\">%" PRIu64 " requests, %.2f RU over %.1f s (%s, rate "
        "limiting %s); %" PRIu64 " throttled, %" PRIu64 " would have been throttled.</p>\n",
        refresh_s > 0 ? "dashboard" : "report", STYLE, est != NULL ? " and cost estimate" : "",
        snap->total.count, fin(snap->total.ru_total), fin(snap->observed_s),
        snap->capacity == RU_CAPACITY_SERVERLESS ? "serverless" : "provisioned",
        snap->rate_limiting ? "on" : "off", snap->total.throttled, snap->total.would_throttle);
    if (est != NULL) {
        base_buf_printf(out,
                        "<div class=\"cards\"><div class=\"card\"><span>manual "
                        "throughput</span><b>$%.2f</b><span>per month</span></div>"
                        "<div class=\"card\"><span>autoscale</span><b>$%.2f</b><span>per "
                        "month</span></div><div class=\"card\"><span>serverless</span>"
                        "<b>$%.2f</b><span>per month</span></div><div class=\"card\">"
                        "<span>storage</span><b>$%.2f</b><span>per month</span></div>"
                        "<div class=\"card\"><span>traffic</span><b>&#215;%.2f</b>"
                        "<span>of %.1f s observed</span></div></div>\n",
                        fin(est->monthly_manual), fin(est->monthly_autoscale),
                        fin(est->monthly_serverless), fin(est->monthly_storage), fin(est->scale),
                        fin(est->observed_s));
    }
    if (refresh_s > 0) {
        live_section(snap, refresh_s, out);
    }
    shapes_section(snap, out);
    tables_section(snap, out);
    if (est != NULL) {
        estimate_section(est, out);
    }
    heat_section(snap, out);
    base_buf_printf(out, "</body></html>\n");
    ru__report_terminate(out);
}


void ru_report_html(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out)
{
    page(snap, est, 0, out);
}


void ru_report_dashboard(const ru_snapshot_t *snap, const ru_estimate_t *est, int refresh_s,
                         base_buf_t *out)
{
    page(snap, est, refresh_s > 0 ? refresh_s : 2, out);
}
