/*
 * fuzz_cql_parse.c - libFuzzer target for the CQL lexer and parser, and the
 * statement shape: any text parses or fails with a Syntax/Invalid error.
 */
#include "cql/parse/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    base_arena_t a;
    base_error_t err;
    cql_stmt_t *st;
    base_arena_init(&a, 4096);
    char *text = base_malloc(size ? size : 1);
    memcpy(text, data, size);
    (void)cql__parse(text, size, &a, &st, &err);
    (void)cql__shape(text, size, &a);
    base_free(text);
    base_arena_fini(&a);
    return 0;
}
