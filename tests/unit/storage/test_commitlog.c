/*
 * test_commitlog.c - the commit log's sync modes and records: group commit
 * (STORAGE_SYNC_GROUP) publishes a synced position only after the fdatasync
 * covering it and covers many writes with one; a log switched by a
 * checkpoint is synced before positions past it are; periodic sync syncs
 * on its timer; and the data of every mode comes back after a crash. Each
 * test works in its own directory under /tmp.
 */
#include <dirent.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
} log_fixture_t;


static int setup(void **state)
{
    log_fixture_t *f = calloc(1, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "/tmp/storage-commitlog-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    *state = f;
    return 0;
}


static int teardown(void **state)
{
    log_fixture_t *f = *state;
    atomic_store(&f->gate, false);
    storage__db_abandon(f->db);
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
    rmdir(f->dir);
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


static storage_db_t *open_mode(log_fixture_t *f, storage_sync_t mode, int interval_ms)
{
    base_error_t err = {0};
    storage_sync_cfg_t cfg = {mode, interval_ms, hook, f};
    storage__db_abandon(f->db);
    f->db = storage_db_open_cfg(f->dir, &cfg, &err);
    if (f->db == NULL) {
        fail_msg("open failed: %s", err.msg);
    }
    return f->db;
}


/* Waits on the notify fd until the synced position reaches pos. */
static void wait_synced(storage_db_t *db, uint64_t pos)
{
    struct pollfd p = {storage_db_sync_notify_fd(db), POLLIN, 0};
    assert_true(p.fd >= 0);
    while (storage_db_synced_position(db) < pos) {
        assert_false(storage_db_sync_failed(db));
        assert_true(poll(&p, 1, 10000) == 1); /* a round always ends with a notification */
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


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(group_commit_publishes_positions_only_after_their_fsync),
        T(a_switched_log_is_synced_before_later_positions),
        T(periodic_sync_syncs_on_its_timer),
        T(always_counts_one_fsync_per_record),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
