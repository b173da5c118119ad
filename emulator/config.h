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

#define EMU_DEFAULT_BIND    "127.0.0.1"
#define EMU_DEFAULT_PORT    10350
#define EMU_DEFAULT_ACCOUNT "localhost"
#define EMU_DEFAULT_ACCOUNT_KEY \
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="
#define EMU_DEFAULT_REGION       "South Central US"
#define EMU_DEFAULT_MAX_FRAME_MB 256
#define EMU_MAX_CERT_HOSTS       32

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
    emu_log_level_t log_level;
} emu_config_t;

/* Fills c with the defaults (strings heap-owned). */
void emu_config_init(emu_config_t *c);
void emu_config_fini(emu_config_t *c);

/*
 * Applies the environment (env_get, normally getenv; NULL for none) and
 * then argv[1..argc). Returns 0, or -1 with a one-line reason in msg
 * (main prints it and exits 2).
 */
int emu_config_load(emu_config_t *c, int argc, char *const *argv,
                    char *(*env_get)(const char *name), char *msg, size_t cap);

void emu_config_usage(FILE *out);

#endif
