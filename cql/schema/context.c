/*
 * context.c - what a statement's execution context offers the code that
 * runs it: protocol warnings, and the admission and throughput hooks through
 * which the emulator meters requests (cql_hooks_t). Without hooks, or for
 * system tables, every request is admitted; the hooks never see CQL text.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cql/schema/schema.h"


cql_stats_t *cql__batch_part(cql_ctx_t *c, const cql_table_t *t)
{
    if (!c->in_batch || t == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < c->n_parts; i++) {
        if (c->parts[i].table == t->name && c->parts[i].keyspace == t->ks->name) {
            return &c->parts[i];
        }
    }
    if (c->n_parts == c->cap_parts) {
        size_t cap = c->cap_parts ? 2 * c->cap_parts : 4;
        cql_stats_t *p = base_arena_calloc(c->a, cap, sizeof(*p));
        if (c->n_parts > 0) {
            memcpy(p, c->parts, c->n_parts * sizeof(*p));
        }
        c->parts = p;
        c->cap_parts = cap;
    }
    cql_stats_t *part = &c->parts[c->n_parts++];
    part->kind = CQL_OP_BATCH;
    part->keyspace = t->ks->name;
    part->table = t->name;
    part->shape = c->shape;
    return part;
}


int cql__admit(cql_ctx_t *c, const cql_table_t *t, cql_op_kind_t kind, bool has_token,
               int64_t token, base_error_t *err)
{
    if (c->in_batch && t->vt == NULL && (c->cur_part = cql__batch_part(c, t)) != NULL) {
        c->cur_part->n_statements++;
    }
    if (!c->e->has_hooks || c->e->hooks.admit == NULL || t->vt != NULL || c->admitted) {
        return BASE_OK;
    }
    cql_admission_t adm = {
        .kind = kind,
        .keyspace = t->ks->name,
        .table = t->name,
        .shape = c->shape,
        .has_token = has_token,
        .token = token,
        .consistency = c->params ? c->params->consistency : WIRE_CL_ONE,
    };
    if (has_token && t->st != NULL) {
        adm.has_partition = true;
        adm.partition = storage_table_physical_of(t->st, token);
    }
    if (c->in_batch) {
        c->admitted = true; /* a batch is admitted once, as a whole */
        adm.kind = CQL_OP_BATCH;
    }
    return c->e->hooks.admit(c->e->hooks.ud, &adm, err);
}


void cql__note_token(cql_stats_t *st, const cql_table_t *t, int64_t token)
{
    if (st->has_token) {
        return;
    }
    st->has_token = true;
    st->first_token = token;
    if (t->st != NULL) {
        st->has_partition = true;
        st->partition = storage_table_physical_of(t->st, token);
    }
}


int cql__throughput_hook(cql_ctx_t *c, const cql_throughput_t *tp, uint32_t *n_physical,
                         base_error_t *err)
{
    *n_physical = 0;
    if (!c->e->has_hooks || c->e->hooks.throughput == NULL) {
        return BASE_OK;
    }
    return c->e->hooks.throughput(c->e->hooks.ud, tp, n_physical, err);
}


void cql__warn(cql_ctx_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (c->n_warnings == c->cap_warnings) {
        size_t cap = c->cap_warnings ? c->cap_warnings * 2 : 4;
        const char **w = base_arena_alloc(c->a, cap * sizeof(*w));
        if (c->n_warnings > 0) {
            memcpy(w, c->warnings, c->n_warnings * sizeof(*w));
        }
        c->warnings = w;
        c->cap_warnings = cap;
    }
    c->warnings[c->n_warnings++] = base_arena_strndup(c->a, buf, strlen(buf));
}
