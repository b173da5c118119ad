/*
 * shell.c - `cosmos-cassandra-emulator shell`: a CQL shell in the manner of
 * cqlsh, with each statement's request charge. Layer: emulator. Options,
 * the statement loop (interactive with libedit, or -e / -f / a pipe), the
 * shell commands (EXPAND, PAGING, CONSISTENCY, SOURCE, HELP, EXIT) and the
 * result printing; the connection is shell_client.c, tables shell_table.c.
 *
 * Invariants:
 *  - Input is fed one line at a time, from any source, to one accumulator:
 *    CQL runs once a ';' ends it outside strings, comments and batches (the
 *    replay splitter decides), a shell command at the end of its line.
 *  - A statement's charge is the sum of the RequestCharge of every page it
 *    fetched; a server that sends none (plain Cassandra) gets no line.
 *  - Non-interactive runs (-e, -f, a pipe) exit 1 when any statement failed,
 *    with errors on stderr as cqlsh prints them (FILE:LINE: prefix).
 */
#include "emulator/shell.h"

#include <ctype.h>
#include <errno.h>
#include <strings.h>
#include <unistd.h>

#include "cql/cql.h"
#include "emulator/config.h"
#include "emulator/replay.h"

#define DEFAULT_PAGE_SIZE 100
#define MAX_SOURCE_DEPTH  16
#define ARENA_BLOCK       (64 * 1024)
#define MSG_MAX           1024

typedef struct shell_s {
    emu_shell_target_t target;
    emu_shell_conn_t *conn;
    base_arena_t arena;
    char keyspace[256];
    uint16_t consistency;
    bool paging;
    int page_size;
    bool expand;
    bool interactive; /* a terminal: prompts, ---MORE---, no FILE:LINE: */
    bool failed;      /* a statement failed (the exit status of -e/-f) */
    bool quit;
    double total_ru;
    int depth; /* SOURCE nesting */
    /* The statement being typed, and where it started. */
    base_buf_t pending;
    unsigned pending_line;
} shell_t;

typedef struct source_s {
    const char *name; /* "<stdin>" for -e and pipes */
    unsigned line;
} source_t;

static void feed_line(shell_t *sh, const source_t *src, const char *line, size_t len);
static int read_interactive(shell_t *sh);


static void usage(FILE *f)
{
    fprintf(
        f, "Usage: cosmos-cassandra-emulator shell [host [port]] [options]\n"
           "A CQL shell (cqlsh's commands and output) that shows each statement's request\n"
           "charge. Connects to this emulator or any Cassandra endpoint.\n\n"
           "  host, port                 default 127.0.0.1 10350\n"
           "  -u, --username USER        default the emulator's account (" EMU_DEFAULT_ACCOUNT ")\n"
           "  -p, --password KEY         default the emulator's well-known key\n"
           "  --ssl / --no-ssl           TLS (default on, as the emulator and Cosmos DB serve)\n"
           "  --cafile FILE              verify the server's certificate and name against this "
           "CA;\n"
           "                             without it the session is encrypted but the server is\n"
           "                             not verified (fine for the local emulator)\n"
           "  -k, --keyspace KS          USE KS after connecting\n"
           "  -e, --execute STMTS        run the statements and exit (1 if any failed)\n"
           "  -f, --file FILE            run the statements in FILE and exit (1 if any failed)\n"
           "  --protocol-version N       3 or 4 (default 4, stepping down when refused)\n"
           "  --connect-timeout S        default 5\n"
           "  --request-timeout S        default 10\n\n"
           "Shell commands: HELP, EXPAND, PAGING, CONSISTENCY, SOURCE, DESCRIBE, USE, EXIT.\n"
           "History is kept in ~/.cosmos_cqlsh_history.\n");
}


/* ---- output ----------------------------------------------------------------------------- */

static void report_error(shell_t *sh, const source_t *src, unsigned line, const char *text)
{
    sh->failed = true;
    if (sh->interactive || src == NULL) {
        fprintf(stderr, "%s\n", text);
    } else {
        fprintf(stderr, "%s:%u:%s\n", src->name, line, text);
    }
}


static void print_charge(shell_t *sh, bool charged, double ru)
{
    if (!charged) {
        return;
    }
    sh->total_ru += ru;
    printf("Request charge: %.2f RU (session total: %.2f RU)\n", ru, sh->total_ru);
}


static void print_warnings(const wire_reply_t *r)
{
    if (r->n_warnings == 0) {
        return;
    }
    fprintf(stderr, "\nWarnings :\n");
    for (size_t i = 0; i < r->n_warnings; i++) {
        fprintf(stderr, "%.*s\n", (int)r->warnings[i].len, r->warnings[i].ptr);
    }
    fprintf(stderr, "\n");
}


/* cqlsh's pause between pages; false when the user asked to stop ('q'). */
static bool more_prompt(void)
{
    char line[64];
    fputs("---MORE---", stdout);
    fflush(stdout);
    if (fgets(line, sizeof(line), stdin) == NULL) {
        fputc('\n', stdout);
        return false;
    }
    return line[0] != 'q' && line[0] != 'Q';
}


/* ---- CQL -------------------------------------------------------------------------------- */

/* Runs one CQL statement and prints its result pages, errors and charge. */
static void run_cql(shell_t *sh, const source_t *src, unsigned line, const char *q, size_t len)
{
    char msg[MSG_MAX];
    base_buf_t paging_state;
    base_buf_init(&paging_state);
    bool charged = false, rows_result = false, has_more = false;
    double ru = 0;
    size_t n_rows = 0;
    int page = 0;
    if (sh->conn == NULL) {
        report_error(sh, src, line, "Not connected (the connection failed earlier)");
        goto done;
    }
    do {
        wire_query_params_t p = {.consistency = sh->consistency,
                                 .page_size = sh->paging ? sh->page_size : 0,
                                 .paging_state = {NULL, WIRE_VALUE_NULL}};
        if (page > 0) {
            p.paging_state = (wire_value_t){paging_state.data, (int32_t)paging_state.len};
        }
        wire_reply_t r;
        base_arena_reset(&sh->arena);
        if (emu_shell_query(sh->conn, q, len, &p, &sh->arena, &r, msg, sizeof(msg)) != BASE_OK) {
            char text[MSG_MAX + 32];
            snprintf(text, sizeof(text), "Connection error: %s", msg);
            report_error(sh, src, line, text);
            emu_shell_close(sh->conn);
            sh->conn = NULL;
            goto done;
        }
        double page_ru;
        if (wire_reply_payload_double(&r, "RequestCharge", &page_ru)) {
            charged = true;
            ru += page_ru;
        }
        if (r.opcode == WIRE_OP_ERROR) {
            emu_shell_error_text(r.u.error.code, r.u.error.message, msg, sizeof(msg));
            report_error(sh, src, line, msg);
            goto done;
        }
        if (r.opcode != WIRE_OP_RESULT) {
            snprintf(msg, sizeof(msg), "unexpected %s response", wire_opcode_name(r.opcode));
            report_error(sh, src, line, msg);
            goto done;
        }
        print_warnings(&r);
        if (r.u.result.kind == WIRE_RESULT_SET_KEYSPACE) {
            snprintf(sh->keyspace, sizeof(sh->keyspace), "%.*s", (int)r.u.result.keyspace.len,
                     r.u.result.keyspace.ptr);
        }
        if (r.u.result.kind != WIRE_RESULT_ROWS) {
            break;
        }
        rows_result = true;
        const wire_rows_meta_t *m = &r.u.result.meta;
        has_more = (m->flags & WIRE_ROWS_HAS_MORE_PAGES) && m->paging_state.len >= 0;
        if (page == 0 || r.u.result.n_rows > 0) {
            emu_shell_rows_t rows;
            emu_shell_rows_from_reply(&rows, &r, &sh->arena);
            if (page == 0) {
                fputc('\n', stdout);
            }
            emu_shell_print_rows(stdout, &rows, sh->expand, page == 0 || sh->interactive, n_rows);
            if (sh->interactive && !sh->expand) {
                fputc('\n', stdout); /* each page is its own table on a terminal */
            }
            n_rows += rows.n_rows;
        }
        if (has_more) {
            base_buf_reset(&paging_state);
            base_buf_put(&paging_state, m->paging_state.ptr, (size_t)m->paging_state.len);
            if (sh->interactive && sh->paging && !more_prompt()) {
                has_more = false;
            }
        }
        page++;
    } while (has_more);
    if (rows_result) {
        if (!sh->interactive && !sh->expand) {
            fputc('\n', stdout); /* the pages printed as one table */
        }
        printf("(%zu rows)\n", n_rows);
    }
done:
    print_charge(sh, charged, ru);
    fflush(stdout);
    base_buf_fini(&paging_state);
}


/* ---- shell commands --------------------------------------------------------------------- */

/* The words of a command line, blank-separated (quotes kept). */
typedef struct words_s {
    size_t n;
    char w[4][256];
} words_t;

static void split_words(const char *s, size_t len, words_t *out)
{
    out->n = 0;
    size_t i = 0;
    while (i < len && out->n < 4) {
        while (i < len && isspace((unsigned char)s[i])) {
            i++;
        }
        size_t start = i;
        while (i < len && !isspace((unsigned char)s[i])) {
            i++;
        }
        if (i > start) {
            snprintf(out->w[out->n++], sizeof(out->w[0]), "%.*s", (int)(i - start), s + start);
        }
    }
}


static bool is_word(const char *w, const char *kw)
{
    return strcasecmp(w, kw) == 0;
}


static void cmd_expand(shell_t *sh, const words_t *w)
{
    if (w->n == 1) {
        printf("Expanded output is currently %s. Use EXPAND %s to %s.\n",
               sh->expand ? "enabled" : "disabled", sh->expand ? "OFF" : "ON",
               sh->expand ? "disable" : "enable");
    } else if (is_word(w->w[1], "on")) {
        sh->expand = true;
        printf("Now Expanded output is enabled\n");
    } else if (is_word(w->w[1], "off")) {
        sh->expand = false;
        printf("Disabled Expanded output.\n");
    } else {
        fprintf(stderr, "Improper EXPAND command.\n");
        sh->failed = true;
    }
}


static void cmd_paging(shell_t *sh, const words_t *w)
{
    char *end = NULL;
    long n = w->n > 1 ? strtol(w->w[1], &end, 10) : 0;
    if (w->n == 1) {
        printf("Query paging is currently %s. Use PAGING %s to %s.\n",
               sh->paging ? "enabled" : "disabled", sh->paging ? "OFF" : "ON",
               sh->paging ? "disable" : "enable");
        if (sh->paging) {
            printf("Page size: %d\n", sh->page_size);
        }
    } else if (is_word(w->w[1], "on")) {
        sh->paging = true;
        printf("Now Query paging is enabled\nPage size: %d\n", sh->page_size);
    } else if (is_word(w->w[1], "off")) {
        sh->paging = false;
        printf("Disabled Query paging.\n");
    } else if (end != w->w[1] && *end == '\0' && n > 0 && n <= 1000000) {
        sh->paging = true;
        sh->page_size = (int)n;
        printf("Page size: %d\n", sh->page_size);
    } else {
        fprintf(stderr, "Improper PAGING command.\n");
        sh->failed = true;
    }
}


static void cmd_consistency(shell_t *sh, const words_t *w)
{
    if (w->n == 1) {
        printf("Current consistency level is %s.\n", wire_consistency_name(sh->consistency));
        return;
    }
    for (int cl = WIRE_CL_ANY; cl <= WIRE_CL_LOCAL_ONE; cl++) {
        const char *name = wire_consistency_name(cl);
        if (name != NULL && is_word(w->w[1], name)) {
            sh->consistency = (uint16_t)cl;
            printf("Consistency level set to %s.\n", name);
            return;
        }
    }
    fprintf(stderr, "Improper CONSISTENCY command: '%s' is not a consistency level.\n", w->w[1]);
    sh->failed = true;
}


static void cmd_help(void)
{
    printf("\nDocumented shell commands:\n===========================\n"
           "CONSISTENCY [level]   show or set the consistency level (default ONE)\n"
           "DESCRIBE ...          KEYSPACES, KEYSPACE ks, TABLES, TABLE t, TYPES, TYPE t, "
           "SCHEMA\n"
           "EXPAND [ON|OFF]       one line per column (vertical) output\n"
           "PAGING [ON|OFF|N]     page results (N rows a page, ---MORE--- between pages)\n"
           "SOURCE 'file'         run the statements in a file\n"
           "USE ks;               the keyspace for unqualified names (shown in the prompt)\n"
           "HELP                  this text\n"
           "EXIT, QUIT            leave the shell (or Ctrl-D)\n\n"
           "Any other input is CQL, sent to the server when a ';' ends it. After each\n"
           "statement the request charge (RequestCharge) is printed with the session total.\n\n");
}


static int run_text(shell_t *sh, const char *name, const char *text, size_t len);


static void cmd_source(shell_t *sh, const source_t *src, unsigned line, const char *arg, size_t len)
{
    char path[4096];
    char msg[sizeof(path) + 256];
    base_buf_t text;
    base_buf_init(&text);
    FILE *f = NULL;
    while (len > 0 && isspace((unsigned char)*arg)) {
        arg++, len--;
    }
    if (len >= 2 && (arg[0] == '\'' || arg[0] == '"') && arg[len - 1] == arg[0]) {
        arg++, len -= 2;
    }
    snprintf(path, sizeof(path), "%.*s", (int)len, arg);
    if (path[0] == '\0') {
        report_error(sh, src, line, "Improper SOURCE command: SOURCE 'file'");
        goto done;
    }
    if (sh->depth >= MAX_SOURCE_DEPTH) {
        report_error(sh, src, line, "SOURCE nested too deeply");
        goto done;
    }
    f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(msg, sizeof(msg), "Could not open '%s': %s", path, strerror(errno));
        report_error(sh, src, line, msg);
        goto done;
    }
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        base_buf_put(&text, chunk, n);
    }
    sh->depth++;
    run_text(sh, path, text.len ? (const char *)text.data : "", text.len);
    sh->depth--;
done:
    if (f != NULL) {
        fclose(f);
    }
    base_buf_fini(&text);
}


/* A shell command's first word, or false for CQL. */
static bool is_shell_command(const char *word)
{
    static const char *const cmds[] = {"expand", "paging", "consistency", "source", "help",  "?",
                                       "exit",   "quit",   "describe",    "desc",   "clear", "cls"};
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        if (is_word(word, cmds[i])) {
            return true;
        }
    }
    return false;
}


static void run_command(shell_t *sh, const source_t *src, const char *s, size_t len)
{
    words_t w;
    while (len > 0 && (isspace((unsigned char)s[len - 1]) || s[len - 1] == ';')) {
        len--;
    }
    split_words(s, len, &w);
    const char *cmd = w.w[0];
    if (is_word(cmd, "exit") || is_word(cmd, "quit")) {
        sh->quit = true;
    } else if (is_word(cmd, "help") || is_word(cmd, "?")) {
        cmd_help();
    } else if (is_word(cmd, "expand")) {
        cmd_expand(sh, &w);
    } else if (is_word(cmd, "paging")) {
        cmd_paging(sh, &w);
    } else if (is_word(cmd, "consistency")) {
        cmd_consistency(sh, &w);
    } else if (is_word(cmd, "source")) {
        const char *arg = s + strlen(cmd);
        while (isspace((unsigned char)*s)) {
            s++, len--, arg++;
        }
        cmd_source(sh, src, src ? src->line : 0, arg, len - (size_t)(arg - s));
    } else if (is_word(cmd, "clear") || is_word(cmd, "cls")) {
        if (sh->interactive) {
            fputs("\033[H\033[2J", stdout);
        }
    } else {
        run_cql(sh, src, src ? src->line : 0, s, len); /* DESCRIBE: the server's */
    }
    fflush(stdout);
}


/* ---- the accumulator -------------------------------------------------------------------- */

/* Runs every statement ';' completed in sh->pending; keeps the rest. */
static void drain_pending(shell_t *sh, const source_t *src, bool at_end)
{
    emu_replay_splitter_t sp;
    emu_replay_splitter_init(&sp, (const char *)sh->pending.data, sh->pending.len);
    sp.plain = true;
    size_t keep_from = sh->pending.len;
    for (;;) {
        emu_replay_stmt_t st;
        base_error_t err;
        size_t before = sp.pos;
        int rc = emu_replay_next(&sp, &st, &err);
        if (rc == BASE_ENOTFOUND) {
            break;
        }
        if (rc != BASE_OK) { /* an open block comment: wait for its end */
            keep_from = before;
            break;
        }
        size_t end = (size_t)(st.text - (const char *)sh->pending.data) + st.len;
        /* ended by a ';' (the splitter stops past it), not by the end of the text */
        bool terminated = sp.pos > end && sh->pending.data[sp.pos - 1] == ';';
        if (!terminated && !at_end) {
            keep_from = (size_t)(st.text - (const char *)sh->pending.data);
            break;
        }
        run_cql(sh, src, sh->pending_line + st.line - 1, st.text, st.len);
        if (sh->quit) {
            break;
        }
    }
    size_t rest = sh->pending.len - keep_from;
    if (at_end || rest == 0) {
        base_buf_reset(&sh->pending);
        return;
    }
    /* count the lines dropped, so the kept statement keeps its line number */
    for (size_t i = 0; i < keep_from; i++) {
        sh->pending_line += sh->pending.data[i] == '\n';
    }
    memmove(sh->pending.data, sh->pending.data + keep_from, rest);
    sh->pending.len = rest;
}


static bool blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (!isspace((unsigned char)s[i])) {
            return false;
        }
    }
    return true;
}


static void feed_line(shell_t *sh, const source_t *src, const char *line, size_t len)
{
    if (sh->pending.len == 0 || blank((const char *)sh->pending.data, sh->pending.len)) {
        base_buf_reset(&sh->pending);
        words_t w;
        split_words(line, len, &w);
        if (w.n == 0) {
            return;
        }
        size_t wl = strcspn(w.w[0], ";");
        char first[256];
        snprintf(first, sizeof(first), "%.*s", (int)wl, w.w[0]);
        if (is_shell_command(first)) {
            const char *semi = memchr(line, ';', len);
            size_t cmd_len = semi != NULL ? (size_t)(semi - line) : len;
            run_command(sh, src, line, cmd_len);
            if (semi != NULL && !sh->quit) {
                feed_line(sh, src, semi + 1, len - cmd_len - 1);
            }
            return;
        }
        sh->pending_line = src != NULL ? src->line : 1;
    }
    base_buf_put(&sh->pending, line, len);
    base_buf_put_u8(&sh->pending, '\n');
    drain_pending(sh, src, false);
}


/* Feeds text line by line; a statement left without its ';' runs at the end. */
static int run_text(shell_t *sh, const char *name, const char *text, size_t len)
{
    source_t src = {name, 0};
    base_buf_t saved = sh->pending;
    unsigned saved_line = sh->pending_line;
    base_buf_init(&sh->pending);
    size_t i = 0;
    while (i < len && !sh->quit) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl != NULL ? (size_t)(nl - (text + i)) : len - i;
        src.line++;
        feed_line(sh, &src, text + i, n > 0 && text[i + n - 1] == '\r' ? n - 1 : n);
        i += n + (nl != NULL);
    }
    if (!sh->quit && sh->pending.len > 0) {
        drain_pending(sh, &src, true);
    }
    base_buf_fini(&sh->pending);
    sh->pending = saved;
    sh->pending_line = saved_line;
    return sh->failed ? 1 : 0;
}


/* ---- start-up --------------------------------------------------------------------------- */

static int parse_int(const char *opt, const char *v, int lo, int hi, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < lo || n > hi) {
        fprintf(stderr, "cosmos-cassandra-emulator shell: %s '%s' is not %d-%d\n", opt, v, lo, hi);
        return BASE_ERROR;
    }
    *out = (int)n;
    return BASE_OK;
}


typedef struct opts_s {
    const char *execute;
    const char *file;
    const char *keyspace;
} opts_t;


/* 0 to go on, or an exit status + 1 (help: 1, bad option: 3). */
static int parse_args(shell_t *sh, opts_t *o, int argc, char **argv)
{
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        char name[64];
        snprintf(name, sizeof(name), "%.*s", (int)(eq ? (size_t)(eq - a) : strlen(a)), a);
        static const char *const with_value[] = {"-u",
                                                 "--username",
                                                 "-p",
                                                 "--password",
                                                 "--cafile",
                                                 "-k",
                                                 "--keyspace",
                                                 "-e",
                                                 "--execute",
                                                 "-f",
                                                 "--file",
                                                 "--protocol-version",
                                                 "--connect-timeout",
                                                 "--request-timeout"};
        bool takes_value = false;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
            takes_value = takes_value || strcmp(name, with_value[k]) == 0;
        }
        const char *v = eq ? eq + 1 : NULL;
        if (takes_value && v == NULL) {
            if (i + 1 >= argc) {
                fprintf(stderr, "cosmos-cassandra-emulator shell: %s needs a value\n", name);
                return 3;
            }
            v = argv[++i];
        }
        int rc = BASE_OK;
        if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(name, "--ssl") == 0 || strcmp(name, "--no-ssl") == 0) {
            sh->target.tls = strcmp(name, "--ssl") == 0;
        } else if (strcmp(name, "-u") == 0 || strcmp(name, "--username") == 0) {
            sh->target.user = v;
        } else if (strcmp(name, "-p") == 0 || strcmp(name, "--password") == 0) {
            sh->target.password = v;
        } else if (strcmp(name, "--cafile") == 0) {
            sh->target.cafile = v;
        } else if (strcmp(name, "-k") == 0 || strcmp(name, "--keyspace") == 0) {
            o->keyspace = v;
        } else if (strcmp(name, "-e") == 0 || strcmp(name, "--execute") == 0) {
            o->execute = v;
        } else if (strcmp(name, "-f") == 0 || strcmp(name, "--file") == 0) {
            o->file = v;
        } else if (strcmp(name, "--protocol-version") == 0) {
            rc = parse_int(name, v, EMU_SHELL_MIN_VERSION, EMU_SHELL_MAX_VERSION,
                           &sh->target.protocol_version);
        } else if (strcmp(name, "--connect-timeout") == 0) {
            rc = parse_int(name, v, 1, 3600, &sh->target.connect_timeout_s);
        } else if (strcmp(name, "--request-timeout") == 0) {
            rc = parse_int(name, v, 1, 86400, &sh->target.request_timeout_s);
        } else if (a[0] != '-' && positional == 0) {
            sh->target.host = a;
            positional++;
        } else if (a[0] != '-' && positional == 1) {
            rc = parse_int("port", a, 1, 65535, &sh->target.port);
            positional++;
        } else {
            fprintf(stderr, "cosmos-cassandra-emulator shell: unknown option '%s'\n", a);
            return 3;
        }
        if (rc != BASE_OK) {
            return 3;
        }
    }
    if (o->execute != NULL && o->file != NULL) {
        fprintf(stderr, "cosmos-cassandra-emulator shell: give -e or -f, not both\n");
        return 3;
    }
    return 0;
}


static void use_keyspace(shell_t *sh, const char *ks)
{
    base_buf_t q;
    base_buf_init(&q);
    bool plain = ks[0] != '\0' && !isdigit((unsigned char)ks[0]);
    for (const char *p = ks; *p; p++) {
        plain = plain && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_');
    }
    base_buf_printf(&q, "USE ");
    if (plain) {
        base_buf_printf(&q, "%s", ks);
    } else {
        base_buf_put_u8(&q, '"');
        for (const char *p = ks; *p; p++) {
            base_buf_put(&q, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
        }
        base_buf_put_u8(&q, '"');
    }
    run_cql(sh, NULL, 0, (const char *)q.data, q.len);
    base_buf_fini(&q);
}


int emu_shell_main(int argc, char **argv)
{
    shell_t sh = {.target = {.host = "127.0.0.1",
                             .port = EMU_DEFAULT_PORT,
                             .tls = true,
                             .user = EMU_DEFAULT_ACCOUNT,
                             .password = EMU_DEFAULT_ACCOUNT_KEY,
                             .connect_timeout_s = 5,
                             .request_timeout_s = 10},
                  .consistency = WIRE_CL_ONE,
                  .paging = true,
                  .page_size = DEFAULT_PAGE_SIZE};
    opts_t o = {0};
    char msg[MSG_MAX];
    base_buf_t text;
    base_buf_init(&text);
    base_buf_init(&sh.pending);
    base_arena_init(&sh.arena, ARENA_BLOCK);
    int rc = parse_args(&sh, &o, argc, argv);
    if (rc != 0) {
        rc--;
        goto done;
    }
    if (o.file != NULL) {
        FILE *f = fopen(o.file, "rb");
        if (f == NULL) {
            fprintf(stderr, "cosmos-cassandra-emulator shell: cannot open %s: %s\n", o.file,
                    strerror(errno));
            rc = 2;
            goto done;
        }
        char chunk[8192];
        size_t n;
        while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
            base_buf_put(&text, chunk, n);
        }
        fclose(f);
    }
    sh.interactive = o.execute == NULL && o.file == NULL && isatty(STDIN_FILENO);
    if (emu_shell_connect(&sh.target, &sh.conn, msg, sizeof(msg)) != BASE_OK) {
        fprintf(stderr, "Connection error: ('Unable to connect to any servers', {'%s:%d': %s})\n",
                sh.target.host, sh.target.port, msg);
        rc = 1;
        goto done;
    }
    if (o.keyspace != NULL) {
        use_keyspace(&sh, o.keyspace);
    }
    if (o.execute != NULL) {
        rc = run_text(&sh, "<stdin>", o.execute, strlen(o.execute));
    } else if (o.file != NULL) {
        rc = run_text(&sh, o.file, text.len ? (const char *)text.data : "", text.len);
    } else if (sh.interactive) {
        rc = read_interactive(&sh);
    } else {
        char chunk[8192];
        size_t n;
        while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
            base_buf_put(&text, chunk, n);
        }
        rc = run_text(&sh, "<stdin>", text.len ? (const char *)text.data : "", text.len);
    }
done:
    emu_shell_close(sh.conn);
    base_arena_fini(&sh.arena);
    base_buf_fini(&sh.pending);
    base_buf_fini(&text);
    return rc;
}


/* The interactive loop (libedit) comes in the next slice: until then a plain reader. */
static int read_interactive(shell_t *sh)
{
    char line[65536];
    source_t src = {"<stdin>", 0};
    while (!sh->quit) {
        if (sh->pending.len > 0) {
            fputs("   ... ", stdout);
        } else if (sh->keyspace[0] != '\0') {
            printf("cqlsh:%s> ", sh->keyspace);
        } else {
            fputs("cqlsh> ", stdout);
        }
        fflush(stdout);
        if (fgets(line, sizeof(line), stdin) == NULL) {
            break;
        }
        src.line++;
        feed_line(sh, &src, line, strcspn(line, "\n"));
    }
    return 0;
}
