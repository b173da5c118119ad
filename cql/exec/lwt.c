/*
 * lwt.c - lightweight transactions: IF NOT EXISTS, IF EXISTS and IF
 * conditions. The row is read first and the statement answers with an
 * [applied] row (plus the columns the conditions named when it was not
 * applied), as Cassandra does. On this single node conditional writes are
 * simply serialised by the event loop, so no Paxos round is needed; in a
 * batch one failed condition refuses every mutation (c->lwt_refused).
 */
#include "cql/exec/exec.h"


/* The columns a failed condition shows. IF [NOT] EXISTS: the whole row, key
 * columns, then static, then regular ones (by name within each, as cols[] holds
 * them). Column conditions: their columns, regular ones then static ones, each in
 * the order of the IF clause, as Cassandra's ColumnConditions lists them. */
static size_t failed_columns(const cql_table_t *t, const cql_rec_t *existing,
                             const cql_conditions_t *cond, wire_col_spec_t *cols, wire_value_t *row)
{
    static const cql_col_kind_t order[] = {CQL_COL_PARTITION, CQL_COL_CLUSTERING, CQL_COL_STATIC,
                                           CQL_COL_REGULAR};
    bool all = cond->if_not_exists || cond->if_exists;
    bool *shown = base_calloc(t->n_cols + 1, sizeof(bool));
    size_t n = 0;
    for (size_t o = 0; o < 4; o++) {
        cql_col_kind_t kind = all ? order[o] : o == 0 ? CQL_COL_REGULAR : CQL_COL_STATIC;
        for (size_t k = 0; k < (all ? t->n_cols : (o < 2 ? cond->n : 0)); k++) {
            const cql_column_t *col =
                all ? &t->cols[k] : cql__column_find(t, cond->conds[k].column);
            if (col == NULL || col->kind != kind || shown[col - t->cols]) {
                continue;
            }
            size_t i = (size_t)(col - t->cols);
            shown[i] = true;
            cols[n] = (wire_col_spec_t){t->ks->name, t->name, col->name, col->type};
            row[n++] = existing->vals[i];
        }
    }
    base_free(shown);
    return n;
}


static void lwt_result(cql_ctx_t *c, const cql_table_t *t, bool applied, const cql_rec_t *existing,
                       const cql_conditions_t *cond)
{
    size_t n = 1;
    wire_col_spec_t *cols = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*cols));
    wire_value_t *row = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*row));
    cols[0] = (wire_col_spec_t){t->ks->name, t->name, "[applied]", cql__native_boolean()};
    row[0] = cql__value_bool(c->a, applied);
    if (!applied && existing != NULL) {
        n += failed_columns(t, existing, cond, cols + 1, row + 1);
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
    if (key.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid 'unset' value in condition");
    }
    if (key.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for %s element access",
                              map ? "map" : "list");
    }
    if (!map && key.len == 4 && (int32_t)base_load_u32(key.ptr) < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid negative list index %d",
                              (int32_t)base_load_u32(key.ptr));
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


/* A condition's value: never unset, and null only for =, != and IN. */
static int check_operand(cql_rel_op_t op, wire_value_t want, base_error_t *err)
{
    if (want.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid 'unset' value in condition");
    }
    if (want.len < 0 && op != CQL_OP_EQ && op != CQL_OP_NEQ && op != CQL_OP_IN) {
        const char *name = op == CQL_OP_LT    ? "<"
                           : op == CQL_OP_LTE ? "<="
                           : op == CQL_OP_GT  ? ">"
                                              : ">=";
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid comparison with null for operator \"%s\"", name);
    }
    return BASE_OK;
}


/* The values a condition compares with: one, or the list of an IN (literal or bound). */
static int condition_values(cql_ctx_t *c, const cql_condition_t *cd, const cql_column_t *col,
                            const wire_type_t *type, wire_value_t **out, size_t *n,
                            base_error_t *err)
{
    if (cd->op == CQL_OP_IN && cd->rhs != NULL) { /* IF c IN ? */
        const wire_type_t *lt = cql__type_collection(c->a, WIRE_TYPE_LIST, true, &type, 1);
        wire_value_t list;
        if (cql__term_eval(cd->rhs, lt, col->name, &c->binds, c->a, &list, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (list.len == WIRE_VALUE_UNSET) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid 'unset' value in condition");
        }
        if (list.len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null list in IN condition");
        }
        ssize_t k = cql__collection_split(lt, list, c->a, out, NULL);
        if (k < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid list value for IN condition");
        }
        *n = (size_t)k;
        return BASE_OK;
    }
    size_t n_terms = cd->op == CQL_OP_IN ? cd->n_in : 1;
    *out = base_arena_alloc(c->a, (n_terms + 1) * sizeof(**out));
    *n = 0;
    for (size_t i = 0; i < n_terms; i++) {
        const cql_term_t *term = cd->op == CQL_OP_IN ? cd->in_values[i] : cd->rhs;
        wire_value_t v;
        if (cql__term_eval(term, type, col->name, &c->binds, c->a, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (cd->op == CQL_OP_IN && v.len == WIRE_VALUE_UNSET) {
            continue; /* an unset value in an IN list is left out */
        }
        if (check_operand(cd->op, v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        (*out)[(*n)++] = v;
    }
    return BASE_OK;
}


/* Whether have op want holds; null compares equal only to null. */
static bool compare_holds(cql_rel_op_t op, const wire_type_t *type, wire_value_t have,
                          wire_value_t want)
{
    if (have.len < 0 || want.len < 0) {
        bool both_null = have.len < 0 && want.len < 0;
        return (op == CQL_OP_EQ || op == CQL_OP_IN) ? both_null : op == CQL_OP_NEQ && !both_null;
    }
    int cmp = cql__value_compare(type, have, want);
    switch (op) {
    case CQL_OP_EQ:
    case CQL_OP_IN:
        return cmp == 0;
    case CQL_OP_NEQ:
        return cmp != 0;
    case CQL_OP_LT:
        return cmp < 0;
    case CQL_OP_LTE:
        return cmp <= 0;
    case CQL_OP_GT:
        return cmp > 0;
    default:
        return cmp >= 0;
    }
}


/* IF u.f op v: narrows the stored user type value to one field. */
static int field_condition(cql_ctx_t *c, const cql_column_t *col, const char *field,
                           wire_value_t *have, const wire_type_t **type, base_error_t *err)
{
    const wire_type_t *u = col->type;
    int k = -1;
    for (uint16_t i = 0; u->id == WIRE_TYPE_UDT && i < u->n_sub; i++) {
        k = strcmp(u->field_names[i], field) == 0 ? (int)i : k;
    }
    if (u->id != WIRE_TYPE_UDT) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid field selection: %s of type %s is not a user type",
                              col->name, cql__type_name(u, c->a));
    }
    if (k < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Unknown field %s in user type %s", field,
                              u->name);
    }
    *type = u->sub[k];
    wire_value_t found = {NULL, WIRE_VALUE_NULL};
    if (have->len > 0) {
        wire_reader_t rd;
        wire_reader_init(&rd, have->ptr, (size_t)have->len);
        for (int i = 0; i <= k && wire_reader_remaining(&rd) > 0; i++) {
            wire_value_t f = wire_read_bytes(&rd);
            if (!wire_reader_ok(&rd)) {
                break;
            }
            found = i == k ? f : found;
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
    if (cd->field != NULL && field_condition(c, col, cd->field, &have, &type, err) != BASE_OK) {
        return BASE_ERROR;
    }
    wire_value_t *wants = NULL;
    size_t n = 0;
    if (condition_values(c, cd, col, type, &wants, &n, err) != BASE_OK) {
        return BASE_ERROR;
    }
    static const uint8_t zero[4] = {0};
    const wire_value_t empty = {zero, 4}; /* a collection of no element */
    bool whole = cd->element == NULL && cd->field == NULL;
    if (whole && cql__multi_cell(col)) {
        /* a non-frozen collection has no null: no element is the empty collection */
        have = have.len < 0 ? empty : have;
    }
    *holds = false;
    for (size_t i = 0; i < n; i++) {
        wire_value_t want = wants[i];
        if (whole && cql__multi_cell(col) && want.len < 0) {
            want = empty;
        }
        *holds |= compare_holds(cd->op, type, have, want);
    }
    return BASE_OK;
}


/* The row a condition reads, with the partition's static cells merged in even when
 * that row does not exist; ck NULL (a table with clustering columns) reads the
 * static row alone. *exists says whether the row asked about exists. */
static bool cas_read(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                     const storage_bound_t *ck, cql_rec_t *rec, bool *exists)
{
    *exists = false;
    storage_partition_t *p = storage_partition_get(t->st, token, pk.ptr, (size_t)pk.len);
    if (p == NULL) {
        return false;
    }
    storage_row_view_t st, rv;
    bool static_only = t->n_ck > 0 && ck == NULL;
    bool has_static = t->n_ck > 0 && storage_partition_static(p, c->now_us, &st);
    bool has_row =
        !static_only && cql__stored_row(c, p, ck ? ck->key : NULL, ck ? ck->len : 0, &rv);
    *exists = static_only ? has_static : has_row;
    if (!has_row && !has_static) {
        return false;
    }
    if (!cql__rec_build(c, t, p, has_row ? &rv : NULL, has_static ? &st : NULL, rec)) {
        *exists = false;
        return false;
    }
    return true;
}


/* What a conditional batch's conditions read: the existing rows they name (each
 * once, by clustering key), the static row when they name no existing row, and
 * which columns they name (all of them for IF [NOT] EXISTS). Cassandra shows
 * those rows with the key columns and the named ones when a condition fails. */
typedef struct cql_batch_cas_s {
    const cql_table_t *t;
    size_t n_rows;
    cql_rec_t rows[16];
    bool have_static;
    cql_rec_t static_rec;
    bool *wanted; /* by column index */
} batch_cas_t;


static void batch_note(cql_ctx_t *c, const cql_table_t *t, const cql_rec_t *rec, bool row,
                       const cql_conditions_t *cond)
{
    batch_cas_t *b = c->batch_cas;
    if (b == NULL) {
        b = c->batch_cas = base_arena_calloc(c->a, 1, sizeof(*b));
        b->t = t;
        b->wanted = base_arena_calloc(c->a, t->n_cols + 1, sizeof(bool));
    }
    for (size_t i = 0; i < t->n_cols; i++) {
        bool want = cond->if_exists || cond->if_not_exists;
        for (size_t k = 0; !want && k < cond->n; k++) {
            want = strcmp(cond->conds[k].column, t->cols[i].name) == 0;
        }
        b->wanted[i] |= want;
    }
    if (rec == NULL || t != b->t) {
        return;
    }
    if (!row) {
        b->have_static = true, b->static_rec = *rec;
        return;
    }
    for (size_t i = 0; i < b->n_rows; i++) {
        if (b->rows[i].ck_len == rec->ck_len && memcmp(b->rows[i].ck, rec->ck, rec->ck_len) == 0) {
            return;
        }
    }
    size_t at = b->n_rows; /* in clustering order */
    while (at > 0 && memcmp(b->rows[at - 1].ck, rec->ck,
                            rec->ck_len < b->rows[at - 1].ck_len ? rec->ck_len
                                                                 : b->rows[at - 1].ck_len) > 0) {
        at--;
    }
    if (b->n_rows < sizeof(b->rows) / sizeof(b->rows[0])) {
        memmove(&b->rows[at + 1], &b->rows[at], (b->n_rows - at) * sizeof(b->rows[0]));
        b->rows[at] = *rec;
        b->n_rows++;
    }
}


void cql__lwt_batch_result(cql_ctx_t *c)
{
    batch_cas_t *b = c->batch_cas;
    if (b == NULL) {
        return;
    }
    const cql_table_t *t = b->t;
    const cql_rec_t *rows = b->n_rows > 0 ? b->rows : b->have_static ? &b->static_rec : NULL;
    size_t n_rows = c->lwt_refused ? (b->n_rows > 0 ? b->n_rows : rows != NULL) : 1;
    size_t n = 1;
    wire_col_spec_t *cols = base_arena_calloc(c->a, t->n_cols + 1, sizeof(*cols));
    cols[0] = (wire_col_spec_t){t->ks->name, t->name, "[applied]", cql__native_boolean()};
    for (size_t i = 0; c->lwt_refused && rows != NULL && i < t->n_cols; i++) {
        const cql_column_t *col = &t->cols[i];
        if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING || b->wanted[i]) {
            cols[n++] = (wire_col_spec_t){t->ks->name, t->name, col->name, col->type};
        }
    }
    n_rows = n_rows ? n_rows : 1;
    wire_value_t *cells = base_arena_calloc(c->a, n_rows * n, sizeof(*cells));
    for (size_t r = 0; r < n_rows; r++) {
        wire_value_t *row = &cells[r * n];
        row[0] = cql__value_bool(c->a, !c->lwt_refused);
        for (size_t i = 0, k = 1; rows != NULL && c->lwt_refused && i < t->n_cols; i++) {
            const cql_column_t *col = &t->cols[i];
            if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING || b->wanted[i]) {
                row[k++] = rows[r].vals[i];
            }
        }
    }
    c->out->kind = WIRE_RESULT_ROWS;
    c->out->no_metadata = false;
    c->out->cols = cols;
    c->out->n_cols = n;
    c->out->cells = cells;
    c->out->n_rows = n_rows;
}


/* Decides a conditional write; *go says whether to apply it. */
int cql__lwt_check(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                   const storage_bound_t *ck, const cql_conditions_t *cond, bool *go,
                   base_error_t *err)
{
    cql_rec_t rec;
    bool exists = false;
    bool found = cas_read(c, t, pk, token, ck, &rec, &exists);
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
            if (eval_condition(c, t, &cond->conds[i], found ? &rec : NULL, &holds, err) !=
                BASE_OK) {
                return BASE_ERROR;
            }
            applied = holds;
        }
    }
    /* IF [NOT] EXISTS shows the row asked about; a column condition also static
     * values of a partition without that row */
    bool show = cond->if_not_exists || cond->if_exists ? exists : found;
    if (c->in_batch) {
        batch_note(c, t, found ? &rec : NULL, exists && ck != NULL && ck->len > 0, cond);
    } else {
        lwt_result(c, t, applied, show ? &rec : NULL, cond);
    }
    *go = applied;
    c->lwt_refused |= !applied; /* a conditional batch applies all or nothing */
    return BASE_OK;
}


bool cql__has_conditions(const cql_conditions_t *cond)
{
    return cond->if_exists || cond->if_not_exists || cond->n > 0;
}


int cql__lwt_validate(cql_ctx_t *c, const cql_table_t *t, const cql_conditions_t *cond,
                      base_error_t *err)
{
    for (size_t i = 0; i < cond->n; i++) {
        bool holds = false;
        if (eval_condition(c, t, &cond->conds[i], NULL, &holds, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}
