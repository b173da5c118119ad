/*
 * wire.h - the Cassandra native protocol (v3/v4) as bytes <-> structs.
 * wire/ knows frames and messages; it knows nothing of tables, sockets or
 * CQL text. Decoders are pure and borrow from their input; encoders append
 * to a base_buf_t.
 *
 * Frame header (v3/v4, big-endian), native_protocol_v4.spec section 2:
 *
 *   offset size field
 *   0      1    version   0x04 request, 0x84 response (v3: 0x03/0x83)
 *   1      1    flags     0x01 compression, 0x02 tracing, 0x04 custom payload,
 *                         0x08 warning, 0x10 beta
 *   2      2    stream    signed; -1 for server-pushed EVENTs
 *   4      1    opcode
 *   5      4    length    body length, <= the configured maximum
 *
 * Response body layout when flags are set (spec 2.2): [tracing uuid] then
 * [string list warnings] then [bytes map custom payload], then the message.
 * RequestCharge travels in the custom payload as an 8-byte big-endian
 * IEEE-754 double, as Azure Cosmos DB's Cassandra API sends it.
 *
 * Ownership: every base_str_t / wire_value_t produced by a decoder borrows
 * from the decoded buffer and dies with it; arrays a decoder needs come from
 * the arena it is given.
 */
#ifndef WIRE_WIRE_H
#define WIRE_WIRE_H

#include "base/base.h"

/* ---- constants ------------------------------------------------------- */

#define WIRE_HEADER_SIZE       9
#define WIRE_DEFAULT_MAX_FRAME (256u * 1024u * 1024u)

#define WIRE_FLAG_COMPRESSION    0x01
#define WIRE_FLAG_TRACING        0x02
#define WIRE_FLAG_CUSTOM_PAYLOAD 0x04
#define WIRE_FLAG_WARNING        0x08
#define WIRE_FLAG_BETA           0x10

#define WIRE_OPCODE_MAP(XX)  \
    XX(ERROR, 0x00)          \
    XX(STARTUP, 0x01)        \
    XX(READY, 0x02)          \
    XX(AUTHENTICATE, 0x03)   \
    XX(OPTIONS, 0x05)        \
    XX(SUPPORTED, 0x06)      \
    XX(QUERY, 0x07)          \
    XX(RESULT, 0x08)         \
    XX(PREPARE, 0x09)        \
    XX(EXECUTE, 0x0A)        \
    XX(REGISTER, 0x0B)       \
    XX(EVENT, 0x0C)          \
    XX(BATCH, 0x0D)          \
    XX(AUTH_CHALLENGE, 0x0E) \
    XX(AUTH_RESPONSE, 0x0F)  \
    XX(AUTH_SUCCESS, 0x10)

typedef enum {
#define XX(name, value) WIRE_OP_##name = (value),
    WIRE_OPCODE_MAP(XX)
#undef XX
} wire_opcode_t;

const char *wire_opcode_name(int opcode); /* "QUERY", or "UNKNOWN" */

/* CQL error codes (spec section 9). */
#define WIRE_ERROR_MAP(XX)       \
    XX(SERVER_ERROR, 0x0000)     \
    XX(PROTOCOL_ERROR, 0x000A)   \
    XX(BAD_CREDENTIALS, 0x0100)  \
    XX(UNAVAILABLE, 0x1000)      \
    XX(OVERLOADED, 0x1001)       \
    XX(IS_BOOTSTRAPPING, 0x1002) \
    XX(TRUNCATE_ERROR, 0x1003)   \
    XX(WRITE_TIMEOUT, 0x1100)    \
    XX(READ_TIMEOUT, 0x1200)     \
    XX(READ_FAILURE, 0x1300)     \
    XX(FUNCTION_FAILURE, 0x1400) \
    XX(WRITE_FAILURE, 0x1500)    \
    XX(SYNTAX_ERROR, 0x2000)     \
    XX(UNAUTHORIZED, 0x2100)     \
    XX(INVALID, 0x2200)          \
    XX(CONFIG_ERROR, 0x2300)     \
    XX(ALREADY_EXISTS, 0x2400)   \
    XX(UNPREPARED, 0x2500)

enum {
#define XX(name, value) WIRE_ERR_##name = (value),
    WIRE_ERROR_MAP(XX)
#undef XX
};

const char *wire_error_name(int code); /* "Invalid", ... */

/* Consistency levels. */
enum {
    WIRE_CL_ANY = 0x0000,
    WIRE_CL_ONE = 0x0001,
    WIRE_CL_TWO = 0x0002,
    WIRE_CL_THREE = 0x0003,
    WIRE_CL_QUORUM = 0x0004,
    WIRE_CL_ALL = 0x0005,
    WIRE_CL_LOCAL_QUORUM = 0x0006,
    WIRE_CL_EACH_QUORUM = 0x0007,
    WIRE_CL_SERIAL = 0x0008,
    WIRE_CL_LOCAL_SERIAL = 0x0009,
    WIRE_CL_LOCAL_ONE = 0x000A,
};

const char *wire_consistency_name(int cl); /* "QUORUM", ... or NULL if not a level */

/* Protocol data type [option] ids (spec 4.2.5.2). */
enum {
    WIRE_TYPE_CUSTOM = 0x0000,
    WIRE_TYPE_ASCII = 0x0001,
    WIRE_TYPE_BIGINT = 0x0002,
    WIRE_TYPE_BLOB = 0x0003,
    WIRE_TYPE_BOOLEAN = 0x0004,
    WIRE_TYPE_COUNTER = 0x0005,
    WIRE_TYPE_DECIMAL = 0x0006,
    WIRE_TYPE_DOUBLE = 0x0007,
    WIRE_TYPE_FLOAT = 0x0008,
    WIRE_TYPE_INT = 0x0009,
    WIRE_TYPE_TIMESTAMP = 0x000B,
    WIRE_TYPE_UUID = 0x000C,
    WIRE_TYPE_VARCHAR = 0x000D,
    WIRE_TYPE_VARINT = 0x000E,
    WIRE_TYPE_TIMEUUID = 0x000F,
    WIRE_TYPE_INET = 0x0010,
    WIRE_TYPE_DATE = 0x0011,
    WIRE_TYPE_TIME = 0x0012,
    WIRE_TYPE_SMALLINT = 0x0013,
    WIRE_TYPE_TINYINT = 0x0014,
    WIRE_TYPE_DURATION = 0x0015,
    WIRE_TYPE_LIST = 0x0020,
    WIRE_TYPE_MAP = 0x0021,
    WIRE_TYPE_SET = 0x0022,
    WIRE_TYPE_UDT = 0x0030,
    WIRE_TYPE_TUPLE = 0x0031,
};

/*
 * A column type as the protocol describes it. Trees are immutable once
 * built; whoever builds one owns it (schema types live with the schema).
 *   list/set: sub[0]; map: sub[0] key, sub[1] value; tuple: sub[0..n_sub);
 *   udt: keyspace, name, field_names[i] with sub[i]; custom: custom_class.
 * frozen is informational (the protocol does not carry it).
 */
typedef struct wire_type_s {
    uint16_t id;
    bool frozen;
    uint16_t n_sub;
    const struct wire_type_s **sub;
    const char *custom_class;
    const char *keyspace;
    const char *name;
    const char **field_names;
} wire_type_t;

/* A [bytes] / [value]: len >= 0 bytes, -1 null, -2 not set (v4 [value]). */
#define WIRE_VALUE_NULL  (-1)
#define WIRE_VALUE_UNSET (-2)

typedef struct wire_value_s {
    const uint8_t *ptr;
    int32_t len;
} wire_value_t;

/* ---- bounds-checked reader ------------------------------------------- */

/*
 * Reads primitives from untrusted bytes. The error is sticky: after the
 * first short or malformed read every read returns zero/empty and
 * wire_reader_ok() stays false, so a sequence of reads needs one check.
 */
typedef struct wire_reader_s {
    const uint8_t *data;
    size_t len;
    size_t pos;
    bool failed;
    const char *why; /* first failure, static string */
} wire_reader_t;

void wire_reader_init(wire_reader_t *r, const uint8_t *data, size_t len);
static inline bool wire_reader_ok(const wire_reader_t *r)
{
    return !r->failed;
}
size_t wire_reader_remaining(const wire_reader_t *r);
uint8_t wire_read_byte(wire_reader_t *r);
uint16_t wire_read_short(wire_reader_t *r);
int32_t wire_read_int(wire_reader_t *r);
int64_t wire_read_long(wire_reader_t *r);
base_str_t wire_read_string(wire_reader_t *r);      /* [string]: short length */
base_str_t wire_read_long_string(wire_reader_t *r); /* [long string]: int length */
wire_value_t wire_read_bytes(wire_reader_t *r);     /* [bytes]: len -1 null */
wire_value_t wire_read_value(wire_reader_t *r);     /* [value]: -1 null, -2 unset */
wire_value_t wire_read_short_bytes(wire_reader_t *r);
bool wire_read_uuid(wire_reader_t *r, uint8_t out[16]);
/* [string list] / [string map]; arrays come from the arena. */
size_t wire_read_string_list(wire_reader_t *r, base_arena_t *a, base_str_t **out);
size_t wire_read_string_map(wire_reader_t *r, base_arena_t *a, base_str_t **keys,
                            base_str_t **values);
/* [bytes map] (custom payload); values may be null. */
size_t wire_read_bytes_map(wire_reader_t *r, base_arena_t *a, base_str_t **keys,
                           wire_value_t **values);
/* [option] type tree, nested up to a fixed depth; built in the arena. */
const wire_type_t *wire_read_type(wire_reader_t *r, base_arena_t *a);

/* ---- writers --------------------------------------------------------- */

void wire_put_string(base_buf_t *b, const char *s, size_t len);
void wire_put_cstring(base_buf_t *b, const char *s);
void wire_put_long_string(base_buf_t *b, const char *s, size_t len);
void wire_put_bytes(base_buf_t *b, const uint8_t *p, int32_t len); /* len < 0: null */
void wire_put_value(base_buf_t *b, wire_value_t v);
void wire_put_short_bytes(base_buf_t *b, const uint8_t *p, uint16_t len);
void wire_put_string_list(base_buf_t *b, const char *const *items, size_t n);
void wire_put_type(base_buf_t *b, const wire_type_t *t); /* [option] */
void wire_put_inet(base_buf_t *b, const uint8_t *addr, uint8_t addr_len, int32_t port);

/* ---- frames ---------------------------------------------------------- */

typedef struct wire_header_s {
    uint8_t version; /* without the direction bit */
    bool response;
    uint8_t flags;
    int16_t stream;
    uint8_t opcode;
    uint32_t length;
} wire_header_t;

/*
 * Decodes a header from the first WIRE_HEADER_SIZE bytes of src.
 * Returns BASE_OK, BASE_AGAIN when len < 9, or BASE_ERROR with err filled
 * (Protocol error) when the body length exceeds max_body. The version is
 * returned as sent; the caller decides whether it supports it.
 */
int wire_header_decode(wire_header_t *out, const uint8_t *src, size_t len, size_t max_body,
                       base_error_t *err);
void wire_header_encode(uint8_t out[WIRE_HEADER_SIZE], const wire_header_t *h);

/* The message of the unsupported-version reply that makes drivers step down:
 * "Invalid or unsupported protocol version (N); supported versions are (3/v3, 4/v4)". */
void wire_unsupported_version_message(char *out, size_t cap, int version);

/* ---- lz4 frame-body compression (v4: 4-byte BE uncompressed length + LZ4 block) ---- */

/* Appends the compressed form of src to out. */
void wire_lz4_compress(base_buf_t *out, const uint8_t *src, size_t len);
/* Decompresses into a buffer from base_try_malloc (caller frees with base_free).
 * Rejects a declared size above max_len. Returns BASE_OK or BASE_ERROR. */
int wire_lz4_decompress(const uint8_t *src, size_t len, size_t max_len, uint8_t **out,
                        size_t *out_len, base_error_t *err);

/* ---- requests -------------------------------------------------------- */

/* QUERY/EXECUTE <query_parameters> flags (v4, one byte; v5 is four). */
#define WIRE_QF_VALUES             0x01
#define WIRE_QF_SKIP_METADATA      0x02
#define WIRE_QF_PAGE_SIZE          0x04
#define WIRE_QF_PAGING_STATE       0x08
#define WIRE_QF_SERIAL_CONSISTENCY 0x10
#define WIRE_QF_DEFAULT_TIMESTAMP  0x20
#define WIRE_QF_NAMES_FOR_VALUES   0x40

typedef struct wire_query_params_s {
    uint16_t consistency;
    uint8_t flags;
    size_t n_values;
    wire_value_t *values;        /* n_values entries */
    base_str_t *names;           /* non-NULL iff WIRE_QF_NAMES_FOR_VALUES */
    int32_t page_size;           /* <= 0: no paging */
    wire_value_t paging_state;   /* len < 0: absent */
    uint16_t serial_consistency; /* WIRE_CL_SERIAL when absent */
    bool has_timestamp;
    int64_t timestamp; /* microseconds */
} wire_query_params_t;

typedef struct wire_query_s {
    base_str_t query;
    wire_query_params_t params;
} wire_query_t;

typedef struct wire_execute_s {
    wire_value_t id; /* [short bytes] */
    wire_query_params_t params;
} wire_execute_t;

#define WIRE_BATCH_LOGGED   0
#define WIRE_BATCH_UNLOGGED 1
#define WIRE_BATCH_COUNTER  2

typedef struct wire_batch_stmt_s {
    bool prepared;    /* kind 1 */
    base_str_t query; /* kind 0 */
    wire_value_t id;  /* kind 1 */
    size_t n_values;
    wire_value_t *values;
} wire_batch_stmt_t;

typedef struct wire_batch_s {
    uint8_t type;
    size_t n_stmts;
    wire_batch_stmt_t *stmts;
    wire_query_params_t params; /* consistency, flags, serial, timestamp; values unused */
} wire_batch_t;

/* A decoded request body. The body buffer must outlive it. */
typedef struct wire_request_s {
    uint8_t opcode;
    /* Custom payload sent by the client (flag 0x04), if any. */
    size_t n_payload;
    base_str_t *payload_keys;
    wire_value_t *payload_values;
    union {
        struct { /* STARTUP */
            size_t n;
            base_str_t *keys;
            base_str_t *values;
        } startup;
        wire_value_t auth_token; /* AUTH_RESPONSE */
        wire_query_t query;      /* QUERY */
        base_str_t prepare;      /* PREPARE */
        wire_execute_t execute;  /* EXECUTE */
        wire_batch_t batch;      /* BATCH */
        struct {                 /* REGISTER */
            size_t n;
            base_str_t *events;
        } reg;
    } u;
} wire_request_t;

/*
 * Decodes the body of a request frame (already decompressed). version is
 * 3 or 4 and selects the v3/v4 differences ([value] unset, batch flags).
 * Returns BASE_OK, or BASE_ERROR with a Protocol error in err for any
 * malformed, truncated or trailing-garbage body and for opcodes a client
 * may not send.
 */
int wire_request_decode(wire_request_t *out, const wire_header_t *h, const uint8_t *body,
                        size_t len, base_arena_t *a, base_error_t *err);

/* ---- responses --------------------------------------------------------- */

/*
 * A response is built in three steps so the header and the optional
 * warnings/payload prefix can be written once the body is known:
 *
 *   wire_response_begin(&rb, out, version, stream, opcode);
 *   ... encode the message body with the wire_put_* / wire_encode_* helpers ...
 *   wire_response_end(&rb, warnings, n_warnings, payload_keys, payload_vals, n, compress);
 *
 * The finished frame (header + body) is appended to out. A caller that knows
 * the warnings and payload before the body writes them first, with
 * wire_response_prefix right after begin, and passes none to end: the frame
 * is the same, and end need not move the body behind them.
 */
typedef struct wire_response_s {
    base_buf_t *out;
    size_t start; /* offset of the header in out */
    uint8_t version;
    int16_t stream;
    uint8_t opcode;
    uint8_t flags; /* set by wire_response_prefix */
} wire_response_t;

void wire_response_begin(wire_response_t *rb, base_buf_t *out, uint8_t version, int16_t stream,
                         uint8_t opcode);
void wire_response_prefix(wire_response_t *rb, const char *const *warnings, size_t n_warnings,
                          const char *const *payload_keys, const wire_value_t *payload_values,
                          size_t n_payload);
void wire_response_end(wire_response_t *rb, const char *const *warnings, size_t n_warnings,
                       const char *const *payload_keys, const wire_value_t *payload_values,
                       size_t n_payload, bool compress);

/* Message bodies (append to rb->out between begin and end). */
void wire_encode_error(base_buf_t *b, const base_error_t *err); /* <code><message><detail> */
void wire_encode_supported(base_buf_t *b, const char *const *keys, const char *const *const *values,
                           const size_t *n_values, size_t n);
void wire_encode_authenticate(base_buf_t *b, const char *authenticator);
void wire_encode_auth_success(base_buf_t *b, const uint8_t *token, int32_t len);

/* Error details (fill err->detail for codes that carry more than a message). */
void wire_error_detail_already_exists(base_error_t *err, const char *ks, const char *table);
void wire_error_detail_unprepared(base_error_t *err, const uint8_t *id, size_t len);
void wire_error_detail_unavailable(base_error_t *err, uint16_t cl, int32_t required, int32_t alive);
void wire_error_detail_write_timeout(base_error_t *err, uint16_t cl, int32_t received,
                                     int32_t blockfor, const char *write_type);
void wire_error_detail_read_timeout(base_error_t *err, uint16_t cl, int32_t received,
                                    int32_t blockfor, bool data_present);
/* v4 Write_failure: <cl><received><blockfor><numfailures><writeType>. */
void wire_error_detail_write_failure(base_error_t *err, uint16_t cl, int32_t received,
                                     int32_t blockfor, int32_t n_failures, const char *write_type);
void wire_error_detail_read_failure(base_error_t *err, uint16_t cl, int32_t received,
                                    int32_t blockfor, int32_t n_failures, bool data_present);

/* RESULT kinds. */
#define WIRE_RESULT_VOID          0x0001
#define WIRE_RESULT_ROWS          0x0002
#define WIRE_RESULT_SET_KEYSPACE  0x0003
#define WIRE_RESULT_PREPARED      0x0004
#define WIRE_RESULT_SCHEMA_CHANGE 0x0005

/* One column of a result or bind-variable metadata. */
typedef struct wire_col_spec_s {
    const char *keyspace;
    const char *table;
    const char *name;
    const wire_type_t *type;
} wire_col_spec_t;

/* Rows metadata flags. */
#define WIRE_ROWS_GLOBAL_TABLES_SPEC 0x0001
#define WIRE_ROWS_HAS_MORE_PAGES     0x0002
#define WIRE_ROWS_NO_METADATA        0x0004

void wire_encode_result_void(base_buf_t *b);
void wire_encode_result_set_keyspace(base_buf_t *b, const char *ks);
/* <metadata> of a Rows result: uses the global table spec when every column
 * shares keyspace and table; paging_state.len < 0 means no more pages. */
void wire_encode_rows_metadata(base_buf_t *b, const wire_col_spec_t *cols, size_t n_cols,
                               wire_value_t paging_state, bool no_metadata);
/* A whole Rows result: kind, metadata, row count, then n_rows * n_cols cells
 * in row-major order. */
void wire_encode_result_rows(base_buf_t *b, const wire_col_spec_t *cols, size_t n_cols,
                             wire_value_t paging_state, bool no_metadata, const wire_value_t *cells,
                             size_t n_rows);
/* Prepared: id, bind metadata (with partition-key indexes, v4), result metadata. */
void wire_encode_result_prepared(base_buf_t *b, uint8_t version, const uint8_t *id, uint16_t id_len,
                                 const wire_col_spec_t *binds, size_t n_binds,
                                 const uint16_t *pk_indexes, size_t n_pk,
                                 const wire_col_spec_t *cols, size_t n_cols);

/* Schema change, shared by RESULT Schema_change and EVENT SCHEMA_CHANGE. */
typedef struct wire_schema_change_s {
    const char *change; /* CREATED, UPDATED, DROPPED */
    const char *target; /* KEYSPACE, TABLE, TYPE, FUNCTION, AGGREGATE */
    const char *keyspace;
    const char *name;             /* table/type/function name; NULL for KEYSPACE */
    const char *const *arg_types; /* FUNCTION/AGGREGATE only */
    size_t n_arg_types;
} wire_schema_change_t;

void wire_encode_result_schema_change(base_buf_t *b, const wire_schema_change_t *sc);
void wire_encode_event_schema_change(base_buf_t *b, const wire_schema_change_t *sc);

/* ---- client side: requests out, responses in ---------------------------- */

/*
 * Requests are framed as responses are (same builder): begin writes a
 * request header (direction bit clear), the body is appended with the
 * encoders below, end patches flags and length and compresses the body with
 * lz4 when asked and when that is shorter (spec 5 lets each frame choose).
 */
void wire_request_begin(wire_response_t *rb, base_buf_t *out, uint8_t version, int16_t stream,
                        uint8_t opcode);
void wire_request_end(wire_response_t *rb, bool compress);

/* Request bodies (append between begin and end). */
void wire_encode_startup(base_buf_t *b, const char *const *keys, const char *const *values,
                         size_t n); /* [string map] */
void wire_encode_auth_response(base_buf_t *b, const uint8_t *token, int32_t len);
void wire_encode_prepare(base_buf_t *b, const char *query, size_t len);
void wire_encode_query(base_buf_t *b, const char *query, size_t len, const wire_query_params_t *p);
void wire_encode_execute(base_buf_t *b, const uint8_t *id, uint16_t id_len,
                         const wire_query_params_t *p);
/*
 * <query_parameters> in the v4 layout. The flags follow from the fields:
 * values when n_values > 0 (with names when names != NULL), page size when
 * page_size > 0, paging state when paging_state.ptr != NULL and len >= 0,
 * serial consistency when serial_consistency is neither 0 nor SERIAL,
 * timestamp when has_timestamp (so a zeroed struct sends none of them); of
 * p->flags only WIRE_QF_SKIP_METADATA is taken.
 */
void wire_put_query_params(base_buf_t *b, const wire_query_params_t *p);

/* Column metadata as decoded from a response; slices borrow from the body. */
typedef struct wire_col_meta_s {
    base_str_t keyspace;
    base_str_t table;
    base_str_t name;
    const wire_type_t *type;
} wire_col_meta_t;

/* <metadata> of a Rows result or of a Prepared result's two parts. */
typedef struct wire_rows_meta_s {
    uint32_t flags; /* WIRE_ROWS_* */
    size_t n_cols;
    wire_value_t paging_state; /* len < 0: no more pages */
    wire_col_meta_t *cols;     /* NULL with WIRE_ROWS_NO_METADATA */
    size_t n_pk;               /* Prepared bind metadata (v4): partition-key indexes */
    uint16_t *pk_indexes;
} wire_rows_meta_t;

/*
 * A decoded response body (what a client reads). Slices borrow from the
 * body, arrays come from the arena. EVENT bodies are decoded up to their
 * type only; the rest of an EVENT is left unread.
 */
typedef struct wire_reply_s {
    uint8_t opcode;
    bool has_tracing;
    uint8_t tracing_id[16];
    size_t n_warnings;
    base_str_t *warnings;
    size_t n_payload;
    base_str_t *payload_keys;
    wire_value_t *payload_values;
    union {
        struct { /* ERROR */
            int32_t code;
            base_str_t message;
            wire_value_t detail; /* the code-specific bytes after the message */
        } error;
        base_str_t authenticator; /* AUTHENTICATE */
        wire_value_t auth_token;  /* AUTH_CHALLENGE, AUTH_SUCCESS */
        struct {                  /* SUPPORTED: [string multimap] */
            size_t n;
            base_str_t *keys;
            size_t *n_values;
            base_str_t **values;
        } supported;
        base_str_t event_type;      /* EVENT */
        struct {                    /* RESULT */
            int32_t kind;           /* WIRE_RESULT_* */
            base_str_t keyspace;    /* SET_KEYSPACE, SCHEMA_CHANGE */
            wire_rows_meta_t meta;  /* ROWS; PREPARED: result metadata */
            size_t n_rows;          /* ROWS */
            wire_value_t *cells;    /* ROWS: n_rows * meta.n_cols, row-major */
            wire_value_t id;        /* PREPARED */
            wire_rows_meta_t binds; /* PREPARED: bind-variable metadata */
            base_str_t change;      /* SCHEMA_CHANGE */
            base_str_t target;
            base_str_t name;
        } result;
    } u;
} wire_reply_t;

/*
 * Decodes the body of a response frame (already decompressed): the
 * tracing id, warnings and custom payload the flags announce, then the
 * message. Returns BASE_OK, or BASE_ERROR with a Protocol error in err for
 * a request frame, a malformed, truncated or trailing-garbage body, or an
 * opcode a server does not send.
 */
int wire_reply_decode(wire_reply_t *out, const wire_header_t *h, const uint8_t *body, size_t len,
                      base_arena_t *a, base_error_t *err);
/* The custom-payload entry key as an 8-byte big-endian double (RequestCharge):
 * true and *out when present with exactly 8 bytes. */
bool wire_reply_payload_double(const wire_reply_t *r, const char *key, double *out);

#endif
