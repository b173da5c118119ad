/*
 * ddl.c - CREATE/ALTER/DROP of keyspaces, tables, indexes and user types,
 * and TRUNCATE, with Cassandra 3.11's checks and messages and the Cosmos DB
 * table options (cosmosdb_provisioned_throughput,
 * cosmosdb_autoscale_max_throughput). Every change bumps the schema version
 * and is announced to the listener (EVENT SCHEMA_CHANGE).
 */
#include <errno.h>

#include "cql/schema/schema.h"

/* Table options Cassandra 3.11 accepts; values are kept only where they matter. */
static const char *const known_table_options[] = {
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "crc_check_chance",
    "dclocal_read_repair_chance",
    "default_time_to_live",
    "gc_grace_seconds",
    "max_index_interval",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair_chance",
    "speculative_retry",
    "additional_write_policy",
    "read_repair",
    "extensions",
    "id",
    "cosmosdb_provisioned_throughput",
    "cosmosdb_autoscale_max_throughput",
    "cosmosdb_cell_level_timestamp",
    "cosmosdb_cell_level_timestamp_tombstones",
    "cosmosdb_cell_level_timetolive",
    "analytical_storage_ttl",
};


static bool is_cosmos(const cql_ctx_t *c)
{
    return c->e->cfg.profile == CQL_PROFILE_COSMOS;
}


static int prop_int(const cql_property_t *p, int64_t min, int64_t max, int64_t *out,
                    base_error_t *err)
{
    const cql_term_t *v = p->value;
    if (v->kind != CQL_TERM_LITERAL ||
        (v->lit != CQL_LIT_INTEGER && v->lit != CQL_LIT_STRING && v->lit != CQL_LIT_FLOAT)) {
        return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "Invalid value for property '%s'",
                              p->name);
    }
    errno = 0;
    char *end;
    long long n = strtoll(v->text, &end, 10);
    if (errno != 0 || end == v->text || *end != '\0' || n < min || n > max) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR, "Invalid value '%s' for property '%s'",
                              v->text, p->name);
    }
    *out = n;
    return BASE_OK;
}


static const char *prop_text(const cql_property_t *p)
{
    const cql_term_t *v = p->value;
    return v->kind == CQL_TERM_LITERAL ? v->text : NULL;
}


/* Throughput options are parsed here and judged by the throughput hook (the
 * RU meter), which knows the service's rules and error texts. */
static int throughput_prop(cql_ctx_t *c, const cql_property_t *p, int64_t *manual,
                           int64_t *autoscale, base_error_t *err)
{
    (void)c;
    int64_t n = 0;
    if (prop_int(p, 0, INT64_MAX / 2, &n, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (strcmp(p->name, "cosmosdb_provisioned_throughput") == 0) {
        *manual = n;
        *autoscale = 0;
    } else {
        *autoscale = n;
        *manual = 0;
    }
    return BASE_OK;
}


/* Collects the throughput options of a statement for the hook. */
static int throughput_of(cql_ctx_t *c, const cql_property_t *props, size_t n, cql_throughput_t *tp,
                         base_error_t *err)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(props[i].name, "cosmosdb_provisioned_throughput") == 0 ||
            strcmp(props[i].name, "cosmosdb_autoscale_max_throughput") == 0) {
            tp->given = true;
            if (throughput_prop(c, &props[i], &tp->provisioned, &tp->autoscale_max, err) !=
                BASE_OK) {
                return BASE_ERROR;
            }
        }
    }
    return BASE_OK;
}


static void split_ring(cql_table_t *t, uint32_t n_physical)
{
    if (n_physical > 0 && t->st != NULL) {
        storage_table_set_physical_partitions(t->st, n_physical);
    }
}


static void drop_hook(cql_ctx_t *c, const char *ks, const char *table)
{
    cql_throughput_t tp = {.keyspace = ks, .table = table, .dropped = true};
    uint32_t n;
    base_error_t ignored;
    cql__throughput_hook(c, &tp, &n, &ignored);
}


static bool is_throughput(const char *name)
{
    return strcmp(name, "cosmosdb_provisioned_throughput") == 0 ||
           strcmp(name, "cosmosdb_autoscale_max_throughput") == 0;
}


/* ---- keyspaces ------------------------------------------------------------------------- */

#define LOCATOR_PKG "org.apache.cassandra.locator."

/* The full class name of a replication strategy given by short or full name; NULL
 * for one Cassandra does not have. */
static const char *strategy_class(cql_ctx_t *c, const char *name)
{
    const char *full =
        strchr(name, '.') != NULL ? name : base_arena_sprintf(c->a, LOCATOR_PKG "%s", name);
    if (strcmp(full, LOCATOR_PKG "SimpleStrategy") == 0 ||
        strcmp(full, LOCATOR_PKG "NetworkTopologyStrategy") == 0) {
        return full;
    }
    return NULL;
}


/*
 * A schema log record is a DDL the server once accepted. Replaying it under
 * rules a later version added (option checks, index and drop refusals) must
 * not refuse start-up over a table that holds data: on replay those checks
 * give way and a refused option keeps its default. Structure (columns, keys,
 * ids) is never relaxed: that is what the data is read back by.
 */
static bool replay_trusts_the_log(const cql_ctx_t *c)
{
    return cql__schema_replaying(c->e);
}


/* ReplicationParams / AbstractReplicationStrategy.validate: the map names a known
 * strategy class. */
static int check_replication(cql_ctx_t *c, const cql_term_t *map, bool creating, base_error_t *err)
{
    const char *cls = NULL;
    if (replay_trusts_the_log(c)) {
        return BASE_OK;
    }
    for (size_t j = 0; j + 1 < map->n_items; j += 2) {
        const cql_term_t *k = map->items[j], *v = map->items[j + 1];
        if (k->kind == CQL_TERM_LITERAL && v->kind == CQL_TERM_LITERAL &&
            strcmp(k->text, "class") == 0) {
            cls = v->text;
        }
    }
    if (cls == NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              creating ? "Missing mandatory replication strategy class"
                                       : "Missing replication strategy class");
    }
    if (strategy_class(c, cls) == NULL) {
        return base_error_set(
            err, WIRE_ERR_CONFIG_ERROR, "Unable to find replication strategy class '%s'",
            strchr(cls, '.') ? cls : base_arena_sprintf(c->a, LOCATOR_PKG "%s", cls));
    }
    return BASE_OK;
}


/* Cassandra 4.0 warns when a keyspace asks for more replicas than the cluster
 * (one node) has; the service chooses replication itself and says nothing. */
static void warn_replication(cql_ctx_t *c, const cql_keyspace_t *ks)
{
    if (is_cosmos(c)) {
        return;
    }
    bool simple = false;
    for (size_t i = 0; i < ks->n_repl; i++) {
        simple |= strcmp(ks->repl_keys[i], "class") == 0 &&
                  strcmp(ks->repl_values[i], LOCATOR_PKG "SimpleStrategy") == 0;
    }
    for (size_t i = 0; i < ks->n_repl; i++) {
        long rf = strtol(ks->repl_values[i], NULL, 10);
        if (rf <= 1) {
            continue;
        }
        if (simple && strcmp(ks->repl_keys[i], "replication_factor") == 0) {
            cql__warn(c,
                      "Your replication factor %ld for keyspace %s is higher than the number "
                      "of nodes 1",
                      rf, ks->name);
        } else if (!simple && strcmp(ks->repl_keys[i], c->e->data_center) == 0) {
            cql__warn(c,
                      "Your replication factor %ld for keyspace %s is higher than the number "
                      "of nodes 1 for datacenter %s",
                      rf, ks->name, c->e->data_center);
        }
    }
}


static int keyspace_props(cql_ctx_t *c, cql_keyspace_t *ks, const cql_keyspace_def_t *d,
                          bool creating, base_error_t *err)
{
    bool has_repl = false;
    for (size_t i = 0; i < d->n_props; i++) {
        const cql_property_t *p = &d->props[i];
        if (strcmp(p->name, "replication") == 0) {
            if (p->value->kind != CQL_TERM_MAP) {
                return base_error_set(err, WIRE_ERR_SYNTAX_ERROR,
                                      "Invalid value for property 'replication'");
            }
            has_repl = true;
            if (ks == NULL) {
                if (check_replication(c, p->value, creating, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                continue;
            }
            size_t n = p->value->n_items / 2;
            for (size_t j = 0; j < ks->n_repl; j++) {
                base_free(ks->repl_keys[j]);
                base_free(ks->repl_values[j]);
            }
            ks->repl_keys = base_realloc(ks->repl_keys, (n + 1) * sizeof(char *));
            ks->repl_values = base_realloc(ks->repl_values, (n + 1) * sizeof(char *));
            ks->n_repl = 0;
            for (size_t j = 0; j < n; j++) {
                const cql_term_t *k = p->value->items[2 * j], *v = p->value->items[2 * j + 1];
                if (k->kind != CQL_TERM_LITERAL || v->kind != CQL_TERM_LITERAL) {
                    continue;
                }
                bool cls = strcmp(k->text, "class") == 0;
                ks->repl_keys[ks->n_repl] = base_strdup(k->text);
                const char *full = cls ? strategy_class(c, v->text) : NULL;
                ks->repl_values[ks->n_repl++] = base_strdup(full ? full : v->text);
            }
            warn_replication(c, ks);
        } else if (strcmp(p->name, "durable_writes") == 0) {
            const char *t = prop_text(p);
            if (ks != NULL) {
                ks->durable_writes = t == NULL || strcmp(t, "false") != 0;
            }
        } else if (is_throughput(p->name)) {
            int64_t manual = 0, autoscale = 0;
            if (throughput_prop(c, p, &manual, &autoscale, err) != BASE_OK) {
                return BASE_ERROR;
            }
            if (ks != NULL) {
                ks->provisioned_throughput = manual;
                ks->autoscale_max_throughput = autoscale;
            }
        } else {
            return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "Unknown property '%s'", p->name);
        }
    }
    /* Cosmos DB takes "WITH cosmosdb_provisioned_throughput=400" alone; Cassandra does not. */
    if (creating && !has_repl && !is_cosmos(c)) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Missing mandatory replication strategy class");
    }
    return BASE_OK;
}


static int create_keyspace(cql_ctx_t *c, const cql_keyspace_def_t *d, base_error_t *err)
{
    if (cql__keyspace_find(c->e, d->name) != NULL) {
        if (d->if_not_exists) {
            return BASE_OK;
        }
        base_error_set(err, WIRE_ERR_ALREADY_EXISTS, "Cannot add existing keyspace \"%s\"",
                       d->name);
        wire_error_detail_already_exists(err, d->name, "");
        return BASE_ERROR;
    }
    if (strlen(d->name) > 48) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Keyspace name must not be empty, more than 48 characters long, or "
                              "contain non-alphanumeric-underscore characters (got \"%s\")",
                              d->name);
    }
    if (keyspace_props(c, NULL, d, true, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_throughput_t tp = {.keyspace = d->name, .creating = true};
    uint32_t n_physical;
    if (throughput_of(c, d->props, d->n_props, &tp, err) != BASE_OK ||
        cql__throughput_hook(c, &tp, &n_physical, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_keyspace_t *ks = cql__keyspace_add(c->e, d->name);
    keyspace_props(c, ks, d, true, err);
    if (ks->n_repl == 0) {
        ks->repl_keys = base_calloc(2, sizeof(char *));
        ks->repl_values = base_calloc(2, sizeof(char *));
        ks->repl_keys[0] = base_strdup("class");
        ks->repl_values[0] = base_strdup("org.apache.cassandra.locator.SimpleStrategy");
        ks->repl_keys[1] = base_strdup("replication_factor");
        ks->repl_values[1] = base_strdup("4");
        ks->n_repl = 2;
    }
    cql__schema_notify(c, "CREATED", "KEYSPACE", ks->name, NULL);
    return BASE_OK;
}


static int alter_keyspace(cql_ctx_t *c, const cql_keyspace_def_t *d, base_error_t *err)
{
    cql_keyspace_t *ks = cql__keyspace_find(c->e, d->name);
    if (ks == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Keyspace %s does not exist", d->name);
    }
    if (ks->system) {
        return base_error_set(err, WIRE_ERR_UNAUTHORIZED, "%s keyspace is not user-modifiable.",
                              ks->name);
    }
    if (keyspace_props(c, NULL, d, false, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_throughput_t tp = {.keyspace = ks->name};
    uint32_t n_physical;
    if (throughput_of(c, d->props, d->n_props, &tp, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (tp.given && cql__throughput_hook(c, &tp, &n_physical, err) != BASE_OK) {
        return BASE_ERROR;
    }
    keyspace_props(c, ks, d, false, err);
    /* tables sharing the keyspace's throughput may now need more physical partitions */
    for (size_t i = 0; tp.given && i < ks->n_tables; i++) {
        cql_table_t *t = ks->tables[i];
        cql_throughput_t shared = {.keyspace = ks->name, .table = t->name};
        if (t->provisioned_throughput == 0 && t->autoscale_max_throughput == 0 &&
            cql__throughput_hook(c, &shared, &n_physical, err) == BASE_OK) {
            split_ring(t, n_physical);
        }
    }
    cql__schema_notify(c, "UPDATED", "KEYSPACE", ks->name, NULL);
    return BASE_OK;
}


static void remove_keyspace(cql_engine_t *e, cql_keyspace_t *ks)
{
    for (size_t i = 0; i < e->n_keyspaces; i++) {
        if (e->keyspaces[i] == ks) {
            memmove(&e->keyspaces[i], &e->keyspaces[i + 1],
                    (e->n_keyspaces - i - 1) * sizeof(*e->keyspaces));
            e->n_keyspaces--;
            break;
        }
    }
    for (size_t j = 0; j < ks->n_tables; j++) {
        cql__table_free(e, ks->tables[j]);
    }
    cql__keyspace_free(ks);
}


static int drop_keyspace(cql_ctx_t *c, const cql_drop_t *d, base_error_t *err)
{
    cql_keyspace_t *ks = cql__keyspace_find(c->e, d->name.name);
    if (ks == NULL) {
        if (d->if_exists) {
            return BASE_OK;
        }
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR, "Cannot drop non existing keyspace '%s'.",
                              d->name.name);
    }
    if (ks->system) {
        return base_error_set(err, WIRE_ERR_UNAUTHORIZED, "%s keyspace is not user-modifiable.",
                              ks->name);
    }
    char *name = base_arena_strndup(c->a, ks->name, strlen(ks->name));
    if (c->owner->keyspace != NULL && strcmp(c->owner->keyspace, name) == 0) {
        base_free(c->owner->keyspace);
        c->owner->keyspace = NULL;
    }
    if (c->s != c->owner && c->s->keyspace != NULL && strcmp(c->s->keyspace, name) == 0) {
        c->s->keyspace = NULL; /* a view borrows the prepared statement's string */
    }
    for (size_t i = 0; i < ks->n_tables; i++) {
        drop_hook(c, name, ks->tables[i]->name);
    }
    drop_hook(c, name, NULL);
    remove_keyspace(c->e, ks);
    cql__schema_notify(c, "DROPPED", "KEYSPACE", name, NULL);
    return BASE_OK;
}


/* ---- tables ---------------------------------------------------------------------------- */

static bool known_option(const char *name)
{
    for (size_t i = 0; i < sizeof(known_table_options) / sizeof(known_table_options[0]); i++) {
        if (strcmp(known_table_options[i], name) == 0) {
            return true;
        }
    }
    return false;
}


/* TableParams.validate's bounds, in its words (a configuration error). */
static int bounded(const cql_property_t *p, int64_t min, int64_t max, int64_t *out,
                   base_error_t *err)
{
    if (prop_int(p, INT32_MIN, INT32_MAX, out, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (*out < min) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "%s must be greater than or equal to %lld (got %lld)", p->name,
                              (long long)min, (long long)*out);
    }
    if (*out > max) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "%s must be less than or equal to %lld (got %lld)", p->name,
                              (long long)max, (long long)*out);
    }
    return BASE_OK;
}


static int hex_digit(char ch)
{
    return ch >= '0' && ch <= '9'   ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}


/* 8-4-4-4-12 hex into 16 bytes; false if s is not one. */
static bool parse_uuid(const char *s, uint8_t out[16])
{
    size_t n = 0;
    for (size_t i = 0; s[i] != '\0'; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-') {
                return false;
            }
            continue;
        }
        int hi = hex_digit(s[i]), lo = s[i + 1] ? hex_digit(s[i + 1]) : -1;
        if (hi < 0 || lo < 0 || n == 16) {
            return false;
        }
        out[n++] = (uint8_t)(hi << 4 | lo);
        i++;
    }
    return n == 16 && strlen(s) == 36;
}


/* WITH ID = <uuid> (4.0 TableAttributes): a table may be created under a given id,
 * never given a new one. */
static int id_prop(const cql_property_t *p, const cql_table_t *cur, uint8_t id[16],
                   base_error_t *err)
{
    if (cur != NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR, "Cannot alter table id.");
    }
    const char *text = prop_text(p);
    if (text == NULL || !parse_uuid(text, id)) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR, "Invalid table id");
    }
    return BASE_OK;
}


/* One integer option: checked, and kept in t when t is not NULL. */
static int int_prop(cql_ctx_t *c, cql_table_t *t, const cql_property_t *p, int32_t *min_ii,
                    int32_t *max_ii, base_error_t *err)
{
    int64_t v = 0;
    if (strcmp(p->name, "default_time_to_live") == 0) {
        /* Cassandra caps TTLs at 20 years; the service takes any int (api facts 4.2). */
        if (bounded(p, 0, is_cosmos(c) ? INT32_MAX : 630720000, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (t != NULL) {
            t->default_ttl = (int32_t)v;
        }
    } else if (strcmp(p->name, "gc_grace_seconds") == 0) {
        if (bounded(p, 0, INT32_MAX, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        /* The service has no tombstones to collect: it refuses any other value. */
        if (is_cosmos(c) && v != 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "gc_grace_seconds must be zero in Azure Cosmos DB for "
                                  "Apache Cassandra (got %lld): the service does not keep "
                                  "tombstones",
                                  (long long)v);
        }
        if (t != NULL) {
            t->gc_grace_seconds = (int32_t)v;
        }
    } else if (strcmp(p->name, "min_index_interval") == 0) {
        if (bounded(p, 1, INT32_MAX, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        *min_ii = (int32_t)v;
    } else if (strcmp(p->name, "max_index_interval") == 0) {
        if (prop_int(p, INT32_MIN, INT32_MAX, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        *max_ii = (int32_t)v;
    } else if (strcmp(p->name, "memtable_flush_period_in_ms") == 0) {
        return bounded(p, 0, INT32_MAX, &v, err);
    }
    return BASE_OK;
}


static bool is_map_option(const char *name)
{
    return strcmp(name, "caching") == 0 || strcmp(name, "compaction") == 0 ||
           strcmp(name, "compression") == 0;
}


static int map_prop(cql_ctx_t *c, cql_table_t *t, const cql_property_t *p, base_error_t *err)
{
    cql_optmap_t m = {0};
    if (cql__table_option_map(p, c->a, &m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (t != NULL) {
        cql__optmap_set(strcmp(p->name, "caching") == 0      ? &t->caching
                        : strcmp(p->name, "compaction") == 0 ? &t->compaction
                                                             : &t->compression,
                        &m);
    }
    return BASE_OK;
}


/* One table option: checked (t NULL) or applied to t. */
static int table_prop(cql_ctx_t *c, cql_table_t *t, const cql_table_t *cur, const cql_property_t *p,
                      int32_t *min_ii, int32_t *max_ii, base_error_t *err)
{
    uint8_t id[16];
    if (int_prop(c, t, p, min_ii, max_ii, err) != BASE_OK) {
        return BASE_ERROR;
    } else if (is_map_option(p->name)) {
        return map_prop(c, t, p, err);
    } else if (strcmp(p->name, "id") == 0) {
        if (id_prop(p, cur, id, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (t != NULL) {
            memcpy(t->id, id, 16);
        }
    } else if (strcmp(p->name, "comment") == 0) {
        if (t != NULL && prop_text(p) != NULL) {
            base_free(t->comment);
            t->comment = base_strdup(prop_text(p));
        }
    } else if (is_throughput(p->name)) {
        int64_t manual = 0, autoscale = 0;
        if (throughput_prop(c, p, &manual, &autoscale, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (t != NULL) {
            t->provisioned_throughput = manual;
            t->autoscale_max_throughput = autoscale;
        }
    }
    return BASE_OK;
}


/* Checks a statement's table options (t NULL) or applies them to t. cur is the
 * table an ALTER changes (NULL for CREATE): options check against its values.
 * On replay a refused option keeps its default (replay_trusts_the_log). */
static int table_props(cql_ctx_t *c, cql_table_t *t, const cql_table_t *cur,
                       const cql_property_t *props, size_t n, base_error_t *err)
{
    int32_t min_ii = cur ? cur->min_index_interval : 128;
    int32_t max_ii = cur ? cur->max_index_interval : 2048;
    for (size_t i = 0; i < n; i++) {
        const cql_property_t *p = &props[i];
        if (!known_option(p->name)) {
            return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "Unknown property '%s'", p->name);
        }
        if (table_prop(c, t, cur, p, &min_ii, &max_ii, err) != BASE_OK &&
            !replay_trusts_the_log(c)) {
            return BASE_ERROR;
        }
    }
    if (max_ii < min_ii) {
        if (!replay_trusts_the_log(c)) {
            return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                                  "max_index_interval must be greater than or equal to "
                                  "min_index_interval (%d) (got %d)",
                                  min_ii, max_ii);
        }
        min_ii = cur ? cur->min_index_interval : 128;
        max_ii = cur ? cur->max_index_interval : 2048;
    }
    if (t != NULL) {
        t->min_index_interval = min_ii;
        t->max_index_interval = max_ii;
    }
    return BASE_OK;
}


static void table_attach(cql_keyspace_t *ks, cql_table_t *t)
{
    if (ks->n_tables == ks->cap_tables) {
        ks->cap_tables = ks->cap_tables ? ks->cap_tables * 2 : 8;
        ks->tables = base_realloc(ks->tables, ks->cap_tables * sizeof(*ks->tables));
    }
    ks->tables[ks->n_tables++] = t;
    t->ks = ks;
}


static void table_detach(cql_keyspace_t *ks, cql_table_t *t)
{
    for (size_t i = 0; i < ks->n_tables; i++) {
        if (ks->tables[i] == t) {
            memmove(&ks->tables[i], &ks->tables[i + 1],
                    (ks->n_tables - i - 1) * sizeof(*ks->tables));
            ks->n_tables--;
            return;
        }
    }
}


static int find_def(const cql_create_table_t *d, const char *name)
{
    for (size_t i = 0; i < d->n_columns; i++) {
        if (strcmp(d->columns[i].name, name) == 0) {
            return (int)i;
        }
    }
    return -1;
}


/* Every PRIMARY KEY part is a defined, non-static column of a frozen (or non-collection)
 * type, named once. */
static int check_primary_key(const cql_create_table_t *d, base_error_t *err)
{
    const char **keys[2] = {d->partition, d->clustering};
    size_t n_keys[2] = {d->n_partition, d->n_clustering};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < n_keys[k]; i++) {
            int idx = find_def(d, keys[k][i]);
            if (idx < 0) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Unknown definition %s referenced in PRIMARY KEY",
                                      keys[k][i]);
            }
            if (d->columns[idx].is_static) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Static column %s cannot be part of the PRIMARY KEY",
                                      keys[k][i]);
            }
            const cql_type_ast_t *ty = d->columns[idx].type;
            bool coll = strcmp(ty->name, "list") == 0 || strcmp(ty->name, "set") == 0 ||
                        strcmp(ty->name, "map") == 0;
            if (coll && !ty->frozen) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Invalid non-frozen collection type for PRIMARY KEY "
                                      "component %s",
                                      keys[k][i]);
            }
            for (int k2 = 0; k2 <= k; k2++) {
                size_t lim = k2 == k ? i : n_keys[k2];
                for (size_t j = 0; j < lim; j++) {
                    if (strcmp(keys[k2][j], keys[k][i]) == 0) {
                        return base_error_set(err, WIRE_ERR_INVALID,
                                              "Duplicate definition %s in PRIMARY KEY", keys[k][i]);
                    }
                }
            }
        }
    }
    return BASE_OK;
}


/* Checks the definition before anything is built, so a refused table leaves no trace. */
static int check_table_def(const cql_create_table_t *d, base_error_t *err)
{
    if (d->n_columns > CQL_MAX_TABLE_COLUMNS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Table %s has %zu columns, more than the emulator's limit of %d",
                              d->table.name, d->n_columns, CQL_MAX_TABLE_COLUMNS);
    }
    size_t inline_pk = 0;
    for (size_t i = 0; i < d->n_columns; i++) {
        inline_pk += d->columns[i].primary_key;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(d->columns[i].name, d->columns[j].name) == 0) {
                return base_error_set(err, WIRE_ERR_INVALID, "Multiple definition of identifier %s",
                                      d->columns[i].name);
            }
        }
    }
    if (inline_pk > 1 || (inline_pk == 1 && d->n_partition > 1)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Multiple PRIMARY KEYs specifed (exactly one required)");
    }
    if (d->n_partition == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "No PRIMARY KEY specifed (exactly one required)");
    }
    if (check_primary_key(d, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < d->n_columns; i++) {
        if (d->columns[i].is_static && d->n_clustering == 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Static columns are only useful (and thus allowed) if the table "
                                  "has at least one clustering column");
        }
    }
    for (size_t i = 0; i < d->n_order; i++) {
        if (i >= d->n_clustering || strcmp(d->order[i].column, d->clustering[i]) != 0) {
            bool is_ck = false;
            for (size_t j = 0; j < d->n_clustering; j++) {
                is_ck |= strcmp(d->order[i].column, d->clustering[j]) == 0;
            }
            if (!is_ck) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Only clustering key columns can be defined in CLUSTERING "
                                      "ORDER directive");
            }
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "The order of columns in the CLUSTERING ORDER directive must be "
                                  "the one of the clustering key (%s must appear before %s)",
                                  d->clustering[i], d->order[i].column);
        }
    }
    if (d->compact_storage) {
        return base_error_set(err, WIRE_ERR_INVALID, "COMPACT STORAGE tables are not supported");
    }
    return BASE_OK;
}


/* CreateTableStatement: a non-frozen user type column holds its fields as cells, so
 * none of them may be a non-frozen collection. */
static int check_udt_column(const wire_type_t *t, base_error_t *err)
{
    if (t->id != WIRE_TYPE_UDT || t->frozen) {
        return BASE_OK;
    }
    for (size_t i = 0; i < t->n_sub; i++) {
        if (cql__type_is_collection(t->sub[i]) && !t->sub[i]->frozen) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Non-frozen UDTs with nested non-frozen collections are not "
                                  "supported");
        }
    }
    return BASE_OK;
}


static int build_columns(cql_table_t *t, const cql_create_table_t *d, base_error_t *err)
{
    t->cols = base_calloc(d->n_columns, sizeof(*t->cols));
    for (size_t i = 0; i < d->n_columns; i++) {
        const cql_column_def_t *cd = &d->columns[i];
        cql_column_t *col = &t->cols[t->n_cols];
        if (cql__type_resolve(t->ks, cd->type, &col->type, err) != BASE_OK) {
            return BASE_ERROR;
        }
        t->n_cols++;
        if (check_udt_column(col->type, err) != BASE_OK) {
            return BASE_ERROR;
        }
        col->name = base_strdup(cd->name);
        col->id = t->next_col_id++;
        col->position = -1;
        col->kind = cd->is_static ? CQL_COL_STATIC : CQL_COL_REGULAR;
        for (size_t j = 0; j < d->n_partition; j++) {
            if (strcmp(d->partition[j], cd->name) == 0) {
                col->kind = CQL_COL_PARTITION;
                col->position = (int)j;
            }
        }
        for (size_t j = 0; j < d->n_clustering; j++) {
            if (strcmp(d->clustering[j], cd->name) == 0) {
                col->kind = CQL_COL_CLUSTERING;
                col->position = (int)j;
                col->desc = j < d->n_order && d->order[j].desc;
            }
        }
    }
    t->n_pk = d->n_partition;
    t->n_ck = d->n_clustering;
    cql__table_sort_columns(t);
    size_t n_counter = 0, n_regular = 0;
    for (size_t i = 0; i < t->n_cols; i++) {
        const cql_column_t *col = &t->cols[i];
        if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
            if (col->type->id == WIRE_TYPE_UDT && !col->type->frozen) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Invalid non-frozen user-defined type for PRIMARY KEY "
                                      "component %s",
                                      col->name);
            }
            if (col->counter) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "counter type is not supported for PRIMARY KEY column '%s'",
                                      col->name);
            }
            if (cql__type_has_duration(col->type)) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "duration type is not supported for PRIMARY KEY column '%s'",
                                      col->name);
            }
            continue;
        }
        n_regular++;
        n_counter += col->counter;
    }
    if (n_counter > 0 && n_counter != n_regular) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot mix counter and non counter columns in the same table");
    }
    return BASE_OK;
}


static int create_table(cql_ctx_t *c, const cql_create_table_t *d, base_error_t *err)
{
    cql_keyspace_t *ks = NULL;
    const char *ksname = d->table.keyspace ? d->table.keyspace : c->s->keyspace;
    if (ksname == NULL) {
        return cql__resolve_keyspace(c, NULL, &ks, err);
    }
    ks = cql__keyspace_find(c->e, ksname);
    if (ks == NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Cannot add table '%s' to non existing keyspace '%s'.", d->table.name,
                              ksname);
    }
    if (cql__table_find(ks, d->table.name) != NULL) {
        if (d->if_not_exists) {
            return BASE_OK;
        }
        base_error_set(err, WIRE_ERR_ALREADY_EXISTS,
                       "Cannot add already existing table \"%s\" to keyspace \"%s\"", d->table.name,
                       ks->name);
        wire_error_detail_already_exists(err, ks->name, d->table.name);
        return BASE_ERROR;
    }
    if (strlen(d->table.name) > 48) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Table name must not be empty, more than 48 characters long, or "
                              "contain non-alphanumeric-underscore characters (got \"%s\")",
                              d->table.name);
    }
    if (check_table_def(d, err) != BASE_OK ||
        table_props(c, NULL, NULL, d->props, d->n_props, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_table_t *t = base_calloc(1, sizeof(*t));
    t->ks = ks;
    t->name = base_strdup(d->table.name);
    t->gc_grace_seconds = is_cosmos(c) ? 0 : 864000;
    cql__uuid_random(t->id);
    cql__table_default_options(t);
    if (build_columns(t, d, err) != BASE_OK) {
        cql__table_free(c->e, t);
        return BASE_ERROR;
    }
    table_props(c, t, NULL, d->props, d->n_props, err);
    uint32_t n_physical = 0;
    if (!ks->system) {
        cql_throughput_t tp = {.keyspace = ks->name, .table = t->name, .creating = true};
        if (throughput_of(c, d->props, d->n_props, &tp, err) != BASE_OK ||
            cql__throughput_hook(c, &tp, &n_physical, err) != BASE_OK) {
            cql__table_free(c->e, t);
            return BASE_ERROR;
        }
    }
    /* system tables are generated, never stored: they take no storage id */
    t->st = ks->system ? NULL : storage_table_create(c->e->db, c->e->next_storage_id++);
    split_ring(t, n_physical);
    table_attach(ks, t);
    if (!ks->system) {
        cql__schema_notify(c, "CREATED", "TABLE", ks->name, t->name);
    }
    return BASE_OK;
}


static int find_table_for_ddl(cql_ctx_t *c, const cql_qname_t *q, bool if_exists, cql_table_t **out,
                              base_error_t *err)
{
    cql_keyspace_t *ks = NULL;
    *out = NULL;
    if (q->keyspace != NULL && cql__keyspace_find(c->e, q->keyspace) == NULL) {
        /* MigrationManager's wording (3.11); IF EXISTS drops nothing */
        return if_exists ? BASE_OK
                         : base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                                          "Cannot drop table in unknown keyspace %s", q->keyspace);
    }
    if (cql__resolve_keyspace(c, q->keyspace, &ks, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_table_t *t = cql__table_find(ks, q->name);
    if (t == NULL) {
        if (if_exists) {
            return BASE_OK;
        }
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Cannot drop non existing table '%s' in keyspace '%s'.", q->name,
                              ks->name);
    }
    if (ks->system) {
        return base_error_set(err, WIRE_ERR_UNAUTHORIZED, "%s keyspace is not user-modifiable.",
                              ks->name);
    }
    *out = t;
    return BASE_OK;
}


static int drop_table(cql_ctx_t *c, const cql_drop_t *d, base_error_t *err)
{
    cql_table_t *t = NULL;
    if (find_table_for_ddl(c, &d->name, d->if_exists, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (t == NULL) {
        return BASE_OK; /* IF EXISTS on a missing table */
    }
    cql_keyspace_t *ks = t->ks;
    char *name = base_arena_strndup(c->a, t->name, strlen(t->name));
    table_detach(ks, t);
    cql__table_free(c->e, t);
    drop_hook(c, ks->name, name);
    cql__schema_notify(c, "DROPPED", "TABLE", ks->name, name);
    return BASE_OK;
}


static int truncate_table(cql_ctx_t *c, const cql_drop_t *d, base_error_t *err)
{
    cql_table_t *t = NULL;
    if (cql__resolve_table(c, &d->name, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (t->st == NULL) {
        return base_error_set(err, WIRE_ERR_UNAUTHORIZED, "%s keyspace is not user-modifiable.",
                              t->ks->name);
    }
    storage_table_truncate(t->st);
    return BASE_OK;
}


/* AbstractType.isValueCompatibleWith for simple (or frozen) types: the new type
 * reads every value the old one wrote. */
static bool value_compatible(const wire_type_t *nt, const wire_type_t *ot)
{
    if (cql__type_equal(nt, ot) || nt->id == WIRE_TYPE_BLOB) {
        return true;
    }
    switch (nt->id) {
    case WIRE_TYPE_VARCHAR:
        return ot->id == WIRE_TYPE_ASCII;
    case WIRE_TYPE_VARINT:
        return ot->id == WIRE_TYPE_INT || ot->id == WIRE_TYPE_BIGINT ||
               ot->id == WIRE_TYPE_SMALLINT || ot->id == WIRE_TYPE_TINYINT;
    case WIRE_TYPE_BIGINT:
        return ot->id == WIRE_TYPE_TIMESTAMP;
    case WIRE_TYPE_TIMESTAMP:
        return ot->id == WIRE_TYPE_BIGINT;
    case WIRE_TYPE_UUID:
        return ot->id == WIRE_TYPE_TIMEUUID;
    default:
        return false;
    }
}


static bool multi_cell_type(const wire_type_t *t)
{
    return (cql__type_is_collection(t) || t->id == WIRE_TYPE_UDT) && !t->frozen;
}


/* Whether a column re-added as type nt may take back the cells of a dropped column of
 * type ot (CollectionType's rules for non-frozen collections: same kind, keys equal,
 * values compatible). */
static bool readd_compatible(const wire_type_t *nt, const wire_type_t *ot)
{
    if (multi_cell_type(nt) != multi_cell_type(ot)) {
        return false;
    }
    if (!multi_cell_type(nt)) {
        return value_compatible(nt, ot);
    }
    if (nt->id != ot->id || nt->n_sub != ot->n_sub || nt->id == WIRE_TYPE_UDT) {
        return cql__type_equal(nt, ot);
    }
    if (nt->id == WIRE_TYPE_LIST) {
        return value_compatible(nt->sub[0], ot->sub[0]);
    }
    return cql__type_equal(nt->sub[0], ot->sub[0]) &&
           (nt->id == WIRE_TYPE_SET || value_compatible(nt->sub[1], ot->sub[1]));
}


static const cql_dropped_t *find_dropped(const cql_table_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_dropped; i++) {
        if (strcmp(t->dropped[i].name, name) == 0) {
            return &t->dropped[i];
        }
    }
    return NULL;
}


/* AlterTableStatement (3.11) on a re-added column. *reuse: the column takes the dropped
 * one's id back, so its cells written after the drop show again. Only two non-frozen
 * collections of incompatible types are refused (CollectionsTest, AlterTest); any other
 * incompatible pair is taken under a new id, its old cells left unread, as the tests
 * have it (testDowngradeToCompact, FrozenCollectionsTest.testAltering). */
static int check_readd(cql_ctx_t *c, const cql_table_t *t, const cql_column_def_t *def,
                       const wire_type_t *type, bool *reuse, base_error_t *err)
{
    const cql_dropped_t *dr = find_dropped(t, def->name);
    *reuse = false;
    if (dr == NULL || !dr->reusable || c->e->replay_legacy_alter) {
        return BASE_OK; /* the old rules: a new id, nothing to refuse */
    }
    cql_col_kind_t kind = def->is_static ? CQL_COL_STATIC : CQL_COL_REGULAR;
    if (kind != dr->kind) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot re-add previously dropped column '%s' of kind %s, "
                              "incompatible with previous kind %s",
                              def->name, def->is_static ? "STATIC" : "REGULAR",
                              def->is_static ? "REGULAR" : "STATIC");
    }
    if (t->has_counters) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot re-add previously dropped counter column %s", def->name);
    }
    if (!multi_cell_type(dr->type) || !multi_cell_type(type)) {
        *reuse = readd_compatible(type, dr->type);
        return BASE_OK;
    }
    if (!readd_compatible(type, dr->type)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot re-add previously dropped column '%s' of type %s, "
                              "incompatible with previous type %s",
                              def->name, cql__type_name(type, c->a),
                              cql__type_name(dr->type, c->a));
    }
    *reuse = true;
    return BASE_OK;
}


/* ALTER TABLE ADD: every new column is checked and typed before any is added, so a
 * statement that fails leaves the table as it was. */
static int alter_add(cql_ctx_t *c, cql_table_t *t, const cql_alter_table_t *d, base_error_t *err)
{
    if (d->n_columns > CQL_MAX_TABLE_COLUMNS - t->n_cols) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Table %s would have %zu columns, more than the emulator's limit "
                              "of %d",
                              t->name, t->n_cols + d->n_columns, CQL_MAX_TABLE_COLUMNS);
    }
    int rc = BASE_OK;
    wire_type_t **types = base_calloc(d->n_columns + 1, sizeof(*types));
    bool *reuse = base_arena_calloc(c->a, d->n_columns + 1, sizeof(*reuse));
    for (size_t i = 0; i < d->n_columns && rc == BASE_OK; i++) {
        const cql_column_def_t *def = &d->columns[i];
        bool dup = cql__column_find(t, def->name) != NULL;
        for (size_t k = 0; k < i; k++) {
            dup |= strcmp(d->columns[k].name, def->name) == 0;
        }
        if (dup) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                "Invalid column name %s because it conflicts with an existing "
                                "column",
                                def->name);
        } else if (def->is_static && t->n_ck == 0) {
            rc = base_error_set(err, WIRE_ERR_INVALID,
                                "Static columns are only useful (and thus allowed) if the table "
                                "has at least one clustering column");
        } else if (cql__type_resolve(t->ks, def->type, &types[i], err) != BASE_OK ||
                   check_udt_column(types[i], err) != BASE_OK ||
                   check_readd(c, t, def, types[i], &reuse[i], err) != BASE_OK) {
            rc = BASE_ERROR;
        } else if ((types[i]->id == WIRE_TYPE_COUNTER) != t->has_counters) {
            /* TableMetadata.validate, hence a configuration error */
            rc = base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                                "Cannot have a %scounter column (\"%s\") in a %scounter table",
                                t->has_counters ? "non " : "", def->name,
                                t->has_counters ? "" : "non ");
        }
    }
    if (rc != BASE_OK) {
        goto done;
    }
    t->cols = base_realloc(t->cols, (t->n_cols + d->n_columns) * sizeof(*t->cols));
    for (size_t i = 0; i < d->n_columns; i++) {
        cql_column_t *col = &t->cols[t->n_cols++];
        memset(col, 0, sizeof(*col));
        col->name = base_strdup(d->columns[i].name);
        col->type = types[i];
        types[i] = NULL; /* the table owns it now */
        col->kind = d->columns[i].is_static ? CQL_COL_STATIC : CQL_COL_REGULAR;
        col->position = -1;
        col->id = reuse[i] ? find_dropped(t, col->name)->id : t->next_col_id++;
    }
    cql__table_sort_columns(t);
done:
    for (size_t i = 0; i < d->n_columns; i++) {
        cql__type_free(types[i]);
    }
    base_free(types);
    return rc;
}


/* The timestamp of ALTER TABLE ... DROP: USING TIMESTAMP's, else the statement's. */
static int drop_timestamp(cql_ctx_t *c, const cql_alter_table_t *d, int64_t *out, base_error_t *err)
{
    *out = c->now_us;
    if (d->drop_ts == NULL) {
        return BASE_OK;
    }
    if (d->drop_ts->kind != CQL_TERM_LITERAL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Bind variables cannot be used in ALTER TABLE ... DROP USING "
                              "TIMESTAMP");
    }
    errno = 0;
    char *end;
    long long ts = strtoll(d->drop_ts->text, &end, 10);
    if (errno != 0 || *end != '\0') {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid timestamp %s", d->drop_ts->text);
    }
    *out = ts;
    return BASE_OK;
}


static bool dropped_cell(const storage_row_view_t *v, const uint32_t *ids, size_t n, int64_t ts)
{
    for (size_t i = 0; i < v->n_cells; i++) {
        for (size_t k = 0; k < n; k++) {
            if (v->cells[i].col == ids[k] && v->cells[i].ts <= ts) {
                return true;
            }
        }
    }
    return false;
}


typedef struct purge_row_s {
    const uint8_t *pk, *ck;
    size_t pk_len, ck_len;
    int64_t token;
    bool is_static;
} purge_row_t;


static const uint8_t *arena_copy(base_arena_t *a, const uint8_t *p, size_t n)
{
    uint8_t *out = base_arena_alloc(a, n ? n : 1);
    if (n > 0) {
        memcpy(out, p, n);
    }
    return out;
}


typedef struct purge_set_s {
    purge_row_t *rows;
    size_t n, cap;
} purge_set_t;


static void purge_add(cql_ctx_t *c, purge_set_t *set, const purge_row_t *r)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 16;
        purge_row_t *bigger = base_arena_alloc(c->a, cap * sizeof(*bigger));
        if (set->n > 0) {
            memcpy(bigger, set->rows, set->n * sizeof(*bigger));
        }
        set->rows = bigger, set->cap = cap;
    }
    set->rows[set->n++] = *r;
}


/* Rows of t holding a cell of ids written at or before ts, copied into the arena
 * (the writes that follow may move partitions under a cursor). */
static void rows_to_purge(cql_ctx_t *c, cql_table_t *t, const uint32_t *ids, size_t n, int64_t ts,
                          purge_set_t *set)
{
    storage_part_iter_t *pi = storage_part_iter_new(t->st, false, 0, NULL, 0);
    storage_partition_t *p;
    while ((p = storage_part_iter_next(pi)) != NULL) {
        size_t pk_len;
        const uint8_t *pk = storage_partition_key(p, &pk_len);
        purge_row_t r = {.pk = arena_copy(c->a, pk, pk_len),
                         .pk_len = pk_len,
                         .token = storage_partition_token(p)};
        storage_row_view_t v;
        if (storage_partition_static(p, c->now_us, &v) && dropped_cell(&v, ids, n, ts)) {
            r.is_static = true;
            purge_add(c, set, &r);
            r.is_static = false;
        }
        storage_row_iter_t *ri = storage_row_iter_new(p, NULL, NULL, false, c->now_us);
        while (storage_row_iter_next(ri, &v)) {
            if (!v.is_static && dropped_cell(&v, ids, n, ts)) {
                r.ck = arena_copy(c->a, v.ck, v.ck_len);
                r.ck_len = v.ck_len;
                purge_add(c, set, &r);
            }
        }
        storage_row_iter_free(ri);
    }
    storage_part_iter_free(pi);
}


/* Deletes the cells of the dropped columns written at or before ts, as Cassandra's
 * dropped-column record hides them: a column tombstone at ts in every row holding
 * one, written (and logged) like any deletion. Cells written later keep their id, so
 * a compatible re-ADD shows them again. Not on replay: the commit log has them. */
static int purge_dropped(cql_ctx_t *c, cql_table_t *t, const uint32_t *ids, size_t n, int64_t ts,
                         base_error_t *err)
{
    if (t->st == NULL || cql__schema_replaying(c->e)) {
        return BASE_OK;
    }
    purge_set_t set = {0};
    rows_to_purge(c, t, ids, n, ts, &set);
    storage_cell_t *cells = base_arena_calloc(c->a, n, sizeof(*cells));
    for (size_t k = 0; k < n; k++) {
        cells[k] = (storage_cell_t){.col = ids[k], .tombstone = true, .ts = ts};
    }
    for (size_t i = 0; i < set.n; i++) {
        const purge_row_t *r = &set.rows[i];
        storage_mutation_t m = {.pk = r->pk,
                                .pk_len = r->pk_len,
                                .token = r->token,
                                .ck = r->ck,
                                .ck_len = r->ck_len,
                                .static_row = r->is_static,
                                .cells = cells,
                                .n_cells = n};
        if (storage_apply(t->st, &m, c->now_us, NULL) != BASE_OK) {
            return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                                  "the cells of the dropped column(s) could not be deleted: the "
                                  "commit log could not be written");
        }
    }
    return BASE_OK;
}


/* Keeps the dropped column in t->dropped (replacing an older drop of that name). */
static void record_drop(cql_ctx_t *c, cql_table_t *t, const cql_column_t *col, int64_t ts)
{
    cql_dropped_t *r = NULL;
    for (size_t i = 0; i < t->n_dropped && r == NULL; i++) {
        r = strcmp(t->dropped[i].name, col->name) == 0 ? &t->dropped[i] : NULL;
    }
    if (r == NULL) {
        t->dropped = base_realloc(t->dropped, (t->n_dropped + 1) * sizeof(*t->dropped));
        r = &t->dropped[t->n_dropped++];
        r->name = base_strdup(col->name);
    } else {
        cql__type_free(r->type);
    }
    r->type = cql__type_clone(col->type);
    r->id = col->id;
    r->kind = col->kind;
    r->dropped_us = ts;
    r->reusable = !c->e->replay_legacy_alter;
}


static int check_drop(const cql_table_t *t, const char *name, base_error_t *err)
{
    cql_column_t *col = cql__column_find(t, name);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Column %s was not found in table %s", name,
                              t->name);
    }
    if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
        return base_error_set(err, WIRE_ERR_INVALID, "Cannot drop PRIMARY KEY part %s", col->name);
    }
    for (size_t j = 0; j < t->n_indexes; j++) {
        if (strcmp(t->indexes[j].column, col->name) == 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot drop column %s because it has dependent secondary "
                                  "indexes (%s)",
                                  col->name, t->indexes[j].name);
        }
    }
    return BASE_OK;
}


static int alter_drop(cql_ctx_t *c, cql_table_t *t, const cql_alter_table_t *d, base_error_t *err)
{
    int64_t ts;
    if (drop_timestamp(c, d, &ts, err) != BASE_OK) {
        return BASE_ERROR;
    }
    uint32_t *ids = base_arena_calloc(c->a, d->n_columns + 1, sizeof(*ids));
    for (size_t i = 0; i < d->n_columns; i++) {
        if (check_drop(t, d->columns[i].name, err) != BASE_OK) {
            return BASE_ERROR;
        }
        ids[i] = cql__column_find(t, d->columns[i].name)->id;
    }
    if (purge_dropped(c, t, ids, d->n_columns, ts, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < d->n_columns; i++) {
        cql_column_t *col = cql__column_find(t, d->columns[i].name);
        if (col == NULL) {
            continue; /* named twice */
        }
        record_drop(c, t, col, ts);
        base_free(col->name);
        cql__type_free(col->type);
        size_t at = (size_t)(col - t->cols);
        memmove(col, col + 1, (t->n_cols - at - 1) * sizeof(*col));
        t->n_cols--;
        cql__table_sort_columns(t);
    }
    return BASE_OK;
}


static int alter_rename(cql_table_t *t, const cql_alter_table_t *d, base_error_t *err)
{
    for (size_t i = 0; i + 1 < d->n_columns; i += 2) {
        cql_column_t *col = cql__column_find(t, d->columns[i].name);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Column %s was not found in table %s",
                                  d->columns[i].name, t->name);
        }
        if (col->kind != CQL_COL_PARTITION && col->kind != CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID, "Cannot rename non PRIMARY KEY part %s",
                                  col->name);
        }
        if (cql__column_find(t, d->columns[i + 1].name) != NULL) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot rename column %s to %s in keyspace %s; another column "
                                  "of that name already exist",
                                  col->name, d->columns[i + 1].name, t->ks->name);
        }
        base_free(col->name);
        col->name = base_strdup(d->columns[i + 1].name);
        cql__table_sort_columns(t);
    }
    return BASE_OK;
}


static int alter_table(cql_ctx_t *c, const cql_alter_table_t *d, base_error_t *err)
{
    cql_table_t *t = NULL;
    if (cql__resolve_table(c, &d->table, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (t->ks->system) {
        return base_error_set(err, WIRE_ERR_UNAUTHORIZED, "%s keyspace is not user-modifiable.",
                              t->ks->name);
    }
    int rc;
    switch (d->kind) {
    case CQL_ALTER_ADD:
        rc = alter_add(c, t, d, err);
        break;
    case CQL_ALTER_DROP:
        rc = alter_drop(c, t, d, err);
        break;
    case CQL_ALTER_RENAME:
        rc = alter_rename(t, d, err);
        break;
    case CQL_ALTER_WITH: {
        cql_throughput_t tp = {.keyspace = t->ks->name, .table = t->name};
        uint32_t n_physical = 0;
        rc = table_props(c, NULL, t, d->props, d->n_props, err);
        if (rc == BASE_OK) {
            rc = throughput_of(c, d->props, d->n_props, &tp, err);
        }
        if (rc == BASE_OK && tp.given) {
            rc = cql__throughput_hook(c, &tp, &n_physical, err);
        }
        if (rc == BASE_OK) {
            rc = table_props(c, t, t, d->props, d->n_props, err);
            split_ring(t, n_physical);
        }
        break;
    }
    default:
        rc = base_error_set(err, WIRE_ERR_INVALID, "Altering of types is not allowed");
        break;
    }
    if (rc == BASE_OK) {
        cql__schema_notify(c, "UPDATED", "TABLE", t->ks->name, t->name);
    }
    return rc;
}


/* ---- indexes and types ------------------------------------------------------------------ */

/* The index targets Cassandra allows per column type: keys(), values() and entries()
 * on non-frozen collections (keys and entries on maps), full() on frozen ones, a plain
 * index on anything but a frozen collection; never on counters. */
static int check_index_target(const char *kind, const cql_column_t *col, base_error_t *err)
{
    const wire_type_t *t = col->type;
    bool coll = cql__type_is_collection(t);
    const char *cname = t->id == WIRE_TYPE_MAP ? "map" : t->id == WIRE_TYPE_SET ? "set" : "list";
    if (col->counter) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Secondary indexes are not supported on counter tables");
    }
    if (kind == NULL) {
        if (coll && t->frozen) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot create index on frozen column %s. Frozen collections "
                                  "only support full() indexes",
                                  col->name);
        }
        return BASE_OK;
    }
    if (strcmp(kind, "full") == 0) {
        return coll && t->frozen ? BASE_OK
                                 : base_error_set(err, WIRE_ERR_INVALID,
                                                  "full() indexes can only be created on frozen "
                                                  "collections");
    }
    if (coll && t->frozen) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot create index on %s of frozen<%s> column %s", kind, cname,
                              col->name);
    }
    bool map_only = strcmp(kind, "keys") == 0 || strcmp(kind, "entries") == 0;
    if (!coll || (map_only && t->id != WIRE_TYPE_MAP)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot create index on %s of column %s with non-%s type", kind,
                              col->name, map_only ? "map" : "collection");
    }
    return BASE_OK;
}


static bool index_name_taken(const cql_keyspace_t *ks, const char *name)
{
    for (size_t i = 0; i < ks->n_tables; i++) {
        for (size_t j = 0; j < ks->tables[i]->n_indexes; j++) {
            if (strcmp(ks->tables[i]->indexes[j].name, name) == 0) {
                return true;
            }
        }
    }
    return false;
}


/* Cassandra's default: <table>_<column>_idx, then _1, _2 ... while the name is taken
 * (keys(m) beside values(m)); the same target twice is refused in create_index. */
static char *default_index_name(cql_ctx_t *c, const cql_table_t *t, const cql_column_t *col)
{
    char *base = base_arena_sprintf(c->a, "%s_%s_idx", t->name, col->name);
    char *name = base;
    for (int i = 1; index_name_taken(t->ks, name); i++) {
        name = base_arena_sprintf(c->a, "%s_%d", base, i);
    }
    return name;
}


static int create_index(cql_ctx_t *c, const cql_create_index_t *d, base_error_t *err)
{
    cql_table_t *t = NULL;
    if (cql__resolve_table(c, &d->table, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (d->custom_class != NULL && is_cosmos(c)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "CREATE CUSTOM INDEX (SASI) is not supported by Azure Cosmos DB "
                              "for Apache Cassandra");
    }
    cql_column_t *col = cql__column_find(t, d->column);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "No column definition found for column %s",
                              d->column);
    }
    if (check_index_target(d->target_kind, col, err) != BASE_OK) {
        return BASE_ERROR;
    }
    char *name = d->name ? base_arena_strndup(c->a, d->name, strlen(d->name))
                         : default_index_name(c, t, col);
    for (size_t i = 0; i < t->ks->n_tables; i++) {
        cql_table_t *o = t->ks->tables[i];
        for (size_t j = 0; j < o->n_indexes; j++) {
            if (strcmp(o->indexes[j].name, name) == 0) {
                if (d->if_not_exists) {
                    return BASE_OK;
                }
                return base_error_set(err, WIRE_ERR_INVALID, "Index %s already exists", name);
            }
        }
    }
    char *target = d->target_kind ? base_arena_sprintf(c->a, "%s(%s)", d->target_kind, col->name)
                                  : base_arena_strndup(c->a, col->name, strlen(col->name));
    char *keys_target = base_arena_sprintf(c->a, "keys(%s)", col->name);
    bool values = d->target_kind == NULL || strcmp(d->target_kind, "values") == 0;
    for (size_t j = 0; j < t->n_indexes && !replay_trusts_the_log(c); j++) {
        /* SecondaryIndexTest.testIndexOnMapKeys: no values index once keys(m) is indexed
         * (the other order is taken: SecondaryIndexOnStaticColumnTest). */
        if (values && col->type->id == WIRE_TYPE_MAP && !col->type->frozen &&
            strcmp(t->indexes[j].target, keys_target) == 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot create index on %s values, an index on %s keys already "
                                  "exists and indexing a map on more than one dimension at the "
                                  "same time is not currently supported",
                                  col->name, col->name);
        }
        if (strcmp(t->indexes[j].target, target) == 0) {
            return d->if_not_exists ? BASE_OK
                                    : base_error_set(err, WIRE_ERR_INVALID,
                                                     "Index %s is a duplicate of existing index %s",
                                                     name, t->indexes[j].name);
        }
    }
    if (col->kind == CQL_COL_PARTITION && t->n_pk == 1) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot create secondary index on partition key column %s",
                              col->name);
    }
    /* secondary-indexing.md: "full FROZEN collection isn't supported" (api facts 5) */
    if (is_cosmos(c) && cql__type_is_collection(col->type) && col->type->frozen &&
        !replay_trusts_the_log(c)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Secondary indexes on frozen collections are not supported by Azure "
                              "Cosmos DB for Apache Cassandra");
    }
    if (is_cosmos(c) && (col->kind == CQL_COL_STATIC || col->kind == CQL_COL_CLUSTERING)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Secondary indexes on %s columns are not supported by Azure Cosmos "
                              "DB for Apache Cassandra",
                              col->kind == CQL_COL_STATIC ? "static" : "clustering key");
    }
    t->indexes = base_realloc(t->indexes, (t->n_indexes + 1) * sizeof(*t->indexes));
    cql_index_t *ix = &t->indexes[t->n_indexes++];
    ix->name = base_strdup(name);
    ix->column = base_strdup(col->name);
    ix->target = base_strdup(target);
    cql__schema_notify(c, "UPDATED", "TABLE", t->ks->name, t->name);
    return BASE_OK;
}


static int drop_index(cql_ctx_t *c, const cql_drop_t *d, base_error_t *err)
{
    cql_keyspace_t *ks = NULL;
    if (cql__resolve_keyspace(c, d->name.keyspace, &ks, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < ks->n_tables; i++) {
        cql_table_t *t = ks->tables[i];
        for (size_t j = 0; j < t->n_indexes; j++) {
            if (strcmp(t->indexes[j].name, d->name.name) == 0) {
                base_free(t->indexes[j].name);
                base_free(t->indexes[j].column);
                base_free(t->indexes[j].target);
                memmove(&t->indexes[j], &t->indexes[j + 1],
                        (t->n_indexes - j - 1) * sizeof(*t->indexes));
                t->n_indexes--;
                cql__schema_notify(c, "UPDATED", "TABLE", ks->name, t->name);
                return BASE_OK;
            }
        }
    }
    if (d->if_exists) {
        return BASE_OK;
    }
    return base_error_set(err, WIRE_ERR_INVALID,
                          "Index '%s' could not be found in any of the "
                          "tables of keyspace '%s'",
                          d->name.name, ks->name);
}


static int create_type(cql_ctx_t *c, const cql_create_type_t *d, base_error_t *err)
{
    cql_keyspace_t *ks = NULL;
    if (cql__resolve_keyspace(c, d->type.keyspace, &ks, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (cql__udt_find(ks, d->type.name) != NULL) {
        if (d->if_not_exists) {
            return BASE_OK;
        }
        return base_error_set(err, WIRE_ERR_INVALID, "A user type of name %s.%s already exists",
                              ks->name, d->type.name);
    }
    if (d->n_fields == 0 || d->n_fields > CQL_MAX_TYPE_FIELDS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of fields in type %s: %zu (1 to %d)", d->type.name,
                              d->n_fields, CQL_MAX_TYPE_FIELDS);
    }
    if (cql__type_check_size(ks, (const cql_type_ast_t *const *)d->field_types, d->n_fields,
                             d->type.name, err) != BASE_OK) {
        return BASE_ERROR;
    }
    base_arena_t tmp;
    base_arena_init(&tmp, 4096);
    int rc = BASE_OK;
    wire_type_t **subs = base_calloc(d->n_fields, sizeof(*subs));
    size_t n_ok = 0;
    for (; n_ok < d->n_fields && rc == BASE_OK; n_ok++) {
        rc = cql__type_resolve(ks, d->field_types[n_ok], &subs[n_ok], err);
        if (rc != BASE_OK) {
            break;
        }
        if (subs[n_ok]->id == WIRE_TYPE_UDT && !subs[n_ok]->frozen) {
            rc =
                base_error_set(err, WIRE_ERR_INVALID, "A user type cannot contain non-frozen UDTs");
            n_ok++;
            break;
        }
    }
    if (rc == BASE_OK) {
        wire_type_t *u = base_arena_calloc(&tmp, 1, sizeof(*u));
        u->id = WIRE_TYPE_UDT;
        u->keyspace = ks->name;
        u->name = d->type.name;
        u->n_sub = (uint16_t)d->n_fields;
        u->sub = (const wire_type_t **)subs;
        u->field_names = d->field_names;
        cql_udt_t *udt = base_calloc(1, sizeof(*udt));
        udt->name = base_strdup(d->type.name);
        udt->type = cql__type_clone(u);
        if (ks->n_types == ks->cap_types) {
            ks->cap_types = ks->cap_types ? ks->cap_types * 2 : 4;
            ks->types = base_realloc(ks->types, ks->cap_types * sizeof(*ks->types));
        }
        ks->types[ks->n_types++] = udt;
        cql__schema_notify(c, "CREATED", "TYPE", ks->name, udt->name);
    }
    for (size_t i = 0; i < n_ok; i++) {
        cql__type_free(subs[i]);
    }
    base_free(subs);
    base_arena_fini(&tmp);
    return rc;
}


static bool type_uses(const wire_type_t *t, const char *udt)
{
    if (t->id == WIRE_TYPE_UDT && strcmp(t->name, udt) == 0) {
        return true;
    }
    for (size_t i = 0; i < t->n_sub; i++) {
        if (type_uses(t->sub[i], udt)) {
            return true;
        }
    }
    return false;
}


static int drop_type(cql_ctx_t *c, const cql_drop_t *d, base_error_t *err)
{
    cql_keyspace_t *ks = NULL;
    if (d->name.keyspace != NULL && cql__keyspace_find(c->e, d->name.keyspace) == NULL) {
        return d->if_exists
                   ? BASE_OK
                   : base_error_set(err, WIRE_ERR_INVALID,
                                    "Cannot drop type in unknown keyspace %s", d->name.keyspace);
    }
    if (cql__resolve_keyspace(c, d->name.keyspace, &ks, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < ks->n_types; i++) {
        cql_udt_t *u = ks->types[i];
        if (strcmp(u->name, d->name.name) != 0) {
            continue;
        }
        for (size_t j = 0; j < ks->n_tables; j++) {
            for (size_t k = 0; k < ks->tables[j]->n_cols; k++) {
                if (type_uses(ks->tables[j]->cols[k].type, u->name)) {
                    return base_error_set(err, WIRE_ERR_INVALID,
                                          "Cannot drop user type %s.%s as it is still used by "
                                          "table %s",
                                          ks->name, u->name, ks->tables[j]->name);
                }
            }
        }
        char *name = base_arena_strndup(c->a, u->name, strlen(u->name));
        base_free(u->name);
        cql__type_free(u->type);
        base_free(u);
        memmove(&ks->types[i], &ks->types[i + 1], (ks->n_types - i - 1) * sizeof(*ks->types));
        ks->n_types--;
        cql__schema_notify(c, "DROPPED", "TYPE", ks->name, name);
        return BASE_OK;
    }
    if (d->if_exists) {
        return BASE_OK;
    }
    return base_error_set(err, WIRE_ERR_INVALID, "No user type named %s exists.", d->name.name);
}


/* Every user type ks.name inside t (not t itself) becomes a copy of repl, keeping the
 * frozen flag of the occurrence. t is heap-owned, so its sub-types may be replaced. */
static void replace_udt(wire_type_t *t, const char *ks, const char *name, const wire_type_t *repl)
{
    for (size_t i = 0; i < t->n_sub; i++) {
        wire_type_t *sub = (wire_type_t *)t->sub[i];
        if (sub->id == WIRE_TYPE_UDT && strcmp(sub->keyspace, ks) == 0 &&
            strcmp(sub->name, name) == 0) {
            wire_type_t *r = cql__type_clone(repl);
            r->frozen = sub->frozen;
            cql__type_free(sub);
            t->sub[i] = r;
        } else {
            replace_udt(sub, ks, name, repl);
        }
    }
}


/* Nodes and levels of stored type t at level `depth` once every user type `name` in it
 * has alt_nodes nodes and alt_levels levels. Stored types are within the limits, so
 * the recursion is bounded by CQL_MAX_TYPE_DEPTH. */
static void cost_with(const wire_type_t *t, const char *name, size_t alt_nodes, size_t alt_levels,
                      size_t depth, size_t *nodes, size_t *levels)
{
    if (t->id == WIRE_TYPE_UDT && strcmp(t->name, name) == 0) {
        *nodes += alt_nodes;
        *levels = depth + alt_levels - 1 > *levels ? depth + alt_levels - 1 : *levels;
        return;
    }
    *nodes += 1;
    *levels = depth > *levels ? depth : *levels;
    for (size_t i = 0; i < t->n_sub; i++) {
        cost_with(t->sub[i], name, alt_nodes, alt_levels, depth + 1, nodes, levels);
    }
}


static bool within_limits(const wire_type_t *t, const char *name, size_t alt_nodes,
                          size_t alt_levels)
{
    size_t nodes = 0, levels = 0;
    cost_with(t, name, alt_nodes, alt_levels, 1, &nodes, &levels);
    return nodes <= CQL_MAX_TYPE_NODES && levels <= CQL_MAX_TYPE_DEPTH;
}


/* The schema limits hold for the altered type and for every type that holds a copy. */
static int check_retype(const cql_keyspace_t *ks, const cql_udt_t *u, const wire_type_t *altered,
                        base_error_t *err)
{
    size_t alt_nodes = 0, alt_levels = 0;
    cost_with(altered, "", 0, 0, 1, &alt_nodes, &alt_levels);
    bool ok = alt_nodes <= CQL_MAX_TYPE_NODES && alt_levels <= CQL_MAX_TYPE_DEPTH;
    for (size_t i = 0; ok && i < ks->n_types; i++) {
        ok = ks->types[i] == u || within_limits(ks->types[i]->type, u->name, alt_nodes, alt_levels);
    }
    for (size_t i = 0; ok && i < ks->n_tables; i++) {
        for (size_t k = 0; ok && k < ks->tables[i]->n_cols; k++) {
            ok = within_limits(ks->tables[i]->cols[k].type, u->name, alt_nodes, alt_levels);
        }
    }
    if (!ok) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Altering type %s.%s would make a type nest deeper than %d levels "
                              "or hold more than %d component types (the emulator's limits)",
                              ks->name, u->name, CQL_MAX_TYPE_DEPTH, CQL_MAX_TYPE_NODES);
    }
    return BASE_OK;
}


/* Puts the new shape of user type u into every type of ks that holds a copy of it
 * (types are resolved by copying, so the other user types and the table columns
 * that name it each carry one), then into u itself, which takes `altered`. */
static void retype_udt(cql_keyspace_t *ks, cql_udt_t *u, wire_type_t *altered)
{
    for (size_t i = 0; i < ks->n_types; i++) {
        if (ks->types[i] != u) {
            replace_udt(ks->types[i]->type, ks->name, u->name, altered);
        }
    }
    for (size_t i = 0; i < ks->n_tables; i++) {
        cql_table_t *t = ks->tables[i];
        for (size_t k = 0; k < t->n_cols; k++) {
            wire_type_t *ct = t->cols[k].type;
            if (ct->id == WIRE_TYPE_UDT && strcmp(ct->keyspace, ks->name) == 0 &&
                strcmp(ct->name, u->name) == 0) {
                wire_type_t *r = cql__type_clone(altered);
                r->frozen = ct->frozen;
                cql__type_free(ct);
                t->cols[k].type = r;
            } else {
                replace_udt(ct, ks->name, u->name, altered);
            }
        }
    }
    cql__type_free(u->type);
    u->type = altered;
}


static int udt_field_index(const wire_type_t *u, const char *name)
{
    for (uint16_t i = 0; i < u->n_sub; i++) {
        if (strcmp(u->field_names[i], name) == 0) {
            return i;
        }
    }
    return -1;
}


/* ALTER TYPE ... ADD f type: the field goes last, so every value written before
 * reads the new field as null (a serialized UDT may stop after any field). */
static int alter_type_add(cql_keyspace_t *ks, cql_udt_t *u, const cql_column_def_t *f,
                          wire_type_t **out, base_error_t *err)
{
    const wire_type_t *old = u->type;
    const char *shown = f->name;
    if (udt_field_index(old, f->name) >= 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot add field %s to type %s.%s: a field with name %s already "
                              "exists",
                              f->name, ks->name, u->name, f->name);
    }
    if (old->n_sub >= CQL_MAX_TYPE_FIELDS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of fields in type %s: %d (1 to %d)", u->name,
                              old->n_sub + 1, CQL_MAX_TYPE_FIELDS);
    }
    wire_type_t *ft = NULL;
    if (cql__type_resolve(ks, f->type, &ft, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (ft->id == WIRE_TYPE_UDT && !ft->frozen) {
        cql__type_free(ft);
        return base_error_set(err, WIRE_ERR_INVALID, "A user type cannot contain non-frozen UDTs");
    }
    if (type_uses(ft, u->name)) {
        cql__type_free(ft);
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot add new field %s to user type %s.%s as it would create a "
                              "circular reference",
                              shown, ks->name, u->name);
    }
    for (size_t i = 0; i < ks->n_tables; i++) {
        const cql_table_t *t = ks->tables[i];
        for (size_t k = 0; k < t->n_pk; k++) {
            if (type_uses(t->pk[k]->type, u->name)) {
                cql__type_free(ft);
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Cannot add new field %s to user type %s.%s as the type is "
                                      "being used in partition key by the following tables: "
                                      "%s.%s",
                                      shown, ks->name, u->name, ks->name, t->name);
            }
        }
    }
    /* A shallow copy with one more field; cql__type_clone makes it heap-owned. */
    size_t n = (size_t)old->n_sub + 1;
    const wire_type_t **subs = base_calloc(n, sizeof(*subs));
    const char **names = base_calloc(n, sizeof(*names));
    memcpy(subs, old->sub, old->n_sub * sizeof(*subs));
    memcpy(names, old->field_names, old->n_sub * sizeof(*names));
    subs[n - 1] = ft;
    names[n - 1] = f->name;
    wire_type_t tmp = *old;
    tmp.n_sub = (uint16_t)n;
    tmp.sub = subs;
    tmp.field_names = names;
    *out = cql__type_clone(&tmp);
    base_free(subs);
    base_free(names);
    cql__type_free(ft);
    return BASE_OK;
}


/* ALTER TYPE ... RENAME a TO b [AND ...]: names only, values are positional. */
static int alter_type_rename(cql_keyspace_t *ks, cql_udt_t *u, const cql_alter_table_t *d,
                             wire_type_t **out, base_error_t *err)
{
    wire_type_t *t = cql__type_clone(u->type);
    for (size_t i = 0; i + 1 < d->n_columns; i += 2) {
        int k = udt_field_index(u->type, d->columns[i].name);
        if (k < 0) {
            cql__type_free(t);
            return base_error_set(err, WIRE_ERR_INVALID, "Unkown field %s in user type %s.%s",
                                  d->columns[i].name, ks->name, u->name);
        }
        base_free((char *)t->field_names[k]);
        t->field_names[k] = base_strdup(d->columns[i + 1].name);
    }
    for (uint16_t i = 0; i < t->n_sub; i++) {
        for (uint16_t j = 0; j < i; j++) {
            if (strcmp(t->field_names[i], t->field_names[j]) == 0) {
                const char *name = t->field_names[i];
                base_error_set(err, WIRE_ERR_INVALID, "Duplicate field name %s in type %s.%s", name,
                               ks->name, u->name);
                cql__type_free(t);
                return BASE_ERROR;
            }
        }
    }
    *out = t;
    return BASE_OK;
}


static int alter_type(cql_ctx_t *c, const cql_alter_table_t *d, base_error_t *err)
{
    if (is_cosmos(c)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "ALTER TYPE is not supported by Azure Cosmos DB for Apache "
                              "Cassandra");
    }
    cql_keyspace_t *ks = NULL;
    if (cql__resolve_keyspace(c, d->table.keyspace, &ks, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_udt_t *u = cql__udt_find(ks, d->table.name);
    if (u == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Type %s.%s doesn't exist", ks->name,
                              d->table.name);
    }
    wire_type_t *altered = NULL;
    int rc;
    switch (d->kind) {
    case CQL_ALTER_ADD:
        rc = alter_type_add(ks, u, &d->columns[0], &altered, err);
        break;
    case CQL_ALTER_RENAME:
        rc = alter_type_rename(ks, u, d, &altered, err);
        break;
    default:
        rc = base_error_set(err, WIRE_ERR_INVALID, "Altering field types is no longer supported");
        break;
    }
    if (rc == BASE_OK && check_retype(ks, u, altered, err) != BASE_OK) {
        cql__type_free(altered);
        rc = BASE_ERROR;
    }
    if (rc != BASE_OK) {
        return BASE_ERROR;
    }
    retype_udt(ks, u, altered);
    cql__schema_notify(c, "UPDATED", "TYPE", ks->name, u->name);
    return BASE_OK;
}


int cql__exec_ddl(cql_ctx_t *c, const cql_stmt_t *st, base_error_t *err)
{
    switch (st->kind) {
    case CQL_STMT_CREATE_KEYSPACE:
        return create_keyspace(c, &st->u.keyspace, err);
    case CQL_STMT_ALTER_KEYSPACE:
        return alter_keyspace(c, &st->u.keyspace, err);
    case CQL_STMT_DROP_KEYSPACE:
        return drop_keyspace(c, &st->u.drop, err);
    case CQL_STMT_CREATE_TABLE:
        return create_table(c, &st->u.create_table, err);
    case CQL_STMT_ALTER_TABLE:
        return alter_table(c, &st->u.alter_table, err);
    case CQL_STMT_DROP_TABLE:
        return drop_table(c, &st->u.drop, err);
    case CQL_STMT_TRUNCATE:
        return truncate_table(c, &st->u.drop, err);
    case CQL_STMT_CREATE_INDEX:
        return create_index(c, &st->u.create_index, err);
    case CQL_STMT_DROP_INDEX:
        return drop_index(c, &st->u.drop, err);
    case CQL_STMT_CREATE_TYPE:
        return create_type(c, &st->u.create_type, err);
    case CQL_STMT_DROP_TYPE:
        return drop_type(c, &st->u.drop, err);
    case CQL_STMT_ALTER_TYPE:
        return alter_type(c, &st->u.alter_type, err);
    default:
        return base_error_set(err, WIRE_ERR_SERVER_ERROR, "unexpected statement kind %d",
                              (int)st->kind);
    }
}
