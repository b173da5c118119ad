/* Unit tests for emulator/config.c: defaults, environment, flags, the
 * --key rule, and the configuration file (--config) with its precedence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/config.h"

static const char *const *fake_env_pairs;

static char *fake_env(const char *name)
{
    for (size_t i = 0; fake_env_pairs != NULL && fake_env_pairs[i] != NULL; i += 2) {
        if (strcmp(fake_env_pairs[i], name) == 0) {
            return (char *)fake_env_pairs[i + 1];
        }
    }
    return NULL;
}

/* Loads argv (NULL-terminated, without argv[0]) with env pairs. */
static int load(emu_config_t *c, const char *const *env, const char *const *args, char *msg)
{
    char *argv[32] = {"cosmos-cassandra-emulator"};
    int argc = 1;
    for (; args != NULL && args[argc - 1] != NULL; argc++) {
        argv[argc] = (char *)args[argc - 1];
    }
    fake_env_pairs = env;
    emu_config_init(c);
    return emu_config_load(c, argc, argv, fake_env, msg, 256);
}

static void defaults_match_the_documented_values(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, NULL, msg), 0);
    assert_int_equal(c.command, EMU_CMD_SERVE);
    assert_string_equal(c.bind, "127.0.0.1");
    assert_int_equal(c.port, 10350);
    assert_true(c.tls);
    assert_string_equal(c.account, "localhost");
    assert_string_equal(c.account_key, "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8"
                                       "mGGyPMbIZnqyMsEcaGQy67XIw/Jw==");
    assert_string_equal(c.region, "South Central US");
    assert_int_equal(c.profile, CQL_PROFILE_COSMOS);
    assert_int_equal(c.max_frame, 16u * 1024 * 1024); /* the service refuses over 2 MB */
    assert_int_equal(c.max_connections, 10000);
    assert_int_equal(c.handshake_timeout_ms, 10000);
    assert_int_equal(c.frame_timeout_ms, 10000);
    assert_int_equal(c.idle_timeout_ms, 0);
    assert_int_equal(c.max_conn_output, 8u * 1024 * 1024);
    assert_int_equal(c.max_inflight, 256u * 1024 * 1024);
    assert_int_equal(c.log_level, EMU_LOG_INFO);
    assert_non_null(strstr(c.data_dir, "/.cosmos-cassandra-emulator"));
    assert_null(c.cert_file);
    emu_config_fini(&c);
}

static void environment_sets_values_and_flags_win(void **state)
{
    (void)state;
    const char *env[] = {"COSMOS_EMULATOR_ACCOUNT",
                         "acct",
                         "COSMOS_EMULATOR_KEY",
                         "envkey",
                         "COSMOS_EMULATOR_PORT",
                         "9042",
                         "COSMOS_EMULATOR_BIND",
                         "0.0.0.0",
                         "COSMOS_EMULATOR_REGION",
                         "West US 2",
                         "COSMOS_EMULATOR_DATA_DIR",
                         "/tmp/x",
                         "COSMOS_EMULATOR_PROFILE",
                         "cassandra",
                         NULL};
    const char *args[] = {"--port", "7000", "--region=East US", NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, env, args, msg), 0);
    assert_string_equal(c.account, "acct");
    assert_string_equal(c.account_key, "envkey");
    assert_int_equal(c.port, 7000);
    assert_string_equal(c.bind, "0.0.0.0");
    assert_string_equal(c.region, "East US");
    assert_string_equal(c.data_dir, "/tmp/x");
    assert_int_equal(c.profile, CQL_PROFILE_CASSANDRA);
    emu_config_fini(&c);
}

static void key_is_the_account_key_without_cert(void **state)
{
    (void)state;
    const char *args[] = {"--account", "me", "--key", "secret", NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, args, msg), 0);
    assert_string_equal(c.account, "me");
    assert_string_equal(c.account_key, "secret");
    assert_null(c.tls_key_file);
    emu_config_fini(&c);
}

static void key_is_the_tls_key_with_cert_in_any_order(void **state)
{
    (void)state;
    const char *args[] = {"--key",         "server.key", "--cert", "server.pem",
                          "--account-key", "k2",         NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, args, msg), 0);
    assert_string_equal(c.cert_file, "server.pem");
    assert_string_equal(c.tls_key_file, "server.key");
    assert_string_equal(c.account_key, "k2");
    emu_config_fini(&c);
}

static void key_with_cert_and_tls_key_is_ambiguous(void **state)
{
    (void)state;
    const char *args[] = {"--cert", "a.pem", "--tls-key", "a.key", "--key", "x", NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, args, msg), -1);
    assert_non_null(strstr(msg, "ambiguous"));
    emu_config_fini(&c);
}

static void cert_without_key_is_refused(void **state)
{
    (void)state;
    const char *args[] = {"--cert", "a.pem", NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, args, msg), -1);
    assert_non_null(strstr(msg, "--tls-key"));
    emu_config_fini(&c);
}

static void cert_with_no_tls_is_refused(void **state)
{
    (void)state;
    const char *args[] = {"--no-tls", "--cert", "a.pem", "--tls-key", "a.key", NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, args, msg), -1);
    assert_non_null(strstr(msg, "--no-tls"));
    emu_config_fini(&c);
}

static void bad_values_are_refused_with_their_source(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *port[] = {"--port", "70000", NULL};
    assert_int_equal(load(&c, NULL, port, msg), -1);
    assert_non_null(strstr(msg, "--port: '70000' is not a port number"));
    emu_config_fini(&c);

    const char *env[] = {"COSMOS_EMULATOR_PORT", "12ab", NULL};
    assert_int_equal(load(&c, env, NULL, msg), -1);
    assert_non_null(strstr(msg, "COSMOS_EMULATOR_PORT"));
    emu_config_fini(&c);

    const char *profile[] = {"--profile", "dse", NULL};
    assert_int_equal(load(&c, NULL, profile, msg), -1);
    assert_non_null(strstr(msg, "not a profile"));
    emu_config_fini(&c);

    const char *frame[] = {"--max-frame-mb", "0", NULL};
    assert_int_equal(load(&c, NULL, frame, msg), -1);
    emu_config_fini(&c);

    const char *level[] = {"--log-level", "loud", NULL};
    assert_int_equal(load(&c, NULL, level, msg), -1);
    emu_config_fini(&c);

    const char *empty[] = {"--account", "", NULL};
    assert_int_equal(load(&c, NULL, empty, msg), -1);
    emu_config_fini(&c);
}

static void unknown_flags_and_missing_values_are_refused(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *unknown[] = {"--bogus", NULL};
    assert_int_equal(load(&c, NULL, unknown, msg), -1);
    assert_string_equal(msg, "unknown option '--bogus'");
    emu_config_fini(&c);

    const char *prefix[] = {"--acc", "x", NULL}; /* no abbreviations */
    assert_int_equal(load(&c, NULL, prefix, msg), -1);
    emu_config_fini(&c);

    const char *missing[] = {"--port", NULL};
    assert_int_equal(load(&c, NULL, missing, msg), -1);
    assert_non_null(strstr(msg, "needs a value"));
    emu_config_fini(&c);

    const char *value[] = {"--no-tls=1", NULL};
    assert_int_equal(load(&c, NULL, value, msg), -1);
    assert_non_null(strstr(msg, "takes no value"));
    emu_config_fini(&c);
}

static void cert_host_repeats_and_other_flags_parse(void **state)
{
    (void)state;
    const char *args[] = {"--cert-host",
                          "a.example",
                          "--cert-host=10.0.0.1",
                          "--no-tls",
                          "--max-frame-mb",
                          "16",
                          "--log-level",
                          "debug",
                          "--port",
                          "0",
                          NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, args, msg), 0);
    assert_int_equal(c.n_cert_hosts, 2);
    assert_string_equal(c.cert_hosts[0], "a.example");
    assert_string_equal(c.cert_hosts[1], "10.0.0.1");
    assert_false(c.tls);
    assert_int_equal(c.max_frame, 16u * 1024 * 1024);
    assert_int_equal(c.log_level, EMU_LOG_DEBUG);
    assert_int_equal(c.port, 0);
    emu_config_fini(&c);
}

static void commands_are_recognised(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *export[] = {"certs", "export", "--data-dir", "/tmp/d", NULL};
    assert_int_equal(load(&c, NULL, export, msg), 0);
    assert_int_equal(c.command, EMU_CMD_CERTS_EXPORT);
    assert_string_equal(c.data_dir, "/tmp/d");
    emu_config_fini(&c);

    const char *help[] = {"--port", "1", "-h", "--bogus", NULL};
    assert_int_equal(load(&c, NULL, help, msg), 0);
    assert_int_equal(c.command, EMU_CMD_HELP);
    emu_config_fini(&c);

    const char *version[] = {"--version", NULL};
    assert_int_equal(load(&c, NULL, version, msg), 0);
    assert_int_equal(c.command, EMU_CMD_VERSION);
    emu_config_fini(&c);

    const char *bad[] = {"certs", "import", NULL};
    assert_int_equal(load(&c, NULL, bad, msg), -1);
    assert_non_null(strstr(msg, "unknown command 'certs import'"));
    emu_config_fini(&c);
}

static void request_unit_flags_have_the_documented_defaults(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, NULL, msg), 0);
    assert_false(c.rate_limiting);
    assert_int_equal(c.consistency, RU_CONSISTENCY_SESSION);
    assert_int_equal(c.default_throughput, 400);
    assert_false(c.serverless);
    assert_false(c.burst_capacity);
    assert_false(c.server_side_retry);
    assert_int_equal(c.server_side_retry_ms, 60000);
    assert_null(c.cost_model_file);
    assert_null(c.prices_file);
    emu_config_fini(&c);
}

static void request_unit_flags_parse_from_flags_and_environment(void **state)
{
    (void)state;
    const char *env[] = {"COSMOS_EMULATOR_RATE_LIMITING",
                         "on",
                         "COSMOS_EMULATOR_CONSISTENCY",
                         "Strong",
                         "COSMOS_EMULATOR_SERVER_SIDE_RETRY",
                         "true",
                         "COSMOS_EMULATOR_COST_MODEL",
                         "/etc/model.json",
                         NULL};
    const char *args[] = {"--consistency=bounded_staleness",
                          "--default-throughput",
                          "1200",
                          "--burst-capacity",
                          "--server-side-retry-ms",
                          "1500",
                          "--prices",
                          "p.json",
                          NULL};
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, env, args, msg), 0);
    assert_true(c.rate_limiting);
    assert_int_equal(c.consistency, RU_CONSISTENCY_BOUNDED_STALENESS);
    assert_int_equal(c.default_throughput, 1200);
    assert_true(c.burst_capacity);
    assert_true(c.server_side_retry);
    assert_int_equal(c.server_side_retry_ms, 1500);
    assert_string_equal(c.cost_model_file, "/etc/model.json");
    assert_string_equal(c.prices_file, "p.json");
    emu_config_fini(&c);

    const char *off_env[] = {"COSMOS_EMULATOR_RATE_LIMITING", "on", "COSMOS_EMULATOR_SERVERLESS",
                             "1", NULL};
    const char *off[] = {"--rate-limiting", "off", NULL};
    assert_int_equal(load(&c, off_env, off, msg), 0);
    assert_false(c.rate_limiting);
    assert_true(c.serverless);
    emu_config_fini(&c);
}

static void bad_request_unit_values_are_refused(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *rl[] = {"--rate-limiting", "sometimes", NULL};
    assert_int_equal(load(&c, NULL, rl, msg), -1);
    assert_non_null(strstr(msg, "--rate-limiting: 'sometimes' is not on or off"));
    emu_config_fini(&c);

    const char *bare[] = {"--rate-limiting", NULL};
    assert_int_equal(load(&c, NULL, bare, msg), -1);
    emu_config_fini(&c);

    const char *cl[] = {"--consistency", "quorum", NULL};
    assert_int_equal(load(&c, NULL, cl, msg), -1);
    assert_non_null(strstr(msg, "not a consistency level"));
    emu_config_fini(&c);

    const char *tp[] = {"--default-throughput", "450", NULL};
    assert_int_equal(load(&c, NULL, tp, msg), -1);
    assert_non_null(strstr(msg, "between 400 and 1000000 inclusive in increments of 100"));
    emu_config_fini(&c);

    const char *low[] = {"--default-throughput", "300", NULL};
    assert_int_equal(load(&c, NULL, low, msg), -1);
    emu_config_fini(&c);

    const char *env[] = {"COSMOS_EMULATOR_SERVERLESS", "maybe", NULL};
    assert_int_equal(load(&c, env, NULL, msg), -1);
    assert_non_null(strstr(msg, "COSMOS_EMULATOR_SERVERLESS"));
    emu_config_fini(&c);

    const char *burst[] = {"--serverless", "--burst-capacity", NULL};
    assert_int_equal(load(&c, NULL, burst, msg), -1);
    assert_non_null(strstr(msg, "--burst-capacity"));
    emu_config_fini(&c);

    const char *sl_tp[] = {"--serverless", "--default-throughput", "800", NULL};
    assert_int_equal(load(&c, NULL, sl_tp, msg), -1);
    emu_config_fini(&c);

    const char *ssr[] = {"--server-side-retry-ms", "0", NULL};
    assert_int_equal(load(&c, NULL, ssr, msg), -1);
    emu_config_fini(&c);

    const char *model[] = {"--cost-model", "", NULL};
    assert_int_equal(load(&c, NULL, model, msg), -1);
    emu_config_fini(&c);
}

static void usage_documents_every_request_unit_flag(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    emu_config_usage(f);
    fclose(f);
    const char *want[] = {"--rate-limiting on|off",
                          "--consistency LEVEL",
                          "--default-throughput N",
                          "--serverless",
                          "--burst-capacity",
                          "--server-side-retry ",
                          "--server-side-retry-ms N",
                          "--cost-model FILE",
                          "--prices FILE",
                          "COSMOS_EMULATOR_RATE_LIMITING",
                          "COSMOS_EMULATOR_COST_MODEL"};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        if (strstr(text, want[i]) == NULL) {
            fail_msg("usage lacks '%s'", want[i]);
        }
    }
    free(text);
}

/* ---- the configuration file ------------------------------------------------ */

static char config_path[64];

/* Writes text to a fresh temporary file; its path is config_path. */
static const char *write_config(const char *text)
{
    snprintf(config_path, sizeof(config_path), "/tmp/emu-config-test-XXXXXX");
    int fd = mkstemp(config_path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return config_path;
}

static void config_file_sets_every_kind_of_option(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *path = write_config(
        "{\"port\": 9043, \"profile\": \"cassandra\", \"rate-limiting\": \"on\", \"serverless\": "
        "true, \"no-tls\": true, \"cert-host\": [\"a.example\", \"10.0.0.1\"], \"admin-port\": "
        "\"off\", \"log-format\": \"json\", \"region\": \"West US\", \"server-side-retry\": "
        "false}");
    const char *args[] = {"--config", path, NULL};
    assert_int_equal(load(&c, NULL, args, msg), 0);
    assert_int_equal(c.port, 9043);
    assert_int_equal(c.profile, CQL_PROFILE_CASSANDRA);
    assert_true(c.rate_limiting);
    assert_true(c.serverless);
    assert_false(c.tls);
    assert_int_equal(c.n_cert_hosts, 2);
    assert_string_equal(c.cert_hosts[1], "10.0.0.1");
    assert_int_equal(c.admin_port, EMU_ADMIN_OFF);
    assert_int_equal(c.log_format, EMU_LOG_JSON);
    assert_string_equal(c.region, "West US");
    assert_false(c.server_side_retry);
    assert_string_equal(c.config_file, path);
    emu_config_fini(&c);
    unlink(path);
}

static void flag_beats_env_beats_file_beats_default(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *path =
        write_config("{\"port\": 1111, \"region\": \"File Region\", \"account\": \"file-acct\"}");
    /* the path from the environment, the port from all three */
    const char *env[] = {"COSMOS_EMULATOR_CONFIG",
                         path,
                         "COSMOS_EMULATOR_PORT",
                         "2222",
                         "COSMOS_EMULATOR_REGION",
                         "Env Region",
                         NULL};
    const char *args[] = {"--port=3333", NULL};
    assert_int_equal(load(&c, env, args, msg), 0);
    assert_int_equal(c.port, 3333);              /* flag */
    assert_string_equal(c.region, "Env Region"); /* env over file */
    assert_string_equal(c.account, "file-acct"); /* file over default */
    assert_string_equal(c.bind, "127.0.0.1");    /* default */
    assert_int_equal(c.admin_port, 10351);
    emu_config_fini(&c);

    const char *no_flags[] = {"--config", path, NULL};
    assert_int_equal(load(&c, env + 2, no_flags, msg), 0);
    assert_int_equal(c.port, 2222);
    emu_config_fini(&c);
    assert_int_equal(load(&c, NULL, no_flags, msg), 0);
    assert_int_equal(c.port, 1111);
    emu_config_fini(&c);
    unlink(path);
}

/* The file text and a piece of the one-line error it must give. */
static void assert_config_error(const char *text, const char *want)
{
    emu_config_t c;
    char msg[256];
    const char *path = write_config(text);
    const char *args[] = {"--config", path, NULL};
    assert_int_equal(load(&c, NULL, args, msg), -1);
    if (strstr(msg, want) == NULL || strchr(msg, '\n') != NULL) {
        fail_msg("for %s: got \"%s\", want \"%s\"", text, msg, want);
    }
    emu_config_fini(&c);
    unlink(path);
}

static void config_file_errors_name_the_key_and_the_problem(void **state)
{
    (void)state;
    assert_config_error("{\"prot\": 1}", "unknown option \"prot\"");
    assert_config_error("{\"help\": true}", "unknown option \"help\"");
    assert_config_error("{\"config\": \"x.json\"}", "unknown option \"config\"");
    assert_config_error("{\"port\": \"10350\"}", "\"port\" must be a whole number");
    assert_config_error("{\"port\": 1.5}", "\"port\" must be a whole number");
    assert_config_error("{\"port\": 70000}", "\"port\": '70000' is not a port number");
    assert_config_error("{\"serverless\": \"yes\"}", "\"serverless\" must be true or false");
    assert_config_error("{\"profile\": 1}", "\"profile\" must be a string");
    assert_config_error("{\"profile\": \"oracle\"}", "'oracle' is not a profile");
    assert_config_error("{\"rate-limiting\": \"maybe\"}", "'maybe' is not on or off");
    assert_config_error("{\"cert-host\": [\"a\", 2]}", "must be a list of strings");
    assert_config_error("{\"log-format\": \"xml\"}", "'xml' is not a log format");
    assert_config_error("{\"port\": 1,}", "is not valid JSON");
    assert_config_error("[1, 2]", "must hold a JSON object");

    emu_config_t c;
    char msg[256];
    const char *missing[] = {"--config", "/nonexistent/emu.json", NULL};
    assert_int_equal(load(&c, NULL, missing, msg), -1);
    assert_non_null(strstr(msg, "--config /nonexistent/emu.json: No such file"));
    emu_config_fini(&c);
}

static void log_format_and_file_parse_from_flags_and_environment(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, NULL, msg), 0);
    assert_int_equal(c.log_format, EMU_LOG_TEXT);
    assert_null(c.log_file);
    emu_config_fini(&c);
    const char *env[] = {"COSMOS_EMULATOR_LOG_FORMAT", "json", "COSMOS_EMULATOR_LOG_FILE",
                         "/tmp/emu.log", NULL};
    assert_int_equal(load(&c, env, NULL, msg), 0);
    assert_int_equal(c.log_format, EMU_LOG_JSON);
    assert_string_equal(c.log_file, "/tmp/emu.log");
    emu_config_fini(&c);
    const char *args[] = {"--log-format", "text", NULL};
    assert_int_equal(load(&c, env, args, msg), 0);
    assert_int_equal(c.log_format, EMU_LOG_TEXT);
    emu_config_fini(&c);
    const char *bad[] = {"--log-format=yaml", NULL};
    assert_int_equal(load(&c, NULL, bad, msg), -1);
    assert_non_null(strstr(msg, "--log-format: 'yaml' is not a log format (text or json)"));
    emu_config_fini(&c);
}

static void admin_port_zero_is_a_free_port_and_off_disables(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    const char *zero[] = {"--admin-port", "0", NULL};
    assert_int_equal(load(&c, NULL, zero, msg), 0);
    assert_int_equal(c.admin_port, 0);
    emu_config_fini(&c);
    const char *env[] = {"COSMOS_EMULATOR_ADMIN_PORT", "off", NULL};
    assert_int_equal(load(&c, env, NULL, msg), 0);
    assert_int_equal(c.admin_port, EMU_ADMIN_OFF);
    emu_config_fini(&c);
}


static void fsync_modes_and_guardrail_thresholds_parse(void **state)
{
    (void)state;
    emu_config_t c;
    char msg[256];
    assert_int_equal(load(&c, NULL, NULL, msg), 0);
    assert_int_equal(c.fsync, STORAGE_SYNC_NONE);
    assert_int_equal(c.fsync_interval_ms, 10000);
    assert_int_equal(c.guardrails.batch_size_warn_kb, 5);
    assert_int_equal(c.guardrails.batch_size_fail_kb, 50);
    assert_int_equal(c.guardrails.unlogged_batch_partitions_warn, 10);
    assert_int_equal(c.guardrails.tombstone_warn, 1000);
    assert_int_equal(c.guardrails.tombstone_failure, 100000);
    assert_int_equal(c.guardrails.large_partition_mb, 100);
    emu_config_fini(&c);

    const char *const always[] = {"--storage", "durable", "--fsync", "always", NULL};
    assert_int_equal(load(&c, NULL, always, msg), 0);
    assert_int_equal(c.fsync, STORAGE_SYNC_GROUP);
    emu_config_fini(&c);
    const char *const periodic[] = {"--storage",           "durable", "--fsync=periodic",
                                    "--fsync-interval-ms", "250",     NULL};
    assert_int_equal(load(&c, NULL, periodic, msg), 0);
    assert_int_equal(c.fsync, STORAGE_SYNC_PERIODIC);
    assert_int_equal(c.fsync_interval_ms, 250);
    emu_config_fini(&c);
    const char *const memory[] = {"--fsync", "periodic", NULL};
    assert_int_equal(load(&c, NULL, memory, msg), -1);
    assert_non_null(strstr(msg, "--fsync periodic needs --storage durable"));
    emu_config_fini(&c);
    const char *const bad[] = {"--storage", "durable", "--fsync", "sometimes", NULL};
    assert_int_equal(load(&c, NULL, bad, msg), -1);
    emu_config_fini(&c);

    const char *const guards[] = {"--batch-size-warn-threshold-in-kb",
                                  "1",
                                  "--batch-size-fail-threshold-in-kb",
                                  "2",
                                  "--unlogged-batch-across-partitions-warn-threshold",
                                  "3",
                                  "--tombstone-warn-threshold",
                                  "4",
                                  "--tombstone-failure-threshold",
                                  "5",
                                  "--compaction-large-partition-warning-threshold-mb",
                                  "6",
                                  NULL};
    assert_int_equal(load(&c, NULL, guards, msg), 0);
    cql_guardrails_t want = {1, 2, 3, 4, 5, 6};
    assert_memory_equal(&c.guardrails, &want, sizeof(want));
    emu_config_fini(&c);
    const char *const negative[] = {"--tombstone-warn-threshold", "-1", NULL};
    assert_int_equal(load(&c, NULL, negative, msg), -1);
    emu_config_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_match_the_documented_values),
        cmocka_unit_test(environment_sets_values_and_flags_win),
        cmocka_unit_test(key_is_the_account_key_without_cert),
        cmocka_unit_test(key_is_the_tls_key_with_cert_in_any_order),
        cmocka_unit_test(key_with_cert_and_tls_key_is_ambiguous),
        cmocka_unit_test(cert_without_key_is_refused),
        cmocka_unit_test(cert_with_no_tls_is_refused),
        cmocka_unit_test(bad_values_are_refused_with_their_source),
        cmocka_unit_test(unknown_flags_and_missing_values_are_refused),
        cmocka_unit_test(cert_host_repeats_and_other_flags_parse),
        cmocka_unit_test(commands_are_recognised),
        cmocka_unit_test(request_unit_flags_have_the_documented_defaults),
        cmocka_unit_test(request_unit_flags_parse_from_flags_and_environment),
        cmocka_unit_test(bad_request_unit_values_are_refused),
        cmocka_unit_test(usage_documents_every_request_unit_flag),
        cmocka_unit_test(config_file_sets_every_kind_of_option),
        cmocka_unit_test(flag_beats_env_beats_file_beats_default),
        cmocka_unit_test(config_file_errors_name_the_key_and_the_problem),
        cmocka_unit_test(log_format_and_file_parse_from_flags_and_environment),
        cmocka_unit_test(admin_port_zero_is_a_free_port_and_off_disables),
        cmocka_unit_test(fsync_modes_and_guardrail_thresholds_parse),
    };
    return cmocka_run_group_tests_name("emulator/config", tests, NULL, NULL);
}
