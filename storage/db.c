/*
 * db.c - the registry of tables, part of storage/. The db owns every table
 * it creates; dropping one or freeing the db frees all of its data.
 *
 * On a durable database (durable.c) each public call here first appends
 * its record to the commit log, then changes memory; the storage__ forms
 * change memory only, for replay. Table ids are unique in a durable
 * database: storage_table_create on the id of a restored table hands that
 * table out ("claims" it) instead of creating one.
 */
#include "storage/storage_int.h"


storage_db_t *storage_db_new(void)
{
    storage_db_t *db = base_calloc(1, sizeof(storage_db_t));
    db->reserve = storage__reserve_new();
    return db;
}


void storage__db_clear(storage_db_t *db)
{
    storage_table_t *t = db->tables;
    while (t != NULL) {
        storage_table_t *next = t->next;
        storage__table_free(t);
        t = next;
    }
    db->tables = NULL;
}


void storage_db_free(storage_db_t *db)
{
    if (db == NULL) {
        return;
    }
    if (db->dur != NULL) {
        base_error_t err;
        if (storage_db_checkpoint(db, &err) != BASE_OK) {
            base_log(BASE_LOG_ERROR, "storage: checkpoint at close failed: %s", err.msg);
        }
    }
    storage__db_abandon(db);
}


void storage_db_discard(storage_db_t *db)
{
    storage__db_abandon(db);
}


size_t storage_db_untidy(const storage_db_t *db)
{
    return storage__reserve_small(db->reserve);
}


bool storage_db_tidy(storage_db_t *db)
{
    if (storage__reserve_small(db->reserve) == 0) {
        return false;
    }
    for (storage_table_t *t = db->tables; t != NULL; t = t->next) {
        if (t->mem.n_small > 0) {
            bool moved = storage__slab_tidy(&t->mem);
            db->tidied += moved;
            return moved;
        }
    }
    return false;
}


uint64_t storage_db_tidied(const storage_db_t *db)
{
    return db->tidied;
}


storage_table_t *storage__db_add_table(storage_db_t *db, uint64_t id)
{
    storage_table_t *t = storage__table_new(db, id);
    BASE_LIST_PUSH(&db->tables, t, prev, next);
    return t;
}


storage_table_t *storage__db_find(const storage_db_t *db, uint64_t id)
{
    for (storage_table_t *t = db->tables; t != NULL; t = t->next) {
        if (t->id == id) {
            return t;
        }
    }
    return NULL;
}


storage_table_t *storage_table_create(storage_db_t *db, uint64_t id)
{
    if (db->dur != NULL) {
        storage_table_t *t = storage__db_find(db, id);
        if (t != NULL) {
            BASE_ASSERT(!t->claimed); /* one live table per id */
            t->claimed = true;
            return t;
        }
        storage__log_table(db, STORAGE__REC_CREATE, id, 0);
    }
    storage_table_t *t = storage__db_add_table(db, id);
    t->claimed = true;
    return t;
}


void storage__db_remove_table(storage_db_t *db, storage_table_t *t)
{
    BASE_ASSERT(t->db == db);
    BASE_LIST_REMOVE(&db->tables, t, prev, next);
    storage__table_free(t);
}


void storage_table_drop(storage_db_t *db, storage_table_t *t)
{
    if (db->dur != NULL) {
        storage__log_table(db, STORAGE__REC_DROP, t->id, 0);
    }
    storage__db_remove_table(db, t);
}


size_t storage_db_data_bytes(const storage_db_t *db)
{
    size_t n = 0;
    for (const storage_table_t *t = db->tables; t != NULL; t = t->next) {
        n += storage_table_bytes(t);
    }
    return n;
}


size_t storage_db_unclaimed(const storage_db_t *db, size_t *with_data, uint64_t *first_id)
{
    size_t n = 0, n_data = 0;
    for (const storage_table_t *t = db->tables; t != NULL; t = t->next) {
        if (t->claimed) {
            continue;
        }
        n++;
        if (t->parts.count > 0) {
            if (first_id != NULL && (n_data == 0 || t->id < *first_id)) {
                *first_id = t->id;
            }
            n_data++;
        }
    }
    if (with_data != NULL) {
        *with_data = n_data;
    }
    return n;
}


size_t storage_db_drop_unclaimed(storage_db_t *db)
{
    size_t n = 0;
    storage_table_t *t = db->tables;
    while (t != NULL) {
        storage_table_t *next = t->next;
        /* Rows (or tombstones) no schema claims are kept: dropping them would lose data. */
        if (!t->claimed && t->parts.count == 0) {
            storage_table_drop(db, t);
            n++;
        }
        t = next;
    }
    return n;
}
