/*
 * plain.h - plaintext connections' socket I/O past libevent 2.1's limits.
 * Layer: emulator.
 *
 * A socket bufferevent reads at most 4096 bytes a readable event
 * (EVBUFFER_MAX_READ) and writes at most 16 KB a writable one. With 1 KB
 * inserts that is three or four requests a read(2) and a turn of the loop:
 * plaintext (--no-tls) ran at 0.65 of TLS, whose own drain takes OpenSSL's
 * 16 KB records (tls.c). These read the rest and write more at a time.
 */
#ifndef EMULATOR_PLAIN_H
#define EMULATOR_PLAIN_H

#include <stddef.h>

#include <event2/bufferevent.h>

/* libevent 2.1's most for one read of a socket bufferevent. */
#define EMU_PLAIN_LIBEVENT_READ 4096
/* What one drain reads at most: a busy connection does not starve the others. */
#define EMU_PLAIN_DRAIN_MAX     (256 * 1024)

/* Sets bev (a socket bufferevent) to write up to 256 KB a writev. */
void emu_plain_tune(struct bufferevent *bev);

/*
 * In the read callback, after libevent's own read: when that read may have
 * left bytes in the socket (it filled its 4096), reads what the socket
 * holds into bev's input, up to max bytes, in contiguous stretches (the
 * lookahead prefetches only frames lying whole in one chunk). Returns the
 * bytes read. End of file and errors are left to libevent's next read,
 * which reports them through the event callback.
 */
size_t emu_plain_drain(struct bufferevent *bev, size_t max);

#endif
