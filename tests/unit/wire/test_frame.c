/* Unit tests for wire/frame.c: header decode/encode and the version reply. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"

static const uint8_t query_header[WIRE_HEADER_SIZE] = {0x04, 0x02, 0x00, 0x2A, 0x07,
                                                       0x00, 0x00, 0x01, 0x00};


/* Field by field: the struct has padding. */
static void assert_header_equal(const wire_header_t *a, const wire_header_t *b)
{
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->response, b->response);
    assert_int_equal(a->flags, b->flags);
    assert_int_equal(a->stream, b->stream);
    assert_int_equal(a->opcode, b->opcode);
    assert_int_equal(a->length, b->length);
}


static void decode_reads_every_field(void **state)
{
    (void)state;
    wire_header_t h;
    base_error_t err;
    assert_int_equal(wire_header_decode(&h, query_header, sizeof(query_header), 1024, &err),
                     BASE_OK);
    assert_int_equal(h.version, 4);
    assert_false(h.response);
    assert_int_equal(h.flags, WIRE_FLAG_TRACING);
    assert_int_equal(h.stream, 42);
    assert_int_equal(h.opcode, WIRE_OP_QUERY);
    assert_int_equal(h.length, 256);
}


static void decode_keeps_direction_and_negative_streams(void **state)
{
    (void)state;
    const uint8_t event[] = {0x84, 0x00, 0xFF, 0xFF, 0x0C, 0, 0, 0, 0};
    wire_header_t h;
    assert_int_equal(wire_header_decode(&h, event, sizeof(event), 0, NULL), BASE_OK);
    assert_true(h.response);
    assert_int_equal(h.version, 4);
    assert_int_equal(h.stream, -1);
    assert_int_equal(h.opcode, WIRE_OP_EVENT);
    /* The version is returned as sent, for the caller to judge (DSE 0x42). */
    const uint8_t dse[] = {0x42, 0, 0, 0, 0x05, 0, 0, 0, 0};
    assert_int_equal(wire_header_decode(&h, dse, sizeof(dse), 0, NULL), BASE_OK);
    assert_int_equal(h.version, 0x42);
}


static void decode_fed_one_byte_at_a_time_waits_for_nine(void **state)
{
    (void)state;
    for (size_t n = 0; n < WIRE_HEADER_SIZE; n++) {
        uint8_t *p = exact_copy(query_header, n);
        wire_header_t h;
        base_error_t err;
        assert_int_equal(wire_header_decode(&h, p, n, 1024, &err), BASE_AGAIN);
        base_free(p);
    }
    wire_header_t whole, h;
    assert_int_equal(wire_header_decode(&whole, query_header, 9, 1024, NULL), BASE_OK);
    uint8_t *p = exact_copy(query_header, 9);
    assert_int_equal(wire_header_decode(&h, p, 9, 1024, NULL), BASE_OK);
    assert_header_equal(&h, &whole);
    base_free(p);
}


static void decode_rejects_bodies_over_the_maximum(void **state)
{
    (void)state;
    wire_header_t h;
    base_error_t err;
    assert_int_equal(wire_header_decode(&h, query_header, 9, 256, &err), BASE_OK);
    assert_int_equal(wire_header_decode(&h, query_header, 9, 255, &err), BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_string_equal(err.msg,
                        "Request is too big: length 256 exceeds maximum allowed length 255");

    const uint8_t huge[] = {0x04, 0, 0, 1, 0x07, 0xFF, 0xFF, 0xFF, 0xFF};
    assert_int_equal(wire_header_decode(&h, huge, 9, WIRE_DEFAULT_MAX_FRAME, &err), BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
}


static void encode_round_trips(void **state)
{
    (void)state;
    wire_header_t h = {.version = 3,
                       .response = true,
                       .flags = WIRE_FLAG_WARNING | WIRE_FLAG_CUSTOM_PAYLOAD,
                       .stream = -2,
                       .opcode = WIRE_OP_RESULT,
                       .length = 0x01020304};
    uint8_t out[WIRE_HEADER_SIZE];
    wire_header_encode(out, &h);
    const uint8_t want[] = {0x83, 0x0C, 0xFF, 0xFE, 0x08, 0x01, 0x02, 0x03, 0x04};
    assert_bytes(out, sizeof(out), want, sizeof(want));
    wire_header_t back;
    assert_int_equal(wire_header_decode(&back, out, sizeof(out), UINT32_MAX, NULL), BASE_OK);
    assert_header_equal(&back, &h);
}


static void unsupported_version_message_is_what_drivers_match(void **state)
{
    (void)state;
    char msg[128];
    wire_unsupported_version_message(msg, sizeof(msg), 66);
    assert_string_equal(msg, "Invalid or unsupported protocol version (66); supported versions are "
                             "(3/v3, 4/v4)");
    char small[8];
    wire_unsupported_version_message(small, sizeof(small), 5);
    assert_string_equal(small, "Invalid");
}


static void names_cover_opcodes_errors_and_levels(void **state)
{
    (void)state;
    assert_string_equal(wire_opcode_name(WIRE_OP_AUTH_SUCCESS), "AUTH_SUCCESS");
    assert_string_equal(wire_opcode_name(0x04), "UNKNOWN");
    assert_string_equal(wire_error_name(WIRE_ERR_UNPREPARED), "UNPREPARED");
    assert_string_equal(wire_consistency_name(WIRE_CL_LOCAL_ONE), "LOCAL_ONE");
    assert_null(wire_consistency_name(0x000B));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_reads_every_field),
        cmocka_unit_test(decode_keeps_direction_and_negative_streams),
        cmocka_unit_test(decode_fed_one_byte_at_a_time_waits_for_nine),
        cmocka_unit_test(decode_rejects_bodies_over_the_maximum),
        cmocka_unit_test(encode_round_trips),
        cmocka_unit_test(unsupported_version_message_is_what_drivers_match),
        cmocka_unit_test(names_cover_opcodes_errors_and_levels),
    };
    return cmocka_run_group_tests_name("wire/frame", tests, NULL, NULL);
}
