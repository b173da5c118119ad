/*
 * parse_term.c - CQL names, terms (literals, collections, tuples, UDT
 * literals, function calls, type hints, bind markers), types and
 * properties (cql layer, internal to the parser).
 *
 * Every rule that can nest (term, type) goes through cql__enter(), which
 * bounds the recursion at CQL_PARSE_MAX_DEPTH. Ambiguities of the grammar
 * are settled with fixed lookahead, never by backtracking:
 *   '(' type ')' term   vs   '(' term, ... ')'      type hint or tuple
 *   '{' ident ':' ...   vs   '{' term ...           UDT literal or map/set
 *   ident '(' / ks '.' ident '('                    function call
 * Literal text is normalised here: booleans lower-case, UUIDs lower-case,
 * NaN/Infinity spelled so, unit durations lower-case, ISO durations upper.
 */
#include "cql/parse/parse_int.h"


static inline unsigned char to_lower(unsigned char c)
{
    return (unsigned char)(c - 'A') < 26 ? (unsigned char)(c | 0x20) : c;
}


static inline unsigned char to_upper(unsigned char c)
{
    return (unsigned char)(c - 'a') < 26 ? (unsigned char)(c & ~0x20) : c;
}


/* Copies s[0..n) into the arena, optionally prefixed by '-', with case
 * folding: 'l' lower, 'u' upper, 0 unchanged. */
static char *copy_text(cql_parser_t *p, bool minus, const char *s, size_t n, char fold)
{
    size_t m = minus ? 1 : 0;
    char *out = base_arena_alloc(p->a, n + m + 1);
    if (minus) {
        out[0] = '-';
    }
    char *d = out + m;
    if (fold == 'l') {
        for (size_t i = 0; i < n; i++) {
            d[i] = (char)to_lower((unsigned char)s[i]);
        }
    } else if (fold == 'u') {
        for (size_t i = 0; i < n; i++) {
            d[i] = (char)to_upper((unsigned char)s[i]);
        }
    } else if (n > 0) {
        memcpy(d, s, n);
    }
    d[n] = '\0';
    return out;
}


/* The inside of a quoted run, with doubled quotes undone. */
static char *unquote(cql_parser_t *p, const char *s, size_t n, char q, bool escaped)
{
    if (!escaped) {
        return base_arena_strndup(p->a, s, n);
    }
    char *out = base_arena_alloc(p->a, n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        out[j++] = s[i];
        if (s[i] == q && i + 1 < n && s[i + 1] == q) {
            i++;
        }
    }
    out[j] = '\0';
    return out;
}


static char *string_value(cql_parser_t *p, const cql_token_t *t)
{
    const char *s = p->text + t->off;
    if (s[0] == '$') {
        return base_arena_strndup(p->a, s + 2, t->len - 4);
    }
    return unquote(p, s + 1, t->len - 2, '\'', t->escaped);
}


/* ---- names ----------------------------------------------------------------------- */

bool cql__is_ident(const cql_token_t *t)
{
    if (t->type == CQL_TOK_IDENT) {
        return !cql__keyword_reserved(t->kw);
    }
    return t->type == CQL_TOK_QIDENT && t->len > 2;
}


const char *cql__ident_text(cql_parser_t *p, const cql_token_t *t)
{
    const char *s = p->text + t->off;
    if (t->type == CQL_TOK_QIDENT) {
        return unquote(p, s + 1, t->len - 2, '"', t->escaped);
    }
    return copy_text(p, false, s, t->len, 'l');
}


const char *cql__parse_ident(cql_parser_t *p)
{
    if (!cql__is_ident(cql__peek(p, 0))) {
        cql__error_no_viable(p);
        return NULL;
    }
    cql_token_t t = cql__next(p);
    return cql__ident_text(p, &t);
}


bool cql__parse_qname(cql_parser_t *p, cql_qname_t *out)
{
    out->keyspace = NULL;
    out->name = cql__parse_ident(p);
    if (out->name != NULL && cql__accept(p, CQL_TOK_DOT)) {
        out->keyspace = out->name;
        out->name = cql__parse_ident(p);
    }
    return !p->failed;
}


/* ---- terms ------------------------------------------------------------------------ */

static cql_term_t *new_term(cql_parser_t *p, cql_term_kind_t kind)
{
    cql_term_t *t = cql__alloc(p, sizeof(*t));
    t->kind = kind;
    return t;
}


static void set_single_item(cql_parser_t *p, cql_term_t *t, cql_term_t *item)
{
    cql_vec_t v = {0};
    cql__vec_push(p, &v, item);
    t->n_items = 1;
    t->items = v.data;
}


static cql_term_t *literal(cql_parser_t *p, cql_lit_kind_t lit, const char *text)
{
    cql_term_t *t = new_term(p, CQL_TERM_LITERAL);
    t->lit = lit;
    t->text = text;
    return t;
}


static bool is_function_name(const cql_token_t *t)
{
    return cql__is_ident(t) || (t->type == CQL_TOK_IDENT && t->kw == CQL_KW_TOKEN);
}


bool cql__starts_function(cql_parser_t *p, unsigned k)
{
    if (!is_function_name(cql__peek(p, k))) {
        return false;
    }
    if (cql__peek_is(p, k + 1, CQL_TOK_LPAREN)) {
        return true;
    }
    return cql__peek_is(p, k + 1, CQL_TOK_DOT) && is_function_name(cql__peek(p, k + 2)) &&
           cql__peek_is(p, k + 3, CQL_TOK_LPAREN);
}


static bool is_iso_duration_ident(cql_parser_t *p, const cql_token_t *t)
{
    return t->type == CQL_TOK_IDENT && t->kw == CQL_KW_NONE &&
           cql__lexer_is_iso_duration(p->text + t->off, t->len);
}


bool cql__starts_term(cql_parser_t *p, unsigned k)
{
    const cql_token_t *t = cql__peek(p, k);
    switch (t->type) {
    case CQL_TOK_STRING:
    case CQL_TOK_INTEGER:
    case CQL_TOK_FLOAT:
    case CQL_TOK_UUID:
    case CQL_TOK_HEX:
    case CQL_TOK_DURATION:
    case CQL_TOK_QMARK:
    case CQL_TOK_COLON:
    case CQL_TOK_LBRACKET:
    case CQL_TOK_LBRACE:
    case CQL_TOK_LPAREN:
    case CQL_TOK_MINUS:
        return true;
    case CQL_TOK_IDENT:
        if (t->kw == CQL_KW_TRUE || t->kw == CQL_KW_FALSE || t->kw == CQL_KW_NULL ||
            t->kw == CQL_KW_NAN || t->kw == CQL_KW_INFINITY) {
            return true;
        }
        return is_iso_duration_ident(p, t) || cql__starts_function(p, k);
    case CQL_TOK_QIDENT:
        return cql__starts_function(p, k);
    default:
        return false;
    }
}


static cql_term_t *new_bind(cql_parser_t *p, const char *name)
{
    cql_term_t *t = new_term(p, CQL_TERM_BIND);
    t->bind_index = (int)p->binds.n;
    t->bind_name = name;
    cql__vec_push(p, &p->binds, name);
    return t;
}


cql_term_t *cql__parse_bind(cql_parser_t *p)
{
    if (cql__accept(p, CQL_TOK_QMARK)) {
        return new_bind(p, NULL);
    }
    if (!cql__expect(p, CQL_TOK_COLON)) {
        return NULL;
    }
    const char *name = cql__parse_ident(p);
    return name ? new_bind(p, name) : NULL;
}


cql_term_t *cql__parse_int_value(cql_parser_t *p)
{
    if (cql__peek_is(p, 0, CQL_TOK_QMARK) || cql__peek_is(p, 0, CQL_TOK_COLON)) {
        return cql__parse_bind(p);
    }
    bool minus = cql__peek_is(p, 0, CQL_TOK_MINUS) && cql__peek_is(p, 1, CQL_TOK_INTEGER);
    if (minus) {
        cql__advance(p);
    }
    if (!cql__peek_is(p, 0, CQL_TOK_INTEGER)) {
        cql__error_mismatch(p, "INTEGER");
        return NULL;
    }
    cql_token_t t = cql__next(p);
    return literal(p, CQL_LIT_INTEGER, copy_text(p, minus, p->text + t.off, t.len, 0));
}


/* A number, duration, NaN or Infinity token turned into a literal; minus
 * when a '-' preceded it. NULL if tok is none of these. */
static cql_term_t *numeric(cql_parser_t *p, const cql_token_t *tok, bool minus)
{
    const char *s = p->text + tok->off;
    switch (tok->type) {
    case CQL_TOK_INTEGER:
        return literal(p, CQL_LIT_INTEGER, copy_text(p, minus, s, tok->len, 0));
    case CQL_TOK_FLOAT:
        return literal(p, CQL_LIT_FLOAT, copy_text(p, minus, s, tok->len, 0));
    case CQL_TOK_DURATION:
        return literal(p, CQL_LIT_DURATION,
                       copy_text(p, minus, s, tok->len, (s[0] | 0x20) == 'p' ? 'u' : 'l'));
    case CQL_TOK_IDENT:
        if (tok->kw == CQL_KW_NAN) {
            return literal(p, CQL_LIT_FLOAT, minus ? "-NaN" : "NaN");
        }
        if (tok->kw == CQL_KW_INFINITY) {
            return literal(p, CQL_LIT_FLOAT, minus ? "-Infinity" : "Infinity");
        }
        if (is_iso_duration_ident(p, tok)) {
            return literal(p, CQL_LIT_DURATION, copy_text(p, minus, s, tok->len, 'u'));
        }
        return NULL;
    default:
        return NULL;
    }
}


static const char *function_name(cql_parser_t *p, const cql_token_t *t)
{
    return t->kw == CQL_KW_TOKEN ? "token" : cql__ident_text(p, t);
}


/* name '(' [term (',' term)*] ')' with an optional keyspace qualifier;
 * cql__starts_function() has checked the shape. */
static cql_term_t *function_call(cql_parser_t *p)
{
    cql_term_t *f = new_term(p, CQL_TERM_FUNCTION);
    cql_token_t t = cql__next(p);
    f->text = function_name(p, &t);
    if (cql__accept(p, CQL_TOK_DOT)) {
        f->keyspace = f->text;
        t = cql__next(p);
        f->text = function_name(p, &t);
    }
    cql__expect(p, CQL_TOK_LPAREN);
    cql_vec_t args = {0};
    if (!cql__accept(p, CQL_TOK_RPAREN)) {
        do {
            cql_term_t *arg = cql__parse_term(p);
            cql__vec_push(p, &args, arg);
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        cql__expect(p, CQL_TOK_RPAREN);
    }
    f->n_items = args.n;
    f->items = args.data;
    return f;
}


/* Items up to the closing token, separated by commas; at least one. */
static void term_list(cql_parser_t *p, cql_vec_t *items, cql_tok_type_t close)
{
    do {
        cql_term_t *item = cql__parse_term(p);
        cql__vec_push(p, items, item);
    } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
    cql__expect(p, close);
}


static cql_term_t *list_literal(cql_parser_t *p)
{
    cql_term_t *t = new_term(p, CQL_TERM_LIST);
    cql_vec_t items = {0};
    cql__advance(p); /* '[' */
    if (!cql__accept(p, CQL_TOK_RBRACKET)) {
        term_list(p, &items, CQL_TOK_RBRACKET);
    }
    t->n_items = items.n;
    t->items = items.data;
    return t;
}


/* A map value. A keyword that cannot be a term right before '}' or ',' ({'k' : ALL}) is
 * reported at the token after it, where Cassandra's ANTLR parser gives up. */
static cql_term_t *map_value(cql_parser_t *p)
{
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type == CQL_TOK_IDENT && t->kw != CQL_KW_NONE && !cql__starts_term(p, 0) &&
        (cql__peek_is(p, 1, CQL_TOK_RBRACE) || cql__peek_is(p, 1, CQL_TOK_COMMA))) {
        cql__advance(p);
        cql__error_no_viable(p);
        return NULL;
    }
    return cql__parse_term(p);
}


/* '{' '}' | '{' f ':' v, ... '}' (UDT) | '{' k ':' v, ... '}' | '{' v, ... '}' */
static cql_term_t *brace_literal(cql_parser_t *p)
{
    cql_term_t *t = new_term(p, CQL_TERM_MAP);
    cql_vec_t items = {0}, names = {0};
    cql__advance(p); /* '{' */
    if (cql__accept(p, CQL_TOK_RBRACE)) {
        return t;
    }
    if (cql__is_ident(cql__peek(p, 0)) && cql__peek_is(p, 1, CQL_TOK_COLON)) {
        t->kind = CQL_TERM_UDT;
        do {
            const char *name = cql__parse_ident(p);
            cql__expect(p, CQL_TOK_COLON);
            cql_term_t *v = cql__parse_term(p);
            cql__vec_push(p, &names, name);
            cql__vec_push(p, &items, v);
        } while (!p->failed && cql__accept(p, CQL_TOK_COMMA));
        cql__expect(p, CQL_TOK_RBRACE);
        t->field_names = names.data;
    } else {
        cql_term_t *first = cql__parse_term(p);
        cql__vec_push(p, &items, first);
        if (cql__accept(p, CQL_TOK_COLON)) {
            cql_term_t *v = map_value(p);
            cql__vec_push(p, &items, v);
            while (!p->failed && cql__accept(p, CQL_TOK_COMMA)) {
                cql_term_t *k = cql__parse_term(p);
                cql__expect(p, CQL_TOK_COLON);
                v = map_value(p);
                cql__vec_push(p, &items, k);
                cql__vec_push(p, &items, v);
            }
            cql__expect(p, CQL_TOK_RBRACE);
        } else {
            t->kind = CQL_TERM_SET;
            if (cql__accept(p, CQL_TOK_COMMA)) {
                term_list(p, &items, CQL_TOK_RBRACE);
            } else {
                cql__expect(p, CQL_TOK_RBRACE);
            }
        }
    }
    t->n_items = items.n;
    t->items = items.data;
    return t;
}


/* At '(': a type hint "(type) term" rather than a tuple? Types start with a
 * name (or 'custom'); a tuple starting with a name starts with a call. */
static bool is_type_hint(cql_parser_t *p)
{
    const cql_token_t *t = cql__peek(p, 1);
    if (t->type == CQL_TOK_STRING) {
        return cql__peek_is(p, 2, CQL_TOK_RPAREN) && cql__starts_term(p, 3);
    }
    bool name = cql__is_ident(t) || (t->type == CQL_TOK_IDENT && t->kw == CQL_KW_SET);
    if (!name || cql__starts_function(p, 1)) {
        return false;
    }
    switch (cql__peek(p, 2)->type) {
    case CQL_TOK_LT:
        return true;
    case CQL_TOK_RPAREN:
        return cql__starts_term(p, 3);
    case CQL_TOK_DOT:
        return cql__is_ident(cql__peek(p, 3)) && cql__peek_is(p, 4, CQL_TOK_RPAREN) &&
               cql__starts_term(p, 5);
    default:
        return false;
    }
}


static cql_term_t *paren_term(cql_parser_t *p)
{
    if (is_type_hint(p)) {
        cql_term_t *t = new_term(p, CQL_TERM_CAST);
        cql__advance(p); /* '(' */
        t->cast_type = cql__parse_type(p);
        cql__expect(p, CQL_TOK_RPAREN);
        set_single_item(p, t, cql__parse_term(p));
        return t;
    }
    cql_term_t *t = new_term(p, CQL_TERM_TUPLE);
    cql_vec_t items = {0};
    cql__advance(p); /* '(' */
    term_list(p, &items, CQL_TOK_RPAREN);
    t->n_items = items.n;
    t->items = items.data;
    return t;
}


static cql_term_t *term(cql_parser_t *p)
{
    const cql_token_t *t = cql__peek(p, 0);
    cql_term_t *out;
    switch (t->type) {
    case CQL_TOK_STRING: {
        cql_token_t tok = cql__next(p);
        return literal(p, CQL_LIT_STRING, string_value(p, &tok));
    }
    case CQL_TOK_INTEGER:
    case CQL_TOK_FLOAT:
    case CQL_TOK_DURATION: {
        cql_token_t tok = cql__next(p);
        return numeric(p, &tok, false);
    }
    case CQL_TOK_UUID: {
        cql_token_t tok = cql__next(p);
        return literal(p, CQL_LIT_UUID, copy_text(p, false, p->text + tok.off, tok.len, 'l'));
    }
    case CQL_TOK_HEX: {
        cql_token_t tok = cql__next(p);
        return literal(p, CQL_LIT_HEX, copy_text(p, false, p->text + tok.off + 2, tok.len - 2, 0));
    }
    case CQL_TOK_QMARK:
    case CQL_TOK_COLON:
        return cql__parse_bind(p);
    case CQL_TOK_LBRACKET:
        return list_literal(p);
    case CQL_TOK_LBRACE:
        return brace_literal(p);
    case CQL_TOK_LPAREN:
        return paren_term(p);
    case CQL_TOK_MINUS: {
        cql__advance(p);
        const cql_token_t *n = cql__peek(p, 0);
        if ((out = numeric(p, n, true)) != NULL) {
            cql__advance(p);
            return out;
        }
        out = new_term(p, CQL_TERM_NEGATE);
        set_single_item(p, out, cql__parse_term(p));
        return out;
    }
    case CQL_TOK_IDENT:
        switch (t->kw) {
        case CQL_KW_TRUE:
            cql__advance(p);
            return literal(p, CQL_LIT_BOOLEAN, "true");
        case CQL_KW_FALSE:
            cql__advance(p);
            return literal(p, CQL_LIT_BOOLEAN, "false");
        case CQL_KW_NULL:
            cql__advance(p);
            return literal(p, CQL_LIT_NULL, NULL);
        case CQL_KW_CAST:
            if (cql__peek_is(p, 1, CQL_TOK_LPAREN)) { /* a selector only: Cassandra stops at '(' */
                cql__advance(p);
                cql__error_no_viable(p);
                return NULL;
            }
            break;
        default:
            break;
        }
        if (cql__starts_function(p, 0)) {
            return function_call(p);
        }
        if ((out = numeric(p, t, false)) != NULL) {
            cql__advance(p);
            return out;
        }
        break;
    case CQL_TOK_QIDENT:
        if (cql__starts_function(p, 0)) {
            return function_call(p);
        }
        break;
    default:
        break;
    }
    cql__error_no_viable(p);
    return NULL;
}


cql_term_t *cql__parse_term(cql_parser_t *p)
{
    if (!cql__enter(p)) {
        return NULL;
    }
    cql_term_t *t = term(p);
    cql__leave(p);
    return p->failed ? NULL : t;
}


/* ---- types -------------------------------------------------------------------------- */

/* The parameter count of a collection or tuple type name before '<'
 * (SIZE_MAX: any, at least one), or 0 when t names none; sets ty->name. */
static size_t collection_kind(cql_parser_t *p, const cql_token_t *t, cql_type_ast_t *ty)
{
    base_str_t word = {p->text + t->off, t->len};
    if (t->kw == CQL_KW_LIST || t->kw == CQL_KW_SET) {
        ty->name = t->kw == CQL_KW_LIST ? "list" : "set";
        return 1;
    }
    if (base_str_eq_cstr_ci(word, "map")) {
        ty->name = "map";
        return 2;
    }
    if (base_str_eq_cstr_ci(word, "tuple")) {
        ty->name = "tuple";
        return SIZE_MAX;
    }
    return 0;
}


/* '<' type (',' type)* '>' with exactly want parameters (any for SIZE_MAX). */
static void type_params(cql_parser_t *p, cql_type_ast_t *ty, size_t want)
{
    cql_vec_t params = {0};
    cql__expect(p, CQL_TOK_LT);
    for (;;) {
        cql__vec_push(p, &params, cql__parse_type(p));
        if (p->failed || params.n == want) {
            break;
        }
        if (want == 2 ? !cql__expect(p, CQL_TOK_COMMA) : !cql__accept(p, CQL_TOK_COMMA)) {
            break;
        }
    }
    cql__expect(p, CQL_TOK_GT);
    ty->n_params = params.n;
    ty->params = params.data;
}


static const cql_type_ast_t *type(cql_parser_t *p)
{
    const cql_token_t *t = cql__peek(p, 0);
    cql_type_ast_t *ty = cql__alloc(p, sizeof(*ty));
    if (t->type == CQL_TOK_STRING) {
        cql_token_t tok = cql__next(p);
        ty->name = "custom";
        ty->custom = string_value(p, &tok);
        return ty;
    }
    if (t->type == CQL_TOK_IDENT && cql__peek_is(p, 1, CQL_TOK_LT)) {
        if (t->kw == CQL_KW_FROZEN) {
            cql__advance(p);
            cql__advance(p);
            const cql_type_ast_t *inner = cql__parse_type(p);
            cql__expect(p, CQL_TOK_GT);
            if (inner != NULL) {
                *ty = *inner;
                ty->frozen = true;
            }
            return ty;
        }
        size_t want = collection_kind(p, t, ty);
        if (want > 0) {
            cql__advance(p);
            type_params(p, ty, want);
            return ty;
        }
    }
    if (!cql__is_ident(t)) {
        cql__error_no_viable(p);
        return NULL;
    }
    cql_token_t tok = cql__next(p);
    ty->name = cql__ident_text(p, &tok);
    if (cql__accept(p, CQL_TOK_DOT)) {
        ty->keyspace = ty->name;
        ty->name = cql__parse_ident(p);
    }
    return ty;
}


const cql_type_ast_t *cql__parse_type(cql_parser_t *p)
{
    if (!cql__enter(p)) {
        return NULL;
    }
    const cql_type_ast_t *t = type(p);
    cql__leave(p);
    return p->failed ? NULL : t;
}


/* Appends s at out[*at..cap), advancing *at by its full length (see type_render). */
static void render_text(const char *s, char *out, size_t cap, size_t *at)
{
    for (; *s != '\0'; s++, (*at)++) {
        if (*at < cap) {
            out[*at] = *s;
        }
    }
}


/* snprintf-style: writes what fits of t's text at out[*at..cap) and always
 * advances *at by the full length, so a first pass with cap 0 measures. */
static void type_render(const cql_type_ast_t *t, char *out, size_t cap, size_t *at)
{
    if (t->frozen) {
        render_text("frozen<", out, cap, at);
    }
    if (t->custom != NULL) {
        render_text("'", out, cap, at);
        render_text(t->custom, out, cap, at);
        render_text("'", out, cap, at);
    } else {
        if (t->keyspace != NULL) {
            render_text(t->keyspace, out, cap, at);
            render_text(".", out, cap, at);
        }
        render_text(t->name, out, cap, at);
    }
    for (size_t i = 0; i < t->n_params; i++) {
        render_text(i == 0 ? "<" : ", ", out, cap, at);
        type_render(t->params[i], out, cap, at);
    }
    if (t->n_params > 0) {
        render_text(">", out, cap, at);
    }
    if (t->frozen) {
        render_text(">", out, cap, at);
    }
}


const char *cql__type_ast_text(const cql_type_ast_t *t, base_arena_t *a)
{
    size_t n = 0;
    type_render(t, NULL, 0, &n);
    char *out = base_arena_alloc(a, n + 1);
    size_t at = 0;
    type_render(t, out, n, &at);
    out[n] = '\0';
    return out;
}


const char *cql__type_text(cql_parser_t *p, const cql_type_ast_t *t)
{
    return cql__type_ast_text(t, p->a);
}


/* ---- properties ------------------------------------------------------------------------ */

/* Cql.g's convertPropertyMap: a key given twice in a property map is a syntax error. */
static void check_property_map(cql_parser_t *p, const cql_token_t *at, const cql_term_t *map)
{
    if (map == NULL || map->kind != CQL_TERM_MAP) {
        return;
    }
    for (size_t i = 2; i < map->n_items; i += 2) {
        const cql_term_t *k = map->items[i];
        for (size_t j = 0; k != NULL && k->kind == CQL_TERM_LITERAL && j < i; j += 2) {
            const cql_term_t *o = map->items[j];
            if (o != NULL && o->kind == CQL_TERM_LITERAL && strcmp(o->text, k->text) == 0) {
                cql__error_at(p, at, "Multiple definition for property %s", k->text);
                return;
            }
        }
    }
}


void cql__parse_property(cql_parser_t *p, cql_vec_t *props)
{
    cql_property_t prop = {0};
    prop.name = cql__parse_ident(p);
    cql__expect(p, CQL_TOK_EQ);
    const cql_token_t *t = cql__peek(p, 0);
    cql_token_t at = *t;
    if (t->type == CQL_TOK_IDENT && !cql__starts_term(p, 0)) {
        /* An unreserved keyword as a value (caching = ALL): kept as written. */
        cql_token_t tok = cql__next(p);
        prop.value = literal(p, CQL_LIT_STRING, copy_text(p, false, p->text + tok.off, tok.len, 0));
    } else {
        prop.value = cql__parse_term(p);
        if (!p->failed) {
            check_property_map(p, &at, prop.value);
        }
    }
    if (!p->failed) {
        cql__vec_add(p, props, &prop, sizeof(prop));
    }
}
