/*
 * config.c - defaults, environment and flags into emu_config_t. Layer:
 * emulator. Pure: no I/O besides reading the environment through the
 * function it is given, so tests drive it with a fake environment.
 *
 * One table describes every option: its flag, its environment variable,
 * and its help line; the usage text is printed from it, so the two cannot
 * drift. Flags take "--flag value" or "--flag=value".
 *
 * The configuration file (--config FILE) is the one I/O here besides the
 * environment: it is read once, before the environment and the flags, and
 * each of its keys goes through the same apply() as the flag of that name,
 * so a value is checked the same way wherever it comes from.
 *
 * --key is overloaded on purpose (the issue documents it both ways): when
 * --cert is given it is the TLS private key file, otherwise the account
 * key. --tls-key and --account-key say it without ambiguity.
 */
#include "emulator/config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

typedef enum {
    OPT_HELP,
    OPT_VERSION,
    OPT_BIND,
    OPT_PORT,
    OPT_NO_TLS,
    OPT_DATA_DIR,
    OPT_CERT,
    OPT_KEY,
    OPT_TLS_KEY,
    OPT_CERT_HOST,
    OPT_ACCOUNT,
    OPT_ACCOUNT_KEY,
    OPT_REGION,
    OPT_PROFILE,
    OPT_MAX_FRAME_MB,
    OPT_MAX_CONNECTIONS,
    OPT_HANDSHAKE_TIMEOUT_MS,
    OPT_FRAME_TIMEOUT_MS,
    OPT_IDLE_TIMEOUT_MS,
    OPT_MAX_CONN_OUTPUT_MB,
    OPT_MAX_INFLIGHT_MB,
    OPT_LOG_LEVEL,
    OPT_RATE_LIMITING,
    OPT_CONSISTENCY,
    OPT_DEFAULT_THROUGHPUT,
    OPT_SERVERLESS,
    OPT_BURST_CAPACITY,
    OPT_SERVER_SIDE_RETRY,
    OPT_SERVER_SIDE_RETRY_MS,
    OPT_COST_MODEL,
    OPT_PRICES,
    OPT_ADMIN_PORT,
    OPT_ADMIN_BIND,
    OPT_STORAGE,
    OPT_FSYNC,
    OPT_FSYNC_INTERVAL_MS,
    OPT_CHECKPOINT_LOG_MB,
    /* guard-rails: cassandra.yaml's names */
    OPT_BATCH_WARN_KB,
    OPT_BATCH_FAIL_KB,
    OPT_UNLOGGED_PARTITIONS,
    OPT_TOMBSTONE_WARN,
    OPT_TOMBSTONE_FAIL,
    OPT_LARGE_PARTITION_MB,
    /* operations: logging and the configuration file */
    OPT_LOG_FORMAT,
    OPT_LOG_FILE,
    OPT_CONFIG,
} opt_id_t;

typedef struct option_s {
    const char *flag;
    opt_id_t id;
    const char *arg; /* NULL: the flag takes no value */
    const char *env; /* NULL: no environment variable */
    const char *help;
} option_t;

static const option_t options[] = {
    {"--bind", OPT_BIND, "ADDR", "COSMOS_EMULATOR_BIND",
     "address to listen on (default " EMU_DEFAULT_BIND "; 0.0.0.0 for all)"},
    {"--port", OPT_PORT, "N", "COSMOS_EMULATOR_PORT", "port (default 10350; 0 = any free port)"},
    {"--no-tls", OPT_NO_TLS, NULL, NULL, "serve plaintext CQL instead of TLS"},
    {"--data-dir", OPT_DATA_DIR, "DIR", "COSMOS_EMULATOR_DATA_DIR",
     "state directory (default $HOME/.cosmos-cassandra-emulator)"},
    {"--cert", OPT_CERT, "FILE", NULL, "your own TLS certificate (PEM chain) instead of ours"},
    {"--key", OPT_KEY, "X", NULL,
     "with --cert: the TLS private key file; otherwise the account key"},
    {"--tls-key", OPT_TLS_KEY, "FILE", NULL, "the TLS private key file for --cert"},
    {"--cert-host", OPT_CERT_HOST, "NAME", NULL,
     "extra DNS name or IP in the generated certificate (repeatable)"},
    {"--account", OPT_ACCOUNT, "NAME", "COSMOS_EMULATOR_ACCOUNT",
     "account name = CQL user name (default " EMU_DEFAULT_ACCOUNT ")"},
    {"--account-key", OPT_ACCOUNT_KEY, "KEY", "COSMOS_EMULATOR_KEY",
     "account key = CQL password (default: the Azure Cosmos DB emulator's well-known key)"},
    {"--region", OPT_REGION, "NAME", "COSMOS_EMULATOR_REGION",
     "data-center name drivers see (default \"" EMU_DEFAULT_REGION "\")"},
    {"--profile", OPT_PROFILE, "P", "COSMOS_EMULATOR_PROFILE",
     "cosmos (default) or cassandra: whose behaviour and messages to mimic"},
    {"--max-frame-mb", OPT_MAX_FRAME_MB, "N", NULL, "largest accepted frame body (default 16)"},
    {"--max-conn-output-mb", OPT_MAX_CONN_OUTPUT_MB, "N", NULL,
     "answers queued for a connection before its requests stop being read (default 8)"},
    {"--max-inflight-mb", OPT_MAX_INFLIGHT_MB, "N", NULL,
     "request bytes received and not yet answered, all connections; past it Overloaded "
     "(default 256)"},
    {"--max-connections", OPT_MAX_CONNECTIONS, "N", "COSMOS_EMULATOR_MAX_CONNECTIONS",
     "open client connections at most; past it a new one is closed at once (default 10000)"},
    {"--handshake-timeout-ms", OPT_HANDSHAKE_TIMEOUT_MS, "N", NULL,
     "a connection not through TLS, STARTUP and AUTH within this is closed (default 10000)"},
    {"--frame-timeout-ms", OPT_FRAME_TIMEOUT_MS, "N", NULL,
     "a frame begun but not complete within this closes its connection (default 10000)"},
    {"--idle-timeout-ms", OPT_IDLE_TIMEOUT_MS, "N", NULL,
     "close a ready connection idle this long (default 0: never, as Cassandra)"},
    {"--log-level", OPT_LOG_LEVEL, "L", NULL, "error, warn, info (default) or debug"},
    {"--rate-limiting", OPT_RATE_LIMITING, "on|off", "COSMOS_EMULATOR_RATE_LIMITING",
     "throttle requests over a table's RU/s with 0x1001 (default off: warn only)"},
    {"--consistency", OPT_CONSISTENCY, "LEVEL", "COSMOS_EMULATOR_CONSISTENCY",
     "account consistency: Strong, BoundedStaleness, Session (default), ConsistentPrefix "
     "or Eventual"},
    {"--default-throughput", OPT_DEFAULT_THROUGHPUT, "N", "COSMOS_EMULATOR_DEFAULT_THROUGHPUT",
     "RU/s of a table created without a throughput option (default 400)"},
    {"--serverless", OPT_SERVERLESS, NULL, "COSMOS_EMULATOR_SERVERLESS",
     "serverless account: no provisioned throughput, 5000 RU/s per partition"},
    {"--burst-capacity", OPT_BURST_CAPACITY, NULL, "COSMOS_EMULATOR_BURST_CAPACITY",
     "bank up to 5 minutes of idle RU/s per partition (spent at up to 3000 RU/s)"},
    {"--server-side-retry", OPT_SERVER_SIDE_RETRY, NULL, "COSMOS_EMULATOR_SERVER_SIDE_RETRY",
     "retry throttled requests in the server instead of answering 0x1001 "
     "(DisableRateLimitingResponses)"},
    {"--server-side-retry-ms", OPT_SERVER_SIDE_RETRY_MS, "N",
     "COSMOS_EMULATOR_SERVER_SIDE_RETRY_MS",
     "how long a held request is retried before a read/write timeout (default 60000)"},
    {"--cost-model", OPT_COST_MODEL, "FILE", "COSMOS_EMULATOR_COST_MODEL",
     "RU cost coefficients (JSON, as ru_meter/cost_model.json)"},
    {"--prices", OPT_PRICES, "FILE", "COSMOS_EMULATOR_PRICES",
     "price table (JSON) for cost estimates"},
    {"--admin-port", OPT_ADMIN_PORT, "N|off", "COSMOS_EMULATOR_ADMIN_PORT",
     "HTTP admin endpoint: health, metrics, CA, RU statistics, estimates (default 10351; 0 = any "
     "free port, logged; off = none)"},
    {"--admin-bind", OPT_ADMIN_BIND, "ADDR", "COSMOS_EMULATOR_ADMIN_BIND",
     "address of the admin endpoint (default 127.0.0.1: loopback only)"},
    {"--storage", OPT_STORAGE, "memory|durable", "COSMOS_EMULATOR_STORAGE",
     "memory (default: nothing survives a restart) or durable (data and schema kept in "
     "<data-dir>/data)"},
    {"--fsync", OPT_FSYNC, "never|always|periodic", "COSMOS_EMULATOR_FSYNC",
     "durable storage: never (default; survives a killed process), always (a write is "
     "acknowledged once an fdatasync covers it, one fdatasync for every write that arrived "
     "meanwhile: survives a power loss) or periodic (fdatasync every --fsync-interval-ms: a "
     "power loss may cost that much of the last writes)"},
    {"--fsync-interval-ms", OPT_FSYNC_INTERVAL_MS, "N", "COSMOS_EMULATOR_FSYNC_INTERVAL_MS",
     "with --fsync periodic: ms between fdatasyncs (default 10000, Cassandra's "
     "commitlog_sync_period)"},
    {"--checkpoint-log-mb", OPT_CHECKPOINT_LOG_MB, "N", NULL,
     "durable storage: snapshot once the commit log passes N MB and the data's size "
     "(default 64)"},
    /* guard-rails: cassandra.yaml's names and defaults */
    {"--batch-size-warn-threshold-in-kb", OPT_BATCH_WARN_KB, "N", NULL,
     "warn on a multi-partition batch past N KiB (default 5; under cosmos every guard-rail "
     "is an advisory warning)"},
    {"--batch-size-fail-threshold-in-kb", OPT_BATCH_FAIL_KB, "N", NULL,
     "refuse a multi-partition batch past N KiB under cassandra (default 50)"},
    {"--unlogged-batch-across-partitions-warn-threshold", OPT_UNLOGGED_PARTITIONS, "N", NULL,
     "warn on an unlogged batch over more than N partitions (default 10)"},
    {"--tombstone-warn-threshold", OPT_TOMBSTONE_WARN, "N", NULL,
     "warn on a read passing over more than N tombstones (default 1000)"},
    {"--tombstone-failure-threshold", OPT_TOMBSTONE_FAIL, "N", NULL,
     "fail a read passing over more than N tombstones under cassandra (default 100000)"},
    {"--compaction-large-partition-warning-threshold-mb", OPT_LARGE_PARTITION_MB, "N", NULL,
     "flag a partition growing past N MB (default 100)"},
    /* operations: logging and the configuration file */
    {"--log-format", OPT_LOG_FORMAT, "text|json", "COSMOS_EMULATOR_LOG_FORMAT",
     "log lines as text (default) or one JSON object a line (ts, level, conn, msg)"},
    {"--log-file", OPT_LOG_FILE, "FILE", "COSMOS_EMULATOR_LOG_FILE",
     "append the log to FILE instead of stderr"},
    {"--config", OPT_CONFIG, "FILE", "COSMOS_EMULATOR_CONFIG",
     "JSON file of options by long flag name ({\"port\": 10350}); flags and environment win"},
    {"--help", OPT_HELP, NULL, NULL, "print this help and exit"},
    {"--version", OPT_VERSION, NULL, NULL, "print the version and exit"},
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static int fail(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return -1;
}

static void set_str(char **dst, const char *src)
{
    base_free(*dst);
    *dst = base_strdup(src);
}

void emu_config_init(emu_config_t *c)
{
    memset(c, 0, sizeof(*c));
    c->command = EMU_CMD_SERVE;
    c->bind = base_strdup(EMU_DEFAULT_BIND);
    c->port = EMU_DEFAULT_PORT;
    c->tls = true;
    const char *home = getenv("HOME");
    size_t n = strlen(home ? home : ".") + sizeof("/.cosmos-cassandra-emulator");
    c->data_dir = base_malloc(n);
    snprintf(c->data_dir, n, "%s/.cosmos-cassandra-emulator", home ? home : ".");
    c->account = base_strdup(EMU_DEFAULT_ACCOUNT);
    c->account_key = base_strdup(EMU_DEFAULT_ACCOUNT_KEY);
    c->region = base_strdup(EMU_DEFAULT_REGION);
    c->profile = CQL_PROFILE_COSMOS;
    c->max_frame = (size_t)EMU_DEFAULT_MAX_FRAME_MB * 1024 * 1024;
    c->max_connections = EMU_DEFAULT_MAX_CONNS;
    c->handshake_timeout_ms = EMU_DEFAULT_HANDSHAKE_MS;
    c->frame_timeout_ms = EMU_DEFAULT_FRAME_MS;
    c->idle_timeout_ms = EMU_DEFAULT_IDLE_MS;
    c->max_conn_output = (size_t)EMU_DEFAULT_CONN_OUT_MB * 1024 * 1024;
    c->max_inflight = (size_t)EMU_DEFAULT_INFLIGHT_MB * 1024 * 1024;
    c->log_level = EMU_LOG_INFO;
    c->rate_limiting = false; /* as the Azure Cosmos DB emulator */
    c->consistency = RU_CONSISTENCY_SESSION;
    c->default_throughput = RU_DEFAULT_TABLE_RU_S;
    c->server_side_retry_ms = EMU_DEFAULT_SSR_MS;
    c->fsync_interval_ms = STORAGE_SYNC_INTERVAL_DEFAULT_MS;
    c->checkpoint_log = (size_t)EMU_DEFAULT_CHECKPOINT_LOG_MB * 1024 * 1024;
    cql_config_t cc;
    cql_config_defaults(&cc);
    c->guardrails = cc.guardrails;
    c->admin_port = EMU_DEFAULT_ADMIN_PORT;
    c->admin_bind = base_strdup(EMU_DEFAULT_BIND);
}

void emu_config_fini(emu_config_t *c)
{
    base_free(c->bind);
    base_free(c->data_dir);
    base_free(c->cert_file);
    base_free(c->tls_key_file);
    for (size_t i = 0; i < c->n_cert_hosts; i++) {
        base_free(c->cert_hosts[i]);
    }
    base_free(c->account);
    base_free(c->account_key);
    base_free(c->region);
    base_free(c->cost_model_file);
    base_free(c->prices_file);
    base_free(c->admin_bind);
    base_free(c->log_file);
    base_free(c->config_file);
    memset(c, 0, sizeof(*c));
}

static bool parse_int(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}

/* A switch: "" (the bare flag) is on; the environment spells it out. */
static bool parse_bool(const char *s, bool *out)
{
    static const char *const on[] = {"", "on", "true", "yes", "1"};
    static const char *const off[] = {"off", "false", "no", "0"};
    for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
        if (strcasecmp(s, on[i]) == 0) {
            *out = true;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
        if (strcasecmp(s, off[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* Options whose value is a whole number in a range, kept (times unit) in one
 * int or size_t field of emu_config_t. */
typedef struct number_opt_s {
    opt_id_t id;
    long min, max;
    const char *what; /* "'x' is not <what> (min-max)" */
    size_t offset;
    bool is_size; /* a size_t field, else an int */
    size_t unit;
} number_opt_t;

#define INT_FIELD(f)        offsetof(emu_config_t, f), false, 1
#define SIZE_FIELD(f, unit) offsetof(emu_config_t, f), true, (unit)
#define MB                  ((size_t)1024 * 1024)
#define HOUR_MS             (3600L * 1000)
#define DAY_MS              (24 * HOUR_MS)

static const number_opt_t numbers[] = {
    {OPT_PORT, 0, 65535, "a port number", INT_FIELD(port)},
    {OPT_MAX_FRAME_MB, 1, 2047, "a size in MB", SIZE_FIELD(max_frame, MB)},
    {OPT_MAX_CONN_OUTPUT_MB, 1, 65536, "a size in MB", SIZE_FIELD(max_conn_output, MB)},
    {OPT_MAX_INFLIGHT_MB, 1, 65536, "a size in MB", SIZE_FIELD(max_inflight, MB)},
    {OPT_MAX_CONNECTIONS, 1, 1000000, "a number of connections", INT_FIELD(max_connections)},
    {OPT_HANDSHAKE_TIMEOUT_MS, 1, DAY_MS, "a time in ms", INT_FIELD(handshake_timeout_ms)},
    {OPT_FRAME_TIMEOUT_MS, 1, DAY_MS, "a time in ms", INT_FIELD(frame_timeout_ms)},
    {OPT_IDLE_TIMEOUT_MS, 0, DAY_MS, "a time in ms", INT_FIELD(idle_timeout_ms)},
    {OPT_SERVER_SIDE_RETRY_MS, 1, HOUR_MS, "a time in ms", INT_FIELD(server_side_retry_ms)},
    {OPT_FSYNC_INTERVAL_MS, 1, HOUR_MS, "a time in ms", INT_FIELD(fsync_interval_ms)},
    {OPT_CHECKPOINT_LOG_MB, 1, 1024 * 1024, "a size in MB", SIZE_FIELD(checkpoint_log, MB)},
    {OPT_BATCH_WARN_KB, 0, INT32_MAX, "a number", SIZE_FIELD(guardrails.batch_size_warn_kb, 1)},
    {OPT_BATCH_FAIL_KB, 0, INT32_MAX, "a number", SIZE_FIELD(guardrails.batch_size_fail_kb, 1)},
    {OPT_UNLOGGED_PARTITIONS, 0, INT32_MAX, "a number",
     SIZE_FIELD(guardrails.unlogged_batch_partitions_warn, 1)},
    {OPT_TOMBSTONE_WARN, 0, INT32_MAX, "a number", SIZE_FIELD(guardrails.tombstone_warn, 1)},
    {OPT_TOMBSTONE_FAIL, 0, INT32_MAX, "a number", SIZE_FIELD(guardrails.tombstone_failure, 1)},
    {OPT_LARGE_PARTITION_MB, 0, INT32_MAX, "a number",
     SIZE_FIELD(guardrails.large_partition_mb, 1)},
};

/* Options whose value is kept as given (owned copies, freed by fini). */
typedef struct string_opt_s {
    opt_id_t id;
    size_t offset; /* of a char * in emu_config_t */
} string_opt_t;

static const string_opt_t strings[] = {
    {OPT_BIND, offsetof(emu_config_t, bind)},
    {OPT_DATA_DIR, offsetof(emu_config_t, data_dir)},
    {OPT_CERT, offsetof(emu_config_t, cert_file)},
    {OPT_TLS_KEY, offsetof(emu_config_t, tls_key_file)},
    {OPT_ACCOUNT, offsetof(emu_config_t, account)},
    {OPT_ACCOUNT_KEY, offsetof(emu_config_t, account_key)},
    {OPT_REGION, offsetof(emu_config_t, region)},
    {OPT_COST_MODEL, offsetof(emu_config_t, cost_model_file)},
    {OPT_PRICES, offsetof(emu_config_t, prices_file)},
    {OPT_ADMIN_BIND, offsetof(emu_config_t, admin_bind)},
    {OPT_LOG_FILE, offsetof(emu_config_t, log_file)},
    {OPT_CONFIG, offsetof(emu_config_t, config_file)},
};

/* Switches: on, off, or the bare flag (on). */
typedef struct switch_opt_s {
    opt_id_t id;
    size_t offset;    /* of a bool in emu_config_t */
    bool needs_value; /* --rate-limiting takes on|off, it is no bare flag */
} switch_opt_t;

static const switch_opt_t switches[] = {
    {OPT_RATE_LIMITING, offsetof(emu_config_t, rate_limiting), true},
    {OPT_SERVERLESS, offsetof(emu_config_t, serverless), false},
    {OPT_BURST_CAPACITY, offsetof(emu_config_t, burst_capacity), false},
    {OPT_SERVER_SIDE_RETRY, offsetof(emu_config_t, server_side_retry), false},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* 1: o is a number, string or switch option and was applied (or refused:
 * *rc says); 0: it needs its own code. */
static int apply_plain(emu_config_t *c, const option_t *o, const char *val, const char *src,
                       char *msg, size_t cap, int *rc)
{
    char *base = (char *)c;
    long n;
    *rc = 0;
    for (size_t i = 0; i < COUNT(numbers); i++) {
        const number_opt_t *p = &numbers[i];
        if (p->id != o->id) {
            continue;
        }
        if (!parse_int(val, p->min, p->max, &n)) {
            *rc = fail(msg, cap, "%s: '%s' is not %s (%ld-%ld)", src, val, p->what, p->min, p->max);
        } else if (p->is_size) {
            *(size_t *)(base + p->offset) = (size_t)n * p->unit;
        } else {
            *(int *)(base + p->offset) = (int)n;
        }
        return 1;
    }
    for (size_t i = 0; i < COUNT(strings); i++) {
        if (strings[i].id == o->id) {
            if (val[0] == '\0') {
                *rc = fail(msg, cap, "%s must not be empty", src);
            } else {
                set_str((char **)(base + strings[i].offset), val);
            }
            return 1;
        }
    }
    for (size_t i = 0; i < COUNT(switches); i++) {
        const switch_opt_t *p = &switches[i];
        if (p->id == o->id) {
            if ((p->needs_value && val[0] == '\0') ||
                !parse_bool(val, (bool *)(base + p->offset))) {
                *rc = fail(msg, cap, "%s: '%s' is not on or off", src, val);
            }
            return 1;
        }
    }
    return 0;
}

static int apply_default_throughput(emu_config_t *c, const char *val, const char *src, char *msg,
                                    size_t cap)
{
    base_error_t err;
    ru_throughput_t tp = {RU_TP_MANUAL, 0};
    long n;
    if (!parse_int(val, 0, LONG_MAX, &n)) {
        return fail(msg, cap, "%s: '%s' is not a number of RU/s", src, val);
    }
    tp.ru_s = n;
    if (ru_throughput_validate(RU_CAPACITY_PROVISIONED, RU_SCOPE_TABLE, &tp, &err) != BASE_OK) {
        return fail(msg, cap, "%s: %s", src, err.msg);
    }
    c->default_throughput = n;
    c->default_throughput_given = true;
    return 0;
}

static int apply_admin_port(emu_config_t *c, const char *val, const char *src, char *msg,
                            size_t cap)
{
    long n;
    if (strcasecmp(val, "off") == 0) {
        c->admin_port = EMU_ADMIN_OFF;
        return 0;
    }
    if (!parse_int(val, 0, 65535, &n)) {
        return fail(msg, cap, "%s: '%s' is not a port number (0 = any free port) or off", src, val);
    }
    c->admin_port = (int)n;
    return 0;
}

/* The options with words for values: --profile, --storage, --fsync. */
static int apply_word(emu_config_t *c, const option_t *o, const char *val, const char *src,
                      char *msg, size_t cap)
{
    if (o->id == OPT_PROFILE) {
        if (strcmp(val, "cosmos") != 0 && strcmp(val, "cassandra") != 0) {
            return fail(msg, cap, "%s: '%s' is not a profile (cosmos or cassandra)", src, val);
        }
        c->profile = strcmp(val, "cosmos") == 0 ? CQL_PROFILE_COSMOS : CQL_PROFILE_CASSANDRA;
    } else if (o->id == OPT_STORAGE) {
        if (strcmp(val, "memory") != 0 && strcmp(val, "durable") != 0) {
            return fail(msg, cap, "%s: '%s' is not a storage mode (memory or durable)", src, val);
        }
        c->durable = strcmp(val, "durable") == 0;
    } else if (strcmp(val, "always") == 0 || strcmp(val, "batch") == 0 ||
               strcmp(val, "group") == 0) {
        /* batch and group are Cassandra's names for what always does here */
        c->fsync = STORAGE_SYNC_GROUP;
    } else if (strcmp(val, "periodic") == 0) {
        c->fsync = STORAGE_SYNC_PERIODIC;
    } else if (strcmp(val, "never") == 0) {
        c->fsync = STORAGE_SYNC_NONE;
    } else {
        return fail(msg, cap, "%s: '%s' is not never, always or periodic", src, val);
    }
    return 0;
}

/* Applies one option; src names where the value came from, for messages.
 * raw_key collects --key until the end decides what it means. */
static int apply(emu_config_t *c, const option_t *o, const char *val, const char *src,
                 char **raw_key, char *msg, size_t cap)
{
    int rc;
    if (apply_plain(c, o, val, src, msg, cap, &rc)) {
        return rc;
    }
    switch (o->id) {
    case OPT_HELP:
    case OPT_VERSION:
        c->command = o->id == OPT_HELP ? EMU_CMD_HELP : EMU_CMD_VERSION;
        return 0;
    case OPT_NO_TLS:
        c->tls = false;
        return 0;
    case OPT_PROFILE:
    case OPT_STORAGE:
    case OPT_FSYNC:
        return apply_word(c, o, val, src, msg, cap);
    case OPT_LOG_LEVEL:
        if (emu_log_level_parse(val, &c->log_level) != 0) {
            return fail(msg, cap, "%s: '%s' is not a log level (error, warn, info, debug)", src,
                        val);
        }
        return 0;
    case OPT_LOG_FORMAT:
        if (emu_log_format_parse(val, &c->log_format) != 0) {
            return fail(msg, cap, "%s: '%s' is not a log format (text or json)", src, val);
        }
        return 0;
    case OPT_CONSISTENCY:
        if (ru_consistency_parse(val, &c->consistency) != BASE_OK) {
            return fail(msg, cap,
                        "%s: '%s' is not a consistency level (Strong, BoundedStaleness, Session, "
                        "ConsistentPrefix, Eventual)",
                        src, val);
        }
        return 0;
    case OPT_DEFAULT_THROUGHPUT:
        return apply_default_throughput(c, val, src, msg, cap);
    case OPT_ADMIN_PORT:
        return apply_admin_port(c, val, src, msg, cap);
    case OPT_CERT_HOST:
        if (c->n_cert_hosts == EMU_MAX_CERT_HOSTS) {
            return fail(msg, cap, "%s: at most %d certificate host names", src, EMU_MAX_CERT_HOSTS);
        }
        c->cert_hosts[c->n_cert_hosts++] = base_strdup(val);
        return 0;
    case OPT_KEY:
        set_str(raw_key, val);
        return 0;
    default: /* apply_plain took every other one */
        return 0;
    }
}

static const option_t *find_flag(const char *arg, size_t len)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (strlen(options[i].flag) == len && strncmp(options[i].flag, arg, len) == 0) {
            return &options[i];
        }
    }
    for (size_t i = 0; len == 2 && strncmp(arg, "-h", 2) == 0 && i < N_OPTIONS; i++) {
        if (options[i].id == OPT_HELP) {
            return &options[i];
        }
    }
    return NULL;
}

static int load_env(emu_config_t *c, char *(*env_get)(const char *), char **raw_key, char *msg,
                    size_t cap)
{
    for (size_t i = 0; env_get != NULL && i < N_OPTIONS; i++) {
        const char *val = options[i].env ? env_get(options[i].env) : NULL;
        if (val != NULL && apply(c, &options[i], val, options[i].env, raw_key, msg, cap) != 0) {
            return -1;
        }
    }
    return 0;
}

static int load_args(emu_config_t *c, int argc, char *const *argv, char **raw_key, char *msg,
                     size_t cap)
{
    const char *words[2];
    int n_words = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-') {
            if (n_words == 2) {
                return fail(msg, cap, "unexpected argument '%s'", arg);
            }
            words[n_words++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const option_t *o = find_flag(arg, len);
        if (o == NULL) {
            return fail(msg, cap, "unknown option '%.*s'", (int)len, arg);
        }
        const char *val = "";
        if (o->arg != NULL && eq != NULL) {
            val = eq + 1;
        } else if (o->arg != NULL) {
            if (i + 1 >= argc) {
                return fail(msg, cap, "%s needs a value (%s)", o->flag, o->arg);
            }
            val = argv[++i];
        } else if (eq != NULL) {
            return fail(msg, cap, "%s takes no value", o->flag);
        }
        if (apply(c, o, val, o->flag, raw_key, msg, cap) != 0) {
            return -1;
        }
        if (c->command == EMU_CMD_HELP || c->command == EMU_CMD_VERSION) {
            return 0;
        }
    }
    if (n_words == 2 && strcmp(words[0], "certs") == 0 && strcmp(words[1], "export") == 0) {
        c->command = EMU_CMD_CERTS_EXPORT;
    } else if (n_words > 0) {
        return fail(msg, cap,
                    "unknown command '%s%s%s' (the commands are: certs export, estimate, health)",
                    words[0], n_words > 1 ? " " : "", n_words > 1 ? words[1] : "");
    }
    return 0;
}

/* Decides what --key meant and checks the combinations. */
static int resolve(emu_config_t *c, char *raw_key, char *msg, size_t cap)
{
    if (raw_key != NULL && c->cert_file != NULL) {
        if (c->tls_key_file != NULL) {
            return fail(msg, cap,
                        "--key is ambiguous with both --cert and --tls-key: use "
                        "--account-key for the account key");
        }
        set_str(&c->tls_key_file, raw_key);
    } else if (raw_key != NULL) {
        set_str(&c->account_key, raw_key);
    }
    if ((c->cert_file == NULL) != (c->tls_key_file == NULL)) {
        return fail(msg, cap,
                    c->cert_file ? "--cert needs its private key: --tls-key FILE"
                                 : "--tls-key needs --cert FILE");
    }
    if (!c->tls && c->cert_file != NULL) {
        return fail(msg, cap, "--cert and --tls-key cannot be combined with --no-tls");
    }
    if (c->serverless && c->burst_capacity) {
        return fail(msg, cap,
                    "--burst-capacity applies to provisioned throughput, not --serverless");
    }
    if (c->serverless && c->default_throughput_given) {
        return fail(msg, cap,
                    "--default-throughput cannot be combined with --serverless (serverless tables "
                    "have no throughput)");
    }
    if (c->fsync != STORAGE_SYNC_NONE && !c->durable) {
        return fail(msg, cap,
                    "--fsync %s needs --storage durable (memory storage has nothing to sync)",
                    c->fsync == STORAGE_SYNC_GROUP ? "always" : "periodic");
    }
    if (c->account[0] == '\0' || c->account_key[0] == '\0') {
        return fail(msg, cap, "the account name and key must not be empty");
    }
    return 0;
}

/* ---- the configuration file (--config FILE) ------------------------------ */

/* The --config path: the last flag's, else the environment's, else NULL. */
static const char *config_path(int argc, char *const *argv, char *(*env_get)(const char *))
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            path = argv[i] + 9;
        }
    }
    if (path == NULL && env_get != NULL) {
        path = env_get("COSMOS_EMULATOR_CONFIG");
    }
    return path;
}

/* The option a file key names ("port" is --port); NULL for an unknown key
 * and for the ones a file cannot hold (help, version, config itself). */
static const option_t *find_key(const char *key)
{
    /* cassandra.yaml's spelling (tombstone_warn_threshold) names the same option */
    char dashed[128];
    size_t n = strlen(key);
    if (n >= sizeof(dashed)) {
        return NULL;
    }
    for (size_t i = 0; i <= n; i++) {
        dashed[i] = (char)(key[i] == '_' ? '-' : key[i]);
    }
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const option_t *o = &options[i];
        if (strcmp(o->flag + 2, dashed) == 0) {
            return o->id == OPT_HELP || o->id == OPT_VERSION || o->id == OPT_CONFIG ? NULL : o;
        }
    }
    return NULL;
}

/* One key of the file: its JSON value checked for the option's type and
 * turned into the text the flag would have had. */
static int apply_json(emu_config_t *c, const option_t *o, const cJSON *v, const char *src,
                      char **raw_key, char *msg, size_t cap)
{
    char num[32];
    if (o->arg == NULL) { /* a switch */
        if (!cJSON_IsBool(v)) {
            return fail(msg, cap, "%s must be true or false", src);
        }
        if (o->id == OPT_NO_TLS) {
            c->tls = c->tls && !cJSON_IsTrue(v);
            return 0;
        }
        return apply(c, o, cJSON_IsTrue(v) ? "on" : "off", src, raw_key, msg, cap);
    }
    if (strcmp(o->arg, "on|off") == 0 && cJSON_IsBool(v)) {
        return apply(c, o, cJSON_IsTrue(v) ? "on" : "off", src, raw_key, msg, cap);
    }
    if (strcmp(o->arg, "N") == 0 || (strcmp(o->arg, "N|off") == 0 && !cJSON_IsString(v))) {
        double d = cJSON_IsNumber(v) ? v->valuedouble : 0;
        if (!cJSON_IsNumber(v) || d != (double)(long long)d) {
            return fail(msg, cap, "%s must be a whole number", src);
        }
        snprintf(num, sizeof(num), "%lld", (long long)d);
        return apply(c, o, num, src, raw_key, msg, cap);
    }
    if (o->id == OPT_CERT_HOST && cJSON_IsArray(v)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, v)
        {
            if (!cJSON_IsString(e) || apply(c, o, e->valuestring, src, raw_key, msg, cap) != 0) {
                return msg[0] ? -1 : fail(msg, cap, "%s must be a list of strings", src);
            }
        }
        return 0;
    }
    if (!cJSON_IsString(v)) {
        return fail(msg, cap, "%s must be a string%s", src,
                    o->id == OPT_CERT_HOST ? " or a list of strings" : "");
    }
    return apply(c, o, v->valuestring, src, raw_key, msg, cap);
}

static int load_file(emu_config_t *c, const char *path, char **raw_key, char *msg, size_t cap)
{
    int rc = -1;
    cJSON *root = NULL;
    char *text = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return fail(msg, cap, "--config %s: %s", path, strerror(errno));
    }
    text = base_malloc(EMU_CONFIG_FILE_MAX + 1);
    size_t n = fread(text, 1, EMU_CONFIG_FILE_MAX + 1, f);
    if (ferror(f) || n > EMU_CONFIG_FILE_MAX) {
        fail(msg, cap, "--config %s: %s", path,
             ferror(f) ? "cannot be read" : "is larger than 1 MB");
        goto done;
    }
    const char *end = NULL;
    root = cJSON_ParseWithLengthOpts(text, n, &end, false);
    if (root == NULL || !cJSON_IsObject(root)) {
        size_t at = root == NULL && end != NULL ? (size_t)(end - text) : 0;
        fail(msg, cap, "--config %s: %s", path,
             root == NULL ? "is not valid JSON" : "must hold a JSON object");
        if (root == NULL) {
            size_t len = strlen(msg);
            snprintf(msg + len, cap - len, " (near byte %zu)", at);
        }
        goto done;
    }
    set_str(&c->config_file, path);
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        char src[160];
        const option_t *o = find_key(item->string);
        snprintf(src, sizeof(src), "--config %s: \"%.40s\"", path, item->string);
        if (o == NULL) {
            fail(msg, cap,
                 "--config %s: unknown option \"%.60s\" (keys are the long flag names, "
                 "as \"port\" or \"rate-limiting\")",
                 path, item->string);
            goto done;
        }
        if (apply_json(c, o, item, src, raw_key, msg, cap) != 0) {
            goto done;
        }
    }
    rc = 0;
done:
    cJSON_Delete(root);
    base_free(text);
    (void)fclose(f); /* read-only: nothing buffered to lose */
    return rc;
}

int emu_config_load(emu_config_t *c, int argc, char *const *argv,
                    char *(*env_get)(const char *name), char *msg, size_t cap)
{
    char *raw_key = NULL;
    msg[0] = '\0';
    const char *path = config_path(argc, argv, env_get);
    int rc = path != NULL ? load_file(c, path, &raw_key, msg, cap) : 0;
    if (rc == 0) {
        rc = load_env(c, env_get, &raw_key, msg, cap);
    }
    if (rc == 0) {
        rc = load_args(c, argc, argv, &raw_key, msg, cap);
    }
    if (rc == 0 && c->command != EMU_CMD_HELP && c->command != EMU_CMD_VERSION) {
        rc = resolve(c, raw_key, msg, cap);
    }
    base_free(raw_key);
    return rc;
}

void emu_config_usage(FILE *out)
{
    fputs("Usage: cosmos-cassandra-emulator [options]            serve CQL (default)\n"
          "       cosmos-cassandra-emulator certs export [options] print the CA certificate "
          "(PEM)\n"
          "       cosmos-cassandra-emulator estimate [options]     price the traffic "
          "(estimate --help)\n"
          "       cosmos-cassandra-emulator health [--admin ADDR] [--timeout S]\n"
          "                                        exit 0 when the server is ready, else 1\n"
          "       cosmos-cassandra-emulator shell [host [port]] [options]\n"
          "                                        a CQL shell with request charges (shell "
          "--help)\n\n"
          "A local stand-in for Azure Cosmos DB for Apache Cassandra: CQL native protocol v4\n"
          "over TLS, user = account name, password = account key.\n\nOptions:\n",
          out);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        char left[96];
        snprintf(left, sizeof(left), "%s%s%s", options[i].flag, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        /* cassandra.yaml's long names do not fit the column: their help goes below */
        if (strlen(left) > 28) {
            fprintf(out, "  %s\n  %-28s %s\n", left, "", options[i].help);
        } else {
            fprintf(out, "  %-28s %s\n", left, options[i].help);
        }
    }
    fputs("\nEnvironment (flags win):\n", out);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (options[i].env != NULL) {
            fprintf(out, "  %-36s same as %s\n", options[i].env, options[i].flag);
        }
    }
}
