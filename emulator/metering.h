/*
 * metering.h - request units in the request path: the seam between the
 * connection code and ru_meter. It owns the process's ru_meter_t, loads the
 * cost model and price files, installs cql hooks (admission control and
 * throughput changes from DDL), and prices every finished request.
 *
 * Flow of one statement:
 *   cql runs it -> hook admit() -> ru_meter_admit: throttle (0x1001 with the
 *   service's message, or server-side retry), or let through (with a warning
 *   when rate limiting is off but the budget is exceeded) -> the statement
 *   runs -> emu_metering_charge() prices what it did -> RequestCharge.
 *
 * Ownership: emu_metering_new returns an object the caller frees with
 * emu_metering_free; the engine it is attached to must be detached (or
 * freed) first.
 */
#ifndef EMULATOR_METERING_H
#define EMULATOR_METERING_H

#include "cql/cql.h"
#include "emulator/config.h"
#include "ru_meter/ru_meter.h"

typedef struct emu_metering_s emu_metering_t;

/* Builds the meter from the configuration (rate limiting, consistency,
 * default throughput, serverless, burst, cost model file). NULL with msg
 * filled when a file cannot be read or parsed. */
emu_metering_t *emu_metering_new(const emu_config_t *cfg, char *msg, size_t cap);
void emu_metering_free(emu_metering_t *m);

/* The meter, for statistics and reports (borrowed). */
ru_meter_t *emu_metering_meter(emu_metering_t *m);

/* Installs the admission and throughput hooks in the engine. */
void emu_metering_attach(emu_metering_t *m, cql_engine_t *e);

/* Prices a finished request from its result (stats filled on errors too);
 * failed: it ended in an ERROR; throttled: refused by admission (costs 0
 * but is counted). Returns the RequestCharge. */
double emu_metering_charge(emu_metering_t *m, const cql_result_t *res, bool failed, bool throttled);

/* ---- one request at a time, service limits, accessors ------------------- */

/* The clock the meter runs on (base_mono_us): pass it to ru_meter_snapshot. */
int64_t emu_metering_now_us(void);

/* The price table (--prices FILE, else ru_prices_defaults); borrowed. */
const ru_prices_t *emu_metering_prices(emu_metering_t *m);

/* What admission decided for the statement that just ran. Requests are run
 * one at a time (one event-loop thread): emu_metering_begin() forgets the
 * previous request's decision before the next one runs. */
typedef struct emu_admission_s {
    bool admitted;       /* the admit hook ran (a statement on a user table) */
    bool throttled;      /* refused: 0x1001, or held under server-side retry */
    bool would_throttle; /* rate limiting off and over budget: let through */
    int retry_after_ms;
    bool read;           /* a SELECT (READ_TIMEOUT when held too long; else WRITE_TIMEOUT) */
    const char *warning; /* would_throttle: the warning to send (owned by m), else NULL */
} emu_admission_t;

/* now_us: when the request began, on the meter's clock (emu_metering_now_us); its
 * admission and charge use it. A loop answering requests back to back passes the
 * reading that ended the previous one, so a request costs one clock read. */
void emu_metering_begin(emu_metering_t *m, int64_t now_us);
void emu_metering_admission(const emu_metering_t *m, emu_admission_t *out);

/* Server-side retry (--server-side-retry): true, with how long a throttled
 * request may be held before it times out. */
bool emu_metering_server_side_retry(const emu_metering_t *m, int *budget_ms);

/* The service's request limits (cosmos profile): a statement request whose
 * body is over 2 MB. BASE_OK, or BASE_ERROR with err = Write_failure. */
#define EMU_MAX_REQUEST_BYTES (2u * 1024 * 1024)
int emu_metering_check_request(const emu_metering_t *m, const wire_request_t *req, size_t bytes,
                               base_error_t *err);

/* The write_type of a Write_failure/Write_timeout for req: SIMPLE, or the
 * batch's kind (UNLOGGED_BATCH, BATCH, COUNTER). */
const char *emu_metering_write_type(const wire_request_t *req);

/* The one mapping from what cql did to what ru_meter prices. */
void emu_metering_op(const cql_stats_t *st, bool failed, ru_op_t *out);

#endif
