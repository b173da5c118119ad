/*
 * storage.h - local partitioned storage. storage/ knows partitions, rows
 * and cells as bytes; it knows no CQL text and no types. The cql layer
 * gives it:
 *   - partition keys as the serialized partition key bytes (Cassandra's
 *     format: the single component, or the composite <len><bytes><0>...),
 *     with their Murmur3 token (storage_token() computes it);
 *   - clustering keys already encoded order-preserving and prefix-free per
 *     component, so memcmp order is clustering order (DESC components are
 *     inverted by the encoder);
 *   - cells identified by (column id, optional path for collection elements).
 *
 * Semantics kept here (Cassandra's): last-write-wins per cell by write
 * timestamp (ties: the greater value wins, deletions beat writes at the same
 * timestamp), row/partition/range deletions at a timestamp shadow older
 * writes, TTL expiry turns a cell into a tombstone at its expiry time, and a
 * row is live when its row marker or any cell is live.
 *
 * Invariants:
 *   - partitions iterate in (token, key bytes) order; rows in a partition
 *     in memcmp order of their clustering bytes;
 *   - a returned storage_row_view_t borrows from the table: the key, path
 *     and value bytes it points to are valid until the next write to that
 *     table; its cell array belongs to the cursor that produced it (valid
 *     until that cursor's next call or free) or, for a static row, to the
 *     partition (until the next storage_partition_static on it). Callers
 *     keeping cells longer copy the array, not the bytes;
 *   - the engine is single-threaded: callers serialise access (the emulator
 *     runs one event loop).
 */
#ifndef STORAGE_STORAGE_H
#define STORAGE_STORAGE_H

#include "base/base.h"

typedef struct storage_db_s storage_db_t;
typedef struct storage_table_s storage_table_t;
typedef struct storage_partition_s storage_partition_t;

/* Cassandra Murmur3Partitioner token of a serialized partition key,
 * bit-for-bit (including the signed-byte tail quirk). An empty key has
 * token INT64_MIN as in Cassandra. */
int64_t storage_token(const uint8_t *key, size_t len);

/* ---- database and tables ----------------------------------------------- */

storage_db_t *storage_db_new(void);     /* in-memory; caller owns, storage_db_free */
void storage_db_free(storage_db_t *db); /* durable: checkpoints first, then closes */
/* Frees without a checkpoint, leaving a durable database's files as they are
 * (a start-up that failed must not rewrite what the user may need to repair). */
void storage_db_discard(storage_db_t *db);
/* Full chunks of small pages the tables hold (rows were created faster
 * than the database's reserve thread touched memory for them), each
 * waiting for storage_db_tidy; 0 when there are none or nothing can move
 * them. Cheap: for the event loop to ask every turn. */
size_t storage_db_untidy(const storage_db_t *db);
/* Moves one of them into a huge page the reserve touched, in place (a
 * 2 MB copy: 0.6-1.1 ms here; reads of a large table pay fewer TLB misses
 * afterwards), if the reserve has one to spare and no table took a chunk
 * since the last call. On the thread that serves the tables, between
 * requests. True when one moved. */
bool storage_db_tidy(storage_db_t *db);
/* Chunks storage_db_tidy moved so far. */
uint64_t storage_db_tidied(const storage_db_t *db);

/*
 * Durable databases. Every change (table create/drop/truncate, every applied
 * mutation) is appended to a commit log in dir before the call returns (with
 * write-behind, a mutation only by the next storage_db_log_flush), with
 * a length and CRC32 per record, so a write the caller acknowledged survives
 * the process being killed (and, with STORAGE_SYNC_ALWAYS, the machine
 * losing power: fsync per record). A checkpoint writes an lz4-compressed
 * snapshot of every table and starts a new log; opening loads the newest
 * valid snapshot and replays the log after it, ignoring a torn last record.
 *
 * Tables come back under their ids: storage_table_create(db, id) on an
 * opened database returns the restored table with that id, if there is one,
 * so the layer above re-creates its schema and finds its data. Restoring
 * logs nothing; a restored table stays "unclaimed" (kept, checkpointed,
 * claimable later) until then; storage_db_drop_unclaimed drops the empty
 * ones and keeps those holding data, so no checkpoint ever loses rows of a
 * table the layer above failed to account for. Ids are unique in a durable database: creating the
 * id of a table already handed out is a caller bug (asserted).
 *
 * A record that cannot be written makes storage_apply return BASE_EIO
 * without changing memory (the error is printed once on stderr). Create,
 * drop, truncate and set_physical_partitions cannot fail, so their failure
 * leaves the log behind memory: every storage_apply then returns BASE_EIO
 * until a storage_db_checkpoint succeeds.
 */
typedef enum {
    STORAGE_SYNC_NONE = 0, /* write() per record: survives a process crash */
    STORAGE_SYNC_ALWAYS,   /* fdatasync per record, in the caller: survives a power loss */
    /* Group commit: a sync thread fdatasyncs whatever was written while its
     * previous fdatasync ran. The caller acknowledges a write only once
     * storage_db_synced_position passes the storage_db_log_position taken
     * after it (storage_db_sync_notify_fd says when to look). */
    STORAGE_SYNC_GROUP,
    /* A sync thread fdatasyncs every interval: writes are acknowledged
     * once written, and a power loss may cost the last interval of them. */
    STORAGE_SYNC_PERIODIC,
} storage_sync_t;

#define STORAGE_SYNC_INTERVAL_DEFAULT_MS 10000 /* Cassandra's commitlog_sync_period */

typedef struct storage_sync_cfg_s {
    storage_sync_t mode;
    int interval_ms; /* PERIODIC; 0: the default */
    /* Tests only: run on the sync thread before each round of fdatasyncs
     * and each start of writeback (may block to hold acknowledgements
     * back). NULL for none. */
    void (*before_sync)(void *arg);
    /* Tests only: the same, on the log's writer thread before each round
     * of writes (write-behind with GROUP or PERIODIC). */
    void (*before_write)(void *arg);
    void *hook_arg;
    /* Gather records and write them with one write(2) at
     * storage_db_log_flush (or once 256 KB gather) instead of one per
     * record: the caller must flush before it acknowledges a write. */
    bool write_behind;
    /* With write_behind (any mode but ALWAYS): a thread of the log does
     * that write(2), so a file system stall holds acknowledgements back,
     * never the caller; a flush only hands the records over, and the
     * caller acknowledges a write once storage_db_ack_position passes it. */
    bool log_thread;
} storage_sync_cfg_t;

/* Opens (or creates) a durable database in dir. NULL with err on failure. */
storage_db_t *storage_db_open(const char *dir, storage_sync_t sync, base_error_t *err);
storage_db_t *storage_db_open_cfg(const char *dir, const storage_sync_cfg_t *cfg,
                                  base_error_t *err);
/* Bytes appended to the commit logs since open, over every generation: a
 * write's position is this value right after it (0 in memory). With
 * write-behind, only once flushed. */
uint64_t storage_db_log_position(const storage_db_t *db);
/* Write-behind: writes every record gathered since the last flush, in one
 * write(2). BASE_OK when every change made so far is in the log (always,
 * in memory or without write-behind); BASE_EIO when some change made since
 * the last flush could not be written: it is in memory but not in the log,
 * so it must not be acknowledged (and writes are refused until a
 * checkpoint, which makes it durable after all). */
int storage_db_log_flush(storage_db_t *db);
/* The same, except that with a log thread the records handed over wait for
 * the next storage_db_log_wake (or flush): an event loop calls this as it
 * answers each connection and wakes the thread once per iteration, so one
 * write(2) and one wake-up cover every connection served meanwhile. */
int storage_db_log_flush_later(storage_db_t *db);
/* Wakes the log thread for what was handed over (no-op without one). */
void storage_db_log_wake(storage_db_t *db);
/* Up to which position the sync mode's promise holds: what the sync thread
 * fdatasynced (GROUP, PERIODIC), else everything written. Thread-safe. */
uint64_t storage_db_synced_position(const storage_db_t *db);
/* Up to which position a write may be acknowledged: synced (GROUP); with
 * a log thread, what it has written (a flush only hands records over to
 * it); else everything flushed. Thread-safe. */
uint64_t storage_db_ack_position(const storage_db_t *db);
/* GROUP, and with a log thread: an eventfd that becomes readable after
 * every round acknowledgements wait for (read it with
 * storage_db_sync_drain); -1 otherwise. */
int storage_db_sync_notify_fd(const storage_db_t *db);
void storage_db_sync_drain(const storage_db_t *db);
/* The log's thread failed to write or fdatasync: the written and synced
 * positions stop and writes are refused (what was written after the last
 * good sync may not be on disk; what was handed over after it never will). */
bool storage_db_sync_failed(const storage_db_t *db);
/* Once storage_db_sync_failed: what failed ("write failed", "fdatasync
 * failed"; static text) with its errno in *errnum; NULL before. */
const char *storage_db_sync_failure(const storage_db_t *db, int *errnum);
/* fdatasync rounds of the commit log since open. */
uint64_t storage_db_syncs(const storage_db_t *db);
/* The caller's waits for the commit log's threads, each a stretch in which
 * it served no request: records handed over past the writer's queue limit
 * (64 MB: the disk that far behind) and log switches waiting for the
 * threads to finish the last log (checkpoints faster than the disk). Since
 * open; zero in memory or without a log thread. A wait is counted as it
 * begins and its time added as it ends. Any thread may read them. */
typedef struct storage_disk_waits_s {
    uint64_t count;
    uint64_t total_us;
} storage_disk_waits_t;
void storage_db_disk_waits(const storage_db_t *db, storage_disk_waits_t *out);
storage_sync_t storage_db_sync_mode(const storage_db_t *db);
/* Snapshot + new log, at once (a background one running is dropped: this
 * one is newer); no-op for in-memory databases, and when the newest
 * snapshot is followed by an empty log (nothing changed since). */
int storage_db_checkpoint(storage_db_t *db, base_error_t *err);
/*
 * A checkpoint that does not stop the caller: the live log switches to a new
 * generation at once, and the caller then writes the snapshot a slice at a
 * time with storage_db_checkpoint_step between its other work (see
 * checkpoint.c: the snapshot is fuzzy, and exact together with the new
 * log). BASE_OK: started (or nothing to do in memory); BASE_AGAIN: one is
 * still running; BASE_ERROR with err. Until it completes the older files
 * stay, and opening the directory after a crash gives the same data either
 * way.
 */
int storage_db_checkpoint_start(storage_db_t *db, base_error_t *err);
/* Works on the background checkpoint for about budget_us. BASE_AGAIN: call
 * again in *next_ms (0: at once, more to write; else the snapshot is being
 * fsynced on a thread); BASE_OK: done, older generations deleted, or none
 * running; BASE_ERROR: it failed (err says how; the files are as before). */
int storage_db_checkpoint_step(storage_db_t *db, int64_t budget_us, int *next_ms,
                               base_error_t *err);
bool storage_db_checkpoint_running(const storage_db_t *db);
/* Whether the commit log is due for a checkpoint: it holds at least
 * min_log_bytes and at least as many bytes as the tables' data. A
 * snapshot rewrites all the data, so this keeps the snapshot work no larger
 * than the log work that calls for it (Redis's auto-aof-rewrite-percentage
 * 100) and a restart's log no longer than its snapshot. False in memory. */
bool storage_db_checkpoint_due(const storage_db_t *db, uint64_t min_log_bytes);
/* The background checkpoint: BASE_AGAIN running; BASE_OK done (older
 * generations deleted) or none running; BASE_ERROR it failed (err says how;
 * the files are as before it). wait: finish it now, in this call. */
int storage_db_checkpoint_poll(storage_db_t *db, bool wait, base_error_t *err);
/* Bytes of snapshot and commit log read when the database was opened. */
uint64_t storage_db_recovered_bytes(const storage_db_t *db);
/* Key, clustering and cell bytes of every table (the data a recovery
 * rebuilt, whatever its files' compression). */
size_t storage_db_data_bytes(const storage_db_t *db);
/* Bytes in the current commit log (to decide when to checkpoint); 0 in memory. */
uint64_t storage_db_log_bytes(const storage_db_t *db);
bool storage_db_durable(const storage_db_t *db);
/* Restored tables not claimed yet: how many, and (with_data non-NULL) how
 * many of them hold any partition, rows or tombstones; *first_id is the
 * smallest id of those holding data (when first_id is non-NULL and there is one). */
size_t storage_db_unclaimed(const storage_db_t *db, size_t *with_data, uint64_t *first_id);
/* Drops (and logs dropping) every unclaimed table that holds nothing (a
 * table whose creation the layer above never finished recording); tables
 * with data are kept. Returns how many were dropped. For the layer above
 * once its whole schema is re-created. */
size_t storage_db_drop_unclaimed(storage_db_t *db);

/* Creates an empty table; the db owns it. id is the caller's handle. */
storage_table_t *storage_table_create(storage_db_t *db, uint64_t id);
/* Drops the table and frees everything in it; the pointer dies. */
void storage_table_drop(storage_db_t *db, storage_table_t *t);
/* Removes all data (TRUNCATE); the table stays. */
void storage_table_truncate(storage_table_t *t);

/* ---- writes ------------------------------------------------------------- */

#define STORAGE_NO_EXPIRY 0

typedef struct storage_cell_s {
    uint32_t col;        /* caller's column id */
    const uint8_t *path; /* collection element key (NULL for simple cells) */
    uint32_t path_len;
    const uint8_t *value; /* NULL with value_len 0 and tombstone=false means empty value */
    uint32_t value_len;
    bool tombstone;     /* a deletion of this cell at ts */
    int64_t ts;         /* write timestamp, microseconds */
    int64_t expires_us; /* wall clock expiry, STORAGE_NO_EXPIRY for none */
    int32_t ttl;        /* seconds, as written (for ttl()), 0 for none */
} storage_cell_t;

/* A clustering range [start, end] compared on prefixes: a row whose
 * clustering bytes begin with the bound's bytes compares equal to it. An
 * empty bound (len 0) is unbounded on that side. */
typedef struct storage_bound_s {
    const uint8_t *key;
    size_t len;
    bool inclusive;
} storage_bound_t;

typedef struct storage_mutation_s {
    const uint8_t *pk; /* serialized partition key */
    size_t pk_len;
    int64_t token;
    const uint8_t *ck; /* encoded clustering key; len 0 for tables without one */
    size_t ck_len;
    bool static_row; /* the cells are static cells of the partition */
    /* Row marker (INSERT writes one; UPDATE does not). */
    bool row_marker;
    int64_t marker_ts;
    int64_t marker_expires_us;
    int32_t marker_ttl;
    /* Deletions, applied before the cells: */
    bool delete_partition; /* DELETE FROM t WHERE pk = ... */
    bool delete_row;       /* DELETE FROM t WHERE pk = ... AND ck = ... */
    bool delete_range;     /* clustering range deletion with range below */
    storage_bound_t range_start, range_end;
    int64_t delete_ts;
    /* Collection-wide deletion before setting (e.g. SET l = [..]), at
     * delete_ts (DELETE l passes ts). With delete_ts 0 the collections are
     * replaced as Cassandra does: deleted at the write timestamp - 1 (the
     * marker's, else the first cell's, else now_us) so new elements live. */
    const uint32_t *clear_cols;
    size_t n_clear_cols;
    const storage_cell_t *cells;
    size_t n_cells;
} storage_mutation_t;

/* What a write did, for metering and guard-rails. */
typedef struct storage_write_stats_s {
    size_t bytes_written;   /* key + cell bytes in the mutation */
    bool row_existed;       /* a live row was already there (an overwrite) */
    size_t partition_bytes; /* partition size after the write */
    size_t partition_rows;  /* live + dead rows in the partition after the write */
} storage_write_stats_t;

/* Applies a mutation. Returns BASE_OK, or BASE_EIO when a durable
 * database could not log it (nothing applied, stats zeroed); stats may be
 * NULL. */
int storage_apply(storage_table_t *t, const storage_mutation_t *m, int64_t now_us,
                  storage_write_stats_t *stats);

/* One mutation of a batch. */
typedef struct storage_batch_item_s {
    storage_table_t *t;
    const storage_mutation_t *m;
} storage_batch_item_t;

/* Applies the mutations of a BATCH in order. A durable database logs them
 * as one commit log record (one length, one CRC), so after a crash the
 * batch is there whole or not at all. Returns BASE_OK, or BASE_EIO when the
 * record could not be logged (nothing applied, stats zeroed). Every table
 * belongs to db; stats is NULL or has n entries. */
int storage_apply_batch(storage_db_t *db, const storage_batch_item_t *items, size_t n,
                        int64_t now_us, storage_write_stats_t *stats);

/* ---- reads -------------------------------------------------------------- */

/* A row as a reader sees it: cells sorted by (col, path), live ones only
 * (expired and deleted cells filtered as of the iterator's now). */
typedef struct storage_row_view_s {
    const uint8_t *ck;
    size_t ck_len;
    bool is_static;
    bool has_marker; /* live row marker */
    int64_t marker_ts;
    const storage_cell_t *cells;
    size_t n_cells;
} storage_row_view_t;

/* Finds a partition by key; NULL if absent or fully deleted. The pointer
 * (and its key bytes) is valid until the next write to the table. */
storage_partition_t *storage_partition_get(storage_table_t *t, int64_t token, const uint8_t *pk,
                                           size_t pk_len);
const uint8_t *storage_partition_key(const storage_partition_t *p, size_t *len);
int64_t storage_partition_token(const storage_partition_t *p);
/* The partition's live static row, or false if none. */
bool storage_partition_static(storage_partition_t *p, int64_t now_us, storage_row_view_t *out);

/* Row cursor over one partition's clustering range. Cursors remember the
 * key of their position, so they see rows written after it and survive any
 * write (a truncate ends them). A storage_partition_t pointer is valid until
 * the next write to its table (a write may move the partition); cursors
 * created from it stay usable across writes. */
typedef struct storage_row_iter_s storage_row_iter_t;
/* Creates a cursor (caller frees with storage_row_iter_free, before the
 * table is freed: a freed cursor is kept for reuse by its table). reverse
 * walks from end to start. Bounds may be NULL for unbounded. */
storage_row_iter_t *storage_row_iter_new(storage_partition_t *p, const storage_bound_t *start,
                                         const storage_bound_t *end, bool reverse, int64_t now_us);
/* Next live row; false at the end. Dead rows are skipped and counted. */
bool storage_row_iter_next(storage_row_iter_t *it, storage_row_view_t *out);
/* Tombstones (dead rows and dead cells) passed over so far, for guard-rails. */
size_t storage_row_iter_tombstones(const storage_row_iter_t *it);
void storage_row_iter_free(storage_row_iter_t *it);

/* Partition cursor over the whole table in (token, key) order, starting
 * after (token, pk) when after_pk is non-NULL, else from after_token
 * (exclusive) when has_after_token, else from the beginning. */
typedef struct storage_part_iter_s storage_part_iter_t;
storage_part_iter_t *storage_part_iter_new(storage_table_t *t, bool has_after_token,
                                           int64_t after_token, const uint8_t *after_pk,
                                           size_t after_pk_len);
storage_partition_t *storage_part_iter_next(storage_part_iter_t *it);
void storage_part_iter_free(storage_part_iter_t *it);

/* ---- sizes and physical partitions -------------------------------------- */

/* Partitions with data, and their key + clustering + cell bytes (exact,
 * what item-size limits and storage figures count). */
size_t storage_table_partition_count(const storage_table_t *t);
size_t storage_table_bytes(const storage_table_t *t);
size_t storage_partition_bytes(const storage_partition_t *p);
/* Memory the table's partitions, rows and partition index hold, allocator
 * rounding included (the ordered-row bookkeeping of multi-row partitions,
 * skiplist nodes and range tombstones, is not counted). */
size_t storage_table_memory(const storage_table_t *t);

/*
 * Prefetching, for a batch of lookups whose cache misses should overlap
 * rather than come one after another: storage_prefetch_index asks the CPU
 * for the index leaf that holds token, and storage_prefetch_partition, called
 * later once the leaf has had time to arrive, for the partition it points
 * at. Hints only: they change no data, and any step may be skipped. Each step
 * leaves in h what it found, so the next one does not search the index again:
 * h is good only while the table is unchanged (the steps of a batch all run
 * before any of its requests does), and starts zeroed or from _index.
 * storage_prefetch_partition also notes the partition's index slot in t, so
 * the next storage_partition_get or write of its key need not search
 * either, until a partition is added to t.
 */
typedef struct storage_hint_s {
    const void *leaf;                /* _index's leaf */
    const storage_partition_t *part; /* _partition's: token's first, or a neighbour */
} storage_hint_t;
void storage_prefetch_index(const storage_table_t *t, int64_t token, storage_hint_t *h);
void storage_prefetch_partition(storage_table_t *t, int64_t token, storage_hint_t *h);
/* Once the partition's head has had time to arrive: the rest of a one-row
 * partition (up to 4 KB). A read copies it out whole; a write of a row of the
 * same size is written into the slot the write before it freed (the slab's
 * free lists are last in, first out), which this brought in for that write. */
void storage_prefetch_row(int64_t token, const storage_hint_t *h);

/*
 * Physical partitions: the token ring split into n equal ranges, as Cosmos
 * DB splits a container. Index i covers tokens from
 * INT64_MIN + i * (2^64 / n). Default 1.
 */
void storage_table_set_physical_partitions(storage_table_t *t, uint32_t n);
uint32_t storage_table_physical_partitions(const storage_table_t *t);
uint32_t storage_table_physical_of(const storage_table_t *t, int64_t token);

#endif
