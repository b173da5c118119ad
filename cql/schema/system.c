/*
 * system.c - the virtual tables drivers read at connect and after every
 * schema change: system.local, system.peers and the system_schema tables of
 * Cassandra 3.11. They are declared with ordinary CQL DDL (so they show up
 * in system_schema like any table) and their rows are generated from the
 * live schema on each read, so they can never disagree with it.
 *
 * Driver traps kept here (see protocol-drivers-anchors.md section 0):
 * schema_version is never null and changes with each DDL; dse_version and
 * workload are absent; tables.flags is {'compound'}; columns.clustering_order
 * is always set; system.peers_v2 fails as in Cassandra 3.11.
 */
#include "cql/schema/schema.h"

#define PK_TOKEN "-9223372036854775808"

static void gen_local(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_peers(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_keyspaces(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_tables(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_columns(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_types(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_indexes(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_dropped(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);
static void gen_empty(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs);

#define TABLE_OPTIONS                                                                         \
    "bloom_filter_fp_chance double, caching frozen<map<text, text>>, cdc boolean, "           \
    "comment text, compaction frozen<map<text, text>>, compression frozen<map<text, text>>, " \
    "crc_check_chance double, dclocal_read_repair_chance double, default_time_to_live int, "  \
    "extensions frozen<map<text, blob>>, gc_grace_seconds int, id uuid, "                     \
    "max_index_interval int, memtable_flush_period_in_ms int, min_index_interval int, "       \
    "read_repair_chance double, speculative_retry text"

static const struct {
    const char *ddl;
    cql_vtable_t vt;
} system_tables[] = {
    {"CREATE TABLE system.local (key text PRIMARY KEY, bootstrapped text, broadcast_address inet, "
     "cluster_name text, cql_version text, data_center text, gossip_generation int, "
     "host_id uuid, listen_address inet, native_protocol_version text, partitioner text, "
     "rack text, release_version text, rpc_address inet, schema_version uuid, "
     "thrift_version text, tokens set<text>, truncated_at map<uuid, blob>)",
     {"local", gen_local}},
    {"CREATE TABLE system.peers (peer inet PRIMARY KEY, data_center text, host_id uuid, "
     "preferred_ip inet, rack text, release_version text, rpc_address inet, "
     "schema_version uuid, tokens set<text>)",
     {"peers", gen_peers}},
    {"CREATE TABLE system_schema.keyspaces (keyspace_name text PRIMARY KEY, "
     "durable_writes boolean, replication frozen<map<text, text>>)",
     {"keyspaces", gen_keyspaces}},
    {"CREATE TABLE system_schema.tables (keyspace_name text, table_name text, " TABLE_OPTIONS
     ", flags frozen<set<text>>, PRIMARY KEY (keyspace_name, table_name))",
     {"tables", gen_tables}},
    {"CREATE TABLE system_schema.columns (keyspace_name text, table_name text, "
     "column_name text, clustering_order text, column_name_bytes blob, kind text, "
     "position int, type text, PRIMARY KEY (keyspace_name, table_name, column_name))",
     {"columns", gen_columns}},
    {"CREATE TABLE system_schema.dropped_columns (keyspace_name text, table_name text, "
     "column_name text, dropped_time timestamp, type text, "
     "PRIMARY KEY (keyspace_name, table_name, column_name))",
     {"dropped_columns", gen_dropped}},
    {"CREATE TABLE system_schema.triggers (keyspace_name text, table_name text, "
     "trigger_name text, options frozen<map<text, text>>, "
     "PRIMARY KEY (keyspace_name, table_name, trigger_name))",
     {"triggers", gen_empty}},
    {"CREATE TABLE system_schema.views (keyspace_name text, view_name text, "
     "base_table_id uuid, base_table_name text, include_all_columns boolean, "
     "where_clause text, " TABLE_OPTIONS ", PRIMARY KEY (keyspace_name, view_name))",
     {"views", gen_empty}},
    {"CREATE TABLE system_schema.types (keyspace_name text, type_name text, "
     "field_names frozen<list<text>>, field_types frozen<list<text>>, "
     "PRIMARY KEY (keyspace_name, type_name))",
     {"types", gen_types}},
    {"CREATE TABLE system_schema.functions (keyspace_name text, function_name text, "
     "argument_types frozen<list<text>>, argument_names frozen<list<text>>, body text, "
     "called_on_null_input boolean, language text, return_type text, "
     "PRIMARY KEY (keyspace_name, function_name, argument_types))",
     {"functions", gen_empty}},
    {"CREATE TABLE system_schema.aggregates (keyspace_name text, aggregate_name text, "
     "argument_types frozen<list<text>>, final_func text, initcond text, return_type text, "
     "state_func text, state_type text, "
     "PRIMARY KEY (keyspace_name, aggregate_name, argument_types))",
     {"aggregates", gen_empty}},
    {"CREATE TABLE system_schema.indexes (keyspace_name text, table_name text, "
     "index_name text, kind text, options frozen<map<text, text>>, "
     "PRIMARY KEY (keyspace_name, table_name, index_name))",
     {"indexes", gen_indexes}},
};


bool cql__system_missing(const char *ks, const char *table, base_error_t *err)
{
    /* Python 3.25 asks for peers_v2 first and falls back on this exact error. */
    if (strcmp(ks, "system") == 0 && strcmp(table, "peers_v2") == 0) {
        base_error_set(err, WIRE_ERR_INVALID, "unconfigured table peers_v2");
        return true;
    }
    return false;
}


static void add_system_keyspace(cql_engine_t *e, const char *name, const char *strategy,
                                const char *rf)
{
    cql_keyspace_t *ks = cql__keyspace_add(e, name);
    ks->system = true;
    ks->n_repl = rf ? 2 : 1;
    ks->repl_keys = base_calloc(2, sizeof(char *));
    ks->repl_values = base_calloc(2, sizeof(char *));
    ks->repl_keys[0] = base_strdup("class");
    ks->repl_values[0] = base_strdup(strategy);
    if (rf != NULL) {
        ks->repl_keys[1] = base_strdup("replication_factor");
        ks->repl_values[1] = base_strdup(rf);
    }
}


void cql__system_init(cql_engine_t *e)
{
    add_system_keyspace(e, "system", "org.apache.cassandra.locator.LocalStrategy", NULL);
    add_system_keyspace(e, "system_schema", "org.apache.cassandra.locator.LocalStrategy", NULL);
    add_system_keyspace(e, "system_auth", "org.apache.cassandra.locator.SimpleStrategy", "1");
    add_system_keyspace(e, "system_distributed", "org.apache.cassandra.locator.SimpleStrategy",
                        "3");
    add_system_keyspace(e, "system_traces", "org.apache.cassandra.locator.SimpleStrategy", "2");

    base_arena_t a;
    base_arena_init(&a, 16384);
    cql_session_t *s = cql_session_new(e);
    for (size_t i = 0; i < sizeof(system_tables) / sizeof(system_tables[0]); i++) {
        cql_result_t out;
        base_error_t err;
        cql_ctx_t c = {.e = e, .s = s, .owner = s, .a = &a, .out = &out, .batch_ts = INT64_MIN};
        memset(&out, 0, sizeof(out));
        cql_stmt_t *st;
        const char *ddl = system_tables[i].ddl;
        int rc = cql__parse(ddl, strlen(ddl), &a, &st, &err);
        if (rc == BASE_OK) {
            rc = cql__exec_ddl(&c, st, &err);
        }
        if (rc != BASE_OK) {
            fprintf(stderr, "fatal: system table definition failed: %s: %s\n", ddl, err.msg);
            abort();
        }
        cql_keyspace_t *ks = cql__keyspace_find(e, st->u.create_table.table.keyspace);
        cql_table_t *t = cql__table_find(ks, st->u.create_table.table.name);
        t->vt = &system_tables[i].vt;
        base_arena_reset(&a);
    }
    cql_session_free(s);
    base_arena_fini(&a);
}


/* ---- row building -------------------------------------------------------------------- */

static wire_value_t *new_row(cql_ctx_t *c, const cql_table_t *t)
{
    wire_value_t *row = base_arena_alloc(c->a, t->n_cols * sizeof(*row));
    for (size_t i = 0; i < t->n_cols; i++) {
        row[i].ptr = NULL;
        row[i].len = WIRE_VALUE_NULL;
    }
    return row;
}


/* Sets column col (which the table must have) of a generated row. */
static void set(const cql_table_t *t, wire_value_t *row, const char *col, wire_value_t v)
{
    cql_column_t *cd = cql__column_find(t, col);
    BASE_ASSERT(cd != NULL);
    row[cd - t->cols] = v;
}


void cql__rowset_add(cql_ctx_t *c, cql_rowset_t *rs, wire_value_t *row)
{
    if (rs->n_rows == rs->cap_rows) {
        size_t cap = rs->cap_rows ? rs->cap_rows * 2 : 16;
        wire_value_t **rows = base_arena_alloc(c->a, cap * sizeof(*rows));
        if (rs->n_rows > 0) {
            memcpy(rows, rs->rows, rs->n_rows * sizeof(*rows));
        }
        rs->rows = rows;
        rs->cap_rows = cap;
    }
    rs->rows[rs->n_rows++] = row;
}


static wire_value_t text_list(cql_ctx_t *c, const wire_type_t *type, const char *const *items,
                              size_t n)
{
    wire_value_t *vals = base_arena_alloc(c->a, (n ? n : 1) * sizeof(*vals));
    for (size_t i = 0; i < n; i++) {
        vals[i] = cql__value_text(c->a, items[i]);
    }
    return cql__collection_build(type, vals, NULL, n, c->a);
}


static wire_value_t text_map(cql_ctx_t *c, const wire_type_t *type, const char *const *keys,
                             const char *const *values, size_t n)
{
    wire_value_t *k = base_arena_alloc(c->a, (n ? n : 1) * sizeof(*k));
    wire_value_t *v = base_arena_alloc(c->a, (n ? n : 1) * sizeof(*v));
    for (size_t i = 0; i < n; i++) {
        k[i] = cql__value_text(c->a, keys[i]);
        v[i] = cql__value_text(c->a, values[i]);
    }
    return cql__collection_build(type, k, v, n, c->a);
}


static const wire_type_t *col_type(const cql_table_t *t, const char *col)
{
    return cql__column_find(t, col)->type;
}


static wire_value_t rpc_address_value(cql_ctx_t *c)
{
    const cql_config_t *cfg = &c->e->cfg;
    return cql__value_blob(c->a, cfg->rpc_address, cfg->rpc_address_len);
}


static void gen_local(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    cql_engine_t *e = c->e;
    wire_value_t *row = new_row(c, t);
    const char *tokens[] = {PK_TOKEN};
    set(t, row, "key", cql__value_text(c->a, "local"));
    set(t, row, "bootstrapped", cql__value_text(c->a, "COMPLETED"));
    set(t, row, "broadcast_address", rpc_address_value(c));
    set(t, row, "cluster_name", cql__value_text(c->a, e->cluster_name));
    set(t, row, "cql_version", cql__value_text(c->a, e->cql_version));
    set(t, row, "data_center", cql__value_text(c->a, e->data_center));
    set(t, row, "gossip_generation", cql__value_int(c->a, 1));
    set(t, row, "host_id", cql__value_blob(c->a, e->host_id, 16));
    set(t, row, "listen_address", rpc_address_value(c));
    set(t, row, "native_protocol_version", cql__value_text(c->a, "4"));
    set(t, row, "partitioner",
        cql__value_text(c->a, "org.apache.cassandra.dht.Murmur3Partitioner"));
    set(t, row, "rack", cql__value_text(c->a, e->rack));
    set(t, row, "release_version", cql__value_text(c->a, e->release_version));
    set(t, row, "rpc_address", rpc_address_value(c));
    set(t, row, "schema_version", cql__value_blob(c->a, e->schema_version, 16));
    set(t, row, "thrift_version", cql__value_text(c->a, "20.1.0"));
    set(t, row, "tokens", text_list(c, col_type(t, "tokens"), tokens, 1));
    cql__rowset_add(c, rs, row);
}


static void gen_peers(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    (void)c, (void)t, (void)rs; /* one node: no peers */
}


static void gen_empty(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    (void)c, (void)t, (void)rs;
}


static void gen_keyspaces(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    for (size_t i = 0; i < c->e->n_keyspaces; i++) {
        cql_keyspace_t *ks = c->e->keyspaces[i];
        wire_value_t *row = new_row(c, t);
        set(t, row, "keyspace_name", cql__value_text(c->a, ks->name));
        set(t, row, "durable_writes", cql__value_bool(c->a, ks->durable_writes));
        set(t, row, "replication",
            text_map(c, col_type(t, "replication"), (const char *const *)ks->repl_keys,
                     (const char *const *)ks->repl_values, ks->n_repl));
        cql__rowset_add(c, rs, row);
    }
}


static wire_value_t opt_map(cql_ctx_t *c, const cql_table_t *t, const char *col,
                            const cql_optmap_t *m)
{
    return text_map(c, col_type(t, col), (const char *const *)m->keys,
                    (const char *const *)m->values, m->n);
}


static void set_table_options(cql_ctx_t *c, const cql_table_t *t, wire_value_t *row,
                              const cql_table_t *src)
{
    set(t, row, "bloom_filter_fp_chance", cql__value_double(c->a, 0.01));
    set(t, row, "caching", opt_map(c, t, "caching", &src->caching));
    set(t, row, "cdc", cql__value_bool(c->a, false));
    set(t, row, "comment", cql__value_text(c->a, src->comment ? src->comment : ""));
    set(t, row, "compaction", opt_map(c, t, "compaction", &src->compaction));
    set(t, row, "compression", opt_map(c, t, "compression", &src->compression));
    set(t, row, "crc_check_chance", cql__value_double(c->a, 1.0));
    set(t, row, "dclocal_read_repair_chance", cql__value_double(c->a, 0.1));
    set(t, row, "default_time_to_live", cql__value_int(c->a, src->default_ttl));
    set(t, row, "gc_grace_seconds", cql__value_int(c->a, src->gc_grace_seconds));
    set(t, row, "id", cql__value_blob(c->a, src->id, 16));
    set(t, row, "max_index_interval", cql__value_int(c->a, src->max_index_interval));
    set(t, row, "memtable_flush_period_in_ms", cql__value_int(c->a, 0));
    set(t, row, "min_index_interval", cql__value_int(c->a, src->min_index_interval));
    set(t, row, "read_repair_chance", cql__value_double(c->a, 0.0));
    set(t, row, "speculative_retry", cql__value_text(c->a, "99PERCENTILE"));

    /* Cosmos DB throughput, visible to tools as table extensions. */
    const char *keys[2];
    wire_value_t k[2], v[2];
    size_t n = 0;
    if (src->provisioned_throughput > 0) {
        keys[n] = "cosmosdb_provisioned_throughput";
        char *num = base_arena_sprintf(c->a, "%lld", (long long)src->provisioned_throughput);
        v[n++] = cql__value_blob(c->a, (const uint8_t *)num, strlen(num));
    }
    if (src->autoscale_max_throughput > 0) {
        keys[n] = "cosmosdb_autoscale_max_throughput";
        char *num = base_arena_sprintf(c->a, "%lld", (long long)src->autoscale_max_throughput);
        v[n++] = cql__value_blob(c->a, (const uint8_t *)num, strlen(num));
    }
    for (size_t i = 0; i < n; i++) {
        k[i] = cql__value_text(c->a, keys[i]);
    }
    set(t, row, "extensions", cql__collection_build(col_type(t, "extensions"), k, v, n, c->a));
}


static void gen_tables(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    static const char *const compound[] = {"compound"};
    static const char *const counter[] = {"compound", "counter"};
    for (size_t i = 0; i < c->e->n_keyspaces; i++) {
        cql_keyspace_t *ks = c->e->keyspaces[i];
        for (size_t j = 0; j < ks->n_tables; j++) {
            cql_table_t *src = ks->tables[j];
            wire_value_t *row = new_row(c, t);
            set(t, row, "keyspace_name", cql__value_text(c->a, ks->name));
            set(t, row, "table_name", cql__value_text(c->a, src->name));
            set_table_options(c, t, row, src);
            /* Python reads empty flags as COMPACT STORAGE and drops clustering columns. */
            set(t, row, "flags",
                src->has_counters ? text_list(c, col_type(t, "flags"), counter, 2)
                                  : text_list(c, col_type(t, "flags"), compound, 1));
            cql__rowset_add(c, rs, row);
        }
    }
}


static const char *kind_name(cql_col_kind_t k)
{
    switch (k) {
    case CQL_COL_PARTITION:
        return "partition_key";
    case CQL_COL_CLUSTERING:
        return "clustering";
    case CQL_COL_STATIC:
        return "static";
    default:
        return "regular";
    }
}


static void gen_columns(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    for (size_t i = 0; i < c->e->n_keyspaces; i++) {
        cql_keyspace_t *ks = c->e->keyspaces[i];
        for (size_t j = 0; j < ks->n_tables; j++) {
            cql_table_t *src = ks->tables[j];
            for (size_t k = 0; k < src->n_cols; k++) {
                const cql_column_t *col = &src->cols[k];
                wire_value_t *row = new_row(c, t);
                const char *order = "none";
                if (col->kind == CQL_COL_CLUSTERING) {
                    order = col->desc ? "desc" : "asc";
                }
                set(t, row, "keyspace_name", cql__value_text(c->a, ks->name));
                set(t, row, "table_name", cql__value_text(c->a, src->name));
                set(t, row, "column_name", cql__value_text(c->a, col->name));
                set(t, row, "clustering_order", cql__value_text(c->a, order));
                set(t, row, "column_name_bytes",
                    cql__value_blob(c->a, (const uint8_t *)col->name, strlen(col->name)));
                set(t, row, "kind", cql__value_text(c->a, kind_name(col->kind)));
                set(t, row, "position", cql__value_int(c->a, col->position));
                set(t, row, "type", cql__value_text(c->a, cql__type_name(col->type, c->a)));
                cql__rowset_add(c, rs, row);
            }
        }
    }
}


static void gen_types(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    for (size_t i = 0; i < c->e->n_keyspaces; i++) {
        cql_keyspace_t *ks = c->e->keyspaces[i];
        for (size_t j = 0; j < ks->n_types; j++) {
            const wire_type_t *u = ks->types[j]->type;
            const char **types = base_arena_alloc(c->a, (u->n_sub + 1) * sizeof(char *));
            for (size_t k = 0; k < u->n_sub; k++) {
                types[k] = cql__type_name(u->sub[k], c->a);
            }
            wire_value_t *row = new_row(c, t);
            set(t, row, "keyspace_name", cql__value_text(c->a, ks->name));
            set(t, row, "type_name", cql__value_text(c->a, ks->types[j]->name));
            set(t, row, "field_names",
                text_list(c, col_type(t, "field_names"), u->field_names, u->n_sub));
            set(t, row, "field_types", text_list(c, col_type(t, "field_types"), types, u->n_sub));
            cql__rowset_add(c, rs, row);
        }
    }
}


static void gen_indexes(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    for (size_t i = 0; i < c->e->n_keyspaces; i++) {
        cql_keyspace_t *ks = c->e->keyspaces[i];
        for (size_t j = 0; j < ks->n_tables; j++) {
            cql_table_t *src = ks->tables[j];
            for (size_t k = 0; k < src->n_indexes; k++) {
                static const char *const key[] = {"target"};
                const char *val[] = {src->indexes[k].target};
                wire_value_t *row = new_row(c, t);
                set(t, row, "keyspace_name", cql__value_text(c->a, ks->name));
                set(t, row, "table_name", cql__value_text(c->a, src->name));
                set(t, row, "index_name", cql__value_text(c->a, src->indexes[k].name));
                set(t, row, "kind", cql__value_text(c->a, "COMPOSITES"));
                set(t, row, "options", text_map(c, col_type(t, "options"), key, val, 1));
                cql__rowset_add(c, rs, row);
            }
        }
    }
}


static void gen_dropped(cql_ctx_t *c, const cql_table_t *t, cql_rowset_t *rs)
{
    for (size_t i = 0; i < c->e->n_keyspaces; i++) {
        cql_keyspace_t *ks = c->e->keyspaces[i];
        for (size_t j = 0; j < ks->n_tables; j++) {
            const cql_table_t *src = ks->tables[j];
            for (size_t k = 0; k < src->n_dropped; k++) {
                const cql_dropped_t *d = &src->dropped[k];
                wire_value_t *row = new_row(c, t);
                set(t, row, "keyspace_name", cql__value_text(c->a, ks->name));
                set(t, row, "table_name", cql__value_text(c->a, src->name));
                set(t, row, "column_name", cql__value_text(c->a, d->name));
                /* a timestamp is milliseconds; the drop time is in microseconds */
                set(t, row, "dropped_time", cql__value_bigint(c->a, d->dropped_us / 1000));
                set(t, row, "type", cql__value_text(c->a, cql__type_name(d->type, c->a)));
                cql__rowset_add(c, rs, row);
            }
        }
    }
}
