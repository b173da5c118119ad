/*
 * reply.c - decodes the body of every response a server may send (spec
 * 4.2) into a wire_reply_t: the client side of response.c and result.c,
 * for tools that talk to a server (bench/cosmos-bench) and for tests (wire
 * layer).
 *
 * Invariants:
 *  - Pure, as request.c: slices borrow from the body, arrays come from the
 *    arena, and a server's bytes are as untrusted as a client's: every count
 *    is checked against the remaining bytes before an array is allocated.
 *  - A malformed, truncated or over-long body is a Protocol error naming
 *    the message, the problem and the offset. EVENT is the exception to the
 *    trailing-bytes rule: only its type is decoded.
 */
#include "wire/decoder.h"

#define MIN_COL_SPEC_SIZE 4 /* [string] name + [option] id, global table spec */
#define MIN_CELL_SIZE     4 /* [bytes] length */


typedef wire__decoder_t decoder_t;


/* An [int] count that must be >= 0 and leave min_size bytes per element. */
static size_t read_int_count(decoder_t *d, size_t min_size, const char *problem)
{
    size_t at = d->r.pos;
    int32_t n = wire_read_int(&d->r);
    if (!wire__decoder_ok(d)) {
        return 0;
    }
    if (n < 0 || (min_size > 0 && (size_t)n > wire_reader_remaining(&d->r) / min_size)) {
        wire__reject(d, at, problem);
        return 0;
    }
    return (size_t)n;
}


static void read_col_specs(decoder_t *d, wire_rows_meta_t *m)
{
    bool global = (m->flags & WIRE_ROWS_GLOBAL_TABLES_SPEC) != 0;
    base_str_t ks = {NULL, 0};
    base_str_t table = {NULL, 0};
    if (global) {
        ks = wire_read_string(&d->r);
        table = wire_read_string(&d->r);
    }
    size_t min_size = MIN_COL_SPEC_SIZE + (global ? 0 : 4);
    if (!wire__decoder_ok(d)) {
        return;
    }
    if (m->n_cols > wire_reader_remaining(&d->r) / min_size) {
        wire__reject(d, d->r.pos, "column count exceeds the remaining bytes");
        return;
    }
    m->cols = base_arena_calloc(d->a, m->n_cols, sizeof(*m->cols));
    for (size_t i = 0; i < m->n_cols && wire__decoder_ok(d); i++) {
        wire_col_meta_t *c = &m->cols[i];
        if (global) {
            c->keyspace = ks;
            c->table = table;
        } else {
            c->keyspace = wire_read_string(&d->r);
            c->table = wire_read_string(&d->r);
        }
        c->name = wire_read_string(&d->r);
        c->type = wire_read_type(&d->r, d->a);
    }
}


/* <metadata> (spec 4.2.5.2); bind metadata of a Prepared result when bind. */
static void read_metadata(decoder_t *d, wire_rows_meta_t *m, bool bind)
{
    m->paging_state.ptr = NULL;
    m->paging_state.len = WIRE_VALUE_NULL;
    m->flags = (uint32_t)wire_read_int(&d->r);
    m->n_cols = read_int_count(d, 0, "negative column count");
    if (!wire__decoder_ok(d)) {
        return;
    }
    if (bind && d->version >= 4) {
        size_t at = d->r.pos;
        m->n_pk = read_int_count(d, 2, "partition-key count exceeds the remaining bytes");
        if (wire__decoder_ok(d) && m->n_pk > m->n_cols) {
            wire__reject(d, at, "more partition-key indexes than bind variables");
            return;
        }
        m->pk_indexes = base_arena_alloc(d->a, m->n_pk * sizeof(*m->pk_indexes) + 1);
        for (size_t i = 0; i < m->n_pk && wire__decoder_ok(d); i++) {
            m->pk_indexes[i] = wire_read_short(&d->r);
        }
    }
    if (!bind && (m->flags & WIRE_ROWS_HAS_MORE_PAGES)) {
        m->paging_state = wire_read_bytes(&d->r);
    }
    if (wire__decoder_ok(d) && !(m->flags & WIRE_ROWS_NO_METADATA)) {
        read_col_specs(d, m);
    }
}


static void read_rows(decoder_t *d, wire_reply_t *out)
{
    read_metadata(d, &out->u.result.meta, false);
    size_t at = d->r.pos;
    size_t n_rows = read_int_count(d, 0, "negative row count");
    if (!wire__decoder_ok(d)) {
        return;
    }
    size_t n_cols = out->u.result.meta.n_cols;
    size_t room = wire_reader_remaining(&d->r) / MIN_CELL_SIZE;
    if (n_cols > 0 && n_rows > room / n_cols) {
        wire__reject(d, at, "row count exceeds the remaining bytes");
        return;
    }
    size_t n_cells = n_rows * n_cols;
    wire_value_t *cells = base_arena_alloc(d->a, n_cells * sizeof(*cells) + 1);
    for (size_t i = 0; i < n_cells && wire__decoder_ok(d); i++) {
        cells[i] = wire_read_bytes(&d->r);
    }
    out->u.result.n_rows = n_rows;
    out->u.result.cells = cells;
}


static void read_schema_change(decoder_t *d, wire_reply_t *out)
{
    out->u.result.change = wire_read_string(&d->r);
    out->u.result.target = wire_read_string(&d->r);
    out->u.result.keyspace = wire_read_string(&d->r);
    if (!wire__decoder_ok(d)) {
        return;
    }
    base_str_t target = out->u.result.target;
    if (base_str_eq(target, BASE_STR("KEYSPACE"))) {
        return;
    }
    out->u.result.name = wire_read_string(&d->r);
    if (base_str_eq(target, BASE_STR("FUNCTION")) || base_str_eq(target, BASE_STR("AGGREGATE"))) {
        base_str_t *args;
        (void)wire_read_string_list(&d->r, d->a, &args);
    }
}


static void read_result(decoder_t *d, wire_reply_t *out)
{
    size_t at = d->r.pos;
    out->u.result.kind = wire_read_int(&d->r);
    if (!wire__decoder_ok(d)) {
        return;
    }
    switch (out->u.result.kind) {
    case WIRE_RESULT_VOID:
        break;
    case WIRE_RESULT_ROWS:
        read_rows(d, out);
        break;
    case WIRE_RESULT_SET_KEYSPACE:
        out->u.result.keyspace = wire_read_string(&d->r);
        break;
    case WIRE_RESULT_PREPARED:
        out->u.result.id = wire_read_short_bytes(&d->r);
        read_metadata(d, &out->u.result.binds, true);
        if (wire__decoder_ok(d)) {
            read_metadata(d, &out->u.result.meta, false);
        }
        break;
    case WIRE_RESULT_SCHEMA_CHANGE:
        read_schema_change(d, out);
        break;
    default:
        wire__reject(d, at, "unknown RESULT kind");
        break;
    }
}


static void read_supported(decoder_t *d, wire_reply_t *out)
{
    size_t at = d->r.pos;
    size_t n = wire_read_short(&d->r);
    if (!wire__decoder_ok(d)) {
        return;
    }
    if (n > wire_reader_remaining(&d->r) / 4) {
        wire__reject(d, at, "[string multimap] count exceeds the remaining bytes");
        return;
    }
    out->u.supported.n = n;
    out->u.supported.keys = base_arena_alloc(d->a, n * sizeof(base_str_t) + 1);
    out->u.supported.n_values = base_arena_alloc(d->a, n * sizeof(size_t) + 1);
    out->u.supported.values = base_arena_alloc(d->a, n * sizeof(base_str_t *) + 1);
    for (size_t i = 0; i < n && wire__decoder_ok(d); i++) {
        out->u.supported.keys[i] = wire_read_string(&d->r);
        out->u.supported.n_values[i] =
            wire_read_string_list(&d->r, d->a, &out->u.supported.values[i]);
    }
}


static bool is_response_opcode(uint8_t op)
{
    switch (op) {
    case WIRE_OP_ERROR:
    case WIRE_OP_READY:
    case WIRE_OP_AUTHENTICATE:
    case WIRE_OP_SUPPORTED:
    case WIRE_OP_RESULT:
    case WIRE_OP_EVENT:
    case WIRE_OP_AUTH_CHALLENGE:
    case WIRE_OP_AUTH_SUCCESS:
        return true;
    default:
        return false;
    }
}


static void read_message(decoder_t *d, wire_reply_t *out)
{
    wire_reader_t *r = &d->r;
    switch (out->opcode) {
    case WIRE_OP_ERROR:
        out->u.error.code = wire_read_int(r);
        out->u.error.message = wire_read_string(r);
        out->u.error.detail.ptr = r->data + r->pos;
        out->u.error.detail.len = (int32_t)wire_reader_remaining(r);
        r->pos = r->len; /* the detail is the rest, whatever the code */
        break;
    case WIRE_OP_READY:
        break;
    case WIRE_OP_AUTHENTICATE:
        out->u.authenticator = wire_read_string(r);
        break;
    case WIRE_OP_SUPPORTED:
        read_supported(d, out);
        break;
    case WIRE_OP_RESULT:
        read_result(d, out);
        break;
    case WIRE_OP_EVENT:
        out->u.event_type = wire_read_string(r);
        if (wire__decoder_ok(d)) {
            r->pos = r->len;
        }
        break;
    case WIRE_OP_AUTH_CHALLENGE:
    case WIRE_OP_AUTH_SUCCESS:
        out->u.auth_token = wire_read_bytes(r);
        break;
    default:
        BASE_ASSERT(!"is_response_opcode() lets only responses through");
    }
}


int wire_reply_decode(wire_reply_t *out, const wire_header_t *h, const uint8_t *body, size_t len,
                      base_arena_t *a, base_error_t *err)
{
    memset(out, 0, sizeof(*out));
    out->opcode = h->opcode;
    if (!h->response) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Wrong protocol direction: request frame (opcode 0x%02X %s) "
                              "sent to the client",
                              h->opcode, wire_opcode_name(h->opcode));
    }
    if (!is_response_opcode(h->opcode)) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid opcode 0x%02X (%s): not a response a server may send",
                              h->opcode, wire_opcode_name(h->opcode));
    }

    decoder_t d = {.a = a, .version = h->version, .what = wire_opcode_name(h->opcode), .err = err};
    wire_reader_init(&d.r, body, len);
    if (h->flags & WIRE_FLAG_TRACING) {
        out->has_tracing = wire_read_uuid(&d.r, out->tracing_id);
    }
    if (h->flags & WIRE_FLAG_WARNING) {
        out->n_warnings = wire_read_string_list(&d.r, a, &out->warnings);
    }
    if (h->flags & WIRE_FLAG_CUSTOM_PAYLOAD) {
        out->n_payload = wire_read_bytes_map(&d.r, a, &out->payload_keys, &out->payload_values);
    }
    if (wire__decoder_ok(&d)) {
        read_message(&d, out);
    }

    return wire__decoder_finish(&d);
}


bool wire_reply_payload_double(const wire_reply_t *r, const char *key, double *out)
{
    base_str_t k = base_str_from(key);
    for (size_t i = 0; i < r->n_payload; i++) {
        if (base_str_eq(r->payload_keys[i], k) && r->payload_values[i].len == 8) {
            uint64_t bits = base_load_u64(r->payload_values[i].ptr);
            memcpy(out, &bits, sizeof(*out));
            return true;
        }
    }
    return false;
}
