/*
 * server.c - the process: listener, signals, engine, connections. Layer:
 * emulator.
 *
 * Concurrency model: ONE libevent event loop on ONE thread, as in Redis and
 * nginx. Every callback (accept, read, write, signal, timer) runs on that
 * thread to completion, so the cql engine and storage are used by one
 * request at a time and need no locks; a request is short (in-memory data)
 * and fairness comes from handling each read's frames and returning to the
 * loop. Nothing here may block: sockets are non-blocking and files are only
 * touched before the loop starts (certificates).
 *
 * Shutdown (SIGINT/SIGTERM): stop accepting, ask every connection to flush
 * and close, leave the loop when the last one is gone (or after a short
 * grace period), then free everything, so ASan's leak check stays clean.
 *
 * Durable storage (--storage durable): storage keeps its commit log and
 * snapshots in <data-dir>/data and cql its schema log beside them. The
 * schema is restored before the loop runs, so no request sees a partial
 * one; a timer snapshots the data once the commit log passes
 * EMU_CHECKPOINT_LOG_BYTES, and a graceful shutdown snapshots it too, so the
 * next start reads one compact snapshot instead of a long log.
 */
#include "emulator/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <sys/stat.h>

#include "emulator/admin.h"
#include "emulator/conn.h"
#include "emulator/log.h"
#include "emulator/tls.h"

#define DRAIN_TIMEOUT_SEC    2
#define CHECKPOINT_CHECK_SEC 2 /* how often the commit log's size is looked at */
#define DATA_SUBDIR          "data"
#define SCHEMA_LOG_FILE      "schema.log"

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *addr,
                      int addr_len, void *arg)
{
    (void)l;
    emu_conn_accept(arg, fd, addr, addr_len);
}

static void on_accept_error(struct evconnlistener *l, void *arg)
{
    (void)l;
    (void)arg;
    /* EMFILE and friends: libevent retries on the next readiness. */
    emu_log(EMU_LOG_WARN, 0, "accept failed: %s",
            evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
}

static void on_drain_timeout(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    emu_log(EMU_LOG_WARN, 0, "%zu connection(s) did not drain in %d s; closing them", s->n_conns,
            DRAIN_TIMEOUT_SEC);
    event_base_loopbreak(s->base);
}

void emu_server_conn_gone(emu_server_t *s)
{
    if (s->stopping && s->n_conns == 0) {
        event_base_loopbreak(s->base);
    }
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    emu_server_t *s = arg;
    if (s->stopping) {
        return;
    }
    s->stopping = true;
    emu_log(EMU_LOG_INFO, 0, "%s: shutting down (%zu connection(s))",
            sig == SIGINT ? "SIGINT" : "SIGTERM", s->n_conns);
    evconnlistener_free(s->listener);
    s->listener = NULL;
    for (emu_conn_t *c = s->conns, *next; c != NULL; c = next) {
        next = emu_conn_next(c);
        emu_conn_shutdown(c);
    }
    if (s->n_conns == 0) {
        event_base_loopbreak(s->base);
        return;
    }
    struct timeval tv = {DRAIN_TIMEOUT_SEC, 0};
    s->drain_timer = evtimer_new(s->base, on_drain_timeout, s);
    if (s->drain_timer == NULL || evtimer_add(s->drain_timer, &tv) != 0) {
        event_base_loopbreak(s->base);
    }
}

/* Resolves --bind/--port (numeric or a name) to the first usable address. */
static int resolve(const emu_config_t *cfg, struct sockaddr_storage *ss, socklen_t *len)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    char port[8];
    snprintf(port, sizeof(port), "%d", cfg->port);
    int rc = getaddrinfo(cfg->bind, port, &hints, &res);
    if (rc != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot resolve --bind %s: %s", cfg->bind, gai_strerror(rc));
        return BASE_ERROR;
    }
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *len = res->ai_addrlen;
    freeaddrinfo(res);
    return BASE_OK;
}

/* The address drivers are told to use (system.local rpc_address): the
 * bound one, or loopback when bound to every interface. */
static void rpc_address(const struct sockaddr_storage *ss, cql_config_t *cc)
{
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
        memcpy(cc->rpc_address, &in6->sin6_addr, 16);
        if (IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr)) {
            memcpy(cc->rpc_address, &in6addr_loopback, 16);
        }
        cc->rpc_address_len = 16;
        cc->rpc_port = ntohs(in6->sin6_port);
    } else {
        const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
        uint32_t a =
            in->sin_addr.s_addr == htonl(INADDR_ANY) ? htonl(INADDR_LOOPBACK) : in->sin_addr.s_addr;
        memcpy(cc->rpc_address, &a, 4);
        cc->rpc_address_len = 4;
        cc->rpc_port = ntohs(in->sin_port);
    }
}

static int listen_on(emu_server_t *s, struct sockaddr_storage *ss)
{
    socklen_t len;
    if (resolve(s->cfg, ss, &len) != BASE_OK) {
        return BASE_ERROR;
    }
    s->listener = evconnlistener_new_bind(
        s->base, on_accept, s, LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC,
        -1, (struct sockaddr *)ss, (int)len);
    if (s->listener == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot listen on %s:%d: %s", s->cfg->bind, s->cfg->port,
                strerror(errno));
        return BASE_ERROR;
    }
    evconnlistener_set_error_cb(s->listener, on_accept_error);
    /* --port 0 picks a free port: report the one the kernel chose. */
    len = sizeof(*ss);
    getsockname(evconnlistener_get_fd(s->listener), (struct sockaddr *)ss, &len);
    char host[INET6_ADDRSTRLEN] = "?";
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
        snprintf(s->endpoint, sizeof(s->endpoint), "[%s]:%d", host, ntohs(in6->sin6_port));
    } else {
        const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
        snprintf(s->endpoint, sizeof(s->endpoint), "%s:%d", host, ntohs(in->sin_port));
    }
    return BASE_OK;
}

/* Snapshot + new commit log, logged with what it took. */
static int checkpoint(emu_server_t *s, const char *why)
{
    base_error_t err;
    uint64_t log_bytes = storage_db_log_bytes(s->db);
    int64_t t0 = base_mono_us();
    if (storage_db_checkpoint(s->db, &err) != BASE_OK) {
        emu_log(EMU_LOG_ERROR, 0, "checkpoint (%s) failed: %s", why, err.msg);
        return BASE_ERROR;
    }
    emu_log(EMU_LOG_INFO, 0,
            "checkpoint (%s): %.1f MB of commit log folded into a snapshot in %lld ms", why,
            (double)log_bytes / (1024.0 * 1024.0), (long long)((base_mono_us() - t0) / 1000));
    return BASE_OK;
}

static void on_checkpoint_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    if (!s->stopping && storage_db_log_bytes(s->db) >= EMU_CHECKPOINT_LOG_BYTES) {
        checkpoint(s, "commit log over 64 MB");
    }
}

/* mkdir -p: the data directory may not exist yet (--no-tls creates no certificates). */
static int make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path) || path[0] == '\0') {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0') {
            continue;
        }
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            return -1;
        }
        *p = saved;
        if (saved == '\0') {
            return 0;
        }
    }
}

/* Opens <data-dir>/data, restores the schema over it and arms the checkpoint timer. */
static int open_durable(emu_server_t *s, char *dir, size_t cap)
{
    base_error_t err;
    if (snprintf(dir, cap, "%s/%s", s->cfg->data_dir, DATA_SUBDIR) >= (int)cap) {
        emu_log(EMU_LOG_ERROR, 0, "--data-dir is too long");
        return BASE_ERROR;
    }
    if (make_dirs(dir) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot create %s: %s", dir, strerror(errno));
        return BASE_ERROR;
    }
    int64_t t0 = base_mono_us();
    s->db =
        storage_db_open(dir, s->cfg->fsync_always ? STORAGE_SYNC_ALWAYS : STORAGE_SYNC_NONE, &err);
    if (s->db == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot open durable storage in %s: %s", dir, err.msg);
        return BASE_ERROR;
    }
    emu_log(EMU_LOG_DEBUG, 0, "storage opened in %lld ms",
            (long long)((base_mono_us() - t0) / 1000));
    s->checkpoint_timer = event_new(s->base, -1, EV_PERSIST, on_checkpoint_timer, s);
    struct timeval tv = {CHECKPOINT_CHECK_SEC, 0};
    if (s->checkpoint_timer == NULL || evtimer_add(s->checkpoint_timer, &tv) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot arm the checkpoint timer");
        return BASE_ERROR;
    }
    return BASE_OK;
}

/* Replays the schema log so every table finds its data again. */
static int restore_schema(emu_server_t *s, const char *dir)
{
    base_error_t err;
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", dir, SCHEMA_LOG_FILE);
    cql_engine_set_schema_sync(s->engine,
                               s->cfg->fsync_always ? STORAGE_SYNC_ALWAYS : STORAGE_SYNC_NONE);
    int64_t t0 = base_mono_us();
    if (cql_engine_restore(s->engine, path, &err) != BASE_OK) {
        emu_log(EMU_LOG_ERROR, 0, "cannot restore the schema: %s", err.msg);
        return BASE_ERROR;
    }
    /* Empty tables whose CREATE never reached the schema log were never acknowledged;
     * restore refused to start if any unclaimed table held data. */
    size_t orphans = storage_db_drop_unclaimed(s->db);
    if (orphans > 0) {
        emu_log(EMU_LOG_WARN, 0,
                "dropped %zu empty stored table(s) the schema log does not know "
                "(a CREATE TABLE cut short)",
                orphans);
    }
    s->restored = true;
    emu_log(EMU_LOG_INFO, 0, "durable storage in %s (fsync %s): restored in %lld ms", dir,
            s->cfg->fsync_always ? "always" : "never", (long long)((base_mono_us() - t0) / 1000));
    return BASE_OK;
}

static int start_engine(emu_server_t *s, const struct sockaddr_storage *ss)
{
    char dir[4096];
    cql_config_t cc;
    cql_config_defaults(&cc);
    cc.profile = s->cfg->profile;
    cc.data_center = s->cfg->region;
    rpc_address(ss, &cc);
    if (!s->cfg->durable) {
        s->db = storage_db_new();
        emu_log(EMU_LOG_INFO, 0,
                "storage in memory: nothing survives a restart "
                "(--storage durable keeps it)");
    } else if (open_durable(s, dir, sizeof(dir)) != BASE_OK) {
        return BASE_ERROR;
    }
    s->engine = cql_engine_new(&cc, s->db);
    emu_metering_attach(s->metering, s->engine); /* before restoring: it sees the DDL replayed */
    s->events = emu_events_new();
    cql_engine_set_listener(s->engine, emu_events_on_schema_change, s->events);
    return s->cfg->durable ? restore_schema(s, dir) : BASE_OK;
}

static void server_fini(emu_server_t *s)
{
    while (s->conns != NULL) {
        emu_conn_free(s->conns);
    }
    if (s->listener != NULL) {
        evconnlistener_free(s->listener);
    }
    if (s->sigint != NULL) {
        event_free(s->sigint);
    }
    if (s->sigterm != NULL) {
        event_free(s->sigterm);
    }
    if (s->drain_timer != NULL) {
        event_free(s->drain_timer);
    }
    if (s->checkpoint_timer != NULL) {
        event_free(s->checkpoint_timer);
    }
    emu_admin_free(s->admin); /* before the metering it reads */
    if (s->engine != NULL) {
        cql_engine_free(s->engine);
    }
    emu_metering_free(s->metering); /* after the engine that calls its hooks */
    if (s->db != NULL && s->cfg->durable && !s->restored) {
        storage_db_discard(s->db); /* start-up failed: leave the files for the user to repair */
    } else if (s->db != NULL) {
        storage_db_free(s->db);
    }
    emu_events_free(s->events);
    emu_tls_ctx_free(s->ssl);
    if (s->base != NULL) {
        event_base_free(s->base);
    }
}

int emu_server_run(const emu_config_t *cfg)
{
    emu_server_t s;
    struct sockaddr_storage ss;
    base_error_t err;
    int rc = 1;
    memset(&s, 0, sizeof(s));
    s.cfg = cfg;
    emu_log_set_level(cfg->log_level);
    signal(SIGPIPE, SIG_IGN); /* a peer gone mid-write is an EPIPE, not a death */

    if (cfg->tls && (s.ssl = emu_tls_ctx_new(cfg, &err)) == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "%s", err.msg);
        goto done;
    }
    char msg[512];
    if ((s.metering = emu_metering_new(cfg, msg, sizeof(msg))) == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "%s", msg);
        rc = 2; /* a bad --cost-model or --prices file is a configuration error */
        goto done;
    }
    s.base = event_base_new();
    if (s.base == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot create the event loop");
        goto done;
    }
    if (listen_on(&s, &ss) != BASE_OK) {
        goto done;
    }
    if (start_engine(&s, &ss) != BASE_OK) {
        goto done;
    }
    s.sigint = evsignal_new(s.base, SIGINT, on_signal, &s);
    s.sigterm = evsignal_new(s.base, SIGTERM, on_signal, &s);
    if (s.sigint == NULL || s.sigterm == NULL || evsignal_add(s.sigint, NULL) != 0 ||
        evsignal_add(s.sigterm, NULL) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot install signal handlers");
        goto done;
    }
    emu_log(EMU_LOG_INFO, 0, "listening on %s (%s)", s.endpoint, s.ssl ? "TLS" : "plaintext");
    emu_log(EMU_LOG_INFO, 0, "account %s, data center \"%s\", profile %s, max frame %zu MB",
            cfg->account, cfg->region, cfg->profile == CQL_PROFILE_COSMOS ? "cosmos" : "cassandra",
            cfg->max_frame / (1024 * 1024));
    char capacity[64] = "serverless";
    if (!cfg->serverless) {
        snprintf(capacity, sizeof(capacity), "table default %lld RU/s%s",
                 (long long)cfg->default_throughput, cfg->burst_capacity ? " with burst" : "");
    }
    emu_log(EMU_LOG_INFO, 0, "request units: rate limiting %s%s, consistency %s, %s, cost model %s",
            cfg->rate_limiting ? "on" : "off",
            cfg->rate_limiting && cfg->server_side_retry ? " (server-side retry)" : "",
            ru_consistency_name(cfg->consistency), capacity,
            cfg->cost_model_file ? cfg->cost_model_file : "built in");
    s.admin = emu_admin_start(s.base, cfg, s.endpoint, s.ssl != NULL, s.metering);
    emu_log(EMU_LOG_INFO, 0, "ready");
    if (event_base_dispatch(s.base) < 0) {
        emu_log(EMU_LOG_ERROR, 0, "the event loop failed");
        goto done;
    }
    rc = 0;
    /* The connections are gone: nothing writes while the snapshot is taken. */
    if (cfg->durable && checkpoint(&s, "shutdown") != BASE_OK) {
        rc = 1;
    }
    emu_log(EMU_LOG_INFO, 0, "stopped");

done:
    server_fini(&s);
    return rc;
}
