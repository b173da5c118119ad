/*
 * select.c - running a SELECT: walk the planned partitions and clustering
 * slices in storage order (or its reverse for a reversed ORDER BY), build
 * each row, filter, project through the selectors or fold into aggregates
 * (selection.c), and stop at the page size or LIMIT with a paging state that
 * resumes after the last row returned. System tables run the same projection
 * over rows generated from the schema. cql__exec_select is three steps:
 * validate (the statement alone), plan (WHERE, ORDER BY, admission, resume
 * point) and run (the walk and the result).
 *
 * Paging state (opaque to clients, versioned):
 *   [byte 1][int remaining limit][int rows left in partition][bytes pk][long token][bytes ck]
 *   [byte 2][int remaining limit][int row offset]           (system tables)
 */
#include "cql/exec/exec.h"

#define COSMOS_MAX_PAGE_BYTES (4u * 1024u * 1024u)


typedef struct run_s {
    cql_ctx_t *c;
    const cql_select_t *q;
    const cql_table_t *t;
    cql_plan_t plan;
    cql_sel_t sel;
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
    /* ORDER BY over an IN on the partition key: the rows of every partition are held
     * (with GROUP BY, each group's result row and its first row), then sorted on the
     * first n_order_ck clustering columns before LIMIT (merge_limit) applies */
    bool merge;
    size_t n_held, cap_held;
    cql_rec_t *held;
    size_t n_order_ck;
    int64_t merge_limit;
} run_t;


/* ---- output ---------------------------------------------------------------------------- */

/* Appends one result row (of the selection's width) and returns its cells. */
static wire_value_t *out_row(run_t *r)
{
    size_t width = cql__sel_width(&r->sel);
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


/* Projects rec into a new result row. */
static void return_row(run_t *r, const cql_rec_t *rec)
{
    cql_stats_t *st = &r->c->out->stats;
    st->bytes_returned += cql__sel_project(r->c, r->t, &r->sel, rec, out_row(r));
    st->rows_returned++;
}


/* Closes the current aggregate (or group) into a result row. */
static void return_aggregate(run_t *r)
{
    cql__sel_aggregate_row(r->c, &r->sel, out_row(r));
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


/* Keeps a copy of rec (its cells stay in storage for the request) for the merge. */
static void hold_row(run_t *r, const cql_rec_t *rec)
{
    if (r->n_held == r->cap_held) {
        size_t cap = r->cap_held ? r->cap_held * 2 : 16;
        cql_rec_t *held = base_arena_alloc(r->c->a, cap * sizeof(*held));
        if (r->n_held > 0) {
            memcpy(held, r->held, r->n_held * sizeof(*held));
        }
        r->held = held;
        r->cap_held = cap;
    }
    r->held[r->n_held++] = *rec;
}


/* Closes the current group into a result row; a merge also holds the group's first
 * row, which the result row is sorted by. */
static void close_group(run_t *r)
{
    return_aggregate(r);
    r->in_group = false;
    if (r->merge) {
        hold_row(r, &r->group_first);
    }
}


/* GROUP BY: a new group closes the previous one, which counts against LIMIT; PER
 * PARTITION LIMIT counts the groups a partition opens (Cassandra's GroupByLimits), so the
 * rows of its later groups are skipped. */
static bool accumulate_grouped(run_t *r, const cql_rec_t *rec, int64_t *part_left)
{
    if (!r->in_group || !same_group(r, &r->group_first, rec)) {
        if (*part_left <= 0) {
            return true;
        }
        if (r->in_group) {
            close_group(r);
            if (--r->limit <= 0) {
                return false;
            }
        }
        r->group_first = *rec;
        r->in_group = true;
        (*part_left)--;
    }
    cql__sel_accumulate(r->c, r->t, &r->sel, rec);
    return true;
}


/* Clustering order of two rows on the clustering columns ORDER BY compares (those it
 * names and any before them, fixed by = when skipped); a static-only row, whose
 * clustering columns are null, first. Rows equal there compare equal, as in Cassandra's
 * ordering comparator. */
static int order_cmp(const run_t *r, const cql_rec_t *a, const cql_rec_t *b)
{
    for (size_t i = 0; i < r->n_order_ck; i++) {
        const cql_column_t *col = r->t->ck[i];
        wire_value_t x = a->vals[col - r->t->cols], y = b->vals[col - r->t->cols];
        if (x.len < 0 || y.len < 0) {
            int cmp = (x.len >= 0) - (y.len >= 0);
            if (cmp != 0) {
                return cmp;
            }
            continue;
        }
        int cmp = cql__value_compare(col->type, x, y);
        if (cmp != 0) {
            return col->desc ? -cmp : cmp;
        }
    }
    return 0;
}


/* The held rows' indexes, sorted (stable: ties keep the partitions' order, as Cassandra's
 * sort does) in clustering order, reversed for a reversed ORDER BY. */
static size_t *sort_held(run_t *r)
{
    size_t n = r->n_held;
    size_t *idx = base_arena_alloc(r->c->a, (n + 1) * sizeof(*idx));
    size_t *tmp = base_arena_alloc(r->c->a, (n + 1) * sizeof(*tmp));
    for (size_t i = 0; i < n; i++) {
        idx[i] = i;
    }
    for (size_t width = 1; width < n; width *= 2) { /* bottom-up merge sort */
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n,
                   hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid || j < hi) {
                int cmp = i < mid && j < hi ? order_cmp(r, &r->held[idx[i]], &r->held[idx[j]]) : 0;
                bool left = j >= hi || (i < mid && (r->reverse ? cmp >= 0 : cmp <= 0));
                tmp[k++] = left ? idx[i++] : idx[j++];
            }
        }
        memcpy(idx, tmp, n * sizeof(*tmp));
    }
    return idx;
}


/* Returns the held rows in order up to LIMIT; with GROUP BY, reorders the groups'
 * result rows (already made) and keeps the first LIMIT of them. */
static void merge_held(run_t *r)
{
    size_t n = r->n_held;
    const size_t *idx = sort_held(r);
    if (r->n_group > 0) {
        size_t width = cql__sel_width(&r->sel);
        size_t keep = (int64_t)n < r->merge_limit ? n : (size_t)r->merge_limit;
        wire_value_t *cells = base_arena_alloc(r->c->a, keep * width * sizeof(*cells) + 1);
        for (size_t i = 0; i < keep; i++) {
            memcpy(&cells[i * width], &r->cells[idx[i] * width], width * sizeof(*cells));
        }
        r->c->out->stats.rows_returned -= n - keep;
        r->cells = cells;
        r->n_rows = r->cap_rows = keep;
        return;
    }
    for (size_t i = 0; i < n && r->limit > 0; i++, r->limit--) {
        return_row(r, &r->held[idx[i]]);
    }
}


/* ---- scanning ----------------------------------------------------------------------------- */

/* Takes one stored row into the run: counts it as read, filters it, then folds it
 * into the aggregates or returns it (within PER PARTITION LIMIT, LIMIT and the
 * page, whose end it marks). Returns false when the run must stop. */
static bool consider_row(run_t *r, const cql_rec_t *rec, int64_t *part_left)
{
    cql_stats_t *st = &r->c->out->stats;
    st->rows_read++;
    st->bytes_read += rec->bytes;
    if (!cql__filter_match(r->c, &r->plan, rec)) {
        return true;
    }
    if (r->n_group > 0) {
        return accumulate_grouped(r, rec, part_left);
    }
    if (r->sel.aggregate) {
        cql__sel_accumulate(r->c, r->t, &r->sel, rec);
        return true;
    }
    if (*part_left <= 0) {
        return true;
    }
    if (r->merge) {
        hold_row(r, rec);
        (*part_left)--;
        return true;
    }
    if (r->full) {
        r->more = true;
        return false;
    }
    return_row(r, rec);
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
            go = consider_row(r, &rec, &part_left);
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
            return consider_row(r, &rec, &part_left);
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
        if (!consider_row(r, &rec, &part_left)) {
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

/* A clustering column restricted to one value (=, an IN of one literal value, or its
 * place in such a multi-column relation), which ORDER BY may skip (Cassandra 4.0). */
static bool single_valued(const cql_select_t *q, const cql_table_t *t, const cql_column_t *col)
{
    for (size_t i = 0; i < q->n_where; i++) {
        const cql_relation_t *rel = &q->where[i];
        bool one = rel->op == CQL_OP_EQ ||
                   (rel->op == CQL_OP_IN && rel->in_values != NULL && rel->n_in == 1);
        if (!one || (rel->lhs != CQL_LHS_COLUMN && rel->lhs != CQL_LHS_TUPLE)) {
            continue;
        }
        for (size_t k = 0; k < rel->n_columns; k++) {
            if (cql__column_find(t, rel->columns[k]) == col) {
                return true;
            }
        }
    }
    return false;
}


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
    int dir = 0;     /* +1 same as clustering order, -1 reversed */
    size_t next = 0; /* the clustering column the next ordering must name */
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
        while (next < t->n_ck && t->ck[next] != col && single_valued(q, t, t->ck[next])) {
            next++;
        }
        if (col->position != (int)next++) {
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


/* A primary-key column restricted by = (alone or in a multi-column =), which GROUP BY
 * may skip (Cassandra's isColumnRestrictedByEq; token() and IN do not count). */
static bool restricted_by_eq(const cql_select_t *q, const cql_table_t *t, const cql_column_t *col)
{
    for (size_t i = 0; i < q->n_where; i++) {
        const cql_relation_t *rel = &q->where[i];
        if (rel->op != CQL_OP_EQ || (rel->lhs != CQL_LHS_COLUMN && rel->lhs != CQL_LHS_TUPLE)) {
            continue;
        }
        for (size_t k = 0; k < rel->n_columns; k++) {
            if (cql__column_find(t, rel->columns[k]) == col) {
                return true;
            }
        }
    }
    return false;
}


/* GROUP BY names primary-key columns in their declared order, skipping only columns
 * restricted by = (Cassandra 3.10+); groups are the whole partition key and the
 * clustering prefix up to the last column named. */
static int compile_group_by(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t, run_t *r,
                            base_error_t *err)
{
    static const char order_msg[] = "Group by currently only support groups of columns following "
                                    "their declared order in the PRIMARY KEY";
    size_t n_key = t->n_pk + t->n_ck, next = 0, n_ck = 0;
    for (size_t i = 0; i < q->n_group_by; i++) {
        const cql_column_t *col = cql__column_find(t, q->group_by[i]);
        if (col == NULL) {
            return base_error_set(err, WIRE_ERR_INVALID, "Undefined column name %s",
                                  q->group_by[i]);
        }
        if (col->kind != CQL_COL_PARTITION && col->kind != CQL_COL_CLUSTERING) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Group by is currently only supported on the columns of the "
                                  "PRIMARY KEY, got %s",
                                  col->name);
        }
        for (;;) {
            if (next == n_key) {
                return base_error_set(err, WIRE_ERR_INVALID, "%s", order_msg);
            }
            const cql_column_t *key = next < t->n_pk ? t->pk[next] : t->ck[next - t->n_pk];
            next++;
            n_ck += key->kind == CQL_COL_CLUSTERING;
            if (key == col) {
                break;
            }
            if (!restricted_by_eq(q, t, key)) {
                return base_error_set(err, WIRE_ERR_INVALID, "%s", order_msg);
            }
        }
    }
    if (next < t->n_pk) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Group by is not supported on only a part of the partition key");
    }
    if (n_ck > 0 && q->distinct) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Grouping on clustering columns is not allowed for SELECT DISTINCT "
                              "queries");
    }
    r->n_group = t->n_pk + n_ck;
    r->group_idx = base_arena_alloc(c->a, r->n_group * sizeof(*r->group_idx));
    for (size_t i = 0; i < r->n_group; i++) {
        const cql_column_t *key = i < t->n_pk ? t->pk[i] : t->ck[i - t->n_pk];
        r->group_idx[i] = (int)(key - t->cols);
    }
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


/* SELECT DISTINCT takes no PER PARTITION LIMIT, and restricts partition key and static
 * columns only. */
static int distinct_checks(const cql_select_t *q, const cql_table_t *t, base_error_t *err)
{
    if (q->per_partition_limit != NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
    }
    for (size_t i = 0; t->vt == NULL && i < q->n_where; i++) {
        const cql_relation_t *rel = &q->where[i];
        for (size_t k = 0; rel->lhs != CQL_LHS_TOKEN && k < rel->n_columns; k++) {
            const cql_column_t *col = cql__column_find(t, rel->columns[k]);
            if (col != NULL && col->kind != CQL_COL_PARTITION && col->kind != CQL_COL_STATIC) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "SELECT DISTINCT with WHERE clause only supports "
                                      "restriction by partition key and/or static columns.");
            }
        }
    }
    return BASE_OK;
}


/* Selectors that only name columns (or *): compiled, they hold no bound
 * value and no aggregate state, so one compilation serves every run. */
static bool plain_selectors(const cql_select_t *q)
{
    for (size_t i = 0; i < q->n_selectors; i++) {
        if (q->selectors[i]->kind != CQL_SEL_STAR && q->selectors[i]->kind != CQL_SEL_COLUMN) {
            return false;
        }
    }
    return q->n_group_by == 0;
}


/* The selection into sel. A prepared SELECT of plain columns compiles it
 * once into its own arena and reuses it while the schema stays (it was 9%
 * of a point read's instructions); anything else is compiled and bound for
 * this run, in the request's arena. */
static int compile_selection(cql_ctx_t *c, const cql_select_t *q, const cql_table_t *t,
                             cql_sel_t *sel, base_error_t *err)
{
    cql_prepared_t *p = c->prepared;
    bool keep =
        p != NULL && p->cache_epoch == c->e->schema_epoch && p->table == t && plain_selectors(q);
    if (!keep) {
        return cql__sel_compile(c, q, t, sel, err) == BASE_OK ? cql__sel_bind(c, sel, err)
                                                              : BASE_ERROR;
    }
    if (p->sel == NULL) {
        base_arena_reset(&p->sel_arena); /* what an older schema's selection held */
        base_arena_t *request = c->a;
        c->a = &p->sel_arena;
        cql_sel_t *kept = base_arena_alloc(&p->sel_arena, sizeof(*kept));
        int rc = cql__sel_compile(c, q, t, kept, err);
        c->a = request;
        if (rc != BASE_OK) {
            return rc;
        }
        p->sel = kept;
    }
    *sel = *p->sel; /* read only from here on: nothing to bind, nothing to aggregate */
    return BASE_OK;
}


/* Validate: the table, LIMIT and PER PARTITION LIMIT, DISTINCT, the selectors
 * and GROUP BY; fills r's settings before any storage is looked at. */
static int select_validate(cql_ctx_t *c, const cql_select_t *q, run_t *r, base_error_t *err)
{
    cql_table_t *t = NULL;
    c->out->stats.kind = CQL_OP_READ;
    if (cql__stmt_table(c, &q->table, &t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    memset(r, 0, sizeof(*r));
    r->c = c;
    r->q = q;
    r->t = t;
    r->distinct = q->distinct;
    cql_stats_t *st = &c->out->stats;
    if (t->vt == NULL) { /* system tables are not metered per table */
        st->keyspace = t->ks->name;
        st->table = t->name;
    }
    st->allow_filtering = q->allow_filtering;
    bool ok;
    r->limit = limit_value(c, q->limit, "[limit]", err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    r->per_partition = limit_value(c, q->per_partition_limit, "[per_partition_limit]", err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    if (q->distinct && cosmos && t->vt == NULL) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "SELECT DISTINCT is not supported by Azure Cosmos DB for Apache "
                              "Cassandra");
    }
    if (q->distinct && distinct_checks(q, t, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (q->distinct) {
        r->per_partition = 1;
    }
    const wire_query_params_t *params = c->params;
    r->page_size = params != NULL && params->page_size > 0 ? params->page_size : INT64_MAX;
    if (compile_selection(c, q, t, &r->sel, err) != BASE_OK) {
        return BASE_ERROR;
    }
    if (r->sel.aggregate && q->per_partition_limit != NULL && q->n_group_by == 0) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "PER PARTITION LIMIT is not allowed with aggregate queries.");
    }
    if (r->sel.aggregate) {
        r->page_size = INT64_MAX;
        if (cosmos && cql__sel_refuse_cosmos(t, &r->sel, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (q->n_group_by > 0 && compile_group_by(c, q, t, r, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return BASE_OK;
}


/* Plan: the WHERE clause into r->plan, ORDER BY, admission by the meter and the
 * paging state to resume from. System tables are planned as plain filters. */
static int select_plan(cql_ctx_t *c, const cql_select_t *q, run_t *r, resume_t *res,
                       base_error_t *err)
{
    const cql_table_t *t = r->t;
    if (t->vt != NULL) {
        return plan_virtual(c, t, q, &r->plan, err);
    }
    if (cql__plan_where(c, t, q->where, q->n_where, q->allow_filtering, &r->plan, err) != BASE_OK ||
        check_order(c, q, t, &r->plan, &r->reverse, err) != BASE_OK ||
        (q->distinct && cql__sel_check_distinct(c, t, &r->sel, r->plan.scan, err) != BASE_OK)) {
        return BASE_ERROR;
    }
    if (r->plan.uses_index && cql__sel_only_static(t, &r->sel)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Queries using 2ndary indexes don't support selecting only static "
                              "columns");
    }
    const wire_query_params_t *params = c->params;
    r->merge = q->n_order > 0 && r->plan.n_keys > 1 && (!r->sel.aggregate || r->n_group > 0);
    for (size_t i = 0; r->merge && i < q->n_order; i++) {
        const cql_column_t *col = cql__column_find(t, q->order[i].column);
        if ((size_t)col->position + 1 > r->n_order_ck) {
            r->n_order_ck = (size_t)col->position + 1;
        }
    }
    if (r->merge && r->n_group > 0) { /* groups are sorted, then LIMIT applies */
        r->merge_limit = r->limit;
        r->limit = INT64_MAX;
    }
    /* A LIMIT within the page size is run unpaged, as Cassandra does; a GROUP BY query is
     * always paged internally, so it is refused whenever the client pages. */
    if (r->merge && params != NULL && params->page_size > 0 &&
        (r->n_group > 0 || r->limit > params->page_size)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot page queries with both ORDER BY and a IN restriction on "
                              "the partition key; you must either remove the ORDER BY or the "
                              "IN and sort client side, or disable paging for this query");
    }
    cql_stats_t *st = &c->out->stats;
    st->point_read = r->plan.point && r->plan.n_keys == 1 && r->plan.n_filters == 0;
    if (r->plan.n_keys > 0) {
        cql__note_token(&c->out->stats, t, r->plan.tokens[0]);
    }
    st->index_lookup = r->plan.uses_index;
    bool one = r->plan.n_keys == 1;
    if (cql__admit(c, t, CQL_OP_READ, one, one ? r->plan.tokens[0] : 0, err) != BASE_OK) {
        return BASE_ERROR;
    }
    memset(res, 0, sizeof(*res));
    if (params != NULL && params->paging_state.len > 0 &&
        parse_paging_state(params->paging_state, res, &r->limit, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return BASE_OK;
}


/* Run: walk the plan, close the last group or aggregate and hand the rows, the
 * metadata and the paging state to the result. */
static int select_run(cql_ctx_t *c, run_t *r, const resume_t *res, base_error_t *err)
{
    if (r->t->vt != NULL) {
        if (run_virtual(r, err) != BASE_OK) {
            return BASE_ERROR;
        }
    } else {
        if (r->plan.scan) {
            run_scan(r, res);
        } else {
            run_keys(r, res);
        }
        if (r->n_group > 0 && r->in_group) {
            close_group(r);
        }
        if (r->merge) {
            merge_held(r);
        }
        if (r->more && !r->sel.aggregate) {
            c->out->paging_state = paging_state(r);
        }
        if (tombstone_guardrails(c, err) != BASE_OK) {
            return BASE_ERROR;
        }
    }
    if (r->n_group > 0) {
        if (r->in_group) {
            return_aggregate(r);
        }
    } else if (r->sel.aggregate) {
        return_aggregate(r);
    }
    c->out->kind = WIRE_RESULT_ROWS;
    c->out->cols = r->sel.specs;
    c->out->n_cols = cql__sel_width(&r->sel);
    c->out->cells = r->cells;
    c->out->n_rows = r->n_rows;
    return BASE_OK;
}


int cql__exec_select(cql_ctx_t *c, const cql_select_t *q, base_error_t *err)
{
    run_t r;
    resume_t res = {0};
    if (select_validate(c, q, &r, err) != BASE_OK || select_plan(c, q, &r, &res, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return select_run(c, &r, &res, err);
}
