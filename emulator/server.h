/*
 * server.h - the process: one event loop, the listener, the engine and the
 * connections. Internal to emulator/.
 */
#ifndef EMULATOR_SERVER_H
#define EMULATOR_SERVER_H

#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/ssl.h>

#include "cql/cql.h"
#include "emulator/config.h"
#include "emulator/events.h"
#include "emulator/log.h"
#include "emulator/metering.h"
#include "emulator/outbuf.h"

typedef struct emu_conn_s emu_conn_t;

typedef struct emu_server_s {
    const emu_config_t *cfg;
    struct event_base *base;
    struct evconnlistener *listener; /* NULL until start-up is done (then listen(2)) */
    evutil_socket_t listen_fd;       /* the bound CQL socket until the listener owns it */
    evutil_socket_t reserve_fd;      /* /dev/null, given up to refuse a connection on EMFILE */
    struct event *accept_timer;      /* re-enables the listener after an accept failure */
    int accept_pause_ms;             /* the current pause (0: accept works) */
    uint64_t refused_conns;          /* closed at accept: --max-connections, or EMFILE */
    emu_log_limit_t accept_log;      /* "accept failed", once a second */
    emu_log_limit_t conn_limit_log;  /* "--max-connections reached", once a second */
    size_t inflight_bytes;           /* request bytes received, not yet answered (conn.c) */
    emu_log_limit_t inflight_log;    /* "--max-inflight-mb", once a second */
    struct event *sigint;
    struct event *sigterm;
    struct event *sighup;           /* reopens --log-file */
    struct event *drain_timer;      /* bounds the graceful shutdown */
    struct event *checkpoint_timer; /* durable storage: snapshots a long commit log */
    struct event *checkpoint_step;  /* durable storage: the next slice of a checkpoint */
    struct event *synced;           /* durable: the commit log thread finished a round */
    struct event *tidy;             /* moves small-page chunks of the tables to huge pages */
    bool acks_wait_log;             /* responses wait for the log write (fdatasync) covering them */
    size_t acks_waiting;            /* responses parked until then (conn.c) */
    uint64_t acked;                 /* the log's ack position when parked answers were last sent */
    SSL_CTX *ssl;                   /* NULL with --no-tls */
    storage_db_t *db;
    bool restored;           /* durable: the schema claimed all data (else no checkpoint at exit) */
    int64_t open_started_us; /* durable: when opening storage began (recovery time) */
    int64_t checkpoint_started_us;   /* when the last background one started (0: none yet) */
    uint64_t checkpoint_log_bytes;   /* the log it folds */
    storage_disk_waits_t disk_waits; /* as last reported (report_disk_waits) ... */
    int64_t disk_waits_us;           /* ... then */
    cql_engine_t *engine;
    emu_metering_t *metering;      /* request units: attached to engine */
    struct emu_admin_s *admin;     /* HTTP admin endpoint, NULL when off (admin.c) */
    struct emu_startup_s *startup; /* the start-up worker while it runs (server.c) */
    emu_events_t *events;
    emu_outbuf_pool_t *outbufs; /* answers lent to the connections' outputs (conn.c) */
    emu_conn_t *conns;          /* every open connection, newest first */
    emu_conn_t *waiting;        /* those with answers parked for the commit log (conn.c) */
    size_t n_conns;
    uint64_t next_conn_id;
    bool stopping;
    bool start_failed;   /* the start-up worker could not open storage or restore */
    bool storage_failed; /* the commit log failed: CQL stopped (stop_serving) */
    char endpoint[80];   /* "127.0.0.1:10350" as bound */
} emu_server_t;

/* Serves until SIGINT/SIGTERM; returns the process exit code. */
int emu_server_run(const emu_config_t *cfg);

/* Called by a connection once it has served a read and handed its answers
 * over (it may be freed: nothing of it is used after). */
void emu_server_served(emu_server_t *s);

/* Called by a connection as it is freed (ends the loop when draining). */
void emu_server_conn_gone(emu_server_t *s);

/* The sync mode's name as --fsync spells it. */
const char *emu_server_fsync_name(storage_sync_t mode);

#endif
