/*
 * conn.h - one client connection: reassembles frames, runs the
 * STARTUP -> AUTHENTICATE -> READY state machine, and answers.
 */
#ifndef EMULATOR_CONN_H
#define EMULATOR_CONN_H

#include <sys/socket.h>

#include <event2/util.h>

#include "emulator/server.h"

/* Takes ownership of fd, a socket accepted on s's listener. */
void emu_conn_accept(emu_server_t *s, evutil_socket_t fd, const struct sockaddr *addr,
                     int addr_len);

/* Stops reading, flushes what is queued, then frees the connection. */
void emu_conn_shutdown(emu_conn_t *c);

/* Frees the connection now (unlinks it from its server). */
void emu_conn_free(emu_conn_t *c);

/* Queues a server-pushed EVENT (stream -1) whose body encode(b, arg)
 * writes, in the connection's protocol version and compression. */
void emu_conn_push_event(emu_conn_t *c, void (*encode)(base_buf_t *b, const void *arg),
                         const void *arg);

emu_conn_t *emu_conn_next(const emu_conn_t *c);
/* The next connection with answers parked for the commit log
 * (emu_server_t.waiting), NULL after the last. */
emu_conn_t *emu_conn_next_waiting(const emu_conn_t *c);

/* Sends the responses parked until the commit log position acked
 * (storage_db_ack_position). After a failed write or fdatasync (failed) a
 * connection with parked responses past it is closed instead: those writes
 * were never made durable, so they must not be acknowledged. May free c. */
void emu_conn_release(emu_conn_t *c, uint64_t acked, bool failed);

#endif
