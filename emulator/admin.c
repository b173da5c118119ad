/*
 * admin.c - the admin endpoint, both sides: an evhttp server on the
 * emulator's event loop, and the blocking GET the `estimate` command uses.
 * Layer: emulator.
 *
 * The server reads, bar one write: every answer is computed from a fresh
 * snapshot of the meter on the loop's thread, so it needs no locks and sees
 * a consistent set of figures; POST /stats/reset clears the statistics. It
 * binds loopback unless told otherwise, takes GET and HEAD (POST on the
 * reset route only, and never from a browser page: a request with an
 * Origin header is refused), and caps header and body sizes: it is a local
 * tool, not a public API. Query parameters are validated (400 with a JSON
 * error) and never reach a format string.
 *
 * Health: the endpoint starts before storage is recovered (server.c runs
 * the recovery on a worker thread meanwhile), so /healthz can say
 * "recovering"; until the state is READY the routes that read the meter
 * answer 503, since the worker may be writing to it.
 */
#include "emulator/admin.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "emulator/estimate.h"
#include "emulator/log.h"
#include "emulator/metrics.h"
#include "emulator/server.h"
#include "emulator/telemetry.h"
#include "emulator/tls.h"

#ifndef EMU_VERSION
#define EMU_VERSION "0.0.0"
#endif

#define MAX_HEADERS_SIZE    8192
#define MAX_BODY_SIZE       1024
#define SERVER_TIMEOUT_S    10
#define CLIENT_MAX_BODY     (256u * 1024 * 1024)
#define DASHBOARD_REFRESH_S 2 /* the live dashboard reloads itself this often by default */

struct emu_admin_s {
    struct evhttp *http;
    emu_metering_t *metering;
    char *version;
    char *cql_endpoint;
    char *profile;
    bool tls;
    int64_t started_us; /* base_mono_us at start, for the uptime */
    char endpoint[80];  /* this endpoint as bound */
    emu_health_t health;
    char failure[160];          /* EMU_HEALTH_FAILED: why (emu_admin_set_failed) */
    const emu_server_t *server; /* NULL in unit tests: no connections or storage figures */
    base_buf_t ca_pem;          /* GET /cert; empty with no_ca saying why */
    const char *no_ca;
};

const char *emu_health_name(emu_health_t h)
{
    static const char *const names[] = {"starting", "recovering", "ok", "stopping", "failed"};
    return h <= EMU_HEALTH_FAILED ? names[h] : "unknown";
}

/* ---- server ---------------------------------------------------------------- */

static void reply(struct evhttp_request *req, int code, const char *reason, const char *type,
                  const base_buf_t *body)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", type);
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    evbuffer_add(evhttp_request_get_output_buffer(req), body->data, body->len);
    evhttp_send_reply(req, code, reason, NULL);
}

static void reply_error(struct evhttp_request *req, int code, const char *reason, const char *what)
{
    base_buf_t b;
    base_buf_init(&b);
    base_buf_printf(&b, "{\"error\":\"");
    for (const char *p = what; *p; p++) {
        if (*p == '"' || *p == '\\') {
            base_buf_put_u8(&b, '\\');
        }
        base_buf_put_u8(&b, (unsigned char)*p < 0x20 ? ' ' : (uint8_t)*p);
    }
    base_buf_printf(&b, "\"}\n");
    reply(req, code, reason, "application/json", &b);
    base_buf_fini(&b);
}

static void put_json_string(base_buf_t *b, const char *s)
{
    base_buf_put_u8(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') {
            base_buf_put_u8(b, '\\');
        }
        base_buf_put_u8(b, (unsigned char)*s < 0x20 ? ' ' : (uint8_t)*s);
    }
    base_buf_put_u8(b, '"');
}

static void serve_status(emu_admin_t *a, struct evhttp_request *req)
{
    base_buf_t b;
    const ru_config_t *cfg = ru_meter_config(emu_metering_meter(a->metering));
    base_buf_init(&b);
    base_buf_printf(&b, "{\"version\":");
    put_json_string(&b, a->version);
    base_buf_printf(
        &b, ",\"uptime_s\":%.3f,\"listening\":", (double)(base_mono_us() - a->started_us) / 1e6);
    put_json_string(&b, a->cql_endpoint);
    base_buf_printf(&b, ",\"tls\":%s,\"admin\":", a->tls ? "true" : "false");
    put_json_string(&b, a->endpoint);
    base_buf_printf(&b, ",\"profile\":");
    put_json_string(&b, a->profile);
    base_buf_printf(&b, ",\"state\":\"%s\"", emu_health_name(a->health));
    base_buf_printf(&b, ",\"capacity\":\"%s\",\"consistency\":\"%s\",\"rate_limiting\":%s}\n",
                    cfg->capacity == RU_CAPACITY_SERVERLESS ? "serverless" : "provisioned",
                    ru_consistency_name(cfg->consistency), cfg->rate_limiting ? "true" : "false");
    reply(req, HTTP_OK, "OK", "application/json", &b);
    base_buf_fini(&b);
}

/* A positive finite number, with an optional trailing 'x' when allow_x. */
static bool query_number(const char *v, bool allow_x, double *out)
{
    if (allow_x) {
        return emu_scale_parse(v, out) == BASE_OK;
    }
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || !isfinite(d) || !(d > 0)) {
        return false;
    }
    *out = d;
    return true;
}

/* scale, ops, storage_scale, observed, peak_hours from the query string, and
 * refresh (seconds) where refresh_s is not NULL (the dashboard). */
static int parse_params(struct evhttp_request *req, ru_estimate_params_t *p, int *refresh_s,
                        char *msg, size_t cap)
{
    static const struct {
        const char *name;
        bool allow_x;
        size_t offset;
    } keys[] = {
        {"scale", true, offsetof(ru_estimate_params_t, scale)},
        {"ops", false, offsetof(ru_estimate_params_t, target_ops_s)},
        {"storage_scale", true, offsetof(ru_estimate_params_t, storage_scale)},
        {"observed", false, offsetof(ru_estimate_params_t, observed_s)},
        {"peak_hours", false, offsetof(ru_estimate_params_t, peak_hours)},
    };
    struct evkeyvalq q;
    int rc = BASE_OK;
    memset(p, 0, sizeof(*p));
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    if (query == NULL) {
        return BASE_OK;
    }
    if (evhttp_parse_query_str(query, &q) != 0) { /* which initialises q */
        snprintf(msg, cap, "malformed query string");
        return BASE_EINVAL;
    }
    for (struct evkeyval *kv = q.tqh_first; kv != NULL && rc == BASE_OK; kv = kv->next.tqe_next) {
        size_t k = 0;
        for (; k < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[k].name, kv->key) != 0; k++) {
        }
        double v;
        if (refresh_s != NULL && strcmp(kv->key, "refresh") == 0) {
            if (!query_number(kv->value, false, &v) || v > 3600) {
                snprintf(msg, cap, "refresh must be a number of seconds from 1 to 3600");
                rc = BASE_EINVAL;
            } else {
                *refresh_s = v < 1 ? 1 : (int)v;
            }
        } else if (k == sizeof(keys) / sizeof(keys[0])) {
            snprintf(msg, cap,
                     "unknown parameter (scale, ops, storage_scale, observed, "
                     "peak_hours%s)",
                     refresh_s != NULL ? ", refresh" : "");
            rc = BASE_EINVAL;
        } else if (!query_number(kv->value, keys[k].allow_x, &v)) {
            snprintf(msg, cap, "%s must be a positive number%s", keys[k].name,
                     keys[k].allow_x ? " such as 200x" : "");
            rc = BASE_EINVAL;
        } else {
            memcpy((char *)p + keys[k].offset, &v, sizeof(v));
        }
    }
    evhttp_clear_headers(&q);
    return rc;
}

/* refresh_s > 0: the live dashboard (HTML, reloading itself every refresh_s). */
static void serve_snapshot(emu_admin_t *a, struct evhttp_request *req, bool estimate,
                           emu_format_t f, int refresh_s)
{
    ru_snapshot_t snap;
    ru_estimate_t est;
    ru_estimate_params_t params;
    base_buf_t b;
    char msg[160];
    if (estimate && parse_params(req, &params, refresh_s > 0 ? &refresh_s : NULL, msg,
                                 sizeof(msg)) != BASE_OK) {
        reply_error(req, HTTP_BADREQUEST, "Bad Request", msg);
        return;
    }
    base_buf_init(&b);
    ru_meter_snapshot(emu_metering_meter(a->metering), emu_metering_now_us(), &snap);
    if (estimate) {
        ru_estimate(&snap, &params, emu_metering_prices(a->metering), &est);
    }
    if (refresh_s > 0) {
        ru_report_dashboard(&snap, estimate ? &est : NULL, refresh_s, &b);
    } else {
        emu_report_render(f, &snap, estimate ? &est : NULL, &b);
    }
    reply(req, HTTP_OK, "OK",
          f == EMU_FORMAT_JSON   ? "application/json"
          : f == EMU_FORMAT_HTML ? "text/html; charset=utf-8"
                                 : "text/plain; charset=utf-8",
          &b);
    if (estimate) {
        ru_estimate_fini(&est);
    }
    ru_snapshot_fini(&snap);
    base_buf_fini(&b);
}

static void serve_healthz(emu_admin_t *a, struct evhttp_request *req)
{
    base_buf_t b;
    base_buf_init(&b);
    base_buf_printf(&b, "{\"status\":\"%s\"", emu_health_name(a->health));
    if (a->health == EMU_HEALTH_FAILED) {
        base_buf_printf(&b, ",\"reason\":\"%s\"", a->failure);
    }
    base_buf_printf(&b, "}\n");
    if (a->health == EMU_HEALTH_READY) {
        reply(req, HTTP_OK, "OK", "application/json", &b);
    } else {
        reply(req, 503, "Service Unavailable", "application/json", &b);
    }
    base_buf_fini(&b);
}

static void serve_cert(emu_admin_t *a, struct evhttp_request *req)
{
    if (a->ca_pem.len == 0) {
        reply_error(req, HTTP_NOTFOUND, "Not Found", a->no_ca ? a->no_ca : "no CA certificate");
        return;
    }
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Disposition",
                      "inline; filename=\"emulator-ca.pem\"");
    reply(req, HTTP_OK, "OK", "application/x-pem-file", &a->ca_pem);
}

static void serve_metrics(emu_admin_t *a, struct evhttp_request *req)
{
    ru_snapshot_t snap = {0}; /* filled below when ready; only then read */
    base_buf_t b;
    bool ready = emu_health_built(a->health);
    const emu_server_t *s = a->server;
    emu_metrics_input_t in = {
        .version = a->version,
        .ready = a->health == EMU_HEALTH_READY,
        .uptime_s = (double)(base_mono_us() - a->started_us) / 1e6,
        .telemetry = emu_telemetry(),
        .snapshot = ready ? &snap : NULL,
        .have_connections = s != NULL,
        .connections_open = s != NULL ? s->n_conns : 0,
        .connections_accepted = s != NULL ? s->next_conn_id : 0,
        .durable = s != NULL && s->cfg->durable,
        .commitlog_bytes = ready && s != NULL && s->db != NULL ? storage_db_log_bytes(s->db) : 0,
        .commitlog_syncs = ready && s != NULL && s->db != NULL ? storage_db_syncs(s->db) : 0,
        .acks_waiting = s != NULL ? s->acks_waiting : 0,
    };
    if (ready && s != NULL && s->db != NULL) {
        in.small_chunks = storage_db_untidy(s->db);
        in.chunk_moves = storage_db_tidied(s->db);
        storage_disk_waits_t w;
        storage_db_disk_waits(s->db, &w);
        in.disk_waits = w.count;
        in.disk_wait_s = (double)w.total_us / 1e6;
    }
    if (ready) {
        ru_meter_snapshot(emu_metering_meter(a->metering), emu_metering_now_us(), &snap);
    }
    base_buf_init(&b);
    emu_metrics_render(&in, &b);
    reply(req, HTTP_OK, "OK", EMU_METRICS_CONTENT_TYPE, &b);
    base_buf_fini(&b);
    if (ready) {
        ru_snapshot_fini(&snap);
    }
}

/* POST /stats/reset[?table=ks.t] */
static void serve_reset(emu_admin_t *a, struct evhttp_request *req)
{
    struct evkeyvalq q;
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    q.tqh_first = NULL; /* empty until parsed: evhttp_clear_headers takes it */
    q.tqh_last = &q.tqh_first;
    if (query != NULL && evhttp_parse_query_str(query, &q) != 0) {
        reply_error(req, HTTP_BADREQUEST, "Bad Request", "malformed query string");
        return;
    }
    const char *table = NULL;
    for (struct evkeyval *kv = q.tqh_first; kv != NULL; kv = kv->next.tqe_next) {
        if (strcmp(kv->key, "table") != 0 || table != NULL) {
            reply_error(req, HTTP_BADREQUEST, "Bad Request",
                        "the one parameter is table=KEYSPACE.TABLE (none: reset everything)");
            evhttp_clear_headers(&q);
            return;
        }
        table = kv->value;
    }
    base_buf_t b;
    base_buf_init(&b);
    ru_meter_t *m = emu_metering_meter(a->metering);
    if (table == NULL) {
        ru_meter_reset_stats(m);
        emu_telemetry_reset();
        base_buf_printf(&b, "{\"reset\":\"all\"}\n");
        reply(req, HTTP_OK, "OK", "application/json", &b);
        emu_log(EMU_LOG_INFO, 0, "statistics reset (POST /stats/reset)");
    } else {
        /* keyspace names are word characters only, so the first dot ends it */
        const char *dot = strchr(table, '.');
        char ks[256];
        if (dot == NULL || dot == table || dot[1] == '\0' || (size_t)(dot - table) >= sizeof(ks)) {
            reply_error(req, HTTP_BADREQUEST, "Bad Request", "table must be KEYSPACE.TABLE");
        } else {
            memcpy(ks, table, (size_t)(dot - table));
            ks[dot - table] = '\0';
            if (ru_meter_reset_table_stats(m, ks, dot + 1) != BASE_OK) {
                char what[600];
                snprintf(what, sizeof(what), "no statistics for table %s.%s", ks, dot + 1);
                reply_error(req, HTTP_NOTFOUND, "Not Found", what);
            } else {
                base_buf_printf(&b, "{\"reset\":");
                put_json_string(&b, table);
                base_buf_printf(&b, "}\n");
                reply(req, HTTP_OK, "OK", "application/json", &b);
                emu_log(EMU_LOG_INFO, 0, "statistics of %s.%s reset (POST /stats/reset)", ks,
                        dot + 1);
            }
        }
    }
    base_buf_fini(&b);
    evhttp_clear_headers(&q);
}

static bool reads_meter(const char *path)
{
    static const char *const paths[] = {"/stats",       "/estimate",    "/report",
                                        "/report.html", "/stats/reset", "/dashboard"};
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        if (strcmp(path, paths[i]) == 0) {
            return true;
        }
    }
    return false;
}

static void on_request(struct evhttp_request *req, void *arg)
{
    emu_admin_t *a = arg;
    enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    bool post_route = path != NULL && strcmp(path, "/stats/reset") == 0;
    bool method_ok =
        post_route ? cmd == EVHTTP_REQ_POST : cmd == EVHTTP_REQ_GET || cmd == EVHTTP_REQ_HEAD;
    if (!method_ok) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow",
                          post_route ? "POST" : "GET, HEAD");
        reply_error(req, 405, "Method Not Allowed", post_route ? "only POST" : "only GET and HEAD");
        return;
    }
    if (post_route && evhttp_find_header(evhttp_request_get_input_headers(req), "Origin") != NULL) {
        reply_error(req, 403, "Forbidden", "not from a web page");
        return;
    }
    if (path != NULL && reads_meter(path) && !emu_health_built(a->health)) {
        char what[80];
        snprintf(what, sizeof(what), "%s: statistics are served once the emulator is ready",
                 emu_health_name(a->health));
        reply_error(req, 503, "Service Unavailable", what);
        return;
    }
    if (path == NULL || strcmp(path, "/") == 0 || strcmp(path, "/status") == 0) {
        serve_status(a, req);
    } else if (strcmp(path, "/stats") == 0) {
        serve_snapshot(a, req, false, EMU_FORMAT_JSON, 0);
    } else if (strcmp(path, "/estimate") == 0) {
        serve_snapshot(a, req, true, EMU_FORMAT_JSON, 0);
    } else if (strcmp(path, "/report") == 0) {
        serve_snapshot(a, req, true, EMU_FORMAT_TEXT, 0);
    } else if (strcmp(path, "/report.html") == 0) {
        serve_snapshot(a, req, true, EMU_FORMAT_HTML, 0);
    } else if (strcmp(path, "/dashboard") == 0) {
        serve_snapshot(a, req, true, EMU_FORMAT_HTML, DASHBOARD_REFRESH_S);
    } else if (strcmp(path, "/healthz") == 0) {
        serve_healthz(a, req);
    } else if (strcmp(path, "/metrics") == 0) {
        serve_metrics(a, req);
    } else if (strcmp(path, "/cert") == 0 || strcmp(path, "/_explorer/emulator.pem") == 0) {
        serve_cert(a, req);
    } else if (post_route) {
        serve_reset(a, req);
    } else {
        reply_error(req, HTTP_NOTFOUND, "Not Found",
                    "no such page (/status, /healthz, /metrics, /cert, /stats, /estimate, "
                    "/report, /report.html, /dashboard; POST /stats/reset)");
    }
}

static void format_endpoint(const struct sockaddr_storage *ss, char *out, size_t cap)
{
    char host[INET6_ADDRSTRLEN] = "?";
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
        snprintf(out, cap, "[%s]:%d", host, ntohs(in6->sin6_port));
    } else {
        const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
        snprintf(out, cap, "%s:%d", host, ntohs(in->sin_port));
    }
}

emu_admin_t *emu_admin_new(struct event_base *base, const char *bind, int port,
                           const emu_admin_info_t *info, emu_metering_t *m, char *msg, size_t cap)
{
    emu_admin_t *a = base_calloc(1, sizeof(*a));
    a->metering = m;
    a->version = base_strdup(info->version ? info->version : "");
    a->cql_endpoint = base_strdup(info->endpoint ? info->endpoint : "");
    a->profile = base_strdup(info->profile ? info->profile : "");
    a->tls = info->tls;
    a->started_us = base_mono_us();
    a->health = EMU_HEALTH_READY;
    base_buf_init(&a->ca_pem);
    a->http = evhttp_new(base);
    if (a->http == NULL) {
        snprintf(msg, cap, "cannot create the HTTP server");
        goto fail;
    }
    /* the callback answers anything but GET/HEAD with 405 and an Allow header */
    evhttp_set_allowed_methods(a->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST |
                                            EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE);
    evhttp_set_max_headers_size(a->http, MAX_HEADERS_SIZE);
    evhttp_set_max_body_size(a->http, MAX_BODY_SIZE);
    evhttp_set_timeout(a->http, SERVER_TIMEOUT_S);
    evhttp_set_gencb(a->http, on_request, a);
    struct evhttp_bound_socket *bs = evhttp_bind_socket_with_handle(a->http, bind, (uint16_t)port);
    if (bs == NULL) {
        snprintf(msg, cap, "cannot listen on %s:%d: %s", bind, port,
                 evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
        goto fail;
    }
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    memset(&ss, 0, sizeof(ss));
    getsockname(evhttp_bound_socket_get_fd(bs), (struct sockaddr *)&ss, &len);
    format_endpoint(&ss, a->endpoint, sizeof(a->endpoint));
    return a;
fail:
    emu_admin_free(a);
    return NULL;
}

void emu_admin_free(emu_admin_t *a)
{
    if (a == NULL) {
        return;
    }
    if (a->http != NULL) {
        evhttp_free(a->http);
    }
    base_free(a->version);
    base_free(a->cql_endpoint);
    base_free(a->profile);
    base_buf_fini(&a->ca_pem);
    base_free(a);
}

emu_admin_t *emu_admin_start(emu_server_t *s)
{
    char msg[256];
    const emu_config_t *cfg = s->cfg;
    if (cfg->admin_port == EMU_ADMIN_OFF) {
        return NULL;
    }
    emu_admin_info_t info = {
        .version = EMU_VERSION,
        .endpoint = s->endpoint,
        .profile = cfg->profile == CQL_PROFILE_COSMOS ? "cosmos" : "cassandra",
        .tls = s->ssl != NULL,
    };
    emu_admin_t *a = emu_admin_new(s->base, cfg->admin_bind, cfg->admin_port, &info, s->metering,
                                   msg, sizeof(msg));
    if (a == NULL) {
        emu_log(EMU_LOG_ERROR, 0,
                "cannot start the admin endpoint: %s (--admin-port 0 picks a free port, "
                "--admin-port off runs without it)",
                msg);
        return NULL;
    }
    a->health = EMU_HEALTH_STARTING;
    a->server = s;
    if (s->ssl == NULL) {
        a->no_ca = "TLS is off (--no-tls): there is no certificate to trust";
    } else if (cfg->cert_file != NULL) {
        a->no_ca = "the emulator serves your own certificate (--cert): trust its issuer";
    } else {
        base_error_t err;
        if (emu_tls_ca_pem(cfg, &a->ca_pem, &err) != BASE_OK) {
            emu_log(EMU_LOG_WARN, 0, "GET /cert will answer 404: %s", err.msg);
            base_buf_reset(&a->ca_pem);
            a->no_ca = "the CA certificate could not be read (see the emulator's log)";
        }
    }
    emu_log(EMU_LOG_INFO, 0,
            "admin endpoint on http://%s (/healthz, /metrics, /cert, /status, /stats, "
            "/estimate, /report, /dashboard)",
            a->endpoint);
    return a;
}

void emu_admin_set_health(emu_admin_t *a, emu_health_t h)
{
    if (a != NULL) {
        a->health = h;
    }
}

void emu_admin_set_failed(emu_admin_t *a, const char *reason)
{
    if (a != NULL) {
        a->health = EMU_HEALTH_FAILED;
        snprintf(a->failure, sizeof(a->failure), "%s", reason);
    }
}

const char *emu_admin_endpoint(const emu_admin_t *a)
{
    return a->endpoint;
}

/* ---- client ---------------------------------------------------------------- */

typedef struct fetch_s {
    struct event_base *base;
    base_buf_t *out;
    int status; /* HTTP status, 0 for no answer */
} fetch_t;

static void on_response(struct evhttp_request *req, void *arg)
{
    fetch_t *f = arg;
    if (req != NULL) {
        f->status = evhttp_request_get_response_code(req);
        struct evbuffer *in = evhttp_request_get_input_buffer(req);
        size_t n = evbuffer_get_length(in);
        base_buf_reserve(f->out, n + 1);
        evbuffer_remove(in, f->out->data + f->out->len, n);
        f->out->len += n;
    }
    event_base_loopbreak(f->base);
}

/* host and port from the forms emu_admin_get accepts. */
static int parse_addr(const char *addr, char *host, size_t host_cap, int *port, char *msg,
                      size_t cap)
{
    char url[300];
    const char *a = addr;
    if (strncmp(a, "http://", 7) == 0) {
        snprintf(url, sizeof(url), "%s", a);
    } else if (strstr(a, "://") != NULL) {
        snprintf(msg, cap, "--admin %s: only http:// is served by the admin endpoint", addr);
        return BASE_EINVAL;
    } else if (a[0] == ':' || strspn(a, "0123456789") == strlen(a)) {
        snprintf(url, sizeof(url), "http://127.0.0.1%s%s", a[0] == ':' ? "" : ":", a);
    } else {
        snprintf(url, sizeof(url), "http://%s", a);
    }
    struct evhttp_uri *u = evhttp_uri_parse(url);
    const char *h = u ? evhttp_uri_get_host(u) : NULL;
    const char *path = u ? evhttp_uri_get_path(u) : NULL;
    int rc = BASE_OK;
    if (h == NULL || h[0] == '\0' || strlen(h) >= host_cap ||
        (path != NULL && path[0] != '\0' && strcmp(path, "/") != 0) ||
        evhttp_uri_get_query(u) != NULL) {
        snprintf(msg, cap, "--admin %s: want host:port or http://host:port", addr);
        rc = BASE_EINVAL;
    } else {
        /* evhttp keeps IPv6 literals without their brackets */
        snprintf(host, host_cap, "%s", h);
        *port = evhttp_uri_get_port(u) > 0 ? evhttp_uri_get_port(u) : EMU_DEFAULT_ADMIN_PORT;
    }
    if (u != NULL) {
        evhttp_uri_free(u);
    }
    return rc;
}

int emu_admin_get(const char *addr, const char *path, int timeout_s, base_buf_t *out, char *msg,
                  size_t cap)
{
    char host[256];
    int port;
    fetch_t f = {NULL, out, 0};
    struct evhttp_connection *conn = NULL;
    int rc = parse_addr(addr, host, sizeof(host), &port, msg, cap);
    if (rc != BASE_OK) {
        return rc;
    }
    rc = BASE_EIO;
    f.base = event_base_new();
    if (f.base == NULL) {
        snprintf(msg, cap, "cannot create an event loop");
        goto done;
    }
    conn = evhttp_connection_base_new(f.base, NULL, host, (uint16_t)port);
    if (conn == NULL) {
        snprintf(msg, cap, "cannot connect to %s:%d", host, port);
        goto done;
    }
    evhttp_connection_set_timeout(conn, timeout_s);
    evhttp_connection_set_retries(conn, 0);
    evhttp_connection_set_max_body_size(conn, CLIENT_MAX_BODY);
    struct evhttp_request *req = evhttp_request_new(on_response, &f);
    char host_header[300];
    snprintf(host_header, sizeof(host_header), strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host", host_header);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Connection", "close");
    if (evhttp_make_request(conn, req, EVHTTP_REQ_GET, path) != 0) {
        snprintf(msg, cap, "cannot send the request to %s", host_header);
        goto done;
    }
    event_base_dispatch(f.base);
    if (f.status == 0) {
        snprintf(msg, cap,
                 "no answer from the admin endpoint at http://%s (is the emulator running, "
                 "with --admin-port %d?)",
                 host_header, port);
    } else if (f.status != HTTP_OK) {
        base_buf_reserve(out, 1);
        out->data[out->len] = '\0';
        snprintf(msg, cap, "http://%s%s answered %d: %.200s", host_header, path, f.status,
                 (const char *)out->data);
    } else {
        rc = BASE_OK;
    }
done:
    if (conn != NULL) {
        evhttp_connection_free(conn);
    }
    if (f.base != NULL) {
        event_base_free(f.base);
    }
    base_buf_reserve(out, 1);
    out->data[out->len] = '\0';
    return rc;
}

/* ---- the health command ---------------------------------------------------- */

static void health_usage(FILE *out)
{
    fputs("Usage: cosmos-cassandra-emulator health [--admin ADDR] [--timeout S]\n\n"
          "Asks the admin endpoint's GET /healthz whether the emulator is ready (storage\n"
          "recovered, CQL served). Exit status 0: ready; 1: not ready, or no answer; 2: bad\n"
          "usage. For a container HEALTHCHECK or a CI --health-cmd; needs no curl.\n\n"
          "  --admin ADDR   host:port, :port, port or http://host:port (default 127.0.0.1,\n"
          "                 or COSMOS_EMULATOR_ADMIN_BIND when it names one host, at\n"
          "                 COSMOS_EMULATOR_ADMIN_PORT or 10351)\n"
          "  --timeout S    seconds to wait for the answer (default 5)\n",
          out);
}

int emu_admin_health_main(int argc, char **argv)
{
    char addr[300];
    char msg[512];
    long timeout = 5;
    const char *bind = getenv("COSMOS_EMULATOR_ADMIN_BIND");
    const char *port = getenv("COSMOS_EMULATOR_ADMIN_PORT");
    if (bind == NULL || bind[0] == '\0' || strcmp(bind, "0.0.0.0") == 0 ||
        strcmp(bind, "::") == 0) {
        bind = "127.0.0.1"; /* every interface includes loopback */
    }
    snprintf(addr, sizeof(addr), strchr(bind, ':') ? "[%s]:%s" : "%s:%s", bind,
             port != NULL && port[0] != '\0' ? port : "10351");
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            health_usage(stdout);
            return 0;
        }
        bool is_admin = len == 7 && strncmp(arg, "--admin", 7) == 0;
        bool is_timeout = len == 9 && strncmp(arg, "--timeout", 9) == 0;
        if (!is_admin && !is_timeout) {
            fprintf(stderr, "cosmos-cassandra-emulator health: unknown option '%s'\n", arg);
            return 2;
        }
        if (val == NULL) {
            fprintf(stderr, "cosmos-cassandra-emulator health: %.*s needs a value\n", (int)len,
                    arg);
            return 2;
        }
        if (eq == NULL) {
            i++;
        }
        if (is_admin) {
            snprintf(addr, sizeof(addr), "%s", val);
            continue;
        }
        char *end;
        timeout = strtol(val, &end, 10);
        if (end == val || *end != '\0' || timeout < 1 || timeout > 3600) {
            fprintf(stderr, "cosmos-cassandra-emulator health: --timeout '%s' is not 1-3600 s\n",
                    val);
            return 2;
        }
    }
    base_buf_t body;
    base_buf_init(&body);
    int rc = emu_admin_get(addr, "/healthz", (int)timeout, &body, msg, sizeof(msg));
    if (rc == BASE_EINVAL) {
        fprintf(stderr, "cosmos-cassandra-emulator health: %s\n", msg);
        base_buf_fini(&body);
        return 2;
    }
    if (rc == BASE_OK) {
        printf("ready: %s", (const char *)body.data); /* the body ends in a newline */
    } else {
        size_t n = strlen(msg);
        while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) {
            msg[--n] = '\0'; /* the 503 body's newline */
        }
        fprintf(stderr, "not ready: %s\n", msg);
    }
    base_buf_fini(&body);
    return rc == BASE_OK ? 0 : 1;
}
