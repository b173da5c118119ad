/*
 * engine.c - the cql_ entry points: engine and session lifetime, the
 * prepared-statement cache, and the QUERY/PREPARE/EXECUTE/BATCH paths.
 *
 * A prepared statement is parsed and described once, at PREPARE; EXECUTE
 * looks it up by id and runs the stored AST. Unknown ids get Unprepared
 * (0x2500) with the id, which makes drivers re-prepare transparently.
 */
#include "cql/exec/exec.h"

#define PREPARED_MAX 65536


void cql_config_defaults(cql_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->profile = CQL_PROFILE_COSMOS;
    cfg->cluster_name = "Cosmos DB Cassandra Emulator";
    cfg->data_center = "South Central US";
    cfg->rack = "rack1";
    cfg->release_version = "3.11.0";
    cfg->cql_version = "3.4.4";
    cfg->rpc_address[0] = 127;
    cfg->rpc_address[3] = 1;
    cfg->rpc_address_len = 4;
    cfg->rpc_port = 10350;
    cfg->guardrails = (cql_guardrails_t){.batch_size_warn_kb = 5,
                                         .batch_size_fail_kb = 50,
                                         .unlogged_batch_partitions_warn = 10,
                                         .tombstone_warn = 1000,
                                         .tombstone_failure = 100000,
                                         .large_partition_mb = 100};
}


cql_engine_t *cql_engine_new(const cql_config_t *cfg, storage_db_t *db)
{
    cql_engine_t *e = base_calloc(1, sizeof(*e));
    e->cfg = *cfg;
    e->cluster_name = base_strdup(cfg->cluster_name);
    e->data_center = base_strdup(cfg->data_center);
    e->rack = base_strdup(cfg->rack);
    e->release_version = base_strdup(cfg->release_version);
    e->cql_version = base_strdup(cfg->cql_version);
    e->cfg.cluster_name = e->cluster_name;
    e->cfg.data_center = e->data_center;
    e->cfg.rack = e->rack;
    e->cfg.release_version = e->release_version;
    e->cfg.cql_version = e->cql_version;
    e->cfg.host_id = NULL;
    if (cfg->host_id == NULL || !cql__uuid_parse(cfg->host_id, e->host_id)) {
        cql__uuid_random(e->host_id);
    }
    e->db = db;
    e->next_storage_id = 1;
    e->n_prepared_buckets = 1024;
    e->prepared = base_calloc(e->n_prepared_buckets, sizeof(*e->prepared));
    cql__schema_bump(e);
    cql__system_init(e);
    return e;
}


static void prepared_free(cql_prepared_t *p)
{
    base_arena_fini(&p->arena);
    base_arena_fini(&p->sel_arena);
    base_free(p->keyspace);
    base_free(p->text);
    base_free(p);
}


static void prepared_clear(cql_engine_t *e)
{
    for (size_t i = 0; i < e->n_prepared_buckets; i++) {
        cql_prepared_t *p = e->prepared[i];
        while (p != NULL) {
            cql_prepared_t *next = p->next;
            prepared_free(p);
            p = next;
        }
        e->prepared[i] = NULL;
    }
    e->n_prepared = 0;
}


void cql_engine_free(cql_engine_t *e)
{
    if (e == NULL) {
        return;
    }
    prepared_clear(e);
    base_free(e->prepared);
    cql__schema_log_close(e);
    for (size_t i = 0; i < e->n_keyspaces; i++) {
        cql_keyspace_t *ks = e->keyspaces[i];
        for (size_t j = 0; j < ks->n_tables; j++) {
            /* The db owns its tables and frees them itself; a durable db would log a drop. */
            ks->tables[j]->st = NULL;
            cql__table_free(e, ks->tables[j]);
        }
        cql__keyspace_free(ks);
    }
    base_free(e->keyspaces);
    base_free(e->cluster_name);
    base_free(e->data_center);
    base_free(e->rack);
    base_free(e->release_version);
    base_free(e->cql_version);
    base_free(e);
}


void cql_engine_set_listener(cql_engine_t *e, cql_schema_listener_t fn, void *ud)
{
    e->listener = fn;
    e->listener_ud = ud;
}


void cql_engine_set_hooks(cql_engine_t *e, const cql_hooks_t *hooks)
{
    e->has_hooks = hooks != NULL;
    if (hooks != NULL) {
        e->hooks = *hooks;
    }
}


void cql_engine_schema_version(const cql_engine_t *e, uint8_t out[16])
{
    memcpy(out, e->schema_version, 16);
}


cql_session_t *cql_session_new(cql_engine_t *e)
{
    cql_session_t *s = base_calloc(1, sizeof(*s));
    s->engine = e;
    return s;
}


void cql_session_free(cql_session_t *s)
{
    if (s == NULL) {
        return;
    }
    base_free(s->keyspace);
    base_free(s);
}


const char *cql_session_keyspace(const cql_session_t *s)
{
    return s->keyspace;
}


/* ---- request plumbing ------------------------------------------------------------------ */

void cql_result_init(cql_result_t *out)
{
    memset(out, 0, sizeof(*out));
    out->kind = WIRE_RESULT_VOID;
    out->paging_state.len = WIRE_VALUE_NULL;
}


static void ctx_init(cql_ctx_t *c, cql_engine_t *e, cql_session_t *s, base_arena_t *a,
                     const wire_query_params_t *params, cql_result_t *out)
{
    memset(c, 0, sizeof(*c));
    cql_result_init(out);
    c->e = e;
    c->s = s;
    c->owner = s;
    c->a = a;
    c->params = params;
    c->out = out;
    c->now_us = base_now_us();
    c->batch_ts = INT64_MIN;
    c->binds.no_json_fn = e->cfg.profile == CQL_PROFILE_COSMOS;
    if (params != NULL) {
        c->binds.n = params->n_values;
        c->binds.values = params->values;
        out->stats.consistency = params->consistency;
        out->no_metadata = (params->flags & WIRE_QF_SKIP_METADATA) != 0;
    }
}


static void ctx_finish(cql_ctx_t *c)
{
    if (c->e->evict_prepared) {
        /* after the statement, so one running from the cache is never freed under it */
        prepared_clear(c->e);
        c->e->evict_prepared = false;
    }
    c->out->stats.shape = c->shape;
    c->out->n_warnings = c->n_warnings;
    c->out->warnings = c->warnings;
}


/* Named values (flag 0x40) are matched to the statement's marker names. */
static int bind_named(cql_ctx_t *c, const cql_stmt_t *st, const wire_query_params_t *p,
                      base_error_t *err)
{
    if (p == NULL || p->names == NULL) {
        return BASE_OK;
    }
    wire_value_t *vals = base_arena_alloc(c->a, (st->n_binds + 1) * sizeof(*vals));
    for (size_t i = 0; i < st->n_binds; i++) {
        const char *want = st->bind_names[i];
        bool found = false;
        for (size_t j = 0; want != NULL && j < p->n_values; j++) {
            if (p->names[j].len == strlen(want) &&
                memcmp(p->names[j].ptr, want, strlen(want)) == 0) {
                vals[i] = p->values[j];
                found = true;
                break;
            }
        }
        if (!found) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for column %s",
                                  want ? want : "?");
        }
    }
    c->binds.values = vals;
    c->binds.n = st->n_binds;
    return BASE_OK;
}


static int check_bind_count(const cql_stmt_t *st, const cql_ctx_t *c, base_error_t *err)
{
    if (st->kind != CQL_STMT_BATCH && c->binds.n != st->n_binds) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "There were %zu markers(?) in CQL but %zu bound variables",
                              st->n_binds, c->binds.n);
    }
    return BASE_OK;
}


int cql_query(cql_engine_t *e, cql_session_t *s, base_str_t query,
              const wire_query_params_t *params, base_arena_t *a, cql_result_t *out,
              base_error_t *err)
{
    cql_ctx_t c;
    cql_stmt_t *st;
    ctx_init(&c, e, s, a, params, out);
    c.shape = cql__shape(query.ptr, query.len, a);
    c.text = query.ptr;
    c.text_len = query.len;
    int rc = cql__parse(query.ptr, query.len, a, &st, err);
    if (rc == BASE_OK) {
        c.binds.names = st->bind_names;
        rc = bind_named(&c, st, params, err);
    }
    if (rc == BASE_OK) {
        rc = check_bind_count(st, &c, err);
    }
    if (rc == BASE_OK) {
        rc = cql__exec_stmt(&c, st, err);
    }
    ctx_finish(&c);
    return rc;
}


/* ---- prepared statements ---------------------------------------------------------------- */

/* 128-bit FNV-1a variant over keyspace and text: stable across restarts, so a
 * driver's cached id stays valid for the same statement. */
static void prepared_id(const char *ks, const char *text, size_t len, uint8_t out[16])
{
    uint64_t h1 = 0xcbf29ce484222325ULL, h2 = 0x84222325cbf29ce4ULL;
    const char *parts[2] = {ks ? ks : "", text};
    size_t lens[2] = {ks ? strlen(ks) : 0, len};
    for (int p = 0; p < 2; p++) {
        for (size_t i = 0; i < lens[p]; i++) {
            uint8_t b = (uint8_t)parts[p][i];
            h1 = (h1 ^ b) * 0x100000001b3ULL;
            h2 = (h2 ^ b) * 0x100000001b3ULL;
            h2 ^= h2 >> 29;
        }
        h1 = (h1 ^ 0xff) * 0x100000001b3ULL;
        h2 = (h2 ^ 0xfe) * 0x100000001b3ULL;
    }
    base_store_u64(out, h1);
    base_store_u64(out + 8, h2 ^ (h1 >> 7));
}


static size_t bucket_of(const cql_engine_t *e, const uint8_t id[16])
{
    return (size_t)(base_load_u64(id) % e->n_prepared_buckets);
}


cql_prepared_t *cql__prepared_find(cql_engine_t *e, const uint8_t *id, size_t len)
{
    if (len != 16) {
        return NULL;
    }
    for (cql_prepared_t *p = e->prepared[bucket_of(e, id)]; p != NULL; p = p->next) {
        if (memcmp(p->id, id, 16) == 0) {
            return p;
        }
    }
    return NULL;
}


static void fill_prepared_result(cql_result_t *out, const cql_prepared_t *p)
{
    out->kind = WIRE_RESULT_PREPARED;
    memcpy(out->prepared_id, p->id, 16);
    out->n_binds = p->n_binds;
    out->binds = p->binds;
    out->n_pk_indexes = p->n_pk;
    out->pk_indexes = p->pk_indexes;
    out->n_cols = p->n_cols;
    out->cols = p->cols;
}


int cql_prepare(cql_engine_t *e, cql_session_t *s, base_str_t query, base_arena_t *a,
                cql_result_t *out, base_error_t *err)
{
    cql_ctx_t c;
    ctx_init(&c, e, s, a, NULL, out);
    uint8_t id[16];
    prepared_id(s->keyspace, query.ptr, query.len, id);
    cql_prepared_t *p = cql__prepared_find(e, id, 16);
    if (p != NULL) {
        fill_prepared_result(out, p);
        return BASE_OK;
    }
    if (e->n_prepared >= PREPARED_MAX) {
        prepared_clear(e); /* drivers re-prepare on Unprepared */
    }
    p = base_calloc(1, sizeof(*p));
    memcpy(p->id, id, 16);
    p->keyspace = s->keyspace ? base_strdup(s->keyspace) : NULL;
    p->text = base_strndup(query.ptr, query.len);
    base_arena_init(&p->arena, 4096);
    base_arena_init(&p->sel_arena, 1024);
    /* The AST and metadata live in the statement's own arena, for its whole life. */
    c.a = &p->arena;
    int rc = cql__parse(p->text, query.len, &p->arena, &p->stmt, err);
    p->shape = cql__shape(p->text, query.len, &p->arena);
    out->stats.shape = base_arena_strndup(a, p->shape, strlen(p->shape));
    if (rc == BASE_OK) {
        rc = cql__describe(&c, p->stmt, p, err);
    }
    if (rc != BASE_OK) {
        prepared_free(p);
        return rc;
    }
    size_t b = bucket_of(e, id);
    p->next = e->prepared[b];
    e->prepared[b] = p;
    e->n_prepared++;
    fill_prepared_result(out, p);
    return BASE_OK;
}


/* Resolving a table by name compared it with every keyspace's and table's
 * name, once per execution; a prepared statement keeps the answer while the
 * schema stays. Not for unqualified names of a statement prepared outside
 * any keyspace: those follow the session's USE. */
int cql__stmt_table(cql_ctx_t *c, const cql_qname_t *q, cql_table_t **out, base_error_t *err)
{
    cql_prepared_t *p = c->prepared;
    bool keep = p != NULL && (q->keyspace != NULL || p->keyspace != NULL);
    cql_table_t *kept = keep ? cql__prepared_table(p, c->e, q) : NULL;
    if (kept != NULL) {
        *out = kept;
        return BASE_OK;
    }
    if (cql__resolve_table(c, q, out, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (keep) {
        if (p->cache_epoch != c->e->schema_epoch) {
            p->sel = NULL; /* compiled against the schema before */
            p->kept_cols = NULL;
        }
        p->cache_epoch = c->e->schema_epoch;
        p->table_q = q;
        p->table = *out;
    }
    return BASE_OK;
}


int cql_execute(cql_engine_t *e, cql_session_t *s, wire_value_t id,
                const wire_query_params_t *params, base_arena_t *a, cql_result_t *out,
                base_error_t *err)
{
    cql_ctx_t c;
    ctx_init(&c, e, s, a, params, out);
    cql_prepared_t *p = cql__prepared_find(e, id.ptr, id.len > 0 ? (size_t)id.len : 0);
    if (p == NULL) {
        char hex[33] = "";
        for (int32_t i = 0; i < id.len && i < 16; i++) {
            snprintf(hex + 2 * i, 3, "%02x", id.ptr[i]);
        }
        base_error_set(err, WIRE_ERR_UNPREPARED,
                       "Prepared query with ID %s not found (either the query was not prepared "
                       "on this host (maybe the host has been restarted?) or you have prepared "
                       "too many queries and it has been evicted from the internal cache)",
                       hex);
        wire_error_detail_unprepared(err, id.ptr, id.len > 0 ? (size_t)id.len : 0);
        return BASE_ERROR;
    }
    /* Unqualified names resolve against the keyspace the statement was prepared in. */
    cql_session_t view = *s;
    if (p->keyspace != NULL && p->stmt->kind != CQL_STMT_USE) {
        view.keyspace = p->keyspace;
        c.s = &view;
    }
    c.shape = p->shape;
    c.prepared = p;
    c.text = p->text;
    c.text_len = strlen(p->text);
    c.binds.names = p->stmt->bind_names;
    int rc = bind_named(&c, p->stmt, params, err);
    if (rc == BASE_OK) {
        rc = check_bind_count(p->stmt, &c, err);
    }
    if (rc == BASE_OK) {
        rc = cql__exec_stmt(&c, p->stmt, err);
    }
    ctx_finish(&c);
    return rc;
}


int cql_batch(cql_engine_t *e, cql_session_t *s, const wire_batch_t *batch, base_arena_t *a,
              cql_result_t *out, base_error_t *err)
{
    cql_ctx_t c;
    ctx_init(&c, e, s, a, &batch->params, out);
    cql_batch_t b = {.type = batch->type, .n_stmts = batch->n_stmts};
    base_buf_t shape;
    base_buf_init(&shape);
    base_buf_printf(&shape, "BATCH");
    int rc = BASE_OK;
    b.stmts = base_arena_alloc(a, (batch->n_stmts + 1) * sizeof(*b.stmts));
    for (size_t i = 0; i < batch->n_stmts; i++) {
        const wire_batch_stmt_t *ws = &batch->stmts[i];
        const char *sh;
        if (ws->prepared) {
            size_t id_len = ws->id.len > 0 ? (size_t)ws->id.len : 0;
            cql_prepared_t *p = cql__prepared_find(e, ws->id.ptr, id_len);
            if (p == NULL) {
                rc = base_error_set(err, WIRE_ERR_UNPREPARED, "Prepared query with ID not found");
                wire_error_detail_unprepared(err, ws->id.ptr, id_len);
                goto done;
            }
            b.stmts[i] = p->stmt;
            sh = p->shape;
        } else {
            rc = cql__parse(ws->query.ptr, ws->query.len, a, &b.stmts[i], err);
            if (rc != BASE_OK) {
                goto done;
            }
            sh = cql__shape(ws->query.ptr, ws->query.len, a);
        }
        base_buf_printf(&shape, "%s%s", i ? "; " : " ", sh);
    }
    c.shape = base_arena_strndup(a, (const char *)shape.data, shape.len);
    rc = cql__exec_batch(&c, &b, batch, err);
done:
    base_buf_fini(&shape);
    ctx_finish(&c);
    return rc;
}


int cql__exec_stmt(cql_ctx_t *c, const cql_stmt_t *st, base_error_t *err)
{
    switch (st->kind) {
    case CQL_STMT_SELECT:
        return cql__exec_select(c, &st->u.select, err);
    case CQL_STMT_INSERT:
        return cql__exec_insert(c, &st->u.insert, err);
    case CQL_STMT_UPDATE:
        return cql__exec_update(c, &st->u.update, err);
    case CQL_STMT_DELETE:
        return cql__exec_delete(c, &st->u.del, err);
    case CQL_STMT_BATCH:
        return cql__exec_batch(c, &st->u.batch, NULL, err);
    case CQL_STMT_USE: {
        cql_keyspace_t *ks = cql__keyspace_find(c->e, st->u.use_keyspace);
        if (ks == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Keyspace '%s' does not exist",
                                  st->u.use_keyspace);
        }
        base_free(c->s->keyspace);
        c->s->keyspace = base_strdup(ks->name);
        c->out->kind = WIRE_RESULT_SET_KEYSPACE;
        c->out->keyspace = base_arena_strndup(c->a, ks->name, strlen(ks->name));
        return BASE_OK;
    }
    case CQL_STMT_OTHER:
        return base_error_set(err, WIRE_ERR_INVALID, "%s is not supported by %s", st->u.other_what,
                              c->e->cfg.profile == CQL_PROFILE_COSMOS
                                  ? "Azure Cosmos DB for Apache Cassandra"
                                  : "this emulator");
    default:
        c->out->stats.kind = CQL_OP_DDL;
        return cql__schema_log_ddl(c, st, err);
    }
}
