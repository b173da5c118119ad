/*
 * select_plan.c - from a WHERE clause to a read plan, with Cassandra 3.11's
 * rules and messages: the partition key is restricted by EQ/IN on every
 * part (or by token()), clustering columns form an EQ/IN prefix optionally
 * ended by one slice, and anything else is filtering, which needs ALLOW
 * FILTERING unless a secondary index serves the column. The same planner
 * serves UPDATE and DELETE, which then check that the plan names rows.
 */
#include "cql/exec/exec.h"

/* Partition keys an IN list may name, clustering slices, and the product of the two. */
#define MAX_KEYS 10000

typedef struct colr_s { /* restrictions gathered for one key column */
    size_t n_eq;        /* EQ: 1 value; IN: n values */
    wire_value_t *eq;
    bool has_eq, is_in;
    bool lo_set, lo_incl, hi_set, hi_incl;
    wire_value_t lo, hi;
    int bad_len; /* partition key: the first null or unset value (0: none), see plan_partition */
} colr_t;


static int eval_set_value(cql_ctx_t *c, const cql_term_t *term, const wire_type_t *type,
                          const char *col, wire_value_t *out, base_error_t *err)
{
    if (cql__term_eval(term, type, col, &c->binds, c->a, out, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (out->len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for column %s", col);
    }
    return BASE_OK;
}


/* A key column's value. A partition key part's null or unset is judged once the plan
 * knows whether the key names partitions (refused then) or is filtered (RowFilter's
 * message, after the other checks). */
static int key_value(cql_ctx_t *c, const cql_term_t *term, const cql_column_t *col, colr_t *cr,
                     wire_value_t *out, base_error_t *err)
{
    if (col->kind != CQL_COL_PARTITION) {
        return eval_set_value(c, term, col->type, col->name, out, err);
    }
    if (cql__term_eval(term, col->type, col->name, &c->binds, c->a, out, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (out->len < 0 && cr->bad_len == 0) {
        cr->bad_len = out->len;
    }
    return BASE_OK;
}


/* IN (a, b) or IN ? (a bound list): values sorted and deduplicated as Cassandra does. */
static int eval_in(cql_ctx_t *c, const cql_relation_t *r, const cql_column_t *col,
                   wire_value_t **out, size_t *n_out, base_error_t *err)
{
    wire_value_t *vals;
    size_t n;
    if (r->rhs != NULL) {
        const wire_type_t *sub[1] = {col->type};
        const wire_type_t *lt = cql__type_collection(c->a, WIRE_TYPE_LIST, true, sub, 1);
        wire_value_t list;
        if (eval_set_value(c, r->rhs, lt, col->name, &list, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (list.len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for IN restriction");
        }
        ssize_t k = cql__collection_split(lt, list, c->a, &vals, NULL);
        if (k < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid list value for IN restriction");
        }
        n = (size_t)k;
    } else {
        n = r->n_in;
        vals = base_arena_alloc(c->a, (n + 1) * sizeof(*vals));
        for (size_t i = 0; i < n; i++) {
            if (eval_set_value(c, r->in_values[i], col->type, col->name, &vals[i], err) !=
                BASE_OK) {
                return BASE_ERROR;
            }
        }
    }
    /* insertion sort + dedup: IN lists are short */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (vals[i].len < 0) {
            continue;
        }
        size_t j = m;
        bool dup = false;
        while (j > 0) {
            int cmp = cql__value_compare(col->type, vals[j - 1], vals[i]);
            if (cmp == 0) {
                dup = true;
                break;
            }
            if (cmp < 0) {
                break;
            }
            j--;
        }
        if (dup) {
            continue;
        }
        wire_value_t v = vals[i];
        memmove(&vals[j + 1], &vals[j], (m - j) * sizeof(*vals));
        vals[j] = v;
        m++;
    }
    *out = vals;
    *n_out = m;
    return BASE_OK;
}


static int restrict_key(cql_ctx_t *c, const cql_relation_t *r, const cql_column_t *col, colr_t *cr,
                        base_error_t *err)
{
    /* Cassandra's restriction merges: an EQ or IN takes no other relation, a slice no EQ. */
    if (cr->has_eq) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "%s cannot be restricted by more than one relation if it includes "
                              "%s",
                              col->name, cr->is_in ? "a IN" : "an Equal");
    }
    if (r->op == CQL_OP_EQ || r->op == CQL_OP_IN) {
        if (cr->lo_set || cr->hi_set) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Column \"%s\" cannot be restricted by both an equality and an "
                                  "inequality relation",
                                  col->name);
        }
        cr->has_eq = true;
        cr->is_in = r->op == CQL_OP_IN;
        if (r->op == CQL_OP_IN) {
            return eval_in(c, r, col, &cr->eq, &cr->n_eq, err);
        }
        cr->eq = base_arena_alloc(c->a, sizeof(*cr->eq));
        cr->n_eq = 1;
        if (key_value(c, r->rhs, col, cr, cr->eq, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (col->kind == CQL_COL_PARTITION && cr->eq->len > 65535) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Key length of %d is longer than maximum of 65535", cr->eq->len);
        }
        if (cr->eq->len < 0 && col->kind != CQL_COL_PARTITION) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid null value in condition for "
                                  "column %s",
                                  col->name);
        }
        return BASE_OK;
    }
    wire_value_t v;
    if (key_value(c, r->rhs, col, cr, &v, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (v.len < 0 && col->kind != CQL_COL_PARTITION) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid null value in condition for column %s", col->name);
    }
    bool lower = r->op == CQL_OP_GT || r->op == CQL_OP_GTE;
    bool incl = r->op == CQL_OP_GTE || r->op == CQL_OP_LTE;
    if ((lower && cr->lo_set) || (!lower && cr->hi_set)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "More than one restriction was found for the %s bound on %s",
                              lower ? "start" : "end", col->name);
    }
    if (lower) {
        cr->lo_set = true, cr->lo_incl = incl, cr->lo = v;
    } else {
        cr->hi_set = true, cr->hi_incl = incl, cr->hi = v;
    }
    return BASE_OK;
}


/* Whether a secondary index on col answers the relation: EQ on a plain (or full(),
 * for a frozen collection) index, CONTAINS on values(), CONTAINS KEY on keys(),
 * m[k] = v on entries() (Cassandra's index targets). */
static bool index_serves(const cql_table_t *t, const cql_column_t *col, cql_rel_op_t op,
                         bool element)
{
    for (size_t i = 0; i < t->n_indexes; i++) {
        const cql_index_t *ix = &t->indexes[i];
        if (strcmp(ix->column, col->name) != 0) {
            continue;
        }
        const char *paren = strchr(ix->target, '(');
        size_t kl = paren ? (size_t)(paren - ix->target) : 0;
        bool multi = cql__type_is_collection(col->type) && !col->type->frozen;
        const char *kind = paren == NULL ? (multi ? "values" : "value") : NULL;
#define IS(k) (kind ? strcmp(kind, k) == 0 : kl == strlen(k) && strncmp(ix->target, k, kl) == 0)
        if (element                     ? IS("entries")
            : op == CQL_OP_CONTAINS     ? IS("values")
            : op == CQL_OP_CONTAINS_KEY ? IS("keys")
            : op == CQL_OP_EQ           ? IS("value") || IS("full")
                                        : false) {
            return true;
        }
#undef IS
    }
    return false;
}


static const char *op_text(cql_rel_op_t op)
{
    static const char *const text[] = {
        "=", "<", "<=", ">", ">=", "!=", "IN", "CONTAINS", "CONTAINS KEY", "LIKE", "IS NOT"};
    return (size_t)op < sizeof(text) / sizeof(text[0]) ? text[op] : "?";
}


static bool is_slice(cql_rel_op_t op)
{
    return op == CQL_OP_LT || op == CQL_OP_LTE || op == CQL_OP_GT || op == CQL_OP_GTE;
}


/* What a single-column relation may do to its column (SingleColumnRelation): a
 * non-frozen collection only takes CONTAINS (KEY), a non-frozen UDT nothing, and
 * nothing that holds a duration takes a slice. */
static int check_relation(cql_ctx_t *c, const cql_relation_t *r, const cql_column_t *col,
                          base_error_t *err)
{
    const wire_type_t *t = col->type;
    bool contains = r->op == CQL_OP_CONTAINS || r->op == CQL_OP_CONTAINS_KEY;
    /* the duration refusal comes first (SingleColumnRelation.newSliceRestriction) */
    if (is_slice(r->op) && cql__type_has_duration(t)) {
        return base_error_set(err, WIRE_ERR_INVALID, "Slice restrictions are not supported on %s",
                              cql__type_is_collection(t) ? "collections containing durations"
                              : t->id == WIRE_TYPE_TUPLE ? "tuples containing durations"
                              : t->id == WIRE_TYPE_UDT   ? "UDTs containing durations"
                                                         : "duration columns");
    }
    if (cql__type_is_collection(t) && !t->frozen && !contains && r->op != CQL_OP_IS_NOT_NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Collection column '%s' (%s) cannot be restricted by a '%s' "
                              "relation",
                              col->name, cql__type_name(t, c->a), op_text(r->op));
    }
    if (t->id == WIRE_TYPE_UDT && !t->frozen) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Non-frozen UDT column '%s' (%s) cannot be restricted by any "
                              "relation",
                              col->name, cql__type_name(t, c->a));
    }
    return BASE_OK;
}


/* A filtered value may be neither null nor unset (the row filter's messages). */
static int filter_value(const cql_column_t *col, wire_value_t v, bool indexed, base_error_t *err)
{
    if (v.len == WIRE_VALUE_UNSET || v.len == WIRE_VALUE_NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unsupported %s value for %scolumn %s",
                              v.len == WIRE_VALUE_UNSET ? "unset" : "null",
                              indexed ? "indexed " : "", col->name);
    }
    return BASE_OK;
}


static int add_filter(cql_ctx_t *c, cql_plan_t *p, const cql_relation_t *r, const cql_column_t *col,
                      bool indexed, base_error_t *err)
{
    cql_filter_t *f = &p->filters[p->n_filters];
    memset(f, 0, sizeof(*f));
    f->idx = (int)(col - p->t->cols);
    f->col = col;
    f->op = r->op;
    f->cmp_type = col->type;
    if (r->op == CQL_OP_NEQ) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unsupported \"!=\" relation: %s != ...",
                              col->name);
    }
    if (r->op == CQL_OP_LIKE) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "LIKE restriction is only supported on properly indexed columns. "
                              "%s LIKE ... is not valid.",
                              col->name);
    }
    if (r->op == CQL_OP_IS_NOT_NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unsupported restriction: %s IS NOT NULL",
                              col->name);
    }
    if (r->op == CQL_OP_CONTAINS || r->op == CQL_OP_CONTAINS_KEY) {
        if (!cql__type_is_collection(col->type)) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot use CONTAINS on non-collection column %s", col->name);
        }
        if (r->op == CQL_OP_CONTAINS_KEY && col->type->id != WIRE_TYPE_MAP) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Cannot use CONTAINS KEY on non-map column %s", col->name);
        }
        f->cmp_type = col->type->id == WIRE_TYPE_MAP && r->op == CQL_OP_CONTAINS
                          ? col->type->sub[1]
                          : col->type->sub[0];
    }
    if (r->op == CQL_OP_IN) {
        if (eval_in(c, r, col, &f->in, &f->n_in, err) != BASE_OK) {
            return BASE_ERROR;
        }
    } else if (cql__term_eval(r->rhs, f->cmp_type, col->name, &c->binds, c->a, &f->v, err) !=
                   BASE_OK ||
               (indexed && r->op == CQL_OP_EQ && filter_value(col, f->v, true, err) != BASE_OK)) {
        return BASE_ERROR;
    } else if (indexed && r->op == CQL_OP_EQ && f->v.len > 65535 && p->bad_value == NULL) {
        p->bad_value = "Index expression values may not be larger than 64K";
    } else if (f->v.len < 0 && p->bad_value == NULL) {
        /* RowFilter takes no null or unset value (c = null, c CONTAINS ?), refused once the
         * statement itself passed, as Cassandra checks values at execution */
        p->bad_value =
            base_arena_sprintf(c->a, "Unsupported %s value for column %s",
                               f->v.len == WIRE_VALUE_UNSET ? "unset" : "null", col->name);
    }
    p->n_filters++;
    return BASE_OK;
}


/* m['k'] = v: a filter on one entry of a map column (an index on entries(m) serves it). */
static int element_filter(cql_ctx_t *c, cql_plan_t *p, const cql_relation_t *r, base_error_t *err)
{
    const cql_column_t *col = cql__column_find(p->t, r->columns[0]);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", r->columns[0]);
    }
    if (col->type->id != WIRE_TYPE_MAP || r->op != CQL_OP_EQ) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Map-entry equality predicates on %s are only supported on maps",
                              col->name);
    }
    if (col->type->frozen) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Map-entry equality predicates on frozen map column %s are not "
                              "supported",
                              col->name);
    }
    cql_filter_t *f = &p->filters[p->n_filters];
    memset(f, 0, sizeof(*f));
    f->idx = (int)(col - p->t->cols);
    f->col = col;
    f->op = CQL_OP_EQ;
    f->cmp_type = col->type->sub[1];
    f->has_key = true;
    if (!cql__multi_cell(col)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Map-entry equality predicates on frozen map column %s are not "
                              "supported",
                              col->name);
    }
    if (cql__term_eval(r->element, col->type->sub[0], col->name, &c->binds, c->a, &f->key, err) !=
            BASE_OK ||
        cql__term_eval(r->rhs, col->type->sub[1], col->name, &c->binds, c->a, &f->v, err) !=
            BASE_OK) {
        return BASE_ERROR;
    }
    wire_value_t bad = f->key.len < 0 ? f->key : f->v;
    if (bad.len < 0 && p->bad_value == NULL) { /* refused after the checks, as add_filter */
        p->bad_value = base_arena_sprintf(c->a, "Unsupported %s map %s for column %s",
                                          bad.len == WIRE_VALUE_UNSET ? "unset" : "null",
                                          f->key.len < 0 ? "key" : "value", col->name);
    }
    p->n_filters++;
    return BASE_OK;
}


/* Cartesian product of EQ/IN values over the first n columns. */
static size_t combo_count(colr_t *cr, size_t n)
{
    size_t total = 1;
    for (size_t i = 0; i < n; i++) {
        total *= cr[i].n_eq;
        if (total > MAX_KEYS) {
            return MAX_KEYS + 1;
        }
    }
    return total;
}


static void combo_values(colr_t *cr, size_t n, size_t k, wire_value_t *out)
{
    for (size_t i = n; i-- > 0;) {
        out[i] = cr[i].eq[k % cr[i].n_eq];
        k /= cr[i].n_eq;
    }
}


static void key_filters(cql_plan_t *p, const cql_column_t *col, const colr_t *cr)
{
    cql_filter_t base = {.idx = (int)(col - p->t->cols), .col = col, .cmp_type = col->type};
    if (cr->has_eq) {
        cql_filter_t *f = &p->filters[p->n_filters++];
        *f = base;
        f->op = CQL_OP_IN;
        f->in = cr->eq;
        f->n_in = cr->n_eq;
        return;
    }
    if (cr->lo_set) {
        cql_filter_t *f = &p->filters[p->n_filters++];
        *f = base;
        f->op = cr->lo_incl ? CQL_OP_GTE : CQL_OP_GT;
        f->v = cr->lo;
    }
    if (cr->hi_set) {
        cql_filter_t *f = &p->filters[p->n_filters++];
        *f = base;
        f->op = cr->hi_incl ? CQL_OP_LTE : CQL_OP_LT;
        f->v = cr->hi;
    }
}


/* Cassandra's refusal of a read that would filter without ALLOW FILTERING. */
static int refuse_filtering(base_error_t *err)
{
    return base_error_set(err, WIRE_ERR_INVALID,
                          "Cannot execute this query as it might involve data filtering and "
                          "thus may have unpredictable performance. If you want to execute "
                          "this query despite the performance unpredictability, use ALLOW "
                          "FILTERING");
}


/* The partition key: EQ/IN on every part names keys; anything less (a part left out,
 * a slice) scans and filters, which needs ALLOW FILTERING or a usable index
 * (PartitionKeySingleRestrictionSet.needFiltering). *filtering says it did. */
static int plan_partition(cql_ctx_t *c, const cql_table_t *t, colr_t *pkr, bool may_filter,
                          bool *filtering, size_t *n_restricted, cql_plan_t *p, base_error_t *err)
{
    size_t n_eq = 0, n_set = 0;
    for (size_t i = 0; i < t->n_pk; i++) {
        n_eq += pkr[i].has_eq;
        n_set += pkr[i].has_eq || pkr[i].lo_set || pkr[i].hi_set;
    }
    *n_restricted = n_set;
    *filtering = false;
    if (n_set == 0) {
        p->scan = true;
        return BASE_OK;
    }
    const colr_t *bad = NULL;
    for (size_t i = 0; i < t->n_pk && bad == NULL; i++) {
        bad = pkr[i].bad_len != 0 ? &pkr[i] : NULL;
    }
    const char *bad_name = bad != NULL ? t->pk[bad - pkr]->name : NULL;
    if (n_eq < t->n_pk) {
        if (!may_filter) {
            return refuse_filtering(err);
        }
        if (bad != NULL && p->bad_value == NULL) {
            p->bad_value =
                base_arena_sprintf(c->a, "Unsupported %s value for column %s",
                                   bad->bad_len == WIRE_VALUE_UNSET ? "unset" : "null", bad_name);
        }
        *filtering = true;
        p->scan = true;
        for (size_t i = 0; i < t->n_pk; i++) {
            key_filters(p, t->pk[i], &pkr[i]);
        }
        return BASE_OK;
    }
    if (bad != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              bad->bad_len == WIRE_VALUE_UNSET
                                  ? "Invalid unset value for column %s"
                                  : "Invalid null value in condition for column %s",
                              bad_name);
    }
    for (size_t k = 0; t->n_pk == 1 && k < pkr[0].n_eq; k++) {
        if (pkr[0].eq[k].len == 0) { /* a single-part key cannot be empty (validateKey) */
            return base_error_set(err, WIRE_ERR_INVALID, "Key may not be empty");
        }
    }
    size_t n = combo_count(pkr, t->n_pk);
    if (n > MAX_KEYS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Select query cannot be completed because it selects more than %d "
                              "partitions keys",
                              MAX_KEYS);
    }
    p->n_keys = n;
    p->keys = base_arena_alloc(c->a, (n + 1) * sizeof(*p->keys));
    p->tokens = base_arena_alloc(c->a, (n + 1) * sizeof(*p->tokens));
    wire_value_t *parts = base_arena_alloc(c->a, t->n_pk * sizeof(*parts));
    for (size_t k = 0; k < n; k++) {
        combo_values(pkr, t->n_pk, k, parts);
        p->keys[k] = cql__pk_compose(parts, t->n_pk, c->a);
        p->tokens[k] = storage_token(p->keys[k].ptr, (size_t)p->keys[k].len);
    }
    return BASE_OK;
}


/* A position between clustering keys: at key k, just before (-1) or just after (+1) every
 * key that k prefixes. A start bound sits at -1 when inclusive, an end bound at +1. */
static int position_cmp(const storage_bound_t *a, int sa, const storage_bound_t *b, int sb)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int cmp = n > 0 ? memcmp(a->key, b->key, n) : 0;
    if (cmp != 0) {
        return cmp;
    }
    if (a->len == b->len) {
        return (sa > sb) - (sa < sb);
    }
    return a->len < b->len ? sa : -sb; /* the shorter key's position is past its extensions */
}


static storage_bound_t bound_of(cql_ctx_t *c, const base_buf_t *prefix, const cql_column_t *col,
                                const wire_value_t *v, bool incl)
{
    base_buf_t b;
    base_buf_init(&b);
    base_buf_put(&b, prefix->data, prefix->len);
    if (v != NULL) {
        cql__keyenc_append(&b, col->type, *v, col->desc);
    }
    storage_bound_t out = {base_arena_memdup(c->a, b.data, b.len), b.len, v == NULL || incl};
    base_buf_fini(&b);
    return out;
}


/* ALLOW FILTERING: the restrictions of clustering column i, past the prefix the
 * slices use, become filters (IN for equalities; a range is two filters). */
static void ck_filter(const cql_table_t *t, size_t i, const colr_t *r, cql_plan_t *p)
{
    cql_filter_t *f = &p->filters[p->n_filters++];
    memset(f, 0, sizeof(*f));
    f->idx = (int)(t->ck[i] - t->cols);
    f->col = t->ck[i];
    f->cmp_type = t->ck[i]->type;
    if (r->has_eq) {
        f->op = CQL_OP_IN;
        f->in = r->eq;
        f->n_in = r->n_eq;
        return;
    }
    if (r->lo_set) {
        f->op = r->lo_incl ? CQL_OP_GTE : CQL_OP_GT;
        f->v = r->lo;
    }
    if (r->hi_set) {
        if (r->lo_set) {
            f = &p->filters[p->n_filters++];
            *f = p->filters[p->n_filters - 2];
        }
        f->op = r->hi_incl ? CQL_OP_LTE : CQL_OP_LT;
        f->v = r->hi;
    }
}


/* Clustering restrictions: an EQ/IN prefix and at most one slice become slices of the
 * partitions read; restrictions past them are filters, which need ALLOW FILTERING or a
 * usable index (*filtering says so). *n_restricted counts the restricted columns. */
static int plan_clustering(cql_ctx_t *c, const cql_table_t *t, colr_t *ckr, bool may_filter,
                           bool *filtering, size_t *n_restricted, cql_plan_t *p, base_error_t *err)
{
    p->point = t->n_ck == 0; /* the partition key alone names the row */
    *filtering = false;
    *n_restricted = 0;
    for (size_t i = 0; i < t->n_ck; i++) {
        *n_restricted += ckr[i].has_eq || ckr[i].lo_set || ckr[i].hi_set;
    }
    size_t n_eq = 0;
    while (n_eq < t->n_ck && ckr[n_eq].has_eq) {
        n_eq++;
    }
    bool slice = n_eq < t->n_ck && (ckr[n_eq].lo_set || ckr[n_eq].hi_set);
    size_t used = n_eq + (slice ? 1 : 0);
    for (size_t i = used; i < t->n_ck; i++) {
        if (!ckr[i].has_eq && !ckr[i].lo_set && !ckr[i].hi_set) {
            continue;
        }
        *filtering = true;
        if (!may_filter) {
            if (slice) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "Clustering column \"%s\" cannot be restricted (preceding "
                                      "column \"%s\" is restricted by a non-EQ relation)",
                                      t->ck[i]->name, t->ck[used - 1]->name);
            }
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "PRIMARY KEY column \"%s\" cannot be restricted as preceding "
                                  "column \"%s\" is not restricted",
                                  t->ck[i]->name, t->ck[i - 1]->name);
        }
        ck_filter(t, i, &ckr[i], p);
    }
    if (used == 0) {
        return BASE_OK;
    }
    p->ck_restricted = true;
    size_t n = combo_count(ckr, n_eq);
    if (n > MAX_KEYS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Clustering key cartesian product is too large");
    }
    p->n_slices = n;
    p->slices = base_arena_alloc(c->a, n * sizeof(*p->slices));
    p->point = n_eq == t->n_ck && n == 1;
    wire_value_t *vals = base_arena_alloc(c->a, (n_eq ? n_eq : 1) * sizeof(*vals));
    base_buf_t prefix;
    base_buf_init(&prefix);
    for (size_t k = 0; k < n; k++) {
        combo_values(ckr, n_eq, k, vals);
        base_buf_reset(&prefix);
        cql__ck_encode(&prefix, t, vals, n_eq);
        cql_slice_t *s = &p->slices[k];
        if (!slice) {
            s->start = bound_of(c, &prefix, NULL, NULL, true);
            s->end = s->start;
            continue;
        }
        const cql_column_t *col = t->ck[n_eq];
        const colr_t *r = &ckr[n_eq];
        storage_bound_t lo = bound_of(c, &prefix, col, r->lo_set ? &r->lo : NULL, r->lo_incl);
        storage_bound_t hi = bound_of(c, &prefix, col, r->hi_set ? &r->hi : NULL, r->hi_incl);
        /* a DESC column stores larger values first */
        s->start = col->desc ? hi : lo;
        s->end = col->desc ? lo : hi;
    }
    base_buf_fini(&prefix);
    return BASE_OK;
}


/* A term as the messages show it: literals and markers, tuples of them. */
static const char *term_shown(cql_ctx_t *c, const cql_term_t *t)
{
    if (t == NULL) {
        return "?";
    }
    if (t->kind == CQL_TERM_BIND) {
        return t->bind_name ? base_arena_sprintf(c->a, ":%s", t->bind_name) : "?";
    }
    if (t->kind == CQL_TERM_TUPLE) {
        const char *s = "";
        for (size_t i = 0; i < t->n_items; i++) {
            s = base_arena_sprintf(c->a, "%s%s%s", s, i ? ", " : "", term_shown(c, t->items[i]));
        }
        return base_arena_sprintf(c->a, "(%s)", s);
    }
    return t->text ? t->text : "?";
}


static const char *tuple_names(cql_ctx_t *c, const cql_relation_t *r, const char *sep)
{
    const char *s = "";
    for (size_t i = 0; i < r->n_columns; i++) {
        s = base_arena_sprintf(c->a, "%s%s%s", s, i ? sep : "", r->columns[i]);
    }
    return s;
}


/* A multi-column relation as Cassandra's messages quote it: (b, c) > (?, ?). */
static const char *relation_shown(cql_ctx_t *c, const cql_relation_t *r)
{
    const char *rhs;
    if (r->op == CQL_OP_IN && r->rhs == NULL) {
        rhs = "";
        for (size_t i = 0; i < r->n_in; i++) {
            rhs = base_arena_sprintf(c->a, "%s%s%s", rhs, i ? ", " : "",
                                     term_shown(c, r->in_values[i]));
        }
        rhs = base_arena_sprintf(c->a, "(%s)", rhs);
    } else {
        rhs = term_shown(c, r->rhs);
    }
    return base_arena_sprintf(c->a, "(%s) %s %s", tuple_names(c, r, ", "), op_text(r->op), rhs);
}


/* The clustering columns of a multi-column relation: consecutive clustering columns,
 * in the key's order, from *start. A slice needs them all in one direction. */
static int tuple_columns(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r,
                         const wire_type_t **types, size_t *start, base_error_t *err)
{
    *start = 0;
    if (r->op == CQL_OP_NEQ) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unsupported \"!=\" relation: (%s) != %s",
                              tuple_names(c, r, ", "), term_shown(c, r->rhs));
    }
    for (size_t i = 0; i < r->n_columns; i++) {
        const cql_column_t *col = cql__column_find(t, r->columns[i]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", r->columns[i]);
        }
        if (col->kind != CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Multi-column relations can only be applied to clustering "
                                  "columns but was applied to: %s",
                                  col->name);
        }
        if (i == 0) {
            *start = (size_t)col->position;
        } else if (col->position != (int)(*start + i)) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Clustering columns must appear in the PRIMARY KEY order in "
                                  "multi-column relations: %s",
                                  relation_shown(c, r));
        }
        types[i] = col->type;
    }
    const cql_term_t *const *vals =
        r->op == CQL_OP_IN ? (const cql_term_t *const *)r->in_values : &r->rhs;
    size_t n_vals = r->op == CQL_OP_IN ? r->n_in : 1;
    for (size_t k = 0; k < n_vals; k++) {
        if (vals[k] != NULL && vals[k]->kind == CQL_TERM_TUPLE &&
            vals[k]->n_items != r->n_columns) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Expected %zu elements in value tuple, but got %zu: %s",
                                  r->n_columns, vals[k]->n_items, term_shown(c, vals[k]));
        }
    }
    return BASE_OK;
}


/* Evaluates a tuple value of a multi-column relation and splits it into its parts. */
static int tuple_parts(cql_ctx_t *c, const cql_relation_t *r, const cql_term_t *term,
                       const wire_type_t *tt, wire_value_t *parts, base_error_t *err)
{
    wire_value_t v;
    if (cql__term_eval(term, tt, "tuple", &c->binds, c->a, &v, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (v.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for tuple (%s)",
                              tuple_names(c, r, ","));
    }
    if (v.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid null value in condition for multi-column relation");
    }
    wire_reader_t rd;
    wire_reader_init(&rd, v.ptr, (size_t)v.len);
    for (size_t i = 0; i < r->n_columns; i++) {
        parts[i] = wire_read_bytes(&rd);
        if (!wire_reader_ok(&rd) || parts[i].len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid null value in condition for column %s", r->columns[i]);
        }
    }
    return BASE_OK;
}


/* (c) IN ((x), (y)) and (c) > (x) are c IN (x, y) and c > x: single-column restrictions. */
static int tuple_single(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r, colr_t *ckr,
                        base_error_t *err)
{
    const wire_type_t *types[1];
    size_t pos;
    if (tuple_columns(c, t, r, types, &pos, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const wire_type_t *tt = cql__type_collection(c->a, WIRE_TYPE_TUPLE, true, types, 1);
    colr_t *cr = &ckr[pos];
    const char *name = t->ck[pos]->name;
    if (r->op == CQL_OP_IN) {
        if (cr->has_eq || cr->lo_set || cr->hi_set) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "%s cannot be restricted by more than one relation if it "
                                  "includes a IN",
                                  name);
        }
        cr->has_eq = cr->is_in = true;
        cr->n_eq = r->n_in;
        cr->eq = base_arena_alloc(c->a, (r->n_in + 1) * sizeof(*cr->eq));
        for (size_t i = 0; i < r->n_in; i++) {
            if (tuple_parts(c, r, r->in_values[i], tt, &cr->eq[i], err) != BASE_OK) {
                return BASE_ERROR;
            }
        }
        return BASE_OK;
    }
    bool lower = r->op == CQL_OP_GT || r->op == CQL_OP_GTE;
    if (cr->has_eq) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Column \"%s\" cannot be restricted by both an equality and an "
                              "inequality relation",
                              name);
    }
    if (lower ? cr->lo_set : cr->hi_set) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "More than one restriction was found for the %s bound on %s",
                              lower ? "start" : "end", name);
    }
    wire_value_t v;
    if (tuple_parts(c, r, r->rhs, tt, &v, err) != BASE_OK) {
        return BASE_ERROR;
    }
    bool incl = r->op == CQL_OP_GTE || r->op == CQL_OP_LTE;
    if (lower) {
        cr->lo_set = true, cr->lo_incl = incl, cr->lo = v;
    } else {
        cr->hi_set = true, cr->hi_incl = incl, cr->hi = v;
    }
    return BASE_OK;
}


/* (c, d) = (x, y) is c = x AND d = y: it joins the single-column restrictions. */
static int tuple_eq(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r, colr_t *ckr,
                    base_error_t *err)
{
    const wire_type_t **types = base_arena_alloc(c->a, r->n_columns * sizeof(*types));
    size_t start;
    if (tuple_columns(c, t, r, types, &start, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const wire_type_t *tt = cql__type_collection(c->a, WIRE_TYPE_TUPLE, true, types, r->n_columns);
    wire_value_t *parts = base_arena_alloc(c->a, r->n_columns * sizeof(*parts));
    if (tuple_parts(c, r, r->rhs, tt, parts, err) != BASE_OK) {
        return BASE_ERROR;
    }
    for (size_t i = 0; i < r->n_columns; i++) {
        colr_t *cr = &ckr[start + i];
        if (cr->has_eq || cr->lo_set || cr->hi_set) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "%s cannot be restricted by more than one relation if it "
                                  "includes an Equal",
                                  t->ck[start + i]->name);
        }
        cr->has_eq = true;
        cr->n_eq = 1;
        cr->eq = base_arena_memdup(c->a, &parts[i], sizeof(parts[i]));
    }
    return BASE_OK;
}


/* The shape of the tuple relations of one query (plan_tuples). */
typedef struct tuples_s {
    size_t start, width;            /* first clustering column, widest tuple */
    const cql_relation_t *in;       /* a tuple IN, or */
    const cql_relation_t *bound[2]; /* the lower and upper tuple bounds */
    size_t n_suffix_cols, n_suffix; /* EQ/IN columns after a tuple IN, their product */
    colr_t *suffix;
    const colr_t *slice;       /* a slice on the column after those: (b, c) IN (..) AND d > ? */
    size_t n_filtered;         /* restricted columns past them, filtered */
    const wire_type_t **types; /* of columns start.. start + width */
    wire_value_t *in_vals;     /* IN ?: the bound list's tuples */
    size_t n_vals;             /* tuples named by the IN (1 for slices) */
} tuples_t;


/* Sorts the tuple relations into an IN or two bounds over the same columns. */
static int tuple_relations(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *const *rels,
                           size_t n_rels, tuples_t *tu, base_error_t *err)
{
    for (size_t k = 0; k < n_rels; k++) {
        const cql_relation_t *r = rels[k];
        const wire_type_t **types = base_arena_alloc(c->a, r->n_columns * sizeof(*types));
        size_t s0;
        if (tuple_columns(c, t, r, types, &s0, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (k > 0 && s0 != tu->start) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Mixing single column relations and multi column relations on "
                                  "clustering columns is not allowed");
        }
        tu->start = s0;
        tu->width = r->n_columns > tu->width ? r->n_columns : tu->width;
        if (r->op == CQL_OP_IN) {
            tu->in = r;
            continue;
        }
        bool lower = r->op == CQL_OP_GT || r->op == CQL_OP_GTE;
        if (tu->bound[lower ? 0 : 1] != NULL) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "More than one restriction was found for the %s bound on %s",
                                  lower ? "start" : "end", tuple_names(c, r, ", "));
        }
        if (r->op != CQL_OP_GT && r->op != CQL_OP_GTE && r->op != CQL_OP_LT &&
            r->op != CQL_OP_LTE) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Unsupported operator in a multi-column relation");
        }
        tu->bound[lower ? 0 : 1] = r;
    }
    if (tu->in != NULL && n_rels > 1) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "An equality or IN multi-column relation cannot be combined with "
                              "another on the clustering columns");
    }
    return BASE_OK;
}


/* The single-column restrictions around the tuples: an EQ/IN prefix before them and,
 * after a tuple IN, EQ/IN columns then maybe a slice: (b, c) IN (...) AND d = ?. Other
 * restrictions after the tuples are filters with ALLOW FILTERING (or an index). */
static int tuple_neighbours(const cql_table_t *t, colr_t *ckr, tuples_t *tu, bool may_filter,
                            bool *filtering, cql_plan_t *p, base_error_t *err)
{
    size_t start = tu->start, end = tu->start + tu->width;
    while (tu->in != NULL && end + tu->n_suffix_cols < t->n_ck &&
           ckr[end + tu->n_suffix_cols].has_eq) {
        tu->n_suffix_cols++;
    }
    size_t after = end + tu->n_suffix_cols;
    if (tu->in != NULL && after < t->n_ck && (ckr[after].lo_set || ckr[after].hi_set)) {
        tu->slice = &ckr[after++];
    }
    *filtering = false;
    for (size_t i = 0; i < t->n_ck; i++) {
        bool set = ckr[i].has_eq || ckr[i].lo_set || ckr[i].hi_set;
        if (i < start && !ckr[i].has_eq) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  set ? "Clustering column \"%s\" cannot be restricted (preceding "
                                        "column \"%s\" is restricted by a non-EQ relation)"
                                      : "PRIMARY KEY column \"%s\" cannot be restricted as "
                                        "preceding column \"%s\" is not restricted",
                                  t->ck[start]->name, t->ck[i]->name);
        }
        if (i < after || !set) {
            continue;
        }
        if (!may_filter) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Mixing single column relations and multi column relations on "
                                  "clustering columns is not allowed");
        }
        *filtering = true;
        tu->n_filtered++;
        ck_filter(t, i, &ckr[i], p);
    }
    tu->suffix = &ckr[end];
    tu->n_suffix = combo_count(tu->suffix, tu->n_suffix_cols);
    return BASE_OK;
}


/* (b, c) IN ?: the bound list of tuples. */
static int tuple_in_list(cql_ctx_t *c, tuples_t *tu, base_error_t *err)
{
    const wire_type_t *tt = cql__type_collection(c->a, WIRE_TYPE_TUPLE, true, tu->types, tu->width);
    const wire_type_t *lt = cql__type_collection(c->a, WIRE_TYPE_LIST, true, &tt, 1);
    wire_value_t list;
    if (cql__term_eval(tu->in->rhs, lt, "tuple", &c->binds, c->a, &list, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (list.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for in(%s)",
                              tuple_names(c, tu->in, ","));
    }
    ssize_t m = list.len < 0 ? -1 : cql__collection_split(lt, list, c->a, &tu->in_vals, NULL);
    if (m < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid list value for IN");
    }
    tu->n_vals = (size_t)m;
    return BASE_OK;
}


/* One bound of slice kv of a prefix whose values are in vals[0..start): the prefix, the
 * side's tuple (the IN's v-th), then the suffix values of combination kv. */
static int tuple_bound(cql_ctx_t *c, const cql_table_t *t, const tuples_t *tu, int side, size_t kv,
                       wire_value_t *vals, base_buf_t *b, storage_bound_t *out, base_error_t *err)
{
    const cql_relation_t *r = tu->in != NULL ? tu->in : tu->bound[side];
    size_t n = tu->start, v = kv / tu->n_suffix;
    bool incl = true;
    if (r != NULL) {
        const wire_type_t *tt =
            cql__type_collection(c->a, WIRE_TYPE_TUPLE, true, tu->types, r->n_columns);
        if (tu->in_vals != NULL) {
            wire_reader_t rd;
            wire_value_t iv = tu->in_vals[v];
            wire_reader_init(&rd, iv.ptr, iv.len > 0 ? (size_t)iv.len : 0);
            for (size_t i = 0; i < r->n_columns; i++) {
                vals[n + i] = wire_read_bytes(&rd);
            }
            if (!wire_reader_ok(&rd)) {
                return base_error_set(err, WIRE_ERR_INVALID, "Invalid tuple value");
            }
        } else if (tuple_parts(c, r, tu->in != NULL ? r->in_values[v] : r->rhs, tt, vals + n,
                               err) != BASE_OK) {
            return BASE_ERROR;
        }
        n += r->n_columns;
        incl = r->op == CQL_OP_IN || r->op == CQL_OP_GTE || r->op == CQL_OP_LTE;
        if (tu->in != NULL && tu->n_suffix_cols > 0) {
            combo_values(tu->suffix, tu->n_suffix_cols, kv % tu->n_suffix, vals + n);
            n += tu->n_suffix_cols;
        }
        const colr_t *sr = tu->in != NULL ? tu->slice : NULL;
        bool use_lo = (side == 0) != (sr != NULL && t->ck[n]->desc); /* DESC: larger first */
        if (sr != NULL && (use_lo ? sr->lo_set : sr->hi_set)) {
            vals[n++] = use_lo ? sr->lo : sr->hi;
            incl = use_lo ? sr->lo_incl : sr->hi_incl;
        }
    }
    base_buf_reset(b);
    cql__ck_encode(b, t, vals, n);
    *out = (storage_bound_t){base_arena_memdup(c->a, b->data, b->len), b->len, incl};
    return BASE_OK;
}


static storage_bound_t encoded(cql_ctx_t *c, const cql_table_t *t, const wire_value_t *vals,
                               size_t n, bool incl, base_buf_t *b)
{
    base_buf_reset(b);
    cql__ck_encode(b, t, vals, n);
    return (storage_bound_t){base_arena_memdup(c->a, b->data, b->len), b->len, incl};
}


/* One side of a tuple slice over clustering columns of mixed order, (c1..cm) > (v1..vm), as
 * the disjoint storage slices of its lexicographic terms: c1 = v1 .. c(i-1) = v(i-1) AND
 * ci > vi (the last one >= for an inclusive bound), each after or before vi by ci's order.
 * vals holds the prefix before the tuple; out gets m slices. */
static void mixed_terms(cql_ctx_t *c, const cql_table_t *t, size_t start, wire_value_t *vals,
                        const wire_value_t *v, size_t m, cql_rel_op_t op, base_buf_t *b,
                        cql_slice_t *out)
{
    bool lower = op == CQL_OP_GT || op == CQL_OP_GTE;
    for (size_t i = 0; i < m; i++) {
        bool incl = i + 1 == m && (op == CQL_OP_GTE || op == CQL_OP_LTE);
        bool after = lower != t->ck[start + i]->desc; /* the term's rows follow vi in storage */
        storage_bound_t q = encoded(c, t, vals, start + i, true, b);
        vals[start + i] = v[i];
        storage_bound_t qv = encoded(c, t, vals, start + i + 1, incl, b);
        out[i] = after ? (cql_slice_t){qv, q} : (cql_slice_t){q, qv};
    }
}


/* Tuple slices over clustering columns of mixed order (b DESC, c ASC): each prefix gets
 * the intersections of the lower bound's terms with the upper bound's (Cassandra 4.0's
 * result; 3.x before CASSANDRA-7281 read one slice in the first column's order). */
static int mixed_slices(cql_ctx_t *c, const cql_table_t *t, const tuples_t *tu, colr_t *ckr,
                        size_t n_prefix, cql_plan_t *p, base_error_t *err)
{
    wire_value_t *parts[2] = {NULL, NULL};
    size_t m[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        const cql_relation_t *r = tu->bound[side];
        if (r == NULL) {
            continue;
        }
        const wire_type_t *tt =
            cql__type_collection(c->a, WIRE_TYPE_TUPLE, true, tu->types, r->n_columns);
        parts[side] = base_arena_alloc(c->a, r->n_columns * sizeof(*parts[side]));
        m[side] = r->n_columns;
        if (tuple_parts(c, r, r->rhs, tt, parts[side], err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    size_t per = (m[0] ? m[0] : 1) * (m[1] ? m[1] : 1);
    p->slices = base_arena_alloc(c->a, (n_prefix * per + 1) * sizeof(*p->slices));
    p->n_slices = 0;
    wire_value_t *vals = base_arena_calloc(c->a, t->n_ck + 1, sizeof(*vals));
    cql_slice_t *terms[2];
    terms[0] = base_arena_alloc(c->a, (m[0] + 1) * sizeof(cql_slice_t));
    terms[1] = base_arena_alloc(c->a, (m[1] + 1) * sizeof(cql_slice_t));
    base_buf_t b;
    base_buf_init(&b);
    for (size_t k = 0; k < n_prefix; k++) {
        size_t n[2];
        for (int side = 0; side < 2; side++) {
            combo_values(ckr, tu->start, k, vals);
            if (parts[side] != NULL) {
                mixed_terms(c, t, tu->start, vals, parts[side], m[side], tu->bound[side]->op, &b,
                            terms[side]);
                n[side] = m[side];
            } else { /* unbounded on this side: the whole prefix */
                storage_bound_t whole = encoded(c, t, vals, tu->start, true, &b);
                terms[side][0] = (cql_slice_t){whole, whole};
                n[side] = 1;
            }
        }
        for (size_t i = 0; i < n[0]; i++) {
            for (size_t j = 0; j < n[1]; j++) {
                const cql_slice_t *x = &terms[0][i], *y = &terms[1][j];
                int xs = x->start.inclusive ? -1 : 1, ys = y->start.inclusive ? -1 : 1;
                int xe = x->end.inclusive ? 1 : -1, ye = y->end.inclusive ? 1 : -1;
                bool x_start = position_cmp(&x->start, xs, &y->start, ys) >= 0;
                bool x_end = position_cmp(&x->end, xe, &y->end, ye) <= 0;
                cql_slice_t sl = {x_start ? x->start : y->start, x_end ? x->end : y->end};
                if (position_cmp(&sl.start, x_start ? xs : ys, &sl.end, x_end ? xe : ye) < 0) {
                    p->slices[p->n_slices++] = sl;
                }
            }
        }
    }
    base_buf_fini(&b);
    return BASE_OK;
}


/* Multi-column IN and slices: after an EQ/IN prefix of single-column restrictions, one
 * IN or up to two bounds over the same columns; each prefix value gets the tuple's
 * slices. */
static int plan_tuples(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *const *rels,
                       size_t n_rels, colr_t *ckr, bool may_filter, bool *filtering,
                       size_t *n_restricted, cql_plan_t *p, base_error_t *err)
{
    tuples_t tu = {0};
    if (tuple_relations(c, t, rels, n_rels, &tu, err) != BASE_OK ||
        tuple_neighbours(t, ckr, &tu, may_filter, filtering, p, err) != BASE_OK) {
        return BASE_ERROR;
    }
    *n_restricted = tu.start + tu.width + tu.n_suffix_cols + (tu.slice != NULL) + tu.n_filtered;
    p->ck_restricted = true;
    tu.types = base_arena_alloc(c->a, tu.width * sizeof(*tu.types));
    for (size_t i = 0; i < tu.width; i++) {
        tu.types[i] = t->ck[tu.start + i]->type;
    }
    tu.n_vals = tu.in != NULL ? tu.in->n_in : 1;
    if (tu.in != NULL && tu.in->rhs != NULL && tuple_in_list(c, &tu, err) != BASE_OK) {
        return BASE_ERROR;
    }
    size_t n_prefix = combo_count(ckr, tu.start), n_per_prefix = tu.n_vals * tu.n_suffix;
    if (n_prefix > MAX_KEYS || tu.n_suffix > MAX_KEYS || tu.n_vals > MAX_KEYS ||
        n_prefix * n_per_prefix > MAX_KEYS) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Clustering key cartesian product is too large");
    }
    bool mixed = false;
    for (size_t i = 1; tu.in == NULL && i < tu.width; i++) {
        mixed |= t->ck[tu.start + i]->desc != t->ck[tu.start]->desc;
    }
    if (mixed) {
        p->point = false;
        return mixed_slices(c, t, &tu, ckr, n_prefix, p, err);
    }
    p->n_slices = n_prefix * n_per_prefix;
    p->slices = base_arena_alloc(c->a, (p->n_slices + 1) * sizeof(*p->slices));
    wire_value_t *vals = base_arena_calloc(c->a, t->n_ck + 1, sizeof(*vals));
    bool desc = t->ck[tu.start]->desc && tu.in == NULL; /* larger tuples stored first */
    base_buf_t b;
    base_buf_init(&b);
    int rc = BASE_OK;
    for (size_t k = 0; k < n_prefix && rc == BASE_OK; k++) {
        combo_values(ckr, tu.start, k, vals);
        for (size_t kv = 0; kv < n_per_prefix && rc == BASE_OK; kv++) {
            cql_slice_t *sl = &p->slices[k * n_per_prefix + kv];
            rc = tuple_bound(c, t, &tu, desc ? 1 : 0, kv, vals, &b, &sl->start, err);
            if (rc == BASE_OK) {
                rc = tuple_bound(c, t, &tu, desc ? 0 : 1, kv, vals, &b, &sl->end, err);
            }
        }
    }
    base_buf_fini(&b);
    p->point = tu.in != NULL && tu.slice == NULL && *n_restricted == t->n_ck && p->n_slices == 1;
    return rc;
}


static const char *pk_names(cql_ctx_t *c, const cql_table_t *t)
{
    const char *s = t->pk[0]->name;
    for (size_t i = 1; i < t->n_pk; i++) {
        s = base_arena_sprintf(c->a, "%s, %s", s, t->pk[i]->name);
    }
    return s;
}


int cql__token_relation_check(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r,
                              base_error_t *err)
{
    for (size_t i = 0; i < r->n_columns; i++) {
        const cql_column_t *col = cql__column_find(t, r->columns[i]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", r->columns[i]);
        }
        if (col->kind != CQL_COL_PARTITION) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "The token() function must contains only partition key "
                                  "components");
        }
    }
    if (r->n_columns != t->n_pk) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "The token() function must be applied to all partition key "
                              "components or none of them");
    }
    for (size_t i = 0; i < t->n_pk; i++) {
        if (strcmp(r->columns[i], t->pk[i]->name) != 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "The token function arguments must be in the partition key "
                                  "order: %s",
                                  pk_names(c, t));
        }
    }
    return BASE_OK;
}


/* The right side of a token relation: token(v1, ..., vn) over the partition key
 * types, or a bigint. */
static int token_value(cql_ctx_t *c, const cql_table_t *t, const cql_term_t *rhs, int64_t *out,
                       base_error_t *err)
{
    bool fn = rhs->kind == CQL_TERM_FUNCTION && strcmp(rhs->text, "token") == 0 &&
              (rhs->keyspace == NULL || strcmp(rhs->keyspace, "system") == 0);
    if (!fn) {
        wire_value_t v;
        if (eval_set_value(c, rhs, cql__native_bigint(), "partition key token", &v, err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
        if (v.len != 8) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for token");
        }
        *out = (int64_t)base_load_u64(v.ptr);
        return BASE_OK;
    }
    if (rhs->n_items != t->n_pk) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid number of arguments in call to function system.token: %zu "
                              "required but %zu provided",
                              t->n_pk, rhs->n_items);
    }
    wire_value_t *parts = base_arena_alloc(c->a, t->n_pk * sizeof(*parts));
    for (size_t i = 0; i < t->n_pk; i++) {
        const cql_column_t *col = t->pk[i];
        if (cql__term_eval(rhs->items[i], col->type, col->name, &c->binds, c->a, &parts[i], err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
        if (parts[i].len == WIRE_VALUE_UNSET) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid unset value for argument in call to function token");
        }
        if (parts[i].len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid null value for partition key part %s", col->name);
        }
    }
    wire_value_t key = cql__pk_compose(parts, t->n_pk, c->a);
    *out = storage_token(key.ptr, (size_t)key.len);
    return BASE_OK;
}


/* One token() relation merged into the plan's token range, with the messages of
 * Cassandra's TokenRestriction merges. */
static int plan_token(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r, bool *tok_eq,
                      cql_plan_t *p, base_error_t *err)
{
    if (cql__token_relation_check(c, t, r, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const char *names = pk_names(c, t);
    if (*tok_eq) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "%s cannot be restricted by more than one relation if it includes "
                              "an Equal",
                              names);
    }
    int64_t tok;
    switch (r->op) {
    case CQL_OP_EQ:
        if (p->tok_lo_set || p->tok_hi_set) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Columns \"%s\" cannot be restricted by both an equality and an "
                                  "inequality relation",
                                  names);
        }
        if (token_value(c, t, r->rhs, &tok, err) != BASE_OK) {
            return BASE_ERROR;
        }
        *tok_eq = true;
        p->tok_lo_set = p->tok_hi_set = p->tok_lo_incl = p->tok_hi_incl = true;
        p->tok_lo = p->tok_hi = tok;
        return BASE_OK;
    case CQL_OP_GT:
    case CQL_OP_GTE:
    case CQL_OP_LT:
    case CQL_OP_LTE: {
        bool lower = r->op == CQL_OP_GT || r->op == CQL_OP_GTE;
        if (lower ? p->tok_lo_set : p->tok_hi_set) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "More than one restriction was found for the %s bound on %s",
                                  lower ? "start" : "end", names);
        }
        if (token_value(c, t, r->rhs, &tok, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (lower) {
            p->tok_lo_set = true, p->tok_lo = tok, p->tok_lo_incl = r->op == CQL_OP_GTE;
        } else {
            p->tok_hi_set = true, p->tok_hi = tok, p->tok_hi_incl = r->op == CQL_OP_LTE;
        }
        return BASE_OK;
    }
    default:
        return base_error_set(err, WIRE_ERR_INVALID, "Unsupported operator on token()");
    }
}


/* Slices of one plan are disjoint, so their starts order them (an exclusive start at a
 * prefix follows the slices inside that prefix). */
static int slice_cmp(const void *x, const void *y)
{
    const storage_bound_t *a = &((const cql_slice_t *)x)->start;
    const storage_bound_t *b = &((const cql_slice_t *)y)->start;
    return position_cmp(a, a->inclusive ? -1 : 1, b, b->inclusive ? -1 : 1);
}


static bool same_bound(const storage_bound_t *a, const storage_bound_t *b)
{
    return a->len == b->len && a->inclusive == b->inclusive &&
           (a->len == 0 || memcmp(a->key, b->key, a->len) == 0);
}


static bool same_slice(const cql_slice_t *a, const cql_slice_t *b)
{
    return same_bound(&a->start, &b->start) && same_bound(&a->end, &b->end);
}


/* The WHERE clause sorted by what each relation restricts, with what Cassandra's
 * StatementRestrictions weighs: whether some restriction has an index to serve it, and
 * how many restrictions end up filtering rows. */
typedef struct where_s {
    colr_t *pkr, *ckr; /* per partition / clustering key column */
    const cql_relation_t *tuples[2];
    size_t n_tuples;
    bool tok_eq, on_token;
    bool has_qi, ck_qi, pk_slice, ck_contains;
    bool wide_slices; /* a one-column tuple slice bounds a wider one: (b, c) > .. AND (b) < .. */
    size_t n_regular, n_contains;
    bool allow_filtering;
    /* the clustering restriction on the last restricted column so far: where it starts,
     * where it ends (-1: none yet), whether it is a slice (ClusteringColumnRestrictions) */
    int ck_last_start, ck_last_end;
    bool ck_last_slice;
    char *ck_kind; /* per clustering column: 0 free, 's' single-column, 't' tuple relation */
} where_t;


/* A single-column relation and a tuple may not share a column (RestrictionSet's merge,
 * made before mergeWith's order checks). */
static int merge_kind(const cql_table_t *t, where_t *w, int start, int end, char kind,
                      base_error_t *err)
{
    for (int i = start; i <= end; i++) {
        if (w->ck_kind[i] != 0 && w->ck_kind[i] != kind) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Mixing single column relations and multi column relations on "
                                  "clustering columns is not allowed");
        }
    }
    (void)t;
    if (end >= start) {
        memset(w->ck_kind + start, kind, (size_t)(end - start) + 1);
    }
    return BASE_OK;
}


/* ClusteringColumnRestrictions.mergeWith without ALLOW FILTERING: nothing may follow a
 * slice, and a slice may not come before a restriction already made. Cassandra checks
 * this as it adds each relation, so it comes before the other refusals of the clause;
 * a restriction an index serves is exempt (3.11). */
static int merge_clustering(const cql_table_t *t, where_t *w, int start, int end, bool slice,
                            bool served, base_error_t *err)
{
    if (w->ck_last_end >= 0 && !w->allow_filtering && !served) {
        if (w->ck_last_slice && start > w->ck_last_start) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Clustering column \"%s\" cannot be restricted (preceding "
                                  "column \"%s\" is restricted by a non-EQ relation)",
                                  t->ck[start]->name, t->ck[w->ck_last_start]->name);
        }
        if (start < w->ck_last_start && slice) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "PRIMARY KEY column \"%s\" cannot be restricted (preceding "
                                  "column \"%s\" is restricted by a non-EQ relation)",
                                  t->ck[start + 1]->name, t->ck[start]->name);
        }
    }
    if (end > w->ck_last_end) {
        w->ck_last_start = start, w->ck_last_end = end, w->ck_last_slice = slice;
    }
    return BASE_OK;
}


/* A single-column relation: a key restriction when the operator can serve the key,
 * otherwise a filter. */
static int sort_column_relation(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r,
                                where_t *w, cql_plan_t *p, base_error_t *err)
{
    const cql_column_t *col = cql__column_find(t, r->columns[0]);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", r->columns[0]);
    }
    if (check_relation(c, r, col, err) != BASE_OK) {
        return BASE_ERROR;
    }
    bool key_op = r->op == CQL_OP_EQ || r->op == CQL_OP_IN || r->op == CQL_OP_LT ||
                  r->op == CQL_OP_LTE || r->op == CQL_OP_GT || r->op == CQL_OP_GTE;
    if (col->kind == CQL_COL_PARTITION && key_op) {
        w->pk_slice |= r->op != CQL_OP_EQ && r->op != CQL_OP_IN;
        w->has_qi |= index_serves(t, col, r->op, false);
        return restrict_key(c, r, col, &w->pkr[col->position], err);
    }
    bool served = index_serves(t, col, r->op, false);
    if (col->kind == CQL_COL_CLUSTERING &&
        (merge_kind(t, w, col->position, col->position, 's', err) != BASE_OK ||
         merge_clustering(t, w, col->position, col->position, is_slice(r->op), served, err) !=
             BASE_OK)) {
        return BASE_ERROR;
    }
    if (col->kind == CQL_COL_CLUSTERING && key_op) {
        w->ck_qi |= served;
        return restrict_key(c, r, col, &w->ckr[col->position], err);
    }
    w->ck_contains |= col->kind == CQL_COL_CLUSTERING;
    if (add_filter(c, p, r, col, served, err) != BASE_OK) {
        return BASE_ERROR;
    }
    w->has_qi |= served;
    w->n_regular++;
    w->n_contains += r->op == CQL_OP_CONTAINS || r->op == CQL_OP_CONTAINS_KEY;
    return BASE_OK;
}


/* A multi-column relation: an equality joins the per-column restrictions, so does a
 * one-column IN or slice (unless it bounds a wider tuple slice); the rest are tuples. */
static int sort_tuple_relation(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *r,
                               where_t *w, base_error_t *err)
{
    bool slice_op = is_slice(r->op);
    const cql_column_t *first = cql__column_find(t, r->columns[0]);
    bool consecutive = first != NULL && first->kind == CQL_COL_CLUSTERING &&
                       (size_t)first->position + r->n_columns <= t->n_ck;
    for (size_t i = 1; consecutive && i < r->n_columns; i++) {
        consecutive = strcmp(t->ck[first->position + i]->name, r->columns[i]) == 0;
    }
    /* two tuple slices must start on the same column (MultiColumnRestriction.Slice) */
    for (size_t k = 0; consecutive && slice_op && w->wide_slices && k < w->n_tuples; k++) {
        const cql_column_t *other = cql__column_find(t, w->tuples[k]->columns[0]);
        if (is_slice(w->tuples[k]->op) && other != NULL && other != first) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Column \"%s\" cannot be restricted by two tuple-notation "
                                  "inequalities not starting with the same column",
                                  other->position > first->position ? other->name : first->name);
        }
    }
    if (consecutive) { /* else tuple_columns names the fault */
        int end = first->position + (int)r->n_columns - 1;
        bool served = false;
        for (size_t i = 0; r->op == CQL_OP_EQ && i < r->n_columns; i++) {
            served |= index_serves(t, t->ck[first->position + i], CQL_OP_EQ, false);
        }
        w->ck_qi |= served;
        if (merge_kind(t, w, first->position, end, 't', err) != BASE_OK ||
            merge_clustering(t, w, first->position, end, slice_op, served, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    /* (c) IN ? stays a tuple IN: its list holds tuples */
    if (r->n_columns == 1 &&
        ((r->op == CQL_OP_IN && r->rhs == NULL) || (slice_op && !w->wide_slices))) {
        return tuple_single(c, t, r, w->ckr, err);
    }
    if (r->op == CQL_OP_EQ) {
        return tuple_eq(c, t, r, w->ckr, err);
    }
    if (w->n_tuples == 2) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "More than one restriction was found for the start or end bound on "
                              "the clustering columns");
    }
    w->tuples[w->n_tuples++] = r;
    return BASE_OK;
}


static int sort_relations(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where,
                          size_t n_where, where_t *w, cql_plan_t *p, base_error_t *err)
{
    for (size_t i = 0; i < n_where; i++) {
        w->wide_slices |= where[i].lhs == CQL_LHS_TUPLE && where[i].n_columns > 1 &&
                          where[i].op != CQL_OP_EQ && where[i].op != CQL_OP_IN;
    }
    for (size_t i = 0; i < n_where; i++) {
        const cql_relation_t *r = &where[i];
        if (r->lhs == CQL_LHS_TOKEN) {
            if (plan_token(c, t, r, &w->tok_eq, p, err) != BASE_OK) {
                return BASE_ERROR;
            }
            w->on_token = true;
        } else if (r->lhs == CQL_LHS_TUPLE) {
            if (sort_tuple_relation(c, t, r, w, err) != BASE_OK) {
                return BASE_ERROR;
            }
        } else if (r->lhs == CQL_LHS_ELEMENT) {
            if (element_filter(c, p, r, err) != BASE_OK) {
                return BASE_ERROR;
            }
            w->has_qi |= index_serves(t, p->filters[p->n_filters - 1].col, CQL_OP_EQ, true);
            w->n_regular++;
        } else if (sort_column_relation(c, t, r, w, p, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    w->has_qi |= w->ck_qi;
    return BASE_OK;
}


/* The clustering slices, from tuple relations or per-column restrictions (never both).
 * *empty_in says an IN () names no row. */
static int plan_slices(cql_ctx_t *c, const cql_table_t *t, const where_t *w, bool may_filter,
                       bool *filtering, size_t *n_restricted, bool *empty_in, cql_plan_t *p,
                       base_error_t *err)
{
    for (size_t i = 0; i < t->n_ck; i++) {
        *empty_in |= w->ckr[i].has_eq && w->ckr[i].n_eq == 0;
    }
    if (w->n_tuples == 0) {
        return plan_clustering(c, t, w->ckr, may_filter, filtering, n_restricted, p, err);
    }
    if (plan_tuples(c, t, w->tuples, w->n_tuples, w->ckr, may_filter, filtering, n_restricted, p,
                    err) != BASE_OK) {
        return BASE_ERROR;
    }
    *empty_in |= p->n_slices == 0;
    return BASE_OK;
}


/* The executor walks slices in storage order (and resumes a page by position), so
 * they are sorted by their encoded start: IN values of a DESC column come out reversed. */
static void sort_slices(cql_plan_t *p)
{
    if (p->n_slices <= 1) {
        return;
    }
    qsort(p->slices, p->n_slices, sizeof(*p->slices), slice_cmp);
    size_t n = 1; /* a value named twice (a tuple IN) is one slice, as Cassandra's set */
    for (size_t i = 1; i < p->n_slices; i++) {
        if (!same_slice(&p->slices[i], &p->slices[n - 1])) {
            p->slices[n++] = p->slices[i];
        }
    }
    p->n_slices = n;
}


/*
 * The commonest WHERE, a point read's and a single-partition write's: `pk = v` on each
 * partition key column once, and nothing else. The general planner's answer is known
 * for it (one partition, no slice, no filter, no index), so it is planned straight
 * from the values. *planned is false, and p as it came, when the clause is anything
 * else, or a value is one the general planner refuses (null, unset, empty, over 64 KB):
 * that planner then runs from the start, for its messages. Values are evaluated in the clause's
 * order, as the general planner does, so the first bad one fails the same way.
 */
static int plan_key_only(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where,
                         size_t n_where, cql_plan_t *p, bool *planned, base_error_t *err)
{
    enum { PARTS_MAX = 8 };
    const cql_column_t *cols[PARTS_MAX];
    wire_value_t parts[PARTS_MAX];
    unsigned seen = 0;
    *planned = false;
    if (n_where != t->n_pk || n_where > PARTS_MAX) {
        return BASE_OK;
    }
    for (size_t i = 0; i < n_where; i++) {
        const cql_relation_t *r = &where[i];
        if (r->lhs != CQL_LHS_COLUMN || r->op != CQL_OP_EQ) {
            return BASE_OK;
        }
        cols[i] = cql__column_find(t, r->columns[0]);
        if (cols[i] == NULL || cols[i]->kind != CQL_COL_PARTITION ||
            (seen & (1u << cols[i]->position)) != 0) {
            return BASE_OK;
        }
        seen |= 1u << cols[i]->position;
    }
    for (size_t i = 0; i < n_where; i++) {
        const cql_column_t *col = cols[i];
        wire_value_t *v = &parts[col->position];
        if (cql__term_eval(where[i].rhs, col->type, col->name, &c->binds, c->a, v, err) !=
            BASE_OK) {
            return BASE_ERROR;
        }
        if (v->len < 0 || v->len > 65535 || (t->n_pk == 1 && v->len == 0)) {
            return BASE_OK;
        }
    }
    p->point = t->n_ck == 0;
    p->n_keys = 1;
    p->keys = base_arena_alloc(c->a, sizeof(*p->keys));
    p->tokens = base_arena_alloc(c->a, sizeof(*p->tokens));
    p->keys[0] = cql__pk_compose(parts, t->n_pk, c->a);
    p->tokens[0] = storage_token(p->keys[0].ptr, (size_t)p->keys[0].len);
    *planned = true;
    return BASE_OK;
}


int cql__plan_where(cql_ctx_t *c, const cql_table_t *t, const cql_relation_t *where, size_t n_where,
                    bool allow_filtering, cql_plan_t *p, base_error_t *err)
{
    memset(p, 0, sizeof(*p));
    p->t = t;
    bool planned; /* p is untouched when not */
    if (plan_key_only(c, t, where, n_where, p, &planned, err) != BASE_OK || planned) {
        return planned ? BASE_OK : BASE_ERROR;
    }
    where_t w = {.allow_filtering = allow_filtering, .ck_last_start = -1, .ck_last_end = -1};
    w.pkr = base_arena_calloc(c->a, t->n_pk + 1, sizeof(*w.pkr));
    w.ckr = base_arena_calloc(c->a, t->n_ck + 1, sizeof(*w.ckr));
    w.ck_kind = base_arena_calloc(c->a, t->n_ck + 1, 1);
    p->filters =
        base_arena_alloc(c->a, (2 * n_where + 2 * t->n_pk + 2 * t->n_ck + 1) * sizeof(*p->filters));
    if (sort_relations(c, t, where, n_where, &w, p, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (w.ck_contains && !w.has_qi && !allow_filtering) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Clustering columns can only be restricted with CONTAINS with a "
                              "secondary index or filtering");
    }
    if (w.on_token && w.pk_slice) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Only EQ and IN relation are supported on the partition key "
                              "(unless you use the token() function)");
    }
    bool pk_filtering = false, ck_filtering = false, uses_index = false, empty_in = false;
    size_t n_pk_restricted = 0, n_ck_restricted = 0, n_expr = 0;
    bool may_filter = allow_filtering || w.has_qi;
    if (plan_partition(c, t, w.pkr, may_filter, &pk_filtering, &n_pk_restricted, p, err) !=
            BASE_OK ||
        plan_slices(c, t, &w, may_filter, &ck_filtering, &n_ck_restricted, &empty_in, p, err) !=
            BASE_OK) {
        return BASE_ERROR;
    }
    /* Cosmos DB filters a clustering column only with ALLOW FILTERING: an index on another
     * column does not serve it (secondary-indexing.md; there are no clustering indexes) */
    if (ck_filtering && !allow_filtering && !w.ck_qi && c->e->cfg.profile == CQL_PROFILE_COSMOS) {
        return refuse_filtering(err);
    }
    uses_index = ((n_pk_restricted == 0 && !w.on_token) || pk_filtering) && w.has_qi;
    n_expr += uses_index || pk_filtering ? n_pk_restricted : 0;
    uses_index |= (ck_filtering && w.has_qi) || (p->scan && w.ck_qi);
    n_expr += uses_index || ck_filtering ? n_ck_restricted : 0;
    if (w.n_regular > 0) {
        if (!w.has_qi && !allow_filtering) {
            return refuse_filtering(err);
        }
        uses_index |= w.has_qi;
        n_expr += w.n_regular;
    }
    p->uses_index = uses_index;
    sort_slices(p);
    /* Every key runs every slice: the product is what the statement reads or, for UPDATE
     * and DELETE, writes (Cassandra 4.1's in_select_cartesian_product guardrail). */
    if (!p->scan && p->n_keys > 0 && p->n_slices > MAX_KEYS / p->n_keys) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "The cartesian product of the IN relations on partition and "
                              "clustering columns names %zu rows, more than the limit of %d",
                              p->n_keys * p->n_slices, MAX_KEYS);
    }
    /* SelectStatement.checkNeedsFiltering: a range or index read that filters needs ALLOW
     * FILTERING (more than one filtering restriction, clustering restrictions alone over
     * the whole ring, or several CONTAINS). */
    bool needs_filtering =
        (p->scan || uses_index) &&
        (n_expr > 1 || (n_expr == 0 && p->ck_restricted) || (n_expr != 0 && w.n_contains > 1));
    if (needs_filtering && !allow_filtering) {
        return refuse_filtering(err);
    }
    if (p->bad_value != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "%s", p->bad_value);
    }
    if (empty_in) { /* IN () on a clustering column names no row: read no partition */
        p->scan = false;
        p->n_keys = 0;
    }
    return BASE_OK;
}


static bool value_matches(const cql_filter_t *f, wire_value_t v)
{
    if (f->op == CQL_OP_IN) {
        for (size_t i = 0; i < f->n_in; i++) {
            if (v.len >= 0 && cql__value_compare(f->cmp_type, v, f->in[i]) == 0) {
                return true;
            }
        }
        return false;
    }
    if (v.len < 0 || f->v.len < 0) {
        return false;
    }
    int cmp = cql__value_compare(f->cmp_type, v, f->v);
    switch (f->op) {
    case CQL_OP_EQ:
        return cmp == 0;
    case CQL_OP_LT:
        return cmp < 0;
    case CQL_OP_LTE:
        return cmp <= 0;
    case CQL_OP_GT:
        return cmp > 0;
    case CQL_OP_GTE:
        return cmp >= 0;
    default:
        return false;
    }
}


static wire_value_t map_entry(cql_ctx_t *c, const cql_filter_t *f, wire_value_t map)
{
    wire_value_t *keys, *vals;
    ssize_t n = map.len < 0 ? 0 : cql__collection_split(f->col->type, map, c->a, &keys, &vals);
    for (ssize_t i = 0; i < n; i++) {
        if (cql__value_compare(f->col->type->sub[0], keys[i], f->key) == 0) {
            return vals[i];
        }
    }
    return (wire_value_t){NULL, WIRE_VALUE_NULL};
}


bool cql__filter_match(cql_ctx_t *c, const cql_plan_t *plan, const cql_rec_t *r)
{
    for (size_t i = 0; i < plan->n_filters; i++) {
        const cql_filter_t *f = &plan->filters[i];
        wire_value_t v = r->vals[f->idx];
        if (f->has_key) {
            v = map_entry(c, f, v);
        }
        if (f->op != CQL_OP_CONTAINS && f->op != CQL_OP_CONTAINS_KEY) {
            if (!value_matches(f, v)) {
                return false;
            }
            continue;
        }
        if (v.len < 0) {
            return false;
        }
        wire_value_t *keys, *vals;
        ssize_t n = cql__collection_split(f->col->type, v, c->a, &keys,
                                          f->col->type->id == WIRE_TYPE_MAP ? &vals : NULL);
        bool found = false;
        cql_filter_t eq = *f;
        eq.op = CQL_OP_EQ;
        for (ssize_t k = 0; k < n && !found; k++) {
            wire_value_t e =
                f->op == CQL_OP_CONTAINS && f->col->type->id == WIRE_TYPE_MAP ? vals[k] : keys[k];
            found = value_matches(&eq, e);
        }
        if (!found) {
            return false;
        }
    }
    return true;
}
