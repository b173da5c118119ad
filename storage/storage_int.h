/*
 * storage_int.h - the storage layer's private structures. Nothing outside
 * storage/ (and its unit tests) includes this header.
 *
 * Shape of the data:
 *   storage_db_t      list of tables, plus the files behind it when durable
 *   storage_table_t   one B+tree of partitions in (token, pk) order, for
 *                     point lookups, scans and paging alike (ptree.c)
 *   storage_partition_t  one allocation: key bytes and, compact, its only
 *                     row; or (EXT) rows in a skiplist ordered by memcmp of
 *                     clustering bytes, an optional static row, the
 *                     partition deletion and the range tombstones
 *   row               one encoded block (row.c); storage__row_t is its
 *                     decoded working form, cells sorted by (col, has path,
 *                     path)
 *
 * Deletions are applied at write time: a deletion at ts frees everything it
 * shadows and is remembered (partition, range, row or collection tombstone)
 * so that a later write with an older timestamp is dropped. Reads therefore
 * only filter tombstone cells and whatever has expired as of their now.
 */
#ifndef STORAGE_STORAGE_INT_H
#define STORAGE_STORAGE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "storage/storage.h"

/* "No deletion": older than any write timestamp. */
#define STORAGE__NO_DELETION INT64_MIN

/* ---- skiplist: the ordered index (skiplist.c) --------------------------- */

/* Orders an item against a lookup key: <0, 0, >0 as item is before, equal
 * to or after key. */
typedef int (*storage__sl_cmp_fn)(const void *item, const void *key);
/* A predicate that is true for a prefix of the list and false after it. */
typedef bool (*storage__sl_pred_fn)(const void *item, const void *ctx);

typedef struct storage__sl_node_s storage__sl_node_t;
struct storage__sl_node_s {
    void *item;
    uint64_t hint;            /* order-preserving prefix of the item's key */
    storage__sl_node_t *prev; /* NULL on the first node */
    int level;
    storage__sl_node_t *next[]; /* level entries; next[0] is the successor */
};

typedef struct storage__sl_s {
    storage__sl_node_t *head; /* sentinel without item; its level grows as needed */
    storage__sl_node_t *tail; /* last node, NULL when empty */
    int level;                /* highest level in use, >= 1 */
    size_t count;
    uint64_t rng; /* xorshift state for node levels */
    storage__sl_cmp_fn cmp;
} storage__sl_t;

void storage__sl_init(storage__sl_t *sl, storage__sl_cmp_fn cmp, uint64_t seed);
/* Frees every node and calls free_item (which may be NULL) on each item. */
void storage__sl_fini(storage__sl_t *sl, void (*free_item)(void *item));
/* Keys are (hint, key): hint is an order-preserving 64-bit prefix of key,
 * compared first; cmp breaks ties. */
storage__sl_node_t *storage__sl_find(const storage__sl_t *sl, uint64_t hint, const void *key);
/* Inserts item under key, which must not be present. */
storage__sl_node_t *storage__sl_insert(storage__sl_t *sl, void *item, uint64_t hint,
                                       const void *key);
/* Unlinks the node holding key (which must be present); returns its item. */
void *storage__sl_remove(storage__sl_t *sl, uint64_t hint, const void *key);
/* The last node for which pred holds, NULL if it holds for none. pred must
 * be monotone: true on a prefix of the list, false after it. */
storage__sl_node_t *storage__sl_last_where(const storage__sl_t *sl, storage__sl_pred_fn pred,
                                           const void *ctx);

static inline storage__sl_node_t *storage__sl_first(const storage__sl_t *sl)
{
    return sl->head->next[0];
}

/* ---- bounds (bound.c) --------------------------------------------------- */

/* Prefix comparison of a clustering key with a non-empty bound: the first
 * bound->len bytes decide, and a key shorter than the bound that matches
 * on its whole length compares less. */
int storage__bound_cmp(const uint8_t *ck, size_t ck_len, const storage_bound_t *b);
/* Whether ck satisfies the start (resp. end) bound; NULL or empty bounds
 * are unbounded. */
bool storage__bound_after_start(const uint8_t *ck, size_t ck_len, const storage_bound_t *start);
bool storage__bound_before_end(const uint8_t *ck, size_t ck_len, const storage_bound_t *end);
/* memcmp order with the shorter key first on a tie: clustering order. */
int storage__key_cmp(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);
/* The first 8 bytes of a key, big-endian and zero-padded: a skiplist hint
 * (hint(a) < hint(b) implies key_cmp(a, b) < 0). */
uint64_t storage__key_hint(const uint8_t *k, size_t len);

/* ---- a table's allocator (slab.c) ---------------------------------------- */

#define STORAGE__SLAB_GRAIN   8
#define STORAGE__SLAB_MAX     2048
/* Its size classes (slab.c): 8-byte steps to 256 bytes, then 16 steps per
 * power of two up to STORAGE__SLAB_MAX. */
#define STORAGE__SLAB_FINE    256
#define STORAGE__SLAB_CLASSES (STORAGE__SLAB_FINE / STORAGE__SLAB_GRAIN + 3 * 16)

/* Huge chunks touched ahead by a thread of the database (reserve.c). */
#define STORAGE__HUGE_CHUNK (2u * 1024 * 1024)
typedef struct storage__reserve_s storage__reserve_t;
storage__reserve_t *storage__reserve_new(void);
/* A touched chunk, or NULL (map one with storage__reserve_own): r (may be
 * NULL) prepares the next. The chunk is the caller's, to munmap. */
uint8_t *storage__reserve_take(storage__reserve_t *r);
/* The chunk a slab maps itself, when none was ready or before it takes
 * from r at all (NULL when the system will not map it; the caller's, to
 * munmap): advised for huge pages while r rebuilds tables (its depth past
 * STORAGE__RESERVE_GROWN) or when r is NULL; else left in small pages,
 * which the taker faults in a page at a time, and *small says so: the
 * caller advises it for huge pages once full (storage__chunk_advise_huge)
 * and lists it for a move (storage__slab_tidy). */
uint8_t *storage__reserve_own(storage__reserve_t *r, bool *small);
/* Asks the kernel (khugepaged) to move a full small-page chunk to a huge
 * page in its own time. */
void storage__chunk_advise_huge(uint8_t *chunk);
/* A touched chunk to move a full small-page one into (storage__slab_tidy),
 * or NULL: only when the thread is caught up (every chunk it keeps ready is
 * there) and no table took a chunk since the last call, so a move never
 * takes what a growing table needs next. Only on the taker's thread. The
 * chunk is the caller's, to munmap. */
uint8_t *storage__reserve_spare(storage__reserve_t *r);
/* Unmaps chunk (2 MB, aligned) on the thread, or here if it cannot take it:
 * freeing its pages is the thread's time, not the caller's. */
void storage__reserve_discard(storage__reserve_t *r, uint8_t *chunk);
/* Full small-page chunks of the tables waiting for such a move: the slabs
 * count them here, so the database knows without visiting its tables (0
 * when no thread runs to provide spare chunks). The taker's thread only. */
void storage__reserve_count_small(storage__reserve_t *r, int delta);
size_t storage__reserve_small(const storage__reserve_t *r);
/* Stops the thread and unmaps what it holds. */
void storage__reserve_free(storage__reserve_t *r);
/* How many chunks the thread keeps ready (1 to STORAGE__RESERVE_DEEP; 1
 * at first, and one more after each take that found none ready, up to
 * STORAGE__RESERVE_GROWN); those past it are unmapped. */
#define STORAGE__RESERVE_DEEP  16
#define STORAGE__RESERVE_GROWN 8
void storage__reserve_depth(storage__reserve_t *r, int depth);
/* The depth now. */
int storage__reserve_depth_now(storage__reserve_t *r);
/* Chunks taken ready so far, and waiting now. */
uint64_t storage__reserve_handed(storage__reserve_t *r);
int storage__reserve_ready(storage__reserve_t *r);
/* A 2 MB-aligned chunk, untouched, advised for transparent huge pages when
 * huge; NULL when the system will not map it. */
uint8_t *storage__huge_chunk(bool huge);

typedef struct storage__slab_s {
    void *free[STORAGE__SLAB_CLASSES]; /* per size class */
    uint8_t *cur;                      /* the unused end of the newest chunk */
    size_t left;
    bool cur_small;  /* cur is in a 2 MB chunk of small pages, not advised yet */
    uint8_t **small; /* full chunks of small pages, to move into huge ones */
    size_t n_small, cap_small;
    void *chunks;              /* linked through each chunk's first word */
    size_t used;               /* bytes handed out, class-rounded */
    size_t reserved;           /* bytes taken from base_malloc */
    storage__reserve_t *ahead; /* the database's, for huge chunks (may be NULL) */
} storage__slab_t;

/* ahead: where huge chunks come from first (NULL: mapped on demand). */
void storage__slab_init(storage__slab_t *s, storage__reserve_t *ahead);
/* Frees every chunk: everything allocated from s dies. */
void storage__slab_fini(storage__slab_t *s);
void *storage__slab_alloc(storage__slab_t *s, size_t size);
/* size must be the size p was allocated with; p may be NULL. */
void storage__slab_free(storage__slab_t *s, void *p, size_t size);
/* Moves one full small-page chunk into a huge page the reserve touched
 * (storage__reserve_spare): 2 MB copied and remapped in place, so every
 * pointer into it stays valid. Only on the thread that allocates from s.
 * True when one moved. */
bool storage__slab_tidy(storage__slab_t *s);

/* ---- rows and cells (row.c) --------------------------------------------- */

/*
 * A stored row is one heap block (or, in a single-row partition, bytes
 * inside the partition's allocation): [varint n][n bytes], the clustering
 * key, the row's deletion, marker and cells with a flag byte each, and
 * timestamps as deltas from one base (see row.c). Nothing in it is a
 * pointer, so a row costs its bytes plus a few.
 *
 * storage__row_t is the decoded, working form a write edits and re-encodes:
 * its cells borrow their path and value bytes from the block it was decoded
 * from or from the mutation being applied, so it must be encoded before
 * either goes away. Only the cell array is its own (reused across decodes).
 */
typedef struct storage__row_s {
    const uint8_t *ck; /* borrowed, NULL when ck_len is 0 */
    size_t ck_len;
    int64_t del_ts; /* row deletion, STORAGE__NO_DELETION for none */
    bool has_marker;
    int32_t marker_ttl;
    int64_t marker_ts;
    int64_t marker_expires_us;
    /* Sorted by (col, path != NULL, path); a (col, no path) tombstone on a
     * collection column is the collection-wide deletion that shadows its
     * older elements. */
    storage_cell_t *cells;
    size_t n_cells;
    size_t cap_cells;
    size_t bytes; /* ck + path + value bytes */
} storage__row_t;

/* Empties r for the row ck (borrowed), keeping its cell array. */
void storage__row_init(storage__row_t *r, const uint8_t *ck, size_t ck_len);
void storage__row_fini(storage__row_t *r);
/* A heap working row (tests); storage__row_free frees it. */
storage__row_t *storage__row_new(const uint8_t *ck, size_t ck_len);
void storage__row_free(storage__row_t *r);
/* Nothing recorded: no cell, no marker, no row deletion. */
bool storage__row_is_empty(const storage__row_t *r);
bool storage__row_is_live(const storage__row_t *r, int64_t now_us);
/* Last-write-wins merge of one cell (its bytes borrowed until the row is
 * encoded); the caller has already dropped cells shadowed by row, range or
 * partition deletions. */
void storage__row_put_cell(storage__row_t *r, const storage_cell_t *c);
void storage__row_put_marker(storage__row_t *r, int64_t ts, int64_t expires_us, int32_t ttl);
/* Records a row deletion at ts and drops what it shadows. */
void storage__row_delete(storage__row_t *r, int64_t ts);
/* Drops everything at or below ts, including a row deletion, because a
 * covering partition or range deletion now remembers ts. */
void storage__row_purge(storage__row_t *r, int64_t ts);
/* Order of cells in a row: (col, has path, path). */
int storage__cell_cmp(const storage_cell_t *a, const storage_cell_t *b);
/* Ordering of two versions of one cell: >0 if a wins, <0 if b wins. */
int storage__cell_reconcile(const storage_cell_t *a, const storage_cell_t *b);
bool storage__cell_is_live(const storage_cell_t *c, int64_t now_us);

/* The encoded size of a non-empty r, length prefix included. */
size_t storage__row_encoded_size(const storage__row_t *r);
/* Encodes r at dst; size is storage__row_encoded_size(r), which the caller
 * has already (to allocate dst), so the cells are not sized twice. Returns
 * the end, dst + size. */
uint8_t *storage__row_encode_into(const storage__row_t *r, size_t size, uint8_t *dst);
/* Encodes r into a new heap block (base_free it). */
uint8_t *storage__row_encode(const storage__row_t *r);
/* The same from a table's allocator; storage__blk_free gives it back. */
uint8_t *storage__row_encode_in(storage__slab_t *s, const storage__row_t *r);
void storage__blk_free(storage__slab_t *s, uint8_t *blk);
/* Decodes a block into r (cells borrow from blk; r's array is reused). */
void storage__row_decode(const uint8_t *blk, storage__row_t *r);
/* A block's total size, its clustering key, and its ck + path + value bytes. */
size_t storage__blk_size(const uint8_t *blk);
const uint8_t *storage__blk_ck(const uint8_t *blk, size_t *len);
size_t storage__blk_bytes(const uint8_t *blk);

/* Cells decoded for readers: grown as needed, owned by a cursor or a
 * partition's static row. */
typedef struct storage__cellbuf_s {
    storage_cell_t *cells;
    size_t cap;
} storage__cellbuf_t;

/* Fills out with the live part of blk as of now_us, decoding the live
 * cells into buf, and returns the number of dead cells passed over. */
size_t storage__row_view(const uint8_t *blk, storage__cellbuf_t *buf, int64_t now_us,
                         storage_row_view_t *out);

/* ---- partitions (partition.c) ------------------------------------------- */

typedef struct storage__rt_s {
    uint8_t *start; /* start then end bytes share one owned buffer */
    size_t start_len;
    bool start_inclusive;
    uint8_t *end;
    size_t end_len;
    bool end_inclusive;
    int64_t ts;
} storage__rt_t;

/*
 * A partition is one allocation: a few words, its key bytes, then either
 * its only row's block (the compact form, what a table without clustering
 * columns holds) or a pointer to a storage__pext_t holding everything else
 * (ordered rows, static row, deletions). A partition turns into the second
 * form on its second row, a static row or any partition or range deletion,
 * and never back. A write to a compact partition re-allocates it, so
 * partition pointers are valid until the next write to their table (the
 * table index is updated; cursors resume by key).
 */
typedef struct storage__pext_s {
    int64_t del_ts;                 /* partition deletion, STORAGE__NO_DELETION for none */
    uint8_t *statics;               /* static row block, NULL for none */
    storage__cellbuf_t static_view; /* cells of the last static view */
    storage__sl_t rows;             /* row blocks by clustering bytes */
    storage__rt_t *rts;             /* range tombstones, in arrival order */
    size_t n_rts;
    size_t cap_rts;
    int64_t rt_max_ts; /* newest range tombstone, to skip the scan */
    size_t bytes;      /* pk + rows + static row */
} storage__pext_t;

enum {
    STORAGE__PART_ROW = 0, /* data: pk, then one row block */
    STORAGE__PART_EXT = 1, /* data: pk, then a storage__pext_t pointer */
};

struct storage_partition_s {
    int64_t token;
    storage_table_t *table;
    uint32_t pk_len;
    uint8_t form;
    uint8_t data[];
};

static inline const uint8_t *storage__part_pk(const storage_partition_t *p)
{
    return p->data;
}

/* Whether p is the partition (token, pk). */
static inline bool storage__part_is(const storage_partition_t *p, int64_t token, const uint8_t *pk,
                                    size_t pk_len)
{
    return p->token == token && p->pk_len == pk_len &&
           (pk_len == 0 || memcmp(storage__part_pk(p), pk, pk_len) == 0);
}

/* The extension of an EXT partition, NULL for a compact one. */
static inline storage__pext_t *storage__part_ext(const storage_partition_t *p)
{
    storage__pext_t *x = NULL;
    if (p->form == STORAGE__PART_EXT) {
        memcpy(&x, p->data + p->pk_len, sizeof(x));
    }
    return x;
}

/* The row block of a compact partition, NULL for an EXT one. */
static inline const uint8_t *storage__part_row(const storage_partition_t *p)
{
    return p->form == STORAGE__PART_ROW ? p->data + p->pk_len : NULL;
}

/* A compact partition holding the row r (non-empty). */
storage_partition_t *storage__partition_new_row(storage_table_t *t, int64_t token,
                                                const uint8_t *pk, size_t pk_len,
                                                const storage__row_t *r);
/* An empty EXT partition. */
storage_partition_t *storage__partition_new_ext(storage_table_t *t, int64_t token,
                                                const uint8_t *pk, size_t pk_len);
/* p (compact) with its row replaced by r: a new allocation; p is freed. */
storage_partition_t *storage__partition_rewrite_row(storage_partition_t *p,
                                                    const storage__row_t *r);
/* p in the EXT form (p itself if it already is; else p is freed). */
storage_partition_t *storage__partition_promote(storage_partition_t *p);
void storage__partition_free(storage_partition_t *p);
/* Has rows or a static row: what readers can see. */
bool storage__partition_has_data(const storage_partition_t *p);
/* Has anything to remember, tombstones included. */
bool storage__partition_has_state(const storage_partition_t *p);

/* The rest operate on EXT partitions. */
/* The node holding row ck (its item is the row block), NULL if none. */
storage__sl_node_t *storage__partition_find_row(const storage_partition_t *p, const uint8_t *ck,
                                                size_t ck_len);
/* Adds the block of a row that is not there yet, of bytes ck + cell bytes. */
void storage__partition_add_row(storage_partition_t *p, uint8_t *blk, size_t bytes);
/* The first row node satisfying start (NULL or empty: the first row). */
storage__sl_node_t *storage__partition_seek(const storage_partition_t *p,
                                            const storage_bound_t *start);
/* The newest partition or range deletion covering ck (any form). */
int64_t storage__partition_row_shadow(const storage_partition_t *p, const uint8_t *ck,
                                      size_t ck_len);
void storage__partition_delete(storage_partition_t *p, int64_t ts);
void storage__partition_delete_range(storage_partition_t *p, const storage_bound_t *start,
                                     const storage_bound_t *end, int64_t ts);

/* ---- the partition index (ptree.c) -------------------------------------- */

typedef struct storage__pt_leaf_s storage__pt_leaf_t;

typedef struct storage__ptree_s {
    void *root;                /* a leaf when height is 0 */
    storage__pt_leaf_t *first; /* leftmost leaf */
    int height;
    size_t count;
    storage__slab_t *mem; /* the table's: nodes are allocated from it */
} storage__ptree_t;

/* A place in the leaves: an entry, or the end (idx == n of the last leaf). */
typedef struct storage__pt_pos_s {
    storage__pt_leaf_t *leaf;
    uint32_t idx;
} storage__pt_pos_t;

void storage__pt_init(storage__ptree_t *t, storage__slab_t *mem);
/* Frees the nodes (back to the slab), and every partition with free_item
 * unless NULL. */
void storage__pt_fini(storage__ptree_t *t, void (*free_item)(storage_partition_t *p));
/* The first entry not before (token, pk); pk NULL: the first after every key of token. */
storage__pt_pos_t storage__pt_seek(const storage__ptree_t *t, int64_t token, const uint8_t *pk,
                                   size_t pk_len);
storage__pt_pos_t storage__pt_first(const storage__ptree_t *t);
storage__pt_pos_t storage__pt_next(storage__pt_pos_t pos);
/* The partition at pos, NULL at the end. */
storage_partition_t *storage__pt_at(storage__pt_pos_t pos);
/* The partition at pos if it is (token, pk), else NULL. */
storage_partition_t *storage__pt_at_key(storage__pt_pos_t pos, int64_t token, const uint8_t *pk,
                                        size_t pk_len);
/* Where the pointer at pos (not the end) is kept, to replace a moved partition. */
storage_partition_t **storage__pt_slot(storage__pt_pos_t pos);
/* The two steps of storage_prefetch_index and storage_prefetch_partition:
 * the leaf that holds token (returned), then the slot of the partition it
 * points at (the first of token's, or a neighbour; NULL past the last),
 * searching from leaf, or from the root when leaf is NULL. The slot is the
 * index's (storage_table_s.shape says how long it holds). */
const storage__pt_leaf_t *storage__pt_prefetch_leaf(const storage__ptree_t *t, int64_t token);
storage_partition_t **storage__pt_prefetch_item(const storage__ptree_t *t,
                                                const storage__pt_leaf_t *leaf, int64_t token);
/* Inserts p at pos, a seek's answer for p's key (absent), with no change since. */
void storage__pt_insert(storage__ptree_t *t, storage__pt_pos_t pos, storage_partition_t *p);

/* ---- tables (table.c, db.c) --------------------------------------------- */

#define STORAGE__SEEK_PK_MAX 64

/* Slots of the lookahead's found partitions (found below), by token: eight
 * times what one lookahead asks for (CQL_PREFETCH_MAX, 32). With 32 slots
 * its tokens collided for 63% of the point reads, which then searched the
 * index again (measured: 37% hits); with 256, 11% collide, and a select
 * costs the loop 4-6% less (1.90-2.00 -> 1.79-1.92 us, four runs each). */
#define STORAGE__FOUND_SLOTS 256

struct storage_table_s {
    storage_db_t *db;
    uint64_t id;
    /* False for a table a durable open restored that storage_table_create
     * has not handed out yet. */
    bool claimed;
    storage_table_t *prev, *next; /* the db's list */
    /* The one index of partitions, by (token, pk); partitions are only
     * removed all at once (truncate, drop). */
    storage__ptree_t parts;
    storage__slab_t mem; /* partitions and row blocks */
    size_t n_visible;    /* partitions with data */
    size_t bytes;        /* sum of visible partitions' bytes */
    uint32_t n_physical;
    /* Bumped by every write and truncate: cursors holding a position
     * re-find it by key when it moved. */
    uint64_t version;
    /* Bumped when entries of the partition index may move (a partition
     * added, the index emptied): a pointer to an entry's slot holds while
     * this does, across writes that only replace partitions in their
     * slots. */
    uint64_t shape;
    /* The last seek, while version holds: a write's lookup often follows a
     * read of the same key (cql checks the stored row first). */
    bool seek_valid;
    uint64_t seek_version;
    int64_t seek_token;
    uint32_t seek_pk_len;
    uint8_t seek_pk[STORAGE__SEEK_PK_MAX];
    storage__pt_pos_t seek_pos;
    /* The index slots of partitions the lookahead found (storage_prefetch_partition),
     * by token, while shape holds: a point read (storage_partition_get) and a write
     * (storage__apply) take the partition in the slot, checked by key, instead of
     * searching the index a second time; a write that moves its partition puts it
     * back in the same slot. */
    struct storage__found_s {
        int64_t token;
        uint64_t shape;
        storage_partition_t **slot;
    } found[STORAGE__FOUND_SLOTS];
    uint64_t seed;                         /* for skiplist levels */
    storage__row_t work;                   /* the row a write is decoding and re-encoding */
    struct storage_row_iter_s *spare_iter; /* a freed row cursor, kept for the next (iter.c) */
};

storage_table_t *storage__table_new(storage_db_t *db, uint64_t id);
void storage__table_free(storage_table_t *t);
/* Frees t's spare row cursor (iter.c). */
void storage__row_iter_spare_free(storage_table_t *t);
/* The in-memory half of truncate, drop and apply: no commit log record. */
void storage__table_truncate(storage_table_t *t);
void storage__apply(storage_table_t *t, const storage_mutation_t *m, int64_t now_us,
                    storage_write_stats_t *stats);
/* Where (token, pk) is or would go in t's index (storage__pt_seek, with a
 * one-entry cache of the last answer while the table is unchanged). */
storage__pt_pos_t storage__table_seek(storage_table_t *t, int64_t token, const uint8_t *pk,
                                      size_t pk_len);
/* The partition for (token, pk) whether or not it has data, NULL if none. */
storage_partition_t *storage__table_lookup(storage_table_t *t, int64_t token, const uint8_t *pk,
                                           size_t pk_len);
/* The index slot holding (token, pk)'s partition, if the lookahead found it
 * and the index kept its shape since; else NULL (search). */
storage_partition_t **storage__table_found(const storage_table_t *t, int64_t token,
                                           const uint8_t *pk, size_t pk_len);
uint64_t storage__table_next_seed(storage_table_t *t);

/* ---- the database (db.c) ------------------------------------------------ */

typedef struct storage__durable_s storage__durable_t;

struct storage_db_s {
    storage_table_t *tables;     /* doubly linked through prev/next */
    storage__durable_t *dur;     /* NULL for an in-memory database */
    storage__reserve_t *reserve; /* huge chunks for the tables' slabs */
    uint64_t tidied;             /* small-page chunks moved into huge pages */
};

/* Links a new table without logging it. */
storage_table_t *storage__db_add_table(storage_db_t *db, uint64_t id);
/* Unlinks and frees t without logging it. */
void storage__db_remove_table(storage_db_t *db, storage_table_t *t);
storage_table_t *storage__db_find(const storage_db_t *db, uint64_t id);
/* Frees every table (a failed load starts again from nothing). */
void storage__db_clear(storage_db_t *db);

/* ---- durability: records (record.c, crc32.c) ----------------------------- */

/*
 * One record, in the commit log and in a snapshot alike:
 *   [u32 length][u32 crc32 of payload][payload]
 *   payload = [u8 kind][u64 table id][body]
 * big-endian. A snapshot is a stream of the same records (CREATE, PHYSICAL,
 * MUTATION) closed by an END record whose id is the number of records
 * before it, so loading one is replaying it.
 */
enum {
    STORAGE__REC_CREATE = 1,
    STORAGE__REC_DROP = 2,
    STORAGE__REC_TRUNCATE = 3,
    STORAGE__REC_MUTATION = 4, /* body: now_us, then the mutation */
    STORAGE__REC_PHYSICAL = 5, /* body: u32 physical partition count */
    STORAGE__REC_END = 6,      /* snapshots only */
    /* A BATCH, all or nothing after a crash: id is the mutation count, the
     * body that many (u64 table id, mutation as in MUTATION) pairs. */
    STORAGE__REC_BATCH = 7,
};

#define STORAGE__REC_HEADER 8
/* Larger lengths are corruption, not a record (snapshots split rows). */
#define STORAGE__REC_MAX    (UINT32_C(1) << 30)

uint32_t storage__crc32(const uint8_t *p, size_t n);

/* Starts a record at the end of b; returns where it starts, for _end. */
size_t storage__rec_begin(base_buf_t *b, uint8_t kind, uint64_t id);
/* Fills in the length. The checksum is left to storage__rec_seal, which
 * the threads that write runs over records before they reach a file (the
 * log's writer, the snapshot's compressor), off the event loop: a CRC per
 * record was 5% of its time under a durable load. */
void storage__rec_end(base_buf_t *b, size_t start);
/* Fills in the checksum of each record in p[0..len), whole records only. */
void storage__rec_seal(uint8_t *p, size_t len);
void storage__rec_put_mutation(base_buf_t *b, const storage_mutation_t *m, int64_t now_us);

typedef enum {
    STORAGE__FRAME_OK,
    STORAGE__FRAME_TORN, /* the record runs past the end of the bytes */
    STORAGE__FRAME_BAD,  /* impossible length or checksum mismatch */
} storage__frame_t;

/* Checks the record at buf[off..len): on OK, *payload and *plen describe
 * it; *next is where the following record would start (also for BAD when
 * the length was plausible, else len). */
storage__frame_t storage__rec_frame(const uint8_t *buf, size_t len, size_t off,
                                    const uint8_t **payload, size_t *plen, size_t *next);

/* A record framed in a window (stream.c): its payload, and its offset in the
 * stream. */
typedef struct storage__rec_view_s {
    const uint8_t *p;
    size_t n;
    uint64_t at;
} storage__rec_view_t;

/* Decoding scratch reused across records. */
typedef struct storage__replay_s {
    storage_cell_t *cells;
    size_t cap_cells;
    uint32_t *cols;
    size_t cap_cols;
    storage_table_t *last; /* lookup cache */
} storage__replay_t;

void storage__replay_fini(storage__replay_t *rp);
/* Decodes one payload (bounds-checked: files are untrusted) and applies it
 * to db without logging. NULL on success, else why the record is invalid. */
const char *storage__rec_apply(storage_db_t *db, storage__replay_t *rp, const uint8_t *p, size_t n);
/* Records framed, then prefetched, then applied together: enough for the
 * prefetches' misses to overlap, few enough to stay in the cache between. */
#define STORAGE__REPLAY_BATCH 16
/* Asks the CPU for the index leaf, then the partition, that each mutation
 * among recs will touch, before any of them is applied: a log replays in
 * arrival order, so each lookup was a miss taken alone. Tables are found
 * through rp's lookup cache, as storage__rec_apply finds them. */
void storage__rec_prefetch(storage_db_t *db, storage__replay_t *rp, const storage__rec_view_t *recs,
                           size_t n); /* n <= STORAGE__REPLAY_BATCH */

/* ---- durability: files (file.c, commitlog.c, snapshot.c, durable.c) ---- */

/* The log threads of STORAGE_SYNC_GROUP and _PERIODIC, and of write-behind
 * with a log thread (syncer.c). Fields
 * below mu are guarded by it; written, synced and failed are also read
 * without it. */
#define STORAGE__RETIRED_MAX 16
typedef struct storage__retired_s {
    int fd;
    uint64_t end; /* the log position where this log ends */
} storage__retired_t;

typedef struct storage__syncer_s {
    storage_sync_t mode;
    int interval_ms;
    void (*before_sync)(void *arg);
    void (*before_write)(void *arg);
    void *hook_arg;
    pthread_t syncer;
    pthread_t writer;
    bool writes;              /* write-behind: the writer thread writes the log, not the caller */
    int notify_fd;            /* eventfd written after rounds acknowledgements wait for, else -1 */
    _Atomic uint64_t written; /* bytes written to the logs since open */
    _Atomic uint64_t synced;
    atomic_bool failed;
    pthread_mutex_t mu;
    pthread_cond_t sync_cond;  /* the sync thread waits on it */
    pthread_cond_t write_cond; /* the writer and the caller wait on it */
    uint64_t queued;           /* bytes handed over since open (>= written) */
    base_buf_t queue;          /* handed over for fd, not taken yet */
    base_buf_t tail;           /* handed over for tail_fd (a retired log), not taken yet */
    int tail_fd;
    base_buf_t spare;   /* the writer's own buffer, swapped with queue */
    uint64_t writeback; /* PERIODIC: written when writeback last started */
    int fd;             /* the current log */
    storage__retired_t retired[STORAGE__RETIRED_MAX]; /* older logs, oldest first */
    size_t n_retired;
    uint64_t syncs;
    /* The caller's waits for these threads (storage_db_disk_waits). */
    _Atomic uint64_t waits, waited_us;
    const char *what; /* the call that failed */
    int errnum;
    bool stop_writing; /* the writer writes what is queued, then ends */
    bool stop_syncing; /* the sync thread syncs what is written, then ends */
} storage__syncer_t;

/* The windows a stream reads into (stream.c), kept from one file to the
 * next: recovery reads a snapshot and then many logs, and fresh memory
 * costs a page fault per 4 KB. */
#define STORAGE__STREAM_WINDOWS 3
typedef struct storage__windows_s {
    uint8_t *buf[STORAGE__STREAM_WINDOWS]; /* NULL: made by the next stream */
    size_t cap[STORAGE__STREAM_WINDOWS];
} storage__windows_t;

void storage__windows_free(storage__windows_t *w);

struct storage__durable_s {
    char *dir;
    int lock_fd; /* flock'ed: one process per directory */
    int log_fd;  /* the current commit log, O_APPEND */
    uint64_t gen;
    uint64_t log_bytes;  /* size of the current log */
    uint64_t log_room;   /* blocks allocated to the current log ahead of it (0: none) */
    uint64_t since_ckpt; /* bytes logged since the last checkpoint began, every log */
    /* The next log being made ahead (STORAGE__LOG_PREPARED) by a thread of
     * its own: started by open and after each use, joined before the next. */
    pthread_t prep_thread;
    bool prep_running;     /* started, not joined */
    atomic_bool prep_done; /* the thread has finished: prep_made is final */
    uint64_t prep_bytes;   /* what it allocates: log_segment when it started */
    uint64_t log_segment;  /* what to ask for: storage__log_prepare_size of the data */
    uint64_t prep_made;    /* the made-ahead log's room; 0: there is none */
    bool prep_stopped;     /* closing: no more are made */
    uint64_t writeback;    /* STORAGE_SYNC_NONE: of log_bytes, writeback started (file.c) */
    storage_sync_t sync;
    /* The log no longer describes memory (a failed drop/truncate record or
     * fsync): writes are refused until a checkpoint succeeds. */
    bool failed;
    bool reported; /* the failure was printed */
    /* Records not written yet (write-behind; else at most the one being
     * added), whole and in order (commitlog.c). */
    base_buf_t enc;
    bool write_behind;
    bool lost;         /* gathered records could not be written: the next flush fails */
    uint64_t failures; /* times the log was marked failed (checkpoint.c) */
    /* The background checkpoint being written, NULL if none (checkpoint.c). */
    struct storage__ckpt_s *ckpt;
    struct storage__snap_kept_s *snap_kept; /* the last checkpoint's buffers, for the next */
    uint64_t recovered_bytes;               /* snapshot and log bytes read at open */
    uint64_t appended;          /* bytes appended to the logs since open (every generation) */
    uint64_t syncs;             /* fdatasyncs of STORAGE_SYNC_ALWAYS */
    storage__syncer_t *syncer;  /* GROUP and PERIODIC, else NULL */
    storage__windows_t windows; /* recovery's, freed once it is done */
};

int storage__syncer_start(storage__durable_t *d, const storage_sync_cfg_t *cfg, base_error_t *err);
/* Syncs what is written one last time, then ends the thread. */
void storage__syncer_stop(storage__durable_t *d);
/* The logs now hold written bytes since open (wakes a GROUP thread). */
void storage__syncer_written(storage__syncer_t *s, uint64_t written);
/* Records waiting for the writer past which a hand-over waits for it to
 * take them: the caller's memory stays bounded when the disk stalls. */
#define STORAGE__LOG_QUEUE_MAX (64u << 20)
/* Write-behind: hands the records in *b (whole, in order) to the writer,
 * which writes them to the current log once woken (now, with wake); *b is
 * left empty. queued is the log position after them. */
void storage__syncer_queue(storage__syncer_t *s, base_buf_t *b, uint64_t queued, bool wake);
void storage__syncer_wake(storage__syncer_t *s);
/* Waits until the thread wrote everything up to pos; false if it failed. */
bool storage__syncer_wait_written(storage__syncer_t *s, uint64_t pos);
/* A log switch: the thread syncs the current log once more and closes it. */
void storage__syncer_switch(storage__syncer_t *s, int new_fd);
/* The next log: flushes what is gathered into the current one and renames
 * the log made ahead (STORAGE__LOG_PREPARED), if it is ready, to
 * commitlog-<gen + 1>.log, else creates that; its fd and *room (the blocks
 * allocated ahead, 0 for a created log), or -1 with err. */
int storage__log_next(storage__durable_t *d, uint64_t *room, base_error_t *err);
/* The next log, made ahead by a thread of its own: an empty file with its
 * blocks allocated (fallocate, past its end). */
#define STORAGE__LOG_PREPARED    "commitlog.next"
#define STORAGE__LOG_PREPARE_MIN (64u << 20)
#define STORAGE__LOG_PREPARE_MAX ((uint64_t)1 << 30)
/* How much to allocate ahead for a log, with data_bytes of data: a quarter
 * of it, 64 MB to 1 GB (a log rolls once full, so it needs no more). */
uint64_t storage__log_prepare_size(uint64_t data_bytes);
/* Deletes the log made ahead, if any (opening, closing). */
void storage__log_unprepare(const char *dir);
/* Starts making the next log ahead, d->log_segment of it, on its thread
 * (unless one is being made, or the database is closing). */
void storage__prep_start(storage__durable_t *d);
/* Waits for the thread making the next log, if any. */
void storage__prep_join(storage__durable_t *d);
/* Closing: waits for that thread, makes no more, deletes the log made ahead. */
void storage__prep_stop(storage__durable_t *d);
/* Past this much of a log's room a flush rolls it into the log made ahead. */
#define STORAGE__ROLL_MARGIN (4u << 20)
/* On the loop, after a flush: when the current log is near the end of its
 * room (or never had any) and the next is made, continues in it: a new
 * generation without a snapshot, which replay reads after the others. */
void storage__log_maybe_roll(storage__durable_t *d);
/* The checkpoint failed before using it: closes and deletes the new log. */
void storage__log_unmake(storage__durable_t *d, int fd);
/* Writes go to the new log from now on (generation gen + 1). */
void storage__log_switch(storage__durable_t *d, int fd, uint64_t room);
/* Closes the log being replaced, or hands it to the sync thread. */
void storage__log_retire(storage__durable_t *d, int new_fd);

typedef struct storage__ckpt_s storage__ckpt_t;
/* Drops the background checkpoint, if any (its temp file with it). */
void storage__ckpt_abandon(storage__durable_t *d);
/* Deletes the snapshots and logs older than generation gen. */
void storage__remove_before(const char *dir, uint64_t gen);
/* Marks the log failed: writes are refused until a checkpoint. */
void storage__log_failed(storage__durable_t *d);

/* dir/<prefix><gen><suffix> into out (PATH_MAX-sized). */
void storage__path(char *out, size_t size, const char *dir, const char *prefix, uint64_t gen,
                   const char *suffix);
int storage__write_all(int fd, const void *p, size_t n);
/* Appends p to fd, the file's only writer: BASE_OK; BASE_EIO when it failed
 * and the part that made it was cut off again, so the next record does not
 * follow garbage; BASE_ERROR when even that failed. errno is the write's. */
int storage__append(int fd, const void *p, size_t n);
/* The whole file into *data (caller frees; tests); BASE_ERROR with err. */
int storage__read_file(const char *path, uint8_t **data, size_t *len, base_error_t *err);
int storage__fsync_dir(const char *dir);
/* Deletes path, freeing a large file's blocks STORAGE__UNLINK_STEP at a
 * time (slow: for a thread that may wait, never the loop). Best effort. */
void storage__unlink(const char *path);
#define STORAGE__UNLINK_STEP     (32u << 20)
#define STORAGE__UNLINK_PAUSE_US 2000
/* Writeback of a file written sequentially starts every this many bytes. */
#define STORAGE__WRITEBACK_BYTES (8u << 20)
/* The end of a log being appended to, left to the next fdatasync (a power of
 * two; the size of the largest page cache folio). */
#define STORAGE__WRITEBACK_TAIL  (2u << 20)
/* The file fd is size bytes long, of which [0, *mark) had its writeback
 * started: starts the rest once it is STORAGE__WRITEBACK_BYTES or more
 * (moving *mark). Asynchronous, and no promise of durability. */
void storage__writeback(int fd, uint64_t *mark, uint64_t size);

/* A durable file read record by record (stream.c): a commit log as it is,
 * a snapshot through its LZ4 frame, read ahead by a thread of the stream,
 * which also checks the records. The caller walks the window it holds. */
typedef struct storage__reader_s storage__reader_t;
typedef struct storage__stream_s {
    storage__reader_t *rd;
    const uint8_t *buf; /* the window: buf[pos..len) are the next bytes */
    size_t pos, len;
    size_t ok;       /* buf[pos..ok): whole records, checked */
    uint64_t at;     /* the stream offset of buf[pos] */
    bool eof;        /* nothing follows buf[len] */
    const char *why; /* an I/O or LZ4 error stopped the stream (errnum, if any, says more) */
    int errnum;
} storage__stream_t;

/* Opens path and starts reading it. The stream borrows w's windows (NULL:
 * its own) and gives them back at close. */
int storage__stream_open(storage__stream_t *s, const char *path, bool lz4, storage__windows_t *w,
                         base_error_t *err);
void storage__stream_close(storage__stream_t *s);
/* Whether a thread reads ahead: files of 1 MB or more, threads permitting. */
bool storage__stream_threaded(const storage__stream_t *s);
/* Whether bytes are left (false at the end, and on an error: see why). */
bool storage__stream_more(storage__stream_t *s);
/* The next record, as storage__rec_frame answers: on OK the payload, valid
 * until the next call, and the window moves past it; otherwise the window
 * starts at that record (offset at) and holds the rest of the stream (or
 * why says what stopped it). */
storage__frame_t storage__stream_record(storage__stream_t *s, const uint8_t **payload,
                                        size_t *plen);

/* Up to max of the next records, each framed and checked (OK): those whole
 * in the window without reading, or else the one storage__stream_record
 * reads. 0 when the next record is not OK, as that call answers. Payloads
 * stay valid until the next call on s. */
size_t storage__stream_records(storage__stream_t *s, storage__rec_view_t *out, size_t max);


/* Write-behind gathers this much before writing without a flush. */
#define STORAGE__WRITE_BEHIND_MAX (256u * 1024)

/* Appends the record that starts at start in d->enc: written at once, or
 * with write-behind kept for the next flush. BASE_EIO (reported once on
 * stderr) if it could not be written, and then nothing of it is left
 * behind and its change must not be made. */
int storage__log_append(storage__durable_t *d, size_t start);
/* Writes the gathered records; BASE_EIO if some change made since the
 * last flush is not in the log (see storage_db_log_flush). */
int storage__log_flush(storage__durable_t *d);
/* Logs a table-level record; a failure marks the log failed, because the
 * caller changes memory anyway (these calls cannot fail). */
void storage__log_table(storage_db_t *db, uint8_t kind, uint64_t id, uint32_t arg);
int storage__log_mutation(storage_db_t *db, uint64_t id, const storage_mutation_t *m,
                          int64_t now_us);
int storage__log_batch(storage_db_t *db, const storage_batch_item_t *items, size_t n,
                       int64_t now_us);
/* Replays commitlog-<gen>.log into db. In the last log a torn or
 * zero-filled tail is cut off; anything else invalid is an error. */
int storage__log_replay(storage_db_t *db, uint64_t gen, bool last, base_error_t *err);
/* Opens (creating) commitlog-<gen>.log for appending. -1 with err. */
int storage__log_open(const char *dir, uint64_t gen, bool create, uint64_t *size,
                      base_error_t *err);

/* The snapshot writer (snapshot.c), fed by checkpoint.c: snapshot-<gen>.lz4
 * of every table, through a temp file, fsync and rename. */
typedef struct storage__snap_s storage__snap_t;
/* The snapshot compressor's nice value (snapshot.c says why). */
#define STORAGE__COMPRESS_NICE 10
/* What one snapshot writer leaves the next: its emptied buffers and LZ4
 * context (snapshot.c says why). */
typedef struct storage__snap_kept_s storage__snap_kept_t;
/* Opens snapshot-<gen>.lz4.tmp in dir (which must outlive the writer);
 * NULL with err. Free with storage__snap_free. The writer takes *kept, if
 * any, and leaves its own there when freed: kept (NULL for none) must
 * outlive it, and its owner frees what is left with
 * storage__snap_kept_free. */
storage__snap_t *storage__snap_open(const char *dir, uint64_t gen, storage__snap_kept_t **kept,
                                    base_error_t *err);
void storage__snap_kept_free(storage__snap_kept_t *k);
/* A table's CREATE (and PHYSICAL) records: before its partitions. */
void storage__snap_table(storage__snap_t *w, const storage_table_t *t);
/* Writes p: its deletions and static row unless after is set, then its
 * rows after after (all with after NULL), at most max_rows (>= 1) of them.
 * Returns the block of the last row written when rows are left (resume
 * after its clustering key), NULL once p is written whole. */
const uint8_t *storage__snap_partition(storage__snap_t *w, uint64_t id,
                                       const storage_partition_t *p, const storage_bound_t *after,
                                       size_t max_rows);
/* The END record, after which the writer's thread ends the LZ4 frame;
 * BASE_ERROR if anything of the snapshot failed already (later failures
 * surface at commit). */
int storage__snap_finish(storage__snap_t *w);
/* Waits for the writer's thread to write everything, then fsync, rename to
 * the final name, fsync the directory: blocking, and touching nothing but
 * w (checkpoint.c runs it on a thread). */
int storage__snap_commit(storage__snap_t *w);
bool storage__snap_failed(const storage__snap_t *w);
/* The writer's thread has enough queued: come back later (the caller's
 * loop should not encode more meanwhile). */
bool storage__snap_busy(storage__snap_t *w);
/* The first failure, as an error (BASE_ERROR). */
int storage__snap_error(const storage__snap_t *w, base_error_t *err);
/* Closes and frees w; the temp file is removed unless committed. */
void storage__snap_free(storage__snap_t *w);
/* Loads snapshot-<gen>.lz4 into an empty db; BASE_ERROR if invalid. */
int storage__snapshot_load(storage_db_t *db, uint64_t gen, base_error_t *err);

/* Test hook: frees a durable db without a checkpoint, leaving its files as
 * a killed process would. */
void storage__db_abandon(storage_db_t *db);

#endif
