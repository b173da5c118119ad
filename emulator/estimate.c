/*
 * estimate.c - cost estimation before deployment. Layer: emulator.
 *
 * `cosmos-cassandra-emulator estimate` gets a snapshot of RU statistics in
 * one of two ways, then prices it with ru_estimate and renders it:
 *   --admin ADDR   GET /stats from a running emulator's admin endpoint and
 *                  read the JSON back into a snapshot (emu_snapshot_from_json);
 *   --replay FILE  run a CQL workload file in-process (replay.c) with a
 *                  metering object of its own, and snapshot that.
 * The estimate is computed here, not by the server, so --prices, --scale
 * and the format are the command's own; the RU options (--consistency,
 * --serverless, --default-throughput, --cost-model...) go through the
 * server's configuration parser, so both spell them the same.
 *
 * Observation window: live statistics cover the first metered request to
 * the moment of the snapshot (the meter keeps no last-request time), so a
 * pause after the traffic lowers the mean rate; --observed SECONDS states
 * the window when that matters. Peaks are per wall-clock second and do not
 * depend on it. A replay's window is its --duration (default 1 s).
 */
#include "emulator/estimate.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "emulator/admin.h"
#include "emulator/config.h"
#include "emulator/metering.h"
#include "emulator/replay.h"

#define ADMIN_TIMEOUT_S 30
#define MAX_PASSTHROUGH 64
#define HELP_SHOWN      (-1) /* parse_args printed the usage: exit 0 */

/* ---- small parsers --------------------------------------------------------- */

int emu_format_parse(const char *s, emu_format_t *out)
{
    static const char *const names[] = {"text", "json", "html"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = (emu_format_t)i;
            return BASE_OK;
        }
    }
    return BASE_EINVAL;
}

int emu_scale_parse(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno != 0) {
        return BASE_EINVAL;
    }
    if (*end == 'x' || *end == 'X') {
        end++;
    }
    if (*end != '\0' || !isfinite(v) || !(v > 0)) {
        return BASE_EINVAL;
    }
    *out = v;
    return BASE_OK;
}

/* ---- snapshots as JSON ----------------------------------------------------- */

void emu_snapshot_to_json(const ru_snapshot_t *snap, const ru_estimate_t *est, base_buf_t *out)
{
    size_t start = out->len;
    ru_report_json(snap, est, out);
    /* reopen the document: drop its closing "}\n" and add the slices */
    while (out->len > start && out->data[out->len - 1] != '}') {
        out->len--;
    }
    out->len--;
    base_buf_printf(out, ",\"token_slices\":[");
    for (size_t i = 0; i < snap->n_tables; i++) {
        base_buf_printf(out, "%s[", i ? "," : "");
        for (size_t s = 0; s < RU_SLICES; s++) {
            double v = snap->tables[i].token_slices[s];
            base_buf_printf(out, "%s%.4f", s ? "," : "", isfinite(v) ? v : 0);
        }
        base_buf_printf(out, "]");
    }
    base_buf_printf(out, "]}\n");
}

void emu_report_render(emu_format_t f, const ru_snapshot_t *snap, const ru_estimate_t *est,
                       base_buf_t *out)
{
    switch (f) {
    case EMU_FORMAT_JSON:
        emu_snapshot_to_json(snap, est, out);
        break;
    case EMU_FORMAT_HTML:
        ru_report_html(snap, est, out);
        break;
    case EMU_FORMAT_TEXT:
        ru_report_text(snap, est, out);
        break;
    }
}

static double jnum(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : 0;
}

static uint64_t jcount(const cJSON *o, const char *key)
{
    double v = jnum(o, key);
    return v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

static bool jbool(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static char *jstrdup(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return base_strdup(cJSON_IsString(v) ? v->valuestring : "");
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static void read_summary(const cJSON *o, ru_summary_t *s)
{
    s->count = jcount(o, "count");
    s->failed = jcount(o, "failed");
    s->throttled = jcount(o, "throttled");
    s->would_throttle = jcount(o, "would_throttle");
    s->ru_total = jnum(o, "ru_total");
    s->ru_mean = jnum(o, "ru_mean");
    s->ru_p50 = jnum(o, "ru_p50");
    s->ru_p99 = jnum(o, "ru_p99");
    s->ru_max = jnum(o, "ru_max");
}

static void read_table(const cJSON *o, const cJSON *slices, ru_table_stats_t *t)
{
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(o, "throughput");
    const char *kind = jstr(tp, "kind");
    t->keyspace = jstrdup(o, "keyspace");
    t->table = jstrdup(o, "table");
    t->throughput.kind = strcmp(kind, "manual") == 0      ? RU_TP_MANUAL
                         : strcmp(kind, "autoscale") == 0 ? RU_TP_AUTOSCALE
                                                          : RU_TP_NONE;
    t->throughput.ru_s = (int64_t)jnum(tp, "ru_s");
    t->shared = jbool(o, "shared");
    t->dropped = jbool(o, "dropped");
    t->n_partitions = (uint32_t)jcount(o, "partitions");
    t->budget_ru_s = jnum(o, "budget_ru_s");
    t->storage_bytes = jcount(o, "storage_bytes");
    t->peak_ru_s = jnum(o, "peak_ru_s");
    t->throttled_ru = jnum(o, "throttled_ru");
    t->peak_demand_ru_s = jnum(o, "peak_demand_ru_s");
    t->autoscale_peak = (int64_t)jnum(o, "autoscale_peak");
    t->hot_partition = (uint32_t)jcount(o, "hot_partition");
    read_summary(cJSON_GetObjectItemCaseSensitive(o, "stats"), &t->s);

    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(o, "physical_partitions");
    int n = cJSON_IsArray(parts) ? cJSON_GetArraySize(parts) : 0;
    t->parts = base_calloc((size_t)n + 1, sizeof(ru_partition_stats_t));
    const cJSON *p;
    cJSON_ArrayForEach(p, parts)
    {
        ru_partition_stats_t *ps = &t->parts[t->n_parts++];
        ps->index = (uint32_t)jcount(p, "index");
        ps->budget_ru_s = jnum(p, "budget_ru_s");
        ps->ru_total = jnum(p, "ru_total");
        ps->ru_last_s = jnum(p, "ru_last_s");
        ps->peak_ru_s = jnum(p, "peak_ru_s");
        ps->peak_share = jnum(p, "peak_share");
        ps->throttled = jcount(p, "throttled");
        ps->would_throttle = jcount(p, "would_throttle");
    }
    size_t s = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, slices)
    {
        if (s < RU_SLICES && cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
            t->token_slices[s] = v->valuedouble;
        }
        s++;
    }
}

int emu_snapshot_from_json(const char *json, size_t len, ru_snapshot_t *out, char *msg, size_t cap)
{
    memset(out, 0, sizeof(*out));
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *tables = cJSON_GetObjectItemCaseSensitive(root, "tables");
    const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(root, "shapes");
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(root, "total");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(tables) || !cJSON_IsArray(shapes) ||
        !cJSON_IsObject(total)) {
        snprintf(msg, cap, "not RU statistics from the emulator's admin endpoint (/stats)");
        cJSON_Delete(root);
        return BASE_EINVAL;
    }
    out->started_us = (int64_t)jnum(root, "started_us");
    out->last_us = (int64_t)jnum(root, "last_us");
    out->taken_us = (int64_t)jnum(root, "taken_us");
    out->observed_s = jnum(root, "observed_s");
    out->idle_s = jnum(root, "idle_s");
    out->capacity = strcmp(jstr(root, "capacity"), "serverless") == 0 ? RU_CAPACITY_SERVERLESS
                                                                      : RU_CAPACITY_PROVISIONED;
    out->rate_limiting = jbool(root, "rate_limiting");
    read_summary(total, &out->total);

    const cJSON *slices = cJSON_GetObjectItemCaseSensitive(root, "token_slices");
    const cJSON *t;
    out->tables = base_calloc((size_t)cJSON_GetArraySize(tables) + 1, sizeof(ru_table_stats_t));
    cJSON_ArrayForEach(t, tables)
    {
        const cJSON *sl =
            cJSON_IsArray(slices) ? cJSON_GetArrayItem(slices, (int)out->n_tables) : NULL;
        read_table(t, sl, &out->tables[out->n_tables++]);
    }
    const cJSON *s;
    out->shapes = base_calloc((size_t)cJSON_GetArraySize(shapes) + 1, sizeof(ru_shape_stats_t));
    cJSON_ArrayForEach(s, shapes)
    {
        ru_shape_stats_t *ss = &out->shapes[out->n_shapes++];
        ss->keyspace = jstrdup(s, "keyspace");
        ss->table = jstrdup(s, "table");
        ss->shape = jstrdup(s, "shape");
        read_summary(cJSON_GetObjectItemCaseSensitive(s, "stats"), &ss->s);
    }
    cJSON_Delete(root);
    return BASE_OK;
}

/* ---- the command ----------------------------------------------------------- */

typedef struct cli_s {
    const char *admin;
    const char *replay;
    const char *output;
    emu_format_t format;
    bool format_given;
    bool no_progress;
    bool duration_given;
    uint64_t replay_failed; /* statement executions that failed in the replay */
    /* the Azure capacity planner's account inputs, over the price table's */
    double regions;
    bool multi_region_writes;
    double reserved_discount_pct;
    bool free_tier;
    ru_estimate_params_t params;
    emu_replay_opts_t ro;
    int n_pass; /* arguments for the configuration parser */
    char *pass[MAX_PASSTHROUGH];
} cli_t;

static void usage(FILE *out)
{
    fputs("Usage: cosmos-cassandra-emulator estimate [--admin ADDR | --replay FILE.cql] [options]\n"
          "\n"
          "Prices observed traffic on Azure Cosmos DB for Apache Cassandra: RU per statement\n"
          "shape and table, hot physical partitions, the provisioned and autoscale throughput\n"
          "each table needs, the throttling risk, and the monthly cost (manual, autoscale,\n"
          "serverless, storage).\n"
          "\n"
          "Source (one of):\n"
          "  --admin ADDR          a running emulator's admin endpoint (default " EMU_DEFAULT_ADMIN
          ")\n"
          "  --replay FILE         run a CQL workload file in-process ('-': standard input)\n"
          "\n"
          "Estimate:\n"
          "  --scale Nx            multiply the observed traffic (default 1x)\n"
          "  --ops-per-sec N       scale the traffic to N requests per second in total\n"
          "  --storage-scale Nx    multiply the stored bytes (default 1x)\n"
          "  --observed SECONDS    the traffic's duration (default: measured; replay: --duration)\n"
          "  --prices FILE         price table (JSON, keys of ru_prices_t; default list prices)\n"
          "  --regions N           regions the account replicates to (each bills in full)\n"
          "  --multi-region-writes every region takes writes (the multi-write rate)\n"
          "  --peak-hours H        autoscale: hours a day at the observed peak (default 24;\n"
          "                        the rest of the day is billed at the mean)\n"
          "  --reserved-discount PCT  reserved capacity's discount on provisioned RU/s (your\n"
          "                        tier's, 1- or 3-year: up to 63%)\n"
          "  --free-tier           the account's free tier: 1000 RU/s and 25 GB off the totals\n"
          "\n"
          "Replay:\n"
          "  --duration SECONDS    the period the file stands for (without it, or --ops-per-sec,\n"
          "                        the file is priced as 1 s of traffic, and the report says so)\n"
          "  --seed N              seed of the placeholder values (default 1)\n"
          "  --cl LEVEL            CQL consistency of the statements (default LOCAL_ONE)\n"
          "  --stop-on-error       stop at the first failing statement (default: report, go on)\n"
          "  --no-progress         no progress bar (drawn on stderr when it is a terminal)\n"
          "  A replay in which statements failed exits with status 1 after the report.\n"
          "\n"
          "Replay file: CQL statements separated by ';' (not inside '...', $$...$$, quoted\n"
          "names, comments or BEGIN BATCH ... APPLY BATCH); comments --, // and /* */.\n"
          "  -- @repeat N          before a statement: run it N times\n"
          "  {{i}}                 the iteration, 0 to N-1\n"
          "  {{uuid}}              a random version-4 uuid\n"
          "  {{rand:N}}, {{rand:A:B}}  a random integer in [0, N) or [A, B)\n"
          "  {{text:N}}            N random characters a-z0-9\n"
          "Placeholders take new values on every run, inside strings too, from a generator\n"
          "seeded by --seed, so a file always gives the same charges.\n"
          "\n"
          "Output:\n"
          "  --format text|json|html   (default text; json or html for an --output of that\n"
          "                            extension)\n"
          "  --output FILE         write the report to FILE instead of standard output\n"
          "\n"
          "RU options, as for the server: --consistency LEVEL, --default-throughput N,\n"
          "--serverless, --rate-limiting on|off, --burst-capacity, --cost-model FILE.\n",
          out);
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage error: the message, a hint, and exit code 2. */
static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cosmos-cassandra-emulator estimate: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'cosmos-cassandra-emulator estimate --help'.\n");
    va_end(ap);
    return 2;
}

static bool positive(const char *v, double *out)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || !isfinite(d) || !(d > 0)) {
        return false;
    }
    *out = d;
    return true;
}

static bool parse_cl(const char *v, uint16_t *out)
{
    for (int cl = WIRE_CL_ANY; cl <= WIRE_CL_LOCAL_ONE; cl++) {
        const char *name = wire_consistency_name(cl);
        if (name != NULL && strcasecmp(name, v) == 0) {
            *out = (uint16_t)cl;
            return true;
        }
    }
    return false;
}

/* A positive number for one of the command's numeric options. */
static int number_option(const char *flag, const char *v, bool multiplier, double *out)
{
    if (multiplier ? emu_scale_parse(v, out) == BASE_OK : positive(v, out)) {
        return 0;
    }
    return bad(multiplier ? "%s: '%s' is not a multiplier such as 200x"
                          : "%s: '%s' is not a positive number",
               flag, v);
}

/* One of the command's own options (value in v): 0, or an exit code. */
static int own_option(cli_t *c, const char *flag, const char *v)
{
    char *end;
    if (strcmp(flag, "--admin") == 0) {
        c->admin = v;
    } else if (strcmp(flag, "--replay") == 0) {
        c->replay = v;
    } else if (strcmp(flag, "--output") == 0) {
        c->output = v;
    } else if (strcmp(flag, "--format") == 0) {
        c->format_given = true;
        if (emu_format_parse(v, &c->format) != BASE_OK) {
            return bad("%s: '%s' is not text, json or html", flag, v);
        }
    } else if (strcmp(flag, "--scale") == 0) {
        return number_option(flag, v, true, &c->params.scale);
    } else if (strcmp(flag, "--storage-scale") == 0) {
        return number_option(flag, v, true, &c->params.storage_scale);
    } else if (strcmp(flag, "--ops-per-sec") == 0) {
        return number_option(flag, v, false, &c->params.target_ops_s);
    } else if (strcmp(flag, "--observed") == 0) {
        return number_option(flag, v, false, &c->params.observed_s);
    } else if (strcmp(flag, "--duration") == 0) {
        c->duration_given = true;
        return number_option(flag, v, false, &c->ro.duration_s);
    } else if (strcmp(flag, "--regions") == 0) {
        if (number_option(flag, v, false, &c->regions) != 0 || c->regions != floor(c->regions) ||
            c->regions > 100) {
            return bad("%s: '%s' is not a number of regions (1 to 100)", flag, v);
        }
    } else if (strcmp(flag, "--peak-hours") == 0) {
        if (number_option(flag, v, false, &c->params.peak_hours) != 0 ||
            c->params.peak_hours > 24) {
            return bad("%s: '%s' is not a number of hours from 0 to 24", flag, v);
        }
    } else if (strcmp(flag, "--reserved-discount") == 0) {
        if (number_option(flag, v, false, &c->reserved_discount_pct) != 0 ||
            c->reserved_discount_pct >= 100) {
            return bad("%s: '%s' is not a percentage below 100", flag, v);
        }
    } else if (strcmp(flag, "--seed") == 0) {
        errno = 0;
        c->ro.seed = strtoull(v, &end, 10);
        if (end == v || *end != '\0' || errno != 0 || v[0] == '-') {
            return bad("%s: '%s' is not a whole number", flag, v);
        }
    } else if (strcmp(flag, "--cl") == 0) {
        if (!parse_cl(v, &c->ro.consistency)) {
            return bad("%s: '%s' is not a consistency level (ONE, LOCAL_ONE, QUORUM...)", flag, v);
        }
    }
    return 0;
}

static int parse_args(cli_t *c, int argc, char **argv)
{
    static const char *const with_value[] = {"--admin",       "--replay",
                                             "--output",      "--format",
                                             "--scale",       "--storage-scale",
                                             "--ops-per-sec", "--observed",
                                             "--duration",    "--seed",
                                             "--cl",          "--regions",
                                             "--peak-hours",  "--reserved-discount"};
    c->pass[c->n_pass++] = "cosmos-cassandra-emulator estimate";
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strchr(arg, '=');
        size_t len = eq && arg[0] == '-' ? (size_t)(eq - arg) : strlen(arg);
        char flag[32];
        snprintf(flag, sizeof(flag), "%.*s", (int)(len < sizeof(flag) ? len : sizeof(flag) - 1),
                 arg);
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            usage(stdout);
            return HELP_SHOWN;
        }
        if (strcmp(flag, "--stop-on-error") == 0) {
            c->ro.stop_on_error = true;
            continue;
        }
        if (strcmp(flag, "--no-progress") == 0) {
            c->no_progress = true;
            continue;
        }
        if (strcmp(flag, "--multi-region-writes") == 0) {
            c->multi_region_writes = true;
            continue;
        }
        if (strcmp(flag, "--free-tier") == 0) {
            c->free_tier = true;
            continue;
        }
        bool ours = false;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
            ours = ours || strcmp(flag, with_value[k]) == 0;
        }
        if (!ours) {
            if (c->n_pass == MAX_PASSTHROUGH) {
                return bad("too many arguments");
            }
            c->pass[c->n_pass++] = argv[i];
            continue;
        }
        const char *v = eq && arg[0] == '-' ? eq + 1 : NULL;
        if (v == NULL && i + 1 >= argc) {
            return bad("%s needs a value", flag);
        }
        v = v ? v : argv[++i];
        int rc = own_option(c, flag, v);
        if (rc != 0) {
            return rc;
        }
    }
    if (c->admin != NULL && c->replay != NULL) {
        return bad("--admin and --replay are two sources: choose one");
    }
    if (!c->format_given && c->output != NULL) {
        const char *dot = strrchr(c->output, '.');
        if (dot != NULL && (strcmp(dot, ".html") == 0 || strcmp(dot, ".htm") == 0)) {
            c->format = EMU_FORMAT_HTML;
        } else if (dot != NULL && strcmp(dot, ".json") == 0) {
            c->format = EMU_FORMAT_JSON;
        }
    }
    return 0;
}

static int write_report(const cli_t *c, const base_buf_t *b)
{
    FILE *f = c->output ? fopen(c->output, "wb") : stdout;
    if (f == NULL) {
        fprintf(stderr, "cosmos-cassandra-emulator estimate: cannot write %s: %s\n", c->output,
                strerror(errno));
        return 1;
    }
    bool ok = fwrite(b->data, 1, b->len, f) == b->len;
    if (c->output) {
        ok = fclose(f) == 0 && ok;
    } else {
        ok = fflush(f) == 0 && ok;
    }
    if (!ok) {
        fprintf(stderr, "cosmos-cassandra-emulator estimate: cannot write %s: %s\n",
                c->output ? c->output : "the report", strerror(errno));
        return 1;
    }
    return 0;
}

/* The snapshot from a replay: BASE_OK, or an error already printed. */
static int snapshot_replay(cli_t *c, emu_metering_t *m, ru_snapshot_t *snap)
{
    emu_replay_result_t res;
    char msg[512];
    c->ro.path = c->replay;
    c->ro.progress = !c->no_progress && isatty(STDERR_FILENO);
    int rc = emu_replay_run(&c->ro, m, &res, msg, sizeof(msg));
    if (rc == BASE_EIO || (rc != BASE_OK && res.executed == 0)) {
        fprintf(stderr, "cosmos-cassandra-emulator estimate: %s\n", msg);
        return rc;
    }
    fprintf(stderr,
            "replayed %s: %" PRIu64 " statement executions, %" PRIu64 " failed, %" PRIu64
            " throttled\n",
            c->replay, res.executed, res.failed, res.throttled);
    if (rc != BASE_OK) {
        fprintf(stderr, "cosmos-cassandra-emulator estimate: %s\n", msg);
        return rc;
    }
    ru_meter_snapshot(emu_metering_meter(m), res.ended_us, snap);
    c->replay_failed = res.failed;
    if (!(c->params.observed_s > 0)) {
        c->params.observed_s = c->ro.duration_s > 0 ? c->ro.duration_s : 1;
        c->params.observed_assumed = !c->duration_given;
    }
    if (c->params.observed_assumed && !(c->params.target_ops_s > 0)) {
        fprintf(stderr,
                "cosmos-cassandra-emulator estimate: no --duration: the %" PRIu64
                " statement executions are priced as %.0f s of traffic, %.0f requests/s. Give "
                "--duration SECONDS (the period the file stands for) or --ops-per-sec N (the "
                "rate you expect).\n",
                res.executed, c->params.observed_s, (double)res.executed / c->params.observed_s);
    }
    return BASE_OK;
}

static int snapshot_admin(const cli_t *c, ru_snapshot_t *snap)
{
    base_buf_t body;
    char msg[512];
    const char *addr = c->admin ? c->admin : EMU_DEFAULT_ADMIN;
    base_buf_init(&body);
    int rc = emu_admin_get(addr, "/stats", ADMIN_TIMEOUT_S, &body, msg, sizeof(msg));
    if (rc == BASE_OK) {
        rc = emu_snapshot_from_json((const char *)body.data, body.len, snap, msg, sizeof(msg));
    }
    if (rc != BASE_OK) {
        fprintf(stderr, "cosmos-cassandra-emulator estimate: %s\n", msg);
    }
    base_buf_fini(&body);
    return rc;
}

/* The command's account flags win over the price table's. */
static void apply_planner_inputs(const cli_t *c, ru_prices_t *p)
{
    if (c->regions > 0) {
        p->regions = (uint32_t)c->regions;
    }
    p->multi_region_writes = p->multi_region_writes || c->multi_region_writes;
    if (c->reserved_discount_pct > 0) {
        p->reserved_discount = c->reserved_discount_pct / 100.0;
    }
    p->free_tier = p->free_tier || c->free_tier;
}

int emu_estimate_main(int argc, char **argv)
{
    cli_t c;
    emu_config_t cfg;
    emu_metering_t *m = NULL;
    ru_snapshot_t snap;
    ru_estimate_t est;
    base_buf_t out;
    char msg[512];
    int rc;
    memset(&c, 0, sizeof(c));
    memset(&snap, 0, sizeof(snap));
    memset(&est, 0, sizeof(est));
    emu_replay_opts_defaults(&c.ro);
    base_buf_init(&out);
    emu_config_init(&cfg);
    if ((rc = parse_args(&c, argc, argv)) != 0) {
        rc = rc == HELP_SHOWN ? 0 : rc;
        goto done;
    }
    if (emu_config_load(&cfg, c.n_pass, c.pass, getenv, msg, sizeof(msg)) != 0) {
        rc = bad("%s", msg);
        goto done;
    }
    if ((m = emu_metering_new(&cfg, msg, sizeof(msg))) == NULL) {
        fprintf(stderr, "cosmos-cassandra-emulator estimate: %s\n", msg);
        rc = 1;
        goto done;
    }
    rc = c.replay ? snapshot_replay(&c, m, &snap) : snapshot_admin(&c, &snap);
    if (rc != BASE_OK) {
        rc = 1;
        goto done;
    }
    ru_prices_t prices = *emu_metering_prices(m);
    apply_planner_inputs(&c, &prices);
    ru_estimate(&snap, &c.params, &prices, &est);
    emu_report_render(c.format, &snap, &est, &out);
    rc = write_report(&c, &out);
    if (rc == 0 && c.replay_failed > 0) {
        fprintf(stderr,
                "cosmos-cassandra-emulator estimate: %" PRIu64
                " statement executions failed (see above): exit status 1\n",
                c.replay_failed);
        rc = 1;
    }
done:
    ru_estimate_fini(&est);
    ru_snapshot_fini(&snap);
    emu_metering_free(m);
    emu_config_fini(&cfg);
    base_buf_fini(&out);
    return rc;
}
