/*
 * storage_test.h - helpers shared by the storage unit tests: int partition
 * keys (4 bytes big-endian, like a CQL int), text clustering keys, and
 * one-line writes and reads, and the cmocka fixture (a database holding one
 * table). Static inline so each test uses what it needs.
 */
#ifndef TESTS_UNIT_STORAGE_STORAGE_TEST_H
#define TESTS_UNIT_STORAGE_STORAGE_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "storage/storage.h"

/* The cmocka fixture: a fresh database with one table, and a scratch buffer
 * for test_scan and test_get. */
typedef struct test_fixture_s {
    storage_db_t *db;
    storage_table_t *t;
    char buf[256];
} test_fixture_t;

static inline int test_setup_table(void **state, uint64_t table_id)
{
    test_fixture_t *f = malloc(sizeof(*f));
    f->db = storage_db_new();
    f->t = storage_table_create(f->db, table_id);
    *state = f;
    return 0;
}

static inline int test_setup(void **state)
{
    return test_setup_table(state, 1);
}

static inline int test_teardown(void **state)
{
    test_fixture_t *f = *state;
    storage_db_free(f->db);
    free(f);
    return 0;
}

typedef struct test_key_s {
    uint8_t bytes[4];
    int64_t token;
} test_key_t;

static inline test_key_t test_key(int32_t k)
{
    test_key_t key;
    uint32_t u = (uint32_t)k;
    key.bytes[0] = (uint8_t)(u >> 24);
    key.bytes[1] = (uint8_t)(u >> 16);
    key.bytes[2] = (uint8_t)(u >> 8);
    key.bytes[3] = (uint8_t)u;
    key.token = storage_token(key.bytes, 4);
    return key;
}

/* A mutation on (k, ck); key must outlive it. ck NULL means no clustering. */
static inline storage_mutation_t test_mut(const test_key_t *key, const char *ck)
{
    storage_mutation_t m = {0};
    m.pk = key->bytes;
    m.pk_len = 4;
    m.token = key->token;
    m.ck = (const uint8_t *)ck;
    m.ck_len = ck != NULL ? strlen(ck) : 0;
    return m;
}

static inline storage_cell_t test_cell(uint32_t col, const char *value, int64_t ts)
{
    storage_cell_t c = {0};
    c.col = col;
    c.value = (const uint8_t *)value;
    c.value_len = value != NULL ? (uint32_t)strlen(value) : 0;
    c.tombstone = value == NULL;
    c.ts = ts;
    return c;
}

static inline storage_cell_t test_elem(uint32_t col, const char *path, const char *value,
                                       int64_t ts)
{
    storage_cell_t c = test_cell(col, value, ts);
    c.path = (const uint8_t *)path;
    c.path_len = (uint32_t)strlen(path);
    return c;
}

static inline storage_bound_t test_bound(const char *key, bool inclusive)
{
    storage_bound_t b = {(const uint8_t *)key, key != NULL ? strlen(key) : 0, inclusive};
    return b;
}

/* Writes one cell (value NULL: a cell tombstone). */
static inline void test_put(storage_table_t *t, int32_t k, const char *ck, uint32_t col,
                            const char *value, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    storage_cell_t c = test_cell(col, value, ts);
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(t, &m, 0, NULL);
}

/* An INSERT: row marker plus one cell. */
static inline void test_insert(storage_table_t *t, int32_t k, const char *ck, uint32_t col,
                               const char *value, int64_t ts)
{
    test_key_t key = test_key(k);
    storage_mutation_t m = test_mut(&key, ck);
    storage_cell_t c = test_cell(col, value, ts);
    m.row_marker = true;
    m.marker_ts = ts;
    m.cells = &c;
    m.n_cells = 1;
    storage_apply(t, &m, 0, NULL);
}

static inline storage_partition_t *test_part(storage_table_t *t, int32_t k)
{
    test_key_t key = test_key(k);
    return storage_partition_get(t, key.token, key.bytes, 4);
}

/* The live row (k, ck) as of now_us; false if absent or dead. */
static inline bool test_row(storage_table_t *t, int32_t k, const char *ck, int64_t now_us,
                            storage_row_view_t *out)
{
    storage_partition_t *p = test_part(t, k);
    if (p == NULL) {
        return false;
    }
    size_t len = ck != NULL ? strlen(ck) : 0;
    storage_row_iter_t *it = storage_row_iter_new(p, NULL, NULL, false, now_us);
    bool found = false;
    while (!found && storage_row_iter_next(it, out)) {
        found = out->ck_len == len && (len == 0 || memcmp(out->ck, ck, len) == 0);
    }
    /* A view's cells live in its cursor: copy them out, as cql does, into
     * one of a few slots so that a test may hold several views. */
    enum { SLOTS = 4 };
    static storage_cell_t *pool[SLOTS]; /* reachable until exit, never freed */
    static size_t next_slot;
    if (found && out->n_cells > 0) {
        size_t slot = next_slot++ % SLOTS;
        pool[slot] = realloc(pool[slot], out->n_cells * sizeof(storage_cell_t));
        memcpy(pool[slot], out->cells, out->n_cells * sizeof(storage_cell_t));
        out->cells = pool[slot];
    }
    storage_row_iter_free(it);
    return found;
}

static inline const storage_cell_t *test_find(const storage_row_view_t *v, uint32_t col)
{
    for (size_t i = 0; i < v->n_cells; i++) {
        if (v->cells[i].col == col && v->cells[i].path == NULL) {
            return &v->cells[i];
        }
    }
    return NULL;
}

/* The value of (k, ck).col as a NUL-terminated string in buf, or NULL. */
static inline const char *test_get(storage_table_t *t, int32_t k, const char *ck, uint32_t col,
                                   int64_t now_us, char *buf, size_t size)
{
    storage_row_view_t v;
    if (!test_row(t, k, ck, now_us, &v)) {
        return NULL;
    }
    const storage_cell_t *c = test_find(&v, col);
    if (c == NULL || c->value_len >= size) {
        return NULL;
    }
    if (c->value_len > 0) {
        memcpy(buf, c->value, c->value_len);
    }
    buf[c->value_len] = '\0';
    return buf;
}

/* Clustering keys of the live rows of partition k in [start, end], joined
 * by ',' into buf. */
static inline const char *test_scan(storage_table_t *t, int32_t k, const storage_bound_t *start,
                                    const storage_bound_t *end, bool reverse, int64_t now_us,
                                    char *buf, size_t size)
{
    buf[0] = '\0';
    storage_partition_t *p = test_part(t, k);
    if (p == NULL) {
        return buf;
    }
    storage_row_iter_t *it = storage_row_iter_new(p, start, end, reverse, now_us);
    storage_row_view_t v;
    size_t n = 0;
    while (storage_row_iter_next(it, &v)) {
        if (n > 0 && n + 1 < size) {
            buf[n++] = ',';
        }
        for (size_t i = 0; i < v.ck_len && n + 1 < size; i++) {
            buf[n++] = (char)v.ck[i];
        }
    }
    buf[n] = '\0';
    storage_row_iter_free(it);
    return buf;
}

/* A fresh directory /tmp/<name>-XXXXXX for a durable test, into dir. */
static inline void test_dir_make(char *dir, size_t cap, const char *name)
{
    snprintf(dir, cap, "/tmp/%s-XXXXXX", name);
    if (mkdtemp(dir) == NULL) {
        abort();
    }
}

/* Removes dir and the files in it. */
static inline void test_dir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    rmdir(dir);
}

#endif
