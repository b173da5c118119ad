/*
 * shell_describe.c - DESCRIBE in the shell. Layer: emulator. The statement
 * goes to the server first: Cassandra 4 answers it (rows of
 * create_statement, printed as cqlsh 6 does). A server without it (this
 * emulator, Cosmos DB, Cassandra 3) refuses it, and the shell builds the
 * answer itself from system_schema, as cqlsh did before 4.0: KEYSPACES,
 * TABLES, TYPES, CLUSTER, SCHEMA, KEYSPACE [ks], TABLE t, TYPE t, or a bare
 * name (a keyspace, else a table).
 *
 * Invariants:
 *  - Only reads: the queries are SELECTs on system_schema with the names
 *    as quoted string literals, so no name can change what runs.
 *  - Every query's charge adds to the statement's, so the RU line covers
 *    the whole DESCRIBE.
 *  - Cells are read by column name, so a server with more or fewer
 *    system_schema columns still gets an answer.
 */
#include <ctype.h>
#include <strings.h>

#include "emulator/shell.h"

#define MSG_MAX   1024
#define NAME_MAX_ 256
#define LINE_WRAP 80

typedef struct describe_s {
    emu_shell_t *sh;
    base_arena_t a;
    base_buf_t out; /* the answer, printed once it is whole */
    double ru;
    bool charged;
    char error[MSG_MAX + 64]; /* the first failure */
} describe_t;

/* A qualified name as the user wrote it, unquoted and case-folded. */
typedef struct qname_s {
    char ks[NAME_MAX_];
    char name[NAME_MAX_];
} qname_t;


/* ---- names ------------------------------------------------------------------------------ */

/* One identifier at s: "Quoted" keeps case (with "" for "), plain folds to
 * lower case. Returns the characters read. */
static size_t read_ident(const char *s, char *out, size_t cap)
{
    size_t i = 0, n = 0;
    if (s[0] == '"') {
        for (i = 1; s[i] != '\0'; i++) {
            if (s[i] == '"' && s[i + 1] != '"') {
                i++;
                break;
            }
            i += s[i] == '"';
            if (n + 1 < cap) {
                out[n++] = s[i];
            }
        }
    } else {
        for (; s[i] != '\0' && (isalnum((unsigned char)s[i]) || s[i] == '_'); i++) {
            if (n + 1 < cap) {
                out[n++] = (char)tolower((unsigned char)s[i]);
            }
        }
    }
    out[n] = '\0';
    return i;
}


/* ks.name or name (ks from the session's keyspace); false when malformed. */
static bool parse_qname(const char *s, const char *current_ks, qname_t *q)
{
    char first[NAME_MAX_];
    size_t n = read_ident(s, first, sizeof(first));
    if (n == 0 || first[0] == '\0') {
        return false;
    }
    if (s[n] == '.') {
        snprintf(q->ks, sizeof(q->ks), "%s", first);
        size_t m = read_ident(s + n + 1, q->name, sizeof(q->name));
        return m > 0 && s[n + 1 + m] == '\0' && q->name[0] != '\0';
    }
    snprintf(q->ks, sizeof(q->ks), "%s", current_ks);
    snprintf(q->name, sizeof(q->name), "%s", first);
    return s[n] == '\0';
}


/* An identifier as CQL needs it written: bare when lower-case, else quoted. */
static void put_ident(base_buf_t *b, const char *name)
{
    bool plain = islower((unsigned char)name[0]);
    for (const char *p = name; *p; p++) {
        plain = plain && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_');
    }
    if (plain) {
        base_buf_printf(b, "%s", name);
        return;
    }
    base_buf_put_u8(b, '"');
    for (const char *p = name; *p; p++) {
        base_buf_put(b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
    }
    base_buf_put_u8(b, '"');
}


static void put_literal(base_buf_t *b, const char *s)
{
    base_buf_put_u8(b, '\'');
    for (const char *p = s; *p; p++) {
        base_buf_put(b, *p == '\'' ? "''" : p, *p == '\'' ? 2 : 1);
    }
    base_buf_put_u8(b, '\'');
}


/* ---- queries ---------------------------------------------------------------------------- */

/* SELECT * FROM system_schema.<table> [WHERE keyspace_name = ks [AND <col> = name]]. */
static bool fetch(describe_t *d, const char *table, const char *ks, const char *name_col,
                  const char *name, bool literal, emu_shell_rows_t *rows)
{
    base_buf_t q;
    base_buf_init(&q);
    base_buf_printf(&q, "SELECT * FROM system_schema.%s", table);
    if (ks != NULL) {
        base_buf_printf(&q, " WHERE keyspace_name = ");
        put_literal(&q, ks);
        if (name_col != NULL) {
            base_buf_printf(&q, " AND %s = ", name_col);
            put_literal(&q, name);
        }
    }
    wire_query_params_t p = {.consistency = d->sh->consistency};
    wire_reply_t r;
    char msg[MSG_MAX];
    bool ok = false;
    memset(rows, 0, sizeof(*rows));
    if (emu_shell_query(d->sh->conn, (const char *)q.data, q.len, &p, &d->a, &r, msg,
                        sizeof(msg)) != BASE_OK) {
        snprintf(d->error, sizeof(d->error), "Connection error: %s", msg);
        emu_shell_close(d->sh->conn);
        d->sh->conn = NULL;
        goto done;
    }
    double ru;
    if (wire_reply_payload_double(&r, "RequestCharge", &ru)) {
        d->ru += ru;
        d->charged = true;
    }
    if (r.opcode == WIRE_OP_ERROR) {
        emu_shell_error_text(r.u.error.code, r.u.error.message, d->error, sizeof(d->error));
        goto done;
    }
    if (r.opcode != WIRE_OP_RESULT || r.u.result.kind != WIRE_RESULT_ROWS) {
        snprintf(d->error, sizeof(d->error), "system_schema.%s: not a rows result", table);
        goto done;
    }
    emu_shell_rows_from_reply(rows, &r, literal, &d->a);
    ok = true;
done:
    base_buf_fini(&q);
    return ok;
}


/* The cell of column name in row i, or "" when the server has no such column. */
static const char *cell(const emu_shell_rows_t *rows, size_t i, const char *name)
{
    for (size_t c = 0; c < rows->n_cols; c++) {
        if (strcmp(rows->names[c], name) == 0) {
            return rows->cells[i * rows->n_cols + c];
        }
    }
    return "";
}


/* ---- CREATE statements ------------------------------------------------------------------ */

static bool describe_keyspace_only(describe_t *d, const char *ks, bool *found)
{
    emu_shell_rows_t rows;
    if (!fetch(d, "keyspaces", ks, NULL, NULL, true, &rows)) {
        return false;
    }
    *found = rows.n_rows > 0;
    if (*found) {
        /* system_schema keeps the strategy's full class name; cqlsh (the Python
         * driver) prints the short one. */
        static const char pkg[] = "org.apache.cassandra.locator.";
        const char *repl = cell(&rows, 0, "replication");
        const char *at = strstr(repl, pkg);
        base_buf_printf(&d->out, "CREATE KEYSPACE ");
        put_ident(&d->out, ks);
        base_buf_printf(&d->out, " WITH replication = %.*s%s  AND durable_writes = %s;\n\n",
                        at ? (int)(at - repl) : (int)strlen(repl), repl,
                        at ? at + sizeof(pkg) - 1 : "", cell(&rows, 0, "durable_writes"));
    }
    return true;
}


/* Text list cells come as ['a', 'b'] in the literal form: split them back. */
static size_t split_list(const char *s, base_arena_t *a, const char ***out)
{
    size_t cap = 8, n = 0;
    const char **items = base_arena_alloc(a, cap * sizeof(*items));
    base_buf_t item;
    base_buf_init(&item);
    for (const char *p = s; *p; p++) {
        if (*p != '\'') {
            continue;
        }
        base_buf_reset(&item);
        for (p++; *p && !(*p == '\'' && p[1] != '\''); p++) {
            p += *p == '\'';
            base_buf_put_u8(&item, (uint8_t)*p);
        }
        if (n == cap) {
            const char **grown = base_arena_alloc(a, 2 * cap * sizeof(*items));
            memcpy(grown, items, cap * sizeof(*items));
            items = grown, cap *= 2;
        }
        items[n++] = base_arena_strndup(a, item.len ? (const char *)item.data : "", item.len);
        if (*p == '\0') {
            break;
        }
    }
    base_buf_fini(&item);
    *out = items;
    return n;
}


static bool describe_types(describe_t *d, const char *ks, const char *only, bool *found)
{
    emu_shell_rows_t rows;
    if (!fetch(d, "types", ks, only ? "type_name" : NULL, only, false, &rows)) {
        return false;
    }
    *found = rows.n_rows > 0;
    for (size_t i = 0; i < rows.n_rows; i++) {
        const char **names, **types;
        size_t n = split_list(cell(&rows, i, "field_names"), &d->a, &names);
        size_t nt = split_list(cell(&rows, i, "field_types"), &d->a, &types);
        base_buf_printf(&d->out, "CREATE TYPE ");
        put_ident(&d->out, ks);
        base_buf_put_u8(&d->out, '.');
        put_ident(&d->out, cell(&rows, i, "type_name"));
        base_buf_printf(&d->out, " (\n");
        for (size_t f = 0; f < n && f < nt; f++) {
            base_buf_printf(&d->out, "    ");
            put_ident(&d->out, names[f]);
            base_buf_printf(&d->out, " %s%s\n", types[f], f + 1 < n ? "," : "");
        }
        base_buf_printf(&d->out, ");\n\n");
    }
    return true;
}


/* Columns in CREATE TABLE order: partition key, clustering (by position),
 * then the rest by name, as cqlsh writes them. */
static int column_rank(const emu_shell_rows_t *cols, size_t i)
{
    const char *kind = cell(cols, i, "kind");
    int pos = (int)strtol(cell(cols, i, "position"), NULL, 10);
    if (strcmp(kind, "partition_key") == 0) {
        return pos;
    }
    if (strcmp(kind, "clustering") == 0) {
        return 10000 + pos;
    }
    return 20000;
}


static const emu_shell_rows_t *sort_cols;

static int compare_cols(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int ra = column_rank(sort_cols, a), rb = column_rank(sort_cols, b);
    if (ra != rb) {
        return ra < rb ? -1 : 1;
    }
    return strcmp(cell(sort_cols, a, "column_name"), cell(sort_cols, b, "column_name"));
}


static void put_table_columns(describe_t *d, const emu_shell_rows_t *cols)
{
    size_t *order = base_arena_alloc(&d->a, (cols->n_rows + 1) * sizeof(size_t));
    size_t n_pk = 0, n_ck = 0;
    for (size_t i = 0; i < cols->n_rows; i++) {
        order[i] = i;
        n_pk += strcmp(cell(cols, i, "kind"), "partition_key") == 0;
        n_ck += strcmp(cell(cols, i, "kind"), "clustering") == 0;
    }
    sort_cols = cols;
    qsort(order, cols->n_rows, sizeof(*order), compare_cols);
    bool inline_pk = n_pk == 1 && n_ck == 0;
    for (size_t k = 0; k < cols->n_rows; k++) {
        size_t i = order[k];
        base_buf_printf(&d->out, "    ");
        put_ident(&d->out, cell(cols, i, "column_name"));
        base_buf_printf(&d->out, " %s%s%s,\n", cell(cols, i, "type"),
                        strcmp(cell(cols, i, "kind"), "static") == 0 ? " static" : "",
                        inline_pk && k == 0 ? " PRIMARY KEY" : "");
    }
    if (inline_pk) {
        d->out.len -= 2; /* the last ",\n" */
        base_buf_printf(&d->out, "\n");
        return;
    }
    base_buf_printf(&d->out, "    PRIMARY KEY (%s", n_pk > 1 ? "(" : "");
    for (size_t k = 0; k < n_pk + n_ck; k++) {
        if (k == n_pk && n_pk > 1) {
            base_buf_printf(&d->out, ")");
        }
        base_buf_printf(&d->out, "%s", k ? ", " : "");
        put_ident(&d->out, cell(cols, order[k], "column_name"));
    }
    base_buf_printf(&d->out, "%s)\n", n_pk > 1 && n_ck == 0 ? ")" : "");
}


static bool describe_table(describe_t *d, const char *ks, const char *table, bool *found)
{
    emu_shell_rows_t t, cols, idx;
    if (!fetch(d, "tables", ks, "table_name", table, true, &t)) {
        return false;
    }
    *found = t.n_rows > 0;
    if (!*found) {
        return true;
    }
    if (!fetch(d, "columns", ks, "table_name", table, false, &cols)) {
        return false;
    }
    base_buf_printf(&d->out, "CREATE TABLE ");
    put_ident(&d->out, ks);
    base_buf_put_u8(&d->out, '.');
    put_ident(&d->out, table);
    base_buf_printf(&d->out, " (\n");
    put_table_columns(d, &cols);
    base_buf_printf(&d->out, ")");
    const char *with = " WITH ";
    size_t n_ck = 0;
    for (size_t i = 0; i < cols.n_rows; i++) {
        n_ck += strcmp(cell(&cols, i, "kind"), "clustering") == 0;
    }
    if (n_ck > 0) {
        base_buf_printf(&d->out, " WITH CLUSTERING ORDER BY (");
        for (int pos = 0, printed = 0; printed < (int)n_ck && pos < (int)cols.n_rows; pos++) {
            for (size_t i = 0; i < cols.n_rows; i++) {
                if (strcmp(cell(&cols, i, "kind"), "clustering") == 0 &&
                    (int)strtol(cell(&cols, i, "position"), NULL, 10) == pos) {
                    base_buf_printf(&d->out, "%s", printed++ ? ", " : "");
                    put_ident(&d->out, cell(&cols, i, "column_name"));
                    const char *order = cell(&cols, i, "clustering_order");
                    base_buf_printf(&d->out, " %s",
                                    strcasecmp(order, "desc") == 0 ? "DESC" : "ASC");
                }
            }
        }
        base_buf_printf(&d->out, ")");
        with = "\n    AND ";
    }
    static const char *const skip[] = {"keyspace_name", "table_name", "id", "flags", "extensions"};
    for (size_t c = 0; c < t.n_cols; c++) {
        bool skipped = false;
        for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]); k++) {
            skipped = skipped || strcmp(t.names[c], skip[k]) == 0;
        }
        if (!skipped && strcmp(t.cells[c], "null") != 0) {
            base_buf_printf(&d->out, "%s%s = %s", with, t.names[c], t.cells[c]);
            with = "\n    AND ";
        }
    }
    base_buf_printf(&d->out, ";\n");
    if (fetch(d, "indexes", ks, "table_name", table, false, &idx)) {
        for (size_t i = 0; i < idx.n_rows; i++) {
            const char *opts = cell(&idx, i, "options");
            const char *target = strstr(opts, "'target': '");
            base_buf_printf(&d->out, "CREATE INDEX ");
            put_ident(&d->out, cell(&idx, i, "index_name"));
            base_buf_printf(&d->out, " ON ");
            put_ident(&d->out, ks);
            base_buf_put_u8(&d->out, '.');
            put_ident(&d->out, table);
            base_buf_printf(&d->out, " (%.*s);\n", target ? (int)strcspn(target + 11, "'") : 0,
                            target ? target + 11 : "");
        }
    } else {
        d->error[0] = '\0'; /* a server without system_schema.indexes: no indexes */
    }
    base_buf_printf(&d->out, "\n");
    return true;
}


/* CREATE KEYSPACE, its types, then its tables (by name). */
static bool describe_keyspace(describe_t *d, const char *ks, bool *found)
{
    emu_shell_rows_t tables;
    bool any;
    if (!describe_keyspace_only(d, ks, found) || !*found) {
        return !d->error[0];
    }
    if (!describe_types(d, ks, NULL, &any) || !fetch(d, "tables", ks, NULL, NULL, false, &tables)) {
        return false;
    }
    for (size_t i = 0; i < tables.n_rows; i++) {
        if (!describe_table(d, ks, cell(&tables, i, "table_name"), &any)) {
            return false;
        }
    }
    return true;
}


static bool is_system_keyspace(const char *ks)
{
    return strncmp(ks, "system", 6) == 0 && (ks[6] == '\0' || ks[6] == '_');
}


/* Names in columns two blanks apart, wrapped as cqlsh does. */
static void put_names(describe_t *d, const emu_shell_rows_t *rows, const char *col,
                      const char *ks_filter)
{
    size_t width = 0;
    for (size_t i = 0; i < rows->n_rows; i++) {
        if (ks_filter != NULL && strcmp(cell(rows, i, "keyspace_name"), ks_filter) != 0) {
            continue;
        }
        base_buf_t name;
        base_buf_init(&name);
        put_ident(&name, cell(rows, i, col));
        if (width > 0 && width + 2 + name.len > LINE_WRAP) {
            base_buf_printf(&d->out, "\n");
            width = 0;
        }
        base_buf_printf(&d->out, "%s%.*s", width ? "  " : "", (int)name.len,
                        (const char *)name.data);
        width += (width ? 2 : 0) + name.len;
        base_buf_fini(&name);
    }
    base_buf_printf(&d->out, "%s\n", width ? "\n" : "");
}


/* DESCRIBE TABLES / TYPES: the session keyspace's, or every keyspace's under a heading. */
static bool describe_list(describe_t *d, const char *table, const char *col)
{
    emu_shell_rows_t ks_rows, rows;
    const char *current = d->sh->keyspace;
    if (!fetch(d, table, NULL, NULL, NULL, false, &rows)) {
        return false;
    }
    if (current[0] != '\0') {
        put_names(d, &rows, col, current);
        return true;
    }
    if (!fetch(d, "keyspaces", NULL, NULL, NULL, false, &ks_rows)) {
        return false;
    }
    for (size_t k = 0; k < ks_rows.n_rows; k++) {
        const char *ks = cell(&ks_rows, k, "keyspace_name");
        base_buf_printf(&d->out, "Keyspace %s\n", ks);
        for (size_t i = strlen(ks) + 9; i > 0; i--) {
            base_buf_put_u8(&d->out, '-');
        }
        base_buf_printf(&d->out, "\n");
        put_names(d, &rows, col, ks);
    }
    return true;
}


static bool describe_cluster(describe_t *d)
{
    wire_query_params_t p = {.consistency = d->sh->consistency};
    static const char q[] = "SELECT cluster_name, partitioner FROM system.local";
    wire_reply_t r;
    char msg[MSG_MAX];
    if (emu_shell_query(d->sh->conn, q, sizeof(q) - 1, &p, &d->a, &r, msg, sizeof(msg)) !=
            BASE_OK ||
        r.opcode != WIRE_OP_RESULT || r.u.result.kind != WIRE_RESULT_ROWS) {
        snprintf(d->error, sizeof(d->error), "cannot read system.local");
        return false;
    }
    emu_shell_rows_t rows;
    emu_shell_rows_from_reply(&rows, &r, false, &d->a);
    base_buf_printf(&d->out, "Cluster: %s\nPartitioner: %s\n\n",
                    rows.n_rows ? cell(&rows, 0, "cluster_name") : "?",
                    rows.n_rows ? cell(&rows, 0, "partitioner") : "?");
    return true;
}


/* DESCRIBE KEYSPACE [ks]: the session's keyspace without a name. */
static bool describe_named_keyspace(describe_t *d, const char *arg)
{
    char ks[NAME_MAX_];
    bool found = false;
    const char *current = d->sh->keyspace;
    if (arg == NULL && current[0] == '\0') {
        snprintf(d->error, sizeof(d->error), "Not in any keyspace.");
        return false;
    }
    if (arg != NULL) {
        read_ident(arg, ks, sizeof(ks));
    }
    const char *name = arg != NULL ? ks : current;
    if (!describe_keyspace(d, name, &found)) {
        return false;
    }
    if (!found) {
        snprintf(d->error, sizeof(d->error), "'%s' not found in keyspaces", name);
    }
    return found;
}


/* The client-side DESCRIBE of words[1..n); false with d->error when it cannot answer. */
static bool describe_locally(describe_t *d, char words[][NAME_MAX_], size_t n)
{
    const char *what = n > 1 ? words[1] : "";
    const char *arg = n > 2 ? words[2] : NULL;
    qname_t q;
    bool found = false;
    const char *current = d->sh->keyspace;
    if (n == 2 && strcasecmp(what, "keyspaces") == 0) {
        emu_shell_rows_t rows;
        if (!fetch(d, "keyspaces", NULL, NULL, NULL, false, &rows)) {
            return false;
        }
        put_names(d, &rows, "keyspace_name", NULL);
        return true;
    }
    if (n == 2 && (strcasecmp(what, "tables") == 0 || strcasecmp(what, "columnfamilies") == 0)) {
        return describe_list(d, "tables", "table_name");
    }
    if (n == 2 && strcasecmp(what, "types") == 0) {
        return describe_list(d, "types", "type_name");
    }
    if (n == 2 && strcasecmp(what, "cluster") == 0) {
        return describe_cluster(d);
    }
    if ((n == 2 && strcasecmp(what, "schema") == 0) ||
        (n == 3 && strcasecmp(what, "full") == 0 && strcasecmp(arg, "schema") == 0)) {
        bool full = n == 3;
        emu_shell_rows_t rows;
        if (!fetch(d, "keyspaces", NULL, NULL, NULL, false, &rows)) {
            return false;
        }
        for (size_t i = 0; i < rows.n_rows; i++) {
            const char *ks = cell(&rows, i, "keyspace_name");
            if ((full || !is_system_keyspace(ks)) && !describe_keyspace(d, ks, &found)) {
                return false;
            }
        }
        return true;
    }
    if (strcasecmp(what, "keyspace") == 0 && n <= 3) {
        return describe_named_keyspace(d, arg);
    }
    bool table = strcasecmp(what, "table") == 0 || strcasecmp(what, "columnfamily") == 0;
    bool type = strcasecmp(what, "type") == 0;
    const char *name = table || type ? arg : what;
    if (name == NULL || n != (table || type ? 3u : 2u) || !parse_qname(name, current, &q)) {
        snprintf(d->error, sizeof(d->error), "Improper DESCRIBE command.");
        return false;
    }
    if (!table && !type && q.ks[0] != '\0' && strchr(name, '.') == NULL) {
        /* a bare name: a keyspace first */
        if (!describe_keyspace(d, q.name, &found)) {
            return false;
        }
        if (found) {
            return true;
        }
    }
    if (q.ks[0] == '\0') {
        snprintf(d->error, sizeof(d->error), "No keyspace specified and no current keyspace");
        return false;
    }
    if (type) {
        if (!describe_types(d, q.ks, q.name, &found)) {
            return false;
        }
    } else if (!describe_table(d, q.ks, q.name, &found)) {
        return false;
    }
    if (!found) {
        snprintf(d->error, sizeof(d->error), "'%s' not found in keyspace '%s'", q.name, q.ks);
    }
    return found;
}


/* Cassandra 4's answer: rows of (keyspace_name, type, name[, create_statement]). */
static void print_server_answer(describe_t *d, const wire_reply_t *r)
{
    emu_shell_rows_t rows;
    emu_shell_rows_from_reply(&rows, r, false, &d->a);
    bool statements = false;
    for (size_t c = 0; c < rows.n_cols; c++) {
        statements = statements || strcmp(rows.names[c], "create_statement") == 0;
    }
    if (!statements) {
        put_names(d, &rows, "name", NULL);
        return;
    }
    for (size_t i = 0; i < rows.n_rows; i++) {
        base_buf_printf(&d->out, "%s\n\n", cell(&rows, i, "create_statement"));
    }
}


void emu_shell_describe(emu_shell_t *sh, const emu_shell_source_t *src, const char *s, size_t len)
{
    describe_t d = {.sh = sh};
    char words[4][NAME_MAX_];
    size_t n = 0;
    base_arena_init(&d.a, 64 * 1024);
    base_buf_init(&d.out);
    unsigned line = src ? src->line : 0;
    for (size_t i = 0; i < len && n < 4;) {
        while (i < len && isspace((unsigned char)s[i])) {
            i++;
        }
        size_t start = i;
        while (i < len && !isspace((unsigned char)s[i])) {
            i++;
        }
        if (i > start) {
            snprintf(words[n++], sizeof(words[0]), "%.*s", (int)(i - start), s + start);
        }
    }
    if (!emu_shell_reconnect(sh, src, line)) {
        goto done;
    }
    wire_query_params_t p = {.consistency = sh->consistency};
    wire_reply_t r;
    char msg[MSG_MAX];
    if (emu_shell_query(sh->conn, s, len, &p, &d.a, &r, msg, sizeof(msg)) != BASE_OK) {
        snprintf(d.error, sizeof(d.error), "Connection error: %s", msg);
        emu_shell_close(sh->conn);
        sh->conn = NULL;
    } else if (r.opcode == WIRE_OP_RESULT && r.u.result.kind == WIRE_RESULT_ROWS) {
        print_server_answer(&d, &r);
    } else if (r.opcode == WIRE_OP_ERROR &&
               (r.u.error.code == WIRE_ERR_SYNTAX_ERROR || r.u.error.code == WIRE_ERR_INVALID)) {
        /* no server-side DESCRIBE (Cassandra 3, Cosmos DB, this emulator): read the schema */
        double ru;
        if (wire_reply_payload_double(&r, "RequestCharge", &ru)) {
            d.ru += ru, d.charged = true;
        }
        describe_locally(&d, words, n);
    } else if (r.opcode == WIRE_OP_ERROR) {
        emu_shell_error_text(r.u.error.code, r.u.error.message, d.error, sizeof(d.error));
    }
    if (d.error[0] != '\0') {
        emu_shell_report_error(sh, src, line, d.error);
    } else {
        printf("\n%.*s", (int)d.out.len, d.out.len ? (const char *)d.out.data : "");
    }
    emu_shell_add_charge(sh, d.charged, d.ru);
done:
    base_buf_fini(&d.out);
    base_arena_fini(&d.a);
}
