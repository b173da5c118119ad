/* Unit tests for wire/response.c: framing, the warnings/payload prefix,
 * compression and the small response messages, as golden bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"

/* 1.0 as an 8-byte big-endian IEEE-754 double: Cosmos's RequestCharge form. */
static const uint8_t one_ru[8] = {0x3F, 0xF0, 0, 0, 0, 0, 0, 0};

/* What a response carries before its body: warnings, then the custom
 * payload. */
typedef struct prefix_s {
    const char *const *warnings;
    size_t n_warnings;
    const char *const *keys;
    const wire_value_t *vals;
    size_t n_payload;
} prefix_t;

static const char *const w1[] = {"w1"};
static const char *const charge_key[] = {"RequestCharge"};
static const wire_value_t charge_val[] = {{one_ru, 8}};
static const prefix_t no_prefix = {NULL, 0, NULL, NULL, 0};
static const prefix_t warned = {w1, 1, NULL, NULL, 0};
static const prefix_t charged = {NULL, 0, charge_key, charge_val, 1};
static const prefix_t warned_and_charged = {w1, 1, charge_key, charge_val, 1};


/* Appends a frame with an empty body (READY and the like). */
static void put_empty(base_buf_t *out, uint8_t version, int16_t stream, uint8_t opcode,
                      const prefix_t *p, bool compress)
{
    wire_response_t rb;
    wire_response_begin(&rb, out, version, stream, opcode);
    wire_response_end(&rb, p->warnings, p->n_warnings, p->keys, p->vals, p->n_payload, compress);
}

/* Appends a RESULT frame whose body is Void. */
static void put_void(base_buf_t *out, uint8_t version, int16_t stream, const prefix_t *p,
                     bool compress)
{
    wire_response_t rb;
    wire_response_begin(&rb, out, version, stream, WIRE_OP_RESULT);
    wire_encode_result_void(out);
    wire_response_end(&rb, p->warnings, p->n_warnings, p->keys, p->vals, p->n_payload, compress);
}

/* Appends a v4 ERROR frame with no prefix. */
static void put_error(base_buf_t *out, int16_t stream, const base_error_t *err)
{
    wire_response_t rb;
    wire_response_begin(&rb, out, 4, stream, WIRE_OP_ERROR);
    wire_encode_error(out, err);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
}


static void ready_is_an_empty_v4_response(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    put_empty(&out, 4, 5, WIRE_OP_READY, &no_prefix, true); /* empty: never compressed */
    const uint8_t want[] = {0x84, 0x00, 0x00, 0x05, 0x02, 0x00, 0x00, 0x00, 0x00};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


static void supported_is_a_string_multimap(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    wire_response_t rb;
    const char *keys[] = {"CQL_VERSION", "COMPRESSION"};
    const char *cql[] = {"3.4.4"};
    const char *const *values[] = {cql, NULL};
    const size_t n_values[] = {1, 0};
    wire_response_begin(&rb, &out, 4, 0, WIRE_OP_SUPPORTED);
    wire_encode_supported(&out, keys, values, n_values, 2);
    wire_response_end(&rb, NULL, 0, NULL, NULL, 0, false);
    const uint8_t want[] = {0x84, 0,   0,   0,   0x06, 0,   0,   0,   39,  0,   2,   0,
                            11,   'C', 'Q', 'L', '_',  'V', 'E', 'R', 'S', 'I', 'O', 'N',
                            0,    1,   0,   5,   '3',  '.', '4', '.', '4', 0,   11,  'C',
                            'O',  'M', 'P', 'R', 'E',  'S', 'S', 'I', 'O', 'N', 0,   0};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


static void authenticate_and_auth_success(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    wire_encode_authenticate(&out, "org.apache.cassandra.auth.PasswordAuthenticator");
    assert_int_equal(base_load_u16(out.data), 47);
    base_buf_reset(&out);
    wire_encode_auth_success(&out, NULL, -1);
    wire_encode_auth_success(&out, (const uint8_t *)"ok", 2);
    const uint8_t want[] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 2, 'o', 'k'};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


static void error_carries_code_message_and_detail(void **state)
{
    (void)state;
    base_error_t err;
    base_error_set(&err, WIRE_ERR_ALREADY_EXISTS, "exists");
    wire_error_detail_already_exists(&err, "ks", "t");
    base_buf_t out;
    base_buf_init(&out);
    put_error(&out, 0x0102, &err);
    const uint8_t want[] = {0x84, 0,   1,   2,   0x00, 0,   0, 0, 19,  0x00, 0x00, 0x24, 0x00, 0, 6,
                            'e',  'x', 'i', 's', 't',  's', 0, 2, 'k', 's',  0,    1,    't'};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


static void unsupported_version_reply_is_a_protocol_error(void **state)
{
    (void)state;
    base_error_t err;
    base_error_set(&err, WIRE_ERR_PROTOCOL_ERROR, "x");
    wire_unsupported_version_message(err.msg, sizeof(err.msg), 66);
    base_buf_t out;
    base_buf_init(&out);
    put_error(&out, 0, &err);
    const char *msg = "Invalid or unsupported protocol version (66); supported versions are "
                      "(3/v3, 4/v4)";
    size_t n = strlen(msg);
    assert_int_equal(out.len, 9 + 4 + 2 + n);
    const uint8_t head[] = {0x84, 0, 0, 0,    0, 0,         0, 0, (uint8_t)(6 + n),
                            0,    0, 0, 0x0A, 0, (uint8_t)n};
    assert_bytes(out.data, sizeof(head), head, sizeof(head));
    assert_memory_equal(out.data + 15, msg, n);
    base_buf_fini(&out);
}


static void error_details_follow_section_nine(void **state)
{
    (void)state;
    base_error_t err;
    base_error_set(&err, 0, "m");

    wire_error_detail_unavailable(&err, WIRE_CL_QUORUM, 2, 1);
    assert_int_equal(err.code, WIRE_ERR_UNAVAILABLE);
    const uint8_t unavailable[] = {0, 4, 0, 0, 0, 2, 0, 0, 0, 1};
    assert_bytes(err.detail, err.detail_len, unavailable, sizeof(unavailable));

    wire_error_detail_write_timeout(&err, WIRE_CL_ONE, 0, 1, "SIMPLE");
    assert_int_equal(err.code, WIRE_ERR_WRITE_TIMEOUT);
    const uint8_t write_timeout[] = {0, 1, 0, 0,   0,   0,   0,   0,   0,
                                     1, 0, 6, 'S', 'I', 'M', 'P', 'L', 'E'};
    assert_bytes(err.detail, err.detail_len, write_timeout, sizeof(write_timeout));

    wire_error_detail_read_timeout(&err, WIRE_CL_LOCAL_ONE, 0, 1, true);
    assert_int_equal(err.code, WIRE_ERR_READ_TIMEOUT);
    const uint8_t read_timeout[] = {0, 0x0A, 0, 0, 0, 0, 0, 0, 0, 1, 1};
    assert_bytes(err.detail, err.detail_len, read_timeout, sizeof(read_timeout));

    wire_error_detail_read_failure(&err, WIRE_CL_ONE, 0, 1, 1, false);
    assert_int_equal(err.code, WIRE_ERR_READ_FAILURE);
    const uint8_t read_failure[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0};
    assert_bytes(err.detail, err.detail_len, read_failure, sizeof(read_failure));

    const uint8_t id[] = {0xAA, 0xBB, 0xCC};
    wire_error_detail_unprepared(&err, id, sizeof(id));
    assert_int_equal(err.code, WIRE_ERR_UNPREPARED);
    const uint8_t unprepared[] = {0, 3, 0xAA, 0xBB, 0xCC};
    assert_bytes(err.detail, err.detail_len, unprepared, sizeof(unprepared));

    wire_error_detail_already_exists(&err, "ks", NULL); /* a keyspace: empty table */
    const uint8_t ks_exists[] = {0, 2, 'k', 's', 0, 0};
    assert_bytes(err.detail, err.detail_len, ks_exists, sizeof(ks_exists));
    assert_string_equal(err.msg, "m");
}


static void long_detail_strings_are_cut_to_fit(void **state)
{
    (void)state;
    char name[400];
    memset(name, 'n', sizeof(name) - 1);
    name[sizeof(name) - 1] = '\0';
    base_error_t err;
    base_error_set(&err, 0, "m");
    wire_error_detail_already_exists(&err, name, name);
    assert_true(err.detail_len <= BASE_ERROR_DETAIL_MAX);
    wire_reader_t r;
    wire_reader_init(&r, err.detail, err.detail_len);
    base_str_t ks = wire_read_string(&r);
    base_str_t table = wire_read_string(&r);
    assert_true(wire_reader_ok(&r));
    assert_int_equal(wire_reader_remaining(&r), 0);
    assert_true(ks.len > 100 && table.len > 100);

    uint8_t id[300] = {0};
    wire_error_detail_unprepared(&err, id, sizeof(id));
    assert_int_equal(err.detail_len, BASE_ERROR_DETAIL_MAX);
    wire_error_detail_write_timeout(&err, WIRE_CL_ONE, 0, 1, name);
    assert_int_equal(err.detail_len, BASE_ERROR_DETAIL_MAX);
}


static void warnings_come_before_the_custom_payload(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    put_void(&out, 4, 1, &warned_and_charged, false);
    const uint8_t want[] = {
        0x84, 0x0C, 0,   1,   0x08, 0,    0,   0,   39, /* header */
        0,    1,    0,   2,   'w',  '1',                /* [string list] */
        0,    1,    0,   13,  'R',  'e',  'q', 'u', 'e', 's', 't', 'C',
        'h',  'a',  'r', 'g', 'e',                                    /* key */
        0,    0,    0,   8,   0x3F, 0xF0, 0,   0,   0,   0,   0,   0, /* [bytes] */
        0,    0,    0,   1};                                          /* Void */
    assert_bytes(out.data, out.len, want, sizeof(want));

    base_buf_reset(&out);
    put_void(&out, 4, 1, &charged, false);
    assert_int_equal(out.data[1], WIRE_FLAG_CUSTOM_PAYLOAD);
    assert_int_equal(base_load_u32(out.data + 5), 33);
    assert_bytes(out.data + 9, out.len - 9, want + 15, sizeof(want) - 15);

    base_buf_reset(&out);
    put_empty(&out, 4, 1, WIRE_OP_READY, &warned, false); /* empty message, prefix only */
    const uint8_t ready[] = {0x84, 0x08, 0, 1, 0x02, 0, 0, 0, 6, 0, 1, 0, 2, 'w', '1'};
    assert_bytes(out.data, out.len, ready, sizeof(ready));
    base_buf_fini(&out);
}


static void v3_frames_carry_no_warnings_or_payload(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    put_void(&out, 3, 7, &warned_and_charged, false);
    const uint8_t want[] = {0x83, 0, 0, 7, 0x08, 0, 0, 0, 4, 0, 0, 0, 1};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


static void responses_append_after_earlier_frames(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    const char *const keys[] = {"k"};
    const wire_value_t vals[] = {{NULL, WIRE_VALUE_NULL}};
    const prefix_t null_payload = {NULL, 0, keys, vals, 1};
    put_empty(&out, 4, 1, WIRE_OP_READY, &no_prefix, false);
    put_void(&out, 4, 2, &null_payload, false);
    const uint8_t want[] = {0x84, 0, 0, 1, 2,   0,    0,    0,    0,  /* READY */
                            0x84, 4, 0, 2, 8,   0,    0,    0,    13, /* RESULT */
                            0,    1, 0, 1, 'k', 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


/* Builds a Rows response big enough to be worth compressing. */
static void encode_big_rows(base_buf_t *out, bool compress, bool with_prefix)
{
    static const wire_type_t text = {.id = WIRE_TYPE_VARCHAR};
    const wire_col_spec_t cols[] = {{"ks", "t", "k", &text}, {"ks", "t", "v", &text}};
    enum { N_ROWS = 500 };
    static wire_value_t cells[N_ROWS * 2];
    static char text_buf[N_ROWS][32];
    for (int i = 0; i < N_ROWS; i++) {
        int n = snprintf(text_buf[i], sizeof(text_buf[i]), "row-%d-value", i);
        cells[2 * i] = (wire_value_t){(const uint8_t *)text_buf[i], n};
        cells[2 * i + 1] = (wire_value_t){(const uint8_t *)"constant payload text", 21};
    }
    const char *warnings[] = {"Read 500 live rows"};
    const char *keys[] = {"RequestCharge"};
    const wire_value_t vals[] = {{one_ru, 8}};
    wire_response_t rb;
    wire_response_begin(&rb, out, 4, 9, WIRE_OP_RESULT);
    wire_value_t no_paging = {NULL, WIRE_VALUE_NULL};
    wire_encode_result_rows(out, cols, 2, no_paging, false, cells, N_ROWS);
    wire_response_end(&rb, warnings, with_prefix ? 1 : 0, keys, vals, with_prefix ? 1 : 0,
                      compress);
}


static void compressed_response_round_trips_through_lz4(void **state)
{
    (void)state;
    for (int prefix = 0; prefix <= 1; prefix++) {
        base_buf_t plain, packed;
        base_buf_init(&plain);
        base_buf_init(&packed);
        base_buf_put(&packed, "earlier frame", 13); /* start != 0 */
        encode_big_rows(&plain, false, prefix);
        encode_big_rows(&packed, true, prefix);

        const uint8_t *z = packed.data + 13;
        uint8_t want_flags = prefix ? (WIRE_FLAG_WARNING | WIRE_FLAG_CUSTOM_PAYLOAD) : 0;
        assert_int_equal(plain.data[1], want_flags);
        assert_int_equal(z[1], want_flags | WIRE_FLAG_COMPRESSION);
        assert_memory_equal(z + 2, plain.data + 2, 3); /* stream, opcode */
        uint32_t z_len = base_load_u32(z + 5);
        assert_int_equal(packed.len, 13 + 9 + z_len);
        assert_true(z_len < plain.len - 9);

        uint8_t *body;
        size_t body_len;
        base_error_t err;
        assert_int_equal(wire_lz4_decompress(z + 9, z_len, 1 << 20, &body, &body_len, &err),
                         BASE_OK);
        assert_bytes(body, body_len, plain.data + 9, plain.len - 9);
        base_free(body);
        base_buf_fini(&plain);
        base_buf_fini(&packed);
    }
}


static void tiny_bodies_stay_uncompressed(void **state)
{
    (void)state;
    base_buf_t out;
    base_buf_init(&out);
    put_void(&out, 4, 0, &no_prefix, true);
    const uint8_t want[] = {0x84, 0, 0, 0, 0x08, 0, 0, 0, 4, 0, 0, 0, 1};
    assert_bytes(out.data, out.len, want, sizeof(want));
    base_buf_fini(&out);
}


/* A prefix written before the body (wire_response_prefix) makes the frame a prefix
 * given to end makes, byte for byte: every prefix, v3 and v4, plain and lz4, and a
 * frame appended behind another. */
static void a_prefix_written_first_makes_the_same_frame(void **state)
{
    (void)state;
    const prefix_t *prefixes[] = {&no_prefix, &warned, &charged, &warned_and_charged};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        for (uint8_t version = 3; version <= 4; version++) {
            for (int compress = 0; compress <= 1; compress++) {
                const prefix_t *p = prefixes[i];
                base_buf_t late, early;
                base_buf_init(&late);
                base_buf_init(&early);
                base_buf_put(&late, "earlier", 7);
                base_buf_put(&early, "earlier", 7);
                base_error_t err;
                base_error_set(&err, WIRE_ERR_INVALID, "%0512d", 7); /* worth compressing */
                wire_response_t rb;
                wire_response_begin(&rb, &late, version, 5, WIRE_OP_ERROR);
                wire_encode_error(&late, &err);
                wire_response_end(&rb, p->warnings, p->n_warnings, p->keys, p->vals, p->n_payload,
                                  compress);
                wire_response_begin(&rb, &early, version, 5, WIRE_OP_ERROR);
                wire_response_prefix(&rb, p->warnings, p->n_warnings, p->keys, p->vals,
                                     p->n_payload);
                wire_encode_error(&early, &err);
                wire_response_end(&rb, NULL, 0, NULL, NULL, 0, compress);
                assert_bytes(early.data, early.len, late.data, late.len);
                base_buf_fini(&late);
                base_buf_fini(&early);
            }
        }
    }
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ready_is_an_empty_v4_response),
        cmocka_unit_test(supported_is_a_string_multimap),
        cmocka_unit_test(authenticate_and_auth_success),
        cmocka_unit_test(error_carries_code_message_and_detail),
        cmocka_unit_test(unsupported_version_reply_is_a_protocol_error),
        cmocka_unit_test(error_details_follow_section_nine),
        cmocka_unit_test(long_detail_strings_are_cut_to_fit),
        cmocka_unit_test(warnings_come_before_the_custom_payload),
        cmocka_unit_test(v3_frames_carry_no_warnings_or_payload),
        cmocka_unit_test(responses_append_after_earlier_frames),
        cmocka_unit_test(compressed_response_round_trips_through_lz4),
        cmocka_unit_test(a_prefix_written_first_makes_the_same_frame),
        cmocka_unit_test(tiny_bodies_stay_uncompressed),
    };
    return cmocka_run_group_tests_name("wire/response", tests, NULL, NULL);
}
