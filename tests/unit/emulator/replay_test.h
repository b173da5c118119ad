/*
 * replay_test.h - the fixture shared by the emulator tests that replay a
 * workload file: a default config, a metering engine over it, a temporary
 * workload file and a stream for the per-statement errors. Static inline;
 * include after <cmocka.h> (setup failures are cmocka assertions).
 */
#ifndef TESTS_UNIT_EMULATOR_REPLAY_TEST_H
#define TESTS_UNIT_EMULATOR_REPLAY_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "emulator/replay.h"

typedef struct replay_env_s {
    emu_config_t cfg;
    emu_metering_t *m;
    char path[64];
    FILE *errors;
} replay_env_t;

/* path_template: a mkstemp template naming the test, e.g. "/tmp/test_x_XXXXXX". */
static inline void replay_env_open(replay_env_t *e, const char *path_template)
{
    char msg[256];
    emu_config_init(&e->cfg);
    e->m = emu_metering_new(&e->cfg, msg, sizeof(msg));
    assert_non_null(e->m);
    snprintf(e->path, sizeof(e->path), "%s", path_template);
    int fd = mkstemp(e->path);
    assert_true(fd >= 0);
    close(fd);
    e->errors = tmpfile();
}

static inline void replay_env_close(replay_env_t *e)
{
    unlink(e->path);
    fclose(e->errors);
    emu_metering_free(e->m);
    emu_config_fini(&e->cfg);
}

/* Replaces the workload file's contents with text. */
static inline void replay_env_write(const replay_env_t *e, const char *text)
{
    FILE *out = fopen(e->path, "w");
    fputs(text, out);
    fclose(out);
}

/* Default replay options reading the workload file, errors to e->errors. */
static inline void replay_env_opts(const replay_env_t *e, emu_replay_opts_t *o)
{
    emu_replay_opts_defaults(o);
    o->path = e->path;
    o->errors = e->errors;
}

#endif
