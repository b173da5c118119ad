/*
 * lexer.c - CQL text to tokens (cql layer, internal).
 *
 * One forward scan, no allocation, no backtracking beyond a fixed-size peek
 * (a UUID is recognised by looking at most 37 bytes ahead). Every read is
 * checked against lx->len: the text comes from the network and is not
 * NUL-terminated. After an ERROR token the lexer only returns EOF, so a
 * caller looping "until EOF" always terminates.
 *
 * Keyword lookup is one hash probe (see kw_slots below); identifiers
 * longer than the longest keyword skip it.
 */
#include "cql/parse/lexer.h"


#define CQL_KW_MAX_LEN 12 /* "columnfamily", "materialized" */

/* clang-format off */
static const struct {
    const char *name;
    uint8_t len;
    bool reserved;
} keywords[CQL_KW__COUNT] = {
    {"", 0, false}, /* CQL_KW_NONE */
#define XX(id, name, reserved) {name, sizeof(name) - 1, reserved},
    CQL_KEYWORD_MAP(XX)
#undef XX
};
/* clang-format on */


static inline bool is_alpha(unsigned char c)
{
    return (unsigned char)((c | 0x20) - 'a') < 26;
}


static inline bool is_digit(unsigned char c)
{
    return (unsigned char)(c - '0') < 10;
}


static inline bool is_hex(unsigned char c)
{
    return is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6;
}


static inline bool is_ident_char(unsigned char c)
{
    return is_alpha(c) || is_digit(c) || c == '_';
}


static inline unsigned char lower(unsigned char c)
{
    return (unsigned char)(c - 'A') < 26 ? (unsigned char)(c | 0x20) : c;
}


/*
 * Keyword lookup: an open-addressing hash table over the lower-cased
 * spelling, filled once before main() from the keyword table (so adding a
 * keyword needs no generated code) and read-only afterwards. A lookup
 * hashes at most CQL_KW_MAX_LEN bytes and usually compares one entry.
 */
#define KW_SLOTS 512 /* power of two, > 4x the keyword count */

static uint8_t kw_slots[KW_SLOTS]; /* cql_kw_t, CQL_KW_NONE = empty */

/* First two letters, last letter and length: cheap, and spread enough for
 * linear probing at this load factor (the table is built at run time, so
 * any collision only costs a probe). */
static inline uint32_t kw_hash(const char *s, size_t len)
{
    uint32_t c0 = (unsigned char)s[0] | 0x20, c1 = (unsigned char)s[1] | 0x20;
    uint32_t cl = (unsigned char)s[len - 1] | 0x20;
    return ((c0 * 31 + c1) * 31 + cl) * 31 + (uint32_t)len;
}


__attribute__((constructor)) static void kw_build(void)
{
    _Static_assert(CQL_KW__COUNT < 256 && CQL_KW__COUNT * 4 < KW_SLOTS, "keyword table size");
    for (int kw = 1; kw < CQL_KW__COUNT; kw++) {
        uint32_t i = kw_hash(keywords[kw].name, keywords[kw].len) & (KW_SLOTS - 1);
        while (kw_slots[i] != CQL_KW_NONE) {
            i = (i + 1) & (KW_SLOTS - 1);
        }
        kw_slots[i] = (uint8_t)kw;
    }
}


cql_kw_t cql__keyword_find(const char *s, size_t len)
{
    if (len < 2 || len > CQL_KW_MAX_LEN) {
        return CQL_KW_NONE;
    }
    for (uint32_t i = kw_hash(s, len) & (KW_SLOTS - 1);; i = (i + 1) & (KW_SLOTS - 1)) {
        unsigned kw = kw_slots[i];
        if (kw == CQL_KW_NONE) {
            return CQL_KW_NONE;
        }
        if (keywords[kw].len != len) {
            continue;
        }
        /* Keywords are all letters: c | 0x20 maps only 'A'-'Z' onto them. */
        const char *name = keywords[kw].name;
        size_t k = 0;
        while (k < len && (char)((unsigned char)s[k] | 0x20) == name[k]) {
            k++;
        }
        if (k == len) {
            return (cql_kw_t)kw;
        }
    }
}


const char *cql__keyword_name(cql_kw_t kw)
{
    return (unsigned)kw < CQL_KW__COUNT ? keywords[kw].name : "";
}


bool cql__keyword_reserved(cql_kw_t kw)
{
    return (unsigned)kw < CQL_KW__COUNT && keywords[kw].reserved;
}


/* Consumes [0-9]+ at *i; returns false (and leaves *i) when there is none. */
static bool digits(const char *s, size_t len, size_t *i)
{
    size_t j = *i;
    while (j < len && is_digit((unsigned char)s[j])) {
        j++;
    }
    if (j == *i) {
        return false;
    }
    *i = j;
    return true;
}


/* Components "<digits><unit>" at *pi, units taken in the order given (each
 * at most once); counts them in *n. With all_or_none, a run that is not a
 * component is a failure rather than the end of the part. */
static bool iso_part(const char *s, size_t len, size_t *pi, const char *units, bool all_or_none,
                     size_t *n)
{
    size_t i = *pi;
    for (const char *u = units; *u != '\0' && i < len; u++) {
        size_t j = i;
        if (!digits(s, len, &j) || j >= len) {
            if (all_or_none) {
                return false;
            }
            break;
        }
        u = strchr(u, (char)lower((unsigned char)s[j]));
        if (u == NULL || *u == '\0') {
            return false;
        }
        i = j + 1;
        (*n)++;
    }
    *pi = i;
    return true;
}


/* ISO 8601 "P[nY][nM][nD][T[nH][nM][nS]]" or "PnW", each component optional
 * but at least one present. */
bool cql__lexer_is_iso_duration(const char *s, size_t len)
{
    size_t i = 1, n = 0;
    if (len < 3 || lower((unsigned char)s[0]) != 'p') {
        return false;
    }
    if (digits(s, len, &i) && i < len && lower((unsigned char)s[i]) == 'w') {
        return i + 1 == len;
    }
    i = 1;
    if (!iso_part(s, len, &i, "ymd", false, &n)) {
        return false;
    }
    if (i < len && lower((unsigned char)s[i]) == 't') {
        i++;
        if (!iso_part(s, len, &i, "hms", true, &n)) {
            return false;
        }
    }
    return n > 0 && i == len;
}


/* 8-4-4-4-12 hex digits at s[i], not followed by an identifier character. */
static bool match_uuid(const char *s, size_t len, size_t i)
{
    static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    if (len - i < 36 || s[i + 8] != '-') {
        return false;
    }
    for (size_t k = 0; k < 36; k++) {
        unsigned char c = (unsigned char)s[i + k];
        if (shape[k] == '-' ? c != '-' : !is_hex(c)) {
            return false;
        }
    }
    return len - i == 36 || !is_ident_char((unsigned char)s[i + 36]);
}


/* The alternative ISO form P0001-02-03T04:05:06 (20 bytes). */
static bool match_iso_alt(const char *s, size_t len, size_t i)
{
    static const char shape[] = "P9999-99-99T99:99:99";
    if (len - i < 20) {
        return false;
    }
    for (size_t k = 0; k < 20; k++) {
        unsigned char c = (unsigned char)s[i + k];
        char want = shape[k];
        if (want == '9' ? !is_digit(c) : (lower(c) != lower((unsigned char)want))) {
            return false;
        }
    }
    return len - i == 20 || !is_ident_char((unsigned char)s[i + 20]);
}


/* One duration unit at s[i] (y mo w d h m s ms us µs ns, any case); returns
 * its length or 0. */
static size_t duration_unit(const char *s, size_t len, size_t i)
{
    unsigned char c = lower((unsigned char)s[i]);
    unsigned char c2 = i + 1 < len ? lower((unsigned char)s[i + 1]) : 0;
    switch (c) {
    case 'y':
    case 'w':
    case 'd':
    case 'h':
    case 's':
        return 1;
    case 'm':
        return (c2 == 'o' || c2 == 's') ? 2 : 1;
    case 'u':
    case 'n':
        return c2 == 's' ? 2 : 0;
    case 0xC2: /* U+00B5 MICRO SIGN in UTF-8, then 's' */
        if (c2 == 0xB5 && i + 2 < len && lower((unsigned char)s[i + 2]) == 's') {
            return 3;
        }
        return 0;
    default:
        return 0;
    }
}


/* Digits at s[start..i) are scanned; decide INTEGER, FLOAT or DURATION. */
static cql_tok_type_t scan_number(const char *s, size_t len, size_t *pi)
{
    size_t i = *pi;
    cql_tok_type_t type = CQL_TOK_INTEGER;
    /* "1..2" is 1 .. 2 (a slice), "0...3." is 0. .. 3. (a float ends before "..") */
    bool range = i + 1 < len && s[i + 1] == '.' && !(i + 2 < len && s[i + 2] == '.');
    if (i < len && s[i] == '.' && !range) {
        i++;
        digits(s, len, &i);
        type = CQL_TOK_FLOAT;
    }
    if (i < len && (s[i] | 0x20) == 'e') {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-')) {
            j++;
        }
        if (digits(s, len, &j)) {
            *pi = j;
            return CQL_TOK_FLOAT;
        }
    }
    if (type == CQL_TOK_INTEGER && i < len) {
        size_t u = duration_unit(s, len, i);
        if (u > 0) {
            i += u;
            for (;;) {
                size_t j = i;
                if (!digits(s, len, &j) || j >= len || (u = duration_unit(s, len, j)) == 0) {
                    break;
                }
                i = j + u;
            }
            type = CQL_TOK_DURATION;
        }
    }
    *pi = i;
    return type;
}


/* A quoted run closed by q (q doubled inside is an escape). Returns false if
 * the text ends first. */
static bool scan_quoted(const char *s, size_t len, size_t *pi, char q, bool *escaped)
{
    size_t i = *pi + 1;
    for (;;) {
        const char *e = i < len ? memchr(s + i, q, len - i) : NULL;
        if (e == NULL) {
            *pi = len;
            return false;
        }
        i = (size_t)(e - s) + 1;
        if (i < len && s[i] == q) {
            *escaped = true;
            i++;
            continue;
        }
        *pi = i;
        return true;
    }
}


/* Advances lx->pos over blanks and comments; false for an unclosed block
 * comment. */
static bool skip_space_and_comments(cql_lexer_t *lx)
{
    const char *s = lx->text;
    size_t len = lx->len, i = lx->pos;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || (c >= '\t' && c <= '\r')) { /* \t \n \v \f \r */
            i++;
        } else if ((c == '-' || c == '/') && i + 1 < len && s[i + 1] == (char)c) {
            const char *nl = memchr(s + i, '\n', len - i);
            i = nl ? (size_t)(nl - s) + 1 : len;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            size_t j = i + 2;
            for (; j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'); j++) {
            }
            if (j + 1 >= len) {
                return false;
            }
            i = j + 2;
        } else {
            break;
        }
    }
    lx->pos = i;
    return true;
}


static cql_tok_type_t punct(const char *s, size_t len, size_t *pi)
{
    size_t i = *pi;
    char c = s[i];
    char n = '\0';
    if (i + 1 < len) {
        n = s[i + 1];
    }
    *pi = i + 1;
    switch (c) {
    case '?':
        return CQL_TOK_QMARK;
    case ':':
        return CQL_TOK_COLON;
    case '(':
        return CQL_TOK_LPAREN;
    case ')':
        return CQL_TOK_RPAREN;
    case '[':
        return CQL_TOK_LBRACKET;
    case ']':
        return CQL_TOK_RBRACKET;
    case '{':
        return CQL_TOK_LBRACE;
    case '}':
        return CQL_TOK_RBRACE;
    case ',':
        return CQL_TOK_COMMA;
    case ';':
        return CQL_TOK_SEMI;
    case '.':
        return CQL_TOK_DOT;
    case '=':
        return CQL_TOK_EQ;
    case '+':
        return CQL_TOK_PLUS;
    case '-':
        return CQL_TOK_MINUS;
    case '*':
        return CQL_TOK_STAR;
    case '/':
        return CQL_TOK_SLASH;
    case '%':
        return CQL_TOK_PERCENT;
    case '<':
        if (n == '=') {
            *pi = i + 2;
            return CQL_TOK_LTE;
        }
        return CQL_TOK_LT;
    case '>':
        if (n == '=') {
            *pi = i + 2;
            return CQL_TOK_GTE;
        }
        return CQL_TOK_GT;
    case '!':
        if (n == '=') {
            *pi = i + 2;
            return CQL_TOK_NEQ;
        }
        return CQL_TOK_ERROR;
    default:
        return CQL_TOK_ERROR;
    }
}


void cql__lexer_init(cql_lexer_t *lx, const char *text, size_t len)
{
    lx->text = text;
    lx->len = text ? len : 0;
    lx->pos = 0;
}


/* An identifier or keyword, a UUID, or the ISO duration alternative form. */
static void scan_word(const char *s, size_t len, size_t *pi, cql_token_t *tok)
{
    size_t i = *pi;
    if (is_hex((unsigned char)s[i]) && match_uuid(s, len, i)) {
        tok->type = CQL_TOK_UUID;
        *pi = i + 36;
    } else if ((s[i] | 0x20) == 'p' && match_iso_alt(s, len, i)) {
        tok->type = CQL_TOK_DURATION;
        *pi = i + 20;
    } else {
        while (i < len && is_ident_char((unsigned char)s[i])) {
            i++;
        }
        tok->type = CQL_TOK_IDENT;
        tok->kw = cql__keyword_find(s + *pi, i - *pi);
        *pi = i;
    }
}


/* A UUID, a 0x blob, or a number or duration. */
static cql_tok_type_t scan_numeric(const char *s, size_t len, size_t *pi)
{
    size_t i = *pi;
    if (match_uuid(s, len, i)) {
        *pi = i + 36;
        return CQL_TOK_UUID;
    }
    if (s[i] == '0' && i + 1 < len && (s[i + 1] | 0x20) == 'x') {
        for (i += 2; i < len && is_hex((unsigned char)s[i]); i++) {
        }
        *pi = i;
        return CQL_TOK_HEX;
    }
    digits(s, len, pi);
    return scan_number(s, len, pi);
}


/* $$...$$; false when the text ends first. */
static bool scan_dollar(const char *s, size_t len, size_t *pi)
{
    size_t j = *pi + 2;
    for (; j + 1 < len && !(s[j] == '$' && s[j + 1] == '$'); j++) {
    }
    if (j + 1 >= len) {
        return false;
    }
    *pi = j + 2;
    return true;
}


/* Ends the token stream with an ERROR: at the end of the text for an
 * unterminated run (expect says what was missing), else on the offending
 * character, its whole UTF-8 sequence quoted. */
static void lex_error(cql_lexer_t *lx, cql_token_t *tok, const char *expect)
{
    size_t n = 0;
    if (expect == NULL && tok->off < lx->len) {
        n = 1;
        while (n < 4 && tok->off + n < lx->len &&
               ((unsigned char)lx->text[tok->off + n] & 0xC0) == 0x80) {
            n++;
        }
    }
    tok->type = CQL_TOK_ERROR;
    tok->expect = expect;
    tok->off = expect != NULL ? lx->len : tok->off;
    tok->len = n;
    lx->pos = lx->len;
}


void cql__lexer_next(cql_lexer_t *lx, cql_token_t *tok)
{
    tok->kw = CQL_KW_NONE;
    tok->escaped = false;
    tok->expect = NULL;
    tok->type = CQL_TOK_EOF;
    if (!skip_space_and_comments(lx)) {
        tok->off = lx->len;
        lex_error(lx, tok, "'*/'");
        return;
    }
    const char *s = lx->text;
    size_t len = lx->len, i = lx->pos;
    tok->off = i;
    tok->len = 0;
    if (i >= len) {
        return;
    }
    unsigned char c = (unsigned char)s[i];
    if (is_alpha(c)) {
        scan_word(s, len, &i, tok);
    } else if (is_digit(c)) {
        tok->type = scan_numeric(s, len, &i);
    } else if (c == '\'' || c == '"') {
        tok->type = c == '\'' ? CQL_TOK_STRING : CQL_TOK_QIDENT;
        if (!scan_quoted(s, len, &i, (char)c, &tok->escaped)) {
            lex_error(lx, tok, c == '\'' ? "'''" : "'\"'");
            return;
        }
    } else if (c == '$' && i + 1 < len && s[i + 1] == '$') {
        tok->type = CQL_TOK_STRING;
        if (!scan_dollar(s, len, &i)) {
            lex_error(lx, tok, "'$$'");
            return;
        }
    } else if ((tok->type = punct(s, len, &i)) == CQL_TOK_ERROR) {
        lex_error(lx, tok, NULL);
        return;
    }
    tok->len = i - tok->off;
    lx->pos = i;
}
