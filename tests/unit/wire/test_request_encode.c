/* Unit tests for wire/request_encode.c: every request a client encodes is
 * read back by wire_request_decode (the server's decoder) field for field,
 * compressed or not, and the query-parameter flags follow the fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"

static const uint8_t prepared_id[16] = {0xDE, 0xAD, 0xBE, 0xEF, 1, 2,  3,  4,
                                        5,    6,    7,    8,    9, 10, 11, 12};


/* Splits one frame off buf and decodes it as a request (decompressing first). */
static void decode_frame(const base_buf_t *buf, base_arena_t *a, wire_header_t *h,
                         wire_request_t *req, uint8_t **plain)
{
    base_error_t err;
    assert_int_equal(wire_header_decode(h, buf->data, buf->len, 1 << 20, &err), BASE_OK);
    assert_false(h->response);
    assert_int_equal(buf->len, WIRE_HEADER_SIZE + h->length);
    const uint8_t *body = buf->data + WIRE_HEADER_SIZE;
    size_t len = h->length;
    *plain = NULL;
    if (h->flags & WIRE_FLAG_COMPRESSION) {
        assert_int_equal(wire_lz4_decompress(body, len, 1 << 20, plain, &len, &err), BASE_OK);
        body = *plain;
    }
    int rc = wire_request_decode(req, h, body, len, a, &err);
    if (rc != BASE_OK) {
        fail_msg("decode: %s", err.msg);
    }
}


static void startup_round_trips(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    static const char *const keys[] = {"CQL_VERSION", "COMPRESSION"};
    static const char *const values[] = {"3.4.4", "lz4"};
    wire_response_t rb;
    wire_request_begin(&rb, &b, 4, 0, WIRE_OP_STARTUP);
    wire_encode_startup(&b, keys, values, 2);
    wire_request_end(&rb, false);

    wire_header_t h;
    wire_request_t req;
    uint8_t *plain;
    decode_frame(&b, a, &h, &req, &plain);
    assert_int_equal(h.version, 4);
    assert_int_equal(h.stream, 0);
    assert_int_equal(req.opcode, WIRE_OP_STARTUP);
    assert_int_equal(req.u.startup.n, 2);
    assert_true(base_str_eq(req.u.startup.keys[1], BASE_STR("COMPRESSION")));
    assert_true(base_str_eq(req.u.startup.values[1], BASE_STR("lz4")));
    base_buf_fini(&b);
}


static void auth_response_carries_the_sasl_token(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    static const uint8_t token[] = "\0user\0key";
    wire_response_t rb;
    wire_request_begin(&rb, &b, 4, 7, WIRE_OP_AUTH_RESPONSE);
    wire_encode_auth_response(&b, token, sizeof(token) - 1);
    wire_request_end(&rb, false);

    wire_header_t h;
    wire_request_t req;
    uint8_t *plain;
    decode_frame(&b, a, &h, &req, &plain);
    assert_int_equal(h.stream, 7);
    assert_int_equal(req.u.auth_token.len, sizeof(token) - 1);
    assert_memory_equal(req.u.auth_token.ptr, token, sizeof(token) - 1);
    base_buf_fini(&b);
}


static void prepare_and_query_carry_their_text(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    const char *q = "SELECT v FROM ks.kv WHERE k = ?";
    wire_response_t rb;
    wire_request_begin(&rb, &b, 4, 1, WIRE_OP_PREPARE);
    wire_encode_prepare(&b, q, strlen(q));
    wire_request_end(&rb, false);
    wire_header_t h;
    wire_request_t req;
    uint8_t *plain;
    decode_frame(&b, a, &h, &req, &plain);
    assert_true(base_str_eq(req.u.prepare, base_str_from(q)));

    base_buf_reset(&b);
    wire_query_params_t p = {.consistency = WIRE_CL_LOCAL_ONE};
    wire_request_begin(&rb, &b, 4, 2, WIRE_OP_QUERY);
    wire_encode_query(&b, "USE ks", 6, &p);
    wire_request_end(&rb, false);
    decode_frame(&b, a, &h, &req, &plain);
    assert_true(base_str_eq(req.u.query.query, BASE_STR("USE ks")));
    assert_int_equal(req.u.query.params.consistency, WIRE_CL_LOCAL_ONE);
    assert_int_equal(req.u.query.params.flags, 0);
    assert_int_equal(req.u.query.params.n_values, 0);
    base_buf_fini(&b);
}


static void execute_flags_follow_the_fields(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    wire_value_t vals[3] = {
        {(const uint8_t *)"k1", 2}, {NULL, WIRE_VALUE_NULL}, {NULL, WIRE_VALUE_UNSET}};
    static const uint8_t state_bytes[] = {9, 8, 7};
    wire_query_params_t p = {.consistency = WIRE_CL_QUORUM,
                             .flags = WIRE_QF_SKIP_METADATA | WIRE_QF_PAGE_SIZE, /* ignored */
                             .n_values = 3,
                             .values = vals,
                             .page_size = 100,
                             .paging_state = {state_bytes, 3},
                             .serial_consistency = WIRE_CL_LOCAL_SERIAL,
                             .has_timestamp = true,
                             .timestamp = 1234567890123};
    wire_response_t rb;
    wire_request_begin(&rb, &b, 4, 300, WIRE_OP_EXECUTE);
    wire_encode_execute(&b, prepared_id, sizeof(prepared_id), &p);
    wire_request_end(&rb, false);

    wire_header_t h;
    wire_request_t req;
    uint8_t *plain;
    decode_frame(&b, a, &h, &req, &plain);
    assert_int_equal(h.stream, 300);
    const wire_execute_t *e = &req.u.execute;
    assert_int_equal(e->id.len, 16);
    assert_memory_equal(e->id.ptr, prepared_id, 16);
    const wire_query_params_t *d = &e->params;
    assert_int_equal(d->flags, WIRE_QF_VALUES | WIRE_QF_SKIP_METADATA | WIRE_QF_PAGE_SIZE |
                                   WIRE_QF_PAGING_STATE | WIRE_QF_SERIAL_CONSISTENCY |
                                   WIRE_QF_DEFAULT_TIMESTAMP);
    assert_int_equal(d->consistency, WIRE_CL_QUORUM);
    assert_int_equal(d->n_values, 3);
    assert_int_equal(d->values[0].len, 2);
    assert_memory_equal(d->values[0].ptr, "k1", 2);
    assert_int_equal(d->values[1].len, WIRE_VALUE_NULL);
    assert_int_equal(d->values[2].len, WIRE_VALUE_UNSET);
    assert_int_equal(d->page_size, 100);
    assert_int_equal(d->paging_state.len, 3);
    assert_int_equal(d->serial_consistency, WIRE_CL_LOCAL_SERIAL);
    assert_true(d->has_timestamp);
    assert_true(d->timestamp == 1234567890123);
    base_buf_fini(&b);
}


static void named_values_carry_their_names(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    wire_value_t vals[1] = {{(const uint8_t *)"x", 1}};
    base_str_t names[1] = {BASE_STR("k")};
    wire_query_params_t p = {
        .consistency = WIRE_CL_ONE, .n_values = 1, .values = vals, .names = names};
    wire_response_t rb;
    wire_request_begin(&rb, &b, 4, 0, WIRE_OP_QUERY);
    wire_encode_query(&b, "SELECT * FROM t WHERE k = :k", 28, &p);
    wire_request_end(&rb, false);
    wire_header_t h;
    wire_request_t req;
    uint8_t *plain;
    decode_frame(&b, a, &h, &req, &plain);
    assert_int_equal(req.u.query.params.flags, WIRE_QF_VALUES | WIRE_QF_NAMES_FOR_VALUES);
    assert_true(base_str_eq(req.u.query.params.names[0], BASE_STR("k")));
    base_buf_fini(&b);
}


static void compressed_execute_round_trips(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    uint8_t value[2000];
    memset(value, 'x', sizeof(value));
    wire_value_t vals[1] = {{value, (int32_t)sizeof(value)}};
    wire_query_params_t p = {.consistency = WIRE_CL_ONE, .n_values = 1, .values = vals};
    wire_response_t rb;
    wire_request_begin(&rb, &b, 4, 5, WIRE_OP_EXECUTE);
    wire_encode_execute(&b, prepared_id, sizeof(prepared_id), &p);
    wire_request_end(&rb, true);

    wire_header_t h;
    wire_request_t req;
    uint8_t *plain;
    decode_frame(&b, a, &h, &req, &plain);
    assert_true(h.flags & WIRE_FLAG_COMPRESSION);
    assert_true(h.length < 200);
    assert_int_equal(req.u.execute.params.values[0].len, sizeof(value));
    assert_memory_equal(req.u.execute.params.values[0].ptr, value, sizeof(value));
    base_free(plain);
    base_buf_fini(&b);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(startup_round_trips, arena_setup, arena_teardown),
        cmocka_unit_test_setup_teardown(auth_response_carries_the_sasl_token, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(prepare_and_query_carry_their_text, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(execute_flags_follow_the_fields, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(named_values_carry_their_names, arena_setup,
                                        arena_teardown),
        cmocka_unit_test_setup_teardown(compressed_execute_round_trips, arena_setup,
                                        arena_teardown),
    };
    return cmocka_run_group_tests_name("wire/request_encode", tests, NULL, NULL);
}
