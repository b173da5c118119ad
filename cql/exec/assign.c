/*
 * assign.c - the SET clause of UPDATE for one row: plain columns, counter
 * increments, collection additions, removals and element writes (l[i] = v,
 * m[k] = v) and user type fields (u.f = v). Counters and field updates read
 * the stored row first; list element writes and removals address the stored
 * element ids, which borrow from storage until the next write.
 */
#include "cql/exec/exec.h"


static int counter_add(cql_write_t *w, const cql_column_t *col, const cql_rec_t *row, bool exists,
                       const storage_mutation_t *m, wire_value_t delta, bool negate,
                       base_error_t *err)
{
    if (delta.len != 8) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for counter increment");
    }
    int64_t cur = 0;
    wire_value_t have = exists ? row->vals[col - w->t->cols] : (wire_value_t){NULL, -1};
    if (w->c->defer) {
        cql__batch_pending_counter(w->c, w->t, m, col->id, &have);
    }
    if (have.len == 8) {
        cur = (int64_t)base_load_u64(have.ptr);
    }
    int64_t d = (int64_t)base_load_u64(delta.ptr);
    int64_t next = (int64_t)((uint64_t)cur + (uint64_t)(negate ? -(uint64_t)d : (uint64_t)d));
    cql__write_cell(w, col, NULL, 0, cql__value_bigint(w->c->a, next), false);
    return BASE_OK;
}


/* Whether the column's elements were all deleted earlier in this statement. */
static bool cleared_here(const cql_write_t *w, const cql_column_t *col)
{
    for (size_t i = 0; i < w->n_clear; i++) {
        if (w->clear[i] == col->id) {
            return true;
        }
    }
    return false;
}


static int path_cmp(const storage_cell_t *a, const uint8_t *path, uint32_t len)
{
    int r = memcmp(a->path, path, a->path_len < len ? a->path_len : len);
    return r != 0 ? r : (a->path_len > len) - (a->path_len < len);
}


/* Two cells this statement wrote at one path (one timestamp and expiry): as storage
 * reconciles them, a tombstone wins, then the greater value bytes. */
static bool pending_wins(const storage_cell_t *a, const storage_cell_t *b)
{
    if (a->tombstone != b->tombstone) {
        return a->tombstone;
    }
    int r = memcmp(a->value, b->value, a->value_len < b->value_len ? a->value_len : b->value_len);
    return r != 0 ? r > 0 : a->value_len >= b->value_len;
}


/* One cell this statement wrote over the element view (sorted by path, tombstones kept
 * so that a later write at the same path still loses to them). */
static void apply_pending(storage_cell_t *view, size_t *n, bool *pending, const storage_cell_t *c)
{
    size_t lo = 0, hi = *n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (path_cmp(&view[mid], c->path, c->path_len) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < *n && path_cmp(&view[lo], c->path, c->path_len) == 0) {
        if (!pending[lo] || pending_wins(c, &view[lo])) {
            view[lo] = *c;
        }
        pending[lo] = true;
        return;
    }
    memmove(&view[lo + 1], &view[lo], (*n - lo) * sizeof(*view));
    memmove(&pending[lo + 1], &pending[lo], (*n - lo) * sizeof(*pending));
    view[lo] = *c;
    pending[lo] = true;
    (*n)++;
}


/* The element cells of a multi-cell column in the row m targets (the static row for a
 * static column) as this statement left them so far: what is stored, then what its
 * earlier operations wrote, as Cassandra 4.0 applies the pending updates to the row a
 * list operation reads (l[2] = 7, l[2] = 8 and DELETE l[2], l[2] each see the one
 * before). Paths and values borrow from storage until the next write, or the arena. */
static size_t stored_elements(cql_write_t *w, const storage_mutation_t *m, const cql_column_t *col,
                              const storage_cell_t **out)
{
    size_t n_stored = 0, n_pending = 0;
    const storage_cell_t *first = NULL;
    storage_row_view_t rv;
    storage_partition_t *p = storage_partition_get(w->t->st, m->token, m->pk, m->pk_len);
    bool found = p != NULL && !cleared_here(w, col) &&
                 (col->kind == CQL_COL_STATIC ? storage_partition_static(p, w->c->now_us, &rv)
                                              : cql__stored_row(w->c, p, m->ck, m->ck_len, &rv));
    for (size_t i = 0; found && i < rv.n_cells; i++) {
        if (rv.cells[i].col == col->id) {
            first = first ? first : &rv.cells[i];
            n_stored++;
        }
    }
    for (size_t i = 0; i < w->n_cells; i++) {
        n_pending += w->cells[i].col == col->id && w->cells[i].path != NULL;
    }
    size_t cap = n_stored + n_pending + 1, n = n_stored;
    storage_cell_t *view = base_arena_alloc(w->c->a, cap * sizeof(*view));
    bool *pending = base_arena_calloc(w->c->a, cap, sizeof(*pending));
    if (n_stored > 0) {
        memcpy(view, first, n_stored * sizeof(*view)); /* a column's cells are adjacent */
    }
    for (size_t i = 0; i < w->n_cells; i++) {
        if (w->cells[i].col == col->id && w->cells[i].path != NULL) {
            apply_pending(view, &n, pending, &w->cells[i]);
        }
    }
    size_t live = 0;
    for (size_t i = 0; i < n; i++) {
        if (!view[i].tombstone) {
            view[live++] = view[i];
        }
    }
    *out = view;
    return live;
}


static int list_set_index(cql_write_t *w, const cql_column_t *col, wire_value_t key, wire_value_t v,
                          const storage_mutation_t *m, base_error_t *err)
{
    if (key.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset value for list index");
    }
    if (key.len != 4) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid null value for list index");
    }
    if (v.len == WIRE_VALUE_UNSET) {
        return BASE_OK;
    }
    int32_t idx = (int32_t)base_load_u32(key.ptr);
    const storage_cell_t *cells;
    size_t n = stored_elements(w, m, col, &cells);
    if (n == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Attempted to set an element on a list which is null");
    }
    if (idx < 0 || (size_t)idx >= n) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "List index %d out of bound, list has size %zu", idx, n);
    }
    const uint8_t *path = base_arena_memdup(w->c->a, cells[idx].path, cells[idx].path_len);
    cql__write_cell(w, col, path, cells[idx].path_len, v, v.len < 0);
    return BASE_OK;
}


/* c = c - v: set elements and map keys are tombstoned by their path; list
 * elements by the ids of every stored element equal to one of v's. */
static int remove_elements(cql_write_t *w, const cql_column_t *col, wire_value_t v,
                           const storage_mutation_t *m, base_error_t *err)
{
    const wire_type_t *vt =
        col->type->id == WIRE_TYPE_MAP
            ? cql__type_collection(w->c->a, WIRE_TYPE_SET, true, &col->type->sub[0], 1)
            : col->type;
    wire_value_t *keys;
    ssize_t n = cql__collection_split(vt, v, w->c->a, &keys, NULL);
    if (n < 0) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid collection value for column %s",
                              col->name);
    }
    wire_value_t none = {NULL, WIRE_VALUE_NULL};
    if (col->type->id != WIRE_TYPE_LIST) {
        for (ssize_t i = 0; i < n; i++) {
            cql__write_cell(w, col, keys[i].ptr, (size_t)keys[i].len, none, true);
        }
        return BASE_OK;
    }
    const storage_cell_t *cells;
    size_t n_stored = stored_elements(w, m, col, &cells);
    for (size_t k = 0; k < n_stored; k++) {
        wire_value_t have = {cells[k].value, (int32_t)cells[k].value_len};
        for (ssize_t i = 0; i < n; i++) {
            if (cql__value_compare(col->type->sub[0], have, keys[i]) == 0) {
                const uint8_t *path = base_arena_memdup(w->c->a, cells[k].path, cells[k].path_len);
                cql__write_cell(w, col, path, cells[k].path_len, none, true);
                break;
            }
        }
    }
    return BASE_OK;
}


/* The field of a non-frozen user type column (check_operation or the DELETE path has
 * checked the column). */
static int udt_field_index(const cql_column_t *col, const char *name, base_error_t *err)
{
    const wire_type_t *u = col->type;
    for (uint16_t k = 0; k < u->n_sub; k++) {
        if (strcmp(u->field_names[k], name) == 0) {
            return k;
        }
    }
    base_error_set(err, WIRE_ERR_INVALID, "UDT column %s does not have a field named %s", col->name,
                   name);
    return -1;
}


/* The stored user type value with field k replaced (fields past the stored ones null). */
static wire_value_t udt_with_field(base_arena_t *a, const wire_type_t *u, wire_value_t old, int k,
                                   wire_value_t v)
{
    size_t n = u->n_sub;
    BASE_ASSERT(k >= 0 && (size_t)k < n);
    wire_value_t *fields = base_arena_alloc(a, n * sizeof(*fields));
    wire_reader_t rd;
    wire_reader_init(&rd, old.len > 0 ? old.ptr : NULL, old.len > 0 ? (size_t)old.len : 0);
    for (size_t i = 0; i < n; i++) {
        fields[i] = wire_reader_remaining(&rd) > 0 ? wire_read_bytes(&rd)
                                                   : (wire_value_t){NULL, WIRE_VALUE_NULL};
        if (!wire_reader_ok(&rd)) {
            fields[i] = (wire_value_t){NULL, WIRE_VALUE_NULL};
        }
    }
    if (v.len != WIRE_VALUE_UNSET) { /* an unset value keeps the stored field */
        fields[k] = v;
    }
    base_buf_t b;
    base_buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        base_buf_put_u32(&b, (uint32_t)(fields[i].len < 0 ? -1 : fields[i].len));
        if (fields[i].len > 0) {
            base_buf_put(&b, fields[i].ptr, (size_t)fields[i].len);
        }
    }
    wire_value_t out = cql__value_blob(a, b.data, b.len);
    base_buf_fini(&b);
    return out;
}


/* The type an assignment's value is evaluated as: the column's, a field's or an
 * element's, bigint for counter deltas, a set of keys for "m = m - {...}". */
static int assignment_type(cql_ctx_t *c, const cql_column_t *col, const cql_assignment_t *as,
                           int field, const wire_type_t **out, base_error_t *err)
{
    const wire_type_t *t = field >= 0 ? col->type->sub[field] : col->type;
    (void)err; /* check_operation refused the operations the column cannot take */
    if (as->kind == CQL_ASSIGN_ELEMENT) {
        t = col->type->sub[col->type->id == WIRE_TYPE_MAP ? 1 : 0];
    }
    if (col->counter) {
        t = cql__native_bigint();
    } else if (as->kind == CQL_ASSIGN_SUB && col->type->id == WIRE_TYPE_MAP) {
        t = cql__type_collection(c->a, WIRE_TYPE_SET, true, &col->type->sub[0], 1);
    }
    *out = t;
    return BASE_OK;
}


/* What the row holds before the statement, for counters and field updates. */
typedef struct stored_row_s {
    bool read;
    bool exists;
    cql_rec_t rec;
} stored_row_t;


static bool udt_all_null(wire_value_t v)
{
    wire_reader_t rd;
    wire_reader_init(&rd, v.len > 0 ? v.ptr : NULL, v.len > 0 ? (size_t)v.len : 0);
    while (wire_reader_remaining(&rd) > 0) {
        wire_value_t f = wire_read_bytes(&rd);
        if (!wire_reader_ok(&rd) || f.len >= 0) {
            return false;
        }
    }
    return true;
}


/* The plain cell of col this statement already wrote, if any. */
static storage_cell_t *written_cell(cql_write_t *w, const cql_column_t *col)
{
    for (size_t i = 0; i < w->n_cells; i++) {
        if (w->cells[i].col == col->id && w->cells[i].path_len == 0) {
            return &w->cells[i];
        }
    }
    return NULL;
}


/* u.f = v (or DELETE u.f with v null) on the stored value: several fields set in
 * one statement build on each other in the one cell (a second cell at the same
 * timestamp would race it), and a value left with no field is no value. */
static void write_field(cql_write_t *w, const cql_column_t *col, int field, wire_value_t v,
                        wire_value_t stored)
{
    storage_cell_t *cell = written_cell(w, col);
    wire_value_t old = cell == NULL      ? stored
                       : cell->tombstone ? (wire_value_t){NULL, WIRE_VALUE_NULL}
                                         : (wire_value_t){cell->value, (int32_t)cell->value_len};
    wire_value_t nv = udt_with_field(w->c->a, col->type, old, field, v);
    bool gone = udt_all_null(nv);
    if (cell == NULL) {
        cql__write_cell(w, col, NULL, 0, nv, gone);
        return;
    }
    cell->tombstone = gone;
    cell->value = gone ? NULL : nv.ptr;
    cell->value_len = gone ? 0 : (uint32_t)nv.len;
    cell->ttl = gone ? 0 : w->ttl;
    cell->expires_us = gone ? STORAGE_NO_EXPIRY : w->expires_us;
}


static int assign_one(cql_ctx_t *c, cql_write_t *dst, const cql_column_t *col,
                      const cql_assignment_t *as, int field, wire_value_t v, const stored_row_t *sr,
                      const storage_mutation_t *m, base_error_t *err)
{
    const cql_table_t *t = dst->t;
    if (col->counter) {
        return counter_add(dst, col, &sr->rec, sr->exists, m, v, as->kind == CQL_ASSIGN_SUB, err);
    }
    switch (as->kind) {
    case CQL_ASSIGN_SET:
        return cql__write_set(dst, col, v, err);
    case CQL_ASSIGN_ADD:
    case CQL_ASSIGN_PREPEND:
        return v.len < 0 ? BASE_OK
                         : cql__write_elements(dst, col, v, as->kind == CQL_ASSIGN_PREPEND, err);
    case CQL_ASSIGN_SUB:
        return v.len < 0 ? BASE_OK : remove_elements(dst, col, v, m, err);
    case CQL_ASSIGN_ELEMENT: {
        bool map = col->type->id == WIRE_TYPE_MAP;
        wire_value_t key;
        if (cql__term_eval(as->key, map ? col->type->sub[0] : cql__native_int(), col->name,
                           &c->binds, c->a, &key, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (key.len == WIRE_VALUE_UNSET) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  map ? "Invalid unset map key"
                                      : "Invalid unset value for list index");
        }
        if (!map) {
            return list_set_index(dst, col, key, v, m, err);
        }
        if (key.len == WIRE_VALUE_UNSET) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset map key");
        }
        if (key.len < 0) {
            return base_error_set(err, WIRE_ERR_INVALID, "Invalid null map key");
        }
        if (v.len != WIRE_VALUE_UNSET) {
            cql__write_cell(dst, col, key.ptr, (size_t)key.len, v, v.len < 0);
        }
        return BASE_OK;
    }
    default: { /* CQL_ASSIGN_FIELD */
        wire_value_t old =
            sr->exists ? sr->rec.vals[col - t->cols] : (wire_value_t){NULL, WIRE_VALUE_NULL};
        write_field(dst, col, field, v, old);
        return BASE_OK;
    }
    }
}


/* The operation as Cassandra's RawUpdate.toString prints it in messages, its terms as
 * written: "b.a = 0", "m['foo'] = 'bar'", "value = value + (1, 1)". */
static const char *op_text(cql_ctx_t *c, const cql_column_t *col, const cql_assignment_t *as)
{
    const char *n = col->name, *v = cql__term_text(as->value, c->a);
    switch (as->kind) {
    case CQL_ASSIGN_ADD:
        return base_arena_sprintf(c->a, "%s = %s + %s", n, n, v);
    case CQL_ASSIGN_PREPEND:
        return base_arena_sprintf(c->a, "%s = %s + %s", n, v, n);
    case CQL_ASSIGN_SUB:
        return base_arena_sprintf(c->a, "%s = %s - %s", n, n, v);
    case CQL_ASSIGN_ELEMENT:
        return base_arena_sprintf(c->a, "%s[%s] = %s", n, cql__term_text(as->key, c->a), v);
    case CQL_ASSIGN_FIELD:
        return base_arena_sprintf(c->a, "%s.%s = %s", n, as->field, v);
    default:
        return base_arena_sprintf(c->a, "%s = %s", n, v);
    }
}


/* What the column cannot take, for an operation that is not a plain SET (Cassandra's
 * Operation.RawUpdate.prepare): NULL when it can. */
static const char *refused_as(const cql_column_t *col, cql_assign_kind_t kind)
{
    const wire_type_t *t = col->type;
    bool coll = cql__type_is_collection(t),
         tuple = t->id == WIRE_TYPE_TUPLE || t->id == WIRE_TYPE_UDT;
    switch (kind) {
    case CQL_ASSIGN_FIELD:
        return t->id != WIRE_TYPE_UDT ? "non-UDT column" : t->frozen ? "frozen UDT column" : NULL;
    case CQL_ASSIGN_ELEMENT:
        return !coll                    ? "non collection column"
               : t->frozen              ? "frozen collection column"
               : t->id == WIRE_TYPE_SET ? "set column"
                                        : NULL;
    case CQL_ASSIGN_PREPEND:
        return t->id != WIRE_TYPE_LIST ? "non list column"
               : t->frozen             ? "frozen list column"
                                       : NULL;
    case CQL_ASSIGN_ADD:
    case CQL_ASSIGN_SUB:
        if (kind == CQL_ASSIGN_ADD && !coll && tuple) {
            return "tuple column"; /* a user type is a tuple type in Cassandra */
        }
        return !coll && !col->counter ? "non counter column"
               : coll && t->frozen    ? "frozen collection column"
                                      : NULL;
    default:
        return NULL;
    }
}


/* One assignment's column and operation, checked before the WHERE clause as Cassandra
 * prepares them; *field is the user type field of u.f = v, else -1. */
static int check_operation(cql_ctx_t *c, const cql_table_t *t, const cql_assignment_t *as,
                           const uint32_t *kept, size_t i, const cql_column_t **out, int *field,
                           base_error_t *err)
{
    const cql_column_t *col = cql__named_column(t, kept, i, as->column);
    *out = col;
    *field = -1;
    if (col == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s", as->column);
    }
    if (col->kind == CQL_COL_PARTITION || col->kind == CQL_COL_CLUSTERING) {
        return base_error_set(err, WIRE_ERR_INVALID, "PRIMARY KEY part %s found in SET part",
                              col->name);
    }
    if (as->kind == CQL_ASSIGN_SET && col->counter) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot set the value of counter column %s (counters can only be "
                              "incremented/decremented, not set)",
                              col->name);
    }
    const char *refused = refused_as(col, as->kind);
    if (refused != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid operation (%s) for %s %s",
                              op_text(c, col, as), refused, col->name);
    }
    if (as->kind == CQL_ASSIGN_FIELD && (*field = udt_field_index(col, as->field, err)) < 0) {
        return BASE_ERROR;
    }
    return BASE_OK;
}


int cql__update_check(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q, base_error_t *err)
{
    const uint32_t *kept = cql__kept_columns(c, t, q);
    for (size_t i = 0; i < q->n_assign; i++) {
        const cql_column_t *col;
        int field;
        if (check_operation(c, t, &q->assign[i], kept, i, &col, &field, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


int cql__update_row(cql_ctx_t *c, const cql_table_t *t, const cql_update_t *q, cql_write_t *w,
                    cql_write_t *ws, storage_mutation_t *m, base_error_t *err)
{
    stored_row_t sr = {0};
    const uint32_t *kept = cql__kept_columns(c, t, q);
    for (size_t i = 0; i < q->n_assign; i++) {
        const cql_assignment_t *as = &q->assign[i];
        const cql_column_t *col;
        int field;
        if (check_operation(c, t, as, kept, i, &col, &field, err) != BASE_OK) {
            return BASE_ERROR;
        }
        /* counters add to what is stored; a field update rewrites the stored value */
        if ((col->counter || field >= 0) && !sr.read) {
            wire_value_t pk = {m->pk, (int32_t)m->pk_len};
            sr.exists = cql__rec_read(c, t, pk, m->token, m->ck, m->ck_len, &sr.rec);
            sr.read = true;
        }
        const wire_type_t *type = NULL;
        wire_value_t v;
        if (assignment_type(c, col, as, field, &type, err) != BASE_OK ||
            cql__term_eval(as->value, type, col->name, &c->binds, c->a, &v, err) != BASE_OK) {
            return BASE_ERROR;
        }
        if (v.len == WIRE_VALUE_UNSET && as->kind != CQL_ASSIGN_ELEMENT) {
            continue; /* an element write still checks its key */
        }
        cql_write_t *dst = col->kind == CQL_COL_STATIC ? ws : w;
        if (assign_one(c, dst, col, as, field, v, &sr, m, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    return BASE_OK;
}


/* DELETE c, c[k] (a map key, a set element, a list index) or u.f of one row. */
int cql__delete_column(cql_write_t *w, const cql_column_t *col, const cql_delete_target_t *d,
                       const storage_mutation_t *m, base_error_t *err)
{
    cql_ctx_t *c = w->c;
    wire_value_t none = {NULL, WIRE_VALUE_NULL};
    if (d->field != NULL) {
        if (col->type->id != WIRE_TYPE_UDT || col->type->frozen) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  col->type->id != WIRE_TYPE_UDT
                                      ? "Invalid field deletion operation for non-UDT column %s"
                                      : "Frozen UDT column %s does not support field deletion",
                                  col->name);
        }
        int field = udt_field_index(col, d->field, err);
        if (field < 0) {
            return BASE_ERROR;
        }
        cql_rec_t rec;
        wire_value_t pk = {m->pk, (int32_t)m->pk_len};
        bool found = cql__rec_read(c, w->t, pk, m->token, m->ck, m->ck_len, &rec);
        write_field(w, col, field, none, found ? rec.vals[col - w->t->cols] : none);
        return BASE_OK;
    }
    if (d->element == NULL) {
        if (cql__multi_cell(col)) {
            cql__write_clear(w, col);
        } else {
            cql__write_cell(w, col, NULL, 0, none, true);
        }
        return BASE_OK;
    }
    if (!cql__type_is_collection(col->type)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid deletion operation for non collection column %s", col->name);
    }
    if (col->type->frozen) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Invalid deletion operation for frozen collection column %s",
                              col->name);
    }
    bool list = col->type->id == WIRE_TYPE_LIST;
    wire_value_t key;
    if (cql__term_eval(d->element, list ? cql__native_int() : col->type->sub[0], col->name,
                       &c->binds, c->a, &key, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (col->type->id == WIRE_TYPE_MAP && key.len == WIRE_VALUE_UNSET) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid unset map key");
    }
    if (key.len == WIRE_VALUE_UNSET) {
        return BASE_OK;
    }
    if (key.len < 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              list                             ? "Invalid null value for list index"
                              : col->type->id == WIRE_TYPE_MAP ? "Invalid null map key"
                                                               : "Invalid null set element");
    }
    if (!list) {
        cql__write_cell(w, col, key.ptr, (size_t)key.len, none, true);
        return BASE_OK;
    }
    if (key.len != 4) {
        return base_error_set(err, WIRE_ERR_INVALID, "Invalid list index");
    }
    int32_t idx = (int32_t)base_load_u32(key.ptr);
    const storage_cell_t *cells;
    size_t n = stored_elements(w, m, col, &cells);
    if (n == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Attempted to delete an element from a list which is null");
    }
    if (idx < 0 || (size_t)idx >= n) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "List index %d out of bound, list has size %zu", idx, n);
    }
    const uint8_t *path = base_arena_memdup(c->a, cells[idx].path, cells[idx].path_len);
    cql__write_cell(w, col, path, cells[idx].path_len, none, true);
    return BASE_OK;
}
