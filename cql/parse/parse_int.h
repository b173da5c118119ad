/*
 * parse_int.h - the recursive-descent CQL parser's shared state (internal to
 * the parser files: parser.c, parse_term.c, parse_dml.c, parse_ddl.c).
 *
 * Error model: the first error is recorded in p->err and p->failed is set;
 * from then on every peek returns EOF and every parse function returns
 * quickly, so callers check p->failed once, where convenient, instead of
 * after every call. Nothing is ever freed: all AST memory comes from the
 * request arena, and a failed parse just leaves garbage in it.
 *
 * Recursion bound: every function that can recurse (terms, types,
 * selectors, parenthesised relations) goes through cql__enter(), which
 * fails the parse with a Syntax error beyond CQL_PARSE_MAX_DEPTH levels, so
 * hostile input such as "((((((" or "[[[[[" cannot exhaust the stack.
 */
#ifndef CQL_PARSER_INT_H
#define CQL_PARSER_INT_H

#include "base/base.h"
#include "cql/parse/lexer.h"
#include "cql/parse/parse.h"

#define CQL_PARSE_MAX_DEPTH 64
#define CQL_PARSE_LOOKAHEAD 16 /* power of two; the grammar peeks at most 9 ahead */
#define CQL_PARSE_HISTORY   10 /* tokens shown before the offending one */
#define CQL_PARSE_MAX_BINDS 65535
#define CQL_ERR_SYNTAX      0x2000
#define CQL_ERR_INVALID     0x2200

/* An arena-backed growable array; old storage is abandoned to the arena on
 * growth, so the waste is bounded by the final size. */
typedef struct cql_vec_s {
    void *data;
    size_t n;
    size_t cap;
} cql_vec_t;

typedef struct cql_parser_s {
    cql_lexer_t lx;
    base_arena_t *a;
    base_error_t *err;
    const char *text;
    size_t len;
    cql_token_t la[CQL_PARSE_LOOKAHEAD]; /* ring of lexed, unconsumed tokens */
    unsigned la_head;
    unsigned la_n;
    cql_token_t eof;                /* what peek returns once failed */
    size_t hist[CQL_PARSE_HISTORY]; /* offsets of the last consumed tokens */
    size_t n_consumed;
    size_t prev_end; /* end offset of the last consumed token */
    int depth;
    bool failed;
    cql_vec_t binds; /* const char *name per bind marker */
} cql_parser_t;

/* ---- tokens (parser.c) ----------------------------------------------------- */

const cql_token_t *cql__parser_fill(cql_parser_t *p, unsigned k);

/* The k-th unconsumed token (k < CQL_PARSE_LOOKAHEAD). */
static inline const cql_token_t *cql__peek(cql_parser_t *p, unsigned k)
{
    if (p->failed) {
        return &p->eof;
    }
    if (k < p->la_n) {
        return &p->la[(p->la_head + k) & (CQL_PARSE_LOOKAHEAD - 1)];
    }
    return cql__parser_fill(p, k);
}

static inline bool cql__peek_is(cql_parser_t *p, unsigned k, cql_tok_type_t type)
{
    return cql__peek(p, k)->type == type;
}

static inline bool cql__peek_kw(cql_parser_t *p, unsigned k, cql_kw_t kw)
{
    const cql_token_t *t = cql__peek(p, k);
    return t->type == CQL_TOK_IDENT && t->kw == kw;
}

/* Consumes peek(0); EOF is never consumed. */
static inline void cql__advance(cql_parser_t *p)
{
    const cql_token_t *t = cql__peek(p, 0);
    if (t->type == CQL_TOK_EOF) {
        return; /* also the failed state: peek returns p->eof */
    }
    p->hist[p->n_consumed % CQL_PARSE_HISTORY] = t->off;
    p->n_consumed++;
    p->prev_end = t->off + t->len;
    p->la_head = (p->la_head + 1) & (CQL_PARSE_LOOKAHEAD - 1);
    p->la_n--;
}

/* Consumes and returns peek(0). */
static inline cql_token_t cql__next(cql_parser_t *p)
{
    cql_token_t tok = *cql__peek(p, 0);
    cql__advance(p);
    return tok;
}

static inline bool cql__accept(cql_parser_t *p, cql_tok_type_t type)
{
    if (cql__peek(p, 0)->type != type) {
        return false;
    }
    cql__advance(p);
    return true;
}

static inline bool cql__accept_kw(cql_parser_t *p, cql_kw_t kw)
{
    if (!cql__peek_kw(p, 0, kw)) {
        return false;
    }
    cql__advance(p);
    return true;
}

bool cql__expect(cql_parser_t *p, cql_tok_type_t type);
bool cql__expect_kw(cql_parser_t *p, cql_kw_t kw);

/* Depth guard around every recursive rule; false once the parse failed. */
bool cql__enter(cql_parser_t *p);

static inline void cql__leave(cql_parser_t *p)
{
    p->depth--;
}

/* ---- errors (parser.c); each records only the first error ------------------ */

void cql__error_no_viable(cql_parser_t *p); /* at peek(0) */
void cql__error_mismatch(cql_parser_t *p, const char *expecting);
void cql__error_at(cql_parser_t *p, const cql_token_t *tok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cql__error_invalid(cql_parser_t *p, const char *msg); /* 0x2200, no position */

/* ---- arena helpers (parser.c) ----------------------------------------------- */

void cql__vec_add(cql_parser_t *p, cql_vec_t *v, const void *elem, size_t size);

/* Appends a pointer (the vec then holds an array of that pointer type). */
static inline void cql__vec_push(cql_parser_t *p, cql_vec_t *v, const void *ptr)
{
    cql__vec_add(p, v, &ptr, sizeof(ptr));
}
void *cql__alloc(cql_parser_t *p, size_t size); /* zeroed */

/* ---- names, terms, types (parse_term.c) ------------------------------------- */

/* A token usable as a bare identifier: a non-reserved IDENT or "quoted". */
bool cql__is_ident(const cql_token_t *t);
/* Normalised text of an IDENT/QIDENT token (lower-cased / unquoted). */
const char *cql__ident_text(cql_parser_t *p, const cql_token_t *t);
const char *cql__parse_ident(cql_parser_t *p);
bool cql__parse_qname(cql_parser_t *p, cql_qname_t *out);
/* True when peek(k) can start a term. */
bool cql__starts_term(cql_parser_t *p, unsigned k);
/* True when peek(k) names a function called at peek(k+1) / peek(k+3). */
bool cql__starts_function(cql_parser_t *p, unsigned k);
cql_term_t *cql__parse_term(cql_parser_t *p);
cql_term_t *cql__parse_bind(cql_parser_t *p);      /* '?' or ':name' at peek(0) */
cql_term_t *cql__parse_int_value(cql_parser_t *p); /* [-]INTEGER | bind marker */
const cql_type_ast_t *cql__parse_type(cql_parser_t *p);
/* "int", "frozen<map<text, int>>", ... as Cassandra prints a type. */
const char *cql__type_text(cql_parser_t *p, const cql_type_ast_t *t);
/* Parses "name = value" options joined by AND into a vec of cql_property_t. */
void cql__parse_property(cql_parser_t *p, cql_vec_t *props);

/* ---- statements (parse_dml.c, parse_ddl.c) ---------------------------------- */

/* col [ASC | DESC] (',' ...)*, for ORDER BY and CLUSTERING ORDER BY. */
void cql__parse_ordering(cql_parser_t *p, size_t *n, cql_ordering_t **out);

void cql__parse_select(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_insert(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_update(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_delete(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_batch(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_use(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_create(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_alter(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_drop(cql_parser_t *p, cql_stmt_t *st);
void cql__parse_truncate(cql_parser_t *p, cql_stmt_t *st);
/* GRANT, REVOKE, LIST ..., DESCRIBE: recognised, skipped to the end. */
void cql__parse_other(cql_parser_t *p, cql_stmt_t *st, const char *what);

#endif
