/*
 * test_checkpoint.c - the background checkpoint written a slice at a time:
 * with writes, deletions, a truncate, a drop, a new table and a partition
 * of thousands of rows changing between its slices, the fuzzy snapshot
 * plus the new log reopen to exactly the state the database had; a crash
 * in the middle of one loses nothing; a checkpoint at shutdown replaces a
 * running one (reusing its buffers and compression context, as each
 * checkpoint reuses the last one's), and writes nothing when nothing
 * changed since the last;
 * each checkpoint's new log is one made ahead, and makes the next; an old
 * file is deleted a step at a time, even one the sync thread still holds
 * open; the snapshot's compressor runs at a lower priority than the loop.
 * Each test works in its own directory under /tmp.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "storage/storage_int.h"
#include "storage_test.h"

enum { T_MAIN = 1, T_TRUNCATED = 2, T_DROPPED = 3, T_NEW = 4, T_BIG = 5 };
enum { N_KEYS = 2000, BIG_KEY = 5000, BIG_ROWS = 1500 };

typedef struct ck_fixture_s {
    char dir[64];
    char path[512];
    storage_db_t *db;
} ck_fixture_t;


static int setup(void **state)
{
    ck_fixture_t *f = calloc(1, sizeof(*f));
    test_dir_make(f->dir, sizeof(f->dir), "storage-checkpoint");
    *state = f;
    return 0;
}


static int teardown(void **state)
{
    ck_fixture_t *f = *state;
    storage__db_abandon(f->db);
    test_dir_remove(f->dir);
    free(f);
    return 0;
}


/* Reopens the directory as a killed process would leave it. */
static storage_db_t *reopen(ck_fixture_t *f)
{
    base_error_t err = {0};
    storage_sync_cfg_t cfg = {.mode = STORAGE_SYNC_NONE, .write_behind = true};
    storage__db_abandon(f->db);
    f->db = storage_db_open_cfg(f->dir, &cfg, &err);
    if (f->db == NULL) {
        fail_msg("open failed: %s", err.msg);
    }
    return f->db;
}


static bool exists(ck_fixture_t *f, const char *prefix, uint64_t gen, const char *suffix)
{
    struct stat st;
    storage__path(f->path, sizeof(f->path), f->dir, prefix, gen, suffix);
    return stat(f->path, &st) == 0;
}


/* Table id, claimed (restored ones are claimed on first use). */
static storage_table_t *table(storage_db_t *db, uint64_t id)
{
    storage_table_t *t = storage__db_find(db, id);
    return t != NULL && t->claimed ? t : storage_table_create(db, id);
}


/* Every live partition, static row, row and cell of table id, as text. */
static void dump_table(storage_db_t *db, uint64_t id, base_buf_t *out)
{
    char line[256];
    storage_table_t *t = table(db, id);
    storage_part_iter_t *pi = storage_part_iter_new(t, false, 0, NULL, 0);
    storage_partition_t *p;
    while ((p = storage_part_iter_next(pi)) != NULL) {
        size_t pk_len;
        const uint8_t *pk = storage_partition_key(p, &pk_len);
        base_buf_put(out, "P", 1);
        base_buf_put(out, pk, pk_len);
        storage_row_view_t v;
        bool more = storage_partition_static(p, 0, &v);
        storage_row_iter_t *ri = storage_row_iter_new(p, NULL, NULL, false, 0);
        for (; more || storage_row_iter_next(ri, &v); more = false) {
            int n = snprintf(line, sizeof(line), "\n  %.*s%s m%d@%lld", (int)v.ck_len,
                             (const char *)v.ck, v.is_static ? " static" : "", v.has_marker,
                             (long long)v.marker_ts);
            base_buf_put(out, line, (size_t)n);
            for (size_t i = 0; i < v.n_cells; i++) {
                const storage_cell_t *c = &v.cells[i];
                n = snprintf(line, sizeof(line), " %u=%.*s@%lld", c->col, (int)c->value_len,
                             (const char *)c->value, (long long)c->ts);
                base_buf_put(out, line, (size_t)n);
            }
        }
        storage_row_iter_free(ri);
        base_buf_put(out, "\n", 1);
    }
    storage_part_iter_free(pi);
}


static void dump(storage_db_t *db, const uint64_t *ids, size_t n, base_buf_t *out)
{
    base_buf_reset(out);
    for (size_t i = 0; i < n; i++) {
        char line[32];
        int len = snprintf(line, sizeof(line), "table %llu\n", (unsigned long long)ids[i]);
        base_buf_put(out, line, (size_t)len);
        dump_table(db, ids[i], out);
    }
}


/* Reopens the directory as a crash would leave it (rounds times) and checks
 * that tables ids read back as they were; returns the dump's size. */
static size_t assert_reopens_the_same(ck_fixture_t *f, const uint64_t *ids, size_t n, int rounds)
{
    base_buf_t want, got;
    base_buf_init(&want);
    base_buf_init(&got);
    dump(f->db, ids, n, &want);
    for (int i = 0; i < rounds; i++) {
        reopen(f);
        dump(f->db, ids, n, &got);
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.data, want.data, want.len);
    }
    size_t len = want.len;
    base_buf_fini(&want);
    base_buf_fini(&got);
    return len;
}


static void delete_partition(storage_table_t *t, int32_t k, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_partition = true;
    m.delete_ts = ts;
    assert_int_equal(storage_apply(t, &m, 0, NULL), BASE_OK);
}


static void delete_row(storage_table_t *t, int32_t k, const char *ck, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    m.delete_row = true;
    m.delete_ts = ts;
    assert_int_equal(storage_apply(t, &m, 0, NULL), BASE_OK);
}


static void load(storage_db_t *db)
{
    char ck[16];
    storage_table_t *a = table(db, T_MAIN);
    for (int k = 0; k < N_KEYS; k++) {
        test_insert(a, k, "a", 1, "first", 10);
        test_insert(a, k, "b", 1, "second", 10);
    }
    for (int r = 0; r < BIG_ROWS; r++) {
        snprintf(ck, sizeof(ck), "r%05d", r);
        test_insert(a, BIG_KEY, ck, 1, "big", 10);
    }
    storage_table_t *b = table(db, T_TRUNCATED);
    storage_table_t *c = table(db, T_DROPPED);
    for (int k = 0; k < 500; k++) {
        test_insert(b, k, "x", 1, "before the truncate", 10);
        test_insert(c, k, "x", 1, "dropped", 10);
    }
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
}


/* The writes of step i, some on partitions the cursor passed, some ahead. */
static void write_between(storage_db_t *db, int i)
{
    char ck[16];
    storage_table_t *a = table(db, T_MAIN);
    test_insert(a, (i * 37) % N_KEYS, "a", 1, "overwritten", 1000 + i);
    test_insert(a, (N_KEYS - 1 - i * 11 % N_KEYS), "c", 2, "added", 1000 + i);
    test_insert(a, 10000 + i, "a", 1, "new partition", 1000 + i);
    delete_partition(a, (i * 53 + 7) % N_KEYS, 20); /* shadows the loaded rows only */
    test_put(a, (i * 53 + 7) % N_KEYS, "a", 3, "after the deletion", 30);
    snprintf(ck, sizeof(ck), "z%05d", i);
    test_insert(a, BIG_KEY, ck, 1, "big, added", 1000 + i);
    snprintf(ck, sizeof(ck), "r%05d", (i * 97) % BIG_ROWS);
    delete_row(a, BIG_KEY, ck, 1000 + i);
    if (i == 5) {
        storage_table_t *b = table(db, T_TRUNCATED);
        storage_table_truncate(b);
        test_insert(b, 1, "y", 1, "after the truncate", 2000);
    }
    if (i == 8) {
        storage_table_drop(db, table(db, T_DROPPED));
    }
    if (i >= 10) {
        test_insert(table(db, T_NEW), i, "n", 1, "new table", 3000);
    }
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
}


/* Runs the checkpoint in the smallest slices, writing between them, until
 * it ends (stop_after >= 0: abandons it after that many slices). */
static int run_with_writes(storage_db_t *db, int stop_after)
{
    base_error_t err;
    int next_ms, rc, i = 0;
    while ((rc = storage_db_checkpoint_step(db, 0, &next_ms, &err)) == BASE_AGAIN) {
        if (i == stop_after) {
            return i;
        }
        write_between(db, i++);
        if (next_ms > 0) {
            usleep(1000);
        }
    }
    assert_int_equal(rc, BASE_OK);
    return i;
}


static void a_fuzzy_snapshot_and_its_log_rebuild_the_state_exactly(void **state)
{
    ck_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = reopen(f);
    load(db);
    assert_null(db->dur->snap_kept); /* nothing to keep before the first */
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    assert_true(storage_db_checkpoint_running(db));
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_AGAIN); /* one at a time */
    int slices = run_with_writes(db, -1);
    assert_non_null(db->dur->snap_kept); /* its buffers, for the next */
    assert_true(slices > 50); /* writes really came between slices, and inside the big one */
    assert_false(storage_db_checkpoint_running(db));
    assert_true(exists(f, "snapshot-", 2, ".lz4"));
    assert_false(exists(f, "snapshot-", 2, ".lz4.tmp"));
    assert_false(exists(f, "commitlog-", 1, ".log")); /* replaced by the snapshot */

    uint64_t ids[] = {T_MAIN, T_TRUNCATED, T_NEW};
    /* a crash right after: snapshot-2 and commitlog-2 */
    assert_true(assert_reopens_the_same(f, ids, 3, 1) > 50000);
}


static void a_crash_in_the_middle_of_a_checkpoint_loses_nothing(void **state)
{
    ck_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = reopen(f);
    load(db);
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    assert_int_equal(run_with_writes(db, 12), 12);
    assert_true(storage_db_checkpoint_running(db));

    uint64_t ids[] = {T_MAIN, T_TRUNCATED, T_NEW};
    assert_reopens_the_same(f, ids, 3, 1); /* the older generation and both logs */
    assert_false(exists(f, "snapshot-", 2, ".lz4"));
    /* and the next checkpoint, run whole, still gives the same state */
    assert_int_equal(storage_db_checkpoint_start(f->db, &err), BASE_OK);
    assert_int_equal(storage_db_checkpoint_poll(f->db, true, &err), BASE_OK);
    assert_reopens_the_same(f, ids, 3, 1);
}


static void a_checkpoint_now_replaces_a_running_one(void **state)
{
    ck_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = reopen(f);
    load(db);
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    run_with_writes(db, 3);
    /* The one replaced leaves its buffers and LZ4 context, its frame cut
     * short, to the one replacing it: whose snapshot must still read back. */
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK); /* as at shutdown */
    assert_non_null(db->dur->snap_kept);
    assert_false(storage_db_checkpoint_running(db));
    assert_false(exists(f, "snapshot-", 2, ".lz4.tmp")); /* the running one's temp is gone */
    assert_true(exists(f, "snapshot-", 3, ".lz4"));
    assert_false(exists(f, "commitlog-", 2, ".log"));

    uint64_t ids[] = {T_MAIN, T_TRUNCATED, T_DROPPED};
    assert_reopens_the_same(f, ids, 3, 2);
}


/* Each writer leaves its buffers and LZ4 context to the next (snapshot.c):
 * taken while a checkpoint runs, left back when it ends, and every
 * snapshot written with them reads back. */
static void each_checkpoint_takes_the_last_ones_buffers(void **state)
{
    ck_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = reopen(f);
    load(db);
    for (int i = 0; i < 3; i++) {
        assert_true((db->dur->snap_kept != NULL) == (i > 0));
        assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
        assert_null(db->dur->snap_kept); /* the running one's now */
        run_with_writes(db, -1);
        assert_non_null(db->dur->snap_kept);
    }
    uint64_t ids[] = {T_MAIN, T_TRUNCATED, T_NEW};
    assert_true(assert_reopens_the_same(f, ids, 3, 1) > 50000);
}


static void a_checkpoint_with_nothing_new_writes_nothing(void **state)
{
    ck_fixture_t *f = *state;
    base_error_t err;
    storage_db_t *db = reopen(f);
    load(db);
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK);
    assert_true(exists(f, "snapshot-", 2, ".lz4"));
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK); /* as a restart's shutdown */
    assert_false(exists(f, "snapshot-", 3, ".lz4"));
    assert_true(exists(f, "snapshot-", 2, ".lz4"));
    test_insert(table(db, T_MAIN), 1, "a", 1, "changed", 99);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK);
    assert_true(exists(f, "snapshot-", 3, ".lz4"));
    reopen(f);
    storage_row_view_t v;
    assert_true(test_row(table(f->db, T_MAIN), 1, "a", 0, &v));
    assert_int_equal(v.cells[0].ts, 99);
}

/* The log made ahead: its size, and the bytes allocated to it (-1, -1: none). */
static void prepared(ck_fixture_t *f, off_t *size, off_t *allocated)
{
    struct stat st;
    snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, STORAGE__LOG_PREPARED);
    bool there = stat(f->path, &st) == 0;
    *size = there ? st.st_size : -1;
    *allocated = there ? (off_t)st.st_blocks * 512 : -1;
}


static off_t allocated_to(ck_fixture_t *f, const char *prefix, uint64_t gen, const char *suffix)
{
    struct stat st;
    storage__path(f->path, sizeof(f->path), f->dir, prefix, gen, suffix);
    assert_int_equal(stat(f->path, &st), 0);
    return (off_t)st.st_blocks * 512;
}


/* Bytes allocated to the files in the database's directory. */
static off_t dir_allocated(ck_fixture_t *f)
{
    off_t sum = 0;
    DIR *d = opendir(f->dir);
    assert_non_null(d);
    struct dirent *e;
    /* cppcheck-suppress readdirCalled ; one thread lists this DIR stream */
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, e->d_name);
        if (stat(f->path, &st) == 0 && S_ISREG(st.st_mode)) {
            sum += (off_t)st.st_blocks * 512;
        }
    }
    closedir(d);
    return sum;
}


static bool on_tmpfs(const char *dir)
{
    struct statfs fs;
    assert_int_equal(statfs(dir, &fs), 0);
    return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}


static void each_checkpoint_takes_a_log_made_ahead_and_makes_the_next(void **state)
{
    /* A log appended to while its blocks are allocated waits on the
     * allocating writeback; so the next log is made ahead, on a thread:
     * at open and whenever one is taken, by a checkpoint or by a roll. */
    ck_fixture_t *f = *state;
    base_error_t err;
    off_t size, allocated;
    storage_db_t *db = reopen(f);
    storage__prep_join(db->dur);
    prepared(f, &size, &allocated);
    if (on_tmpfs(f->dir)) { /* where blocks would be memory, none are made ahead */
        assert_int_equal(size, -1);
        return;
    }
    assert_int_equal(size, 0);
    assert_true(allocated >= (off_t)STORAGE__LOG_PREPARE_MIN);

    load(db);
    assert_int_equal(storage_db_checkpoint_start(db, &err), BASE_OK);
    assert_true(allocated_to(f, "commitlog-", 2, ".log") >= (off_t)STORAGE__LOG_PREPARE_MIN);
    storage__prep_join(db->dur); /* the next one, made meanwhile */
    prepared(f, &size, &allocated);
    assert_int_equal(size, 0);
    assert_true(allocated >= (off_t)STORAGE__LOG_PREPARE_MIN);
    run_with_writes(db, -1);
    assert_int_equal(storage_db_checkpoint_poll(db, true, &err), BASE_OK);
    assert_int_equal(storage__log_prepare_size(10u << 20), STORAGE__LOG_PREPARE_MIN);
    assert_int_equal(storage__log_prepare_size(1000u << 20), 250u << 20);
    assert_int_equal(storage__log_prepare_size((uint64_t)100 << 30), STORAGE__LOG_PREPARE_MAX);
    test_insert(table(db, T_MAIN), 1, "a", 1, "after the checkpoint", 5000);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);

    /* Near the end of its room the log rolls into the next one, without a
     * checkpoint: a generation that replays after the others. */
    uint64_t room = db->dur->log_room;
    assert_true(room >= STORAGE__LOG_PREPARE_MIN);
    static char mb[1 << 20];
    memset(mb, 'r', sizeof(mb) - 1);
    int k = 0;
    while (!exists(f, "commitlog-", 3, ".log")) {
        assert_true((uint64_t)k * sizeof(mb) < room); /* it rolled before the room ran out */
        test_insert(table(db, T_BIG), k++, "a", 1, mb, 6000); /* not dumped: too big */
        assert_int_equal(storage_db_log_flush(db), BASE_OK);
    }
    assert_false(exists(f, "snapshot-", 3, ".lz4"));
    assert_true(allocated_to(f, "commitlog-", 3, ".log") >= (off_t)STORAGE__LOG_PREPARE_MIN);
    test_insert(table(db, T_MAIN), 2, "a", 1, "after the roll", 7000);
    assert_int_equal(storage_db_log_flush(db), BASE_OK);
    assert_true(storage_db_log_bytes(db) > room - STORAGE__ROLL_MARGIN); /* both logs count */

    /* Everything, in the taken-over and the rolled log, replays after a
     * crash; reopening replaces the leftover log made ahead. */
    uint64_t ids[] = {T_MAIN, T_TRUNCATED, T_NEW};
    assert_reopens_the_same(f, ids, 3, 2);
    storage_row_view_t v;
    assert_true(test_row(table(f->db, T_MAIN), 1, "a", 0, &v));
    assert_int_equal(v.cells[0].ts, 5000);
    assert_true(test_row(table(f->db, T_MAIN), 2, "a", 0, &v));
    assert_int_equal(v.cells[0].ts, 7000);
    assert_int_equal(storage_table_partition_count(table(f->db, T_BIG)), k);
    assert_true(test_row(table(f->db, T_BIG), k - 1, "a", 0, &v));
    assert_int_equal(v.cells[0].value_len, sizeof(mb) - 1);

    /* The checkpoint at close neither takes one nor makes one: a stopped
     * database holds no blocks ahead. */
    storage_db_free(f->db);
    f->db = NULL;
    prepared(f, &size, &allocated);
    assert_int_equal(size, -1);
    assert_true(dir_allocated(f) < (off_t)STORAGE__LOG_PREPARE_MIN);
    reopen(f);
    assert_true(test_row(table(f->db, T_MAIN), 2, "a", 0, &v));
    assert_int_equal(v.cells[0].ts, 7000);
}


static void a_deleted_file_is_freed_in_steps_though_still_open(void **state)
{
    ck_fixture_t *f = *state;
    storage__path(f->path, sizeof(f->path), f->dir, "commitlog-", 1, ".log");
    int fd = open(f->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    assert_true(fd >= 0);
    off_t big = (off_t)STORAGE__UNLINK_STEP * 3 + 12345;
    assert_int_equal(ftruncate(fd, big), 0); /* sparse: the steps are what is tested */
    storage__unlink(f->path);
    struct stat st;
    assert_int_not_equal(stat(f->path, &st), 0); /* gone by name at once */
    /* The holder's last close would free only what the steps left. */
    assert_int_equal(fstat(fd, &st), 0);
    assert_true(st.st_size <= (off_t)STORAGE__UNLINK_STEP);
    assert_int_equal(st.st_size, big % (off_t)STORAGE__UNLINK_STEP);
    close(fd);
    storage__unlink(f->path); /* already gone: nothing to do, nothing fails */
}

/* The nice value of this process's thread named name, or -100 while none
 * is (or its /proc entry went away as it was read). */
static int nice_of_thread(const char *name)
{
    DIR *d = opendir("/proc/self/task");
    assert_non_null(d);
    int nice = -100;
    for (struct dirent *e; nice == -100 && (e = readdir(d)) != NULL;) {
        char path[300], line[1024];
        snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
        FILE *f = e->d_name[0] != '.' ? fopen(path, "r") : NULL;
        bool read = f != NULL && fgets(line, sizeof(line), f) != NULL;
        if (f != NULL) {
            fclose(f);
        }
        char want[64];
        snprintf(want, sizeof(want), "(%s)", name);
        const char *end = read ? strrchr(line, ')') : NULL;
        if (end == NULL || strstr(line, want) == NULL) {
            continue;
        }
        int field = 2; /* after "(comm)": state is field 3, nice field 19 */
        for (const char *q = end + 1; *q != '\0' && field < 19; q++) {
            if (*q == ' ' && ++field == 19) {
                nice = (int)strtol(q + 1, NULL, 10);
            }
        }
    }
    closedir(d);
    return nice;
}


/* The compressor must yield the loop its core (snapshot.c): it runs at
 * STORAGE__COMPRESS_NICE, as /proc shows, from the moment a snapshot opens. */
static void the_snapshot_compressor_runs_below_the_loop(void **state)
{
    ck_fixture_t *f = *state;
    base_error_t err;
    storage__snap_t *w = storage__snap_open(f->dir, 9, NULL, &err);
    assert_non_null(w);
    /* A test run nicer than that already can only stay there without privilege. */
    int own = getpriority(PRIO_PROCESS, 0);
    int nice = -100;
    for (int i = 0; i < 20000 && nice != STORAGE__COMPRESS_NICE; i++) {
        nice = nice_of_thread("cce-compress"); /* named and niced as it starts */
        if (nice != STORAGE__COMPRESS_NICE && !(own > STORAGE__COMPRESS_NICE && nice == own)) {
            usleep(500);
        } else {
            break;
        }
    }
    assert_true(nice == STORAGE__COMPRESS_NICE || (own > STORAGE__COMPRESS_NICE && nice == own));
    storage__snap_free(w);
    assert_false(exists(f, "snapshot-", 9, ".lz4.tmp"));
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(a_fuzzy_snapshot_and_its_log_rebuild_the_state_exactly),
        T(a_crash_in_the_middle_of_a_checkpoint_loses_nothing),
        T(a_checkpoint_now_replaces_a_running_one),
        T(each_checkpoint_takes_the_last_ones_buffers),
        T(a_checkpoint_with_nothing_new_writes_nothing),
        T(each_checkpoint_takes_a_log_made_ahead_and_makes_the_next),
        T(a_deleted_file_is_freed_in_steps_though_still_open),
        T(the_snapshot_compressor_runs_below_the_loop),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
