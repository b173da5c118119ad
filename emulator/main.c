/*
 * main.c - argv -> config -> run. Layer: emulator. No logic lives here:
 * configuration is config.c, serving is server.c, `certs export` is tls.c,
 * `estimate` (which has options of its own) is estimate.c, `health` (the
 * container's HEALTHCHECK) is admin.c, `shell` (the CQL shell) is shell.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/admin.h"
#include "emulator/config.h"
#include "emulator/estimate.h"
#include "emulator/server.h"
#include "emulator/shell.h"
#include "emulator/tls.h"

#ifndef EMU_VERSION
#define EMU_VERSION "0.0.0"
#endif

int main(int argc, char **argv)
{
    emu_config_t cfg;
    char msg[512];
    int rc;
    if (argc > 1 && strcmp(argv[1], "estimate") == 0) {
        return emu_estimate_main(argc - 1, argv + 1);
    }
    if (argc > 1 && strcmp(argv[1], "health") == 0) {
        return emu_admin_health_main(argc - 1, argv + 1);
    }
    if (argc > 1 && strcmp(argv[1], "shell") == 0) {
        return emu_shell_main(argc - 1, argv + 1);
    }
    emu_config_init(&cfg);
    if (emu_config_load(&cfg, argc, argv, getenv, msg, sizeof(msg)) != 0) {
        fprintf(stderr, "cosmos-cassandra-emulator: %s\nTry 'cosmos-cassandra-emulator --help'.\n",
                msg);
        emu_config_fini(&cfg);
        return 2;
    }
    switch (cfg.command) {
    case EMU_CMD_HELP:
        emu_config_usage(stdout);
        rc = 0;
        break;
    case EMU_CMD_VERSION:
        printf("cosmos-cassandra-emulator %s\n", EMU_VERSION);
        rc = 0;
        break;
    case EMU_CMD_CERTS_EXPORT:
        rc = emu_tls_export_ca(&cfg);
        break;
    case EMU_CMD_SERVE:
    default:
        rc = emu_server_run(&cfg);
        break;
    }
    emu_config_fini(&cfg);
    return rc;
}
