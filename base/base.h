/*
 * base.h - the bottom layer: status codes, errors, allocation, arenas, byte
 * buffers, string slices and intrusive lists. Every other layer includes this
 * header and nothing here includes anything of theirs.
 *
 * Invariants:
 *  - base_malloc/base_calloc/base_realloc never return NULL: an internal
 *    allocation failure aborts with a message (Redis zmalloc). Only
 *    base_try_malloc, used where a peer chooses the size, can fail.
 *  - base_error_t is filled once, where the error is born; callers pass it up
 *    untouched. Its code is a CQL protocol error code (see wire.h).
 *  - Arena memory lives until base_arena_reset/base_arena_fini; nothing
 *    allocated from an arena is freed one by one.
 */
#ifndef BASE_BASE_H
#define BASE_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---- status ---------------------------------------------------------- */

#define BASE_STATUS_MAP(XX)                        \
    XX(BASE_OK, 0, "ok")                           \
    XX(BASE_AGAIN, -1, "incomplete input")         \
    XX(BASE_ERROR, -2, "error (see base_error_t)") \
    XX(BASE_ENOMEM, -3, "out of memory")           \
    XX(BASE_EPROTO, -4, "protocol violation")      \
    XX(BASE_EINVAL, -5, "invalid argument")        \
    XX(BASE_ENOTFOUND, -6, "not found")            \
    XX(BASE_EEXIST, -7, "already exists")          \
    XX(BASE_EIO, -8, "i/o error")

enum {
#define XX(name, value, text) name = (value),
    BASE_STATUS_MAP(XX)
#undef XX
};

/* Returns a static string for a BASE_* status. */
const char *base_strerror(int status);

/* ---- errors ---------------------------------------------------------- */

#define BASE_ERROR_MSG_MAX    512
#define BASE_ERROR_DETAIL_MAX 256

/*
 * An error as the client will see it: the CQL error code, the message, and
 * the code-specific tail of the ERROR body already encoded by the layer that
 * knows it (e.g. <keyspace><table> for Already_exists, <id> for Unprepared).
 */
typedef struct base_error_s {
    int code;                              /* CQL error code, 0 = Server error */
    char msg[BASE_ERROR_MSG_MAX];          /* NUL-terminated, truncated if long */
    uint8_t detail[BASE_ERROR_DETAIL_MAX]; /* encoded body after <message> */
    size_t detail_len;
} base_error_t;

/* Fills err (which may be NULL) and returns BASE_ERROR. */
int base_error_set(base_error_t *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void base_error_clear(base_error_t *err);
#ifdef __clang_analyzer__
/*
 * The static analyzer sees one translation unit at a time, so it cannot know that
 * base_error_set always returns BASE_ERROR and explores a "success" return through every
 * `return base_error_set(...)`, reporting the out-values such a path leaves unset. Give it
 * the contract; builds never see this.
 */
static inline int base__error_result(int ignored)
{
    (void)ignored;
    return BASE_ERROR;
}
#define base_error_set(...) base__error_result(base_error_set(__VA_ARGS__))
#endif

/* ---- asserts --------------------------------------------------------- */

/* Always on: for our own invariants, never for network input. */
#define BASE_ASSERT(cond)                                \
    do {                                                 \
        if (!(cond)) {                                   \
            base_assert_fail(#cond, __FILE__, __LINE__); \
        }                                                \
    } while (0)
_Noreturn void base_assert_fail(const char *expr, const char *file, int line);

/* ---- intrusive lists ------------------------------------------------- */

/* A doubly linked list threaded through its items: *head points to the
 * first, NULL ends it, and prev/next name the item's two link members (a
 * path such as all.prev when an item is on several lists). Push and remove
 * are O(1) and allocate nothing; iterate with the next member. Each
 * argument is evaluated more than once: pass plain names. */
#define BASE_LIST_PUSH(head, item, prev, next) \
    do {                                       \
        (item)->prev = NULL;                   \
        (item)->next = *(head);                \
        if (*(head) != NULL) {                 \
            (*(head))->prev = (item);          \
        }                                      \
        *(head) = (item);                      \
    } while (0)

#define BASE_LIST_REMOVE(head, item, prev, next) \
    do {                                         \
        if ((item)->prev != NULL) {              \
            (item)->prev->next = (item)->next;   \
        } else {                                 \
            *(head) = (item)->next;              \
        }                                        \
        if ((item)->next != NULL) {              \
            (item)->next->prev = (item)->prev;   \
        }                                        \
        (item)->prev = (item)->next = NULL;      \
    } while (0)

/* ---- allocation ------------------------------------------------------ */

void *base_malloc(size_t n); /* aborts on failure */
void *base_calloc(size_t n, size_t size);
void *base_realloc(void *p, size_t n);
char *base_strdup(const char *s);
char *base_strndup(const char *s, size_t n);
void base_free(void *p);         /* accepts NULL */
void *base_try_malloc(size_t n); /* may return NULL: peer-sized allocations only */

/* ---- string and byte slices ------------------------------------------ */

/* A borrowed run of bytes; ptr may be NULL when len is 0. */
typedef struct base_str_s {
    const char *ptr;
    size_t len;
} base_str_t;

#define BASE_STR(lit) ((base_str_t){(lit), sizeof(lit) - 1})
base_str_t base_str_from(const char *cstr);
bool base_str_eq(base_str_t a, base_str_t b);
bool base_str_eq_ci(base_str_t a, base_str_t b); /* ASCII case-insensitive */
bool base_str_eq_cstr_ci(base_str_t a, const char *b);

/* ---- arena ----------------------------------------------------------- */

/*
 * A bump allocator for request-scoped memory (nginx pool model). Blocks are
 * kept across base_arena_reset so a connection's steady state allocates
 * nothing from the heap.
 */
typedef struct base_arena_block_s base_arena_block_t;
typedef struct base_arena_s {
    base_arena_block_t *head;  /* current block, newest first */
    base_arena_block_t *spare; /* blocks kept by reset */
    size_t block_size;
} base_arena_t;

void base_arena_init(base_arena_t *a, size_t block_size);
void base_arena_fini(base_arena_t *a);
void base_arena_reset(base_arena_t *a);
void *base_arena_alloc(base_arena_t *a, size_t n); /* 16-byte aligned, never NULL */
void *base_arena_calloc(base_arena_t *a, size_t n, size_t size);
char *base_arena_strndup(base_arena_t *a, const char *s, size_t n);
char *base_arena_sprintf(base_arena_t *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void *base_arena_memdup(base_arena_t *a, const void *p, size_t n);

/* ---- growable byte buffer -------------------------------------------- */

/* Heap-owned; big-endian put helpers for the wire encoders. */
typedef struct base_buf_s {
    uint8_t *data;
    size_t len;
    size_t cap;
} base_buf_t;

void base_buf_init(base_buf_t *b);
void base_buf_fini(base_buf_t *b);
void base_buf_reset(base_buf_t *b);               /* len = 0, keeps capacity */
void base_buf_swap(base_buf_t *a, base_buf_t *b); /* contents, lengths and capacities */
void base_buf_reserve(base_buf_t *b, size_t extra);
/* The puts (below, inline) append; base_buf_set_u32 patches a placeholder. */
void base_buf_set_u32(base_buf_t *b, size_t at, uint32_t v);
void base_buf_printf(base_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Big-endian loads from memory the caller has bounds-checked. */
static inline uint16_t base_load_u16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t base_load_u32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline uint64_t base_load_u64(const uint8_t *p)
{
    return ((uint64_t)base_load_u32(p) << 32) | base_load_u32(p + 4);
}

static inline void base_store_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline void base_store_u64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* The puts are inline with the room check first: encoders call them once
 * per field (a log record, a response), and as calls they were a visible
 * share of a durable write. */
static inline void base_buf_put(base_buf_t *b, const void *p, size_t n)
{
    if (n == 0) {
        return;
    }
    if (b->cap - b->len < n) {
        base_buf_reserve(b, n);
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static inline void base_buf_put_u8(base_buf_t *b, uint8_t v)
{
    base_buf_put(b, &v, 1);
}

static inline void base_buf_put_u16(base_buf_t *b, uint16_t v)
{
    uint8_t t[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    base_buf_put(b, t, 2);
}

static inline void base_buf_put_u32(base_buf_t *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    base_buf_put(b, t, 4);
}

static inline void base_buf_put_u64(base_buf_t *b, uint64_t v)
{
    uint8_t t[8];
    base_store_u64(t, v);
    base_buf_put(b, t, 8);
}

/* ---- clock ----------------------------------------------------------- */

/* Wall clock in microseconds since the epoch, and a monotonic clock in
 * microseconds. Both can be replaced for tests. */
int64_t base_now_us(void);
int64_t base_mono_us(void);
void base_clock_set_fake(int64_t (*now_us)(void), int64_t (*mono_us)(void));

/* ---- threads --------------------------------------------------------- */

/* Names the calling thread ("cce-" and its job; cut to 15 bytes) for top,
 * ps, perf and debuggers. */
void base_thread_name(const char *name);
/* Sets the calling thread's nice value (0 normal, 19 lowest): background
 * work that yields a core to the loop when both want one. */
void base_thread_nice(int nice);
/* Makes the calling thread a batch thread (SCHED_BATCH): it keeps its
 * share of the CPU but never preempts the thread that woke it, so a
 * helper the loop wakes hundreds of times a second runs on the other core
 * or when the loop waits, instead of pushing the loop off its own. */
void base_thread_batch(void);

/* ---- diagnostics ----------------------------------------------------- */

/* A line for the process's log from a layer that does not own it (storage,
 * cql: a torn record dropped, a checkpoint that failed). The process
 * installs its logger once, before any thread starts (base_log_set_sink),
 * so --log-file and --log-format json hold for these lines too; without one
 * (unit tests, tools) a line goes to stderr as it is. */
typedef enum {
    BASE_LOG_ERROR = 0,
    BASE_LOG_WARN = 1,
    BASE_LOG_INFO = 2,
} base_log_level_t;
typedef void (*base_log_sink_t)(base_log_level_t level, const char *line);
void base_log_set_sink(base_log_sink_t sink);
void base_log(base_log_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
