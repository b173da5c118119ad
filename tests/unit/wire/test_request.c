/* Unit tests for wire/request.c: every request decoded from hand-built
 * bytes (v3 and v4), then truncated, padded, mutated and randomised. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wire_test.h"

/* ---- hand-built bodies (base_buf puts only, never the wire encoders) ---- */

static void b_string(base_buf_t *b, const char *s)
{
    base_buf_put_u16(b, (uint16_t)strlen(s));
    base_buf_put(b, s, strlen(s));
}


static void b_long_string(base_buf_t *b, const char *s)
{
    base_buf_put_u32(b, (uint32_t)strlen(s));
    base_buf_put(b, s, strlen(s));
}


static void b_value(base_buf_t *b, const char *s)
{
    b_long_string(b, s); /* same layout as a non-null [value] */
}


static void b_int(base_buf_t *b, int32_t v)
{
    base_buf_put_u32(b, (uint32_t)v);
}


static void b_short_bytes(base_buf_t *b, const uint8_t *p, uint16_t n)
{
    base_buf_put_u16(b, n);
    base_buf_put(b, p, n);
}


static const uint8_t prepared_id[16] = {0xDE, 0xAD, 0xBE, 0xEF, 1, 2,  3,  4,
                                        5,    6,    7,    8,    9, 10, 11, 12};


static void build_startup(base_buf_t *b)
{
    base_buf_put_u16(b, 2);
    b_string(b, "CQL_VERSION");
    b_string(b, "3.0.0");
    b_string(b, "DRIVER_NAME");
    b_string(b, "DataStax Python Driver");
}


static void build_query_all_flags(base_buf_t *b)
{
    b_long_string(b, "INSERT INTO ks.t (k, v) VALUES (:k, :v)");
    base_buf_put_u16(b, WIRE_CL_LOCAL_QUORUM);
    base_buf_put_u8(b, 0x7F);
    base_buf_put_u16(b, 3);
    b_string(b, "k");
    b_value(b, "key");
    b_string(b, "v");
    b_int(b, WIRE_VALUE_NULL);
    b_string(b, "w");
    b_int(b, WIRE_VALUE_UNSET);
    b_int(b, 5000);         /* page size */
    b_long_string(b, "PS"); /* paging state [bytes] */
    base_buf_put_u16(b, WIRE_CL_LOCAL_SERIAL);
    base_buf_put_u64(b, 1700000000000000ULL);
}


static void build_execute(base_buf_t *b)
{
    b_short_bytes(b, prepared_id, 16);
    base_buf_put_u16(b, WIRE_CL_ONE);
    base_buf_put_u8(b, WIRE_QF_VALUES | WIRE_QF_SKIP_METADATA | WIRE_QF_PAGE_SIZE);
    base_buf_put_u16(b, 2);
    b_value(b, "a");
    b_int(b, 0);
    b_int(b, 100);
}


static void build_batch(base_buf_t *b)
{
    base_buf_put_u8(b, WIRE_BATCH_UNLOGGED);
    base_buf_put_u16(b, 2);
    base_buf_put_u8(b, 0);
    b_long_string(b, "INSERT INTO t (k) VALUES (?)");
    base_buf_put_u16(b, 1);
    b_value(b, "k1");
    base_buf_put_u8(b, 1);
    b_short_bytes(b, prepared_id, 16);
    base_buf_put_u16(b, 0);
    base_buf_put_u16(b, WIRE_CL_QUORUM);
    base_buf_put_u8(b, WIRE_QF_SERIAL_CONSISTENCY | WIRE_QF_DEFAULT_TIMESTAMP);
    base_buf_put_u16(b, WIRE_CL_SERIAL);
    base_buf_put_u64(b, 42);
}


static void build_register(base_buf_t *b)
{
    base_buf_put_u16(b, 3);
    b_string(b, "TOPOLOGY_CHANGE");
    b_string(b, "STATUS_CHANGE");
    b_string(b, "SCHEMA_CHANGE");
}


static void build_payload(base_buf_t *b)
{
    base_buf_put_u16(b, 2);
    b_string(b, "k1");
    b_value(b, "v1");
    b_string(b, "k2");
    b_int(b, -1);
}


/* ---- decoding helpers ---------------------------------------------------- */

static int decode(wire_request_t *out, uint8_t version, uint8_t flags, uint8_t opcode,
                  const uint8_t *body, size_t len, base_arena_t *a, base_error_t *err)
{
    wire_header_t h = {
        .version = version, .flags = flags, .opcode = opcode, .length = (uint32_t)len};
    return wire_request_decode(out, &h, body, len, a, err);
}


/* Each strict prefix of a valid body fails with a Protocol error, and so
 * does the body with one byte more; the whole body decodes. */
static void assert_only_the_whole_body_decodes(uint8_t version, uint8_t flags, uint8_t opcode,
                                               const base_buf_t *body, base_arena_t *a)
{
    wire_request_t req;
    base_error_t err;
    for (size_t n = 0; n < body->len; n++) {
        uint8_t *p = exact_copy(body->data, n);
        assert_int_equal(decode(&req, version, flags, opcode, p, n, a, &err), BASE_ERROR);
        assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
        assert_true(strncmp(err.msg, "Invalid ", 8) == 0);
        base_free(p);
    }
    uint8_t *p = base_malloc(body->len + 1);
    memcpy(p, body->data, body->len);
    p[body->len] = 0;
    assert_int_equal(decode(&req, version, flags, opcode, p, body->len, a, &err), BASE_OK);
    assert_int_equal(decode(&req, version, flags, opcode, p, body->len + 1, a, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "1 trailing bytes"));
    base_free(p);
    base_arena_reset(a);
}

/* ---- tests --------------------------------------------------------------- */

static void startup_decodes_its_string_map(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_startup(&b);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_STARTUP, b.data, b.len, a, &err), BASE_OK);
    assert_int_equal(req.opcode, WIRE_OP_STARTUP);
    assert_int_equal(req.u.startup.n, 2);
    assert_true(base_str_eq(req.u.startup.keys[0], BASE_STR("CQL_VERSION")));
    assert_true(base_str_eq(req.u.startup.values[0], BASE_STR("3.0.0")));
    assert_true(base_str_eq(req.u.startup.values[1], BASE_STR("DataStax Python Driver")));
    assert_int_equal(req.n_payload, 0);
    base_buf_fini(&b);
}


static void options_takes_an_empty_body_only(void **state)
{
    base_arena_t *a = *state;
    wire_request_t req;
    base_error_t err;
    const uint8_t junk[] = {0};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_OPTIONS, NULL, 0, a, &err), BASE_OK);
    assert_int_equal(decode(&req, 3, 0, WIRE_OP_OPTIONS, junk, 1, a, &err), BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_string_equal(err.msg, "Invalid OPTIONS body: 1 trailing bytes at offset 0");
}


static void auth_response_decodes_its_token(void **state)
{
    base_arena_t *a = *state;
    const uint8_t sasl[] = {0, 0, 0, 5, 0, 'u', 0, 'p', 'w'};
    const uint8_t null[] = {0xFF, 0xFF, 0xFF, 0xFF};
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_AUTH_RESPONSE, sasl, sizeof(sasl), a, &err),
                     BASE_OK);
    assert_int_equal(req.u.auth_token.len, 5);
    assert_ptr_equal(req.u.auth_token.ptr, sasl + 4);
    assert_int_equal(decode(&req, 3, 0, WIRE_OP_AUTH_RESPONSE, null, sizeof(null), a, &err),
                     BASE_OK);
    assert_int_equal(req.u.auth_token.len, WIRE_VALUE_NULL);
}


static void query_v4_decodes_every_parameter(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_query_all_flags(&b);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_OK);
    const wire_query_params_t *p = &req.u.query.params;
    assert_true(
        base_str_eq(req.u.query.query, BASE_STR("INSERT INTO ks.t (k, v) VALUES (:k, :v)")));
    assert_int_equal(p->consistency, WIRE_CL_LOCAL_QUORUM);
    assert_int_equal(p->flags, 0x7F);
    assert_int_equal(p->n_values, 3);
    assert_non_null(p->names);
    assert_true(base_str_eq(p->names[0], BASE_STR("k")));
    assert_true(base_str_eq(p->names[2], BASE_STR("w")));
    assert_int_equal(p->values[0].len, 3);
    assert_memory_equal(p->values[0].ptr, "key", 3);
    assert_int_equal(p->values[1].len, WIRE_VALUE_NULL);
    assert_int_equal(p->values[2].len, WIRE_VALUE_UNSET);
    assert_int_equal(p->page_size, 5000);
    assert_int_equal(p->paging_state.len, 2);
    assert_memory_equal(p->paging_state.ptr, "PS", 2);
    assert_int_equal(p->serial_consistency, WIRE_CL_LOCAL_SERIAL);
    assert_true(p->has_timestamp);
    assert_true(p->timestamp == 1700000000000000LL);
    base_buf_fini(&b);
}


static void query_without_flags_gets_defaults(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    b_long_string(&b, "SELECT * FROM system.local");
    base_buf_put_u16(&b, WIRE_CL_ONE);
    base_buf_put_u8(&b, 0);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 3, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_OK);
    const wire_query_params_t *p = &req.u.query.params;
    assert_int_equal(p->n_values, 0);
    assert_null(p->values);
    assert_null(p->names);
    assert_true(p->page_size <= 0);
    assert_true(p->paging_state.len < 0);
    assert_int_equal(p->serial_consistency, WIRE_CL_SERIAL);
    assert_false(p->has_timestamp);
    base_buf_fini(&b);
}


static void query_names_flag_without_values_is_ignored(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    b_long_string(&b, "SELECT 1");
    base_buf_put_u16(&b, WIRE_CL_ONE);
    base_buf_put_u8(&b, WIRE_QF_NAMES_FOR_VALUES | WIRE_QF_PAGE_SIZE);
    b_int(&b, 10);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_OK);
    assert_null(req.u.query.params.names);
    assert_int_equal(req.u.query.params.flags, WIRE_QF_PAGE_SIZE);
    assert_int_equal(req.u.query.params.page_size, 10);
    base_buf_fini(&b);
}


static void build_query_with_value(base_buf_t *b, int32_t value_len)
{
    b_long_string(b, "UPDATE t SET v = ? WHERE k = 1");
    base_buf_put_u16(b, WIRE_CL_ONE);
    base_buf_put_u8(b, WIRE_QF_VALUES);
    base_buf_put_u16(b, 1);
    b_int(b, value_len);
}


static void unset_values_exist_only_in_v4(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_query_with_value(&b, WIRE_VALUE_UNSET);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_OK);
    assert_int_equal(req.u.query.params.values[0].len, WIRE_VALUE_UNSET);
    assert_int_equal(decode(&req, 3, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_string_equal(err.msg, "Invalid QUERY body: unset value (-2) is not allowed in protocol "
                                 "v3 at offset 39");
    base_buf_fini(&b);
}


static void value_lengths_below_minus_two_are_rejected(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_query_with_value(&b, -3);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_ERROR);
    assert_string_equal(err.msg,
                        "Invalid QUERY body: invalid [value] length (below -2) at offset 39");
    base_buf_fini(&b);
}


static void truncation_errors_name_the_element_and_offset(void **state)
{
    base_arena_t *a = *state;
    wire_request_t req;
    base_error_t err;
    const uint8_t cut_query[] = {0, 0, 0, 100, 'S', 'E', 'L'};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, cut_query, sizeof(cut_query), a, &err),
                     BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_string_equal(err.msg, "Invalid QUERY body: truncated [long string] at offset 0");

    const uint8_t cut_map[] = {0, 1, 0, 1, 'k', 0, 9, 'v'};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_STARTUP, cut_map, sizeof(cut_map), a, &err),
                     BASE_ERROR);
    assert_string_equal(err.msg, "Invalid STARTUP body: truncated [string] at offset 5");
}


static void hostile_counts_fail_before_allocating(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    b_long_string(&b, "q");
    base_buf_put_u16(&b, WIRE_CL_ONE);
    base_buf_put_u8(&b, WIRE_QF_VALUES);
    base_buf_put_u16(&b, 0xFFFF);
    b_int(&b, 1);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_ERROR);
    assert_string_equal(err.msg,
                        "Invalid QUERY body: value count exceeds the remaining bytes at offset 8");

    const uint8_t batch[] = {0, 0xFF, 0xFF, 0, 0, 0, 0};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_BATCH, batch, sizeof(batch), a, &err), BASE_ERROR);
    assert_string_equal(err.msg,
                        "Invalid BATCH body: statement count exceeds the remaining bytes at "
                        "offset 1");

    const uint8_t reg[] = {0x80, 0x00, 0, 0};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_REGISTER, reg, sizeof(reg), a, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Invalid REGISTER body: [string list] count exceeds the "
                                 "remaining bytes at offset 0");
    base_buf_fini(&b);
}


static void consistency_levels_and_timestamps_are_checked(void **state)
{
    base_arena_t *a = *state;
    wire_request_t req;
    base_error_t err;
    base_buf_t b;
    base_buf_init(&b);
    b_long_string(&b, "q");
    base_buf_put_u16(&b, 0x000B);
    base_buf_put_u8(&b, 0);
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Invalid QUERY body: unknown consistency level at offset 5");

    base_buf_reset(&b);
    b_long_string(&b, "q");
    base_buf_put_u16(&b, WIRE_CL_ONE);
    base_buf_put_u8(&b, WIRE_QF_SERIAL_CONSISTENCY);
    base_buf_put_u16(&b, 0x1234);
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Invalid QUERY body: unknown consistency level at offset 8");

    base_buf_reset(&b);
    b_long_string(&b, "q");
    base_buf_put_u16(&b, WIRE_CL_ONE);
    base_buf_put_u8(&b, WIRE_QF_DEFAULT_TIMESTAMP);
    base_buf_put_u64(&b, 0x8000000000000000ULL);
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "out of bound timestamp"));
    base_buf_set_u32(&b, b.len - 4, 1); /* INT64_MIN + 1 is allowed */
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_QUERY, b.data, b.len, a, &err), BASE_OK);
    base_buf_fini(&b);
}


static void prepare_decodes_its_query(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    b_long_string(&b, "SELECT * FROM t WHERE k = ?");
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_PREPARE, b.data, b.len, a, &err), BASE_OK);
    assert_true(base_str_eq(req.u.prepare, BASE_STR("SELECT * FROM t WHERE k = ?")));
    base_buf_fini(&b);
}


static void execute_decodes_id_and_parameters(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_execute(&b);
    wire_request_t req;
    base_error_t err;
    for (uint8_t v = 3; v <= 4; v++) {
        assert_int_equal(decode(&req, v, 0, WIRE_OP_EXECUTE, b.data, b.len, a, &err), BASE_OK);
        const wire_execute_t *e = &req.u.execute;
        assert_int_equal(e->id.len, 16);
        assert_memory_equal(e->id.ptr, prepared_id, 16);
        assert_int_equal(e->params.consistency, WIRE_CL_ONE);
        assert_true(e->params.flags & WIRE_QF_SKIP_METADATA);
        assert_int_equal(e->params.n_values, 2);
        assert_null(e->params.names);
        assert_int_equal(e->params.values[1].len, 0);
        assert_int_equal(e->params.page_size, 100);
    }
    base_buf_fini(&b);
}


static void batch_decodes_mixed_statements(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_batch(&b);
    wire_request_t req;
    base_error_t err;
    for (uint8_t v = 3; v <= 4; v++) {
        assert_int_equal(decode(&req, v, 0, WIRE_OP_BATCH, b.data, b.len, a, &err), BASE_OK);
        const wire_batch_t *bt = &req.u.batch;
        assert_int_equal(bt->type, WIRE_BATCH_UNLOGGED);
        assert_int_equal(bt->n_stmts, 2);
        assert_false(bt->stmts[0].prepared);
        assert_true(base_str_eq(bt->stmts[0].query, BASE_STR("INSERT INTO t (k) VALUES (?)")));
        assert_int_equal(bt->stmts[0].n_values, 1);
        assert_memory_equal(bt->stmts[0].values[0].ptr, "k1", 2);
        assert_true(bt->stmts[1].prepared);
        assert_memory_equal(bt->stmts[1].id.ptr, prepared_id, 16);
        assert_int_equal(bt->stmts[1].n_values, 0);
        assert_int_equal(bt->params.consistency, WIRE_CL_QUORUM);
        assert_int_equal(bt->params.serial_consistency, WIRE_CL_SERIAL);
        assert_true(bt->params.has_timestamp);
        assert_true(bt->params.timestamp == 42);
        assert_int_equal(bt->params.n_values, 0);
        assert_true(bt->params.paging_state.len < 0);
    }
    base_buf_fini(&b);
}


static void batch_rejects_bad_type_kind_and_flags(void **state)
{
    base_arena_t *a = *state;
    wire_request_t req;
    base_error_t err;
    const uint8_t bad_type[] = {3, 0, 0, 0, 1, 0};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_BATCH, bad_type, sizeof(bad_type), a, &err),
                     BASE_ERROR);
    assert_string_equal(err.msg, "Invalid BATCH body: batch type must be 0, 1 or 2 at offset 0");

    const uint8_t bad_kind[] = {0, 0, 1, 2, 0, 0, 0, 0, 0, 1, 0};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_BATCH, bad_kind, sizeof(bad_kind), a, &err),
                     BASE_ERROR);
    assert_string_equal(err.msg, "Invalid BATCH body: statement kind must be 0 or 1 at offset 3");

    const uint8_t values_flag[] = {0, 0, 0, 0, 1, WIRE_QF_VALUES};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_BATCH, values_flag, sizeof(values_flag), a, &err),
                     BASE_ERROR);
    assert_non_null(strstr(err.msg, "not valid in BATCH at offset 5"));

    const uint8_t names_flag[] = {0, 0, 0, 0, 1, WIRE_QF_NAMES_FOR_VALUES};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_BATCH, names_flag, sizeof(names_flag), a, &err),
                     BASE_ERROR);
    assert_non_null(strstr(err.msg, "names for values"));

    const uint8_t empty_ok[] = {2, 0, 0, 0, 1, 0};
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_BATCH, empty_ok, sizeof(empty_ok), a, &err),
                     BASE_OK);
    assert_int_equal(req.u.batch.type, WIRE_BATCH_COUNTER);
    assert_int_equal(req.u.batch.n_stmts, 0);
}


static void register_decodes_event_types(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_register(&b);
    wire_request_t req;
    base_error_t err;
    assert_int_equal(decode(&req, 4, 0, WIRE_OP_REGISTER, b.data, b.len, a, &err), BASE_OK);
    assert_int_equal(req.u.reg.n, 3);
    assert_true(base_str_eq(req.u.reg.events[2], BASE_STR("SCHEMA_CHANGE")));
    base_buf_fini(&b);
}


static void custom_payload_precedes_the_message_in_v4(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    build_payload(&b);
    b_long_string(&b, "SELECT 1");
    wire_request_t req;
    base_error_t err;
    assert_int_equal(
        decode(&req, 4, WIRE_FLAG_CUSTOM_PAYLOAD, WIRE_OP_PREPARE, b.data, b.len, a, &err),
        BASE_OK);
    assert_int_equal(req.n_payload, 2);
    assert_true(base_str_eq(req.payload_keys[0], BASE_STR("k1")));
    assert_memory_equal(req.payload_values[0].ptr, "v1", 2);
    assert_int_equal(req.payload_values[1].len, WIRE_VALUE_NULL);
    assert_true(base_str_eq(req.u.prepare, BASE_STR("SELECT 1")));

    assert_int_equal(
        decode(&req, 3, WIRE_FLAG_CUSTOM_PAYLOAD, WIRE_OP_PREPARE, b.data, b.len, a, &err),
        BASE_ERROR);
    assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    assert_non_null(strstr(err.msg, "CUSTOM_PAYLOAD"));
    base_buf_fini(&b);
}


static void tracing_and_other_flags_add_no_request_prefix(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    b_long_string(&b, "SELECT 1");
    wire_request_t req;
    base_error_t err;
    uint8_t flags = WIRE_FLAG_TRACING | WIRE_FLAG_WARNING | WIRE_FLAG_BETA | WIRE_FLAG_COMPRESSION;
    assert_int_equal(decode(&req, 4, flags, WIRE_OP_PREPARE, b.data, b.len, a, &err), BASE_OK);
    base_buf_fini(&b);
}


static void responses_and_unknown_opcodes_are_refused(void **state)
{
    base_arena_t *a = *state;
    const uint8_t refused[] = {WIRE_OP_ERROR,
                               WIRE_OP_READY,
                               WIRE_OP_AUTHENTICATE,
                               0x04,
                               WIRE_OP_SUPPORTED,
                               WIRE_OP_RESULT,
                               WIRE_OP_EVENT,
                               WIRE_OP_AUTH_CHALLENGE,
                               WIRE_OP_AUTH_SUCCESS,
                               0x11,
                               0xFF};
    wire_request_t req;
    base_error_t err;
    for (size_t i = 0; i < sizeof(refused); i++) {
        assert_int_equal(decode(&req, 4, 0, refused[i], NULL, 0, a, &err), BASE_ERROR);
        assert_int_equal(err.code, WIRE_ERR_PROTOCOL_ERROR);
    }
    assert_string_equal(err.msg, "Invalid opcode 0xFF (UNKNOWN): not a request a client may send");

    wire_header_t h = {.version = 4, .response = true, .opcode = WIRE_OP_OPTIONS};
    assert_int_equal(wire_request_decode(&req, &h, NULL, 0, a, &err), BASE_ERROR);
    assert_non_null(strstr(err.msg, "Wrong protocol direction"));
    h.response = false;
    h.version = 5;
    assert_int_equal(wire_request_decode(&req, &h, NULL, 0, a, &err), BASE_ERROR);
    assert_string_equal(err.msg, "Invalid or unsupported protocol version (5)");
}


static void every_truncation_of_every_request_fails_cleanly(void **state)
{
    base_arena_t *a = *state;
    base_buf_t b;
    base_buf_init(&b);
    void (*builders[])(base_buf_t *) = {build_startup, build_query_all_flags, build_execute,
                                        build_batch, build_register};
    const uint8_t opcodes[] = {WIRE_OP_STARTUP, WIRE_OP_QUERY, WIRE_OP_EXECUTE, WIRE_OP_BATCH,
                               WIRE_OP_REGISTER};
    for (size_t i = 0; i < sizeof(opcodes); i++) {
        base_buf_reset(&b);
        builders[i](&b);
        assert_only_the_whole_body_decodes(4, 0, opcodes[i], &b, a);
        if (opcodes[i] != WIRE_OP_QUERY) { /* that one carries an unset value */
            assert_only_the_whole_body_decodes(3, 0, opcodes[i], &b, a);
        }
    }

    base_buf_reset(&b);
    b_int(&b, 3);
    base_buf_put(&b, "tok", 3);
    assert_only_the_whole_body_decodes(3, 0, WIRE_OP_AUTH_RESPONSE, &b, a);

    base_buf_reset(&b);
    b_long_string(&b, "SELECT * FROM t");
    assert_only_the_whole_body_decodes(4, 0, WIRE_OP_PREPARE, &b, a);

    base_buf_reset(&b);
    build_payload(&b);
    build_batch(&b);
    assert_only_the_whole_body_decodes(4, WIRE_FLAG_CUSTOM_PAYLOAD, WIRE_OP_BATCH, &b, a);
    base_buf_fini(&b);
}


/* Random bodies and single-byte mutations of valid ones: no crash, no leak,
 * and every failure is a Protocol error. */
static void hostile_bodies_never_crash_the_decoder(void **state)
{
    base_arena_t *a = *state;
    const uint8_t opcodes[] = {WIRE_OP_STARTUP, WIRE_OP_AUTH_RESPONSE, WIRE_OP_OPTIONS,
                               WIRE_OP_QUERY,   WIRE_OP_PREPARE,       WIRE_OP_EXECUTE,
                               WIRE_OP_BATCH,   WIRE_OP_REGISTER};
    uint32_t seed = 0xC0FFEE;
    uint8_t buf[96];
    for (int iter = 0; iter < 40000; iter++) {
        size_t n = test_rand(&seed) % sizeof(buf);
        for (size_t i = 0; i < n; i++) {
            uint32_t x = test_rand(&seed);
            buf[i] = (uint8_t)((x & 3) ? (x >> 8) % 4 : (x >> 8)); /* mostly tiny numbers */
        }
        uint8_t *p = exact_copy(buf, n);
        wire_request_t req;
        base_error_t err;
        uint8_t op = opcodes[test_rand(&seed) % sizeof(opcodes)];
        uint8_t flags = (test_rand(&seed) & 1) ? WIRE_FLAG_CUSTOM_PAYLOAD : 0;
        uint8_t version = (uint8_t)(3 + (test_rand(&seed) & 1));
        int rc = decode(&req, version, flags, op, p, n, a, &err);
        assert_true(rc == BASE_OK || (rc == BASE_ERROR && err.code == WIRE_ERR_PROTOCOL_ERROR));
        base_free(p);
        if (iter % 256 == 0) {
            base_arena_reset(a);
        }
    }

    base_buf_t b;
    base_buf_init(&b);
    void (*builders[])(base_buf_t *) = {build_query_all_flags, build_execute, build_batch};
    const uint8_t ops[] = {WIRE_OP_QUERY, WIRE_OP_EXECUTE, WIRE_OP_BATCH};
    for (size_t k = 0; k < 3; k++) {
        base_buf_reset(&b);
        builders[k](&b);
        for (size_t i = 0; i < b.len; i++) {
            for (int bit = 0; bit < 8; bit++) {
                uint8_t *p = exact_copy(b.data, b.len);
                p[i] ^= (uint8_t)(1u << bit);
                wire_request_t req;
                base_error_t err;
                int rc = decode(&req, 4, 0, ops[k], p, b.len, a, &err);
                assert_true(rc == BASE_OK || err.code == WIRE_ERR_PROTOCOL_ERROR);
                base_free(p);
            }
        }
        base_arena_reset(a);
    }
    base_buf_fini(&b);
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, arena_setup, arena_teardown)
    const struct CMUnitTest tests[] = {
        T(startup_decodes_its_string_map),
        T(options_takes_an_empty_body_only),
        T(auth_response_decodes_its_token),
        T(query_v4_decodes_every_parameter),
        T(query_without_flags_gets_defaults),
        T(query_names_flag_without_values_is_ignored),
        T(unset_values_exist_only_in_v4),
        T(value_lengths_below_minus_two_are_rejected),
        T(truncation_errors_name_the_element_and_offset),
        T(hostile_counts_fail_before_allocating),
        T(consistency_levels_and_timestamps_are_checked),
        T(prepare_decodes_its_query),
        T(execute_decodes_id_and_parameters),
        T(batch_decodes_mixed_statements),
        T(batch_rejects_bad_type_kind_and_flags),
        T(register_decodes_event_types),
        T(custom_payload_precedes_the_message_in_v4),
        T(tracing_and_other_flags_add_no_request_prefix),
        T(responses_and_unknown_opcodes_are_refused),
        T(every_truncation_of_every_request_fails_cleanly),
        T(hostile_bodies_never_crash_the_decoder),
    };
#undef T
    return cmocka_run_group_tests_name("wire/request", tests, NULL, NULL);
}
