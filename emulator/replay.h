/*
 * replay.h - CQL workload files: splitting them into statements, expanding
 * their placeholders, and running them against a fresh in-memory engine
 * whose requests a metering object prices (no network). The file format is
 * described at the top of replay.c and in the README.
 *
 * Ownership: statements returned by the splitter borrow from the text given
 * to it. emu_replay_run creates and frees its own storage, engine and
 * session; the metering object stays the caller's and keeps the statistics.
 */
#ifndef EMULATOR_REPLAY_H
#define EMULATOR_REPLAY_H

#include <stdio.h>

#include "base/base.h"
#include "emulator/metering.h"

#define EMU_REPLAY_MAX_REPEAT 100000000ULL  /* one directive's limit */
#define EMU_REPLAY_MAX_TEXT   (1024 * 1024) /* {{text:N}} and {{rand:N}} bounds */

/* ---- splitting ------------------------------------------------------------- */

typedef struct emu_replay_stmt_s {
    const char *text; /* borrowed; no ';', no leading blanks or comments */
    size_t len;
    unsigned line;   /* 1-based line where the statement begins */
    uint64_t repeat; /* from "-- @repeat N" before it, else 1 */
} emu_replay_stmt_t;

typedef struct emu_replay_splitter_s {
    const char *text;
    size_t len;
    size_t pos;
    unsigned line; /* line of text[pos] */
    bool plain;    /* set after init: "-- @..." comments are comments, not directives */
} emu_replay_splitter_t;

void emu_replay_splitter_init(emu_replay_splitter_t *sp, const char *text, size_t len);

/*
 * The next statement. BASE_OK with *out filled; BASE_ENOTFOUND at the end;
 * BASE_ERROR for a bad directive or an unterminated block comment, with err
 * saying what and out->line where (the splitter has moved past it, so the
 * caller may go on).
 */
int emu_replay_next(emu_replay_splitter_t *sp, emu_replay_stmt_t *out, base_error_t *err);

/* ---- placeholders ---------------------------------------------------------- */

/* xorshift64* state; any value but 0 (emu_replay_rng_seed maps 0 elsewhere). */
typedef struct emu_replay_rng_s {
    uint64_t s;
} emu_replay_rng_t;

void emu_replay_rng_seed(emu_replay_rng_t *r, uint64_t seed);
uint64_t emu_replay_rng_next(emu_replay_rng_t *r);

/*
 * Appends text to out with {{i}}, {{uuid}}, {{rand:N}}, {{rand:A:B}} and
 * {{text:N}} replaced (i is the iteration, 0-based). Anything else between
 * braces is copied as it is, so CQL collection literals such as {{1, 2}}
 * survive. BASE_ERROR with err for an out-of-range argument.
 */
int emu_replay_expand(const char *text, size_t len, uint64_t i, emu_replay_rng_t *rng,
                      base_buf_t *out, base_error_t *err);

/* ---- running --------------------------------------------------------------- */

typedef struct emu_replay_opts_s {
    const char *path;     /* for messages; "-" reads standard input */
    bool stop_on_error;   /* else report and go on */
    bool progress;        /* draw a progress bar on stderr */
    uint64_t seed;        /* placeholder values; the same seed gives the same run */
    double duration_s;    /* the file is this many seconds of traffic; <= 0: 1 */
    uint16_t consistency; /* CQL consistency of every statement (wire value) */
    FILE *errors;         /* where "file:line: error" lines go (NULL: stderr) */
} emu_replay_opts_t;

void emu_replay_opts_defaults(emu_replay_opts_t *o);

typedef struct emu_replay_result_s {
    uint64_t executed;  /* statement executions, repeats included */
    uint64_t failed;    /* of executed, those that returned an error (throttles included) */
    uint64_t throttled; /* refused with Overloaded 0x1001 by admission control */
    int64_t started_us; /* the replay's virtual clock: first statement */
    int64_t ended_us;   /* and the end of the traffic window */
} emu_replay_result_t;

/*
 * Runs the file at o->path statement by statement on a fresh in-memory
 * engine with m attached, under a virtual clock: the executions are spread
 * evenly over o->duration_s seconds starting on a whole second, so the
 * meter's per-second figures describe that rate whatever the machine's
 * speed. BASE_OK when the file ran (errors in statements are counted, and
 * stop it only with stop_on_error: then BASE_ERROR); BASE_EIO when the file
 * cannot be read. msg says why on failure.
 */
int emu_replay_run(const emu_replay_opts_t *o, emu_metering_t *m, emu_replay_result_t *out,
                   char *msg, size_t cap);

#endif
