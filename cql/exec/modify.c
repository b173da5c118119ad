/*
 * modify.c - INSERT, UPDATE and DELETE: evaluate the values, build storage
 * mutations (row marker, cells, collection elements, deletions) at one
 * write timestamp, and apply them. Lightweight transactions (IF NOT EXISTS,
 * IF EXISTS, IF conditions) read the row first and answer with an
 * [applied] row, as Cassandra does; on this single node they are simply
 * serialised by the event loop.
 *
 * Collections are multi-cell: list elements are keyed by an id that sorts
 * in insertion order (appends after, prepends before every existing id),
 * set elements by their value, map entries by their key.
 */
#include "cql/exec/exec.h"

#define MAX_TTL 630720000 /* 20 years, Cassandra's cap */

typedef struct write_s {
    cql_ctx_t *c;
    const cql_table_t *t;
    int64_t ts;
    int32_t ttl;
    int64_t expires_us;
    /* cells being built for one row */
    size_t n_cells, cap_cells;
    storage_cell_t *cells;
    size_t n_clear;
    uint32_t *clear;
} write_t;


static void add_cell(write_t *w, const cql_column_t *col, const uint8_t *path, size_t path_len,
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


static void add_clear(write_t *w, const cql_column_t *col)
{
    if (w->clear == NULL) {
        w->clear = base_arena_alloc(w->c->a, w->t->n_cols * sizeof(*w->clear));
    }
    w->clear[w->n_clear++] = col->id;
}


/* List element ids: 8 bytes, big-endian, so memcmp order is insertion order. */
static uint64_t list_seq;

static const uint8_t *list_id(write_t *w, bool prepend)
{
    uint64_t tick = (uint64_t)w->c->now_us * 64 + (list_seq++ & 63);
    uint64_t id = prepend ? (1ULL << 63) - tick : (1ULL << 63) + tick;
    uint8_t *p = base_arena_alloc(w->c->a, 8);
    base_store_u64(p, id);
    return p;
}


static int collection_cells(write_t *w, const cql_column_t *col, wire_value_t v, bool prepend,
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
            add_cell(w, col, list_id(w, prepend), 8, keys[k], false);
        } else if (col->type->id == WIRE_TYPE_SET) {
            wire_value_t empty = {NULL, 0};
            add_cell(w, col, keys[i].ptr, (size_t)keys[i].len, empty, false);
        } else {
            add_cell(w, col, keys[i].ptr, (size_t)keys[i].len, vals[i], false);
        }
    }
    return BASE_OK;
}


static bool multi_cell(const cql_column_t *col)
{
    return cql__type_is_collection(col->type) && !col->type->frozen;
}


/* SET c = v: for a multi-cell collection, replace all elements. */
static int set_column(write_t *w, const cql_column_t *col, wire_value_t v, base_error_t *err)
{
    if (v.len == WIRE_VALUE_UNSET) {
        return BASE_OK;
    }
    if (!multi_cell(col)) {
        add_cell(w, col, NULL, 0, v, false);
        return BASE_OK;
    }
    add_clear(w, col);
    if (v.len < 0) {
        return BASE_OK;
    }
    return collection_cells(w, col, v, false, err);
}


static int write_init(write_t *w, cql_ctx_t *c, const cql_table_t *t, const cql_using_t *u,
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
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value of TTL");
        }
        if (ttl < 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "A TTL must be greater or equal to 0, but was %lld",
                                  (long long)ttl);
        }
        if (ttl > MAX_TTL) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "ttl is too large. requested (%lld) maximum (%d)", (long long)ttl,
                                  MAX_TTL);
        }
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


static void note_write(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
                       const storage_write_stats_t *ws)
{
    cql_stats_t *st = &c->out->stats;
    if (st->table == NULL) { /* a batch is metered against its first table */
        st->keyspace = t->ks->name;
        st->table = t->name;
    }
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
    cql__note_token(c, t, m->token);
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

static size_t mutation_bytes(const storage_mutation_t *m)
{
    size_t n = m->pk_len + m->ck_len;
    for (size_t i = 0; i < m->n_cells; i++) {
        n += m->cells[i].value_len + m->cells[i].path_len;
    }
    return n;
}


/* A mutation waiting for its batch to be fully checked. */
typedef struct cql_pending_s {
    const cql_table_t *t;
    storage_mutation_t m;
} cql_pending_t;


/* Applies one mutation. A durable database that cannot log it refuses it (and
 * changes nothing), so the client is never told a write it would lose succeeded. */
static int write_now(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
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
static int write_pending(cql_ctx_t *c, base_error_t *err)
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


static bool replaced_by(const storage_mutation_t *m, const storage_cell_t *old)
{
    for (size_t i = 0; i < m->n_clear_cols; i++) {
        if (m->clear_cols[i] == old->col) {
            return true;
        }
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


/* The size of the row once m is applied: its own bytes plus what it keeps of the stored
 * row. Only looked at closely when the whole partition could pass the item limit. */
static size_t row_bytes_after(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m)
{
    size_t bytes = mutation_bytes(m);
    if (m->delete_partition || m->delete_row || m->delete_range || m->n_cells == 0) {
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


static int apply(cql_ctx_t *c, const cql_table_t *t, storage_mutation_t *m, base_error_t *err)
{
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
        return write_now(c, t, m, err);
    }
    if (c->n_pending == c->cap_pending) {
        size_t cap = c->cap_pending ? c->cap_pending * 2 : 16;
        cql_pending_t *p = base_arena_alloc(c->a, cap * sizeof(*p));
        if (c->n_pending > 0) {
            memcpy(p, c->pending, c->n_pending * sizeof(*p));
        }
        c->pending = p;
        c->cap_pending = cap;
    }
    c->pending[c->n_pending++] = (cql_pending_t){t, *m};
    return BASE_OK;
}


/* ---- lightweight transactions ----------------------------------------------------------- */

static void lwt_result(cql_ctx_t *c, const cql_table_t *t, bool applied, const cql_rec_t *existing,
                       const cql_conditions_t *cond)
{
    size_t n = 1;
    wire_col_spec_t *cols = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*cols));
    wire_value_t *row = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*row));
    cols[0] = (wire_col_spec_t){t->ks->name, t->name, "[applied]", cql__native_boolean()};
    row[0] = cql__value_bool(c->a, applied);
    if (!applied && existing != NULL) {
        for (size_t i = 0; i < t->n_cols; i++) {
            bool want = cond->if_not_exists || cond->if_exists;
            for (size_t k = 0; !want && k < cond->n; k++) {
                want = strcmp(cond->conds[k].column, t->cols[i].name) == 0;
            }
            if (!want) {
                continue;
            }
            cols[n] = (wire_col_spec_t){t->ks->name, t->name, t->cols[i].name, t->cols[i].type};
            row[n++] = existing->vals[i];
        }
    }
    c->out->kind = WIRE_RESULT_ROWS;
    /* the columns depend on the outcome, so the metadata always goes with them */
    c->out->no_metadata = false;
    c->out->cols = cols;
    c->out->n_cols = n;
    c->out->cells = row;
    c->out->n_rows = 1;
}


/* IF m['k'] = v / IF l[i] = v: narrows the stored collection to one element. */
static int element_condition(cql_ctx_t *c, const cql_column_t *col, const cql_term_t *element,
                             wire_value_t *have, const wire_type_t **type, base_error_t *err)
{
    bool map = col->type->id == WIRE_TYPE_MAP;
    if (!map && col->type->id != WIRE_TYPE_LIST) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid element access syntax for non-collection column %s",
                              col->name);
    }
    wire_value_t key;
    const wire_type_t *kt = map ? col->type->sub[0] : cql__native_int();
    if (cql__term_eval(element, kt, col->name, &c->binds, c->a, &key, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (key.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for %s element access",
                              map ? "map" : "list");
    }
    *type = map ? col->type->sub[1] : col->type->sub[0];
    wire_value_t found = {NULL, WIRE_VALUE_NULL};
    wire_value_t *keys, *vals = NULL;
    ssize_t n = have->len < 0
                    ? 0
                    : cql__collection_split(col->type, *have, c->a, &keys, map ? &vals : NULL);
    if (map) {
        for (ssize_t i = 0; i < n; i++) {
            if (cql__value_compare(kt, keys[i], key) == 0) {
                found = vals[i];
            }
        }
    } else if (key.len == 4) {
        int32_t idx = (int32_t)base_load_u32(key.ptr);
        if (idx >= 0 && idx < n) {
            found = keys[idx];
        }
    }
    *have = found;
    return BASE_OK;
}


static int eval_condition(cql_ctx_t *c, const cql_table_t *t, const cql_condition_t *cd,
                          const cql_rec_t *rec, bool *holds, base_error_t *err)
{
    const cql_column_t *col = cql__column_find(t, cd->column);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", cd->column);
    }
    if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "PRIMARY KEY column '%s' cannot have IF conditions", col->name);
    }
    wire_value_t have = rec ? rec->vals[col - t->cols] : (wire_value_t){NULL, WIRE_VALUE_NULL};
    const wire_type_t *type = col->type;
    if (cd->element != NULL &&
        element_condition(c, col, cd->element, &have, &type, err) != BASE_OK) {
        return BASE_ERROR;
    }
    size_t n = cd->op == CQL_OP_IN ? cd->n_in : 1;
    *holds = false;
    for (size_t i = 0; i < n; i++) {
        const cql_term_t *term = cd->op == CQL_OP_IN ? cd->in_values[i] : cd->rhs;
        wire_value_t want;
        if (cql__term_eval(term, type, col->name, &c->binds, c->a, &want, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (have.len < 0 || want.len < 0) {
            bool both_null = have.len < 0 && want.len < 0;
            *holds |= (cd->op == CQL_OP_EQ || cd->op == CQL_OP_IN) ? both_null
                      : cd->op == CQL_OP_NEQ                       ? !both_null
                                                                   : false;
            continue;
        }
        int cmp = cql__value_compare(type, have, want);
        switch (cd->op) {
        case CQL_OP_EQ:
        case CQL_OP_IN:
            *holds |= cmp == 0;
            break;
        case CQL_OP_NEQ:
            *holds |= cmp != 0;
            break;
        case CQL_OP_LT:
            *holds |= cmp < 0;
            break;
        case CQL_OP_LTE:
            *holds |= cmp <= 0;
            break;
        case CQL_OP_GT:
            *holds |= cmp > 0;
            break;
        case CQL_OP_GTE:
            *holds |= cmp >= 0;
            break;
        default:
            return base_error_set(err, WIRE_ERR_INVALID, "Unsupported condition operator");
        }
    }
    return BASE_OK;
}


/* Decides a conditional write; *go says whether to apply it. */
static int lwt_check(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                     const storage_bound_t *ck, const cql_conditions_t *cond, bool *go,
                     base_error_t *err)
{
    cql_rec_t rec;
    bool exists = cql__rec_read(c, t, pk, token, ck ? ck->key : NULL, ck ? ck->len : 0, &rec);
    c->out->stats.kind = CQL_OP_LWT;
    c->out->stats.rows_read++;
    bool applied = true;
    if (cond->if_not_exists) {
        applied = !exists;
    } else if (cond->if_exists) {
        applied = exists;
    } else {
        for (size_t i = 0; i < cond->n && applied; i++) {
            bool holds = false;
            if (eval_condition(c, t, &cond->conds[i], exists ? &rec : NULL, &holds, err) !=
                BASE_OK) {
                return BASE_ERROR;
            }
            applied = holds;
        }
    }
    lwt_result(c, t, applied, exists ? &rec : NULL, cond);
    *go = applied;
    c->lwt_refused |= !applied; /* a conditional batch applies all or nothing */
    return BASE_OK;
}


static bool has_conditions(const cql_conditions_t *cond)
{
    return cond->if_exists || cond->if_not_exists || cond->n > 0;
}


/* ---- INSERT ------------------------------------------------------------------------------ */

static int missing_key(const cql_table_t *t, const bool *given, base_error_t *err)
{
    for (size_t i = 0; i < t->n_pk; i++) {
        if (!given[t->pk[i] - t->cols]) {
            return base_error_set(err, WIRE_ERR_INVALID, "Some partition key parts are missing: %s",
                                  t->pk[i]->name);
        }
    }
    for (size_t i = 0; i < t->n_ck; i++) {
        if (!given[t->ck[i] - t->cols]) {
            return base_error_set(err, WIRE_ERR_INVALID, "Some clustering keys are missing: %s",
                                  t->ck[i]->name);
        }
    }
    return BASE_OK;
}


static int key_value(const cql_column_t *col, wire_value_t v, base_error_t *err)
{
    if (v.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for column %s",
                              col->name);
    }
    if (v.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for %s key part %s",
                              col->kind == CQL_COL_PARTITION ? "partition" : "clustering",
                              col->name);
    }
    if (col->kind == CQL_COL_PARTITION && v.len > 65535) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Key length of %d is longer than maximum of 65535", v.len);
    }
    return BASE_OK;
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
    if (text.len < 0) {
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


int cql__exec_insert(cql_ctx_t *c, const cql_insert_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_WRITE;
    if (cql__resolve_table(c, &q->table, &t, err) != BASE_OK || check_writable(t, err)) {
        return BASE_ERROR;
    }
    if (t->has_counters) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "INSERT statements are not allowed on counter tables, use UPDATE "
                              "instead");
    }
    write_t w;
    if (write_init(&w, c, t, &q->using_, true, err) != BASE_OK) {
        return BASE_ERROR;
    }
    bool *given = base_arena_calloc(c->a, t->n_cols, sizeof(bool));
    wire_value_t *vals = base_arena_alloc(c->a, t->n_cols * sizeof(*vals));
    if (q->json != NULL && json_values(c, t, q, given, vals, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < q->n_columns; i++) {
        const cql_column_t *col = cql__column_find(t, q->columns[i]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", q->columns[i]);
        }
        size_t idx = (size_t)(col - t->cols);
        if (given[idx]) {
            return base_error_set(err, WIRE_ERR_INVALID, "Multiple definitions found for column %s",
                                  col->name);
        }
        given[idx] = true;
        if (cql__term_eval(q->values[i], col->type, col->name, &c->binds, c->a, &vals[idx], err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (missing_key(t, given, err) != BASE_OK) {
        return BASE_ERROR;
    }
    /* Key arrays are sized from the schema: a table may have any number of key columns. */
    wire_value_t *parts = base_arena_alloc(c->a, t->n_pk * sizeof(*parts));
    for (size_t i = 0; i < t->n_pk; i++) {
        parts[i] = vals[t->pk[i] - t->cols];
        if (key_value(t->pk[i], parts[i], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    for (size_t i = 0; i < t->n_ck; i++) {
        if (key_value(t->ck[i], vals[t->ck[i] - t->cols], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    storage_mutation_t m = {0};
    wire_value_t pk = cql__pk_compose(parts, t->n_pk, c->a);
    m.pk = pk.ptr;
    m.pk_len = (size_t)pk.len;
    m.token = storage_token(m.pk, m.pk_len);
    base_buf_t ck;
    base_buf_init(&ck);
    wire_value_t *ckv = base_arena_alloc(c->a, (t->n_ck ? t->n_ck : 1) * sizeof(*ckv));
    for (size_t i = 0; i < t->n_ck; i++) {
        ckv[i] = vals[t->ck[i] - t->cols];
    }
    cql__ck_encode(&ck, t, ckv, t->n_ck);
    m.ck = base_arena_memdup(c->a, ck.data, ck.len);
    m.ck_len = ck.len;
    base_buf_fini(&ck);
    if (cql__admit(c, t, q->if_not_exists ? CQL_OP_LWT : CQL_OP_WRITE, true, m.token, err) !=
        BASE_OK) {
        return BASE_ERROR;
    }
    if (q->if_not_exists) {
        cql_conditions_t cond = {.if_not_exists = true};
        storage_bound_t b = {m.ck, m.ck_len, true};
        bool go = false;
        if (lwt_check(c, t, pk, m.token, &b, &cond, &go, err) != BASE_OK || !go) {
            return go ? BASE_ERROR : BASE_OK;
        }
    }
    m.row_marker = true;
    m.marker_ts = w.ts;
    m.marker_ttl = w.ttl;
    m.marker_expires_us = w.expires_us;
    /* static cells go to the partition's static row in a second mutation */
    write_t ws = w;
    ws.cells = NULL, ws.n_cells = ws.cap_cells = 0, ws.clear = NULL, ws.n_clear = 0;
    for (size_t i = 0; i < t->n_cols; i++) {
        const cql_column_t *col = &t->cols[i];
        if (!given[i] || col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
            continue;
        }
        if (set_column(col->kind == CQL_COL_STATIC ? &ws : &w, col, vals[i], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    m.cells = w.cells;
    m.n_cells = w.n_cells;
    m.clear_cols = w.clear;
    m.n_clear_cols = w.n_clear;
    m.delete_ts = w.ts - 1; /* replacing a collection deletes it just before the write */
    if (apply(c, t, &m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (ws.n_cells > 0 || ws.n_clear > 0) {
        storage_mutation_t sm = {
            .pk = m.pk, .pk_len = m.pk_len, .token = m.token, .static_row = true};
        sm.cells = ws.cells;
        sm.n_cells = ws.n_cells;
        sm.clear_cols = ws.clear;
        sm.n_clear_cols = ws.n_clear;
        sm.delete_ts = ws.ts - 1;
        if (apply(c, t, &sm, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


/* ---- UPDATE / DELETE ---------------------------------------------------------------------- */

/* UPDATE and DELETE name rows by EQ/IN on the whole partition key and, unless
 * only static columns or whole partitions are touched, on the clustering key. */
static int check_modification_where(const cql_table_t *t, const cql_relation_t *where,
                                    size_t n_where, bool need_ck, bool allow_ck_slice,
                                    base_error_t *err)
{
    bool *seen = base_calloc(t->n_cols + 1, sizeof(bool));
    int rc = BASE_OK;
    for (size_t i = 0; i < n_where && rc == BASE_OK; i++) {
        const cql_relation_t *r = &where[i];
        if (r->lhs != CQL_LHS_COLUMN) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                "Only column relations are supported in the WHERE clause of "
                                "modification statements");
            break;
        }
        const cql_column_t *col = cql__column_find(t, r->columns[0]);
        if (col == NULL) {
            rc = base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", r->columns[0]);
        } else if (col->kind != CQL_COL_PARTITION && col->kind != CQL_COL_CLUSTERING) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                "Non PRIMARY KEY columns found in where clause: %s", col->name);
        } else if (r->op != CQL_OP_EQ && r->op != CQL_OP_IN &&
                   (col->kind == CQL_COL_PARTITION || !allow_ck_slice)) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                col->kind == CQL_COL_PARTITION
                                    ? "Only EQ and IN relation are supported on the partition key "
                                      "(unless you use the token() function)"
                                    : "Slice restrictions are not supported on the clustering "
                                      "columns in UPDATE statements");
        } else {
            seen[col - t->cols] = true;
        }
    }
    for (size_t i = 0; i < t->n_pk && rc == BASE_OK; i++) {
        if (!seen[t->pk[i] - t->cols]) {
            rc = base_error_set(err, WIRE_ERR_INVALID, "Some partition key parts are missing: %s",
                                t->pk[i]->name);
        }
    }
    for (size_t i = 0; need_ck && i < t->n_ck && rc == BASE_OK; i++) {
        if (!seen[t->ck[i] - t->cols]) {
            rc = base_error_set(err, WIRE_ERR_INVALID, "Some clustering keys are missing: %s",
                                t->ck[i]->name);
        }
    }
    base_free(seen);
    return rc;
}


/* A counter value a batch already holds for this cell, newest first: two
 * increments of one counter in one batch add up. */
static bool pending_counter(const cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m,
                            uint32_t col, wire_value_t *out)
{
    for (size_t i = c->n_pending; i-- > 0;) {
        const cql_pending_t *p = &c->pending[i];
        if (p->t != t || p->m.pk_len != m->pk_len || p->m.ck_len != m->ck_len ||
            memcmp(p->m.pk, m->pk, m->pk_len) != 0 ||
            (m->ck_len > 0 && memcmp(p->m.ck, m->ck, m->ck_len) != 0)) {
            continue;
        }
        for (size_t k = 0; k < p->m.n_cells; k++) {
            if (p->m.cells[k].col == col) {
                *out = (wire_value_t){p->m.cells[k].value, (int32_t)p->m.cells[k].value_len};
                return true;
            }
        }
    }
    return false;
}


static int counter_add(write_t *w, const cql_column_t *col, const cql_rec_t *row, bool exists,
                       const storage_mutation_t *m, wire_value_t delta, bool negate,
                       base_error_t *err)
{
    if (delta.len != 8) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for counter increment");
    }
    int64_t cur = 0;
    wire_value_t have = exists ? row->vals[col - w->t->cols] : (wire_value_t){NULL, -1};
    if (w->c->defer) {
        pending_counter(w->c, w->t, m, col->id, &have);
    }
    if (have.len == 8) {
        cur = (int64_t)base_load_u64(have.ptr);
    }
    int64_t d = (int64_t)base_load_u64(delta.ptr);
    int64_t next = (int64_t)((uint64_t)cur + (uint64_t)(negate ? -(uint64_t)d : (uint64_t)d));
    add_cell(w, col, NULL, 0, cql__value_bigint(w->c->a, next), false);
    return BASE_OK;
}


/* The stored element cells of a multi-cell column in the row m targets; they
 * borrow from storage and stay valid until the next write. */
static size_t stored_elements(write_t *w, const storage_mutation_t *m, const cql_column_t *col,
                              const storage_cell_t **out)
{
    *out = NULL;
    storage_partition_t *p = storage_partition_get(w->t->st, m->token, m->pk, m->pk_len);
    if (p == NULL) {
        return 0;
    }
    storage_row_view_t rv;
    size_t n = 0;
    if (cql__stored_row(w->c, p, m->ck, m->ck_len, &rv)) {
        for (size_t i = 0; i < rv.n_cells; i++) {
            if (rv.cells[i].col == col->id) {
                *out = *out ? *out : &rv.cells[i];
                n++;
            }
        }
    }
    return n;
}


static int list_set_index(write_t *w, const cql_column_t *col, wire_value_t key, wire_value_t v,
                          const storage_mutation_t *m, base_error_t *err)
{
    if (key.len != 4) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for list index");
    }
    int32_t idx = (int32_t)base_load_u32(key.ptr);
    const storage_cell_t *cells;
    size_t n = stored_elements(w, m, col, &cells);
    if (idx < 0 || (size_t)idx >= n) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "List index %d out of bound, list has size %zu", idx, n);
    }
    const uint8_t *path = base_arena_memdup(w->c->a, cells[idx].path, cells[idx].path_len);
    add_cell(w, col, path, cells[idx].path_len, v, v.len < 0);
    return BASE_OK;
}


/* c = c - v: set elements and map keys are tombstoned by their path; list
 * elements by the ids of every stored element equal to one of v's. */
static int remove_elements(write_t *w, const cql_column_t *col, wire_value_t v,
                           const storage_mutation_t *m, base_error_t *err)
{
    const wire_type_t *vt =
        col->type->id == WIRE_TYPE_MAP
            ? cql__type_collection(w->c->a, WIRE_TYPE_SET, true, &col->type->sub[0], 1)
            : col->type;
    wire_value_t *keys;
    ssize_t n = cql__collection_split(vt, v, w->c->a, &keys, NULL);
    if (n < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid collection value for column %s",
                              col->name);
    }
    wire_value_t none = {NULL, WIRE_VALUE_NULL};
    if (col->type->id != WIRE_TYPE_LIST) {
        for (ssize_t i = 0; i < n; i++) {
            add_cell(w, col, keys[i].ptr, (size_t)keys[i].len, none, true);
        }
        return BASE_OK;
    }
    const storage_cell_t *cells;
    size_t n_stored = stored_elements(w, m, col, &cells);
    for (size_t k = 0; k < n_stored; k++) {
        wire_value_t have = {cells[k].value, (int32_t)cells[k].value_len};
        for (ssize_t i = 0; i < n; i++) {
            if (cql__value_compare(col->type->sub[0], have, keys[i]) == 0) {
                const uint8_t *path = base_arena_memdup(w->c->a, cells[k].path, cells[k].path_len);
                add_cell(w, col, path, cells[k].path_len, none, true);
                break;
            }
        }
    }
    return BASE_OK;
}


/* u.f = v needs a non-frozen user type (Cassandra 3.11 refuses frozen ones). */
static int udt_field_index(const cql_column_t *col, const char *name, base_error_t *err)
{
    const wire_type_t *u = col->type;
    if (u->id != WIRE_TYPE_UDT) {
        base_error_set(err, WIRE_ERR_INVALID, "Invalid operation (%s.%s = ?) for non-UDT column %s",
                       col->name, name, col->name);
        return -1;
    }
    if (u->frozen) {
        base_error_set(err, WIRE_ERR_INVALID,
                       "Invalid operation (%s.%s = ?) for frozen UDT column %s", col->name, name,
                       col->name);
        return -1;
    }
    for (uint16_t k = 0; k < u->n_sub; k++) {
        if (strcmp(u->field_names[k], name) == 0) {
            return k;
        }
    }
    base_error_set(err, WIRE_ERR_INVALID, "UDT column %s does not have a field named %s", col->name,
                   name);
    return -1;
}


/* The stored user type value with field k replaced (fields past the stored ones null). */
static wire_value_t udt_with_field(base_arena_t *a, const wire_type_t *u, wire_value_t old, int k,
                                   wire_value_t v)
{
    size_t n = u->n_sub;
    BASE_ASSERT(k >= 0 && (size_t)k < n);
    wire_value_t *fields = base_arena_alloc(a, n * sizeof(*fields));
    wire_reader_t rd;
    wire_reader_init(&rd, old.len > 0 ? old.ptr : NULL, old.len > 0 ? (size_t)old.len : 0);
    for (size_t i = 0; i < n; i++) {
        fields[i] = wire_reader_remaining(&rd) > 0 ? wire_read_bytes(&rd)
                                                   : (wire_value_t){NULL, WIRE_VALUE_NULL};
        if (!wire_reader_ok(&rd)) {
            fields[i] = (wire_value_t){NULL, WIRE_VALUE_NULL};
        }
    }
    fields[k] = v.len == WIRE_VALUE_UNSET ? fields[k] : v;
    base_buf_t b;
    base_buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        base_buf_put_u32(&b, (uint32_t)(fields[i].len < 0 ? -1 : fields[i].len));
        if (fields[i].len > 0) {
            base_buf_put(&b, fields[i].ptr, (size_t)fields[i].len);
        }
    }
    wire_value_t out = cql__value_blob(a, b.data, b.len);
    base_buf_fini(&b);
    return out;
}


/* The type an assignment's value is evaluated as: the column's, a field's or an
 * element's, bigint for counter deltas, a set of keys for "m = m - {...}". */
static int assignment_type(cql_ctx_t *c, const cql_column_t *col, const cql_assignment_t *as,
                           int field, const wire_type_t **out, base_error_t *err)
{
    const wire_type_t *t = field >= 0 ? col->type->sub[field] : col->type;
    if (as->kind == CQL_ASSIGN_ELEMENT) {
        if (col->type->id != WIRE_TYPE_MAP && col->type->id != WIRE_TYPE_LIST) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid operation (%s[?] = ?) for non list/map column %s",
                                  col->name, col->name);
        }
        t = col->type->sub[col->type->id == WIRE_TYPE_MAP ? 1 : 0];
    }
    if (col->counter) {
        if (as->kind != CQL_ASSIGN_ADD && as->kind != CQL_ASSIGN_SUB) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot set the value of counter column %s (counters can only "
                                  "be incremented/decremented, not set)",
                                  col->name);
        }
        t = cql__native_bigint();
    } else if (as->kind == CQL_ASSIGN_SUB && col->type->id == WIRE_TYPE_MAP) {
        t = cql__type_collection(c->a, WIRE_TYPE_SET, true, &col->type->sub[0], 1);
    }
    *out = t;
    return BASE_OK;
}


/* What the row holds before the statement, for counters and field updates. */
typedef struct stored_row_s {
    bool read;
    bool exists;
    cql_rec_t rec;
} stored_row_t;


static int assign_one(cql_ctx_t *c, write_t *dst, const cql_column_t *col,
                      const cql_assignment_t *as, int field, wire_value_t v, const stored_row_t *sr,
                      const storage_mutation_t *m, base_error_t *err)
{
    const cql_table_t *t = dst->t;
    if (col->counter) {
        return counter_add(dst, col, &sr->rec, sr->exists, m, v, as->kind == CQL_ASSIGN_SUB, err);
    }
    switch (as->kind) {
    case CQL_ASSIGN_SET:
        return set_column(dst, col, v, err);
    case CQL_ASSIGN_ADD:
    case CQL_ASSIGN_PREPEND:
        if (!multi_cell(col)) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid operation (%s = %s + ?) for non counter column %s",
                                  col->name, col->name, col->name);
        }
        return v.len < 0 ? BASE_OK
                         : collection_cells(dst, col, v, as->kind == CQL_ASSIGN_PREPEND, err);
    case CQL_ASSIGN_SUB:
        if (!multi_cell(col)) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid operation (%s = %s - ?) for non counter column %s",
                                  col->name, col->name, col->name);
        }
        return v.len < 0 ? BASE_OK : remove_elements(dst, col, v, m, err);
    case CQL_ASSIGN_ELEMENT: {
        bool map = col->type->id == WIRE_TYPE_MAP;
        wire_value_t key;
        if (cql__term_eval(as->key, map ? col->type->sub[0] : cql__native_int(), col->name,
                           &c->binds, c->a, &key, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (!map) {
            return list_set_index(dst, col, key, v, m, err);
        }
        if (key.len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null map key");
        }
        add_cell(dst, col, key.ptr, (size_t)key.len, v, v.len < 0);
        return BASE_OK;
    }
    default: { /* CQL_ASSIGN_FIELD */
        wire_value_t old =
            sr->exists ? sr->rec.vals[col - t->cols] : (wire_value_t){NULL, WIRE_VALUE_NULL};
        add_cell(dst, col, NULL, 0, udt_with_field(c->a, col->type, old, field, v), false);
        return BASE_OK;
    }
    }
}


static int update_row(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q, write_t *w,
                      write_t *ws, storage_mutation_t *m, base_error_t *err)
{
    stored_row_t sr = {0};
    for (size_t i = 0; i < q->n_assign; i++) {
        const cql_assignment_t *as = &q->assign[i];
        const cql_column_t *col = cql__column_find(t, as->column);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", as->column);
        }
        if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID, "PRIMARY KEY part %s found in SET part",
                                  col->name);
        }
        int field = -1;
        if (as->kind == CQL_ASSIGN_FIELD && (field = udt_field_index(col, as->field, err)) < 0) {
            return BASE_ERROR;
        }
        /* counters add to what is stored; a field update rewrites the stored value */
        if ((col->counter || field >= 0) && !sr.read) {
            wire_value_t pk = {m->pk, (int32_t)m->pk_len};
            sr.exists = cql__rec_read(c, t, pk, m->token, m->ck, m->ck_len, &sr.rec);
            sr.read = true;
        }
        const wire_type_t *type = NULL;
        wire_value_t v;
        if (assignment_type(c, col, as, field, &type, err) != BASE_OK ||
            cql__term_eval(as->value, type, col->name, &c->binds, c->a, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (v.len == WIRE_VALUE_UNSET) {
            continue;
        }
        write_t *dst = col->kind == CQL_COL_STATIC ? ws : w;
        if (assign_one(c, dst, col, as, field, v, &sr, m, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


/* Iterates the partition keys and clustering slices a modification names. */
static int modify_targets(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where,
                          size_t n_where, cql_plan_t *plan, base_error_t *err)
{
    if (cql__plan_where(c, t, where, n_where, false, plan, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (plan->scan || plan->n_keys == 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Some partition key parts are missing: %s",
                              t->pk[0]->name);
    }
    return BASE_OK;
}


int cql__exec_update(cql_ctx_t *c, const cql_update_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_WRITE;
    if (cql__resolve_table(c, &q->table, &t, err) != BASE_OK || check_writable(t, err)) {
        return BASE_ERROR;
    }
    bool only_static = q->n_assign > 0;
    for (size_t i = 0; i < q->n_assign; i++) {
        const cql_column_t *col = cql__column_find(t, q->assign[i].column);
        only_static &= col != NULL && col->kind == CQL_COL_STATIC;
    }
    if (check_modification_where(t, q->where, q->n_where, !only_static, false, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_plan_t plan;
    write_t w, ws;
    if (modify_targets(c, t, q->where, q->n_where, &plan, err) != BASE_OK ||
        write_init(&w, c, t, &q->using_, true, err) != BASE_OK) {
        return BASE_ERROR;
    }
    size_t n_slices = plan.n_slices ? plan.n_slices : 1;
    bool one = plan.n_keys == 1;
    if (cql__admit(c, t, has_conditions(&q->cond) ? CQL_OP_LWT : CQL_OP_WRITE, one,
                   one ? plan.tokens[0] : 0, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (has_conditions(&q->cond) && (plan.n_keys > 1 || n_slices > 1)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "IN on the clustering key columns is not supported with conditional "
                              "updates");
    }
    for (size_t k = 0; k < plan.n_keys; k++) {
        for (size_t s = 0; s < n_slices; s++) {
            storage_mutation_t m = {.pk = plan.keys[k].ptr,
                                    .pk_len = (size_t)plan.keys[k].len,
                                    .token = plan.tokens[k]};
            if (plan.n_slices) {
                m.ck = plan.slices[s].start.key;
                m.ck_len = plan.slices[s].start.len;
            }
            if (has_conditions(&q->cond)) {
                storage_bound_t b = {m.ck, m.ck_len, true};
                bool go = false;
                if (lwt_check(c, t, plan.keys[k], m.token, &b, &q->cond, &go, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                if (!go) {
                    return BASE_OK;
                }
            }
            w.n_cells = w.n_clear = 0;
            ws = w;
            ws.cells = NULL, ws.n_cells = ws.cap_cells = 0, ws.clear = NULL;
            w.cells = NULL, w.cap_cells = 0, w.clear = NULL;
            if (update_row(c, t, q, &w, &ws, &m, err) != BASE_OK) {
                return BASE_ERROR;
            }
            if (w.n_cells > 0 || w.n_clear > 0) {
                m.cells = w.cells, m.n_cells = w.n_cells;
                m.clear_cols = w.clear, m.n_clear_cols = w.n_clear;
                m.delete_ts = w.ts - 1;
                if (apply(c, t, &m, err) != BASE_OK) {
                    return BASE_ERROR;
                }
            }
            if (ws.n_cells > 0 || ws.n_clear > 0) {
                storage_mutation_t sm = {
                    .pk = m.pk, .pk_len = m.pk_len, .token = m.token, .static_row = true};
                sm.cells = ws.cells, sm.n_cells = ws.n_cells;
                sm.clear_cols = ws.clear, sm.n_clear_cols = ws.n_clear;
                sm.delete_ts = ws.ts - 1;
                if (apply(c, t, &sm, err) != BASE_OK) {
                    return BASE_ERROR;
                }
            }
        }
    }
    return BASE_OK;
}


int cql__exec_delete(cql_ctx_t *c, const cql_delete_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_DELETE;
    if (cql__resolve_table(c, &q->table, &t, err) != BASE_OK || check_writable(t, err)) {
        return BASE_ERROR;
    }
    bool columns = q->n_targets > 0;
    if (check_modification_where(t, q->where, q->n_where, columns && !has_conditions(&q->cond),
                                 !columns, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (c->e->cfg.profile == CQL_PROFILE_COSMOS && !columns && q->cond.if_exists) {
        /* the service's text, without the cell-level timestamp table options */
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Conditional delete of an entire row is not supported.");
    }
    cql_plan_t plan;
    write_t w;
    if (modify_targets(c, t, q->where, q->n_where, &plan, err) != BASE_OK ||
        write_init(&w, c, t, &q->using_, false, err) != BASE_OK) {
        return BASE_ERROR;
    }
    size_t n_slices = plan.n_slices ? plan.n_slices : 1;
    bool one = plan.n_keys == 1;
    if (cql__admit(c, t, has_conditions(&q->cond) ? CQL_OP_LWT : CQL_OP_DELETE, one,
                   one ? plan.tokens[0] : 0, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t k = 0; k < plan.n_keys; k++) {
        for (size_t s = 0; s < n_slices; s++) {
            storage_mutation_t m = {.pk = plan.keys[k].ptr,
                                    .pk_len = (size_t)plan.keys[k].len,
                                    .token = plan.tokens[k]};
            const cql_slice_t *sl = plan.n_slices ? &plan.slices[s] : NULL;
            if (has_conditions(&q->cond)) {
                storage_bound_t b = sl ? sl->start : (storage_bound_t){NULL, 0, true};
                bool go = false;
                if (lwt_check(c, t, plan.keys[k], m.token, &b, &q->cond, &go, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                if (!go) {
                    return BASE_OK;
                }
            }
            m.delete_ts = w.ts;
            if (!columns) {
                if (sl == NULL) {
                    m.delete_partition = true;
                } else if (plan.point || (plan.n_slices > 1 && sl->start.key == sl->end.key &&
                                          sl->start.len == sl->end.len)) {
                    m.ck = sl->start.key, m.ck_len = sl->start.len;
                    m.delete_row = true;
                } else {
                    m.delete_range = true;
                    m.range_start = sl->start;
                    m.range_end = sl->end;
                }
                if (apply(c, t, &m, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                continue;
            }
            if (sl != NULL) {
                m.ck = sl->start.key, m.ck_len = sl->start.len;
            }
            w.n_cells = 0, w.n_clear = 0;
            bool statics = false;
            for (size_t i = 0; i < q->n_targets; i++) {
                const cql_delete_target_t *d = &q->targets[i];
                const cql_column_t *col = cql__column_find(t, d->column);
                if (col == NULL) {
                    return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s",
                                          d->column);
                }
                if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
                    return base_error_set(err, WIRE_ERR_INVALID,
                                          "Invalid identifier %s for deletion (should not be a "
                                          "PRIMARY KEY part)",
                                          col->name);
                }
                statics |= col->kind == CQL_COL_STATIC;
                wire_value_t none = {NULL, WIRE_VALUE_NULL};
                if (d->element != NULL && col->type->id == WIRE_TYPE_MAP) {
                    wire_value_t key;
                    if (cql__term_eval(d->element, col->type->sub[0], col->name, &c->binds, c->a,
                                       &key, err) != BASE_OK) {
                        return BASE_ERROR;
                    }
                    add_cell(&w, col, key.ptr, key.len > 0 ? (size_t)key.len : 0, none, true);
                } else if (multi_cell(col)) {
                    add_clear(&w, col);
                } else {
                    add_cell(&w, col, NULL, 0, none, true);
                }
            }
            m.static_row = statics && t->n_ck > 0 && sl == NULL;
            m.cells = w.cells, m.n_cells = w.n_cells;
            m.clear_cols = w.clear, m.n_clear_cols = w.n_clear;
            if (apply(c, t, &m, err) != BASE_OK) {
                return BASE_ERROR;
            }
        }
    }
    return BASE_OK;
}


/* ---- BATCH --------------------------------------------------------------------------------- */

/* The distinct partitions and tables of a batch, and its size, for the guard-rails. */
typedef struct batch_shape_s {
    size_t bytes;
    size_t n_partitions;
    const char *tables; /* "[ks.a, ks.b]", as Cassandra prints a set */
    size_t n_tables;
    bool counters, others;
} batch_shape_t;


static void batch_shape(cql_ctx_t *c, batch_shape_t *out)
{
    memset(out, 0, sizeof(*out));
    base_buf_t names;
    base_buf_init(&names);
    base_buf_put_u8(&names, '[');
    for (size_t i = 0; i < c->n_pending; i++) {
        const cql_pending_t *p = &c->pending[i];
        out->bytes += mutation_bytes(&p->m);
        out->counters |= p->t->has_counters;
        out->others |= !p->t->has_counters;
        bool seen_part = false, seen_table = false;
        for (size_t j = 0; j < i; j++) {
            const cql_pending_t *q = &c->pending[j];
            seen_table |= q->t == p->t;
            seen_part |= q->t == p->t && q->m.pk_len == p->m.pk_len &&
                         memcmp(q->m.pk, p->m.pk, p->m.pk_len) == 0;
        }
        out->n_partitions += !seen_part;
        if (!seen_table) {
            base_buf_printf(&names, "%s%s.%s", out->n_tables++ ? ", " : "", p->t->ks->name,
                            p->t->name);
        }
    }
    base_buf_put_u8(&names, ']');
    out->tables = base_arena_strndup(c->a, (const char *)names.data, names.len);
    base_buf_fini(&names);
}


/* Cassandra's batch guard-rails (cassandra.yaml's batch_size_warn_threshold_in_kb,
 * batch_size_fail_threshold_in_kb, unlogged_batch_across_partitions_warn_threshold):
 * size checks only for batches over several partitions. Under cosmos, where the service
 * has none of them, each is an advisory warning; the crossed ones go to the stats. */
static int batch_guardrails(cql_ctx_t *c, int type, const batch_shape_t *b, base_error_t *err)
{
    const cql_guardrails_t *g = &c->e->cfg.guardrails;
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    size_t warn = g->batch_size_warn_kb * 1024, fail = g->batch_size_fail_kb * 1024;
    cql_stats_t *st = &c->out->stats;
    if (c->n_pending > 0 && st->table == NULL) { /* counted against the first table */
        st->keyspace = c->pending[0].t->ks->name;
        st->table = c->pending[0].t->name;
    }
    if (b->n_partitions > 1 && b->bytes > fail) {
        st->guardrails |= CQL_GUARD_BATCH_SIZE_FAIL;
        if (!cosmos) {
            return base_error_set(err, WIRE_ERR_INVALID, "Batch too large");
        }
        cql__warn(c,
                  "Batch for %s is of size %zu, exceeding specified threshold of %zu by %zu. "
                  "(see batch_size_fail_threshold_in_kb: Apache Cassandra refuses it with "
                  "\"Batch too large\"; Azure Cosmos DB takes requests up to 2 MB)",
                  b->tables, b->bytes, fail, b->bytes - fail);
    } else if (b->n_partitions > 1 && b->bytes > warn) {
        st->guardrails |= CQL_GUARD_BATCH_SIZE_WARN;
        cql__warn(c, "Batch for %s is of size %zu, exceeding specified threshold of %zu by %zu.",
                  b->tables, b->bytes, warn, b->bytes - warn);
    }
    if (type != WIRE_BATCH_LOGGED && b->n_partitions > g->unlogged_batch_partitions_warn) {
        st->guardrails |= CQL_GUARD_UNLOGGED_PARTITIONS;
        cql__warn(c,
                  "Unlogged batch covering %zu partitions detected against table%s %s. You "
                  "should use a logged batch for atomicity, or asynchronous writes for "
                  "performance.",
                  b->n_partitions, b->n_tables == 1 ? "" : "s", b->tables);
    }
    return BASE_OK;
}


int cql__exec_batch(cql_ctx_t *c, const cql_batch_t *b, const wire_batch_t *wb, base_error_t *err)
{
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    int type = wb ? wb->type : b->type;
    if (cosmos && type == WIRE_BATCH_LOGGED) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "Logged batches are not supported by the service yet. Please use "
                              "unlogged batches instead.");
    }
    bool ok;
    c->batch_ts = cql__write_timestamp(c, &b->using_, err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    uint16_t consistency = c->out->stats.consistency;
    size_t rows_read = 0;
    c->in_batch = true;
    c->defer = true;
    for (size_t i = 0; i < b->n_stmts; i++) {
        const cql_stmt_t *st = b->stmts[i];
        if (st->kind != CQL_STMT_INSERT && st->kind != CQL_STMT_UPDATE &&
            st->kind != CQL_STMT_DELETE) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid statement in batch: only UPDATE, INSERT and DELETE "
                                  "statements are allowed.");
        }
        if (wb != NULL) {
            c->binds.values = wb->stmts[i].values;
            c->binds.n = wb->stmts[i].n_values;
            c->binds.names = st->bind_names;
            if (c->binds.n != st->n_binds) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "There were %zu markers(?) in CQL but %zu bound variables",
                                      st->n_binds, c->binds.n);
            }
        }
        memset(&c->out->stats, 0, sizeof(c->out->stats));
        if (cql__exec_stmt(c, st, err) != BASE_OK) {
            return BASE_ERROR; /* nothing was written */
        }
        rows_read += c->out->stats.rows_read;
    }
    c->defer = false;
    batch_shape_t shape;
    batch_shape(c, &shape);
    if (shape.counters && shape.others) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Counter and non-counter mutations cannot exist in the same batch");
    }
    if (batch_guardrails(c, type, &shape, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_stats_t *total = &c->out->stats;
    unsigned crossed = total->guardrails;
    memset(total, 0, sizeof(*total));
    total->guardrails = crossed;
    total->kind = CQL_OP_BATCH;
    total->consistency = consistency;
    total->n_statements = b->n_stmts;
    total->shape = c->shape;
    total->rows_read = rows_read;
    if (!c->lwt_refused && write_pending(c, err) != BASE_OK) {
        return BASE_ERROR; /* only a commit log failure: nothing was applied */
    }
    if (c->out->kind != WIRE_RESULT_ROWS) {
        c->out->kind = WIRE_RESULT_VOID;
    }
    return BASE_OK;
}
