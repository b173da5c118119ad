/*
 * physical.c - physical partitions, part of storage/: the token ring split
 * into n equal ranges, the way Cosmos DB splits a container. Range i starts
 * at INT64_MIN + i * floor(2^64 / n); the last range also takes the few
 * tokens the division leaves over at the top, so INT64_MAX maps to n - 1.
 */
#include "storage/storage_int.h"


void storage_table_set_physical_partitions(storage_table_t *t, uint32_t n)
{
    n = n > 0 ? n : 1;
    if (t->db->dur != NULL && n != t->n_physical) {
        storage__log_table(t->db, STORAGE__REC_PHYSICAL, t->id, n);
    }
    t->n_physical = n;
}


uint32_t storage_table_physical_partitions(const storage_table_t *t)
{
    return t->n_physical;
}


uint32_t storage_table_physical_of(const storage_table_t *t, int64_t token)
{
    uint32_t n = t->n_physical;
    if (n <= 1) {
        return 0;
    }
    /* floor(2^64 / n) = floor((2^64 - n) / n) + 1, without a 65-bit intermediate; at least 1. */
    uint64_t width = (UINT64_MAX - n + 1) / n + 1;
    uint64_t offset = (uint64_t)token ^ (UINT64_C(1) << 63); /* token - INT64_MIN */
    uint64_t i = offset / width;
    return i < n ? (uint32_t)i : n - 1;
}
