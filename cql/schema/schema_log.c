/*
 * schema_log.c - the durable schema. Layer: cql. The schema lives here and
 * the data in storage; with a durable database every successful user DDL is
 * appended to a schema log, and cql_engine_restore replays the log through
 * the ordinary DDL path at start-up, so every table comes back under its
 * storage id and storage hands it its data again.
 *
 * File: the magic "CQLSLOG1", then records, all integers big-endian:
 *   u32 payload length | u32 CRC-32 of the payload | payload
 *   payload: u64 the engine's storage id counter before the DDL
 *            u32 the altered table's column id counter before it (ALTER TABLE, else 0);
 *                its top bit (COL_DROP_IDS) marks a record written since ALTER TABLE
 *                DROP deletes the dropped cells and a re-ADD takes the dropped id back:
 *                older records replay with the old rules (a new id, nothing refused)
 *            u16 keyspace length | session keyspace ("" for none) | statement text
 *
 * Invariants:
 *  - a record is written with one write(2) before the DDL's result goes back
 *    (fsync'ed with STORAGE_SYNC_ALWAYS); only DDL that changed the schema is
 *    logged (not failures, not IF NOT EXISTS no-ops, not system tables);
 *  - replay assigns the same ids because DDL is deterministic; the counters
 *    in each record pin them anyway, so a DDL the log missed (a failed
 *    append, a half-applied ALTER) cannot shift later tables onto another
 *    table's data or later columns onto another column's cells;
 *  - a torn last record (the process died mid-write, or the file ends in
 *    zeros after a power loss) is cut off; a bad record followed by more data
 *    is corruption and fails start-up;
 *  - a schema record that cannot be read never costs data: after replay,
 *    a restored storage table that no replayed DDL claimed and that holds
 *    data fails start-up (naming the file and where its records end), before
 *    the log is cut or anything written. An unclaimed empty table is the
 *    trace of a CREATE TABLE whose record never made it: it was never
 *    acknowledged and nothing was written to it, so dropping it is safe.
 *    When a tail was cut, a stored cell of a column id past every replayed
 *    column (a lost ALTER TABLE ADD) fails start-up the same way;
 *  - compaction (below) only leaves out records of objects dropped later, so
 *    the compacted log replays to the same catalog and ids, and it replaces
 *    the file atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cql/schema/schema.h"

#define LOG_MAGIC      "CQLSLOG1"
#define LOG_MAGIC_LEN  8
#define REC_HEADER     8                   /* length + CRC */
#define REC_FIXED      (8 + 4 + 2)         /* counters + keyspace length */
#define REC_MAX        (16u * 1024 * 1024) /* no DDL comes near; larger is corruption */
#define NO_COL_COUNTER 0
#define COL_DROP_IDS   0x80000000u

struct cql_schema_log_s {
    char *path;
    int fd;
    off_t size;      /* end of the last whole record: a failed append is cut back to it */
    off_t compacted; /* size after the last compaction (or at open) */
    size_t compact_min;
};

/* CRC-32 (IEEE 802.3, reflected), as zlib's crc32(): records are small and
 * DDL is rare, so the bitwise form is fast enough. */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void log_free(cql_schema_log_t *log)
{
    if (log == NULL) {
        return;
    }
    if (log->fd >= 0) {
        close(log->fd);
    }
    base_free(log->path);
    base_free(log);
}

void cql__schema_log_close(cql_engine_t *e)
{
    log_free(e->schema_log);
    e->schema_log = NULL;
}

bool cql__schema_replaying(const cql_engine_t *e)
{
    return e->schema_log != NULL && e->schema_log->fd < 0;
}

void cql_engine_set_schema_sync(cql_engine_t *e, storage_sync_t sync)
{
    e->schema_sync = sync;
}

void cql_engine_set_schema_log_compaction(cql_engine_t *e, size_t min_bytes)
{
    e->schema_compact_min = min_bytes;
}

static int compact(cql_engine_t *e, base_error_t *err);

/* ---- appending ---------------------------------------------------------------------- */

static int log_append(cql_engine_t *e, uint64_t storage_id, uint32_t col_id, const char *ks,
                      const char *text, size_t text_len, base_error_t *err)
{
    cql_schema_log_t *log = e->schema_log;
    size_t ks_len = ks ? strlen(ks) : 0;
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put_u32(&b, 0); /* length and CRC, patched below */
    base_buf_put_u32(&b, 0);
    base_buf_put_u64(&b, storage_id);
    base_buf_put_u32(&b, col_id);
    base_buf_put_u16(&b, (uint16_t)ks_len);
    base_buf_put(&b, ks ? ks : "", ks_len);
    base_buf_put(&b, text, text_len);
    size_t payload = b.len - REC_HEADER;
    base_buf_set_u32(&b, 0, (uint32_t)payload);
    base_buf_set_u32(&b, 4, crc32_of(b.data + REC_HEADER, payload));
    int rc = BASE_OK;
    if (write_all(log->fd, b.data, b.len) != 0 ||
        (e->schema_sync == STORAGE_SYNC_ALWAYS && fsync(log->fd) != 0)) {
        int saved = errno;
        /* A partial record in the middle would read as corruption at the next start. */
        if (ftruncate(log->fd, log->size) != 0) {
            saved = errno;
        }
        rc = base_error_set(err, WIRE_ERR_SERVER_ERROR,
                            "the schema change was applied but could not be written to %s: %s "
                            "(it will be lost at restart)",
                            log->path, strerror(saved));
    } else {
        log->size += (off_t)b.len;
    }
    base_buf_fini(&b);
    if (rc == BASE_OK && (size_t)log->size > log->compact_min && log->size > 2 * log->compacted) {
        base_error_t cerr;
        if (compact(e, &cerr) != BASE_OK) { /* the log as it is stays valid */
            base_log(BASE_LOG_WARN, "cql: %s", cerr.msg);
        }
    }
    return rc;
}

static void put_quoted(base_buf_t *b, const char *name)
{
    base_buf_put(b, "\"", 1);
    for (const char *p = name; *p != '\0'; p++) {
        base_buf_put(b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
    }
    base_buf_put(b, "\"", 1);
}


/* ALTER TABLE ... DROP without USING TIMESTAMP drops at the statement's time, which a
 * replay would not know: the log keeps the statement with that time written in. */
static const char *drop_text(cql_ctx_t *c, const cql_stmt_t *st, const cql_table_t *t, size_t *len)
{
    const cql_alter_table_t *d = &st->u.alter_table;
    base_buf_t b;
    base_buf_init(&b);
    base_buf_printf(&b, "ALTER TABLE ");
    put_quoted(&b, t->ks->name);
    base_buf_put(&b, ".", 1);
    put_quoted(&b, t->name);
    base_buf_printf(&b, " DROP (");
    for (size_t i = 0; i < d->n_columns; i++) {
        if (i > 0) {
            base_buf_put(&b, ", ", 2);
        }
        put_quoted(&b, d->columns[i].name);
    }
    base_buf_printf(&b, ") USING TIMESTAMP %lld", (long long)c->now_us);
    char *text = base_arena_strndup(c->a, (const char *)b.data, b.len);
    *len = b.len;
    base_buf_fini(&b);
    return text;
}


int cql__schema_log_ddl(cql_ctx_t *c, const cql_stmt_t *st, base_error_t *err)
{
    cql_engine_t *e = c->e;
    if (e->schema_log == NULL || e->schema_log->fd < 0 || c->text == NULL) {
        return cql__exec_ddl(c, st, err);
    }
    /* Taken before the DDL runs: DROP KEYSPACE may clear the session's keyspace. */
    const char *ks =
        c->s->keyspace ? base_arena_strndup(c->a, c->s->keyspace, strlen(c->s->keyspace)) : NULL;
    uint64_t storage_id = e->next_storage_id;
    uint32_t col_id = NO_COL_COUNTER;
    const char *text = c->text;
    size_t text_len = c->text_len;
    if (st->kind == CQL_STMT_ALTER_TABLE) {
        cql_table_t *t = NULL;
        base_error_t ignored;
        if (cql__resolve_table(c, &st->u.alter_table.table, &t, &ignored) == BASE_OK) {
            col_id = t->next_col_id | COL_DROP_IDS;
            if (st->u.alter_table.kind == CQL_ALTER_DROP && st->u.alter_table.drop_ts == NULL) {
                text = drop_text(c, st, t, &text_len);
            }
        }
    }
    int rc = cql__exec_ddl(c, st, err);
    /* Only a DDL that changed the schema announces it; system keyspaces are refused. */
    if (rc != BASE_OK || c->out->kind != WIRE_RESULT_SCHEMA_CHANGE) {
        return rc;
    }
    return log_append(e, storage_id, col_id, ks, text, text_len, err);
}

/* ---- replay ------------------------------------------------------------------------- */

typedef struct record_s {
    uint64_t storage_id;
    uint32_t col_id;
    const char *ks; /* NUL-terminated copies in the replay arena */
    const char *text;
    size_t text_len;
} record_t;

static int read_file(const char *path, uint8_t **data, size_t *len, base_error_t *err)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return errno == ENOENT ? BASE_OK
                               : base_error_set(err, WIRE_ERR_SERVER_ERROR, "cannot open %s: %s",
                                                path, strerror(errno));
    }
    int rc = BASE_OK;
    base_buf_t b;
    base_buf_init(&b);
    for (;;) {
        base_buf_reserve(&b, 65536);
        ssize_t n = read(fd, b.data + b.len, b.cap - b.len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            rc = base_error_set(err, WIRE_ERR_SERVER_ERROR, "cannot read %s: %s", path,
                                strerror(errno));
            break;
        }
        if (n == 0) {
            break;
        }
        b.len += (size_t)n;
    }
    close(fd);
    if (rc != BASE_OK) {
        base_buf_fini(&b);
        return rc;
    }
    *data = b.data; /* ownership moves to the caller */
    *len = b.len;
    return BASE_OK;
}

/* After a power loss a file may end in zeros its size promised but its data
 * never got: that is a torn tail too, not corruption. */
static bool zeros_to_end(const uint8_t *data, size_t at, size_t len)
{
    for (size_t i = at; i < len; i++) {
        if (data[i] != 0) {
            return false;
        }
    }
    return true;
}

/* Decodes the record at *off. BASE_OK with *off advanced; BASE_AGAIN at the
 * end of the valid records (the end of the file or a torn tail); BASE_ERROR
 * for corruption. */
static int next_record(const char *path, const uint8_t *data, size_t len, size_t *off,
                       base_arena_t *a, record_t *r, base_error_t *err)
{
    size_t at = *off, left = len - at;
    if (left < REC_HEADER || zeros_to_end(data, at, len)) {
        return BASE_AGAIN; /* the end, or a torn tail */
    }
    uint32_t n = base_load_u32(data + at), crc = base_load_u32(data + at + 4);
    if (n < REC_FIXED || n > REC_MAX) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "%s is corrupt at offset %zu (record length %u); restore it from a "
                              "backup, or move the data directory away to start empty",
                              path, at, n);
    }
    if (n > left - REC_HEADER) {
        return BASE_AGAIN; /* torn: the write stopped inside the record */
    }
    const uint8_t *p = data + at + REC_HEADER;
    if (crc32_of(p, n) != crc) {
        if (at + REC_HEADER + n == len) {
            return BASE_AGAIN; /* torn: the last record never reached the disk whole */
        }
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "%s is corrupt at offset %zu (checksum mismatch); restore it from a "
                              "backup, or move the data directory away to start empty",
                              path, at);
    }
    uint16_t ks_len = base_load_u16(p + 12);
    if ((size_t)ks_len > n - REC_FIXED) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "%s is corrupt at offset %zu (keyspace length)", path, at);
    }
    r->storage_id = base_load_u64(p);
    r->col_id = base_load_u32(p + 8);
    r->ks = ks_len ? base_arena_strndup(a, (const char *)p + REC_FIXED, ks_len) : NULL;
    r->text_len = n - REC_FIXED - ks_len;
    r->text = base_arena_strndup(a, (const char *)p + REC_FIXED + ks_len, r->text_len);
    *off = at + REC_HEADER + n;
    return BASE_OK;
}

/* The table an ALTER TABLE record names, to pin its column id counter. */
static cql_table_t *altered_table(cql_engine_t *e, cql_session_t *s, const record_t *r,
                                  base_arena_t *a)
{
    cql_stmt_t *st = NULL;
    base_error_t ignored;
    if (cql__parse(r->text, r->text_len, a, &st, &ignored) != BASE_OK ||
        st->kind != CQL_STMT_ALTER_TABLE) {
        return NULL;
    }
    const cql_qname_t *q = &st->u.alter_table.table;
    const char *ks_name = q->keyspace ? q->keyspace : s->keyspace;
    cql_keyspace_t *ks = ks_name ? cql__keyspace_find(e, ks_name) : NULL;
    return ks ? cql__table_find(ks, q->name) : NULL;
}

static int replay_one(cql_engine_t *e, cql_session_t *s, const record_t *r, size_t index,
                      base_arena_t *a, base_error_t *err)
{
    base_free(s->keyspace);
    s->keyspace = r->ks ? base_strdup(r->ks) : NULL;
    e->next_storage_id = r->storage_id;
    if (r->text_len == 0) {
        return BASE_OK; /* a compacted log's last record: only the storage id counter */
    }
    if (r->col_id != NO_COL_COUNTER) {
        cql_table_t *t = altered_table(e, s, r, a);
        if (t != NULL) {
            t->next_col_id = r->col_id & ~COL_DROP_IDS;
        }
    }
    cql_result_t out;
    base_error_t qerr;
    base_str_t q = {r->text, r->text_len};
    e->replay_legacy_alter = r->col_id != NO_COL_COUNTER && (r->col_id & COL_DROP_IDS) == 0;
    int rc = cql_query(e, s, q, NULL, a, &out, &qerr);
    e->replay_legacy_alter = false;
    if (rc != BASE_OK) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "%s: record %zu (%.200s) failed on replay: %s", e->schema_log->path,
                              index + 1, r->text, qerr.msg);
    }
    return BASE_OK;
}

/* After replay: restored tables holding data that no replayed DDL defined mean
 * a schema record was lost (a damaged tail, a replaced file). Nothing may be
 * cut or dropped then: refuse, naming the file and where its records end. */
static int check_unclaimed(cql_engine_t *e, const char *path, size_t valid_end, size_t len,
                           base_error_t *err)
{
    size_t with_data = 0;
    uint64_t first = 0;
    storage_db_unclaimed(e->db, &with_data, &first);
    if (with_data == 0) {
        return BASE_OK;
    }
    char where[160];
    if (valid_end < len) {
        snprintf(where, sizeof(where),
                 "its records stop at a damaged or torn record at offset %zu of %zu bytes",
                 valid_end, len);
    } else if (len <= LOG_MAGIC_LEN) {
        snprintf(where, sizeof(where), "the file is missing or holds no record");
    } else {
        snprintf(where, sizeof(where), "all its %zu bytes were read", len);
    }
    return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                          "%s does not define %zu stored table(s) that hold data (storage id "
                          "%llu%s); %s. Refusing to start rather than drop their rows: restore "
                          "%s from a backup, or move the data directory away to start empty",
                          path, with_data, (unsigned long long)first,
                          with_data > 1 ? " and others" : "", where, path);
}


/* True if a stored row has a live cell of a column id the table never reached. */
static bool row_past(const storage_row_view_t *v, uint32_t next_col_id)
{
    return v->n_cells > 0 && v->cells[v->n_cells - 1].col >= next_col_id; /* sorted by col */
}


static bool table_past(const cql_table_t *t, int64_t now)
{
    bool past = false;
    storage_part_iter_t *pi = storage_part_iter_new(t->st, false, 0, NULL, 0);
    storage_partition_t *p;
    while (!past && (p = storage_part_iter_next(pi)) != NULL) {
        storage_row_view_t v;
        past = storage_partition_static(p, now, &v) && row_past(&v, t->next_col_id);
        storage_row_iter_t *ri = storage_row_iter_new(p, NULL, NULL, false, now);
        while (!past && storage_row_iter_next(ri, &v)) {
            past = row_past(&v, t->next_col_id);
        }
        storage_row_iter_free(ri);
    }
    storage_part_iter_free(pi);
    return past;
}


/* Only after a torn tail was cut: the lost record may have been an
 * acknowledged ALTER TABLE ADD whose cells are stored, and a later ADD would
 * reuse their column id for another column. Reads every live cell once. */
static int check_column_ids(cql_engine_t *e, const char *path, size_t valid_end, size_t len,
                            base_error_t *err)
{
    int64_t now = base_now_us();
    for (size_t i = 0; i < e->n_keyspaces; i++) {
        const cql_keyspace_t *ks = e->keyspaces[i];
        for (size_t j = 0; j < ks->n_tables; j++) {
            const cql_table_t *t = ks->tables[j];
            if (t->st != NULL && table_past(t, now)) {
                return base_error_set(
                    err, WIRE_ERR_SERVER_ERROR,
                    "%s does not define a column whose cells table %s.%s holds; its records "
                    "stop at a damaged or torn record at offset %zu of %zu bytes. Refusing to "
                    "start rather than lose or misread them: restore %s from a backup, or move "
                    "the data directory away to start empty",
                    path, ks->name, t->name, valid_end, len, path);
            }
        }
    }
    return BASE_OK;
}


/* Opens the log for appending, cutting a torn tail (or writing the magic). */
static int open_for_append(cql_engine_t *e, size_t valid_end, bool fresh, base_error_t *err)
{
    cql_schema_log_t *log = e->schema_log;
    log->fd = open(log->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log->fd < 0) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR, "cannot open %s: %s", log->path,
                              strerror(errno));
    }
    if (ftruncate(log->fd, (off_t)valid_end) != 0 ||
        (fresh && write_all(log->fd, (const uint8_t *)LOG_MAGIC, LOG_MAGIC_LEN) != 0) ||
        fsync(log->fd) != 0) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR, "cannot write %s: %s", log->path,
                              strerror(errno));
    }
    log->size = (off_t)(fresh ? LOG_MAGIC_LEN : valid_end);
    log->compacted = log->size;
    log->compact_min = e->schema_compact_min ? e->schema_compact_min : CQL_SCHEMA_LOG_COMPACT_MIN;
    if ((size_t)log->size > log->compact_min) {
        base_error_t cerr;
        if (compact(e, &cerr) != BASE_OK) {
            base_log(BASE_LOG_WARN, "cql: %s", cerr.msg);
        }
    }
    return BASE_OK;
}

/* ---- compaction ---------------------------------------------------------------------- */

/*
 * A schema log only grows, and CREATE/DROP churn (tests creating a table each)
 * makes it long. Compaction rewrites it with only the records the current catalog
 * still needs: the records of a keyspace, table or index that was dropped later,
 * and the DROP itself, go; everything else is kept as it was, byte for byte, in
 * order, with the counters each record pins, so replaying the new log builds the
 * same catalog with the same storage and column ids. A last record without text
 * pins the storage id counter (ids of dropped tables are never handed out again).
 * Types are always kept while their keyspace lives (a dropped column may have
 * used one). The new log is written to <path>.tmp, fsync'ed, renamed over the
 * log and the directory fsync'ed: a crash at any step leaves the old log or the
 * new one, both whole.
 */

typedef enum { OBJ_KEYSPACE, OBJ_TABLE, OBJ_INDEX } obj_kind_t;

typedef struct obj_s {
    obj_kind_t kind;
    const char *ks; /* the keyspace; for OBJ_KEYSPACE, its name */
    const char *name;
    long parent; /* -1: none */
    bool alive;
} obj_t;

#define SPAN_KEEP (-1L) /* a record kept whatever happened later */
#define SPAN_DROP (-2L) /* an older counter record */

typedef struct span_s {
    size_t start, end;
    long owner; /* the object it belongs to, or SPAN_KEEP, SPAN_DROP */
} span_t;

typedef struct catalog_s {
    obj_t *objs;
    size_t n, cap;
    base_arena_t *a;
    /* A record named something the walk does not know: compaction then keeps the
     * log as it is rather than guess what depends on what. */
    bool unsure;
} catalog_t;

/* o, noting when the object a record names was not found. */
static long known(catalog_t *c, long o)
{
    c->unsure |= o < 0;
    return o;
}

static long obj_find(const catalog_t *c, obj_kind_t kind, const char *ks, const char *name)
{
    for (size_t i = c->n; ks != NULL && name != NULL && i-- > 0;) {
        const obj_t *o = &c->objs[i];
        if (o->alive && o->kind == kind && strcmp(o->ks, ks) == 0 && strcmp(o->name, name) == 0) {
            return (long)i;
        }
    }
    return -1;
}

static long obj_add(catalog_t *c, obj_kind_t kind, const char *ks, const char *name, long parent)
{
    if (ks == NULL || name == NULL) {
        return -1;
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->objs = base_realloc(c->objs, c->cap * sizeof(obj_t));
    }
    c->objs[c->n] = (obj_t){kind, base_arena_strndup(c->a, ks, strlen(ks)),
                            base_arena_strndup(c->a, name, strlen(name)), parent, true};
    return (long)c->n++;
}

static bool obj_alive(const catalog_t *c, long o)
{
    for (; o >= 0; o = c->objs[o].parent) {
        if (!c->objs[o].alive) {
            return false;
        }
    }
    return true;
}

static long obj_kill(catalog_t *c, long o)
{
    if (o >= 0) {
        c->objs[o].alive = false;
    }
    return o;
}

/* The object a record creates, changes or drops (-1: keep it whatever happens). */
static long classify(catalog_t *c, const record_t *r)
{
    cql_stmt_t *st = NULL;
    base_error_t ignored;
    if (cql__parse(r->text, r->text_len, c->a, &st, &ignored) != BASE_OK) {
        c->unsure = true;
        return -1;
    }
    const cql_qname_t *q = NULL;
    switch (st->kind) {
    case CQL_STMT_CREATE_KEYSPACE:
        return obj_add(c, OBJ_KEYSPACE, st->u.keyspace.name, st->u.keyspace.name, -1);
    case CQL_STMT_ALTER_KEYSPACE:
        return known(c, obj_find(c, OBJ_KEYSPACE, st->u.keyspace.name, st->u.keyspace.name));
    case CQL_STMT_DROP_KEYSPACE:
        return obj_kill(
            c, known(c, obj_find(c, OBJ_KEYSPACE, st->u.drop.name.name, st->u.drop.name.name)));
    case CQL_STMT_CREATE_TABLE:
        q = &st->u.create_table.table;
        break;
    case CQL_STMT_ALTER_TABLE:
        q = &st->u.alter_table.table;
        break;
    case CQL_STMT_DROP_TABLE:
    case CQL_STMT_DROP_INDEX:
    case CQL_STMT_DROP_TYPE:
        q = &st->u.drop.name;
        break;
    case CQL_STMT_CREATE_INDEX:
        q = &st->u.create_index.table;
        break;
    case CQL_STMT_CREATE_TYPE:
        q = &st->u.create_type.type;
        break;
    default:
        c->unsure = true; /* not a statement the log should hold */
        return -1;
    }
    const char *ks = q->keyspace ? q->keyspace : r->ks;
    long ks_obj = known(c, obj_find(c, OBJ_KEYSPACE, ks, ks));
    long table = obj_find(c, OBJ_TABLE, ks, q->name);
    switch (st->kind) {
    case CQL_STMT_CREATE_TABLE:
        return obj_add(c, OBJ_TABLE, ks, q->name, ks_obj);
    case CQL_STMT_ALTER_TABLE:
        return known(c, table);
    case CQL_STMT_DROP_TABLE:
        return obj_kill(c, known(c, table));
    case CQL_STMT_CREATE_INDEX: {
        const cql_create_index_t *d = &st->u.create_index;
        const char *name =
            d->name ? d->name : base_arena_sprintf(c->a, "%s_%s_idx", q->name, d->column);
        return known(c, table) < 0 ? -1 : obj_add(c, OBJ_INDEX, ks, name, table);
    }
    case CQL_STMT_DROP_INDEX:
        return obj_kill(c, known(c, obj_find(c, OBJ_INDEX, ks, q->name)));
    default: /* types: kept while their keyspace lives */
        return ks_obj;
    }
}

static int fsync_parent_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    size_t n = slash == NULL ? 1 : (slash == path ? 1 : (size_t)(slash - path));
    if (n >= sizeof(dir)) {
        return -1;
    }
    memcpy(dir, slash == NULL ? "." : path, n);
    dir[n] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The compacted log: its magic, the records of objects still alive (and those kept
 * whatever happens), then one counter record pinning the storage id counter. Returns
 * the number of records kept. */
static size_t live_image(const cql_engine_t *e, const catalog_t *cat, const uint8_t *data,
                         const span_t *spans, size_t n_spans, base_buf_t *out)
{
    size_t kept = 0;
    base_buf_put(out, LOG_MAGIC, LOG_MAGIC_LEN);
    for (size_t i = 0; i < n_spans; i++) {
        long o = spans[i].owner;
        if (o == SPAN_KEEP || (o >= 0 && obj_alive(cat, o))) {
            base_buf_put(out, data + spans[i].start, spans[i].end - spans[i].start);
            kept++;
        }
    }
    /* the counter record: no keyspace, no text */
    size_t at = out->len;
    base_buf_put_u32(out, REC_FIXED);
    base_buf_put_u32(out, 0);
    base_buf_put_u64(out, e->next_storage_id);
    base_buf_put_u32(out, NO_COL_COUNTER);
    base_buf_put_u16(out, 0);
    base_buf_set_u32(out, at + 4, crc32_of(out->data + at + REC_HEADER, REC_FIXED));
    return kept;
}


static int compact(cql_engine_t *e, base_error_t *err)
{
    cql_schema_log_t *log = e->schema_log;
    uint8_t *data = NULL;
    size_t len = 0;
    int fd = -1;
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp", log->path);
    base_arena_t a;
    base_arena_init(&a, 4096);
    catalog_t cat = {.a = &a};
    span_t *spans = NULL;
    size_t n_spans = 0, cap_spans = 0;
    base_buf_t out;
    base_buf_init(&out);
    int rc = read_file(log->path, &data, &len, err);
    if (rc != BASE_OK) {
        goto done;
    }
    len = len > (size_t)log->size ? (size_t)log->size : len; /* whole records only */
    size_t off = LOG_MAGIC_LEN, start = off, kept = 0;
    record_t r;
    while (len >= LOG_MAGIC_LEN &&
           (rc = next_record(log->path, data, len, &off, &a, &r, err)) == BASE_OK) {
        if (n_spans == cap_spans) {
            cap_spans = cap_spans ? cap_spans * 2 : 64;
            spans = base_realloc(spans, cap_spans * sizeof(span_t));
        }
        /* an older counter record is replaced by the new one */
        spans[n_spans++] = (span_t){start, off, r.text_len == 0 ? SPAN_DROP : classify(&cat, &r)};
        start = off;
    }
    if (rc == BASE_ERROR) {
        goto done;
    }
    rc = BASE_OK;
    if (cat.unsure) {
        log->compacted = log->size; /* not again until it doubles */
        goto done;
    }
    kept = live_image(e, &cat, data, spans, n_spans, &out);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write_all(fd, out.data, out.len) != 0 || fsync(fd) != 0) {
        rc = base_error_set(err, WIRE_ERR_SERVER_ERROR, "cannot write %s: %s (%s is kept as is)",
                            tmp, strerror(errno), log->path);
        unlink(tmp);
        goto done;
    }
    close(fd);
    fd = open(tmp, O_WRONLY | O_APPEND | O_CLOEXEC); /* the new log's append handle */
    if (fd < 0 || rename(tmp, log->path) != 0) {
        rc = base_error_set(err, WIRE_ERR_SERVER_ERROR, "cannot replace %s: %s", log->path,
                            strerror(errno));
        unlink(tmp);
        goto done;
    }
    /* The rename is done: the new file is the log, whatever the directory fsync says
     * (without it a power loss may bring back the old one, which is whole too). */
    (void)fsync_parent_dir(log->path);
    close(log->fd);
    log->fd = fd;
    fd = -1;
    base_log(BASE_LOG_INFO, "cql: %s: compacted from %lld to %zu bytes (%zu of %zu records kept)",
             log->path, (long long)log->size, out.len, kept, n_spans);
    log->size = (off_t)out.len;
    log->compacted = log->size;
    rc = BASE_OK;

done:
    if (fd >= 0) {
        close(fd);
    }
    base_buf_fini(&out);
    base_free(spans);
    base_free(cat.objs);
    base_arena_fini(&a);
    base_free(data);
    return rc;
}

int cql_engine_restore(cql_engine_t *e, const char *schema_log_path, base_error_t *err)
{
    if (e->schema_log != NULL) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR, "the schema log is already open");
    }
    uint8_t *data = NULL;
    size_t len = 0, off = LOG_MAGIC_LEN, index = 0;
    cql_session_t *s = NULL;
    base_arena_t a;
    base_arena_init(&a, 4096);
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp", schema_log_path);
    unlink(tmp); /* a compaction that died before its rename: the log is whole */
    int rc = read_file(schema_log_path, &data, &len, err);
    if (rc != BASE_OK) {
        goto done;
    }
    /* A file shorter than the magic died while being created: start it again. */
    bool fresh = len < LOG_MAGIC_LEN && (len == 0 || memcmp(data, LOG_MAGIC, len) == 0);
    if (!fresh && (len < LOG_MAGIC_LEN || memcmp(data, LOG_MAGIC, LOG_MAGIC_LEN) != 0)) {
        rc = base_error_set(err, WIRE_ERR_SERVER_ERROR, "%s is not a schema log (bad magic)",
                            schema_log_path);
        goto done;
    }
    e->schema_log = base_calloc(1, sizeof(*e->schema_log));
    e->schema_log->path = base_strdup(schema_log_path);
    e->schema_log->fd = -1; /* nothing is appended while replaying */
    s = cql_session_new(e);
    record_t r;
    while (!fresh && (rc = next_record(schema_log_path, data, len, &off, &a, &r, err)) == BASE_OK) {
        rc = replay_one(e, s, &r, index++, &a, err);
        if (rc != BASE_OK) {
            goto done;
        }
        base_arena_reset(&a);
    }
    if (rc == BASE_ERROR) {
        goto done;
    }
    rc = check_unclaimed(e, schema_log_path, fresh ? len : off, len, err);
    if (rc == BASE_OK && !fresh && off < len) {
        rc = check_column_ids(e, schema_log_path, off, len, err);
    }
    if (rc != BASE_OK) {
        goto done;
    }
    if (!fresh && off < len) {
        base_log(BASE_LOG_WARN, "cql: %s: dropping a torn record at offset %zu (%zu bytes)",
                 schema_log_path, off, len - off);
    }
    rc = open_for_append(e, fresh ? 0 : off, fresh, err);

done:
    if (rc != BASE_OK) {
        cql__schema_log_close(e);
    }
    cql_session_free(s);
    base_arena_fini(&a);
    base_free(data);
    return rc;
}
