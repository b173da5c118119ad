/*
 * dispatch.c - statement requests to the cql engine and back. Layer:
 * emulator.
 *
 * Every answer to QUERY, PREPARE, EXECUTE and BATCH, RESULT or ERROR,
 * carries the custom payload key RequestCharge (v4; v3 frames cannot carry
 * a payload) and the engine's warnings. The engine's result and error are
 * trusted only as far as their shape: a status or result kind we do not
 * know becomes a Server error (0x0000), never a malformed frame.
 *
 * Request units: metering.c decides admission inside the engine (through
 * its hook) and prices the statement afterwards. A request refused by
 * admission is answered 0x1001 with charge 0, or, under server-side retry,
 * not answered at all: the connection holds it and runs it again later.
 */
#include "emulator/dispatch.h"

#include "emulator/charge.h"
#include "emulator/log.h"
#include "emulator/telemetry.h"

static bool is_statement(uint8_t opcode)
{
    return opcode == WIRE_OP_QUERY || opcode == WIRE_OP_PREPARE || opcode == WIRE_OP_EXECUTE ||
           opcode == WIRE_OP_BATCH;
}

/* Begins the answer with its warnings and RequestCharge, known before its body, so
 * the body is written once in place. */
static void start(const emu_reply_t *r, wire_response_t *rb, uint8_t opcode, bool charged,
                  double charge, const char *const *warnings, size_t n_warnings)
{
    uint8_t bytes[8];
    const char *keys[1] = {EMU_CHARGE_KEY};
    wire_value_t values[1] = {{bytes, 8}};
    emu_charge_encode(charge, bytes);
    wire_response_begin(rb, r->out, r->version, r->stream, opcode);
    wire_response_prefix(rb, warnings, n_warnings, keys, values, charged ? 1 : 0);
}

static void finish(const emu_reply_t *r, wire_response_t *rb)
{
    wire_response_end(rb, NULL, 0, NULL, NULL, 0, r->compress);
}

void emu_dispatch_error(const emu_reply_t *reply, uint8_t opcode, const base_error_t *err)
{
    wire_response_t rb;
    start(reply, &rb, WIRE_OP_ERROR, is_statement(opcode), 0.0, NULL, 0);
    wire_encode_error(reply->out, err);
    finish(reply, &rb);
    emu_telemetry_error(opcode, (uint32_t)err->code);
}

static bool known_kind(int kind)
{
    return kind >= WIRE_RESULT_VOID && kind <= WIRE_RESULT_SCHEMA_CHANGE;
}

static void encode_result(base_buf_t *b, uint8_t version, const cql_result_t *res)
{
    switch (res->kind) {
    case WIRE_RESULT_VOID:
        wire_encode_result_void(b);
        break;
    case WIRE_RESULT_ROWS:
        wire_encode_result_rows(b, res->cols, res->n_cols, res->paging_state, res->no_metadata,
                                res->cells, res->n_rows);
        break;
    case WIRE_RESULT_SET_KEYSPACE:
        wire_encode_result_set_keyspace(b, res->keyspace);
        break;
    case WIRE_RESULT_PREPARED:
        wire_encode_result_prepared(b, version, res->prepared_id, sizeof(res->prepared_id),
                                    res->binds, res->n_binds, res->pk_indexes, res->n_pk_indexes,
                                    res->cols, res->n_cols);
        break;
    case WIRE_RESULT_SCHEMA_CHANGE:
        wire_encode_result_schema_change(b, &res->schema_change);
        break;
    default:
        BASE_ASSERT(!"checked by known_kind");
    }
}

static int run(cql_engine_t *e, cql_session_t *s, const wire_request_t *req, base_arena_t *a,
               cql_result_t *res, base_error_t *err)
{
    switch (req->opcode) {
    case WIRE_OP_QUERY:
        return cql_query(e, s, req->u.query.query, &req->u.query.params, a, res, err);
    case WIRE_OP_PREPARE:
        return cql_prepare(e, s, req->u.prepare, a, res, err);
    case WIRE_OP_EXECUTE:
        return cql_execute(e, s, req->u.execute.id, &req->u.execute.params, a, res, err);
    case WIRE_OP_BATCH:
        return cql_batch(e, s, &req->u.batch, a, res, err);
    default:
        cql_result_init(res); /* no cql_ call fills it */
        return base_error_set(err, WIRE_ERR_SERVER_ERROR, "unexpected %s in the dispatcher",
                              wire_opcode_name(req->opcode));
    }
}

/* The engine's warnings, plus the would-have-been-throttled one. */
static const char *const *warnings_of(const cql_result_t *res, const char *extra, base_arena_t *a,
                                      size_t *n)
{
    size_t have = res->warnings != NULL ? res->n_warnings : 0;
    *n = have;
    if (extra == NULL) {
        return res->warnings;
    }
    const char **all = base_arena_alloc(a, (have + 1) * sizeof(*all));
    for (size_t i = 0; i < have; i++) {
        all[i] = res->warnings[i];
    }
    all[have] = extra;
    *n = have + 1;
    return all;
}

/* A guard-rail crossed: its warnings (or its refusal) go to the log at warn, as
 * Cassandra logs them, whatever the profile; at most once a second per kind (as
 * Cassandra's NoSpamLogger), so a bulk load of large batches cannot flood the log. */
static void log_guardrails(const cql_result_t *res, const base_error_t *err)
{
    static int64_t last_us[8];
    static uint64_t quiet[8];
    const cql_stats_t *st = &res->stats;
    unsigned kind = 0;
    while (kind < 7 && !(st->guardrails & (1u << kind))) {
        kind++;
    }
    int64_t now = base_mono_us();
    if (last_us[kind] != 0 && now - last_us[kind] < 1000000) {
        quiet[kind]++;
        return;
    }
    last_us[kind] = now;
    if (quiet[kind] > 0) {
        emu_log(EMU_LOG_WARN, 0,
                "guard-rail: %llu more of the next kind in the last second (not logged)",
                (unsigned long long)quiet[kind]);
        quiet[kind] = 0;
    }
    const char *ks = st->keyspace ? st->keyspace : "?", *t = st->table ? st->table : "?";
    for (size_t i = 0; res->warnings != NULL && i < res->n_warnings; i++) {
        emu_log(EMU_LOG_WARN, 0, "guard-rail on %s.%s: %s", ks, t, res->warnings[i]);
    }
    if (err != NULL) {
        emu_log(EMU_LOG_WARN, 0, "guard-rail on %s.%s: refused: %s", ks, t, err->msg);
    }
    if (st->guardrails & CQL_GUARD_LARGE_PARTITION) {
        emu_log(EMU_LOG_WARN, 0,
                "Writing large partition %s/%s:token %lld (%zu bytes; see "
                "compaction_large_partition_warning_threshold_mb)",
                ks, t, (long long)st->large_partition_token, st->large_partition_bytes);
    }
}

void emu_dispatch(cql_engine_t *e, emu_metering_t *m, cql_session_t *s, const wire_request_t *req,
                  size_t req_bytes, const emu_reply_t *reply, base_arena_t *a, emu_hold_t *hold,
                  int64_t now_us)
{
    cql_result_t res; /* cleared by whichever call fills it (cql.h), not twice */
    base_error_t err;
    emu_admission_t adm;
    base_error_clear(&err);
    if (hold != NULL) {
        memset(hold, 0, sizeof(*hold));
    }

    emu_metering_begin(m, now_us);
    int rc = emu_metering_check_request(m, req, req_bytes, &err);
    if (rc == BASE_OK) {
        rc = run(e, s, req, a, &res, &err);
    } else {
        cql_result_init(&res); /* no cql_ call fills it */
    }
    if (rc == BASE_OK && !known_kind(res.kind)) {
        rc =
            base_error_set(&err, WIRE_ERR_SERVER_ERROR, "internal error: result kind %d", res.kind);
    } else if (rc != BASE_OK && (rc != BASE_ERROR || err.msg[0] == '\0')) {
        rc = base_error_set(&err, WIRE_ERR_SERVER_ERROR, "internal error: %s", base_strerror(rc));
    }
    bool failed = rc != BASE_OK;
    emu_metering_admission(m, &adm);
    bool throttled = failed && adm.throttled;
    if (throttled && hold != NULL && emu_metering_server_side_retry(m, NULL)) {
        hold->held = true;
        hold->retry_after_ms = adm.retry_after_ms;
        hold->read = adm.read;
        return;
    }
    if (res.stats.guardrails != 0) {
        log_guardrails(&res, failed ? &err : NULL);
    }
    double charge = emu_metering_charge(m, &res, failed, throttled);
    size_t n_warnings;
    const char *const *warnings = warnings_of(&res, adm.warning, a, &n_warnings);

    wire_response_t rb;
    start(reply, &rb, failed ? WIRE_OP_ERROR : WIRE_OP_RESULT, true, charge, warnings, n_warnings);
    if (failed) {
        wire_encode_error(reply->out, &err);
        emu_telemetry_error(req->opcode, (uint32_t)err.code);
    } else {
        encode_result(reply->out, reply->version, &res);
    }
    finish(reply, &rb);
}

static uint16_t consistency_of(const wire_request_t *req)
{
    switch (req->opcode) {
    case WIRE_OP_QUERY:
        return req->u.query.params.consistency;
    case WIRE_OP_EXECUTE:
        return req->u.execute.params.consistency;
    case WIRE_OP_BATCH:
        return req->u.batch.params.consistency;
    default:
        return WIRE_CL_ONE;
    }
}

/*
 * The service, retrying a throttled request itself, gives up after 60 s
 * with "read or write time-out error accordingly"
 * (prevent-rate-limiting-errors.md). No replica answered: received 0 of 1.
 */
void emu_dispatch_timeout(const emu_reply_t *reply, const wire_request_t *req, bool read,
                          int waited_ms)
{
    base_error_t err;
    uint16_t cl = consistency_of(req);
    base_error_set(&err, read ? WIRE_ERR_READ_TIMEOUT : WIRE_ERR_WRITE_TIMEOUT,
                   "Operation timed out - received only 0 responses. (Request rate is large: "
                   "server-side retry gave up after %d ms)",
                   waited_ms);
    if (read) {
        wire_error_detail_read_timeout(&err, cl, 0, 1, false);
    } else {
        wire_error_detail_write_timeout(&err, cl, 0, 1, emu_metering_write_type(req));
    }
    emu_dispatch_error(reply, req->opcode, &err);
}
