/*
 * Tests of the durable schema (cql/schema_log.c): DDL written by one engine
 * and replayed into a fresh one gives the same schema with the same storage
 * and column ids (through DROP/re-CREATE and ALTER ADD/DROP); failed and
 * no-op DDL is not logged; a torn tail is cut off; corruption fails; a lost
 * record whose table holds data refuses restore and cuts nothing.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cql/schema/schema.h"

typedef struct node_s {
    storage_db_t *db;
    cql_engine_t *e;
    cql_session_t *s;
} node_t;

typedef struct fixture_s {
    char dir[64];
    char path[96];
    base_arena_t a;
    base_error_t err;
    cql_result_t r;
} fixture_t;


static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "/tmp/schema-log-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof(f->path), "%s/schema.log", f->dir);
    base_arena_init(&f->a, 0);
    *state = f;
    return 0;
}


static int teardown(void **state)
{
    fixture_t *f = *state;
    unlink(f->path);
    rmdir(f->dir);
    base_arena_fini(&f->a);
    free(f);
    return 0;
}


/* Starts an engine on an in-memory db and restores the log into it. */
static int node_start(fixture_t *f, node_t *n)
{
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    n->db = storage_db_new();
    n->e = cql_engine_new(&cfg, n->db);
    n->s = cql_session_new(n->e);
    base_error_clear(&f->err);
    int rc = cql_engine_restore(n->e, f->path, &f->err);
    if (rc != BASE_OK) {
        print_message("restore: %s\n", f->err.msg);
    }
    return rc;
}


static void node_stop(node_t *n)
{
    cql_session_free(n->s);
    cql_engine_free(n->e);
    storage_db_free(n->db);
}


static int run(fixture_t *f, node_t *n, const char *q)
{
    wire_query_params_t p = {.consistency = WIRE_CL_ONE, .paging_state = {NULL, -1}};
    base_arena_reset(&f->a);
    base_error_clear(&f->err);
    return cql_query(n->e, n->s, base_str_from(q), &p, &f->a, &f->r, &f->err);
}


static void ok(fixture_t *f, node_t *n, const char *q)
{
    if (run(f, n, q) != BASE_OK) {
        fail_msg("%s -> %s", q, f->err.msg);
    }
}


static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}


/* Records in the log: walks the length prefixes after the 8-byte magic. */
static int count_records(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    uint8_t hdr[8];
    int n = 0;
    assert_int_equal(fread(hdr, 1, 8, fp), 8);
    while (fread(hdr, 1, 8, fp) == 8) {
        fseek(fp, (long)base_load_u32(hdr), SEEK_CUR);
        n++;
    }
    fclose(fp);
    return n;
}


static void assert_same_table(const cql_table_t *a, const cql_table_t *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->n_cols, b->n_cols);
    assert_int_equal(a->next_col_id, b->next_col_id);
    assert_int_equal(a->n_pk, b->n_pk);
    assert_int_equal(a->n_ck, b->n_ck);
    assert_int_equal(a->default_ttl, b->default_ttl);
    assert_int_equal(a->n_indexes, b->n_indexes);
    for (size_t i = 0; i < a->n_cols; i++) {
        assert_string_equal(a->cols[i].name, b->cols[i].name);
        assert_int_equal(a->cols[i].id, b->cols[i].id);
        assert_int_equal(a->cols[i].kind, b->cols[i].kind);
        assert_int_equal(a->cols[i].desc, b->cols[i].desc);
        assert_int_equal(a->cols[i].type->id, b->cols[i].type->id);
    }
    for (size_t i = 0; i < a->n_indexes; i++) {
        assert_string_equal(a->indexes[i].name, b->indexes[i].name);
    }
}


/* Same keyspaces, tables, columns, ids and types; storage id counters equal. */
static void assert_same_schema(const cql_engine_t *a, const cql_engine_t *b)
{
    assert_int_equal(a->next_storage_id, b->next_storage_id);
    assert_int_equal(a->n_keyspaces, b->n_keyspaces);
    for (size_t i = 0; i < a->n_keyspaces; i++) {
        const cql_keyspace_t *ka = a->keyspaces[i], *kb = b->keyspaces[i];
        assert_string_equal(ka->name, kb->name);
        assert_int_equal(ka->n_tables, kb->n_tables);
        assert_int_equal(ka->n_types, kb->n_types);
        assert_int_equal(ka->n_repl, kb->n_repl);
        for (size_t j = 0; j < ka->n_tables; j++) {
            assert_same_table(ka->tables[j], kb->tables[j]);
        }
        for (size_t j = 0; j < ka->n_types; j++) {
            assert_string_equal(ka->types[j]->name, kb->types[j]->name);
        }
    }
}


static const char *const create_ks =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";


static void replay_rebuilds_schema_with_same_ids(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(node_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, "USE ks");
    ok(f, &a, "CREATE TYPE addr (street text, zip int)");
    ok(f, &a,
       "CREATE TABLE ev (u int, ts int, v text, tags set<text>, m map<text, int>, "
       "a frozen<addr>, PRIMARY KEY (u, ts)) WITH CLUSTERING ORDER BY (ts DESC) "
       "AND default_time_to_live = 60");
    ok(f, &a, "CREATE TABLE ks.gone (k int PRIMARY KEY, v int)");
    ok(f, &a, "ALTER TABLE ev ADD (extra int, more text)");
    ok(f, &a, "ALTER TABLE ev DROP extra");
    ok(f, &a, "ALTER TABLE ev ADD extra2 bigint");
    ok(f, &a, "CREATE INDEX ON ev (v)");
    ok(f, &a, "DROP TABLE gone");
    ok(f, &a, "CREATE TABLE gone (k int PRIMARY KEY, w int, x int)");
    ok(f, &a, "ALTER TABLE gone DROP w");
    ok(f, &a,
       "CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', "
       "'replication_factor': 1}");
    ok(f, &a, "CREATE TABLE other.t (k int PRIMARY KEY)");
    ok(f, &a, "DROP KEYSPACE other");
    ok(f, &a,
       "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
       "'replication_factor': 3}");
    int logged = count_records(f->path);
    assert_int_equal(logged, 15);
    /* Not logged: failures, no-ops, USE, TRUNCATE, writes. */
    assert_int_equal(run(f, &a, "CREATE TABLE ev (k int PRIMARY KEY)"), BASE_ERROR);
    ok(f, &a, "CREATE TABLE IF NOT EXISTS ev (k int PRIMARY KEY)");
    ok(f, &a, "DROP TABLE IF EXISTS nothere");
    ok(f, &a, "INSERT INTO gone (k, x) VALUES (1, 2)");
    ok(f, &a, "TRUNCATE gone");
    ok(f, &a, "USE ks");
    assert_int_equal(count_records(f->path), logged);

    assert_int_equal(node_start(f, &b), BASE_OK);
    assert_same_schema(a.e, b.e);
    /* Replay must not append what it replays; new DDL continues the log. */
    assert_int_equal(count_records(f->path), logged);
    ok(f, &b, "CREATE TABLE ks.later (k int PRIMARY KEY)");
    ok(f, &a, "CREATE TABLE ks.later2 (k int PRIMARY KEY)");
    assert_int_equal(a.e->next_storage_id, b.e->next_storage_id);
    node_stop(&a);
    node_stop(&b);
}


static void prepared_ddl_is_logged_with_its_keyspace(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(node_start(f, &a), BASE_OK);
    cql_engine_set_schema_sync(a.e, STORAGE_SYNC_ALWAYS);
    ok(f, &a, create_ks);
    ok(f, &a, "USE ks");
    base_arena_reset(&f->a);
    const char *q = "CREATE TABLE p (k int PRIMARY KEY, v text)";
    assert_int_equal(cql_prepare(a.e, a.s, base_str_from(q), &f->a, &f->r, &f->err), BASE_OK);
    uint8_t id[16];
    memcpy(id, f->r.prepared_id, 16);
    ok(f, &a, "USE system"); /* the statement runs in the keyspace it was prepared in */
    wire_query_params_t p = {.consistency = WIRE_CL_ONE, .paging_state = {NULL, -1}};
    wire_value_t idv = {id, 16};
    assert_int_equal(cql_execute(a.e, a.s, idv, &p, &f->a, &f->r, &f->err), BASE_OK);
    assert_int_equal(f->r.kind, WIRE_RESULT_SCHEMA_CHANGE);
    assert_int_equal(count_records(f->path), 2);
    assert_int_equal(node_start(f, &b), BASE_OK);
    assert_same_schema(a.e, b.e);
    assert_non_null(cql__table_find(cql__keyspace_find(b.e, "ks"), "p"));
    node_stop(&a);
    node_stop(&b);
}


static void half_applied_alter_does_not_shift_column_ids(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(node_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY)");
    /* The first column may be added before the unknown type fails the statement. */
    assert_int_equal(run(f, &a, "ALTER TABLE ks.t ADD (a int, b nosuchtype)"), BASE_ERROR);
    ok(f, &a, "ALTER TABLE ks.t ADD c int");
    assert_int_equal(node_start(f, &b), BASE_OK);
    const cql_table_t *ta = cql__table_find(cql__keyspace_find(a.e, "ks"), "t");
    const cql_table_t *tb = cql__table_find(cql__keyspace_find(b.e, "ks"), "t");
    assert_int_equal(cql__column_find(ta, "c")->id, cql__column_find(tb, "c")->id);
    assert_int_equal(ta->next_col_id, tb->next_col_id);
    node_stop(&a);
    node_stop(&b);
}


static void torn_last_record_is_cut_off(void **state)
{
    fixture_t *f = *state;
    node_t a, b, c;
    assert_int_equal(node_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    long one = file_size(f->path);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY)");
    node_stop(&a);
    long two = file_size(f->path);
    uint8_t whole[512];
    assert_true(two <= (long)sizeof(whole));
    int fd = open(f->path, O_RDWR);
    assert_int_equal(read(fd, whole, (size_t)two), two);
    close(fd);
    for (long cut = two - 1; cut > one; cut -= 7) {
        fd = open(f->path, O_WRONLY | O_TRUNC);
        assert_int_equal(write(fd, whole, (size_t)cut), cut);
        close(fd);
        assert_int_equal(node_start(f, &b), BASE_OK);
        assert_non_null(cql__keyspace_find(b.e, "ks"));
        assert_null(cql__table_find(cql__keyspace_find(b.e, "ks"), "t"));
        assert_int_equal(file_size(f->path), one); /* the tail is gone */
        node_stop(&b);
    }
    /* Zeros where the size promised a record (a power loss on some file systems). */
    assert_int_equal(truncate(f->path, two + 100), 0);
    assert_int_equal(node_start(f, &b), BASE_OK);
    assert_int_equal(file_size(f->path), one);
    node_stop(&b);
    /* A whole last record whose last bytes never reached the disk: bad CRC. */
    assert_int_equal(node_start(f, &b), BASE_OK);
    ok(f, &b, "CREATE TABLE ks.t2 (k int PRIMARY KEY)");
    node_stop(&b);
    fd = open(f->path, O_WRONLY);
    assert_true(fd >= 0);
    uint8_t zero[4] = {0};
    assert_int_equal(pwrite(fd, zero, 4, file_size(f->path) - 4), 4);
    close(fd);
    assert_int_equal(node_start(f, &c), BASE_OK);
    assert_null(cql__table_find(cql__keyspace_find(c.e, "ks"), "t2"));
    ok(f, &c, "CREATE TABLE ks.t3 (k int PRIMARY KEY)"); /* appends after the cut */
    node_stop(&c);
    assert_int_equal(node_start(f, &c), BASE_OK);
    assert_non_null(cql__table_find(cql__keyspace_find(c.e, "ks"), "t3"));
    node_stop(&c);
}


static void corruption_before_the_end_fails_restore(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(node_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY)");
    node_stop(&a);
    int fd = open(f->path, O_RDWR);
    assert_true(fd >= 0);
    uint8_t byte;
    assert_int_equal(pread(fd, &byte, 1, 40), 1);
    byte ^= 0x20;
    assert_int_equal(pwrite(fd, &byte, 1, 40), 1);
    close(fd);
    assert_int_equal(node_start(f, &b), BASE_ERROR);
    assert_non_null(strstr(f->err.msg, "corrupt"));
    assert_non_null(strstr(f->err.msg, f->path));
    node_stop(&b);
}


/* A node over a durable db in <dir>/data, as the emulator runs one. */
static int durable_start(fixture_t *f, node_t *n)
{
    char data[128];
    snprintf(data, sizeof(data), "%s/data", f->dir);
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    base_error_t err;
    n->db = storage_db_open(data, STORAGE_SYNC_NONE, &err);
    assert_non_null(n->db);
    n->e = cql_engine_new(&cfg, n->db);
    n->s = cql_session_new(n->e);
    base_error_clear(&f->err);
    return cql_engine_restore(n->e, f->path, &f->err);
}


static void durable_remove(fixture_t *f)
{
    char cmd[160];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s/data'", f->dir);
    assert_int_equal(system(cmd), 0);
}


static void set_size(const char *path, long size)
{
    assert_int_equal(truncate(path, size), 0);
}


/* The last record (CREATE TABLE ks.t) cut or damaged while ks.t holds rows in
 * storage: restore refuses, names the file and the offset, and neither cuts the
 * log nor drops the rows; restoring the whole log brings every row back. */
static void lost_create_of_a_table_with_rows_refuses_restore(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(durable_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    long one = file_size(f->path);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    ok(f, &a, "INSERT INTO ks.t (k, v) VALUES (1, 'kept')");
    node_stop(&a); /* checkpoints: the row is in a snapshot */
    long two = file_size(f->path);
    uint8_t whole[512];
    assert_true(two <= (long)sizeof(whole));
    int fd = open(f->path, O_RDONLY);
    assert_int_equal(read(fd, whole, (size_t)two), two);
    close(fd);
    char offset[64];
    snprintf(offset, sizeof(offset), "offset %ld of ", one);

    for (int damage = 0; damage < 3; damage++) {
        fd = open(f->path, O_WRONLY | O_TRUNC);
        assert_int_equal(write(fd, whole, (size_t)two), two);
        close(fd);
        long size = two;
        if (damage == 0) {
            size = one + 11; /* torn inside the record */
            set_size(f->path, size);
        } else if (damage == 1) {
            fd = open(f->path, O_WRONLY);
            uint8_t flip = whole[two - 3] ^ 0x55; /* a flipped byte: bad CRC */
            assert_int_equal(pwrite(fd, &flip, 1, two - 3), 1);
            close(fd);
        } else {
            size = 0; /* the schema log is gone altogether */
            assert_int_equal(unlink(f->path), 0);
        }
        assert_int_equal(durable_start(f, &b), BASE_ERROR);
        assert_non_null(strstr(f->err.msg, f->path));
        assert_non_null(strstr(f->err.msg, "hold data"));
        assert_non_null(strstr(f->err.msg, damage == 2 ? "missing" : offset));
        assert_int_equal(file_size(f->path), damage == 2 ? -1 : size); /* nothing cut */
        cql_session_free(b.s);
        cql_engine_free(b.e);
        storage_db_discard(b.db); /* as the emulator does when start-up fails */
    }

    fd = open(f->path, O_WRONLY | O_TRUNC | O_CREAT, 0644);
    assert_int_equal(write(fd, whole, (size_t)two), two);
    close(fd);
    assert_int_equal(durable_start(f, &b), BASE_OK);
    ok(f, &b, "SELECT v FROM ks.t WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.cells[0].len, 4);
    assert_memory_equal(f->r.cells[0].ptr, "kept", 4);
    node_stop(&b);
    durable_remove(f);
}


/* A CREATE TABLE cut short before anything was written to its table: the
 * torn record is dropped and the empty orphan with it; start-up goes on. */
static void torn_create_of_an_empty_table_is_dropped(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(durable_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    long one = file_size(f->path);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    node_stop(&a);
    set_size(f->path, one + 5);
    assert_int_equal(durable_start(f, &b), BASE_OK);
    assert_int_equal(file_size(f->path), one);
    assert_null(cql__table_find(cql__keyspace_find(b.e, "ks"), "t"));
    assert_int_equal(storage_db_drop_unclaimed(b.db), 1);
    ok(f, &b, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    ok(f, &b, "INSERT INTO ks.t (k, v) VALUES (1, 'x')");
    node_stop(&b);
    assert_int_equal(durable_start(f, &b), BASE_OK);
    ok(f, &b, "SELECT v FROM ks.t WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    node_stop(&b);
    durable_remove(f);
}


/* The last record (ALTER TABLE ADD w) cut: with cells of w stored, restore
 * refuses (a later ADD would reuse w's column id); without them it goes on. */
static void lost_alter_add_with_stored_cells_refuses_restore(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(durable_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    ok(f, &a, "INSERT INTO ks.t (k, v) VALUES (1, 'one')");
    long one = file_size(f->path);
    ok(f, &a, "ALTER TABLE ks.t ADD w text");
    ok(f, &a, "UPDATE ks.t SET w = 'new' WHERE k = 2");
    node_stop(&a);
    set_size(f->path, one + 9);
    assert_int_equal(durable_start(f, &b), BASE_ERROR);
    assert_non_null(strstr(f->err.msg, "does not define a column whose cells table ks.t holds"));
    assert_non_null(strstr(f->err.msg, f->path));
    assert_int_equal(file_size(f->path), one + 9);
    cql_session_free(b.s);
    cql_engine_free(b.e);
    storage_db_discard(b.db);

    /* The same cut with w's cells deleted: nothing depends on the lost record. */
    durable_remove(f);
    unlink(f->path);
    assert_int_equal(durable_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    ok(f, &a, "INSERT INTO ks.t (k, v) VALUES (1, 'one')");
    one = file_size(f->path);
    ok(f, &a, "ALTER TABLE ks.t ADD w text");
    node_stop(&a);
    set_size(f->path, one + 9);
    assert_int_equal(durable_start(f, &b), BASE_OK);
    assert_int_equal(file_size(f->path), one);
    ok(f, &b, "SELECT * FROM ks.t");
    assert_int_equal(f->r.n_rows, 1);
    assert_int_equal(f->r.n_cols, 2);
    node_stop(&b);
    durable_remove(f);
}

static void foreign_file_is_refused(void **state)
{
    fixture_t *f = *state;
    node_t a;
    FILE *fp = fopen(f->path, "w");
    fputs("not a schema log at all\n", fp);
    fclose(fp);
    assert_int_equal(node_start(f, &a), BASE_ERROR);
    assert_non_null(strstr(f->err.msg, "not a schema log"));
    node_stop(&a);
}


static void memory_engine_logs_nothing(void **state)
{
    fixture_t *f = *state;
    node_t a;
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    a.db = storage_db_new();
    a.e = cql_engine_new(&cfg, a.db);
    a.s = cql_session_new(a.e);
    ok(f, &a, create_ks);
    assert_int_equal(file_size(f->path), -1);
    node_stop(&a);
}


/* durable_start with a compaction threshold. */
static int compacting_start(fixture_t *f, node_t *n, size_t min_bytes)
{
    char data[128];
    snprintf(data, sizeof(data), "%s/data", f->dir);
    cql_config_t cfg;
    cql_config_defaults(&cfg);
    base_error_t err;
    n->db = storage_db_open(data, STORAGE_SYNC_NONE, &err);
    assert_non_null(n->db);
    n->e = cql_engine_new(&cfg, n->db);
    n->s = cql_session_new(n->e);
    cql_engine_set_schema_log_compaction(n->e, min_bytes);
    base_error_clear(&f->err);
    return cql_engine_restore(n->e, f->path, &f->err);
}


/* Tables, an index and a keyspace created and dropped over and over. */
static void churn(fixture_t *f, node_t *n, int rounds)
{
    char q[256];
    for (int i = 0; i < rounds; i++) {
        snprintf(q, sizeof(q), "CREATE TABLE ks.churn%d (k int PRIMARY KEY, v text)", i);
        ok(f, n, q);
        snprintf(q, sizeof(q), "INSERT INTO ks.churn%d (k, v) VALUES (1, 'gone')", i);
        ok(f, n, q);
        snprintf(q, sizeof(q), "CREATE INDEX ON ks.churn%d (v)", i);
        ok(f, n, q);
        snprintf(q, sizeof(q), "DROP TABLE ks.churn%d", i);
        ok(f, n, q);
        ok(f, n, "CREATE INDEX tmp_idx ON ks.ev (v)");
        ok(f, n, "DROP INDEX ks.tmp_idx");
        ok(f, n,
           "CREATE KEYSPACE brief WITH replication = {'class': 'SimpleStrategy', "
           "'replication_factor': 1}");
        ok(f, n, "CREATE TABLE brief.t (k int PRIMARY KEY)");
        ok(f, n, "DROP KEYSPACE brief");
    }
}


static void live_schema(fixture_t *f, node_t *n)
{
    ok(f, n, create_ks);
    ok(f, n, "USE ks");
    ok(f, n, "CREATE TYPE addr (street text, zip int)");
    ok(f, n, "CREATE TABLE ev (u int, ts int, v text, a frozen<addr>, PRIMARY KEY (u, ts))");
    ok(f, n, "ALTER TABLE ev ADD (extra int, more text)");
    ok(f, n, "ALTER TABLE ev DROP extra");
    ok(f, n, "CREATE INDEX ON ev (more)");
    ok(f, n, "INSERT INTO ev (u, ts, v, more) VALUES (1, 2, 'kept', 'm')");
}


/* Creating and dropping many tables: the log is rewritten with only what the live
 * catalog needs, so it stays small, and a restart restores the same schema (ids and
 * counters included) and the live table's rows. */
static void schema_log_is_compacted_as_it_grows(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(compacting_start(f, &a, 4096), BASE_OK);
    live_schema(f, &a);
    long max = 0;
    for (int i = 0; i < 20; i++) {
        churn(f, &a, 10);
        long size = file_size(f->path);
        max = size > max ? size : max;
    }
    /* 200 rounds of 8 logged DDL each (~100 bytes a record) never piled up */
    assert_true(max < 3 * 4096);
    assert_true(count_records(f->path) < 200);
    ok(f, &a, "CREATE TABLE ks.after (k int PRIMARY KEY)"); /* an id past every dropped one */
    uint64_t next_id = a.e->next_storage_id;

    storage_db_discard(a.db); /* a crash: no checkpoint (a's schema stays to compare) */
    assert_int_equal(compacting_start(f, &b, 4096), BASE_OK);
    assert_same_schema(a.e, b.e);
    assert_int_equal(b.e->next_storage_id, next_id);
    ok(f, &b, "SELECT v FROM ks.ev WHERE u = 1");
    assert_int_equal(f->r.n_rows, 1);
    cql_session_free(a.s);
    cql_engine_free(a.e);
    node_stop(&b);
    durable_remove(f);
}


/* A log that grew while compaction was off is compacted at restore; a temp file
 * left by a compaction that died before its rename is ignored and removed. */
static void a_long_log_is_compacted_at_restore(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(compacting_start(f, &a, SIZE_MAX), BASE_OK);
    live_schema(f, &a);
    churn(f, &a, 50);
    long before = file_size(f->path);
    node_stop(&a);
    char tmp[128];
    snprintf(tmp, sizeof(tmp), "%s.tmp", f->path);
    FILE *fp = fopen(tmp, "wb");
    assert_non_null(fp);
    fputs("half a compaction", fp);
    fclose(fp);

    assert_int_equal(compacting_start(f, &b, 1024), BASE_OK);
    assert_int_equal(file_size(tmp), -1);
    long after = file_size(f->path);
    assert_true(after * 4 < before);
    assert_int_equal(count_records(f->path), 7); /* the 6 live DDL and the counter */
    ok(f, &b, "SELECT more FROM ks.ev WHERE u = 1");
    assert_int_equal(f->r.n_rows, 1);
    node_stop(&b);
    assert_int_equal(compacting_start(f, &a, 1024), BASE_OK); /* the compacted log replays */
    assert_int_equal(file_size(f->path), after);
    ok(f, &a, "SELECT more FROM ks.ev WHERE u = 1");
    assert_int_equal(f->r.n_rows, 1);
    node_stop(&a);
    durable_remove(f);
}


/* Quoted, mixed-case names and unqualified names under USE are followed through
 * compaction like any other. */
static void compaction_follows_quoted_and_unqualified_names(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    assert_int_equal(compacting_start(f, &a, 1024), BASE_OK);
    ok(f, &a,
       "CREATE KEYSPACE \"Mixed\" WITH replication = {'class': 'SimpleStrategy', "
       "'replication_factor': 1}");
    ok(f, &a, "USE \"Mixed\"");
    ok(f, &a, "CREATE TABLE \"Kept\" (k int PRIMARY KEY, \"V\" text)");
    ok(f, &a, "INSERT INTO \"Kept\" (k, \"V\") VALUES (1, 'kept')");
    char q[128];
    for (int i = 0; i < 40; i++) {
        snprintf(q, sizeof(q), "CREATE TABLE \"Gone%d\" (k int PRIMARY KEY)", i);
        ok(f, &a, q);
        snprintf(q, sizeof(q), "DROP TABLE \"Mixed\".\"Gone%d\"", i);
        ok(f, &a, q);
    }
    assert_true(count_records(f->path) < 20); /* compacted: not 83 records */
    storage_db_discard(a.db);
    assert_int_equal(compacting_start(f, &b, 1024), BASE_OK);
    assert_same_schema(a.e, b.e);
    ok(f, &b, "SELECT \"V\" FROM \"Mixed\".\"Kept\" WHERE k = 1");
    assert_int_equal(f->r.n_rows, 1);
    cql_session_free(a.s);
    cql_engine_free(a.e);
    node_stop(&b);
    durable_remove(f);
}


/* The log's CRC-32 (zlib's), to rewrite records as an older version wrote them. */
static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8),
    p[3] = (uint8_t)v;
}


static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}


/* Clears the top bit of every record's column counter: the log an emulator wrote
 * before ALTER TABLE DROP kept the dropped cells' ids. */
static void make_legacy(const char *path)
{
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    static uint8_t buf[1 << 16];
    size_t len = fread(buf, 1, sizeof(buf), fp);
    for (size_t at = 8; at + 8 <= len;) {
        uint32_t n = base_load_u32(buf + at);
        uint8_t *p = buf + at + 8;
        put_u32(p + 8, base_load_u32(p + 8) & 0x7fffffffu);
        put_u32(buf + at + 4, crc32_of(p, n));
        at += 8 + n;
    }
    fseek(fp, 0, SEEK_SET);
    assert_int_equal(fwrite(buf, 1, len, fp), len);
    fclose(fp);
}


static void dropped_column_ids_replay_by_the_rules_they_were_logged_with(void **state)
{
    fixture_t *f = *state;
    node_t a, b, c;
    assert_int_equal(node_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, "CREATE TABLE ks.t (k int PRIMARY KEY, l list<text>, v int)");
    ok(f, &a, "ALTER TABLE ks.t DROP l");
    ok(f, &a, "ALTER TABLE ks.t ADD l list<text>");
    ok(f, &a, "ALTER TABLE ks.t DROP v USING TIMESTAMP 5");
    const cql_table_t *ta = cql__table_find(cql__keyspace_find(a.e, "ks"), "t");
    uint32_t old_id = cql__column_find(ta, "l")->id;
    /* the re-added column took its dropped id back, and a replay agrees */
    assert_int_equal(node_start(f, &b), BASE_OK);
    const cql_table_t *tb = cql__table_find(cql__keyspace_find(b.e, "ks"), "t");
    assert_int_equal(cql__column_find(tb, "l")->id, old_id);
    assert_int_equal(tb->n_dropped, 2);
    assert_int_equal(tb->dropped[0].dropped_us, ta->dropped[0].dropped_us);
    assert_int_equal(tb->dropped[1].dropped_us, 5);
    node_stop(&b);
    /* a log written before that replays as it ran then: a new id, never the old cells */
    make_legacy(f->path);
    assert_int_equal(node_start(f, &c), BASE_OK);
    const cql_table_t *tc = cql__table_find(cql__keyspace_find(c.e, "ks"), "t");
    assert_int_not_equal(cql__column_find(tc, "l")->id, old_id);
    assert_false(tc->dropped[0].reusable);
    node_stop(&c);
    node_stop(&a);
}


/* Rewrites the log with each record whose statement is from[i] holding to[i]
 * instead: DDL an older version accepted that today's rules refuse. */
static void rewrite_statements(const char *path, const char *const *from, const char *const *to,
                               size_t n_subs)
{
    static uint8_t in[1 << 16], out[1 << 16];
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    size_t len = fread(in, 1, sizeof(in), fp), o = 8;
    fclose(fp);
    memcpy(out, in, 8);
    for (size_t at = 8; at + 8 <= len;) {
        uint32_t n = base_load_u32(in + at);
        const uint8_t *p = in + at + 8;
        size_t head = 14 + base_load_u16(p + 12);
        const char *text = (const char *)p + head;
        size_t text_len = n - head;
        for (size_t i = 0; i < n_subs; i++) {
            if (strlen(from[i]) == text_len && memcmp(text, from[i], text_len) == 0) {
                text = to[i];
                text_len = strlen(to[i]);
            }
        }
        uint8_t *q = out + o + 8;
        memcpy(q, p, head);
        memcpy(q + head, text, text_len);
        put_u32(out + o, (uint32_t)(head + text_len));
        put_u32(out + o + 4, crc32_of(q, head + text_len));
        o += 8 + head + text_len;
        at += 8 + n;
    }
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(out, 1, o, fp), o);
    fclose(fp);
}


/* A log written before today's option and index rules replays: the record was
 * accepted once, and refusing it now would refuse start-up over stored data. */
static void ddl_accepted_once_replays_under_stricter_rules(void **state)
{
    fixture_t *f = *state;
    node_t a, b;
    static const char *const from[] = {
        "CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int, m map<int, int>)",
        "CREATE INDEX i2 ON ks.t (w)",
        "CREATE INDEX i3 ON ks.u (x)",
        ("ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
         "'replication_factor': 2}"),
    };
    static const char *const to[] = {
        /* no class: "Missing sub-option 'class' for the 'compression' option." */
        "CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int, m map<int, int>) WITH compression "
        "= {'chunk_length_in_kb': 32} AND min_index_interval = 512 AND max_index_interval = 256",
        "CREATE INDEX i2 ON ks.t (values(m))", /* a values index once keys(m) is indexed */
        "CREATE INDEX i3 ON ks.t (v)",         /* a duplicate of i0 */
        ("ALTER KEYSPACE ks WITH replication = {'class': 'OldNetworkTopologyStrategy', "
         "'replication_factor': 2}"),
    };
    assert_int_equal(node_start(f, &a), BASE_OK);
    ok(f, &a, create_ks);
    ok(f, &a, from[0]);
    ok(f, &a, "CREATE INDEX i0 ON ks.t (v)");
    ok(f, &a, "CREATE INDEX i1 ON ks.t (keys(m))");
    ok(f, &a, from[1]);
    ok(f, &a, "CREATE TABLE ks.u (k int PRIMARY KEY, x int)");
    ok(f, &a, from[2]);
    ok(f, &a, from[3]);
    for (size_t i = 0; i < 4; i++) { /* today's rules refuse each of them live */
        assert_int_equal(run(f, &a, to[i]), BASE_ERROR);
    }
    node_stop(&a);
    rewrite_statements(f->path, from, to, 4);
    assert_int_equal(node_start(f, &b), BASE_OK);
    cql_keyspace_t *ks = cql__keyspace_find(b.e, "ks");
    const cql_table_t *t = cql__table_find(ks, "t");
    assert_int_equal(t->min_index_interval, 128); /* refused values keep their defaults */
    assert_int_equal(t->max_index_interval, 2048);
    assert_int_equal(t->n_indexes, 4);
    assert_int_equal(cql__table_find(ks, "u")->n_indexes, 0);
    node_stop(&b);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(replay_rebuilds_schema_with_same_ids, setup, teardown),
        cmocka_unit_test_setup_teardown(prepared_ddl_is_logged_with_its_keyspace, setup, teardown),
        cmocka_unit_test_setup_teardown(half_applied_alter_does_not_shift_column_ids, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(torn_last_record_is_cut_off, setup, teardown),
        cmocka_unit_test_setup_teardown(corruption_before_the_end_fails_restore, setup, teardown),
        cmocka_unit_test_setup_teardown(lost_create_of_a_table_with_rows_refuses_restore, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(torn_create_of_an_empty_table_is_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(lost_alter_add_with_stored_cells_refuses_restore, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(foreign_file_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(ddl_accepted_once_replays_under_stricter_rules, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(memory_engine_logs_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_log_is_compacted_as_it_grows, setup, teardown),
        cmocka_unit_test_setup_teardown(a_long_log_is_compacted_at_restore, setup, teardown),
        cmocka_unit_test_setup_teardown(
            dropped_column_ids_replay_by_the_rules_they_were_logged_with, setup, teardown),
        cmocka_unit_test_setup_teardown(compaction_follows_quoted_and_unqualified_names, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
