/* Unit tests for wire/reply.c: responses built by the server's encoders
 * (response.c, result.c) decode back field for field, with warnings and the
 * RequestCharge payload; truncated, padded and hostile bodies are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"

static const wire_type_t t_text = {.id = WIRE_TYPE_VARCHAR};
static const wire_type_t t_blob = {.id = WIRE_TYPE_BLOB};
static const wire_value_t no_paging = {NULL, WIRE_VALUE_NULL};


static int decode(const base_buf_t *b, base_arena_t *a, wire_reply_t *out, base_error_t *err)
{
    wire_header_t h;
    assert_int_equal(wire_header_decode(&h, b->data, b->len, 1 << 20, err), BASE_OK);
    assert_int_equal(b->len, WIRE_HEADER_SIZE + h.length);
    uint8_t *body = exact_copy(b->data + WIRE_HEADER_SIZE, h.length);
    int rc = wire_reply_decode(out, &h, body, h.length, a, err);
    /* The test reads slices after this: keep the copy in the arena instead. */
    uint8_t *kept = base_arena_memdup(a, body, h.length);
    base_free(body);
    if (rc == BASE_OK) {
        return wire_reply_decode(out, &h, kept, h.length, a, err);
    }
    return rc;
}


static void ready_authenticate_and_auth_success(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    wire_reply_t r;
    base_error_t err;
    wire_response_t rb;

    wire_response_begin(&rb, &b, 4, 0, WIRE_OP_READY);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.opcode, WIRE_OP_READY);

    base_buf_reset(&b);
    wire_response_begin(&rb, &b, 4, 0, WIRE_OP_AUTHENTICATE);
    wire_encode_authenticate(&b, "org.apache.cassandra.auth.PasswordAuthenticator");
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_true(base_str_eq(r.u.authenticator,
                            BASE_STR("org.apache.cassandra.auth.PasswordAuthenticator")));

    base_buf_reset(&b);
    wire_response_begin(&rb, &b, 4, 0, WIRE_OP_AUTH_SUCCESS);
    wire_encode_auth_success(&b, NULL, WIRE_VALUE_NULL);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.u.auth_token.len, WIRE_VALUE_NULL);
    base_buf_fini(&b);
}


static void supported_is_a_string_multimap(void **state)
{
    base_arena_t *a = *state;
    static const char *const keys[] = {"COMPRESSION", "PROTOCOL_VERSIONS"};
    static const char *const lz4[] = {"lz4"};
    static const char *const versions[] = {"3/v3", "4/v4"};
    static const char *const *const values[] = {lz4, versions};
    static const size_t n_values[] = {1, 2};
    base_buf_t b;
    base_buf_init(&b);
    wire_response_t rb;
    wire_response_begin(&rb, &b, 4, 3, WIRE_OP_SUPPORTED);
    wire_encode_supported(&b, keys, values, n_values, 2);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    wire_reply_t r;
    base_error_t err;
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.u.supported.n, 2);
    assert_true(base_str_eq(r.u.supported.keys[1], BASE_STR("PROTOCOL_VERSIONS")));
    assert_int_equal(r.u.supported.n_values[1], 2);
    assert_true(base_str_eq(r.u.supported.values[1][1], BASE_STR("4/v4")));
    base_buf_fini(&b);
}


static void error_keeps_code_message_and_detail(void **state)
{
    base_arena_t *a = *state;
    base_error_t e;
    base_error_set(&e, WIRE_ERR_UNPREPARED, "Prepared query not found");
    const uint8_t id[] = {1, 2, 3};
    wire_error_detail_unprepared(&e, id, sizeof(id));
    base_buf_t b;
    base_buf_init(&b);
    wire_response_t rb;
    wire_response_begin(&rb, &b, 4, 9, WIRE_OP_ERROR);
    wire_encode_error(&b, &e);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    wire_reply_t r;
    base_error_t err;
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.u.error.code, WIRE_ERR_UNPREPARED);
    assert_true(base_str_eq(r.u.error.message, BASE_STR("Prepared query not found")));
    const uint8_t want[] = {0, 3, 1, 2, 3};
    assert_bytes(r.u.error.detail.ptr, (size_t)r.u.error.detail.len, want, sizeof(want));
    base_buf_fini(&b);
}


static void rows_with_warnings_and_request_charge(void **state)
{
    base_arena_t *a = *state;
    const wire_col_spec_t cols[] = {{"ks", "kv", "k", &t_text}, {"ks", "kv", "v", &t_blob}};
    const wire_value_t cells[] = {{(const uint8_t *)"k1", 2},
                                  {(const uint8_t *)"abc", 3},
                                  {(const uint8_t *)"k2", 2},
                                  {NULL, WIRE_VALUE_NULL}};
    double charge = 2.38;
    uint64_t bits;
    memcpy(&bits, &charge, sizeof(bits));
    uint8_t be[8];
    base_store_u64(be, bits);
    const char *const pkeys[] = {"RequestCharge"};
    const wire_value_t pvals[] = {{be, 8}};
    const char *const warnings[] = {"throttled"};

    base_buf_t b;
    base_buf_init(&b);
    wire_response_t rb;
    wire_response_begin(&rb, &b, 4, 1, WIRE_OP_RESULT);
    wire_encode_result_rows(&b, cols, 2, no_paging, false, cells, 2);
    wire_response_end(&rb, warnings, 1, pkeys, pvals, 1, false);

    wire_reply_t r;
    base_error_t err;
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.n_warnings, 1);
    assert_true(base_str_eq(r.warnings[0], BASE_STR("throttled")));
    double got = 0;
    assert_true(wire_reply_payload_double(&r, "RequestCharge", &got));
    assert_true(got == charge);
    assert_false(wire_reply_payload_double(&r, "Other", &got));
    assert_int_equal(r.u.result.kind, WIRE_RESULT_ROWS);
    const wire_rows_meta_t *m = &r.u.result.meta;
    assert_int_equal(m->n_cols, 2);
    assert_true(base_str_eq(m->cols[1].keyspace, BASE_STR("ks")));
    assert_true(base_str_eq(m->cols[1].name, BASE_STR("v")));
    assert_int_equal(m->cols[1].type->id, WIRE_TYPE_BLOB);
    assert_int_equal(r.u.result.n_rows, 2);
    assert_int_equal(r.u.result.cells[1].len, 3);
    assert_memory_equal(r.u.result.cells[1].ptr, "abc", 3);
    assert_int_equal(r.u.result.cells[3].len, WIRE_VALUE_NULL);
    base_buf_fini(&b);
}


static void rows_without_metadata_and_compressed(void **state)
{
    base_arena_t *a = *state;
    uint8_t value[1500];
    memset(value, 'v', sizeof(value));
    const wire_col_spec_t cols[] = {{"ks", "kv", "v", &t_blob}};
    const wire_value_t cells[] = {{value, (int32_t)sizeof(value)}};
    base_buf_t b;
    base_buf_init(&b);
    wire_response_t rb;
    wire_response_begin(&rb, &b, 4, 1, WIRE_OP_RESULT);
    wire_encode_result_rows(&b, cols, 1, (wire_value_t){(const uint8_t *)"P", 1}, true, cells, 1);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, true);

    wire_header_t h;
    base_error_t err;
    assert_int_equal(wire_header_decode(&h, b.data, b.len, 1 << 20, &err), BASE_OK);
    assert_true(h.flags & WIRE_FLAG_COMPRESSION);
    uint8_t *plain;
    size_t len;
    assert_int_equal(
        wire_lz4_decompress(b.data + WIRE_HEADER_SIZE, h.length, 1 << 20, &plain, &len, &err),
        BASE_OK);
    wire_reply_t r;
    assert_int_equal(wire_reply_decode(&r, &h, plain, len, a, &err), BASE_OK);
    assert_true(r.u.result.meta.flags & WIRE_ROWS_NO_METADATA);
    assert_null(r.u.result.meta.cols);
    assert_int_equal(r.u.result.meta.paging_state.len, 1);
    assert_int_equal(r.u.result.n_rows, 1);
    assert_int_equal(r.u.result.cells[0].len, sizeof(value));
    base_free(plain);
    base_buf_fini(&b);
}


static void prepared_has_id_binds_pk_and_result_metadata(void **state)
{
    base_arena_t *a = *state;
    const uint8_t id[16] = {0xAB, 0xCD, 3};
    const wire_col_spec_t binds[] = {{"ks", "kv", "k", &t_text}, {"ks", "kv", "v", &t_blob}};
    const uint16_t pk[] = {0};
    const wire_col_spec_t cols[] = {{"ks", "kv", "v", &t_blob}};
    base_buf_t b;
    base_buf_init(&b);
    for (uint8_t version = 3; version <= 4; version++) {
        base_buf_reset(&b);
        wire_response_t rb;
        wire_response_begin(&rb, &b, version, 2, WIRE_OP_RESULT);
        wire_encode_result_prepared(&b, version, id, 16, binds, 2, pk, 1, cols, 1);
        wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
        wire_reply_t r;
        base_error_t err;
        assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
        assert_int_equal(r.u.result.kind, WIRE_RESULT_PREPARED);
        assert_int_equal(r.u.result.id.len, 16);
        assert_memory_equal(r.u.result.id.ptr, id, 16);
        assert_int_equal(r.u.result.binds.n_cols, 2);
        assert_true(base_str_eq(r.u.result.binds.cols[1].name, BASE_STR("v")));
        assert_int_equal(r.u.result.binds.n_pk, version >= 4 ? 1 : 0);
        assert_int_equal(r.u.result.meta.n_cols, 1);
        assert_int_equal(r.u.result.meta.cols[0].type->id, WIRE_TYPE_BLOB);
    }
    base_buf_fini(&b);
}


static void void_set_keyspace_and_schema_change(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    wire_reply_t r;
    base_error_t err;
    wire_response_t rb;

    wire_response_begin(&rb, &b, 4, 0, WIRE_OP_RESULT);
    wire_encode_result_void(&b);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.u.result.kind, WIRE_RESULT_VOID);

    base_buf_reset(&b);
    wire_response_begin(&rb, &b, 4, 0, WIRE_OP_RESULT);
    wire_encode_result_set_keyspace(&b, "bench");
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_true(base_str_eq(r.u.result.keyspace, BASE_STR("bench")));

    base_buf_reset(&b);
    wire_schema_change_t sc = {"CREATED", "TABLE", "bench", "kv", NULL, 0};
    wire_response_begin(&rb, &b, 4, 0, WIRE_OP_RESULT);
    wire_encode_result_schema_change(&b, &sc);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    assert_int_equal(decode(&b, a, &r, &err), BASE_OK);
    assert_int_equal(r.u.result.kind, WIRE_RESULT_SCHEMA_CHANGE);
    assert_true(base_str_eq(r.u.result.change, BASE_STR("CREATED")));
    assert_true(base_str_eq(r.u.result.name, BASE_STR("kv")));
    base_buf_fini(&b);
}


static void requests_and_unknown_kinds_are_refused(void **state)
{
    base_arena_t *a = *state;
    wire_reply_t r;
    base_error_t err;
    const uint8_t body[] = {0, 0, 0, 9};
    wire_header_t h = {.version = 4, .response = true, .opcode = WIRE_OP_RESULT, .length = 4};
    assert_int_equal(wire_reply_decode(&r, &h, body, sizeof(body), a, &err), BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_non_null(strstr(err.msg, "unknown RESULT kind"));

    h.response = false;
    assert_int_equal(wire_reply_decode(&r, &h, body, sizeof(body), a, &err), BASE_ERROR);
    h.response = true;
    h.opcode = WIRE_OP_QUERY;
    assert_int_equal(wire_reply_decode(&r, &h, body, sizeof(body), a, &err), BASE_ERROR);
}


/* Every truncation of a valid Rows/Prepared body fails cleanly; so does a
 * trailing byte, and hostile counts never allocate their claimed size. */
static void truncated_padded_and_hostile_bodies_fail(void **state)
{
    base_arena_t *a = *state;
    const wire_col_spec_t cols[] = {{"ks", "kv", "k", &t_text}, {"ks", "kv", "v", &t_blob}};
    const wire_value_t cells[] = {{(const uint8_t *)"k1", 2}, {(const uint8_t *)"abc", 3}};
    const uint16_t pk[] = {0};
    base_buf_t bodies[2];
    base_buf_init(&bodies[0]);
    base_buf_init(&bodies[1]);
    wire_encode_result_rows(&bodies[0], cols, 2, no_paging, false, cells, 1);
    const uint8_t id[4] = {1, 2, 3, 4};
    wire_encode_result_prepared(&bodies[1], 4, id, 4, cols, 2, pk, 1, cols, 2);
    wire_header_t h = {.version = 4, .response = true, .opcode = WIRE_OP_RESULT};
    wire_reply_t r;
    base_error_t err;
    for (int k = 0; k < 2; k++) {
        const base_buf_t *b = &bodies[k];
        for (size_t cut = 0; cut < b->len; cut++) {
            uint8_t *p = exact_copy(b->data, cut);
            assert_int_equal(wire_reply_decode(&r, &h, p, cut, a, &err), BASE_ERROR);
            assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
            base_free(p);
        }
        uint8_t *p = base_malloc(b->len + 1);
        memcpy(p, b->data, b->len);
        p[b->len] = 0;
        assert_int_equal(wire_reply_decode(&r, &h, p, b->len, a, &err), BASE_OK);
        assert_int_equal(wire_reply_decode(&r, &h, p, b->len + 1, a, &err), BASE_ERROR);
        assert_non_null(strstr(err.msg, "trailing"));
        base_free(p);
        base_buf_fini(&bodies[k]);
    }

    /* Rows, no metadata, 1000 columns, 2^31-1 rows in 4 bytes. */
    const uint8_t hostile[] = {0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 3, 0xE8, 0x7F, 0xFF, 0xFF, 0xFF};
    assert_int_equal(wire_reply_decode(&r, &h, hostile, sizeof(hostile), a, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "row count exceeds"));

    /* Random bytes never crash the decoder (ASan checks the reads). */
    uint32_t seed = 12345;
    for (int i = 0; i < 2000; i++) {
        uint8_t buf[48];
        size_t n = test_rand(&seed) % sizeof(buf);
        for (size_t j = 0; j < n; j++) {
            buf[j] = (uint8_t)test_rand(&seed);
        }
        if (n >= 4) {
            buf[0] = buf[1] = buf[2] = 0;
            buf[3] = (uint8_t)(1 + test_rand(&seed) % 5);
        }
        uint8_t *p = exact_copy(buf, n);
        h.flags = (uint8_t)(test_rand(&seed) % 2 ? WIRE_FLAG_WARNING : 0);
        (void)wire_reply_decode(&r, &h, p, n, a, &err);
        base_free(p);
        base_arena_reset(a);
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ready_authenticate_and_auth_success, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(supported_is_a_string_multimap, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(error_keeps_code_message_and_detail, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(rows_with_warnings_and_request_charge, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(rows_without_metadata_and_compressed, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(prepared_has_id_binds_pk_and_result_metadata, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(void_set_keyspace_and_schema_change, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(requests_and_unknown_kinds_are_refused, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(truncated_padded_and_hostile_bodies_fail, arena_setup,
                                        arena_teardown),
    };
    return cmocka_run_group_tests_name("wire/reply", tests, NULL, NULL);
}
