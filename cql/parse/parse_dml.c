/*
 * parse_dml.c - SELECT, INSERT, UPDATE, DELETE and BATCH (cql layer,
 * internal to the parser), with their shared clauses: selectors, WHERE
 * relations, USING and IF conditions.
 *
 * Selectors and parenthesised relations recurse through cql__enter(), so
 * their depth is bounded like terms. A selector's text is rebuilt from the
 * parsed form the way Cassandra names result columns ("ttl(v)",
 * "cast(v as int)"), not copied from the query, so "TTL( v )" and "ttl(v)"
 * produce the same column name.
 */
#include "cql/parse/parse_int.h"
#include "wire/wire.h"


/* ---- selectors ------------------------------------------------------------------- */

static cql_selector_t *selector(cql_parser_t *p);

static char *concat(cql_parser_t *p, const char *const *parts, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += strlen(parts[i]);
    }
    char *out = base_arena_alloc(p->a, len + 1), *at = out;
    for (size_t i = 0; i < n; i++) {
        size_t m = strlen(parts[i]);
        memcpy(at, parts[i], m);
        at += m;
    }
    *at = '\0';
    return out;
}


/* "name(a, b)" from already-rendered argument texts. */
static const char *call_text(cql_parser_t *p, const char *name, cql_selector_t **args, size_t n)
{
    size_t len = strlen(name) + 2 + (n > 0 ? 2 * (n - 1) : 0);
    for (size_t i = 0; i < n; i++) {
        len += strlen(args[i]->text);
    }
    char *out = base_arena_alloc(p->a, len + 1), *at = out;
    size_t m = strlen(name);
    memcpy(at, name, m);
    at += m;
    *at++ = '(';
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            *at++ = ',';
            *at++ = ' ';
        }
        m = strlen(args[i]->text);
        memcpy(at, args[i]->text, m);
        at += m;
    }
    *at++ = ')';
    *at = '\0';
    return out;
}


static bool is_count_star(cql_parser_t *p)
{
    if (!cql__peek_kw(p, 0, CQL_KW_COUNT) || !cql__peek_is(p, 1, CQL_TOK_LPAREN) ||
        !cql__peek_is(p, 3, CQL_TOK_RPAREN)) {
        return false;
    }
    const cql_token_t *arg = cql__peek(p, 2);
    return arg->type == CQL_TOK_STAR ||
           (arg->type == CQL_TOK_INTEGER && arg->len == 1 && p->text[arg->off] == '1');
}


static void function_selector(cql_parser_t *p, cql_selector_t *s)
{
    cql_token_t t = cql__next(p);
    const char *name = t.kw == CQL_KW_TOKEN ? "token" : cql__ident_text(p, &t);
    if (cql__accept(p, CQL_TOK_DOT)) {
        t = cql__next(p);
        const char *fn = t.kw == CQL_KW_TOKEN ? "token" : cql__ident_text(p, &t);
        /* Native functions live in "system"; anything else stays qualified. */
        name = strcmp(name, "system") == 0 ? fn : concat(p, (const char *[]){name, ".", fn}, 3);
    }
    cql__expect(p, CQL_TOK_LPAREN);
    cql_vec_t args = {0};
    if (!cql__accept(p, CQL_TOK_RPAREN)) {
        do {
            cql_selector_t *arg = selector(p);
            cql__vec_push(p, &args, arg);
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        cql__expect(p, CQL_TOK_RPAREN);
    }
    if (p->failed) {
        return;
    }
    s->kind = CQL_SEL_FUNCTION;
    s->name = name;
    s->n_args = args.n;
    s->args = args.data;
    s->text = call_text(p, name, s->args, s->n_args);
}


/* One [key] or [lo..hi] (either end may be left out) after a selector. */
static void element_selector(cql_parser_t *p, cql_selector_t *s)
{
    cql__expect(p, CQL_TOK_LBRACKET);
    bool open_lo = cql__peek_is(p, 0, CQL_TOK_DOT) && cql__peek_is(p, 1, CQL_TOK_DOT);
    s->term = open_lo ? NULL : cql__parse_term(p);
    s->kind = CQL_SEL_ELEMENT;
    if (!p->failed && cql__peek_is(p, 0, CQL_TOK_DOT)) {
        cql__expect(p, CQL_TOK_DOT);
        cql__expect(p, CQL_TOK_DOT);
        s->kind = CQL_SEL_SLICE;
        s->term_hi = cql__peek_is(p, 0, CQL_TOK_RBRACKET) ? NULL : cql__parse_term(p);
    }
    cql__expect(p, CQL_TOK_RBRACKET);
}


/* Field (.f) and element ([k], [lo..hi]) selections after a column, chained in
 * any order and depth: each wraps the selector before it. */
static void postfix_selectors(cql_parser_t *p, cql_selector_t *s, size_t start)
{
    while (!p->failed &&
           (cql__peek_is(p, 0, CQL_TOK_DOT) || cql__peek_is(p, 0, CQL_TOK_LBRACKET))) {
        cql_selector_t *inner = cql__alloc(p, sizeof(*inner));
        *inner = *s;
        memset(s, 0, sizeof(*s));
        cql_vec_t args = {0};
        cql__vec_push(p, &args, inner);
        s->args = args.data;
        s->n_args = 1;
        if (cql__accept(p, CQL_TOK_DOT)) {
            s->kind = CQL_SEL_FIELD;
            s->field = cql__parse_ident(p);
        } else {
            element_selector(p, s);
        }
        if (p->failed) {
            return;
        }
        s->text = s->kind == CQL_SEL_FIELD
                      ? concat(p, (const char *[]){inner->text, ".", s->field}, 3)
                      : base_arena_strndup(p->a, p->text + start, p->prev_end - start);
    }
}


static void selector_body(cql_parser_t *p, cql_selector_t *s)
{
    const cql_token_t *t = cql__peek(p, 0);
    size_t start = t->off;
    if (is_count_star(p)) {
        bool star = cql__peek_is(p, 2, CQL_TOK_STAR);
        for (int i = 0; i < 4; i++) {
            cql__advance(p);
        }
        s->kind = CQL_SEL_COUNT_STAR;
        s->name = "count";
        s->text = star ? "count(*)" : "count(1)";
    } else if (cql__peek_kw(p, 0, CQL_KW_CAST) && cql__peek_is(p, 1, CQL_TOK_LPAREN)) {
        cql__advance(p);
        cql__advance(p);
        cql_selector_t *arg = selector(p);
        cql__expect_kw(p, CQL_KW_AS);
        s->cast_type = cql__parse_type(p);
        cql__expect(p, CQL_TOK_RPAREN);
        if (p->failed) {
            return;
        }
        s->kind = CQL_SEL_CAST;
        s->name = "cast";
        cql_vec_t args = {0};
        cql__vec_push(p, &args, arg);
        s->args = args.data;
        s->n_args = 1;
        s->text = concat(
            p, (const char *[]){"cast(", arg->text, " as ", cql__type_text(p, s->cast_type), ")"},
            5);
    } else if (cql__starts_function(p, 0)) {
        function_selector(p, s);
        postfix_selectors(p, s, start); /* max(b).x: refused later, as Cassandra refuses it */
    } else if (cql__is_ident(t)) {
        s->kind = CQL_SEL_COLUMN;
        s->name = cql__parse_ident(p);
        s->text = s->name;
        postfix_selectors(p, s, start);
    } else if (cql__starts_term(p, 0)) {
        s->kind = CQL_SEL_TERM;
        s->term = cql__parse_term(p);
        if (!p->failed) {
            s->text = base_arena_strndup(p->a, p->text + start, p->prev_end - start);
        }
    } else {
        cql__error_no_viable(p);
    }
}


static cql_selector_t *selector(cql_parser_t *p)
{
    if (!cql__enter(p)) {
        return NULL;
    }
    cql_selector_t *s = cql__alloc(p, sizeof(*s));
    selector_body(p, s);
    cql__leave(p);
    return p->failed ? NULL : s;
}


/* ---- WHERE ------------------------------------------------------------------------- */

static bool rel_op(cql_parser_t *p, cql_rel_op_t *op)
{
    switch (cql__peek(p, 0)->type) {
    case CQL_TOK_EQ:
        *op = CQL_OP_EQ;
        break;
    case CQL_TOK_LT:
        *op = CQL_OP_LT;
        break;
    case CQL_TOK_LTE:
        *op = CQL_OP_LTE;
        break;
    case CQL_TOK_GT:
        *op = CQL_OP_GT;
        break;
    case CQL_TOK_GTE:
        *op = CQL_OP_GTE;
        break;
    case CQL_TOK_NEQ:
        *op = CQL_OP_NEQ;
        break;
    default:
        return false;
    }
    cql__advance(p);
    return true;
}


/* After IN: a bind marker for the whole list, or '(' [term, ...] ')'. */
static void in_values(cql_parser_t *p, const cql_term_t **rhs, size_t *n_in,
                      const cql_term_t ***values)
{
    if (cql__peek_is(p, 0, CQL_TOK_QMARK) || cql__peek_is(p, 0, CQL_TOK_COLON)) {
        *rhs = cql__parse_bind(p);
        return;
    }
    cql_vec_t v = {0};
    if (cql__expect(p, CQL_TOK_LPAREN) && !cql__accept(p, CQL_TOK_RPAREN)) {
        do {
            const cql_term_t *t = cql__parse_term(p);
            cql__vec_push(p, &v, t);
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        cql__expect(p, CQL_TOK_RPAREN);
    }
    *n_in = v.n;
    *values = v.data;
}


/* '(' ident (',' ident)* ')' into r->columns. */
static void column_tuple(cql_parser_t *p, cql_relation_t *r)
{
    cql_vec_t cols = {0};
    cql__expect(p, CQL_TOK_LPAREN);
    do {
        const char *c = cql__parse_ident(p);
        cql__vec_push(p, &cols, c);
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    cql__expect(p, CQL_TOK_RPAREN);
    r->n_columns = cols.n;
    r->columns = cols.data;
}


static void relation(cql_parser_t *p, cql_relation_t *r);

static void relation_body(cql_parser_t *p, cql_relation_t *r)
{
    if (cql__peek_kw(p, 0, CQL_KW_TOKEN) && cql__peek_is(p, 1, CQL_TOK_LPAREN)) {
        cql__advance(p);
        r->lhs = CQL_LHS_TOKEN;
        column_tuple(p, r);
        if (!rel_op(p, &r->op)) {
            cql__error_no_viable(p);
            return;
        }
        r->rhs = cql__parse_term(p);
        return;
    }
    if (cql__peek_is(p, 0, CQL_TOK_LPAREN)) {
        if (!cql__is_ident(cql__peek(p, 1)) ||
            !(cql__peek_is(p, 2, CQL_TOK_COMMA) || cql__peek_is(p, 2, CQL_TOK_RPAREN))) {
            cql__advance(p); /* '(' relation ')' */
            relation(p, r);
            cql__expect(p, CQL_TOK_RPAREN);
            return;
        }
        r->lhs = CQL_LHS_TUPLE;
        column_tuple(p, r);
        if (cql__accept_kw(p, CQL_KW_IN)) {
            r->op = CQL_OP_IN;
            in_values(p, &r->rhs, &r->n_in, &r->in_values);
        } else if (rel_op(p, &r->op)) {
            r->rhs = cql__parse_term(p);
        } else {
            cql__error_no_viable(p);
        }
        return;
    }
    const char *col = cql__parse_ident(p);
    if (col == NULL) {
        return;
    }
    r->lhs = CQL_LHS_COLUMN;
    r->n_columns = 1;
    r->columns = cql__alloc(p, sizeof(*r->columns));
    r->columns[0] = col;
    if (cql__accept(p, CQL_TOK_LBRACKET)) {
        r->lhs = CQL_LHS_ELEMENT;
        r->element = cql__parse_term(p);
        cql__expect(p, CQL_TOK_RBRACKET);
        if (!rel_op(p, &r->op)) {
            cql__error_no_viable(p);
            return;
        }
        r->rhs = cql__parse_term(p);
    } else if (cql__accept_kw(p, CQL_KW_IN)) {
        r->op = CQL_OP_IN;
        in_values(p, &r->rhs, &r->n_in, &r->in_values);
    } else if (cql__accept_kw(p, CQL_KW_CONTAINS)) {
        r->op = cql__accept_kw(p, CQL_KW_KEY) ? CQL_OP_CONTAINS_KEY : CQL_OP_CONTAINS;
        r->rhs = cql__parse_term(p);
    } else if (cql__accept_kw(p, CQL_KW_LIKE)) {
        r->op = CQL_OP_LIKE;
        r->rhs = cql__parse_term(p);
    } else if (cql__accept_kw(p, CQL_KW_IS)) {
        r->op = CQL_OP_IS_NOT_NULL;
        cql__expect_kw(p, CQL_KW_NOT);
        cql__expect_kw(p, CQL_KW_NULL);
    } else if (rel_op(p, &r->op)) {
        r->rhs = cql__parse_term(p);
    } else {
        cql__error_no_viable(p);
    }
}


static void relation(cql_parser_t *p, cql_relation_t *r)
{
    if (!cql__enter(p)) {
        return;
    }
    relation_body(p, r);
    cql__leave(p);
}


static void where_clause(cql_parser_t *p, size_t *n, cql_relation_t **out)
{
    cql_vec_t v = {0};
    do {
        cql_relation_t r = {0};
        relation(p, &r);
        cql__vec_add(p, &v, &r, sizeof(r));
    } while (!p->failed && cql__accept_kw(p, CQL_KW_AND));
    *n = v.n;
    *out = v.data;
}


/* ---- USING and IF ---------------------------------------------------------------------- */

/* After USING: (TTL | TIMESTAMP) value (AND ...)*; DELETE allows no TTL. */
static void using_clause(cql_parser_t *p, cql_using_t *u, bool allow_ttl)
{
    do {
        if (allow_ttl && cql__accept_kw(p, CQL_KW_TTL)) {
            u->ttl = cql__parse_int_value(p);
        } else if (cql__accept_kw(p, CQL_KW_TIMESTAMP)) {
            u->timestamp = cql__parse_int_value(p);
        } else {
            cql__error_mismatch(p, allow_ttl ? "K_TTL or K_TIMESTAMP" : "K_TIMESTAMP");
        }
    } while (!p->failed && cql__accept_kw(p, CQL_KW_AND));
}


static void condition(cql_parser_t *p, cql_condition_t *c)
{
    c->column = cql__parse_ident(p);
    if (cql__accept(p, CQL_TOK_LBRACKET)) {
        c->element = cql__parse_term(p);
        cql__expect(p, CQL_TOK_RBRACKET);
    } else if (cql__accept(p, CQL_TOK_DOT)) {
        c->field = cql__parse_ident(p);
    }
    if (cql__accept_kw(p, CQL_KW_IN)) {
        c->op = CQL_OP_IN;
        in_values(p, &c->rhs, &c->n_in, &c->in_values);
    } else if (rel_op(p, &c->op)) {
        c->rhs = cql__parse_term(p);
    } else {
        cql__error_no_viable(p);
    }
}


static bool is_rel_op(cql_tok_type_t type)
{
    return type == CQL_TOK_EQ || type == CQL_TOK_LT || type == CQL_TOK_LTE || type == CQL_TOK_GT ||
           type == CQL_TOK_GTE || type == CQL_TOK_NEQ;
}


/* After IF: EXISTS, or condition (AND condition)*. "exists" is unreserved,
 * so "IF exists = 1" is a condition on a column of that name. */
static void conditions(cql_parser_t *p, cql_conditions_t *cs)
{
    if (cql__peek_kw(p, 0, CQL_KW_EXISTS)) {
        const cql_token_t *t = cql__peek(p, 1);
        if (!is_rel_op(t->type) && t->type != CQL_TOK_LBRACKET &&
            !(t->type == CQL_TOK_IDENT && t->kw == CQL_KW_IN)) {
            cql__advance(p);
            cs->if_exists = true;
            return;
        }
    }
    cql_vec_t v = {0};
    do {
        cql_condition_t c = {0};
        condition(p, &c);
        cql__vec_add(p, &v, &c, sizeof(c));
    } while (!p->failed && cql__accept_kw(p, CQL_KW_AND));
    cs->n = v.n;
    cs->conds = v.data;
}


/* ---- SELECT ------------------------------------------------------------------------------ */

/* After SELECT, is JSON/DISTINCT at peek(0) a modifier or a column name? */
static bool is_modifier(cql_parser_t *p)
{
    const cql_token_t *t = cql__peek(p, 1);
    switch (t->type) {
    case CQL_TOK_COMMA:
    case CQL_TOK_DOT:
    case CQL_TOK_LPAREN:
    case CQL_TOK_EOF:
        return false;
    case CQL_TOK_IDENT:
        return t->kw != CQL_KW_FROM && t->kw != CQL_KW_AS;
    default:
        return true;
    }
}


static void ident_list(cql_parser_t *p, size_t *n, const char ***out)
{
    cql_vec_t v = {0};
    do {
        const char *name = cql__parse_ident(p);
        cql__vec_push(p, &v, name);
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    *n = v.n;
    *out = v.data;
}


void cql__parse_ordering(cql_parser_t *p, size_t *n, cql_ordering_t **out)
{
    cql_vec_t v = {0};
    do {
        cql_ordering_t o = {0};
        o.column = cql__parse_ident(p);
        if (cql__accept_kw(p, CQL_KW_DESC)) {
            o.desc = true;
        } else {
            cql__accept_kw(p, CQL_KW_ASC);
        }
        cql__vec_add(p, &v, &o, sizeof(o));
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    *n = v.n;
    *out = v.data;
}


void cql__parse_select(cql_parser_t *p, cql_stmt_t *st)
{
    cql_select_t *s = &st->u.select;
    st->kind = CQL_STMT_SELECT;
    cql__advance(p); /* SELECT */
    if (cql__peek_kw(p, 0, CQL_KW_JSON) && is_modifier(p)) {
        cql__advance(p);
        s->json = true;
    }
    if (cql__peek_kw(p, 0, CQL_KW_DISTINCT) && is_modifier(p)) {
        cql__advance(p);
        s->distinct = true;
    }
    cql_vec_t sels = {0};
    if (cql__accept(p, CQL_TOK_STAR)) {
        cql_selector_t *star = cql__alloc(p, sizeof(*star));
        star->kind = CQL_SEL_STAR;
        star->text = "*";
        cql__vec_push(p, &sels, star);
    } else {
        do {
            cql_selector_t *sel = selector(p);
            if (sel != NULL && cql__accept_kw(p, CQL_KW_AS)) {
                sel->alias = cql__parse_ident(p);
            }
            cql__vec_push(p, &sels, sel);
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    }
    s->n_selectors = sels.n;
    s->selectors = sels.data;
    if (!cql__accept_kw(p, CQL_KW_FROM)) {
        cql__error_no_viable(p); /* as Cassandra: "... at input 'FORM'" */
        return;
    }
    cql__parse_qname(p, &s->table);
    if (cql__accept_kw(p, CQL_KW_WHERE)) {
        where_clause(p, &s->n_where, &s->where);
    }
    if (cql__peek_kw(p, 0, CQL_KW_GROUP) && cql__peek_kw(p, 1, CQL_KW_BY)) {
        cql__advance(p);
        cql__advance(p);
        ident_list(p, &s->n_group_by, &s->group_by);
    }
    if (cql__accept_kw(p, CQL_KW_ORDER)) {
        cql__expect_kw(p, CQL_KW_BY);
        cql__parse_ordering(p, &s->n_order, &s->order);
    }
    if (cql__peek_kw(p, 0, CQL_KW_PER)) {
        cql__advance(p);
        cql__expect_kw(p, CQL_KW_PARTITION);
        cql__expect_kw(p, CQL_KW_LIMIT);
        s->per_partition_limit = cql__parse_int_value(p);
    }
    if (cql__accept_kw(p, CQL_KW_LIMIT)) {
        s->limit = cql__parse_int_value(p);
    }
    if (cql__accept_kw(p, CQL_KW_ALLOW)) {
        cql__expect_kw(p, CQL_KW_FILTERING);
        s->allow_filtering = true;
    }
}


/* ---- INSERT ------------------------------------------------------------------------------- */

static void insert_values(cql_parser_t *p, cql_insert_t *ins)
{
    cql_vec_t cols = {0}, vals = {0};
    cql__advance(p); /* '(' */
    do {
        const char *c = cql__parse_ident(p);
        cql__vec_push(p, &cols, c);
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    cql__expect(p, CQL_TOK_RPAREN);
    cql__expect_kw(p, CQL_KW_VALUES);
    cql__expect(p, CQL_TOK_LPAREN);
    do {
        const cql_term_t *t = cql__parse_term(p);
        cql__vec_push(p, &vals, t);
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    cql__expect(p, CQL_TOK_RPAREN);
    if (!p->failed && cols.n != vals.n) {
        cql__error_invalid(p, "Unmatched column names/values");
        return;
    }
    ins->n_columns = cols.n;
    ins->columns = cols.data;
    ins->values = vals.data;
}


static void insert_json(cql_parser_t *p, cql_insert_t *ins)
{
    cql__advance(p); /* JSON */
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type == CQL_TOK_STRING || t->type == CQL_TOK_QMARK || t->type == CQL_TOK_COLON) {
        ins->json = cql__parse_term(p);
    } else {
        cql__error_mismatch(p, "STRING_LITERAL");
        return;
    }
    if (cql__accept_kw(p, CQL_KW_DEFAULT)) {
        if (cql__accept_kw(p, CQL_KW_UNSET)) {
            ins->json_default_unset = true;
        } else {
            cql__expect_kw(p, CQL_KW_NULL);
        }
    }
}


void cql__parse_insert(cql_parser_t *p, cql_stmt_t *st)
{
    cql_insert_t *ins = &st->u.insert;
    st->kind = CQL_STMT_INSERT;
    cql__advance(p); /* INSERT */
    cql__expect_kw(p, CQL_KW_INTO);
    cql__parse_qname(p, &ins->table);
    if (cql__peek_is(p, 0, CQL_TOK_LPAREN)) {
        insert_values(p, ins);
    } else if (cql__peek_kw(p, 0, CQL_KW_JSON)) {
        insert_json(p, ins);
    } else {
        cql__error_mismatch(p, "'('");
        return;
    }
    /* Cassandra wants IF NOT EXISTS before USING; both orders are accepted. */
    bool seen_if = false, seen_using = false;
    for (;;) {
        if (!seen_if && cql__accept_kw(p, CQL_KW_IF)) {
            cql__expect_kw(p, CQL_KW_NOT);
            cql__expect_kw(p, CQL_KW_EXISTS);
            ins->if_not_exists = true;
            seen_if = true;
        } else if (!seen_using && cql__accept_kw(p, CQL_KW_USING)) {
            using_clause(p, &ins->using_, true);
            seen_using = true;
        } else {
            break;
        }
    }
}


/* ---- UPDATE ------------------------------------------------------------------------------- */

/* The right side of "c = ...": a term, "c + t", "c - t" or "t + c". */
static void assign_value(cql_parser_t *p, cql_assignment_t *as)
{
    if (cql__is_ident(cql__peek(p, 0)) &&
        (cql__peek_is(p, 1, CQL_TOK_PLUS) || cql__peek_is(p, 1, CQL_TOK_MINUS))) {
        cql_token_t name = cql__next(p);
        if (strcmp(cql__ident_text(p, &name), as->column) != 0) {
            cql__error_at(p, &name, "Only expressions of the form X = X %s<value> are supported.",
                          cql__peek_is(p, 0, CQL_TOK_PLUS) ? "+" : "-");
            return;
        }
        as->kind = cql__next(p).type == CQL_TOK_PLUS ? CQL_ASSIGN_ADD : CQL_ASSIGN_SUB;
        as->value = cql__parse_term(p);
        return;
    }
    as->kind = CQL_ASSIGN_SET;
    as->value = cql__parse_term(p);
    if (!p->failed && cql__peek_is(p, 0, CQL_TOK_PLUS)) {
        cql__advance(p);
        cql_token_t at = *cql__peek(p, 0);
        const char *col = cql__parse_ident(p);
        if (col != NULL && strcmp(col, as->column) != 0) {
            cql__error_at(p, &at, "Only expressions of the form X = <value> + X are supported.");
            return;
        }
        as->kind = CQL_ASSIGN_PREPEND;
    }
}


/* Cassandra's grammar refuses two settings of one column unless both write parts
 * of it (distinct fields, elements, additions): c = 1, c = 2 is a syntax error. */
static bool assignments_compatible(const cql_assignment_t *prev, size_t n,
                                   const cql_assignment_t *as)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(prev[i].column, as->column) != 0) {
            continue;
        }
        if (prev[i].kind == CQL_ASSIGN_SET || as->kind == CQL_ASSIGN_SET) {
            return false;
        }
        if (prev[i].kind == CQL_ASSIGN_FIELD && as->kind == CQL_ASSIGN_FIELD &&
            strcmp(prev[i].field, as->field) == 0) {
            return false;
        }
    }
    return true;
}


static void assignment(cql_parser_t *p, cql_assignment_t *as)
{
    as->column = cql__parse_ident(p);
    if (p->failed) {
        return;
    }
    if (cql__accept(p, CQL_TOK_LBRACKET)) {
        as->kind = CQL_ASSIGN_ELEMENT;
        as->key = cql__parse_term(p);
        cql__expect(p, CQL_TOK_RBRACKET);
        cql__expect(p, CQL_TOK_EQ);
        as->value = cql__parse_term(p);
    } else if (cql__accept(p, CQL_TOK_DOT)) {
        as->kind = CQL_ASSIGN_FIELD;
        as->field = cql__parse_ident(p);
        cql__expect(p, CQL_TOK_EQ);
        as->value = cql__parse_term(p);
    } else if ((cql__peek_is(p, 0, CQL_TOK_PLUS) || cql__peek_is(p, 0, CQL_TOK_MINUS)) &&
               cql__peek_is(p, 1, CQL_TOK_EQ)) {
        /* c += t, c -= t */
        as->kind = cql__next(p).type == CQL_TOK_PLUS ? CQL_ASSIGN_ADD : CQL_ASSIGN_SUB;
        cql__advance(p);
        as->value = cql__parse_term(p);
    } else if (cql__expect(p, CQL_TOK_EQ)) {
        assign_value(p, as);
    }
}


void cql__parse_update(cql_parser_t *p, cql_stmt_t *st)
{
    cql_update_t *up = &st->u.update;
    st->kind = CQL_STMT_UPDATE;
    cql__advance(p); /* UPDATE */
    cql__parse_qname(p, &up->table);
    if (cql__accept_kw(p, CQL_KW_USING)) {
        using_clause(p, &up->using_, true);
    }
    cql__expect_kw(p, CQL_KW_SET);
    cql_vec_t v = {0};
    do {
        cql_assignment_t as = {0};
        const cql_token_t *at = cql__peek(p, 0);
        assignment(p, &as);
        if (!p->failed && !assignments_compatible(v.data, v.n, &as)) {
            cql__error_at(p, at, "Multiple incompatible setting of column %s", as.column);
        }
        cql__vec_add(p, &v, &as, sizeof(as));
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    up->n_assign = v.n;
    up->assign = v.data;
    cql__expect_kw(p, CQL_KW_WHERE);
    where_clause(p, &up->n_where, &up->where);
    if (cql__accept_kw(p, CQL_KW_IF)) {
        conditions(p, &up->cond);
    }
}


/* ---- DELETE ------------------------------------------------------------------------------- */

void cql__parse_delete(cql_parser_t *p, cql_stmt_t *st)
{
    cql_delete_t *del = &st->u.del;
    st->kind = CQL_STMT_DELETE;
    cql__advance(p); /* DELETE */
    if (!cql__peek_kw(p, 0, CQL_KW_FROM)) {
        cql_vec_t v = {0};
        do {
            cql_delete_target_t t = {0};
            t.column = cql__parse_ident(p);
            if (cql__accept(p, CQL_TOK_LBRACKET)) {
                t.element = cql__parse_term(p);
                cql__expect(p, CQL_TOK_RBRACKET);
            } else if (cql__accept(p, CQL_TOK_DOT)) {
                t.field = cql__parse_ident(p);
            }
            cql__vec_add(p, &v, &t, sizeof(t));
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        del->n_targets = v.n;
        del->targets = v.data;
    }
    cql__expect_kw(p, CQL_KW_FROM);
    cql__parse_qname(p, &del->table);
    if (cql__accept_kw(p, CQL_KW_USING)) {
        using_clause(p, &del->using_, false);
    }
    cql__expect_kw(p, CQL_KW_WHERE);
    where_clause(p, &del->n_where, &del->where);
    if (cql__accept_kw(p, CQL_KW_IF)) {
        conditions(p, &del->cond);
    }
}


/* ---- BATCH -------------------------------------------------------------------------------- */

void cql__parse_batch(cql_parser_t *p, cql_stmt_t *st)
{
    cql_batch_t *b = &st->u.batch;
    st->kind = CQL_STMT_BATCH;
    b->type = WIRE_BATCH_LOGGED;
    cql__advance(p); /* BEGIN */
    if (cql__accept_kw(p, CQL_KW_UNLOGGED)) {
        b->type = WIRE_BATCH_UNLOGGED;
    } else if (cql__accept_kw(p, CQL_KW_COUNTER)) {
        b->type = WIRE_BATCH_COUNTER;
    }
    cql__expect_kw(p, CQL_KW_BATCH);
    if (cql__accept_kw(p, CQL_KW_USING)) {
        using_clause(p, &b->using_, true);
    }
    cql_vec_t v = {0};
    while (!p->failed && !cql__peek_kw(p, 0, CQL_KW_APPLY)) {
        cql_stmt_t *sub = cql__alloc(p, sizeof(*sub));
        switch (cql__peek(p, 0)->kw) {
        case CQL_KW_INSERT:
            cql__parse_insert(p, sub);
            break;
        case CQL_KW_UPDATE:
            cql__parse_update(p, sub);
            break;
        case CQL_KW_DELETE:
            cql__parse_delete(p, sub);
            break;
        default:
            cql__error_no_viable(p);
            break;
        }
        cql__vec_push(p, &v, sub);
        cql__accept(p, CQL_TOK_SEMI);
    }
    b->n_stmts = v.n;
    b->stmts = v.data;
    cql__expect_kw(p, CQL_KW_APPLY);
    cql__expect_kw(p, CQL_KW_BATCH);
}
