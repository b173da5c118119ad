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
 *   GET /healthz       200 {"status":"ok"} once ready; 503 {"status":"starting"|
 *                      "recovering"|"stopping"} before and while shutting down
 *   GET /metrics       Prometheus text format (metrics.c)
 *   GET /cert          the local CA certificate (application/x-pem-file); also
 *                      /_explorer/emulator.pem, the Azure Cosmos DB emulator's path
 *   POST /stats/reset  every statistic starts again; ?table=ks.t: one table's
 * /estimate and the reports take ?scale=200x or ?ops=N (target requests
 * per second), &storage_scale=Nx and &observed=SECONDS. The routes that
 * read the meter answer 503 until the emulator is ready: the start-up
 * worker (server.c) may still be replaying DDL into it.
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
struct emu_server_s;

/* Where the process is in its life, as GET /healthz reports it. */
typedef enum {
    EMU_HEALTH_STARTING = 0, /* building the engine (memory storage) */
    EMU_HEALTH_RECOVERING,   /* reading durable storage back */
    EMU_HEALTH_READY,        /* storage recovered, CQL listener accepting */
    EMU_HEALTH_STOPPING,     /* SIGINT/SIGTERM: draining */
    EMU_HEALTH_FAILED,       /* the commit log failed: CQL no longer served (server.c) */
} emu_health_t;

const char *emu_health_name(emu_health_t h); /* "starting", ..., "ok" for READY */
/* Whether the engine and the meter are built (READY and after): statistics are served. */
static inline bool emu_health_built(emu_health_t h)
{
    return h >= EMU_HEALTH_READY;
}

typedef struct emu_admin_info_s {
    const char *version;
    const char *endpoint; /* the CQL listener as bound, "127.0.0.1:10350" */
    const char *profile;  /* "cosmos" or "cassandra" */
    bool tls;
} emu_admin_info_t;

/* Serves on bind:port (0: a free port), in state READY with no server
 * behind it (unit tests). NULL with msg filled when the socket cannot be
 * bound; the emulator then runs without it. */
emu_admin_t *emu_admin_new(struct event_base *base, const char *bind, int port,
                           const emu_admin_info_t *info, emu_metering_t *m, char *msg, size_t cap);
void emu_admin_free(emu_admin_t *a); /* accepts NULL */

/* The server's call, once its CQL listener is bound (not yet accepting):
 * starts the endpoint cfg asks for (--admin-port, --admin-bind) in state
 * STARTING, reads the CA it serves on /cert, and logs where it listens.
 * The server must outlive it. NULL when it is off (--admin-port off) or
 * cannot bind; the latter is logged as an error and the server does not
 * start: a pipeline polling a taken port would talk to someone else. */
emu_admin_t *emu_admin_start(struct emu_server_s *s);

/* The server moves the state along (NULL a: no endpoint, nothing to do). */
void emu_admin_set_health(emu_admin_t *a, emu_health_t h);
/* EMU_HEALTH_FAILED, with the reason /healthz gives (copied; JSON-safe text). */
void emu_admin_set_failed(emu_admin_t *a, const char *reason);

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

/* `cosmos-cassandra-emulator health [--admin ADDR] [--timeout S]`: GET
 * /healthz; exit code 0 when ready, 1 otherwise (no answer, 503), 2 for a
 * bad command line. The default address is 127.0.0.1 (or
 * COSMOS_EMULATOR_ADMIN_BIND when it names one host) at
 * COSMOS_EMULATOR_ADMIN_PORT or 10351, so a container's HEALTHCHECK needs
 * no arguments. argv[0] is "health". */
int emu_admin_health_main(int argc, char **argv);

#endif
