/*
 * db.c - the registry of tables, part of storage/. The db owns every table
 * it creates; dropping one or freeing the db frees all of its data.
 */
#include "storage/storage_int.h"


struct storage_db_s {
    storage_table_t *tables; /* doubly linked through prev/next */
};


storage_db_t *storage_db_new(void)
{
    return base_calloc(1, sizeof(storage_db_t));
}


void storage_db_free(storage_db_t *db)
{
    if (db == NULL) {
        return;
    }
    storage_table_t *t = db->tables;
    while (t != NULL) {
        storage_table_t *next = t->next;
        storage__table_free(t);
        t = next;
    }
    base_free(db);
}


storage_table_t *storage_table_create(storage_db_t *db, uint64_t id)
{
    storage_table_t *t = storage__table_new(db, id);
    t->next = db->tables;
    if (db->tables != NULL) {
        db->tables->prev = t;
    }
    db->tables = t;
    return t;
}


void storage_table_drop(storage_db_t *db, storage_table_t *t)
{
    BASE_ASSERT(t->db == db);
    if (t->prev != NULL) {
        t->prev->next = t->next;
    } else {
        db->tables = t->next;
    }
    if (t->next != NULL) {
        t->next->prev = t->prev;
    }
    storage__table_free(t);
}
