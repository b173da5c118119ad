/*
 * shell_commands.c - the shell's own commands, as cqlsh names them and
 * answers them: EXPAND, PAGING, CONSISTENCY, SOURCE, HELP, EXIT/QUIT,
 * CLEAR, and DESCRIBE (the server's when it has one). Layer: emulator.
 *
 * Invariants:
 *  - A command ends at the end of its line (a ';' is optional), so it
 *    never waits for more input.
 *  - Settings change only on a well-formed command; a bad one says so on
 *    stderr and counts as a failed statement.
 */
#include <ctype.h>
#include <errno.h>
#include <strings.h>

#include "emulator/shell.h"

#define MAX_SOURCE_DEPTH 16
#define MSG_MAX          1024

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


static void cmd_expand(emu_shell_t *sh, const words_t *w)
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


static void cmd_paging(emu_shell_t *sh, const words_t *w)
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
    } else if (end != NULL && end != w->w[1] && *end == '\0' && n > 0 && n <= 1000000) {
        sh->paging = true;
        sh->page_size = (int)n;
        printf("Page size: %d\n", sh->page_size);
    } else {
        fprintf(stderr, "Improper PAGING command.\n");
        sh->failed = true;
    }
}


static void cmd_consistency(emu_shell_t *sh, const words_t *w)
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


static void cmd_source(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line,
                       const char *arg, size_t len)
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
        emu_shell_report_error(sh, src, line, "Improper SOURCE command: SOURCE 'file'");
        goto done;
    }
    if (sh->depth >= MAX_SOURCE_DEPTH) {
        emu_shell_report_error(sh, src, line, "SOURCE nested too deeply");
        goto done;
    }
    f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(msg, sizeof(msg), "Could not open '%s': %s", path, strerror(errno));
        emu_shell_report_error(sh, src, line, msg);
        goto done;
    }
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        base_buf_put(&text, chunk, n);
    }
    sh->depth++;
    emu_shell_run_text(sh, path, text.len ? (const char *)text.data : "", text.len);
    sh->depth--;
done:
    if (f != NULL) {
        (void)fclose(f); /* read-only: nothing buffered to lose */
    }
    base_buf_fini(&text);
}


/* A shell command's first word, or false for CQL. */
bool emu_shell_is_command(const char *word)
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


void emu_shell_run_command(emu_shell_t *sh, const emu_shell_source_t *src, const char *s,
                           size_t len)
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
        emu_shell_describe(sh, src, s, len);
    }
    (void)fflush(stdout); /* output of a shell command: nothing to do if it fails */
}
