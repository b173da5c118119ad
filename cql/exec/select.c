/*
 * select.c - running a SELECT: walk the planned partitions and clustering
 * slices in storage order (or its reverse for a reversed ORDER BY), build
 * each row, filter, project through the selectors or fold into aggregates,
 * and stop at the page size or LIMIT with a paging state that resumes after
 * the last row returned. System tables run the same projection over rows
 * generated from the schema.
 *
 * Paging state (opaque to clients, versioned):
 *   [byte 1][int remaining limit][int rows left in partition][bytes pk][long token][bytes ck]
 *   [byte 2][int remaining limit][int row offset]           (system tables)
 */
#include <math.h>

#include "cql/exec/exec.h"

#define COSMOS_MAX_PAGE_BYTES (4u * 1024u * 1024u)

typedef enum {
    OUT_COLUMN,
    OUT_FIELD, /* u.f of a user type column */
    OUT_CAST,  /* CAST(c AS type) */
    OUT_TTL,
    OUT_WRITETIME,
    OUT_TOKEN,
    OUT_COUNT,
    OUT_MIN,
    OUT_MAX,
    OUT_SUM,
    OUT_AVG,
} out_kind_t;

typedef struct out_col_s {
    out_kind_t kind;
    int idx;                 /* source column, -1 for count(*) */
    int field;               /* OUT_FIELD: index of the field in the user type */
    const wire_type_t *type; /* output type */
    /* aggregate state */
    int64_t count;
    wire_value_t best;
    double dsum;
    int64_t isum;
} out_col_t;

typedef struct sel_s {
    size_t n;
    out_col_t *out;
    wire_col_spec_t *specs;
    const char **names; /* selector names, kept for SELECT JSON keys */
    bool aggregate;
    bool json;
} sel_t;

typedef struct run_s {
    cql_ctx_t *c;
    const cql_select_t *q;
    const cql_table_t *t;
    cql_plan_t plan;
    sel_t sel;
    bool reverse;
    int64_t limit;         /* remaining rows, INT64_MAX when none */
    int64_t per_partition; /* PER PARTITION LIMIT, INT64_MAX when none */
    int64_t page_size;     /* INT64_MAX when not paging */
    /* output */
    size_t n_rows, cap_rows;
    wire_value_t *cells;
    bool full;              /* page or limit reached */
    bool more;              /* a further matching row exists */
    cql_rec_t last;         /* last row returned (for the paging state) */
    int64_t last_part_left; /* per-partition budget left after last */
    bool distinct;
    /* GROUP BY: the primary-key prefix that makes a group, and the current one */
    size_t n_group;
    int *group_idx;
    cql_rec_t group_first;
    bool in_group;
} run_t;


/* ---- selection ----------------------------------------------------------------------- */

static const char *lower_dup(cql_ctx_t *c, const char *s)
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
static wire_value_t cast_value(run_t *r, const out_col_t *o, wire_value_t v)
{
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    if (v.len < 0) {
        return v;
    }
    const wire_type_t *from = r->t->cols[o->idx].type;
    const char *text = cql__value_to_cql(from, v, r->c->a);
    size_t n = strlen(text);
    if (n >= 2 && text[0] == '\'' && text[n - 1] == '\'') {
        text = base_arena_strndup(r->c->a, text + 1, n - 2);
    }
    uint16_t id = o->type->id;
    if (id == WIRE_TYPE_VARCHAR || id == WIRE_TYPE_ASCII) {
        return cql__value_text(r->c->a, text);
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
    if (cql__term_eval(&lit, o->type, "cast", NULL, r->c->a, &out, &ignored) != BASE_OK) {
        /* an integer text into a float type, or a float text into an integer type */
        lit.lit = lit.lit == CQL_LIT_INTEGER ? CQL_LIT_FLOAT : CQL_LIT_INTEGER;
        if (lit.lit == CQL_LIT_INTEGER && strchr(text, '.') != NULL) {
            lit.text = base_arena_strndup(r->c->a, text, (size_t)(strchr(text, '.') - text));
        }
        if (cql__term_eval(&lit, o->type, "cast", NULL, r->c->a, &out, &ignored) != BASE_OK) {
            return null;
        }
    }
    return out;
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
        return base_error_set(err, WIRE_ERR_INVALID, "Unknown function '%s'", s->name);
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


static int compile_selection(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t, sel_t *sel,
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
        sel->specs[i].name = lower_dup(c, name);
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
    sel_t sel;
    if (compile_selection(c, q, t, &sel, err) != BASE_OK) {
        return BASE_ERROR;
    }
    *cols = sel.specs;
    *n_cols = sel.json ? 1 : sel.n;
    return BASE_OK;
}


/* ---- output ---------------------------------------------------------------------------- */

static wire_value_t *out_row(run_t *r)
{
    size_t width = r->sel.json ? 1 : r->sel.n;
    if (r->n_rows == r->cap_rows) {
        size_t cap = r->cap_rows ? r->cap_rows * 2 : 16;
        wire_value_t *cells = base_arena_alloc(r->c->a, cap * width * sizeof(*cells) + 1);
        if (r->n_rows > 0) {
            memcpy(cells, r->cells, r->n_rows * width * sizeof(*cells));
        }
        r->cells = cells;
        r->cap_rows = cap;
    }
    return &r->cells[r->n_rows++ * width];
}


static wire_value_t project_one(run_t *r, const out_col_t *o, const cql_rec_t *rec)
{
    base_arena_t *a = r->c->a;
    wire_value_t null = {NULL, WIRE_VALUE_NULL};
    switch (o->kind) {
    case OUT_COLUMN:
        return rec->vals[o->idx];
    case OUT_FIELD:
        return udt_field(rec->vals[o->idx], o->field);
    case OUT_CAST:
        return cast_value(r, o, rec->vals[o->idx]);
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
    default:
        return null;
    }
}


static wire_value_t json_row(run_t *r, const wire_value_t *vals)
{
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put_u8(&b, '{');
    for (size_t i = 0; i < r->sel.n; i++) {
        const char *name = r->sel.names[i];
        bool quote = false;
        for (const char *p = name; *p; p++) {
            quote |= !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_');
        }
        base_buf_printf(&b, "%s\"%s%s%s\": %s", i ? ", " : "", quote ? "\\\"" : "", name,
                        quote ? "\\\"" : "",
                        cql__value_to_json(r->sel.out[i].type, vals[i], r->c->a));
    }
    base_buf_put_u8(&b, '}');
    wire_value_t v = cql__value_blob(r->c->a, b.data, b.len);
    base_buf_fini(&b);
    return v;
}


static void emit(run_t *r, const cql_rec_t *rec)
{
    size_t n = r->sel.n;
    wire_value_t *vals = r->sel.json ? base_arena_alloc(r->c->a, n * sizeof(*vals)) : out_row(r);
    for (size_t i = 0; i < n; i++) {
        vals[i] = project_one(r, &r->sel.out[i], rec);
        r->c->out->stats.bytes_returned += vals[i].len > 0 ? (size_t)vals[i].len : 0;
    }
    if (r->sel.json) {
        *out_row(r) = json_row(r, vals);
    }
    r->c->out->stats.rows_returned++;
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


static void fold(run_t *r, const cql_rec_t *rec)
{
    for (size_t i = 0; i < r->sel.n; i++) {
        out_col_t *o = &r->sel.out[i];
        wire_value_t v = o->idx >= 0 ? rec->vals[o->idx] : (wire_value_t){NULL, 0};
        if (o->kind < OUT_COUNT) {
            if (o->count++ == 0) { /* plain columns keep the first row's value */
                v = project_one(r, o, rec);
                o->best = v.len > 0 ? cql__value_blob(r->c->a, v.ptr, (size_t)v.len) : v;
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
                o->best = cql__value_blob(r->c->a, v.ptr, (size_t)v.len);
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


static wire_value_t number(base_arena_t *a, const wire_type_t *t, int64_t i, double d)
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


static void finish_aggregate(run_t *r)
{
    wire_value_t *row = out_row(r);
    for (size_t i = 0; i < r->sel.n; i++) {
        out_col_t *o = &r->sel.out[i];
        wire_value_t null = {NULL, WIRE_VALUE_NULL};
        switch (o->kind) {
        case OUT_COUNT:
            row[i] = cql__value_bigint(r->c->a, o->count);
            break;
        case OUT_MIN:
        case OUT_MAX:
            row[i] = o->count ? o->best : null;
            break;
        case OUT_SUM:
            row[i] = number(r->c->a, o->type, o->isum, o->dsum);
            break;
        case OUT_AVG:
            row[i] = o->count == 0
                         ? number(r->c->a, o->type, 0, 0)
                         : number(r->c->a, o->type, o->isum / o->count, o->dsum / (double)o->count);
            break;
        default:
            row[i] = o->count ? o->best : null;
            break;
        }
        o->count = 0, o->isum = 0, o->dsum = 0; /* ready for the next group */
    }
    r->c->out->stats.rows_returned++;
}


static bool same_group(const run_t *r, const cql_rec_t *a, const cql_rec_t *b)
{
    for (size_t i = 0; i < r->n_group; i++) {
        int k = r->group_idx[i];
        const wire_value_t *x = &a->vals[k], *y = &b->vals[k];
        if (x->len != y->len || (x->len > 0 && memcmp(x->ptr, y->ptr, (size_t)x->len) != 0)) {
            return false;
        }
    }
    return true;
}


/* GROUP BY: a new group closes the previous one, which counts against LIMIT. */
static bool fold_grouped(run_t *r, const cql_rec_t *rec)
{
    if (r->in_group && !same_group(r, &r->group_first, rec)) {
        finish_aggregate(r);
        r->in_group = false;
        if (--r->limit <= 0) {
            return false;
        }
    }
    if (!r->in_group) {
        r->group_first = *rec;
        r->in_group = true;
    }
    fold(r, rec);
    return true;
}


/* ---- scanning ----------------------------------------------------------------------------- */

/* Offers one row; returns false when the run must stop. */
static bool offer(run_t *r, const cql_rec_t *rec, int64_t *part_left)
{
    cql_stats_t *st = &r->c->out->stats;
    st->rows_read++;
    st->bytes_read += rec->bytes;
    if (!cql__filter_match(r->c, &r->plan, rec)) {
        return true;
    }
    if (r->n_group > 0) {
        return fold_grouped(r, rec);
    }
    if (r->sel.aggregate) {
        fold(r, rec);
        return true;
    }
    if (*part_left <= 0) {
        return true;
    }
    if (r->full) {
        r->more = true;
        return false;
    }
    emit(r, rec);
    r->last = *rec;
    (*part_left)--;
    r->last_part_left = *part_left;
    r->limit--;
    /* The service caps a response page at 4 MB whatever the page size asked. */
    bool page_bytes =
        r->c->e->cfg.profile == CQL_PROFILE_COSMOS && st->bytes_returned >= COSMOS_MAX_PAGE_BYTES;
    if (r->limit <= 0 || (int64_t)r->n_rows >= r->page_size || page_bytes) {
        r->full = true;
        if (r->limit <= 0) {
            return false; /* LIMIT reached: nothing more to page */
        }
    }
    return true;
}


/* A row key against a prefix bound: 0 when the key begins with the bound's bytes. */
static int prefix_cmp(const storage_bound_t *key, const storage_bound_t *bound)
{
    size_t n = key->len < bound->len ? key->len : bound->len;
    int cmp = n > 0 ? memcmp(key->key, bound->key, n) : 0;
    return cmp != 0 ? cmp : key->len < bound->len ? -1 : 0;
}


/* Reads one partition's rows in the planned slices; resume_ck skips rows up to it. */
static bool scan_partition(run_t *r, storage_partition_t *p, const uint8_t *resume_ck,
                           size_t resume_len, int64_t part_left)
{
    cql_ctx_t *c = r->c;
    const cql_table_t *t = r->t;
    storage_row_view_t st;
    bool has_static = storage_partition_static(p, c->now_us, &st);
    c->out->stats.partitions_touched++;
    bool any = false;
    size_t n_slices = r->plan.n_slices ? r->plan.n_slices : 1;
    for (size_t k = 0; k < n_slices; k++) {
        size_t s = r->reverse ? n_slices - 1 - k : k;
        const storage_bound_t *start = r->plan.n_slices ? &r->plan.slices[s].start : NULL;
        const storage_bound_t *end = r->plan.n_slices ? &r->plan.slices[s].end : NULL;
        storage_bound_t resume = {resume_ck, resume_len, false};
        /* Rows before the resume point were returned on earlier pages: the resume point
         * replaces a slice's start (its end when reversed) only where it is inside or past
         * that slice, or a later slice would start over from it and repeat rows. */
        if (resume_ck != NULL && !r->reverse &&
            (start == NULL || prefix_cmp(&resume, start) >= 0)) {
            start = &resume;
        } else if (resume_ck != NULL && r->reverse &&
                   (end == NULL || prefix_cmp(&resume, end) <= 0)) {
            end = &resume;
        }
        storage_row_iter_t *it = storage_row_iter_new(p, start, end, r->reverse, c->now_us);
        storage_row_view_t rv;
        bool go = true;
        while (go && storage_row_iter_next(it, &rv)) {
            cql_rec_t rec;
            if (rv.is_static) {
                continue;
            }
            if (resume_ck != NULL && r->plan.n_slices > 1) {
                /* multiple slices: also skip rows of earlier slices */
                int cmp = memcmp(rv.ck, resume_ck, rv.ck_len < resume_len ? rv.ck_len : resume_len);
                if (cmp == 0) {
                    cmp = rv.ck_len < resume_len ? -1 : (rv.ck_len > resume_len ? 1 : 0);
                }
                if (r->reverse ? cmp >= 0 : cmp <= 0) {
                    continue;
                }
            }
            any = true;
            if (!cql__rec_build(c, t, p, &rv, has_static ? &st : NULL, &rec)) {
                continue;
            }
            go = offer(r, &rec, &part_left);
            if (r->distinct) {
                break;
            }
        }
        c->out->stats.tombstones_scanned += storage_row_iter_tombstones(it);
        storage_row_iter_free(it);
        if (!go) {
            return false;
        }
        if (r->distinct && any) {
            break;
        }
    }
    /* A partition with only static data shows as one row with null clustering columns. */
    if (!any && has_static && resume_ck == NULL && !r->plan.ck_restricted) {
        cql_rec_t rec;
        if (cql__rec_build(c, t, p, NULL, &st, &rec)) {
            return offer(r, &rec, &part_left);
        }
    }
    return true;
}


static bool token_in_range(const cql_plan_t *p, int64_t tok)
{
    if (p->tok_lo_set && (p->tok_lo_incl ? tok < p->tok_lo : tok <= p->tok_lo)) {
        return false;
    }
    if (p->tok_hi_set && (p->tok_hi_incl ? tok > p->tok_hi : tok >= p->tok_hi)) {
        return false;
    }
    return true;
}


typedef struct resume_s {
    bool set;
    const uint8_t *pk;
    size_t pk_len;
    int64_t token;
    const uint8_t *ck;
    size_t ck_len;
    int64_t part_left;
} resume_t;


static void run_keys(run_t *r, const resume_t *res)
{
    size_t first = 0;
    if (res->set) {
        while (first < r->plan.n_keys &&
               !((size_t)r->plan.keys[first].len == res->pk_len &&
                 memcmp(r->plan.keys[first].ptr, res->pk, res->pk_len) == 0)) {
            first++;
        }
    }
    for (size_t k = first; k < r->plan.n_keys; k++) {
        storage_partition_t *p = storage_partition_get(
            r->t->st, r->plan.tokens[k], r->plan.keys[k].ptr, (size_t)r->plan.keys[k].len);
        if (p == NULL) {
            continue;
        }
        bool resuming = res->set && k == first;
        if (!token_in_range(&r->plan, r->plan.tokens[k])) {
            continue;
        }
        int64_t left = resuming ? res->part_left : r->per_partition;
        if (resuming && res->ck == NULL) {
            continue; /* the static-only row of this partition was returned */
        }
        if (!scan_partition(r, p, resuming ? res->ck : NULL, resuming ? res->ck_len : 0, left)) {
            return;
        }
    }
}


static void run_scan(run_t *r, const resume_t *res)
{
    cql_stats_t *st = &r->c->out->stats;
    st->cross_partition = true;
    if (res->set) {
        storage_partition_t *p = storage_partition_get(r->t->st, res->token, res->pk, res->pk_len);
        if (p != NULL && res->ck != NULL &&
            !scan_partition(r, p, res->ck, res->ck_len, res->part_left)) {
            return;
        }
    }
    bool after = res->set || r->plan.tok_lo_set;
    int64_t after_token = res->set ? res->token : r->plan.tok_lo;
    if (!res->set && r->plan.tok_lo_set && r->plan.tok_lo_incl) {
        /* token >= INT64_MIN is the whole ring: start from its beginning */
        after = r->plan.tok_lo != INT64_MIN;
        after_token = after ? r->plan.tok_lo - 1 : INT64_MIN;
    }
    storage_part_iter_t *it = storage_part_iter_new(
        r->t->st, after, after_token, res->set ? res->pk : NULL, res->set ? res->pk_len : 0);
    storage_partition_t *p;
    while ((p = storage_part_iter_next(it)) != NULL) {
        int64_t tok = storage_partition_token(p);
        if (r->plan.tok_hi_set && !token_in_range(&r->plan, tok)) {
            break;
        }
        if (!token_in_range(&r->plan, tok)) {
            continue;
        }
        if (!scan_partition(r, p, NULL, 0, r->per_partition)) {
            break;
        }
    }
    storage_part_iter_free(it);
}


/* ---- paging state -----------------------------------------------------------------------------
 */

static void put_bytes(base_buf_t *b, const uint8_t *p, size_t n, bool null)
{
    base_buf_put_u32(b, null ? 0xffffffffu : (uint32_t)n);
    base_buf_put(b, p, null ? 0 : n);
}


static wire_value_t paging_state(run_t *r)
{
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put_u8(&b, 1);
    base_buf_put_u32(&b, (uint32_t)(r->limit > INT32_MAX ? INT32_MAX : r->limit));
    base_buf_put_u32(&b, (uint32_t)(r->last_part_left > INT32_MAX ? INT32_MAX : r->last_part_left));
    put_bytes(&b, r->last.pk, r->last.pk_len, false);
    base_buf_put_u64(&b, (uint64_t)r->last.token);
    put_bytes(&b, r->last.ck, r->last.ck_len, r->last.ck == NULL);
    wire_value_t v = cql__value_blob(r->c->a, b.data, b.len);
    base_buf_fini(&b);
    return v;
}


static int parse_paging_state(wire_value_t ps, resume_t *res, int64_t *limit, base_error_t *err)
{
    wire_reader_t rd;
    wire_reader_init(&rd, ps.ptr, (size_t)ps.len);
    uint8_t version = wire_read_byte(&rd);
    int32_t lim = wire_read_int(&rd);
    int32_t part_left = wire_read_int(&rd);
    wire_value_t pk = wire_read_bytes(&rd);
    int64_t token = wire_read_long(&rd);
    wire_value_t ck = wire_read_bytes(&rd);
    if (!wire_reader_ok(&rd) || version != 1 || pk.len < 0 || lim < 0 ||
        wire_reader_remaining(&rd) != 0) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR, "Invalid value for the paging state");
    }
    res->set = true;
    res->pk = pk.ptr;
    res->pk_len = (size_t)pk.len;
    res->token = token;
    res->ck = ck.len >= 0 ? ck.ptr : NULL;
    res->ck_len = ck.len >= 0 ? (size_t)ck.len : 0;
    res->part_left = part_left;
    *limit = lim;
    return BASE_OK;
}


/* ---- system tables ------------------------------------------------------------------------------
 */

static int run_virtual(run_t *r, base_error_t *err)
{
    cql_rowset_t rs = {0};
    r->t->vt->generate(r->c, r->t, &rs);
    size_t offset = 0;
    const wire_query_params_t *params = r->c->params;
    if (params != NULL && params->paging_state.len > 0) {
        wire_reader_t rd;
        wire_reader_init(&rd, params->paging_state.ptr, (size_t)params->paging_state.len);
        uint8_t version = wire_read_byte(&rd);
        int32_t lim = wire_read_int(&rd);
        int32_t off = wire_read_int(&rd);
        if (!wire_reader_ok(&rd) || version != 2 || lim < 0 || off < 0) {
            return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                                  "Invalid value for the paging state");
        }
        r->limit = lim;
        offset = (size_t)off;
    }
    int64_t part_left = INT64_MAX;
    size_t i;
    for (i = offset; i < rs.n_rows; i++) {
        cql_rec_t rec = {0};
        rec.vals = rs.rows[i];
        if (!offer(r, &rec, &part_left)) {
            break;
        }
    }
    if (r->more) {
        base_buf_t b;
        base_buf_init(&b);
        base_buf_put_u8(&b, 2);
        base_buf_put_u32(&b, (uint32_t)(r->limit > INT32_MAX ? INT32_MAX : r->limit));
        base_buf_put_u32(&b, (uint32_t)i);
        r->c->out->paging_state = cql__value_blob(r->c->a, b.data, b.len);
        base_buf_fini(&b);
    }
    return BASE_OK;
}


/* ---- ORDER BY ----------------------------------------------------------------------------------
 */

static int check_order(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t,
                       const cql_plan_t *plan, bool *reverse, base_error_t *err)
{
    (void)c;
    *reverse = false;
    if (q->n_order == 0) {
        return BASE_OK;
    }
    if (plan->scan) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "ORDER BY is only supported when the partition key is restricted "
                              "by an EQ or an IN.");
    }
    int dir = 0; /* +1 same as clustering order, -1 reversed */
    for (size_t i = 0; i < q->n_order; i++) {
        const cql_column_t *col = cql__column_find(t, q->order[i].column);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s",
                                  q->order[i].column);
        }
        if (col->kind != CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Order by is currently only supported on the clustered columns "
                                  "of the PRIMARY KEY, got %s",
                                  col->name);
        }
        if (col->position != (int)i) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Order by currently only supports the ordering of columns "
                                  "following their declared order in the PRIMARY KEY");
        }
        int d = q->order[i].desc == col->desc ? 1 : -1;
        if (dir != 0 && d != dir) {
            return base_error_set(err, WIRE_ERR_INVALID, "Unsupported order by relation");
        }
        dir = d;
    }
    *reverse = dir < 0;
    return BASE_OK;
}


static int64_t limit_value(cql_ctx_t *c, const cql_term_t *term, const char *what,
                           base_error_t *err, bool *ok)
{
    *ok = true;
    if (term == NULL) {
        return INT64_MAX;
    }
    wire_value_t v;
    if (cql__term_eval(term, cql__native_int(), what, &c->binds, c->a, &v, err) != BASE_OK) {
        *ok = false;
        return 0;
    }
    if (v.len == WIRE_VALUE_UNSET || v.len < 0) {
        if (v.len == WIRE_VALUE_UNSET) {
            return INT64_MAX;
        }
        *ok = false;
        base_error_set(err, WIRE_ERR_INVALID, "Invalid null value of %s", what);
        return 0;
    }
    int32_t n = (int32_t)base_load_u32(v.ptr);
    if (n <= 0) {
        *ok = false;
        base_error_set(err, WIRE_ERR_INVALID, "%s must be strictly positive",
                       strcmp(what, "[limit]") == 0 ? "LIMIT" : "PER PARTITION LIMIT");
        return 0;
    }
    return n;
}

/* Cassandra's read guard-rails (tombstone_warn_threshold, tombstone_failure_threshold).
 * The service keeps no tombstones, so under cosmos both are advisories: the warning says
 * what Cassandra would do, and the read is served. */
static int tombstone_guardrails(cql_ctx_t *c, base_error_t *err)
{
    cql_stats_t *st = &c->out->stats;
    const cql_guardrails_t *g = &c->e->cfg.guardrails;
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    if (st->tombstones_scanned > g->tombstone_failure) {
        st->guardrails |= CQL_GUARD_TOMBSTONE_FAIL;
        if (!cosmos) {
            base_error_set(err, WIRE_ERR_READ_FAILURE,
                           "Operation failed - received 0 responses and 1 failures");
            wire_error_detail_read_failure(err, st->consistency, 0, 1, 1, false);
            return BASE_ERROR;
        }
        cql__warn(c,
                  "Scanned over %zu tombstones during query '%.512s'; Apache Cassandra would "
                  "abort this read (see tombstone_failure_threshold: %zu). Azure Cosmos DB keeps "
                  "no tombstones, so it is served here",
                  st->tombstones_scanned, c->shape ? c->shape : "", g->tombstone_failure);
        return BASE_OK;
    }
    if (st->tombstones_scanned > g->tombstone_warn) {
        st->guardrails |= CQL_GUARD_TOMBSTONE_WARN;
        cql__warn(c,
                  "Read %zu live rows and %zu tombstone cells for query %.512s (see "
                  "tombstone_warn_threshold)%s",
                  st->rows_returned, st->tombstones_scanned, c->shape ? c->shape : "",
                  cosmos ? "; an advisory: Azure Cosmos DB keeps no tombstones" : "");
    }
    return BASE_OK;
}


/* GROUP BY names a prefix of the primary key, in order (Cassandra 3.10+). */
static int compile_group_by(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t, run_t *r,
                            base_error_t *err)
{
    if (q->n_group_by > t->n_pk + t->n_ck) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Group by currently only support groups of columns following their "
                              "declared order in the PRIMARY KEY");
    }
    r->group_idx = base_arena_alloc(c->a, q->n_group_by * sizeof(*r->group_idx));
    for (size_t i = 0; i < q->n_group_by; i++) {
        const cql_column_t *col = cql__column_find(t, q->group_by[i]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s",
                                  q->group_by[i]);
        }
        const cql_column_t *want = i < t->n_pk ? t->pk[i] : t->ck[i - t->n_pk];
        if (col != want) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Group by currently only support groups of columns following "
                                  "their declared order in the PRIMARY KEY");
        }
        r->group_idx[i] = (int)(col - t->cols);
    }
    r->n_group = q->n_group_by;
    r->sel.aggregate = true; /* plain columns take their group's first value */
    r->page_size = INT64_MAX;
    return BASE_OK;
}


/* System tables are small: every relation is a plain filter, no ALLOW FILTERING needed. */
static int plan_virtual(cql_ctx_t *c, const cql_table_t *t, const cql_select_t *q, cql_plan_t *p,
                        base_error_t *err)
{
    memset(p, 0, sizeof(*p));
    p->t = t;
    p->filters = base_arena_calloc(c->a, q->n_where + 1, sizeof(*p->filters));
    for (size_t i = 0; i < q->n_where; i++) {
        const cql_relation_t *rel = &q->where[i];
        if (rel->lhs != CQL_LHS_COLUMN) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Only column relations are supported on system tables");
        }
        const cql_column_t *col = cql__column_find(t, rel->columns[0]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s",
                                  rel->columns[0]);
        }
        cql_filter_t *f = &p->filters[p->n_filters++];
        f->idx = (int)(col - t->cols);
        f->col = col;
        f->op = rel->op;
        f->cmp_type = col->type;
        size_t n = rel->op == CQL_OP_IN ? rel->n_in : 1;
        wire_value_t *vals = base_arena_alloc(c->a, (n + 1) * sizeof(*vals));
        for (size_t k = 0; k < n; k++) {
            const cql_term_t *term = rel->op == CQL_OP_IN ? rel->in_values[k] : rel->rhs;
            if (cql__term_eval(term, col->type, col->name, &c->binds, c->a, &vals[k], err) !=
                BASE_OK) {
                return BASE_ERROR;
            }
        }
        f->in = vals;
        f->n_in = rel->op == CQL_OP_IN ? n : 0;
        f->v = vals[0];
    }
    return BASE_OK;
}


int cql__exec_select(cql_ctx_t *c, const cql_select_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_READ;
    if (cql__resolve_table(c, &q->table, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    run_t r;
    memset(&r, 0, sizeof(r));
    r.c = c;
    r.q = q;
    r.t = t;
    r.distinct = q->distinct;
    cql_stats_t *st = &c->out->stats;
    if (t->vt == NULL) { /* system tables are not metered per table */
        st->keyspace = t->ks->name;
        st->table = t->name;
    }
    st->allow_filtering = q->allow_filtering;
    bool ok;
    r.limit = limit_value(c, q->limit, "[limit]", err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    r.per_partition = limit_value(c, q->per_partition_limit, "[per_partition_limit]", err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    if (q->distinct && cosmos && t->vt == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "SELECT DISTINCT is not supported by Azure Cosmos DB for Apache "
                              "Cassandra");
    }
    if (q->distinct) {
        r.per_partition = 1;
    }
    const wire_query_params_t *params = c->params;
    r.page_size = params != NULL && params->page_size > 0 ? params->page_size : INT64_MAX;
    if (compile_selection(c, q, t, &r.sel, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (r.sel.aggregate) {
        r.page_size = INT64_MAX;
        for (size_t i = 0; cosmos && i < r.sel.n; i++) {
            const out_col_t *o = &r.sel.out[i];
            if (o->kind >= OUT_MIN && o->idx >= 0 && t->cols[o->idx].kind == CQL_COL_CLUSTERING) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Aggregates on clustering columns are not supported by "
                                      "Azure Cosmos DB for Apache Cassandra (%s)",
                                      t->cols[o->idx].name);
            }
        }
    }
    if (q->n_group_by > 0 && compile_group_by(c, q, t, &r, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (t->vt != NULL) {
        if (plan_virtual(c, t, q, &r.plan, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (run_virtual(&r, err) != BASE_OK) {
            return BASE_ERROR;
        }
    } else {
        if (cql__plan_where(c, t, q->where, q->n_where, q->allow_filtering, &r.plan, err) !=
                BASE_OK ||
            check_order(c, q, t, &r.plan, &r.reverse, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (q->n_order > 0 && r.plan.n_keys > 1 && params != NULL && params->page_size > 0 &&
            !r.sel.aggregate) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot page queries with both ORDER BY and a IN restriction on "
                                  "the partition key; you must either remove the ORDER BY or the "
                                  "IN and sort client side, or disable paging for this query");
        }
        st->point_read = r.plan.point && r.plan.n_keys == 1 && r.plan.n_filters == 0;
        if (r.plan.n_keys > 0) {
            cql__note_token(c, t, r.plan.tokens[0]);
        }
        st->index_lookup = r.plan.uses_index;
        bool one = r.plan.n_keys == 1;
        if (cql__admit(c, t, CQL_OP_READ, one, one ? r.plan.tokens[0] : 0, err) != BASE_OK) {
            return BASE_ERROR;
        }
        resume_t res = {0};
        if (params != NULL && params->paging_state.len > 0 &&
            parse_paging_state(params->paging_state, &res, &r.limit, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (r.plan.scan) {
            run_scan(&r, &res);
        } else {
            run_keys(&r, &res);
        }
        if (r.more && !r.sel.aggregate) {
            c->out->paging_state = paging_state(&r);
        }
        if (tombstone_guardrails(c, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (r.n_group > 0) {
        if (r.in_group) {
            finish_aggregate(&r);
        }
    } else if (r.sel.aggregate) {
        finish_aggregate(&r);
    }
    c->out->kind = WIRE_RESULT_ROWS;
    c->out->cols = r.sel.specs;
    c->out->n_cols = r.sel.json ? 1 : r.sel.n;
    c->out->cells = r.cells;
    c->out->n_rows = r.n_rows;
    return BASE_OK;
}
