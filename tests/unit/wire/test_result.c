/* Unit tests for wire/result.c: RESULT kinds and the SCHEMA_CHANGE event,
 * as golden bytes and as reader round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"

static const wire_type_t t_int = {.id = WIRE_TYPE_INT};
static const wire_type_t t_text = {.id = WIRE_TYPE_VARCHAR};
static const wire_value_t no_paging = {NULL, WIRE_VALUE_NULL};


static void void_and_set_keyspace(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_result_void(&b);
    wire_encode_result_set_keyspace(&b, "ks");
    const uint8_t want[] = {0, 0, 0, 1, 0, 0, 0, 3, 0, 2, 'k', 's'};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void rows_use_the_global_spec_and_carry_the_paging_state(void **state)
{
    (void)state;
    const wire_col_spec_t cols[] = {{"ks", "t", "k", &t_int}, {"ks", "t", "v", &t_text}};
    const uint8_t one[] = {0, 0, 0, 1}, two[] = {0, 0, 0, 2};
    const wire_value_t cells[] = {{one, 4}, {(const uint8_t *)"a", 1}, {two, 4}, {NULL, -1}};
    const wire_value_t paging = {(const uint8_t *)"PS", 2};
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_result_rows(&b, cols, 2, paging, false, cells, 2);
    const uint8_t want[] = {
        0, 0, 0,   2,                                    /* kind Rows */
        0, 0, 0,   3,                                    /* Global_tables_spec | Has_more_pages */
        0, 0, 0,   2,                                    /* columns */
        0, 0, 0,   2,   'P',  'S',                       /* paging state */
        0, 2, 'k', 's', 0,    1,   't',                  /* global table spec */
        0, 1, 'k', 0,   0x09, 0,   1,   'v', 0,    0x0D, /* col specs */
        0, 0, 0,   2,                                    /* rows */
        0, 0, 0,   4,   0,    0,   0,   1,   0,    0,    0,    1,   'a', /* row 1 */
        0, 0, 0,   4,   0,    0,   0,   2,   0xFF, 0xFF, 0xFF, 0xFF};    /* row 2, null */
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void rows_from_two_tables_spell_out_each_column(void **state)
{
    (void)state;
    const wire_col_spec_t cols[] = {{"ks", "a", "x", &t_int}, {"ks", "b", "y", &t_int}};
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_result_rows(&b, cols, 2, no_paging, false, NULL, 0);
    const uint8_t want[] = {0, 0, 0,   2,   0, 0, 0,   0, 0, 0,   0, 2, /* kind, flags 0, 2 cols */
                            0, 2, 'k', 's', 0, 1, 'a', 0, 1, 'x', 0, 9, /* ks.a x int */
                            0, 2, 'k', 's', 0, 1, 'b', 0, 1, 'y', 0, 9, 0, 0, 0, 0};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void rows_without_metadata_keep_count_and_paging_state(void **state)
{
    (void)state;
    const wire_col_spec_t cols[] = {{"ks", "t", "k", &t_int}};
    const uint8_t one[] = {0, 0, 0, 1};
    const wire_value_t cells[] = {{one, 4}};
    const wire_value_t paging = {(const uint8_t *)"P", 1};
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_result_rows(&b, cols, 1, paging, true, cells, 1);
    const uint8_t want[] = {0, 0,   0, 2, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0,
                            1, 'P', 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


/* Parses Rows metadata back with the reader, as a driver would. */
static void rows_metadata_parses_back(void **state)
{
    base_arena_t *a = *state;
    static const wire_type_t *kv[] = {&t_text, &t_int};
    static const wire_type_t map = {.id = WIRE_TYPE_MAP, .n_sub = 2, .sub = kv};
    const wire_col_spec_t cols[] = {{"ks", "t", "k", &t_int}, {"ks", "t", "m", &map}};
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_rows_metadata(&b, cols, 2, no_paging, false);
    wire_reader_t r;
    wire_reader_init(&r, b.data, b.len);
    assert_int_equal(wire_read_int(&r), WIRE_ROWS_GLOBAL_TABLES_SPEC);
    assert_int_equal(wire_read_int(&r), 2);
    assert_true(base_str_eq(wire_read_string(&r), BASE_STR("ks")));
    assert_true(base_str_eq(wire_read_string(&r), BASE_STR("t")));
    assert_true(base_str_eq(wire_read_string(&r), BASE_STR("k")));
    assert_int_equal(wire_read_type(&r, a)->id, WIRE_TYPE_INT);
    assert_true(base_str_eq(wire_read_string(&r), BASE_STR("m")));
    const wire_type_t *t = wire_read_type(&r, a);
    assert_int_equal(t->id, WIRE_TYPE_MAP);
    assert_int_equal(t->sub[0]->id, WIRE_TYPE_VARCHAR);
    assert_int_equal(t->sub[1]->id, WIRE_TYPE_INT);
    assert_true(wire_reader_ok(&r));
    assert_int_equal(wire_reader_remaining(&r), 0);
    base_buf_fini(&b);
}


static void prepared_v4_carries_partition_key_indexes(void **state)
{
    (void)state;
    const uint8_t id[] = {0xAB, 0xCD};
    const wire_col_spec_t binds[] = {{"ks", "t", "k", &t_int}};
    const uint16_t pk[] = {0};
    const wire_col_spec_t cols[] = {{"ks", "t", "k", &t_int}, {"ks", "t", "v", &t_text}};
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_result_prepared(&b, 4, id, 2, binds, 1, pk, 1, cols, 2);
    const uint8_t
        want[] = {0, 0, 0,   4,   0, 2, 0xAB, 0xCD, /* kind, id */
                  0, 0, 0,   1,   0, 0, 0,    1,    0, 0,   0,   1,
                  0, 0, /* flags, count, pk_count, pk[0] */
                  0, 2, 'k', 's', 0, 1, 't',  0,    1, 'k', 0,   9, /* global spec, bind k */
                  0, 0, 0,   1,   0, 0, 0,    2,    0, 2,   'k', 's',
                  0, 1, 't', /* result metadata */
                  0, 1, 'k', 0,   9, 0, 1,    'v',  0, 0x0D};
    assert_bytes(b.data, b.len, want, sizeof(want));

    base_buf_reset(&b);
    wire_encode_result_prepared(&b, 3, id, 2, binds, 1, pk, 1, cols, 2);
    const uint8_t want_v3[] = {
        0, 0, 0,   4,   0,   2, 0xAB, 0xCD, 0, 0,   0,   1, 0, 0, 0, 1, /* no pk */
        0, 2, 'k', 's', 0,   1, 't',  0,    1, 'k', 0,   9, 0, 0, 0, 1,   0, 0,   0,
        2, 0, 2,   'k', 's', 0, 1,    't',  0, 1,   'k', 0, 9, 0, 1, 'v', 0, 0x0D};
    assert_bytes(b.data, b.len, want_v3, sizeof(want_v3));
    base_buf_fini(&b);
}


static void prepared_non_select_has_empty_result_metadata(void **state)
{
    (void)state;
    const uint8_t id[] = {1};
    base_buf_t b;
    base_buf_init(&b);
    wire_encode_result_prepared(&b, 4, id, 1, NULL, 0, NULL, 0, NULL, 0);
    const uint8_t want[] = {0, 0, 0, 4, 0, 1, 1, 0, 0, 0,
                            0, 0, 0, 0, 0, 0, 0, 0, 0, /* no binds, no pk */
                            0, 0, 0, 4, 0, 0, 0, 0};
    assert_bytes(b.data, b.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void schema_changes_follow_their_target(void **state)
{
    (void)state;
    base_buf_t b;
    base_buf_init(&b);
    wire_schema_change_t ks = {.change = "CREATED", .target = "KEYSPACE", .keyspace = "ks"};
    wire_encode_result_schema_change(&b, &ks);
    const uint8_t want_ks[] = {0, 0,   0,   5,   0,   7,   'C', 'R', 'E', 'A', 'T', 'E', 'D', 0,
                               8, 'K', 'E', 'Y', 'S', 'P', 'A', 'C', 'E', 0,   2,   'k', 's'};
    assert_bytes(b.data, b.len, want_ks, sizeof(want_ks));

    base_buf_reset(&b);
    wire_schema_change_t table = {
        .change = "UPDATED", .target = "TABLE", .keyspace = "ks", .name = "t"};
    wire_encode_result_schema_change(&b, &table);
    const uint8_t want_table[] = {0, 0,   0,   5,   0,   7,   'U', 'P', 'D', 'A', 'T', 'E', 'D', 0,
                                  5, 'T', 'A', 'B', 'L', 'E', 0,   2,   'k', 's', 0,   1,   't'};
    assert_bytes(b.data, b.len, want_table, sizeof(want_table));

    base_buf_reset(&b);
    const char *args[] = {"int", "text"};
    wire_schema_change_t fn = {.change = "DROPPED",
                               .target = "FUNCTION",
                               .keyspace = "ks",
                               .name = "f",
                               .arg_types = args,
                               .n_arg_types = 2};
    wire_encode_result_schema_change(&b, &fn);
    const uint8_t want_fn[] = {0,   0,   0,   5,   0,   7,   'D', 'R', 'O', 'P', 'P',
                               'E', 'D', 0,   8,   'F', 'U', 'N', 'C', 'T', 'I', 'O',
                               'N', 0,   2,   'k', 's', 0,   1,   'f', 0,   2,   0,
                               3,   'i', 'n', 't', 0,   4,   't', 'e', 'x', 't'};
    assert_bytes(b.data, b.len, want_fn, sizeof(want_fn));
    base_buf_fini(&b);
}


static void schema_change_event_starts_with_its_type(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    wire_schema_change_t type = {
        .change = "CREATED", .target = "TYPE", .keyspace = "ks", .name = "u"};
    wire_response_t rb;
    wire_response_begin(&rb, &out, 4, -1, WIRE_OP_EVENT);
    wire_encode_event_schema_change(&out, &type);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    const uint8_t want[] = {0x84, 0,   0xFF, 0xFF, 0x0C, 0,   0,   0,   37,  0,   13,  'S',
                            'C',  'H', 'E',  'M',  'A',  '_', 'C', 'H', 'A', 'N', 'G', 'E',
                            0,    7,   'C',  'R',  'E',  'A', 'T', 'E', 'D', 0,   4,   'T',
                            'Y',  'P', 'E',  0,    2,    'k', 's', 0,   1,   'u'};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(void_and_set_keyspace),
        cmocka_unit_test(rows_use_the_global_spec_and_carry_the_paging_state),
        cmocka_unit_test(rows_from_two_tables_spell_out_each_column),
        cmocka_unit_test(rows_without_metadata_keep_count_and_paging_state),
        cmocka_unit_test_setup_teardown(rows_metadata_parses_back, arena_setup, arena_teardown),
        cmocka_unit_test(prepared_v4_carries_partition_key_indexes),
        cmocka_unit_test(prepared_non_select_has_empty_result_metadata),
        cmocka_unit_test(schema_changes_follow_their_target),
        cmocka_unit_test(schema_change_event_starts_with_its_type),
    };
    return cmocka_run_group_tests_name("wire/result", tests, NULL, NULL);
}
