/*
 * cost.c - the RU cost model: what one operation is charged, in one place.
 * Layer: ru_meter (base only). Pure: no state, no clock.
 *
 * Notation: c.<name> is a coefficient of ru_model_t (RU_MODEL_MAP; shipped
 * as cost_model.json). KB(b, r) = max(1, ceil(b / max(r, 1) / 1024)) is the
 * size of an average row in whole KB. F = c.strong_read_factor when the
 * account is Strong or Bounded staleness and the request is not at ONE or
 * LOCAL_ONE, else 1.
 *
 *   PointRead(kb) = c.point_read_1kb
 *                   + (kb - 1) * (c.point_read_100kb - c.point_read_1kb) / 99
 *   Insert(kb)    = c.write_1kb + (kb - 1) * c.write_per_extra_kb
 *                   + n_indexes * c.write_per_index
 *
 *   R (read)   point read: F * max(rows_read, 1) * PointRead(KB(bytes_read, rows_read))
 *              query page: F * ( c.query_base + rows_read * c.query_per_row
 *                               + bytes_read / 1024 * c.query_per_kb
 *                               + [ALLOW FILTERING] rows_read * c.filter_per_row
 *                               + [index lookup] c.index_lookup
 *                               + [cross-partition] n_physical * c.cross_partition_per_physical )
 *   W (write)  (rows_written - overwrites) * Insert(kw)
 *              + overwrites * c.write_replace_factor * Insert(kw),  kw = KB(bytes_written,
 * rows_written) D (delete) rows_deleted * c.delete_factor * Insert(KB(bytes_deleted,
 * rows_deleted)); a DELETE that removed nothing costs PointRead(1) (the lookup)
 *
 *   READ = R;  WRITE = W (+ R if it read rows);  DELETE = D (+ R if it read rows)
 *   BATCH = W + D (+ R if it read rows) + n_statements * c.batch_per_statement
 *   LWT = c.lwt_extra + R as a point read + W + D  (W and D are zero when not applied)
 *   TTL_EXPIRY = rows_deleted * c.ttl_delete_factor * Insert(KB(bytes_deleted, rows_deleted))
 *   DDL, NONE = 0.  Every charge is rounded to hundredths (the service reports e.g. 8.19).
 *
 * Sources (see /work/shared/reference/cosmos-cassandra-api-facts.md section 3):
 *  - point read 1 KB = 1 RU, 100 KB = 10 RU; reads doubled under Strong and
 *    Bounded staleness; insert of 1 KB without indexing ~5.5 RU; replace = 2x
 *    insert; query pages charged one at a time (optimize-cost-reads-writes.md)
 *  - cross-partition: "2-3 RU/s additional charge for every physical
 *    partition" (partitioning-overview.md): 2.5
 *  - unlogged batches give no RU benefit, the sum of the rows (Spark guidance)
 *  - Cassandra API does not index every column (secondary-indexing.md)
 * Inferred, to calibrate (no published figure): the write growth per KB
 * (chosen so 100 KB costs 10x 1 KB, as reads do), per-index, delete, TTL,
 * query base/row/KB, ALLOW FILTERING, index lookup and LWT coefficients.
 */
#include <math.h>

#include "ru_meter/ru_int.h"

static const struct {
    const char *name;
    size_t offset;
    double def;
    const char *doc;
} model_keys[] = {
#define XX(name, def, doc) {#name, offsetof(ru_model_t, name), def, doc},
    RU_MODEL_MAP(XX)
#undef XX
};

#define N_MODEL_KEYS (sizeof(model_keys) / sizeof(model_keys[0]))


void ru_model_defaults(ru_model_t *m)
{
#define XX(name, def, doc) m->name = (def);
    RU_MODEL_MAP(XX)
#undef XX
}


static const size_t *model_offset(const char *name)
{
    for (size_t i = 0; i < N_MODEL_KEYS; i++) {
        if (strcmp(model_keys[i].name, name) == 0) {
            return &model_keys[i].offset;
        }
    }
    return NULL;
}


int ru_model_set(ru_model_t *m, const char *name, double value)
{
    const size_t *off = model_offset(name);
    if (off == NULL) {
        return BASE_ENOTFOUND;
    }
    if (!isfinite(value) || value < 0) {
        return BASE_EINVAL;
    }
    memcpy((char *)m + *off, &value, sizeof(value));
    return BASE_OK;
}


int ru_model_get(const ru_model_t *m, const char *name, double *out)
{
    const size_t *off = model_offset(name);
    if (off == NULL) {
        return BASE_ENOTFOUND;
    }
    memcpy(out, (const char *)m + *off, sizeof(*out));
    return BASE_OK;
}


size_t ru_model_count(void)
{
    return N_MODEL_KEYS;
}


const char *ru_model_name(size_t i)
{
    return i < N_MODEL_KEYS ? model_keys[i].name : NULL;
}


const char *ru_model_doc(size_t i)
{
    return i < N_MODEL_KEYS ? model_keys[i].doc : NULL;
}


/* Average row size in whole KB, at least 1. */
static double row_kb(size_t bytes, size_t rows)
{
    double per_row = (double)bytes / (double)(rows > 0 ? rows : 1);
    double kb = ceil(per_row / 1024.0);
    return kb < 1 ? 1 : kb;
}


static double point_read(const ru_model_t *c, double kb)
{
    return c->point_read_1kb + (kb - 1) * (c->point_read_100kb - c->point_read_1kb) / 99.0;
}


static double insert(const ru_model_t *c, double kb, uint32_t n_indexes)
{
    return c->write_1kb + (kb - 1) * c->write_per_extra_kb + n_indexes * c->write_per_index;
}


static double read_factor(const ru_model_t *c, ru_consistency_t account, uint16_t cl)
{
    bool strong = account == RU_CONSISTENCY_STRONG || account == RU_CONSISTENCY_BOUNDED_STALENESS;
    bool one = cl == RU_CL_ONE || cl == RU_CL_LOCAL_ONE;
    return strong && !one ? c->strong_read_factor : 1.0;
}


static double read_cost(const ru_model_t *c, double f, const ru_op_t *op, bool point)
{
    if (point) {
        size_t rows = op->rows_read > 0 ? op->rows_read : 1;
        return f * (double)rows * point_read(c, row_kb(op->bytes_read, rows));
    }
    double ru = c->query_base + (double)op->rows_read * c->query_per_row +
                (double)op->bytes_read / 1024.0 * c->query_per_kb;
    if (op->allow_filtering) {
        ru += (double)op->rows_read * c->filter_per_row;
    }
    if (op->index_lookup) {
        ru += c->index_lookup;
    }
    if (op->cross_partition) {
        ru += (op->n_physical > 0 ? op->n_physical : 1) * c->cross_partition_per_physical;
    }
    return f * ru;
}


static double write_cost(const ru_model_t *c, const ru_op_t *op)
{
    if (op->rows_written == 0) {
        return 0;
    }
    size_t over = op->overwrites < op->rows_written ? op->overwrites : op->rows_written;
    double one = insert(c, row_kb(op->bytes_written, op->rows_written), op->n_indexes);
    return (double)(op->rows_written - over) * one + (double)over * c->write_replace_factor * one;
}


static double delete_cost(const ru_model_t *c, const ru_op_t *op, double factor)
{
    double one = insert(c, row_kb(op->bytes_deleted, op->rows_deleted), op->n_indexes);
    return (double)op->rows_deleted * factor * one;
}


double ru_cost(const ru_model_t *c, ru_consistency_t account, const ru_op_t *op)
{
    double f = read_factor(c, account, op->consistency);
    double side_read = op->rows_read > 0 ? read_cost(c, f, op, op->point_read) : 0;
    double ru = 0;

    switch (op->kind) {
    case RU_OP_NONE:
    case RU_OP_DDL:
        return 0;
    case RU_OP_READ:
        ru = read_cost(c, f, op, op->point_read);
        break;
    case RU_OP_WRITE:
        ru = side_read + write_cost(c, op);
        break;
    case RU_OP_DELETE:
        ru = side_read + delete_cost(c, op, c->delete_factor);
        if (op->rows_deleted == 0 && op->rows_read == 0) {
            ru += point_read(c, 1);
        }
        break;
    case RU_OP_BATCH:
        ru = side_read + write_cost(c, op) + delete_cost(c, op, c->delete_factor) +
             (double)op->n_statements * c->batch_per_statement;
        break;
    case RU_OP_LWT:
        ru = c->lwt_extra + read_cost(c, f, op, true) + write_cost(c, op) +
             delete_cost(c, op, c->delete_factor);
        break;
    case RU_OP_TTL_EXPIRY:
        ru = delete_cost(c, op, c->ttl_delete_factor);
        break;
    }
    return round(ru * 100.0) / 100.0;
}
