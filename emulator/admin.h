/*
 * admin.h - the admin endpoint: a small HTTP/1.1 server (libevent's evhttp)
 * on the emulator's event loop that serves its status, RU statistics,
 * estimates and reports, and the client the `estimate` command reads them
 * with. Loopback only unless --admin-bind says otherwise.
 *
 *   GET /status        JSON: version, uptime, CQL address, admin address, profile
 *   GET /stats         JSON: the meter's snapshot (emu_snapshot_to_json), no estimate
 *   GET /estimate      JSON: the snapshot with an estimate
 *   GET /report        text report with an estimate
 *   GET /report.html   self-contained HTML report with an estimate
 * /estimate and the reports take ?scale=200x or ?ops=N (target requests
 * per second), &storage_scale=Nx and &observed=SECONDS.
 *
 * Ownership: emu_admin_new copies info's strings; the metering object and
 * the event base must outlive the endpoint.
 */
#ifndef EMULATOR_ADMIN_H
#define EMULATOR_ADMIN_H

#include <event2/event.h>

#include "base/base.h"
#include "emulator/metering.h"

typedef struct emu_admin_s emu_admin_t;

typedef struct emu_admin_info_s {
    const char *version;
    const char *endpoint; /* the CQL listener as bound, "127.0.0.1:10350" */
    const char *profile;  /* "cosmos" or "cassandra" */
    bool tls;
} emu_admin_info_t;

/* Serves on bind:port (0: a free port). NULL with msg filled when the
 * socket cannot be bound; the emulator then runs without it. */
emu_admin_t *emu_admin_new(struct event_base *base, const char *bind, int port,
                           const emu_admin_info_t *info, emu_metering_t *m, char *msg, size_t cap);
void emu_admin_free(emu_admin_t *a); /* accepts NULL */

/* The server's call: starts the endpoint cfg asks for (--admin-port,
 * --admin-bind) and logs where it listens. NULL when it is off or cannot
 * bind (logged as a warning: the emulator still serves CQL). */
emu_admin_t *emu_admin_start(struct event_base *base, const emu_config_t *cfg,
                             const char *cql_endpoint, bool tls, emu_metering_t *m);

/* "127.0.0.1:10351" as bound. */
const char *emu_admin_endpoint(const emu_admin_t *a);

/*
 * Client: GET path (with its query) from the admin endpoint at addr, which
 * is "host:port", ":port", "port" or "http://host:port[/]". Appends the
 * body to out (NUL-terminated). BASE_OK for a 200 answer; BASE_EIO with msg
 * for no connection, a timeout or another status.
 */
int emu_admin_get(const char *addr, const char *path, int timeout_s, base_buf_t *out, char *msg,
                  size_t cap);

#endif
