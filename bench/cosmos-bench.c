/*
 * cosmos-bench.c - a CQL load generator in the spirit of redis-benchmark and
 * cassandra-stress: N connections x M requests in flight over native
 * protocol v4 (TLS and lz4 optional), prepared INSERT/SELECT on a key-value
 * table or YCSB workloads A and C on usertable, uniform or zipfian keys,
 * closed loop or fixed-rate open loop. Built from libevent, OpenSSL and the
 * project's own wire/ codecs. Prints ops/s, latency percentiles, errors by
 * CQL code, RU per operation (RequestCharge) and one final JSON line.
 *
 *   build/cosmos-bench --port 10350 --workload insert --duration 10
 *   build/cosmos-bench --help
 *
 * This file is the engine: connections, phases, workloads, responses. The
 * options are in loadgen_opts.c, the summary and JSON in loadgen_report.c,
 * latency buckets in histogram.c, key choice in keygen.c, and the machine's
 * own pauses (sleeping probe threads, with --slow-ms) in pause_probe.c.
 *
 * Invariants:
 *  - One thread, one event loop (and, with --slow-ms, the pause probes,
 *    which share nothing with it but their notes); every request has its
 *    own stream id, taken from the connection's free list and given back by
 *    its response.
 *  - Only requests issued in the measured phase are recorded, each when its
 *    response arrives (after the phase ended too: the run drains them).
 *  - Open loop (--rate): request i of a connection is due at start + i *
 *    interval and its latency counts from that due time, not from when a
 *    free stream let it leave, so a stalled server cannot hide its stall
 *    (no coordinated omission).
 *  - Set-up failures (connect, auth, schema, PREPARE, preload) are fatal
 *    with the server's message; errors in the measured phase are counted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/bufferevent_struct.h> /* ev_write: see flush */
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "base/base.h"
#include "emulator/plain.h"
#include "histogram.h"
#include "keygen.h"
#include "loadgen.h"
#include "pause_probe.h"
#include "wire/wire.h"

#define MAX_FRAME       (256u * 1024 * 1024)
#define MAX_STMTS       16
#define YCSB_FIELDS     10
#define VALUE_JITTER    4096 /* values start at a random offset of a random pool */
#define DRAIN_TIMEOUT_S 30
#define SETUP_TIMEOUT_S 60

/* What a stream is waiting for. */
typedef enum { OP_FREE, OP_READ, OP_WRITE, OP_NULL, OP_DDL, OP_PREPARE, OP_PRELOAD } op_t;

typedef enum {
    PH_CONNECT, /* connections handshaking */
    PH_SCHEMA,  /* connection 0 runs the DDL, one statement at a time */
    PH_PREPARE, /* every connection prepares the workload's statements */
    PH_PRELOAD, /* keys 0..n-1 written once, not measured */
    PH_WARMUP,  /* load as measured, not recorded */
    PH_RUN,     /* recorded */
    PH_DRAIN,   /* no new requests; waiting for the last responses */
} phase_t;

typedef struct slot_s {
    uint64_t start_ns; /* send time, or the due time in open loop */
    uint8_t op;
    uint8_t stmt;
    bool measured;
} slot_t;

typedef enum { CS_STARTUP, CS_AUTH, CS_READY } conn_state_t;

typedef struct conn_s {
    int idx;
    struct bufferevent *bev;
    conn_state_t state;
    slot_t *slots;
    int16_t *free_streams;
    int n_free;
    base_buf_t out;
    base_arena_t arena;
    keygen_t kg;
    uint8_t ids[MAX_STMTS][16];
    uint16_t id_len[MAX_STMTS];
    int n_prepared;
    int prep_next;        /* next statement to PREPARE */
    uint64_t next_due_ns; /* open loop */
    uint64_t interval_ns;
    bool starved; /* open loop: requests are due but no stream is free */
    struct event *timer;
} conn_t;

static opts_t o;
static struct event_base *base;
static SSL_CTX *ssl_ctx;
static conn_t *conns;
static phase_t phase = PH_CONNECT;
static int n_ready;
static int n_prepared_conns;
static int ddl_next;
static uint64_t preload_next;
static uint64_t outstanding;
static uint64_t issued_measured;
static struct event *phase_timer;
static struct event *sig_event;
static uint64_t open_loop_start_ns;

/* statements */
static const char *stmts[MAX_STMTS];
static int n_stmts;
static int st_insert, st_select, st_y_insert, st_y_read, st_y_update0;
static const char *ddl[4];
static int n_ddl;

/* values */
static uint8_t *pool;
static size_t field_size;

/* results */
static results_t res;

static void pump_from(conn_t *c, bool from_timer);
static void pump(conn_t *c);
static void start_phase(phase_t p);


/* ---- small helpers ------------------------------------------------------------------- */

/* The pause probes' clock: a stall's interval and the pauses within it are
 * compared as they are. */
static uint64_t now_ns(void)
{
    return probe_now_ns();
}


static const char *ssl_error_text(void)
{
    static char buf[256];
    unsigned long e = ERR_get_error();
    if (e == 0) {
        return "no OpenSSL error";
    }
    ERR_error_string_n(e, buf, sizeof(buf));
    ERR_clear_error();
    return buf;
}


static bool is_ycsb(workload_t w)
{
    return w == W_YCSB_A || w == W_YCSB_C;
}


/* "k0000000042": fixed width, so every key costs the same bytes. */
static size_t format_key(char *out, uint64_t k, bool ycsb)
{
    const char *prefix = ycsb ? "user" : "k";
    size_t n = strlen(prefix);
    memcpy(out, prefix, n);
    char digits[20];
    for (int i = 9; i >= 0; i--) {
        digits[i] = (char)('0' + k % 10);
        k /= 10;
    }
    memcpy(out + n, digits, 10);
    return n + 10;
}


/* ---- statements -------------------------------------------------------------------- */

static int add_stmt(const char *text)
{
    BASE_ASSERT(n_stmts < MAX_STMTS);
    stmts[n_stmts] = text;
    return n_stmts++;
}


static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = base_malloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}


static void build_statements(void)
{
    const char *ks = o.keyspace;
    const char *with = o.table_options[0] != '\0' ? " WITH " : "";
    if (o.workload == W_NULL) {
        return;
    }
    ddl[n_ddl++] = xasprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = "
                             "{'class': 'SimpleStrategy', 'replication_factor': 1}",
                             ks);
    if (is_ycsb(o.workload)) {
        base_buf_t b;
        base_buf_init(&b);
        base_buf_printf(&b, "CREATE TABLE IF NOT EXISTS %s.usertable (y_id varchar PRIMARY KEY",
                        ks);
        for (int i = 0; i < YCSB_FIELDS; i++) {
            base_buf_printf(&b, ", field%d varchar", i);
        }
        base_buf_printf(&b, ")%s%s", with, o.table_options);
        base_buf_put_u8(&b, 0);
        ddl[n_ddl++] = (char *)b.data;

        base_buf_init(&b);
        base_buf_printf(&b, "INSERT INTO %s.usertable (y_id", ks);
        for (int i = 0; i < YCSB_FIELDS; i++) {
            base_buf_printf(&b, ", field%d", i);
        }
        base_buf_printf(&b, ") VALUES (?");
        for (int i = 0; i < YCSB_FIELDS; i++) {
            base_buf_printf(&b, ", ?");
        }
        base_buf_printf(&b, ")");
        base_buf_put_u8(&b, 0);
        st_y_insert = add_stmt((char *)b.data);
        st_y_read = add_stmt(xasprintf("SELECT * FROM %s.usertable WHERE y_id = ?", ks));
        st_y_update0 = n_stmts;
        for (int i = 0; i < YCSB_FIELDS; i++) {
            add_stmt(xasprintf("UPDATE %s.usertable SET field%d = ? WHERE y_id = ?", ks, i));
        }
    } else {
        ddl[n_ddl++] =
            xasprintf("CREATE TABLE IF NOT EXISTS %s.kv (k varchar PRIMARY KEY, v blob)%s%s", ks,
                      with, o.table_options);
        st_insert = add_stmt(xasprintf("INSERT INTO %s.kv (k, v) VALUES (?, ?)", ks));
        st_select = add_stmt(xasprintf("SELECT v FROM %s.kv WHERE k = ?", ks));
    }
}


/* ---- requests ------------------------------------------------------------------------ */

static int16_t take_stream(conn_t *c, op_t op, int stmt, uint64_t start_ns, bool measured)
{
    BASE_ASSERT(c->n_free > 0);
    int16_t s = c->free_streams[--c->n_free];
    slot_t *sl = &c->slots[s];
    sl->op = (uint8_t)op;
    sl->stmt = (uint8_t)stmt;
    sl->start_ns = start_ns;
    sl->measured = measured;
    outstanding++;
    return s;
}


static const uint8_t *value_at(conn_t *c)
{
    return pool + keygen_rand(&c->kg) % VALUE_JITTER;
}


static void send_execute(conn_t *c, int16_t stream, int stmt, wire_value_t *vals, size_t n,
                         bool skip_metadata)
{
    wire_query_params_t p = {.consistency = WIRE_CL_LOCAL_ONE,
                             .flags = skip_metadata ? WIRE_QF_SKIP_METADATA : 0,
                             .n_values = n,
                             .values = vals};
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, 4, stream, WIRE_OP_EXECUTE);
    wire_encode_execute(&c->out, c->ids[stmt], c->id_len[stmt], &p);
    wire_request_end(&rb, o.lz4);
}


static void send_query(conn_t *c, int16_t stream, const char *q)
{
    wire_query_params_t p = {.consistency = WIRE_CL_LOCAL_ONE};
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, 4, stream, WIRE_OP_QUERY);
    wire_encode_query(&c->out, q, strlen(q), &p);
    wire_request_end(&rb, o.lz4);
}


static void send_prepare(conn_t *c, int16_t stream, const char *q)
{
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, 4, stream, WIRE_OP_PREPARE);
    wire_encode_prepare(&c->out, q, strlen(q));
    wire_request_end(&rb, o.lz4);
}


/* A write of key k: the kv insert, the YCSB load insert or a one-field update. */
static void send_write(conn_t *c, int16_t stream, uint64_t k, bool full_row)
{
    char key[32];
    size_t kl = format_key(key, k, is_ycsb(o.workload));
    wire_value_t vals[1 + YCSB_FIELDS];
    vals[0] = (wire_value_t){(const uint8_t *)key, (int32_t)kl};
    if (!is_ycsb(o.workload)) {
        vals[1] = (wire_value_t){value_at(c), (int32_t)o.value_size};
        c->slots[stream].stmt = (uint8_t)st_insert;
        send_execute(c, stream, st_insert, vals, 2, false);
    } else if (full_row) {
        for (int i = 0; i < YCSB_FIELDS; i++) {
            vals[1 + i] = (wire_value_t){value_at(c), (int32_t)field_size};
        }
        c->slots[stream].stmt = (uint8_t)st_y_insert;
        send_execute(c, stream, st_y_insert, vals, 1 + YCSB_FIELDS, false);
    } else {
        int f = (int)(keygen_rand(&c->kg) % YCSB_FIELDS);
        wire_value_t upd[2] = {{value_at(c), (int32_t)field_size}, vals[0]};
        c->slots[stream].stmt = (uint8_t)(st_y_update0 + f);
        send_execute(c, stream, st_y_update0 + f, upd, 2, false);
    }
}


static void send_read(conn_t *c, int16_t stream, uint64_t k)
{
    char key[32];
    size_t kl = format_key(key, k, is_ycsb(o.workload));
    wire_value_t vals[1] = {{(const uint8_t *)key, (int32_t)kl}};
    int st = is_ycsb(o.workload) ? st_y_read : st_select;
    c->slots[stream].stmt = (uint8_t)st;
    send_execute(c, stream, st, vals, 1, true);
}


static void send_options(conn_t *c, int16_t stream)
{
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, 4, stream, WIRE_OP_OPTIONS);
    wire_request_end(&rb, o.lz4);
}


/* Picks the next operation of the workload and sends it. */
static void send_op(conn_t *c, uint64_t start_ns, bool measured)
{
    bool read;
    switch (o.workload) {
    case W_INSERT:
        read = false;
        break;
    case W_SELECT:
    case W_YCSB_C:
        read = true;
        break;
    case W_MIXED:
        read = (int)(keygen_rand(&c->kg) % 100) < o.read_pct;
        break;
    case W_YCSB_A:
        read = keygen_rand(&c->kg) % 2 == 0;
        break;
    case W_NULL:
    default: {
        int16_t s = take_stream(c, OP_NULL, 0, start_ns, measured);
        send_options(c, s);
        return;
    }
    }
    uint64_t k = keygen_next(&c->kg);
    int16_t s = take_stream(c, read ? OP_READ : OP_WRITE, 0, start_ns, measured);
    if (read) {
        send_read(c, s, k);
    } else {
        send_write(c, s, k, false);
    }
}


/* Sends the requests made so far in this turn of the loop: the OpenSSL
 * bufferevent alone would write them once epoll reports the socket
 * writable, a turn later, turning write interest on and off each turn. */
static void flush(conn_t *c)
{
    if (c->out.len > 0) {
        if (bufferevent_write(c->bev, c->out.data, c->out.len) == 0) {
            event_active(&c->bev->ev_write, EV_WRITE, 1);
        }
        base_buf_reset(&c->out);
    }
}


/* Wakes c when its next request is due, but at most every --tick-us: a timer
 * per request would cost the client (and the server: one TLS record and one
 * read per request) more than the requests. Requests due within one tick
 * leave together, and each still counts its latency from its own due time. */
static void arm_timer(conn_t *c, uint64_t now)
{
    uint64_t wait = c->next_due_ns > now ? c->next_due_ns - now : 0;
    uint64_t tick = (uint64_t)(o.tick_us * 1000);
    wait = wait > tick ? wait : tick;
    struct timeval tv = {(time_t)(wait / 1000000000u), (suseconds_t)((wait % 1000000000u) / 1000)};
    evtimer_add(c->timer, &tv);
}


/* Issues whatever the phase allows on c's free streams. */
static void pump_from(conn_t *c, bool from_timer)
{
    if (c->state != CS_READY) {
        return;
    }
    uint64_t now = now_ns();
    switch (phase) {
    case PH_PREPARE:
        while (c->n_free > 0 && c->prep_next < n_stmts) {
            int st = c->prep_next++;
            send_prepare(c, take_stream(c, OP_PREPARE, st, now, false), stmts[st]);
        }
        break;
    case PH_PRELOAD:
        while (c->n_free > 0 && preload_next < o.keys) {
            int16_t s = take_stream(c, OP_PRELOAD, 0, now, false);
            send_write(c, s, preload_next++, true);
        }
        break;
    case PH_WARMUP:
    case PH_RUN:
        if (o.rate > 0) {
            if (!from_timer && !c->starved) {
                break; /* requests leave on the ticks; a response alone sends nothing */
            }
            while (c->n_free > 0 && c->next_due_ns <= now) {
                bool measured = phase == PH_RUN && c->next_due_ns >= res.run_start_ns;
                if (measured && o.requests > 0 && issued_measured >= o.requests) {
                    break;
                }
                issued_measured += measured;
                send_op(c, c->next_due_ns, measured);
                c->next_due_ns += c->interval_ns;
            }
            /* Out of streams with requests due: responses send them as they free streams. */
            c->starved = c->next_due_ns <= now;
            if (!evtimer_pending(c->timer, NULL)) {
                arm_timer(c, now);
            }
        } else {
            while (c->n_free > 0) {
                bool measured = phase == PH_RUN;
                if (measured && o.requests > 0 && issued_measured >= o.requests) {
                    break;
                }
                issued_measured += measured;
                send_op(c, now, measured);
            }
        }
        if (phase == PH_RUN && o.requests > 0 && issued_measured >= o.requests) {
            start_phase(PH_DRAIN);
        }
        break;
    default:
        break;
    }
    flush(c);
}


static void pump(conn_t *c)
{
    pump_from(c, false);
}


static void on_due(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    pump_from(arg, true);
}


/* ---- phases --------------------------------------------------------------------------- */

static void on_phase_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    if (phase == PH_WARMUP) {
        start_phase(PH_RUN);
    } else if (phase == PH_RUN) {
        start_phase(PH_DRAIN);
    } else if (phase == PH_DRAIN) {
        fprintf(stderr, "cosmos-bench: %llu requests still unanswered %d s after the run\n",
                (unsigned long long)outstanding, DRAIN_TIMEOUT_S);
        res.n_errors += outstanding;
        event_base_loopbreak(base);
    } else {
        loadgen_die("set-up did not finish within %d s (phase %d)", SETUP_TIMEOUT_S, (int)phase);
    }
}


static void phase_timer_in(double s)
{
    struct timeval tv = {(time_t)s, (suseconds_t)((s - floor(s)) * 1e6)};
    evtimer_add(phase_timer, &tv);
}


static void pump_all(void)
{
    for (int i = 0; i < o.connections; i++) {
        pump_from(&conns[i], true);
    }
}


static void start_phase(phase_t p)
{
    phase = p;
    switch (p) {
    case PH_SCHEMA:
        if (n_ddl == 0) {
            start_phase(PH_PREPARE);
            return;
        }
        send_query(&conns[0], take_stream(&conns[0], OP_DDL, 0, now_ns(), false), ddl[ddl_next++]);
        flush(&conns[0]);
        break;
    case PH_PREPARE:
        if (n_stmts == 0) {
            start_phase(o.preload ? PH_PRELOAD : PH_WARMUP);
            return;
        }
        pump_all();
        break;
    case PH_PRELOAD:
        fprintf(stderr, "cosmos-bench: preloading %llu keys\n", (unsigned long long)o.keys);
        phase_timer_in(SETUP_TIMEOUT_S + (double)o.keys / 1000.0); /* 1000 rows/s at worst */
        pump_all();
        break;
    case PH_WARMUP:
        if (o.rate > 0) {
            open_loop_start_ns = now_ns();
            for (int i = 0; i < o.connections; i++) {
                conn_t *c = &conns[i];
                c->interval_ns = (uint64_t)(1e9 * o.connections / o.rate);
                /* Stagger the connections so their requests interleave evenly. */
                c->next_due_ns =
                    open_loop_start_ns + c->interval_ns * (uint64_t)i / (uint64_t)o.connections;
            }
        }
        if (o.warmup <= 0) {
            start_phase(PH_RUN);
            return;
        }
        phase_timer_in(o.warmup);
        pump_all();
        break;
    case PH_RUN:
        res.run_start_ns = now_ns();
        res.last_done_ns = res.run_start_ns;
        res.client_cpu_us = loadgen_cpu_us(0);
        res.server_cpu_us = o.server_pid > 0 ? loadgen_cpu_us(o.server_pid) : -1;
        if (o.requests == 0) {
            phase_timer_in(o.duration);
        } else {
            evtimer_del(phase_timer);
        }
        pump_all();
        break;
    case PH_DRAIN:
        phase_timer_in(DRAIN_TIMEOUT_S);
        if (outstanding == 0) {
            event_base_loopbreak(base);
        }
        break;
    default:
        break;
    }
}


/* ---- responses ------------------------------------------------------------------------ */

static void count_error(int code, base_str_t msg)
{
    res.n_errors++;
    for (int i = 0; i < res.n_err_codes; i++) {
        if (res.err_counts[i].code == code) {
            res.err_counts[i].n++;
            return;
        }
    }
    if (res.n_err_codes < MAX_ERROR_CODES) {
        res.err_counts[res.n_err_codes].code = code;
        res.err_counts[res.n_err_codes].n = 1;
        snprintf(res.err_counts[res.n_err_codes].example, sizeof(res.err_counts[0].example), "%.*s",
                 (int)(msg.len > 150 ? 150 : msg.len), msg.ptr);
        res.n_err_codes++;
    }
}


static _Noreturn void setup_failed(conn_t *c, const char *what, const wire_reply_t *r)
{
    if (r->opcode == WIRE_OP_ERROR) {
        loadgen_die("connection %d: %s failed: error 0x%04x (%s): %.*s", c->idx, what,
                    r->u.error.code, wire_error_name(r->u.error.code), (int)r->u.error.message.len,
                    r->u.error.message.ptr);
    }
    loadgen_die("connection %d: %s: unexpected %s response", c->idx, what,
                wire_opcode_name(r->opcode));
}


static void send_startup(conn_t *c)
{
    static const char *const keys[] = {"CQL_VERSION", "COMPRESSION"};
    static const char *const values[] = {"3.4.4", "lz4"};
    wire_response_t rb;
    wire_request_begin(&rb, &c->out, 4, 0, WIRE_OP_STARTUP);
    wire_encode_startup(&c->out, keys, values, o.lz4 ? 2 : 1);
    wire_request_end(&rb, false); /* STARTUP itself is never compressed */
    flush(c);
}


static void became_ready(conn_t *c)
{
    c->state = CS_READY;
    if (++n_ready == o.connections) {
        start_phase(PH_SCHEMA);
    }
}


static void on_handshake_reply(conn_t *c, const wire_reply_t *r)
{
    if (c->state == CS_STARTUP && r->opcode == WIRE_OP_READY) {
        became_ready(c);
    } else if (c->state == CS_STARTUP && r->opcode == WIRE_OP_AUTHENTICATE) {
        size_t ul = strlen(o.user), kl = strlen(o.key);
        uint8_t *token = base_malloc(ul + kl + 2);
        token[0] = 0;
        memcpy(token + 1, o.user, ul);
        token[1 + ul] = 0;
        memcpy(token + 2 + ul, o.key, kl);
        wire_response_t rb;
        wire_request_begin(&rb, &c->out, 4, 0, WIRE_OP_AUTH_RESPONSE);
        wire_encode_auth_response(&c->out, token, (int32_t)(ul + kl + 2));
        wire_request_end(&rb, o.lz4);
        base_free(token);
        flush(c);
        c->state = CS_AUTH;
    } else if (c->state == CS_AUTH && r->opcode == WIRE_OP_AUTH_SUCCESS) {
        became_ready(c);
    } else {
        setup_failed(c, c->state == CS_STARTUP ? "STARTUP" : "authentication", r);
    }
}


/* --slow-ms: the current stall, the union of the slow responses whose
 * [sent, answered] intervals overlap. In a closed loop a server stall shows
 * as every request in flight answered late, interleaved with quick answers
 * on other connections, so one line per stall says when it began and how
 * bad it was. */
static struct {
    uint64_t n, worst_ns, first_sent_ns, last_done_ns;
} slow;

/* What the pause probe notes: late wake-ups of half the --slow-ms
 * threshold, up to 5 ms (a late wake-up of a few ms is scheduling on a
 * busy machine; a pause that explains a stall is a good part of it). */
static uint64_t probe_late_ns(void)
{
    double ns = o.slow_ms * 1e6 / 2;
    return ns < 5e6 ? (uint64_t)ns : 5000000u;
}

static void slow_report(void)
{
    if (slow.n == 0) {
        return;
    }
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t real_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
    uint64_t sent_ns = real_ns - (now_ns() - slow.first_sent_ns);
    time_t sec = (time_t)(sent_ns / 1000000000u);
    struct tm tm;
    gmtime_r(&sec, &tm);
    fprintf(stderr,
            "cosmos-bench: slow: %llu responses over %g ms, worst %.1f ms, the first sent at "
            "%02d:%02d:%02d.%03dZ (+%.3f s)",
            (unsigned long long)slow.n, o.slow_ms, (double)slow.worst_ns / 1e6, tm.tm_hour,
            tm.tm_min, tm.tm_sec, (int)(sent_ns / 1000000u % 1000u),
            ((double)slow.first_sent_ns - (double)res.run_start_ns) / 1e9);
    uint64_t late = probe_late_within(slow.first_sent_ns, slow.last_done_ns);
    if (late > 0) {
        fprintf(stderr, "; meanwhile the pause probe woke %.1f ms late", (double)late / 1e6);
    }
    uint64_t steal = probe_steal_within(slow.first_sent_ns, slow.last_done_ns);
    if (steal > 0) {
        fprintf(stderr, "; the host's steal meanwhile %.0f ms", (double)steal / 1e6);
    }
    fputc('\n', stderr);
    slow.n = 0;
}

static void slow_note(uint64_t sent_ns, uint64_t lat)
{
    if (lat < (uint64_t)(o.slow_ms * 1e6)) {
        return;
    }
    if (slow.n > 0 && sent_ns > slow.last_done_ns) {
        slow_report(); /* a new stall: the last one's answers were all in before this left */
    }
    bool first = slow.n++ == 0;
    slow.first_sent_ns = first || sent_ns < slow.first_sent_ns ? sent_ns : slow.first_sent_ns;
    slow.last_done_ns =
        first || sent_ns + lat > slow.last_done_ns ? sent_ns + lat : slow.last_done_ns;
    slow.worst_ns = first || lat > slow.worst_ns ? lat : slow.worst_ns;
}


static void record(const slot_t *sl, const wire_reply_t *r, uint64_t now)
{
    uint64_t lat = now > sl->start_ns ? now - sl->start_ns : 0;
    res.last_done_ns = now;
    if (o.slow_ms > 0) {
        slow_note(sl->start_ns, lat);
    }
    if (r->opcode == WIRE_OP_ERROR) {
        count_error(r->u.error.code, r->u.error.message);
        return;
    }
    res.n_ok++;
    hist_record(&res.h_all, lat);
    if (sl->op == OP_READ) {
        res.n_reads++;
        hist_record(&res.h_read, lat);
        if (r->opcode == WIRE_OP_RESULT && r->u.result.kind == WIRE_RESULT_ROWS &&
            r->u.result.n_rows == 0) {
            res.n_empty_reads++;
        }
    } else if (sl->op == OP_WRITE) {
        res.n_writes++;
        hist_record(&res.h_write, lat);
    }
    double ru;
    if (wire_reply_payload_double(r, "RequestCharge", &ru)) {
        res.ru_sum += ru;
        res.ru_n++;
    }
    if (r->n_warnings > 0) {
        res.n_warned++;
        if (res.first_warning[0] == '\0') {
            snprintf(res.first_warning, sizeof(res.first_warning), "%.*s",
                     (int)(r->warnings[0].len > 190 ? 190 : r->warnings[0].len),
                     r->warnings[0].ptr);
        }
    }
}


static void on_reply(conn_t *c, const wire_header_t *h, const wire_reply_t *r, uint64_t now)
{
    if (c->state != CS_READY) {
        on_handshake_reply(c, r);
        return;
    }
    if (h->stream < 0 || h->stream >= o.inflight || c->slots[h->stream].op == OP_FREE) {
        if (h->stream == -1) {
            return; /* a pushed EVENT; we never REGISTER, but harmless */
        }
        loadgen_die("connection %d: response on stream %d that has no request", c->idx, h->stream);
    }
    slot_t *sl = &c->slots[h->stream];
    slot_t done = *sl;
    sl->op = OP_FREE;
    c->free_streams[c->n_free++] = h->stream;
    outstanding--;

    switch (done.op) {
    case OP_DDL:
        if (r->opcode != WIRE_OP_RESULT) {
            setup_failed(c, ddl[ddl_next - 1], r);
        }
        if (ddl_next < n_ddl) {
            send_query(c, take_stream(c, OP_DDL, 0, now, false), ddl[ddl_next++]);
            flush(c);
        } else {
            start_phase(PH_PREPARE);
        }
        return;
    case OP_PREPARE:
        if (r->opcode != WIRE_OP_RESULT || r->u.result.kind != WIRE_RESULT_PREPARED ||
            r->u.result.id.len <= 0 || r->u.result.id.len > 16) {
            setup_failed(c, stmts[done.stmt], r);
        }
        memcpy(c->ids[done.stmt], r->u.result.id.ptr, (size_t)r->u.result.id.len);
        c->id_len[done.stmt] = (uint16_t)r->u.result.id.len;
        if (++c->n_prepared == n_stmts && ++n_prepared_conns == o.connections) {
            start_phase(o.preload ? PH_PRELOAD : PH_WARMUP);
        }
        return;
    case OP_PRELOAD:
        if (r->opcode != WIRE_OP_RESULT) {
            setup_failed(c, "preload", r);
        }
        if (preload_next >= o.keys && outstanding == 0) {
            start_phase(PH_WARMUP);
        }
        return;
    default:
        break;
    }
    if (done.measured) {
        record(&done, r, now);
    }
    if (phase == PH_DRAIN && outstanding == 0) {
        event_base_loopbreak(base);
    }
}


/* Handles every complete frame in the input; then refills the streams. */
static void on_read(struct bufferevent *bev, void *arg)
{
    conn_t *c = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    if (!o.tls) {
        emu_plain_drain(bev, EMU_PLAIN_DRAIN_MAX); /* past libevent's 4 KB a read */
    }
    for (;;) {
        size_t avail = evbuffer_get_length(in);
        uint8_t hdr[WIRE_HEADER_SIZE];
        if (avail < WIRE_HEADER_SIZE) {
            break;
        }
        evbuffer_copyout(in, hdr, WIRE_HEADER_SIZE);
        wire_header_t h;
        base_error_t err;
        if (wire_header_decode(&h, hdr, WIRE_HEADER_SIZE, MAX_FRAME, &err) != BASE_OK) {
            loadgen_die("connection %d: %s", c->idx, err.msg);
        }
        if (avail - WIRE_HEADER_SIZE < h.length) {
            break;
        }
        uint8_t *frame = evbuffer_pullup(in, (ev_ssize_t)(WIRE_HEADER_SIZE + h.length));
        const uint8_t *body = frame + WIRE_HEADER_SIZE;
        size_t len = h.length;
        uint8_t *plain = NULL;
        if (h.flags & WIRE_FLAG_COMPRESSION) {
            if (wire_lz4_decompress(body, len, MAX_FRAME, &plain, &len, &err) != BASE_OK) {
                loadgen_die("connection %d: %s", c->idx, err.msg);
            }
            body = plain;
        }
        wire_reply_t r;
        if (wire_reply_decode(&r, &h, body, len, &c->arena, &err) != BASE_OK) {
            loadgen_die("connection %d: %s", c->idx, err.msg);
        }
        on_reply(c, &h, &r, now_ns());
        base_free(plain);
        base_arena_reset(&c->arena);
        evbuffer_drain(in, WIRE_HEADER_SIZE + h.length);
    }
    pump(c);
}


static void on_event(struct bufferevent *bev, short what, void *arg)
{
    conn_t *c = arg;
    if (what & BEV_EVENT_CONNECTED) {
        return;
    }
    int sock_err = EVUTIL_SOCKET_ERROR();
    unsigned long e = o.tls ? bufferevent_get_openssl_error(bev) : 0;
    char tls[256] = "";
    if (e != 0) {
        ERR_error_string_n(e, tls, sizeof(tls));
    }
    if (what & BEV_EVENT_EOF) {
        loadgen_die("connection %d: closed by the server%s%s", c->idx, tls[0] ? ": " : "", tls);
    }
    loadgen_die("connection %d: %s", c->idx,
                tls[0] ? tls : evutil_socket_error_to_string(sock_err));
}


/* ---- connections ------------------------------------------------------------------------ */

static int tcp_connect(void)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *ais;
    char port[16];
    snprintf(port, sizeof(port), "%d", o.port);
    int rc = getaddrinfo(o.host, port, &hints, &ais);
    if (rc != 0) {
        loadgen_die("cannot resolve %s: %s", o.host, gai_strerror(rc));
    }
    int fd = -1;
    for (struct addrinfo *ai = ais; ai != NULL && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ais);
    if (fd < 0) {
        loadgen_die("cannot connect to %s:%d: %s", o.host, o.port, strerror(errno));
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    evutil_make_socket_nonblocking(fd);
    return fd;
}


static void conn_open(conn_t *c, int idx)
{
    c->idx = idx;
    c->state = CS_STARTUP;
    c->slots = base_calloc((size_t)o.inflight, sizeof(*c->slots));
    c->free_streams = base_malloc((size_t)o.inflight * sizeof(*c->free_streams));
    for (int s = 0; s < o.inflight; s++) {
        c->free_streams[s] = (int16_t)(o.inflight - 1 - s); /* stream 0 is taken first */
    }
    c->n_free = o.inflight;
    base_buf_init(&c->out);
    base_arena_init(&c->arena, 64 * 1024);
    keygen_init(&c->kg, o.keys, o.zipfian, o.seed + (uint64_t)idx * 7919);
    c->timer = evtimer_new(base, on_due, c);

    int fd = tcp_connect();
    if (o.tls) {
        SSL *ssl = SSL_new(ssl_ctx);
        if (ssl == NULL) {
            loadgen_die("SSL_new: %s", ssl_error_text());
        }
        struct in6_addr ip;
        bool is_ip = inet_pton(AF_INET, o.host, &ip) == 1 || inet_pton(AF_INET6, o.host, &ip) == 1;
        if (o.ca != NULL) {
            X509_VERIFY_PARAM *vp = SSL_get0_param(ssl);
            if ((is_ip ? X509_VERIFY_PARAM_set1_ip_asc(vp, o.host)
                       : X509_VERIFY_PARAM_set1_host(vp, o.host, 0)) != 1) {
                loadgen_die("cannot set the name to verify: %s", ssl_error_text());
            }
        }
        if (!is_ip) {
            SSL_set_tlsext_host_name(ssl, o.host);
        }
        c->bev = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_CONNECTING,
                                                BEV_OPT_CLOSE_ON_FREE);
        if (c->bev != NULL) {
            bufferevent_openssl_set_allow_dirty_shutdown(c->bev, 1);
        }
    } else if ((c->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE)) != NULL) {
        emu_plain_tune(c->bev);
    }
    if (c->bev == NULL) {
        loadgen_die("cannot create the connection's bufferevent");
    }
    bufferevent_set_max_single_read(c->bev, 256 * 1024);
    bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
    bufferevent_enable(c->bev, EV_READ | EV_WRITE);
    send_startup(c);
}


static void conn_close(conn_t *c)
{
    if (c->bev != NULL) {
        bufferevent_free(c->bev);
    }
    if (c->timer != NULL) {
        event_free(c->timer);
    }
    base_free(c->slots);
    base_free(c->free_streams);
    base_buf_fini(&c->out);
    base_arena_fini(&c->arena);
}


static void tls_setup(void)
{
    ssl_ctx = SSL_CTX_new(TLS_client_method());
    if (ssl_ctx == NULL) {
        loadgen_die("SSL_CTX_new: %s", ssl_error_text());
    }
    SSL_CTX_set_min_proto_version(ssl_ctx, TLS1_2_VERSION);
    if (o.ca != NULL) {
        if (SSL_CTX_load_verify_locations(ssl_ctx, o.ca, NULL) != 1) {
            loadgen_die("cannot load the CA %s: %s", o.ca, ssl_error_text());
        }
        SSL_CTX_set_verify(ssl_ctx, SSL_VERIFY_PEER, NULL);
    } else {
        SSL_CTX_set_verify(ssl_ctx, SSL_VERIFY_NONE, NULL);
    }
}


static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    (void)arg;
    fprintf(stderr, "cosmos-bench: interrupted; reporting what was measured\n");
    if (phase == PH_RUN || phase == PH_DRAIN) {
        res.n_errors += outstanding;
    }
    event_base_loopbreak(base);
}


int main(int argc, char **argv)
{
    loadgen_parse_args(argc, argv, &o);
    signal(SIGPIPE, SIG_IGN);
    build_statements();
    field_size = is_ycsb(o.workload)
                     ? (o.value_size / YCSB_FIELDS > 0 ? o.value_size / YCSB_FIELDS : 1)
                     : o.value_size;
    /* Printable random bytes: valid varchar for YCSB, and no free lunch for lz4. */
    size_t pool_len = o.value_size + VALUE_JITTER;
    pool = base_malloc(pool_len);
    keygen_t pk;
    keygen_init(&pk, 1, false, o.seed ^ 0xABCDEF);
    for (size_t i = 0; i < pool_len; i++) {
        pool[i] = (uint8_t)('!' + keygen_rand(&pk) % 94);
    }
    hist_init(&res.h_all);
    hist_init(&res.h_read);
    hist_init(&res.h_write);

    struct event_config *cfg = event_config_new();
    event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
    /* write interest turned on and off in one turn (flush) costs no epoll_ctl */
    event_config_set_flag(cfg, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
    base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    if (base == NULL) {
        loadgen_die("cannot create the event loop");
    }
    if (o.tls) {
        tls_setup();
    }
    phase_timer = evtimer_new(base, on_phase_timer, NULL);
    sig_event = evsignal_new(base, SIGINT, on_signal, NULL);
    evsignal_add(sig_event, NULL);
    phase_timer_in(SETUP_TIMEOUT_S);

    conns = base_calloc((size_t)o.connections, sizeof(*conns));
    for (int i = 0; i < o.connections; i++) {
        conn_open(&conns[i], i);
    }
    if (o.slow_ms > 0 && !probe_start(probe_late_ns())) {
        loadgen_die("cannot start the pause probe's thread");
    }
    event_base_dispatch(base);
    if (phase < PH_RUN) {
        loadgen_die("interrupted before the measured phase");
    }
    res.client_cpu_us = loadgen_cpu_since(0, res.client_cpu_us);
    res.server_cpu_us = loadgen_cpu_since(o.server_pid, res.server_cpu_us);
    slow_report();
    if (o.slow_ms > 0) {
        probe_stop();
        uint64_t n, worst;
        probe_totals(&n, &worst);
        fprintf(stderr,
                "cosmos-bench: pause probe: %llu wake-up%s %.1f ms or more late, the worst "
                "%.1f ms\n",
                (unsigned long long)n, n == 1 ? "" : "s", (double)probe_late_ns() / 1e6,
                (double)worst / 1e6);
    }
    loadgen_report(&o, &res);

    for (int i = 0; i < o.connections; i++) {
        conn_close(&conns[i]);
    }
    base_free(conns);
    event_free(phase_timer);
    event_free(sig_event);
    event_base_free(base);
    SSL_CTX_free(ssl_ctx);
    base_free(pool);
    for (int i = 0; i < n_stmts; i++) {
        base_free((void *)stmts[i]);
    }
    for (int i = 0; i < n_ddl; i++) {
        base_free((void *)ddl[i]);
    }
    return res.n_errors > 0 ? 1 : 0;
}
