/*
 * schema.c - keyspaces, tables, columns and user types: lookups, type
 * resolution and the schema version. The schema is heap-owned by the
 * engine; names are looked up linearly because a keyspace holds tens of
 * tables, not thousands (Cosmos DB caps an account at 500 containers).
 * Every statement looks its table and columns up by name, so a name whose
 * first byte differs is passed over without a call to strcmp (same_name):
 * resolving a user table went past the seven system keyspaces with a
 * strcmp each, 4% of a prepared INSERT's instructions.
 *
 * Invariant: every DDL calls cql__schema_bump, so system.local's
 * schema_version changes and drivers see schema agreement at once.
 */
#include "cql/schema/schema.h"


static inline bool same_name(const char *a, const char *b)
{
    return a[0] == b[0] && strcmp(a, b) == 0;
}

cql_keyspace_t *cql__keyspace_find(cql_engine_t *e, const char *name)
{
    for (size_t i = 0; i < e->n_keyspaces; i++) {
        if (same_name(e->keyspaces[i]->name, name)) {
            return e->keyspaces[i];
        }
    }
    return NULL;
}


cql_table_t *cql__table_find(cql_keyspace_t *ks, const char *name)
{
    for (size_t i = 0; i < ks->n_tables; i++) {
        if (same_name(ks->tables[i]->name, name)) {
            return ks->tables[i];
        }
    }
    return NULL;
}


cql_udt_t *cql__udt_find(cql_keyspace_t *ks, const char *name)
{
    for (size_t i = 0; i < ks->n_types; i++) {
        if (same_name(ks->types[i]->name, name)) {
            return ks->types[i];
        }
    }
    return NULL;
}


cql_column_t *cql__column_find(const cql_table_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_cols; i++) {
        if (same_name(t->cols[i].name, name)) {
            return &t->cols[i];
        }
    }
    return NULL;
}


int cql__resolve_keyspace(cql_ctx_t *c, const char *qualifier, cql_keyspace_t **out,
                          base_error_t *err)
{
    const char *name = qualifier ? qualifier : c->s->keyspace;
    if (name == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "No keyspace has been specified. USE a keyspace, or explicitly "
                              "specify keyspace.tablename");
    }
    cql_keyspace_t *ks = cql__keyspace_find(c->e, name);
    if (ks == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Keyspace %s does not exist", name);
    }
    *out = ks;
    return BASE_OK;
}


int cql__resolve_table(cql_ctx_t *c, const cql_qname_t *q, cql_table_t **out, base_error_t *err)
{
    cql_keyspace_t *ks = NULL;
    if (q->keyspace != NULL && cql__system_missing(q->keyspace, q->name, err)) {
        return BASE_ERROR;
    }
    if (cql__resolve_keyspace(c, q->keyspace, &ks, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_table_t *t = cql__table_find(ks, q->name);
    if (t == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "unconfigured table %s", q->name);
    }
    *out = t;
    return BASE_OK;
}


/* ---- type size ------------------------------------------------------------------- */

typedef struct type_cost_s {
    size_t nodes;
    size_t depth;
} type_cost_t;


/* A stored type is within the limits, so this recursion is bounded by CQL_MAX_TYPE_DEPTH. */
static size_t stored_nodes(const wire_type_t *t, size_t depth, size_t *max_depth)
{
    *max_depth = depth > *max_depth ? depth : *max_depth;
    size_t n = 1;
    for (size_t i = 0; i < t->n_sub; i++) {
        n += stored_nodes(t->sub[i], depth + 1, max_depth);
    }
    return n;
}


/* What the AST would build, counted without building it; stops counting past the limits.
 * The AST's own depth is bounded by the parser (CQL_PARSE_MAX_DEPTH). */
static void ast_cost(cql_keyspace_t *ks, const cql_type_ast_t *ta, size_t depth, type_cost_t *c)
{
    if (c->nodes > CQL_MAX_TYPE_NODES || c->depth > CQL_MAX_TYPE_DEPTH) {
        return;
    }
    c->depth = depth > c->depth ? depth : c->depth;
    if (ta->n_params == 0) {
        bool user = ta->custom == NULL && cql__type_native(ta->name) == NULL;
        cql_udt_t *u = user && ks != NULL ? cql__udt_find(ks, ta->name) : NULL;
        c->nodes += u != NULL ? stored_nodes(u->type, depth, &c->depth) : 1;
        return;
    }
    c->nodes++;
    for (size_t i = 0; i < ta->n_params; i++) {
        ast_cost(ks, ta->params[i], depth + 1, c);
    }
}


int cql__type_check_size(cql_keyspace_t *ks, const cql_type_ast_t *const *types, size_t n,
                         const char *what, base_error_t *err)
{
    /* fields of a type: one level and one node more than the fields themselves */
    type_cost_t c = {what != NULL ? 1 : 0, 0};
    for (size_t i = 0; i < n; i++) {
        ast_cost(ks, types[i], what != NULL ? 2 : 1, &c);
    }
    const char *name = what != NULL ? what : n > 0 ? types[0]->name : "";
    if (c.depth > CQL_MAX_TYPE_DEPTH) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Type %s nests deeper than %d levels (the emulator's limit)", name,
                              CQL_MAX_TYPE_DEPTH);
    }
    if (c.nodes > CQL_MAX_TYPE_NODES) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Type %s has more than %d component types, user types expanded "
                              "(the emulator's limit)",
                              name, CQL_MAX_TYPE_NODES);
    }
    return BASE_OK;
}


/* ---- resolving ---------------------------------------------------------------------- */

static int resolve_type(cql_keyspace_t *ks, const cql_type_ast_t *ta, bool in_frozen,
                        wire_type_t **out, base_error_t *err);


static int resolve_params(cql_keyspace_t *ks, const cql_type_ast_t *ta, bool in_frozen,
                          wire_type_t **sub, size_t n, base_error_t *err)
{
    for (size_t i = 0; i < n; i++) {
        if (resolve_type(ks, ta->params[i], in_frozen, &sub[i], err) != BASE_OK) {
            for (size_t j = 0; j < i; j++) {
                cql__type_free(sub[j]);
            }
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


/* CQL3Type.RawCollection's rules for the elements of a list, set or map (not a
 * tuple): inside a collection that is not frozen every collection and user
 * type must be frozen; no counters; no duration in a set or as a map key. The
 * message names the collection as written. */
static int check_elements(const cql_type_ast_t *ta, uint16_t id, bool frozen,
                          wire_type_t *const *sub, base_error_t *err)
{
    const char *what = NULL;
    for (size_t i = 0; i < ta->n_params && what == NULL; i++) {
        const wire_type_t *e = sub[i];
        if (!frozen && !e->frozen && cql__type_is_collection(e)) {
            what = "Non-frozen collections are not allowed inside collections";
        } else if (!frozen && !e->frozen && e->id == WIRE_TYPE_UDT) {
            what = "Non-frozen UDTs are not allowed inside collections";
        } else if (e->id == WIRE_TYPE_COUNTER) {
            what = "Counters are not allowed inside collections";
        } else if (i == 0 && e->id == WIRE_TYPE_DURATION && id == WIRE_TYPE_SET) {
            what = "Durations are not allowed inside sets";
        } else if (i == 0 && e->id == WIRE_TYPE_DURATION && id == WIRE_TYPE_MAP) {
            what = "Durations are not allowed as map keys";
        }
    }
    if (what == NULL) {
        return BASE_OK;
    }
    base_arena_t tmp;
    base_arena_init(&tmp, 256);
    base_error_set(err, WIRE_ERR_INVALID, "%s: %s", what, cql__type_ast_text(ta, &tmp));
    base_arena_fini(&tmp);
    return BASE_ERROR;
}


/* Everything inside a frozen type is frozen (frozen<map<set<int>, list<int>>>); a
 * tuple is always frozen. */
static int resolve_collection(cql_keyspace_t *ks, const cql_type_ast_t *ta, uint16_t id,
                              size_t want, bool in_frozen, wire_type_t **out, base_error_t *err)
{
    if (want != 0 && ta->n_params != want) {
        return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "Invalid %s type: wrong parameter count",
                              ta->name);
    }
    /* The protocol counts a tuple's components in a [short]. */
    if (ta->n_params == 0 || ta->n_params > UINT16_MAX) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid %s type: %zu components (1 to %u)",
                              ta->name, ta->n_params, (unsigned)UINT16_MAX);
    }
    bool frozen = ta->frozen || in_frozen || id == WIRE_TYPE_TUPLE;
    wire_type_t **sub = base_calloc(ta->n_params, sizeof(*sub));
    if (resolve_params(ks, ta, frozen, sub, ta->n_params, err) != BASE_OK) {
        base_free(sub);
        return BASE_ERROR;
    }
    int rc =
        id == WIRE_TYPE_TUPLE ? BASE_OK : check_elements(ta, id, ta->frozen || in_frozen, sub, err);
    if (rc == BASE_OK) {
        base_arena_t tmp;
        base_arena_init(&tmp, 1024);
        const wire_type_t *built =
            cql__type_collection(&tmp, id, frozen, (const wire_type_t *const *)sub, ta->n_params);
        *out = cql__type_clone(built);
        base_arena_fini(&tmp);
    }
    for (size_t i = 0; i < ta->n_params; i++) {
        cql__type_free(sub[i]);
    }
    base_free(sub);
    return rc;
}


int cql__type_resolve(cql_keyspace_t *ks, const cql_type_ast_t *ta, wire_type_t **out,
                      base_error_t *err)
{
    if (cql__type_check_size(ks, &ta, 1, NULL, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return resolve_type(ks, ta, false, out, err);
}


static int resolve_type(cql_keyspace_t *ks, const cql_type_ast_t *ta, bool in_frozen,
                        wire_type_t **out, base_error_t *err)
{
    if (ta->custom != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Custom types are not supported");
    }
    const wire_type_t *native = ta->n_params == 0 ? cql__type_native(ta->name) : NULL;
    if (native != NULL && ta->frozen) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "frozen<> is only allowed on collections, tuples, and user-defined "
                              "types");
    }
    if (native != NULL) {
        *out = cql__type_clone(native);
        return BASE_OK;
    }
    if (strcmp(ta->name, "list") == 0) {
        return resolve_collection(ks, ta, WIRE_TYPE_LIST, 1, in_frozen, out, err);
    }
    if (strcmp(ta->name, "set") == 0) {
        return resolve_collection(ks, ta, WIRE_TYPE_SET, 1, in_frozen, out, err);
    }
    if (strcmp(ta->name, "map") == 0) {
        return resolve_collection(ks, ta, WIRE_TYPE_MAP, 2, in_frozen, out, err);
    }
    if (strcmp(ta->name, "tuple") == 0) {
        return resolve_collection(ks, ta, WIRE_TYPE_TUPLE, 0, in_frozen, out, err);
    }
    if (ks != NULL && ta->keyspace != NULL && strcmp(ta->keyspace, ks->name) != 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Statement on keyspace %s cannot refer to a user type in keyspace "
                              "%s; user types can only be used in the keyspace they are defined in",
                              ks->name, ta->keyspace);
    }
    cql_udt_t *u = ks ? cql__udt_find(ks, ta->name) : NULL;
    if (u == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unknown type %s.%s", ks ? ks->name : "",
                              ta->name);
    }
    *out = cql__type_clone(u->type);
    (*out)->frozen = ta->frozen || in_frozen;
    return BASE_OK;
}


cql_keyspace_t *cql__keyspace_add(cql_engine_t *e, const char *name)
{
    cql_keyspace_t *ks = base_calloc(1, sizeof(*ks));
    ks->name = base_strdup(name);
    ks->durable_writes = true;
    if (e->n_keyspaces == e->cap_keyspaces) {
        e->cap_keyspaces = e->cap_keyspaces ? e->cap_keyspaces * 2 : 8;
        e->keyspaces = base_realloc(e->keyspaces, e->cap_keyspaces * sizeof(*e->keyspaces));
    }
    e->keyspaces[e->n_keyspaces++] = ks;
    return ks;
}


void cql__table_free(cql_engine_t *e, cql_table_t *t)
{
    if (t == NULL) {
        return;
    }
    if (t->st != NULL) {
        storage_table_drop(e->db, t->st);
    }
    for (size_t i = 0; i < t->n_cols; i++) {
        base_free(t->cols[i].name);
        cql__type_free(t->cols[i].type);
    }
    for (size_t i = 0; i < t->n_indexes; i++) {
        base_free(t->indexes[i].name);
        base_free(t->indexes[i].column);
        base_free(t->indexes[i].target);
    }
    base_free(t->indexes);
    for (size_t i = 0; i < t->n_dropped; i++) {
        base_free(t->dropped[i].name);
        cql__type_free(t->dropped[i].type);
    }
    base_free(t->dropped);
    cql__optmap_free(&t->caching);
    cql__optmap_free(&t->compaction);
    cql__optmap_free(&t->compression);
    base_free(t->cols);
    base_free(t->pk);
    base_free(t->ck);
    base_free(t->comment);
    base_free(t->name);
    base_free(t);
}


void cql__keyspace_free(cql_keyspace_t *ks)
{
    if (ks == NULL) {
        return;
    }
    for (size_t i = 0; i < ks->n_repl; i++) {
        base_free(ks->repl_keys[i]);
        base_free(ks->repl_values[i]);
    }
    base_free(ks->repl_keys);
    base_free(ks->repl_values);
    for (size_t i = 0; i < ks->n_types; i++) {
        base_free(ks->types[i]->name);
        cql__type_free(ks->types[i]->type);
        base_free(ks->types[i]);
    }
    base_free(ks->types);
    base_free(ks->tables);
    base_free(ks->name);
    base_free(ks);
}


static int column_order(const void *pa, const void *pb)
{
    const cql_column_t *a = pa, *b = pb;
    if (a->kind != b->kind) {
        /* partition, clustering, static, then regular columns: SELECT * in Cassandra
         * lists static columns before the regular ones */
        return (int)a->kind - (int)b->kind;
    }
    if (a->kind == CQL_COL_PARTITION || a->kind == CQL_COL_CLUSTERING) {
        return a->position - b->position;
    }
    return strcmp(a->name, b->name);
}


void cql__table_sort_columns(cql_table_t *t)
{
    qsort(t->cols, t->n_cols, sizeof(*t->cols), column_order);
    t->pk = base_realloc(t->pk, (t->n_pk ? t->n_pk : 1) * sizeof(*t->pk));
    t->ck = base_realloc(t->ck, (t->n_ck ? t->n_ck : 1) * sizeof(*t->ck));
    t->has_counters = false;
    for (size_t i = 0; i < t->n_cols; i++) {
        cql_column_t *col = &t->cols[i];
        if (col->kind == CQL_COL_PARTITION) {
            t->pk[col->position] = col;
        } else if (col->kind == CQL_COL_CLUSTERING) {
            t->ck[col->position] = col;
        }
        col->counter = col->type->id == WIRE_TYPE_COUNTER;
        t->has_counters |= col->counter;
    }
}


void cql__schema_bump(cql_engine_t *e)
{
    cql__uuid_random(e->schema_version);
    e->schema_epoch++;
}


void cql__schema_notify(cql_ctx_t *c, const char *change, const char *target, const char *ks,
                        const char *name)
{
    wire_schema_change_t *sc = &c->out->schema_change;
    c->out->kind = WIRE_RESULT_SCHEMA_CHANGE;
    sc->change = change;
    sc->target = target;
    sc->keyspace = base_arena_strndup(c->a, ks, strlen(ks));
    sc->name = name ? base_arena_strndup(c->a, name, strlen(name)) : NULL;
    sc->arg_types = NULL;
    sc->n_arg_types = 0;
    cql__schema_bump(c->e);
    c->e->evict_prepared |= strcmp(change, "CREATED") != 0;
    if (c->e->listener != NULL) {
        c->e->listener(c->e->listener_ud, sc);
    }
}
