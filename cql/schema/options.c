/*
 * options.c - the map-valued table options (caching, compaction, compression)
 * as Cassandra 3.11 reads, checks and stores them (CachingParams,
 * CompactionParams, CompressionParams), so system_schema.tables shows what
 * was asked for, defaults filled in, and a bad map is refused in Cassandra's
 * words. Nothing here changes how the emulator stores data: the options are
 * kept for the schema tables and DESCRIBE only.
 *
 * Invariants: a map is fully checked before anything is kept (the parse fills
 * an arena map, cql__optmap_set copies it to the heap); stored keys are sorted
 * and unique, as Cassandra's frozen<map<text, text>> returns them.
 */
#include <ctype.h>
#include <errno.h>

#include "cql/schema/schema.h"

#define COMPRESS_PKG "org.apache.cassandra.io.compress."
#define COMPACT_PKG  "org.apache.cassandra.db.compaction."


/* Sorts the pairs by key (insertion sort: maps hold a handful of entries). */
static void sort_pairs(cql_optmap_t *m)
{
    for (size_t i = 1; i < m->n; i++) {
        for (size_t j = i; j > 0 && strcmp(m->keys[j - 1], m->keys[j]) > 0; j--) {
            char *k = m->keys[j], *v = m->values[j];
            m->keys[j] = m->keys[j - 1], m->values[j] = m->values[j - 1];
            m->keys[j - 1] = k, m->values[j - 1] = v;
        }
    }
}


static void put(cql_optmap_t *m, base_arena_t *a, const char *k, const char *v)
{
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->keys[i], k) == 0) {
            m->values[i] = base_arena_strndup(a, v, strlen(v));
            return;
        }
    }
    m->keys[m->n] = base_arena_strndup(a, k, strlen(k));
    m->values[m->n++] = base_arena_strndup(a, v, strlen(v));
}


static const char *get(const cql_optmap_t *m, const char *k)
{
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->keys[i], k) == 0) {
            return m->values[i];
        }
    }
    return NULL;
}


static void drop(cql_optmap_t *m, const char *k)
{
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->keys[i], k) == 0) {
            m->keys[i] = m->keys[m->n - 1];
            m->values[i] = m->values[m->n - 1];
            m->n--;
            return;
        }
    }
}


/* The map of property p as text pairs (arena), with room for extra entries. */
static int read_map(const cql_property_t *p, base_arena_t *a, size_t extra, cql_optmap_t *out,
                    base_error_t *err)
{
    const cql_term_t *v = p->value;
    if (v->kind != CQL_TERM_MAP) {
        return base_error_set(err, WIRE_ERR_SYNTAX_ERROR,
                              "Invalid value for property '%s'. It should be a map.", p->name);
    }
    size_t n = v->n_items / 2;
    out->n = 0;
    out->keys = base_arena_alloc(a, (n + extra + 1) * sizeof(char *));
    out->values = base_arena_alloc(a, (n + extra + 1) * sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        const cql_term_t *k = v->items[2 * i], *x = v->items[2 * i + 1];
        if (k->kind != CQL_TERM_LITERAL || x->kind != CQL_TERM_LITERAL) {
            return base_error_set(err, WIRE_ERR_SYNTAX_ERROR, "Invalid value for property '%s'",
                                  p->name);
        }
        put(out, a, k->text, x->text);
    }
    return BASE_OK;
}


static bool is_true(const char *s)
{
    return s != NULL && strcasecmp(s, "true") == 0;
}


/* CompressionParams: chunk_length_in_kb (or the legacy chunk_length_kb) in KB. */
static int chunk_length(cql_optmap_t *m, base_arena_t *a, const char **out, base_error_t *err)
{
    const char *in_kb = get(m, "chunk_length_in_kb"), *kb = get(m, "chunk_length_kb");
    if (in_kb != NULL && kb != NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "The 'chunk_length_kb' option must not be used if the chunk length "
                              "is already specified by the 'chunk_length_in_kb' option");
    }
    const char *s = in_kb != NULL ? in_kb : kb;
    drop(m, "chunk_length_in_kb");
    drop(m, "chunk_length_kb");
    if (s == NULL) {
        *out = "64";
        return BASE_OK;
    }
    errno = 0;
    char *end;
    long long n = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || n > INT32_MAX / 1024 || n < INT32_MIN / 1024) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR, "Invalid value for chunk_length_in_kb");
    }
    if (n <= 0) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Invalid negative or null chunk_length_in_kb");
    }
    if ((n & (n - 1)) != 0) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "chunk_length_in_kb must be a power of 2");
    }
    *out = base_arena_sprintf(a, "%lld", n);
    return BASE_OK;
}


/* The compressor class by its short or full name, NULL if Cassandra has none. */
static const char *compressor(base_arena_t *a, const char *name, const char *const **opts)
{
    static const char *const lz4[] = {"lz4_compressor_type", "lz4_high_compressor_level", NULL};
    static const char *const zstd[] = {"compression_level", NULL};
    static const char *const none[] = {NULL};
    static const struct {
        const char *name;
        const char *const *opts;
    } known[] = {{"LZ4Compressor", lz4},
                 {"SnappyCompressor", none},
                 {"DeflateCompressor", none},
                 {"ZstdCompressor", zstd},
                 {"NoopCompressor", none}};
    const char *full =
        strchr(name, '.') != NULL ? name : base_arena_sprintf(a, COMPRESS_PKG "%s", name);
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strncmp(full, COMPRESS_PKG, strlen(COMPRESS_PKG)) == 0 &&
            strcmp(full + strlen(COMPRESS_PKG), known[i].name) == 0) {
            *opts = known[i].opts;
            return full;
        }
    }
    return NULL;
}


static bool listed(const char *const *names, const char *k)
{
    for (; *names != NULL; names++) {
        if (strcmp(*names, k) == 0) {
            return true;
        }
    }
    return false;
}


static void set_disabled(cql_optmap_t *m, base_arena_t *a)
{
    m->n = 0;
    put(m, a, "enabled", "false");
}


/* CompressionParams.fromMap (3.11), then asMap: {enabled: false} or the class, the
 * chunk length and the compressor's own options. */
static int compression(const cql_property_t *p, base_arena_t *a, cql_optmap_t *m, base_error_t *err)
{
    if (read_map(p, a, 2, m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const char *enabled = get(m, "enabled"), *cls = get(m, "class");
    const char *legacy = get(m, "sstable_compression");
    bool on = enabled == NULL || is_true(enabled);
    if (m->n > 0 && on && cls == NULL && legacy == NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Missing sub-option 'class' for the 'compression' option.");
    }
    drop(m, "enabled");
    if (!on) {
        if (m->n > 0) {
            return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                                  "If the 'enabled' option is set to false no other options must "
                                  "be specified");
        }
        set_disabled(m, a);
        return BASE_OK;
    }
    if (cls != NULL && legacy != NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "The 'sstable_compression' option must not be used if the "
                              "compression algorithm is already specified by the 'class' option");
    }
    if (cls != NULL && cls[0] == '\0') {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "The 'class' option must not be empty. To disable compression use "
                              "'enabled' : false");
    }
    const char *name = cls != NULL ? cls : legacy;
    drop(m, "class");
    drop(m, "sstable_compression");
    const char *chunk = NULL;
    if (chunk_length(m, a, &chunk, err) != BASE_OK) {
        return BASE_ERROR;
    }
    drop(m, "crc_check_chance"); /* a table option since 3.0, still taken here */
    drop(m, "min_compress_ratio");
    if (name == NULL || name[0] == '\0') { /* compression = {} or sstable_compression = '' */
        set_disabled(m, a);
        return BASE_OK;
    }
    const char *const *supported = NULL;
    const char *full = compressor(a, name, &supported);
    if (full == NULL) {
        return base_error_set(
            err, WIRE_ERR_CONFIG_ERROR, "Could not create Compression for type %s",
            strchr(name, '.') ? name : base_arena_sprintf(a, COMPRESS_PKG "%s", name));
    }
    for (size_t i = 0; i < m->n; i++) {
        if (!listed(supported, m->keys[i])) {
            return base_error_set(err, WIRE_ERR_CONFIG_ERROR, "Unknown compression options %s",
                                  m->keys[i]);
        }
    }
    put(m, a, "class", full);
    put(m, a, "chunk_length_in_kb", chunk);
    return BASE_OK;
}


/* CompactionParams.fromMap: a class is required; the thresholds get their defaults. */
static int compaction(const cql_property_t *p, base_arena_t *a, cql_optmap_t *m, base_error_t *err)
{
    static const char *const known[] = {"SizeTieredCompactionStrategy", "LeveledCompactionStrategy",
                                        "TimeWindowCompactionStrategy",
                                        "DateTieredCompactionStrategy", NULL};
    if (read_map(p, a, 3, m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const char *cls = get(m, "class");
    if (cls == NULL) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Missing sub-option 'class' for the 'compaction' option.");
    }
    const char *full =
        strchr(cls, '.') != NULL ? cls : base_arena_sprintf(a, COMPACT_PKG "%s", cls);
    if (strncmp(full, COMPACT_PKG, strlen(COMPACT_PKG)) != 0 ||
        !listed(known, full + strlen(COMPACT_PKG))) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Unable to find compaction strategy class '%s'", full);
    }
    put(m, a, "class", full);
    if (get(m, "min_threshold") == NULL) {
        put(m, a, "min_threshold", "4");
    }
    if (get(m, "max_threshold") == NULL) {
        put(m, a, "max_threshold", "32");
    }
    return BASE_OK;
}


static bool all_digits(const char *s)
{
    if (*s == '\0') {
        return false;
    }
    for (; *s != '\0'; s++) {
        if (!isdigit((unsigned char)*s)) {
            return false;
        }
    }
    return true;
}


/* CachingParams.fromMap: keys ALL | NONE, rows_per_partition ALL | NONE | a count. */
static int caching(const cql_property_t *p, base_arena_t *a, cql_optmap_t *m, base_error_t *err)
{
    if (read_map(p, a, 2, m, err) != BASE_OK) {
        return BASE_ERROR;
    }
    const char *keys = get(m, "keys"), *rows = get(m, "rows_per_partition");
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->keys[i], "keys") != 0 && strcmp(m->keys[i], "rows_per_partition") != 0) {
            return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                                  "Invalid caching sub-options {%s=%s}: only 'keys' and "
                                  "'rows_per_partition' are allowed",
                                  m->keys[i], m->values[i]);
        }
    }
    if (keys != NULL && strcasecmp(keys, "ALL") != 0 && strcasecmp(keys, "NONE") != 0) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Invalid value '%s' for caching sub-option 'keys': only 'ALL' and "
                              "'NONE' are allowed",
                              keys);
    }
    if (rows != NULL && strcasecmp(rows, "ALL") != 0 && strcasecmp(rows, "NONE") != 0 &&
        !all_digits(rows)) {
        return base_error_set(err, WIRE_ERR_CONFIG_ERROR,
                              "Invalid value '%s' for caching sub-option 'rows_per_partition': "
                              "only 'ALL', 'NONE', and integer values are allowed",
                              rows);
    }
    bool keys_all = keys == NULL || strcasecmp(keys, "ALL") == 0;
    const char *r = rows == NULL || strcasecmp(rows, "NONE") == 0 ? "NONE"
                    : strcasecmp(rows, "ALL") == 0                ? "ALL"
                                                                  : rows;
    m->n = 0;
    put(m, a, "keys", keys_all ? "ALL" : "NONE");
    put(m, a, "rows_per_partition", r);
    return BASE_OK;
}


int cql__table_option_map(const cql_property_t *p, base_arena_t *a, cql_optmap_t *out,
                          base_error_t *err)
{
    int rc;
    if (strcmp(p->name, "compression") == 0) {
        rc = compression(p, a, out, err);
    } else if (strcmp(p->name, "compaction") == 0) {
        rc = compaction(p, a, out, err);
    } else {
        rc = caching(p, a, out, err);
    }
    if (rc == BASE_OK) {
        sort_pairs(out);
    }
    return rc;
}


void cql__optmap_free(cql_optmap_t *m)
{
    for (size_t i = 0; i < m->n; i++) {
        base_free(m->keys[i]);
        base_free(m->values[i]);
    }
    base_free(m->keys);
    base_free(m->values);
    memset(m, 0, sizeof(*m));
}


void cql__optmap_set(cql_optmap_t *dst, const cql_optmap_t *src)
{
    cql__optmap_free(dst);
    dst->keys = base_calloc(src->n + 1, sizeof(char *));
    dst->values = base_calloc(src->n + 1, sizeof(char *));
    for (size_t i = 0; i < src->n; i++) {
        dst->keys[i] = base_strdup(src->keys[i]);
        dst->values[i] = base_strdup(src->values[i]);
    }
    dst->n = src->n;
}


void cql__table_default_options(cql_table_t *t)
{
    static const char *const defaults[][2][4] = {
        {{"keys", "rows_per_partition"}, {"ALL", "NONE"}},
        {{"class", "max_threshold", "min_threshold"},
         {COMPACT_PKG "SizeTieredCompactionStrategy", "32", "4"}},
        {{"chunk_length_in_kb", "class"}, {"64", COMPRESS_PKG "LZ4Compressor"}},
    };
    static const size_t counts[] = {2, 3, 2};
    cql_optmap_t *maps[] = {&t->caching, &t->compaction, &t->compression};
    for (size_t i = 0; i < 3; i++) {
        char *k[4], *v[4];
        for (size_t j = 0; j < counts[i]; j++) {
            k[j] = (char *)defaults[i][0][j]; /* only read: cql__optmap_set copies */
            v[j] = (char *)defaults[i][1][j];
        }
        cql_optmap_t m = {.n = counts[i], .keys = k, .values = v};
        cql__optmap_set(maps[i], &m);
    }
    t->min_index_interval = 128;
    t->max_index_interval = 2048;
}
