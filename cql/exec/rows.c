/*
 * rows.c - turning stored cells back into CQL rows. Partition key values
 * come from the composed key, clustering values from decoding the
 * order-preserving key, regular values from cells; multi-cell collections
 * are reassembled in element order (list elements are keyed by timeuuid,
 * set elements by value, map entries by key).
 */
#include "cql/exec/exec.h"


void cql__ck_encode(base_buf_t *b, const cql_table_t *t, const wire_value_t *vals, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cql__keyenc_append(b, t->ck[i]->type, vals[i], t->ck[i]->desc);
    }
}


static int32_t remaining_ttl(const cql_ctx_t *c, int64_t expires_us)
{
    if (expires_us == STORAGE_NO_EXPIRY) {
        return 0;
    }
    int64_t left = (expires_us - c->now_us + 999999) / 1000000;
    return left > 0 ? (int32_t)left : 1;
}


/* Column index by storage id: linear, tables have tens of columns. */
static int col_index(const cql_table_t *t, uint32_t id)
{
    for (size_t i = 0; i < t->n_cols; i++) {
        if (t->cols[i].id == id) {
            return (int)i;
        }
    }
    return -1;
}


/* A set's or map's elements in CQL order: storage orders them by the bytes of their keys,
 * which is that order for text or blobs but not for signed numbers, decimals, uuids or
 * tuples ({-1, 1}, {1.23, 4.56}). */
static void sort_elements(const wire_type_t *t, wire_value_t *keys, wire_value_t *vals, size_t *n)
{
    if (t->id == WIRE_TYPE_LIST) {
        return;
    }
    for (size_t i = 1; i < *n; i++) {
        if (cql__value_compare(t->sub[0], keys[i - 1], keys[i]) >= 0) {
            cql__values_sort(t->sub[0], keys, t->id == WIRE_TYPE_MAP ? vals : NULL, n, true);
            return;
        }
    }
}


static void rec_add_cells(cql_ctx_t *c, const cql_table_t *t, const storage_row_view_t *row,
                          cql_rec_t *out)
{
    size_t i = 0;
    while (i < row->n_cells) {
        const storage_cell_t *cell = &row->cells[i];
        int idx = col_index(t, cell->col);
        size_t j = i + 1;
        while (j < row->n_cells && row->cells[j].col == cell->col) {
            j++;
        }
        if (idx < 0) { /* a dropped column */
            i = j;
            continue;
        }
        const cql_column_t *col = &t->cols[idx];
        out->ts[idx] = cell->ts;
        out->ttl[idx] = remaining_ttl(c, cell->expires_us);
        if (!cql__multi_cell(col)) {
            out->vals[idx].ptr = cell->value;
            out->vals[idx].len = (int32_t)cell->value_len;
            out->bytes += cell->value_len;
        } else {
            size_t n = j - i;
            wire_value_t *keys = base_arena_alloc(c->a, n * sizeof(*keys));
            wire_value_t *vals = base_arena_alloc(c->a, n * sizeof(*vals));
            for (size_t k = 0; k < n; k++) {
                const storage_cell_t *e = &row->cells[i + k];
                bool list = col->type->id == WIRE_TYPE_LIST;
                keys[k].ptr = list ? e->value : e->path;
                keys[k].len = (int32_t)(list ? e->value_len : e->path_len);
                vals[k].ptr = e->value;
                vals[k].len = (int32_t)e->value_len;
                out->bytes += e->value_len + e->path_len;
                if (e->ts > out->ts[idx]) {
                    out->ts[idx] = e->ts;
                }
            }
            sort_elements(col->type, keys, vals, &n);
            out->vals[idx] = cql__collection_build(
                col->type, keys, col->type->id == WIRE_TYPE_MAP ? vals : NULL, n, c->a);
        }
        i = j;
    }
}


bool cql__rec_build(cql_ctx_t *c, const cql_table_t *t, const storage_partition_t *p,
                    const storage_row_view_t *row, const storage_row_view_t *static_row,
                    cql_rec_t *out)
{
    memset(out, 0, sizeof(*out));
    out->vals = base_arena_alloc(c->a, t->n_cols * sizeof(*out->vals));
    out->ts = base_arena_alloc(c->a, t->n_cols * sizeof(*out->ts));
    out->ttl = base_arena_calloc(c->a, t->n_cols, sizeof(*out->ttl));
    for (size_t i = 0; i < t->n_cols; i++) {
        out->vals[i].ptr = NULL;
        out->vals[i].len = WIRE_VALUE_NULL;
        out->ts[i] = INT64_MIN;
    }
    out->pk = storage_partition_key(p, &out->pk_len);
    out->token = storage_partition_token(p);
    out->bytes = out->pk_len;
    wire_value_t pk = {out->pk, (int32_t)out->pk_len};
    wire_value_t *parts = base_arena_alloc(c->a, t->n_pk * sizeof(*parts));
    if (!cql__pk_decompose(pk, t->n_pk, parts)) {
        return false;
    }
    for (size_t i = 0; i < t->n_pk; i++) {
        out->vals[t->pk[i] - t->cols] = parts[i];
    }
    if (row != NULL && !row->is_static) {
        out->ck = row->ck;
        out->ck_len = row->ck_len;
        out->bytes += row->ck_len;
        size_t off = 0;
        for (size_t i = 0; i < t->n_ck; i++) {
            const cql_column_t *col = t->ck[i];
            size_t used = cql__keyenc_decode(col->type, row->ck + off, row->ck_len - off, col->desc,
                                             c->a, &out->vals[col - t->cols]);
            if (used == 0) {
                return false;
            }
            off += used;
        }
        rec_add_cells(c, t, row, out);
    }
    if (static_row != NULL) {
        rec_add_cells(c, t, static_row, out);
    }
    return true;
}


bool cql__stored_row(const cql_ctx_t *c, storage_partition_t *p, const uint8_t *ck, size_t ck_len,
                     storage_row_view_t *out)
{
    storage_bound_t b = {ck, ck_len, true};
    const storage_bound_t *bound = ck_len > 0 ? &b : NULL; /* no clustering key: the one row */
    storage_row_iter_t *it = storage_row_iter_new(p, bound, bound, false, c->now_us);
    bool found = storage_row_iter_next(it, out);
    if (found && out->n_cells > 0) {
        /* The cell array lives in the cursor; the bytes it points to stay until a write. */
        storage_cell_t *cells = base_arena_alloc(c->a, out->n_cells * sizeof(*cells));
        memcpy(cells, out->cells, out->n_cells * sizeof(*cells));
        out->cells = cells;
    }
    storage_row_iter_free(it);
    return found;
}


bool cql__rec_read(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                   const uint8_t *ck, size_t ck_len, cql_rec_t *out)
{
    storage_partition_t *p = storage_partition_get(t->st, token, pk.ptr, (size_t)pk.len);
    storage_row_view_t st, rv;
    if (p == NULL || !cql__stored_row(c, p, ck, ck_len, &rv)) {
        return false;
    }
    bool has_static = t->n_ck > 0 && storage_partition_static(p, c->now_us, &st);
    return cql__rec_build(c, t, p, &rv, has_static ? &st : NULL, out);
}
