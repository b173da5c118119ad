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
 * Accepting: past --max-connections a connection is accepted and closed at
 * once. When accept(2) itself fails (out of descriptors) the listener is
 * paused with a growing back-off instead of being retried at once, and a
 * reserve descriptor lets the pending connection be closed cleanly; both
 * floods log one line a second (on_accept_error).
 *
 * SIGHUP reopens the log file (logrotate moves it, then signals) and keeps
 * serving; it used to kill the process without a line or a checkpoint.
 *
 * Shutdown (SIGINT/SIGTERM): stop accepting, ask every connection to flush
 * and close, leave the loop when the last one is gone (or after a short
 * grace period), then free everything, so ASan's leak check stays clean.
 *
 * Start-up: the CQL socket is bound (a taken port fails at once, but not
 * listened on) and the admin endpoint started before storage is opened,
 * and the engine is built (and durable storage recovered) on a worker
 * thread while the loop serves the admin endpoint alone, so GET /healthz
 * answers "starting"/"recovering" instead of hanging. The loop thread
 * touches neither storage, the engine nor the meter's tables until the
 * worker is joined (the admin endpoint answers 503 to the routes that
 * would); then listen(2) is called, /healthz turns "ok" and "ready" is
 * logged. Until then a CQL connect is refused (drivers retry it), and a
 * start-up whose storage fails never accepted anything.
 *
 * Acknowledgements wait for the commit log (conn.c): storage's log thread
 * writes the records each connection's read produced (write-behind) and,
 * under --fsync always, fdatasyncs them (group commit), while the loop goes
 * on serving; connections park their answers until the log covers them,
 * and the thread's eventfd wakes the loop to release them. Under --fsync
 * periodic the thread also syncs every --fsync-interval-ms (the loss window
 * on a power cut). So a file system stall holds answers back, not the loop.
 * When the thread fails (a full disk), CQL stops for good (stop_serving).
 *
 * Durable storage (--storage durable): storage keeps its commit log and
 * snapshots in <data-dir>/data and cql its schema log beside them. The
 * schema is restored before the loop runs, so no request sees a partial
 * one; a timer snapshots the data once the commit log passes both
 * --checkpoint-log-mb and the data's size (storage_db_checkpoint_due:
 * a snapshot rewrites everything, so it must not run more often than the
 * log earns it), and a graceful shutdown snapshots it too, so the
 * next start reads one compact snapshot instead of a long log.
 */
#include "emulator/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "emulator/admin.h"
#include "emulator/conn.h"
#include "emulator/log.h"
#include "emulator/telemetry.h"
#include "emulator/tls.h"

#define DRAIN_TIMEOUT_SEC   2
#define ACCEPT_PAUSE_MIN_MS 100  /* accept failing (EMFILE): the first pause ... */
#define ACCEPT_PAUSE_MAX_MS 1000 /* ... doubling up to this */
#define LIMITED_LOG_MS      1000 /* a flood's line, at most once a second */
#define FD_HEADROOM         64   /* descriptors besides connections: logs, storage, admin */
#define CHECKPOINT_CHECK_MS 250  /* how often the commit log's size is looked at ... */
#define CHECKPOINT_GAP_MS   2000 /* ... with checkpoint starts at least this far apart */
#define DISK_WAITS_EVERY_MS 2000 /* the disk's warning, at most this often */
#define CHECKPOINT_SLICE_US 1000 /* snapshot written per turn of the loop */
#define TIDY_EVERY_MS       10   /* small-page chunks moved this far apart (~0.7 ms each) */
#define DATA_SUBDIR         "data"
#define SCHEMA_LOG_FILE     "schema.log"
/* Tests only: while this file exists the commit log's sync thread waits before
 * each fdatasync, so a test can see that --fsync always holds answers back
 * until their fdatasync, without depending on how long one takes. */
#define SYNC_GATE_ENV       "COSMOS_EMULATOR_TEST_SYNC_GATE"
/* Tests only: the same for the commit log's writer thread, before each write:
 * answers wait for the write that covers them, the loop goes on. */
#define WRITE_GATE_ENV      "COSMOS_EMULATOR_TEST_WRITE_GATE"
/* Tests only: the worker waits this long first, so a test can watch /healthz say
 * "starting" or "recovering" without depending on how long a recovery takes. */
#define START_DELAY_ENV     "COSMOS_EMULATOR_TEST_START_DELAY_MS"

/* The start-up worker (see the top of the file). */
typedef struct emu_startup_s {
    emu_server_t *s;
    struct sockaddr_storage addr; /* the bound CQL address, for system.local */
    pthread_t thread;
    int pipe[2];        /* the worker writes one byte to [1] when it is done */
    struct event *done; /* on [0], on the loop */
    int rc;             /* BASE_OK or BASE_ERROR, read after the join */
    long delay_ms;
} emu_startup_t;

static int start_engine(emu_server_t *s, const struct sockaddr_storage *ss);
static void announce(emu_server_t *s);

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *addr,
                      int addr_len, void *arg)
{
    (void)l;
    emu_server_t *s = arg;
    s->accept_pause_ms = 0; /* descriptors are back: the next shortage starts short again */
    if (s->n_conns >= (size_t)s->cfg->max_connections) {
        /* Accepted and closed at once: the client sees the connection end
         * (a driver reports a connection error) instead of waiting in the
         * backlog, and the flood costs one rate-limited line. */
        evutil_closesocket(fd);
        s->refused_conns++;
        emu_log_limited(&s->conn_limit_log, LIMITED_LOG_MS, EMU_LOG_WARN, 0,
                        "refused a connection: --max-connections %d reached",
                        s->cfg->max_connections);
        return;
    }
    /* Responses are whole frames written at once: Nagle would hold the tail of
     * one back for the client's delayed ACK (40 ms stalls under load). */
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    emu_conn_accept(s, fd, addr, addr_len);
}

/* Out of descriptors, the pending connection cannot be accepted, so the
 * listener stays readable: give the reserve descriptor up for a moment to
 * accept that connection and close it (its client sees a clean close, not a
 * hang), then take the reserve back. */
static void shed_one(emu_server_t *s)
{
    if (s->reserve_fd < 0) {
        return;
    }
    close(s->reserve_fd);
    s->reserve_fd = -1;
    /* cppcheck-suppress nullPointer ; accept4(2) takes NULL for the peer address and length */
    evutil_socket_t fd = accept4(evconnlistener_get_fd(s->listener), NULL, NULL, SOCK_CLOEXEC);
    if (fd >= 0) {
        evutil_closesocket(fd);
        s->refused_conns++;
    }
    s->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void on_accept_resume(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    if (s->listener != NULL && !s->stopping) {
        evconnlistener_enable(s->listener);
    }
}

/*
 * accept(2) failed with something other than "try again": EMFILE, ENFILE,
 * ENOBUFS, ENOMEM. Retrying on the next readiness (at once: the listener is
 * level-triggered) would spin a core and flood the log, so the listener is
 * paused, 100 ms first and twice as long each time up to 1 s, as nginx and
 * libevent's evconnlistener error callback allow; one line per second says
 * how often it happened.
 */
static void on_accept_error(struct evconnlistener *l, void *arg)
{
    emu_server_t *s = arg;
    int e = EVUTIL_SOCKET_ERROR();
    s->accept_pause_ms = s->accept_pause_ms == 0                        ? ACCEPT_PAUSE_MIN_MS
                         : s->accept_pause_ms * 2 > ACCEPT_PAUSE_MAX_MS ? ACCEPT_PAUSE_MAX_MS
                                                                        : s->accept_pause_ms * 2;
    if (e == EMFILE || e == ENFILE) {
        shed_one(s);
    }
    emu_log_limited(&s->accept_log, LIMITED_LOG_MS, EMU_LOG_WARN, 0,
                    "accept failed: %s (%zu connections open, %llu refused so far); pausing the "
                    "listener for %d ms",
                    evutil_socket_error_to_string(e), s->n_conns,
                    (unsigned long long)s->refused_conns, s->accept_pause_ms);
    struct timeval tv = {s->accept_pause_ms / 1000, (s->accept_pause_ms % 1000) * 1000};
    if (evtimer_add(s->accept_timer, &tv) == 0) {
        evconnlistener_disable(l);
    }
}

/* Redis does the same: the soft descriptor limit is raised towards the hard
 * one, so --max-connections rather than a default ulimit of 1024 is what
 * bounds the clients. A lower limit is logged; accept then pauses when it runs
 * out instead of failing. */
static void raise_fd_limit(const emu_config_t *cfg)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)cfg->max_connections + FD_HEADROOM;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= want) {
        return;
    }
    rlim_t old = rl.rlim_cur;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
    if (rl.rlim_cur > old && setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        rl.rlim_cur = old;
    }
    if (rl.rlim_cur < want) {
        emu_log(EMU_LOG_INFO, 0,
                "open files limited to %llu (ulimit -n): fewer than --max-connections %d; "
                "accepting pauses when they run out",
                (unsigned long long)rl.rlim_cur, cfg->max_connections);
    }
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
    emu_admin_set_health(s->admin, EMU_HEALTH_STOPPING);
    if (s->startup != NULL) {
        /* the worker cannot be interrupted: the loop ends once it is done */
        emu_log(EMU_LOG_INFO, 0, "%s: shutting down once start-up is done",
                sig == SIGINT ? "SIGINT" : "SIGTERM");
        return;
    }
    emu_log(EMU_LOG_INFO, 0, "%s: shutting down (%zu connection(s))",
            sig == SIGINT ? "SIGINT" : "SIGTERM", s->n_conns);
    if (s->listener != NULL) {
        evconnlistener_free(s->listener);
        s->listener = NULL;
    }
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

static void on_sighup(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    const emu_server_t *s = arg;
    if (s->cfg->log_file == NULL) {
        emu_log(EMU_LOG_INFO, 0, "SIGHUP: logging to stderr, nothing to reopen; still serving");
        return;
    }
    if (emu_log_reopen() == 0) { /* a failure is logged, and the old file kept */
        emu_log(EMU_LOG_INFO, 0, "SIGHUP: log file %s reopened; still serving", s->cfg->log_file);
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

/* Binds the CQL socket without listening: until listen(2) the kernel
 * refuses connections, so nothing is accepted (not even into the backlog)
 * before storage is recovered, and a start-up that fails leaves nothing
 * that ever accepted. A taken port still fails here, at once. */
static int bind_cql(emu_server_t *s, struct sockaddr_storage *ss)
{
    socklen_t len;
    if (resolve(s->cfg, ss, &len) != BASE_OK) {
        return BASE_ERROR;
    }
    s->listen_fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s->listen_fd < 0 || evutil_make_listen_socket_reuseable(s->listen_fd) != 0 ||
        bind(s->listen_fd, (struct sockaddr *)ss, len) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot listen on %s:%d: %s", s->cfg->bind, s->cfg->port,
                strerror(errno));
        return BASE_ERROR;
    }
    /* --port 0 picks a free port: report the one the kernel chose. */
    len = sizeof(*ss);
    getsockname(s->listen_fd, (struct sockaddr *)ss, &len);
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

/* The event loop; NULL on failure. bench/null-responder.c makes its own the
 * same way, so the yardstick differs from the emulator only by the engine. */
static struct event_base *base_new(void)
{
    /* epoll's changelist: the OpenSSL bufferevent turns write interest on
     * and off around every flush, two epoll_ctl calls per wake-up; batched
     * per turn of the loop they cancel out, and a wake-up makes one fewer
     * system call. (Its caveat, fds cloned by dup(), does not arise: no
     * socket here is duplicated.) */
    struct event_config *ec = event_config_new();
    if (ec == NULL) {
        return NULL;
    }
    event_config_set_flag(ec, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
    struct event_base *base = event_base_new_with_config(ec);
    event_config_free(ec);
    return base;
}

/* Snapshot + new commit log, logged with what it took. */
static int checkpoint(emu_server_t *s, const char *why)
{
    base_error_t err;
    uint64_t log_bytes = storage_db_log_bytes(s->db);
    int64_t t0 = base_mono_us();
    if (storage_db_checkpoint(s->db, &err) != BASE_OK) {
        emu_telemetry_checkpoint(false, 0);
        emu_log(EMU_LOG_ERROR, 0, "checkpoint (%s) failed: %s", why, err.msg);
        return BASE_ERROR;
    }
    emu_telemetry_checkpoint(true, base_mono_us() - t0);
    emu_log(EMU_LOG_INFO, 0,
            "checkpoint (%s): %.1f MB of commit log folded into a snapshot in %lld ms", why,
            (double)log_bytes / (1024.0 * 1024.0), (long long)((base_mono_us() - t0) / 1000));
    return BASE_OK;
}

/* The background checkpoint ended (rc BASE_OK or BASE_ERROR): log and count it. */
static void checkpoint_ended(emu_server_t *s, int rc, const base_error_t *err)
{
    int64_t took = base_mono_us() - s->checkpoint_started_us;
    if (rc != BASE_OK) {
        emu_telemetry_checkpoint(false, 0);
        emu_log(EMU_LOG_ERROR, 0, "background checkpoint failed: %s", err->msg);
        return;
    }
    emu_telemetry_checkpoint(true, took);
    emu_log(EMU_LOG_INFO, 0,
            "checkpoint (commit log past the data): %.1f MB of commit log folded into a snapshot "
            "in %lld ms, written between requests",
            (double)s->checkpoint_log_bytes / (1024.0 * 1024.0), (long long)(took / 1000));
}

/* One slice of the background checkpoint, then back to the requests: the
 * timer fires once the loop has served what was ready, so under load the
 * loop alternates a round of requests with CHECKPOINT_SLICE_US of snapshot. */
static void on_checkpoint_step(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    base_error_t err;
    int next_ms = 0;
    int rc = storage_db_checkpoint_step(s->db, CHECKPOINT_SLICE_US, &next_ms, &err);
    if (rc != BASE_AGAIN) {
        checkpoint_ended(s, rc, &err);
        return;
    }
    struct timeval tv = {0, next_ms * 1000};
    if (evtimer_add(s->checkpoint_step, &tv) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot schedule the checkpoint; it finishes at shutdown");
    }
}

/* Requests held while the loop waited for the commit log's threads (a disk
 * too slow for the write rate): a warning per DISK_WAITS_EVERY_MS at most,
 * as Cassandra warns of commit log syncs over their interval; the totals are
 * in /metrics. */
static void report_disk_waits(emu_server_t *s, int64_t now_us)
{
    if (now_us - s->disk_waits_us < DISK_WAITS_EVERY_MS * 1000LL) {
        return;
    }
    s->disk_waits_us = now_us;
    storage_disk_waits_t now;
    storage_db_disk_waits(s->db, &now);
    uint64_t n = now.count - s->disk_waits.count;
    if (n > 0) {
        emu_log(EMU_LOG_WARN, 0,
                "commit log: the disk fell behind the writes; requests waited for it %llu "
                "time%s in the last %d s, %.1f ms in all",
                (unsigned long long)n, n == 1 ? "" : "s", DISK_WAITS_EVERY_MS / 1000,
                (double)(now.total_us - s->disk_waits.total_us) / 1000.0);
    }
    s->disk_waits = now;
}

/*
 * Every CHECKPOINT_CHECK_MS: start a checkpoint once the log has grown past
 * the data; the loop writes it between requests (on_checkpoint_step). The
 * log is looked at often so that a checkpoint starts near the threshold: a
 * recovery replays the log since the last snapshot, and with the size looked
 * at every 2 s a gigabyte table's checkpoints started with 1.27-1.40 GB of
 * log instead of about one (200k 1 KB inserts a second), each such overshoot
 * half a second more of replay after a crash. The gap keeps a small table
 * (whose log passes it within a fraction of a second) from being rewritten
 * more often than before.
 */
static void on_checkpoint_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    base_error_t err;
    int64_t t0 = base_mono_us();
    report_disk_waits(s, t0);
    if (s->stopping || storage_db_checkpoint_running(s->db) ||
        t0 - s->checkpoint_started_us < CHECKPOINT_GAP_MS * 1000LL ||
        !storage_db_checkpoint_due(s->db, s->cfg->checkpoint_log)) {
        return;
    }
    uint64_t log_bytes = storage_db_log_bytes(s->db);
    s->checkpoint_started_us = t0; /* a failed start waits the gap too */
    if (storage_db_checkpoint_start(s->db, &err) != BASE_OK) {
        emu_telemetry_checkpoint(false, 0);
        emu_log(EMU_LOG_ERROR, 0, "checkpoint (commit log past the data) failed: %s", err.msg);
        return;
    }
    s->checkpoint_log_bytes = log_bytes;
    emu_log(EMU_LOG_DEBUG, 0, "background checkpoint started (%lld us to switch logs)",
            (long long)(base_mono_us() - t0));
    on_checkpoint_step(-1, 0, s);
}

/*
 * Tables that grew faster than the reserve thread touched memory for them
 * hold chunks of small pages (storage/slab.c says why); while any wait, one
 * is moved into a huge page every TIDY_EVERY_MS, when the reserve has one
 * to spare and no table took a chunk since the last try. A move costs the
 * loop 0.6-1.1 ms (the median over runs: a 2 MB copy), against selects
 * 5-10% slower over a 1 GB table a third of whose chunks stayed small (for
 * khugepaged: minutes). The timer is armed only while some wait, so an
 * idle emulator never wakes for it.
 */
static void on_tidy(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    (void)storage_db_tidy(s->db);
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

const char *emu_server_fsync_name(storage_sync_t mode)
{
    switch (mode) {
    case STORAGE_SYNC_GROUP:
    case STORAGE_SYNC_ALWAYS:
        return "always";
    case STORAGE_SYNC_PERIODIC:
        return "periodic";
    default:
        return "never";
    }
}

/* The test gates' files (SYNC_GATE_ENV, WRITE_GATE_ENV), NULL when unset. */
typedef struct gates_s {
    const char *sync;
    const char *write;
} gates_t;

static void wait_gate(const char *path)
{
    struct timespec ts = {0, 5 * 1000000L};
    while (access(path, F_OK) == 0) {
        nanosleep(&ts, NULL);
    }
}

/* The log threads' test hooks. */
static void sync_gate(void *arg)
{
    wait_gate(((const gates_t *)arg)->sync);
}

static void write_gate(void *arg)
{
    wait_gate(((const gates_t *)arg)->write);
}

/*
 * The commit log's thread could not write or sync (a full disk, an I/O
 * error): what it had not written never will be, yet memory holds those
 * writes, and any answer from here on may have seen them, so none can be
 * sent honestly again. Left alone, every connection closed at its first
 * answer and a driver's connect timed out while /healthz said "ok". As
 * Cassandra's commit_failure_policy "stop" does, CQL stops: connections
 * closed, the listener too (a connect is refused at once), /healthz "failed"
 * with the reason, the admin endpoint kept for inspection; the exit status
 * says so. Every acknowledged write is on disk.
 */
static void stop_serving(emu_server_t *s)
{
    int errnum = 0;
    const char *what = storage_db_sync_failure(s->db, &errnum);
    if (s->storage_failed || what == NULL) {
        return;
    }
    s->storage_failed = true;
    char reason[160];
    snprintf(reason, sizeof(reason), "commit log %s: %s", what, strerror(errnum));
    emu_admin_set_failed(s->admin, reason);
    emu_log(EMU_LOG_ERROR, 0,
            "%s: CQL is no longer served (%zu connection(s) closed, new ones refused), as "
            "Cassandra's commit_failure_policy stop does; every acknowledged write is on disk. "
            "Free the disk, then restart the emulator",
            reason, s->n_conns);
    if (s->listener != NULL) {
        evconnlistener_free(s->listener);
        s->listener = NULL;
    }
    if (s->checkpoint_timer != NULL) {
        evtimer_del(s->checkpoint_timer);
    }
    while (s->conns != NULL) {
        emu_conn_free(s->conns);
    }
}

/* Sends the parked answers the log now covers. */
static void release_acked(emu_server_t *s)
{
    uint64_t acked = storage_db_ack_position(s->db);
    s->acked = acked;
    bool failed = storage_db_sync_failed(s->db);
    for (emu_conn_t *c = s->waiting, *next; c != NULL; c = next) {
        next = emu_conn_next_waiting(c); /* c may leave the list, or be freed */
        emu_conn_release(c, acked, failed);
    }
    if (failed) {
        stop_serving(s);
    }
}

/* On the loop: the log thread finished a round; send what it covered. */
static void on_synced(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    storage_db_sync_drain(s->db);
    release_acked(s);
}

/*
 * Without these the loop and the log's writer ran in lock-step: the loop
 * served every connection's read, woke the writer once at the end of the
 * turn, and with all 256 requests of a load parked waited idle for the
 * round and its notification (a quarter of the time under durable 1 KB
 * inserts). Woken at each connection's hand-over, the writer writes one
 * connection's records while the loop serves the next, and whatever it has
 * written by the end of a read is answered there, without waiting for the
 * notification's turn: durable 1 KB inserts 345-392k -> 420-440k/s (four
 * pairs, alternating).
 */
void emu_server_served(emu_server_t *s)
{
    if (!s->acks_wait_log) {
        return;
    }
    storage_db_log_wake(s->db);
    if (s->waiting != NULL && storage_db_ack_position(s->db) != s->acked) {
        release_acked(s);
    }
}

/* Answers wait for the log thread's write (and, --fsync always, fdatasync)
 * that covers them (conn.c). */
static int arm_log_acks(emu_server_t *s)
{
    int fd = storage_db_sync_notify_fd(s->db);
    if (fd < 0) {
        return BASE_OK;
    }
    s->synced = event_new(s->base, fd, EV_READ | EV_PERSIST, on_synced, s);
    if (s->synced == NULL || event_add(s->synced, NULL) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot watch the commit log's thread");
        return BASE_ERROR;
    }
    s->acks_wait_log = true;
    return BASE_OK;
}

/* Opens <data-dir>/data (on the start-up worker: no libevent here). */
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
    s->open_started_us = t0;
    static gates_t gates; /* the environment's, for the life of the process */
    gates = (gates_t){getenv(SYNC_GATE_ENV), getenv(WRITE_GATE_ENV)};
    storage_sync_cfg_t sc = {.mode = s->cfg->fsync,
                             .interval_ms = s->cfg->fsync_interval_ms,
                             .before_sync = gates.sync != NULL ? sync_gate : NULL,
                             .before_write = gates.write != NULL ? write_gate : NULL,
                             .hook_arg = &gates,
                             .write_behind = true, /* conn.c flushes before answering */
                             .log_thread = true};
    s->db = storage_db_open_cfg(dir, &sc, &err);
    if (s->db == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot open durable storage in %s: %s", dir, err.msg);
        return BASE_ERROR;
    }
    emu_log(EMU_LOG_DEBUG, 0, "storage opened in %lld ms",
            (long long)((base_mono_us() - t0) / 1000));
    return BASE_OK;
}

/* Durable storage: the timer that snapshots a long commit log (on the loop). */
static int arm_checkpoints(emu_server_t *s)
{
    s->checkpoint_timer = event_new(s->base, -1, EV_PERSIST, on_checkpoint_timer, s);
    s->checkpoint_step = evtimer_new(s->base, on_checkpoint_step, s);
    struct timeval tv = {0, CHECKPOINT_CHECK_MS * 1000};
    if (s->checkpoint_timer == NULL || evtimer_add(s->checkpoint_timer, &tv) != 0 ||
        s->checkpoint_step == NULL) {
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
    /* DDL is rare: with any sync mode each schema record is fsync'ed at once */
    cql_engine_set_schema_sync(s->engine, s->cfg->fsync != STORAGE_SYNC_NONE ? STORAGE_SYNC_ALWAYS
                                                                             : STORAGE_SYNC_NONE);
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
    /* the whole recovery: snapshot and logs read, then the schema replayed */
    int64_t took = base_mono_us() - (s->open_started_us ? s->open_started_us : t0);
    double mb = (double)storage_db_recovered_bytes(s->db) / (1024.0 * 1024.0);
    double data_mb = (double)storage_db_data_bytes(s->db) / (1024.0 * 1024.0);
    /* The rate counts the data rebuilt: the snapshot's lz4 would flatter it. */
    emu_log(EMU_LOG_INFO, 0,
            "durable storage in %s (fsync %s): restored %.1f MB of rows from %.1f MB of snapshot "
            "and commit log in %.3f s (%.0f MB/s of rows)",
            dir, emu_server_fsync_name(s->cfg->fsync), data_mb, mb, (double)took / 1e6,
            took > 0 ? data_mb / ((double)took / 1e6) : 0.0);
    return BASE_OK;
}

static int start_engine(emu_server_t *s, const struct sockaddr_storage *ss)
{
    char dir[4096] = ""; /* filled by open_durable, read only when durable */
    cql_config_t cc;
    cql_config_defaults(&cc);
    cc.profile = s->cfg->profile;
    cc.data_center = s->cfg->region;
    cc.guardrails = s->cfg->guardrails;
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

/* ---- start-up ---------------------------------------------------------------- */

static void *startup_main(void *arg)
{
    base_thread_name("cce-startup");
    emu_startup_t *st = arg;
    if (st->delay_ms > 0) {
        struct timespec ts = {st->delay_ms / 1000, (st->delay_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    st->rc = start_engine(st->s, &st->addr);
    char one = 1;
    ssize_t w = write(st->pipe[1], &one, 1);
    (void)w; /* a pipe with room for one byte */
    return NULL;
}

/* Joins the start-up worker and frees it; what it returned (BASE_OK if none). */
static int startup_free(emu_server_t *s)
{
    emu_startup_t *st = s->startup;
    if (st == NULL) {
        return BASE_OK;
    }
    pthread_join(st->thread, NULL);
    int rc = st->rc; /* after the join: the pipe's byte orders nothing for the compiler */
    if (st->done != NULL) {
        event_free(st->done);
    }
    close(st->pipe[0]);
    close(st->pipe[1]);
    base_free(st);
    s->startup = NULL;
    return rc;
}

/* listen(2) on the bound socket: from here connections are accepted. */
static int start_listening(emu_server_t *s)
{
    s->listener = evconnlistener_new(
        s->base, on_accept, s, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, s->listen_fd);
    if (s->listener == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot listen on %s: %s", s->endpoint, strerror(errno));
        return BASE_ERROR;
    }
    s->listen_fd = -1; /* the listener owns it */
    evconnlistener_set_error_cb(s->listener, on_accept_error);
    emu_log(EMU_LOG_INFO, 0, "listening on %s (%s)", s->endpoint, s->ssl ? "TLS" : "plaintext");
    return BASE_OK;
}

/* On the loop, once the worker wrote its byte: join it, then serve. */
static void on_started(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    emu_server_t *s = arg;
    int rc = startup_free(s);
    if (rc != BASE_OK) {
        s->start_failed = true;
        event_base_loopbreak(s->base);
        return;
    }
    if (s->stopping) {
        event_base_loopbreak(s->base);
        return;
    }
    s->tidy = evtimer_new(s->base, on_tidy, s);
    if (s->tidy == NULL ||
        (s->cfg->durable && (arm_checkpoints(s) != BASE_OK || arm_log_acks(s) != BASE_OK)) ||
        start_listening(s) != BASE_OK) {
        emu_log(EMU_LOG_ERROR, 0, "cannot start serving CQL");
        s->start_failed = true;
        event_base_loopbreak(s->base);
        return;
    }
    emu_admin_set_health(s->admin, EMU_HEALTH_READY);
    announce(s);
}

static int startup_begin(emu_server_t *s, const struct sockaddr_storage *ss)
{
    emu_startup_t *st = base_calloc(1, sizeof(*st));
    const char *delay = getenv(START_DELAY_ENV);
    st->s = s;
    st->addr = *ss;
    st->delay_ms = delay != NULL ? strtol(delay, NULL, 10) : 0;
    if (pipe2(st->pipe, O_CLOEXEC) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot start: pipe: %s", strerror(errno));
        base_free(st);
        return BASE_ERROR;
    }
    st->done = event_new(s->base, st->pipe[0], EV_READ, on_started, s);
    if (st->done == NULL || event_add(st->done, NULL) != 0 ||
        pthread_create(&st->thread, NULL, startup_main, st) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot start the start-up worker");
        if (st->done != NULL) {
            event_free(st->done);
        }
        close(st->pipe[0]);
        close(st->pipe[1]);
        base_free(st);
        return BASE_ERROR;
    }
    s->startup = st;
    emu_admin_set_health(s->admin, s->cfg->durable ? EMU_HEALTH_RECOVERING : EMU_HEALTH_STARTING);
    return BASE_OK;
}

/* The start-up lines, then "ready" (test harnesses wait for it). */
static void announce(emu_server_t *s)
{
    const emu_config_t *cfg = s->cfg;
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
    emu_log(EMU_LOG_INFO, 0, "ready");
}

static void server_fini(emu_server_t *s)
{
    startup_free(s); /* joins a worker still running (the loop failed) */
    while (s->conns != NULL) {
        emu_conn_free(s->conns);
    }
    if (s->listener != NULL) {
        evconnlistener_free(s->listener);
    }
    if (s->listen_fd >= 0) {
        close(s->listen_fd); /* bound, never listened on */
    }
    if (s->reserve_fd >= 0) {
        close(s->reserve_fd);
    }
    if (s->accept_timer != NULL) {
        event_free(s->accept_timer);
    }
    if (s->sigint != NULL) {
        event_free(s->sigint);
    }
    if (s->sigterm != NULL) {
        event_free(s->sigterm);
    }
    if (s->sighup != NULL) {
        event_free(s->sighup);
    }
    if (s->drain_timer != NULL) {
        event_free(s->drain_timer);
    }
    if (s->checkpoint_step != NULL) {
        event_free(s->checkpoint_step);
    }
    if (s->tidy != NULL) {
        event_free(s->tidy);
    }
    if (s->checkpoint_timer != NULL) {
        event_free(s->checkpoint_timer);
    }
    if (s->synced != NULL) {
        event_free(s->synced);
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
        event_base_free(s->base); /* runs the outputs' finalizers: their blocks come back */
    }
    emu_outbuf_pool_free(s->outbufs);
    emu_log_close();
}

/* The event loop, one iteration at a time. A connection's read wakes the
 * log's writer for its records (emu_server_served); after each iteration
 * the writer is woken once more for records handed over elsewhere (a held
 * statement run by its timer), which costs nothing when there are none. */
static int run_loop(emu_server_t *s)
{
    for (;;) {
        int rc = event_base_loop(s->base, EVLOOP_ONCE);
        if (rc < 0) {
            return BASE_ERROR;
        }
        if (s->acks_wait_log) { /* durable storage, open (the start-up worker is joined) */
            storage_db_log_wake(s->db);
        }
        if (s->tidy != NULL && storage_db_untidy(s->db) > 0 && !evtimer_pending(s->tidy, NULL)) {
            struct timeval tv = {0, TIDY_EVERY_MS * 1000}; /* s->tidy: the tables are the loop's */
            (void)evtimer_add(s->tidy, &tv); /* on failure, the next turn tries again */
        }
        if (rc == 1 || event_base_got_break(s->base) || event_base_got_exit(s->base)) {
            return BASE_OK;
        }
    }
}

int emu_server_run(const emu_config_t *cfg)
{
    emu_server_t s;
    struct sockaddr_storage ss;
    base_error_t err;
    int rc = 1;
    char msg[512];
    memset(&s, 0, sizeof(s));
    s.cfg = cfg;
    s.listen_fd = -1;
    s.reserve_fd = -1;
    emu_log_set_level(cfg->log_level);
    emu_log_set_format(cfg->log_format);
    base_log_set_sink(emu_log_base_line); /* storage's and cql's lines too (base.h) */
    if (emu_log_open_file(cfg->log_file, msg, sizeof(msg)) != 0) {
        fprintf(stderr, "cosmos-cassandra-emulator: %s\n", msg);
        return 2;
    }
    /* a peer gone mid-write is an EPIPE, not a death; SIG_IGN of a valid signal cannot fail */
    (void)signal(SIGPIPE, SIG_IGN);
    /* a file past ulimit -f is an EFBIG the commit log reports, not a core dump (as PostgreSQL) */
    (void)signal(SIGXFSZ, SIG_IGN);

    if (cfg->tls && (s.ssl = emu_tls_ctx_new(cfg, &err)) == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "%s", err.msg);
        goto done;
    }
    if ((s.metering = emu_metering_new(cfg, msg, sizeof(msg))) == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "%s", msg);
        rc = 2; /* a bad --cost-model or --prices file is a configuration error */
        goto done;
    }
    s.base = base_new();
    s.outbufs = emu_outbuf_pool_new();
    if (s.base == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot create the event loop");
        goto done;
    }
    if (bind_cql(&s, &ss) != BASE_OK) {
        goto done;
    }
    raise_fd_limit(cfg);
    s.reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* see shed_one */
    s.accept_timer = evtimer_new(s.base, on_accept_resume, &s);
    if (s.accept_timer == NULL) {
        emu_log(EMU_LOG_ERROR, 0, "cannot create the accept timer");
        goto done;
    }
    s.sigint = evsignal_new(s.base, SIGINT, on_signal, &s);
    s.sigterm = evsignal_new(s.base, SIGTERM, on_signal, &s);
    s.sighup = evsignal_new(s.base, SIGHUP, on_sighup, &s);
    if (s.sigint == NULL || s.sigterm == NULL || s.sighup == NULL ||
        evsignal_add(s.sigint, NULL) != 0 || evsignal_add(s.sigterm, NULL) != 0 ||
        evsignal_add(s.sighup, NULL) != 0) {
        emu_log(EMU_LOG_ERROR, 0, "cannot install signal handlers");
        goto done;
    }
    /* "listening on" is logged once listen(2) succeeds (start_listening): scripts that
     * wait for it may connect at once. */
    emu_log(EMU_LOG_INFO, 0, "bound to %s (%s); accepting once storage is recovered", s.endpoint,
            s.ssl ? "TLS" : "plaintext");
    s.admin = emu_admin_start(&s);
    if (s.admin == NULL && cfg->admin_port != EMU_ADMIN_OFF) {
        goto done; /* logged: a taken admin port is a start-up error */
    }
    if (startup_begin(&s, &ss) != BASE_OK) {
        goto done;
    }
    if (run_loop(&s) != BASE_OK) {
        emu_log(EMU_LOG_ERROR, 0, "the event loop failed");
        goto done;
    }
    if (s.start_failed) {
        goto done;
    }
    rc = 0;
    /* The connections are gone: nothing writes while the snapshot is taken
     * (a background one still running gives way to it). */
    if (cfg->durable && s.db != NULL && checkpoint(&s, "shutdown") != BASE_OK) {
        rc = 1;
    }
    if (s.storage_failed) {
        rc = 1; /* it stopped serving (stop_serving) */
    }
    emu_log(EMU_LOG_INFO, 0, "stopped");

done:
    server_fini(&s);
    return rc;
}
