/*
 * apply.c - the write path, part of storage/: one mutation into a table.
 *
 * Order within a mutation is Cassandra's: the deletions first (partition,
 * range, row, collections), then the row marker and the cells. Everything
 * carries its own timestamp, so a deletion at ts also shadows this
 * mutation's writes at ts (a tombstone wins a tie), as in a batch that
 * deletes and inserts the same row at one timestamp. Replacing a
 * collection is the exception Cassandra makes: see clear_ts.
 *
 * A write that is entirely shadowed leaves nothing behind: rows and
 * partitions are only created when something is left to remember.
 *
 * A partition without clustering rows stays compact (one allocation of key
 * and row, see partition.c): a write to its row re-encodes it into a new
 * allocation and the table index takes the new pointer. Anything else
 * promotes it first.
 *
 * On a durable database storage_apply appends the mutation to the commit
 * log first; storage__apply is the in-memory half that replay calls.
 */
#include "storage/storage_int.h"

/* Above this many cells a mutation's cells are sorted first, so a new
 * collection is built by appends instead of inserts into the middle. */
#define SORT_THRESHOLD 8


static int cell_order(const void *a, const void *b)
{
    return storage__cell_cmp(*(const storage_cell_t *const *)a, *(const storage_cell_t *const *)b);
}


static void put_cells(storage__row_t *r, const storage_mutation_t *m, int64_t shadow)
{
    const storage_cell_t **order = NULL;
    if (m->n_cells > SORT_THRESHOLD) {
        order = base_malloc(m->n_cells * sizeof(*order));
        for (size_t i = 0; i < m->n_cells; i++) {
            order[i] = &m->cells[i];
        }
        qsort(order, m->n_cells, sizeof(*order), cell_order);
    }
    for (size_t i = 0; i < m->n_cells; i++) {
        const storage_cell_t *c = order != NULL ? order[i] : &m->cells[i];
        if (c->ts > shadow) {
            storage__row_put_cell(r, c);
        }
    }
    base_free(order);
}


/* When clear_cols come without a delete_ts, the collections are being
 * replaced (SET l = ...): Cassandra deletes them one microsecond before the
 * write so the new elements survive. now_us stands in for the write
 * timestamp when the mutation writes nothing else (SET l = null). */
static int64_t clear_ts(const storage_mutation_t *m, int64_t now_us)
{
    if (m->delete_ts != 0) {
        return m->delete_ts;
    }
    int64_t ts = m->row_marker && !m->static_row ? m->marker_ts
                 : m->n_cells > 0                ? m->cells[0].ts
                                                 : now_us;
    return ts - 1;
}


/* Deletions and writes aimed at the row (static or clustering) itself. */
static void apply_row(storage__row_t *r, const storage_mutation_t *m, int64_t shadow,
                      int64_t now_us)
{
    if (m->delete_row && !m->static_row && m->delete_ts > shadow) {
        storage__row_delete(r, m->delete_ts);
    }
    if (r->del_ts > shadow) {
        shadow = r->del_ts;
    }
    int64_t cleared = m->n_clear_cols > 0 ? clear_ts(m, now_us) : shadow;
    if (cleared > shadow) {
        for (size_t i = 0; i < m->n_clear_cols; i++) {
            storage_cell_t whole = {.col = m->clear_cols[i], .tombstone = true, .ts = cleared};
            storage__row_put_cell(r, &whole);
        }
    }
    /* Static rows carry no row marker, as in Cassandra. */
    if (m->row_marker && !m->static_row && m->marker_ts > shadow) {
        storage__row_put_marker(r, m->marker_ts, m->marker_expires_us, m->marker_ttl);
    }
    put_cells(r, m, shadow);
}


static bool touches_row(const storage_mutation_t *m)
{
    return (m->delete_row && !m->static_row) || m->n_clear_cols > 0 ||
           (m->row_marker && !m->static_row) || m->n_cells > 0;
}


static size_t mutation_bytes(const storage_mutation_t *m)
{
    size_t n = m->pk_len + m->ck_len;
    for (size_t i = 0; i < m->n_cells; i++) {
        n += (size_t)m->cells[i].path_len + m->cells[i].value_len;
    }
    return n;
}


/* Where the block of the row m targets is held in an EXT partition, NULL if
 * the row is not there. */
static uint8_t **find_target(storage_partition_t *p, const storage_mutation_t *m)
{
    storage__pext_t *x = storage__part_ext(p);
    if (m->static_row) {
        return x->statics != NULL ? &x->statics : NULL;
    }
    storage__sl_node_t *n = storage__partition_find_row(p, m->ck, m->ck_len);
    return n != NULL ? (uint8_t **)&n->item : NULL;
}


/* Whether a compact partition's row is the one m writes. */
static bool same_row(const storage_partition_t *p, const storage_mutation_t *m)
{
    size_t len;
    const uint8_t *ck = storage__blk_ck(storage__part_row(p), &len);
    return len == m->ck_len && (len == 0 || memcmp(ck, m->ck, len) == 0);
}


/* Whether the row m targets was live before it; *decoded is the block left decoded in
 * t->work to judge (NULL if none), which a compact write then need not decode again. */
static bool row_existed(storage_table_t *t, const storage_partition_t *p,
                        const storage_mutation_t *m, int64_t now_us, const uint8_t **decoded)
{
    const uint8_t *blk = NULL;
    *decoded = NULL;
    if (p == NULL) {
        return false;
    }
    if (p->form == STORAGE__PART_ROW) {
        blk = !m->static_row && same_row(p, m) ? storage__part_row(p) : NULL;
    } else {
        uint8_t **slot = find_target((storage_partition_t *)p, m);
        blk = slot != NULL ? *slot : NULL;
    }
    if (blk == NULL) {
        return false;
    }
    storage__row_decode(blk, &t->work);
    *decoded = blk;
    return storage__row_is_live(&t->work, now_us);
}


/* Decodes the row into the table's working row, applies m and encodes the
 * result in place of the old block (whose bytes the working row borrows, so
 * it is freed last). p is an EXT partition. */
static void write_row(storage_partition_t *p, const storage_mutation_t *m, int64_t now_us)
{
    storage__pext_t *x = storage__part_ext(p);
    storage__row_t *r = &p->table->work;
    uint8_t **slot = find_target(p, m);
    uint8_t *old = slot != NULL ? *slot : NULL;
    int64_t shadow = m->static_row ? x->del_ts : storage__partition_row_shadow(p, m->ck, m->ck_len);

    if (old == NULL) {
        storage__row_init(r, m->static_row ? NULL : m->ck, m->static_row ? 0 : m->ck_len);
    } else {
        storage__row_decode(old, r);
        x->bytes -= r->bytes;
    }
    apply_row(r, m, shadow, now_us);

    if (old != NULL) {
        /* Writes alone never empty a row: a deletion that frees cells
         * leaves its own tombstone in it. */
        BASE_ASSERT(!storage__row_is_empty(r));
        *slot = storage__row_encode_in(&p->table->mem, r);
        x->bytes += r->bytes;
        storage__blk_free(&p->table->mem, old);
    } else if (storage__row_is_empty(r)) {
        return;
    } else if (m->static_row) {
        x->statics = storage__row_encode_in(&p->table->mem, r);
        x->bytes += r->bytes;
    } else {
        storage__partition_add_row(p, storage__row_encode_in(&p->table->mem, r), r->bytes);
    }
}


/* The write a compact partition can take as it is: its own row, no
 * partition or range deletion, nothing static. */
static bool compact_write(const storage_mutation_t *m)
{
    return !m->delete_partition && !m->delete_range && !m->static_row;
}


/* A compact write on a compact partition p (NULL: none yet): the row
 * decoded, changed and encoded into a new allocation. Returns the
 * partition now holding the row, NULL when the write left nothing. */
static storage_partition_t *write_compact(storage_table_t *t, storage_partition_t *p,
                                          const storage_mutation_t *m, int64_t now_us,
                                          const uint8_t *decoded)
{
    storage__row_t *r = &t->work;
    if (p == NULL) {
        storage__row_init(r, m->ck, m->ck_len);
    } else if (decoded != storage__part_row(p)) {
        storage__row_decode(storage__part_row(p), r);
    }
    apply_row(r, m, STORAGE__NO_DELETION, now_us);
    if (p != NULL) {
        BASE_ASSERT(!storage__row_is_empty(r));
        return storage__partition_rewrite_row(p, r);
    }
    if (storage__row_is_empty(r)) {
        return NULL;
    }
    return storage__partition_new_row(t, m->token, m->pk, m->pk_len, r);
}


int storage_apply(storage_table_t *t, const storage_mutation_t *m, int64_t now_us,
                  storage_write_stats_t *stats)
{
    /* Logged before memory changes: an unlogged write is never visible. */
    if (t->db->dur != NULL && storage__log_mutation(t->db, t->id, m, now_us) != BASE_OK) {
        if (stats != NULL) {
            memset(stats, 0, sizeof(*stats));
        }
        return BASE_EIO;
    }
    storage__apply(t, m, now_us, stats);
    return BASE_OK;
}


void storage__apply(storage_table_t *t, const storage_mutation_t *m, int64_t now_us,
                    storage_write_stats_t *stats)
{
    /* The slot the lookahead found for the partition, else a search: a
     * write that replaces a partition puts the new one in the same slot,
     * so slots found for the rest of a batch hold (storage_table_s.shape). */
    storage_partition_t **found = storage__table_found(t, m->token, m->pk, m->pk_len);
    storage__pt_pos_t pos = {0};
    if (found == NULL) {
        pos = storage__table_seek(t, m->token, m->pk, m->pk_len);
    }
    t->version++; /* from here on, partitions and rows may move */
    storage_partition_t *p =
        found != NULL ? *found : storage__pt_at_key(pos, m->token, m->pk, m->pk_len);
    const uint8_t *decoded;
    bool existed = row_existed(t, p, m, now_us, &decoded);
    bool is_new = p == NULL;
    bool was_visible = p != NULL && storage__partition_has_data(p);
    /* A compact partition's size is its key and its row's bytes, which the row
     * decoded in t->work counts (storage_partition_bytes would decode it again). */
    size_t old_bytes = !was_visible ? 0
                       : decoded != NULL && p->form == STORAGE__PART_ROW
                           ? p->pk_len + t->work.bytes
                           : storage_partition_bytes(p);
    bool counted = false; /* t->work is the row of the compact partition p holds now */

    if (compact_write(m) && !touches_row(m)) {
        /* nothing to do */
    } else if (compact_write(m) &&
               (p == NULL || (p->form == STORAGE__PART_ROW && same_row(p, m)))) {
        p = write_compact(t, p, m, now_us, decoded);
        counted = p != NULL;
    } else {
        p = p != NULL ? storage__partition_promote(p)
                      : storage__partition_new_ext(t, m->token, m->pk, m->pk_len);
        if (m->delete_partition) {
            storage__partition_delete(p, m->delete_ts);
        }
        if (m->delete_range) {
            storage__partition_delete_range(p, &m->range_start, &m->range_end, m->delete_ts);
        }
        if (touches_row(m)) {
            write_row(p, m, now_us);
        }
        if (is_new && !storage__partition_has_state(p)) {
            storage__partition_free(p);
            p = NULL;
        }
    }

    bool is_visible = p != NULL && storage__partition_has_data(p);
    size_t new_bytes = !is_visible ? 0
                       : counted   ? p->pk_len + t->work.bytes
                                   : storage_partition_bytes(p);
    t->bytes = t->bytes - old_bytes + new_bytes;
    if (was_visible != is_visible) {
        t->n_visible = is_visible ? t->n_visible + 1 : t->n_visible - 1;
    }

    if (stats != NULL) {
        storage__pext_t *x = p != NULL ? storage__part_ext(p) : NULL;
        stats->bytes_written = mutation_bytes(m);
        stats->row_existed = existed;
        stats->partition_bytes = new_bytes;
        stats->partition_rows = x != NULL ? x->rows.count : p != NULL ? 1 : 0;
    }

    if (is_new) {
        if (p != NULL) {
            BASE_ASSERT(found == NULL); /* a slot is found only for a partition */
            t->shape++;                 /* entries move over in their leaf, or to a new one */
            storage__pt_insert(&t->parts, pos, p);
        }
    } else {
        *(found != NULL ? found : storage__pt_slot(pos)) = p; /* it may have moved */
    }
}


int storage_apply_batch(storage_db_t *db, const storage_batch_item_t *items, size_t n,
                        int64_t now_us, storage_write_stats_t *stats)
{
    if (n == 0) {
        return BASE_OK;
    }
    if (n == 1) {
        return storage_apply(items[0].t, items[0].m, now_us, stats);
    }
    /* One record for the whole batch, logged before memory changes. */
    if (db->dur != NULL && storage__log_batch(db, items, n, now_us) != BASE_OK) {
        if (stats != NULL) {
            memset(stats, 0, n * sizeof(*stats));
        }
        return BASE_EIO;
    }
    for (size_t i = 0; i < n; i++) {
        BASE_ASSERT(items[i].t->db == db);
        storage__apply(items[i].t, items[i].m, now_us, stats != NULL ? &stats[i] : NULL);
    }
    return BASE_OK;
}
