/*
 * batch.c - BATCH: every statement is checked and its mutations deferred
 * (c->defer) onto c->pending, then the batch's shape is checked against the
 * guard-rails and the mutations are written in order. Nothing is written
 * when a statement fails or a condition does not hold; only a commit log
 * failure can leave a batch part applied.
 */
#include "cql/exec/exec.h"


/* Appends a checked mutation to the batch's pending list (arena memory). */
void cql__batch_defer(cql_ctx_t *c, const cql_table_t *t, const storage_mutation_t *m)
{
    if (c->n_pending == c->cap_pending) {
        size_t cap = c->cap_pending ? c->cap_pending * 2 : 16;
        cql_pending_t *p = base_arena_alloc(c->a, cap * sizeof(*p));
        if (c->n_pending > 0) {
            memcpy(p, c->pending, c->n_pending * sizeof(*p));
        }
        c->pending = p;
        c->cap_pending = cap;
    }
    c->pending[c->n_pending++] = (cql_pending_t){t, *m};
}


/* A counter value a batch already holds for this cell, newest first: two
 * increments of one counter in one batch add up. The older cell is taken out of
 * its pending mutation, since the newer one (at the same batch timestamp) holds
 * the sum; left in, the larger value would win the timestamp tie. */
bool cql__batch_pending_counter(const cql_ctx_t *c, const cql_table_t *t,
                                const storage_mutation_t *m, uint32_t col, wire_value_t *out)
{
    for (size_t i = c->n_pending; i-- > 0;) {
        cql_pending_t *p = &c->pending[i];
        if (p->t != t || p->m.pk_len != m->pk_len || p->m.ck_len != m->ck_len ||
            memcmp(p->m.pk, m->pk, m->pk_len) != 0 ||
            (m->ck_len > 0 && memcmp(p->m.ck, m->ck, m->ck_len) != 0)) {
            continue;
        }
        /* the pending cells are the batch's own arena copies */
        storage_cell_t *cells = (storage_cell_t *)p->m.cells;
        for (size_t k = 0; k < p->m.n_cells; k++) {
            if (cells[k].col == col) {
                *out = (wire_value_t){cells[k].value, (int32_t)cells[k].value_len};
                memmove(&cells[k], &cells[k + 1], (p->m.n_cells - k - 1) * sizeof(*cells));
                p->m.n_cells--;
                return true;
            }
        }
    }
    return false;
}


/* The distinct partitions and tables of a batch, and its size, for the guard-rails. */
typedef struct batch_shape_s {
    size_t bytes;
    size_t n_partitions;
    const char *tables; /* "[ks.a, ks.b]", as Cassandra prints a set */
    size_t n_tables;
    bool counters, others;
} batch_shape_t;


static void batch_shape(cql_ctx_t *c, batch_shape_t *out)
{
    memset(out, 0, sizeof(*out));
    base_buf_t names;
    base_buf_init(&names);
    base_buf_put_u8(&names, '[');
    for (size_t i = 0; i < c->n_pending; i++) {
        const cql_pending_t *p = &c->pending[i];
        out->bytes += cql__mutation_bytes(&p->m);
        out->counters |= p->t->has_counters;
        out->others |= !p->t->has_counters;
        bool seen_part = false, seen_table = false;
        for (size_t j = 0; j < i; j++) {
            const cql_pending_t *q = &c->pending[j];
            seen_table |= q->t == p->t;
            seen_part |= q->t == p->t && q->m.pk_len == p->m.pk_len &&
                         memcmp(q->m.pk, p->m.pk, p->m.pk_len) == 0;
        }
        out->n_partitions += !seen_part;
        if (!seen_table) {
            base_buf_printf(&names, "%s%s.%s", out->n_tables++ ? ", " : "", p->t->ks->name,
                            p->t->name);
        }
    }
    base_buf_put_u8(&names, ']');
    out->tables = base_arena_strndup(c->a, (const char *)names.data, names.len);
    base_buf_fini(&names);
}


/* Cassandra's batch guard-rails (cassandra.yaml's batch_size_warn_threshold_in_kb,
 * batch_size_fail_threshold_in_kb, unlogged_batch_across_partitions_warn_threshold):
 * size checks only for batches over several partitions. Under cosmos, where the service
 * has none of them, each is an advisory warning; the crossed ones go to the stats. */
static int batch_guardrails(cql_ctx_t *c, int type, const batch_shape_t *b, base_error_t *err)
{
    const cql_guardrails_t *g = &c->e->cfg.guardrails;
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    size_t warn = g->batch_size_warn_kb * 1024, fail = g->batch_size_fail_kb * 1024;
    cql_stats_t *st = &c->out->stats;
    if (c->n_pending > 0 && st->table == NULL) { /* counted against the first table */
        st->keyspace = c->pending[0].t->ks->name;
        st->table = c->pending[0].t->name;
    }
    if (b->n_partitions > 1 && b->bytes > fail) {
        st->guardrails |= CQL_GUARD_BATCH_SIZE_FAIL;
        if (!cosmos) {
            return base_error_set(err, WIRE_ERR_INVALID, "Batch too large");
        }
        cql__warn(c,
                  "Batch for %s is of size %zu, exceeding specified threshold of %zu by %zu. "
                  "(see batch_size_fail_threshold_in_kb: Apache Cassandra refuses it with "
                  "\"Batch too large\"; Azure Cosmos DB takes requests up to 2 MB)",
                  b->tables, b->bytes, fail, b->bytes - fail);
    } else if (b->n_partitions > 1 && b->bytes > warn) {
        st->guardrails |= CQL_GUARD_BATCH_SIZE_WARN;
        cql__warn(c, "Batch for %s is of size %zu, exceeding specified threshold of %zu by %zu.",
                  b->tables, b->bytes, warn, b->bytes - warn);
    }
    if (type != WIRE_BATCH_LOGGED && b->n_partitions > g->unlogged_batch_partitions_warn) {
        st->guardrails |= CQL_GUARD_UNLOGGED_PARTITIONS;
        cql__warn(c,
                  "Unlogged batch covering %zu partitions detected against table%s %s. You "
                  "should use a logged batch for atomicity, or asynchronous writes for "
                  "performance.",
                  b->n_partitions, b->n_tables == 1 ? "" : "s", b->tables);
    }
    return BASE_OK;
}


/* After one statement of a batch ran: the part of its table (cql__admit found it)
 * counts what it read. */
static void count_statement(cql_ctx_t *c, uint16_t consistency)
{
    if (c->cur_part != NULL) {
        c->cur_part->rows_read += c->out->stats.rows_read;
        c->cur_part->consistency = consistency;
    }
}


/* A conditional batch is one Paxos round on one partition of one table. */
static int batch_spans(const cql_ctx_t *c, base_error_t *err)
{
    for (size_t i = 1; i < c->n_pending; i++) {
        const cql_pending_t *a = &c->pending[0], *p = &c->pending[i];
        if (p->t != a->t) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Batch with conditions cannot span multiple tables");
        }
        if (p->m.pk_len != a->m.pk_len || memcmp(p->m.pk, a->m.pk, a->m.pk_len) != 0) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Batch with conditions cannot span multiple partitions");
        }
    }
    return BASE_OK;
}


static bool batch_has_conditions(const cql_batch_t *b)
{
    for (size_t i = 0; i < b->n_stmts; i++) {
        const cql_stmt_t *st = b->stmts[i];
        if ((st->kind == CQL_STMT_INSERT && st->u.insert.if_not_exists) ||
            (st->kind == CQL_STMT_UPDATE && cql__has_conditions(&st->u.update.cond)) ||
            (st->kind == CQL_STMT_DELETE && cql__has_conditions(&st->u.del.cond))) {
            return true;
        }
    }
    return false;
}


/* Checks and runs each statement of a batch with its bind values; their mutations
 * are deferred (c->defer), so a refusal leaves nothing written. */
static int run_statements(cql_ctx_t *c, const cql_batch_t *b, const wire_batch_t *wb,
                          uint16_t consistency, size_t *rows_read, base_error_t *err)
{
    for (size_t i = 0; i < b->n_stmts; i++) {
        const cql_stmt_t *st = b->stmts[i];
        if (st->kind != CQL_STMT_INSERT && st->kind != CQL_STMT_UPDATE &&
            st->kind != CQL_STMT_DELETE) {
            return base_error_set(err, WIRE_ERR_INVALID,
                                  "Invalid statement in batch: only UPDATE, INSERT and DELETE "
                                  "statements are allowed.");
        }
        if (wb != NULL) {
            c->binds.values = wb->stmts[i].values;
            c->binds.n = wb->stmts[i].n_values;
            c->binds.names = st->bind_names;
            if (c->binds.n != st->n_binds) {
                return base_error_set(err, WIRE_ERR_INVALID,
                                      "There were %zu markers(?) in CQL but %zu bound variables",
                                      st->n_binds, c->binds.n);
            }
        }
        memset(&c->out->stats, 0, sizeof(c->out->stats));
        c->cur_part = NULL;
        if (cql__exec_stmt(c, st, err) != BASE_OK) {
            return BASE_ERROR; /* nothing was written */
        }
        *rows_read += c->out->stats.rows_read;
        count_statement(c, consistency);
    }
    return BASE_OK;
}


int cql__exec_batch(cql_ctx_t *c, const cql_batch_t *b, const wire_batch_t *wb, base_error_t *err)
{
    bool cosmos = c->e->cfg.profile == CQL_PROFILE_COSMOS;
    int type = wb ? wb->type : b->type;
    if (cosmos && type == WIRE_BATCH_LOGGED) {
        return base_error_set(err, WIRE_ERR_SERVER_ERROR,
                              "Logged batches are not supported by the service yet. Please use "
                              "unlogged batches instead.");
    }
    if (b->using_.timestamp != NULL && batch_has_conditions(b)) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot provide custom timestamp for conditional BATCH");
    }
    if (b->using_.timestamp != NULL && type == WIRE_BATCH_COUNTER) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Cannot provide custom timestamp for counter BATCH");
    }
    bool ok;
    c->batch_ts = cql__write_timestamp(c, &b->using_, err, &ok);
    if (!ok) {
        return BASE_ERROR;
    }
    uint16_t consistency = c->out->stats.consistency;
    size_t rows_read = 0;
    c->in_batch = true;
    c->defer = true;
    if (run_statements(c, b, wb, consistency, &rows_read, err) != BASE_OK) {
        return BASE_ERROR; /* nothing was written */
    }
    c->defer = false;
    batch_shape_t shape;
    batch_shape(c, &shape);
    if (shape.counters && shape.others) {
        return base_error_set(err, WIRE_ERR_INVALID,
                              "Counter and non-counter mutations cannot exist in the same batch");
    }
    if (batch_guardrails(c, type, &shape, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql_stats_t *total = &c->out->stats;
    unsigned crossed = total->guardrails;
    memset(total, 0, sizeof(*total));
    total->guardrails = crossed;
    total->kind = CQL_OP_BATCH;
    total->consistency = consistency;
    total->n_statements = b->n_stmts;
    total->shape = c->shape;
    total->rows_read = rows_read;
    if (c->n_parts > 1) { /* charged to each table it writes */
        total->parts = c->parts;
        total->n_parts = c->n_parts;
    }
    if (c->batch_cas != NULL && batch_spans(c, err) != BASE_OK) {
        return BASE_ERROR;
    }
    cql__lwt_batch_result(c);
    if (!c->lwt_refused && cql__write_pending(c, err) != BASE_OK) {
        return BASE_ERROR; /* only a commit log failure: nothing was applied */
    }
    if (c->out->kind != WIRE_RESULT_ROWS) {
        c->out->kind = WIRE_RESULT_VOID;
    }
    return BASE_OK;
}
