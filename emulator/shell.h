/*
 * shell.h - `cosmos-cassandra-emulator shell`: an interactive CQL shell in the
 * manner of cqlsh (which Debian and npm do not package), for this emulator or
 * any Cassandra endpoint, that shows each statement's request charge. Layer:
 * emulator; it talks to the server only through the protocol (wire/) and
 * formats values with cql_value_format, so it knows nothing of the server's
 * internals.
 *
 *   shell.c         options, the statement loop, running CQL and printing results
 *   shell_commands.c EXPAND, PAGING, CONSISTENCY, SOURCE, HELP, EXIT, DESCRIBE
 *   shell_edit.c    the terminal: libedit line editing and history
 *   shell_client.c  one blocking connection: TCP, TLS, STARTUP, SASL PLAIN,
 *                   protocol negotiation (v4, then v3), QUERY round trips
 *   shell_table.c   result sets as cqlsh prints them (aligned or EXPAND)
 *
 * Ownership: a connection owns its socket, its TLS state and the body of the
 * last response; a reply from emu_shell_query borrows from that body and dies
 * with the next query on the connection (or its close).
 */
#ifndef EMULATOR_SHELL_H
#define EMULATOR_SHELL_H

#define EMU_SHELL_MIN_VERSION 3
#define EMU_SHELL_MAX_VERSION 4

#include <stdio.h>

#include "base/base.h"
#include "wire/wire.h"

/* `shell [host] [port] [options]`; argv[0] is "shell". Returns the exit status. */
int emu_shell_main(int argc, char **argv);

/* ---- the connection (shell_client.c) ------------------------------------------------ */

typedef struct emu_shell_conn_s emu_shell_conn_t;

typedef struct emu_shell_target_s {
    const char *host;
    int port;
    bool tls;
    const char *cafile; /* verify the server against it; NULL: encrypt without verifying */
    const char *user;   /* SASL PLAIN when the server asks for it */
    const char *password;
    int protocol_version; /* the first to try, 3 or 4; 0: 4 */
    int connect_timeout_s;
    int request_timeout_s;
} emu_shell_target_t;

/*
 * Connects, starts TLS, sends STARTUP at protocol v4 (v3 when the server
 * refuses v4, as drivers step down) and authenticates. BASE_OK with *out; or
 * BASE_ERROR with msg saying why, in cqlsh's words for a server's ERROR
 * (e.g. `AuthenticationFailed: Error from server: code=0100 [Bad
 * credentials] message="..."`).
 */
int emu_shell_connect(const emu_shell_target_t *t, emu_shell_conn_t **out, char *msg, size_t cap);
void emu_shell_close(emu_shell_conn_t *c); /* accepts NULL */
int emu_shell_protocol_version(const emu_shell_conn_t *c);

/*
 * One QUERY round trip. BASE_OK when the server answered (an ERROR reply
 * too: reply->opcode says which); BASE_ERROR when the connection failed or
 * the answer was not a valid response (msg says why; the connection is then
 * unusable). Arrays of the reply come from a; its slices from the
 * connection's last body (see Ownership).
 */
int emu_shell_query(emu_shell_conn_t *c, const char *q, size_t len, const wire_query_params_t *p,
                    base_arena_t *a, wire_reply_t *reply, char *msg, size_t cap);

/* cqlsh's (the Python driver's) text of a server error:
 * `InvalidRequest: Error from server: code=2200 [Invalid query] message="..."`. */
void emu_shell_error_text(int code, base_str_t message, char *out, size_t cap);

/* ---- result sets (shell_table.c) ------------------------------------------------------- */

/* Formatted cells of one result, row-major; strings from an arena. */
typedef struct emu_shell_rows_s {
    size_t n_cols;
    const char **names;
    size_t n_rows;
    const char **cells; /* n_rows * n_cols */
} emu_shell_rows_t;

/* The cells of a ROWS reply as text (cql_value_format: the display form, or
 * CQL literals when literal), in a.
 * Columns without metadata (skip-metadata results) are named by their index. */
void emu_shell_rows_from_reply(emu_shell_rows_t *out, const wire_reply_t *r, bool literal,
                               base_arena_t *a);

/* Prints rows as cqlsh does: values right-aligned under left-aligned names
 * and a dashed line (header false: rows only, for the pages after the
 * first); or with expand each row as "@ Row N", one "name | value" line per
 * column and a blank line. first_row numbers expanded rows across pages. The
 * blank line after a table and the "(N rows)" line are the caller's. */
void emu_shell_print_rows(FILE *f, const emu_shell_rows_t *rows, bool expand, bool header,
                          size_t first_row);

/* Display width of UTF-8 text: its code points (no double-width table). */
size_t emu_shell_text_width(const char *s);

/* ---- the session (shell.c) ---------------------------------------------------------- */

/* What one shell run keeps between statements. */
typedef struct emu_shell_s {
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
    struct emu_shell_edit_s *edit; /* the terminal, while interactive */
} emu_shell_t;

typedef struct emu_shell_source_s {
    const char *name; /* "<stdin>" for -e and pipes */
    unsigned line;
} emu_shell_source_t;

/* Runs one CQL statement: every page, its rows, errors, warnings, charge.
 * src and line say where it came from, for the FILE:LINE: of errors. */
void emu_shell_run_cql(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line, const char *q,
                       size_t len);
/* Connects again after a failed connection (in the keyspace in use); false
 * with the error reported when the server cannot be reached. */
bool emu_shell_reconnect(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line);
/* Feeds text line by line (name for error lines); 1 if anything failed. */
int emu_shell_run_text(emu_shell_t *sh, const char *name, const char *text, size_t len);
/* Prints "Request charge: ..." and adds ru to the session total, when charged. */
void emu_shell_add_charge(emu_shell_t *sh, bool charged, double ru);
/* Prints an error as cqlsh does and marks the session failed. */
void emu_shell_report_error(emu_shell_t *sh, const emu_shell_source_t *src, unsigned line,
                            const char *text);

/* ---- shell commands (shell_commands.c) ---------------------------------------------- */

/* Whether a line whose first word is word is a shell command (ends at its line). */
bool emu_shell_is_command(const char *word);
/* Runs the command in s (without its ';'). */
void emu_shell_run_command(emu_shell_t *sh, const emu_shell_source_t *src, const char *s,
                           size_t len);

/* DESCRIBE ... (s without its ';'): the server's answer, else one built
 * from system_schema (shell_describe.c). */
void emu_shell_describe(emu_shell_t *sh, const emu_shell_source_t *src, const char *s, size_t len);

/* ---- terminal input (shell_edit.c) -------------------------------------------------- */

typedef struct emu_shell_edit_s emu_shell_edit_t;

/* libedit with history in history_path (NULL: none kept); catches SIGINT. */
emu_shell_edit_t *emu_shell_edit_new(const char *prog, const char *history_path);
/* A line without its newline, valid until the next read; NULL at the end of
 * input (Ctrl-D). Ctrl-C returns "" with *cancelled set. */
const char *emu_shell_edit_read(emu_shell_edit_t *e, const char *prompt, size_t *len,
                                bool *cancelled);
/* Adds an entry to the history and saves the file. */
void emu_shell_edit_remember(emu_shell_edit_t *e, const char *entry);
void emu_shell_edit_free(emu_shell_edit_t *e); /* accepts NULL */

#endif
