/* Unit tests for emulator/tls.c: handing on what OpenSSL read ahead. The
 * server's own OpenSSL bufferevent and a real TLS client (a thread) over a
 * socketpair; the client's records are all in the socket before the server
 * reads, and it sends nothing more while it waits, as a driver waits for
 * its answers. */
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/buffer.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/ssl.h>

#include "certs/certs.h"
#include "emulator/tls.h"

#define RECORD  16384 /* the most one TLS record carries */
#define RECORDS 6     /* 96 KB: more than one read-ahead (two records) */

typedef struct {
    int fd;
    sem_t written; /* the client's records are all in the socket */
    sem_t done;    /* the test has looked: the client may go */
    struct event_base *base;
    struct bufferevent *bev;
    bool connected;
    int reads;          /* readable events handed to the test */
    bool failed;        /* a drain did not return OK */
    bool pending_after; /* OpenSSL still held something after a drain */
} fixture_t;

static void *client_main(void *arg)
{
    fixture_t *f = arg;
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    SSL *ssl = SSL_new(ctx);
    SSL_set_fd(ssl, f->fd);
    if (SSL_connect(ssl) == 1) {
        static uint8_t record[RECORD];
        memset(record, 'r', sizeof(record));
        for (int i = 0; i < RECORDS; i++) {
            SSL_write(ssl, record, sizeof(record));
        }
    }
    sem_post(&f->written);
    sem_wait(&f->done); /* sending nothing more meanwhile */
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    return NULL;
}

static void on_read(struct bufferevent *bev, void *arg)
{
    fixture_t *f = arg;
    char why[256];
    f->reads++;
    f->failed |= emu_tls_drain(bev, why, sizeof(why)) != EMU_TLS_DRAIN_OK;
    f->pending_after |= SSL_has_pending(bufferevent_openssl_get_ssl(bev)) != 0;
    if (evbuffer_get_length(bufferevent_get_input(bev)) == (size_t)RECORDS * RECORD) {
        event_base_loopbreak(f->base);
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    fixture_t *f = arg;
    f->connected = (what & BEV_EVENT_CONNECTED) != 0;
    event_base_loopbreak(f->base);
}

static void every_record_is_handed_on_without_the_client_sending_more(void **state)
{
    (void)state;
    char dir[] = "/tmp/cce-tls-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    certs_files_t files;
    base_error_t err;
    assert_int_equal(certs_ensure(dir, NULL, 0, &files, &err), BASE_OK);
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    assert_int_equal(SSL_CTX_use_certificate_chain_file(ctx, files.server_cert), 1);
    assert_int_equal(SSL_CTX_use_PrivateKey_file(ctx, files.server_key, SSL_FILETYPE_PEM), 1);
    emu_tls_buffering(ctx);

    int fds[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    int big = 1 << 20; /* room for every record before the server reads */
    setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
    setsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
    fixture_t f = {.fd = fds[1]};
    sem_init(&f.written, 0, 0);
    sem_init(&f.done, 0, 0);
    f.base = event_base_new();
    evutil_make_socket_nonblocking(fds[0]);
    f.bev = emu_tls_wrap(f.base, ctx, fds[0]);
    assert_non_null(f.bev);
    bufferevent_setcb(f.bev, on_read, NULL, on_event, &f);
    bufferevent_enable(f.bev, EV_READ | EV_WRITE);
    pthread_t client;
    assert_int_equal(pthread_create(&client, NULL, client_main, &f), 0);

    event_base_dispatch(f.base); /* the handshake */
    assert_true(f.connected);
    bufferevent_disable(f.bev, EV_READ);
    sem_wait(&f.written);
    bufferevent_enable(f.bev, EV_READ);
    struct timeval limit = {5, 0}; /* a record left in OpenSSL would wait forever */
    event_base_loopexit(f.base, &limit);
    event_base_dispatch(f.base);

    /* Every record in the input, each read leaving nothing in OpenSSL, and
     * fewer readable events than records: one read took more than one. */
    assert_int_equal(evbuffer_get_length(bufferevent_get_input(f.bev)), (size_t)RECORDS * RECORD);
    assert_false(f.failed);
    assert_false(f.pending_after);
    assert_in_range(f.reads, 1, RECORDS - 1);

    sem_post(&f.done);
    pthread_join(client, NULL);
    close(fds[1]);
    bufferevent_free(f.bev);
    event_base_free(f.base);
    sem_destroy(&f.written);
    sem_destroy(&f.done);
    SSL_CTX_free(ctx);
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_record_is_handed_on_without_the_client_sending_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
