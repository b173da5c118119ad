/*
 * value.h - the value room of cql/ (cql/value/): CQL types and values, native type lookup,
 * type names, literal and function evaluation into serialized [bytes],
 * validation of bound values, ordering, the order-preserving clustering-key
 * encoding, partition-key composition and collection (de)serialization.
 *
 * Serialized forms are the native protocol's (v3+): int = 4 bytes BE,
 * bigint/timestamp/counter = 8, boolean = 1, float/double IEEE BE,
 * uuid/timeuuid = 16, text = UTF-8, decimal = [int scale][varint], varint =
 * two's complement minimal BE, date = uint32 days with 2^31 = epoch,
 * time = int64 ns, smallint 2, tinyint 1, inet 4 or 16, duration = three
 * signed vints; list/set = [int n]([int len][bytes])*, map likewise with
 * key, value pairs; tuple/UDT = ([int len][bytes])* (len -1 = null).
 *
 * All output memory comes from the arena argument.
 */
#ifndef CQL_VALUE_H
#define CQL_VALUE_H

#include "cql/parse/parse.h"
#include "wire/wire.h"

/* ---- types ------------------------------------------------------------------------ */

/* The shared immutable type for a native CQL type name ("text", "varchar",
 * "int", "counter", "timeuuid", ...); NULL if name is not native. */
const wire_type_t *cql__type_native(const char *name);
/* Builds list<e>, set<e>, map<k,v>, tuple<...> in the arena. */
const wire_type_t *cql__type_collection(base_arena_t *a, uint16_t id, bool frozen,
                                        const wire_type_t *const *sub, size_t n_sub);
/* The CQL name as system_schema shows it: "text", "map<text, int>",
 * "frozen<list<int>>", "frozen<tuple<int, text>>", a UDT's bare name. */
const char *cql__type_name(const wire_type_t *t, base_arena_t *a);
bool cql__type_is_collection(const wire_type_t *t); /* list, set, map */
bool cql__type_has_duration(const wire_type_t *t);  /* a duration at any depth */
bool cql__type_equal(const wire_type_t *a, const wire_type_t *b);
/* Deep copy into heap memory (for the schema); free with cql__type_free. */
wire_type_t *cql__type_clone(const wire_type_t *t);
void cql__type_free(wire_type_t *t);

/* ---- evaluation ---------------------------------------------------------------------- */

/* Bound values of the current request, for CQL_TERM_BIND inside terms. */
typedef struct cql_binds_s {
    size_t n;
    const wire_value_t *values;
    const char *const *names; /* bind-marker names of the statement, may be NULL */
    bool no_json_fn;          /* refuse fromJson() (Cosmos DB: it does not work there) */
} cql_binds_t;

/*
 * Evaluates a term (literal, bind marker, collection/tuple/UDT literal,
 * function call such as now(), uuid(), currentTimestamp(), toTimestamp(x),
 * toDate(x), toUnixTimestamp(x), minTimeuuid(x), maxTimeuuid(x),
 * textAsBlob(x), blobAsText(x), <type>AsBlob(x), blobAs<type>(x)) as a value
 * of type t for column col (used in messages). Errors are Invalid (0x2200)
 * with Cassandra's texts, e.g.
 *   Invalid STRING constant (abc) for "v" of type int
 *   Invalid INTEGER constant (1) for "v" of type text
 *   Type error: cannot assign ... / Invalid null value for partition key part k
 * A bind marker whose value is unset yields len WIRE_VALUE_UNSET; null yields
 * WIRE_VALUE_NULL; bound bytes are validated with cql__value_validate.
 */
int cql__term_eval(const cql_term_t *term, const wire_type_t *t, const char *col,
                   const cql_binds_t *binds, base_arena_t *a, wire_value_t *out, base_error_t *err);

/* The term as Cassandra prints it in messages: 'abc', 12, [1, 2], (1, 1), now(), ?. */
const char *cql__term_text(const cql_term_t *term, base_arena_t *a);

/* A native scalar function over a value, for selectors (blobAsInt(intAsBlob(b)),
 * toUnixTimestamp(t)): its return type for an argument of type arg (NULL when it takes
 * none), refused as Cassandra refuses it; then its result for one value (null for a null
 * argument or a value the function rejects). */
int cql__function_value_type(const char *name, size_t n_args, const wire_type_t *arg,
                             const char *arg_text, base_arena_t *a, const wire_type_t **ret,
                             base_error_t *err);
wire_value_t cql__function_apply(const char *name, size_t n_args, const wire_type_t *arg_type,
                                 wire_value_t arg, base_arena_t *a);
/* CAST(x AS to) of a value of type from (CastFcts): whether Cassandra has that cast (the
 * same type, number to number or text, timeuuid/timestamp/date to date or timestamp,
 * most natives to text), then the cast value (null for null, empty or unconvertible). */
bool cql__cast_exists(const wire_type_t *from, const wire_type_t *to);
wire_value_t cql__value_cast(const wire_type_t *from, const wire_type_t *to, wire_value_t v,
                             base_arena_t *a);
/* The type a literal or bind-marker argument of a native function selector takes
 * (minTimeuuid('2019-08-03 11:03:02+00') reads a timestamp, blobAsInt(0x) a blob), chosen
 * among the function's signatures as FunctionResolver chooses, with its messages. */
int cql__function_term_arg_type(const char *name, const cql_term_t *arg, base_arena_t *a,
                                const wire_type_t **type, base_error_t *err);
/* The type the i-th argument of a native function term takes, for the metadata of a
 * bind marker there (blobAsInt(?) binds a blob); NULL when the function is unknown or
 * its overloads disagree. */
const wire_type_t *cql__function_arg_type(const cql_term_t *fn, size_t i);


/* Exact sum/avg arithmetic on serialized varints and decimals, as BigInteger and
 * BigDecimal compute it (numeric.c); null or empty operands read as 0. A decimal sum
 * keeps the larger scale (y is subtracted when subtract is set); a division by a row
 * count n truncates (varint) or rounds half-even at the dividend's scale (decimal). */
wire_value_t cql__varint_add(wire_value_t x, wire_value_t y, base_arena_t *a);
wire_value_t cql__varint_div(wire_value_t x, uint32_t n, base_arena_t *a);
wire_value_t cql__decimal_add(wire_value_t x, wire_value_t y, bool subtract, base_arena_t *a);
wire_value_t cql__decimal_div(wire_value_t x, uint32_t n, base_arena_t *a);


/* Checks serialized bytes against a type, with Cassandra's messages
 * ("Expected 4 or 0 byte int (3)", "Invalid UTF-8 bytes ..."). Null/unset
 * pass. */
int cql__value_validate(const wire_type_t *t, wire_value_t v, base_error_t *err);

/* Orders two non-null values of type t as CQL does (signed numbers, uuid
 * by version/time for timeuuid, bytes unsigned, text by bytes, collections
 * element-wise). <0, 0, >0. */
int cql__value_compare(const wire_type_t *t, wire_value_t a, wire_value_t b);

/* The value as a CQL literal, as cqlsh would print it ('text', 12,
 * 2024-01-01 00:00:00.000000+0000, {1, 2}, ...). Used for JSON, logs and
 * error messages. null prints as null. */
const char *cql__value_to_cql(const wire_type_t *t, wire_value_t v, base_arena_t *a);
/* The value as JSON (for SELECT JSON): strings quoted, numbers bare,
 * collections as arrays/objects. */
const char *cql__value_to_json(const wire_type_t *t, wire_value_t v, base_arena_t *a);

/* Big-endian two's complement of n (1 to 8) bytes, sign-extended. */
static inline int64_t cql__load_signed(const uint8_t *p, size_t n)
{
    uint64_t u = 0;
    for (size_t i = 0; i < n; i++) {
        u = (u << 8) | p[i];
    }
    if (n < 8 && (p[0] & 0x80)) {
        u |= ~(uint64_t)0 << (8 * n);
    }
    return (int64_t)u;
}

/* ---- key encodings -------------------------------------------------------------------- */

/* Appends v in an order-preserving, prefix-free encoding: memcmp on the
 * output orders like cql__value_compare, and no encoding is a prefix of
 * another. desc inverts every byte so the order reverses. Null and empty
 * values are encodable (null first, then empty). Where compare has ties
 * between different bytes (decimals equal in value with different scales,
 * tuples differing only by trailing nulls) the encoding breaks them, so
 * those stay distinct keys (see keyenc.c). */
void cql__keyenc_append(base_buf_t *b, const wire_type_t *t, wire_value_t v, bool desc);
/* Decodes one component written by cql__keyenc_append; returns bytes
 * consumed, or 0 if the input is malformed. */
size_t cql__keyenc_decode(const wire_type_t *t, const uint8_t *p, size_t len, bool desc,
                          base_arena_t *a, wire_value_t *out);

/* Partition key bytes as Cassandra serializes them for the token: a single
 * component as is; several as ([short len][bytes][byte 0])*. With several
 * components, a null part or one over 65535 bytes yields the empty value (a
 * key no partition has): callers check "Key length of %d is longer than
 * maximum of 65535" themselves. */
wire_value_t cql__pk_compose(const wire_value_t *parts, size_t n, base_arena_t *a);
/* The same bytes written to out when they fit in cap (nothing written
 * otherwise, or with out NULL); returns their length, or -1 for a null part
 * (or, with several, one over 65535 bytes). For callers that keep keys on
 * the stack. */
ptrdiff_t cql__pk_compose_into(const wire_value_t *parts, size_t n, uint8_t *out, size_t cap);
/* Splits composed bytes back into n parts; false if malformed. */
bool cql__pk_decompose(wire_value_t pk, size_t n, wire_value_t *parts);

/* ---- collections ---------------------------------------------------------------------- */

/* Splits a serialized list/set/map into elements (map: keys and values;
 * list/set: keys only, vals NULL). Returns the count or -1 if malformed. */
ssize_t cql__collection_split(const wire_type_t *t, wire_value_t v, base_arena_t *a,
                              wire_value_t **keys, wire_value_t **vals);
/* Sorts keys (and vals alongside when non-NULL) by cql__value_compare of t
 * with a stable sort, then drops equal keys keeping the first (sets) or the
 * last (maps, keep_last). Updates *n. */
void cql__values_sort(const wire_type_t *t, wire_value_t *keys, wire_value_t *vals, size_t *n,
                      bool keep_last);
/* Serializes n elements (vals NULL for list/set). */
wire_value_t cql__collection_build(const wire_type_t *t, const wire_value_t *keys,
                                   const wire_value_t *vals, size_t n, base_arena_t *a);

/* ---- uuids and time --------------------------------------------------------------------- */

void cql__uuid_random(uint8_t out[16]);  /* version 4 */
void cql__timeuuid_now(uint8_t out[16]); /* version 1, monotonic per process */
void cql__timeuuid_from_ms(uint8_t out[16], int64_t ms, bool max); /* min/maxTimeuuid */
int64_t cql__timeuuid_ms(const uint8_t uuid[16]);                  /* unix ms of a version-1 uuid */
/* Unix ms of a validated timeuuid, timestamp or date value (functions.c). */
int64_t cql__time_value_ms(uint16_t type_id, wire_value_t v);
void cql__uuid_format(const uint8_t uuid[16], char out[37]);
bool cql__uuid_parse(const char *text, uint8_t out[16]);

/* ---- small constructors (scalar.c) ---------------------------------------------------- */

const wire_type_t *cql__native_int(void);
const wire_type_t *cql__native_bigint(void);
const wire_type_t *cql__native_text(void);
const wire_type_t *cql__native_boolean(void);
wire_value_t cql__value_int(base_arena_t *a, int32_t v);
wire_value_t cql__value_bigint(base_arena_t *a, int64_t v);
wire_value_t cql__value_text(base_arena_t *a, const char *s);
wire_value_t cql__value_bool(base_arena_t *a, bool v);
wire_value_t cql__value_blob(base_arena_t *a, const uint8_t *p, size_t n);
wire_value_t cql__value_double(base_arena_t *a, double v);

/* ---- JSON (json.c) ------------------------------------------------------------------------ */

/* The columns an INSERT JSON object may name, in table order. */
typedef struct cql_json_columns_s {
    size_t n;
    const char *const *names;
    const wire_type_t *const *types;
} cql_json_columns_t;

typedef struct cql_json_row_s {
    const cql_term_t **terms; /* cols->n entries in table order; NULL where the key was absent */
} cql_json_row_t;

/* Parses an INSERT JSON object into one term per column (arena), with
 * Cassandra's errors ("JSON values map contains unrecognized column: x"). */
int cql__json_row(const char *text, size_t len, const cql_json_columns_t *cols, base_arena_t *a,
                  cql_json_row_t *row, base_error_t *err);
/* Parses one JSON value (fromJson()'s argument) into a term of the given type. */
int cql__json_value(const char *text, size_t len, const wire_type_t *type, base_arena_t *a,
                    const cql_term_t **out, base_error_t *err);

#endif
