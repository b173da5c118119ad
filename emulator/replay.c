/*
 * replay.c - CQL workload files, run in-process to price a data model
 * before any application exists. Layer: emulator.
 *
 * File format:
 *   - CQL statements separated by ';'. A ';' inside a '...' string, a
 *     "..." identifier, a $$...$$ string, a comment, or between BEGIN BATCH
 *     and APPLY BATCH does not split; the last statement needs no ';'.
 *     Comments are CQL's: -- and // to the end of the line, and
 *     non-nesting block comments.
 *   - A line comment "-- @repeat N" (or "// @repeat N") before a statement
 *     runs it N times (0 <= N <= 100000000); the last directive before the
 *     statement wins. Other "-- @word" comments are errors, so a typo does
 *     not silently price one execution instead of a million.
 *   - Placeholders, replaced in the whole statement text (inside strings
 *     too) on every execution: {{i}} the iteration (0-based), {{uuid}} a
 *     random version-4 uuid, {{rand:N}} a random integer in [0, N),
 *     {{rand:A:B}} one in [A, B), {{text:N}} N random characters [a-z0-9].
 *     Other text in double braces, e.g. a set of sets {{1, 2}}, is kept.
 * Values come from a seeded xorshift64*, so a file and a seed always give
 * the same statements and the same charges.
 *
 * The run uses a virtual clock (base_clock_set_fake) so the meter's
 * per-second figures do not depend on how fast this machine executes.
 */
#include "emulator/replay.h"

#include <errno.h>
#include <inttypes.h>
#include <strings.h>

#define PROGRESS_WIDTH  40
#define ARENA_BLOCK     (64 * 1024)
#define PLACEHOLDER_MAX 48 /* longest text between the braces we consider */
#define SCAN_PAGE       5000

/* ---- splitting ------------------------------------------------------------- */

void emu_replay_splitter_init(emu_replay_splitter_t *sp, const char *text, size_t len)
{
    sp->text = text;
    sp->len = len;
    sp->pos = 0;
    sp->line = 1;
    sp->plain = false;
}

static bool is_blank(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Moves to i, counting the newlines passed. */
static void advance_to(emu_replay_splitter_t *sp, size_t i)
{
    for (; sp->pos < i; sp->pos++) {
        if (sp->text[sp->pos] == '\n') {
            sp->line++;
        }
    }
}

static size_t line_end(const emu_replay_splitter_t *sp, size_t i)
{
    const char *nl = memchr(sp->text + i, '\n', sp->len - i);
    return nl ? (size_t)(nl - sp->text) : sp->len;
}

/* The end of the token starting at i (a quoted run, a $$ string or a
 * comment), or i + 1 for any other character. Unterminated runs end at
 * the end of the text; *open tells it. */
static size_t skip_token(const emu_replay_splitter_t *sp, size_t i, bool *open)
{
    const char *s = sp->text;
    size_t len = sp->len;
    char c = s[i];
    char next = (char)(i + 1 < len ? s[i + 1] : '\0'); /* (the ?: is an int in C) */
    *open = false;
    if (c == '\'' || c == '"') {
        for (size_t j = i + 1; j < len; j++) {
            if (s[j] == c) {
                if (j + 1 < len && s[j + 1] == c) {
                    j++; /* doubled quote: an escaped one */
                    continue;
                }
                return j + 1;
            }
        }
    } else if (c == '$' && next == '$') {
        for (size_t j = i + 2; j + 1 < len; j++) {
            if (s[j] == '$' && s[j + 1] == '$') {
                return j + 2;
            }
        }
    } else if ((c == '-' || c == '/') && next == c) {
        return line_end(sp, i);
    } else if (c == '/' && next == '*') {
        for (size_t j = i + 2; j + 1 < len; j++) {
            if (s[j] == '*' && s[j + 1] == '/') {
                return j + 2;
            }
        }
    } else {
        return i + 1;
    }
    *open = true;
    return len;
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The end of the identifier-like word at i, or i when there is none. */
static size_t word_end(const emu_replay_splitter_t *sp, size_t i)
{
    size_t j = i;
    while (j < sp->len && is_word_char(sp->text[j])) {
        j++;
    }
    return j;
}

/* Where a statement stands with respect to BEGIN [UNLOGGED|COUNTER] BATCH
 * ... APPLY BATCH, from its words in order (strings and comments skipped):
 * while OPEN, a ';' separates the batch's statements instead of ending it. */
typedef enum { BATCH_NONE, BATCH_BEGIN, BATCH_OPEN, BATCH_APPLY, BATCH_DONE } batch_state_t;

typedef struct batch_s {
    batch_state_t state;
    unsigned words; /* words seen in the statement */
} batch_t;

static bool word_is(const char *w, size_t n, const char *kw)
{
    return strlen(kw) == n && strncasecmp(w, kw, n) == 0;
}

static void batch_word(batch_t *b, const char *w, size_t n)
{
    b->words++;
    switch (b->state) {
    case BATCH_NONE:
        b->state = b->words == 1 && word_is(w, n, "BEGIN") ? BATCH_BEGIN : BATCH_NONE;
        break;
    case BATCH_BEGIN:
        if (word_is(w, n, "BATCH")) {
            b->state = BATCH_OPEN;
        } else if (!word_is(w, n, "UNLOGGED") && !word_is(w, n, "COUNTER")) {
            b->state = BATCH_DONE; /* not a batch after all: let cql say why */
        }
        break;
    case BATCH_OPEN:
        b->state = word_is(w, n, "APPLY") ? BATCH_APPLY : BATCH_OPEN;
        break;
    case BATCH_APPLY:
        b->state = word_is(w, n, "BATCH") ? BATCH_DONE : BATCH_OPEN;
        break;
    case BATCH_DONE:
        break;
    }
}

/* A line comment's text after the "--" at i: "@repeat N" sets *repeat.
 * Other comments are not directives (BASE_ENOTFOUND). */
static int directive(const emu_replay_splitter_t *sp, size_t i, uint64_t *repeat, base_error_t *err)
{
    size_t end = line_end(sp, i);
    const char *s = sp->text;
    for (i += 2; i < end && (s[i] == ' ' || s[i] == '\t'); i++) {
    }
    if (i == end || s[i] != '@') {
        return BASE_ENOTFOUND;
    }
    size_t word = i + 1, w = word;
    for (; w < end && !is_blank(s[w]); w++) {
    }
    if (w - word != 6 || memcmp(s + word, "repeat", 6) != 0) {
        return base_error_set(err, WIRE_ERR_SYNTAX_ERROR,
                              "unknown directive '@%.*s' (the only one is @repeat N)",
                              (int)(w - word), s + word);
    }
    uint64_t n = 0;
    size_t digits = 0;
    for (i = w; i < end && is_blank(s[i]); i++) {
    }
    for (; i < end && s[i] >= '0' && s[i] <= '9' && n <= EMU_REPLAY_MAX_REPEAT; i++, digits++) {
        n = n * 10 + (uint64_t)(s[i] - '0');
    }
    for (; i < end && is_blank(s[i]); i++) {
    }
    if (digits == 0 || i != end || n > EMU_REPLAY_MAX_REPEAT) {
        return base_error_set(
            err, WIRE_ERR_SYNTAX_ERROR, "@repeat needs a count from 0 to %llu: '%.*s'",
            (unsigned long long)EMU_REPLAY_MAX_REPEAT, (int)(end - word + 1), s + word - 1);
    }
    *repeat = n;
    return BASE_OK;
}

/* Skips blanks, comments and empty statements before the next statement,
 * applying directives. BASE_OK at a statement's first character or the
 * end; BASE_ERROR for a bad directive or an unclosed block comment. */
static int skip_to_statement(emu_replay_splitter_t *sp, uint64_t *repeat, unsigned *directive_line,
                             base_error_t *err)
{
    const char *s = sp->text;
    while (sp->pos < sp->len) {
        char c = s[sp->pos];
        char next = (char)(sp->pos + 1 < sp->len ? s[sp->pos + 1] : '\0');
        bool open;
        if (is_blank(c) || c == ';') {
            advance_to(sp, sp->pos + 1);
        } else if ((c == '-' || c == '/') && next == c) {
            unsigned line = sp->line;
            int rc = sp->plain ? BASE_ENOTFOUND : directive(sp, sp->pos, repeat, err);
            advance_to(sp, line_end(sp, sp->pos));
            if (rc == BASE_ERROR) {
                *directive_line = line;
                return rc;
            }
            *directive_line = rc == BASE_OK ? line : *directive_line;
        } else if (c == '/' && next == '*') {
            unsigned line = sp->line;
            advance_to(sp, skip_token(sp, sp->pos, &open));
            if (open) {
                *directive_line = line;
                return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "unterminated comment");
            }
        } else {
            break;
        }
    }
    return BASE_OK;
}

int emu_replay_next(emu_replay_splitter_t *sp, emu_replay_stmt_t *out, base_error_t *err)
{
    uint64_t repeat = 1;
    unsigned directive_line = 0;
    memset(out, 0, sizeof(*out));
    if (skip_to_statement(sp, &repeat, &directive_line, err) != BASE_OK) {
        out->line = directive_line;
        return BASE_ERROR;
    }
    if (sp->pos >= sp->len) {
        if (directive_line != 0) {
            out->line = directive_line;
            return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "@repeat with no statement after it");
        }
        return BASE_ENOTFOUND;
    }
    size_t start = sp->pos;
    size_t i = start;
    out->line = sp->line;
    out->repeat = repeat;
    /* BEGIN ... BATCH holds statements separated by ';' up to APPLY BATCH */
    batch_t b = {BATCH_NONE, 0};
    while (i < sp->len && (sp->text[i] != ';' || b.state == BATCH_OPEN)) {
        bool open;
        size_t next = word_end(sp, i);
        if (next > i) {
            batch_word(&b, sp->text + i, next - i);
            i = next;
        } else {
            i = skip_token(sp, i, &open);
        }
    }
    size_t end = i;
    while (end > start && is_blank(sp->text[end - 1])) {
        end--;
    }
    out->text = sp->text + start;
    out->len = end - start;
    advance_to(sp, i < sp->len ? i + 1 : i);
    return BASE_OK;
}

/* ---- placeholders ---------------------------------------------------------- */

void emu_replay_rng_seed(emu_replay_rng_t *r, uint64_t seed)
{
    /* splitmix64 of the seed: nearby seeds give unrelated streams, never 0 */
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    r->s = z != 0 ? z : 0x2545F4914F6CDD1DULL;
}

uint64_t emu_replay_rng_next(emu_replay_rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static uint64_t rng_below(emu_replay_rng_t *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = emu_replay_rng_next(r);
    } while (x >= limit);
    return x % n;
}

/* A decimal integer filling [s, end) exactly. */
static bool parse_i64(const char *s, const char *end, int64_t *out)
{
    char tmp[24];
    if (end <= s || (size_t)(end - s) >= sizeof(tmp)) {
        return false;
    }
    memcpy(tmp, s, (size_t)(end - s));
    tmp[end - s] = '\0';
    char *stop;
    errno = 0;
    long long v = strtoll(tmp, &stop, 10);
    if (errno != 0 || *stop != '\0' || !(tmp[0] == '-' || (tmp[0] >= '0' && tmp[0] <= '9'))) {
        return false;
    }
    *out = v;
    return true;
}

static void put_uuid(emu_replay_rng_t *rng, base_buf_t *out)
{
    uint8_t b[16];
    uint64_t hi = emu_replay_rng_next(rng), lo = emu_replay_rng_next(rng);
    for (int k = 0; k < 8; k++) {
        b[k] = (uint8_t)(hi >> (56 - 8 * k));
        b[8 + k] = (uint8_t)(lo >> (56 - 8 * k));
    }
    b[6] = (uint8_t)((b[6] & 0x0F) | 0x40); /* version 4 */
    b[8] = (uint8_t)((b[8] & 0x3F) | 0x80); /* RFC 4122 variant */
    base_buf_printf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                    b[13], b[14], b[15]);
}

/* One placeholder name (the text between the braces). BASE_ENOTFOUND: not
 * ours, copy it as it is. */
static int expand_one(const char *name, size_t len, uint64_t i, emu_replay_rng_t *rng,
                      base_buf_t *out, base_error_t *err)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    const char *end = name + len;
    if (len == 1 && name[0] == 'i') {
        base_buf_printf(out, "%" PRIu64, i);
    } else if (len == 4 && memcmp(name, "uuid", 4) == 0) {
        put_uuid(rng, out);
    } else if (len > 5 && memcmp(name, "rand:", 5) == 0) {
        const char *colon = memchr(name + 6, ':', len - 6);
        int64_t lo = 0, hi;
        bool ok = colon ? parse_i64(name + 5, colon, &lo) && parse_i64(colon + 1, end, &hi)
                        : parse_i64(name + 5, end, &hi);
        if (!ok || hi <= lo) {
            return base_error_set(err, WIRE_ERR_SYNTAX_ERROR,
                                  "bad placeholder {{%.*s}}: want {{rand:N}} with N > 0 or "
                                  "{{rand:A:B}} with A < B",
                                  (int)len, name);
        }
        uint64_t span = (uint64_t)hi - (uint64_t)lo;
        base_buf_printf(out, "%" PRId64, (int64_t)((uint64_t)lo + rng_below(rng, span)));
    } else if (len > 5 && memcmp(name, "text:", 5) == 0) {
        int64_t n;
        if (!parse_i64(name + 5, end, &n) || n < 0 || n > EMU_REPLAY_MAX_TEXT) {
            return base_error_set(err, WIRE_ERR_SYNTAX_ERROR,
                                  "bad placeholder {{%.*s}}: want {{text:N}} with 0 <= N <= %d",
                                  (int)len, name, EMU_REPLAY_MAX_TEXT);
        }
        base_buf_reserve(out, (size_t)n);
        for (int64_t k = 0; k < n; k++) {
            out->data[out->len++] = (uint8_t)alphabet[rng_below(rng, sizeof(alphabet) - 1)];
        }
    } else {
        return BASE_ENOTFOUND;
    }
    return BASE_OK;
}

int emu_replay_expand(const char *text, size_t len, uint64_t i, emu_replay_rng_t *rng,
                      base_buf_t *out, base_error_t *err)
{
    size_t k = 0;
    while (k < len) {
        const char *open = memchr(text + k, '{', len - k);
        size_t at = open ? (size_t)(open - text) : len;
        base_buf_put(out, text + k, at - k);
        k = at;
        if (k + 1 >= len || text[k + 1] != '{') {
            if (k < len) {
                base_buf_put_u8(out, '{');
                k++;
            }
            continue;
        }
        /* "{{name}}" with a short name holding no brace */
        size_t name = k + 2, j = name;
        for (; j < len && j - name <= PLACEHOLDER_MAX && text[j] != '{' && text[j] != '}'; j++) {
        }
        int rc = BASE_ENOTFOUND;
        if (j + 1 < len && text[j] == '}' && text[j + 1] == '}' && j > name) {
            rc = expand_one(text + name, j - name, i, rng, out, err);
        }
        if (rc == BASE_ERROR) {
            return rc;
        }
        if (rc == BASE_OK) {
            k = j + 2;
        } else {
            base_buf_put_u8(out, '{'); /* not ours: the next brace may start one */
            k++;
        }
    }
    base_buf_reserve(out, 1);
    out->data[out->len] = '\0';
    return BASE_OK;
}

/* ---- the virtual clock ----------------------------------------------------- */

/* base_clock_set_fake takes plain functions, so the clock is file state:
 * one replay at a time, on the thread that runs it. */
static int64_t clock_at;

static int64_t virtual_now(void)
{
    return clock_at;
}

/* ---- running --------------------------------------------------------------- */

void emu_replay_opts_defaults(emu_replay_opts_t *o)
{
    memset(o, 0, sizeof(*o));
    o->seed = 1;
    o->duration_s = 1;
    o->consistency = WIRE_CL_LOCAL_ONE;
}

static int read_all(const char *path, base_buf_t *out, char *msg, size_t cap)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(msg, cap, "cannot open %s: %s", path, strerror(errno));
        return BASE_EIO;
    }
    char chunk[16384];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        base_buf_put(out, chunk, n);
    }
    int rc = ferror(f) ? BASE_EIO : BASE_OK;
    if (rc != BASE_OK) {
        snprintf(msg, cap, "cannot read %s: %s", path, strerror(errno));
    }
    if (!is_stdin) {
        (void)fclose(f); /* read-only: nothing buffered to lose */
    }
    base_buf_reserve(out, 1);
    out->data[out->len] = '\0';
    return rc;
}

/* Executions in the whole file (directive errors are reported later). */
static uint64_t count_executions(const base_buf_t *text)
{
    emu_replay_splitter_t sp;
    emu_replay_stmt_t st;
    base_error_t err;
    uint64_t total = 0;
    int rc;
    emu_replay_splitter_init(&sp, (const char *)text->data, text->len);
    while ((rc = emu_replay_next(&sp, &st, &err)) != BASE_ENOTFOUND) {
        total += rc == BASE_OK ? st.repeat : 0;
    }
    return total;
}

typedef struct run_s {
    const emu_replay_opts_t *o;
    FILE *errors;
    cql_engine_t *engine;
    cql_session_t *session;
    emu_metering_t *metering;
    base_arena_t arena;
    base_buf_t stmt;
    emu_replay_rng_t rng;
    uint64_t total;   /* executions in the file */
    uint64_t done;    /* executions so far */
    int64_t t0;       /* virtual start, on a whole second */
    int64_t window;   /* microseconds the executions are spread over */
    int progress_pct; /* last drawn, -1 for none */
    emu_replay_result_t *res;
} run_t;

static void draw_progress(run_t *r, bool final)
{
    if (!r->o->progress || r->total == 0) {
        return;
    }
    int pct = (int)(r->done * 100 / r->total);
    if (pct == r->progress_pct && !final) {
        return;
    }
    r->progress_pct = pct;
    int fill = pct * PROGRESS_WIDTH / 100;
    fprintf(stderr, "\r[%.*s%*s] %3d%% %" PRIu64 "/%" PRIu64 " statements", fill,
            "########################################", PROGRESS_WIDTH - fill, "", pct, r->done,
            r->total);
    if (final) {
        fputc('\n', stderr);
    }
    (void)fflush(stderr); /* a progress line: nothing to do if the terminal is gone */
}

/* The error of one execution; a statement failing on every iteration is
 * reported once, with the count at the end. */
static void report_error(run_t *r, const emu_replay_stmt_t *st, uint64_t iter,
                         const base_error_t *err)
{
    if (r->o->progress && r->progress_pct >= 0) {
        fputc('\n', stderr);
        r->progress_pct = -1;
    }
    const char *name = wire_error_name(err->code);
    fprintf(r->errors, "%s:%u: %s (0x%04x %s)", r->o->path, st->line, err->msg, (unsigned)err->code,
            name ? name : "?");
    if (st->repeat > 1) {
        fprintf(r->errors, " [iteration %" PRIu64 "]", iter);
    }
    fputc('\n', r->errors);
}

/* Runs one execution of st; BASE_ERROR when it failed. */
static int execute(run_t *r, const emu_replay_stmt_t *st, uint64_t iter, base_error_t *err)
{
    cql_result_t res; /* initialized by cql_query (cql.h) */
    wire_query_params_t params;
    memset(&params, 0, sizeof(params));
    params.consistency = r->o->consistency;
    params.paging_state.len = WIRE_VALUE_NULL;
    params.serial_consistency = WIRE_CL_SERIAL;

    base_buf_reset(&r->stmt);
    int rc = emu_replay_expand(st->text, st->len, iter, &r->rng, &r->stmt, err);
    if (rc != BASE_OK) {
        return rc;
    }
    /* executions spread evenly over the window, each on its own microsecond
     * so write timestamps keep the file's order */
    int64_t at = r->t0 + (int64_t)((double)r->done * (double)r->window / (double)r->total);
    clock_at = at > clock_at ? at : clock_at + 1;

    base_str_t q = {(const char *)r->stmt.data, r->stmt.len};
    emu_metering_begin(r->metering, emu_metering_now_us());
    rc = cql_query(r->engine, r->session, q, &params, &r->arena, &res, err);
    if (rc != BASE_OK && err->msg[0] == '\0') {
        base_error_set(err, WIRE_ERR_SERVER_ERROR, "internal error: %s", base_strerror(rc));
    }
    bool throttled = rc != BASE_OK && err->code == WIRE_ERR_OVERLOADED;
    emu_metering_charge(r->metering, &res, rc != BASE_OK, throttled);
    base_arena_reset(&r->arena);
    r->res->throttled += throttled ? 1 : 0;
    return rc == BASE_OK ? BASE_OK : BASE_ERROR;
}

/* Runs every execution of one statement; BASE_ERROR to stop the file. */
static int run_statement(run_t *r, const emu_replay_stmt_t *st)
{
    uint64_t failed = 0;
    base_error_t err;
    for (uint64_t k = 0; k < st->repeat; k++) {
        base_error_clear(&err);
        int rc = execute(r, st, k, &err);
        r->done++;
        r->res->executed++;
        if (rc != BASE_OK) {
            r->res->failed++;
        }
        if (rc != BASE_OK && err.code != WIRE_ERR_OVERLOADED) {
            /* throttles are counted in the result and the report, not listed */
            if (failed++ == 0) {
                report_error(r, st, k, &err);
            }
            if (r->o->stop_on_error) {
                return BASE_ERROR;
            }
        }
        draw_progress(r, false);
    }
    if (failed > 1) {
        fprintf(r->errors, "%s:%u: %" PRIu64 " of %" PRIu64 " executions failed\n", r->o->path,
                st->line, failed, st->repeat);
    }
    return BASE_OK;
}

/* A quoted CQL identifier: "name" with '"' doubled. */
static void put_ident(base_buf_t *b, const char *name)
{
    base_buf_put_u8(b, '"');
    for (const char *p = name; *p; p++) {
        base_buf_put(b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
    }
    base_buf_put_u8(b, '"');
}

/* Bytes a full scan of ks.t reads: the rows' keys and cells, which is
 * what the table stores. Paged, so the arena stays small. */
static uint64_t table_bytes(run_t *r, const char *ks, const char *t)
{
    base_buf_t sel, state;
    uint64_t bytes = 0;
    bool more = true;
    base_buf_init(&sel);
    base_buf_init(&state);
    base_buf_printf(&sel, "SELECT * FROM ");
    put_ident(&sel, ks);
    base_buf_put_u8(&sel, '.');
    put_ident(&sel, t);
    while (more) {
        cql_result_t res; /* initialized by cql_query (cql.h) */
        wire_query_params_t params;
        base_error_t err;
        memset(&params, 0, sizeof(params));
        params.consistency = WIRE_CL_LOCAL_ONE;
        params.serial_consistency = WIRE_CL_SERIAL;
        params.page_size = SCAN_PAGE;
        params.paging_state.len = WIRE_VALUE_NULL;
        if (state.len > 0) {
            params.paging_state.ptr = state.data;
            params.paging_state.len = (int32_t)state.len;
        }
        base_str_t text = {(const char *)sel.data, sel.len};
        more = false;
        if (cql_query(r->engine, r->session, text, &params, &r->arena, &res, &err) == BASE_OK) {
            bytes += res.stats.bytes_read;
            base_buf_reset(&state);
            if (res.paging_state.len > 0 && res.n_rows > 0) {
                base_buf_put(&state, res.paging_state.ptr, (size_t)res.paging_state.len);
                more = true;
            }
        }
        base_arena_reset(&r->arena);
    }
    base_buf_fini(&state);
    base_buf_fini(&sel);
    return bytes;
}

/* Tells the meter what each table the replay used stores, so the estimate
 * has storage. The scans are not metered (hooks removed). */
static void measure_storage(run_t *r)
{
    ru_snapshot_t snap;
    ru_meter_t *meter = emu_metering_meter(r->metering);
    cql_engine_set_hooks(r->engine, NULL);
    ru_meter_snapshot(meter, clock_at, &snap);
    for (size_t i = 0; i < snap.n_tables; i++) {
        const ru_table_stats_t *t = &snap.tables[i];
        if (!t->dropped) {
            ru_meter_table_storage(meter, t->keyspace, t->table,
                                   table_bytes(r, t->keyspace, t->table), clock_at);
        }
    }
    ru_snapshot_fini(&snap);
}

static int run_file(run_t *r, const base_buf_t *text, char *msg, size_t cap)
{
    emu_replay_splitter_t sp;
    emu_replay_stmt_t st;
    base_error_t err;
    int rc;
    emu_replay_splitter_init(&sp, (const char *)text->data, text->len);
    while ((rc = emu_replay_next(&sp, &st, &err)) != BASE_ENOTFOUND) {
        if (rc == BASE_OK) {
            rc = run_statement(r, &st);
        } else {
            fprintf(r->errors, "%s:%u: %s\n", r->o->path, st.line, err.msg);
            r->res->failed++;
        }
        if (rc != BASE_OK && r->o->stop_on_error) {
            snprintf(msg, cap, "%s:%u: stopped at the first error (--stop-on-error)", r->o->path,
                     st.line);
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}

int emu_replay_run(const emu_replay_opts_t *o, emu_metering_t *m, emu_replay_result_t *out,
                   char *msg, size_t cap)
{
    run_t r;
    base_buf_t text;
    cql_config_t cc;
    storage_db_t *db = NULL;
    memset(out, 0, sizeof(*out));
    memset(&r, 0, sizeof(r));
    base_buf_init(&text);
    int rc = read_all(o->path, &text, msg, cap);
    if (rc != BASE_OK) {
        goto done;
    }
    r.o = o;
    r.errors = o->errors ? o->errors : stderr;
    r.metering = m;
    r.res = out;
    r.total = count_executions(&text);
    r.progress_pct = -1;
    r.window = (int64_t)((o->duration_s > 0 ? o->duration_s : 1) * 1e6);
    r.t0 = base_now_us() / 1000000 * 1000000;
    emu_replay_rng_seed(&r.rng, o->seed);
    base_arena_init(&r.arena, ARENA_BLOCK);
    base_buf_init(&r.stmt);

    clock_at = r.t0;
    base_clock_set_fake(virtual_now, virtual_now);
    cql_config_defaults(&cc);
    db = storage_db_new();
    r.engine = cql_engine_new(&cc, db);
    r.session = cql_session_new(r.engine);
    emu_metering_attach(m, r.engine);

    out->started_us = r.t0;
    rc = run_file(&r, &text, msg, cap);
    draw_progress(&r, true);
    measure_storage(&r);
    out->ended_us = r.t0 + r.window > clock_at ? r.t0 + r.window : clock_at + 1;
    clock_at = out->ended_us;

    cql_session_free(r.session);
    cql_engine_free(r.engine);
    storage_db_free(db);
    base_clock_set_fake(NULL, NULL);
    base_buf_fini(&r.stmt);
    base_arena_fini(&r.arena);
done:
    base_buf_fini(&text);
    return rc;
}
