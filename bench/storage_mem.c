/*
 * storage_mem.c - resident memory per row of the storage engine alone, no
 * network and no CQL: N single-row partitions (11-byte keys, as
 * cosmos-bench's "k%010llu"... keys are, and a value of the chosen size)
 * written as the kv table's INSERT writes them (row marker + one cell at the
 * same timestamp), then optionally one partition of R clustering rows.
 * Prints heap bytes in use (mallinfo2: chunk headers and rounding included),
 * the RSS growth, and both per row beyond the key and value bytes; then,
 * given ops, that many overwrites of random existing rows, timed: the
 * engine's share of an INSERT (seek, row rewrite) without the network. A
 * figure, never a pass/fail.
 *
 *   build/bench/storage-mem [rows [value_size [wide_rows [ops]]]]   (632000 100 0 0)
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "storage/storage.h"


static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return kb;
}


static void report(const char *what, size_t rows, size_t payload, size_t heap0, long rss0)
{
    size_t heap = mallinfo2().uordblks - heap0;
    long rss = (rss_kb() - rss0) * 1024;
    printf("%s: %zu rows, %zu payload bytes/row: heap %.1f MB = %.1f B/row (%.1f beyond "
           "payload), RSS +%.1f MB = %.1f B/row (%.1f beyond payload)\n",
           what, rows, payload, heap / 1e6, (double)heap / rows, (double)heap / rows - payload,
           rss / 1e6, (double)rss / rows, (double)rss / rows - payload);
}


int main(int argc, char **argv)
{
    size_t rows = argc > 1 ? strtoull(argv[1], NULL, 10) : 632000;
    size_t vsize = argc > 2 ? strtoull(argv[2], NULL, 10) : 100;
    size_t wide = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
    size_t ops = argc > 4 ? strtoull(argv[4], NULL, 10) : 0;
    uint8_t *value = malloc(vsize + 1);
    memset(value, 'v', vsize);

    storage_db_t *db = storage_db_new();
    storage_table_t *t = storage_table_create(db, 1);
    size_t heap0 = mallinfo2().uordblks;
    long rss0 = rss_kb();
    int64_t ts = INT64_C(1700000000000000);
    char key[32];
    for (size_t i = 0; i < rows; i++) {
        int n = snprintf(key, sizeof(key), "k%010zu", i);
        storage_cell_t c = {.col = 1, .value = value, .value_len = (uint32_t)vsize, .ts = ts + i};
        storage_mutation_t m = {
            .pk = (const uint8_t *)key,
            .pk_len = (size_t)n,
            .token = storage_token((const uint8_t *)key, (size_t)n),
            .row_marker = true,
            .marker_ts = ts + i,
            .cells = &c,
            .n_cells = 1,
        };
        storage_apply(t, &m, ts, NULL);
    }
    report("single-row partitions", rows, 11 + vsize, heap0, rss0);

    if (wide > 0) {
        storage_table_t *w = storage_table_create(db, 2);
        heap0 = mallinfo2().uordblks;
        rss0 = rss_kb();
        const uint8_t pk[4] = {0, 0, 0, 1};
        for (size_t i = 0; i < wide; i++) {
            uint8_t ck[8];
            for (int b = 0; b < 8; b++) {
                ck[b] = (uint8_t)((uint64_t)i >> (56 - 8 * b));
            }
            storage_cell_t c = {.col = 2, .value = value, .value_len = (uint32_t)vsize, .ts = ts};
            storage_mutation_t m = {
                .pk = pk,
                .pk_len = 4,
                .token = storage_token(pk, 4),
                .ck = ck,
                .ck_len = 8,
                .row_marker = true,
                .marker_ts = ts,
                .cells = &c,
                .n_cells = 1,
            };
            storage_apply(w, &m, ts, NULL);
        }
        report("one wide partition", wide, 8 + vsize, heap0, rss0);
    }

    /* The keys formatted beforehand: the loop times the engine alone. */
    char *keys = malloc(ops > 0 ? rows * 12 : 1);
    for (size_t i = 0; i < rows && ops > 0; i++) {
        snprintf(key, sizeof(key), "k%010zu", i);
        memcpy(keys + i * 12, key, 12);
    }
    uint64_t x = 88172645463325252ull; /* xorshift64: the same keys every run */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < ops; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(key, keys + (x % rows) * 12, 11);
        int n = 11;
        storage_cell_t c = {
            .col = 1, .value = value, .value_len = (uint32_t)vsize, .ts = ts + rows + i};
        storage_mutation_t m = {
            .pk = (const uint8_t *)key,
            .pk_len = (size_t)n,
            .token = storage_token((const uint8_t *)key, (size_t)n),
            .row_marker = true,
            .marker_ts = ts + rows + i,
            .cells = &c,
            .n_cells = 1,
        };
        storage_apply(t, &m, ts, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (ops > 0) {
        double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        printf("random overwrites: %zu in %.3f s, %.0f ns each\n", ops, ns / 1e9, ns / (double)ops);
    }
    free(keys);
    storage_db_free(db);
    free(value);
    return 0;
}
