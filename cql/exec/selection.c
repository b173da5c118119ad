/*
 * selection.c - what a SELECT returns for each row: the selectors (columns,
 * u.f fields, CAST, ttl/writetime/token and the aggregates) compiled once
 * into output columns with their result metadata, each stored row projected
 * through them (or a SELECT JSON object), and the aggregate state folded row
 * by row into one result row per group. The row walk is select.c.
 */
#include "cql/exec/exec.h"

typedef enum {
    OUT_COLUMN,
    OUT_FIELD, /* u.f of a user type column */
    OUT_CAST,  /* CAST(c AS type) */
    OUT_TTL,
    OUT_WRITETIME,
    OUT_TOKEN,
    OUT_SCALAR, /* a native scalar function: dateOf(t), blobAsInt(b), toJson(x), ... */
    OUT_CONST,  /* a literal argument of one */
    OUT_COUNT,
    OUT_MIN,
    OUT_MAX,
    OUT_SUM,
    OUT_AVG,
} out_kind_t;

typedef struct cql_out_col_s {
    out_kind_t kind;
    int idx;                 /* source column, -1 for count(*) */
    int field;               /* OUT_FIELD: index of the field in the user type */
    const wire_type_t *type; /* output type */
    /* OUT_SCALAR: the function, its argument (none for now()) and the type it takes */
    const char *fn;
    size_t n_args;
    struct cql_out_col_s *arg;
    const wire_type_t *arg_type;
    wire_value_t konst; /* OUT_CONST */
    /* aggregate state */
    int64_t count;
    wire_value_t best;
    double dsum;
    int64_t isum;
} out_col_t;


static const char *name_dup(cql_ctx_t *c, const char *s)
{
    return base_arena_strndup(c->a, s, strlen(s));
}


static int selector_column(const cql_table_t *t, const cql_selector_t *s, int *idx,
                           base_error_t *err)
{
    const cql_column_t *col = cql__column_find(t, s->name);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", s->name);
    }
    *idx = (int)(col - t->cols);
    return BASE_OK;
}


static int compile_field(cql_ctx_t *c, const cql_column_t *col, const cql_selector_t *s,
                         out_col_t *o, const char **name, base_error_t *err)
{
    const wire_type_t *u = col->type;
    if (u->id != WIRE_TYPE_UDT) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid field selection: %s of type %s is not a user type",
                              col->name, cql__type_name(u, c->a));
    }
    for (uint16_t k = 0; k < u->n_sub; k++) {
        if (strcmp(u->field_names[k], s->field) == 0) {
            o->kind = OUT_FIELD;
            o->field = k;
            o->type = u->sub[k];
            *name = base_arena_sprintf(c->a, "%s.%s", col->name, s->field);
            return BASE_OK;
        }
    }
    return base_error_set(err, WIRE_ERR_INVALID, "Type %s has no field %s", u->name, s->field);
}


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


/* CAST(c AS native type): Cosmos DB allows no nesting, so the argument is a column. */
static int compile_cast(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, out_col_t *o,
                        const char **name, base_error_t *err)
{
    if (s->n_args != 1 || s->args[0]->kind != CQL_SEL_COLUMN) {
        return base_error_set(err, WIRE_ERR_INVALID, "CAST takes one column: %s",
                              s->text ? s->text : "cast");
    }
    if (selector_column(t, s->args[0], &o->idx, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const wire_type_t *to = s->cast_type->n_params == 0 && !s->cast_type->frozen
                                ? cql__type_native(s->cast_type->name)
                                : NULL;
    if (to == NULL || to->id == WIRE_TYPE_COUNTER || to->id == WIRE_TYPE_DURATION) {
        return base_error_set(err, WIRE_ERR_INVALID, "%s cannot be cast to %s",
                              t->cols[o->idx].name, s->cast_type->name);
    }
    o->kind = OUT_CAST;
    o->type = to;
    *name =
        base_arena_sprintf(c->a, "cast(%s as %s)", t->cols[o->idx].name, cql__type_name(to, c->a));
    return BASE_OK;
}


/* Casts through the value's CQL text: "5" becomes an int, a bigint or a double, a date
 * becomes a timestamp, anything becomes its text. Unconvertible values are null. */
static wire_value_t cast_value(cql_ctx_t *c, const cql_table_t *t, const out_col_t *o,
                               wire_value_t v)
{
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    if (v.len < 0) {
        return v;
    }
    const wire_type_t *from = t->cols[o->idx].type;
    const char *text = cql__value_to_cql(from, v, c->a);
    size_t n = strlen(text);
    if (n >= 2 && text[0] == '\'' && text[n - 1] == '\'') {
        text = base_arena_strndup(c->a, text + 1, n - 2);
    }
    uint16_t id = o->type->id;
    if (id == WIRE_TYPE_VARCHAR || id == WIRE_TYPE_ASCII) {
        return cql__value_text(c->a, text);
    }
    cql_term_t lit = {.kind = CQL_TERM_LITERAL, .lit = CQL_LIT_STRING, .text = text};
    if (strspn(text, "-0123456789") == strlen(text)) {
        lit.lit = CQL_LIT_INTEGER;
    } else if (strspn(text, "-0123456789.eE+") == strlen(text) || strstr(text, "NaN") ||
               strstr(text, "Infinity")) {
        lit.lit = CQL_LIT_FLOAT;
    }
    wire_value_t out;
    base_error_t ignored;
    if (cql__term_eval(&lit, o->type, "cast", NULL, c->a, &out, &ignored) != BASE_OK) {
        /* an integer text into a float type, or a float text into an integer type */
        lit.lit = lit.lit == CQL_LIT_INTEGER ? CQL_LIT_FLOAT : CQL_LIT_INTEGER;
        if (lit.lit == CQL_LIT_INTEGER && strchr(text, '.') != NULL) {
            lit.text = base_arena_strndup(c->a, text, (size_t)(strchr(text, '.') - text));
        }
        if (cql__term_eval(&lit, o->type, "cast", NULL, c->a, &out, &ignored) != BASE_OK) {
            return null;
        }
    }
    return out;
}


static int compile_function(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                            out_col_t *o, const char **name, base_error_t *err);


/* The argument of a scalar function selector: a column (or u.f), a literal, a CAST,
 * ttl()/writetime() or another scalar function. */
static int compile_scalar_arg(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                              out_col_t *o, base_error_t *err)
{
    const char *name = NULL;
    switch (s->kind) {
    case CQL_SEL_COLUMN:
        if (selector_column(t, s, &o->idx, err) != BASE_OK) {
            return BASE_ERROR;
        }
        o->kind = OUT_COLUMN;
        o->type = t->cols[o->idx].type;
        return s->field != NULL ? compile_field(c, &t->cols[o->idx], s, o, &name, err) : BASE_OK;
    case CQL_SEL_TERM:
        o->kind = OUT_CONST;
        o->idx = -1;
        return BASE_OK;
    case CQL_SEL_CAST:
        return compile_cast(c, t, s, o, &name, err);
    case CQL_SEL_FUNCTION:
        if (compile_function(c, t, s, o, &name, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (o->kind >= OUT_COUNT) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "aggregate functions cannot be used as arguments of scalar "
                                  "functions");
        }
        return BASE_OK;
    default:
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid argument in call to function %s",
                              s->text ? s->text : "?");
    }
}


/* A native scalar function as a selector (functions.c resolves it by argument type). */
static int compile_scalar(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s, out_col_t *o,
                          const char **name, base_error_t *err)
{
    if (strcmp(s->name, "fromjson") == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "fromJson() cannot be used in the selection clause of a SELECT "
                              "statement");
    }
    if (strcmp(s->name, "tojson") == 0 && c->binds.no_json_fn) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "toJson() is not supported by Azure Cosmos DB for Apache Cassandra");
    }
    if (s->n_args > 1) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function %s", s->name);
    }
    o->kind = OUT_SCALAR;
    o->idx = -1;
    o->fn = s->name;
    o->n_args = s->n_args;
    o->arg = base_arena_calloc(c->a, 1, sizeof(*o->arg));
    if (s->n_args == 1 && compile_scalar_arg(c, t, s->args[0], o->arg, err) != BASE_OK) {
        return BASE_ERROR;
    }
    bool literal = s->n_args == 1 && o->arg->kind == OUT_CONST;
    const wire_type_t *given = s->n_args == 1 && !literal ? o->arg->type : NULL;
    o->type = cql__scalar_return(s->name, given, s->n_args, &o->arg_type, err);
    if (o->type == NULL) {
        return BASE_ERROR;
    }
    if (literal) {
        if (cql__term_eval(s->args[0]->term, o->arg_type, s->name, &c->binds, c->a, &o->arg->konst,
                           err) != BASE_OK) {
            return BASE_ERROR;
        }
        o->arg->type = o->arg_type;
    }
    if (strcmp(s->name, "tojson") == 0) {
        o->arg_type = o->arg->type;
    }
    *name = s->text ? s->text : base_arena_sprintf(c->a, "system.%s(...)", s->name);
    return BASE_OK;
}


static int compile_function(cql_ctx_t *c, const cql_table_t *t, const cql_selector_t *s,
                            out_col_t *o, const char **name, base_error_t *err)
{
    static const struct {
        const char *fn;
        out_kind_t kind;
    } fns[] = {{"ttl", OUT_TTL},     {"writetime", OUT_WRITETIME},
               {"min", OUT_MIN},     {"max", OUT_MAX},
               {"sum", OUT_SUM},     {"avg", OUT_AVG},
               {"count", OUT_COUNT}, {"token", OUT_TOKEN}};
    size_t k = 0;
    while (k < sizeof(fns) / sizeof(fns[0]) && strcmp(fns[k].fn, s->name) != 0) {
        k++;
    }
    if (k == sizeof(fns) / sizeof(fns[0])) {
        return compile_scalar(c, t, s, o, name, err);
    }
    o->kind = fns[k].kind;
    if (o->kind == OUT_TOKEN) {
        o->idx = -1;
        o->type = cql__native_bigint();
        *name = base_arena_sprintf(c->a, "system.token(%s)", t->pk[0]->name);
        return BASE_OK;
    }
    if (s->n_args != 1 || s->args[0]->kind != CQL_SEL_COLUMN) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function %s: 1 required",
                              s->name);
    }
    if (selector_column(t, s->args[0], &o->idx, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const cql_column_t *col = &t->cols[o->idx];
    switch (o->kind) {
    case OUT_TTL:
    case OUT_WRITETIME:
        if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot use selection function %s on PRIMARY KEY part %s",
                                  o->kind == OUT_TTL ? "ttl" : "writeTime", col->name);
        }
        o->type = o->kind == OUT_TTL ? cql__native_int() : cql__native_bigint();
        *name =
            base_arena_sprintf(c->a, "%s(%s)", o->kind == OUT_TTL ? "ttl" : "writetime", col->name);
        return BASE_OK;
    case OUT_COUNT:
        o->type = cql__native_bigint();
        *name = base_arena_sprintf(c->a, "system.count(%s)", col->name);
        return BASE_OK;
    default:
        break;
    }
    o->type = col->type;
    if ((o->kind == OUT_SUM || o->kind == OUT_AVG) &&
        !(col->type->id == WIRE_TYPE_INT || col->type->id == WIRE_TYPE_BIGINT ||
          col->type->id == WIRE_TYPE_SMALLINT || col->type->id == WIRE_TYPE_TINYINT ||
          col->type->id == WIRE_TYPE_FLOAT || col->type->id == WIRE_TYPE_DOUBLE ||
          col->type->id == WIRE_TYPE_COUNTER)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid call to function %s, none of its "
                              "type signatures match",
                              s->name);
    }
    *name = base_arena_sprintf(c->a, "system.%s(%s)", s->name, col->name);
    return BASE_OK;
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
    for (size_t i = 0; i < n; i++) {
        out_col_t *o = &sel->out[i];
        const char *name = NULL;
        if (star) {
            o->kind = OUT_COLUMN;
            o->idx = (int)i;
            o->type = t->cols[i].type;
            name = t->cols[i].name;
        } else {
            const cql_selector_t *s = q->selectors[i];
            switch (s->kind) {
            case CQL_SEL_COLUMN:
                if (selector_column(t, s, &o->idx, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                o->kind = OUT_COLUMN;
                o->type = t->cols[o->idx].type;
                name = t->cols[o->idx].name;
                if (s->field != NULL && compile_field(c, &t->cols[o->idx], s, o, &name, err)) {
                    return BASE_ERROR;
                }
                break;
            case CQL_SEL_COUNT_STAR:
                o->kind = OUT_COUNT;
                o->idx = -1;
                o->type = cql__native_bigint();
                name = "count";
                break;
            case CQL_SEL_FUNCTION:
                if (compile_function(c, t, s, o, &name, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                break;
            case CQL_SEL_CAST:
                if (compile_cast(c, t, s, o, &name, err) != BASE_OK) {
                    return BASE_ERROR;
                }
                break;
            default:
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "This selector is not supported by the emulator yet: %s",
                                      s->text ? s->text : "?");
            }
            if (s->alias != NULL) {
                name = s->alias;
            }
        }
        n_agg += o->kind >= OUT_COUNT;
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


int cql__select_columns(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t,
                        wire_col_spec_t **cols, size_t *n_cols, base_error_t *err)
{
    cql_sel_t sel;
    if (cql__sel_compile(c, q, t, &sel, err) != BASE_OK) {
        return BASE_ERROR;
    }
    *cols = sel.specs;
    *n_cols = sel.json ? 1 : sel.n;
    return BASE_OK;
}


/* ---- projection ------------------------------------------------------------------------ */

static wire_value_t project_one(cql_ctx_t *c, const cql_table_t *t, const out_col_t *o,
                                const cql_rec_t *rec)
{
    base_arena_t *a = c->a;
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    switch (o->kind) {
    case OUT_COLUMN:
        return rec->vals[o->idx];
    case OUT_FIELD:
        return udt_field(rec->vals[o->idx], o->field);
    case OUT_CAST:
        return cast_value(c, t, o, rec->vals[o->idx]);
    case OUT_TTL:
        return rec->vals[o->idx].len >= 0 && rec->ttl[o->idx] > 0
                   ? cql__value_int(a, rec->ttl[o->idx])
                   : null;
    case OUT_WRITETIME:
        return rec->vals[o->idx].len >= 0 && rec->ts[o->idx] != INT64_MIN
                   ? cql__value_bigint(a, rec->ts[o->idx])
                   : null;
    case OUT_TOKEN:
        return cql__value_bigint(a, rec->token);
    case OUT_CONST:
        return o->konst;
    case OUT_SCALAR: {
        wire_value_t arg = o->n_args ? project_one(c, t, o->arg, rec) : null, out;
        base_error_t ignored; /* a value the function cannot take reads as null */
        return cql__scalar_call(o->fn, o->arg_type, arg, o->n_args, a, &out, &ignored) == BASE_OK
                   ? out
                   : null;
    }
    default:
        return null;
    }
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
        for (const char *p = name; *p; p++) {
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

int cql__sel_refuse_cosmos(const cql_table_t *t, const cql_sel_t *sel, base_error_t *err)
{
    for (size_t i = 0; sel->aggregate && i < sel->n; i++) {
        const out_col_t *o = &sel->out[i];
        if (o->kind >= OUT_MIN && o->idx >= 0 && t->cols[o->idx].kind == CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Aggregates on clustering columns are not supported by "
                                  "Azure Cosmos DB for Apache Cassandra (%s)",
                                  t->cols[o->idx].name);
        }
    }
    return BASE_OK;
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


void cql__sel_accumulate(cql_ctx_t *c, const cql_table_t *t, cql_sel_t *sel, const cql_rec_t *rec)
{
    for (size_t i = 0; i < sel->n; i++) {
        out_col_t *o = &sel->out[i];
        wire_value_t v = o->idx >= 0 ? rec->vals[o->idx] : (wire_value_t){NULL, 0};
        if (o->kind < OUT_COUNT) {
            if (o->count++ == 0) { /* plain columns keep the first row's value */
                v = project_one(c, t, o, rec);
                o->best = v.len > 0 ? cql__value_blob(c->a, v.ptr, (size_t)v.len) : v;
            }
            continue;
        }
        if (v.len < 0 || (o->idx >= 0 && v.len == 0 && o->kind != OUT_COUNT)) {
            continue;
        }
        o->count++;
        if (o->kind == OUT_MIN || o->kind == OUT_MAX) {
            int cmp = o->count == 1 ? 0 : cql__value_compare(o->type, v, o->best);
            if (o->count == 1 || (o->kind == OUT_MIN ? cmp < 0 : cmp > 0)) {
                o->best = cql__value_blob(c->a, v.ptr, (size_t)v.len);
            }
        } else if (o->kind == OUT_SUM || o->kind == OUT_AVG) {
            if (is_float(o->type)) {
                o->dsum += as_double(o->type, v);
            } else {
                o->isum += cql__load_signed(v.ptr, (size_t)v.len); /* exact past 2^53 */
            }
        }
    }
}


static wire_value_t numeric_value(base_arena_t *a, const wire_type_t *t, int64_t i, double d)
{
    switch (t->id) {
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


void cql__sel_aggregate_row(cql_ctx_t *c, cql_sel_t *sel, wire_value_t *row)
{
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
            row[i] = numeric_value(c->a, o->type, o->isum, o->dsum);
            break;
        case OUT_AVG:
            row[i] = o->count == 0 ? numeric_value(c->a, o->type, 0, 0)
                                   : numeric_value(c->a, o->type, o->isum / o->count,
                                                   o->dsum / (double)o->count);
            break;
        default:
            row[i] = o->count ? o->best : null;
            break;
        }
        o->count = 0, o->isum = 0, o->dsum = 0; /* ready for the next group */
    }
}
