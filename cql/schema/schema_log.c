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
 *            u32 the altered table's column id counter before it (ALTER TABLE, else 0)
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
 *    column (a lost ALTER TABLE ADD) fails start-up the same way.
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

struct cql_schema_log_s {
    char *path;
    int fd;
    off_t size; /* end of the last whole record: a failed append is cut back to it */
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

void cql_engine_set_schema_sync(cql_engine_t *e, storage_sync_t sync)
{
    e->schema_sync = sync;
}

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
    return rc;
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
    if (st->kind == CQL_STMT_ALTER_TABLE) {
        cql_table_t *t = NULL;
        base_error_t ignored;
        if (cql__resolve_table(c, &st->u.alter_table.table, &t, &ignored) == BASE_OK) {
            col_id = t->next_col_id;
        }
    }
    int rc = cql__exec_ddl(c, st, err);
    /* Only a DDL that changed the schema announces it; system keyspaces are refused. */
    if (rc != BASE_OK || c->out->kind != WIRE_RESULT_SCHEMA_CHANGE) {
        return rc;
    }
    return log_append(e, storage_id, col_id, ks, c->text, c->text_len, err);
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
    if (r->col_id != NO_COL_COUNTER) {
        cql_table_t *t = altered_table(e, s, r, a);
        if (t != NULL) {
            t->next_col_id = r->col_id;
        }
    }
    cql_result_t out;
    base_error_t qerr;
    base_str_t q = {r->text, r->text_len};
    if (cql_query(e, s, q, NULL, a, &out, &qerr) != BASE_OK) {
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
    return BASE_OK;
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
        fprintf(stderr, "cql: %s: dropping a torn record at offset %zu (%zu bytes)\n",
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
