/*
 * parser.c - CQL statement parser entry point, token stream and syntax
 * errors (cql layer, internal; grammar rules live in parse_term.c,
 * parse_dml.c and parse_ddl.c).
 *
 * The parser is LL(k) recursive descent over a lazily lexed token stream
 * with a small lookahead ring (CQL_PARSE_LOOKAHEAD): one pass over the text,
 * no backtracking, every allocation from the request arena. Recursion is
 * bounded by cql__enter() (see parse_int.h), so clang-tidy's
 * misc-no-recursion is expected in the rule files.
 *
 * Errors look like Cassandra's ANTLR messages, with a 1-based line and a
 * 0-based column of the offending token:
 *   line 1:9 no viable alternative at input 'FORM' (SELECT * [FORM]...)
 */
#include <stdio.h>

#include "cql/parse/parse_int.h"


#define CQL_ERR_TOKEN_MAX   64  /* bytes of the offending token quoted */
#define CQL_ERR_SNIPPET_MAX 160 /* bytes of context before it */

/* ---- arena helpers ------------------------------------------------------------- */

void *cql__alloc(cql_parser_t *p, size_t size)
{
    void *ptr = base_arena_alloc(p->a, size);
    memset(ptr, 0, size);
    return ptr;
}


void cql__vec_add(cql_parser_t *p, cql_vec_t *v, const void *elem, size_t size)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        void *data = base_arena_alloc(p->a, cap * size);
        if (v->n > 0) {
            memcpy(data, v->data, v->n * size);
        }
        v->data = data;
        v->cap = cap;
    }
    memcpy((char *)v->data + v->n * size, elem, size);
    v->n++;
}


/* ---- errors ---------------------------------------------------------------------- */

/* 1-based line, 0-based column in characters (UTF-8 continuation bytes do
 * not count), as ANTLR reports them. */
static void position(const cql_parser_t *p, size_t off, int *line, int *col)
{
    int l = 1, c = 0;
    for (size_t i = 0; i < off && i < p->len; i++) {
        unsigned char ch = (unsigned char)p->text[i];
        if (ch == '\n') {
            l++;
            c = 0;
        } else if ((ch & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}


/* Appends s[0..n) to buf at *at, newlines flattened, truncating at cap. */
static void append_flat(char *buf, size_t cap, size_t *at, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *at + 1 < cap; i++) {
        char c = s[i];
        buf[(*at)++] = (char)((c == '\n' || c == '\r' || c == '\t') ? ' ' : c);
    }
    buf[*at] = '\0';
}


static void token_text(const cql_parser_t *p, const cql_token_t *tok, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    if (tok->type == CQL_TOK_EOF || (tok->type == CQL_TOK_ERROR && tok->len == 0)) {
        append_flat(buf, cap, &at, "<EOF>", 5);
        return;
    }
    size_t n = tok->len < CQL_ERR_TOKEN_MAX ? tok->len : CQL_ERR_TOKEN_MAX;
    append_flat(buf, cap, &at, p->text + tok->off, n);
    if (n < tok->len) {
        append_flat(buf, cap, &at, "...", 3);
    }
}


/* " (SELECT * [FORM]...)": up to CQL_PARSE_HISTORY tokens before the
 * offending one, the offending token in brackets, "..." where cut. */
static void snippet(const cql_parser_t *p, const cql_token_t *tok, char *buf, size_t cap)
{
    size_t at = 0;
    size_t from = tok->off;
    if (p->n_consumed > 0) {
        size_t oldest = p->n_consumed > CQL_PARSE_HISTORY ? p->n_consumed % CQL_PARSE_HISTORY : 0;
        from = p->hist[oldest];
    }
    if (from > tok->off) {
        from = tok->off;
    }
    if (tok->off - from > CQL_ERR_SNIPPET_MAX) {
        from = tok->off - CQL_ERR_SNIPPET_MAX;
    }
    char text[CQL_ERR_TOKEN_MAX + 8];
    token_text(p, tok, text, sizeof(text));
    append_flat(buf, cap, &at, " (", 2);
    if (from > 0) {
        append_flat(buf, cap, &at, "...", 3);
    }
    append_flat(buf, cap, &at, p->text + from, tok->off - from);
    append_flat(buf, cap, &at, "[", 1);
    append_flat(buf, cap, &at, text, strlen(text));
    append_flat(buf, cap, &at, "]", 1);
    if (tok->off + tok->len < p->len) {
        append_flat(buf, cap, &at, "...", 3);
    }
    append_flat(buf, cap, &at, ")", 1);
}


/* Sets the syntax error at tok ("line L:C what", with a snippet when asked) and
 * marks the parser failed. */
static void syntax_error(cql_parser_t *p, const cql_token_t *tok, bool with_snippet,
                         const char *what)
{
    int line, col;
    char ctx[CQL_ERR_SNIPPET_MAX + CQL_ERR_TOKEN_MAX + 32];
    ctx[0] = '\0';
    position(p, tok->off, &line, &col);
    if (with_snippet && tok->type != CQL_TOK_EOF) {
        snippet(p, tok, ctx, sizeof(ctx));
    }
    base_error_set(p->err, CQL_ERR_SYNTAX, "line %d:%d %s%s", line, col, what, ctx);
    p->failed = true;
}


void cql__error_at(cql_parser_t *p, const cql_token_t *tok, const char *fmt, ...)
{
    if (p->failed) {
        return;
    }
    char what[BASE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    syntax_error(p, tok, false, what);
}


void cql__error_no_viable(cql_parser_t *p)
{
    if (p->failed) {
        return;
    }
    const cql_token_t *tok = cql__peek(p, 0);
    if (p->failed) {
        return; /* peeking hit a lexical error, already reported */
    }
    char text[CQL_ERR_TOKEN_MAX + 8], what[CQL_ERR_TOKEN_MAX + 64];
    token_text(p, tok, text, sizeof(text));
    snprintf(what, sizeof(what), "no viable alternative at input '%s'", text);
    syntax_error(p, tok, true, what);
}


void cql__error_mismatch(cql_parser_t *p, const char *expecting)
{
    if (p->failed) {
        return;
    }
    const cql_token_t *tok = cql__peek(p, 0);
    if (p->failed) {
        return;
    }
    char text[CQL_ERR_TOKEN_MAX + 8], what[CQL_ERR_TOKEN_MAX + 128];
    token_text(p, tok, text, sizeof(text));
    snprintf(what, sizeof(what), "mismatched input '%s' expecting %s", text, expecting);
    syntax_error(p, tok, true, what);
}


void cql__error_invalid(cql_parser_t *p, const char *msg)
{
    if (p->failed) {
        return;
    }
    base_error_set(p->err, CQL_ERR_INVALID, "%s", msg);
    p->failed = true;
}


static void lexical_error(cql_parser_t *p, const cql_token_t *tok)
{
    char text[CQL_ERR_TOKEN_MAX + 8], what[CQL_ERR_TOKEN_MAX + 64];
    token_text(p, tok, text, sizeof(text));
    if (tok->expect != NULL) {
        snprintf(what, sizeof(what), "mismatched character '%s' expecting %s", text, tok->expect);
    } else {
        snprintf(what, sizeof(what), "no viable alternative at character '%s'", text);
    }
    syntax_error(p, tok, false, what);
}


/* ---- token stream ---------------------------------------------------------------- */

const cql_token_t *cql__parser_fill(cql_parser_t *p, unsigned k)
{
    BASE_ASSERT(k < CQL_PARSE_LOOKAHEAD);
    while (p->la_n <= k) {
        cql_token_t *slot = &p->la[(p->la_head + p->la_n) & (CQL_PARSE_LOOKAHEAD - 1)];
        cql__lexer_next(&p->lx, slot);
        p->la_n++;
        if (slot->type == CQL_TOK_ERROR) {
            lexical_error(p, slot);
            return &p->eof;
        }
    }
    return &p->la[(p->la_head + k) & (CQL_PARSE_LOOKAHEAD - 1)];
}


static const char *tok_type_name(cql_tok_type_t type)
{
    switch (type) {
    case CQL_TOK_EOF:
        return "EOF";
    case CQL_TOK_IDENT:
    case CQL_TOK_QIDENT:
        return "IDENT";
    case CQL_TOK_STRING:
        return "STRING_LITERAL";
    case CQL_TOK_INTEGER:
        return "INTEGER";
    case CQL_TOK_QMARK:
        return "'?'";
    case CQL_TOK_COLON:
        return "':'";
    case CQL_TOK_LPAREN:
        return "'('";
    case CQL_TOK_RPAREN:
        return "')'";
    case CQL_TOK_LBRACKET:
        return "'['";
    case CQL_TOK_RBRACKET:
        return "']'";
    case CQL_TOK_LBRACE:
        return "'{'";
    case CQL_TOK_RBRACE:
        return "'}'";
    case CQL_TOK_COMMA:
        return "','";
    case CQL_TOK_SEMI:
        return "';'";
    case CQL_TOK_DOT:
        return "'.'";
    case CQL_TOK_EQ:
        return "'='";
    case CQL_TOK_LT:
        return "'<'";
    case CQL_TOK_GT:
        return "'>'";
    default:
        return "a token";
    }
}


bool cql__expect(cql_parser_t *p, cql_tok_type_t type)
{
    if (cql__accept(p, type)) {
        return true;
    }
    cql__error_mismatch(p, tok_type_name(type));
    return false;
}


bool cql__expect_kw(cql_parser_t *p, cql_kw_t kw)
{
    if (cql__accept_kw(p, kw)) {
        return true;
    }
    if (!p->failed) {
        char want[32];
        const char *name = cql__keyword_name(kw);
        size_t i = 0;
        want[i++] = 'K';
        want[i++] = '_';
        for (; *name != '\0' && i + 1 < sizeof(want); name++) {
            want[i++] = (char)(*name - ('a' <= *name && *name <= 'z' ? 32 : 0));
        }
        want[i] = '\0';
        cql__error_mismatch(p, want);
    }
    return false;
}


bool cql__enter(cql_parser_t *p)
{
    if (p->failed) {
        return false;
    }
    if (p->depth >= CQL_PARSE_MAX_DEPTH) {
        const cql_token_t *tok = cql__peek(p, 0);
        char text[CQL_ERR_TOKEN_MAX + 8];
        token_text(p, tok, text, sizeof(text));
        cql__error_at(p, tok, "no viable alternative at input '%s' (nesting deeper than %d levels)",
                      text, CQL_PARSE_MAX_DEPTH);
        return false;
    }
    p->depth++;
    return true;
}


/* ---- statements -------------------------------------------------------------------- */

static void statement(cql_parser_t *p, cql_stmt_t *st)
{
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type != CQL_TOK_IDENT) {
        cql__error_no_viable(p);
        return;
    }
    switch (t->kw) {
    case CQL_KW_SELECT:
        cql__parse_select(p, st);
        break;
    case CQL_KW_INSERT:
        cql__parse_insert(p, st);
        break;
    case CQL_KW_UPDATE:
        cql__parse_update(p, st);
        break;
    case CQL_KW_DELETE:
        cql__parse_delete(p, st);
        break;
    case CQL_KW_BEGIN:
        cql__parse_batch(p, st);
        break;
    case CQL_KW_USE:
        cql__parse_use(p, st);
        break;
    case CQL_KW_CREATE:
        cql__parse_create(p, st);
        break;
    case CQL_KW_ALTER:
        cql__parse_alter(p, st);
        break;
    case CQL_KW_DROP:
        cql__parse_drop(p, st);
        break;
    case CQL_KW_TRUNCATE:
        cql__parse_truncate(p, st);
        break;
    case CQL_KW_GRANT:
        cql__parse_other(p, st, "GRANT");
        break;
    case CQL_KW_REVOKE:
        cql__parse_other(p, st, "REVOKE");
        break;
    case CQL_KW_DESCRIBE:
    case CQL_KW_DESC:
        cql__parse_other(p, st, "DESCRIBE");
        break;
    case CQL_KW_LIST:
        if (cql__peek_kw(p, 1, CQL_KW_ROLES)) {
            cql__parse_other(p, st, "LIST ROLES");
        } else if (cql__peek_kw(p, 1, CQL_KW_USERS)) {
            cql__parse_other(p, st, "LIST USERS");
        } else {
            cql__parse_other(p, st, "LIST PERMISSIONS");
        }
        break;
    default:
        cql__error_no_viable(p);
        break;
    }
}


int cql__parse(const char *text, size_t len, base_arena_t *a, cql_stmt_t **out, base_error_t *err)
{
    cql_parser_t p;
    memset(&p, 0, sizeof(p));
    p.a = a;
    p.err = err;
    p.text = text;
    p.len = text ? len : 0;
    p.eof.type = CQL_TOK_EOF;
    p.eof.off = p.len;
    cql__lexer_init(&p.lx, text, p.len);

    *out = NULL;
    cql_stmt_t *st = cql__alloc(&p, sizeof(*st));
    statement(&p, st);
    cql__accept(&p, CQL_TOK_SEMI);
    if (!p.failed && !cql__peek_is(&p, 0, CQL_TOK_EOF)) {
        cql__error_mismatch(&p, "EOF");
    }
    if (!p.failed && p.binds.n > CQL_PARSE_MAX_BINDS) {
        /* The protocol counts bound values in a [short]. */
        return base_error_set(err, CQL_ERR_INVALID,
                              "Too many markers(?). %zu markers exceed the allowed maximum of %d",
                              p.binds.n, CQL_PARSE_MAX_BINDS);
    }
    if (p.failed) {
        return BASE_ERROR;
    }
    st->n_binds = p.binds.n;
    st->bind_names = p.binds.data;
    if (st->kind == CQL_STMT_BATCH) {
        /* Markers are numbered across the whole batch: every member sees the
         * batch's numbering, so its bind_index values stay in range. */
        for (size_t i = 0; i < st->u.batch.n_stmts; i++) {
            st->u.batch.stmts[i]->n_binds = st->n_binds;
            st->u.batch.stmts[i]->bind_names = st->bind_names;
        }
    }
    *out = st;
    return BASE_OK;
}
