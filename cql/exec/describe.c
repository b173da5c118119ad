/*
 * describe.c - the metadata of a prepared statement: which column (name and
 * type) each bind marker stands for, the partition-key bind indexes drivers
 * use for token-aware routing, and the result columns of a SELECT. Runs
 * once, at PREPARE; EXECUTE never looks at the text again.
 */
#include "cql/exec/exec.h"

typedef struct desc_s {
    cql_ctx_t *c;
    const cql_table_t *t;
    wire_col_spec_t *binds;
    size_t n_binds;
} desc_t;


/* Names bind marker idx (its column, its table) in the prepared metadata. */
static void name_bind(desc_t *d, int idx, const char *name, const wire_type_t *type)
{
    if (idx < 0 || (size_t)idx >= d->n_binds) {
        return;
    }
    d->binds[idx].keyspace = d->t ? d->t->ks->name : "";
    d->binds[idx].table = d->t ? d->t->name : "";
    d->binds[idx].name = name;
    d->binds[idx].type = type;
}


/* Walks a term whose value has the given type, naming the markers inside it. */
static void describe_term(desc_t *d, const cql_term_t *t, const char *name, const wire_type_t *type)
{
    if (t == NULL || type == NULL) {
        return;
    }
    switch (t->kind) {
    case CQL_TERM_BIND:
        name_bind(d, t->bind_index, t->bind_name ? t->bind_name : name, type);
        break;
    case CQL_TERM_LIST:
    case CQL_TERM_SET:
        for (size_t i = 0; i < t->n_items && type->n_sub >= 1; i++) {
            describe_term(d, t->items[i], name, type->sub[0]);
        }
        break;
    case CQL_TERM_MAP:
        for (size_t i = 0; i < t->n_items && type->n_sub >= 2; i++) {
            describe_term(d, t->items[i], name, type->sub[i % 2]);
        }
        break;
    case CQL_TERM_TUPLE:
        for (size_t i = 0; i < t->n_items && i < type->n_sub; i++) {
            describe_term(d, t->items[i], name, type->sub[i]);
        }
        break;
    case CQL_TERM_UDT:
        for (size_t i = 0; i < t->n_items; i++) {
            for (size_t k = 0; type->field_names && k < type->n_sub; k++) {
                if (strcmp(type->field_names[k], t->field_names[i]) == 0) {
                    describe_term(d, t->items[i], t->field_names[i], type->sub[k]);
                }
            }
        }
        break;
    case CQL_TERM_FUNCTION:
        for (size_t i = 0; i < t->n_items; i++) {
            const wire_type_t *at = cql__function_arg_type(t, i);
            describe_term(d, t->items[i], name, at != NULL ? at : cql__type_native("blob"));
        }
        break;
    default:
        break;
    }
}


static void selector_bind(void *ctx, int idx, const char *name, const wire_type_t *type)
{
    desc_t *d = ctx;
    name_bind(d, idx, base_arena_sprintf(d->c->a, "key(%s)", name ? name : ""), type);
}


/* The result columns of a SELECT, and the markers inside its selectors (m[?]). */
static int describe_select(desc_t *d, const cql_select_t *q, cql_prepared_t *p, base_error_t *err)
{
    cql_sel_t sel;
    if (cql__sel_compile(d->c, q, d->t, &sel, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql__sel_describe(&sel, selector_bind, d);
    p->cols = sel.specs;
    p->n_cols = sel.json ? 1 : sel.n;
    return BASE_OK;
}


static const cql_column_t *find_column(desc_t *d, const char *name, base_error_t *err)
{
    const cql_column_t *col = cql__column_find(d->t, name);
    if (col == NULL) {
        base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", name);
    }
    return col;
}


static const wire_type_t *frozen_list_of(desc_t *d, const wire_type_t *t)
{
    return cql__type_collection(d->c->a, WIRE_TYPE_LIST, true, &t, 1);
}


/* (a, b) > (?, ?), (a, b) = ?, (a, b) IN ((?, ?), ...), (a, b) IN ? */
static void tuple_relation(desc_t *d, const cql_relation_t *r)
{
    if (r->n_columns == 0) {
        return;
    }
    const wire_type_t **types = base_arena_alloc(d->c->a, r->n_columns * sizeof(*types));
    for (size_t i = 0; i < r->n_columns; i++) {
        const cql_column_t *col = cql__column_find(d->t, r->columns[i]);
        types[i] = col ? col->type : cql__type_native("blob");
    }
    const wire_type_t *tt =
        cql__type_collection(d->c->a, WIRE_TYPE_TUPLE, true, types, r->n_columns);
    const char *name = base_arena_sprintf(d->c->a, "(%s)", r->columns[0]);
    if (r->op == CQL_OP_IN) {
        describe_term(d, r->rhs, name, frozen_list_of(d, tt));
        for (size_t k = 0; k < r->n_in; k++) {
            describe_term(d, r->in_values[k], name, tt);
        }
        return;
    }
    describe_term(d, r->rhs, name, tt);
}


static int describe_where(desc_t *d, const cql_relation_t *rel, size_t n, base_error_t *err)
{
    for (size_t i = 0; i < n; i++) {
        const cql_relation_t *r = &rel[i];
        if (r->lhs == CQL_LHS_TOKEN) {
            if (cql__token_relation_check(d->c, d->t, r, err) != BASE_OK) {
                return BASE_ERROR;
            }
            const cql_term_t *rhs = r->rhs;
            if (rhs != NULL && rhs->kind == CQL_TERM_FUNCTION && strcmp(rhs->text, "token") == 0 &&
                rhs->n_items == d->t->n_pk) {
                /* token(?, ?) binds the partition key columns, in order */
                for (size_t k = 0; k < rhs->n_items; k++) {
                    describe_term(d, rhs->items[k], d->t->pk[k]->name, d->t->pk[k]->type);
                }
            } else {
                describe_term(d, rhs, "partition key token", cql__native_bigint());
            }
            continue;
        }
        if (r->lhs == CQL_LHS_TUPLE) {
            tuple_relation(d, r);
            continue;
        }
        if (r->lhs != CQL_LHS_COLUMN && r->lhs != CQL_LHS_ELEMENT) {
            continue;
        }
        const cql_column_t *col = find_column(d, r->columns[0], err);
        if (col == NULL) {
            return BASE_ERROR;
        }
        if (r->lhs == CQL_LHS_ELEMENT) {
            if (col->type->id == WIRE_TYPE_MAP) {
                describe_term(d, r->element, base_arena_sprintf(d->c->a, "key(%s)", col->name),
                              col->type->sub[0]);
                describe_term(d, r->rhs, base_arena_sprintf(d->c->a, "value(%s)", col->name),
                              col->type->sub[1]);
            }
            continue;
        }
        const wire_type_t *type = col->type;
        if ((r->op == CQL_OP_CONTAINS || r->op == CQL_OP_CONTAINS_KEY) &&
            !cql__type_is_collection(type)) {
            /* refused when run ("Cannot use CONTAINS on non-collection column") */
        } else if (r->op == CQL_OP_CONTAINS) {
            type = type->id == WIRE_TYPE_MAP ? type->sub[1] : type->sub[0];
        } else if (r->op == CQL_OP_CONTAINS_KEY) {
            type = type->sub[0];
        }
        if (r->op == CQL_OP_IN) {
            if (r->rhs != NULL) {
                describe_term(d, r->rhs, base_arena_sprintf(d->c->a, "in(%s)", col->name),
                              frozen_list_of(d, col->type));
            }
            for (size_t k = 0; k < r->n_in; k++) {
                describe_term(d, r->in_values[k], col->name, col->type);
            }
            continue;
        }
        describe_term(d, r->rhs, col->name, type);
    }
    return BASE_OK;
}


static void describe_using(desc_t *d, const cql_using_t *u)
{
    describe_term(d, u->ttl, "[ttl]", cql__native_int());
    describe_term(d, u->timestamp, "[timestamp]", cql__native_bigint());
}


/* The type a condition compares: the column's, an element's (binding its key
 * too: m[?] a map key, l[?] an int) or a user type field's. */
static const wire_type_t *condition_type(desc_t *d, const cql_column_t *col,
                                         const cql_condition_t *cd)
{
    const wire_type_t *type = col->type;
    if (cd->element != NULL && (type->id == WIRE_TYPE_MAP || type->id == WIRE_TYPE_LIST)) {
        bool map = type->id == WIRE_TYPE_MAP;
        describe_term(d, cd->element, base_arena_sprintf(d->c->a, "key(%s)", col->name),
                      map ? type->sub[0] : cql__native_int());
        return type->sub[map ? 1 : 0];
    }
    for (uint16_t k = 0; cd->field != NULL && type->id == WIRE_TYPE_UDT && k < type->n_sub; k++) {
        if (strcmp(type->field_names[k], cd->field) == 0) {
            return type->sub[k];
        }
    }
    return type;
}


static int describe_conditions(desc_t *d, const cql_conditions_t *cond, base_error_t *err)
{
    for (size_t i = 0; i < cond->n; i++) {
        const cql_column_t *col = find_column(d, cond->conds[i].column, err);
        if (col == NULL) {
            return BASE_ERROR;
        }
        const cql_condition_t *cd = &cond->conds[i];
        const wire_type_t *type = condition_type(d, col, cd);
        const char *name = col->name;
        if (cd->op == CQL_OP_IN && cd->rhs != NULL) { /* IF c IN ?: a list of the type */
            type = cql__type_collection(d->c->a, WIRE_TYPE_LIST, true, &type, 1);
            name = base_arena_sprintf(d->c->a, "in(%s)", col->name);
        }
        describe_term(d, cd->rhs, name, type);
        for (size_t k = 0; k < cd->n_in; k++) {
            describe_term(d, cd->in_values[k], col->name, type);
        }
    }
    return BASE_OK;
}


static int describe_assignments(desc_t *d, const cql_update_t *q, base_error_t *err)
{
    for (size_t i = 0; i < q->n_assign; i++) {
        const cql_assignment_t *as = &q->assign[i];
        const cql_column_t *col = find_column(d, as->column, err);
        if (col == NULL) {
            return BASE_ERROR;
        }
        const wire_type_t *type = col->type;
        if (as->kind == CQL_ASSIGN_ELEMENT) {
            bool map = type->id == WIRE_TYPE_MAP;
            describe_term(d, as->key, base_arena_sprintf(d->c->a, "key(%s)", col->name),
                          map ? type->sub[0] : cql__native_int());
            type = type->n_sub ? type->sub[map ? 1 : 0] : type;
            describe_term(d, as->value, base_arena_sprintf(d->c->a, "value(%s)", col->name), type);
            continue;
        }
        for (uint16_t k = 0;
             as->kind == CQL_ASSIGN_FIELD && type->id == WIRE_TYPE_UDT && k < type->n_sub; k++) {
            if (strcmp(type->field_names[k], as->field) == 0) {
                type = type->sub[k]; /* u.f = ?: the field's type */
                break;
            }
        }
        if (as->kind == CQL_ASSIGN_SUB && type->id == WIRE_TYPE_MAP) {
            type = cql__type_collection(d->c->a, WIRE_TYPE_SET, true, &type->sub[0], 1);
        }
        describe_term(d, as->value, col->name, type);
    }
    return BASE_OK;
}


static int resolve_table(desc_t *d, const cql_qname_t *q, base_error_t *err)
{
    cql_table_t *t = NULL;
    if (cql__resolve_table(d->c, q, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    d->t = t;
    return BASE_OK;
}


static int describe_stmt(desc_t *d, const cql_stmt_t *st, base_error_t *err)
{
    switch (st->kind) {
    case CQL_STMT_SELECT:
        if (resolve_table(d, &st->u.select.table, err) != BASE_OK ||
            describe_where(d, st->u.select.where, st->u.select.n_where, err) != BASE_OK) {
            return BASE_ERROR;
        }
        describe_term(d, st->u.select.limit, "[limit]", cql__native_int());
        describe_term(d, st->u.select.per_partition_limit, "[per_partition_limit]",
                      cql__native_int());
        return BASE_OK;
    case CQL_STMT_INSERT: {
        const cql_insert_t *q = &st->u.insert;
        if (resolve_table(d, &q->table, err) != BASE_OK) {
            return BASE_ERROR;
        }
        for (size_t i = 0; i < q->n_columns; i++) {
            const cql_column_t *col = find_column(d, q->columns[i], err);
            if (col == NULL) {
                return BASE_ERROR;
            }
            describe_term(d, q->values[i], col->name, col->type);
        }
        describe_term(d, q->json, "[json]", cql__native_text());
        describe_using(d, &q->using_);
        return BASE_OK;
    }
    case CQL_STMT_UPDATE: {
        const cql_update_t *q = &st->u.update;
        if (resolve_table(d, &q->table, err) != BASE_OK) {
            return BASE_ERROR;
        }
        describe_using(d, &q->using_);
        if (describe_assignments(d, q, err) != BASE_OK ||
            describe_where(d, q->where, q->n_where, err) != BASE_OK) {
            return BASE_ERROR;
        }
        return describe_conditions(d, &q->cond, err);
    }
    case CQL_STMT_DELETE: {
        const cql_delete_t *q = &st->u.del;
        if (resolve_table(d, &q->table, err) != BASE_OK) {
            return BASE_ERROR;
        }
        for (size_t i = 0; i < q->n_targets; i++) {
            const cql_column_t *col = find_column(d, q->targets[i].column, err);
            if (col == NULL) {
                return BASE_ERROR;
            }
            if (q->targets[i].element != NULL && col->type->n_sub > 0) {
                /* DELETE l[?] binds a list index, m[?] a map key, s[?] a set element */
                bool list = col->type->id == WIRE_TYPE_LIST;
                describe_term(d, q->targets[i].element, col->name,
                              list ? cql__native_int() : col->type->sub[0]);
            }
        }
        describe_using(d, &q->using_);
        if (describe_where(d, q->where, q->n_where, err) != BASE_OK) {
            return BASE_ERROR;
        }
        return describe_conditions(d, &q->cond, err);
    }
    case CQL_STMT_BATCH:
        describe_using(d, &st->u.batch.using_);
        for (size_t i = 0; i < st->u.batch.n_stmts; i++) {
            if (describe_stmt(d, st->u.batch.stmts[i], err) != BASE_OK) {
                return BASE_ERROR;
            }
        }
        return BASE_OK;
    default:
        return BASE_OK;
    }
}


/* Partition-key bind indexes: every pk column bound by "= ?" (drivers route by them). */
static void pk_indexes(desc_t *d, const cql_stmt_t *st, cql_prepared_t *p)
{
    if (d->t == NULL || d->t->vt != NULL) {
        return;
    }
    const cql_table_t *t = d->t;
    uint16_t *idx = base_arena_alloc(d->c->a, (t->n_pk + 1) * sizeof(*idx));
    size_t found = 0;
    for (size_t k = 0; k < t->n_pk; k++) {
        int at = -1;
        if (st->kind == CQL_STMT_INSERT) {
            const cql_insert_t *q = &st->u.insert;
            for (size_t i = 0; i < q->n_columns; i++) {
                if (strcmp(q->columns[i], t->pk[k]->name) == 0 &&
                    q->values[i]->kind == CQL_TERM_BIND) {
                    at = q->values[i]->bind_index;
                }
            }
        } else {
            const cql_relation_t *rel = NULL;
            size_t n = 0;
            if (st->kind == CQL_STMT_SELECT) {
                rel = st->u.select.where, n = st->u.select.n_where;
            } else if (st->kind == CQL_STMT_UPDATE) {
                rel = st->u.update.where, n = st->u.update.n_where;
            } else if (st->kind == CQL_STMT_DELETE) {
                rel = st->u.del.where, n = st->u.del.n_where;
            }
            for (size_t i = 0; i < n; i++) {
                if (rel[i].lhs == CQL_LHS_COLUMN && rel[i].op == CQL_OP_EQ &&
                    strcmp(rel[i].columns[0], t->pk[k]->name) == 0 && rel[i].rhs &&
                    rel[i].rhs->kind == CQL_TERM_BIND) {
                    at = rel[i].rhs->bind_index;
                }
            }
        }
        if (at < 0) {
            return;
        }
        idx[found++] = (uint16_t)at;
    }
    p->pk_indexes = idx;
    p->n_pk = found;
}


static bool is_conditional(const cql_stmt_t *st)
{
    switch (st->kind) {
    case CQL_STMT_INSERT:
        return st->u.insert.if_not_exists;
    case CQL_STMT_UPDATE:
        return st->u.update.cond.if_exists || st->u.update.cond.if_not_exists ||
               st->u.update.cond.n > 0;
    case CQL_STMT_DELETE:
        return st->u.del.cond.if_exists || st->u.del.cond.n > 0;
    default:
        return false;
    }
}


int cql__describe(cql_ctx_t *c, const cql_stmt_t *st, cql_prepared_t *p, base_error_t *err)
{
    desc_t d = {.c = c, .n_binds = st->n_binds};
    d.binds = base_arena_calloc(c->a, st->n_binds + 1, sizeof(*d.binds));
    for (size_t i = 0; i < st->n_binds; i++) {
        d.binds[i] = (wire_col_spec_t){"", "", st->bind_names[i] ? st->bind_names[i] : "?",
                                       cql__type_native("blob")};
    }
    if (describe_stmt(&d, st, err) != BASE_OK) {
        return BASE_ERROR;
    }
    p->binds = d.binds;
    p->n_binds = d.n_binds;
    pk_indexes(&d, st, p);
    if (st->kind == CQL_STMT_SELECT) {
        return describe_select(&d, &st->u.select, p, err);
    }
    if (is_conditional(st) && d.t != NULL) {
        p->cols = base_arena_calloc(c->a, 1, sizeof(*p->cols));
        p->cols[0] =
            (wire_col_spec_t){d.t->ks->name, d.t->name, "[applied]", cql__native_boolean()};
        p->n_cols = 1;
    }
    return BASE_OK;
}
