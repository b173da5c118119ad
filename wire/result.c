/*
 * result.c - RESULT message bodies (spec 4.2.5: Void, Rows, Set_keyspace,
 * Prepared, Schema_change) and the SCHEMA_CHANGE EVENT (spec 4.2.6), wire
 * layer.
 *
 * Invariants:
 *  - Column metadata uses the global table spec exactly when there is at
 *    least one column and every column names the same keyspace and table,
 *    as Cassandra does; drivers accept either form.
 *  - A Rows cell is a [bytes]: any negative length goes out as null (-1),
 *    since "unset" has no meaning in a result.
 *  - Prepared bind metadata carries partition-key indexes only from v4 on.
 */
#include "wire/wire.h"


static bool same_name(const char *a, const char *b)
{
    return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}


static bool shares_one_table(const wire_col_spec_t *cols, size_t n)
{
    if (n == 0) {
        return false;
    }
    for (size_t i = 1; i < n; i++) {
        if (!same_name(cols[i].keyspace, cols[0].keyspace) ||
            !same_name(cols[i].table, cols[0].table)) {
            return false;
        }
    }
    return true;
}


/* [<global_table_spec>?<col_spec_1>...<col_spec_n>] */
static void put_col_specs(base_buf_t *b, const wire_col_spec_t *cols, size_t n, bool global)
{
    if (global) {
        wire_put_cstring(b, cols[0].keyspace);
        wire_put_cstring(b, cols[0].table);
    }
    for (size_t i = 0; i < n; i++) {
        if (!global) {
            wire_put_cstring(b, cols[i].keyspace);
            wire_put_cstring(b, cols[i].table);
        }
        wire_put_cstring(b, cols[i].name);
        wire_put_type(b, cols[i].type);
    }
}


static void put_count(base_buf_t *b, size_t n)
{
    BASE_ASSERT(n <= INT32_MAX);
    base_buf_put_u32(b, (uint32_t)n);
}


void wire_encode_result_void(base_buf_t *b)
{
    base_buf_put_u32(b, WIRE_RESULT_VOID);
}


void wire_encode_result_set_keyspace(base_buf_t *b, const char *ks)
{
    base_buf_put_u32(b, WIRE_RESULT_SET_KEYSPACE);
    wire_put_cstring(b, ks);
}


void wire_encode_rows_metadata(base_buf_t *b, const wire_col_spec_t *cols, size_t n_cols,
                               wire_value_t paging_state, bool no_metadata)
{
    bool global = !no_metadata && shares_one_table(cols, n_cols);
    bool more = paging_state.len >= 0;
    uint32_t flags = (global ? WIRE_ROWS_GLOBAL_TABLES_SPEC : 0) |
                     (more ? WIRE_ROWS_HAS_MORE_PAGES : 0) |
                     (no_metadata ? WIRE_ROWS_NO_METADATA : 0);
    base_buf_put_u32(b, flags);
    put_count(b, n_cols);
    if (more) {
        wire_put_bytes(b, paging_state.ptr, paging_state.len);
    }
    if (!no_metadata) {
        put_col_specs(b, cols, n_cols, global);
    }
}


void wire_encode_result_rows(base_buf_t *b, const wire_col_spec_t *cols, size_t n_cols,
                             wire_value_t paging_state, bool no_metadata, const wire_value_t *cells,
                             size_t n_rows)
{
    base_buf_put_u32(b, WIRE_RESULT_ROWS);
    wire_encode_rows_metadata(b, cols, n_cols, paging_state, no_metadata);
    put_count(b, n_rows);
    size_t n_cells = n_rows * n_cols;
    for (size_t i = 0; i < n_cells; i++) {
        wire_put_bytes(b, cells[i].ptr, cells[i].len);
    }
}


void wire_encode_result_prepared(base_buf_t *b, uint8_t version, const uint8_t *id, uint16_t id_len,
                                 const wire_col_spec_t *binds, size_t n_binds,
                                 const uint16_t *pk_indexes, size_t n_pk,
                                 const wire_col_spec_t *cols, size_t n_cols)
{
    base_buf_put_u32(b, WIRE_RESULT_PREPARED);
    wire_put_short_bytes(b, id, id_len);

    bool global = shares_one_table(binds, n_binds);
    base_buf_put_u32(b, global ? WIRE_ROWS_GLOBAL_TABLES_SPEC : 0);
    put_count(b, n_binds);
    if (version >= 4) {
        put_count(b, n_pk);
        for (size_t i = 0; i < n_pk; i++) {
            base_buf_put_u16(b, pk_indexes[i]);
        }
    }
    put_col_specs(b, binds, n_binds, global);

    /* <result_metadata>: empty (No_metadata, 0 columns) for non-SELECTs. */
    wire_value_t no_paging = {NULL, WIRE_VALUE_NULL};
    wire_encode_rows_metadata(b, cols, n_cols, no_paging, n_cols == 0);
}


/* <change_type><target><options>, shared by RESULT and EVENT. */
static void put_schema_change(base_buf_t *b, const wire_schema_change_t *sc)
{
    wire_put_cstring(b, sc->change);
    wire_put_cstring(b, sc->target);
    wire_put_cstring(b, sc->keyspace);
    if (strcmp(sc->target, "KEYSPACE") == 0) {
        return;
    }
    wire_put_cstring(b, sc->name);
    if (strcmp(sc->target, "FUNCTION") == 0 || strcmp(sc->target, "AGGREGATE") == 0) {
        wire_put_string_list(b, sc->arg_types, sc->n_arg_types);
    }
}


void wire_encode_result_schema_change(base_buf_t *b, const wire_schema_change_t *sc)
{
    base_buf_put_u32(b, WIRE_RESULT_SCHEMA_CHANGE);
    put_schema_change(b, sc);
}


void wire_encode_event_schema_change(base_buf_t *b, const wire_schema_change_t *sc)
{
    wire_put_cstring(b, "SCHEMA_CHANGE");
    put_schema_change(b, sc);
}
