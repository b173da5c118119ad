/*
 * selection.c - what a SELECT returns for each row: the selectors compiled
 * once into output columns with their result metadata, each stored row
 * projected through them (or a SELECT JSON object), and the aggregate state
 * folded row by row into one result row per group. The row walk is select.c.
 *
 * A selector below an aggregate is an expression tree (expr_t): a column, a
 * user type field of an expression (b.x.a), a set/map element or slice of
 * one (m['k'], s[1..3]), a CAST, ttl()/writetime() of a column, token().
 * Aggregates take any such expression as argument, never another aggregate.
 * Element keys and function arguments written as terms (minTimeuuid('2019-08-03'),
 * blobAsInt(?)) are terms: cql__sel_bind evaluates them once per execution
 * (PREPARE only compiles, for the metadata); a term argument takes the type of the
 * function signature that fits it.
 */
#include <math.h>

#include "cql/exec/exec.h"

typedef enum {
    X_COLUMN,
    X_FIELD,   /* arg.field of a user type */
    X_ELEMENT, /* arg[key] of a set or map */
    X_SLICE,   /* arg[lo..hi] of a set or map */
    X_CAST,    /* CAST(arg AS type) */
    X_TTL,
    X_WRITETIME,
    X_TOKEN,
    X_FUNCTION, /* a native scalar function of arg (or of nothing) */
    X_TOJSON,   /* toJson(arg) */
    X_TERM,     /* a literal or bind marker argument of a function: lo, its value lo_v */
} expr_kind_t;

typedef struct expr_s {
    expr_kind_t kind;
    int idx;                 /* COLUMN, TTL, WRITETIME: the column */
    int field;               /* FIELD: index of the field in the user type */
    const wire_type_t *type; /* the value's type */
    struct expr_s *arg;
    bool multi_cell; /* ELEMENT/SLICE of a non-frozen column: an empty slice is null */
    const cql_term_t *lo, *hi;
    wire_value_t lo_v, hi_v; /* evaluated keys (cql__sel_bind) */
    const char *name;        /* the column's name, for messages and bind metadata */
    const char *fn;          /* FUNCTION: its name */
} expr_t;

typedef enum {
    OUT_VALUE, /* the expression's value */
    OUT_COUNT,
    OUT_MIN,
    OUT_MAX,
    OUT_SUM,
    OUT_AVG,
} out_kind_t;

typedef struct cql_out_col_s {
    out_kind_t kind;
    expr_t *e;                   /* NULL for count(*) */
    int idx;                     /* the column when e is a plain column, else -1 */
    bool ident;                  /* named by an identifier (a column, an alias): JSON quotes it */
    const char *post_fn;         /* f(aggregate): a scalar function of the aggregate's result */
    const wire_type_t *agg_type; /* the aggregate's own type when post_fn is set */
    const wire_type_t *type;     /* output type */
    /* aggregate state */
    int64_t count;
    wire_value_t best;
    double dsum;
    int64_t isum;
    wire_value_t big;     /* varint sum, decimal sum or running average, an integer average's
                           * sum past int64 (null or empty: none yet) */
    double dcomp, dplain; /* Kahan compensation and the plain sum (FloatSumAggregate) */
} out_col_t;


static const char *name_dup(cql_ctx_t *c, const char *s)
{
    return base_arena_strndup(c->a, s, strlen(s));
}


static bool is_aggregate_name(const char *name)
{
    static const char *const aggs[] = {"count", "min", "max", "sum", "avg"};
    for (size_t i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++) {
        if (strcmp(aggs[i], name) == 0) {
            return true;
        }
    }
    return false;
}


static int compile_expr(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, expr_t **out,
                        base_error_t *err);


static int compile_column(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, expr_t *e,
                          base_error_t *err)
{
    (void)c;
    const cql_column_t *col = cql__column_find(t, s->name);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", s->name);
    }
    e->kind = X_COLUMN;
    e->idx = (int)(col - t->cols);
    e->type = col->type;
    e->name = col->name;
    e->multi_cell = cql__multi_cell(col);
    return BASE_OK;
}


/* A field of a value that is no user type: functions are named system.f(args) there. */
static int refuse_field(cql_ctx_t *c, const cql_selector_t *arg, const wire_type_t *type,
                        base_error_t *err)
{
    bool fn = arg->kind == CQL_SEL_FUNCTION && strchr(arg->name, '.') == NULL;
    return base_error_set(err, WIRE_ERR_INVALID,
                          "Invalid field selection: %s%s of type %s is not a user type",
                          fn ? "system." : "", arg->text, cql__type_name(type, c->a));
}


static int compile_field(cql_ctx_t *c, const cql_selector_t *s, expr_t *e, base_error_t *err)
{
    const wire_type_t *u = e->arg->type;
    if (u->id != WIRE_TYPE_UDT) {
        return refuse_field(c, s->args[0], u, err);
    }
    for (uint16_t k = 0; k < u->n_sub; k++) {
        if (strcmp(u->field_names[k], s->field) == 0) {
            e->kind = X_FIELD;
            e->field = k;
            e->type = u->sub[k];
            return BASE_OK;
        }
    }
    return base_error_set(err, WIRE_ERR_INVALID, "Type %s has no field %s", u->name, s->field);
}


/* m[k], m[lo..hi], s[k], s[lo..hi]: Cassandra refuses them on lists and non-collections. */
static int compile_element(cql_ctx_t *c, const cql_selector_t *s, expr_t *e, base_error_t *err)
{
    const wire_type_t *ct = e->arg->type;
    bool slice = s->kind == CQL_SEL_SLICE;
    if (ct->id == WIRE_TYPE_LIST) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "%s selection is only allowed on sets and maps, but %s is a list",
                              slice ? "Slice" : "Element", s->args[0]->text);
    }
    if (ct->id != WIRE_TYPE_SET && ct->id != WIRE_TYPE_MAP) {
        return base_error_set(
            err, WIRE_ERR_INVALID, "Invalid %s selection: %s is of type %s is not a collection",
            slice ? "slice" : "element", s->args[0]->text, cql__type_name(ct, c->a));
    }
    e->kind = slice ? X_SLICE : X_ELEMENT;
    e->lo = s->term;
    e->hi = s->term_hi;
    e->name = e->arg->name;
    e->multi_cell = e->arg->kind == X_COLUMN && e->arg->multi_cell;
    e->type = !slice && ct->id == WIRE_TYPE_MAP ? ct->sub[1] : !slice ? ct->sub[0] : ct;
    return BASE_OK;
}


/* CAST(x AS native type); the service casts columns only (no nested CAST). */
static int compile_cast(cql_ctx_t *c, const cql_selector_t *s, expr_t *e, base_error_t *err)
{
    if (c->e->cfg.profile == CQL_PROFILE_COSMOS && e->arg->kind != X_COLUMN) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "CAST takes one column in Azure Cosmos DB for Apache Cassandra: %s",
                              s->text ? s->text : "cast");
    }
    const wire_type_t *to = s->cast_type->n_params == 0 && !s->cast_type->frozen
                                ? cql__type_native(s->cast_type->name)
                                : NULL;
    if (to == NULL || !cql__cast_exists(e->arg->type, to)) {
        return base_error_set(err, WIRE_ERR_INVALID, "%s cannot be cast to %s", s->args[0]->text,
                              s->cast_type->name);
    }
    e->kind = X_CAST;
    e->type = to;
    return BASE_OK;
}


/* ttl(c), writetime(c): of a regular or static single-cell column only. */
static int compile_cell_fn(const cql_table_t *t, const cql_selector_t *s, expr_t *e,
                           base_error_t *err)
{
    bool ttl = strcmp(s->name, "ttl") == 0;
    const char *fn = ttl ? "ttl" : "writeTime";
    if (s->n_args != 1 || e->arg == NULL || e->arg->kind != X_COLUMN) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function %s: 1 required",
                              s->name);
    }
    const cql_column_t *col = &t->cols[e->arg->idx];
    if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot use selection function %s on PRIMARY KEY part %s", fn,
                              col->name);
    }
    if (cql__multi_cell(col)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot use selection function %s on non-frozen %s %s", fn,
                              col->type->id == WIRE_TYPE_UDT ? "UDT" : "collection", col->name);
    }
    e->kind = ttl ? X_TTL : X_WRITETIME;
    e->idx = e->arg->idx;
    e->type = ttl ? cql__native_int() : cql__native_bigint();
    return BASE_OK;
}


/* toJson(x) of any one selector; fromJson() has no place in a selection. The service
 * offers neither (SELECT JSON and INSERT JSON only). */
static int compile_json_fn(cql_ctx_t *c, const cql_selector_t *s, expr_t *e, base_error_t *err)
{
    if (c->e->cfg.profile == CQL_PROFILE_COSMOS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "%s() is not supported by Azure Cosmos DB for Apache Cassandra",
                              strcmp(s->name, "tojson") == 0 ? "toJson" : "fromJson");
    }
    if (strcmp(s->name, "fromjson") == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "fromJson() cannot be used in the selection clause of a SELECT "
                              "statement");
    }
    if (s->n_args != 1) {
        return base_error_set(err, WIRE_ERR_INVALID, "toJson() only accepts one argument (got %zu)",
                              s->n_args);
    }
    e->kind = X_TOJSON;
    e->name = e->arg->name;
    e->type = cql__native_text();
    return BASE_OK;
}


/* token(k1, k2...): takes the partition key's types, in order (a function call in
 * Cassandra: the argument count and types are checked, the columns are not). */
static int compile_token(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, expr_t *e,
                         base_error_t *err)
{
    if (s->n_args != t->n_pk) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function system.token: "
                              "%zu required but %zu provided",
                              t->n_pk, s->n_args);
    }
    for (size_t i = 0; i < s->n_args; i++) {
        expr_t *arg;
        if (compile_expr(c, t, s->args[i], &arg, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (!cql__type_equal(t->pk[i]->type, arg->type)) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Type error: %s cannot be passed as argument %zu of function "
                                  "system.token of type %s",
                                  s->args[i]->text, i, cql__type_name(t->pk[i]->type, c->a));
        }
    }
    e->kind = X_TOKEN;
    e->type = cql__native_bigint();
    return BASE_OK;
}


/* A literal or bind marker argument of a native scalar function: typed by the signature. */
static int compile_term_arg(cql_ctx_t *c, const cql_selector_t *s, expr_t **out, base_error_t *err)
{
    expr_t *e = base_arena_calloc(c->a, 1, sizeof(*e));
    *out = e;
    e->kind = X_TERM;
    e->idx = -1;
    e->lo = s->args[0]->term;
    e->name = s->args[0]->text;
    e->fn = s->name;
    return cql__function_term_arg_type(s->name, e->lo, c->a, &e->type, err);
}


static bool is_cell_or_json_fn(const char *name)
{
    return strcmp(name, "ttl") == 0 || strcmp(name, "writetime") == 0 ||
           strcmp(name, "tojson") == 0 || strcmp(name, "fromjson") == 0;
}


static int compile_function(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, expr_t *e,
                            base_error_t *err)
{
    if (is_aggregate_name(s->name)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "aggregate functions cannot be used as arguments of aggregate "
                              "functions");
    }
    if (strcmp(s->name, "token") == 0) {
        return compile_token(c, t, s, e, err);
    }
    bool term_arg =
        s->n_args == 1 && s->args[0]->kind == CQL_SEL_TERM && !is_cell_or_json_fn(s->name);
    if (term_arg ? compile_term_arg(c, s, &e->arg, err) != BASE_OK
                 : s->n_args == 1 && compile_expr(c, t, s->args[0], &e->arg, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (strcmp(s->name, "ttl") == 0 || strcmp(s->name, "writetime") == 0) {
        return compile_cell_fn(t, s, e, err);
    }
    if (strcmp(s->name, "tojson") == 0 || strcmp(s->name, "fromjson") == 0) {
        return compile_json_fn(c, s, e, err);
    }
    e->kind = X_FUNCTION;
    e->fn = s->name;
    e->name = e->arg != NULL ? e->arg->name : NULL;
    return cql__function_value_type(s->name, s->n_args, e->arg ? e->arg->type : NULL,
                                    s->n_args > 0 ? s->args[0]->text : "", c->a, &e->type, err);
}


static int compile_expr(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, expr_t **out,
                        base_error_t *err)
{
    expr_t *e = base_arena_calloc(c->a, 1, sizeof(*e));
    *out = e;
    e->idx = -1;
    switch (s->kind) {
    case CQL_SEL_COLUMN:
        return compile_column(c, t, s, e, err);
    case CQL_SEL_FUNCTION:
        return compile_function(c, t, s, e, err);
    case CQL_SEL_COUNT_STAR:
        return base_error_set(err, WIRE_ERR_INVALID,
                              "aggregate functions cannot be used as arguments of aggregate "
                              "functions");
    case CQL_SEL_FIELD:
    case CQL_SEL_ELEMENT:
    case CQL_SEL_SLICE:
    case CQL_SEL_CAST:
        if (compile_expr(c, t, s->args[0], &e->arg, err) != BASE_OK) {
            return BASE_ERROR;
        }
        e->name = e->arg->name;
        return s->kind == CQL_SEL_FIELD  ? compile_field(c, s, e, err)
               : s->kind == CQL_SEL_CAST ? compile_cast(c, s, e, err)
                                         : compile_element(c, s, e, err);
    default:
        return base_error_set(err, WIRE_ERR_INVALID,
                              "This selector is not supported by the emulator yet: %s",
                              s->text ? s->text : "?");
    }
}


/* The result column name Cassandra gives a selector. */
static const char *expr_name(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                             const expr_t *e)
{
    switch (e->kind) {
    case X_COLUMN:
        return e->name;
    case X_TTL:
    case X_WRITETIME:
        return base_arena_sprintf(c->a, "%s(%s)", e->kind == X_TTL ? "ttl" : "writetime",
                                  t->cols[e->idx].name);
    case X_TOKEN:
        return base_arena_sprintf(c->a, "system.token(%s)", t->pk[0]->name);
    case X_CAST:
        return base_arena_sprintf(c->a, "cast(%s as %s)", s->args[0]->text,
                                  cql__type_name(e->type, c->a));
    case X_FUNCTION:
    case X_TOJSON: /* native functions are named system.f(args), nested ones too */
        return base_arena_sprintf(c->a, "system.%s(%s)", s->name,
                                  e->arg != NULL ? expr_name(c, t, s->args[0], e->arg) : "");
    default:
        return s->text;
    }
}


static bool summable(const wire_type_t *t)
{
    uint16_t id = t->id;
    return id == WIRE_TYPE_INT || id == WIRE_TYPE_BIGINT || id == WIRE_TYPE_SMALLINT ||
           id == WIRE_TYPE_TINYINT || id == WIRE_TYPE_FLOAT || id == WIRE_TYPE_DOUBLE ||
           id == WIRE_TYPE_COUNTER || id == WIRE_TYPE_VARINT || id == WIRE_TYPE_DECIMAL;
}


/* count/min/max/sum/avg of one expression. */
static int compile_aggregate(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                             out_col_t *o, const char **name, base_error_t *err)
{
    static const struct {
        const char *fn;
        out_kind_t kind;
    } fns[] = {{"min", OUT_MIN},
               {"max", OUT_MAX},
               {"sum", OUT_SUM},
               {"avg", OUT_AVG},
               {"count", OUT_COUNT}};
    size_t k = 0;
    while (strcmp(fns[k].fn, s->name) != 0) {
        k++;
    }
    o->kind = fns[k].kind;
    if (s->n_args != 1) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function %s: 1 required",
                              s->name);
    }
    if (compile_expr(c, t, s->args[0], &o->e, err) != BASE_OK) {
        return BASE_ERROR;
    }
    o->idx = o->e->kind == X_COLUMN ? o->e->idx : -1;
    o->type = o->kind == OUT_COUNT ? cql__native_bigint() : o->e->type;
    if ((o->kind == OUT_SUM || o->kind == OUT_AVG) && !summable(o->type)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid call to function %s, none of its "
                              "type signatures match",
                              s->name);
    }
    *name = base_arena_sprintf(c->a, "system.%s(%s)", s->name, expr_name(c, t, s->args[0], o->e));
    return BASE_OK;
}


/* toUnixTimestamp(max(b)): a native function over an aggregate's result. */
static int compile_post_aggregate(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                                  out_col_t *o, const char **name, base_error_t *err)
{
    const char *agg_name;
    if (compile_aggregate(c, t, s->args[0], o, &agg_name, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const wire_type_t *ret;
    if (cql__function_value_type(s->name, 1, o->type, agg_name, c->a, &ret, err) != BASE_OK) {
        return BASE_ERROR;
    }
    o->post_fn = s->name;
    o->agg_type = o->type;
    o->type = ret;
    *name = base_arena_sprintf(c->a, "system.%s(%s)", s->name, agg_name);
    return BASE_OK;
}


/* max(b).x: no aggregate returns a user type (Cassandra 3.11 resolves min and max of
 * anything but a native type to their blob signature), so a field of one is refused. */
static int refuse_field_of_aggregate(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                                     base_error_t *err)
{
    out_col_t scratch = {.idx = -1};
    const char *name;
    if (compile_aggregate(c, t, s->args[0], &scratch, &name, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const wire_type_t *type = scratch.type;
    if (cql__type_native(cql__type_name(type, c->a)) == NULL) {
        type = cql__type_native("blob");
    }
    return refuse_field(c, s->args[0], type, err);
}


static int compile_selector(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                            out_col_t *o, const char **name, base_error_t *err)
{
    o->idx = -1;
    if (s->kind == CQL_SEL_COUNT_STAR) {
        o->kind = OUT_COUNT;
        o->type = cql__native_bigint();
        *name = "count";
    } else if (s->kind == CQL_SEL_FUNCTION && is_aggregate_name(s->name)) {
        if (compile_aggregate(c, t, s, o, name, err) != BASE_OK) {
            return BASE_ERROR;
        }
    } else if (s->kind == CQL_SEL_FIELD && s->args[0]->kind == CQL_SEL_FUNCTION &&
               is_aggregate_name(s->args[0]->name)) {
        return refuse_field_of_aggregate(c, t, s, err);
    } else if (s->kind == CQL_SEL_FUNCTION && s->n_args == 1 &&
               s->args[0]->kind == CQL_SEL_FUNCTION && is_aggregate_name(s->args[0]->name)) {
        if (compile_post_aggregate(c, t, s, o, name, err) != BASE_OK) {
            return BASE_ERROR;
        }
    } else {
        if (compile_expr(c, t, s, &o->e, err) != BASE_OK) {
            return BASE_ERROR;
        }
        o->kind = OUT_VALUE;
        o->idx = o->e->kind == X_COLUMN ? o->e->idx : -1;
        o->type = o->e->type;
        *name = expr_name(c, t, s, o->e);
    }
    o->ident = s->alias != NULL || (o->e != NULL && o->e->kind == X_COLUMN);
    if (s->alias != NULL) {
        *name = s->alias;
    }
    return BASE_OK;
}


/* The columns of SELECT * in order: the primary key, then static columns before
 * regular ones (Cassandra's select order); system tables keep their declared
 * order. One pass per kind: this runs on every execution of a SELECT *. */
static int *star_columns(cql_ctx_t *c, const cql_table_t *t)
{
    int *order = base_arena_alloc(c->a, (t->n_cols + 1) * sizeof(*order));
    size_t n = 0;
    if (t->vt != NULL) {
        for (size_t k = 0; k < t->n_cols; k++) {
            order[n++] = (int)k;
        }
        return order;
    }
    for (size_t k = 0; k < t->n_pk + t->n_ck; k++) {
        order[n++] = (int)k;
    }
    for (size_t k = 0; k < t->n_cols; k++) {
        if (t->cols[k].kind == CQL_COL_STATIC) {
            order[n++] = (int)k;
        }
    }
    for (size_t k = 0; k < t->n_cols; k++) {
        if (t->cols[k].kind == CQL_COL_REGULAR) {
            order[n++] = (int)k;
        }
    }
    return order;
}


int cql__sel_compile(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t, cql_sel_t *sel,
                     base_error_t *err)
{
    memset(sel, 0, sizeof(*sel));
    bool star = q->n_selectors == 1 && q->selectors[0]->kind == CQL_SEL_STAR;
    size_t n = star ? t->n_cols : q->n_selectors;
    sel->n = n;
    sel->out = base_arena_calloc(c->a, n + 1, sizeof(*sel->out));
    sel->specs = base_arena_calloc(c->a, n + 1, sizeof(*sel->specs));
    size_t n_agg = 0;
    const int *order = star ? star_columns(c, t) : NULL;
    for (size_t i = 0; i < n; i++) {
        out_col_t *o = &sel->out[i];
        const char *name = NULL;
        if (star) {
            int k = order[i];
            o->kind = OUT_VALUE;
            o->e = base_arena_calloc(c->a, 1, sizeof(*o->e));
            o->e->kind = X_COLUMN;
            o->idx = o->e->idx = k;
            o->type = o->e->type = t->cols[k].type;
            o->ident = true;
            name = t->cols[k].name;
        } else if (compile_selector(c, t, q->selectors[i], o, &name, err) != BASE_OK) {
            return BASE_ERROR;
        }
        n_agg += o->kind != OUT_VALUE;
        sel->specs[i].keyspace = t->ks->name;
        sel->specs[i].table = t->name;
        sel->specs[i].name = name_dup(c, name);
        sel->specs[i].type = o->type;
    }
    sel->aggregate = n_agg > 0;
    sel->json = q->json;
    sel->names = base_arena_alloc(c->a, (n + 1) * sizeof(*sel->names));
    for (size_t i = 0; i < n; i++) {
        sel->names[i] = sel->specs[i].name;
    }
    if (q->json) {
        sel->specs[0].name = "[json]";
        sel->specs[0].type = cql__native_text();
    }
    return BASE_OK;
}


/* ---- SELECT DISTINCT ------------------------------------------------------------------- */

int cql__sel_check_distinct(cql_ctx_t *c, const cql_table_t *t, const cql_sel_t *sel,
                            bool key_range, base_error_t *err)
{
    bool *used = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*used));
    for (size_t i = 0; i < sel->n; i++) {
        for (const expr_t *e = sel->out[i].e; e != NULL; e = e->arg) {
            if (e->kind == X_COLUMN || e->kind == X_TTL || e->kind == X_WRITETIME) {
                used[e->idx] = true;
            }
        }
    }
    for (size_t i = 0; i < t->n_cols; i++) {
        if (used[i] && t->cols[i].kind != CQL_COL_PARTITION && t->cols[i].kind != CQL_COL_STATIC) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "SELECT DISTINCT queries must only request partition key "
                                  "columns and/or static columns (not %s)",
                                  t->cols[i].name);
        }
    }
    for (size_t i = 0; key_range && i < t->n_pk; i++) {
        if (!used[t->pk[i] - t->cols]) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "SELECT DISTINCT queries must request all the partition key "
                                  "columns (missing %s)",
                                  t->pk[i]->name);
        }
    }
    return BASE_OK;
}


/* ---- element keys ---------------------------------------------------------------------- */

/* The key type of an element or slice expression (the set's element, the map's key). */
static const wire_type_t *key_type(const expr_t *e)
{
    return e->arg->type->sub[0];
}


/* A term argument's value, typed by its function's signature. */
static int bind_term(cql_ctx_t *c, expr_t *e, base_error_t *err)
{
    const char *what = base_arena_sprintf(c->a, "arg0(system.%s)", e->fn);
    if (cql__term_eval(e->lo, e->type, what, &c->binds, c->a, &e->lo_v, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (e->lo_v.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid unset value for argument in call to function %s", e->fn);
    }
    return BASE_OK;
}


static int bind_expr(cql_ctx_t *c, expr_t *e, base_error_t *err)
{
    for (; e != NULL; e = e->arg) {
        if (e->kind == X_TERM && bind_term(c, e, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (e->kind != X_ELEMENT && e->kind != X_SLICE) {
            continue;
        }
        const char *what = base_arena_sprintf(c->a, "key(%s)", e->name ? e->name : "");
        e->lo_v = (wire_value_t){NULL, WIRE_VALUE_NULL};
        e->hi_v = e->lo_v;
        if (e->lo != NULL &&
            cql__term_eval(e->lo, key_type(e), what, &c->binds, c->a, &e->lo_v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (e->hi != NULL &&
            cql__term_eval(e->hi, key_type(e), what, &c->binds, c->a, &e->hi_v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if ((e->lo != NULL && e->lo_v.len == WIRE_VALUE_UNSET) ||
            (e->hi != NULL && e->hi_v.len == WIRE_VALUE_UNSET)) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for %s", what);
        }
    }
    return BASE_OK;
}


int cql__sel_bind(cql_ctx_t *c, cql_sel_t *sel, base_error_t *err)
{
    for (size_t i = 0; i < sel->n; i++) {
        if (bind_expr(c, sel->out[i].e, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


void cql__sel_describe(const cql_sel_t *sel, cql_sel_bind_fn fn, void *ctx)
{
    for (size_t i = 0; i < sel->n; i++) {
        for (const expr_t *e = sel->out[i].e; e != NULL; e = e->arg) {
            if (e->kind == X_TERM && e->lo->kind == CQL_TERM_BIND) {
                fn(ctx, e->lo->bind_index, e->name, e->type);
            }
            const cql_term_t *ends[2] = {e->lo, e->hi};
            for (int k = 0; k < 2 && (e->kind == X_ELEMENT || e->kind == X_SLICE); k++) {
                if (ends[k] != NULL && ends[k]->kind == CQL_TERM_BIND) {
                    fn(ctx, ends[k]->bind_index, e->name, key_type(e));
                }
            }
        }
    }
}


/* ---- projection ------------------------------------------------------------------------ */

/* The k-th field of a serialized user type value ([int len][bytes] each). */
static wire_value_t udt_field(wire_value_t v, int k)
{
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    wire_reader_t rd;
    if (v.len <= 0) {
        return null;
    }
    wire_reader_init(&rd, v.ptr, (size_t)v.len);
    for (int i = 0; wire_reader_remaining(&rd) > 0; i++) {
        wire_value_t f = wire_read_bytes(&rd);
        if (!wire_reader_ok(&rd)) {
            return null;
        }
        if (i == k) {
            return f;
        }
    }
    return null; /* fields added after the value was written */
}


/* The element at key (set: the key itself) or the slice [lo..hi] (either end open). */
static wire_value_t element_value(cql_ctx_t *c, const expr_t *e, wire_value_t v)
{
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    const wire_type_t *ct = e->arg->type, *kt = ct->sub[0];
    bool map = ct->id == WIRE_TYPE_MAP, slice = e->kind == X_SLICE;
    wire_value_t *keys, *vals;
    ssize_t n = v.len < 0 ? 0 : cql__collection_split(ct, v, c->a, &keys, &vals);
    if (n < 0 || v.len < 0 || (!slice && e->lo_v.len < 0)) {
        return null;
    }
    size_t m = 0;
    for (ssize_t i = 0; i < n; i++) {
        bool in = slice ? (e->lo_v.len < 0 || cql__value_compare(kt, e->lo_v, keys[i]) <= 0) &&
                              (e->hi_v.len < 0 || cql__value_compare(kt, keys[i], e->hi_v) <= 0)
                        : cql__value_compare(kt, e->lo_v, keys[i]) == 0;
        if (in && !slice) {
            return map ? vals[i] : keys[i];
        }
        if (in) {
            keys[m] = keys[i];
            if (map) {
                vals[m] = vals[i];
            }
            m++;
        }
    }
    if (!slice || (m == 0 && e->multi_cell)) {
        return null;
    }
    return cql__collection_build(ct, keys, map ? vals : NULL, m, c->a);
}


static wire_value_t expr_value(cql_ctx_t *c, const expr_t *e, const cql_rec_t *rec)
{
    base_arena_t *a = c->a;
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    switch (e->kind) {
    case X_COLUMN:
        return rec->vals[e->idx];
    case X_FIELD:
        return udt_field(expr_value(c, e->arg, rec), e->field);
    case X_ELEMENT:
    case X_SLICE:
        return element_value(c, e, expr_value(c, e->arg, rec));
    case X_CAST:
        return cql__value_cast(e->arg->type, e->type, expr_value(c, e->arg, rec), c->a);
    case X_TTL:
        return rec->vals[e->idx].len >= 0 && rec->ttl[e->idx] > 0
                   ? cql__value_int(a, rec->ttl[e->idx])
                   : null;
    case X_WRITETIME:
        return rec->vals[e->idx].len >= 0 && rec->ts[e->idx] != INT64_MIN
                   ? cql__value_bigint(a, rec->ts[e->idx])
                   : null;
    case X_TOKEN:
        return cql__value_bigint(a, rec->token);
    case X_TERM:
        return e->lo_v;
    case X_TOJSON: {
        const char *j = cql__value_to_json(e->arg->type, expr_value(c, e->arg, rec), a);
        return cql__value_text(a, j);
    }
    case X_FUNCTION:
        return cql__function_apply(e->fn, e->arg != NULL, e->arg ? e->arg->type : NULL,
                                   e->arg ? expr_value(c, e->arg, rec) : null, a);
    }
    return null;
}


static wire_value_t project_one(cql_ctx_t *c, const cql_table_t *t, const out_col_t *o,
                                const cql_rec_t *rec)
{
    (void)t;
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    return o->e != NULL ? expr_value(c, o->e, rec) : null;
}


/* The SELECT JSON object of one projected row; keys that are not lower-case
 * identifiers are quoted, as Cassandra prints them. */
static wire_value_t json_row(cql_ctx_t *c, const cql_sel_t *sel, const wire_value_t *vals)
{
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put_u8(&b, '{');
    for (size_t i = 0; i < sel->n; i++) {
        const char *name = sel->names[i];
        bool quote = false;
        for (const char *p = name; sel->out[i].ident && *p; p++) {
            quote |= !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_');
        }
        base_buf_printf(&b, "%s\"%s%s%s\": %s", i ? ", " : "", quote ? "\\\"" : "", name,
                        quote ? "\\\"" : "", cql__value_to_json(sel->out[i].type, vals[i], c->a));
    }
    base_buf_put_u8(&b, '}');
    wire_value_t v = cql__value_blob(c->a, b.data, b.len);
    base_buf_fini(&b);
    return v;
}


size_t cql__sel_project(cql_ctx_t *c, const cql_table_t *t, const cql_sel_t *sel,
                        const cql_rec_t *rec, wire_value_t *row)
{
    size_t n = sel->n, bytes = 0;
    wire_value_t *vals = sel->json ? base_arena_alloc(c->a, n * sizeof(*vals)) : row;
    for (size_t i = 0; i < n; i++) {
        vals[i] = project_one(c, t, &sel->out[i], rec);
        bytes += vals[i].len > 0 ? (size_t)vals[i].len : 0;
    }
    if (sel->json) {
        row[0] = json_row(c, sel, vals);
    }
    return bytes;
}


size_t cql__sel_width(const cql_sel_t *sel)
{
    return sel->json ? 1 : sel->n;
}


/* ---- aggregates ------------------------------------------------------------------------ */

/* The column of the given kind an expression reads, or -1. */
static int expr_reads(const cql_table_t *t, const expr_t *e, cql_col_kind_t kind)
{
    for (; e != NULL; e = e->arg) {
        if (e->kind == X_COLUMN && t->cols[e->idx].kind == kind) {
            return e->idx;
        }
    }
    return -1;
}


int cql__sel_refuse_cosmos(const cql_table_t *t, const cql_sel_t *sel, base_error_t *err)
{
    for (size_t i = 0; sel->aggregate && i < sel->n; i++) {
        const out_col_t *o = &sel->out[i];
        int k = o->kind != OUT_VALUE ? expr_reads(t, o->e, CQL_COL_CLUSTERING) : -1;
        if (k >= 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Aggregates on clustering columns are not supported by "
                                  "Azure Cosmos DB for Apache Cassandra (%s)",
                                  t->cols[k].name);
        }
    }
    return BASE_OK;
}


bool cql__sel_only_static(const cql_table_t *t, const cql_sel_t *sel)
{
    for (size_t i = 0; i < sel->n; i++) {
        if (sel->out[i].e == NULL || expr_reads(t, sel->out[i].e, CQL_COL_STATIC) < 0) {
            return false;
        }
    }
    return sel->n > 0;
}


static double as_double(const wire_type_t *t, wire_value_t v)
{
    if (t->id == WIRE_TYPE_FLOAT) {
        uint32_t bits = base_load_u32(v.ptr);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    if (t->id == WIRE_TYPE_DOUBLE) {
        uint64_t bits = base_load_u64(v.ptr);
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    return (double)cql__load_signed(v.ptr, (size_t)v.len); /* tinyint to bigint, counter */
}


static bool is_float(const wire_type_t *t)
{
    return t->id == WIRE_TYPE_FLOAT || t->id == WIRE_TYPE_DOUBLE;
}


/* The type an aggregate folds (not that of a function applied to its result). */
static const wire_type_t *value_type(const out_col_t *o)
{
    return o->post_fn != NULL ? o->agg_type : o->type;
}


/* Integer sums are exact past 2^53 and wrap as Java's long does; an average whose sum
 * leaves int64 goes on in a varint, as AvgAggregate's BigInteger. */
static void add_integer(cql_ctx_t *c, out_col_t *o, int64_t n)
{
    bool over = (n > 0 && o->isum > INT64_MAX - n) || (n < 0 && o->isum < INT64_MIN - n);
    if (o->kind == OUT_AVG && (over || o->big.len > 0)) {
        wire_value_t sum = o->big.len > 0 ? o->big : cql__value_bigint(c->a, o->isum);
        o->big = cql__varint_add(sum, cql__value_bigint(c->a, n), c->a);
        return;
    }
    o->isum = (int64_t)((uint64_t)o->isum + (uint64_t)n);
}


/* The floating sum (FloatSumAggregate.computeInternal: sum + compensation, or the plain
 * sum when that is NaN from adding infinities of one sign). */
static double float_sum(const out_col_t *o)
{
    double s = o->dsum + o->dcomp;
    return isnan(s) && isinf(o->dplain) ? o->dplain : s;
}


/* An integer average, truncated toward zero. */
static int64_t integer_avg(cql_ctx_t *c, const out_col_t *o)
{
    if (o->big.len > 0 && value_type(o)->id != WIRE_TYPE_DECIMAL) {
        wire_value_t q = cql__varint_div(o->big, (uint32_t)o->count, c->a);
        return cql__load_signed(q.ptr, (size_t)q.len); /* an average of int64s fits */
    }
    return o->isum / o->count;
}


void cql__sel_accumulate(cql_ctx_t *c, const cql_table_t *t, cql_sel_t *sel, const cql_rec_t *rec)
{
    (void)t;
    for (size_t i = 0; i < sel->n; i++) {
        out_col_t *o = &sel->out[i];
        wire_value_t v = o->e != NULL ? expr_value(c, o->e, rec) : (wire_value_t){NULL, 0};
        if (o->kind == OUT_VALUE) {
            if (o->count++ == 0) { /* plain columns keep the first row's value */
                o->best = v.len > 0 ? cql__value_blob(c->a, v.ptr, (size_t)v.len) : v;
            }
            continue;
        }
        /* count(*) counts rows; everything else skips nulls and empty values */
        if (v.len < 0 || (v.len == 0 && o->kind != OUT_COUNT)) {
            continue;
        }
        o->count++;
        if (o->kind == OUT_MIN || o->kind == OUT_MAX) {
            int cmp = o->count == 1 ? 0 : cql__value_compare(value_type(o), v, o->best);
            if (o->count == 1 || (o->kind == OUT_MIN ? cmp < 0 : cmp > 0)) {
                o->best = cql__value_blob(c->a, v.ptr, (size_t)v.len);
            }
        } else if (o->kind == OUT_SUM || o->kind == OUT_AVG) {
            uint16_t id = value_type(o)->id;
            if (id == WIRE_TYPE_VARINT) {
                o->big = cql__varint_add(o->big, v, c->a);
            } else if (id == WIRE_TYPE_DECIMAL && o->kind == OUT_SUM) {
                o->big = cql__decimal_add(o->big, v, false, c->a);
            } else if (id == WIRE_TYPE_DECIMAL) { /* avg += (v - avg) / count, half-even */
                wire_value_t step = cql__decimal_add(v, o->big, true, c->a);
                step = cql__decimal_div(step, (uint32_t)o->count, c->a);
                o->big = cql__decimal_add(o->big, step, false, c->a);
            } else if (is_float(value_type(o))) { /* Kahan's sum, as Cassandra's */
                double x = as_double(value_type(o), v), y = x - o->dcomp, r = o->dsum + y;
                o->dplain += x;
                o->dcomp = (r - o->dsum) - y;
                o->dsum = r;
            } else {
                add_integer(c, o, cql__load_signed(v.ptr, (size_t)v.len));
            }
        }
    }
}


/* A sum or average of type t: i or d, or for varint and decimal the exact big. */
static wire_value_t numeric_value(base_arena_t *a, const wire_type_t *t, int64_t i, double d,
                                  wire_value_t big)
{
    switch (t->id) {
    case WIRE_TYPE_VARINT:
        return cql__varint_add(big, (wire_value_t){NULL, 0}, a);
    case WIRE_TYPE_DECIMAL:
        return cql__decimal_add(big, (wire_value_t){NULL, 0}, false, a);
    case WIRE_TYPE_TINYINT: {
        uint8_t b = (uint8_t)i;
        return cql__value_blob(a, &b, 1);
    }
    case WIRE_TYPE_SMALLINT: {
        uint8_t b[2] = {(uint8_t)((uint64_t)i >> 8), (uint8_t)i};
        return cql__value_blob(a, b, 2);
    }
    case WIRE_TYPE_INT:
        return cql__value_int(a, (int32_t)i);
    case WIRE_TYPE_FLOAT: {
        float f = (float)d;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        return cql__value_int(a, (int32_t)bits);
    }
    case WIRE_TYPE_DOUBLE:
        return cql__value_double(a, d);
    default:
        return cql__value_bigint(a, i);
    }
}


void cql__sel_aggregate_row(cql_ctx_t *c, cql_sel_t *sel, wire_value_t *out)
{
    wire_value_t *row = sel->json ? base_arena_alloc(c->a, (sel->n + 1) * sizeof(*row)) : out;
    for (size_t i = 0; i < sel->n; i++) {
        out_col_t *o = &sel->out[i];
        wire_value_t null = {NULL, WIRE_VALUE_NULL};
        switch (o->kind) {
        case OUT_COUNT:
            row[i] = cql__value_bigint(c->a, o->count);
            break;
        case OUT_MIN:
        case OUT_MAX:
            row[i] = o->count ? o->best : null;
            break;
        case OUT_SUM:
            row[i] = numeric_value(c->a, value_type(o), o->isum, float_sum(o), o->big);
            break;
        case OUT_AVG:
            row[i] = o->count == 0 ? numeric_value(c->a, value_type(o), 0, 0, o->big)
                     : value_type(o)->id == WIRE_TYPE_VARINT
                         ? cql__varint_div(o->big, (uint32_t)o->count, c->a)
                         : numeric_value(c->a, value_type(o), integer_avg(c, o),
                                         float_sum(o) / (double)o->count, o->big);
            break;
        default:
            row[i] = o->count ? o->best : null;
            break;
        }
        if (o->post_fn != NULL) {
            row[i] = cql__function_apply(o->post_fn, 1, o->agg_type, row[i], c->a);
        }
        o->count = 0, o->isum = 0, o->dsum = 0, o->dcomp = 0, o->dplain = 0; /* next group */
        o->big = (wire_value_t){NULL, WIRE_VALUE_NULL};
    }
    if (sel->json) {
        out[0] = json_row(c, sel, row);
    }
}
