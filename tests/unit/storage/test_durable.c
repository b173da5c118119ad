/*
 * test_durable.c - durable databases: everything written comes back after
 * a crash (a db abandoned without checkpoint) or a clean close, tombstones
 * included so older writes stay shadowed; torn log tails are dropped,
 * corruption in the middle fails the open, and no corrupt file crashes it.
 * Each test works in its own directory under /tmp.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <lz4frame.h>

#include "storage/storage_int.h"
#include "storage_test.h"

#define NOW 1000000


typedef struct dur_fixture_s {
    char dir[64];
    char path[256];
    storage_db_t *db;
} dur_fixture_t;


static int setup(void **state)
{
    dur_fixture_t *f = calloc(1, sizeof(*f));
    test_dir_make(f->dir, sizeof(f->dir), "storage-durable");
    *state = f;
    return 0;
}


static int teardown(void **state)
{
    dur_fixture_t *f = *state;
    storage__db_abandon(f->db);
    test_dir_remove(f->dir);
    free(f);
    return 0;
}


static storage_db_t *reopen(dur_fixture_t *f)
{
    base_error_t err = {0};
    storage__db_abandon(f->db);
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    if (f->db == NULL) {
        fail_msg("open failed: %s", err.msg);
    }
    return f->db;
}


static const char *file(dur_fixture_t *f, const char *prefix, uint64_t gen, const char *suffix)
{
    storage__path(f->path, sizeof(f->path), f->dir, prefix, gen, suffix);
    return f->path;
}


static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}


static off_t file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}


/* ---- a dump of every byte of state, tombstones included ----------------- */

static void dump_cells(base_buf_t *b, const uint8_t *blk)
{
    storage__row_t row = {0};
    storage__row_decode(blk, &row);
    const storage__row_t *r = &row;
    base_buf_printf(b, " del=%lld marker=%d/%lld/%lld/%d bytes=%zu\n", (long long)r->del_ts,
                    r->has_marker, (long long)(r->has_marker ? r->marker_ts : 0),
                    (long long)(r->has_marker ? r->marker_expires_us : 0),
                    r->has_marker ? r->marker_ttl : 0, r->bytes);
    for (size_t i = 0; i < r->n_cells; i++) {
        const storage_cell_t *c = &r->cells[i];
        base_buf_printf(b, "  c%u p=%d:", c->col, c->path != NULL);
        base_buf_put(b, c->path, c->path_len);
        base_buf_printf(b, " v=");
        base_buf_put(b, c->value, c->value_len);
        base_buf_printf(b, " t=%d ts=%lld exp=%lld ttl=%d\n", c->tombstone, (long long)c->ts,
                        (long long)c->expires_us, c->ttl);
    }
    storage__row_fini(&row);
}


static void dump_row(base_buf_t *b, const uint8_t *blk)
{
    size_t ck_len;
    const uint8_t *ck = storage__blk_ck(blk, &ck_len);
    base_buf_printf(b, " row ");
    base_buf_put(b, ck, ck_len);
    dump_cells(b, blk);
}


static void dump_table(base_buf_t *b, const storage_table_t *t)
{
    base_buf_printf(b, "table %llu phys=%u parts=%zu visible=%zu bytes=%zu\n",
                    (unsigned long long)t->id, t->n_physical, t->parts.count, t->n_visible,
                    t->bytes);
    for (storage__pt_pos_t pos = storage__pt_first(&t->parts); storage__pt_at(pos) != NULL;
         pos = storage__pt_next(pos)) {
        const storage_partition_t *p = storage__pt_at(pos);
        const storage__pext_t *x = storage__part_ext(p);
        base_buf_printf(b, "part %lld del=%lld bytes=%zu key=", (long long)p->token,
                        (long long)(x != NULL ? x->del_ts : STORAGE__NO_DELETION),
                        storage_partition_bytes(p));
        base_buf_put(b, p->data, p->pk_len);
        base_buf_printf(b, "\n");
        if (x == NULL) {
            dump_row(b, storage__part_row(p));
            continue;
        }
        for (size_t i = 0; i < x->n_rts; i++) {
            const storage__rt_t *rt = &x->rts[i];
            base_buf_printf(b, " rt %d:", rt->start_inclusive);
            base_buf_put(b, rt->start, rt->start_len);
            base_buf_printf(b, " %d:", rt->end_inclusive);
            base_buf_put(b, rt->end, rt->end_len);
            base_buf_printf(b, " ts=%lld\n", (long long)rt->ts);
        }
        if (x->statics != NULL) {
            base_buf_printf(b, " static");
            dump_cells(b, x->statics);
        }
        for (storage__sl_node_t *m = storage__sl_first(&x->rows); m != NULL; m = m->next[0]) {
            dump_row(b, m->item);
        }
    }
}


/* Every table, in id order, as text (caller frees). */
static char *dump(const storage_db_t *db)
{
    base_buf_t b;
    base_buf_init(&b);
    uint64_t last = 0;
    bool any = true;
    while (any) {
        any = false;
        const storage_table_t *next = NULL;
        for (const storage_table_t *t = db->tables; t != NULL; t = t->next) {
            if ((last == 0 || t->id > last) && (next == NULL || t->id < next->id)) {
                next = t;
            }
        }
        if (next != NULL) {
            dump_table(&b, next);
            last = next->id;
            any = true;
        }
    }
    base_buf_put_u8(&b, 0);
    return (char *)b.data;
}


/* ---- a workload touching every kind of state ---------------------------- */

static void put_ttl(storage_table_t *t, int32_t k, const char *ck, const char *v, int64_t ts,
                    int64_t expires)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    storage_cell_t c = test_cell(1, v, ts);
    c.expires_us = expires;
    c.ttl = 10;
    m.row_marker = true;
    m.marker_ts = ts;
    m.marker_expires_us = expires;
    m.marker_ttl = 10;
    m.cells = &c;
    m.n_cells = 1;
    assert_int_equal(storage_apply(t, &m, NOW, NULL), BASE_OK);
}


static void delete_range(storage_table_t *t, int32_t k, const char *from, const char *to,
                         int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_range = true;
    m.range_start = test_bound(from, true);
    m.range_end = test_bound(to, false);
    m.delete_ts = ts;
    assert_int_equal(storage_apply(t, &m, NOW, NULL), BASE_OK);
}


static void delete_partition(storage_table_t *t, int32_t k, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    m.delete_partition = true;
    m.delete_ts = ts;
    assert_int_equal(storage_apply(t, &m, NOW, NULL), BASE_OK);
}


static void delete_row(storage_table_t *t, int32_t k, const char *ck, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    m.delete_row = true;
    m.delete_ts = ts;
    assert_int_equal(storage_apply(t, &m, NOW, NULL), BASE_OK);
}


/* SET l = {x, y} without a timestamp: cleared relative to the write. */
static void replace_collection(storage_table_t *t, int32_t k, const char *ck, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    uint32_t col = 5;
    storage_cell_t cells[2] = {test_elem(5, "x", "1", ts), test_elem(5, "", "empty-key", ts)};
    m.clear_cols = &col;
    m.n_clear_cols = 1;
    m.cells = cells;
    m.n_cells = 2;
    assert_int_equal(storage_apply(t, &m, NOW, NULL), BASE_OK);
}


static void put_static(storage_table_t *t, int32_t k, const char *v, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_cell_t c = test_cell(9, v, ts);
    m.static_row = true;
    m.cells = &c;
    m.n_cells = 1;
    assert_int_equal(storage_apply(t, &m, NOW, NULL), BASE_OK);
}


static void workload(storage_db_t *db)
{
    storage_table_t *t = storage_table_create(db, 7);
    storage_table_t *gone = storage_table_create(db, 8);
    storage_table_t *emptied = storage_table_create(db, 9);
    storage_table_set_physical_partitions(t, 4);

    for (int k = 0; k < 20; k++) {
        test_insert(t, k, "a", 1, "va", 100);
        test_insert(t, k, "b", 1, "vb", 100);
        test_insert(t, k, "c", 1, "vc", 100);
        test_insert(t, k, "d", 1, "vd", 100);
        test_insert(gone, k, NULL, 1, "x", 100);
        test_insert(emptied, k, NULL, 1, "x", 100);
    }
    put_ttl(t, 1, "e", "ttl", 100, NOW + 5000);
    test_put(t, 2, "a", 1, NULL, 200); /* cell tombstone */
    delete_range(t, 3, "b", "d", 300); /* [b, d) */
    delete_partition(t, 4, 400);
    delete_partition(t, 99, 400); /* a tombstone-only partition */
    delete_row(t, 5, "c", 500);
    replace_collection(t, 6, "a", 600);
    replace_collection(t, 6, "b", 600);
    test_put(t, 6, "b", 5, NULL, 700); /* DELETE l */
    put_static(t, 7, "s", 100);
    put_static(t, 4, "s-old", 300); /* shadowed by the partition deletion */
    test_insert(t, 4, "z", 1, "after", 450);
    storage_table_truncate(emptied);
    test_insert(emptied, 1, NULL, 1, "kept", 100);
    storage_table_drop(db, gone);
}


/* Writes older than the tombstones above stay invisible. */
static void check_shadowing(storage_table_t *t)
{
    char buf[32];
    test_put(t, 2, "a", 1, "old", 150);
    assert_null(test_get(t, 2, "a", 1, NOW, buf, sizeof(buf)));
    test_insert(t, 3, "c", 1, "old", 250);
    assert_null(test_get(t, 3, "c", 1, NOW, buf, sizeof(buf)));
    assert_string_equal(test_scan(t, 3, NULL, NULL, false, NOW, buf, sizeof(buf)), "a,d");
    test_insert(t, 4, "a", 1, "old", 350);
    assert_null(test_get(t, 4, "a", 1, NOW, buf, sizeof(buf)));
    assert_string_equal(test_get(t, 4, "z", 1, NOW, buf, sizeof(buf)), "after");
    test_insert(t, 99, "a", 1, "old", 399);
    assert_null(test_part(t, 99));
    test_insert(t, 5, "c", 1, "old", 499);
    assert_null(test_get(t, 5, "c", 1, NOW, buf, sizeof(buf)));
    assert_string_equal(test_get(t, 1, "e", 1, NOW, buf, sizeof(buf)), "ttl");
    assert_null(test_get(t, 1, "e", 1, NOW + 5000, buf, sizeof(buf)));
    storage_row_view_t v;
    assert_true(test_part(t, 7) != NULL && storage_partition_static(test_part(t, 7), NOW, &v));
    assert_int_equal(storage_table_physical_partitions(t), 4);
}


/* ---- tests ----------------------------------------------------------------- */

static void writes_survive_a_crash_without_checkpoint(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    assert_true(storage_db_durable(f->db));
    workload(f->db);
    assert_true(storage_db_log_bytes(f->db) > 0);
    assert_int_equal(storage_db_log_bytes(f->db), file_size(file(f, "commitlog-", 1, ".log")));
    char *before = dump(f->db);

    reopen(f);
    char *after = dump(f->db);
    assert_string_equal(before, after);
    assert_false(exists(file(f, "snapshot-", 1, ".lz4")));

    /* Claiming: restored tables come back by id; a dropped id is new. */
    storage_table_t *t = storage_table_create(f->db, 7);
    assert_int_equal(storage_table_partition_count(t), 20); /* 99 has no data */
    storage_table_t *emptied = storage_table_create(f->db, 9);
    assert_int_equal(storage_table_partition_count(emptied), 1);
    storage_table_t *gone = storage_table_create(f->db, 8);
    assert_int_equal(storage_table_partition_count(gone), 0);
    check_shadowing(t);
    free(before);
    free(after);
}


static void checkpoint_then_more_writes_then_reopen(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_ALWAYS, &err);
    assert_non_null(f->db);
    workload(f->db);
    assert_int_equal(storage_db_checkpoint(f->db, &err), BASE_OK);
    assert_int_equal(storage_db_log_bytes(f->db), 0);
    assert_true(exists(file(f, "snapshot-", 2, ".lz4")));
    assert_true(exists(file(f, "commitlog-", 2, ".log")));
    assert_false(exists(file(f, "commitlog-", 1, ".log")));

    storage_table_t *t = storage__db_find(f->db, 7);
    test_insert(t, 50, "a", 1, "new", 800);
    delete_partition(t, 12, 900);
    char *before = dump(f->db);
    reopen(f);
    char *after = dump(f->db);
    assert_string_equal(before, after);
    free(after);

    /* A clean close checkpoints; reopening reads only the snapshot. */
    storage_db_free(f->db);
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    assert_false(exists(file(f, "commitlog-", 2, ".log")));
    assert_true(exists(file(f, "snapshot-", 3, ".lz4")));
    after = dump(f->db);
    assert_string_equal(before, after);
    check_shadowing(storage_table_create(f->db, 7));
    free(before);
    free(after);
}


/* A forked checkpoint: writes go on into the new log while the child writes
 * the snapshot of the moment it was forked; the old generation goes only once
 * the snapshot is whole, and every write of both sides survives a reopen. */
static void background_checkpoint_snapshots_the_fork_point(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    workload(f->db);
    assert_int_equal(storage_db_checkpoint_start(f->db, &err), BASE_OK);
    assert_int_equal(storage_db_checkpoint_start(f->db, &err), BASE_AGAIN); /* one at a time */
    assert_int_equal(storage_db_log_bytes(f->db), 0);
    storage_table_t *t = storage__db_find(f->db, 7);
    test_insert(t, 50, "a", 1, "after the fork", 800);
    assert_true(exists(file(f, "commitlog-", 2, ".log")));
    assert_int_equal(storage_db_checkpoint_poll(f->db, true, &err), BASE_OK);
    assert_true(exists(file(f, "snapshot-", 2, ".lz4")));
    assert_false(exists(file(f, "commitlog-", 1, ".log")));
    assert_int_equal(storage_db_checkpoint_poll(f->db, false, &err), BASE_OK); /* none running */
    char *before = dump(f->db);
    reopen(f);
    assert_true(storage_db_recovered_bytes(f->db) > 0);
    char *after = dump(f->db);
    assert_string_equal(before, after);
    free(before);
    free(after);
}


static void unclaimed_tables_are_kept_until_dropped(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    test_insert(storage_table_create(f->db, 1), 1, NULL, 1, "one", 1);
    test_insert(storage_table_create(f->db, 2), 1, NULL, 1, "two", 1);
    storage_table_create(f->db, 3);
    reopen(f);
    char buf[16];
    assert_string_equal(test_get(storage_table_create(f->db, 1), 1, NULL, 1, 0, buf, 16), "one");
    assert_int_equal(storage_db_checkpoint(f->db, &err), BASE_OK);
    reopen(f);
    assert_string_equal(test_get(storage_table_create(f->db, 2), 1, NULL, 1, 0, buf, 16), "two");
    size_t with_data = 0;
    uint64_t first = 0;
    assert_int_equal(storage_db_unclaimed(f->db, &with_data, &first), 2); /* tables 1 and 3 */
    assert_int_equal(with_data, 1);
    assert_int_equal(first, 1);
    /* Only the empty one goes: dropping table 1 would lose its row. */
    assert_int_equal(storage_db_drop_unclaimed(f->db), 1);
    assert_int_equal(storage_db_checkpoint(f->db, &err), BASE_OK);
    reopen(f);
    assert_null(storage__db_find(f->db, 3));
    assert_non_null(storage__db_find(f->db, 2));
    assert_string_equal(test_get(storage_table_create(f->db, 1), 1, NULL, 1, 0, buf, 16), "one");
}


/* n single-row inserts into table 1 of a fresh db. */
static void fill(dur_fixture_t *f, int n)
{
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    storage_table_t *t = storage_table_create(f->db, 1);
    for (int i = 0; i < n; i++) {
        test_insert(t, i, NULL, 1, "value", 100 + i);
    }
}


static void torn_tail_is_cut_off_and_the_rest_restored(void **state)
{
    dur_fixture_t *f = *state;
    fill(f, 10);
    const char *log = file(f, "commitlog-", 1, ".log");
    off_t full = file_size(log);
    off_t one = (full - 17) / 10; /* the CREATE record is 17 bytes */
    storage__db_abandon(f->db);
    f->db = NULL;
    assert_int_equal(truncate(log, full - 3), 0);

    reopen(f);
    storage_table_t *t = storage_table_create(f->db, 1);
    assert_int_equal(storage_table_partition_count(t), 9);
    assert_null(test_part(t, 9));
    assert_int_equal(file_size(log), full - one);

    /* Appending after the cut works, and so does a zero-filled tail. */
    test_insert(t, 9, NULL, 1, "again", 1);
    storage__db_abandon(f->db);
    f->db = NULL;
    int fd = open(log, O_WRONLY | O_APPEND);
    uint8_t zeros[100] = {0};
    assert_int_equal(write(fd, zeros, sizeof(zeros)), sizeof(zeros));
    close(fd);
    reopen(f);
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 1)), 10);
}


static void corrupt_byte_in_the_middle_fails_the_open(void **state)
{
    dur_fixture_t *f = *state;
    fill(f, 10);
    const char *log = file(f, "commitlog-", 1, ".log");
    off_t size = file_size(log);
    storage__db_abandon(f->db);
    f->db = NULL;

    int fd = open(log, O_RDWR);
    uint8_t byte;
    assert_int_equal(pread(fd, &byte, 1, size / 2), 1);
    byte ^= 0x40;
    assert_int_equal(pwrite(fd, &byte, 1, size / 2), 1);
    close(fd);

    base_error_t err = {0};
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "corrupt record at offset"));
    assert_non_null(strstr(err.msg, "commitlog-1.log"));
    assert_int_equal(file_size(log), size); /* nothing was cut */
}


static void corrupt_snapshot_fails_the_open(void **state)
{
    dur_fixture_t *f = *state;
    fill(f, 100);
    storage_db_free(f->db); /* checkpoint: snapshot-2, log 1 deleted */
    f->db = NULL;
    const char *snap = file(f, "snapshot-", 2, ".lz4");
    off_t size = file_size(snap);
    int fd = open(snap, O_RDWR);
    uint8_t byte = 0xff;
    assert_int_equal(pwrite(fd, &byte, 1, size / 2), 1);
    close(fd);

    base_error_t err = {0};
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "invalid snapshot"));
}


static void second_open_of_the_same_directory_fails(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err = {0};
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "in use"));
}


static void a_write_that_cannot_be_logged_is_refused(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    storage_table_t *t = storage_table_create(f->db, 1);
    test_insert(t, 1, NULL, 1, "logged", 1);

    /* A log that refuses writes, as a full or failing disk would. */
    close(f->db->dur->log_fd);
    f->db->dur->log_fd = open("/dev/null", O_RDONLY);
    test_key_t key = test_key(2);
    storage_mutation_t m = test_mut(&key, NULL);
    storage_cell_t c = test_cell(1, "lost", 1);
    m.cells = &c;
    m.n_cells = 1;
    storage_write_stats_t ws;
    assert_int_equal(storage_apply(t, &m, 0, &ws), BASE_EIO);
    assert_int_equal(ws.bytes_written, 0);
    assert_null(test_part(t, 2));
    storage_table_truncate(t); /* memory moves on; the log is now behind */
    assert_int_equal(storage_apply(t, &m, 0, NULL), BASE_EIO);

    /* A checkpoint captures memory and a new log takes writes again. */
    assert_int_equal(storage_db_checkpoint(f->db, &err), BASE_OK);
    assert_int_equal(storage_apply(t, &m, 0, NULL), BASE_OK);
    reopen(f);
    t = storage_table_create(f->db, 1);
    assert_null(test_part(t, 1));
    assert_non_null(test_part(t, 2));
}


static void in_memory_databases_are_not_durable(void **state)
{
    (void)state;
    storage_db_t *db = storage_db_new();
    base_error_t err;
    assert_false(storage_db_durable(db));
    assert_int_equal(storage_db_log_bytes(db), 0);
    assert_int_equal(storage_db_checkpoint(db, &err), BASE_OK);
    storage_db_free(db);
}


/* ---- corrupt input never crashes ---------------------------------------- */

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    close(fd);
}


static void every_truncation_and_flipped_byte_opens_or_fails_cleanly(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    workload(f->db);
    storage__db_abandon(f->db);
    f->db = NULL;
    uint8_t *orig;
    size_t len;
    char log[256];
    strcpy(log, file(f, "commitlog-", 1, ".log"));
    assert_int_equal(storage__read_file(log, &orig, &len, &err), BASE_OK);

    /* Each open reports the torn tail it cuts: keep the test output short. */
    fflush(stderr);
    int saved = dup(2);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);

    uint8_t *copy = malloc(len);
    for (size_t i = 0; i < len; i += 7) {
        write_file(log, orig, i);
        storage_db_t *db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
        assert_non_null(db); /* a prefix is a torn tail */
        storage__db_abandon(db);

        memcpy(copy, orig, len);
        copy[i] ^= (uint8_t)(1u << (i % 8));
        write_file(log, copy, len);
        storage__db_abandon(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    free(copy);
    free(orig);
}


/* Records with valid checksums but random payloads: the decoder's own
 * bounds checks are all that stands between them and memory. */
static void garbage_with_valid_checksums_never_crashes(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    char log[256];
    strcpy(log, file(f, "commitlog-", 1, ".log"));
    uint64_t seed = 12345;
    for (int round = 0; round < 300; round++) {
        base_buf_t b;
        base_buf_init(&b);
        size_t start = storage__rec_begin(&b, STORAGE__REC_CREATE, 1);
        storage__rec_end(&b, start);
        for (int r = 0; r < 4; r++) {
            start = storage__rec_begin(&b, STORAGE__REC_MUTATION, 1);
            /* A real mutation, then bytes of it overwritten at random. */
            test_key_t key = test_key(r);
            storage_mutation_t m = test_mut(&key, "ck");
            storage_cell_t cells[2] = {test_cell(1, "v", 5), test_elem(2, "p", "w", 6)};
            m.cells = cells;
            m.n_cells = 2;
            m.delete_range = r == 1;
            storage__rec_put_mutation(&b, &m, 0);
            size_t body = start + STORAGE__REC_HEADER + 9;
            for (int k = 0; k < 3; k++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                size_t at = body + (size_t)(seed >> 33) % (b.len - body);
                b.data[at] = (uint8_t)(seed >> 20);
            }
            storage__rec_end(&b, start);
        }
        storage__rec_seal(b.data, b.len);
        write_file(log, b.data, b.len);
        base_buf_fini(&b);
        storage__db_abandon(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    }
}


/* workload()'s kinds of state, plus enough 1 KB rows and one row of a
 * 9 MB cell that the log and the snapshot span several read windows
 * (stream.c: 8 MB) and hold a record larger than one. */
static void large_workload(storage_db_t *db)
{
    workload(db);
    storage_table_t *t = storage_table_create(db, 10);
    static char value[1025];
    memset(value, 'v', sizeof(value) - 1);
    for (int k = 0; k < 12000; k++) {
        value[k % 1024] = (char)('a' + k % 26);
        test_insert(t, k, k % 3 == 0 ? "r1" : NULL, 1, value, 100 + k);
    }
    char *huge = malloc(9u << 20);
    memset(huge, 'h', (9u << 20) - 1);
    huge[(9u << 20) - 1] = '\0';
    test_insert(t, 50000, "big", 1, huge, 5);
    free(huge);
    for (int k = 0; k < 12000; k += 5) {
        test_insert(t, k, "r2", 2, "second row", 200 + k);
    }
    delete_range(t, 30, "a", "r2", 50000);
    put_static(t, 60, "static", 50000);
}


static void a_log_and_a_snapshot_larger_than_the_read_window_restore_exactly(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    large_workload(f->db);
    assert_true(file_size(file(f, "commitlog-", 1, ".log")) > (off_t)(16u << 20));
    char *before = dump(f->db);

    reopen(f); /* from the log */
    char *after = dump(f->db);
    assert_string_equal(before, after);
    free(after);

    assert_int_equal(storage_db_checkpoint(f->db, &err), BASE_OK);
    reopen(f); /* from the snapshot alone */
    assert_false(exists(file(f, "commitlog-", 1, ".log")));
    after = dump(f->db);
    assert_string_equal(before, after);
    check_shadowing(storage_table_create(f->db, 7));
    free(before);
    free(after);
}


static void append_bytes(const char *path, const uint8_t *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    close(fd);
}


static void a_large_logs_torn_tail_is_cut_wherever_it_falls(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    large_workload(f->db);
    char *before = dump(f->db);
    storage_table_t *t = storage__db_find(f->db, 10);
    char *huge = malloc(9u << 20);
    memset(huge, 'x', (9u << 20) - 1);
    huge[(9u << 20) - 1] = '\0';
    const char *log = file(f, "commitlog-", 1, ".log");
    off_t full = file_size(log);
    test_insert(t, 50001, "torn", 1, huge, 7); /* a 9 MB record at the end */
    free(huge);
    storage__db_abandon(f->db);
    f->db = NULL;

    fflush(stderr); /* each open reports the tail it cuts */
    int saved = dup(2);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
    /* Torn inside the large record, then a zero-filled tail larger than
     * the window: both cut back to the last whole record. */
    assert_int_equal(truncate(log, full + (5 << 20)), 0);
    reopen(f);
    assert_int_equal(file_size(log), full);
    char *after = dump(f->db);
    assert_string_equal(before, after);
    free(after);
    storage__db_abandon(f->db);
    f->db = NULL;
    uint8_t *zeros = calloc(1, 10u << 20);
    append_bytes(log, zeros, 10u << 20);
    free(zeros);
    reopen(f);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(file_size(log), full);
    after = dump(f->db);
    assert_string_equal(before, after);
    free(after);
    free(before);

    /* A flipped byte far from the end is corruption, not a torn write. */
    storage__db_abandon(f->db);
    f->db = NULL;
    int fd = open(log, O_RDWR);
    uint8_t byte;
    assert_int_equal(pread(fd, &byte, 1, full / 2), 1);
    byte ^= 0x10;
    assert_int_equal(pwrite(fd, &byte, 1, full / 2), 1);
    close(fd);
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "corrupt record at offset"));
    assert_int_equal(file_size(log), full);
}


/* The frame itself is checked to its end: its checksum, its end mark, and
 * nothing after it. */
static void a_truncated_or_extended_snapshot_fails_the_open(void **state)
{
    dur_fixture_t *f = *state;
    fill(f, 100);
    storage_db_free(f->db); /* checkpoint: snapshot-2, log 1 deleted */
    f->db = NULL;
    char snap[256];
    strcpy(snap, file(f, "snapshot-", 2, ".lz4"));
    off_t size = file_size(snap);
    base_error_t err = {0};

    uint8_t junk[3] = {1, 2, 3};
    append_bytes(snap, junk, sizeof(junk));
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "bytes after the lz4 frame"));

    assert_int_equal(truncate(snap, size - 1), 0); /* into the content checksum */
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "invalid snapshot"));
    assert_int_equal(truncate(snap, size / 2), 0);
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "invalid snapshot"));

    assert_int_equal(truncate(snap, size), 0); /* the bytes cut off are zeros now */
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "invalid snapshot"));
}


/* fill(f, n), then the database closed (close: a checkpoint to snapshot-2)
 * or abandoned (a crash: commitlog-1 holds it all); that file's path into
 * path and its bytes into *p (the caller's to free). */
static void fill_stop_read(dur_fixture_t *f, int n, bool close, char path[256], uint8_t **p,
                           size_t *len)
{
    fill(f, n);
    if (close) {
        storage_db_free(f->db);
    } else {
        storage__db_abandon(f->db);
    }
    f->db = NULL;
    strcpy(path, close ? file(f, "snapshot-", 2, ".lz4") : file(f, "commitlog-", 1, ".log"));
    base_error_t err = {0};
    assert_int_equal(storage__read_file(path, p, len, &err), BASE_OK);
}


/* A snapshot's content: its LZ4 frame inflated into a new buffer (*raw, the
 * caller frees), its length. */
static size_t unframe(const uint8_t *z, size_t zlen, uint8_t **raw)
{
    size_t cap = 1u << 20;
    *raw = malloc(cap);
    LZ4F_dctx *dctx;
    assert_false(LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)));
    size_t rlen = cap;
    size_t used = zlen;
    assert_int_equal(LZ4F_decompress(dctx, *raw, &rlen, z, &used, NULL), 0);
    LZ4F_freeDecompressionContext(dctx);
    return rlen;
}


/* Writes raw to path as one LZ4 frame with a content checksum (as snapshots
 * were written before fcd21b1). */
static void write_checksummed_frame(const char *path, const uint8_t *raw, size_t rlen)
{
    LZ4F_preferences_t prefs = {0};
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    size_t bound = LZ4F_compressFrameBound(rlen, &prefs);
    uint8_t *out = malloc(bound);
    size_t olen = LZ4F_compressFrame(out, bound, raw, rlen, &prefs);
    assert_false(LZ4F_isError(olen));
    assert_int_equal(out[4] & 0x04, 0x04); /* FLG: content checksum */
    write_file(path, out, olen);
    free(out);
}


/* 100 rows checkpointed at close into snapshot-2 (its path in snap): the
 * file in *z (*zlen bytes) and its content inflated in *raw, its length. */
static size_t snapshot_of_100(dur_fixture_t *f, char snap[256], uint8_t **z, size_t *zlen,
                              uint8_t **raw)
{
    fill_stop_read(f, 100, true, snap, z, zlen);
    return unframe(*z, *zlen, raw);
}


/* The records' CRCs guard a snapshot's content, not the frame's checksum: a
 * record changed and compressed again into a frame whose checksum matches
 * is still refused. */
static void a_changed_record_in_a_valid_frame_fails_the_open(void **state)
{
    dur_fixture_t *f = *state;
    char snap[256];
    uint8_t *z, *raw;
    size_t zlen;
    base_error_t err = {0};
    size_t rlen = snapshot_of_100(f, snap, &z, &zlen, &raw);
    raw[rlen / 2] ^= 0x01; /* inside some record in the middle */
    write_checksummed_frame(snap, raw, rlen);
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    assert_non_null(strstr(err.msg, "invalid snapshot at byte"));
    assert_non_null(strstr(err.msg, "bad record length or checksum"));
    free(raw);
    free(z);
}


/* A snapshot's frame carries no content checksum (its XXH32 was 4% of the
 * machine's CPU in a 30 s durable load: the records' CRCs already cover the
 * content); a snapshot written with one, as older versions did, still loads. */
static void snapshots_go_without_the_frame_checksum_and_older_ones_load(void **state)
{
    dur_fixture_t *f = *state;
    char snap[256];
    uint8_t *z, *raw;
    size_t zlen;
    base_error_t err = {0};
    size_t rlen = snapshot_of_100(f, snap, &z, &zlen, &raw);
    assert_true(zlen > 7);
    static const uint8_t magic[4] = {0x04, 0x22, 0x4d, 0x18}; /* an LZ4 frame's */
    assert_memory_equal(z, magic, sizeof(magic));
    assert_int_equal(z[4] & 0x04, 0); /* FLG: no content checksum */
    write_checksummed_frame(snap, raw, rlen);
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    assert_non_null(f->db);
    assert_int_equal(storage_table_partition_count(storage_table_create(f->db, 1)), 100);
    free(raw);
    free(z);
}


/* Replay frames records a batch at a time (prefetching what they touch
 * before applying them): a record that frames but does not decode, in the
 * middle of a batch, is still the one named, and nothing after it counts. */
static void a_well_framed_invalid_record_is_named_by_its_offset(void **state)
{
    dur_fixture_t *f = *state;
    char log[256];
    uint8_t *p;
    size_t n;
    base_error_t err = {0};
    fill_stop_read(f, 40, false, log, &p, &n); /* a crash: commitlog-1 */
    size_t at = 0;
    for (int i = 0; i < 21; i++) { /* the CREATE, then 20 mutations */
        at += STORAGE__REC_HEADER + base_load_u32(p + at);
    }
    size_t len = base_load_u32(p + at);
    p[at + STORAGE__REC_HEADER] = 99; /* the kind */
    base_store_u32(p + at + 4, storage__crc32(p + at + STORAGE__REC_HEADER, len));
    write_file(log, p, n);
    assert_null(storage_db_open(f->dir, STORAGE_SYNC_NONE, &err));
    char want[64];
    snprintf(want, sizeof(want), "invalid record at offset %zu: unknown record kind", at);
    assert_non_null(strstr(err.msg, want));
    free(p);
}


static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


static void hundred_thousand_mutations_reopen(void **state)
{
    dur_fixture_t *f = *state;
    base_error_t err;
    f->db = storage_db_open(f->dir, STORAGE_SYNC_NONE, &err);
    storage_table_t *t = storage_table_create(f->db, 1);
    char ck[16];
    for (int i = 0; i < 100000; i++) {
        snprintf(ck, sizeof(ck), "r%06d", i % 100);
        test_insert(t, i / 100, ck, 1, "some value bytes", 1000 + i);
    }
    uint64_t log_bytes = storage_db_log_bytes(f->db);
    char *before = dump(f->db);

    double t0 = seconds();
    reopen(f);
    double replay = seconds() - t0;
    t0 = seconds();
    assert_int_equal(storage_db_checkpoint(f->db, &err), BASE_OK);
    double checkpoint = seconds() - t0;
    off_t snap = file_size(file(f, "snapshot-", 2, ".lz4"));
    t0 = seconds();
    reopen(f);
    double load = seconds() - t0;
    char *after = dump(f->db);
    assert_string_equal(before, after);
    print_message("100k mutations: log %llu bytes, replay %.3f s; checkpoint %.3f s, snapshot "
                  "%lld bytes, load %.3f s\n",
                  (unsigned long long)log_bytes, replay, checkpoint, (long long)snap, load);
    free(before);
    free(after);
}


int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(writes_survive_a_crash_without_checkpoint),
        T(checkpoint_then_more_writes_then_reopen),
        T(background_checkpoint_snapshots_the_fork_point),
        T(unclaimed_tables_are_kept_until_dropped),
        T(torn_tail_is_cut_off_and_the_rest_restored),
        T(corrupt_byte_in_the_middle_fails_the_open),
        T(corrupt_snapshot_fails_the_open),
        T(second_open_of_the_same_directory_fails),
        T(a_write_that_cannot_be_logged_is_refused),
        T(in_memory_databases_are_not_durable),
        T(every_truncation_and_flipped_byte_opens_or_fails_cleanly),
        T(garbage_with_valid_checksums_never_crashes),
        T(hundred_thousand_mutations_reopen),
        T(a_log_and_a_snapshot_larger_than_the_read_window_restore_exactly),
        T(a_large_logs_torn_tail_is_cut_wherever_it_falls),
        T(a_truncated_or_extended_snapshot_fails_the_open),
        T(a_changed_record_in_a_valid_frame_fails_the_open),
        T(snapshots_go_without_the_frame_checksum_and_older_ones_load),
        T(a_well_framed_invalid_record_is_named_by_its_offset),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
