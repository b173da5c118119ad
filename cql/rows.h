/*
 * rows.h - materialised rows shared by the SELECT and modification paths
 * (internal to cql/). A record is one CQL row in the table's column order,
 * rebuilt from storage cells (collections reassembled from their element
 * cells), with each cell's write time and remaining TTL for writetime() and
 * ttl().
 */
#ifndef CQL_ROWS_H
#define CQL_ROWS_H

#include "cql/cql_int.h"

typedef struct cql_rec_s {
    wire_value_t *vals; /* n_cols, WIRE_VALUE_NULL where absent */
    int64_t *ts;        /* INT64_MIN where absent */
    int32_t *ttl;       /* remaining seconds, 0 for none */
    const uint8_t *pk;  /* composed partition key */
    size_t pk_len;
    int64_t token;
    const uint8_t *ck; /* encoded clustering key, NULL for a static-only row */
    size_t ck_len;
    size_t bytes; /* payload size, for metering */
} cql_rec_t;

/* Builds the record of one stored row (static cells merged in when
 * static_row is given). Returns false if the stored bytes are malformed. */
bool cql__rec_build(cql_ctx_t *c, const cql_table_t *t, const storage_partition_t *p,
                    const storage_row_view_t *row, const storage_row_view_t *static_row,
                    cql_rec_t *out);
/* The live stored row of partition p at clustering key ck (the only row when
 * ck_len is 0). The view borrows from storage until the next write. */
bool cql__stored_row(const cql_ctx_t *c, storage_partition_t *p, const uint8_t *ck, size_t ck_len,
                     storage_row_view_t *out);
/* Reads one row by full primary key; false when it does not exist. */
bool cql__rec_read(cql_ctx_t *c, const cql_table_t *t, wire_value_t pk, int64_t token,
                   const uint8_t *ck, size_t ck_len, cql_rec_t *out);

/* Encodes the clustering prefix of n values (ck[0..n)) into b. */
void cql__ck_encode(base_buf_t *b, const cql_table_t *t, const wire_value_t *vals, size_t n);

#endif
