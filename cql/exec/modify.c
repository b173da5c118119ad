/*
 * modify.c - INSERT, UPDATE and DELETE: evaluate the values, build storage
 * mutations (row marker, cells, collection elements, deletions) at one
 * write timestamp, and apply them, or hand them to the batch being checked
 * (batch.c). The SET clause of UPDATE is assign.c; IF conditions are lwt.c.
 *
 * Collections are multi-cell: list elements are keyed by an id that sorts
 * in insertion order (appends after, prepends before every existing id),
 * set elements by their value, map entries by their key.
 */
#include "cql/exec/exec.h"

#define MAX_TTL 630720000 /* 20 years, Cassandra's cap */


void cql__write_cell(cql_write_t *w, const cql_column_t *col, const uint8_t *path, size_t path_len,
                     wire_value_t v, bool tombstone)
{
    if (w->n_cells == w->cap_cells) {
        size_t cap = w->cap_cells ? w->cap_cells * 2 : 16;
        storage_cell_t *cells = base_arena_alloc(w->c->a, cap * sizeof(*cells));
        if (w->n_cells > 0) {
            memcpy(cells, w->cells, w->n_cells * sizeof(*cells));
        }
        w->cells = cells;
        w->cap_cells = cap;
    }
    storage_cell_t *cell = &w->cells[w->n_cells++];
    memset(cell, 0, sizeof(*cell));
    cell->col = col->id;
    cell->path = path;
    cell->path_len = (uint32_t)path_len;
    cell->tombstone = tombstone || v.len < 0;
    cell->value = v.len > 0 ? v.ptr : NULL;
    cell->value_len = v.len > 0 ? (uint32_t)v.len : 0;
    cell->ts = w->ts;
    cell->ttl = cell->tombstone ? 0 : w->ttl;
    cell->expires_us = cell->tombstone ? STORAGE_NO_EXPIRY : w->expires_us;
}


void cql__write_clear(cql_write_t *w, const cql_column_t *col)
{
    if (w->clear == NULL) {
        w->clear = base_arena_alloc(w->c->a, w->t->n_cols * sizeof(*w->clear));
    }
    w->clear[w->n_clear++] = col->id;
}


/* List element ids: 8 bytes, big-endian, so memcmp order is insertion order. */
static uint64_t list_last_tick; /* ticks only grow: a statement's elements keep their order */

static const uint8_t *list_id(cql_write_t *w, bool prepend)
{
    uint64_t tick = (uint64_t)w->c->now_us * 64;
    tick = tick > list_last_tick ? tick : list_last_tick + 1;
    list_last_tick = tick;
    uint64_t id = prepend ? (1ULL << 63) - tick : (1ULL << 63) + tick;
    uint8_t *p = base_arena_alloc(w->c->a, 8);
    base_store_u64(p, id);
    return p;
}


int cql__write_elements(cql_write_t *w, const cql_column_t *col, wire_value_t v, bool prepend,
                        base_error_t *err)
{
    wire_value_t *keys, *vals = NULL;
    bool map = col->type->id == WIRE_TYPE_MAP;
    ssize_t n = cql__collection_split(col->type, v, w->c->a, &keys, map ? &vals : NULL);
    if (n < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid collection value for column %s",
                              col->name);
    }
    for (ssize_t i = 0; i < n; i++) {
        if (keys[i].len < 0 || (map && vals[i].len < 0)) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "null is not supported inside collections");
        }
        if (col->type->id == WIRE_TYPE_LIST) {
            /* prepending a list keeps its order: the last element gets the smallest id */
            ssize_t k = prepend ? n - 1 - i : i;
            cql__write_cell(w, col, list_id(w, prepend), 8, keys[k], false);
        } else if (col->type->id == WIRE_TYPE_SET) {
            wire_value_t empty = {NULL, 0};
            cql__write_cell(w, col, keys[i].ptr, (size_t)keys[i].len, empty, false);
        } else if (vals != NULL) { /* a map: the split gave its values */
            cql__write_cell(w, col, keys[i].ptr, (size_t)keys[i].len, vals[i], false);
        }
    }
    return BASE_OK;
}


bool cql__multi_cell(const cql_column_t *col)
{
    return cql__type_is_collection(col->type) && !col->type->frozen;
}


/* SET c = v: for a multi-cell collection, replace all elements. */
int cql__write_set(cql_write_t *w, const cql_column_t *col, wire_value_t v, base_error_t *err)
{
    if (v.len == WIRE_VALUE_UNSET) {
        return BASE_OK;
    }
    if (!cql__multi_cell(col)) {
        cql__write_cell(w, col, NULL, 0, v, false);
        return BASE_OK;
    }
    cql__write_clear(w, col);
    if (v.len < 0) {
        return BASE_OK;
    }
    return cql__write_elements(w, col, v, false, err);
}


/* Cassandra 3.11/4.0 stores expiry times as 32-bit seconds and, under its default
 * REJECT policy, refuses a TTL that would expire past 2038-01-19T03:14:06Z. Cosmos DB
 * has no such limit. */
#define MAX_DELETION_TIME 2147483646LL

static int expiry_overflow(const cql_ctx_t *c, const cql_table_t *t, int64_t ttl, bool by_default,
                           base_error_t *err)
{
    if (c->e->cfg.profile == CQL_PROFILE_COSMOS || ttl <= 0 ||
        c->now_us / 1000000 + ttl <= MAX_DELETION_TIME) {
        return BASE_OK;
    }
    return base_error_set(err, WIRE_ERR_INVALID,
                          "Request on table %s.%s with %sttl of %lld seconds exceeds maximum "
                          "supported expiration date of 2038-01-19T03:14:06+00:00. In order to "
                          "avoid this use a lower TTL or upgrade to a version where this "
                          "limitation is fixed. See CASSANDRA-14092 for more details.",
                          t->ks->name, t->name, by_default ? "default " : "", (long long)ttl);
}


/* USING TIMESTAMP / TTL where Cassandra refuses them: counters take neither, a
 * conditional statement takes no timestamp. */
static int check_using(const cql_table_t *t, const cql_using_t *u, bool cas, base_error_t *err)
{
    if (t->has_counters && u->timestamp != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot provide custom timestamp for counter updates");
    }
    if (t->has_counters && u->ttl != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot provide custom TTL for counter updates");
    }
    if (cas && u->timestamp != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot provide custom timestamp for conditional updates");
    }
    return BASE_OK;
}


static int write_init(cql_write_t *w, cql_ctx_t *c, const cql_table_t *t, const cql_using_t *u,
                      bool allow_ttl, base_error_t *err)
{
    memset(w, 0, sizeof(*w));
    w->c = c;
    w->t = t;
    bool ok;
    w->ts = cql__write_timestamp(c, u, err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    int64_t ttl = t->default_ttl;
    if (u->ttl != NULL) {
        if (!allow_ttl) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "TTL attribute is not supported for "
                                  "DELETE statements");
        }
        wire_value_t v;
        if (cql__term_eval(u->ttl, cql__native_int(), "[ttl]", &c->binds, c->a, &v, err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
        if (v.len == 4) {
            ttl = (int32_t)base_load_u32(v.ptr);
        } else if (v.len != WIRE_VALUE_UNSET) {
            ttl = 0; /* a null TTL is no TTL (unset keeps the table's default) */
        }
        if (ttl < 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "A TTL must be greater or equal to 0, but was %lld",
                                  (long long)ttl);
        }
        if (ttl > MAX_TTL && c->e->cfg.profile != CQL_PROFILE_COSMOS) { /* Cosmos: any int */
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "ttl is too large. requested (%lld) maximum (%d)", (long long)ttl,
                                  MAX_TTL);
        }
    }
    if (expiry_overflow(c, t, ttl, u->ttl == NULL, err) != BASE_OK) {
        return BASE_ERROR;
    }
    w->ttl = (int32_t)ttl;
    w->expires_us = ttl > 0 ? c->now_us + ttl * 1000000 : STORAGE_NO_EXPIRY;
    return BASE_OK;
}


int64_t cql__write_timestamp(cql_ctx_t *c, const cql_using_t *u, base_error_t *err, bool *ok)
{
    *ok = true;
    if (u != NULL && u->timestamp != NULL) {
        if (c->in_batch && c->batch_ts != INT64_MIN && c->params && c->params->has_timestamp) {
            /* Cassandra refuses both; keep the statement's own */
        }
        wire_value_t v;
        if (cql__term_eval(u->timestamp, cql__native_bigint(), "[timestamp]", &c->binds, c->a, &v,
                           err) != BASE_OK) {
            *ok = false;
            return 0;
        }
        if (v.len == 8 && (int64_t)base_load_u64(v.ptr) == INT64_MIN) {
            *ok = false; /* Cassandra keeps Long.MIN_VALUE for "no timestamp" */
            base_error_set(err, WIRE_ERR_INVALID, "Invalid timestamp: Long.MIN_VALUE is reserved");
            return 0;
        }
        if (v.len == 8) {
            return (int64_t)base_load_u64(v.ptr);
        }
        if (v.len != WIRE_VALUE_UNSET) {
            *ok = false;
            base_error_set(err, WIRE_ERR_INVALID, "Invalid null value of timestamp");
            return 0;
        }
    }
    if (c->batch_ts != INT64_MIN) {
        return c->batch_ts;
    }
    if (c->params != NULL && c->params->has_timestamp) {
        return c->params->timestamp;
    }
    return c->now_us;
}


static int check_writable(const cql_table_t *t, base_error_t *err)
{
    if (t->st == NULL || t->ks->system) {
        return base_error_set(err, WIRE_ERR_UNAUTHORIZED, "%s keyspace is not user-modifiable.",
                              t->ks->name);
    }
    return BASE_OK;
}


/* Adds one mutation's figures to st (a statement's, a batch's or a batch part's). */
static void count_write(cql_stats_t *st, const cql_table_t *t, const storage_mutation_t *m,
                        const storage_write_stats_t *ws)
{
    st->rows_written++;
    st->bytes_written += ws->bytes_written;
    st->overwrites += ws->row_existed;
    st->partitions_touched++;
    st->n_indexes = t->n_indexes;
    st->has_table_bytes = true;
    st->table_bytes = storage_table_bytes(t->st);
    st->rows_deleted += m->delete_partition || m->delete_row || m->delete_range;
    if (m->marker_ttl > 0 || (m->n_cells > 0 && m->cells[0].ttl > 0)) {
        st->rows_ttl++;
        st->bytes_ttl += ws->bytes_written;
    }
    cql__note_token(st, t, m->token);
}


static void note_write(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
                       const storage_write_stats_t *ws)
{
    cql_stats_t *st = &c->out->stats;
    if (st->table == NULL) { /* a batch's totals name its first table */
        st->keyspace = t->ks->name;
        st->table = t->name;
    }
    count_write(st, t, m, ws);
    cql_stats_t *part = cql__batch_part(c, t);
    if (part != NULL) {
        count_write(part, t, m, ws);
    }
    /* compaction_large_partition_warning_threshold_mb: flagged when a write takes the
     * partition past it (Cassandra logs it when compacting; never a refusal). */
    size_t large = c->e->cfg.guardrails.large_partition_mb * 1024 * 1024;
    if (large > 0 && ws->partition_bytes >= large &&
        ws->partition_bytes - ws->bytes_written < large) {
        st->guardrails |= CQL_GUARD_LARGE_PARTITION;
        st->large_partition_bytes = ws->partition_bytes;
        st->large_partition_token = m->token;
        if (c->e->cfg.profile == CQL_PROFILE_COSMOS) {
            cql__warn(c,
                      "Partition of %s.%s with token %lld is now %zu bytes, past "
                      "compaction_large_partition_warning_threshold_mb (%zu MB); an advisory: "
                      "Azure Cosmos DB allows 20 GB per logical partition",
                      t->ks->name, t->name, (long long)m->token, ws->partition_bytes,
                      c->e->cfg.guardrails.large_partition_mb);
        }
    }
}


/* Cosmos DB stores a row as one item of at most 2 MB and answers 413, which the
 * Cassandra API maps to Write_failure (0x1500), also when small updates make a
 * stored row grow past it. */
#define COSMOS_MAX_ITEM (2u * 1024u * 1024u)

size_t cql__mutation_bytes(const storage_mutation_t *m)
{
    size_t n = m->pk_len + m->ck_len;
    for (size_t i = 0; i < m->n_cells; i++) {
        n += m->cells[i].value_len + m->cells[i].path_len;
    }
    return n;
}


/* Applies one mutation. A durable database that cannot log it refuses it (and
 * changes nothing), so the client is never told a write it would lose succeeded. */
int cql__write_now(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
                   base_error_t *err)
{
    storage_write_stats_t ws = {0};
    if (storage_apply(t->st, m, c->now_us, &ws) != BASE_OK) {
        base_error_set(err, WIRE_ERR_WRITE_FAILURE,
                       "Write to %s.%s failed: the commit log could not be written (see the "
                       "emulator's log)",
                       t->ks->name, t->name);
        wire_error_detail_write_failure(err, c->out->stats.consistency, 0, 1, 1,
                                        c->in_batch ? "UNLOGGED_BATCH" : "SIMPLE");
        return BASE_ERROR;
    }
    note_write(c, t, m, &ws);
    return BASE_OK;
}


/* Applies a checked batch's mutations as one storage batch: one commit log record, so a
 * crash leaves all of them or none. A record that cannot be logged changes nothing. */
int cql__write_pending(cql_ctx_t *c, base_error_t *err)
{
    if (c->n_pending == 0) {
        return BASE_OK;
    }
    storage_batch_item_t *items = base_arena_alloc(c->a, c->n_pending * sizeof(*items));
    storage_write_stats_t *ws = base_arena_alloc(c->a, c->n_pending * sizeof(*ws));
    for (size_t i = 0; i < c->n_pending; i++) {
        items[i] = (storage_batch_item_t){c->pending[i].t->st, &c->pending[i].m};
    }
    if (storage_apply_batch(c->e->db, items, c->n_pending, c->now_us, ws) != BASE_OK) {
        const cql_table_t *t = c->pending[0].t;
        base_error_set(err, WIRE_ERR_WRITE_FAILURE,
                       "Write to %s.%s failed: the commit log could not be written (see the "
                       "emulator's log); no statement of the batch was applied",
                       t->ks->name, t->name);
        wire_error_detail_write_failure(err, c->out->stats.consistency, 0, 1, 1, "UNLOGGED_BATCH");
        return BASE_ERROR;
    }
    for (size_t i = 0; i < c->n_pending; i++) {
        note_write(c, c->pending[i].t, &c->pending[i].m, &ws[i]);
    }
    return BASE_OK;
}


static bool cleared(const storage_mutation_t *m, uint32_t col)
{
    for (size_t i = 0; i < m->n_clear_cols; i++) {
        if (m->clear_cols[i] == col) {
            return true;
        }
    }
    return false;
}


static bool replaced_by(const storage_mutation_t *m, const storage_cell_t *old)
{
    if (cleared(m, old->col)) {
        return true;
    }
    for (size_t i = 0; i < m->n_cells; i++) {
        const storage_cell_t *n = &m->cells[i];
        if (n->col == old->col && n->path_len == old->path_len &&
            (n->path_len == 0 || memcmp(n->path, old->path, n->path_len) == 0)) {
            return true;
        }
    }
    return false;
}


/* True when m replaces every regular column of its row, so the stored row keeps nothing. */
static bool replaces_row(const cql_table_t *t, const storage_mutation_t *m)
{
    if (m->static_row) {
        return false;
    }
    for (size_t i = 0; i < t->n_cols; i++) {
        const cql_column_t *col = &t->cols[i];
        if (col->kind != CQL_COL_REGULAR) {
            continue;
        }
        /* a collection's elements go only with a collection-wide deletion */
        storage_cell_t whole = {.col = col->id};
        if (!(cql__multi_cell(col) ? cleared(m, col->id) : replaced_by(m, &whole))) {
            return false;
        }
    }
    return true;
}


/* The size of the row once m is applied: its own bytes plus what it keeps of the stored
 * row. Only looked at closely when the whole partition could pass the item limit; a
 * write of every column (an INSERT of the whole row) keeps nothing, so it skips the
 * partition lookup (storage_apply does its own). */
static size_t row_bytes_after(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m)
{
    size_t bytes = cql__mutation_bytes(m);
    if (m->delete_partition || m->delete_row || m->delete_range || m->n_cells == 0 ||
        replaces_row(t, m)) {
        return bytes;
    }
    storage_partition_t *p = storage_partition_get(t->st, m->token, m->pk, m->pk_len);
    if (p == NULL || storage_partition_bytes(p) + bytes <= COSMOS_MAX_ITEM) {
        return bytes;
    }
    storage_row_view_t rv;
    bool found;
    if (m->static_row) {
        found = storage_partition_static(p, c->now_us, &rv);
    } else {
        found = cql__stored_row(c, p, m->ck, m->ck_len, &rv);
    }
    for (size_t i = 0; found && i < rv.n_cells; i++) {
        if (!replaced_by(m, &rv.cells[i])) {
            bytes += rv.cells[i].value_len + rv.cells[i].path_len;
        }
    }
    return bytes;
}


/* An index entry is keyed by the indexed value and clustered by the row's keys (and
 * the element's key for a collection index); Cassandra refuses either part
 * reaching 64 KiB. */
#define MAX_INDEXED 65535u

static int index_too_large(const cql_table_t *t, const cql_index_t *ix, size_t size,
                           base_error_t *err)
{
    return base_error_set(err, WIRE_ERR_INVALID,
                          "Cannot index value of size %zu for index %s on %s.%s(%s) (maximum "
                          "allowed size=%u)",
                          size, ix->name, t->ks->name, t->name, ix->column, MAX_INDEXED);
}


static int check_index_sizes(const cql_table_t *t, const storage_mutation_t *m, base_error_t *err)
{
    for (size_t i = 0; i < t->n_indexes; i++) {
        const cql_index_t *ix = &t->indexes[i];
        const cql_column_t *col = cql__column_find(t, ix->column);
        if (col == NULL || col->kind == CQL_COL_PARTITION) {
            continue;
        }
        size_t keys = m->pk_len + m->ck_len;
        if (col->kind == CQL_COL_CLUSTERING && m->row_marker && keys >= MAX_INDEXED) {
            return index_too_large(t, ix, keys, err);
        }
        bool by_key = strncmp(ix->target, "keys(", 5) == 0;
        for (size_t k = 0; k < m->n_cells; k++) {
            const storage_cell_t *cell = &m->cells[k];
            if (cell->col != col->id || cell->tombstone) {
                continue;
            }
            size_t value = by_key ? cell->path_len : cell->value_len;
            size_t clustering = keys + (by_key ? 0 : cell->path_len);
            if (value >= MAX_INDEXED || clustering >= MAX_INDEXED) {
                return index_too_large(t, ix, value >= MAX_INDEXED ? value : clustering, err);
            }
        }
    }
    return BASE_OK;
}


/* Refuses a row past the Cosmos DB item limit (cosmos profile), then writes m
 * now or, inside a batch, queues it until the whole batch has been checked. */
static int write_or_defer(cql_ctx_t *c, const cql_table_t *t, storage_mutation_t *m,
                          base_error_t *err)
{
    if (t->n_indexes > 0 && check_index_sizes(t, m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    size_t bytes = cosmos ? row_bytes_after(c, t, m) : 0;
    if (cosmos && bytes > COSMOS_MAX_ITEM) {
        base_error_set(err, WIRE_ERR_WRITE_FAILURE,
                       "Request entity too large: the row written to %s.%s is %zu bytes, over "
                       "the 2 MB (%u bytes) Azure Cosmos DB allows per item",
                       t->ks->name, t->name, bytes, COSMOS_MAX_ITEM);
        wire_error_detail_write_failure(err, c->out->stats.consistency, 0, 1, 1,
                                        c->in_batch ? "UNLOGGED_BATCH" : "SIMPLE");
        return BASE_ERROR;
    }
    if (!c->defer) {
        return cql__write_now(c, t, m, err);
    }
    cql__batch_defer(c, t, m);
    return BASE_OK;
}


/* ---- INSERT ------------------------------------------------------------------------------ */

/* Names of the key columns of kind (pk or ck) not in seen, joined as Cassandra lists them. */
static const char *unrestricted(cql_ctx_t *c, const cql_table_t *t, bool partition,
                                const bool *seen)
{
    size_t n = partition ? t->n_pk : t->n_ck;
    size_t first = 0; /* the common answer, none, without a buffer */
    while (first < n && seen[(partition ? t->pk[first] : t->ck[first]) - t->cols]) {
        first++;
    }
    if (first == n) {
        return NULL;
    }
    base_buf_t b;
    base_buf_init(&b);
    for (size_t i = first; i < n; i++) {
        const cql_column_t *col = partition ? t->pk[i] : t->ck[i];
        if (!seen[col - t->cols]) {
            base_buf_printf(&b, "%s%s", b.len ? ", " : "", col->name);
        }
    }
    const char *out = b.len ? base_arena_strndup(c->a, (const char *)b.data, b.len) : NULL;
    base_buf_fini(&b);
    return out;
}


/* INSERT names the whole primary key, or only the partition key when it writes
 * static columns only (*static_only): those go to the partition's static row. */
static int insert_keys(cql_ctx_t *c, const cql_table_t *t, const bool *given, bool *static_only,
                       base_error_t *err)
{
    const char *missing = unrestricted(c, t, true, given);
    if (missing != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Some partition key parts are missing: %s",
                              missing);
    }
    bool ck = false, statics = false, regular = false;
    for (size_t i = 0; i < t->n_cols; i++) {
        ck |= given[i] && t->cols[i].kind == CQL_COL_CLUSTERING;
        statics |= given[i] && t->cols[i].kind == CQL_COL_STATIC;
        regular |= given[i] && t->cols[i].kind == CQL_COL_REGULAR;
    }
    *static_only = t->n_ck > 0 && !ck && statics && !regular;
    missing = unrestricted(c, t, false, given);
    if (missing != NULL && !*static_only) {
        return base_error_set(err, WIRE_ERR_INVALID, "Some clustering keys are missing: %s",
                              missing);
    }
    return BASE_OK;
}


/* One key value of an INSERT, refused in Cassandra's words: INSERT turns its key
 * values into = relations, so a null one is a null "in condition". */
static int key_value(const cql_column_t *col, wire_value_t v, base_error_t *err)
{
    if (v.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for column %s",
                              col->name);
    }
    if (v.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid null value in condition for column %s", col->name);
    }
    if (col->kind == CQL_COL_PARTITION && v.len > 65535) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Key length of %d is longer than maximum of 65535", v.len);
    }
    if (col->kind == CQL_COL_PARTITION && v.len == 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Key may not be empty");
    }
    return BASE_OK;
}


/* The serialized sizes of a row's keys: a composite partition key stores each part
 * with a 2-byte length and an end byte; the clustering values add up. */
static int key_lengths(const cql_table_t *t, const wire_value_t *vals, bool static_only,
                       base_error_t *err)
{
    size_t pk = 0, ck = 0;
    for (size_t i = 0; t->n_pk > 1 && i < t->n_pk; i++) {
        pk += 3 + (size_t)vals[t->pk[i] - t->cols].len;
    }
    for (size_t i = 0; !static_only && i < t->n_ck; i++) {
        ck += (size_t)vals[t->ck[i] - t->cols].len;
    }
    size_t over = pk > 65535 ? pk : ck > 65535 ? ck : 0;
    if (over > 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Key length of %zu is longer than maximum of 65535", over);
    }
    return BASE_OK;
}


/* The JSON text 'null' (blanks around it allowed): Cassandra refuses it as a null value. */
static bool json_is_null(wire_value_t text)
{
    size_t a = 0, b = (size_t)text.len;
    while (a < b && (text.ptr[a] == ' ' || text.ptr[a] == '\t' || text.ptr[a] == '\n' ||
                     text.ptr[a] == '\r')) {
        a++;
    }
    while (b > a && (text.ptr[b - 1] == ' ' || text.ptr[b - 1] == '\t' || text.ptr[b - 1] == '\n' ||
                     text.ptr[b - 1] == '\r')) {
        b--;
    }
    return b - a == 4 && memcmp(text.ptr + a, "null", 4) == 0;
}


/* INSERT JSON: every column named in the object, the others null (DEFAULT
 * NULL) or left alone (DEFAULT UNSET). */
static int json_values(cql_ctx_t *c, const cql_table_t *t, const cql_insert_t *q, bool *given,
                       wire_value_t *vals, base_error_t *err)
{
    wire_value_t text;
    if (cql__term_eval(q->json, cql__native_text(), "[json]", &c->binds, c->a, &text, err) !=
        BASE_OK) {
        return BASE_ERROR;
    }
    if (text.len < 0 || json_is_null(text)) {
        return base_error_set(err, WIRE_ERR_INVALID, "Got null for INSERT JSON values");
    }
    const char **names = base_arena_alloc(c->a, (t->n_cols + 1) * sizeof(*names));
    const wire_type_t **types = base_arena_alloc(c->a, (t->n_cols + 1) * sizeof(*types));
    for (size_t i = 0; i < t->n_cols; i++) {
        names[i] = t->cols[i].name;
        types[i] = t->cols[i].type;
    }
    cql_json_columns_t cols = {t->n_cols, names, types};
    cql_json_row_t row;
    if (cql__json_row((const char *)text.ptr, (size_t)text.len, &cols, c->a, &row, err) !=
        BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < t->n_cols; i++) {
        const cql_column_t *col = &t->cols[i];
        if (row.terms[i] == NULL) {
            bool key = col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING;
            given[i] = !q->json_default_unset && !key;
            vals[i] = (wire_value_t){NULL, WIRE_VALUE_NULL};
            continue;
        }
        given[i] = true;
        if (cql__term_eval(row.terms[i], col->type, col->name, &c->binds, c->a, &vals[i], err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


/* The name of the i-th column an INSERT names or an UPDATE assigns. */
static const char *column_name_at(const cql_stmt_t *s, size_t i)
{
    return s->kind == CQL_STMT_INSERT ? s->u.insert.columns[i] : s->u.update.assign[i].column;
}


const uint32_t *cql__kept_columns(cql_ctx_t *c, const cql_table_t *t, const void *q)
{
    cql_prepared_t *p = c->prepared;
    if (p == NULL || p->cache_epoch != c->e->schema_epoch || p->table != t) {
        return NULL;
    }
    const cql_stmt_t *s = p->stmt;
    size_t n;
    if (s->kind == CQL_STMT_INSERT && q == &s->u.insert && s->u.insert.json == NULL) {
        n = s->u.insert.n_columns;
    } else if (s->kind == CQL_STMT_UPDATE && q == &s->u.update) {
        n = s->u.update.n_assign;
    } else {
        return NULL;
    }
    if (p->kept_cols == NULL) {
        base_arena_reset(&p->sel_arena); /* an older schema's (neither keeps a selection) */
        uint32_t *ix = base_arena_alloc(&p->sel_arena, (n + 1) * sizeof(*ix));
        for (size_t i = 0; i < n; i++) {
            const cql_column_t *col = cql__column_find(t, column_name_at(s, i));
            if (col == NULL) {
                return NULL;
            }
            ix[i] = (uint32_t)(col - t->cols);
        }
        p->kept_cols = ix;
    }
    return p->kept_cols;
}


/* The named (or JSON) values of an INSERT by column index, given[] marking
 * the ones named; the whole primary key must be there and valid, or only the
 * partition key when static columns alone are written (*static_only). */
static int insert_values(cql_ctx_t *c, const cql_table_t *t, const cql_insert_t *q, bool *given,
                         wire_value_t *vals, bool *static_only, base_error_t *err)
{
    if (q->json != NULL && json_values(c, t, q, given, vals, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const uint32_t *kept = cql__kept_columns(c, t, q);
    for (size_t i = 0; i < q->n_columns; i++) {
        const cql_column_t *col = cql__named_column(t, kept, i, q->columns[i]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", q->columns[i]);
        }
        size_t idx = (size_t)(col - t->cols);
        if (given[idx]) {
            return base_error_set(err, WIRE_ERR_INVALID, "The column names contains duplicates");
        }
        given[idx] = true;
        if (cql__term_eval(q->values[i], col->type, col->name, &c->binds, c->a, &vals[idx], err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (insert_keys(c, t, given, static_only, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < t->n_pk; i++) {
        if (key_value(t->pk[i], vals[t->pk[i] - t->cols], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    for (size_t i = 0; i < t->n_ck && !*static_only; i++) {
        if (key_value(t->ck[i], vals[t->ck[i] - t->cols], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return key_lengths(t, vals, *static_only, err);
}


/* Sets m's partition key, token and clustering key from the checked key values;
 * returns the composed partition key. */
static wire_value_t insert_key(cql_ctx_t *c, const cql_table_t *t, const wire_value_t *vals,
                               bool static_only, storage_mutation_t *m)
{
    /* Key arrays are sized from the schema: a table may have any number of key columns. */
    wire_value_t *parts = base_arena_alloc(c->a, t->n_pk * sizeof(*parts));
    for (size_t i = 0; i < t->n_pk; i++) {
        parts[i] = vals[t->pk[i] - t->cols];
    }
    wire_value_t pk = cql__pk_compose(parts, t->n_pk, c->a);
    m->pk = pk.ptr;
    m->pk_len = (size_t)pk.len;
    m->token = storage_token(m->pk, m->pk_len);
    if (static_only) {
        return pk; /* the static row has no clustering key */
    }
    base_buf_t ck;
    base_buf_init(&ck);
    wire_value_t *ckv = base_arena_alloc(c->a, (t->n_ck ? t->n_ck : 1) * sizeof(*ckv));
    for (size_t i = 0; i < t->n_ck; i++) {
        ckv[i] = vals[t->ck[i] - t->cols];
    }
    cql__ck_encode(&ck, t, ckv, t->n_ck);
    m->ck = base_arena_memdup(c->a, ck.data, ck.len);
    m->ck_len = ck.len;
    base_buf_fini(&ck);
    return pk;
}


/* Writes the static cells ws gathered, if any, as a second mutation of m's
 * partition (its static row); cleared collections are deleted at delete_ts. */
static int write_static(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
                        const cql_write_t *ws, int64_t delete_ts, base_error_t *err)
{
    if (ws->n_cells == 0 && ws->n_clear == 0) {
        return BASE_OK;
    }
    storage_mutation_t sm = {
        .pk = m->pk, .pk_len = m->pk_len, .token = m->token, .static_row = true};
    sm.cells = ws->cells;
    sm.n_cells = ws->n_cells;
    sm.clear_cols = ws->clear;
    sm.n_clear_cols = ws->n_clear;
    sm.delete_ts = delete_ts;
    return write_or_defer(c, t, &sm, err);
}


/* The row marker and the given cells of an INSERT, static ones in their own
 * mutation. A static-only insert writes no row and so no row marker: the
 * partition lives as long as its static cells do. */
static int insert_row(cql_ctx_t *c, const cql_table_t *t, cql_write_t *w, const bool *given,
                      const wire_value_t *vals, bool static_only, storage_mutation_t *m,
                      base_error_t *err)
{
    m->row_marker = !static_only;
    m->marker_ts = w->ts;
    m->marker_ttl = w->ttl;
    m->marker_expires_us = w->expires_us;
    cql_write_t ws = *w;
    ws.cells = NULL, ws.n_cells = ws.cap_cells = 0, ws.clear = NULL, ws.n_clear = 0;
    for (size_t i = 0; i < t->n_cols; i++) {
        const cql_column_t *col = &t->cols[i];
        if (!given[i] || col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
            continue;
        }
        if (cql__write_set(col->kind == CQL_COL_STATIC ? &ws : w, col, vals[i], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    m->cells = w->cells;
    m->n_cells = w->n_cells;
    m->clear_cols = w->clear;
    m->n_clear_cols = w->n_clear;
    m->delete_ts = w->ts - 1; /* replacing a collection deletes it just before the write */
    if (!static_only && write_or_defer(c, t, m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return write_static(c, t, m, &ws, ws.ts - 1, err);
}


int cql__exec_insert(cql_ctx_t *c, const cql_insert_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_WRITE;
    if (cql__stmt_table(c, &q->table, &t, err) != BASE_OK || check_writable(t, err)) {
        return BASE_ERROR;
    }
    if (t->has_counters) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "INSERT statements are not allowed on counter tables, use UPDATE "
                              "instead");
    }
    cql_write_t w;
    if (check_using(t, &q->using_, q->if_not_exists, err) != BASE_OK ||
        write_init(&w, c, t, &q->using_, true, err) != BASE_OK) {
        return BASE_ERROR;
    }
    bool *given = base_arena_calloc(c->a, t->n_cols, sizeof(bool));
    wire_value_t *vals = base_arena_alloc(c->a, t->n_cols * sizeof(*vals));
    bool static_only = false;
    if (insert_values(c, t, q, given, vals, &static_only, err) != BASE_OK) {
        return BASE_ERROR;
    }
    storage_mutation_t m = {0};
    wire_value_t pk = insert_key(c, t, vals, static_only, &m);
    if (cql__admit(c, t, q->if_not_exists ? CQL_OP_LWT : CQL_OP_WRITE, true, m.token, err) !=
        BASE_OK) {
        return BASE_ERROR;
    }
    if (q->if_not_exists) {
        /* a static-only insert asks whether the partition's static row exists */
        cql_conditions_t cond = {.if_not_exists = true};
        storage_bound_t b = {m.ck, m.ck_len, true};
        bool go = false;
        if (cql__lwt_check(c, t, pk, m.token, static_only ? NULL : &b, &cond, &go, err) !=
                BASE_OK ||
            !go) {
            return go ? BASE_ERROR : BASE_OK;
        }
    }
    return insert_row(c, t, &w, given, vals, static_only, &m, err);
}


/* ---- UPDATE / DELETE ---------------------------------------------------------------------- */

/* What the WHERE clause of an UPDATE or DELETE restricts of the primary key. */
typedef struct where_shape_s {
    bool ck_any;       /* some clustering column is restricted */
    bool ck_full_eq;   /* every clustering column by = or IN */
    bool pk_in, ck_in; /* an IN on the partition or the clustering key */
    /* gathered by where_scan */
    bool *seen, *eq;     /* by column index: restricted, restricted by = or IN */
    const char *non_key; /* the first restricted column outside the primary key */
    bool pk_slice, ck_slice;
} where_shape_t;


/* The columns a DELETE or UPDATE writes and its conditions name, static or not. */
typedef struct columns_used_s {
    bool statics, regular;           /* written */
    bool cond_statics, cond_regular; /* in IF conditions */
} columns_used_t;


/* One relation of a modification's WHERE clause, noted in shape. */
static int where_relation(const cql_table_t *t, const cql_relation_t *r, where_shape_t *shape,
                          base_error_t *err)
{
    bool is_eq = r->op == CQL_OP_EQ || r->op == CQL_OP_IN;
    for (size_t k = 0; k < r->n_columns; k++) {
        const cql_column_t *col = cql__column_find(t, r->columns[k]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", r->columns[k]);
        }
        size_t idx = (size_t)(col - t->cols);
        bool key = col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING;
        if (!key || r->lhs == CQL_LHS_ELEMENT || r->op == CQL_OP_CONTAINS ||
            r->op == CQL_OP_CONTAINS_KEY || r->op == CQL_OP_NEQ || r->op == CQL_OP_LIKE ||
            r->op == CQL_OP_IS_NOT_NULL) {
            if (key && r->op == CQL_OP_CONTAINS && !cql__type_is_collection(col->type)) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Cannot use CONTAINS on non-collection column %s", col->name);
            }
            shape->non_key = shape->non_key ? shape->non_key : col->name;
            continue;
        }
        shape->seen[idx] = true;
        shape->eq[idx] |= is_eq;
        shape->pk_in |= r->op == CQL_OP_IN && col->kind == CQL_COL_PARTITION;
        shape->ck_in |= r->op == CQL_OP_IN && col->kind == CQL_COL_CLUSTERING;
        shape->pk_slice |= !is_eq && col->kind == CQL_COL_PARTITION;
        shape->ck_slice |= !is_eq && col->kind == CQL_COL_CLUSTERING;
    }
    return BASE_OK;
}


/* UPDATE and DELETE name rows by = or IN on the whole partition key; UPDATE also on
 * the whole clustering key unless it writes static columns only (static_only), and
 * then neither names a clustering column. Checked in Cassandra's order: the
 * partition key, the clustering key, then other columns. */
static int check_modification_where(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where,
                                    size_t n_where, bool update, bool static_only,
                                    where_shape_t *shape, base_error_t *err)
{
    const char *stmt = update ? "UPDATE" : "DELETE";
    memset(shape, 0, sizeof(*shape));
    shape->seen = base_arena_calloc(c->a, t->n_cols + 1, sizeof(bool));
    shape->eq = base_arena_calloc(c->a, t->n_cols + 1, sizeof(bool));
    for (size_t i = 0; i < n_where; i++) {
        if (where[i].lhs == CQL_LHS_TOKEN) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "The token function cannot be used in WHERE clauses for %s "
                                  "statements",
                                  stmt);
        }
        if (where_relation(t, &where[i], shape, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    shape->ck_full_eq = true;
    for (size_t i = 0; i < t->n_ck; i++) {
        shape->ck_any |= shape->seen[t->ck[i] - t->cols];
        shape->ck_full_eq &= shape->eq[t->ck[i] - t->cols];
    }
    const char *missing = unrestricted(c, t, true, shape->seen);
    if (missing != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Some partition key parts are missing: %s",
                              missing);
    }
    if (shape->pk_slice) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Only EQ and IN relation are supported on the partition key "
                              "(unless you use the token() function) for %s statements",
                              stmt);
    }
    if (update && shape->ck_slice) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Slice restrictions are not supported on the clustering columns in "
                              "UPDATE statements");
    }
    if (static_only && shape->ck_any) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid restrictions on clustering columns since the %s statement "
                              "modifies only static columns",
                              stmt);
    }
    missing = unrestricted(c, t, false, shape->seen);
    if (update && !static_only && missing != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Some clustering keys are missing: %s",
                              missing);
    }
    if (shape->non_key != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Non PRIMARY KEY columns found in where clause: %s", shape->non_key);
    }
    return BASE_OK;
}


/* The partition keys and clustering slices a modification names; *none when an
 * empty IN names no row at all (the statement then writes nothing). */
static int modify_targets(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where,
                          size_t n_where, cql_plan_t *plan, bool *none, base_error_t *err)
{
    if (cql__plan_where(c, t, where, n_where, false, plan, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (plan->scan) {
        return base_error_set(err, WIRE_ERR_INVALID, "Some partition key parts are missing: %s",
                              t->pk[0]->name);
    }
    *none = plan->n_keys == 0 || (plan->ck_restricted && plan->n_slices == 0);
    return BASE_OK;
}


/* Cosmos DB refuses a conditional statement that mixes static and regular columns
 * across its assignments and conditions (cosmos-cassandra-api-facts.md s5). */
static int cosmos_mixed(const cql_ctx_t *c, bool cas, const columns_used_t *u, base_error_t *err)
{
    if (c->e->cfg.profile != CQL_PROFILE_COSMOS || !cas ||
        !((u->statics || u->cond_statics) && (u->regular || u->cond_regular))) {
        return BASE_OK;
    }
    return base_error_set(err, WIRE_ERR_INVALID,
                          "Conditions and assignments containing combination of Static and "
                          "Regular columns are not supported.");
}


/* Whether the conditions name static columns (*statics) and others (*regular). */
static void condition_columns(const cql_table_t *t, const cql_conditions_t *cond, bool *statics,
                              bool *regular)
{
    for (size_t i = 0; i < cond->n; i++) {
        const cql_column_t *col = cql__column_find(t, cond->conds[i].column);
        if (col != NULL) {
            *statics |= col->kind == CQL_COL_STATIC;
            *regular |= col->kind != CQL_COL_STATIC;
        }
    }
}


/* The row a condition reads: the one at the statement's clustering key, or the
 * partition's static row when the statement names no clustering column (NULL). */
static const storage_bound_t *cas_row(const cql_table_t *t, const where_shape_t *shape,
                                      const storage_bound_t *b)
{
    return t->n_ck > 0 && !shape->ck_any ? NULL : b;
}


static int cas_in(const where_shape_t *shape, const char *what, base_error_t *err)
{
    if (shape->pk_in) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "IN on the partition key is not supported with conditional %s", what);
    }
    if (shape->ck_in) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "IN on the clustering key columns is not supported with conditional "
                              "%s",
                              what);
    }
    return BASE_OK;
}


/* Empties w for the next row and makes ws its twin for the row's static cells. */
static void writers_reset(cql_write_t *w, cql_write_t *ws)
{
    w->n_cells = w->n_clear = 0;
    *ws = *w;
    ws->cells = NULL, ws->cap_cells = 0, ws->clear = NULL;
    w->cells = NULL, w->cap_cells = 0, w->clear = NULL;
}


/* The mutation of partition k and slice s of a plan (its start for a row). */
static storage_mutation_t target_row(const cql_plan_t *plan, size_t k, size_t s)
{
    storage_mutation_t m = {
        .pk = plan->keys[k].ptr, .pk_len = (size_t)plan->keys[k].len, .token = plan->tokens[k]};
    if (plan->n_slices) {
        m.ck = plan->slices[s].start.key;
        m.ck_len = plan->slices[s].start.len;
    }
    return m;
}


/* Checks the conditions of a statement on the row m names; *go says whether to write. */
static int check_cas(cql_ctx_t *c, const cql_table_t *t, const cql_plan_t *plan, size_t k,
                     const storage_mutation_t *m, const where_shape_t *shape,
                     const cql_conditions_t *cond, bool *go, base_error_t *err)
{
    storage_bound_t b = {m->ck, m->ck_len, true};
    return cql__lwt_check(c, t, plan->keys[k], m->token, cas_row(t, shape, &b), cond, go, err);
}


/* The SET clause on one row: regular cells in m, static ones in the static row. */
static int update_one(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q, cql_write_t *w,
                      storage_mutation_t *m, base_error_t *err)
{
    cql_write_t ws;
    writers_reset(w, &ws);
    if (cql__update_row(c, t, q, w, &ws, m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (w->n_cells > 0 || w->n_clear > 0) {
        m->cells = w->cells, m->n_cells = w->n_cells;
        m->clear_cols = w->clear, m->n_clear_cols = w->n_clear;
        m->delete_ts = w->ts - 1;
        if (write_or_defer(c, t, m, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return write_static(c, t, m, &ws, ws.ts - 1, err);
}


/* The columns an UPDATE's assignments and conditions name. */
static columns_used_t update_columns(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q)
{
    columns_used_t u = {0};
    const uint32_t *kept = cql__kept_columns(c, t, q);
    for (size_t i = 0; i < q->n_assign; i++) {
        const cql_column_t *col = cql__named_column(t, kept, i, q->assign[i].column);
        if (col != NULL) {
            u.statics |= col->kind == CQL_COL_STATIC;
            u.regular |= col->kind != CQL_COL_STATIC;
        }
    }
    condition_columns(t, &q->cond, &u.cond_statics, &u.cond_regular);
    return u;
}


int cql__exec_update(cql_ctx_t *c, const cql_update_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_WRITE;
    if (cql__stmt_table(c, &q->table, &t, err) != BASE_OK || check_writable(t, err)) {
        return BASE_ERROR;
    }
    bool cas = cql__has_conditions(&q->cond);
    if (check_using(t, &q->using_, cas, err) != BASE_OK ||
        cql__update_check(c, t, q, err) != BASE_OK) {
        return BASE_ERROR;
    }
    where_shape_t shape;
    /* assignments and conditions on static columns only need no clustering key: they
     * write (and read) the partition's static row */
    columns_used_t u = update_columns(c, t, q);
    bool static_only = (u.statics || u.cond_statics) && !u.regular && !u.cond_regular;
    if (check_modification_where(c, t, q->where, q->n_where, true, static_only, &shape, err) !=
            BASE_OK ||
        cosmos_mixed(c, cas, &u, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_plan_t plan;
    cql_write_t w;
    bool none = false;
    if (modify_targets(c, t, q->where, q->n_where, &plan, &none, err) != BASE_OK ||
        write_init(&w, c, t, &q->using_, true, err) != BASE_OK ||
        (cas && cas_in(&shape, "updates", err) != BASE_OK)) {
        return BASE_ERROR;
    }
    size_t n_slices = plan.n_slices ? plan.n_slices : 1;
    bool one = plan.n_keys == 1;
    if (cql__admit(c, t, cas ? CQL_OP_LWT : CQL_OP_WRITE, one, one ? plan.tokens[0] : 0, err) !=
        BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t k = 0; !none && k < plan.n_keys; k++) { /* an empty IN names no row */
        for (size_t s = 0; s < n_slices; s++) {
            storage_mutation_t m = target_row(&plan, k, s);
            bool go = true;
            if (cas && check_cas(c, t, &plan, k, &m, &shape, &q->cond, &go, err) != BASE_OK) {
                return BASE_ERROR;
            }
            if (!go) {
                return BASE_OK;
            }
            if (update_one(c, t, q, &w, &m, err) != BASE_OK) {
                return BASE_ERROR;
            }
        }
    }
    return BASE_OK;
}


/* The columns a DELETE names: checked before its WHERE clause, as Cassandra does. */
static int delete_columns(const cql_table_t *t, const cql_delete_t *q, bool *statics, bool *regular,
                          base_error_t *err)
{
    for (size_t i = 0; i < q->n_targets; i++) {
        const cql_column_t *col = cql__column_find(t, q->targets[i].column);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s",
                                  q->targets[i].column);
        }
        if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid identifier %s for deletion (should not be a PRIMARY "
                                  "KEY part)",
                                  col->name);
        }
        *statics |= col->kind == CQL_COL_STATIC;
        *regular |= col->kind != CQL_COL_STATIC;
    }
    return BASE_OK;
}


/* What a DELETE's shape allows: specific columns need one row (or only static
 * columns and no clustering key), conditions need the whole primary key unless
 * they and the columns are static. */
static int check_delete_shape(const cql_delete_t *q, const where_shape_t *shape,
                              const columns_used_t *u, base_error_t *err)
{
    bool cas = cql__has_conditions(&q->cond);
    if (cas && !shape->ck_full_eq) {
        const char *why = u->regular          ? "delete non static columns"
                          : q->n_targets == 0 ? "use IF conditions"
                          : u->cond_regular   ? "use IF condition on non static columns"
                                              : NULL;
        if (why != NULL) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "DELETE statements must restrict all PRIMARY KEY columns with "
                                  "equality relations in order to %s",
                                  why);
        }
    }
    if ((u->statics || u->regular) && !shape->ck_full_eq && (u->regular || shape->ck_any)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Range deletions are not supported for specific columns");
    }
    return cas ? cas_in(shape, "deletions", err) : BASE_OK;
}


/* DELETE FROM without columns: the whole partition, one row or a clustering range. */
static int delete_rows(cql_ctx_t *c, const cql_table_t *t, const cql_plan_t *plan,
                       const cql_slice_t *sl, storage_mutation_t *m, base_error_t *err)
{
    m->ck = NULL, m->ck_len = 0;
    if (sl == NULL) {
        m->delete_partition = true;
    } else if (plan->point || (plan->n_slices > 1 && sl->start.key == sl->end.key &&
                               sl->start.len == sl->end.len)) {
        m->ck = sl->start.key, m->ck_len = sl->start.len;
        m->delete_row = true;
    } else {
        m->delete_range = true;
        m->range_start = sl->start;
        m->range_end = sl->end;
    }
    return write_or_defer(c, t, m, err);
}


/* DELETE c, c[k], u.f FROM one row: regular cells in m, static ones in the
 * partition's static row. */
static int delete_cells(cql_ctx_t *c, const cql_table_t *t, const cql_delete_t *q, cql_write_t *w,
                        storage_mutation_t *m, base_error_t *err)
{
    cql_write_t ws;
    writers_reset(w, &ws);
    for (size_t i = 0; i < q->n_targets; i++) {
        const cql_column_t *col = cql__column_find(t, q->targets[i].column);
        cql_write_t *dst = col->kind == CQL_COL_STATIC ? &ws : w;
        if (cql__delete_column(dst, col, &q->targets[i], m, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (w->n_cells > 0 || w->n_clear > 0) {
        m->cells = w->cells, m->n_cells = w->n_cells;
        m->clear_cols = w->clear, m->n_clear_cols = w->n_clear;
        if (write_or_defer(c, t, m, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return write_static(c, t, m, &ws, w->ts, err);
}


/* The checks of a DELETE before it runs: its columns, WHERE clause and shape. */
static int delete_prepare(cql_ctx_t *c, const cql_table_t *t, const cql_delete_t *q,
                          where_shape_t *shape, cql_plan_t *plan, bool *none, base_error_t *err)
{
    columns_used_t u = {0};
    if (delete_columns(t, q, &u.statics, &u.regular, err) != BASE_OK) {
        return BASE_ERROR;
    }
    condition_columns(t, &q->cond, &u.cond_statics, &u.cond_regular);
    bool static_only = u.statics && !u.regular && !u.cond_regular;
    bool cas = cql__has_conditions(&q->cond);
    if (check_modification_where(c, t, q->where, q->n_where, false, static_only, shape, err) !=
            BASE_OK ||
        modify_targets(c, t, q->where, q->n_where, plan, none, err) != BASE_OK ||
        check_delete_shape(q, shape, &u, err) != BASE_OK ||
        cosmos_mixed(c, cas, &u, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (c->e->cfg.profile == CQL_PROFILE_COSMOS && q->n_targets == 0 && cas) {
        /* the service's text, without the cell-level timestamp table options; the
         * conditions' own values are checked first */
        if (cql__lwt_validate(c, t, &q->cond, err) != BASE_OK) {
            return BASE_ERROR;
        }
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Conditional delete of an entire row is not supported.");
    }
    return BASE_OK;
}


int cql__exec_delete(cql_ctx_t *c, const cql_delete_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_DELETE;
    if (cql__stmt_table(c, &q->table, &t, err) != BASE_OK || check_writable(t, err)) {
        return BASE_ERROR;
    }
    bool cas = cql__has_conditions(&q->cond);
    if (check_using(t, &q->using_, cas, err) != BASE_OK) {
        return BASE_ERROR;
    }
    where_shape_t shape;
    cql_plan_t plan;
    cql_write_t w;
    bool none = false;
    if (delete_prepare(c, t, q, &shape, &plan, &none, err) != BASE_OK ||
        write_init(&w, c, t, &q->using_, false, err) != BASE_OK) {
        return BASE_ERROR;
    }
    size_t n_slices = plan.n_slices ? plan.n_slices : 1;
    bool one = plan.n_keys == 1;
    if (cql__admit(c, t, cas ? CQL_OP_LWT : CQL_OP_DELETE, one, one ? plan.tokens[0] : 0, err) !=
        BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t k = 0; !none && k < plan.n_keys; k++) { /* an empty IN names no row */
        for (size_t s = 0; s < n_slices; s++) {
            storage_mutation_t m = target_row(&plan, k, s);
            const cql_slice_t *sl = plan.n_slices ? &plan.slices[s] : NULL;
            bool go = true;
            if (cas && check_cas(c, t, &plan, k, &m, &shape, &q->cond, &go, err) != BASE_OK) {
                return BASE_ERROR;
            }
            if (!go) {
                return BASE_OK;
            }
            m.delete_ts = w.ts;
            int rc = q->n_targets == 0 ? delete_rows(c, t, &plan, sl, &m, err)
                                       : delete_cells(c, t, q, &w, &m, err);
            if (rc != BASE_OK) {
                return BASE_ERROR;
            }
        }
    }
    return BASE_OK;
}
