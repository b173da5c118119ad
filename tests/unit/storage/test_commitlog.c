/*
 * test_commitlog.c - the commit log's sync modes and records: group commit
 * (STORAGE_SYNC_GROUP) publishes a synced position only after the fdatasync
 * covering it and covers many writes with one; a log switched by a
 * checkpoint is synced before positions past it are; periodic sync syncs
 * on its timer; and the data of every mode comes back after a crash.
 * Write-behind gathers records until a flush, a table record, a checkpoint
 * or its limit, and never lets a record it could not write be
 * acknowledged; with a log thread, a flush hands the records over and the
 * acknowledgeable position waits for the thread's write, a switch keeps
 * handed-over records in the old log, a failed write is never
 * acknowledged, and the log's threads never preempt the loop. Each test
 * works in its own directory under /tmp.
 */
#define _GNU_SOURCE /* SCHED_BATCH */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "storage/storage_int.h"
#include "storage_test.h"


typedef struct log_fixture_s {
    char dir[64];
    char path[512];
    storage_db_t *db;
    /* the before_sync hook: counts rounds, and holds them while gate is set */
    atomic_int rounds;
    atomic_bool gate;
    atomic_bool opened;    /* set by a thread just before it opens the gate */
    atomic_bool sync_gate; /* holds the sync thread alone (sync_hook) */
} log_fixture_t;


static int setup(void **state)
{
    log_fixture_t *f = calloc(1, sizeof(*f));
    test_dir_make(f->dir, sizeof(f->dir), "storage-commitlog");
    *state = f;
    return 0;
}


static int teardown(void **state)
{
    log_fixture_t *f = *state;
    atomic_store(&f->gate, false);
    atomic_store(&f->sync_gate, false);
    storage__db_abandon(f->db);
    test_dir_remove(f->dir);
    free(f);
    return 0;
}


static void hook(void *arg)
{
    log_fixture_t *f = arg;
    while (atomic_load(&f->gate)) {
        usleep(1000);
    }
    atomic_fetch_add(&f->rounds, 1);
}


static void sync_hook(void *arg)
{
    log_fixture_t *f = arg;
    while (atomic_load(&f->sync_gate)) {
        usleep(1000);
    }
    hook(arg);
}


typedef enum { BY_RECORD, WRITE_BEHIND, LOG_THREAD } writes_t;

static storage_db_t *open_how(log_fixture_t *f, storage_sync_t mode, int interval_ms, writes_t how)
{
    base_error_t err = {0};
    storage_sync_cfg_t cfg = {.mode = mode,
                              .interval_ms = interval_ms,
                              .before_sync = sync_hook,
                              .before_write = hook,
                              .hook_arg = f,
                              .write_behind = how != BY_RECORD,
                              .log_thread = how == LOG_THREAD};
    storage__db_abandon(f->db);
    f->db = storage_db_open_cfg(f->dir, &cfg, &err);
    if (f->db == NULL) {
        fail_msg("open failed: %s", err.msg);
    }
    return f->db;
}


static storage_db_t *open_cfg(log_fixture_t *f, storage_sync_t mode, int interval_ms,
                              bool write_behind)
{
    return open_how(f, mode, interval_ms, write_behind ? WRITE_BEHIND : BY_RECORD);
}


static storage_db_t *open_mode(log_fixture_t *f, storage_sync_t mode, int interval_ms)
{
    return open_cfg(f, mode, interval_ms, false);
}


/* Waits on the notify fd until position (synced, or where writes may be
 * acknowledged) reaches pos. */
static void wait_position(storage_db_t *db, uint64_t (*position)(const storage_db_t *db),
                          uint64_t pos)
{
    struct pollfd p = {storage_db_sync_notify_fd(db), POLLIN, 0};
    assert_true(p.fd >= 0);
    while (position(db) < pos) {
        assert_false(storage_db_sync_failed(db));
        assert_true(poll(&p, 1, 10000) == 1); /* a round always ends with a notification */
        storage_db_sync_drain(db);
    }
}


static void wait_synced(storage_db_t *db, uint64_t pos)
{
    wait_position(db, storage_db_synced_position, pos);
}


static void wait_acked(storage_db_t *db, uint64_t pos)
{
    wait_position(db, storage_db_ack_position, pos);
}


/* Waits on the notify fd until the log's threads report a failure. */
static void wait_failed(storage_db_t *db)
{
    struct pollfd p = {storage_db_sync_notify_fd(db), POLLIN, 0};
    while (!storage_db_sync_failed(db)) {
        assert_true(poll(&p, 1, 10000) == 1); /* a failed round notifies too */
        storage_db_sync_drain(db);
    }
}


static void group_commit_publishes_positions_only_after_their_fsync(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_mode(f, STORAGE_SYNC_GROUP, 0);
    assert_int_equal(storage_db_sync_mode(db), STORAGE_SYNC_GROUP);
    storage_table_t *t = storage_table_create(db, 7);
    wait_synced(db, storage_db_log_position(db));
    uint64_t syncs = storage_db_syncs(db);

    atomic_store(&f->gate, true); /* the thread is held before its next fdatasync */
    for (int k = 0; k < 100; k++) {
        test_insert(t, k, NULL, 1, "v", 100);
    }
    uint64_t pos = storage_db_log_position(db);
    assert_true(pos > 0);
    /* written, applied in memory, and not yet covered: an acknowledgement must wait */
    assert_true(storage_db_synced_position(db) < pos);
    assert_int_equal(storage_table_partition_count(t), 100);
    atomic_store(&f->gate, false);
    wait_synced(db, pos);
    /* one held round, then at most one more: far fewer than the 100 writes */
    assert_true(storage_db_syncs(db) - syncs <= 2);
    assert_true(storage_db_synced_position(db) <= storage_db_log_position(db));

    open_mode(f, STORAGE_SYNC_NONE, 0); /* a crash: no checkpoint */
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 100);
}


static void a_switched_log_is_synced_before_later_positions(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_mode(f, STORAGE_SYNC_GROUP, 0);
    storage_table_t *t = storage_table_create(db, 7);
    atomic_store(&f->gate, true);
    test_insert(t, 1, NULL, 1, "old log", 100);
    int rounds = atomic_load(&f->rounds);
    /* A background checkpoint switches logs while the thread is held. */
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    test_insert(t, 2, NULL, 1, "new log", 100);
    uint64_t pos = storage_db_log_position(db);
    assert_true(storage_db_synced_position(db) < pos);
    atomic_store(&f->gate, false);
    wait_synced(db, pos);
    assert_true(atomic_load(&f->rounds) > rounds);
    assert_int_equal(storage_db_checkpoint_poll(db, true, &err), BASE_OK);
    test_insert(t, 3, NULL, 1, "after", 100);
    wait_synced(db, storage_db_log_position(db));

    open_mode(f, STORAGE_SYNC_NONE, 0);
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 3);
}


static void periodic_sync_syncs_on_its_timer(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_mode(f, STORAGE_SYNC_PERIODIC, 5);
    assert_int_equal(storage_db_sync_notify_fd(db), -1); /* nothing waits for it */
    storage_table_t *t = storage_table_create(db, 7);
    for (int k = 0; k < 10; k++) {
        test_insert(t, k, NULL, 1, "v", 100);
    }
    uint64_t pos = storage_db_log_position(db);
    while (storage_db_synced_position(db) < pos) {
        usleep(1000);
    }
    assert_true(storage_db_syncs(db) >= 1);
    storage_db_free(db); /* a clean close syncs and stops the thread */
    f->db = NULL;
    open_mode(f, STORAGE_SYNC_PERIODIC, 0);
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 10);
}


static void always_counts_one_fsync_per_record(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_mode(f, STORAGE_SYNC_ALWAYS, 0);
    storage_table_t *t = storage_table_create(db, 7);
    uint64_t syncs = storage_db_syncs(db);
    test_insert(t, 1, NULL, 1, "v", 100);
    test_insert(t, 2, NULL, 1, "v", 100);
    assert_int_equal(storage_db_syncs(db) - syncs, 2);
    assert_int_equal(storage_db_synced_position(db), storage_db_log_position(db));
    assert_int_equal(storage_db_sync_notify_fd(db), -1);
}


/* A batch over two tables and three partitions, after one lone insert. */
static void write_batch(storage_db_t *db)
{
    storage_table_t *a = storage_table_create(db, 7);
    storage_table_t *b = storage_table_create(db, 8);
    test_insert(a, 100, NULL, 1, "before the batch", 50);
    test_key_t k1 = test_key(1), k2 = test_key(2), k3 = test_key(3);
    storage_cell_t c1 = test_cell(1, "one", 100), c2 = test_cell(1, "two", 100),
                   c3 = test_cell(1, "three", 100);
    storage_mutation_t m1 = test_mut(&k1, NULL), m2 = test_mut(&k2, NULL), m3 = test_mut(&k3, NULL);
    m1.cells = &c1;
    m2.cells = &c2;
    m3.cells = &c3;
    m1.n_cells = m2.n_cells = m3.n_cells = 1;
    storage_batch_item_t items[] = {{a, &m1}, {a, &m2}, {b, &m3}};
    storage_write_stats_t ws[3];
    assert_int_equal(storage_apply_batch(db, items, 3, 0, ws), BASE_OK);
    assert_int_equal(ws[2].bytes_written, 4 + 5);
}


/* The number of whole records in commitlog-<gen>.log, and where the last starts. */
static size_t count_records(log_fixture_t *f, uint64_t gen, size_t *last)
{
    base_error_t err;
    uint8_t *data;
    size_t len, off = 0, n = 0;
    storage__path(f->path, sizeof(f->path), f->dir, "commitlog-", gen, ".log");
    assert_int_equal(storage__read_file(f->path, &data, &len, &err), BASE_OK);
    while (off < len) {
        const uint8_t *payload;
        size_t plen, next;
        if (storage__rec_frame(data, len, off, &payload, &plen, &next) != STORAGE__FRAME_OK) {
            break;
        }
        *last = off;
        off = next;
        n++;
    }
    base_free(data);
    return n;
}


static void a_batch_is_one_record_whole_after_a_crash(void **state)
{
    log_fixture_t *f = *state;
    write_batch(open_mode(f, STORAGE_SYNC_NONE, 0));
    size_t last;
    /* CREATE, CREATE, the lone insert, then the batch in one record */
    assert_int_equal(count_records(f, 1, &last), 4);
    open_mode(f, STORAGE_SYNC_NONE, 0); /* a crash after the batch record */
    storage_table_t *a = storage_table_create(f->db, 7);
    storage_table_t *b = storage_table_create(f->db, 8);
    assert_non_null(test_part(a, 100));
    assert_non_null(test_part(a, 1));
    assert_non_null(test_part(a, 2));
    assert_non_null(test_part(b, 3));
}


static void clear_dir(log_fixture_t *f)
{
    DIR *d = opendir(f->dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, e->d_name);
            unlink(f->path);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
}


static void a_batch_torn_by_a_crash_leaves_none_of_its_rows(void **state)
{
    log_fixture_t *f = *state;
    size_t last;
    struct stat st;
    write_batch(open_mode(f, STORAGE_SYNC_NONE, 0));
    storage__db_abandon(f->db);
    f->db = NULL;
    count_records(f, 1, &last);
    assert_int_equal(stat(f->path, &st), 0);
    off_t size = st.st_size;
    /* Cuts all through the batch record: in some its first mutations are whole. */
    for (off_t cut = (off_t)last + 1; cut < size; cut += 5) {
        clear_dir(f);
        write_batch(open_mode(f, STORAGE_SYNC_NONE, 0));
        storage__db_abandon(f->db);
        f->db = NULL;
        count_records(f, 1, &last);
        assert_int_equal(truncate(f->path, cut), 0);
        open_mode(f, STORAGE_SYNC_NONE, 0); /* cuts the torn tail off */
        storage_table_t *a = storage_table_create(f->db, 7);
        storage_table_t *b = storage_table_create(f->db, 8);
        assert_non_null(test_part(a, 100));
        assert_null(test_part(a, 1));
        assert_null(test_part(a, 2));
        assert_null(test_part(b, 3));
        storage__db_abandon(f->db);
        f->db = NULL;
    }
}


/* The CRC-32 (sliced tables, and on x86-64 the carry-less multiplication
 * path for 64 bytes and more) equals the bitwise definition at every length
 * up to a few commit-log records and at every alignment. */
static void crc32_matches_the_bitwise_definition(void **state)
{
    (void)state;
    assert_int_equal(storage__crc32((const uint8_t *)"123456789", 9), 0xcbf43926u);
    assert_int_equal(storage__crc32(NULL, 0), 0);
    static uint8_t buf[2600];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof(buf); i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (uint8_t)(x >> 16);
    }
    for (size_t off = 0; off < 16; off++) {
        uint32_t c = 0xffffffffu; /* the bitwise state over buf[off, off + n) */
        for (size_t n = 0; off + n < 2500; n++) {
            assert_int_equal(storage__crc32(buf + off, n), c ^ 0xffffffffu);
            c ^= buf[off + n];
            for (int k = 0; k < 8; k++) {
                c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
            }
        }
    }
    memset(buf, 0xff, sizeof(buf)); /* all ones: every fold's carries at once */
    uint32_t c = 0xffffffffu;
    for (size_t n = 0; n < sizeof(buf); n++) {
        assert_int_equal(storage__crc32(buf, n), c ^ 0xffffffffu);
        c ^= buf[n];
        for (int k = 0; k < 8; k++) {
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
        }
    }
}


/* Bytes of commitlog-<gen>.log on disk. */
static off_t log_size(log_fixture_t *f, uint64_t gen)
{
    struct stat st;
    storage__path(f->path, sizeof(f->path), f->dir, "commitlog-", gen, ".log");
    assert_int_equal(stat(f->path, &st), 0);
    return st.st_size;
}


static void write_behind_writes_gathered_records_at_the_flush(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7); /* a table record: written at once */
    off_t created = log_size(f, 1);
    assert_true(created > 0);
    uint64_t pos = storage_db_log_position(db);
    for (int k = 0; k < 50; k++) {
        test_insert(t, k, NULL, 1, "gathered", 100);
    }
    /* in memory, not in the file, and no position to acknowledge yet */
    assert_int_equal(storage_table_partition_count(t), 50);
    assert_int_equal(log_size(f, 1), created);
    assert_int_equal(storage_db_log_position(db), pos);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_true(log_size(f, 1) > created);
    assert_int_equal(storage_db_log_position(db), pos + (uint64_t)(log_size(f, 1) - created));
    size_t last;
    assert_int_equal(count_records(f, 1, &last), 51);    /* every record, each whole */
    assert_int_equal(storage_db_log_flush(db), BASE_OK); /* nothing pending: no write */

    open_cfg(f, STORAGE_SYNC_NONE, 0, true); /* a crash after the flush */
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 50);
}


static void write_behind_writes_pending_records_before_a_table_record(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    test_insert(t, 1, NULL, 1, "pending", 100);
    storage_table_t *u = storage_table_create(db, 8); /* writes the insert, then itself */
    test_insert(u, 2, NULL, 1, "pending", 100);
    storage_table_drop(db, u); /* the order a replay must see: insert, then drop */
    size_t last;
    assert_int_equal(count_records(f, 1, &last), 5);

    open_cfg(f, STORAGE_SYNC_NONE, 0, true); /* a crash: no flush was called */
    assert_non_null(test_part(storage_table_create(f->db, 7), 1));
}


static void write_behind_writes_at_once_past_its_limit(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    static char big[8192];
    memset(big, 'x', sizeof(big) - 1);
    off_t created = log_size(f, 1);
    int k = 0;
    while (log_size(f, 1) == created) {
        test_insert(t, k++, NULL, 1, big, 100);
        assert_true(k <= (int)(2 * STORAGE__WRITE_BEHIND_MAX / sizeof(big)));
    }
    /* everything gathered went out with the record that passed the limit */
    assert_true(k >= (int)(STORAGE__WRITE_BEHIND_MAX / (2 * sizeof(big))));
    size_t last;
    assert_int_equal(count_records(f, 1, &last), (size_t)k + 1);
}


static void write_behind_flushes_before_a_checkpoint_switches_logs(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    test_insert(t, 1, NULL, 1, "old log", 100);
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    size_t last;
    assert_int_equal(count_records(f, 1, &last), 2); /* in the log it belongs to */
    test_insert(t, 2, NULL, 1, "new log", 100);
    assert_int_equal(storage_db_checkpoint_poll(db, true, &err), BASE_OK);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    storage_db_free(db); /* a clean close flushes what is pending */
    f->db = NULL;
    open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 2);
}


/* The disk is full for db's log from here on; returns a descriptor of the
 * real log, for the caller to put back with dup2 (or close). */
static int fill_the_disk(storage_db_t *db)
{
    int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
    assert_true(full >= 0);
    int saved = dup(db->dur->log_fd);
    assert_true(saved >= 0 && dup2(full, db->dur->log_fd) >= 0);
    close(full);
    return saved;
}


/* storage_apply of one cell at key k, as it answers. */
static int apply_one(storage_table_t *t, int32_t k, const char *value)
{
    test_key_t key = test_key(k);
    storage_cell_t c = test_cell(1, value, 100);
    storage_mutation_t m = test_mut(&key, NULL);
    m.cells = &c;
    m.n_cells = 1;
    storage_write_stats_t ws;
    return storage_apply(t, &m, 0, &ws);
}


static void write_behind_refuses_to_acknowledge_what_it_could_not_write(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    test_insert(t, 1, NULL, 1, "lost", 100);
    int saved = fill_the_disk(db); /* the gathered insert cannot be written */
    assert_int_equal(storage_db_log_flush(db), BASE_EIO);
    /* The log no longer describes memory: writes are refused. */
    assert_int_equal(apply_one(t, 2, "refused"), BASE_EIO);
    assert_int_equal(storage_db_log_flush(db), BASE_OK); /* reported once */
    /* A checkpoint holds memory whole, the insert included, and writes resume. */
    assert_true(dup2(saved, db->dur->log_fd) >= 0);
    close(saved);
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK);
    assert_int_equal(apply_one(t, 2, "refused"), BASE_OK);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *r = storage_table_create(f->db, 7);
    assert_non_null(test_part(r, 1));
    assert_non_null(test_part(r, 2));
}


static void a_checkpoint_is_due_once_the_log_outgrows_the_data(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    for (int k = 0; k < 100; k++) {
        test_insert(t, k, NULL, 1, "one hundred rows", 100);
    }
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_true(storage_db_checkpoint_due(db, 0));         /* the log holds the data and more */
    assert_false(storage_db_checkpoint_due(db, 1u << 20)); /* below the floor */
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK);
    assert_false(storage_db_checkpoint_due(db, 0)); /* an empty log, a snapshot of it all */
    /* Overwrites grow the log, not the data: due once the log passes it. */
    int n = 0;
    while (!storage_db_checkpoint_due(db, 0)) {
        test_insert(t, n % 10, NULL, 1, "one hundred rows", 100 + n);
        assert_int_equal(storage_db_log_flush(db), BASE_OK);
        n++;
        assert_true(n <= 100);
    }
    assert_true(n > 10); /* the records it takes to pass the data again, not one or two */
    assert_true(storage_db_log_bytes(db) >= storage_table_bytes(t));
    storage_db_t *mem = storage_db_new();
    assert_false(storage_db_checkpoint_due(mem, 0)); /* nothing to checkpoint in memory */
    storage_db_free(mem);
}


static void periodic_sync_starts_writeback_between_syncs(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_mode(f, STORAGE_SYNC_PERIODIC, 3600 * 1000); /* no sync in the test */
    storage_table_t *t = storage_table_create(db, 7);
    static char big[64 * 1024];
    memset(big, 'w', sizeof(big) - 1);
    for (int k = 0; k < 200; k++) { /* 12.5 MB: past the 8 MB step */
        test_insert(t, k, NULL, 1, big, 100);
    }
    storage__syncer_t *s = db->dur->syncer;
    uint64_t started = 0;
    for (int i = 0; i < 5000 && started == 0; i++) {
        pthread_mutex_lock(&s->mu);
        started = s->writeback;
        pthread_mutex_unlock(&s->mu);
        usleep(1000);
    }
    assert_true(started >= 8u << 20); /* the thread woke for it, long before its interval */
    assert_int_equal(storage_db_syncs(db), 0); /* and promised nothing */
    assert_true(storage_db_synced_position(db) < storage_db_log_position(db));
}


static void without_a_sync_thread_the_log_starts_its_own_writeback(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    static char big[64 * 1024];
    memset(big, 'w', sizeof(big) - 1);
    for (int k = 0; k < 200; k++) { /* 12.5 MB through write-behind */
        test_insert(t, k, NULL, 1, big, 100);
    }
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_null(db->dur->syncer);
    assert_true(db->dur->writeback >= STORAGE__WRITEBACK_BYTES);
    assert_true(db->dur->writeback <= db->dur->log_bytes);
    assert_int_equal(storage_db_syncs(db), 0); /* writeback, never a sync */
}


static void a_table_record_does_not_swallow_the_loss_of_gathered_writes(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *t = storage_table_create(db, 7);
    test_insert(t, 1, NULL, 1, "gathered", 100); /* in memory, not yet written */
    close(fill_the_disk(db));
    storage_table_create(db, 8); /* its record and the insert's cannot be written */
    /* the caller acknowledging the insert must hear it */
    assert_int_equal(storage_db_log_flush(db), BASE_EIO);
    assert_int_equal(storage_db_log_flush(db), BASE_OK); /* once */
}


static void a_log_thread_writes_what_a_flush_hands_it(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_how(f, STORAGE_SYNC_PERIODIC, 3600 * 1000, LOG_THREAD);
    /* a table record: written before the call returns */
    storage_table_t *t = storage_table_create(db, 7);
    assert_int_equal(storage_db_ack_position(db), storage_db_log_position(db));
    off_t created = log_size(f, 1);
    assert_true(created > 0);

    atomic_store(&f->gate, true); /* the writer is held before its next round */
    for (int k = 0; k < 50; k++) {
        test_insert(t, k, NULL, 1, "handed over", 100);
    }
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    uint64_t pos = storage_db_log_position(db);
    /* handed over, not written: nothing to acknowledge yet, nothing in the file */
    assert_true(storage_db_ack_position(db) < pos);
    assert_int_equal(log_size(f, 1), created);
    atomic_store(&f->gate, false);
    wait_acked(db, pos);
    size_t last;
    assert_int_equal(count_records(f, 1, &last), 51);
    assert_int_equal(storage_db_syncs(db), 0); /* written, not synced: the interval is an hour */

    open_cfg(f, STORAGE_SYNC_NONE, 0, true); /* a crash after the write */
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 50);
}


static void records_handed_over_before_a_switch_reach_the_old_log(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_how(f, STORAGE_SYNC_PERIODIC, 3600 * 1000, LOG_THREAD);
    storage_table_t *t = storage_table_create(db, 7);
    atomic_store(&f->gate, true);
    test_insert(t, 1, NULL, 1, "old log", 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    /* A background checkpoint switches logs while the writer holds the insert. */
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    test_insert(t, 2, NULL, 1, "new log", 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    uint64_t pos = storage_db_log_position(db);
    atomic_store(&f->gate, false);
    wait_acked(db, pos);
    size_t last;
    assert_int_equal(count_records(f, 1, &last), 2); /* the table and the first insert */
    assert_int_equal(count_records(f, 2, &last), 1); /* the second insert */

    open_cfg(f, STORAGE_SYNC_NONE, 0, true); /* a crash before the checkpoint finished */
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 2);
}


static void a_write_the_log_thread_could_not_make_is_never_acknowledged(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_how(f, STORAGE_SYNC_PERIODIC, 3600 * 1000, LOG_THREAD);
    storage_table_t *t = storage_table_create(db, 7);
    uint64_t before = storage_db_ack_position(db);
    close(fill_the_disk(db)); /* the thread writes to the same descriptor */
    atomic_store(&f->gate, true);
    test_insert(t, 1, NULL, 1, "lost", 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK); /* handed over: the thread finds out */
    atomic_store(&f->gate, false);
    wait_failed(db);
    assert_int_equal(storage_db_ack_position(db), before);
    assert_int_equal(storage_db_log_flush(db), BASE_EIO); /* nothing more is acknowledged */
    assert_int_equal(apply_one(t, 2, "refused"), BASE_EIO);
}


static void a_torn_write_to_a_switched_out_log_is_cut_off(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_how(f, STORAGE_SYNC_PERIODIC, 3600 * 1000, LOG_THREAD);
    storage_table_t *t = storage_table_create(db, 7);
    test_insert(t, 1, NULL, 1, "written", 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    wait_acked(db, storage_db_log_position(db));
    off_t good = log_size(f, 1);

    atomic_store(&f->gate, true);
    static char big[4000];
    memset(big, 'b', sizeof(big) - 1);
    test_insert(t, 2, NULL, 1, big, 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK); /* the insert: the tail */
    /* Files may grow 100 bytes past the old log: its tail is written in part, then fails. */
    struct rlimit was;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    void (*xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = {(rlim_t)good + 100, was.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    atomic_store(&f->gate, false);
    wait_failed(db);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
    signal(SIGXFSZ, xfsz);
    assert_int_equal(log_size(f, 1), good); /* not a byte of the torn record left */

    /* a crash: the old log, whole, then the new one; the unacknowledged insert is gone */
    open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    storage_table_t *r = storage_table_create(f->db, 7);
    assert_non_null(test_part(r, 1));
    assert_null(test_part(r, 2));
}


/* Opens the writer's gate once the database's owner waits for the writer
 * (or after a minute, so that a failing test ends). */
static void *open_gate_when_waited_for(void *arg)
{
    log_fixture_t *f = arg;
    storage_disk_waits_t w = {0};
    for (int ms = 0; ms < 60 * 1000 && w.count == 0; ms++) {
        usleep(1000);
        storage_db_disk_waits(f->db, &w);
    }
    atomic_store(&f->opened, w.count > 0);
    atomic_store(&f->gate, false);
    return NULL;
}


/* A 1 MB value (its last byte the terminator). */
static char mb_value[1 << 20];

/* PERIODIC through the log thread, no sync in the test; table 7 of the
 * database opened, its values the letter fill. */
static storage_table_t *big_writes(log_fixture_t *f, storage_db_t **db, char fill)
{
    *db = open_how(f, STORAGE_SYNC_PERIODIC, 3600 * 1000, LOG_THREAD);
    memset(mb_value, fill, sizeof(mb_value) - 1);
    return storage_table_create(*db, 7);
}


static void a_hand_over_past_the_queue_limit_waits_for_the_writer(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db;
    storage_table_t *t = big_writes(f, &db, 'q');
    atomic_store(&f->gate, true); /* the writer holds its next round */
    test_insert(t, 0, NULL, 1, mb_value, 100);
    storage_disk_waits_t before;
    storage_db_disk_waits(db, &before);
    assert_int_equal(before.count, 0);
    pthread_t opener;
    assert_int_equal(pthread_create(&opener, NULL, open_gate_when_waited_for, f), 0);
    /* Each 1 MB record is handed over at once (past the write-behind limit);
     * past the queue's limit the hand-over must wait for the writer, which
     * the gate holds until the other thread sees that wait begin. */
    int k = 1;
    while ((uint64_t)k * sizeof(mb_value) <= STORAGE__LOG_QUEUE_MAX + (8u << 20)) {
        test_insert(t, k++, NULL, 1, mb_value, 100);
    }
    pthread_join(opener, NULL);
    assert_true(atomic_load(&f->opened)); /* it waited for the writer, not for memory */
    /* and that wait is counted and timed, for the emulator's metrics and warning */
    storage_disk_waits_t after;
    storage_db_disk_waits(db, &after);
    assert_true(after.count >= 1);
    assert_true(after.total_us > 0);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    wait_acked(db, storage_db_log_position(db));
}


static void a_stalled_sync_thread_holds_no_periodic_write_back(void **state)
{
    /* Under PERIODIC a write is acknowledged once written. Starting the
     * writeback of what is written can wait for a full device queue (over
     * 400 ms under a checkpoint's snapshot writes): the sync thread does
     * it, and the writer goes on writing while it waits. */
    log_fixture_t *f = *state;
    storage_db_t *db;
    storage_table_t *t = big_writes(f, &db, 'w');
    atomic_store(&f->sync_gate, true); /* the sync thread holds its next round or writeback */
    for (int k = 0; (uint64_t)k * sizeof(mb_value) <= 3 * STORAGE__WRITEBACK_BYTES; k++) {
        test_insert(t, k, NULL, 1, mb_value, 100);
        assert_int_equal(storage_db_log_flush(db), BASE_OK);
        wait_acked(db, storage_db_log_position(db)); /* written, whatever the sync thread does */
    }
    assert_int_equal(storage_db_syncs(db), 0);
    atomic_store(&f->sync_gate, false);
}


static void group_commit_through_the_log_thread_acknowledges_after_the_fsync(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_how(f, STORAGE_SYNC_GROUP, 0, LOG_THREAD);
    storage_table_t *t = storage_table_create(db, 7);
    for (int k = 0; k < 100; k++) {
        test_insert(t, k, NULL, 1, "v", 100);
    }
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    uint64_t pos = storage_db_log_position(db);
    wait_acked(db, pos);
    assert_true(storage_db_synced_position(db) >= pos); /* acknowledged means synced */
    assert_true(storage_db_syncs(db) >= 1);
    storage_disk_waits_t waits;
    storage_db_disk_waits(db, &waits);
    assert_int_equal(waits.count, 0); /* a disk keeping up holds no request */

    open_cfg(f, STORAGE_SYNC_NONE, 0, true);
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 100);
}


static void without_sync_the_log_thread_writes_and_never_syncs(void **state)
{
    log_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = open_how(f, STORAGE_SYNC_NONE, 0, LOG_THREAD);
    storage_table_t *t = storage_table_create(db, 7);
    test_insert(t, 1, NULL, 1, "old log", 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    test_insert(t, 2, NULL, 1, "new log", 100);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    wait_acked(db, storage_db_log_position(db));
    assert_int_equal(storage_db_checkpoint_poll(db, true, &err), BASE_OK);
    assert_int_equal(storage_db_syncs(db), 0); /* the switched-out log closed, unsynced */

    open_cfg(f, STORAGE_SYNC_NONE, 0, true); /* a crash */
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 7)), 2);
}

/* The loop wakes the writer every turn: as a batch thread it never pushes
 * the loop off its core when woken (base_thread_batch), nor does the sync
 * thread. Each sets that as it starts, so the test waits for it. */
static int policy_of(pthread_t t)
{
    int policy = -1;
    struct sched_param p;
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(pthread_getschedparam(t, &policy, &p), 0);
        if (policy == SCHED_BATCH) {
            break;
        }
        usleep(1000);
    }
    return policy;
}

static void the_log_threads_never_preempt_the_loop(void **state)
{
    log_fixture_t *f = *state;
    storage_db_t *db = open_how(f, STORAGE_SYNC_GROUP, 0, LOG_THREAD);
    assert_int_equal(policy_of(db->dur->syncer->writer), SCHED_BATCH);
    assert_int_equal(policy_of(db->dur->syncer->syncer), SCHED_BATCH);
    int own;
    struct sched_param p;
    assert_int_equal(pthread_getschedparam(pthread_self(), &own, &p), 0);
    assert_int_equal(own, SCHED_OTHER); /* the caller's own stays */
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(group_commit_publishes_positions_only_after_their_fsync),
        T(a_switched_log_is_synced_before_later_positions),
        T(periodic_sync_syncs_on_its_timer),
        T(always_counts_one_fsync_per_record),
        T(a_batch_is_one_record_whole_after_a_crash),
        T(a_batch_torn_by_a_crash_leaves_none_of_its_rows),
        T(crc32_matches_the_bitwise_definition),
        T(write_behind_writes_gathered_records_at_the_flush),
        T(write_behind_writes_pending_records_before_a_table_record),
        T(write_behind_writes_at_once_past_its_limit),
        T(write_behind_flushes_before_a_checkpoint_switches_logs),
        T(write_behind_refuses_to_acknowledge_what_it_could_not_write),
        T(a_table_record_does_not_swallow_the_loss_of_gathered_writes),
        T(a_checkpoint_is_due_once_the_log_outgrows_the_data),
        T(a_log_thread_writes_what_a_flush_hands_it),
        T(records_handed_over_before_a_switch_reach_the_old_log),
        T(a_write_the_log_thread_could_not_make_is_never_acknowledged),
        T(a_torn_write_to_a_switched_out_log_is_cut_off),
        T(a_hand_over_past_the_queue_limit_waits_for_the_writer),
        T(a_stalled_sync_thread_holds_no_periodic_write_back),
        T(group_commit_through_the_log_thread_acknowledges_after_the_fsync),
        T(without_sync_the_log_thread_writes_and_never_syncs),
        T(periodic_sync_starts_writeback_between_syncs),
        T(without_a_sync_thread_the_log_starts_its_own_writeback),
        T(the_log_threads_never_preempt_the_loop),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
