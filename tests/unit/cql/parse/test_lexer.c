/* Unit tests for cql/lexer.c: token shapes, keywords, comments, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cql/parse/lexer.h"


#define MAX_TOKENS 64

typedef struct {
    size_t n;
    cql_token_t t[MAX_TOKENS];
} toks_t;


/* Lexes text (without its NUL) up to and including EOF or ERROR. */
static void lex(const char *text, toks_t *out)
{
    cql_lexer_t lx;
    cql__lexer_init(&lx, text, strlen(text));
    out->n = 0;
    for (;;) {
        assert_true(out->n < MAX_TOKENS);
        cql_token_t *t = &out->t[out->n++];
        cql__lexer_next(&lx, t);
        if (t->type == CQL_TOK_EOF || t->type == CQL_TOK_ERROR) {
            return;
        }
    }
}


/* The single token of text, which must span all of it. */
static cql_token_t one(const char *text)
{
    toks_t ts;
    lex(text, &ts);
    assert_int_equal(ts.n, 2);
    assert_int_equal(ts.t[1].type, CQL_TOK_EOF);
    assert_int_equal(ts.t[0].off, 0);
    assert_int_equal(ts.t[0].len, strlen(text));
    return ts.t[0];
}


static void keyword_table_is_sorted_and_every_keyword_is_found(void **state)
{
    (void)state;
    for (int kw = CQL_KW_NONE + 1; kw < CQL_KW__COUNT; kw++) {
        const char *name = cql__keyword_name((cql_kw_t)kw);
        assert_int_equal(cql__keyword_find(name, strlen(name)), kw);
        if (kw > CQL_KW_NONE + 1) {
            assert_true(strcmp(cql__keyword_name((cql_kw_t)(kw - 1)), name) < 0);
        }
        char upper[32];
        size_t n = strlen(name);
        for (size_t i = 0; i <= n; i++) {
            upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
        }
        assert_int_equal(cql__keyword_find(upper, n), kw);
    }
}


static void keyword_lookup_rejects_non_keywords(void **state)
{
    (void)state;
    assert_int_equal(cql__keyword_find("sensor_id", 9), CQL_KW_NONE);
    assert_int_equal(cql__keyword_find("selec", 5), CQL_KW_NONE);
    assert_int_equal(cql__keyword_find("selects", 7), CQL_KW_NONE);
    assert_int_equal(cql__keyword_find("a", 1), CQL_KW_NONE);
    assert_int_equal(cql__keyword_find("value", 5), CQL_KW_NONE);
    assert_int_equal(cql__keyword_find("columnfamilyx", 13), CQL_KW_NONE);
    assert_int_equal(cql__keyword_find("SeLeCt", 6), CQL_KW_SELECT);
}


static void reserved_keywords_follow_the_reference_appendix(void **state)
{
    (void)state;
    assert_true(cql__keyword_reserved(CQL_KW_SELECT));
    assert_true(cql__keyword_reserved(CQL_KW_FROM));
    assert_true(cql__keyword_reserved(CQL_KW_TOKEN));
    assert_true(cql__keyword_reserved(CQL_KW_NULL));
    assert_false(cql__keyword_reserved(CQL_KW_KEY));
    assert_false(cql__keyword_reserved(CQL_KW_TYPE));
    assert_false(cql__keyword_reserved(CQL_KW_TTL));
    assert_false(cql__keyword_reserved(CQL_KW_COUNT));
    assert_false(cql__keyword_reserved(CQL_KW_TIMESTAMP));
    assert_false(cql__keyword_reserved(CQL_KW_VALUES));
}


static void identifiers_and_keywords_are_told_apart(void **state)
{
    (void)state;
    toks_t ts;
    lex("SELECT sensor_id FROM Ks.T1", &ts);
    assert_int_equal(ts.n, 7);
    assert_int_equal(ts.t[0].type, CQL_TOK_IDENT);
    assert_int_equal(ts.t[0].kw, CQL_KW_SELECT);
    assert_int_equal(ts.t[1].kw, CQL_KW_NONE);
    assert_int_equal(ts.t[1].off, 7);
    assert_int_equal(ts.t[1].len, 9);
    assert_int_equal(ts.t[2].kw, CQL_KW_FROM);
    assert_int_equal(ts.t[4].type, CQL_TOK_DOT);
    assert_int_equal(ts.t[5].type, CQL_TOK_IDENT);
}


static void strings_keep_their_quotes_and_flag_escapes(void **state)
{
    (void)state;
    cql_token_t t = one("'it''s'");
    assert_int_equal(t.type, CQL_TOK_STRING);
    assert_true(t.escaped);
    t = one("'plain'");
    assert_false(t.escaped);
    t = one("''");
    assert_int_equal(t.type, CQL_TOK_STRING);
    t = one("$$it's $ fine$$");
    assert_int_equal(t.type, CQL_TOK_STRING);
    t = one("\"Quoted \"\" Name\"");
    assert_int_equal(t.type, CQL_TOK_QIDENT);
    assert_true(t.escaped);
}


static void numbers_floats_and_signs(void **state)
{
    (void)state;
    assert_int_equal(one("42").type, CQL_TOK_INTEGER);
    assert_int_equal(one("4.25").type, CQL_TOK_FLOAT);
    assert_int_equal(one("4.").type, CQL_TOK_FLOAT);
    assert_int_equal(one("1e10").type, CQL_TOK_FLOAT);
    assert_int_equal(one("1.5E-3").type, CQL_TOK_FLOAT);
    toks_t ts;
    lex("-7", &ts);
    assert_int_equal(ts.t[0].type, CQL_TOK_MINUS);
    assert_int_equal(ts.t[1].type, CQL_TOK_INTEGER);
    lex("1e", &ts); /* no exponent digits: an integer, then an identifier */
    assert_int_equal(ts.t[0].type, CQL_TOK_INTEGER);
    assert_int_equal(ts.t[1].type, CQL_TOK_IDENT);
}


static void uuids_blobs_and_durations_are_single_tokens(void **state)
{
    (void)state;
    assert_int_equal(one("B70DE1D0-9908-4AE3-BE34-5573E5B09F14").type, CQL_TOK_UUID);
    assert_int_equal(one("12345678-1234-1234-1234-123456789012").type, CQL_TOK_UUID);
    assert_int_equal(one("0x").type, CQL_TOK_HEX);
    assert_int_equal(one("0xCAFEbabe").type, CQL_TOK_HEX);
    assert_int_equal(one("1h30m").type, CQL_TOK_DURATION);
    assert_int_equal(one("12mo3d").type, CQL_TOK_DURATION);
    assert_int_equal(one("3ms").type, CQL_TOK_DURATION);
    assert_int_equal(one("2us5ns").type, CQL_TOK_DURATION);
    assert_int_equal(one("1\xC2\xB5s").type, CQL_TOK_DURATION);
    assert_int_equal(one("1Y2MO").type, CQL_TOK_DURATION);
    assert_int_equal(one("P0001-02-03T04:05:06").type, CQL_TOK_DURATION);
    /* ISO forms in identifier shape stay identifiers for the parser. */
    assert_int_equal(one("P1DT2H").type, CQL_TOK_IDENT);
}


static void iso_duration_shapes_are_recognised(void **state)
{
    (void)state;
    assert_true(cql__lexer_is_iso_duration("P1D", 3));
    assert_true(cql__lexer_is_iso_duration("p1dt2h", 6));
    assert_true(cql__lexer_is_iso_duration("PT30M", 5));
    assert_true(cql__lexer_is_iso_duration("P1Y2M3DT4H5M6S", 14));
    assert_true(cql__lexer_is_iso_duration("P3W", 3));
    assert_false(cql__lexer_is_iso_duration("P", 1));
    assert_false(cql__lexer_is_iso_duration("PT", 2));
    assert_false(cql__lexer_is_iso_duration("P1", 2));
    assert_false(cql__lexer_is_iso_duration("P1D2Y", 5));
    assert_false(cql__lexer_is_iso_duration("P1W2D", 5));
    assert_false(cql__lexer_is_iso_duration("price", 5));
}


static void uuid_needs_a_clean_end(void **state)
{
    (void)state;
    toks_t ts;
    lex("12345678-1234-1234-1234-123456789012x", &ts);
    assert_int_not_equal(ts.t[0].type, CQL_TOK_UUID);
    lex("deadbeef-1234", &ts);
    assert_int_equal(ts.t[0].type, CQL_TOK_IDENT);
    assert_int_equal(ts.t[1].type, CQL_TOK_MINUS);
}


static void operators_and_punctuation(void **state)
{
    (void)state;
    static const cql_tok_type_t want[] = {
        CQL_TOK_LTE,      CQL_TOK_GTE,      CQL_TOK_NEQ,    CQL_TOK_LT,
        CQL_TOK_GT,       CQL_TOK_EQ,       CQL_TOK_QMARK,  CQL_TOK_COLON,
        CQL_TOK_LBRACKET, CQL_TOK_RBRACKET, CQL_TOK_LBRACE, CQL_TOK_RBRACE,
        CQL_TOK_PLUS,     CQL_TOK_STAR,     CQL_TOK_SEMI,   CQL_TOK_EOF,
    };
    toks_t ts;
    lex("<= >= != < > = ? : [ ] { } + * ;", &ts);
    assert_int_equal(ts.n, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < ts.n; i++) {
        assert_int_equal(ts.t[i].type, want[i]);
    }
    lex("map<text,list<int>>", &ts); /* '>>' is two tokens */
    assert_int_equal(ts.t[7].type, CQL_TOK_GT);
    assert_int_equal(ts.t[8].type, CQL_TOK_GT);
    assert_int_equal(ts.t[9].type, CQL_TOK_EOF);
}


static void comments_of_all_three_kinds_are_skipped(void **state)
{
    (void)state;
    toks_t ts;
    lex("-- line\nSELECT // more\n /* block\n */ x", &ts);
    assert_int_equal(ts.n, 3);
    assert_int_equal(ts.t[0].kw, CQL_KW_SELECT);
    assert_int_equal(ts.t[1].type, CQL_TOK_IDENT);
    lex("a -- trailing comment without newline", &ts);
    assert_int_equal(ts.n, 2);
}


static void unterminated_runs_are_errors_at_the_end(void **state)
{
    (void)state;
    toks_t ts;
    lex("SELECT 'abc", &ts);
    assert_int_equal(ts.t[1].type, CQL_TOK_ERROR);
    assert_string_equal(ts.t[1].expect, "'''");
    assert_int_equal(ts.t[1].off, 11);
    lex("\"abc", &ts);
    assert_int_equal(ts.t[0].type, CQL_TOK_ERROR);
    lex("$$abc$", &ts);
    assert_int_equal(ts.t[0].type, CQL_TOK_ERROR);
    lex("a /* never closed", &ts);
    assert_int_equal(ts.t[1].type, CQL_TOK_ERROR);
    assert_string_equal(ts.t[1].expect, "'*/'");
}


static void bad_characters_are_errors_and_stop_the_lexer(void **state)
{
    (void)state;
    toks_t ts;
    lex("SELECT # x", &ts);
    assert_int_equal(ts.n, 2);
    assert_int_equal(ts.t[1].type, CQL_TOK_ERROR);
    assert_null(ts.t[1].expect);
    assert_int_equal(ts.t[1].off, 7);
    lex("a ! b", &ts);
    assert_int_equal(ts.t[1].type, CQL_TOK_ERROR);
    lex("caf\xC3\xA9", &ts); /* non-ASCII outside quotes: whole sequence quoted */
    assert_int_equal(ts.t[1].type, CQL_TOK_ERROR);
    assert_int_equal(ts.t[1].len, 2);
}


static void lexer_never_reads_past_len(void **state)
{
    (void)state;
    /* A heap buffer with no terminator: ASan catches any overread. */
    static const char *texts[] = {"'ab",
                                  "12345678-1234-1234-1234-12345678901",
                                  "$$",
                                  "0x",
                                  "1.",
                                  "1e+",
                                  "P0001-02-03T04:05:0",
                                  "--",
                                  "/*",
                                  "1m",
                                  "\"",
                                  "!"};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        size_t n = strlen(texts[i]);
        char *buf = malloc(n);
        memcpy(buf, texts[i], n);
        cql_lexer_t lx;
        cql_token_t t;
        cql__lexer_init(&lx, buf, n);
        int k = 0;
        do {
            cql__lexer_next(&lx, &t);
            assert_true(t.off + t.len <= n);
        } while (t.type != CQL_TOK_EOF && ++k < 64);
        free(buf);
        assert_int_equal(t.type, CQL_TOK_EOF);
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keyword_table_is_sorted_and_every_keyword_is_found),
        cmocka_unit_test(keyword_lookup_rejects_non_keywords),
        cmocka_unit_test(reserved_keywords_follow_the_reference_appendix),
        cmocka_unit_test(identifiers_and_keywords_are_told_apart),
        cmocka_unit_test(strings_keep_their_quotes_and_flag_escapes),
        cmocka_unit_test(numbers_floats_and_signs),
        cmocka_unit_test(uuids_blobs_and_durations_are_single_tokens),
        cmocka_unit_test(iso_duration_shapes_are_recognised),
        cmocka_unit_test(uuid_needs_a_clean_end),
        cmocka_unit_test(operators_and_punctuation),
        cmocka_unit_test(comments_of_all_three_kinds_are_skipped),
        cmocka_unit_test(unterminated_runs_are_errors_at_the_end),
        cmocka_unit_test(bad_characters_are_errors_and_stop_the_lexer),
        cmocka_unit_test(lexer_never_reads_past_len),
    };
    return cmocka_run_group_tests_name("cql/lexer", tests, NULL, NULL);
}
