/*
 * config.h - the process configuration: defaults, then COSMOS_EMULATOR_*
 * environment variables, then command-line flags (flags win). The struct
 * owns every string in it (emu_config_fini frees them); add a field, its
 * default in emu_config_init and a row in the option table in config.c.
 */
#ifndef EMULATOR_CONFIG_H
#define EMULATOR_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cql/cql.h"
#include "emulator/log.h"
#include "ru_meter/ru_meter.h"

#define EMU_DEFAULT_BIND    "127.0.0.1"
#define EMU_DEFAULT_PORT    10350
#define EMU_DEFAULT_ACCOUNT "localhost"
#define EMU_DEFAULT_ACCOUNT_KEY \
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="
#define EMU_DEFAULT_REGION            "South Central US"
#define EMU_DEFAULT_MAX_FRAME_MB      16 /* the service refuses requests over 2 MB anyway */
#define EMU_MAX_CERT_HOSTS            32
#define EMU_DEFAULT_SSR_MS            60000 /* the service retries throttled requests for 60 s */
#define EMU_DEFAULT_ADMIN_PORT        10351
#define EMU_ADMIN_OFF                 (-1) /* --admin-port off */
#define EMU_DEFAULT_MAX_CONNS         10000
#define EMU_DEFAULT_HANDSHAKE_MS      10000 /* as the drivers' connect timeouts */
#define EMU_DEFAULT_FRAME_MS          10000
#define EMU_DEFAULT_IDLE_MS           0 /* as Cassandra's native_transport_idle_timeout: off */
#define EMU_DEFAULT_CONN_OUT_MB       8
#define EMU_DEFAULT_INFLIGHT_MB       256
#define EMU_DEFAULT_CHECKPOINT_LOG_MB 64 /* durable: snapshot past this log (and the data) */

typedef enum {
    EMU_CMD_SERVE = 0,
    EMU_CMD_CERTS_EXPORT,
    EMU_CMD_HELP,
    EMU_CMD_VERSION,
} emu_command_t;

typedef struct emu_config_s {
    emu_command_t command;
    /* endpoint */
    char *bind;
    int port; /* 0: any free port (the "listening on" line tells which) */
    bool tls;
    char *data_dir;
    char *cert_file; /* the user's own certificate (chain) and key, or NULL */
    char *tls_key_file;
    char *cert_hosts[EMU_MAX_CERT_HOSTS]; /* extra SANs for the generated cert */
    size_t n_cert_hosts;
    /* account (SASL PLAIN user and password) */
    char *account;
    char *account_key;
    /* engine */
    char *region; /* system.local data_center */
    cql_profile_t profile;
    size_t max_frame; /* bytes */
    /* connections (server.c, conn.c) */
    int max_connections;      /* past it a new connection is accepted and closed at once */
    int handshake_timeout_ms; /* accept to AUTH_SUCCESS (TLS, STARTUP, AUTH_RESPONSE) */
    int frame_timeout_ms;     /* first byte of a frame to its last */
    int idle_timeout_ms;      /* a ready connection with nothing in flight; 0: never */
    size_t max_conn_output;   /* bytes: past it a connection's requests are not read */
    size_t max_inflight;      /* bytes of requests received, not yet answered, all connections */
    emu_log_level_t log_level;
    /* request units (metering.c) */
    bool rate_limiting;            /* throttle with 0x1001 (off: count and warn) */
    ru_consistency_t consistency;  /* the account's default consistency */
    int64_t default_throughput;    /* RU/s of tables created without an option */
    bool default_throughput_given; /* --default-throughput was set explicitly */
    bool serverless;               /* capacity mode: no provisioned throughput */
    bool burst_capacity;           /* bank idle RU/s per partition */
    bool server_side_retry;        /* hold throttled requests instead of 0x1001 */
    int server_side_retry_ms;      /* how long a held request may wait */
    char *cost_model_file;         /* JSON of ru_meter coefficients, or NULL */
    char *prices_file;             /* JSON price table for estimates, or NULL */
    /* storage (server.c) */
    bool durable; /* --storage durable: data in <data-dir>/data survives restarts */
    /* --fsync: never (write() only: survives a killed process), always (group
     * commit: a write is acknowledged once an fdatasync covers it; survives a
     * power loss) or periodic (fdatasync every fsync_interval_ms; a power
     * loss may cost that much of the latest acknowledged writes) */
    storage_sync_t fsync;
    int fsync_interval_ms;
    size_t checkpoint_log; /* bytes: --checkpoint-log-mb */
    /* guard-rails (--batch-size-warn-threshold-in-kb and the like: cassandra.yaml's names) */
    cql_guardrails_t guardrails;
    /* admin endpoint (admin.c) */
    int admin_port;   /* HTTP status/statistics/estimates; 0: any free port; EMU_ADMIN_OFF: none */
    char *admin_bind; /* loopback by default */
    /* operations (log.c, the configuration file) */
    emu_log_format_t log_format; /* --log-format text|json */
    char *log_file;              /* --log-file: lines go there instead of stderr, or NULL */
    char *config_file;           /* --config: the JSON file that was read, or NULL */
} emu_config_t;

#define EMU_CONFIG_FILE_MAX (1024u * 1024) /* a configuration file larger than this is refused */

/* Fills c with the defaults (strings heap-owned). */
void emu_config_init(emu_config_t *c);
void emu_config_fini(emu_config_t *c);

/*
 * Applies the configuration file (--config FILE, or COSMOS_EMULATOR_CONFIG),
 * then the environment (env_get, normally getenv; NULL for none), then
 * argv[1..argc): flag > env > file > default. Returns 0, or -1 with a
 * one-line reason in msg (main prints it and exits 2).
 *
 * The file is a JSON object whose keys are the long flags without "--"
 * ({"port": 10350, "profile": "cassandra", "rate-limiting": "on"}):
 * numbers for N options, true/false for switches (and for on|off),
 * strings for the rest, an array of strings for the repeatable
 * cert-host. An unknown key or a value of the wrong type is an error.
 */
int emu_config_load(emu_config_t *c, int argc, char *const *argv,
                    char *(*env_get)(const char *name), char *msg, size_t cap);

void emu_config_usage(FILE *out);

#endif
