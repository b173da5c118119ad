/*
 * lexer.h - CQL tokens (internal to cql/).
 *
 * The lexer turns a query text into tokens on demand, one at a time; the
 * parser keeps a few of them as lookahead. A token is a (type, offset,
 * length) view into the text: nothing is copied or allocated here, and the
 * text does not need a NUL terminator (every read is checked against len).
 *
 * Lexical rules follow Cassandra's Lexer.g: keywords are case-insensitive
 * identifiers, '-' is always its own token (the parser folds "-1" into a
 * negative literal), unquoted UUIDs and 0x blobs are single tokens, and
 * durations such as 1h30m or P0001-02-03T04:05:06 are single tokens. ISO
 * durations that look like identifiers (P1D, PT2H) stay identifiers here and
 * become duration literals where the parser expects a term, so that a column
 * named p1d still works.
 */
#ifndef CQL_LEXER_H
#define CQL_LEXER_H

#include "base/base.h"

/*
 * Keywords the grammar needs, kept in alphabetical order (a unit test checks
 * it). The third column is 1 for reserved words, refused as bare
 * identifiers per appendix A of the CQL reference; true/false/null/nan/
 * infinity are literals and reserved too. Unreserved keywords (key, type,
 * ttl, count, ...) stay usable as column and table names.
 */
#define CQL_KEYWORD_MAP(XX)             \
    XX(ADD, "add", 1)                   \
    XX(AGGREGATE, "aggregate", 0)       \
    XX(ALL, "all", 0)                   \
    XX(ALLOW, "allow", 1)               \
    XX(ALTER, "alter", 1)               \
    XX(AND, "and", 1)                   \
    XX(APPLY, "apply", 1)               \
    XX(AS, "as", 0)                     \
    XX(ASC, "asc", 1)                   \
    XX(AUTHORIZE, "authorize", 1)       \
    XX(BATCH, "batch", 1)               \
    XX(BEGIN, "begin", 1)               \
    XX(BY, "by", 1)                     \
    XX(CAST, "cast", 0)                 \
    XX(CLUSTERING, "clustering", 0)     \
    XX(COLUMNFAMILY, "columnfamily", 1) \
    XX(COMPACT, "compact", 0)           \
    XX(CONTAINS, "contains", 0)         \
    XX(COUNT, "count", 0)               \
    XX(COUNTER, "counter", 0)           \
    XX(CREATE, "create", 1)             \
    XX(CUSTOM, "custom", 0)             \
    XX(DEFAULT, "default", 0)           \
    XX(DELETE, "delete", 1)             \
    XX(DESC, "desc", 1)                 \
    XX(DESCRIBE, "describe", 1)         \
    XX(DISTINCT, "distinct", 0)         \
    XX(DROP, "drop", 1)                 \
    XX(ENTRIES, "entries", 1)           \
    XX(EXECUTE, "execute", 1)           \
    XX(EXISTS, "exists", 0)             \
    XX(FALSE, "false", 1)               \
    XX(FILTERING, "filtering", 0)       \
    XX(FROM, "from", 1)                 \
    XX(FROZEN, "frozen", 0)             \
    XX(FULL, "full", 1)                 \
    XX(FUNCTION, "function", 0)         \
    XX(GRANT, "grant", 1)               \
    XX(GROUP, "group", 0)               \
    XX(IF, "if", 1)                     \
    XX(IN, "in", 1)                     \
    XX(INDEX, "index", 1)               \
    XX(INFINITY, "infinity", 1)         \
    XX(INSERT, "insert", 1)             \
    XX(INTO, "into", 1)                 \
    XX(IS, "is", 0)                     \
    XX(JSON, "json", 0)                 \
    XX(KEY, "key", 0)                   \
    XX(KEYS, "keys", 0)                 \
    XX(KEYSPACE, "keyspace", 1)         \
    XX(LIKE, "like", 0)                 \
    XX(LIMIT, "limit", 1)               \
    XX(LIST, "list", 0)                 \
    XX(MATERIALIZED, "materialized", 0) \
    XX(MODIFY, "modify", 1)             \
    XX(NAN, "nan", 1)                   \
    XX(NORECURSIVE, "norecursive", 1)   \
    XX(NOT, "not", 1)                   \
    XX(NULL, "null", 1)                 \
    XX(OF, "of", 1)                     \
    XX(ON, "on", 1)                     \
    XX(OR, "or", 1)                     \
    XX(ORDER, "order", 1)               \
    XX(PARTITION, "partition", 0)       \
    XX(PER, "per", 0)                   \
    XX(PRIMARY, "primary", 1)           \
    XX(RENAME, "rename", 1)             \
    XX(REPLACE, "replace", 1)           \
    XX(REVOKE, "revoke", 1)             \
    XX(ROLE, "role", 0)                 \
    XX(ROLES, "roles", 0)               \
    XX(SCHEMA, "schema", 1)             \
    XX(SELECT, "select", 1)             \
    XX(SET, "set", 1)                   \
    XX(STATIC, "static", 0)             \
    XX(STORAGE, "storage", 0)           \
    XX(TABLE, "table", 1)               \
    XX(TIMESTAMP, "timestamp", 0)       \
    XX(TO, "to", 1)                     \
    XX(TOKEN, "token", 1)               \
    XX(TRIGGER, "trigger", 0)           \
    XX(TRUE, "true", 1)                 \
    XX(TRUNCATE, "truncate", 1)         \
    XX(TTL, "ttl", 0)                   \
    XX(TYPE, "type", 0)                 \
    XX(UNLOGGED, "unlogged", 1)         \
    XX(UNSET, "unset", 0)               \
    XX(UPDATE, "update", 1)             \
    XX(USE, "use", 1)                   \
    XX(USER, "user", 0)                 \
    XX(USERS, "users", 0)               \
    XX(USING, "using", 1)               \
    XX(VALUES, "values", 0)             \
    XX(VIEW, "view", 0)                 \
    XX(WHERE, "where", 1)               \
    XX(WITH, "with", 1)                 \
    XX(WRITETIME, "writetime", 0)

/* clang-format off */
typedef enum {
    CQL_KW_NONE = 0,
#define XX(id, name, reserved) CQL_KW_##id,
    CQL_KEYWORD_MAP(XX)
#undef XX
    CQL_KW__COUNT
} cql_kw_t;
/* clang-format on */

typedef enum {
    CQL_TOK_EOF = 0,
    CQL_TOK_ERROR,    /* lexical error at off; expect says what was missing */
    CQL_TOK_IDENT,    /* [a-zA-Z][a-zA-Z0-9_]*, kw set when it is a keyword */
    CQL_TOK_QIDENT,   /* "quoted", escaped when it holds "" */
    CQL_TOK_STRING,   /* 'text' (escaped when it holds '') or $$text$$ */
    CQL_TOK_INTEGER,  /* [0-9]+ (the sign is a separate MINUS) */
    CQL_TOK_FLOAT,    /* [0-9]+ '.' [0-9]* exp? | [0-9]+ exp */
    CQL_TOK_UUID,     /* 8-4-4-4-12 hex */
    CQL_TOK_HEX,      /* 0x[0-9a-f]* */
    CQL_TOK_DURATION, /* 1h30m, 12mo3d, P0001-02-03T04:05:06 */
    CQL_TOK_QMARK,
    CQL_TOK_COLON,
    CQL_TOK_LPAREN,
    CQL_TOK_RPAREN,
    CQL_TOK_LBRACKET,
    CQL_TOK_RBRACKET,
    CQL_TOK_LBRACE,
    CQL_TOK_RBRACE,
    CQL_TOK_COMMA,
    CQL_TOK_SEMI,
    CQL_TOK_DOT,
    CQL_TOK_EQ,
    CQL_TOK_NEQ,
    CQL_TOK_LT,
    CQL_TOK_LTE,
    CQL_TOK_GT,
    CQL_TOK_GTE,
    CQL_TOK_PLUS,
    CQL_TOK_MINUS,
    CQL_TOK_STAR,
    CQL_TOK_SLASH,
    CQL_TOK_PERCENT,
} cql_tok_type_t;

typedef struct cql_token_s {
    cql_tok_type_t type;
    cql_kw_t kw;        /* IDENT: the keyword it spells, or CQL_KW_NONE */
    bool escaped;       /* STRING/QIDENT: holds a doubled quote to undo */
    const char *expect; /* ERROR: the awaited text ("'''"), NULL for a bad character */
    size_t off;         /* byte offset in the text */
    size_t len;         /* bytes as written, quotes included; 0 for EOF */
} cql_token_t;

typedef struct cql_lexer_s {
    const char *text; /* borrowed; not NUL-terminated */
    size_t len;
    size_t pos;
} cql_lexer_t;

void cql__lexer_init(cql_lexer_t *lx, const char *text, size_t len);

/* Fills tok with the next token. After EOF or ERROR it keeps returning EOF. */
void cql__lexer_next(cql_lexer_t *lx, cql_token_t *tok);

/* The keyword spelled by s[0..len) in any case, or CQL_KW_NONE. */
cql_kw_t cql__keyword_find(const char *s, size_t len);
const char *cql__keyword_name(cql_kw_t kw); /* lower-case spelling */
bool cql__keyword_reserved(cql_kw_t kw);

/* True when s[0..len) is an ISO 8601 duration in identifier shape: P1Y2M3D,
 * PT1H30M, P2W ... (at least one component; case-insensitive). */
bool cql__lexer_is_iso_duration(const char *s, size_t len);

#endif
