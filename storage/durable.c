/*
 * durable.c - a database kept in a directory, part of storage/: opening
 * (which snapshot, which logs), checkpoints and closing.
 *
 * Files: snapshot-<g>.lz4 is the state as of the start of commitlog-<g>.log;
 * logs follow each other by generation. A checkpoint from generation g
 * creates commitlog-<g+1>.log first, then writes snapshot-<g+1>.lz4, and
 * only then switches to the new log and deletes generations <= g. A crash
 * at any point leaves a directory that opens to the same data: either
 * snapshot-<g+1> is whole and the logs before it are redundant, or it does
 * not exist and the (still empty) new log simply follows the old one.
 *
 * A background checkpoint (checkpoint.c) switches the live log to
 * generation g+1 first, then writes snapshot-<g+1> a slice at a time while
 * writes go on: a fuzzy snapshot that, replayed with commitlog-<g+1>,
 * rebuilds the state exactly. Generations <= g are deleted only once it is
 * written, fsynced and renamed; until then (or if it fails) the directory
 * opens from the older snapshot and both logs, so no state in between
 * loses data.
 *
 * Between checkpoints the log may also roll into a new generation with no
 * snapshot of its own (commitlog.c): logs g, g+1, ... replay in order after
 * snapshot-<g> all the same, and a checkpoint deletes every one before its
 * own. commitlog.next is the next log made ahead, empty with its blocks
 * allocated; opening deletes one a killed process left and makes it anew
 * on a thread, closing deletes it.
 *
 * Opening picks the newest snapshot that loads and has every log after it
 * (none at all: every log from generation 1), and replays those logs; if
 * no snapshot is usable it fails with the reason rather than open with
 * data missing. A LOCK file held with flock keeps out a second process.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/storage_int.h"

/* Leaves room in a path buffer for "/commitlog-<20 digits>.lz4.tmp". */
#define DIR_MAX 3900


typedef struct gens_s {
    uint64_t *v;
    size_t n;
    size_t cap;
} gens_t;


static void gens_add(gens_t *g, uint64_t gen)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 8;
        g->v = base_realloc(g->v, g->cap * sizeof(uint64_t));
    }
    g->v[g->n++] = gen;
}


static int gen_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a;
    uint64_t y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}


/* "<prefix><digits><suffix>" exactly; the generation in *gen. */
static bool parse_name(const char *name, const char *prefix, const char *suffix, uint64_t *gen)
{
    size_t lp = strlen(prefix);
    size_t ls = strlen(suffix);
    size_t n = strlen(name);
    if (n <= lp + ls || n - lp - ls > 19 || strncmp(name, prefix, lp) != 0 ||
        strcmp(name + n - ls, suffix) != 0) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = lp; i < n - ls; i++) {
        if (name[i] < '0' || name[i] > '9') {
            return false;
        }
        v = v * 10 + (uint64_t)(name[i] - '0');
    }
    *gen = v;
    return v > 0;
}


typedef struct dir_scan_s {
    gens_t snaps;
    gens_t logs;
} dir_scan_t;


/* Lists the generations present, sorted; removes leftover temp files. */
static int scan_dir(const char *dir, dir_scan_t *s, base_error_t *err)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return base_error_set(err, 0, "storage: cannot list %s: %s", dir, strerror(errno));
    }
    struct dirent *e;
    /* cppcheck-suppress readdirCalled ; one thread lists this DIR stream, and readdir_r is
     * deprecated by POSIX.1-2008 (readdir is thread-safe per stream in glibc) */
    while ((e = readdir(d)) != NULL) {
        uint64_t gen;
        size_t n = strlen(e->d_name);
        if (parse_name(e->d_name, "snapshot-", ".lz4", &gen)) {
            gens_add(&s->snaps, gen);
        } else if (parse_name(e->d_name, "commitlog-", ".log", &gen)) {
            gens_add(&s->logs, gen);
        } else if (n > 4 && strcmp(e->d_name + n - 4, ".tmp") == 0 &&
                   strncmp(e->d_name, "snapshot-", 9) == 0) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
    if (s->snaps.n > 1) {
        qsort(s->snaps.v, s->snaps.n, sizeof(uint64_t), gen_cmp);
    }
    if (s->logs.n > 1) {
        qsort(s->logs.v, s->logs.n, sizeof(uint64_t), gen_cmp);
    }
    return BASE_OK;
}


/* Index of the first log at or after gen, and whether the logs from there
 * on are gen, gen+1, ... without a gap. */
static bool logs_follow(const gens_t *logs, uint64_t gen, size_t *first)
{
    size_t i = 0;
    while (i < logs->n && logs->v[i] < gen) {
        i++;
    }
    *first = i;
    for (size_t j = i; j < logs->n; j++) {
        if (logs->v[j] != gen + (j - i)) {
            return false;
        }
    }
    return true;
}


static int mkdir_p(const char *dir, base_error_t *err)
{
    char path[DIR_MAX + 1];
    size_t n = strlen(dir);
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0') {
            continue;
        }
        char c = path[i];
        path[i] = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            return base_error_set(err, 0, "storage: cannot create %s: %s", path, strerror(errno));
        }
        path[i] = c;
    }
    return BASE_OK;
}


static int lock_dir(storage__durable_t *d, base_error_t *err)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/LOCK", d->dir);
    d->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (d->lock_fd < 0) {
        return base_error_set(err, 0, "storage: cannot open %s: %s", path, strerror(errno));
    }
    /* A server just killed (and its checkpoint child, killed with it) lets go
     * within milliseconds: wait up to a second before calling it in use. */
    for (int tries = 0; flock(d->lock_fd, LOCK_EX | LOCK_NB) != 0; tries++) {
        if (errno != EWOULDBLOCK || tries == 20) {
            return base_error_set(err, 0, "storage: %s is in use by another process (%s)", d->dir,
                                  strerror(errno));
        }
        (void)usleep(50 * 1000);
    }
    return BASE_OK;
}


/* Loads the newest usable snapshot into db; *base is its generation, or 1
 * when the logs alone are the whole history. */
static int load_base(storage_db_t *db, const dir_scan_t *s, uint64_t *base, base_error_t *err)
{
    base_error_t first = {0};
    size_t unused;
    for (size_t i = s->snaps.n; i-- > 0;) {
        uint64_t gen = s->snaps.v[i];
        if (!logs_follow(&s->logs, gen, &unused)) {
            if (first.msg[0] == '\0') {
                base_error_set(&first, 0,
                               "storage: %s: commit logs after snapshot-%" PRIu64
                               ".lz4 are missing",
                               db->dur->dir, gen);
            }
            continue;
        }
        base_error_t e;
        if (storage__snapshot_load(db, gen, &e) == BASE_OK) {
            *base = gen;
            return BASE_OK;
        }
        base_log(BASE_LOG_WARN, "%s", e.msg); /* an older snapshot may do */
        if (first.msg[0] == '\0') {
            first = e;
        }
        storage__db_clear(db);
    }
    /* Without a snapshot the logs must be the whole history; an empty
     * directory is a new database, but snapshots alone that all failed
     * are not. */
    bool from_start = s->logs.n > 0 ? s->logs.v[0] == 1 : s->snaps.n == 0;
    if (from_start && logs_follow(&s->logs, 1, &unused)) {
        *base = 1;
        return BASE_OK;
    }
    if (first.msg[0] == '\0') {
        base_error_set(&first, 0, "storage: %s: no snapshot and commitlog-1.log is missing",
                       db->dur->dir);
    }
    return base_error_set(err, 0, "%s", first.msg);
}


static void durable_free(storage__durable_t *d)
{
    if (d == NULL) {
        return;
    }
    storage__ckpt_abandon(d); /* its temp file goes; the older files stay */
    storage__snap_kept_free(d->snap_kept);
    storage__prep_join(d); /* the log made ahead stays: opening replaces it */
    if (d->log_fd >= 0) {
        (void)storage__log_flush(d); /* a failure was reported: nothing more to do */
    }
    storage__syncer_stop(d); /* syncs what is written; the log is ours again */
    if (d->log_fd >= 0) {
        close(d->log_fd);
    }
    if (d->lock_fd >= 0) {
        close(d->lock_fd); /* releases the flock */
    }
    base_buf_fini(&d->enc);
    base_free(d->dir);
    base_free(d);
}


static uint64_t file_size(const char *dir, const char *prefix, uint64_t gen, const char *suffix)
{
    char path[4096];
    struct stat st;
    storage__path(path, sizeof(path), dir, prefix, gen, suffix);
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}


storage_db_t *storage_db_open(const char *dir, storage_sync_t sync, base_error_t *err)
{
    storage_sync_cfg_t cfg = {.mode = sync};
    return storage_db_open_cfg(dir, &cfg, err);
}


storage_db_t *storage_db_open_cfg(const char *dir, const storage_sync_cfg_t *cfg, base_error_t *err)
{
    storage_sync_t sync = cfg->mode;
    int rc = BASE_OK;
    dir_scan_t s = {0};
    storage_db_t *db = storage_db_new();
    storage__durable_t *d = base_calloc(1, sizeof(*d));
    d->lock_fd = -1;
    d->log_fd = -1;
    d->sync = sync;
    d->write_behind = cfg->write_behind;
    d->dir = base_strdup(dir);
    base_buf_init(&d->enc);
    db->dur = d;

    size_t n = strlen(dir);
    while (n > 1 && d->dir[n - 1] == '/') {
        d->dir[--n] = '\0';
    }
    if (n == 0 || n > DIR_MAX) {
        rc = base_error_set(err, 0, "storage: bad directory name '%s'", dir);
        goto done;
    }
    if ((rc = mkdir_p(d->dir, err)) != BASE_OK || (rc = lock_dir(d, err)) != BASE_OK ||
        (rc = scan_dir(d->dir, &s, err)) != BASE_OK) {
        goto done;
    }
    storage__log_unprepare(d->dir); /* made for a process that is gone */
    storage__reserve_depth(db->reserve, STORAGE__RESERVE_DEEP); /* recovery: reserve.c */
    uint64_t base;
    if ((rc = load_base(db, &s, &base, err)) != BASE_OK) {
        goto done;
    }
    size_t first;
    logs_follow(&s.logs, base, &first);
    for (size_t i = first; i < s.logs.n; i++) {
        rc = storage__log_replay(db, s.logs.v[i], i + 1 == s.logs.n, err);
        if (rc != BASE_OK) {
            goto done;
        }
    }

    for (size_t i = first; i < s.logs.n; i++) {
        d->since_ckpt += file_size(d->dir, "commitlog-", s.logs.v[i], ".log");
    }
    d->recovered_bytes = file_size(d->dir, "snapshot-", base, ".lz4") + d->since_ckpt;

    /* Append to the newest log, or start the base generation's. */
    d->gen = first < s.logs.n ? s.logs.v[s.logs.n - 1] : base;
    d->log_fd = storage__log_open(d->dir, d->gen, first == s.logs.n, &d->log_bytes, err);
    if (d->log_fd < 0 || storage__fsync_dir(d->dir) != BASE_OK) {
        rc =
            d->log_fd < 0 ? BASE_ERROR : base_error_set(err, 0, "storage: cannot fsync %s", d->dir);
        goto done;
    }
    /* The next log, made ahead while the first requests are served: the
     * current one is rolled into it once it is written to, the log opened
     * here having no room allocated ahead. */
    d->log_segment = storage__log_prepare_size(storage_db_data_bytes(db));
    storage__prep_start(d);
    if (sync == STORAGE_SYNC_GROUP || sync == STORAGE_SYNC_PERIODIC ||
        (sync == STORAGE_SYNC_NONE && cfg->write_behind && cfg->log_thread)) {
        rc = storage__syncer_start(d, cfg, err);
    }

done:
    storage__reserve_depth(db->reserve, 1);
    storage__windows_free(&d->windows);
    base_free(s.snaps.v);
    base_free(s.logs.v);
    if (rc != BASE_OK) {
        storage__db_abandon(db);
        return NULL;
    }
    return db;
}


/* Deletes the files of generations before gen. */
void storage__remove_before(const char *dir, uint64_t gen)
{
    dir_scan_t s = {0};
    if (scan_dir(dir, &s, NULL) != BASE_OK) {
        return;
    }
    char path[4096];
    for (size_t i = 0; i < s.snaps.n && s.snaps.v[i] < gen; i++) {
        storage__path(path, sizeof(path), dir, "snapshot-", s.snaps.v[i], ".lz4");
        storage__unlink(path);
    }
    for (size_t i = 0; i < s.logs.n && s.logs.v[i] < gen; i++) {
        storage__path(path, sizeof(path), dir, "commitlog-", s.logs.v[i], ".log");
        storage__unlink(path);
    }
    base_free(s.snaps.v);
    base_free(s.logs.v);
}


uint64_t storage_db_recovered_bytes(const storage_db_t *db)
{
    return db->dur != NULL ? db->dur->recovered_bytes : 0;
}


int storage_db_checkpoint(storage_db_t *db, base_error_t *err)
{
    storage__durable_t *d = db->dur;
    if (d == NULL) {
        return BASE_OK;
    }
    /* What closing runs: its new log is created, not the one made ahead,
     * whose allocated blocks would stay on the disk of a stopped emulator
     * (64 MB and up), and no more are made. */
    storage__prep_stop(d);
    if (d->ckpt == NULL && d->since_ckpt == 0 && d->enc.len == 0 && !d->failed &&
        file_size(d->dir, "snapshot-", d->gen, ".lz4") > 0) {
        return BASE_OK; /* snapshot-<gen> and an empty log: it is the state already */
    }
    /* The background checkpoint, run to its end at once: nothing writes
     * meanwhile, so its snapshot is exact on its own. One that was running
     * gives way to it (this one is newer). */
    storage__ckpt_abandon(d);
    if (storage_db_checkpoint_start(db, err) != BASE_OK) {
        return BASE_ERROR;
    }
    return storage_db_checkpoint_poll(db, true, err);
}


bool storage_db_checkpoint_due(const storage_db_t *db, uint64_t min_log_bytes)
{
    return db->dur != NULL && db->dur->since_ckpt >= min_log_bytes &&
           db->dur->since_ckpt >= storage_db_data_bytes(db);
}


uint64_t storage_db_log_bytes(const storage_db_t *db)
{
    return db->dur != NULL ? db->dur->since_ckpt : 0;
}


bool storage_db_durable(const storage_db_t *db)
{
    return db->dur != NULL;
}


void storage__db_abandon(storage_db_t *db)
{
    if (db == NULL) {
        return;
    }
    storage__db_clear(db);
    durable_free(db->dur);
    storage__reserve_free(db->reserve);
    base_free(db);
}
