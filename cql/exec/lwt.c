/*
 * lwt.c - lightweight transactions: IF NOT EXISTS, IF EXISTS and IF
 * conditions. The row is read first and the statement answers with an
 * [applied] row (plus the columns the conditions named when it was not
 * applied), as Cassandra does. On this single node conditional writes are
 * simply serialised by the event loop, so no Paxos round is needed; in a
 * batch one failed condition refuses every mutation (c->lwt_refused).
 */
#include "cql/exec/exec.h"


static void lwt_result(cql_ctx_t *c, const cql_table_t *t, bool applied, const cql_rec_t *existing,
                       const cql_conditions_t *cond)
{
    size_t n = 1;
    wire_col_spec_t *cols = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*cols));
    wire_value_t *row = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*row));
    cols[0] = (wire_col_spec_t){t->ks->name, t->name, "[applied]", cql__native_boolean()};
    row[0] = cql__value_bool(c->a, applied);
    if (!applied && existing != NULL) {
        for (size_t i = 0; i < t->n_cols; i++) {
            bool want = cond->if_not_exists || cond->if_exists;
            for (size_t k = 0; !want && k < cond->n; k++) {
                want = strcmp(cond->conds[k].column, t->cols[i].name) == 0;
            }
            if (!want) {
                continue;
            }
            cols[n] = (wire_col_spec_t){t->ks->name, t->name, t->cols[i].name, t->cols[i].type};
            row[n++] = existing->vals[i];
        }
    }
    c->out->kind = WIRE_RESULT_ROWS;
    /* the columns depend on the outcome, so the metadata always goes with them */
    c->out->no_metadata = false;
    c->out->cols = cols;
    c->out->n_cols = n;
    c->out->cells = row;
    c->out->n_rows = 1;
}


/* IF m['k'] = v / IF l[i] = v: narrows the stored collection to one element. */
static int element_condition(cql_ctx_t *c, const cql_column_t *col, const cql_term_t *element,
                             wire_value_t *have, const wire_type_t **type, base_error_t *err)
{
    bool map = col->type->id == WIRE_TYPE_MAP;
    if (!map && col->type->id != WIRE_TYPE_LIST) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid element access syntax for non-collection column %s",
                              col->name);
    }
    wire_value_t key;
    const wire_type_t *kt = map ? col->type->sub[0] : cql__native_int();
    if (cql__term_eval(element, kt, col->name, &c->binds, c->a, &key, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (key.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for %s element access",
                              map ? "map" : "list");
    }
    *type = map ? col->type->sub[1] : col->type->sub[0];
    wire_value_t found = {NULL, WIRE_VALUE_NULL};
    wire_value_t *keys, *vals = NULL;
    ssize_t n = have->len < 0
                    ? 0
                    : cql__collection_split(col->type, *have, c->a, &keys, map ? &vals : NULL);
    if (map) {
        for (ssize_t i = 0; i < n; i++) {
            if (cql__value_compare(kt, keys[i], key) == 0) {
                found = vals[i];
            }
        }
    } else if (key.len == 4) {
        int32_t idx = (int32_t)base_load_u32(key.ptr);
        if (idx >= 0 && idx < n) {
            found = keys[idx];
        }
    }
    *have = found;
    return BASE_OK;
}


static int eval_condition(cql_ctx_t *c, const cql_table_t *t, const cql_condition_t *cd,
                          const cql_rec_t *rec, bool *holds, base_error_t *err)
{
    const cql_column_t *col = cql__column_find(t, cd->column);
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", cd->column);
    }
    if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "PRIMARY KEY column '%s' cannot have IF conditions", col->name);
    }
    wire_value_t have = rec ? rec->vals[col - t->cols] : (wire_value_t){NULL, WIRE_VALUE_NULL};
    const wire_type_t *type = col->type;
    if (cd->element != NULL &&
        element_condition(c, col, cd->element, &have, &type, err) != BASE_OK) {
        return BASE_ERROR;
    }
    size_t n = cd->op == CQL_OP_IN ? cd->n_in : 1;
    *holds = false;
    for (size_t i = 0; i < n; i++) {
        const cql_term_t *term = cd->op == CQL_OP_IN ? cd->in_values[i] : cd->rhs;
        wire_value_t want;
        if (cql__term_eval(term, type, col->name, &c->binds, c->a, &want, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (have.len < 0 || want.len < 0) {
            bool both_null = have.len < 0 && want.len < 0;
            *holds |= (cd->op == CQL_OP_EQ || cd->op == CQL_OP_IN) ? both_null
                      : cd->op == CQL_OP_NEQ                       ? !both_null
                                                                   : false;
            continue;
        }
        int cmp = cql__value_compare(type, have, want);
        switch (cd->op) {
        case CQL_OP_EQ:
        case CQL_OP_IN:
            *holds |= cmp == 0;
            break;
        case CQL_OP_NEQ:
            *holds |= cmp != 0;
            break;
        case CQL_OP_LT:
            *holds |= cmp < 0;
            break;
        case CQL_OP_LTE:
            *holds |= cmp <= 0;
            break;
        case CQL_OP_GT:
            *holds |= cmp > 0;
            break;
        case CQL_OP_GTE:
            *holds |= cmp >= 0;
            break;
        default:
            return base_error_set(err, WIRE_ERR_INVALID, "Unsupported condition operator");
        }
    }
    return BASE_OK;
}


/* Decides a conditional write; *go says whether to apply it. */
int cql__lwt_check(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                   const storage_bound_t *ck, const cql_conditions_t *cond, bool *go,
                   base_error_t *err)
{
    cql_rec_t rec;
    bool exists = cql__rec_read(c, t, pk, token, ck ? ck->key : NULL, ck ? ck->len : 0, &rec);
    c->out->stats.kind = CQL_OP_LWT;
    c->out->stats.rows_read++;
    bool applied = true;
    if (cond->if_not_exists) {
        applied = !exists;
    } else if (cond->if_exists) {
        applied = exists;
    } else {
        for (size_t i = 0; i < cond->n && applied; i++) {
            bool holds = false;
            if (eval_condition(c, t, &cond->conds[i], exists ? &rec : NULL, &holds, err) !=
                BASE_OK) {
                return BASE_ERROR;
            }
            applied = holds;
        }
    }
    lwt_result(c, t, applied, exists ? &rec : NULL, cond);
    *go = applied;
    c->lwt_refused |= !applied; /* a conditional batch applies all or nothing */
    return BASE_OK;
}


bool cql__has_conditions(const cql_conditions_t *cond)
{
    return cond->if_exists || cond->if_not_exists || cond->n > 0;
}
