/*
 * prefetch.c - which partition a held request will touch, part of cql/exec/:
 * the lookahead behind cql_prefetch_add (see cql.h).
 *
 * A request's partition is a cache miss, often more (the index leaf, the
 * partition, the rest of its row), and on a large table nearly every request
 * pays them: run one after another they are most of a single-row request's
 * cost. Computed for a whole batch of held requests first, they are fetched
 * side by side, in three rounds, each reading what the one before brought.
 *
 * The key is computed from the bound values as they came, without the
 * checks execution makes: a wrong or absent key costs a wasted prefetch,
 * never a wrong answer, as nothing here changes state.
 */
#include "cql/exec/exec.h"

/* A key longer than this is not worth composing on the stack. */
#define PK_MAX       256
/* Nor a key of more parts than fit it (each takes 3 bytes or more). */
#define PK_PARTS_MAX (PK_MAX / 3)


static const cql_qname_t *target(const cql_stmt_t *st)
{
    switch (st->kind) {
    case CQL_STMT_SELECT:
        return &st->u.select.table;
    case CQL_STMT_INSERT:
        return &st->u.insert.table;
    case CQL_STMT_UPDATE:
        return &st->u.update.table;
    case CQL_STMT_DELETE:
        return &st->u.del.table;
    default:
        return NULL;
    }
}


void cql_prefetch_add(cql_engine_t *e, const cql_session_t *s, wire_value_t id,
                      const wire_query_params_t *params, cql_prefetch_t *pf)
{
    if (pf->n == CQL_PREFETCH_MAX || id.len != 16 ||
        (params->flags & WIRE_QF_NAMES_FOR_VALUES) != 0) {
        return;
    }
    const cql_prepared_t *p = cql__prepared_find(e, id.ptr, 16);
    if (p == NULL || p->n_pk == 0 || p->n_pk > PK_PARTS_MAX) {
        return;
    }
    wire_value_t parts[PK_PARTS_MAX];
    for (size_t i = 0; i < p->n_pk; i++) {
        if (p->pk_indexes[i] >= params->n_values) {
            return;
        }
        parts[i] = params->values[p->pk_indexes[i]];
    }
    const cql_qname_t *q = target(p->stmt);
    const char *ks_name = q == NULL             ? NULL
                          : q->keyspace != NULL ? q->keyspace
                          : p->keyspace != NULL ? p->keyspace
                                                : s->keyspace;
    cql_table_t *t = cql__prepared_table(p, e, q);
    if (t == NULL) {
        cql_keyspace_t *ks = ks_name != NULL ? cql__keyspace_find(e, ks_name) : NULL;
        t = ks != NULL ? cql__table_find(ks, q->name) : NULL;
    }
    if (t == NULL || t->st == NULL) {
        return;
    }
    uint8_t buf[PK_MAX];
    ptrdiff_t len = cql__pk_compose_into(parts, p->n_pk, buf, sizeof(buf));
    if (len < 0 || len > PK_MAX) {
        return;
    }
    int64_t token = storage_token(buf, (size_t)len);
    storage_prefetch_index(t->st, token, &pf->hints[pf->n]);
    pf->tables[pf->n] = t->st;
    pf->tokens[pf->n] = token;
    pf->n++;
}


void cql_prefetch_run(cql_prefetch_t *pf)
{
    for (size_t i = 0; i < pf->n; i++) {
        storage_prefetch_partition(pf->tables[i], pf->tokens[i], &pf->hints[i]);
    }
    for (size_t i = 0; i < pf->n; i++) {
        storage_prefetch_row(pf->tokens[i], &pf->hints[i]);
    }
}
