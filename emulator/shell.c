/*
 * shell.c - `cosmos-cassandra-emulator shell`: a CQL shell in the manner of
 * cqlsh, with each statement's request charge. Layer: emulator. Options,
 * the statement loop (interactive with libedit, or -e / -f / a pipe), the
 * shell commands (EXPAND, PAGING, CONSISTENCY, SOURCE, HELP, EXIT) and the
 * result printing; the connection is shell_client.c, tables emu_shell_table.c.
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
#include <signal.h>
#include <strings.h>
#include <unistd.h>

#include "cql/cql.h"
#include "emulator/config.h"
#include "emulator/replay.h"

#ifndef EMU_VERSION
#define EMU_VERSION "0.0.0"
#endif

#define DEFAULT_PAGE_SIZE 100
#define ARENA_BLOCK       (64 * 1024)
#define MSG_MAX           1024


static void feed_line(emu_shell_t *sh, const emu_shell_source_t *src, const char *line, size_t len);
static int read_interactive(emu_shell_t *sh);
static void banner(emu_shell_t *sh);


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

void emu_shell_report_error(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line,
                            const char *text)
{
    sh->failed = true;
    if (sh->interactive || src == NULL) {
        fprintf(stderr, "%s\n", text);
    } else {
        fprintf(stderr, "%s:%u:%s\n", src->name, line, text);
    }
}


void emu_shell_add_charge(emu_shell_t *sh, bool charged, double ru)
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


/* cqlsh's pause between pages; false when the user asked to stop ('q', Ctrl-C). */
static bool more_prompt(emu_shell_t *sh)
{
    size_t len;
    bool cancelled;
    const char *line = emu_shell_edit_read(sh->edit, "---MORE---", &len, &cancelled);
    return line != NULL && !cancelled && (len == 0 || (line[0] != 'q' && line[0] != 'Q'));
}


bool emu_shell_reconnect(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line)
{
    char msg[MSG_MAX];
    char text[MSG_MAX + 64];
    if (sh->conn != NULL) {
        return true;
    }
    if (emu_shell_connect(&sh->target, &sh->conn, msg, sizeof(msg)) != BASE_OK) {
        snprintf(text, sizeof(text), "Connection error: %s", msg);
        emu_shell_report_error(sh, src, line, text);
        return false;
    }
    if (sh->keyspace[0] != '\0') { /* back in the keyspace the prompt shows */
        base_buf_t q;
        wire_reply_t r;
        wire_query_params_t p = {.consistency = sh->consistency};
        base_buf_init(&q);
        base_buf_printf(&q, "USE \"");
        for (const char *c = sh->keyspace; *c; c++) {
            base_buf_put(&q, *c == '"' ? "\"\"" : c, *c == '"' ? 2 : 1);
        }
        base_buf_put_u8(&q, '"');
        base_arena_reset(&sh->arena);
        if (emu_shell_query(sh->conn, (const char *)q.data, q.len, &p, &sh->arena, &r, msg,
                            sizeof(msg)) != BASE_OK ||
            r.opcode != WIRE_OP_RESULT) {
            sh->keyspace[0] = '\0';
        }
        base_buf_fini(&q);
    }
    return sh->conn != NULL;
}


/* ---- CQL -------------------------------------------------------------------------------- */

/* Prints one page of rows (the first even when empty, for its header);
 * returns its row count. */
static size_t print_page(emu_shell_t *sh, const wire_reply_t *r, int page, size_t rows_before)
{
    emu_shell_rows_t rows;
    if (page > 0 && r->u.result.n_rows == 0) {
        return 0;
    }
    emu_shell_rows_from_reply(&rows, r, false, &sh->arena);
    if (page == 0) {
        fputc('\n', stdout);
    }
    emu_shell_print_rows(stdout, &rows, sh->expand, page == 0 || sh->interactive, rows_before);
    if (sh->interactive && !sh->expand) {
        fputc('\n', stdout); /* each page is its own table on a terminal */
    }
    return rows.n_rows;
}


/* Runs one CQL statement and prints its result pages, errors and charge. */
void emu_shell_run_cql(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line, const char *q,
                       size_t len)
{
    char msg[MSG_MAX];
    base_buf_t paging_state;
    base_buf_init(&paging_state);
    bool charged = false, rows_result = false, has_more = false;
    double ru = 0;
    size_t n_rows = 0;
    int page = 0;
    if (!emu_shell_reconnect(sh, src, line)) {
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
            emu_shell_report_error(sh, src, line, text);
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
            emu_shell_report_error(sh, src, line, msg);
            goto done;
        }
        if (r.opcode != WIRE_OP_RESULT) {
            snprintf(msg, sizeof(msg), "unexpected %s response", wire_opcode_name(r.opcode));
            emu_shell_report_error(sh, src, line, msg);
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
        n_rows += print_page(sh, &r, page, n_rows);
        if (has_more) {
            base_buf_reset(&paging_state);
            base_buf_put(&paging_state, m->paging_state.ptr, (size_t)m->paging_state.len);
            if (sh->interactive && sh->edit != NULL && sh->paging && !more_prompt(sh)) {
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
    emu_shell_add_charge(sh, charged, ru);
    (void)fflush(stdout); /* a prompt: a closed terminal shows up at the next read */
    base_buf_fini(&paging_state);
}


/* ---- the accumulator -------------------------------------------------------------------- */

/* The first word of s (up to a blank or ';') in out; false for a blank s. */
static bool first_word(const char *s, size_t len, char *out, size_t cap)
{
    size_t at = 0, n = 0;
    while (at < len && isspace((unsigned char)s[at])) {
        at++;
    }
    while (at + n < len && !isspace((unsigned char)s[at + n]) && s[at + n] != ';') {
        n++;
    }
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : 0), s + at);
    return at < len;
}


/* Runs every statement ';' completed in sh->pending; keeps the rest. */
static void drain_pending(emu_shell_t *sh, const emu_shell_source_t *src, bool at_end)
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
        char first[64];
        if (first_word(st.text, st.len, first, sizeof(first)) && emu_shell_is_command(first)) {
            emu_shell_run_command(sh, src, st.text, st.len); /* "...; EXPAND ON;" */
        } else {
            emu_shell_run_cql(sh, src, sh->pending_line + st.line - 1, st.text, st.len);
        }
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


static void feed_line(emu_shell_t *sh, const emu_shell_source_t *src, const char *line, size_t len)
{
    if (sh->pending.len == 0 || blank((const char *)sh->pending.data, sh->pending.len)) {
        base_buf_reset(&sh->pending);
        char first[64];
        if (!first_word(line, len, first, sizeof(first))) {
            return;
        }
        if (emu_shell_is_command(first)) {
            const char *semi = memchr(line, ';', len);
            size_t cmd_len = semi != NULL ? (size_t)(semi - line) : len;
            emu_shell_run_command(sh, src, line, cmd_len);
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
int emu_shell_run_text(emu_shell_t *sh, const char *name, const char *text, size_t len)
{
    emu_shell_source_t src = {name, 0};
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
static int parse_args(emu_shell_t *sh, opts_t *o, int argc, char **argv)
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


static void use_keyspace(emu_shell_t *sh, const char *ks)
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
    emu_shell_run_cql(sh, NULL, 0, (const char *)q.data, q.len);
    base_buf_fini(&q);
}


int emu_shell_main(int argc, char **argv)
{
    emu_shell_t sh = {.target = {.host = "127.0.0.1",
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
    (void)signal(SIGPIPE, SIG_IGN); /* a server gone mid-write is an error, not the end */
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
        (void)fclose(f); /* read-only: nothing buffered to lose */
    }
    sh.interactive = o.execute == NULL && o.file == NULL && isatty(STDIN_FILENO);
    if (emu_shell_connect(&sh.target, &sh.conn, msg, sizeof(msg)) != BASE_OK) {
        fprintf(stderr, "Connection error: ('Unable to connect to any servers', {'%s:%d': %s})\n",
                sh.target.host, sh.target.port, msg);
        rc = 1;
        goto done;
    }
    if (sh.interactive) {
        banner(&sh);
    }
    if (o.keyspace != NULL) {
        use_keyspace(&sh, o.keyspace);
    }
    if (o.execute != NULL) {
        rc = emu_shell_run_text(&sh, "<stdin>", o.execute, strlen(o.execute));
    } else if (o.file != NULL) {
        rc = emu_shell_run_text(&sh, o.file, text.len ? (const char *)text.data : "", text.len);
    } else if (sh.interactive) {
        rc = read_interactive(&sh);
    } else {
        char chunk[8192];
        size_t n;
        while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
            base_buf_put(&text, chunk, n);
        }
        rc = emu_shell_run_text(&sh, "<stdin>", text.len ? (const char *)text.data : "", text.len);
    }
done:
    emu_shell_close(sh.conn);
    base_arena_fini(&sh.arena);
    base_buf_fini(&sh.pending);
    base_buf_fini(&text);
    return rc;
}


/* cqlsh's greeting, from system.local (any Cassandra has it). */
static void banner(emu_shell_t *sh)
{
    static const char q[] = "SELECT cluster_name, release_version, cql_version FROM system.local";
    char msg[MSG_MAX];
    wire_reply_t r;
    wire_query_params_t p = {.consistency = WIRE_CL_ONE};
    const char *v[3] = {"?", "?", "?"};
    base_arena_reset(&sh->arena);
    if (emu_shell_query(sh->conn, q, sizeof(q) - 1, &p, &sh->arena, &r, msg, sizeof(msg)) ==
            BASE_OK &&
        r.opcode == WIRE_OP_RESULT && r.u.result.kind == WIRE_RESULT_ROWS &&
        r.u.result.n_rows == 1 && r.u.result.meta.n_cols == 3) {
        emu_shell_rows_t rows;
        emu_shell_rows_from_reply(&rows, &r, false, &sh->arena);
        for (int i = 0; i < 3; i++) {
            v[i] = rows.cells[i];
        }
    }
    printf(
        "Connected to %s at %s:%d\n[cosmos-cassandra-emulator shell %s | Cassandra %s | CQL spec "
        "%s | Native protocol v%d]\nUse HELP for help.\n",
        v[0], sh->target.host, sh->target.port, EMU_VERSION, v[1], v[2],
        emu_shell_protocol_version(sh->conn));
}


/* The prompt: cqlsh's, with the keyspace in use; "   ... " inside a statement. */
static void prompt_of(const emu_shell_t *sh, char *out, size_t cap)
{
    if (sh->pending.len > 0) {
        snprintf(out, cap, "   ... ");
    } else if (sh->keyspace[0] != '\0') {
        snprintf(out, cap, "cqlsh:%s> ", sh->keyspace);
    } else {
        snprintf(out, cap, "cqlsh> ");
    }
}


/* Reads the terminal through libedit. A history entry is what was typed for
 * one statement or command, its lines joined by blanks, so arrow-up gives a
 * multi-line statement back whole. */
static int read_interactive(emu_shell_t *sh)
{
    char prompt[300];
    char path[4096];
    const char *home = getenv("HOME");
    base_buf_t entry;
    base_buf_init(&entry);
    snprintf(path, sizeof(path), "%s/.cosmos_cqlsh_history", home != NULL ? home : ".");
    sh->edit = emu_shell_edit_new("cosmos-cqlsh", home != NULL ? path : NULL);
    emu_shell_source_t src = {"<stdin>", 0};
    while (!sh->quit) {
        size_t len;
        bool cancelled;
        prompt_of(sh, prompt, sizeof(prompt));
        const char *line = emu_shell_edit_read(sh->edit, prompt, &len, &cancelled);
        if (line == NULL) {
            fputc('\n', stdout);
            break;
        }
        if (cancelled) {
            base_buf_reset(&sh->pending);
            base_buf_reset(&entry);
            continue;
        }
        src.line++;
        if (len > 0) {
            if (entry.len > 0) {
                base_buf_put_u8(&entry, ' ');
            }
            base_buf_put(&entry, line, len);
        }
        /* feed a copy: the line dies with the next read (a ---MORE--- prompt) */
        char *copy = base_strndup(line, len);
        feed_line(sh, &src, copy, len);
        base_free(copy);
        if (sh->pending.len == 0 && entry.len > 0) {
            base_buf_put_u8(&entry, 0);
            emu_shell_edit_remember(sh->edit, (const char *)entry.data);
            base_buf_reset(&entry);
        }
    }
    emu_shell_edit_free(sh->edit);
    sh->edit = NULL;
    base_buf_fini(&entry);
    return 0;
}
