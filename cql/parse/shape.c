/*
 * shape.c - the shape of a statement: its text with every literal replaced
 * by '?' and white space and comments normalised, so that
 *   SELECT * FROM t WHERE id = 42   and   select *  from t where id=7
 * are one shape, "SELECT * FROM t WHERE id = ?". Statistics and cost
 * estimates are kept per shape. Keywords are upper-cased; identifiers keep
 * their spelling, also those spelt like an unreserved keyword (a column
 * "date", "value" or "key"): the user must recognise their statements.
 */
#include <ctype.h>

#include "cql/parse/lexer.h"
#include "cql/parse/parse.h"

#define SHAPE_MAX 2048


static bool is_literal(const cql_token_t *t)
{
    switch (t->type) {
    case CQL_TOK_STRING:
    case CQL_TOK_INTEGER:
    case CQL_TOK_FLOAT:
    case CQL_TOK_UUID:
    case CQL_TOK_HEX:
    case CQL_TOK_DURATION:
        return true;
    case CQL_TOK_IDENT:
        return t->kw == CQL_KW_TRUE || t->kw == CQL_KW_FALSE || t->kw == CQL_KW_NAN ||
               t->kw == CQL_KW_INFINITY;
    default:
        return false;
    }
}


static bool glue_before(cql_tok_type_t t)
{
    return t == CQL_TOK_COMMA || t == CQL_TOK_RPAREN || t == CQL_TOK_DOT || t == CQL_TOK_SEMI ||
           t == CQL_TOK_RBRACKET;
}


/*
 * Whether an unreserved keyword stands as a name here, judged from its
 * neighbours as the grammar would: a name is qualified (t.date), compared,
 * listed or closed (date = ?, date, date) ORDER BY date), or followed by
 * FROM/IN/CONTAINS/AS/ASC/DESC. IF [NOT] EXISTS, PRIMARY KEY, ALLOW FILTERING
 * and COMPACT STORAGE stay keywords.
 */
static bool names_something(cql_tok_type_t prev, cql_kw_t prev_kw, const cql_token_t *next)
{
    if (prev == CQL_TOK_DOT || next->type == CQL_TOK_DOT) {
        return true;
    }
    if (prev_kw == CQL_KW_IF || prev_kw == CQL_KW_NOT || prev_kw == CQL_KW_PRIMARY ||
        prev_kw == CQL_KW_ALLOW || prev_kw == CQL_KW_COMPACT) {
        return false;
    }
    switch (next->type) {
    case CQL_TOK_EQ:
    case CQL_TOK_NEQ:
    case CQL_TOK_LT:
    case CQL_TOK_LTE:
    case CQL_TOK_GT:
    case CQL_TOK_GTE:
    case CQL_TOK_COMMA:
    case CQL_TOK_RPAREN:
    case CQL_TOK_LBRACKET:
    case CQL_TOK_SEMI:
    case CQL_TOK_EOF:
        return true;
    case CQL_TOK_IDENT:
        return next->kw == CQL_KW_FROM || next->kw == CQL_KW_IN || next->kw == CQL_KW_CONTAINS ||
               next->kw == CQL_KW_AS || next->kw == CQL_KW_ASC || next->kw == CQL_KW_DESC;
    default:
        return false;
    }
}


const char *cql__shape(const char *text, size_t len, base_arena_t *a)
{
    cql_lexer_t lx;
    cql_token_t tok, next;
    base_buf_t b;
    base_buf_init(&b);
    cql__lexer_init(&lx, text, len);
    cql_tok_type_t prev = CQL_TOK_EOF;
    cql_kw_t prev_kw = CQL_KW_NONE;
    cql__lexer_next(&lx, &next);
    for (;;) {
        tok = next;
        if (tok.type == CQL_TOK_EOF || tok.type == CQL_TOK_ERROR || b.len > SHAPE_MAX) {
            break;
        }
        cql__lexer_next(&lx, &next);
        if (tok.type == CQL_TOK_SEMI) {
            continue;
        }
        bool negative_number = prev == CQL_TOK_MINUS && is_literal(&tok);
        /* "f(" stays a call, "t (" stays a column list: keep the writer's choice */
        bool call =
            tok.type == CQL_TOK_LPAREN && tok.off > 0 && !isspace((unsigned char)text[tok.off - 1]);
        if (b.len > 0 && !glue_before(tok.type) && !call && prev != CQL_TOK_LPAREN &&
            prev != CQL_TOK_DOT && prev != CQL_TOK_LBRACKET && !negative_number) {
            base_buf_put_u8(&b, ' ');
        }
        if (negative_number) {
            b.len--; /* "-" belongs to the literal it signs */
        }
        if (is_literal(&tok)) {
            base_buf_put_u8(&b, '?');
        } else if (tok.type == CQL_TOK_IDENT && tok.kw != CQL_KW_NONE &&
                   (cql__keyword_reserved(tok.kw) || !names_something(prev, prev_kw, &next))) {
            for (size_t i = 0; i < tok.len; i++) {
                base_buf_put_u8(&b, (uint8_t)toupper((unsigned char)text[tok.off + i]));
            }
        } else {
            base_buf_put(&b, text + tok.off, tok.len);
        }
        prev = tok.type;
        prev_kw = tok.type == CQL_TOK_IDENT ? tok.kw : CQL_KW_NONE;
    }
    char *out = base_arena_strndup(a, b.data ? (const char *)b.data : "", b.len);
    base_buf_fini(&b);
    return out;
}
