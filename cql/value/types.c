/*
 * types.c - CQL column types (cql layer): the immutable native singletons,
 * collection/tuple builders, the names system_schema shows, equality,
 * deep copies for the schema and Cassandra's value-compatibility rules.
 *
 * Invariants: native types are static and shared (text and varchar are the
 * same WIRE_TYPE_VARCHAR object); cql__type_free never frees them, so a
 * clone of a native can be freed like any other clone. Nested collections,
 * tuples and UDTs are always printed frozen<...>, as Cassandra 3.11 does.
 */
#include "cql/value/value_int.h"

#define NATIVE(id_) \
    {               \
        .id = (id_) \
    }

static const wire_type_t natives[] = {
    NATIVE(WIRE_TYPE_ASCII),     NATIVE(WIRE_TYPE_BIGINT),   NATIVE(WIRE_TYPE_BLOB),
    NATIVE(WIRE_TYPE_BOOLEAN),   NATIVE(WIRE_TYPE_COUNTER),  NATIVE(WIRE_TYPE_DECIMAL),
    NATIVE(WIRE_TYPE_DOUBLE),    NATIVE(WIRE_TYPE_FLOAT),    NATIVE(WIRE_TYPE_INT),
    NATIVE(WIRE_TYPE_TIMESTAMP), NATIVE(WIRE_TYPE_UUID),     NATIVE(WIRE_TYPE_VARCHAR),
    NATIVE(WIRE_TYPE_VARINT),    NATIVE(WIRE_TYPE_TIMEUUID), NATIVE(WIRE_TYPE_INET),
    NATIVE(WIRE_TYPE_DATE),      NATIVE(WIRE_TYPE_TIME),     NATIVE(WIRE_TYPE_SMALLINT),
    NATIVE(WIRE_TYPE_TINYINT),   NATIVE(WIRE_TYPE_DURATION),
};

#define N_NATIVES (sizeof(natives) / sizeof(natives[0]))

static const struct {
    const char *name;
    uint16_t id;
} native_names[] = {
    {"ascii", WIRE_TYPE_ASCII},         {"bigint", WIRE_TYPE_BIGINT},
    {"blob", WIRE_TYPE_BLOB},           {"boolean", WIRE_TYPE_BOOLEAN},
    {"counter", WIRE_TYPE_COUNTER},     {"date", WIRE_TYPE_DATE},
    {"decimal", WIRE_TYPE_DECIMAL},     {"double", WIRE_TYPE_DOUBLE},
    {"duration", WIRE_TYPE_DURATION},   {"float", WIRE_TYPE_FLOAT},
    {"inet", WIRE_TYPE_INET},           {"int", WIRE_TYPE_INT},
    {"smallint", WIRE_TYPE_SMALLINT},   {"text", WIRE_TYPE_VARCHAR},
    {"varchar", WIRE_TYPE_VARCHAR},     {"time", WIRE_TYPE_TIME},
    {"timestamp", WIRE_TYPE_TIMESTAMP}, {"timeuuid", WIRE_TYPE_TIMEUUID},
    {"tinyint", WIRE_TYPE_TINYINT},     {"uuid", WIRE_TYPE_UUID},
    {"varint", WIRE_TYPE_VARINT},
};


const wire_type_t *cql__type_native_id(uint16_t id)
{
    for (size_t i = 0; i < N_NATIVES; i++) {
        if (natives[i].id == id) {
            return &natives[i];
        }
    }
    return NULL;
}


static const char *native_name(uint16_t id)
{
    for (size_t i = 0; i < sizeof(native_names) / sizeof(native_names[0]); i++) {
        if (native_names[i].id == id) {
            return native_names[i].name; /* "text" comes before "varchar" */
        }
    }
    return NULL;
}


const wire_type_t *cql__type_native(const char *name)
{
    if (name == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(native_names) / sizeof(native_names[0]); i++) {
        if (base_str_eq_cstr_ci(base_str_from(name), native_names[i].name)) {
            return cql__type_native_id(native_names[i].id);
        }
    }
    return NULL;
}


const wire_type_t *cql__type_collection(base_arena_t *a, uint16_t id, bool frozen,
                                        const wire_type_t *const *sub, size_t n_sub)
{
    BASE_ASSERT(id == WIRE_TYPE_LIST || id == WIRE_TYPE_SET || id == WIRE_TYPE_MAP ||
                id == WIRE_TYPE_TUPLE);
    BASE_ASSERT(n_sub <= UINT16_MAX);
    wire_type_t *t = base_arena_calloc(a, 1, sizeof(*t));
    t->id = id;
    t->frozen = frozen || id == WIRE_TYPE_TUPLE;
    t->n_sub = (uint16_t)n_sub;
    const wire_type_t **s = base_arena_calloc(a, n_sub ? n_sub : 1, sizeof(*s));
    for (size_t i = 0; i < n_sub; i++) {
        s[i] = sub[i];
    }
    t->sub = s;
    return t;
}


bool cql__type_has_duration(const wire_type_t *t)
{
    if (t->id == WIRE_TYPE_DURATION) {
        return true;
    }
    for (size_t k = 0; k < t->n_sub; k++) {
        if (cql__type_has_duration(t->sub[k])) {
            return true;
        }
    }
    return false;
}


bool cql__type_is_collection(const wire_type_t *t)
{
    return t != NULL &&
           (t->id == WIRE_TYPE_LIST || t->id == WIRE_TYPE_SET || t->id == WIRE_TYPE_MAP);
}


/* Cassandra's ColumnIdentifier.maybeQuote: bare when a lower-case identifier. */
static void put_ident(base_buf_t *b, const char *name)
{
    bool bare = name[0] >= 'a' && name[0] <= 'z';
    for (const char *p = name; *p && bare; p++) {
        bare = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    }
    if (bare) {
        base_buf_put(b, name, strlen(name));
        return;
    }
    base_buf_put_u8(b, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"') {
            base_buf_put_u8(b, '"');
        }
        base_buf_put_u8(b, (uint8_t)*p);
    }
    base_buf_put_u8(b, '"');
}


/* Names nest at most as deep as the (bounded) type tree itself. */
static void put_type_name(base_buf_t *b, const wire_type_t *t, bool nested)
{
    const char *native = native_name(t->id);
    if (native != NULL) {
        base_buf_put(b, native, strlen(native));
        return;
    }
    bool frozen = t->frozen || nested || t->id == WIRE_TYPE_TUPLE;
    switch (t->id) {
    case WIRE_TYPE_LIST:
    case WIRE_TYPE_SET:
    case WIRE_TYPE_MAP:
    case WIRE_TYPE_TUPLE: {
        const char *kind = t->id == WIRE_TYPE_LIST  ? "list<"
                           : t->id == WIRE_TYPE_SET ? "set<"
                           : t->id == WIRE_TYPE_MAP ? "map<"
                                                    : "tuple<";
        if (frozen) {
            base_buf_put(b, "frozen<", 7);
        }
        base_buf_put(b, kind, strlen(kind));
        for (size_t i = 0; i < t->n_sub; i++) {
            if (i > 0) {
                base_buf_put(b, ", ", 2);
            }
            put_type_name(b, t->sub[i], true);
        }
        base_buf_put(b, frozen ? ">>" : ">", frozen ? 2 : 1);
        return;
    }
    case WIRE_TYPE_UDT:
        if (frozen) {
            base_buf_put(b, "frozen<", 7);
        }
        put_ident(b, t->name != NULL ? t->name : "");
        if (frozen) {
            base_buf_put_u8(b, '>');
        }
        return;
    default:
        base_buf_printf(b, "'%s'", t->custom_class != NULL ? t->custom_class : "");
        return;
    }
}


const char *cql__type_name(const wire_type_t *t, base_arena_t *a)
{
    base_buf_t b;
    base_buf_init(&b);
    put_type_name(&b, t, false);
    char *s = base_arena_strndup(a, (const char *)b.data, b.len);
    base_buf_fini(&b);
    return s;
}


static bool str_eq_null(const char *x, const char *y)
{
    if (x == NULL || y == NULL) {
        return x == y;
    }
    return strcmp(x, y) == 0;
}


bool cql__type_equal(const wire_type_t *a, const wire_type_t *b)
{
    if (a == b) {
        return true;
    }
    if (a == NULL || b == NULL || a->id != b->id || a->n_sub != b->n_sub) {
        return false;
    }
    if (a->id == WIRE_TYPE_UDT) {
        if (!str_eq_null(a->keyspace, b->keyspace) || !str_eq_null(a->name, b->name)) {
            return false;
        }
        for (size_t i = 0; i < a->n_sub; i++) {
            if (!str_eq_null(a->field_names ? a->field_names[i] : NULL,
                             b->field_names ? b->field_names[i] : NULL)) {
                return false;
            }
        }
    }
    if (a->id == WIRE_TYPE_CUSTOM && !str_eq_null(a->custom_class, b->custom_class)) {
        return false;
    }
    for (size_t i = 0; i < a->n_sub; i++) {
        if (!cql__type_equal(a->sub[i], b->sub[i])) {
            return false;
        }
    }
    return true;
}


static char *dup_or_null(const char *s)
{
    return s != NULL ? base_strdup(s) : NULL;
}


wire_type_t *cql__type_clone(const wire_type_t *t)
{
    wire_type_t *c = base_calloc(1, sizeof(*c));
    c->id = t->id;
    c->frozen = t->frozen;
    c->n_sub = t->n_sub;
    c->custom_class = dup_or_null(t->custom_class);
    c->keyspace = dup_or_null(t->keyspace);
    c->name = dup_or_null(t->name);
    if (t->n_sub > 0) {
        const wire_type_t **sub = base_calloc(t->n_sub, sizeof(*sub));
        for (size_t i = 0; i < t->n_sub; i++) {
            sub[i] = cql__type_clone(t->sub[i]);
        }
        c->sub = sub;
    }
    if (t->field_names != NULL && t->n_sub > 0) {
        const char **names = base_calloc(t->n_sub, sizeof(*names));
        for (size_t i = 0; i < t->n_sub; i++) {
            names[i] = dup_or_null(t->field_names[i]);
        }
        c->field_names = names;
    }
    return c;
}


void cql__type_free(wire_type_t *t)
{
    if (t == NULL || (t >= natives && t < natives + N_NATIVES)) {
        return;
    }
    for (size_t i = 0; i < t->n_sub; i++) {
        cql__type_free((wire_type_t *)t->sub[i]);
        if (t->field_names != NULL) {
            base_free((char *)t->field_names[i]);
        }
    }
    base_free((void *)t->sub);
    base_free((void *)t->field_names);
    base_free((char *)t->custom_class);
    base_free((char *)t->keyspace);
    base_free((char *)t->name);
    base_free(t);
}


size_t cql__type_fixed_size(uint16_t id)
{
    switch (id) {
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
    case WIRE_TYPE_TIMESTAMP:
    case WIRE_TYPE_DOUBLE:
    case WIRE_TYPE_TIME:
        return 8;
    case WIRE_TYPE_INT:
    case WIRE_TYPE_FLOAT:
    case WIRE_TYPE_DATE:
        return 4;
    case WIRE_TYPE_SMALLINT:
        return 2;
    case WIRE_TYPE_TINYINT:
    case WIRE_TYPE_BOOLEAN:
        return 1;
    case WIRE_TYPE_UUID:
    case WIRE_TYPE_TIMEUUID:
        return 16;
    default:
        return 0;
    }
}


bool cql__type_value_compatible(const wire_type_t *to, const wire_type_t *from)
{
    if (cql__type_equal(to, from)) {
        return true;
    }
    switch (to->id) {
    case WIRE_TYPE_BLOB:
        return true;
    case WIRE_TYPE_VARCHAR:
        return from->id == WIRE_TYPE_ASCII;
    case WIRE_TYPE_BIGINT:
    case WIRE_TYPE_COUNTER:
        return from->id == WIRE_TYPE_TIMESTAMP || from->id == WIRE_TYPE_BIGINT ||
               from->id == WIRE_TYPE_COUNTER;
    case WIRE_TYPE_TIMESTAMP:
        return from->id == WIRE_TYPE_BIGINT || from->id == WIRE_TYPE_COUNTER;
    case WIRE_TYPE_VARINT:
        return from->id == WIRE_TYPE_INT || from->id == WIRE_TYPE_BIGINT ||
               from->id == WIRE_TYPE_COUNTER || from->id == WIRE_TYPE_TIMESTAMP;
    case WIRE_TYPE_UUID:
        return from->id == WIRE_TYPE_TIMEUUID;
    default:
        return false;
    }
}
