/*
 * request.c - decodes the body of every request a client may send
 * (spec 4.1) into a wire_request_t (wire layer).
 *
 * Invariants:
 *  - Pure: no I/O, no schema. Slices borrow from the body; arrays come from
 *    the arena. Any malformed, truncated or over-long body is a Protocol
 *    error (0x000A) whose message names the message, the problem and the
 *    body offset; nothing here trusts a length before the reader checked it.
 *  - v3 and v4 differ only in what is accepted: v3 has no unset [value]
 *    (-2) and no custom payload (flag 0x04).
 */
#include "wire/decoder.h"

/* The smallest encodings, used to bound counts before allocating. */
#define MIN_VALUE_SIZE      4 /* [value] with n <= 0 */
#define MIN_BATCH_STMT_SIZE 5 /* kind + empty [short bytes] + value count */


typedef wire__decoder_t decoder_t;


static void read_consistency(decoder_t *d, uint16_t *out)
{
    size_t at = d->r.pos;
    *out = wire_read_short(&d->r);
    if (wire_reader_ok(&d->r) && wire_consistency_name(*out) == NULL) {
        wire__reject(d, at, "unknown consistency level");
    }
}


/* [value], with the v3 rule that -2 (unset) does not exist. */
static wire_value_t read_value(decoder_t *d)
{
    size_t at = d->r.pos;
    wire_value_t v = wire_read_value(&d->r);
    if (v.len == WIRE_VALUE_UNSET && d->version < 4 && wire_reader_ok(&d->r)) {
        wire__reject(d, at, "unset value (-2) is not allowed in protocol v3");
    }
    return v;
}


/* A [short] count of n values, optionally each preceded by a [string] name. */
static size_t read_values(decoder_t *d, bool with_names, wire_value_t **values, base_str_t **names)
{
    size_t min_size = MIN_VALUE_SIZE + (with_names ? 2 : 0);
    size_t at = d->r.pos;
    size_t n = wire_read_short(&d->r);
    *values = NULL;
    *names = NULL;
    if (!wire__decoder_ok(d)) {
        return 0;
    }
    if (n > wire_reader_remaining(&d->r) / min_size) {
        wire__reject(d, at, "value count exceeds the remaining bytes");
        return 0;
    }
    *values = base_arena_alloc(d->a, n * sizeof(**values));
    if (with_names) {
        *names = base_arena_alloc(d->a, n * sizeof(**names));
    }
    for (size_t i = 0; i < n && wire__decoder_ok(d); i++) {
        if (with_names) {
            (*names)[i] = wire_read_string(&d->r);
        }
        (*values)[i] = read_value(d);
    }
    return n;
}


static void read_timestamp(decoder_t *d, wire_query_params_t *p)
{
    size_t at = d->r.pos;
    p->timestamp = wire_read_long(&d->r);
    p->has_timestamp = true;
    if (wire_reader_ok(&d->r) && p->timestamp == INT64_MIN) {
        wire__reject(d, at, "out of bound timestamp (-9223372036854775808)");
    }
}


static void params_defaults(wire_query_params_t *p)
{
    p->page_size = -1;
    p->paging_state.ptr = NULL;
    p->paging_state.len = WIRE_VALUE_NULL;
    p->serial_consistency = WIRE_CL_SERIAL;
}


/* <query_parameters> of QUERY and EXECUTE (spec 4.1.4). */
static void read_query_params(decoder_t *d, wire_query_params_t *p)
{
    params_defaults(p);
    read_consistency(d, &p->consistency);
    p->flags = wire_read_byte(&d->r);
    if (!(p->flags & WIRE_QF_VALUES)) {
        p->flags &= (uint8_t)~WIRE_QF_NAMES_FOR_VALUES; /* ignored without values */
    }
    if (wire__decoder_ok(d) && (p->flags & WIRE_QF_VALUES)) {
        p->n_values =
            read_values(d, (p->flags & WIRE_QF_NAMES_FOR_VALUES) != 0, &p->values, &p->names);
    }
    if (p->flags & WIRE_QF_PAGE_SIZE) {
        p->page_size = wire_read_int(&d->r);
    }
    if (p->flags & WIRE_QF_PAGING_STATE) {
        p->paging_state = wire_read_bytes(&d->r);
    }
    if (wire__decoder_ok(d) && (p->flags & WIRE_QF_SERIAL_CONSISTENCY)) {
        read_consistency(d, &p->serial_consistency);
    }
    if (wire__decoder_ok(d) && (p->flags & WIRE_QF_DEFAULT_TIMESTAMP)) {
        read_timestamp(d, p);
    }
}


static void read_batch_stmt(decoder_t *d, wire_batch_stmt_t *s)
{
    size_t at = d->r.pos;
    uint8_t kind = wire_read_byte(&d->r);
    if (!wire__decoder_ok(d)) {
        return;
    }
    if (kind == 0) {
        s->query = wire_read_long_string(&d->r);
    } else if (kind == 1) {
        s->prepared = true;
        s->id = wire_read_short_bytes(&d->r);
    } else {
        wire__reject(d, at, "statement kind must be 0 or 1");
        return;
    }
    base_str_t *names;
    s->n_values = read_values(d, false, &s->values, &names);
}


/* BATCH (spec 4.1.7); the <flags> byte after <consistency> exists since v3. */
static void read_batch(decoder_t *d, wire_batch_t *b)
{
    size_t at = d->r.pos;
    b->type = wire_read_byte(&d->r);
    if (wire__decoder_ok(d) && b->type > WIRE_BATCH_COUNTER) {
        wire__reject(d, at, "batch type must be 0, 1 or 2");
        return;
    }
    at = d->r.pos;
    size_t n = wire_read_short(&d->r);
    if (!wire__decoder_ok(d)) {
        return;
    }
    if (n > wire_reader_remaining(&d->r) / MIN_BATCH_STMT_SIZE) {
        wire__reject(d, at, "statement count exceeds the remaining bytes");
        return;
    }
    b->stmts = base_arena_calloc(d->a, n, sizeof(*b->stmts));
    b->n_stmts = n;
    for (size_t i = 0; i < n && wire__decoder_ok(d); i++) {
        read_batch_stmt(d, &b->stmts[i]);
    }

    wire_query_params_t *p = &b->params;
    params_defaults(p);
    read_consistency(d, &p->consistency);
    at = d->r.pos;
    p->flags = wire_read_byte(&d->r);
    if (!wire__decoder_ok(d)) {
        return;
    }
    if (p->flags & 0x0F) {
        wire__reject(d, at,
                     "flags 0x01-0x08 (values, skip metadata, paging) are not valid in BATCH");
        return;
    }
    if (p->flags & WIRE_QF_NAMES_FOR_VALUES) {
        /* The values precede the flag that would announce their names
         * (CASSANDRA-10246), so no server can honour it. */
        wire__reject(d, at, "names for values (flag 0x40) are not supported in BATCH");
        return;
    }
    if (p->flags & WIRE_QF_SERIAL_CONSISTENCY) {
        read_consistency(d, &p->serial_consistency);
    }
    if (wire__decoder_ok(d) && (p->flags & WIRE_QF_DEFAULT_TIMESTAMP)) {
        read_timestamp(d, p);
    }
}


static bool is_request_opcode(uint8_t op)
{
    switch (op) {
    case WIRE_OP_STARTUP:
    case WIRE_OP_AUTH_RESPONSE:
    case WIRE_OP_OPTIONS:
    case WIRE_OP_QUERY:
    case WIRE_OP_PREPARE:
    case WIRE_OP_EXECUTE:
    case WIRE_OP_BATCH:
    case WIRE_OP_REGISTER:
        return true;
    default:
        return false;
    }
}


static void read_message(decoder_t *d, wire_request_t *out)
{
    wire_reader_t *r = &d->r;
    switch (out->opcode) {
    case WIRE_OP_STARTUP:
        out->u.startup.n =
            wire_read_string_map(r, d->a, &out->u.startup.keys, &out->u.startup.values);
        break;
    case WIRE_OP_AUTH_RESPONSE:
        out->u.auth_token = wire_read_bytes(r);
        break;
    case WIRE_OP_OPTIONS:
        break;
    case WIRE_OP_QUERY:
        out->u.query.query = wire_read_long_string(r);
        read_query_params(d, &out->u.query.params);
        break;
    case WIRE_OP_PREPARE:
        out->u.prepare = wire_read_long_string(r);
        break;
    case WIRE_OP_EXECUTE:
        out->u.execute.id = wire_read_short_bytes(r);
        read_query_params(d, &out->u.execute.params);
        break;
    case WIRE_OP_BATCH:
        read_batch(d, &out->u.batch);
        break;
    case WIRE_OP_REGISTER:
        out->u.reg.n = wire_read_string_list(r, d->a, &out->u.reg.events);
        break;
    default:
        BASE_ASSERT(!"is_request_opcode() lets only requests through");
    }
}


int wire_request_decode(wire_request_t *out, const wire_header_t *h, const uint8_t *body,
                        size_t len, base_arena_t *a, base_error_t *err)
{
    memset(out, 0, sizeof(*out));
    out->opcode = h->opcode;
    if (h->response) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Wrong protocol direction: response frame (opcode 0x%02X %s) "
                              "sent to the server",
                              h->opcode, wire_opcode_name(h->opcode));
    }
    if (h->version != 3 && h->version != 4) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid or unsupported protocol version (%d)", h->version);
    }
    if (!is_request_opcode(h->opcode)) {
        return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                              "Invalid opcode 0x%02X (%s): not a request a client may send",
                              h->opcode, wire_opcode_name(h->opcode));
    }

    decoder_t d = {.a = a, .version = h->version, .what = wire_opcode_name(h->opcode), .err = err};
    wire_reader_init(&d.r, body, len);
    if (h->flags & WIRE_FLAG_CUSTOM_PAYLOAD) {
        if (h->version < 4) {
            return base_error_set(err, WIRE_ERR_PROTOCOL_ERROR,
                                  "Received frame with CUSTOM_PAYLOAD flag for native protocol "
                                  "version < 4");
        }
        out->n_payload = wire_read_bytes_map(&d.r, a, &out->payload_keys, &out->payload_values);
    }
    if (wire__decoder_ok(&d)) {
        read_message(&d, out);
    }

    return wire__decoder_finish(&d);
}
